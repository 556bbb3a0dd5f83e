"""Timers of the games: reminders and deadlines, fired from the store's timers table.

Decisions:

* Reminders: while a game waits, a ``reminder`` timer is due one reminder
  interval after the game last handed over; when it fires it pings the
  seats the game waits for and re-arms itself.
* Deadlines are named by the engine (``round:3``); when one expires, the
  engine's timeout actions for that name are applied as one batch with one
  public message (:meth:`bot.service.play.Play.timeouts`).
* The turn clock (:mod:`bot.service.turn_clock`) has three timers: ``half`` and
  ``soon`` remind the awaited players when their time runs out; ``turn``
  plays their timeout actions.
* A timer leaves the store in the transaction that commits what it does,
  never before: a deadline's or a turn clock's timeout batch deletes its
  timer in the step's own commit (refused, nothing written, when another
  pass took it first); a reminder is replaced by the next one in one write.
  A process killed while it fires a timer leaves either the timer, which
  fires again at the next start, or its committed effect. What a timer
  only says (a reminder's ping) is sent after its row is gone, so it is
  said at most once. A timer of a game that is no longer running is
  dropped.
* At start (:meth:`Timers.repair_timers`), every running game that is not
  paused and awaits someone gets back the timers its options call for and
  it lacks (a game stopped by an older version that lost a timer while
  firing it): a deadline the engine still wants is due at once (it was lost
  while it fired), a turn clock ends one clock length after the decision
  began (at once if that is past) and a reminder comes one reminder
  interval after it; a computer seat awaited gets its move after the pause
  and, in a race, its answer delay
  (:meth:`~bot.service.context.Context.computer_due`, drawn again: the lost
  timer's own due time is gone), not at once. Each repair is logged with
  the game's id. :meth:`Timers.audit` lists the games that would be
  repaired, changing nothing: the store's integrity check at the service's
  level (whatever a game awaits has what will move it,
  :mod:`bot.service.context`).
* A ``computer`` timer plays the awaited computer seats
  (:mod:`bot.service.computer`): decided outside the channel's lock, its
  moves committed with the timer's deletion.
* Each fired timer is logged as one INFO line (:func:`bot.logs.activity`:
  game, channel, ``timer.<kind>``, outcome, latency) and counted in the
  metrics with its lateness (:func:`bot.metrics.timer`). Its outcome is
  ``ok`` when it did something, ``dropped`` when there was nothing left to
  do (the game ended, nobody was late, another pass took it), ``error``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import metrics
from bot.games.base import TurnShape
from bot.i18n import Text
from bot.logs import activity
from bot.service.computer import Computers
from bot.service.context import COMPUTER_TIMER, Context, admitted
from bot.service.loaded import LoadedGame
from bot.service.outcome import News, Outcome, Refusal
from bot.service.play import Play
from bot.service.turn_clock import clock_seconds, clock_timers
from bot.store import GameRow, TimerRow

log = logging.getLogger(__name__)

#: picks (and claims) the due timers a process may fire, given the time now
Claim = Callable[[float], Awaitable[list[TimerRow]]]


@dataclass(frozen=True)
class Unmoved:
    """A running game that awaits a seat with nothing to move it, and the (kind, name,
    due) timers it lacks (:meth:`Timers.audit`)."""

    game_id: int
    missing: tuple[tuple[str, str, float], ...]


class Timers:
    """Fires due timers; see the module docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play
        self.computers = Computers(ctx, play)

    @admitted
    async def fire_due_timers(
        self, now: float | None = None, *, claim: Claim | None = None
    ) -> list[Outcome]:
        """Fire every timer due by ``now``; used by the timer task, the demo and tests.

        ``claim(now)`` (a process of a shard cluster: :mod:`bot.timers`) picks and
        claims the due timers this process may fire; by default every due timer.
        The computer timers due together are fired at once: their decisions run
        side by side in the deciding processes."""
        now = self.ctx.clock() if now is None else now
        pick = claim if claim is not None else self.ctx.store.due_timers
        outcomes: list[Outcome] = []
        tried: set[int] = set()  # a timer that could not be fired now waits for the next pass
        while due := [t for t in await pick(now) if t.id not in tried]:
            tried.update(t.id for t in due)
            moves = [t for t in due if t.kind == COMPUTER_TIMER]
            for fired in await asyncio.gather(*(self._fire_logged(t, now) for t in moves)):
                outcomes += fired
            for timer in due:
                if timer.kind != COMPUTER_TIMER:
                    outcomes += await self._fire_logged(timer, now)
        return outcomes

    async def _fire_logged(self, timer: TimerRow, now: float) -> list[Outcome]:
        """:meth:`fire_timer`, logged in one line and counted (see the module docstring)."""
        started = time.perf_counter()
        result = "error"
        fired: list[Outcome] = []
        try:
            fired = await self.fire_timer(timer)
            result = "ok" if fired else "dropped"
        finally:
            channel = next((o.channel_id for o in fired if o.channel_id is not None), None)
            activity(
                "timer",
                game=timer.game_id,
                channel=channel,
                verb=f"timer.{timer.kind}",
                outcome=result,
                seconds=time.perf_counter() - started,
            )
            metrics.timer(timer.kind, result, now - timer.due_at)
        return fired

    @admitted
    async def fire_timer(self, timer: TimerRow) -> list[Outcome]:
        """Handle one due timer; it leaves the store with what it does (see above)."""
        if timer.kind == COMPUTER_TIMER:  # decided outside the channel's lock
            return await self.computers.fire(timer)
        store = self.ctx.store
        row = None if timer.game_id is None else await store.get_game(timer.game_id)
        if row is None or row.status != "running":
            await store.delete_timer(timer.id)
            return []
        async with self.ctx.locks.hold(row.channel_id):
            if await store.timer(timer.id) is None:  # another pass fired it meanwhile
                return []
            try:
                game = await self.ctx.running(row.channel_id, expected_game=row.id)
            except Refusal:
                await store.delete_timer(timer.id)
                return []
            if timer.kind == "reminder":
                return [await self._remind(game)]
            if timer.kind in ("deadline", "clock") and (
                timer.kind == "deadline" or timer.name == "turn"
            ):
                name = timer.name if timer.kind == "deadline" else "clock"
                try:
                    outcome = await self.play.timeouts(game, name, fired=timer.id)
                except Refusal:  # the timer or the game moved on under another writer
                    return []
                if outcome is None:
                    await store.delete_timer(timer.id)
                    return []
                return [outcome]
            if not await store.delete_timer(timer.id):
                return []
            if timer.kind == "clock":
                return [await self._last_call(game)]
        log.warning("unknown timer kind %s", timer.kind)
        return []

    @admitted
    async def repair_timers(self, owns: Callable[[int | None], bool] | None = None) -> int:
        """Give every running game the timers it lacks (see above); how many games.

        ``owns(guild_id)`` limits the repair to the games of this process's guilds
        (a shard cluster: another process owns the others).
        """
        repaired = 0
        for row in await self.ctx.store.running_games():
            if owns is not None and not owns(row.guild_id):
                continue
            async with self.ctx.locks.hold(row.channel_id):
                missing = await self._missing_timers(row)
                if missing:
                    await self.ctx.store.add_missing_timers(row.id, missing)
                    names = [f"{kind}:{name}" if name else kind for kind, name, _ in missing]
                    log.warning("game %s had lost its timers %s; restored", row.id, names)
                    repaired += 1
        if repaired:
            self.ctx.timers_changed()
        return repaired

    @admitted
    async def audit(self) -> list[Unmoved]:
        """The running games that await a seat with nothing to move it: each with the
        timers the repair would give it (the invariant of :mod:`bot.service.context`;
        a maintenance scan, not a command's). Empty when every game is well."""
        found: list[Unmoved] = []
        for row in await self.ctx.store.running_games():
            missing = await self._missing_timers(row)
            if missing:
                found.append(Unmoved(row.id, tuple(missing)))
        return found

    async def _missing_timers(self, row: GameRow) -> list[tuple[str, str, float]]:
        """The (kind, name, due) timers a running game needs now and lacks: for its
        members, the turn clock when it has one (else a reminder) and each deadline
        its engine wants; for the computer seats it awaits, their timer
        (:meth:`~bot.service.context.Context.computer_due`: a race's delay kept)."""
        fresh = await self.ctx.store.get_game(row.id)
        if fresh is None or fresh.status != "running" or fresh.paused is not None:
            return []
        game = self.ctx.loaded(fresh)
        engine, state = game.engine, game.state
        if engine.result(state) is not None or not engine.waiting_for(state):
            return []
        have = {(t.kind, t.name) for t in await self.ctx.store.timers(row.id)}
        now = self.ctx.clock()
        began = min(fresh.waiting_since or now, now)
        missing = [
            ("deadline", d.name, now)
            for d in engine.deadlines(state)
            if ("deadline", d.name) not in have
        ]
        seconds = clock_seconds(fresh.options)
        if seconds is not None and engine.turns is TurnShape.SEQUENTIAL:
            if not any(kind == "clock" for kind, _ in have):
                missing += [
                    ("clock", name, max(now, due))
                    for name, due in clock_timers(began, seconds).items()
                    if name == "turn" or due > now
                ]
        elif ("reminder", "") not in have:
            missing.append(("reminder", "", max(now, began + self.ctx.reminder_seconds)))
        computer = self.ctx.computer_due(game)
        if computer is not None and (COMPUTER_TIMER, "") not in have:
            missing.append((COMPUTER_TIMER, "", computer))
        return missing

    async def _last_call(self, game: LoadedGame) -> Outcome:
        """A turn clock's reminder: whom it waits for and when their time runs out."""
        waiting = game.waiting()
        ends = [t.due_at for t in await self.ctx.store.timers(game.id) if t.name == "turn"]
        text = (
            Text("reminder.deadline", {"players": game.names_of(waiting), "when": int(ends[0])})
            if ends
            else Text("reminder.public", {"players": game.names_of(waiting)})
        )
        return Outcome(
            game_id=game.id,
            channel_id=game.row.channel_id,
            news=News([text], ping=game.users_of(waiting)),
        )

    async def _remind(self, game: LoadedGame) -> Outcome:
        waiting = game.waiting()
        await self.ctx.store.replace_timers(
            game.id, "reminder", self.ctx.clock() + self.ctx.reminder_seconds
        )
        self.ctx.timers_changed()
        return Outcome(
            game_id=game.id,
            channel_id=game.row.channel_id,
            news=News(
                [Text("reminder.public", {"players": game.names_of(waiting)})],
                ping=game.users_of(waiting),
            ),
        )
