"""Whenever a game awaits a seat, that seat has what will move it.

A member's seat has the game's turn clock (or its round deadline, or at least
its reminder); a computer seat a ``computer`` timer (while a member plays
on). Each path that changes who is awaited or how a seat plays writes that
with its own commit; :meth:`~bot.service.clock.Timers.audit` lists the games that lack it,
and the start-up repair restores it. Every test runs on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import games, plugins
from bot.games.base import GameType
from bot.service import GameService, Player
from bot.service.context import COMPUTER_TIMER
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CHANNEL, GUILD, ORACLE, RELAY
from tests.support import raw_sql, robots
from tests.support.oracle import OracleState
from tests.support.seated import channel_row

pytestmark = BOTH_BACKENDS

#: a lightning race's answer delay, as a brain could draw it (seconds)
RACE_DELAY = 600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class SlowBrain(robots.OracleBrain):
    """Oracle's brain with a race delay: it answers late while a member is awaited too."""

    def answer_delay(self, state: OracleState, seat: int, level: str, rng: random.Random) -> float:
        return RACE_DELAY


class SlowOracle(robots.RobotOracle):
    name = "slow_oracle"

    def computer(self) -> SlowBrain:
        return SlowBrain(self)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(store: Store, clock: Clock) -> GameService:
    registry = {
        **games.REGISTRY,
        **plugins.load_builtin_games(),
        "slow_oracle": GameType(SlowOracle(), ORACLE.render_public),
        "robot_oracle": GameType(robots.ORACLE, ORACLE.render_public),
        "robot_relay": GameType(robots.RELAY, RELAY.render_public),
    }
    return GameService(store, registry, clock=clock, render=False, computer_pause=0.0)


async def open_with_computer(
    table: GameService,
    game: str,
    *,
    seed: int,
    members: tuple[Player, ...] = (ALICE,),
    **options: str,
) -> None:
    await table.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=members[0],
        game_type_name=game,
        options=options,
        seed=seed,
    )
    for member in members[1:]:
        await table.lobby.join(CHANNEL, member)
    await table.lobby.add_computer(CHANNEL, members[0], "easy")
    await table.lobby.start(CHANNEL, members[0])


async def computer_timers(store: Store) -> list[Any]:
    row = await channel_row(store)
    return [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]


async def run_clock_until(table: GameService, clock: Clock, done: Any, limit: int = 60) -> None:
    """Fire the next due timers (moving the clock to them) until ``done(row)``."""
    for _ in range(limit):
        row = await channel_row(table.store)
        if done(row):
            return
        timers = await table.store.timers(row.id)
        assert timers, "the game waits with no timer at all"
        clock.now = max(clock.now, min(t.due_at for t in timers))
        await table.timers.fire_due_timers()
    raise AssertionError("the clock never got there")


def played(engine: Any, stored: Any, action: Any) -> Any:
    """The state after seat 0 plays ``action`` in the stored state (the engine alone)."""
    state = engine.load_state(stored)
    engine.apply(state, 0, action)
    return state


def awaited(table: GameService, row: Any) -> set[int]:
    engine = table.registry[row.game_type].engine
    return set(engine.waiting_for(engine.load_state(row.state)))


async def test_an_absent_member_who_plays_directly_hands_over_to_a_moving_computer(
    table: GameService, clock: Clock
) -> None:
    """Temple Rush: Alice times out twice (absent); in the next round she seals a brick
    herself instead of saying ``/game back`` first. The round now waits for the
    computer alone: it has its timer, and it moves."""
    await open_with_computer(table, "temple", seed=5, absent="2")
    await run_clock_until(
        table, clock, lambda row: row.seats[0].status == "absent" and 0 in awaited(table, row)
    )
    row = await channel_row(table.store)
    assert awaited(table, row) == {0, 1}  # a round: both seats
    assert await computer_timers(table.store) == []  # nobody plays on: the computer waits
    engine = table.registry["temple"].engine
    # a brick when she has one (the computer seat's secret is drawn afresh each run,
    # so the position varies), else whatever she may seal: she plays directly either way
    actions = [str(a) for a in engine.legal_actions(engine.load_state(row.state), 0)]
    place = next((a for a in actions if a.startswith("place")), actions[0])
    await table.play.act(CHANNEL, ALICE, place)
    row = await channel_row(table.store)
    assert row.seats[0].status == "playing" and awaited(table, row) == {1}
    assert len(await computer_timers(table.store)) == 1
    assert await table.timers.audit() == []
    before = row.last_seq
    await table.timers.fire_due_timers()
    moves = await table.store.moves(row.id, after=before)
    assert [m.kind for m in moves][:1] == ["computer"]


