"""SQLite persistence through aiosqlite: games, seats, the move log and timers.

Decisions:

* WAL mode with ``synchronous=FULL``: a move acknowledged to a player has been
  fsynced, so neither a crash nor a power cut loses it.
* Migrations are numbered SQL scripts applied in order; ``PRAGMA
  user_version`` records the last one applied.
* At most one unfinished game (``lobby`` or ``running``) per channel is a
  partial unique index, so even two bot processes cannot both create one.
* Every state write carries the version it was computed from; the ``UPDATE
  ... WHERE version = ?`` matches no row if another writer got there first,
  and :class:`VersionConflict` is raised with nothing written.
* A move row and the state it produced are written in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

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
)

OPEN_STATUSES = ("lobby", "running")


class StoreError(Exception):
    """Base of the store's own errors."""


class VersionConflict(StoreError):
    """Another writer changed the game since it was loaded; nothing was written."""


class ChannelBusy(StoreError):
    """The channel already has an unfinished game."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    display_name: str
    colour: str


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

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    action: str
    created_at: float


@dataclass(frozen=True)
class TimerRow:
    id: int
    due_at: float
    kind: str
    game_id: int | None
    payload: dict[str, Any]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


class Store:
    """One SQLite file. Open with :meth:`open`; all methods are coroutines."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store._migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self._transaction() as db:
                for statement in _split_sql(script):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()
        return int(version)

    async def integrity_check(self) -> str:
        async with self._db.execute("PRAGMA integrity_check") as cur:
            (answer,) = await cur.fetchone()
        return str(answer)

    # -- transactions -------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One IMMEDIATE transaction: committed on exit, rolled back on any error."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def _bump(
        self, db: aiosqlite.Connection, game: GameRow, status: str, sets: str = "", params=()
    ) -> None:
        """Raise the game's version if it is still ``game.version`` in ``status``.

        ``sets`` adds assignments (``", state = ?"``) with their ``params``.
        Raises :class:`VersionConflict` when another writer got there first.
        """
        cursor = await db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets}"
            " WHERE id = ? AND version = ? AND status = ?",
            (time.time(), *params, game.id, game.version, status),
        )
        if cursor.rowcount != 1:
            raise VersionConflict(game.id)

    # -- games --------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_type: str,
        creator_id: int,
        creator_name: str,
        options: dict[str, str],
        seed: int,
        language: str = "en",
    ) -> GameRow:
        """Create a lobby with its creator in seat 0; :class:`ChannelBusy` if taken."""
        now = time.time()
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game_type, status, creator_id,"
                    " options, seed, language, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game_type,
                        creator_id,
                        _dumps(options),
                        seed,
                        language,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy(channel_id) from exc
            game_id = cursor.lastrowid
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at)"
                " VALUES (?, 0, ?, ?, ?)",
                (game_id, creator_id, creator_name, now),
            )
        game = await self.get_game(int(game_id))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return await self._game_from_row(row) if row else None

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's unfinished game (lobby or running), if any."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._game_from_row(row) if row else None

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's unfinished game, else its most recent finished one."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ?"
            " ORDER BY status IN ('lobby', 'running') DESC, id DESC LIMIT 1",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._game_from_row(row) if row else None

    async def game_ids(self, statuses: Sequence[str] = OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" for _ in statuses)
        async with self._db.execute(
            f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def _game_from_row(self, row: aiosqlite.Row) -> GameRow:
        async with self._db.execute(
            "SELECT seat, user_id, display_name, colour FROM seats WHERE game_id = ? ORDER BY seat",
            (row["id"],),
        ) as cur:
            seats = tuple(
                SeatRow(int(s["seat"]), int(s["user_id"]), s["display_name"], s["colour"])
                for s in await cur.fetchall()
            )
        return GameRow(
            id=int(row["id"]),
            guild_id=row["guild_id"],
            channel_id=int(row["channel_id"]),
            game_type=row["game_type"],
            status=row["status"],
            creator_id=int(row["creator_id"]),
            options=json.loads(row["options"]),
            seed=int(row["seed"]),
            state=json.loads(row["state"]) if row["state"] is not None else None,
            version=int(row["version"]),
            created_at=float(row["created_at"]),
            updated_at=float(row["updated_at"]),
            waiting_since=row["waiting_since"],
            seats=seats,
            language=row["language"],
        )

    async def raw_game(self, game_id: int) -> tuple[Any, ...]:
        """The stored rows of a game, for byte-identity checks in tests and tools."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            game = tuple(await cur.fetchone() or ())
        async with self._db.execute(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            seats = tuple(tuple(r) for r in await cur.fetchall())
        async with self._db.execute(
            "SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cur:
            moves = tuple(tuple(r) for r in await cur.fetchall())
        return game, seats, moves

    # -- lobby --------------------------------------------------------------

    async def add_seat(self, game: GameRow, user_id: int, display_name: str) -> None:
        """Seat a user in the next free seat of a lobby (version-checked)."""
        async with self._transaction() as db:
            await self._bump(db, game, "lobby")
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game.id, len(game.seats), user_id, display_name, time.time()),
            )

    async def remove_seat(self, game: GameRow, user_id: int) -> None:
        """Remove a user from a lobby and close the gap in seat numbers."""
        seat = game.seat_of(user_id)
        if seat is None:
            return
        async with self._transaction() as db:
            await self._bump(db, game, "lobby")
            await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game.id, user_id)
            )
            # two passes through negative numbers so the primary key never collides
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?",
                (game.id, seat.seat),
            )
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game.id,)
            )

    async def start_game(
        self, game: GameRow, state: Any, order: Sequence[int], colours: Sequence[str]
    ) -> None:
        """Move a lobby to running with its first state.

        ``order`` holds the user ids in their new seat order, ``colours`` each
        seat's colour.
        """
        now = time.time()
        async with self._transaction() as db:
            await self._bump(
                db,
                game,
                "lobby",
                ", status = 'running', state = ?, waiting_since = ?",
                (_dumps(state), now),
            )
            await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ?", (game.id,))
            for seat_number, (user_id, colour) in enumerate(zip(order, colours, strict=True)):
                await db.execute(
                    "UPDATE seats SET seat = ?, colour = ? WHERE game_id = ? AND user_id = ?",
                    (seat_number, colour, game.id, user_id),
                )

    async def set_status(self, game: GameRow, status: str) -> None:
        """Change an unfinished game's status (abandon it, typically)."""
        async with self._transaction() as db:
            await self._bump(db, game, game.status, ", status = ?", (status,))

    # -- moves --------------------------------------------------------------

    async def record_move(
        self,
        game: GameRow,
        *,
        seat: int,
        action: str,
        state: Any,
        finished: bool,
        waiting_changed: bool,
    ) -> int:
        """Append a move and store the state it produced, atomically.

        Returns the new version. Raises :class:`VersionConflict` (nothing
        written) if the game changed since ``game`` was loaded.
        """
        now = time.time()
        async with self._transaction() as db:
            await self._bump(
                db,
                game,
                "running",
                ", state = ?, status = ?,"
                " waiting_since = CASE WHEN ? THEN ? ELSE waiting_since END",
                (_dumps(state), "finished" if finished else "running", int(waiting_changed), now),
            )
            await db.execute(
                "INSERT INTO moves (game_id, seq, seat, action, created_at)"
                " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?),"
                " ?, ?, ?)",
                (game.id, game.id, seat, action, now),
            )
        return game.version + 1

    async def moves(self, game_id: int, last: int | None = None) -> list[MoveRow]:
        """The move log in order; with ``last``, only the last N moves."""
        if last is None:
            sql = "SELECT seq, seat, action, created_at FROM moves WHERE game_id = ? ORDER BY seq"
            params: tuple[Any, ...] = (game_id,)
        else:
            sql = (
                "SELECT * FROM (SELECT seq, seat, action, created_at FROM moves"
                " WHERE game_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq"
            )
            params = (game_id, last)
        async with self._db.execute(sql, params) as cur:
            return [
                MoveRow(int(r["seq"]), int(r["seat"]), r["action"], float(r["created_at"]))
                for r in await cur.fetchall()
            ]

    # -- timers -------------------------------------------------------------

    async def add_timer(
        self, due_at: float, kind: str, game_id: int | None, payload: dict[str, Any] | None = None
    ) -> int:
        cursor = await self._db.execute(
            "INSERT INTO timers (due_at, kind, game_id, payload) VALUES (?, ?, ?, ?)",
            (due_at, kind, game_id, _dumps(payload or {})),
        )
        return int(cursor.lastrowid)

    async def replace_timers(
        self,
        game_id: int,
        kind: str,
        due_at: float | None,
        payload: dict[str, Any] | None = None,
    ) -> None:
        """Drop a game's timers of one kind and, if ``due_at`` is given, add one."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))
            if due_at is not None:
                await db.execute(
                    "INSERT INTO timers (due_at, kind, game_id, payload) VALUES (?, ?, ?, ?)",
                    (due_at, kind, game_id, _dumps(payload or {})),
                )

    async def next_timer(self) -> TimerRow | None:
        async with self._db.execute("SELECT * FROM timers ORDER BY due_at, id LIMIT 1") as cur:
            row = await cur.fetchone()
        return _timer(row) if row else None

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            sql, params = "SELECT * FROM timers ORDER BY due_at, id", ()
        else:
            sql, params = "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id", (game_id,)
        async with self._db.execute(sql, params) as cur:
            return [_timer(r) for r in await cur.fetchall()]

    async def delete_timer(self, timer_id: int) -> bool:
        cursor = await self._db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
        return cursor.rowcount == 1

    # -- DM reachability ----------------------------------------------------

    async def mark_dms_closed(self, user_id: int) -> None:
        """Record a refused DM (now); the games already told about it stay told."""
        await self._db.execute(
            "INSERT INTO closed_dms (user_id, since) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since",
            (user_id, time.time()),
        )

    async def mark_dms_open(self, user_id: int) -> None:
        await self._db.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        """Whether the user's DMs are known to be closed.

        With ``retry_after`` (seconds), a refusal older than that no longer
        counts, so the caller tries a DM again: people do reopen their DMs.
        """
        async with self._db.execute(
            "SELECT since FROM closed_dms WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return False
        return retry_after is None or time.time() - float(row[0]) < retry_after

    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:
        """Record that the channel of ``game_id`` was told about closed DMs.

        Returns True the first time for this user and game, False after.
        """
        async with self._db.execute(
            "SELECT announced_in FROM closed_dms WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return False
        announced = set(json.loads(row[0]))
        if game_id in announced:
            return False
        announced.add(game_id)
        await self._db.execute(
            "UPDATE closed_dms SET announced_in = ? WHERE user_id = ?",
            (_dumps(sorted(announced)), user_id),
        )
        return True


def _timer(row: aiosqlite.Row) -> TimerRow:
    return TimerRow(
        id=int(row["id"]),
        due_at=float(row["due_at"]),
        kind=row["kind"],
        game_id=row["game_id"],
        payload=json.loads(row["payload"]),
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
