"""The store's interface: what the service reads and writes, whatever the database.

:class:`bot.store.sql.SqlStore` implements :class:`Store` once, in SQL, over a
backend's executor (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`);
:func:`bot.store.open_store` picks one from ``ZIGGURAT_DB``.

Decisions (every backend keeps them; ``tests/platform/test_store.py`` runs on each):

* Every state write carries the version it was computed from and matches no
  row if another writer got there first: :class:`VersionConflict`, nothing
  written.
* **One commit per step**: the move rows, the new state, the checkpoint for
  undo, the publication mark and the game's timers are one transaction
  (:meth:`Store.commit_step`).
* At most one unfinished game (``lobby`` or ``running``) per channel is a
  partial unique index: :class:`ChannelBusy`, even across processes.
* A timer is fired in the transaction that carries out what it does: the
  step deletes the timer's row (``StepWrite.fired``) and is refused with
  :class:`TimerGone` when that row is already gone, so it never fires twice.
* Writes are grouped: concurrent callers share commits (SQLite: one writer
  and group commit; PostgreSQL: a pool, one transaction per unit and the
  server's own group commit). A caller is answered only after its commit.
* The move log is append-only; an undo is a row of its own (kind ``undo``).
  ``checkpoint_seq`` is the last move that may not be undone;
  ``checkpoint_state`` is the state right after it, or NULL while the
  current state *is* that state.
* Migrations are one numbered, cumulative list for both databases
  (:mod:`bot.store.schema`), applied in order at open;
  :meth:`Store.schema_version` is the last one applied.
* Stored JSON (state, options, events, payloads) is one canonical text
  (:func:`dumps`), so both backends keep byte-identical values; it is written
  and read by :mod:`bot.store.codec` (orjson), the text unchanged.
* A game is read with what a step after it needs to tell: its seats, its told
  views, its named deadlines (:attr:`GameRow.deadlines`) and, when there are
  any, the moves since its last public message (:meth:`GameRow.pending_moves`),
  in the one statement of its load. Every write that changes those (a deadline
  restored at start-up aside, under the channel's lock) bumps the version, so
  they are the version's.
* **A step need not read.** The running games this process last read or
  committed are kept in memory, at most ``ZIGGURAT_KEPT_GAMES`` of them
  (:mod:`bot.store.kept`); a step may start from one
  (:meth:`Store.kept_game_in`), its version check the guard. Every game write
  of the store drops the game's kept row first, and a step's commit puts back
  the row as it leaves it.
"""

from __future__ import annotations

import asyncio
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

from bot.cluster import ShardRange
from bot.store.codec import dumps as dumps  # the store's one JSON codec, re-exported
from bot.store.codec import loads as loads

#: a location starting with one of these is a PostgreSQL database, anything else a SQLite file
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
OPEN_STATUSES = ("lobby", "running")
#: the seat columns a step may change
SEAT_FIELDS = ("status", "timeouts", "auto")
#: the integers every backend stores (SQLite's INTEGER, PostgreSQL's BIGINT): signed 64-bit
MIN_INTEGER = -(2**63)
MAX_INTEGER = 2**63 - 1
#: the most digits of a stored integer written out (19)
INTEGER_DIGITS = len(str(MAX_INTEGER))


def storable(value: int) -> bool:
    """Whether ``value`` fits an integer column of every backend (an id, a version, a seed)."""
    return MIN_INTEGER <= value <= MAX_INTEGER


def redact_url(location: str) -> str:
    """``location`` with a URL's password shown as ``***`` (anything else unchanged)."""
    parts = urlsplit(location)
    if not parts.scheme or parts.password is None:
        return location
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{netloc}"))


#: a seat to open a lobby with: (user id, name) or (user id, name, computer level or None)
SeatSpec = tuple[int, str] | tuple[int, str, str | None]


def seat_specs(seats: Sequence[SeatSpec]) -> list[tuple[int, str, str | None]]:
    """Each seat as (user id, name, computer level or None)."""
    return [(row[0], row[1], row[2] if len(row) > 2 else None) for row in seats]


# -- computer seats' secrets (issue 28) ---------------------------------------------------


def new_seat_secret() -> int:
    """A computer seat's secret: 62 random bits from the operating system."""
    return secrets.randbits(62)


def seat_secret(computer: str | None) -> int | None:
    """The secret a seat is created with: a fresh one for a computer, None for a member."""
    return None if computer is None else new_seat_secret()


