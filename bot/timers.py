"""The timer task: one coroutine that sleeps until the next timer is due.

RoboDanny's pattern: timers live in the database (``Store`` table ``timers``),
so reminders and deadlines survive restarts; one task asks the store for the
earliest timer, sleeps until it is due, fires everything due through
:meth:`~bot.service.clock.Timers.fire_due_timers` and hands each
:class:`~bot.service.Outcome` to ``deliver`` (in Discord: a public message in
the game's channel, with its pings).

Decisions:

* The sleep is an ``asyncio.Event`` wait with a timeout, so
  :meth:`TimerRunner.wake` — installed as ``service.on_timer_change`` — cuts
  it short when a move arms an earlier timer. The event is cleared *before*
  each pass, so a wake-up that arrives while a pass runs is not lost. A
  change that arms nothing due before the task's planned wake-up does not
  wake it (a step re-arming a reminder a day away costs no pass, no reads);
  one told no due time always does.
* Sleeps are capped at :data:`MAX_SLEEP`: a suspended host or a changed clock
  is noticed within that time even if nobody wakes the task.
* Before its first pass the task repairs the running games that lost a
  timer (:meth:`~bot.service.clock.Timers.repair_timers`), so a game stopped
  by a crash in an older version is never left waiting for ever.
* The clock is the service's, so tests drive the runner with a fake clock and
  :meth:`wake` instead of waiting for real time.
* In a shard cluster (``shards`` not every shard, :mod:`bot.cluster`) a
  process fires only the timers of games whose guild it owns: each pass
  claims them with :meth:`~bot.store.Store.claim_due_timers` (one atomic
  ``UPDATE ... RETURNING``), sleeps until its own next timer
  (:meth:`~bot.store.Store.next_owned_timer`), and repairs only its own games
  at start. The claimant is the process's shard range (:attr:`ShardRange.label
  <bot.cluster.ShardRange.label>`): a process restarted with its range takes
  back its predecessor's claims at once, and a claim by a range that no
  longer runs (the cluster was re-split) lapses after :data:`CLAIM_LEASE`
  seconds. A claim does not delete: the timer still leaves the store in the
  commit of what it does (:mod:`bot.service.clock`), so a process killed
  while firing loses no timer, and the per-game version check stays the
  last guard. Its sleeps are capped at :data:`CLUSTER_MAX_SLEEP`: another
  process may change its games' timers (a restarted or re-split cluster, an
  admin's tool), and nobody else can wake it. Each timer it fires is logged
  at INFO with its game and the range. One process running every shard keeps
  the plain path (no claims), as before.
* A ``deliver`` that waits for each outcome's images itself (``drawn_early``:
  the bot's, which posts the public message once its board is drawn and the
  DMs once theirs are, :meth:`~bot.service.Outcome.drawn`) gets the outcomes
  as soon as they are stored, still drawing
  (:func:`~bot.service.announce.answered_early`); any other gets them whole.
* A failing ``deliver`` is logged and the next outcome is still delivered (the
  timer's effect is already committed: a reminder that cannot be posted is
  lost, a timeout move is not). A failing pass (the database) is logged and
  retried after :data:`RETRY_AFTER` seconds, or sooner on :meth:`wake`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable

from bot.cluster import ALL, ShardRange
from bot.service import GameService, Outcome
from bot.service.announce import answered_early
from bot.store import Store, TimerRow

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0
RETRY_AFTER = 30.0
#: seconds after which a claim by another shard range lapses (it stopped running)
CLAIM_LEASE = 60.0
#: the longest sleep of a process of a shard cluster (one indexed read each time)
CLUSTER_MAX_SLEEP = 5.0

Deliver = Callable[[Outcome], Awaitable[None]]


class TimerRunner:
    """Fires due timers and delivers their outcomes, for as long as it runs."""

    def __init__(
        self,
        store: Store,
        service: GameService,
        deliver: Deliver,
        *,
        max_sleep: float = MAX_SLEEP,
        shards: ShardRange = ALL,
        drawn_early: bool = False,
    ) -> None:
        self.shards = shards
        self.drawn_early = drawn_early
        if not shards.everything:
            max_sleep = min(max_sleep, CLUSTER_MAX_SLEEP)
        self.store = store
        self.service = service
        self.deliver = deliver
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        #: when (the service's clock) the task will look again by itself; -inf during a pass
        self._planned = -math.inf
        self._task: asyncio.Task[None] | None = None
        #: passes started and completed, for :meth:`sync` and diagnostics
        self.started = 0
        self.completed = 0
        self._progress = asyncio.Event()

    def start(self) -> asyncio.Task[None]:
        """Start the task (idempotent) and hook it to the service's timer changes."""
        self.service.on_timer_change = self.wake
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="ziggurat-timers")
        return self._task

    async def stop(self) -> None:
        """Cancel the task and wait for it; the timers stay in the database."""
        if self.service.on_timer_change == self.wake:
            self.service.on_timer_change = None
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def wake(self, due: float | None = None) -> None:
        """Re-read the next timer now (a move armed or moved one); with ``due`` (the
        earliest due time armed), only when that is before the planned wake-up."""
        if due is not None and due >= self._planned:
            return
        self._wake.set()

    async def sync(self) -> None:
        """Wake the task and wait until a pass that started after this call is complete.

        Tests use it after moving a fake clock: when it returns, every timer due
        at that time has been fired and delivered.
        """
        target = self.started + 1
        self.wake()
        while self.completed < target:
            if not self.running:
                raise RuntimeError("the timer task is not running")
            await self._progress.wait()

    async def run_once(self) -> list[Outcome]:
        """Fire every timer due now and deliver the outcomes; return them."""
        with answered_early(spawned=True) if self.drawn_early else contextlib.nullcontext():
            if self.shards.everything:
                outcomes = await self.service.timers.fire_due_timers()
            else:
                outcomes = await self.service.timers.fire_due_timers(claim=self._claim)
            for outcome in outcomes:
                log.info("timer of game %s fired by shards %s", outcome.game_id, self.shards.label)
        for outcome in outcomes:
            try:
                await self.deliver(outcome)
            except Exception:
                log.exception(
                    "could not deliver a timer outcome of game %s in channel %s",
                    outcome.game_id,
                    outcome.channel_id,
                )
        return outcomes

    async def _claim(self, now: float) -> list[TimerRow]:
        return await self.store.claim_due_timers(now, self.shards, self.shards.label, CLAIM_LEASE)

    async def _delay(self) -> float:
        if self.shards.everything:
            timer = await self.store.next_timer()
        else:
            timer = await self.store.next_owned_timer(self.shards, self.shards.label, CLAIM_LEASE)
        if timer is None:
            return self.max_sleep
        return min(self.max_sleep, max(0.0, timer.due_at - self.service.clock()))

    async def _loop(self) -> None:
        try:
            await self.service.timers.repair_timers(
                None if self.shards.everything else self.shards.owns
            )
        except Exception:
            log.exception("could not check the running games' timers at start")
        while True:
            self._planned = -math.inf  # a change made during the pass wakes it again
            self._wake.clear()
            self.started += 1
            try:
                await self.run_once()
                delay = await self._delay()
            except Exception:
                log.exception("timer pass failed; retrying in %s s", RETRY_AFTER)
                delay = RETRY_AFTER
            self._planned = self.service.clock() + delay
            self.completed = self.started
            self._progress.set()
            self._progress = asyncio.Event()
            if delay > 0:
                # asyncio.timeout, not wait_for: on Python 3.11 a wait_for cancelled just
                # as its event is set can hang the cancelling task
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()