async def test_an_absent_member_who_ends_a_turn_directly_hands_over_to_a_moving_computer(
    table: GameService, clock: Clock
) -> None:
    """Tikal's auction: Alice's clock runs out twice (absent); at her next decision she
    answers herself with a step that hands the game to the computer, which has its
    timer."""
    await open_with_computer(table, "tikal", seed=5, clock="1d", absent="2", mode="auction")
    await run_clock_until(
        table, clock, lambda row: row.seats[0].status == "absent" and 0 in awaited(table, row)
    )
    row = await channel_row(table.store)
    engine = table.registry["tikal"].engine
    handing = [
        action
        for action in engine.legal_actions(engine.load_state(row.state), 0)
        if engine.waiting_for(played(engine, row.state, action)) == {1}
    ]
    assert handing, "no step of Alice's hands over at once"
    await table.play.act(CHANNEL, ALICE, str(handing[0]))
    row = await channel_row(table.store)
    assert awaited(table, row) == {1}
    assert len(await computer_timers(table.store)) == 1
    assert await table.timers.audit() == []


async def test_back_and_resign_write_the_computer_timer_with_the_seat(
    table: GameService, store: Store, clock: Clock
) -> None:
    """A seat change that lets the computers play on again carries their timer in its
    own commit; one that stops them drops it."""
    await open_with_computer(table, "robot_oracle", seed=4, members=(ALICE, BOB), absent="2")
    row = await channel_row(store)
    await raw_sql.execute(
        store, "UPDATE seats SET status = 'absent' WHERE game_id = ? AND user_id > 0", row.id
    )
    await raw_sql.execute(store, "DELETE FROM timers WHERE kind = ?", COMPUTER_TIMER)
    assert await table.timers.audit() == []  # no member plays on: the computer waits for one
    await table.seats.back(CHANNEL, ALICE)
    assert len(await computer_timers(store)) == 1
    assert await table.timers.audit() == []
    await table.seats.resign(CHANNEL, ALICE, confirmed=True)  # Bob absent, Alice resigned
    assert await computer_timers(store) == []
    assert await table.timers.audit() == []


async def test_the_audit_lists_a_game_awaiting_a_computer_with_no_timer(
    table: GameService, store: Store
) -> None:
    await open_with_computer(table, "robot_relay", seed=11)
    row = await channel_row(store)
    if row.seats[next(iter(awaited(table, row)))].computer is None:  # Alice first
        await table.play.act(CHANNEL, ALICE, "end")
    assert len(await computer_timers(store)) == 1
    assert await table.timers.audit() == []
    await raw_sql.execute(store, "DELETE FROM timers WHERE kind = ?", COMPUTER_TIMER)
    (found,) = await table.timers.audit()
    assert found.game_id == row.id and [kind for kind, _, _ in found.missing] == [COMPUTER_TIMER]
    assert await table.timers.repair_timers() == 1
    assert await table.timers.audit() == []


async def test_a_repaired_computer_timer_keeps_a_races_delay(
    table: GameService, store: Store, clock: Clock
) -> None:
    """While a member is awaited with it, the computer answers after its delay; a timer
    restored at start keeps that delay instead of being due at once."""
    await open_with_computer(table, "slow_oracle", seed=2)
    (timer,) = await computer_timers(store)
    assert timer.due_at == clock.now + RACE_DELAY
    await store.delete_timer(timer.id)
    clock.now += 30.0  # a restart
    assert await table.timers.repair_timers() == 1
    (repaired,) = await computer_timers(store)
    assert repaired.due_at == clock.now + RACE_DELAY
