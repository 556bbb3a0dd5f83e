"""The store's statements and units of work, written once for SQLite and PostgreSQL.

:class:`SqlStore` implements every method of :class:`~bot.store.base.Store`
in SQL both databases run, spelled by a :class:`~bot.store.dialect.Dialect`.
A backend is a thin executor beneath it (:mod:`bot.store.sqlite`,
:mod:`bot.store.postgres`): it opens and migrates the database, runs one
read (:meth:`SqlStore._fetch`) and runs a write's plan in a transaction
(:meth:`SqlStore._perform`, :mod:`bot.store.plan`), mapping its driver's
errors to the store's.

Decisions (the interface's are :mod:`bot.store.base`'s):

* Each read is one statement (a game and its seats come in one query), so it
  is one consistent snapshot whatever writes are under way.
* A write is one plan, one transaction: a lobby's, a step's or a clock's
  whole change, its version check (:func:`_bump`) first.
* Two seats trade numbers through negative ones, so the primary key
  ``(game_id, seat)`` never sees two seats on one number mid-statement.
* A game has at most one timer of each kind and name (a unique index): the
  reminder is one upsert (re-armed, it is a new timer: unclaimed), an
  existing deadline keeps its due time (``ON CONFLICT DO NOTHING``), and the
  computer seats' timer keeps the earlier of its due times.
* **A step writes no deadline it would leave as it is.** A step that wants
  exactly the deadline names its game was loaded with (a sealed submission
  mid-round: the round's deadline again) sends neither the deadlines' delete
  nor their insert (:func:`_deadlines_to_write`): both would change no row,
  yet cost the server an index search each. The names as loaded hold until
  the commit: a game's deadlines change only in a step of the game (version
  checked) or under its channel's lock (a deadline dropped as it fires, the
  missing timers restored), which the step holds from its load to its commit.
* **Every game write passes the kept games** (:mod:`bot.store.kept`): a version
  bumping write through :meth:`SqlStore._on_game` (or, a step,
  :meth:`SqlStore.start_step`, which puts back the row it leaves,
  :func:`~bot.store.kept.stepped`), a timer of a game added, restored, replaced
  or deleted (its named deadlines are part of the row) through
  :meth:`~bot.store.kept.KeptGames.touched`; a new lobby drops the game kept for
  its channel. :meth:`SqlStore.open_game_in` keeps the running game it reads.
  A step's state and told views are written out once, before its plan (which
  may run again), and the kept row's state is read back from that text, so it
  shares nothing with the engine's.
"""

from __future__ import annotations

import asyncio
import time
from abc import abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from bot.cluster import ShardRange
from bot.store.base import (
    KEEP,
    OPEN_STATUSES,
    SEAT_FIELDS,
    ChannelBusy,
    Committed,
    GameRow,
    GuildResults,
    HandOver,
    Keep,
    KeptMessage,
    MessageReads,
    MoveRow,
    PlayerGame,
    PlayerResults,
    SeatSpec,
    StepWrite,
    Store,
    StoreError,
    TimerGone,
    TimerRow,
    UndoBase,
    VersionConflict,
    decode_game,
    decode_move,
    decode_timer,
    decode_told,
    dumps,
    loads,
    seat_secret,
    seats_with_secrets,
)
from bot.store.dialect import Compiled, Dialect
from bot.store.kept import KeptGames, stepped, told_text
from bot.store.plan import Duplicate, Op, Plan, PlanFactory, count, many, rows, run

T = TypeVar("T")

#: a game's columns, its seats as one JSON array, its named deadlines as one JSON object
#: and the moves since its last public message as one JSON array
#: (:func:`~bot.store.base.decode_game`)
GAME_COLUMNS = (
    "id, guild_id, channel_id, game_type, status, creator_id, options, seed, state, version,"
    " created_at, updated_at, waiting_since, language, checkpoint_seq, published_seq, last_seq,"
    " paused, finished_at, told, {seats_json} AS seats_json,"
    " {deadlines_json} AS deadlines_json, {pending_json} AS pending_json"
)
SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games"
MOVE_COLUMNS = "seq, seat, action, created_at, kind, events, checkpoint"
#: whether finished game ``g`` had a computer seat (the statistics count those apart)
HAS_COMPUTER = "EXISTS (SELECT 1 FROM seats AS k WHERE k.game_id = g.id AND k.computer IS NOT NULL)"
#: the games of the shards a cluster process owns (:meth:`ShardRange.condition`)
OWNED, _ = ShardRange().condition("games.guild_id")
TIMERS_AND_GAMES = " FROM timers LEFT JOIN games ON games.id = timers.game_id"
CLAIMABLE_COLUMNS = "timers.id AS id, kind, game_id, payload, name"


