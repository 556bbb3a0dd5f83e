"""The PostgreSQL executor of the store (asyncpg), for several bot processes on one database.

Chosen when ``ZIGGURAT_DB`` is a ``postgresql://`` URL (:func:`bot.store.open_store`).
The statements and units of work are :mod:`bot.store.sql`'s, spelled by
:data:`~bot.store.dialect.POSTGRES`; this module opens and migrates the
database, runs reads from its pool, and runs each write in a transaction of
its own.

Decisions:

* **A pool, one transaction per unit.** Every write is a *unit* (a coroutine
  of an asyncpg connection; the store's own units are plans stepped by
  :func:`_run_plan`) run in its own transaction on a pooled connection;
  concurrent commands commit in parallel and the server groups their WAL
  flushes itself (its group commit). Unlike SQLite there is no single writer
  to queue behind, so no batching of our own: a failing unit rolls back
  alone and no other unit ever runs again (``scripts/bench_store.py``
  measures both backends side by side).
* ``READ COMMITTED``: the version check is ``UPDATE … WHERE version = :version``;
  a concurrent update of the same game waits for the first to commit, then
  finds the version moved and matches no row
  (:class:`~bot.store.base.VersionConflict`). Read-then-write units lock the
  row first (``FOR UPDATE``).
* ``synchronous_commit`` stays the server's (``on`` by default): a move
  acknowledged to a player was flushed by the server.
* The migrations (:data:`~bot.store.schema.MIGRATIONS`, numbered as on
  SQLite) are recorded in the ``schema_version`` table. Each runs in one
  transaction under an advisory lock, so processes starting together migrate
  once.
* Discord's ids are ``BIGINT``; times are seconds as ``DOUBLE PRECISION``
  (the SQLite ``REAL``); stored JSON stays ``TEXT`` in
  :func:`~bot.store.base.dumps`'s canonical form, so a value copied from
  SQLite (``python -m bot migrate-db``) is byte for byte the same.
* Opening fails with an ``OSError`` (what the start-up reports as one line):
  the server's own (``ConnectionRefusedError``), or ``ConnectionError`` for a
  login or database the server refused; the URL is shown without its password.
* Errors map as SQLite's: a unique violation reaches a plan as
  :class:`~bot.store.plan.Duplicate`; a closed store is
  :class:`~bot.store.base.StoreClosed`.
  Every query a command makes uses an index (``tests/platform/
  test_store_plans.py`` checks ``EXPLAIN``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import asyncpg

from bot.store.base import StoreClosed, redact_url
from bot.store.dialect import POSTGRES, Compiled
from bot.store.plan import Op, PlanFactory, duplicate
from bot.store.schema import MIGRATIONS, TABLES, statements
from bot.store.sql import GAME_COLUMNS as GAME_COLUMNS_WRITTEN
from bot.store.sql import SqlStore

T = TypeVar("T")
Connection = Any  # asyncpg.Connection (or a pool's proxy of one); asyncpg ships no stubs
Unit = Callable[[Connection], Awaitable[T]]

__all__ = ["GAME_COLUMNS", "MIGRATIONS", "POOL_SIZE", "TABLES", "PostgresStore"]

#: connections one process keeps open (several processes share the server's max_connections)
POOL_SIZE = 10
#: the advisory lock key that serialises migrations across processes ("zigg")
MIGRATION_LOCK = 0x7A696767
#: a game's columns in PostgreSQL's words (for ``python -m bot migrate-db``'s checks)
GAME_COLUMNS = POSTGRES.expand(GAME_COLUMNS_WRITTEN)


class _Tracer:
    """Hands every statement a pooled connection runs to ``callback`` while one is set."""

    def __init__(self) -> None:
        self.callback: Callable[[str], None] | None = None

    async def attach(self, db: Connection) -> None:
        db.add_query_logger(self._logged)

    def _logged(self, query: Any) -> None:
        if self.callback is not None:
            self.callback(str(query.query))


def _count(status: str) -> int:
    """The row count of a command tag such as ``DELETE 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore(SqlStore):
    """One PostgreSQL database. Open with :meth:`open`; all methods are coroutines."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str, tracer: _Tracer) -> None:
        super().__init__(redact_url(url))
        self._pool = pool
        self._tracer = tracer
        self.url = url

    @classmethod
    async def open(cls, location: str | Any) -> PostgresStore:
        url = str(location)
        tracer = _Tracer()
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, init=tracer.attach
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            # refused logins, unknown databases: an OSError, as a missing server is
            raise ConnectionError(f"{redact_url(url)}: {exc}") from exc
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, tracer)

    async def close(self) -> None:
        """Let the units under way finish, then close the pool."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT version FROM schema_version"))

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Report every statement the pool's connections run (for tests and diagnostics)."""
        self._tracer.callback = callback

    async def query_plan(self, sql: str) -> list[str]:
        """The generic plan of a statement (any parameter values), one line per plan node.

        Sequential scans are disfavoured, so a scan in the plan means no index
        could serve the query, however few rows the tables hold (for tests).
        """
        marks = [int(n) for n in re.findall(r"\$(\d+)", sql)]
        args = ", ".join("NULL" for _ in range(max(marks, default=0)))
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SET LOCAL enable_seqscan = off")
            await db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            await db.execute(f"PREPARE ziggurat_plan AS {sql}")
            try:
                rows = await db.fetch(
                    "EXPLAIN EXECUTE ziggurat_plan" + (f"({args})" if args else "")
                )
            finally:
                await db.execute("DEALLOCATE ziggurat_plan")
        return [str(r[0]) for r in rows]

    # -- what the statements need -------------------------------------------------------

    async def _fetch(self, statement: Compiled, params: Mapping[str, Any]) -> list[Any]:
        if self._closed:
            raise StoreClosed(self.path)
        return list(await self._pool.fetch(statement.text, *POSTGRES.bind(statement, params)))

    async def _perform(self, plan: PlanFactory[T]) -> T:
        return await self.write(lambda db: _run_plan(plan, db))

    async def write(self, unit: Unit[T]) -> T:
        """Run ``unit`` in a transaction of its own; its result once committed."""
        if self._closed:
            raise StoreClosed(self.path)
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                result = await unit(conn)
        except asyncpg.InterfaceError as exc:
            if self._closed:
                raise StoreClosed(self.path) from exc
            raise
        self.batches += 1
        self.units += 1
        return result


