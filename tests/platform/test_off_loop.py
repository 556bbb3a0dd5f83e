"""The engine's work for a command runs off the event loop (:func:`bot.service.play.off_loop`).

A rule may search for a long time (Temple Rush at a round's end); the event
loop must meanwhile serve every other channel. The Oracle's engine is
wrapped so that each ``apply`` records the thread it ran on: a played step
and the table's timeout actions must never apply on the loop's thread.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from bot import games
from bot.service import GameService
from bot.store import Store
from tests.conftest import ALICE, BOB, CHANNEL, GUILD


class Recording:
    """The Oracle's engine, with the thread of each ``apply`` recorded."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.threads: list[threading.Thread] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

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
        await service.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user=ALICE,
            game_type_name="oracle",
            options={"deadline": "1h"},
            seed=5,
        )
        await service.join(CHANNEL, BOB)
        await service.start(CHANNEL, ALICE)
        action = (await service.legal_actions(CHANNEL, ALICE))[0]
        await service.act(CHANNEL, ALICE, str(action))
        stepped = len(engine.threads)
        [deadline] = [t for t in await store.timers() if t.kind == "deadline"]
        assert await service.fire_due_timers(deadline.due_at + 1)  # Bob times out
    finally:
        await store.close()
    loop_thread = threading.current_thread()
    assert stepped >= 1 and len(engine.threads) > stepped
    assert [t for t in engine.threads if t is loop_thread] == []