class SqlStore(Store):
    """Every store method, once; a backend supplies :meth:`_fetch` and :meth:`_perform`."""

    #: how this backend spells the statements
    dialect: Dialect

    def __init__(self, path: str) -> None:
        #: where the data lives (a file path, or a URL without its password)
        self.path = path
        self._closed = False
        #: commits made and units of work in them, for the benchmark and tests
        self.batches = 0
        self.units = 0
        #: the running games this process last read or committed (:mod:`bot.store.kept`)
        self.kept = KeptGames()

    # -- what a backend supplies ------------------------------------------------------

    @abstractmethod
    async def _fetch(self, statement: Compiled, params: Mapping[str, Any]) -> list[Any]:
        """The rows of one read (each readable by column name and by index)."""

    @abstractmethod
    async def _perform(
        self,
        plan: PlanFactory[T],
        *,
        sent: Callable[[], None] | None = None,
        disjoint: bool = False,
    ) -> T:
        """Run a plan in a transaction; its result once committed (see :mod:`bot.store.plan`).
        ``sent``: called once only the commit remains (:meth:`~bot.store.Store.commit_step`).
        ``disjoint``: no row is changed by two of its statements, nor read by one after
        another changed it, so a backend may run them as one statement (PostgreSQL)."""

    async def _statement(self, op: Op) -> Any:
        """One statement as a unit of its own: its count, or its rows (as the plan
        ``yield op`` would be sent them); a backend may run it without a
        ``BEGIN``/``COMMIT`` of its own, a lone statement being atomic."""

        def plan() -> Plan[Any]:
            result = yield op
            return result

        return await self._perform(plan)

    def _start(
        self,
        plan: PlanFactory[T],
        *,
        sent: Callable[[], None] | None = None,
        disjoint: bool = False,
    ) -> asyncio.Future[T]:
        """:meth:`_perform`, started now (:meth:`~bot.store.Store.start_step`)."""
        return asyncio.ensure_future(self._perform(plan, sent=sent, disjoint=disjoint))

    # -- reading ------------------------------------------------------------------------

    async def _all(self, sql: str, **params: Any) -> list[Any]:
        return await self._fetch(self.dialect.compile(sql), params)

    async def _one(self, sql: str, **params: Any) -> Any:
        found = await self._all(sql, **params)
        return found[0] if found else None

    async def _game(self, sql: str, **params: Any) -> GameRow | None:
        row = await self._one(sql, **params)
        return decode_game(row) if row else None

    async def _timer(self, sql: str, **params: Any) -> TimerRow | None:
        row = await self._one(sql, **params)
        return decode_timer(row) if row else None

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._game(f"{SELECT_GAME} WHERE id = :id", id=game_id)

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        ticket = self.kept.reading()
        row = await self._game(
            f"{SELECT_GAME} WHERE channel_id = :channel_id AND status IN ('lobby', 'running')",
            channel_id=channel_id,
        )
        if row is not None:
            self.kept.read(row, ticket)
        return row

    def kept_game_in(self, channel_id: int) -> GameRow | None:
        return self.kept.in_channel(channel_id)

    def forget_kept(self, game_id: int) -> None:
        self.kept.drop(game_id)

    def keep_games(self, size: int) -> None:
        self.kept.size = size

    async def _on_game(self, game_id: int, plan: PlanFactory[T]) -> T:
        """Run a plan that writes game ``game_id``: its kept row is dropped first
        (:meth:`KeptGames.writing`; only a step's commit puts one back)."""
        ticket = self.kept.writing(game_id)
        try:
            return await self._perform(plan)
        finally:
            self.kept.written(game_id, ticket)

    async def last_game_in(self, channel_id: int) -> GameRow | None:
        return await self._game(
            f"{SELECT_GAME} WHERE channel_id = :channel_id ORDER BY id DESC LIMIT 1",
            channel_id=channel_id,
        )

    async def last_game_over_in(self, channel_id: int) -> GameRow | None:
        return await self._game(
            f"{SELECT_GAME} WHERE channel_id = :channel_id"
            " AND status IN ('finished', 'abandoned') AND state IS NOT NULL"
            " ORDER BY id DESC LIMIT 1",
            channel_id=channel_id,
        )

    async def running_games(self) -> list[GameRow]:
        found = await self._all(
            f"{SELECT_GAME} WHERE status = 'running' AND paused IS NULL ORDER BY id"
        )
        return [decode_game(r) for r in found]

    async def game_ids(self, statuses: Sequence[str] = OPEN_STATUSES) -> list[int]:
        found = await self._all(
            "SELECT id FROM games WHERE status {in:statuses} ORDER BY id", statuses=list(statuses)
        )
        return [int(r[0]) for r in found]

    async def raw_game(self, game_id: int) -> tuple[Any, ...]:
        game = tuple(await self._one("SELECT * FROM games WHERE id = :id", id=game_id) or ())
        parts = [
            await self._all(f"SELECT * FROM {table} WHERE game_id = :id ORDER BY {by}", id=game_id)
            for table, by in (("seats", "seat"), ("moves", "seq"), ("timers", "kind, name, id"))
        ]
        return (game, *(tuple(map(tuple, part)) for part in parts))

    async def moves(
        self, game_id: int, last: int | None = None, *, after: int | None = None
    ) -> list[MoveRow]:
        if last is not None:
            found = await self._all(
                f"SELECT * FROM (SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = :game_id"
                " ORDER BY seq DESC LIMIT :last) AS tail ORDER BY seq",
                game_id=game_id,
                last=last,
            )
        else:
            found = await self._all(
                f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = :game_id AND seq > :after"
                " ORDER BY seq",
                game_id=game_id,
                after=after or 0,
            )
        return [decode_move(r) for r in found]

    async def undo_base(self, game: GameRow) -> UndoBase:
        row = await self._one(
            "SELECT COALESCE(checkpoint_state, state) FROM games WHERE id = :id", id=game.id
        )
        moves = await self.moves(game.id, after=game.checkpoint_seq)
        return UndoBase(loads(row[0]), tuple(moves))

    # -- lobby --------------------------------------------------------------------------

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
        specs = seats_with_secrets(seats)  # drawn once: a plan may run again

        def plan() -> Plan[int]:
            now = time.time()
            try:
                created = yield rows(
                    "INSERT INTO games (guild_id, channel_id, game_type, status, creator_id,"
                    " options, seed, language, created_at, updated_at)"
                    " VALUES (:guild_id, :channel_id, :game_type, 'lobby', :creator_id,"
                    " :options, :seed, :language, :now, :now) RETURNING id",
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_type=game_type,
                    creator_id=creator_id,
                    options=dumps(dict(options)),
                    seed=seed,
                    language=language,
                    now=now,
                )
            except Duplicate as exc:
                raise ChannelBusy(channel_id) from exc
            game_id = int(created[0][0])
            yield many(
                INSERT_SEAT,
                (
                    _seat(game_id, number, user, name, now, computer, secret)
                    for number, (user, name, computer, secret) in enumerate(specs)
                ),
            )
            return game_id

        game = await self.get_game(await self._perform(plan))
        assert game is not None
        self.kept.replaced(channel_id)
        return game

    async def add_seat(
        self, game: GameRow, user_id: int, display_name: str, *, computer: str | None = None
    ) -> None:
        secret = seat_secret(computer)  # drawn once: a plan may run again

        def plan() -> Plan[None]:
            now = time.time()
            yield from _bump(game, "lobby", now)
            yield run(
                INSERT_SEAT,
                **_seat(game.id, len(game.seats), user_id, display_name, now, computer, secret),
            )

        await self._on_game(game.id, plan)

    async def remove_seat(self, game: GameRow, user_id: int) -> None:
        seat = game.seat_of(user_id)
        if seat is None:
            return

        def plan() -> Plan[None]:
            yield from _bump(game, "lobby", time.time())
            yield run(
                "DELETE FROM seats WHERE game_id = :game_id AND user_id = :user_id",
                game_id=game.id,
                user_id=user_id,
            )
            yield run(
                "UPDATE seats SET seat = -seat WHERE game_id = :game_id AND seat > :seat",
                game_id=game.id,
                seat=seat.seat,
            )
            yield run(RENUMBER_NEGATIVE_SEATS, game_id=game.id)

        await self._on_game(game.id, plan)

    async def set_options(self, game: GameRow, options: Mapping[str, str]) -> None:
        def plan() -> Plan[None]:
            yield from _bump(
                game, "lobby", time.time(), ", options = :options", options=dumps(dict(options))
            )

        await self._on_game(game.id, plan)

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
        def plan() -> Plan[None]:
            now = time.time()
            yield from _bump(
                game,
                "lobby",
                now,
                ", status = 'running', state = :state, waiting_since = :now, told = :told",
                state=dumps(state),
                told=None
                if told is None
                else dumps({str(seat): view for seat, view in told.items()}),
            )
            yield run("UPDATE seats SET seat = -seat - 1 WHERE game_id = :game_id", game_id=game.id)
            yield many(
                "UPDATE seats SET seat = :seat, colour = :colour"
                " WHERE game_id = :game_id AND user_id = :user_id",
                (
                    {"seat": number, "colour": colour, "game_id": game.id, "user_id": user_id}
                    for number, (user_id, colour) in enumerate(zip(order, colours, strict=True))
                ),
            )
            yield from _write_timers(game.id, reminder, deadlines)
            yield from _write_clock(game.id, clock)
            yield from _write_computer(game.id, computer_timer)

        await self._on_game(game.id, plan)

    async def set_status(self, game: GameRow, status: str) -> None:
        def plan() -> Plan[None]:
            yield from _bump(game, game.status, time.time(), ", status = :status", status=status)
            yield run(DELETE_GAME_TIMERS, game_id=game.id)

        await self._on_game(game.id, plan)

    # -- steps --------------------------------------------------------------------------

    async def commit_step(
        self, game: GameRow, step: StepWrite, *, sent: Callable[[], None] | None = None
    ) -> Committed:
        return await self.start_step(game, step, sent=sent)

    def start_step(
        self, game: GameRow, step: StepWrite, *, sent: Callable[[], None] | None = None
    ) -> asyncio.Future[Committed]:
        state = dumps(step.state)  # once: a plan may run again
        told = None if isinstance(step.told, Keep) else told_text(step.told)
        stamp = [0.0]

        def plan() -> Plan[Committed]:
            now = stamp[0] = time.time()
            last_seq = game.last_seq + len(step.moves)
            yield from _bump(
                game,
                "running",
                now,
                ", state = :state, status = :status, last_seq = :last_seq,"
                " waiting_since = CASE WHEN :waiting_changed = 1 THEN :now ELSE waiting_since END,"
                " checkpoint_state = CASE WHEN :checkpoint = 1 THEN NULL"
                "   ELSE COALESCE(checkpoint_state, state) END,"
                " checkpoint_seq = CASE WHEN :checkpoint = 1 THEN :last_seq"
                "   ELSE checkpoint_seq END,"
                " published_seq = CASE WHEN :published = 1 THEN :last_seq ELSE published_seq END,"
                " told = CASE WHEN :tell = 1 THEN :told ELSE told END",
                state=state,
                status=step.status,
                last_seq=last_seq,
                waiting_changed=step.waiting_changed,
                checkpoint=step.checkpoint,
                published=step.published,
                tell=told is not None,
                told=told,
            )
            yield many(
                "INSERT INTO moves (game_id, seq, seat, action, created_at, kind, events,"
                " checkpoint) VALUES (:game_id, :seq, :seat, :action, :now, :kind, :events,"
                " :checkpoint)",
                (
                    {
                        "game_id": game.id,
                        "seq": game.last_seq + index,
                        "seat": move.seat,
                        "action": move.action,
                        "now": now,
                        "kind": move.kind,
                        "events": dumps(list(move.events)),
                        "checkpoint": move.checkpoint,
                    }
                    for index, move in enumerate(step.moves, start=1)
                ),
            )
            if step.fired is not None:
                gone = yield count(DELETE_TIMER, id=step.fired).expecting(1)
                if gone != 1:
                    raise TimerGone(game.id)
            yield from _write_seats(game.id, step.seats)
            yield many(
                "UPDATE seats SET place = :place, score = :score"
                " WHERE game_id = :game_id AND seat = :seat",
                (
                    {"place": place, "score": score, "game_id": game.id, "seat": seat}
                    for seat, (place, score) in step.results.items()
                ),
            )
            if step.status != "running":
                yield run(DELETE_GAME_TIMERS, game_id=game.id)
                yield run(
                    "UPDATE games SET finished_at = :now, paused = NULL WHERE id = :id",
                    now=now,
                    id=game.id,
                )
            else:
                yield from _write_timers(game.id, step.reminder, _deadlines_to_write(game, step))
                yield from _write_clock(game.id, step.clock)
                yield from _write_computer(game.id, step.computer)
            return Committed(game.version + 1, last_seq)

        # a running step with no fired timer and no turn clock changes each row once: the
        # game's, a row per move, a seat's, a timer per kind and name (deadlines dropped and
        # deadlines added never the same); a timer fired, a clock replaced (its timers
        # deleted, then inserted again) or a game finished (its row updated twice) is not
        disjoint = (
            step.status == "running"
            and step.fired is None
            and isinstance(step.clock, Keep)
            and not step.results
        )
        ticket = self.kept.writing(game.id)
        commit = self._start(plan, sent=sent, disjoint=disjoint)

        def kept(done: asyncio.Future[Committed]) -> None:
            row = None
            if not done.cancelled() and done.exception() is None:
                committed = done.result()
                row = stepped(
                    game,
                    step,
                    version=committed.version,
                    last_seq=committed.last_seq,
                    now=stamp[0],
                    state=state,
                )
            self.kept.written(game.id, ticket, row)

        commit.add_done_callback(kept)  # before its callers', so they find the row kept
        return commit

    # -- seats and clocks of a running game ------------------------------------------------

    async def set_seat(
        self,
        game: GameRow,
        seat: int,
        fields: Mapping[str, Any],
        *,
        computer_timer: float | Keep | None = KEEP,
    ) -> int:
        def plan() -> Plan[int]:
            yield from _bump(game, "running", time.time())
            yield from _write_seats(game.id, {seat: fields})
            yield from _write_computer(game.id, computer_timer)
            return game.version + 1

        return await self._on_game(game.id, plan)

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
        if secret is None:  # drawn once: a plan may run again
            secret = seat_secret(computer)

        def plan() -> Plan[int]:
            yield from _bump(game, "running", time.time())
            try:
                yield run(
                    "UPDATE seats SET user_id = :user_id, display_name = :name,"
                    " status = 'playing', timeouts = 0, auto = 0, computer = :computer,"
                    " secret = :secret WHERE game_id = :game_id AND seat = :seat",
                    user_id=user_id,
                    name=display_name,
                    computer=computer,
                    secret=secret,
                    game_id=game.id,
                    seat=seat,
                )
            except Duplicate as exc:
                raise StoreError("already seated") from exc
            yield from _write_computer(game.id, computer_timer)
            return game.version + 1

        return await self._on_game(game.id, plan)

    async def pause(self, game: GameRow, paused: Sequence[Any]) -> int:
        def plan() -> Plan[int]:
            yield from _bump(
                game, "running", time.time(), ", paused = :paused", paused=dumps(list(paused))
            )
            yield run(DELETE_GAME_TIMERS, game_id=game.id)
            return game.version + 1

        return await self._on_game(game.id, plan)

    async def resume(
        self,
        game: GameRow,
        *,
        reminder: float | None,
        deadlines: Mapping[str, float],
        clock: Mapping[str, float],
        computer_timer: float | Keep | None = KEEP,
    ) -> int:
        def plan() -> Plan[int]:
            yield from _bump(game, "running", time.time(), ", paused = NULL")
            yield from _write_timers(game.id, reminder, deadlines)
            yield from _write_clock(game.id, clock)
            yield from _write_computer(game.id, computer_timer)
            return game.version + 1

        return await self._on_game(game.id, plan)

    async def extend(self, game: GameRow, seconds: float) -> int:
        def plan() -> Plan[int]:
            yield from _bump(game, "running", time.time())
            yield run(
                "UPDATE timers SET due_at = due_at + :seconds"
                " WHERE game_id = :game_id AND kind IN ('clock', 'deadline')",
                seconds=seconds,
                game_id=game.id,
            )
            return game.version + 1

        return await self._on_game(game.id, plan)

    # -- what users chose -----------------------------------------------------------------

    async def _write(self, sql: str, **params: Any) -> int:
        """Run one statement in a transaction of its own; the rows it changed."""
        return int(await self._statement(count(sql, **params)))

    async def _insert(self, sql: str, **params: Any) -> int:
        """Run one ``INSERT … RETURNING id`` in a transaction of its own; the new row's id."""
        added = await self._statement(rows(sql, **params))
        return int(added[0][0])

    async def set_notify(self, user_id: int, how: str) -> None:
        await self._write(
            "INSERT INTO user_prefs (user_id, notify) VALUES (:user_id, :how)"
            " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            user_id=user_id,
            how=how,
        )

    async def notify_choices(self, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        found = await self._all(
            "SELECT user_id, notify FROM user_prefs WHERE user_id {in:user_ids}",
            user_ids=list(user_ids),
        )
        return {int(r[0]): str(r[1]) for r in found}

    # -- timers ---------------------------------------------------------------------------

    async def add_timer(
        self,
        due_at: float,
        kind: str,
        game_id: int | None,
        payload: Mapping[str, Any] | None = None,
        name: str = "",
    ) -> int:
        added = await self._insert(
            "INSERT INTO timers (due_at, kind, game_id, payload, name)"
            " VALUES (:due_at, :kind, :game_id, :payload, :name) RETURNING id",
            due_at=due_at,
            kind=kind,
            game_id=game_id,
            payload=dumps(dict(payload or {})),
            name=name,
        )
        if game_id is not None:
            self.kept.touched(game_id)  # a deadline is part of the game's row
        return added

    async def replace_timers(
        self,
        game_id: int,
        kind: str,
        due_at: float | None,
        payload: Mapping[str, Any] | None = None,
    ) -> None:
        def plan() -> Plan[None]:
            yield run(
                "DELETE FROM timers WHERE game_id = :game_id AND kind = :kind",
                game_id=game_id,
                kind=kind,
            )
            if due_at is not None:
                yield run(
                    "INSERT INTO timers (due_at, kind, game_id, payload)"
                    " VALUES (:due_at, :kind, :game_id, :payload)",
                    due_at=due_at,
                    kind=kind,
                    game_id=game_id,
                    payload=dumps(dict(payload or {})),
                )

        await self._on_game(game_id, plan)

    async def add_missing_timers(
        self, game_id: int, timers: Sequence[tuple[str, str, float]]
    ) -> None:
        def plan() -> Plan[None]:
            yield many(
                "INSERT INTO timers (due_at, kind, game_id, name)"
                " VALUES (:due_at, :kind, :game_id, :name) ON CONFLICT DO NOTHING",
                (
                    {"due_at": due, "kind": kind, "game_id": game_id, "name": name}
                    for kind, name, due in timers
                ),
            )

        await self._on_game(game_id, plan)

    async def timer(self, timer_id: int) -> TimerRow | None:
        return await self._timer("SELECT * FROM timers WHERE id = :id", id=timer_id)

    async def due_timers(self, now: float, limit: int = 500) -> list[TimerRow]:
        found = await self._all(
            "SELECT * FROM timers WHERE due_at <= :now ORDER BY due_at, id LIMIT :limit",
            now=now,
            limit=limit,
        )
        return [decode_timer(r) for r in found]

    async def next_timer(self) -> TimerRow | None:
        return await self._timer("SELECT * FROM timers ORDER BY due_at, id LIMIT 1")

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            found = await self._all("SELECT * FROM timers ORDER BY due_at, id")
        else:
            found = await self._all(
                "SELECT * FROM timers WHERE game_id = :game_id ORDER BY due_at, id",
                game_id=game_id,
            )
        return [decode_timer(r) for r in found]

    async def delete_timer(self, timer_id: int) -> bool:
        gone = await self._statement(rows(f"{DELETE_TIMER} RETURNING game_id", id=timer_id))
        for (game_id,) in gone:
            if game_id is not None:
                self.kept.touched(int(game_id))  # a deadline is part of the game's row
        return len(gone) == 1

    # -- messages the adapter keeps up to date ----------------------------------------------

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, content: str | None = None
    ) -> None:
        await self._write(
            SET_MESSAGE,
            game_id=game_id,
            kind=kind,
            channel_id=channel_id,
            message_id=message_id,
            content=content,
        )

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self._one(
            "SELECT channel_id, message_id FROM game_messages"
            " WHERE game_id = :game_id AND kind = :kind",
            game_id=game_id,
            kind=kind,
        )
        return (int(row[0]), int(row[1])) if row else None

    async def messages(self, game_id: int) -> dict[str, KeptMessage]:
        found = await self._all(
            "SELECT kind, channel_id, message_id, content FROM game_messages"
            " WHERE game_id = :game_id",
            game_id=game_id,
        )
        return {
            str(row[0]): KeptMessage(
                int(row[1]), int(row[2]), None if row[3] is None else str(row[3])
            )
            for row in found
        }

    async def forget_message(self, game_id: int, kind: str) -> None:
        await self._write(FORGET_MESSAGE, game_id=game_id, kind=kind)

    async def keep_messages(
        self, game_id: int, kept: Mapping[str, KeptMessage], forgotten: Collection[str] = ()
    ) -> None:
        def plan() -> Plan[None]:
            for kind, message in kept.items():
                yield run(SET_MESSAGE, game_id=game_id, kind=kind, **message._asdict())
            for kind in forgotten:
                yield run(FORGET_MESSAGE, game_id=game_id, kind=kind)

        await self._perform(plan)

    async def told(self, game_id: int) -> dict[int, Any] | None:
        row = await self._one("SELECT told FROM games WHERE id = :id", id=game_id)
        return None if row is None else decode_told(row[0])

    # -- a player's games ---------------------------------------------------------------

    async def player_games(self, user_id: int, limit: int, kind: str) -> list[PlayerGame]:
        rows = [
            decode_game(r)
            for r in await self._all(
                f"{SELECT_GAME} WHERE status = 'running' AND id IN"
                " (SELECT game_id FROM seats WHERE user_id = :user_id)"
                " ORDER BY waiting_since, id LIMIT :limit",
                user_id=user_id,
                limit=limit,
            )
        ]
        if not rows:
            return []
        ids = [row.id for row in rows]
        kept = {
            int(r[0]): (int(r[1]), int(r[2]))
            for r in await self._all(
                "SELECT game_id, channel_id, message_id FROM game_messages"
                " WHERE game_id {in:ids} AND kind = :kind",
                ids=ids,
                kind=kind,
            )
        }
        ends = {
            int(r[0]): float(r[1])
            for r in await self._all(
                "SELECT game_id, MIN(due_at) FROM timers WHERE game_id {in:ids}"
                " AND kind = 'clock' AND name = 'turn' GROUP BY game_id",
                ids=ids,
            )
        }
        return [PlayerGame(row, kept.get(row.id), ends.get(row.id)) for row in rows]

    # -- DM reachability --------------------------------------------------------------------

    async def mark_dms_closed(self, user_id: int) -> None:
        await self._write(
            "INSERT INTO closed_dms (user_id, since) VALUES (:user_id, :now)"
            " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since",
            user_id=user_id,
            now=time.time(),
        )

    async def mark_dms_open(self, user_id: int) -> None:
        await self._write("DELETE FROM closed_dms WHERE user_id = :user_id", user_id=user_id)

    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        row = await self._one(
            "SELECT since FROM closed_dms WHERE user_id = :user_id", user_id=user_id
        )
        if row is None:
            return False
        return retry_after is None or time.time() - float(row[0]) < retry_after

    async def message_reads(self, game_id: int | None, user_ids: Sequence[int]) -> MessageReads:
        # one statement, each row tagged with what it tells (the list bound twice: a
        # list parameter is named once a statement)
        found = await self._all(
            "SELECT 0, kind, channel_id, message_id, content FROM game_messages"
            " WHERE game_id = :game_id"
            " UNION ALL SELECT 1, notify, user_id, NULL, NULL FROM user_prefs"
            " WHERE user_id {in:notified}"
            " UNION ALL SELECT 2, NULL, user_id, NULL, NULL FROM closed_dms"
            " WHERE user_id {in:closed}",
            game_id=game_id,
            notified=list(user_ids),
            closed=list(user_ids),
        )
        reads = MessageReads({}, {}, set())
        for tag, text, number, message_id, content in found:
            if tag == 0:
                reads.kept[str(text)] = KeptMessage(
                    int(number), int(message_id), None if content is None else str(content)
                )
            elif tag == 1:
                reads.notify[int(number)] = str(text)
            else:
                reads.dms_closed.add(int(number))
        return reads

    async def dms_closed_among(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        found = await self._all(
            "SELECT user_id FROM closed_dms WHERE user_id {in:user_ids}", user_ids=list(user_ids)
        )
        return {int(r[0]) for r in found}

    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:
        def plan() -> Plan[bool]:
            found = yield rows(
                "SELECT announced_in FROM closed_dms WHERE user_id = :user_id{for_update}",
                user_id=user_id,
            )
            if not found:
                return False
            announced = set(loads(found[0][0]))
            if game_id in announced:
                return False
            announced.add(game_id)
            yield run(
                "UPDATE closed_dms SET announced_in = :announced WHERE user_id = :user_id",
                announced=dumps(sorted(announced)),
                user_id=user_id,
            )
            return True

        return await self._perform(plan)

    # -- after the game: statistics ------------------------------------------------------

    async def guild_results(self, guild_id: int) -> GuildResults:
        games = await self._all(
            f"SELECT game_type, {HAS_COMPUTER} AS c, COUNT(*) FROM games AS g"
            " WHERE guild_id = :guild_id AND status = 'finished' GROUP BY game_type, c",
            guild_id=guild_id,
        )
        players = await self._all(
            "SELECT g.game_type, s.user_id, COUNT(*), COUNT(*) FILTER (WHERE s.place = 1),"
            f" AVG(s.place), {{newest_name}}, MAX(g.id), {HAS_COMPUTER} AS c"
            " FROM games AS g JOIN seats AS s ON s.game_id = g.id"
            " WHERE g.guild_id = :guild_id AND g.status = 'finished' AND s.place IS NOT NULL"
            " AND s.computer IS NULL GROUP BY g.game_type, s.user_id, c",
            guild_id=guild_id,
        )
        return GuildResults(
            games={str(r[0]): int(r[2]) for r in games if not r[1]},
            players=[
                PlayerResults(
                    str(r[0]), int(r[1]), str(r[5]), int(r[2]), int(r[3]), float(r[4]), bool(r[7])
                )
                for r in players
            ],
            computer_games={str(r[0]): int(r[2]) for r in games if r[1]},
        )

    async def member_results(self, guild_id: int, user_id: int) -> list[PlayerResults]:
        found = await self._all(
            "SELECT g.game_type, COUNT(*), COUNT(*) FILTER (WHERE s.place = 1), AVG(s.place),"
            f" {{newest_name}}, MAX(g.id), {HAS_COMPUTER} AS c"
            " FROM seats AS s JOIN games AS g ON g.id = s.game_id"
            " WHERE s.user_id = :user_id AND g.guild_id = :guild_id AND g.status = 'finished'"
            " AND s.place IS NOT NULL GROUP BY g.game_type, c",
            user_id=user_id,
            guild_id=guild_id,
        )
        return [
            PlayerResults(
                str(r[0]), user_id, str(r[4]), int(r[1]), int(r[2]), float(r[3]), bool(r[6])
            )
            for r in found
        ]

    # -- shard clusters: owned timers, claimed; interactions handed over -------------------

    async def claim_due_timers(
        self,
        now: float,
        shards: ShardRange,
        claimant: str,
        lease: float,
        limit: int = 500,
    ) -> list[TimerRow]:
        # one UPDATE … RETURNING: atomic under SQLite's one writer; on PostgreSQL a timer
        # another process is claiming right now is skipped (SKIP LOCKED), not waited for
        _, shard_params = shards.condition("games.guild_id")

        claimed = await self._statement(
            rows(
                "UPDATE timers SET claimed_by = :claimant, claimed_at = :now WHERE id IN ("
                " SELECT timers.id"
                + TIMERS_AND_GAMES
                + " WHERE due_at <= :now AND "
                + OWNED
                + " AND (claimed_by IS NULL OR claimed_by = :claimant OR claimed_at <= :lapsed)"
                " ORDER BY due_at, timers.id LIMIT :limit{skip_locked:timers}) RETURNING *",
                claimant=claimant,
                now=now,
                lapsed=now - lease,
                limit=limit,
                **shard_params,
            )
        )
        return sorted((decode_timer(r) for r in claimed), key=lambda t: (t.due_at, t.id))

    async def next_owned_timer(
        self, shards: ShardRange, claimant: str, lease: float
    ) -> TimerRow | None:
        # two indexed picks: the earliest timer free to claim (timers_by_due, in
        # order) and the earliest lapse of another claimant's claim (timers_claimed)
        _, shard_params = shards.condition("games.guild_id")
        return await self._timer(
            f"SELECT * FROM (SELECT {CLAIMABLE_COLUMNS}, due_at{TIMERS_AND_GAMES}"
            f" WHERE (claimed_by IS NULL OR claimed_by = :claimant) AND {OWNED}"
            " ORDER BY due_at, timers.id LIMIT 1) AS free"
            f" UNION ALL SELECT * FROM (SELECT {CLAIMABLE_COLUMNS},"
            f" {{greatest}}(due_at, claimed_at + :lease) AS due_at{TIMERS_AND_GAMES}"
            f" WHERE claimed_by IS NOT NULL AND claimed_by <> :claimant AND {OWNED}"
            " ORDER BY 6, 1 LIMIT 1) AS lapsing ORDER BY 6, 1 LIMIT 1",
            claimant=claimant,
            lease=lease,
            **shard_params,
        )

    async def hand_over(self, shard: int, game_id: int, payload: Mapping[str, Any]) -> int:
        return await self._insert(
            "INSERT INTO handovers (shard, game_id, payload, created_at)"
            " VALUES (:shard, :game_id, :payload, :now) RETURNING id",
            shard=shard,
            game_id=game_id,
            payload=dumps(dict(payload)),
            now=time.time(),
        )

    async def take_handovers(self, shards: ShardRange, limit: int = 100) -> list[HandOver]:
        # SKIP LOCKED: two processes taking at once split the rows instead of waiting
        taken = await self._statement(
            rows(
                "DELETE FROM handovers WHERE id IN (SELECT id FROM handovers"
                " WHERE shard BETWEEN :first AND :last ORDER BY id LIMIT :limit"
                "{skip_locked:handovers}) RETURNING id, game_id, payload, created_at",
                first=shards.first,
                last=shards.last,
                limit=limit,
            )
        )
        return sorted(HandOver(int(r[0]), int(r[1]), loads(r[2]), float(r[3])) for r in taken)

    async def has_handovers(self, shards: ShardRange) -> bool:
        row = await self._one(
            "SELECT 1 FROM handovers WHERE shard BETWEEN :first AND :last LIMIT 1",
            first=shards.first,
            last=shards.last,
        )
        return row is not None


# -- statements and steps more than one unit shares ---------------------------------------

INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, computer, secret)"
    " VALUES (:game_id, :seat, :user_id, :name, :now, :computer, :secret)"
)
RENUMBER_NEGATIVE_SEATS = "UPDATE seats SET seat = -seat - 1 WHERE game_id = :game_id AND seat < 0"
DELETE_GAME_TIMERS = "DELETE FROM timers WHERE game_id = :game_id"
DELETE_TIMER = "DELETE FROM timers WHERE id = :id"
SET_MESSAGE = (
    "INSERT INTO game_messages (game_id, kind, channel_id, message_id, content)"
    " VALUES (:game_id, :kind, :channel_id, :message_id, :content)"
    " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
    " message_id = excluded.message_id, content = excluded.content"
)
FORGET_MESSAGE = "DELETE FROM game_messages WHERE game_id = :game_id AND kind = :kind"