def seats_with_secrets(
    seats: Sequence[SeatSpec],
) -> list[tuple[int, str, str | None, int | None]]:
    """Each seat as (user id, name, computer level or None, its secret or None)."""
    return [(user, name, level, seat_secret(level)) for user, name, level in seat_specs(seats)]


class StoreError(Exception):
    """Base of the store's own errors."""


class VersionConflict(StoreError):
    """Another writer changed the game since it was loaded; nothing was written."""


class TimerGone(VersionConflict):
    """The due timer a step carries out was already fired (another pass took it)."""


class ChannelBusy(StoreError):
    """The channel already has an unfinished game."""


class StoreClosed(StoreError):
    """The store was closed; nothing more is written."""


@dataclass(frozen=True)
class SeatRow:
    """A seat: its player, colour, how it plays on (``playing``, ``absent`` after
    too many timeouts in a row, ``resigned``), consecutive timeouts, whether it
    takes automatic answers, and its place and score once the game is over.

    A computer seat has its level in ``computer`` (None for a member) and a
    synthetic negative ``user_id`` (chosen by the service), so a seat is still
    found by its user and a game never holds one user twice. Its ``secret``
    (drawn by the store when the computer takes the seat, None for a member)
    seeds its decisions and its answer delay; it is never shown, logged or
    exported, and is left out of the row's ``repr``."""

    seat: int
    user_id: int
    display_name: str
    colour: str
    status: str = "playing"
    timeouts: int = 0
    auto: bool = False
    place: int | None = None
    score: int | None = None
    computer: str | None = None
    secret: int | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_type: str
    status: str
    creator_id: int
    options: dict[str, str]
    seed: int
    state: Any  # decoded JSON, None in the lobby
    version: int
    created_at: float
    updated_at: float
    waiting_since: float | None
    seats: tuple[SeatRow, ...]
    language: str = "en"
    checkpoint_seq: int = 0
    published_seq: int = 0
    last_seq: int = 0
    #: the timers a paused clock will restore (kind, name, seconds left), else None
    paused: list[Any] | None = None
    finished_at: float | None = None
    #: the ``told`` column as stored (JSON text, or None): read with the game, so a
    #: hand-off needs no read of its own (:meth:`told_views`); hidden from ``repr``
    told_json: str | None = field(default=None, repr=False)
    #: the game's named deadlines (name -> due time) as of this row's version, read with
    #: the game (a sealed round's tally needs no read of its own); None when not known
    #: (a row not read from the store)
    deadlines: Mapping[str, float] | None = None
    #: the moves after ``published_seq`` as read with the game (JSON text, decoded by
    #: :meth:`pending_moves`), None when there are none or it was not read
    pending_json: str | None = field(default=None, repr=False)

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def pending_moves(self) -> list[MoveRow] | None:
        """The moves since the game's last public message (seq > ``published_seq``), as
        :meth:`Store.moves` reads them, as of this row's version; None when this row
        was not read with them."""
        if self.published_seq >= self.last_seq:
            return []
        if self.pending_json is None:
            return None
        return [
            MoveRow(
                int(seq),
                int(seat),
                str(action),
                float(created_at),
                str(kind),
                tuple(events),
                bool(checkpoint),
            )
            for seq, seat, action, created_at, kind, events, checkpoint in loads(self.pending_json)
        ]

    def told_views(self) -> dict[int, Any] | None:
        """Each seat's private view as last told, as of this row's version (what
        :meth:`Store.told` reads), None when none was written yet."""
        return decode_told(self.told_json)


class KeptMessage(NamedTuple):
    """A game's kept message: where it is, and the text it is edited from (if any)."""

    channel_id: int
    message_id: int
    content: str | None


class MessageReads(NamedTuple):
    """What posting one of a game's messages reads, in one statement
    (:meth:`Store.message_reads`): its kept messages by kind, how the users asked about
    want to be told it is their turn (only those who chose), and which of them have
    closed DMs."""

    kept: dict[str, KeptMessage]
    notify: dict[int, str]
    dms_closed: set[int]


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    action: str
    created_at: float
    kind: str = "move"
    events: tuple[Any, ...] = ()
    checkpoint: bool = True


@dataclass(frozen=True)
class NewMove:
    """A log row to append: ``kind`` is ``move``, ``timeout`` or ``undo``.

    ``events`` are the step's public lines (JSON: ``[key, params]`` pairs),
    kept for the hand-off message that will list them.
    """

    seat: int
    action: str
    kind: str = "move"
    events: Sequence[Any] = ()
    checkpoint: bool = True


