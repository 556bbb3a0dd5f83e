"""Timers of the games: reminders and deadlines, fired from the store's timers table.

Decisions:

* Reminders: while a game waits, a ``reminder`` timer is due one reminder
  interval after the game last handed over; when it fires it pings the
  seats the game waits for and re-arms itself.
* Deadlines are named by the engine (``round:3``); when one expires, the
  engine's timeout actions for that name are applied as one batch with one
  public message (:meth:`bot.service.play.Play.timeouts`).
* The turn clock (:mod:`bot.service.table`) has three timers: ``half`` and
  ``soon`` remind the awaited players when their time runs out; ``turn``
  plays their timeout actions.
* A timer is removed from the store before it fires, so two passes (or two
  processes) never fire it twice; a timer of a game that is no longer
  running does nothing.
"""

from __future__ import annotations

import logging

from bot.i18n import Text
from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import Outcome, Refusal
from bot.service.play import Play
from bot.store import TimerRow

log = logging.getLogger(__name__)


class Clock:
    """Fires due timers; see the module docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def fire_due_timers(self, now: float | None = None) -> list[Outcome]:
        """Fire every timer due by ``now``; used by the timer task, the demo and tests."""
        now = self.ctx.clock() if now is None else now
        outcomes: list[Outcome] = []
        while (timer := await self.ctx.store.next_timer()) is not None and timer.due_at <= now:
            if await self.ctx.store.delete_timer(timer.id):
                outcomes += await self.fire_timer(timer)
        return outcomes

    async def fire_timer(self, timer: TimerRow) -> list[Outcome]:
        """Handle one due timer (already removed from the store by the caller)."""
        if timer.game_id is None:
            return []
        row = await self.ctx.store.get_game(timer.game_id)
        if row is None or row.status != "running":
            return []
        async with self.ctx.locks.hold(row.channel_id):
            try:
                game = await self.ctx.running(row.channel_id, expected_game=timer.game_id)
            except Refusal:
                return []
            if timer.kind == "reminder":
                return [await self._remind(game)]
            if timer.kind == "deadline":
                outcome = await self.play.timeouts(game, timer.name)
                return [] if outcome is None else [outcome]
            if timer.kind == "clock":
                if timer.name == "turn":
                    outcome = await self.play.timeouts(game, "clock")
                    return [] if outcome is None else [outcome]
                return [await self._last_call(game)]
        log.warning("unknown timer kind %s", timer.kind)
        return []

    async def _last_call(self, game: LoadedGame) -> Outcome:
        """A turn clock's reminder: whom it waits for and when their time runs out."""
        waiting = game.waiting()
        ends = [t.due_at for t in await self.ctx.store.timers(game.id) if t.name == "turn"]
        text = (
            Text("clock.reminder", {"players": game.names_of(waiting), "when": int(ends[0])})
            if ends
            else Text("reminder.public", {"players": game.names_of(waiting)})
        )
        return Outcome(
            game_id=game.id,
            channel_id=game.row.channel_id,
            public=[text],
            ping=game.users_of(waiting),
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
            public=[Text("reminder.public", {"players": game.names_of(waiting)})],
            ping=game.users_of(waiting),
        )