def _seat(
    game_id: int,
    seat: int,
    user_id: int,
    name: str,
    now: float,
    computer: str | None,
    secret: int | None,
) -> dict[str, Any]:
    """The parameters of :data:`INSERT_SEAT` (a computer's secret: :func:`seat_secret`)."""
    return {
        "game_id": game_id,
        "seat": seat,
        "user_id": user_id,
        "name": name,
        "now": now,
        "computer": computer,
        "secret": secret,
    }


def _bump(game: GameRow, expected: str, now: float, sets: str = "", /, **params: Any) -> Plan[None]:
    """Raise the game's version if it is still ``game.version`` in status ``expected``.

    ``sets`` adds assignments (``", state = :state"``) with their ``params``.
    Raises :class:`VersionConflict` when another writer got there first.
    """
    changed = yield count(
        f"UPDATE games SET version = version + 1, updated_at = :now{sets}"
        " WHERE id = :game_id AND version = :version AND status = :expected",
        now=now,
        game_id=game.id,
        version=game.version,
        expected=expected,
        **params,
    ).expecting(1)
    if changed != 1:
        raise VersionConflict(game.id)


def _deadlines_to_write(game: GameRow, step: StepWrite) -> Mapping[str, float] | Keep:
    """A step's deadlines as they need writing: :data:`KEEP` when the game, as loaded
    (:attr:`GameRow.deadlines`, as of its version), already has exactly the names it
    wants (none is dropped, and an existing one keeps its due time, so the write would
    change no row), unless the step fires a timer (which may be one of them)."""
    wanted = step.deadlines
    if (
        isinstance(wanted, Keep)
        or game.deadlines is None
        or step.fired is not None
        or wanted.keys() != game.deadlines.keys()
    ):
        return wanted
    return KEEP


