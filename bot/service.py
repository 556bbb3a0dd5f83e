"""The application: lobby, turns, deadlines, locks and who may act.

Transport-agnostic: the Discord adapter, the offline demo and the tests all
call :class:`GameService`. It speaks in :class:`~bot.i18n.Text` (a catalog key
and its parameters) so each recipient reads it in their own language, and in
user ids, so the adapter decides how to mention someone.

Decisions:

* One unfinished game per channel; every command names a channel and the
  service finds the game. Commands on one channel are serialized by a lock;
  the store's version check guards against a second process as well.
* A refused command raises :class:`Refusal` before anything is written, so
  the stored game is untouched; the adapter answers it ephemerally.
* A move is committed to the database before :meth:`GameService.act` returns,
  so an acknowledged move survives any crash that follows.
* Seat order is shuffled at start from the game's seed; seat colours follow
  the shuffled order.
* Reminders: while a game waits, a ``reminder`` timer is due one turn
  deadline after the wait began; when it fires it pings the players the game
  waits for and re-arms itself. Games whose engine defines
  ``deadline_seconds(state)`` and ``timeout_action(state, seat)`` also get a
  ``deadline`` timer that plays the timeout action for late seats.
* Buttons are public, so they come only from the engine's optional
  ``public_choices(state, seat)`` hook, which must use public information
  only. ``legal_actions`` is never turned into buttons: the moves a seat may
  make reveal its hand (the cards it holds, how many tiles of a colour).
  Engines without the hook get no buttons; ``/play`` offers every move.
* A button click carries its game and version; it is refused as stale
  whenever the channel's running game is not that game at that version —
  also when the game has since ended or a new lobby opened.
* Anything shown publicly after a move (the headline of a timed-out seat
  too) uses the action's public notation, never its full notation.
* Drawing an image happens after the move is committed, so a renderer that
  fails is logged and the move is announced without the image: failing the
  command would tell the player nothing changed when it did, and nobody
  would be pinged.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.games.base import Event, GameType, PlayerLabel, Result, RuleError
from bot.i18n import Text, language_of
from bot.store import ChannelBusy, GameRow, Store, TimerRow, VersionConflict

log = logging.getLogger(__name__)

#: seat colours in seat order; chosen to stay apart from the games' piece colours
SEAT_COLOURS: tuple[str, ...] = ("#f1a208", "#9b59b6", "#1abc9c", "#e84393", "#95a5a6")
#: what players call each seat colour (catalog keys ``colour.<name>``)
SEAT_COLOUR_NAMES: dict[str, str] = {
    "#f1a208": "amber",
    "#9b59b6": "purple",
    "#1abc9c": "teal",
    "#e84393": "pink",
    "#95a5a6": "grey",
}

DEFAULT_DEADLINE_HOURS = 24.0

#: at most this many legal actions are offered as buttons (two rows of five)
MAX_CHOICES = 10


@dataclass(frozen=True)
class Player:
    """A user as the service sees them: a stable id and a display name."""

    id: int
    name: str


@dataclass(frozen=True)
class PrivateMessage:
    """Something only ``user_id`` may see: text lines and an optional image."""

    user_id: int
    lines: tuple[Text, ...]
    image: bytes | None = None


@dataclass(frozen=True)
class Choice:
    """A quick decision offered as a button: its label (translated late) and its action."""

    label: Text
    action: str


@dataclass
class Outcome:
    """What a command produced, for the adapter to deliver.

    ``reply`` answers the invoker privately (ephemeral); ``public`` lines and
    ``board`` form one public message that mentions ``ping``; ``private``
    goes to each owner (DM, else ephemeral). ``choices`` are the quick
    decisions for the players pinged.
    """

    game_id: int | None = None
    channel_id: int | None = None
    reply: list[Text] = field(default_factory=list)
    public: list[Text] = field(default_factory=list)
    board: bytes | None = None
    private: list[PrivateMessage] = field(default_factory=list)
    ping: list[int] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    finished: bool = False
    #: the game's stored version after this outcome (buttons carry it)
    version: int | None = None


class Refusal(Exception):
    """A command that cannot be carried out; nothing was changed."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.text = Text(key, params)


