"""The engine's work for a command runs off the event loop (:func:`bot.service.play.off_loop`).

A rule may search for a long time (Temple Rush at a round's end); the event
loop must meanwhile serve every other channel. The Oracle's engine is
wrapped so that each ``apply`` records the thread it ran on: a played step,
the table's timeout actions and a computer seat's moves (the Oracle with its
test computer player) must never apply on the loop's thread.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from bot import games
from bot.games.base import GameType
from bot.service import GameService
from bot.store import Store
from tests.conftest import ALICE, BOB, CHANNEL, GUILD, ORACLE
from tests.support import robots


class Recording:
    """The Oracle's engine, with the thread of each ``apply`` recorded."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.threads: list[threading.Thread] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def __reduce__(self) -> Any:  # its record is in this process: never sent to another
        raise TypeError("a recording engine stays in its process")

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        self.threads.append(threading.current_thread())
        return self._engine.apply(state, seat, action)


async def test_steps_and_timeouts_apply_off_the_event_loop(tmp_path: Path) -> None:
    oracle = games.REGISTRY["oracle"]
    engine = Recording(oracle.engine)
    registry = {"oracle": dataclasses.replace(oracle, engine=engine)}
    store = await Store.open(tmp_path / "ziggurat.db")
    try:
        service = GameService(store, registry, render=False)
        await service.lobby.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user=ALICE,
            game_type_name="oracle",
            options={"deadline": "1h"},
            seed=5,
        )
        await service.lobby.join(CHANNEL, BOB)
        await service.lobby.start(CHANNEL, ALICE)
        action = (await service.reading.legal_actions(CHANNEL, ALICE))[0]
        await service.play.act(CHANNEL, ALICE, str(action))
        stepped = len(engine.threads)
        [deadline] = [t for t in await store.timers() if t.kind == "deadline"]
        assert await service.timers.fire_due_timers(deadline.due_at + 1)  # Bob times out
    finally:
        await store.close()
    loop_thread = threading.current_thread()
    assert stepped >= 1 and len(engine.threads) > stepped
    assert [t for t in engine.threads if t is loop_thread] == []


async def test_a_computer_seats_moves_apply_off_the_event_loop(tmp_path: Path) -> None:
    engine = Recording(robots.ORACLE)  # cannot be sent: decided on a thread
    registry = {robots.ORACLE.name: GameType(engine=engine, render_public=ORACLE.render_public)}
    store = await Store.open(tmp_path / "ziggurat.db")
    try:
        service = GameService(store, registry, render=False, computer_pause=0.0)
        await service.lobby.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user=ALICE,
            game_type_name=robots.ORACLE.name,
            seed=5,
        )
        await service.lobby.add_computer(CHANNEL, ALICE, "easy")
        await service.lobby.start(CHANNEL, ALICE)
        row = await store.open_game_in(CHANNEL)
        assert row is not None
        engine.threads.clear()
        assert await service.timers.fire_due_timers()  # the computer seat plays its card
        moves = [m for m in await store.moves(row.id) if m.kind == "computer"]
    finally:
        await store.close()
    loop_thread = threading.current_thread()
    assert moves and engine.threads
    assert [t for t in engine.threads if t is loop_thread] == []
