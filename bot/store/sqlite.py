"""The SQLite backend of the store: games, seats, the move log, timers, in one file.

Decisions:

* **One writer, group commit.** Every write is a *unit* (a coroutine of a
  few statements) handed to one writer task, which owns the only connection
  that writes. The task takes every unit waiting, runs them in one
  ``BEGIN IMMEDIATE`` transaction and commits once; no statement ever lands
  in another command's transaction. When a unit fails, the whole
  transaction is rolled back, that unit's caller gets the error, and the
  other units run again without it — nothing written by one command is
  undone by another's failure. If the commit itself fails, every unit of
  the batch gets the error and nothing was written. A caller is answered
  only after the commit, so what it tells the user is what was stored.
  Chosen by measurement (``scripts/bench_scale.py``): each statement costs
  a round trip to the connection's thread, and under load every round trip
  also waits for the busy event loop. A lock around per-command
  transactions kept a transaction open across all of those; per-unit
  savepoints doubled the round trips of a move (100 simultaneous moves:
  p50 100 ms, p99 145 ms). So units are plain functions of the sqlite3
  connection, re-runnable (they only write what their caller computed),
  and a whole batch — ``BEGIN``, every unit, ``COMMIT`` — runs in one trip
  to the writer's thread: one fsync and one round trip per batch.
* **The writer is a thread of our own** (:class:`_WriterThread`): a plain
  ``sqlite3`` connection made and used only by one thread, a batch handed
  over through a queue and answered with ``call_soon_threadsafe`` — public
  APIs only. aiosqlite offers no public call that runs several statements
  in one trip (its ``_execute``/``_conn`` are private); this is its own
  hand-over, and measured no slower (``scripts/bench_store.py``, two runs
  each, against the former ``_execute`` path: one move p50 5.1/4.7 ms vs
  5.0/4.4 ms; 100 simultaneous moves p50 192/113 ms vs 195/210 ms, p99
  330/191 ms vs 355/280 ms). Reads stay on aiosqlite, whose
  ``execute_fetchall`` is one trip.
* **Reads on their own connection.** WAL lets a reader see only committed
  data, so a read never sees (or depends on) another command's open
  transaction. Each read is one statement (a game and its seats come in one
  query), so it is one consistent snapshot, fetched in one trip to the
  reader's thread (a cursor's execute, fetch and close would be three, and
  under load each trip waits for the busy event loop).
* WAL with ``synchronous=FULL``: a move acknowledged to a player has been
  fsynced, so neither a crash nor a power cut loses it.
* Migrations are numbered SQL scripts applied in order; ``PRAGMA
  user_version`` records the last one applied. They are cumulative, so any
  older database is brought up to date at start.
* At most one unfinished game (``lobby`` or ``running``) per channel is a
  partial unique index, so even two bot processes cannot both create one.
* Every state write carries the version it was computed from; the ``UPDATE
  ... WHERE version = ?`` matches no row if another writer got there first,
  and :class:`VersionConflict` is raised with nothing written.
* **One commit per step**: the move rows, the new state, the checkpoint for
  undo, the publication mark and the game's timers are one unit
  (:meth:`Store.commit_step`).
* Every query a command makes uses an index (``tests/platform/
  test_store_plans.py`` checks ``EXPLAIN QUERY PLAN``).
* The move log is append-only (a trigger refuses updates); an undo is a row
  of its own (kind ``undo``).
* A timer is fired in the transaction that carries out what it does: the
  step of its timeout actions deletes the timer's row (``StepWrite.fired``)
  and is refused with nothing written when that row is already gone, so a
  process killed at any point leaves either the timer or its effect, and
  never fires it twice.
* Undo checkpoint: ``checkpoint_seq`` is the last move that may not be
  undone; ``checkpoint_state`` is the state right after it, or NULL while
  the current state *is* that state (so a checkpoint costs no copy).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.cluster import ShardRange
from bot.store.base import (
    HAS_COMPUTER,
    KEEP,
    OPEN_STATUSES,
    SEAT_FIELDS,
    ChannelBusy,
    Committed,
    GameRow,
    GuildResults,
    HandOver,
    Keep,
    MoveRow,
    PlayerResults,
    SeatSpec,
    StepWrite,
    Store,
    StoreClosed,
    StoreError,
    TimerGone,
    TimerRow,
    UndoBase,
    VersionConflict,
    decode_game,
    decode_move,
    decode_timer,
    dumps,
    seat_secret,
    seats_with_secrets,
)

T = TypeVar("T")
Unit = Callable[[sqlite3.Connection], T]

MIGRATIONS: tuple[str, ...] = (
    # 1: the initial schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        creator_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        waiting_since REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        display_name TEXT NOT NULL,
        colour TEXT NOT NULL DEFAULT '',
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        due_at REAL NOT NULL,
        kind TEXT NOT NULL,
        game_id INTEGER REFERENCES games (id) ON DELETE CASCADE,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_due ON timers (due_at);
    CREATE TABLE closed_dms (
        user_id INTEGER PRIMARY KEY,
        since REAL NOT NULL,
        announced_in TEXT NOT NULL DEFAULT '[]'
    );
    """,
    # 2: the language a game's images are drawn in (the server's, at creation)
    """
    ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
    """,
    # 3: indexes for every command's lookups; steps, undo, publication, named timers
    """
    CREATE INDEX games_by_channel ON games (channel_id, id);
    ALTER TABLE timers ADD COLUMN name TEXT NOT NULL DEFAULT '';
    CREATE UNIQUE INDEX timers_by_game ON timers (game_id, kind, name);
    ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';
    ALTER TABLE moves ADD COLUMN events TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE moves ADD COLUMN checkpoint INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN checkpoint_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN checkpoint_state TEXT;
    ALTER TABLE games ADD COLUMN published_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = games.id);
    UPDATE games SET checkpoint_seq = last_seq, published_seq = last_seq;
    CREATE TABLE game_messages (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    """,
    # 4: seats that drop out, results per seat, a paused clock, notification choices
    """
    ALTER TABLE seats ADD COLUMN status TEXT NOT NULL DEFAULT 'playing';
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN place INTEGER;
    ALTER TABLE seats ADD COLUMN score INTEGER;
    ALTER TABLE games ADD COLUMN paused TEXT;
    ALTER TABLE games ADD COLUMN finished_at REAL;
    CREATE INDEX games_by_guild ON games (guild_id, status, game_type);
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        notify TEXT NOT NULL DEFAULT 'channel'
    );
    """,
    # 5: computer seats: the level a computer plays at, NULL for a member's seat
    """
    ALTER TABLE seats ADD COLUMN computer TEXT;
    """,
    # 6: shard clusters: a timer's claim by the process firing it; interactions handed
    # over from the process that received them to the one owning the game's guild
    """
    ALTER TABLE timers ADD COLUMN claimed_by TEXT;
    ALTER TABLE timers ADD COLUMN claimed_at REAL;
    CREATE TABLE handovers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        shard INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX timers_claimed ON timers (claimed_by) WHERE claimed_by IS NOT NULL;
    CREATE INDEX handovers_by_shard ON handovers (shard, id);
    """,
    # 7: a computer seat's secret, which seeds its decisions (issue 28); the computer
    # seats stored before it get one here
    """
    ALTER TABLE seats ADD COLUMN secret INTEGER;
    UPDATE seats SET secret = random() & 4611686018427387903 WHERE computer IS NOT NULL;
    """,
)