@dataclass
class _Loaded:
    """A running game with its engine state (a private copy for this command)."""

    row: GameRow
    game_type: GameType
    state: Any


class GameService:
    """Lobby and play for every channel; one instance per bot process."""

    def __init__(
        self,
        store: Store,
        registry: Mapping[str, GameType] | None = None,
        *,
        deadline_hours: float = DEFAULT_DEADLINE_HOURS,
        clock: Callable[[], float] = time.time,
        render: bool = True,
    ) -> None:
        self.store = store
        self.registry = registry if registry is not None else games.REGISTRY
        self.deadline_seconds = deadline_hours * 3600.0
        self.clock = clock
        self.render = render
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: dict[int, tuple[int, Any]] = {}  # game id -> (version, state)
        self.on_timer_change: Callable[[], None] | None = None

    # -- helpers ------------------------------------------------------------

    def _lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def game_type(self, name: str) -> GameType:
        try:
            return self.registry[name]
        except KeyError:
            raise Refusal("error.unknown_game", game=name) from None

    async def _open_game(self, channel_id: int) -> GameRow:
        game = await self.store.open_game_in(channel_id)
        if game is None:
            raise Refusal("error.no_game")
        return game

    def _engine_state(self, row: GameRow, game_type: GameType) -> Any:
        """A private copy of the game's state, from the cache when it is current."""
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            return copy.deepcopy(cached[1])
        state = game_type.engine.load_state(row.state)
        self._states[row.id] = (row.version, copy.deepcopy(state))
        return state

    async def _running(self, channel_id: int) -> _Loaded:
        return self._loaded(await self._open_game(channel_id))

    def _loaded(self, row: GameRow) -> _Loaded:
        """The engine state of an open game row; refused while it is a lobby."""
        if row.status != "running":
            raise Refusal("error.not_started")
        game_type = self.game_type(row.game_type)
        return _Loaded(row, game_type, self._engine_state(row, game_type))

    @staticmethod
    def labels(row: GameRow) -> list[PlayerLabel]:
        return [PlayerLabel(s.seat, s.display_name, s.colour) for s in row.seats]

    @staticmethod
    def _names(row: GameRow) -> dict[int, str]:
        return {s.seat: s.display_name for s in row.seats}

    def _text(self, row: GameRow, key: str, params: Mapping[str, Any]) -> Text:
        """A catalog text whose ``seat``/``*_seat`` params become player names."""
        names = self._names(row)
        shown = {
            name: (
                names.get(value, str(value))
                if (name == "seat" or name.endswith("_seat")) and isinstance(value, int)
                else value
            )
            for name, value in params.items()
        }
        return Text(key, shown)

    def _rule_refusal(self, row: GameRow, error: RuleError) -> Refusal:
        refusal = Refusal(error.key)
        refusal.text = self._text(row, error.key, error.params)
        return refusal

    async def _board(self, row: GameRow, game_type: GameType, state: Any) -> bytes | None:
        """The public board image, or None (logged) if it cannot be drawn; see above."""
        if not self.render:
            return None
        view = game_type.engine.public_view(state)
        try:
            return await asyncio.to_thread(
                game_type.render_public, view, self.labels(row), row.language
            )
        except Exception:
            log.exception("could not draw the board of game %s; posting without it", row.id)
            return None

    async def _private_image(
        self, row: GameRow, game_type: GameType, view: Mapping[str, Any], seat: int
    ) -> bytes | None:
        """A seat's private image, or None (logged) if it cannot be drawn."""
        if not self.render or game_type.render_private is None:
            return None
        label = self.labels(row)[seat]
        try:
            return await asyncio.to_thread(game_type.render_private, view, label, row.language)
        except Exception:
            log.exception("could not draw seat %s's view in game %s", seat, row.id)
            return None

    def _user_of(self, row: GameRow, seat: int) -> int:
        return row.seats[seat].user_id

    def _waiting_line(self, row: GameRow, game_type: GameType, state: Any) -> list[Text]:
        waiting = sorted(game_type.engine.waiting_for(state))
        if not waiting:
            return []
        prompt_of = getattr(game_type.engine, "prompt", None)
        question = prompt_of(state) if prompt_of is not None else None
        if question is not None:  # the engine's question names whom it asks
            return [self._text(row, *question)]
        names = ", ".join(row.seats[s].display_name for s in waiting)
        return [Text("game.waiting_for", {"players": names})]

    def _choices(self, game_type: GameType, state: Any, waiting: Sequence[int]) -> list[Choice]:
        """Offer buttons when exactly one seat answers a quick public decision.

        The buttons are the engine's ``public_choices(state, seat)`` — never
        ``legal_actions``, whose list can spell out a hidden hand (see the
        module docstring) — and only 2 to :data:`MAX_CHOICES` of them: a
        full turn has far more options and is played with commands instead.
        """
        public_choices = getattr(game_type.engine, "public_choices", None)
        if len(waiting) != 1 or public_choices is None:
            return []
        actions = public_choices(state, waiting[0])
        if not 1 < len(actions) <= MAX_CHOICES:
            return []
        label_of = getattr(game_type.engine, "choice_label", None)
        return [
            Choice(
                Text(*label_of(a))
                if label_of is not None
                else Text("choice.notation", {"action": str(a)}),
                str(a),
            )
            for a in actions
        ]

    def _result_lines(self, row: GameRow, result: Result) -> list[Text]:
        lines = [Text("game.over")]
        for seat in result.ranking:
            detail_key, detail_params = result.details.get(seat, ("game.score", {}))
            lines.append(
                Text(
                    "game.ranking_line",
                    {
                        "place": result.places[seat],
                        "player": row.seats[seat].display_name,
                        "score": result.scores[seat],
                        "detail": self._text(row, detail_key, detail_params),
                    },
                )
            )
        return lines

    def ranking_text(self, row: GameRow, result: Result) -> Text:
        """One line: the final ranking, best first."""
        parts = ", ".join(
            f"{result.places[s]}. {row.seats[s].display_name} ({result.scores[s]})"
            for s in result.ranking
        )
        return Text("game.final_ranking", {"ranking": parts})

    # -- lobby --------------------------------------------------------------

    def parse_options(self, game_type: GameType, options: Mapping[str, str]) -> dict[str, str]:
        """Validate lobby options against the game's specs; fill in defaults."""
        specs = {spec.name: spec for spec in game_type.engine.options}
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
        for spec in game_type.engine.options:
            chosen.setdefault(spec.name, spec.default)
        return chosen

    async def new_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user: Player,
        game_type_name: str,
        options: Mapping[str, str] | None = None,
        seed: int | None = None,
        language: str = "en",
    ) -> Outcome:
        """Open a lobby; ``language`` (the server's) is the language of its images."""
        game_type = self.game_type(game_type_name)
        chosen = self.parse_options(game_type, options or {})
        async with self._lock(channel_id):
            try:
                row = await self.store.create_game(
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
        shown_options = ", ".join(f"{k}: {v}" for k, v in chosen.items()) or "-"
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
                        "options": shown_options,
                        "min": engine.min_players,
                        "max": engine.max_players,
                    },
                )
            ],
        )

    async def join(self, channel_id: int, user: Player) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.already_started")
            if row.seat_of(user.id) is not None:
                raise Refusal("error.already_joined")
            engine = self.game_type(row.game_type).engine
            if len(row.seats) >= engine.max_players:
                raise Refusal("error.game_full", max=engine.max_players)
            await self._store_call(self.store.add_seat(row, user.id, user.name))
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.joined_reply")],
            public=[
                Text(
                    "lobby.joined",
                    {"player": user.name, "count": len(row.seats) + 1, "max": engine.max_players},
                )
            ],
        )

    async def leave(self, channel_id: int, user: Player) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.leave_started")
            if row.seat_of(user.id) is None:
                raise Refusal("error.not_in_game")
            if user.id == row.creator_id:
                raise Refusal("error.creator_cannot_leave")
            await self._store_call(self.store.remove_seat(row, user.id))
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.left_reply")],
            public=[Text("lobby.left", {"player": user.name})],
        )

    async def start(self, channel_id: int, user: Player) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open_game(channel_id)
            if row.status != "lobby":
                raise Refusal("error.already_started")
            if user.id != row.creator_id:
                raise Refusal("error.only_creator_starts")
            game_type = self.game_type(row.game_type)
            engine = game_type.engine
            if len(row.seats) < engine.min_players:
                raise Refusal("error.not_enough_players", min=engine.min_players)
            order = [s.user_id for s in row.seats]
            random.Random(row.seed).shuffle(order)
            colours = [SEAT_COLOURS[i % len(SEAT_COLOURS)] for i in range(len(order))]
            state = engine.new_game(len(order), row.options, row.seed)
            await self._store_call(
                self.store.start_game(row, engine.dump_state(state), order, colours)
            )
            row = await self.store.get_game(row.id)
            assert row is not None
            await self._arm_timers(row, game_type, state)
            return await self._after_change(
                row,
                game_type,
                state,
                version=row.version,
                headline=[Text("lobby.started", {"game": Text(engine.title_key)})]
                + [
                    Text(
                        "lobby.seat_line",
                        {
                            "seat": s.seat + 1,
                            "player": s.display_name,
                            "colour": Text(f"colour.{SEAT_COLOUR_NAMES.get(s.colour, 'grey')}"),
                        },
                    )
                    for s in row.seats
                ],
                events=[],
                reply=[Text("lobby.started_reply")],
                before_private={},
            )

    async def abandon(
        self, channel_id: int, user: Player, *, can_manage_channel: bool, confirmed: bool
    ) -> Outcome:
        """Abandon the channel's game; the creator or a channel manager, after confirming."""
        async with self._lock(channel_id):
            row = await self._open_game(channel_id)
            if user.id != row.creator_id and not can_manage_channel:
                raise Refusal("error.abandon_not_allowed")
            if not confirmed:
                return Outcome(
                    game_id=row.id,
                    channel_id=channel_id,
                    reply=[Text("lobby.abandon_confirm")],
                    choices=[Choice(Text("lobby.confirm_button"), "abandon")],
                )
            await self._store_call(self.store.set_status(row, "abandoned"))
            await self.store.replace_timers(row.id, "reminder", None)
            await self.store.replace_timers(row.id, "deadline", None)
            self._states.pop(row.id, None)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            reply=[Text("lobby.abandoned_reply")],
            public=[Text("lobby.abandoned", {"player": user.name})],
            finished=True,
        )

    async def _store_call(self, call: Any) -> Any:
        try:
            return await call
        except VersionConflict:
            raise Refusal("error.conflict") from None

    # -- reading ------------------------------------------------------------

    async def status(self, channel_id: int) -> Outcome:
        row = await self.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal("error.no_game")
        game_type = self.game_type(row.game_type)
        engine = game_type.engine
        lines = [
            Text(
                "status.header",
                {"game": Text(engine.title_key), "status": Text(f"status.{row.status}")},
            )
        ]
        lines += [
            Text("status.seat_line", {"seat": s.seat + 1, "player": s.display_name})
            for s in row.seats
        ]
        if row.status == "running":
            state = self._engine_state(row, game_type)
            waiting = sorted(engine.waiting_for(state))
            names = ", ".join(row.seats[s].display_name for s in waiting)
            lines.append(
                Text(
                    "status.waiting",
                    {"players": names, "since": int(row.waiting_since or row.updated_at)},
                )
            )
        elif row.status == "finished":
            result = engine.result(self._engine_state(row, game_type))
            if result is not None:
                lines.append(self.ranking_text(row, result))
        return Outcome(game_id=row.id, channel_id=channel_id, reply=lines)

    async def board(self, channel_id: int) -> Outcome:
        row = await self.store.latest_game_in(channel_id)
        if row is None or row.state is None:
            raise Refusal("error.no_board")
        game_type = self.game_type(row.game_type)
        state = self._engine_state(row, game_type)
        return Outcome(
            game_id=row.id,
            channel_id=channel_id,
            public=[
                Text("board.header", {"game": Text(game_type.engine.title_key)}),
                *self._waiting_line(row, game_type, state),
            ],
            board=await self._board(row, game_type, state),
        )

    async def hand(self, channel_id: int, user: Player) -> Outcome:
        loaded = await self._running(channel_id)
        seat = loaded.row.seat_of(user.id)
        if seat is None:
            raise Refusal("error.not_in_game")
        engine = loaded.game_type.engine
        view = engine.private_view(loaded.state, seat.seat)
        image = await self._private_image(loaded.row, loaded.game_type, view, seat.seat)
        return Outcome(
            game_id=loaded.row.id,
            channel_id=channel_id,
            private=[
                PrivateMessage(
                    user.id,
                    (Text("hand.header", {"game": Text(engine.title_key)}),),
                    image,
                )
            ],
        )

    async def log_lines(self, channel_id: int, count: int = 10) -> Outcome:
        row = await self.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal("error.no_game")
        if not 1 <= count <= 50:
            raise Refusal("error.bad_count", min=1, max=50)
        moves = await self.store.moves(row.id, last=count)
        engine = self.game_type(row.game_type).engine
        if not moves:
            return Outcome(game_id=row.id, channel_id=channel_id, reply=[Text("log.empty")])
        lines = [Text("log.header", {"count": len(moves)})] + [
            Text(
                "log.line",
                {
                    "seq": m.seq,
                    "player": row.seats[m.seat].display_name,
                    "action": public_notation(engine, engine.parse_action(m.action)),
                    "when": int(m.created_at),
                },
            )
            for m in moves
        ]
        return Outcome(game_id=row.id, channel_id=channel_id, reply=lines)

    async def suggestions(self, channel_id: int, user: Player, typed: str = "") -> list[str]:
        """Legal action notations for the user now, filtered by what they typed."""
        try:
            loaded = await self._running(channel_id)
        except Refusal:
            return []
        seat = loaded.row.seat_of(user.id)
        engine = loaded.game_type.engine
        if seat is None or seat.seat not in engine.waiting_for(loaded.state):
            return []
        wanted = typed.strip().lower()
        notations = [str(a) for a in engine.legal_actions(loaded.state, seat.seat)]
        return [n for n in notations if all(part in n.lower() for part in wanted.split())]

    async def legal_actions(self, channel_id: int, user: Player) -> list[Any]:
        """The user's legal action values now (empty when it is not their turn)."""
        loaded = await self._running(channel_id)
        seat = loaded.row.seat_of(user.id)
        if seat is None or seat.seat not in loaded.game_type.engine.waiting_for(loaded.state):
            return []
        return loaded.game_type.engine.legal_actions(loaded.state, seat.seat)

    # -- play ---------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        user: Player,
        action_text: str,
        *,
        expected_version: int | None = None,
        expected_game: int | None = None,
    ) -> Outcome:
        """Play ``action_text`` for ``user`` in the channel's game.

        Raises :class:`Refusal` with nothing written if the user is not in
        the game, the game is not waiting for them, or the rules forbid it.
        A button passes the game and version it was posted for; if the game
        has moved on since, ended, or given way to a new lobby, the click is
        refused as stale (checked under the lock, so it cannot apply to a
        later decision).
        """
        async with self._lock(channel_id):
            if expected_game is None and expected_version is None:
                loaded = await self._running(channel_id)
            else:
                current = await self.store.open_game_in(channel_id)
                if (
                    current is None
                    or current.status != "running"
                    or (expected_game is not None and current.id != expected_game)
                    or (expected_version is not None and current.version != expected_version)
                ):
                    raise Refusal("error.stale_button")
                loaded = self._loaded(current)
            row, game_type, state = loaded.row, loaded.game_type, loaded.state
            seat_row = row.seat_of(user.id)
            if seat_row is None:
                raise Refusal("error.not_in_game")
            return await self._play(row, game_type, state, seat_row.seat, action_text)

    async def _play(
        self,
        row: GameRow,
        game_type: GameType,
        state: Any,
        seat: int,
        action_text: str,
        *,
        headline: list[Text] | None = None,
    ) -> Outcome:
        """Apply one action for ``seat``; the public text is the engine's events.

        Only when an action produced no public event does the headline fall
        back to the action's public notation, so a hidden choice (a card
        played face down) is never announced by its notation.
        """
        engine = game_type.engine
        waiting_before = engine.waiting_for(state)
        if seat not in waiting_before:
            names = ", ".join(row.seats[s].display_name for s in sorted(waiting_before))
            raise Refusal("error.not_your_turn", players=names)
        before_private = {s.seat: engine.private_view(state, s.seat) for s in row.seats}
        try:
            action = engine.parse_action(action_text)
            events = engine.apply(state, seat, action)
        except RuleError as error:
            raise self._rule_refusal(row, error) from None
        result = engine.result(state)
        waiting_after = engine.waiting_for(state)
        try:
            version = await self.store.record_move(
                row,
                seat=seat,
                action=str(action),
                state=engine.dump_state(state),
                finished=result is not None,
                waiting_changed=waiting_after != waiting_before,
            )
        except VersionConflict:
            self._states.pop(row.id, None)
            raise Refusal("error.conflict") from None
        self._states[row.id] = (version, copy.deepcopy(state))
        if result is not None:
            await self.store.replace_timers(row.id, "reminder", None)
            await self.store.replace_timers(row.id, "deadline", None)
        elif waiting_after != waiting_before:
            await self._arm_timers(row, game_type, state)
        if headline is None and not any(e.private_to is None for e in events):
            shown = public_notation(engine, action)
            headline = [
                Text("move.played", {"player": row.seats[seat].display_name, "action": shown})
            ]
        return await self._after_change(
            row,
            game_type,
            state,
            version=version,
            headline=headline or [],
            events=events,
            reply=[Text("move.accepted", {"action": str(action)})],
            before_private=before_private,
        )

    async def _after_change(
        self,
        row: GameRow,
        game_type: GameType,
        state: Any,
        *,
        version: int,
        headline: list[Text],
        events: Sequence[Event],
        reply: list[Text],
        before_private: Mapping[int, Any],
    ) -> Outcome:
        """Build the public message, the private updates and the pings."""
        engine = game_type.engine
        public = list(headline)
        private_lines: dict[int, list[Text]] = {}
        for event in events:
            text = self._text(row, event.key, event.params)
            if event.private_to is None:
                public.append(text)
            else:
                private_lines.setdefault(event.private_to, []).append(text)
        result = engine.result(state)
        waiting = sorted(engine.waiting_for(state))
        if result is not None:
            public += self._result_lines(row, result)
        else:
            public += self._waiting_line(row, game_type, state)
        private: list[PrivateMessage] = []
        for seat_row in row.seats:
            view = engine.private_view(state, seat_row.seat)
            lines = private_lines.get(seat_row.seat, [])
            if view == before_private.get(seat_row.seat) and not lines:
                continue
            image = await self._private_image(row, game_type, view, seat_row.seat)
            header = Text("hand.update", {"game": Text(engine.title_key)})
            private.append(PrivateMessage(seat_row.user_id, (header, *lines), image))
        return Outcome(
            game_id=row.id,
            channel_id=row.channel_id,
            reply=reply,
            public=public,
            board=await self._board(row, game_type, state),
            private=private,
            ping=[self._user_of(row, s) for s in waiting],
            choices=self._choices(game_type, state, waiting),
            finished=result is not None,
            version=version,
        )

    # -- timers -------------------------------------------------------------

    async def _arm_timers(self, row: GameRow, game_type: GameType, state: Any) -> None:
        """(Re)start the waiting clock: a reminder, and a deadline if the game has one."""
        now = self.clock()
        await self.store.replace_timers(row.id, "reminder", now + self.deadline_seconds)
        deadline_of = getattr(game_type.engine, "deadline_seconds", None)
        seconds = deadline_of(state) if deadline_of else None
        await self.store.replace_timers(
            row.id, "deadline", None if seconds is None else now + seconds
        )
        if self.on_timer_change is not None:
            self.on_timer_change()

    async def fire_timer(self, timer: TimerRow) -> list[Outcome]:
        """Handle one due timer (already removed from the store by the caller)."""
        if timer.game_id is None:
            return []
        row = await self.store.get_game(timer.game_id)
        if row is None or row.status != "running":
            return []
        async with self._lock(row.channel_id):
            loaded = await self._running(row.channel_id)
            if loaded.row.id != timer.game_id:
                return []
            if timer.kind == "reminder":
                return [await self._remind(loaded)]
            if timer.kind == "deadline":
                return await self._timeout(loaded)
        log.warning("unknown timer kind %s", timer.kind)
        return []

    async def _remind(self, loaded: _Loaded) -> Outcome:
        row, game_type, state = loaded.row, loaded.game_type, loaded.state
        waiting = sorted(game_type.engine.waiting_for(state))
        await self.store.replace_timers(row.id, "reminder", self.clock() + self.deadline_seconds)
        names = ", ".join(row.seats[s].display_name for s in waiting)
        return Outcome(
            game_id=row.id,
            channel_id=row.channel_id,
            public=[Text("reminder.public", {"players": names})],
            ping=[self._user_of(row, s) for s in waiting],
        )

    async def _timeout(self, loaded: _Loaded) -> list[Outcome]:
        row, game_type, state = loaded.row, loaded.game_type, loaded.state
        engine = game_type.engine
        timeout_action = getattr(engine, "timeout_action", None)
        outcomes: list[Outcome] = []
        for seat in sorted(engine.waiting_for(state)):
            action = timeout_action(state, seat) if timeout_action else None
            if action is None:
                continue
            player = row.seats[seat].display_name
            shown = public_notation(engine, action)
            headline = [Text("move.timeout", {"player": player, "action": shown})]
            outcome = await self._play(row, game_type, state, seat, str(action), headline=headline)
            outcomes.append(outcome)
            fresh = await self.store.get_game(row.id)
            if fresh is None or fresh.status != "running":
                break
            row = fresh
            state = self._engine_state(row, game_type)
        return outcomes

    async def fire_due_timers(self, now: float | None = None) -> list[Outcome]:
        """Fire every timer due by ``now``; used by the timer task, the demo and tests."""
        now = self.clock() if now is None else now
        outcomes: list[Outcome] = []
        while (timer := await self.store.next_timer()) is not None and timer.due_at <= now:
            if await self.store.delete_timer(timer.id):
                outcomes += await self.fire_timer(timer)
        return outcomes


def public_notation(engine: Any, action: Any) -> str:
    """How an action is shown to everyone: the engine's ``public_notation`` if it
    hides part of the action (a card played face down), else its notation."""
    describe = getattr(engine, "public_notation", None)
    return describe(action) if describe is not None else str(action)


def help_lines(registry: Mapping[str, GameType], game: str | None) -> list[Text]:
    """The /help answer: the command list, and a game's rules summary if named."""
    if game is None:
        names = ", ".join(sorted(registry))
        return [Text("help.general", {"games": names})]
    if game not in registry:
        raise Refusal("error.unknown_game", game=game)
    engine = registry[game].engine
    return [
        Text("help.game_header", {"game": Text(engine.title_key)}),
        Text(f"{engine.name}.help"),
        Text("help.commands"),
    ]