class Keep:
    """Marker: leave this part of the game's timers as it is."""


KEEP = Keep()


@dataclass(frozen=True)
class StepWrite:
    """Everything one step changes, written in one transaction.

    ``deadlines`` maps each wanted deadline name to the due time it gets if
    it is new; an existing timer of that name keeps its due time, and timers
    of names no longer wanted are dropped (:data:`KEEP` leaves all as they
    are). ``reminder`` is the reminder's new due time, None to drop it.
    ``clock`` replaces the turn clock's timers (``turn``, ``half``, ``soon``)
    with these. ``seats`` changes seats' ``status``, ``timeouts`` and
    ``auto``; ``results`` is each seat's (place, score) when the game ends.

    Whether the step is an undo checkpoint is read from its move rows, which
    must agree (a row played by the table makes every row before it in the
    commit a checkpoint too): the game's ``checkpoint_seq`` and each row's
    flag are one fact, so the live undo and a replay of the log agree.
    """

    state: Any
    status: str
    moves: Sequence[NewMove]
    waiting_changed: bool = False
    published: bool = False
    reminder: float | Keep | None = KEEP
    deadlines: Mapping[str, float] | Keep = KEEP
    clock: Mapping[str, float] | Keep = KEEP
    seats: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    results: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    #: the id of the due timer this step carries out (deleted with it), if any
    fired: int | None = None
    #: the computer seats' move timer: its due time (one already set keeps its own,
    #: unless this one is earlier), None to drop it
    computer: float | Keep | None = KEEP
    #: each seat's private view as its player is now told of it (a hand-off's DMs), by
    #: seat; :data:`KEEP` leaves the last told views
    told: Mapping[int, Any] | Keep = KEEP

    def __post_init__(self) -> None:
        if len({move.checkpoint for move in self.moves}) > 1:
            raise ValueError("the move rows of one step disagree on its checkpoint")

    @property
    def checkpoint(self) -> bool:
        """The step is a checkpoint: its rows are (a step with no rows is one)."""
        return all(move.checkpoint for move in self.moves)

    def deadlines_after(self, before: Mapping[str, float] | None) -> dict[str, float] | None:
        """The game's named deadlines once this step is stored, from ``before`` (they as
        loaded, :attr:`GameRow.deadlines`), as :attr:`deadlines` says they are written;
        None when they do not follow from ``before``: it is not known, the step fires a
        timer (that row is deleted before the deadlines are written) or ends the game
        (its timers are dropped)."""
        if before is None or self.fired is not None or self.status != "running":
            return None
        if isinstance(self.deadlines, Keep):
            return dict(before)
        return {name: before.get(name, due) for name, due in self.deadlines.items()}


@dataclass(frozen=True)
class Committed:
    """What a step's commit gave: the new version and the seq of its last move."""

    version: int
    last_seq: int


@dataclass(frozen=True)
class PlayerGame:
    """A running game a user has a seat in (``/game mine``): the game, its newest
    public message (channel id, message id) when one is kept, and when its turn
    clock runs out, if it has one."""

    row: GameRow
    message: tuple[int, int] | None = None
    clock_ends: float | None = None


@dataclass(frozen=True)
class TimerRow:
    id: int
    due_at: float
    kind: str
    game_id: int | None
    payload: dict[str, Any]
    name: str = ""


@dataclass(frozen=True, order=True)
class HandOver:
    """An interaction received by one process for a game another process owns
    (a shard cluster, :mod:`bot.discord.handover`); ordered by id, oldest first."""

    id: int
    game_id: int
    payload: dict[str, Any] = field(compare=False)
    created_at: float = field(compare=False)


@dataclass(frozen=True)
class UndoBase:
    """What an undo starts from: the checkpoint's state and the moves after it."""

    state: Any
    moves: tuple[MoveRow, ...]


@dataclass(frozen=True)
class PlayerResults:
    """A player's finished games of one type: how many, how many won (first place,
    shared or not), the average place, and the name they last played under."""

    game_type: str
    user_id: int
    name: str
    played: int
    wins: int
    average_place: float
    #: these are games with a computer seat (counted apart)
    computers: bool = False