def _write_timers(
    game_id: int, reminder: float | Keep | None, deadlines: Mapping[str, float] | Keep
) -> Plan[None]:
    """Set a game's reminder and its named deadlines (see :class:`StepWrite`)."""
    if reminder is None:
        yield run(
            "DELETE FROM timers WHERE game_id = :game_id AND kind = 'reminder'", game_id=game_id
        )
    elif not isinstance(reminder, Keep):
        yield run(
            "INSERT INTO timers (due_at, kind, game_id, name)"
            " VALUES (:due_at, 'reminder', :game_id, '')"
            " ON CONFLICT (game_id, kind, name) DO UPDATE SET due_at = excluded.due_at,"
            " claimed_by = NULL, claimed_at = NULL",
            due_at=reminder,
            game_id=game_id,
        )
    if isinstance(deadlines, Keep):
        return
    yield run(
        "DELETE FROM timers WHERE game_id = :game_id AND kind = 'deadline'"
        " AND NOT (name {in:names})",
        game_id=game_id,
        names=list(deadlines),
    )
    yield many(
        "INSERT INTO timers (due_at, kind, game_id, name)"
        " VALUES (:due_at, 'deadline', :game_id, :name) ON CONFLICT DO NOTHING",
        ({"due_at": due, "game_id": game_id, "name": name} for name, due in deadlines.items()),
    )


