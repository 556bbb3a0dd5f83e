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
* The lobby is one message kept up to date (:class:`LobbyPanel`): opening a
  game posts it, with Join, Leave and Start and a menu per option; joining,
  leaving and changing an option edit it in place; starting or abandoning
  the lobby closes it (its buttons go). The host (the creator) alone may
  change an option, while the game is a lobby, to one of its values; a
  change is checked like the options of ``/game new``. How many players the
  options allow is checked again at the start (an option may change it).
* Every option name and value a player reads comes from the catalog
  (``<description_key>.name``, ``<description_key>.<value>``).
* Computer players (:mod:`bot.service.computer`): the host alone seats one
  at a level, while the lobby has room and the game has a computer player,
  and may remove one (the last seated); a game of computer players alone is
  refused at the start (the offline demo and the arena are for that).
* Buttons pass the game they were made for (``expected_game``): a click on a
  lobby message of another game is refused as stale.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.games.base import GameType, OptionSpec, TurnShape
from bot.games.computer import LEVELS
from bot.i18n import Text, has_key, language_of
from bot.service import announce
from bot.service.computer import computer_name, next_computer_id, parse_level
from bot.service.context import Context, admitted
from bot.service.loaded import LoadedGame
from bot.service.names import seat_name
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    LobbyPanel,
    News,
    OptionMenu,
    Outcome,
    Player,
    Refusal,
    Reply,
)
from bot.service.turn_clock import all_options, clock_seconds, clock_timers
from bot.store import KEEP, ChannelBusy, GameRow, VersionConflict

#: Discord's 5 rows a message, one for the buttons: at most this many option menus
MAX_MENUS = 4

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


def option_name(spec: OptionSpec) -> Text | str:
    """An option's name in words (its catalog name; the bare name if it has none)."""
    key = f"{spec.description_key}.name"
    return Text(key) if has_key(key) else spec.name


def value_name(spec: OptionSpec, value: str) -> Text | str:
    """An option value in words (its catalog name; the bare value if it has none)."""
    key = f"{spec.description_key}.{value}"
    return Text(key) if has_key(key) else value


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
                option=option_name(spec),
                value=value,
                choices=", ".join(spec.choices),
            )
        chosen[name] = value
    for spec in all_options(game_type):
        chosen.setdefault(spec.name, spec.default)
    return chosen


def options_text(game_type: GameType, chosen: Mapping[str, str]) -> list[Text]:
    """Each chosen option in words (``Variant: auction``)."""
    return [
        Text(
            "lobby.option",
            {
                "option": option_name(spec),
                "value": value_name(spec, chosen.get(spec.name, spec.default)),
            },
        )
        for spec in all_options(game_type)
    ]


def option_menus(game_type: GameType, chosen: Mapping[str, str]) -> tuple[OptionMenu, ...]:
    """The options as menus, in declaration order (at most :data:`MAX_MENUS`)."""
    return tuple(
        OptionMenu(
            spec.name,
            option_name(spec),
            tuple(
                (
                    v,
                    Text(
                        "lobby.option_choice",
                        {"option": option_name(spec), "value": value_name(spec, v)},
                    ),
                )
                for v in spec.choices
            ),
            chosen.get(spec.name, spec.default),
        )
        for spec in all_options(game_type)[:MAX_MENUS]
    )


def lobby_panel(
    game_type: GameType, row: GameRow, *, state: str = "open", post: bool = False
) -> LobbyPanel:
    """The lobby message of ``row``: who opened it, who sits, the options; while
    ``state`` is ``open`` with its buttons and menus, else closed (``started``,
    ``abandoned``)."""
    engine = game_type.engine
    low, high = engine.player_range(row.options)
    host = row.seat_of(row.creator_id)
    lines = [
        Text(
            "lobby.created",
            {
                "player": host.display_name if host is not None else "?",
                "game": Text(engine.title_key),
                "range": str(low) if low == high else f"{low}–{high}",  # Mini-Tikal: 2
            },
        ),
        Text(
            "lobby.players",
            {
                "count": len(row.seats),
                "max": high,
                "players": ", ".join(s.display_name for s in row.seats),
            },
        ),
        *options_text(game_type, row.options),
    ]
    if state != "open":
        lines.append(Text(f"lobby.panel_{state}"))
        return LobbyPanel(tuple(lines), open=False)
    lines.append(Text("lobby.panel_hint"))
    return LobbyPanel(
        tuple(lines),
        option_menus(game_type, row.options),
        post=post,
        computers=engine.computer() is not None,
    )


