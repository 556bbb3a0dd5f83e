"""The timer task (:class:`bot.timers.TimerRunner`) with the Oracle game on real SQLite.

A fake clock drives due times; :meth:`TimerRunner.sync` waits for a complete
pass instead of sleeping. Two tests use the real clock with a deadline of a
few milliseconds to prove the task sleeps until a timer is due on its own and
wakes early when a new timer is armed; their timeouts only turn a hang into a
failure.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import games
from bot.i18n import Text
from bot.service import GameService, Outcome
from bot.store import Store
from bot.timers import TimerRunner
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

HOUR = 3600.0
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
    created = await service.new_game(
        guild_id=GUILD, channel_id=channel, user=ALICE, game_type_name="oracle"
    )
    await service.join(channel, BOB)
    await service.join(channel, CAROL)
    await service.start(channel, ALICE)
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
    assert reminder.public == [
        Text("reminder.public", {"players": reminder.public[0].params["players"]})
    ]
    assert sorted(reminder.ping) == sorted([ALICE.id, BOB.id, CAROL.id])
    [timer] = await store.timers(game_id)
    assert (timer.kind, timer.due_at) == ("reminder", clock.now + HOUR)


async def test_a_move_rearms_the_reminder(runner_parts, store: Store) -> None:
    clock, service, delivered, runner = runner_parts
    await start_game(service)
    runner.start()
    clock.now += HOUR / 2
    for user in (ALICE, BOB, CAROL):  # the round's cards: the game now waits for the winner
        [card, *_] = await service.legal_actions(CHANNEL, user)
        await service.act(CHANNEL, user, str(card))
    clock.now += HOUR / 2
    await runner.sync()
    assert delivered.outcomes == []  # the wait began again with the decision
    clock.now += HOUR / 2
    await runner.sync()
    [reminder] = delivered.outcomes
    assert len(reminder.ping) == 1


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


async def test_stop_unhooks_and_keeps_the_timers(runner_parts, store: Store) -> None:
    _clock, service, _delivered, runner = runner_parts
    runner.start()
    assert service.on_timer_change == runner.wake
    await runner.stop()
    assert service.on_timer_change is None and not runner.running
    await start_game(service)
    assert len(await store.timers()) == 1
