"""The timer task (:class:`bot.timers.TimerRunner`) with the Oracle game on real SQLite.

A fake clock drives due times; :meth:`TimerRunner.sync` waits for a complete
pass instead of sleeping. Two tests use the real clock with a deadline of a
few milliseconds to prove the task sleeps until a timer is due on its own and
wakes early when a new timer is armed; their timeouts only turn a hang into a
failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import games, plugins
from bot.i18n import Text
from bot.service import GameService, Outcome
from bot.store import Store
from bot.timers import TimerRunner
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL, GUILD
from tests.support import timer_stream

HOUR = 3600.0
DAY = 24 * HOUR
GUARD = 10.0  # seconds before a hang becomes a failure; no assertion depends on it


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Delivered:
    """The ``deliver`` callable: records outcomes, optionally failing for a channel."""

    def __init__(self, fail_in: int | None = None) -> None:
        self.outcomes: list[Outcome] = []
        self.queue: asyncio.Queue[Outcome] = asyncio.Queue()
        self.fail_in = fail_in

    async def __call__(self, outcome: Outcome) -> None:
        if outcome.channel_id == self.fail_in:
            raise ConnectionError("channel unreachable")
        self.outcomes.append(outcome)
        self.queue.put_nowait(outcome)


async def start_game(service: GameService, channel: int = CHANNEL) -> int:
    created = await service.lobby.new_game(
        guild_id=GUILD, channel_id=channel, user=ALICE, game_type_name="oracle"
    )
    await service.lobby.join(channel, BOB)
    await service.lobby.join(channel, CAROL)
    await service.lobby.start(channel, ALICE)
    assert created.game_id is not None
    return created.game_id


@pytest.fixture
async def runner_parts(
    store: Store,
) -> AsyncIterator[tuple[Clock, GameService, Delivered, TimerRunner]]:
    clock = Clock()
    service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
    delivered = Delivered()
    runner = TimerRunner(store, service, delivered)
    yield clock, service, delivered, runner
    await runner.stop()


@BOTH_BACKENDS
async def test_reminder_fires_when_due_and_rearms(runner_parts, store: Store) -> None:
    clock, service, delivered, runner = runner_parts
    game_id = await start_game(service)
    runner.start()
    await runner.sync()
    assert delivered.outcomes == []  # not due yet

    clock.now += HOUR - 1
    await runner.sync()
    assert delivered.outcomes == []

    clock.now += 1
    await runner.sync()
    [reminder] = delivered.outcomes
    assert reminder.channel_id == CHANNEL and reminder.game_id == game_id
    assert reminder.news.lines == [
        Text("reminder.public", {"players": reminder.news.lines[0].params["players"]})
    ]
    assert sorted(reminder.news.ping) == sorted([ALICE.id, BOB.id, CAROL.id])
    [timer] = await store.timers(game_id)
    assert (timer.kind, timer.due_at) == ("reminder", clock.now + HOUR)


@BOTH_BACKENDS
async def test_a_move_rearms_the_reminder(runner_parts, store: Store) -> None:
    clock, service, delivered, runner = runner_parts
    await start_game(service)
    runner.start()
    clock.now += HOUR / 2
    for user in (ALICE, BOB, CAROL):  # the round's cards: the game now waits for the winner
        [card, *_] = await service.reading.legal_actions(CHANNEL, user)
        await service.play.act(CHANNEL, user, str(card))
    clock.now += HOUR / 2
    await runner.sync()
    assert delivered.outcomes == []  # the wait began again with the decision
    clock.now += HOUR / 2
    await runner.sync()
    [reminder] = delivered.outcomes
    assert len(reminder.news.ping) == 1


async def test_timers_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    clock = Clock()
    store = await Store.open(path)
    service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
    first = TimerRunner(store, service, Delivered())
    first.start()
    game_id = await start_game(service)
    await first.stop()
    await store.close()

    clock.now += 2 * HOUR  # the process was down when the reminder fell due
    store = await Store.open(path)
    try:
        service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
        delivered = Delivered()
        second = TimerRunner(store, service, delivered)
        second.start()
        await second.sync()
        await second.stop()
        [reminder] = delivered.outcomes
        assert reminder.game_id == game_id
    finally:
        await store.close()


@BOTH_BACKENDS
async def test_a_failing_delivery_does_not_stop_the_others(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
    delivered = Delivered(fail_in=CHANNEL)
    runner = TimerRunner(store, service, delivered)
    await start_game(service, CHANNEL)
    await start_game(service, CHANNEL + 1)
    runner.start()
    clock.now += HOUR
    with caplog.at_level(logging.ERROR, logger="bot.timers"):
        await runner.sync()
    await runner.stop()
    assert [o.channel_id for o in delivered.outcomes] == [CHANNEL + 1]
    assert "could not deliver a timer outcome" in caplog.text
    assert len(await store.timers()) == 2  # both re-armed


@BOTH_BACKENDS
async def test_sleeps_until_the_timer_is_due(store: Store) -> None:
    """Real clock: the reminder falls due 50 ms after the start; nobody wakes the task."""
    service = GameService(store, games.REGISTRY, deadline_hours=0.05 / HOUR, render=False)
    delivered = Delivered()
    runner = TimerRunner(store, service, delivered)
    await start_game(service)
    runner.start()
    service.on_timer_change = None  # prove it is the sleep, not a wake-up, that fires it
    try:
        reminder = await asyncio.wait_for(delivered.queue.get(), GUARD)
    finally:
        await runner.stop()
    assert reminder.channel_id == CHANNEL


@BOTH_BACKENDS
async def test_wakes_early_when_a_timer_is_armed(store: Store) -> None:
    """The task sleeps for an hour with no timers; arming one must cut that short."""
    service = GameService(store, games.REGISTRY, deadline_hours=0.05 / HOUR, render=False)
    delivered = Delivered()
    runner = TimerRunner(store, service, delivered)
    runner.start()
    await runner.sync()  # now asleep for max_sleep: there is no timer
    await start_game(service)  # arms a reminder and calls service.on_timer_change
    try:
        reminder = await asyncio.wait_for(delivered.queue.get(), GUARD)
    finally:
        await runner.stop()
    assert reminder.channel_id == CHANNEL
    assert runner.started >= 2


async def test_a_step_wakes_the_task_only_for_a_timer_due_before_its_planned_wake(
    runner_parts,
) -> None:
    """A step re-arming the reminder an hour away costs the sleeping task no pass; a
    change arming a sooner timer, or one that says no due time, wakes it."""
    clock, service, _delivered, runner = runner_parts
    await start_game(service)  # the reminder is an hour away: the task plans to look then
    runner.start()
    await runner.sync()
    passes = runner.started
    clock.now += 60
    for player in (ALICE, BOB, CAROL):  # the round resolves: the reminder is re-armed later
        legal = await service.reading.legal_actions(CHANNEL, player)
        await service.play.act(CHANNEL, player, str(legal[0]))
    for _ in range(20):  # a wake-up would start a pass within these turns of the loop
        await asyncio.sleep(0)
    assert runner.started == passes

    async def passed() -> None:
        while runner.started == passes:
            await asyncio.sleep(0)

    service.ctx.timers_changed(clock.now + 1)  # sooner than planned
    await asyncio.wait_for(passed(), GUARD)
    await runner.sync()
    passes = runner.started
    service.ctx.timers_changed()  # no due time: any timer may have moved
    await asyncio.wait_for(passed(), GUARD)


async def test_stop_unhooks_and_keeps_the_timers(runner_parts, store: Store) -> None:
    _clock, service, _delivered, runner = runner_parts
    runner.start()
    assert service.on_timer_change == runner.wake
    await runner.stop()
    assert service.on_timer_change is None and not runner.running
    await start_game(service)
    assert len(await store.timers()) == 1


# -- a process killed while it fires timers ----------------------------------------------

STREAM = Path(__file__).resolve().parent / "support" / "timer_stream.py"


async def _child(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(STREAM),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


def _timeouts(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves WHERE kind = 'timeout'").fetchone()[0])


async def _fire_and_kill(path: Path, after: int) -> bool:
    """Fire due timers in a child; kill it once ``after`` more timeout rows are stored.
    True when the child finished first."""
    start = _timeouts(path)
    child = await _child("fire", str(path))
    try:
        while child.returncode is None:
            if _timeouts(path) >= start + after:
                os.kill(child.pid, signal.SIGKILL)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(child.wait(), timeout=0.002)
    finally:
        if child.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGKILL)
        out, err = await child.communicate()
    if child.returncode not in (0, -signal.SIGKILL):
        pytest.fail(f"the child failed: {err.decode()[-2000:]}")
    return b"DONE" in out


@pytest.mark.slow
async def test_a_process_killed_while_it_fires_timers_loses_none(tmp_path: Path) -> None:
    """SIGKILL at random points of a stream of due deadlines and turn clocks: afterwards
    every running game still holds the timer its options call for (a Temple Rush round
    its deadline, a Tikal turn its clock, an Oracle round its computer seat's move), so
    nothing waits for ever."""
    path = tmp_path / "timers.db"
    setup = await _child("setup", str(path), "40")
    out, err = await setup.communicate()
    assert b"READY" in out, err.decode()[-2000:]
    rng = random.Random(7)
    kills = 0
    for _ in range(12):
        if await _fire_and_kill(path, rng.randint(1, 4)):
            break
        kills += 1
    assert kills >= 6, "the stream ended before it was killed enough times"
    known = timer_stream.registry()
    store = await Store.open(path)
    try:
        lost = []
        for game_id in await store.game_ids(("running",)):
            row = await store.get_game(game_id)
            assert row is not None
            engine = known[row.game_type].engine
            state = engine.load_state(row.state)
            if not engine.waiting_for(state):
                continue
            timers = {(t.kind, t.name) for t in await store.timers(row.id)}
            wanted = {("deadline", d.name) for d in engine.deadlines(state)}
            if row.game_type == "tikal":
                wanted.add(("clock", "turn"))
            awaited = engine.waiting_for(state)
            if any(row.seats[seat].computer is not None for seat in awaited):
                wanted.add(("computer", ""))
            if not wanted <= timers:
                lost.append((row.id, row.game_type, sorted(wanted - timers)))
        assert lost == []
        assert _timeouts(path) > 0
        with contextlib.closing(sqlite3.connect(path, timeout=5)) as db:
            computer = "SELECT COUNT(*) FROM moves WHERE kind = 'computer'"
            assert int(db.execute(computer).fetchone()[0]) > 0
    finally:
        await store.close()


@pytest.mark.slow
async def test_the_timer_task_restores_timers_an_older_version_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A Temple Rush round that kept only its reminder, a Tikal turn with no clock left and
    a reminder-only game with none: the task's start gives each back what its options
    call for; the lost deadline fires at once, the turn clock runs from the decision's
    start; a paused game and a game with all its timers are left alone."""
    plugins.load_builtin_games()
    path = tmp_path / "lost.db"
    clock = Clock()
    store = await Store.open(path)
    service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
    games_opened = {}
    for channel, (game, options) in enumerate(
        [
            ("temple", {"deadline": "4h"}),
            ("tikal", {"mode": "mini", "clock": "1d"}),
            ("tigris", {}),
            ("tigris", {}),  # keeps its timers
            ("tikal", {"mode": "mini", "clock": "1d"}),  # paused by its host
        ],
        start=1,
    ):
        await service.lobby.new_game(
            guild_id=GUILD, channel_id=channel, user=ALICE, game_type_name=game, options=options
        )
        await service.lobby.join(channel, BOB)
        await service.lobby.start(channel, ALICE)
        row = await store.open_game_in(channel)
        assert row is not None
        games_opened[channel] = row.id
    await service.seats.pause(5, ALICE, can_manage_channel=True)
    before = {gid: await store.timers(gid) for gid in games_opened.values()}
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # what the crash left
        db.execute("DELETE FROM timers WHERE game_id = ? AND kind = 'deadline'", (games_opened[1],))
        db.execute("DELETE FROM timers WHERE game_id IN (?, ?)", (games_opened[2], games_opened[3]))

    store = await Store.open(path)
    service = GameService(store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False)
    delivered = Delivered()
    runner = TimerRunner(store, service, delivered)
    try:
        with caplog.at_level(logging.WARNING):
            runner.start()
            await runner.sync()
        # the lost round deadline was due: its timeout batch is played and announced
        [round_end] = delivered.outcomes
        assert round_end.game_id == games_opened[1] and round_end.news.lines
        assert any(t.kind == "deadline" for t in await store.timers(games_opened[1]))
        turn = {t.name: t.due_at for t in await store.timers(games_opened[2])}
        end = clock.now + DAY  # the clock restarts with the decision: it began "now"
        assert turn == {"turn": end, "half": end - DAY / 2, "soon": end - 3 * HOUR}
        [reminder] = await store.timers(games_opened[3])
        assert (reminder.kind, reminder.due_at) == ("reminder", clock.now + HOUR)
        assert await store.timers(games_opened[4]) == before[games_opened[4]]
        assert await store.timers(games_opened[5]) == []  # paused: nothing runs
        # read from the message: a redacting filter may have folded the args into it
        repaired = {
            int(r.getMessage().split()[1])
            for r in caplog.records
            if "lost its timers" in r.getMessage()
        }
        assert repaired == {games_opened[1], games_opened[2], games_opened[3]}
        clock.now += DAY  # the restored turn clock ends and plays the timeout
        await runner.sync()
        assert delivered.outcomes[-1].game_id == games_opened[2]
    finally:
        await runner.stop()
        await store.close()
