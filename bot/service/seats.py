"""Seats over days: pause, resume and extend the clock; resign, hand a seat over;
automatic answers; how each player is told it is their turn.

Decisions:

* The game's host — its creator, or a member who can manage the channel —
  may pause the clocks (the turn clock and the game's own deadlines stop;
  what was left of each is kept and restored on resume; a decision handed
  over while paused gets a full clock on resume), resume them, and extend
  the current deadlines by one turn clock (one day for a game without one).
* A player may resign, after a confirmation: their seat stays in the game
  and the table plays it with the engine's timeout actions for the rest of
  the game (no game here can drop a seat midway without changing its
  rules). What the seat held stays hidden.
* The host may hand a seat to another member (``/game replace``): the new
  player gets the seat's private view by DM (or, with DMs closed, on their
  next command), the old one nothing more; a replaced seat plays again. An
  absent or resigned seat may be handed to a computer player at a level
  (``/game replace @member computer:``), and a computer seat back to a member
  (named by its seat number, ``seat:``); a computer seat gets no DM.
* An absent seat's decisions are played at once, so its player says they
  are back with ``/game back`` (in a round of simultaneous moves, just
  submitting is enough).
* A player may opt in to automatic answers for their seat in this game
  (``/game auto``): answers the engine marks as unable to change the
  outcome. Never the default.
* How to be told it is your turn — ``channel`` (mentioned in the game's
  message, the default), ``dm``, ``both`` or ``off`` — is remembered per
  user, for every game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.i18n import Text
from bot.service.computer import computer_name, next_computer_id, parse_level
from bot.service.context import Context, admitted
from bot.service.loaded import LoadedGame
from bot.service.names import seat_name
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    News,
    Outcome,
    Player,
    PrivateMessage,
    Refusal,
    Reply,
)
from bot.service.play import Play
from bot.service.turn_clock import ABSENT_SEAT, DAY, PLAYING, RESIGNED, clock_seconds, clock_timers
from bot.store import StoreError, VersionConflict

NOTIFY = ("channel", "dm", "both", "off")


class Seats:
    """The commands of this module's docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    # -- the host ---------------------------------------------------------------

    async def _hosted(self, channel_id: int, user: Player, can_manage: bool) -> LoadedGame:
        game = await self.ctx.running(channel_id)
        if user.id != game.row.creator_id and not can_manage:
            raise Refusal("error.host_only")
        return game

    @admitted
    async def pause(self, channel_id: int, user: Player, *, can_manage_channel: bool) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            game = await self._hosted(channel_id, user, can_manage_channel)
            if game.row.paused is not None:
                raise Refusal("error.already_paused")
            now = self.ctx.clock()
            timers = await self.ctx.store.timers(game.id)
            paused: list[Any] = [
                [t.kind, t.name, max(0.0, t.due_at - now)]
                for t in timers
                if t.kind in ("clock", "deadline")
            ]
            paused.append(["at", _decision(game), 0.0])
            version = await _stored(self.ctx.store.pause(game.row, paused))
            self.ctx.timers_changed()
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("host.paused_reply")]),
            news=News([Text("host.paused", {"player": user.name})]),
        )

    @admitted
    async def resume(self, channel_id: int, user: Player, *, can_manage_channel: bool) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            game = await self._hosted(channel_id, user, can_manage_channel)
            paused = game.row.paused
            if paused is None:
                raise Refusal("error.not_paused")
            now = self.ctx.clock()
            left = {(kind, name): float(rest) for kind, name, rest in paused}
            same_decision = ("at", _decision(game)) in left
            deadlines = {
                d.name: now + left.get(("deadline", d.name), d.seconds)
                for d in game.engine.deadlines(game.state)
            }
            clock: dict[str, float] = {}
            seconds = clock_seconds(game.row.options)
            if seconds is not None and game.waiting():
                clock = clock_timers(now, seconds)
                if same_decision and ("clock", "turn") in left:
                    clock = {
                        name: now + rest for (kind, name), rest in left.items() if kind == "clock"
                    }
            reminder = None if clock else now + self.ctx.reminder_seconds
            resumed = LoadedGame(replace(game.row, paused=None), game.game_type, game.state)
            version = await _stored(
                self.ctx.store.resume(
                    game.row,
                    reminder=reminder,
                    deadlines=deadlines,
                    clock=clock,
                    computer_timer=self.ctx.computer_due(resumed),
                )
            )
            self.ctx.timers_changed()
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("host.resumed_reply")]),
            news=News(
                [Text("host.resumed", {"player": user.name}), *game.waiting_line()],
                ping=game.users_of(game.waiting()),
            ),
        )

    @admitted
    async def extend(self, channel_id: int, user: Player, *, can_manage_channel: bool) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            game = await self._hosted(channel_id, user, can_manage_channel)
            if game.row.paused is not None:
                raise Refusal("error.paused_extend")
            timers = [
                t for t in await self.ctx.store.timers(game.id) if t.kind in ("clock", "deadline")
            ]
            ends = [t.due_at for t in timers if t.kind == "deadline" or t.name == "turn"]
            if not ends:
                raise Refusal("error.no_deadline")
            seconds = clock_seconds(game.row.options) or DAY
            version = await _stored(self.ctx.store.extend(game.row, seconds))
            self.ctx.timers_changed()
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("host.extended_reply")]),
            news=News(
                [Text("host.extended", {"player": user.name, "when": int(min(ends) + seconds)})]
            ),
        )

    @admitted
    async def replace(
        self,
        channel_id: int,
        user: Player,
        old_id: int | None,
        new: Player | None,
        *,
        can_manage_channel: bool,
        computer: str | None = None,
        seat_number: int | None = None,
    ) -> Outcome:
        """Hand the seat of ``old_id`` (or seat ``seat_number``, 1-based: a computer
        seat has no member to name) to member ``new``, or to a computer player at
        level ``computer`` (only a seat that is absent or resigned)."""
        if (old_id is None) == (seat_number is None):
            raise Refusal("computer.error.replace_which")
        if (new is None) == (computer is None):
            raise Refusal("computer.error.replace_to")
        level = parse_level(computer) if computer is not None else None
        async with self.ctx.locks.hold(channel_id):
            game = await self._hosted(channel_id, user, can_manage_channel)
            if old_id is not None:
                seat = game.seat_of(old_id)
            elif seat_number is not None and 1 <= seat_number <= len(game.row.seats):
                seat = game.row.seats[seat_number - 1]
            else:
                seat = None
            if seat is None:
                raise Refusal("error.replace_not_seated")
            if level is not None:
                if game.engine.computer() is None:
                    raise Refusal("computer.error.none", game=Text(game.engine.title_key))
                if seat.computer is not None or seat.status not in (ABSENT_SEAT, RESIGNED):
                    raise Refusal("computer.error.replace_playing", player=seat.display_name)
                number = sum(s.computer is not None for s in game.row.seats) + 1
                new_id = next_computer_id(game.row)
                new_name = computer_name(game.row.language, number, level)
            else:
                assert new is not None
                new_id, new_name = new.id, seat_name(new.name, new.id, game.row.language)
            if game.seat_of(new_id) is not None:
                raise Refusal("error.replace_seated", player=new_name)
            waiting = game.waiting()
            try:
                version = await self.ctx.hand_seat(game, seat.seat, new_id, new_name, level)
            except VersionConflict:
                raise Refusal("error.conflict") from None
            except StoreError:
                raise Refusal("error.replace_seated", player=new_name) from None
            handed = game  # labelled with the new name
            private: list[PrivateMessage] = []
            if game.engine.has_private_view and level is None and new_id > 0:
                view = handed.engine.private_view(handed.state, seat.seat)
                image = await self.ctx.private_image(handed, view, seat.seat)
                header = Text("hand.header", {"game": Text(game.engine.title_key)})
                private.append(PrivateMessage(new_id, (header,), image))
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("host.replaced_reply")]),
            news=News(
                [
                    Text(
                        "host.replaced",
                        {"old": seat.display_name, "new": new_name, "host": user.name},
                    )
                ],
                ping=[new_id] if seat.seat in waiting and level is None else [],
            ),
            private=private,
        )

    # -- a player ---------------------------------------------------------------

    @admitted
    async def resign(
        self,
        channel_id: int,
        user: Player,
        *,
        confirmed: bool,
        expected_game: int | None = None,
    ) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            game = await self.ctx.running(channel_id, expected_game=expected_game)
            seat = game.players_seat(user.id)
            if seat.status == RESIGNED:
                raise Refusal("error.already_resigned")
            if not confirmed:
                return Outcome(
                    game_id=game.id,
                    channel_id=channel_id,
                    reply=Reply(
                        [Text("seat.resign_confirm")],
                        choices=[
                            Choice(Text("seat.resign_button"), kind=ChoiceKind.RESIGN, danger=True)
                        ],
                    ),
                )
            version = await self.ctx.change_seat(game, seat.seat, {"status": RESIGNED})
            line = Text("seat.resigned", {"player": user.name})
            fresh = await self.ctx.running(channel_id)
            played = await self.play.play_out(fresh, [line])
        if played is not None:
            played.reply.lines = [Text("seat.resigned_reply")]
            return played
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("seat.resigned_reply")]),
            news=News([line]),
        )

    @admitted
    async def back(self, channel_id: int, user: Player) -> Outcome:
        """An absent player plays their seat again (their next decisions wait for them)."""
        async with self.ctx.locks.hold(channel_id):
            game = await self.ctx.running(channel_id)
            seat = game.players_seat(user.id)
            if seat.status != ABSENT_SEAT:
                raise Refusal("error.not_absent")
            version = await self.ctx.change_seat(
                game, seat.seat, {"status": PLAYING, "timeouts": 0}
            )
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            version=version,
            reply=Reply([Text("seat.back_reply")]),
            news=News([Text("table.back", {"seat": user.name})]),
        )

    @admitted
    async def auto(self, channel_id: int, user: Player, *, on: bool) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            game = await self.ctx.running(channel_id)
            seat = game.players_seat(user.id)
            await self.ctx.change_seat(game, seat.seat, {"auto": int(on)})
        key = "seat.auto_on" if on else "seat.auto_off"
        return Outcome(game_id=game.id, channel_id=channel_id, reply=Reply([Text(key)]))

    @admitted
    async def notify(self, user: Player, how: str) -> Outcome:
        if how not in NOTIFY:
            raise Refusal(
                "error.bad_option_value", option="how", value=how, choices=", ".join(NOTIFY)
            )
        await self.ctx.store.set_notify(user.id, how)
        return Outcome(reply=Reply([Text(f"notify.{how}")]))

    @admitted
    async def notify_choices(self, user_ids: list[int]) -> dict[int, str]:
        """How each user wants to be told it is their turn (default: in the channel)."""
        chosen = await self.ctx.store.notify_choices(user_ids)
        return {uid: chosen.get(uid, "channel") for uid in user_ids}


def _decision(game: LoadedGame) -> str:
    """What identifies the decision the game waits for (a step in the same turn keeps it)."""
    turn = game.engine.turn_number(game.state)
    return f"{turn}:{sorted(game.waiting())}"


async def _stored(call: Any) -> Any:
    try:
        return await call
    except VersionConflict:
        raise Refusal("error.conflict") from None
