"""The engine's work for a command runs off the event loop (:func:`bot.service.play.off_loop`)
unless the engine declares it calm (:meth:`bot.games.base.GameEngine.calm`).

A rule may search for a long time (Temple Rush at a round's end); the event
loop must meanwhile serve every other channel. An engine is wrapped so that
each ``apply`` (and each ``legal_actions``, the move picker's work) records the
thread it ran on. The Oracle declares nothing calm (the contract's default): a
played step, the table's timeout actions and a computer seat's moves (the
Oracle with its test computer player) must never apply on the loop's thread.
Temple Rush declares a round's sealed parts calm until the round's last: those
apply on the loop's thread, the last (it reveals the round and searches) off
it, as the move picker's work (a menu's build) always is; Tigris & Euphrates
declares every step calm, an undo's rebuild included.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from bot import games, plugins
from bot.games.base import GameType
from bot.service import GameService, Player, play
from bot.store import GameRow, MoveRow, Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ORACLE
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


Call = tuple[str, bool, threading.Thread]


def recorded(name: str) -> tuple[Any, list[Call]]:
    """A fresh engine of the game ``name`` whose ``apply`` and ``legal_actions`` record
    the thread they ran on, and for ``apply`` whether the engine declared it calm (the
    move picker's work never is); its record."""
    engine = type(plugins.load_builtin_games()[name].engine)()
    calls: list[Call] = []
    apply, legal_actions = engine.apply, engine.legal_actions

    def applying(state: Any, seat: int, action: Any) -> Any:
        calls.append(("apply", engine.calm(state, seat, action), threading.current_thread()))
        return apply(state, seat, action)

    def listing(state: Any, seat: int) -> Any:
        calls.append(("legal_actions", False, threading.current_thread()))
        return legal_actions(state, seat)

    engine.apply, engine.legal_actions = applying, listing
    return engine, calls


async def started(tmp_path: Path, name: str, engine: Any) -> tuple[Store, GameService]:
    """A game of ``name`` for Alice, Bob and Carol, started, its engine ``engine``."""
    registry = {name: dataclasses.replace(plugins.load_builtin_games()[name], engine=engine)}
    store = await Store.open(tmp_path / "ziggurat.db")
    service = GameService(store, registry, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name=name, seed=5
    )
    for player in (BOB, CAROL):
        await service.lobby.join(CHANNEL, player)
    await service.lobby.start(CHANNEL, ALICE)
    return store, service


async def first_seat(store: Store) -> tuple[GameRow, Player]:
    """The started game's row and the player in its seat 0."""
    row = await store.open_game_in(CHANNEL)
    assert row is not None
    first = next(s for s in row.seats if s.seat == 0)
    return row, next(p for p in (ALICE, BOB, CAROL) if p.id == first.user_id)


async def test_a_rounds_calm_parts_apply_on_the_loop_and_its_last_off_it(tmp_path: Path) -> None:
    engine, calls = recorded("temple")
    store, service = await started(tmp_path, "temple", engine)
    try:
        await service.play.act(CHANNEL, ALICE, "pass")
        await service.play.act(CHANNEL, BOB, "pass")
        await service.tapping.tap(CHANNEL, CAROL)  # the picker's work: off the loop
        await service.tapping.tap(CHANNEL, ALICE)
        last = len(calls)
        await service.play.act(CHANNEL, CAROL, "pass")  # the round's last: revealed
    finally:
        await store.close()
    loop_thread = threading.current_thread()
    applied = [(calm, thread is loop_thread) for kind, calm, thread in calls]
    assert applied[:2] == [(True, True), (True, True)]  # Alice's and Bob's passes
    picked = [t is loop_thread for k, _, t in calls[2:last] if k == "legal_actions"]
    assert picked and not any(picked)  # the pickers' work, off the loop
    assert [(k, c, t is loop_thread) for k, c, t in calls[last:]] == [("apply", False, False)]


async def test_a_calm_games_steps_and_undo_apply_on_the_loop(tmp_path: Path) -> None:
    engine, calls = recorded("tigris")
    store, service = await started(tmp_path, "tigris", engine)
    try:
        row, player = await first_seat(store)
        state = engine.load_state(row.state)
        placed = next(
            a for a in engine.legal_actions(state, 0) if str(a).startswith(("tile", "place"))
        )
        calls.clear()
        await service.play.act(CHANNEL, player, str(placed))
        await service.play.undo(CHANNEL, player)
        undone = await store.open_game_in(CHANNEL)
    finally:
        await store.close()
    loop_thread = threading.current_thread()
    applied = [(c, t is loop_thread) for k, c, t in calls if k == "apply"]
    assert applied and set(applied) == {(True, True)}
    assert undone is not None and undone.state == row.state  # taken back


async def test_an_undos_rebuild_applies_calm_steps_on_the_loop_and_others_off_it() -> None:
    loop_thread = threading.current_thread()
    for name, seats, on_loop in (("tigris", 3, True), ("temple", 3, False)):
        engine, calls = recorded(name)
        state = engine.new_game(seats, {}, 5)
        seat = min(engine.waiting_for(state))
        action = "pass" if name == "temple" else str(engine.legal_actions(state, seat)[0])
        if name == "temple":  # the round's last submission: not calm
            for other in range(1, seats):
                engine.apply(state, other, engine.parse_action(action))
        checkpoint = engine.dump_state(state)
        calls.clear()
        rebuilt = await play.rebuilt(engine, checkpoint, [MoveRow(1, seat, action, 0.0)])
        assert [(k, c, t is loop_thread) for k, c, t in calls] == [("apply", on_loop, on_loop)]
        expected = engine.load_state(checkpoint)
        engine.apply(expected, seat, engine.parse_action(action))
        assert engine.dump_state(rebuilt) == engine.dump_state(expected)


async def test_each_tap_takes_the_engine_threads_as_few_trips_as_it_can(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Opening the picker is one trip to an engine thread (built, its menu drawn up);
    a tap that narrows the pick is one (built, the choice read and made, the next
    menu); a tap that plays a step the seat goes on from is two (the same, then the
    next menu from the state the step left), the step applied on the loop (calm) and
    nothing else of the engine's there."""
    from bot.service import tapping

    trips: list[str] = []
    real = tapping.off_loop

    async def counted(work: Any, *args: Any) -> Any:
        trips.append(getattr(work, "__name__", "?"))
        return await real(work, *args)

    monkeypatch.setattr(tapping, "off_loop", counted)
    engine, calls = recorded("tigris")
    store, service = await started(tmp_path, "tigris", engine)
    try:
        _, player = await first_seat(store)
        answer = await service.tapping.tap(CHANNEL, player)
        assert answer.menu is not None and len(trips) == 1
        per_tap: list[int] = []
        while answer.outcome is None:
            assert answer.menu is not None
            option = answer.menu.sections[0].options[0]
            trips.clear()
            answer = await service.tapping.tap(CHANNEL, player, answer.menu.token, [option.token])
            per_tap.append(len(trips))
        assert answer.outcome.version is not None and answer.menu is not None  # it goes on
    finally:
        await store.close()
    assert per_tap[:-1] == [1] * (len(per_tap) - 1) and per_tap[-1] == 2, per_tap
    on_loop = [k for k, _, t in calls if t is threading.current_thread()]
    assert on_loop == ["apply"]  # the step; the picker's judgements were tried off the loop