def _write_clock(game_id: int, clock: Mapping[str, float] | Keep) -> Plan[None]:
    """Replace the turn clock's timers of a game (none: the clock stops)."""
    if isinstance(clock, Keep):
        return
    yield run("DELETE FROM timers WHERE game_id = :game_id AND kind = 'clock'", game_id=game_id)
    yield many(
        "INSERT INTO timers (due_at, kind, game_id, name)"
        " VALUES (:due_at, 'clock', :game_id, :name)",
        ({"due_at": due, "game_id": game_id, "name": name} for name, due in clock.items()),
    )


def _write_computer(game_id: int, due: float | Keep | None) -> Plan[None]:
    """Set a game's computer move timer (see :class:`StepWrite`)."""
    if isinstance(due, Keep):
        return
    if due is None:
        yield run(
            "DELETE FROM timers WHERE game_id = :game_id AND kind = 'computer'", game_id=game_id
        )
        return
    yield run(
        "INSERT INTO timers (due_at, kind, game_id, name)"
        " VALUES (:due_at, 'computer', :game_id, '')"
        " ON CONFLICT (game_id, kind, name) DO UPDATE"
        " SET due_at = {least}(timers.due_at, excluded.due_at)",
        due_at=due,
        game_id=game_id,
    )


def _write_seats(game_id: int, changes: Mapping[int, Mapping[str, Any]]) -> Plan[None]:
    """Change seats' ``status``, ``timeouts`` and ``auto`` (other fields are ignored)."""
    for seat, fields in changes.items():
        names = [name for name in fields if name in SEAT_FIELDS]
        if names:
            yield run(
                f"UPDATE seats SET {', '.join(f'{n} = :{n}' for n in names)}"
                " WHERE game_id = :game_id AND seat = :seat",
                game_id=game_id,
                seat=seat,
                **{name: fields[name] for name in names},
            )