@dataclass(frozen=True)
class GuildResults:
    """A server's finished games: how many of each type, and each player's results."""

    games: dict[str, int]
    players: list[PlayerResults]
    #: finished games with a computer seat, per game type (not in ``games``)
    computer_games: dict[str, int] = field(default_factory=dict)


#: a seat's fields, in the order the load's ``seats_json`` lists them
SEAT_COLUMNS = (
    "seat",
    "user_id",
    "display_name",
    "colour",
    "status",
    "timeouts",
    "auto",
    "place",
    "score",
    "computer",
    "secret",
)
#: the game's columns that :func:`decode_game` copies as they are read
GAME_COPIED = (
    "id",
    "guild_id",
    "channel_id",
    "game_type",
    "status",
    "creator_id",
    "seed",
    "version",
    "created_at",
    "updated_at",
    "waiting_since",
    "language",
    "checkpoint_seq",
    "published_seq",
    "last_seq",
    "finished_at",
)
_new = object.__new__


def decode_game(row: Any) -> GameRow:
    """A game from its row (by column name, as every backend reads it; seats as JSON).

    Built without the frozen dataclasses' ``__init__`` (one ``object.__setattr__`` a
    field): a Tigris row 18–22 µs → 14–16 on a busy 2-core box, its state's JSON read
    alone 7–8 of them (``scripts/bench_store.py``). Every field is set from the row,
    each column already of its field's type as both drivers read it (integers, floats,
    text; a seat's flag, an integer in the JSON, made a bool); ``tests/platform/
    test_store.py`` holds each row equal to the one its ``__init__`` builds."""
    seats = []
    for values in loads(row["seats_json"]):
        seat = _new(SeatRow)
        fields = seat.__dict__
        fields.update(zip(SEAT_COLUMNS, values, strict=True))
        fields["auto"] = bool(fields["auto"])
        seats.append(seat)
    game = _new(GameRow)
    fields = game.__dict__
    fields.update({name: row[name] for name in GAME_COPIED})
    state, paused = row["state"], row["paused"]
    fields.update(
        options=loads(row["options"]),
        state=None if state is None else loads(state),
        seats=tuple(seats),
        paused=None if paused is None else loads(paused),
        told_json=row["told"],
        deadlines=decode_deadlines(row["deadlines_json"]),
        pending_json=row["pending_json"],
    )
    return game


def decode_deadlines(text: str | None) -> dict[str, float]:
    """The ``deadlines_json`` a game is read with: each deadline's exact due time by name
    (written out as text, so no JSON rounds it)."""
    if text is None:
        return {}
    return {str(name): float(due) for name, due in loads(text).items()}


def decode_told(text: str | None) -> dict[int, Any] | None:
    """The ``told`` column's views by seat (:attr:`StepWrite.told`), None when empty."""
    if text is None:
        return None
    return {int(seat): view for seat, view in loads(text).items()}


def decode_move(row: Any) -> MoveRow:
    return MoveRow(
        seq=int(row["seq"]),
        seat=int(row["seat"]),
        action=row["action"],
        created_at=float(row["created_at"]),
        kind=row["kind"],
        events=tuple(loads(row["events"])),
        checkpoint=bool(row["checkpoint"]),
    )


def decode_timer(row: Any) -> TimerRow:
    return TimerRow(
        id=int(row["id"]),
        due_at=float(row["due_at"]),
        kind=row["kind"],
        game_id=row["game_id"],
        payload=loads(row["payload"]),
        name=row["name"],
    )


