"""Change or read a store's rows behind its back, on either backend (for tests only).

A test sets up a situation the service would not make (an old DM refusal, a
fixed seed) with one statement in SQLite's ``?`` style; on PostgreSQL the
marks become ``$1, $2, …``. It runs through the store's own ``write``, so it
is committed like any other unit.
"""

from __future__ import annotations

import re
from typing import Any

from bot.store import SqliteStore, Store


def _numbered(sql: str) -> str:
    counter = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


async def execute(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement in a transaction of its own; the rows it returned."""
    if isinstance(store, SqliteStore):
        return await store.write(lambda db: [tuple(r) for r in db.execute(sql, params)])
    from bot.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)

    async def unit(db: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await db.fetch(_numbered(sql), *params)]

    return await store.write(unit)