class Lobby:
    """Lobby commands; see the module docstring."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @admitted
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
        language = language_of(language)
        async with self.ctx.locks.hold(channel_id):
            try:
                row = await self.ctx.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_type=game_type_name,
                    creator_id=user.id,
                    creator_name=seat_name(user.name, user.id, language),
                    options=chosen,
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                    language=language,
                )
            except ChannelBusy:
                raise Refusal("error.channel_busy") from None
        panel = lobby_panel(game_type, row, post=True)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("lobby.created_reply")]),
            news=News(list(panel.lines)),
            lobby=panel,
        )

    async def _lobby_row(self, channel_id: int, expected_game: int | None) -> GameRow:
        """The channel's unfinished game; stale when a button names another one."""
        row = await self.ctx.store.open_game_in(channel_id)
        if expected_game is not None and (row is None or row.id != expected_game):
            raise Refusal("error.stale_button")
        if row is None:
            raise Refusal("error.no_game")
        return row

    async def _panel(self, row: GameRow, state: str = "open") -> LobbyPanel:
        fresh = await self.ctx.store.get_game(row.id)
        return lobby_panel(self.ctx.game_type(row.game_type), fresh or row, state=state)

    @admitted
    async def join(
        self, channel_id: int, user: Player, *, expected_game: int | None = None
    ) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self._lobby_row(channel_id, expected_game)
            if row.status != "lobby":
                raise Refusal("error.already_started")
            if row.seat_of(user.id) is not None:
                raise Refusal("error.already_joined")
            engine = self.ctx.game_type(row.game_type).engine
            _, high = engine.player_range(row.options)
            if len(row.seats) >= high:
                raise Refusal("error.game_full", max=high)
            name = seat_name(user.name, user.id, row.language)
            await _stored(self.ctx.store.add_seat(row, user.id, name))
            panel = await self._panel(row)
        return _seated(row, channel_id, name, high, Text("lobby.joined_reply"), panel)

    @admitted
    async def leave(
        self, channel_id: int, user: Player, *, expected_game: int | None = None
    ) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self._lobby_row(channel_id, expected_game)
            if row.status != "lobby":
                raise Refusal("error.leave_started")
            if row.seat_of(user.id) is None:
                raise Refusal("error.not_in_game")
            if user.id == row.creator_id:
                raise Refusal("error.creator_cannot_leave")
            await _stored(self.ctx.store.remove_seat(row, user.id))
            panel = await self._panel(row)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("lobby.left_reply")]),
            news=News([Text("lobby.left", {"player": user.name})]),
            lobby=panel,
        )

    @admitted
    async def start(
        self,
        channel_id: int,
        user: Player,
        *,
        keep_order: bool = False,
        expected_game: int | None = None,
    ) -> Outcome:
        async with self.ctx.locks.hold(channel_id):
            row = await self._lobby_row(channel_id, expected_game)
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
            if all(s.computer is not None for s in row.seats):
                raise Refusal("computer.error.alone")
            order = [s.user_id for s in row.seats]
            if not keep_order:  # a rematch keeps its rotated seats (bot.service.after)
                random.Random(row.seed).shuffle(order)
            colours = seat_colours(game_type, len(order))
            state = engine.new_game(len(order), row.options, row.seed)
            now = self.ctx.clock()
            seconds = clock_seconds(row.options)
            clocked = seconds is not None and engine.turns is TurnShape.SEQUENTIAL
            by_user = {s.user_id: s for s in row.seats}
            seats = tuple(
                replace(by_user[user_id], seat=number, colour=hex_)
                for number, (user_id, (hex_, _)) in enumerate(zip(order, colours, strict=True))
            )
            starting = LoadedGame(replace(row, status="running", seats=seats), game_type, state)
            await _stored(
                self.ctx.store.start_game(
                    row,
                    engine.dump_state(state),
                    order,
                    [hex_ for hex_, _ in colours],
                    reminder=None if clocked else now + self.ctx.reminder_seconds,
                    deadlines={d.name: now + d.seconds for d in engine.deadlines(state)},
                    clock=clock_timers(now, seconds) if clocked and seconds else KEEP,
                    computer_timer=self.ctx.computer_due(starting),
                    told={s: engine.private_view(state, s) for s in range(len(order))}
                    if engine.has_private_view
                    else None,
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
            outcome = await announce.handoff(
                self.ctx,
                game,
                lines=lines,
                newly=set(range(len(order))),
                version=started.version,
                reply=[Text("lobby.started_reply")],
                private=private,
            )
            outcome.lobby = lobby_panel(game_type, started, state="started")
            return outcome

    # -- computer players --------------------------------------------------------------

    async def _hosted_lobby(
        self, channel_id: int, user: Player, expected_game: int | None
    ) -> tuple[GameRow, GameType]:
        row = await self._lobby_row(channel_id, expected_game)
        if row.status != "lobby":
            raise Refusal("error.already_started")
        if user.id != row.creator_id:
            raise Refusal("computer.error.host_only")
        game_type = self.ctx.game_type(row.game_type)
        if game_type.engine.computer() is None:
            raise Refusal("computer.error.none", game=Text(game_type.engine.title_key))
        return row, game_type

    @admitted
    async def computer_menu(
        self, channel_id: int, user: Player, *, expected_game: int | None = None
    ) -> Outcome:
        """The host's ephemeral choices: add a computer player at a level, or remove one."""
        row, _ = await self._hosted_lobby(channel_id, user, expected_game)
        choices = [
            Choice(Text("computer.add_button", {"level": Text(f"computer.level.{level}")}), level)
            for level in LEVELS
        ]
        choices = [Choice(c.label, c.action, kind=ChoiceKind.LOBBY) for c in choices]
        if any(s.computer is not None for s in row.seats):
            choices.append(Choice(Text("computer.remove_button"), "unseat", kind=ChoiceKind.LOBBY))
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("computer.menu")], choices=choices),
        )

    @admitted
    async def add_computer(
        self,
        channel_id: int,
        user: Player,
        level: str | None,
        *,
        expected_game: int | None = None,
    ) -> Outcome:
        """The host seats a computer player at ``level`` (refused when the lobby is full
        or the game has no computer player)."""
        chosen = parse_level(level)
        async with self.ctx.locks.hold(channel_id):
            row, game_type = await self._hosted_lobby(channel_id, user, expected_game)
            _, high = game_type.engine.player_range(row.options)
            if len(row.seats) >= high:
                raise Refusal("error.game_full", max=high)
            number = sum(s.computer is not None for s in row.seats) + 1
            name = computer_name(row.language, number, chosen)
            await _stored(
                self.ctx.store.add_seat(row, next_computer_id(row), name, computer=chosen)
            )
            panel = await self._panel(row)
        return _seated(
            row, channel_id, name, high, Text("computer.added_reply", {"player": name}), panel
        )

    @admitted
    async def remove_computer(
        self, channel_id: int, user: Player, *, expected_game: int | None = None
    ) -> Outcome:
        """The host removes the last computer player seated in the lobby."""
        async with self.ctx.locks.hold(channel_id):
            row, _ = await self._hosted_lobby(channel_id, user, expected_game)
            seated = [s for s in row.seats if s.computer is not None]
            if not seated:
                raise Refusal("computer.error.none_seated")
            gone = seated[-1]
            await _stored(self.ctx.store.remove_seat(row, gone.user_id))
            panel = await self._panel(row)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("computer.removed_reply", {"player": gone.display_name})]),
            news=News([Text("lobby.left", {"player": gone.display_name})]),
            lobby=panel,
        )

    @admitted
    async def set_option(
        self,
        channel_id: int,
        user: Player,
        name: str,
        value: str,
        *,
        expected_game: int | None = None,
    ) -> Outcome:
        """The host changes one lobby option before the start; refused (nothing
        changed) for anyone else, after the start, or for a value it does not have."""
        async with self.ctx.locks.hold(channel_id):
            row = await self._lobby_row(channel_id, expected_game)
            if row.status != "lobby":
                raise Refusal("error.options_started")
            if user.id != row.creator_id:
                raise Refusal("error.only_creator_options")
            game_type = self.ctx.game_type(row.game_type)
            specs = {spec.name: spec for spec in all_options(game_type)}
            if name not in specs:
                raise Refusal("error.unknown_option", option=name)
            spec = specs[name]
            if not value:
                raise Refusal(
                    "error.bad_option_value",
                    option=option_name(spec),
                    value=value,
                    choices=", ".join(spec.choices),
                )
            chosen = parse_options(game_type, {**row.options, name: value})
            words = {"option": option_name(spec), "value": value_name(spec, value)}
            if chosen == row.options:
                return Outcome(
                    game_id=row.id,
                    channel_id=channel_id,
                    reply=Reply([Text("lobby.option_kept_reply", words)]),
                )
            await _stored(self.ctx.store.set_options(row, chosen))
            panel = await self._panel(row)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("lobby.option_set_reply", words)]),
            news=News([Text("lobby.option_changed", {"player": user.name, **words})]),
            lobby=panel,
        )

    @admitted
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
                    reply=Reply(
                        [Text("lobby.abandon_confirm")],
                        choices=[
                            Choice(
                                Text("lobby.confirm_button"), kind=ChoiceKind.ABANDON, danger=True
                            )
                        ],
                    ),
                )
            await _stored(self.ctx.store.set_status(row, "abandoned"))
            self.ctx.timers_changed()
        closed = (
            lobby_panel(self.ctx.game_type(row.game_type), row, state="abandoned")
            if row.status == "lobby"
            else None
        )
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=Reply([Text("lobby.abandoned_reply")]),
            news=News([Text("lobby.abandoned", {"player": user.name})]),
            lobby=closed,
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


def _seated(
    row: GameRow, channel_id: int, name: str, high: int, reply: Text, panel: LobbyPanel
) -> Outcome:
    """A lobby's answer to a seat taken (a member's or a computer's): ``reply`` to the
    invoker, the channel told who joined and how full the table is."""
    joined = Text("lobby.joined", {"player": name, "count": len(row.seats) + 1, "max": high})
    return Outcome(
        game_id=row.id,
        channel_id=channel_id,
        reply=Reply([reply]),
        news=News([joined]),
        lobby=panel,
    )


async def _stored(call: Any) -> Any:
    try:
        return await call
    except VersionConflict:
        raise Refusal("error.conflict") from None
