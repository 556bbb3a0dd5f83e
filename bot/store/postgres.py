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
* **A step in one round trip.** A plan that reads nothing back but expected
  counts (a step: the version check, then writes; :func:`~bot.store.plan.
  speculate`) is sent as one script of plain statements, its values written
  as literals (:func:`literal`), its expected counts checked by the server
  (a statement ``WITH … RETURNING`` whose count divides, so a difference is
  an error): the server runs a multi-statement query as one transaction, so
  the script commits whole or not at all. Any error, and the plan runs again
  statement by statement, where the version check, a unique index or the
  error itself answers as it always did. Measured against the three ways
  (``scripts/bench_store.py``, a step's statements without fsync on a
  loaded 2-core machine): one statement a round trip 0.48 ms; one call of a
  server-side function running them (``EXECUTE format(…, %L)``) 0.47 ms, the
  state's JSON parsed and quoted again on the server; one script 0.28 ms.
  asyncpg has no pipeline mode. The literals need
  ``standard_conforming_strings`` (the default since PostgreSQL 9.1): a
  server without it gets the statements one by one.
* **A running step as one statement.** A plan whose statements each change
  rows no other of them changes (``disjoint``: a running step with no fired
  timer and no turn clock replaced, :meth:`~bot.store.sql.SqlStore.start_step`)
  is sent as one statement instead, each of its statements a data-modifying
  ``WITH`` part, its values bound as parameters (:func:`_one_statement`): the
  server parses and plans one text per shape of step once per connection
  (asyncpg's statement cache) instead of every statement of every script, and
  no value is quoted in Python. The text itself is made once per shape too
  (:func:`_shaped`, keyed by each op's statement, its row count and its
  expected count), so a step's Python only binds its values: 3 µs instead of
  28 µs a step (a Tigris step, measured on a loaded 2-core box). The parts
  share one snapshot (none sees another's changes), hence disjoint plans
  only; the expected counts are
  checked at its end as the script checks them, and an error rolls the whole
  statement back, so the fallback is the script's. Measured
  (``scripts/bench_step_write.py``, a Tigris step, 900 commits each way
  alternated, a loaded 2-core box): the script 0.61–0.69 ms, the one
  statement 0.43–0.45 ms, a bare commit 0.14–0.16 ms; the loop's CPU alike
  (0.18–0.20 ms).
* **A lone statement alone.** A unit of one statement whose result is read
  (a kept message, a timer added, timers claimed, hand-overs taken:
  :meth:`~bot.store.sql.SqlStore._statement`) is sent with no ``BEGIN`` or
  ``COMMIT`` around it: the server runs a lone statement as a transaction of
  its own, so it is as atomic, in one round trip instead of three.
* **Connections kept between units.** A unit that ran to its end keeps its
  connection idle in the store (:meth:`PostgresStore._take`) instead of
  handing it back to asyncpg's pool: the pool's release costs every statement
  a task of its own (``asyncio.shield``) and its acquire a proxy, two more
  turns of the event loop a statement. The pool still opens, bounds
  (:data:`POOL_SIZE`) and closes the connections: a connection is handed back
  to it when the unit failed or was cancelled, when it is lost or inside a
  transaction, when another unit is waiting for the pool, and at close.
* **No reset on release.** asyncpg resets a pooled connection when it is
  released (``RESET ALL``, ``UNLISTEN *``…: one more round trip per read and
  per write). Nothing here changes a session: no ``SET`` outside a
  transaction (``SET LOCAL`` only), no ``LISTEN``, no session advisory locks,
  no cursor outside a transaction, a ``PREPARE`` deallocated where it is
  made; so release only rolls back a transaction left open (asyncpg's own
  check) and sends nothing.
* **No idle timer.** A pooled connection is not closed for being idle
  (``max_inactive_connection_lifetime=0``): asyncpg would arm a timer on
  every release and cancel it on every acquire, a cost on each statement;
  the pool stays bounded by :data:`POOL_SIZE`.
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

import asyncio
import functools
import math
import re
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.store.base import StoreClosed, redact_url
from bot.store.dialect import PARAMETER, POSTGRES, Compiled
from bot.store.plan import Op, PlanFactory, duplicate, speculate
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
    """Hands what each round trip of a pooled connection sends to ``callback`` while one
    is set: a statement, or a plan's script as its statements with their parameters
    (``$1``…, as they are run one by one), joined by ``";\n"``. asyncpg's query logger
    is on the connections only then: it costs every query a record and a callback."""

    def __init__(self) -> None:
        self.callback: Callable[[str], None] | None = None
        self._connections: weakref.WeakSet[Any] = weakref.WeakSet()

    async def attach(self, db: Connection) -> None:
        """The pool's ``init``: each new connection, traced if a trace is on."""
        self._connections.add(db)
        if self.callback is not None:
            db.add_query_logger(self._logged)

    def set(self, callback: Callable[[str], None] | None) -> None:
        self.callback = callback
        for db in list(self._connections):
            if callback is None:
                db.remove_query_logger(self._logged)
            else:
                db.add_query_logger(self._logged)

    def _logged(self, query: Any) -> None:
        text = str(query.query)
        if self.callback is not None and not text.startswith(SCRIPT_MARK):
            self.callback(text)

    def script(self, ops: Sequence[Op]) -> None:
        if self.callback is not None:
            self.callback(
                ";\n".join(
                    POSTGRES.compile(op.sql).text
                    for op in ops
                    for _ in (op.params if op.kind == "many" else (op.params,))
                )
            )


def _count(status: str) -> int:
    """The row count of a command tag such as ``DELETE 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore(SqlStore):
    """One PostgreSQL database. Open with :meth:`open`; all methods are coroutines."""

    dialect = POSTGRES

    def __init__(
        self, pool: asyncpg.Pool, url: str, tracer: _Tracer, *, scripts: bool = True
    ) -> None:
        super().__init__(redact_url(url))
        self._pool = pool
        self._tracer = tracer
        self.url = url
        #: whether a plan may be sent as one script (``standard_conforming_strings``)
        self.scripts = scripts
        #: whether a disjoint plan is sent as one statement, its values bound (else as
        #: the script: ``scripts/bench_step_write.py`` measures the two)
        self.one_statement = True
        #: connections taken from the pool and kept idle between units (:meth:`_take`)
        self._idle: list[Connection] = []
        #: units waiting for the pool to hand them a connection
        self._waiting = 0

    @classmethod
    async def open(cls, location: str | Any) -> PostgresStore:
        url = str(location)
        tracer = _Tracer()
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                init=tracer.attach,
                reset=_keep_session,
                max_inactive_connection_lifetime=0,
                # a time a load writes out as text (a deadline, a pending move) is exact
                # whatever the server's default (any positive value since PostgreSQL 12)
                server_settings={"extra_float_digits": "3"},
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            # refused logins, unknown databases: an OSError, as a missing server is
            raise ConnectionError(f"{redact_url(url)}: {exc}") from exc
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
                scripts = conn.get_settings().standard_conforming_strings == "on"
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, tracer, scripts=scripts)

    async def close(self) -> None:
        """Let the units under way finish, then close the pool."""
        if self._closed:
            return
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            await self._pool.release(conn)
        await self._pool.close()

    async def schema_version(self) -> int:
        found = await self._on_connection(
            lambda db: db.fetchval("SELECT version FROM schema_version"), transaction=False
        )
        return int(found)

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Report what each round trip of the pool's connections sends (for tests and
        diagnostics): a statement, or a plan's script as its statements (see :class:`_Tracer`)."""
        if callback is None:  # asyncpg hands a query to its loggers on the loop's next turn
            await asyncio.sleep(0)
        self._tracer.set(callback)

    async def query_plan(self, sql: str) -> list[str]:
        """The generic plan of a statement (any parameter values), one line per plan node.

        Sequential scans are disfavoured, so a scan in the plan means no index
        could serve the query, however few rows the tables hold (for tests).
        """
        marks = [int(n) for n in re.findall(r"\$(\d+)", sql)]
        args = ", ".join("NULL" for _ in range(max(marks, default=0)))

        async def explained(db: Connection) -> list[Any]:
            await db.execute("SET LOCAL enable_seqscan = off")
            await db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            await db.execute(f"PREPARE ziggurat_plan AS {sql}")
            try:
                return list(
                    await db.fetch("EXPLAIN EXECUTE ziggurat_plan" + (f"({args})" if args else ""))
                )
            finally:
                await db.execute("DEALLOCATE ziggurat_plan")

        rows = await self._on_connection(explained, transaction=True, counted=False)
        return [str(r[0]) for r in rows]

    # -- what the statements need -------------------------------------------------------

    async def _fetch(self, statement: Compiled, params: Mapping[str, Any]) -> list[Any]:
        args = POSTGRES.bind(statement, params)
        found = await self._on_connection(
            lambda db: db.fetch(statement.text, *args), transaction=False, counted=False
        )
        return list(found)

    async def _perform(
        self,
        plan: PlanFactory[T],
        *,
        sent: Callable[[], None] | None = None,
        disjoint: bool = False,
    ) -> T:
        ahead = speculate(plan) if self.scripts or disjoint else None
        if ahead is not None:
            ops, result = ahead
            bound = disjoint and self.one_statement
            statement, args = _one_statement(ops) if bound else (None, [])
            if statement is not None:
                try:
                    await self._run_script(statement, sent, args)
                except asyncpg.PostgresError:  # a value it cannot bind (asyncpg's DataError) too
                    return await self.write(lambda db: _run_plan(plan, db))  # as a script's
                else:
                    self._tracer.script(ops)
                    return result
            script = _script(ops) if self.scripts else None
            if script is not None:
                try:
                    await self._run_script(script, sent)
                except asyncpg.PostgresError:
                    pass  # a count not as expected, a unique index…: statement by statement
                else:
                    self._tracer.script(ops)
                    return result
        return await self.write(lambda db: _run_plan(plan, db))

    async def _run_script(
        self, script: str, sent: Callable[[], None] | None = None, args: Sequence[Any] = ()
    ) -> None:
        """Run a plan's script, or its one statement with ``args`` bound: one round trip,
        one transaction (the server's own). ``sent`` is called on the loop's next turn,
        once it went out."""

        async def unit(conn: Connection) -> None:
            if sent is not None:  # runs once this coroutine waits for the answer
                asyncio.get_running_loop().call_soon(sent)
            await conn.execute(script, *args)

        await self._on_connection(unit, transaction=False)

    async def _statement(self, op: Op) -> Any:
        """One statement on a pooled connection with no ``BEGIN``/``COMMIT`` around it
        (the server runs a lone statement as a transaction of its own): one round trip,
        not three."""

        async def unit(conn: Connection) -> Any:
            try:
                return await _execute(conn, op)
            except asyncpg.UniqueViolationError as exc:
                raise duplicate(exc) from exc

        return await self._on_connection(unit, transaction=False)

    async def write(self, unit: Unit[T]) -> T:
        """Run ``unit`` in a transaction of its own; its result once committed."""
        return await self._on_connection(unit, transaction=True)

    async def _on_connection(self, unit: Unit[T], *, transaction: bool, counted: bool = True) -> T:
        """Run ``unit`` on a pooled connection, in a transaction of ours or (a read, a
        script, a lone statement: the server's own) not; a closed store's errors as
        :class:`StoreClosed`. ``counted``: a write, counted in :attr:`units`."""
        if self._closed:
            raise StoreClosed(self.path)
        done = False
        try:
            conn = await self._take()
            try:
                if transaction:
                    async with conn.transaction():
                        result = await unit(conn)
                else:
                    result = await unit(conn)
                done = True
            finally:
                await self._give(conn, kept=done)
        except asyncpg.InterfaceError as exc:
            if self._closed:
                raise StoreClosed(self.path) from exc
            raise
        if counted:
            self.batches += 1
            self.units += 1
        return result

    async def _take(self) -> Connection:
        """A connection for one unit: one kept idle since an earlier unit, else the pool's."""
        while self._idle:
            conn = self._idle.pop()
            if not conn.is_closed():
                return conn
            await self._pool.release(conn)  # lost: its holder connects again when next taken
        self._waiting += 1
        try:
            return await self._pool.acquire()
        finally:
            self._waiting -= 1

    async def _give(self, conn: Connection, *, kept: bool) -> None:
        """After a unit: keep ``conn`` idle for the next (the unit ``kept`` it: it ran to
        its end), else hand it back to the pool, as when another unit waits for the
        pool, the store is closing, or the connection is lost or inside a transaction."""
        if (
            kept
            and not self._waiting
            and not self._closed
            and not conn.is_closed()
            and not conn.is_in_transaction()
        ):
            self._idle.append(conn)
        else:
            await self._pool.release(conn)


async def _keep_session(db: Connection) -> None:
    """The pool's reset on release: nothing to send (see the module docstring)."""


def literal(value: Any) -> str | None:
    """``value`` as a PostgreSQL literal (``standard_conforming_strings`` on), or None
    when it has none here: a value that is not None, a bool, an int, a finite float, a
    string without NUL, or a list of those (an array, for ``= ANY(...)``)."""
    kind = type(value)  # the common exact types first: a step's values are mostly these
    if kind is str:
        return None if "\x00" in value else "'" + value.replace("'", "''") + "'"
    if kind is int:
        return str(value) if value >= 0 else f"({value})"
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"  # the columns holding flags are integers
    if isinstance(value, int):
        return f"({value})" if value < 0 else str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return f"({value!r})" if value < 0 else repr(value)
    if isinstance(value, str):
        return None if "\x00" in value else "'" + value.replace("'", "''") + "'"
    if isinstance(value, list | tuple):
        items = [literal(item) for item in value]
        if any(
            item is None or isinstance(v, list | tuple)
            for item, v in zip(items, value, strict=True)
        ):
            return None
        return f"ARRAY[{', '.join(items)}]" if items else "'{}'"  # type: ignore[arg-type]
    return None


@functools.lru_cache(maxsize=512)
def _pieces(statement: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A statement in PostgreSQL's words cut at its parameters: the texts between
    them, and the parameters' names in order."""
    expanded = POSTGRES.expand(statement)
    texts, names, start = [], [], 0
    for match in PARAMETER.finditer(expanded):
        texts.append(expanded[start : match.start()])
        names.append(match.group(1))
        start = match.end()
    texts.append(expanded[start:])
    return tuple(texts), tuple(names)


def _inline(statement: str, params: Mapping[str, Any]) -> str | None:
    texts, names = _pieces(statement)
    parts = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        value = literal(params[name])
        if value is None:
            return None
        parts += (value, text)
    return "".join(parts)


#: how a plan's script starts (the tracer reports its statements instead)
SCRIPT_MARK = "/* ziggurat plan */ "
#: a statement with a RETURNING clause (its rows are what it changed)
RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


def _script(ops: Sequence[Op]) -> str | None:
    """The ops as one script (see the module docstring); None when a value has no
    literal. An expected count is checked by the server: a difference divides by zero."""
    statements: list[str] = []
    for op in ops:
        for params in op.params if op.kind == "many" else (op.params,):
            text = _inline(op.sql, params)
            if text is None:
                return None
            if op.expect is not None:  # the statement's own words, not its values, say it
                returning = "" if RETURNING.search(op.sql) else " RETURNING 1"
                text = (
                    f"WITH changed AS ({text}{returning})"
                    f" SELECT 1 / (COUNT(*) = {int(op.expect)})::int FROM changed"
                )
            statements.append(text)
    return SCRIPT_MARK + ";\n".join(statements) if statements else None


#: a parameter's number in a compiled statement (``$3``)
NUMBERED = re.compile(r"\$(\d+)")


@functools.lru_cache(maxsize=1024)
def _renumbered(text: str, offset: int) -> str:
    """A compiled statement's text with its parameters numbered from ``offset + 1``."""
    return NUMBERED.sub(lambda found: f"${int(found[1]) + offset}", text)


def _one_statement(ops: Sequence[Op]) -> tuple[str | None, list[Any]]:
    """A disjoint plan's ops (see :meth:`~bot.store.sql.SqlStore._perform`) as one
    statement, each op a data-modifying ``WITH`` part, its values bound as parameters
    (the server keeps the statement prepared: one text per shape of step, whatever its
    values); an expected count is checked by the server, a difference dividing by zero.
    No part sees another's changes (one snapshot), hence disjoint plans only. The text
    is made once per shape (:func:`_shaped`); a call binds the values."""
    text = _shaped(
        tuple((op.sql, len(op.params) if op.kind == "many" else -1, op.expect) for op in ops)
    )
    if text is None:
        return None, []
    args: list[Any] = []
    for op in ops:
        compiled = POSTGRES.compile(op.sql)
        if op.kind == "many":
            for params in op.params:
                args += POSTGRES.bind(compiled, params)
        else:
            args += POSTGRES.bind(compiled, op.params)
    return text, args


@functools.lru_cache(maxsize=512)
def _shaped(shape: tuple[tuple[str, int, int | None], ...]) -> str | None:
    """The one statement of a step's shape: each op's statement, how many times it runs
    (-1: once, not a ``many``) and its expected count, in order (see :func:`_one_statement`)."""
    parts: list[str] = []
    checks: list[str] = []
    args = 0
    for sql, times, expect in shape:
        compiled = POSTGRES.compile(sql)
        returning = "" if RETURNING.search(sql) else " RETURNING 1"
        for _ in range(1 if times < 0 else times):
            name = f"w{len(parts)}"
            parts.append(f"{name} AS ({_renumbered(compiled.text, args)}{returning})")
            args += len(compiled.names)
            if expect is not None:
                checks.append(f"(SELECT COUNT(*) FROM {name}) = {int(expect)}")
    if not parts:
        return None
    check = " AND ".join(checks) or "TRUE"
    return f"{SCRIPT_MARK}WITH {', '.join(parts)} SELECT 1 / ({check})::int"


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
    if op.kind == "run":
        await db.execute(statement.text, *args)
        return None
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
