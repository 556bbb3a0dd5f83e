"""The store: games, seats, the move log, timers, behind one interface, two backends.

``from bot.store import Store, StepWrite, ...`` is all the rest of the bot
needs: :class:`~bot.store.base.Store` is the interface (and ``Store.open``
opens the configured database). Inside:

* :mod:`bot.store.base` — the interface, its rows and its errors;
* :mod:`bot.store.codec` — the stored JSON's one canonical text (orjson);
* :mod:`bot.store.sql` — every statement and unit of work, written once;
* :mod:`bot.store.plan` — a unit of work as a plan of statements;
* :mod:`bot.store.dialect` — how SQLite and PostgreSQL each spell a statement;
* :mod:`bot.store.schema` — the one numbered list of migrations;
* :mod:`bot.store.sqlite` — the embedded default's executor (one writer, group commit);
* :mod:`bot.store.postgres` — the server database's executor (a pool), for several
  processes.

Decisions:

* ``ZIGGURAT_DB`` (or any location given to :func:`open_store`) that starts
  with ``postgresql://`` or ``postgres://`` opens PostgreSQL; anything else
  is a SQLite file path (``:memory:`` included).
"""

from __future__ import annotations

from pathlib import Path

from bot.store.base import (
    INTEGER_DIGITS,
    KEEP,
    MAX_INTEGER,
    MIN_INTEGER,
    OPEN_STATUSES,
    POSTGRES_SCHEMES,
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
    NewMove,
    PlayerGame,
    PlayerResults,
    SeatRow,
    StepWrite,
    Store,
    StoreClosed,
    StoreError,
    TimerGone,
    TimerRow,
    UndoBase,
    VersionConflict,
    dumps,
    loads,
    redact_url,
    storable,
)
from bot.store.schema import MIGRATIONS
from bot.store.sqlite import PRAGMAS, SqliteStore

__all__ = [
    "INTEGER_DIGITS",
    "KEEP",
    "MAX_INTEGER",
    "MIGRATIONS",
    "MIN_INTEGER",
    "OPEN_STATUSES",
    "POSTGRES_SCHEMES",
    "PRAGMAS",
    "SEAT_FIELDS",
    "ChannelBusy",
    "Committed",
    "GameRow",
    "GuildResults",
    "HandOver",
    "Keep",
    "KeptMessage",
    "MessageReads",
    "MoveRow",
    "NewMove",
    "PlayerGame",
    "PlayerResults",
    "SeatRow",
    "SqliteStore",
    "StepWrite",
    "Store",
    "StoreClosed",
    "StoreError",
    "TimerGone",
    "TimerRow",
    "UndoBase",
    "VersionConflict",
    "dumps",
    "is_postgres",
    "loads",
    "open_store",
    "redact_url",
    "storable",
]


def is_postgres(location: str | Path) -> bool:
    """Whether ``location`` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return str(location).startswith(POSTGRES_SCHEMES)


async def open_store(location: str | Path) -> Store:
    """Open (and migrate) the database at ``location``: a PostgreSQL URL or a SQLite path."""
    if is_postgres(location):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(str(location))
    return await SqliteStore.open(location)
