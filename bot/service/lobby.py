"""The lobby: opening a game, joining, leaving, starting and abandoning.

Decisions:

* One unfinished game per channel (the store enforces it); every command
  names a channel and the service finds the game.
* Lobby options are validated against the game's own :class:`OptionSpec` s
  (defaults filled in); how many players they allow is the engine's
  ``player_range``.
* Seat order is shuffled at start from the game's seed. A seat's colour is
  the engine's when it declares ``seat_colours`` (Tikal's pieces), else the
  service's palette; players read it in words.
* Starting is the game's first hand-off: one public message with the seat
  order, the board and the first question, pinging everyone awaited, and
  each seat's private view by DM.
* Abandoning asks for a confirmation (a danger button); the creator or a
  member who can manage the channel may do it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.games.base import GameType, TurnShape
from bot.i18n import Text, has_key, language_of
from bot.service import announce
from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import Choice, ChoiceKind, Outcome, Player, Refusal
from bot.service.table import all_options, clock_seconds, clock_timers
from bot.store import KEEP, ChannelBusy, VersionConflict

#: seat colours in seat order; chosen to stay apart from the games' piece colours
SEAT_COLOURS: tuple[str, ...] = ("#f1a208", "#9b59b6", "#1abc9c", "#e84393", "#95a5a6")
#: what players call each seat colour (catalog keys)
SEAT_COLOUR_NAMES: dict[str, str] = {
    "#f1a208": "colour.amber",
    "#9b59b6": "colour.purple",
    "#1abc9c": "colour.teal",
    "#e84393": "colour.pink",
    "#95a5a6": "colour.grey",
}


def parse_options(game_type: GameType, options: Mapping[str, str | None]) -> dict[str, str]:
    """Validate lobby options against the game's and the table's specs; fill in defaults."""
    specs = {spec.name: spec for spec in all_options(game_type)}
    chosen: dict[str, str] = {}
    for name, value in options.items():
        if value is None or value == "":
            continue
        spec = specs.get(name)
        if spec is None:
            raise Refusal("error.unknown_option", option=name)
        if value not in spec.choices:
            raise Refusal(
                "error.bad_option_value",
                option=name,
                value=value,
                choices=", ".join(spec.choices),
            )
        chosen[name] = value
    for spec in all_options(game_type):
        chosen.setdefault(spec.name, spec.default)
    return chosen


def options_text(game_type: GameType, chosen: Mapping[str, str]) -> list[Text]:
    """Each chosen option in words (``mode: auction``)."""
    shown: list[Text] = []
    for spec in all_options(game_type):
        value = chosen.get(spec.name, spec.default)
        value_key = f"{spec.description_key}.{value}"
        shown.append(
            Text(
                "lobby.option",
                {
                    "option": Text(f"{spec.description_key}.name")
                    if has_key(f"{spec.description_key}.name")
                    else spec.name,
                    "value": Text(value_key) if has_key(value_key) else value,
                },
            )
        )
    return shown


class Lobby:
    """Lobby commands; see the module docstring."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def new_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user: Player,
        game_type_name: str,
        options: Mapping[str, str | None] | None = None,
        seed: int | None = None,
        language: str = "en",
    ) -> Outcome:
        """Open a lobby; ``language`` (the server's) is the language of its images."""
        game_type = self.ctx.game_type(game_type_name)
        chosen = parse_options(game_type, options or {})
        async with self.ctx.locks.hold(channel_id):
            try:
                row = await self.ctx.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_type=game_type_name,
                    creator_id=user.id,
                    creator_name=user.name,
                    options=chosen,
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                    language=language_of(language),
                )
            except ChannelBusy:
                raise Refusal("error.channel_busy") from None
        engine = game_type.engine
        low, high = engine.player_range(chosen)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.created_reply")],
            public=[
                Text(
                    "lobby.created",
                    {
                        "player": user.name,
                        "game": Text(engine.title_key),
                        "min": low,
                        "max": high,
                    },
                ),
                *options_text(game_type, chosen),
            ],
        )

    async def join(self, channel_id: int, user: Player) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self.ctx.open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.already_started")
            if row.seat_of(user.id) is not None:
                raise Refusal("error.already_joined")
            engine = self.ctx.game_type(row.game_type).engine
            _, high = engine.player_range(row.options)
            if len(row.seats) >= high:
                raise Refusal("error.game_full", max=high)
            await _stored(self.ctx.store.add_seat(row, user.id, user.name))
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.joined_reply")],
            public=[
                Text(
                    "lobby.joined",
                    {"player": user.name, "count": len(row.seats) + 1, "max": high},
                )
            ],
        )

    async def leave(self, channel_id: int, user: Player) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self.ctx.open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.leave_started")
            if row.seat_of(user.id) is None:
                raise Refusal("error.not_in_game")
            if user.id == row.creator_id:
                raise Refusal("error.creator_cannot_leave")
            await _stored(self.ctx.store.remove_seat(row, user.id))
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.left_reply")],
            public=[Text("lobby.left", {"player": user.name})],
        )

    async def start(self, channel_id: int, user: Player, *, keep_order: bool = False) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self.ctx.open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.already_started")
            if user.id != row.creator_id:
                raise Refusal("error.only_creator_starts")
            game_type = self.ctx.game_type(row.game_type)
            engine = game_type.engine
            low, high = engine.player_range(row.options)
            if len(row.seats) < low:
                raise Refusal("error.not_enough_players", min=low)
            if len(row.seats) > high:
                raise Refusal("error.too_many_players", max=high)
            order = [s.user_id for s in row.seats]
            if not keep_order:  # a rematch keeps its rotated seats (bot.service.after)
                random.Random(row.seed).shuffle(order)
            colours = seat_colours(game_type, len(order))
            state = engine.new_game(len(order), row.options, row.seed)
            now = self.ctx.clock()
            seconds = clock_seconds(row.options)
            clocked = seconds is not None and engine.turns is TurnShape.SEQUENTIAL
            await _stored(
                self.ctx.store.start_game(
                    row,
                    engine.dump_state(state),
                    order,
                    [hex_ for hex_, _ in colours],
                    reminder=None if clocked else now + self.ctx.reminder_seconds,
                    deadlines={d.name: now + d.seconds for d in engine.deadlines(state)},
                    clock=clock_timers(now, seconds) if clocked and seconds else KEEP,
                )
            )
            self.ctx.timers_changed()
            started = await self.ctx.store.get_game(row.id)
            assert started is not None
            game = LoadedGame(started, game_type, state)
            names = dict(colours)
            lines = [Text("lobby.started", {"game": Text(engine.title_key)})] + [
                Text(
                    "lobby.seat_line",
                    {
                        "seat": s.seat + 1,
                        "player": s.display_name,
                        "colour": Text(names.get(s.colour, "colour.grey")),
                    },
                )
                for s in started.seats
            ]
            everyone: dict[int, Any] = {s.seat: None for s in started.seats}
            private = await announce.private_updates(self.ctx, game, everyone, [])
            return await announce.handoff(
                self.ctx,
                game,
                lines=lines,
                newly=set(range(len(order))),
                version=started.version,
                reply=[Text("lobby.started_reply")],
                private=private,
            )

    async def abandon(
        self,
        channel_id: int,
        user: Player,
        *,
        can_manage_channel: bool,
        confirmed: bool,
        expected_game: int | None = None,
    ) -> Outcome:
        """Abandon the channel's game; the creator or a channel manager, after confirming.

        The confirmation button passes the game it was made for: a click after
        that game ended (or gave way to another) is refused as stale.
        """
        async with self.ctx.locks.hold(channel_id):
            row = await self.ctx.store.open_game_in(channel_id)
            if expected_game is not None and (row is None or row.id != expected_game):
                raise Refusal("error.stale_button")
            if row is None:
                raise Refusal("error.no_game")
            if user.id != row.creator_id and not can_manage_channel:
                raise Refusal("error.abandon_not_allowed")
            if not confirmed:
                return Outcome(
                    game_id=row.id,
                    channel_id=channel_id,
                    reply=[Text("lobby.abandon_confirm")],
                    reply_choices=[
                        Choice(Text("lobby.confirm_button"), kind=ChoiceKind.ABANDON, danger=True)
                    ],
                )
            await _stored(self.ctx.store.set_status(row, "abandoned"))
            self.ctx.timers_changed()
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.abandoned_reply")],
            public=[Text("lobby.abandoned", {"player": user.name})],
            finished=True,
        )


def seat_colours(game_type: GameType, count: int) -> list[tuple[str, str]]:
    """Each seat's colour and the catalog key naming it: the engine's, else the palette."""
    declared = game_type.engine.seat_colours
    if declared:
        return [(c.hex, c.name_key) for c in declared[:count]]
    return [
        (
            SEAT_COLOURS[i % len(SEAT_COLOURS)],
            SEAT_COLOUR_NAMES[SEAT_COLOURS[i % len(SEAT_COLOURS)]],
        )
        for i in range(count)
    ]


async def _stored(call: Any) -> Any:
    try:
        return await call
    except VersionConflict:
        raise Refusal("error.conflict") from None