#: the most units one transaction takes (a batch this size commits in a few ms)
MAX_BATCH = 256
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)


_GAME_COLUMNS = (
    "id, guild_id, channel_id, game_type, status, creator_id, options, seed, state, version,"
    " created_at, updated_at, waiting_since, language, checkpoint_seq, published_seq, last_seq,"
    " paused, finished_at,"
    " (SELECT json_group_array(json_array(seat, user_id, display_name, colour, status,"
    "        timeouts, auto, place, score, computer, secret))"
    "  FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat)) AS seats_json"
)


@dataclass
class _Pending:
    unit: Unit[Any]
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SqliteStore(Store):
    """One SQLite file. Open with :meth:`open`; all methods are coroutines, and each
    public method's contract is its docstring in :class:`~bot.store.base.Store`."""

    def __init__(self, writer: _WriterThread, reader: aiosqlite.Connection, path: str):
        self._writer = writer
        self._reader = reader
        self.path = path
        self._queue: asyncio.Queue[_Pending] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        #: batches committed and units in them, for the benchmark and tests
        self.batches = 0
        self.units = 0

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        path = str(path)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = _WriterThread()
        try:
            await writer.connect(path)
            await writer.run(_migrate)
            reader = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            await writer.close()
            raise
        reader.row_factory = aiosqlite.Row
        for pragma in PRAGMAS[1:]:
            await reader.execute(pragma)
        await reader.execute("PRAGMA query_only=ON")
        store = cls(writer, reader, path)
        store._task = asyncio.create_task(store._write_loop(), name="ziggurat-store-writer")
        return store

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._queue.join()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._reader.close()
        await self._writer.close()

    async def schema_version(self) -> int:
        return int((await self._one("PRAGMA user_version"))[0])

    async def integrity_check(self) -> str:
        return str((await self._one("PRAGMA integrity_check"))[0])

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Report every statement either connection runs (for tests and diagnostics)."""
        await self._writer.run(lambda db: db.set_trace_callback(callback))
        await self._reader.set_trace_callback(callback)  # type: ignore[arg-type]

    async def query_plan(self, sql: str, params: Sequence[Any] = ()) -> list[str]:
        """``EXPLAIN QUERY PLAN`` of a statement, one detail string per step (for tests)."""
        async with self._reader.execute(f"EXPLAIN QUERY PLAN {sql}", tuple(params)) as cur:
            return [str(r[3]) for r in await cur.fetchall()]

    # -- the writer ---------------------------------------------------------------

    async def write(self, unit: Unit[T]) -> T:
        """Run ``unit`` in the next batch; return its result once the batch committed.

        Raises what the unit raised (its statements rolled back alone), or the
        commit's error (nothing of the batch written).
        """
        if self._closed:
            raise StoreClosed(self.path)
        pending = _Pending(unit)
        self._queue.put_nowait(pending)
        result: T = await asyncio.shield(pending.future)
        return result

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self._run_batch(batch)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _run_batch(self, batch: list[_Pending]) -> None:
        """Commit the batch; a unit that fails is dropped and the rest run again."""
        remaining = list(batch)
        while remaining:
            failed = await self._attempt(remaining)
            if failed is None:
                return
            index, error = failed
            _settle(remaining.pop(index), False, error)

    async def _attempt(self, batch: list[_Pending]) -> tuple[int, Exception] | None:
        """Run every unit in one transaction and commit it, in one trip to the writer's thread.

        Returns the first unit that failed (everything rolled back) so the
        caller can run the others again without it; None once committed, or
        when the transaction itself failed (every unit is then told so).
        """
        try:
            done = await self._writer.run(_transaction, [p.unit for p in batch])
        except BaseException as exc:
            for pending in batch:
                _settle(pending, False, exc if isinstance(exc, Exception) else StoreClosed())
            if not isinstance(exc, Exception):
                raise
            return None
        if done.failed is not None:
            return done.failed
        self.batches += 1
        self.units += len(batch)
        for pending, result in zip(batch, done.results, strict=True):
            _settle(pending, True, result)
        return None

    # -- reading ------------------------------------------------------------------

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of one read, in one trip to the reader's thread."""
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return decode_game(row) if row else None

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games"
            " WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        )
        return decode_game(row) if row else None

    async def last_game_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return decode_game(row) if row else None

    async def game_ids(self, statuses: Sequence[str] = OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
        )
        return [int(r[0]) for r in rows]

    async def raw_game(self, game_id: int) -> tuple[Any, ...]:
        game = tuple(await self._one("SELECT * FROM games WHERE id = ?", (game_id,)) or ())
        seats = await self._all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        moves = await self._all("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        timers = await self._all(
            "SELECT * FROM timers WHERE game_id = ? ORDER BY kind, name, id", (game_id,)
        )
        return game, tuple(map(tuple, seats)), tuple(map(tuple, moves)), tuple(map(tuple, timers))

    async def moves(
        self, game_id: int, last: int | None = None, *, after: int | None = None
    ) -> list[MoveRow]:
        columns = "seq, seat, action, created_at, kind, events, checkpoint"
        if last is not None:
            sql = (
                f"SELECT * FROM (SELECT {columns} FROM moves WHERE game_id = ?"
                " ORDER BY seq DESC LIMIT ?) ORDER BY seq"
            )
            params: tuple[Any, ...] = (game_id, last)
        else:
            sql = f"SELECT {columns} FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq"
            params = (game_id, after or 0)
        return [decode_move(r) for r in await self._all(sql, params)]

    async def undo_base(self, game: GameRow) -> UndoBase:
        row = await self._one(
            "SELECT COALESCE(checkpoint_state, state) FROM games WHERE id = ?", (game.id,)
        )
        moves = await self.moves(game.id, after=game.checkpoint_seq)
        return UndoBase(json.loads(row[0]), tuple(moves))

    # -- lobby --------------------------------------------------------------------

    async def add_seat(
        self, game: GameRow, user_id: int, display_name: str, *, computer: str | None = None
    ) -> None:
        secret = seat_secret(computer)  # drawn once: a unit may run again

        def unit(db: sqlite3.Connection) -> None:
            _bump(db, game, "lobby")
            db.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, computer,"
                " secret) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.id, len(game.seats), user_id, display_name, time.time(), computer, secret),
            )

        await self.write(unit)

    async def remove_seat(self, game: GameRow, user_id: int) -> None:
        seat = game.seat_of(user_id)
        if seat is None:
            return

        def unit(db: sqlite3.Connection) -> None:
            _bump(db, game, "lobby")
            db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game.id, user_id))
            # two passes through negative numbers so the primary key never collides
            db.execute(
                "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?",
                (game.id, seat.seat),
            )
            db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game.id,)
            )

        await self.write(unit)

    async def set_options(self, game: GameRow, options: Mapping[str, str]) -> None:

        def unit(db: sqlite3.Connection) -> None:
            _bump(db, game, "lobby", ", options = ?", (dumps(dict(options)),))

        await self.write(unit)

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
    ) -> None:

        def unit(db: sqlite3.Connection) -> None:
            now = time.time()
            _bump(
                db,
                game,
                "lobby",
                ", status = 'running', state = ?, waiting_since = ?",
                (dumps(state), now),
            )
            db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ?", (game.id,))
            for seat_number, (user_id, colour) in enumerate(zip(order, colours, strict=True)):
                db.execute(
                    "UPDATE seats SET seat = ?, colour = ? WHERE game_id = ? AND user_id = ?",
                    (seat_number, colour, game.id, user_id),
                )
            _write_timers(db, game.id, reminder, deadlines)
            _write_clock(db, game.id, clock)

        await self.write(unit)

    async def set_status(self, game: GameRow, status: str) -> None:

        def unit(db: sqlite3.Connection) -> None:
            _bump(db, game, game.status, ", status = ?", (status,))
            db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))

        await self.write(unit)

    # -- steps --------------------------------------------------------------------

    async def commit_step(self, game: GameRow, step: StepWrite) -> Committed:

        def unit(db: sqlite3.Connection) -> Committed:
            now = time.time()
            last_seq = game.last_seq + len(step.moves)
            _bump(
                db,
                game,
                "running",
                ", state = ?, status = ?, last_seq = ?,"
                " waiting_since = CASE WHEN ? THEN ? ELSE waiting_since END,"
                " checkpoint_state = CASE WHEN ? THEN NULL"
                "   ELSE COALESCE(checkpoint_state, state) END,"
                " checkpoint_seq = CASE WHEN ? THEN ? ELSE checkpoint_seq END,"
                " published_seq = CASE WHEN ? THEN ? ELSE published_seq END",
                (
                    dumps(step.state),
                    step.status,
                    last_seq,
                    int(step.waiting_changed),
                    now,
                    int(step.checkpoint),
                    int(step.checkpoint),
                    last_seq,
                    int(step.published),
                    last_seq,
                ),
            )
            db.executemany(
                "INSERT INTO moves (game_id, seq, seat, action, created_at, kind, events,"
                " checkpoint) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game.id,
                        game.last_seq + index,
                        move.seat,
                        move.action,
                        now,
                        move.kind,
                        dumps(list(move.events)),
                        int(move.checkpoint),
                    )
                    for index, move in enumerate(step.moves, start=1)
                ],
            )
            if step.fired is not None:
                gone = db.execute("DELETE FROM timers WHERE id = ?", (step.fired,))
                if gone.rowcount != 1:
                    raise TimerGone(game.id)
            _write_seats(db, game.id, step.seats)
            for seat, (place, score) in step.results.items():
                db.execute(
                    "UPDATE seats SET place = ?, score = ? WHERE game_id = ? AND seat = ?",
                    (place, score, game.id, seat),
                )
            if step.status != "running":
                db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
                db.execute(
                    "UPDATE games SET finished_at = ?, paused = NULL WHERE id = ?", (now, game.id)
                )
            else:
                _write_timers(db, game.id, step.reminder, step.deadlines)
                _write_clock(db, game.id, step.clock)
                _write_computer(db, game.id, step.computer)
            return Committed(game.version + 1, last_seq)

        return await self.write(unit)

    # -- seats and clocks of a running game -----------------------------------------

    async def set_seat(self, game: GameRow, seat: int, fields: Mapping[str, Any]) -> int:

        def unit(db: sqlite3.Connection) -> int:
            _bump(db, game, "running")
            _write_seats(db, game.id, {seat: fields})
            return game.version + 1

        return await self.write(unit)

    async def replace_player(
        self,
        game: GameRow,
        seat: int,
        user_id: int,
        display_name: str,
        *,
        computer: str | None = None,
    ) -> int:
        secret = seat_secret(computer)  # drawn once: a unit may run again

        def unit(db: sqlite3.Connection) -> int:
            _bump(db, game, "running")
            try:
                db.execute(
                    "UPDATE seats SET user_id = ?, display_name = ?, status = 'playing',"
                    " timeouts = 0, auto = 0, computer = ?, secret = ?"
                    " WHERE game_id = ? AND seat = ?",
                    (user_id, display_name, computer, secret, game.id, seat),
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError("already seated") from exc
            return game.version + 1

        return await self.write(unit)

    async def pause(self, game: GameRow, paused: Sequence[Any]) -> int:

        def unit(db: sqlite3.Connection) -> int:
            _bump(db, game, "running", ", paused = ?", (dumps(list(paused)),))
            db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            return game.version + 1

        return await self.write(unit)

    async def resume(
        self,
        game: GameRow,
        *,
        reminder: float | None,
        deadlines: Mapping[str, float],
        clock: Mapping[str, float],
    ) -> int:

        def unit(db: sqlite3.Connection) -> int:
            _bump(db, game, "running", ", paused = NULL")
            _write_timers(db, game.id, reminder, deadlines)
            _write_clock(db, game.id, clock)
            return game.version + 1

        return await self.write(unit)

    async def extend(self, game: GameRow, seconds: float) -> int:

        def unit(db: sqlite3.Connection) -> int:
            _bump(db, game, "running")
            db.execute(
                "UPDATE timers SET due_at = due_at + ?"
                " WHERE game_id = ? AND kind IN ('clock', 'deadline')",
                (seconds, game.id),
            )
            return game.version + 1

        return await self.write(unit)

    # -- what users chose ---------------------------------------------------------

    async def set_notify(self, user_id: int, how: str) -> None:
        def unit(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO user_prefs (user_id, notify) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, how),
            )

        await self.write(unit)

    async def notify_choices(self, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        marks = ",".join("?" for _ in user_ids)
        rows = await self._all(
            f"SELECT user_id, notify FROM user_prefs WHERE user_id IN ({marks})", tuple(user_ids)
        )
        return {int(r[0]): str(r[1]) for r in rows}

    # -- timers -------------------------------------------------------------------

    async def add_timer(
        self,
        due_at: float,
        kind: str,
        game_id: int | None,
        payload: Mapping[str, Any] | None = None,
        name: str = "",
    ) -> int:
        def unit(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO timers (due_at, kind, game_id, payload, name) VALUES (?, ?, ?, ?, ?)",
                (due_at, kind, game_id, dumps(dict(payload or {})), name),
            )
            return int(cursor.lastrowid or 0)

        return await self.write(unit)

    async def replace_timers(
        self,
        game_id: int,
        kind: str,
        due_at: float | None,
        payload: Mapping[str, Any] | None = None,
    ) -> None:

        def unit(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))
            if due_at is not None:
                db.execute(
                    "INSERT INTO timers (due_at, kind, game_id, payload) VALUES (?, ?, ?, ?)",
                    (due_at, kind, game_id, dumps(dict(payload or {}))),
                )

        await self.write(unit)

    async def add_missing_timers(
        self, game_id: int, timers: Sequence[tuple[str, str, float]]
    ) -> None:

        def unit(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT OR IGNORE INTO timers (due_at, kind, game_id, name) VALUES (?, ?, ?, ?)",
                [(due, kind, game_id, name) for kind, name, due in timers],
            )

        await self.write(unit)

    async def timer(self, timer_id: int) -> TimerRow | None:
        row = await self._one("SELECT * FROM timers WHERE id = ?", (timer_id,))
        return decode_timer(row) if row else None

    async def due_timers(self, now: float, limit: int = 500) -> list[TimerRow]:
        rows = await self._all(
            "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?", (now, limit)
        )
        return [decode_timer(r) for r in rows]

    async def running_games(self) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games"
            " WHERE status = 'running' AND paused IS NULL ORDER BY id"
        )
        return [decode_game(r) for r in rows]

    async def next_timer(self) -> TimerRow | None:
        row = await self._one("SELECT * FROM timers ORDER BY due_at, id LIMIT 1")
        return decode_timer(row) if row else None

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            rows = await self._all("SELECT * FROM timers ORDER BY due_at, id")
        else:
            rows = await self._all(
                "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id", (game_id,)
            )
        return [decode_timer(r) for r in rows]

    async def delete_timer(self, timer_id: int) -> bool:

        def unit(db: sqlite3.Connection) -> bool:
            cursor = db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            return cursor.rowcount == 1

        return await self.write(unit)

    # -- messages the adapter keeps up to date -------------------------------------

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        def unit(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO game_messages (game_id, kind, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

        await self.write(unit)

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self._one(
            "SELECT channel_id, message_id FROM game_messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return (int(row[0]), int(row[1])) if row else None

    # -- DM reachability ----------------------------------------------------------

    async def mark_dms_closed(self, user_id: int) -> None:

        def unit(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO closed_dms (user_id, since) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since",
                (user_id, time.time()),
            )

        await self.write(unit)

    async def mark_dms_open(self, user_id: int) -> None:
        def unit(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

        await self.write(unit)

    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        row = await self._one("SELECT since FROM closed_dms WHERE user_id = ?", (user_id,))
        if row is None:
            return False
        return retry_after is None or time.time() - float(row[0]) < retry_after

    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:

        def unit(db: sqlite3.Connection) -> bool:
            row = db.execute(
                "SELECT announced_in FROM closed_dms WHERE user_id = ?", (user_id,)
            ).fetchone()
            if row is None:
                return False
            announced = set(json.loads(row[0]))
            if game_id in announced:
                return False
            announced.add(game_id)
            db.execute(
                "UPDATE closed_dms SET announced_in = ? WHERE user_id = ?",
                (dumps(sorted(announced)), user_id),
            )
            return True

        return await self.write(unit)

    # -- after the game: rematch, export, statistics ----------------------------------

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
        specs = seats_with_secrets(seats)  # drawn once: a unit may run again

        def unit(db: sqlite3.Connection) -> int:
            now = time.time()
            try:
                cursor = db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_type, status, creator_id,"
                    " options, seed, language, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game_type,
                        creator_id,
                        dumps(dict(options)),
                        seed,
                        language,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy(channel_id) from exc
            game_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, computer,"
                " secret) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seat, user, name, now, computer, secret)
                    for seat, (user, name, computer, secret) in enumerate(specs)
                ],
            )
            return game_id

        game = await self.get_game(await self.write(unit))
        assert game is not None
        return game

    async def last_game_over_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ?"
            " AND status IN ('finished', 'abandoned') AND state IS NOT NULL"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return decode_game(row) if row else None

    async def guild_results(self, guild_id: int) -> GuildResults:
        games = await self._all(
            f"SELECT game_type, {HAS_COMPUTER} AS c, COUNT(*) FROM games AS g"
            " WHERE guild_id = ? AND status = 'finished' GROUP BY game_type, c",
            (guild_id,),
        )
        players = await self._all(
            "SELECT g.game_type, s.user_id, COUNT(*), SUM(s.place = 1), AVG(s.place),"
            f" s.display_name, MAX(g.id), {HAS_COMPUTER} AS c"
            " FROM games AS g JOIN seats AS s ON s.game_id = g.id"
            " WHERE g.guild_id = ? AND g.status = 'finished' AND s.place IS NOT NULL"
            " AND s.computer IS NULL GROUP BY g.game_type, s.user_id, c",
            (guild_id,),
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
        rows = await self._all(
            "SELECT g.game_type, COUNT(*), SUM(s.place = 1), AVG(s.place),"
            f" s.display_name, MAX(g.id), {HAS_COMPUTER} AS c"
            " FROM seats AS s JOIN games AS g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"
            " AND s.place IS NOT NULL GROUP BY g.game_type, c",
            (user_id, guild_id),
        )
        return [
            PlayerResults(
                str(r[0]), user_id, str(r[4]), int(r[1]), int(r[2]), float(r[3]), bool(r[6])
            )
            for r in rows
        ]

    # -- shard clusters: owned timers, claimed; interactions handed over -------------

    async def claim_due_timers(
        self,
        now: float,
        shards: ShardRange,
        claimant: str,
        lease: float,
        limit: int = 500,
    ) -> list[TimerRow]:
        # one UPDATE … RETURNING under SQLite's single writer: atomic across processes
        owned, params = shards.sql("games.guild_id")

        def unit(db: sqlite3.Connection) -> list[TimerRow]:
            cursor = db.cursor()
            cursor.row_factory = sqlite3.Row
            cursor.execute(
                "UPDATE timers SET claimed_by = ?, claimed_at = ? WHERE id IN ("
                " SELECT timers.id FROM timers LEFT JOIN games ON games.id = timers.game_id"
                f" WHERE due_at <= ? AND {owned}"
                " AND (claimed_by IS NULL OR claimed_by = ? OR claimed_at <= ?)"
                " ORDER BY due_at, timers.id LIMIT ?) RETURNING *",
                (claimant, now, now, *params, claimant, now - lease, limit),
            )
            return sorted(
                (decode_timer(r) for r in cursor.fetchall()), key=lambda t: (t.due_at, t.id)
            )

        return await self.write(unit)

    async def next_owned_timer(
        self, shards: ShardRange, claimant: str, lease: float
    ) -> TimerRow | None:
        # two indexed picks: the earliest timer free to claim (timers_by_due, in
        # order) and the earliest lapse of another claimant's claim (timers_claimed)
        owned, params = shards.sql("games.guild_id")
        joined = "FROM timers LEFT JOIN games ON games.id = timers.game_id"
        columns = "timers.id AS id, kind, game_id, payload, name"
        row = await self._one(
            f"SELECT * FROM (SELECT {columns}, due_at {joined}"
            f" WHERE (claimed_by IS NULL OR claimed_by = ?) AND {owned}"
            " ORDER BY due_at, timers.id LIMIT 1)"
            f" UNION ALL SELECT * FROM (SELECT {columns},"
            f" MAX(due_at, claimed_at + ?) AS due_at {joined}"
            f" WHERE claimed_by IS NOT NULL AND claimed_by <> ? AND {owned}"
            " ORDER BY 6, 1 LIMIT 1) ORDER BY 6, 1 LIMIT 1",
            (claimant, *params, lease, claimant, *params),
        )
        return decode_timer(row) if row else None

    async def hand_over(self, shard: int, game_id: int, payload: Mapping[str, Any]) -> int:
        def unit(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO handovers (shard, game_id, payload, created_at) VALUES (?, ?, ?, ?)",
                (shard, game_id, dumps(dict(payload)), time.time()),
            )
            return int(cursor.lastrowid or 0)

        return await self.write(unit)

    async def take_handovers(self, shards: ShardRange, limit: int = 100) -> list[HandOver]:
        def unit(db: sqlite3.Connection) -> list[HandOver]:
            rows = db.execute(
                "DELETE FROM handovers WHERE id IN (SELECT id FROM handovers"
                " WHERE shard BETWEEN ? AND ? ORDER BY id LIMIT ?)"
                " RETURNING id, game_id, payload, created_at",
                (shards.first, shards.last, limit),
            ).fetchall()
            return sorted(
                HandOver(int(r[0]), int(r[1]), json.loads(r[2]), float(r[3])) for r in rows
            )

        return await self.write(unit)

    async def has_handovers(self, shards: ShardRange) -> bool:
        row = await self._one(
            "SELECT 1 FROM handovers WHERE shard BETWEEN ? AND ? LIMIT 1",
            (shards.first, shards.last),
        )
        return row is not None


class _WriterThread:
    """One thread owning a plain ``sqlite3`` connection; each :meth:`run` is one trip.

    The connection is made on the thread and only ever used there (sqlite3's
    same-thread check stays on). A call is queued to the thread, which hands
    the result back with ``call_soon_threadsafe`` — the same hand-over as
    aiosqlite's own thread, through public APIs only.
    """

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[
            tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Callable[[], Any]] | None
        ] = queue.SimpleQueue()
        self._db: sqlite3.Connection | None = None
        self._thread = threading.Thread(
            target=self._serve, name="ziggurat-sqlite-writer", daemon=True
        )
        self._thread.start()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, future, fn = call
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as exc:
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                loop.call_soon_threadsafe(_settle_future, future, *outcome)

    async def _call(self, fn: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((loop, future, fn))
        return await future

    async def connect(self, path: str) -> None:
        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(path, isolation_level=None)
            try:
                for pragma in PRAGMAS:
                    db.execute(pragma)
            except BaseException:
                db.close()
                raise
            return db

        self._db = await self._call(connect)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        db = self._db
        if db is None:
            raise StoreClosed()
        return await self._call(functools.partial(fn, db, *args))

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            await self._call(db.close)
        self._calls.put(None)


def _settle_future(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _migrate(db: sqlite3.Connection) -> None:
    """Apply the migrations not yet applied, each in its own transaction."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    for number, script in enumerate(MIGRATIONS, start=1):
        if number <= current:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_sql(script):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


@dataclass
class _Attempt:
    """What a batch transaction gave: each unit's result, or the first failure."""

    results: list[Any]
    failed: tuple[int, Exception] | None = None


def _transaction(db: sqlite3.Connection, units: Sequence[Unit[Any]]) -> _Attempt:
    """Run units in one transaction on the writer's own thread (see the module docstring)."""
    db.execute("BEGIN IMMEDIATE")
    results: list[Any] = []
    try:
        for index, unit in enumerate(units):
            try:
                results.append(unit(db))
            except Exception as exc:
                db.execute("ROLLBACK")
                return _Attempt(results, (index, exc))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return _Attempt(results)


def _settle(pending: _Pending, ok: bool, value: Any) -> None:
    if pending.future.done():
        return
    if ok:
        pending.future.set_result(value)
    else:
        pending.future.set_exception(value)


def _bump(
    db: sqlite3.Connection,
    game: GameRow,
    status: str,
    sets: str = "",
    params: Sequence[Any] = (),
) -> None:
    """Raise the game's version if it is still ``game.version`` in ``status``.

    ``sets`` adds assignments (``", state = ?"``) with their ``params``.
    Raises :class:`VersionConflict` when another writer got there first.
    """
    cursor = db.execute(
        f"UPDATE games SET version = version + 1, updated_at = ?{sets}"
        " WHERE id = ? AND version = ? AND status = ?",
        (time.time(), *params, game.id, game.version, status),
    )
    if cursor.rowcount != 1:
        raise VersionConflict(game.id)


def _write_timers(
    db: sqlite3.Connection,
    game_id: int,
    reminder: float | Keep | None,
    deadlines: Mapping[str, float] | Keep,
) -> None:
    """Set a game's reminder and its named deadlines (see :class:`StepWrite`).

    A game has at most one timer per kind and name (a unique index), so the
    reminder is one upsert and a deadline that already exists is kept by
    ``INSERT OR IGNORE`` — its due time never moves.
    """
    if reminder is None:
        db.execute("DELETE FROM timers WHERE game_id = ? AND kind = 'reminder'", (game_id,))
    elif not isinstance(reminder, Keep):
        db.execute(
            "INSERT INTO timers (due_at, kind, game_id, name) VALUES (?, 'reminder', ?, '')"
            " ON CONFLICT (game_id, kind, name) DO UPDATE SET due_at = excluded.due_at,"
            " claimed_by = NULL, claimed_at = NULL",  # a re-armed reminder is a new timer
            (reminder, game_id),
        )
    if isinstance(deadlines, Keep):
        return
    names = list(deadlines)
    marks = ",".join("?" for _ in names)
    db.execute(
        "DELETE FROM timers WHERE game_id = ? AND kind = 'deadline'"
        + (f" AND name NOT IN ({marks})" if names else ""),
        (game_id, *names),
    )
    if names:
        db.executemany(
            "INSERT OR IGNORE INTO timers (due_at, kind, game_id, name)"
            " VALUES (?, 'deadline', ?, ?)",
            [(due, game_id, name) for name, due in deadlines.items()],
        )


def _write_seats(
    db: sqlite3.Connection, game_id: int, changes: Mapping[int, Mapping[str, Any]]
) -> None:
    for seat, fields in changes.items():
        names = [name for name in fields if name in SEAT_FIELDS]
        if not names:
            continue
        sets = ", ".join(f"{name} = ?" for name in names)
        db.execute(
            f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
            (*(fields[name] for name in names), game_id, seat),
        )


def _write_clock(db: sqlite3.Connection, game_id: int, clock: Mapping[str, float] | Keep) -> None:
    """Replace the turn clock's timers of a game (none: the clock stops)."""
    if isinstance(clock, Keep):
        return
    db.execute("DELETE FROM timers WHERE game_id = ? AND kind = 'clock'", (game_id,))
    db.executemany(
        "INSERT INTO timers (due_at, kind, game_id, name) VALUES (?, 'clock', ?, ?)",
        [(due, game_id, name) for name, due in clock.items()],
    )


def _write_computer(db: sqlite3.Connection, game_id: int, due: float | Keep | None) -> None:
    """Set a game's computer move timer (see :class:`StepWrite`)."""
    if isinstance(due, Keep):
        return
    if due is None:
        db.execute("DELETE FROM timers WHERE game_id = ? AND kind = 'computer'", (game_id,))
        return
    db.execute(
        "INSERT INTO timers (due_at, kind, game_id, name) VALUES (?, 'computer', ?, '')"
        " ON CONFLICT (game_id, kind, name) DO UPDATE SET due_at = MIN(due_at, excluded.due_at)",
        (due, game_id),
    )


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    buffer: list[str] = []
    for line in script.splitlines():
        buffer.append(line)
        candidate = "\n".join(buffer).strip()
        if sqlite3.complete_statement(candidate):
            statements.append(candidate)
            buffer = []
    rest = "\n".join(buffer).strip()
    if rest:
        statements.append(rest)
    return statements