async def _run_plan(plan: PlanFactory[T], db: Connection) -> T:
    """Step a plan on one connection, inside the unit's transaction."""
    steps = plan()
    try:
        op = next(steps)
        while True:
            try:
                result = await _execute(db, op)
            except asyncpg.UniqueViolationError as exc:
                op = steps.throw(duplicate(exc))
            else:
                op = steps.send(result)
    except StopIteration as done:
        value: T = done.value
        return value


async def _execute(db: Connection, op: Op) -> Any:
    statement = POSTGRES.compile(op.sql)
    if op.kind == "many":
        if op.params:
            await db.executemany(statement.text, POSTGRES.bind_many(statement, op.params))
        return None
    args = POSTGRES.bind(statement, op.params)
    if op.kind == "count":
        return _count(await db.execute(statement.text, *args))
    return await db.fetch(statement.text, *args)


async def _migrate(db: Connection) -> None:
    """Apply the migrations not yet applied, each in one transaction, one process at a time."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await db.fetchval("SELECT version FROM schema_version")
        if current is None:
            await db.execute("INSERT INTO schema_version (version) VALUES (0)")
            current = 0
        for number, migration in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with db.transaction():
                for statement in statements(migration, POSTGRES.name):
                    await db.execute(POSTGRES.expand(statement))
                await db.execute("UPDATE schema_version SET version = $1", number)