class Store(ABC):
    """The database behind the service. Open with :meth:`open`; all methods are coroutines."""

    #: where the data lives (a file path, or a URL without its password)
    path: str
    #: commits made and write units in them, for the benchmark and tests
    batches: int = 0
    units: int = 0

    @classmethod
    async def open(cls, location: str | Path) -> Store:
        """Open the database at ``location``: a ``postgresql://`` URL, else a SQLite file."""
        from bot.store import open_store

        return await open_store(location)

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_type: str,
        creator_id: int,
        creator_name: str,
        options: Mapping[str, str],
        seed: int,
        language: str = "en",
    ) -> GameRow:
        """Create a lobby with its creator in seat 0; :class:`ChannelBusy` if taken."""
        return await self.open_seated_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            game_type=game_type,
            creator_id=creator_id,
            seats=[(creator_id, creator_name)],
            options=options,
            seed=seed,
            language=language,
        )

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's unfinished game, else its most recent finished one."""
        return await self.open_game_in(channel_id) or await self.last_game_in(channel_id)

    @abstractmethod
    async def last_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status."""

    @abstractmethod
    async def close(self) -> None:
        """Finish the writes already queued, then close both connections."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    @abstractmethod
    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's unfinished game (lobby or running), if any, read from the
        database (and kept, when running: :mod:`bot.store.kept`)."""

    @abstractmethod
    def kept_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's running game as this process last read or committed it, if it
        is kept (no I/O; :mod:`bot.store.kept`): only a step's load may start from it, the
        step's version check the guard that it is still the stored one."""

    @abstractmethod
    def forget_kept(self, game_id: int) -> None:
        """Drop the game's kept row (a command that started from it failed)."""

    @abstractmethod
    def keep_games(self, size: int) -> None:
        """Keep at most ``size`` games' rows in memory (``ZIGGURAT_KEPT_GAMES``; 0: none)."""

    @abstractmethod
    async def game_ids(self, statuses: Sequence[str] = OPEN_STATUSES) -> list[int]:
        """Ids of the games in these statuses (a maintenance scan, not a command's)."""

    @abstractmethod
    async def raw_game(self, game_id: int) -> tuple[Any, ...]:
        """The stored rows of a game, for byte-identity checks in tests and tools."""

    @abstractmethod
    async def moves(
        self, game_id: int, last: int | None = None, *, after: int | None = None
    ) -> list[MoveRow]:
        """The move log in order; ``last``: only the last N; ``after``: only seq > after."""

    @abstractmethod
    async def undo_base(self, game: GameRow) -> UndoBase:
        """The checkpoint state and the moves since it, for undoing a step of ``game``."""

    @abstractmethod
    async def add_seat(
        self, game: GameRow, user_id: int, display_name: str, *, computer: str | None = None
    ) -> None:
        """Seat a user (or a computer at level ``computer``, with a fresh secret) in the
        next free seat of a lobby (version-checked)."""

    @abstractmethod
    async def remove_seat(self, game: GameRow, user_id: int) -> None:
        """Remove a user from a lobby and close the gap in seat numbers."""

    @abstractmethod
    async def set_options(self, game: GameRow, options: Mapping[str, str]) -> None:
        """Replace a lobby's options (version-checked; only while it is a lobby)."""

    @abstractmethod
    async def start_game(
        self,
        game: GameRow,
        state: Any,
        order: Sequence[int],
        colours: Sequence[str],
        *,
        reminder: float | Keep | None = KEEP,
        deadlines: Mapping[str, float] | Keep = KEEP,
        clock: Mapping[str, float] | Keep = KEEP,
        computer_timer: float | Keep | None = KEEP,
        told: Mapping[int, Any] | None = None,
    ) -> None:
        """Move a lobby to running with its first state, seat order and timers.

        ``order`` holds the user ids in their new seat order, ``colours`` each
        seat's colour, ``told`` each seat's first private view, as its player is
        told of it (:attr:`StepWrite.told`). ``computer_timer`` sets the computer seats'
        move timer as :attr:`StepWrite.computer` does (here and in the other writes that
        change how a seat plays: :meth:`set_seat`, :meth:`replace_player`, :meth:`resume`).
        """

    @abstractmethod
    async def set_status(self, game: GameRow, status: str) -> None:
        """End an unfinished game (abandon it, typically) and drop its timers."""

    @abstractmethod
    async def commit_step(
        self, game: GameRow, step: StepWrite, *, sent: Callable[[], None] | None = None
    ) -> Committed:
        """Append the step's moves and store everything it changed, atomically.

        ``game`` is the row as loaded (or as a commit of this interaction left it): its
        version is checked, and its :attr:`~GameRow.deadlines`, when known, are taken
        as the ones stored (a deadline wanted under the same names is not written again).
        Raises :class:`VersionConflict` (nothing written) if the game changed
        since ``game`` was loaded. ``sent`` is called on the event loop, at most
        once and before this returns, when the step is with the database and only
        its commit remains (SQLite: its statements ran, the commit's fsync is under
        way; PostgreSQL: its script was sent): the caller may prepare its answer
        meanwhile, to send it once this returned.
        """

    def start_step(
        self, game: GameRow, step: StepWrite, *, sent: Callable[[], None] | None = None
    ) -> asyncio.Future[Committed]:
        """:meth:`commit_step`, started now: its result (or error) once committed. A
        caller that prepares its answer while the commit runs gets the write to the
        database without first waiting for the loop's next turn where the backend can
        (SQLite hands it to its writer here)."""
        return asyncio.ensure_future(self.commit_step(game, step, sent=sent))

    @abstractmethod
    async def set_seat(
        self,
        game: GameRow,
        seat: int,
        fields: Mapping[str, Any],
        *,
        computer_timer: float | Keep | None = KEEP,
    ) -> int:
        """Change a seat's ``status``, ``timeouts`` or ``auto`` (version-checked), and the
        computer timer with it; the new version."""

    @abstractmethod
    async def replace_player(
        self,
        game: GameRow,
        seat: int,
        user_id: int,
        display_name: str,
        *,
        computer: str | None = None,
        computer_timer: float | Keep | None = KEEP,
        secret: int | None = None,
    ) -> int:
        """Hand a seat to another user, or to a computer at level ``computer`` with a
        fresh secret (``secret`` when the caller drew it), version-checked, and set the
        computer timer with it; the new version. The seat plays on afresh: ``playing``,
        no timeouts, no automatic answers.

        Raises :class:`StoreError` when that user already holds a seat.
        """

    @abstractmethod
    async def pause(self, game: GameRow, paused: Sequence[Any]) -> int:
        """Stop a game's clocks: its timers are dropped and ``paused`` (what to restore)
        kept on the game; the new version."""

    @abstractmethod
    async def resume(
        self,
        game: GameRow,
        *,
        reminder: float | None,
        deadlines: Mapping[str, float],
        clock: Mapping[str, float],
        computer_timer: float | Keep | None = KEEP,
    ) -> int:
        """Restart a paused game's clocks with these timers; the new version."""

    @abstractmethod
    async def extend(self, game: GameRow, seconds: float) -> int:
        """Move a game's turn clock and named deadlines ``seconds`` later; the new version."""

    @abstractmethod
    async def set_notify(self, user_id: int, how: str) -> None: ...

    @abstractmethod
    async def notify_choices(self, user_ids: Sequence[int]) -> dict[int, str]:
        """How each of these users wants to be told it is their turn (only those who chose)."""

    @abstractmethod
    async def add_timer(
        self,
        due_at: float,
        kind: str,
        game_id: int | None,
        payload: Mapping[str, Any] | None = None,
        name: str = "",
    ) -> int: ...

    @abstractmethod
    async def replace_timers(
        self,
        game_id: int,
        kind: str,
        due_at: float | None,
        payload: Mapping[str, Any] | None = None,
    ) -> None:
        """Drop a game's timers of one kind and, if ``due_at`` is given, add one."""

    @abstractmethod
    async def add_missing_timers(
        self, game_id: int, timers: Sequence[tuple[str, str, float]]
    ) -> None:
        """Add these (kind, name, due_at) timers of a game where it has none of that kind and
        name; one it has is kept as it is."""

    @abstractmethod
    async def timer(self, timer_id: int) -> TimerRow | None: ...

    @abstractmethod
    async def due_timers(self, now: float, limit: int = 500) -> list[TimerRow]:
        """The timers due by ``now``, earliest first (at most ``limit``)."""

    @abstractmethod
    async def running_games(self) -> list[GameRow]:
        """Every running game whose clock is not paused (a start-up scan, not a command's)."""

    @abstractmethod
    async def next_timer(self) -> TimerRow | None: ...

    @abstractmethod
    async def timers(self, game_id: int | None = None) -> list[TimerRow]: ...

    @abstractmethod
    async def delete_timer(self, timer_id: int) -> bool:
        """Remove a timer; False if it was already gone (another pass took it)."""

    @abstractmethod
    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, content: str | None = None
    ) -> None:
        """Keep a game's message of this kind (one per kind), with the text the adapter
        edits it from (``content``), if any."""

    @abstractmethod
    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """The (channel id, message id) of a game's kept message, if one was posted."""

    @abstractmethod
    async def messages(self, game_id: int) -> dict[str, KeptMessage]:
        """Every kept message of a game, by kind, in one read."""

    @abstractmethod
    async def forget_message(self, game_id: int, kind: str) -> None:
        """Forget a game's kept message of this kind (it was deleted)."""

    @abstractmethod
    async def keep_messages(
        self, game_id: int, kept: Mapping[str, KeptMessage], forgotten: Collection[str] = ()
    ) -> None:
        """Keep a game's messages of these kinds and forget those of the ``forgotten``
        kinds, all in one transaction."""

    @abstractmethod
    async def told(self, game_id: int) -> dict[int, Any] | None:
        """Each seat's private view as last told (:attr:`StepWrite.told`), None when
        none was written yet."""

    @abstractmethod
    async def player_games(self, user_id: int, limit: int, kind: str) -> list[PlayerGame]:
        """The running games the user has a seat in, the longest waiting first (at most
        ``limit``), each with its kept message of ``kind`` and its turn clock's end."""

    @abstractmethod
    async def mark_dms_closed(self, user_id: int) -> None:
        """Record a refused DM (now); the games already told about it stay told."""

    @abstractmethod
    async def mark_dms_open(self, user_id: int) -> None: ...

    @abstractmethod
    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        """Whether the user's DMs are known to be closed.

        With ``retry_after`` (seconds), a refusal older than that no longer
        counts, so the caller tries a DM again: people do reopen their DMs.
        """

    @abstractmethod
    async def message_reads(self, game_id: int | None, user_ids: Sequence[int]) -> MessageReads:
        """:meth:`messages` of ``game_id`` (none for ``None``), :meth:`notify_choices`
        and :meth:`dms_closed_among` of ``user_ids``, in one statement."""

    @abstractmethod
    async def dms_closed_among(self, user_ids: Sequence[int]) -> set[int]:
        """Those of ``user_ids`` whose DMs are known to be closed (refused at any time),
        in one read."""

    @abstractmethod
    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:
        """Record that the channel of ``game_id`` was told about closed DMs.

        Returns True the first time for this user and game, False after.
        """

    @abstractmethod
    async def open_seated_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_type: str,
        creator_id: int,
        seats: Sequence[SeatSpec],
        options: Mapping[str, str],
        seed: int,
        language: str = "en",
    ) -> GameRow:
        """Create a lobby with ``seats`` (user id, name, and optionally the computer
        level; each computer with a fresh secret) seated in this order, in one
        transaction; :class:`ChannelBusy` if the channel has an unfinished game."""

    @abstractmethod
    async def last_game_over_in(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game that started and is over (finished or abandoned)."""

    @abstractmethod
    async def guild_results(self, guild_id: int) -> GuildResults:
        """Every finished game's seats in a server, summed per game type and player;
        games with a computer seat are counted apart (``computer_games``,
        ``PlayerResults.computers``) and computer seats are no players."""

    @abstractmethod
    async def member_results(self, guild_id: int, user_id: int) -> list[PlayerResults]:
        """One user's finished games in a server, summed per game type (games with a
        computer seat apart)."""

    # -- shard clusters: owned timers, claimed; interactions handed over -------------

    @abstractmethod
    async def claim_due_timers(
        self,
        now: float,
        shards: ShardRange,
        claimant: str,
        lease: float,
        limit: int = 500,
    ) -> list[TimerRow]:
        """Claim the timers due by ``now`` of games in ``shards``' guilds; return them,
        earliest first.

        One atomic statement (``UPDATE … RETURNING``; on PostgreSQL its rows
        picked ``FOR UPDATE SKIP LOCKED``): a timer is taken when it is
        unclaimed, already ``claimant``'s, or its claim is older than ``lease``
        seconds (its claimant died or no longer runs). The claim only keeps
        other processes off while this one fires it; firing still deletes the
        timer inside the commit of what it does, so a claim by a dead process
        never loses the timer.
        """

    @abstractmethod
    async def next_owned_timer(
        self, shards: ShardRange, claimant: str, lease: float
    ) -> TimerRow | None:
        """The next timer ``claimant`` may fire of a game in ``shards``' guilds.

        Its ``due_at`` is when it may be claimed: a timer another claimant holds
        comes due when that claim lapses (``lease`` seconds after it was made).
        """

    @abstractmethod
    async def hand_over(self, shard: int, game_id: int, payload: Mapping[str, Any]) -> int:
        """Leave an interaction (Discord's payload) for the process running ``shard``;
        its id."""

    @abstractmethod
    async def take_handovers(self, shards: ShardRange, limit: int = 100) -> list[HandOver]:
        """Take (delete and return) the interactions left for ``shards``, oldest first.

        ``DELETE … RETURNING`` in one transaction: each is taken by one process.
        """

    @abstractmethod
    async def has_handovers(self, shards: ShardRange) -> bool:
        """Whether an interaction waits for ``shards`` (one indexed read: cheap to poll)."""
