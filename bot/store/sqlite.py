"""The SQLite executor of the store: one file, one writer thread with group commit.

The statements and units of work are :mod:`bot.store.sql`'s, spelled by
:data:`~bot.store.dialect.SQLITE`; this module opens and migrates the file,
runs reads, and runs writes through its one writer.

Decisions:

* **One writer, group commit.** Every write is a *unit* (a function of the
  writer's ``sqlite3`` connection; the store's own units are plans stepped by
  :func:`_run_plan`) for the one writer thread, which owns the only
  connection that writes. A unit written while the writer is idle is handed
  to its thread at once, by its caller, with no task between them; one
  written while a batch is under way waits, and when that batch is answered
  every unit waiting goes to the thread as the next batch. A batch runs in
  one ``BEGIN IMMEDIATE`` transaction and commits once; no statement ever
  lands in another command's transaction. When a unit fails, the whole
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
  p50 100 ms, p99 145 ms). So units run synchronously on the connection's
  thread, re-runnable (they only write what their caller computed), and a
  whole batch — ``BEGIN``, every unit, ``COMMIT`` — is one trip to the
  writer's thread: one fsync and one round trip per batch.
* **The writer is a thread of our own** (:class:`_WriterThread`): a plain
  ``sqlite3`` connection made and used only by one thread, a batch handed
  over through a queue and answered with ``call_soon_threadsafe`` — public
  APIs only. aiosqlite offers no public call that runs several statements
  in one trip (its ``_execute``/``_conn`` are private); this is its own
  hand-over, and measured no slower (``scripts/bench_store.py``). Reads stay
  on aiosqlite, whose ``execute_fetchall`` is one trip.
* **Reads on their own connection.** WAL lets a reader see only committed
  data, so a read never sees (or depends on) another command's open
  transaction; each read is one statement, fetched in one trip to the
  reader's thread.
* WAL with ``synchronous=FULL``: a move acknowledged to a player has been
  fsynced, so neither a crash nor a power cut loses it.
* The migrations (:data:`~bot.store.schema.MIGRATIONS`) are applied in order
  at open, each in its own transaction; ``PRAGMA user_version`` records the
  last one applied.
* Errors: a unique index's refusal (``SQLITE_CONSTRAINT_UNIQUE`` or
  ``…_PRIMARYKEY``) reaches a plan as :class:`~bot.store.plan.Duplicate`; a
  write to a closed store is :class:`~bot.store.base.StoreClosed`.
* Every query a command makes uses an index (``tests/platform/
  test_store_plans.py`` checks ``EXPLAIN QUERY PLAN``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.base import StoreClosed
from bot.store.dialect import SQLITE, Compiled
from bot.store.plan import Op, PlanFactory, duplicate
from bot.store.schema import MIGRATIONS, statements
from bot.store.sql import SqlStore

T = TypeVar("T")
Unit = Callable[[sqlite3.Connection], T]

__all__ = ["MAX_BATCH", "MIGRATIONS", "PRAGMAS", "SqliteStore"]

#: the most units one transaction takes (a batch this size commits in a few ms)
MAX_BATCH = 256
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
#: the extended result codes of a unique index's refusal
UNIQUE_VIOLATIONS = (sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)


@dataclass
class _Pending:
    unit: Unit[Any]
    future: asyncio.Future[Any]
    #: told when the unit's batch begins its commit (:meth:`SqliteStore.write`)
    sent: Callable[[], None] | None = None


class SqliteStore(SqlStore):
    """One SQLite file. Open with :meth:`open`; all methods are coroutines, and each
    public method's contract is its docstring in :class:`~bot.store.base.Store`."""

    dialect = SQLITE

    def __init__(self, writer: _WriterThread, reader: aiosqlite.Connection, path: str):
        super().__init__(path)
        self._writer = writer
        self._reader = reader
        #: the units waiting for the next batch
        self._waiting: deque[_Pending] = deque()
        #: whether a batch is with the writer's thread now
        self._busy = False
        #: told when the writer has nothing left to do (:meth:`close` waits for it)
        self._drained: asyncio.Future[None] | None = None

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
        return cls(writer, reader, path)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._busy or self._waiting:
            self._drained = asyncio.get_running_loop().create_future()
            await self._drained
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

    # -- what the statements need -------------------------------------------------------

    async def _fetch(self, statement: Compiled, params: Mapping[str, Any]) -> list[Any]:
        """Rows of one read, in one trip to the reader's thread."""
        if self._closed:
            raise StoreClosed(self.path)
        bound = SQLITE.bind(statement, params)
        return list(await self._reader.execute_fetchall(statement.text, bound))

    async def _perform(
        self,
        plan: PlanFactory[T],
        *,
        sent: Callable[[], None] | None = None,
        disjoint: bool = False,
    ) -> T:
        return await self.write(functools.partial(_run_plan, plan), sent=sent)

    def _start(
        self,
        plan: PlanFactory[T],
        *,
        sent: Callable[[], None] | None = None,
        disjoint: bool = False,
    ) -> asyncio.Future[T]:
        return self.submit(functools.partial(_run_plan, plan), sent=sent)

    # -- the writer ---------------------------------------------------------------------

    async def write(self, unit: Unit[T], *, sent: Callable[[], None] | None = None) -> T:
        """Run ``unit`` in the next batch; return its result once the batch committed.

        Raises what the unit raised (its statements rolled back alone), or the
        commit's error (nothing of the batch written). ``sent`` is called (on the
        loop) when the batch's statements ran and its ``COMMIT`` begins.
        """
        result: T = await asyncio.shield(self.submit(unit, sent=sent))
        return result

    def submit(self, unit: Unit[T], *, sent: Callable[[], None] | None = None) -> asyncio.Future[T]:
        """:meth:`write`, started now: the unit is with the writer's thread before this
        returns when the writer is idle, else waits for the next batch."""
        if self._closed:
            raise StoreClosed(self.path)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Pending(unit, future, sent))
        if not self._busy:
            self._send(self._next_batch())
        return future

    def _next_batch(self) -> list[_Pending]:
        batch: list[_Pending] = []
        while self._waiting and len(batch) < MAX_BATCH:
            batch.append(self._waiting.popleft())
        return batch

    def _send(self, batch: list[_Pending]) -> None:
        """Hand ``batch`` to the writer's thread now, as one transaction (one trip)."""
        self._busy = True
        units = [pending.unit for pending in batch]
        told = [pending.sent for pending in batch if pending.sent is not None]
        committing = None
        if told:  # the thread tells the loop before its COMMIT, only when someone listens
            loop = asyncio.get_running_loop()
            committing = functools.partial(loop.call_soon_threadsafe, _tell, told)
        self._writer.send(
            functools.partial(_transaction, units=units, committing=committing),
            functools.partial(self._attempted, batch),
        )

    def _attempted(self, batch: list[_Pending], ok: bool, done: Any) -> None:
        """On the loop, once the writer's thread ran ``batch``: answer its callers, and send
        the next batch (the units that did not fail again, alone, else those waiting).

        A unit that failed is dropped and the rest run again; when the transaction
        itself failed, every unit is told so and nothing was written."""
        again: list[_Pending] = []
        if not ok:
            error = done if isinstance(done, Exception) else StoreClosed(self.path)
            for pending in batch:
                _settle(pending.future, False, error)
        elif done.failed is not None:
            index, error = done.failed
            _settle(batch[index].future, False, error)
            again = batch[:index] + batch[index + 1 :]
        else:
            self.batches += 1
            self.units += len(batch)
            for pending, result in zip(batch, done.results, strict=True):
                _settle(pending.future, True, result)
        del batch, done  # nothing of it is held while the writer waits for the next
        self._busy = False
        if again or self._waiting:
            self._send(again or self._next_batch())
        elif self._drained is not None and not self._drained.done():
            self._drained.set_result(None)


class _WriterThread:
    """One thread owning a plain ``sqlite3`` connection; each call is one trip.

    The connection is made on the thread and only ever used there (sqlite3's
    same-thread check stays on). A call is queued to the thread, which hands
    the result back with ``call_soon_threadsafe`` — the same hand-over as
    aiosqlite's own thread, through public APIs only.
    """

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[
            tuple[asyncio.AbstractEventLoop, Callable[[bool, Any], None], Callable[[], Any]] | None
        ] = queue.SimpleQueue()
        self._db: sqlite3.Connection | None = None
        self._thread = threading.Thread(
            target=self._serve, name="ziggurat-sqlite-writer", daemon=True
        )
        self._thread.start()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            self._answer(*call)
            del call  # nothing of the last batch is held while the thread waits

    @staticmethod
    def _answer(
        loop: asyncio.AbstractEventLoop,
        then: Callable[[bool, Any], None],
        fn: Callable[[], Any],
    ) -> None:
        try:
            outcome: tuple[bool, Any] = (True, fn())
        except BaseException as exc:
            outcome = (False, exc)
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
            loop.call_soon_threadsafe(then, *outcome)

    def send(
        self, fn: Callable[[sqlite3.Connection], Any], then: Callable[[bool, Any], None]
    ) -> None:
        """Run ``fn`` on the thread; ``then(ok, its result or error)`` on this loop after.

        The call is handed over here, synchronously: the thread starts on it while
        the caller goes on."""
        db = self._db
        loop = asyncio.get_running_loop()
        if db is None:
            loop.call_soon(then, False, StoreClosed())
            return
        self._calls.put((loop, then, functools.partial(fn, db)))

    async def _call(self, fn: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((loop, functools.partial(_settle, future), fn))
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
            db.row_factory = sqlite3.Row  # a plan reads rows by name, as from the reader
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


def _tell(told: Sequence[Callable[[], None]]) -> None:
    """Call each unit's ``sent`` (on the loop)."""
    for sent in told:
        sent()


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # cancelled, or already told
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _run_plan(plan: PlanFactory[T], db: sqlite3.Connection) -> T:
    """Step a plan on the writer's thread, inside the batch's transaction."""
    steps = plan()
    try:
        op = next(steps)
        while True:
            try:
                result = _execute(db, op)
            except sqlite3.IntegrityError as exc:
                if exc.sqlite_errorcode not in UNIQUE_VIOLATIONS:
                    raise
                op = steps.throw(duplicate(exc))
            else:
                op = steps.send(result)
    except StopIteration as done:
        value: T = done.value
        return value


def _execute(db: sqlite3.Connection, op: Op) -> Any:
    statement = SQLITE.compile(op.sql)
    if op.kind == "many":
        if op.params:
            db.executemany(statement.text, SQLITE.bind_many(statement, op.params))
        return None
    cursor = db.execute(statement.text, SQLITE.bind(statement, op.params))
    if op.kind == "run":
        return None
    return cursor.rowcount if op.kind == "count" else cursor.fetchall()


def _migrate(db: sqlite3.Connection) -> None:
    """Apply the migrations not yet applied, each in its own transaction."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    for number, migration in enumerate(MIGRATIONS, start=1):
        if number <= current:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(migration, SQLITE.name):
                db.execute(SQLITE.expand(statement))
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


def _transaction(
    db: sqlite3.Connection,
    *,
    units: Sequence[Unit[Any]],
    committing: Callable[[], Any] | None = None,
) -> _Attempt:
    """Run units in one transaction on the writer's own thread (see the module docstring);
    ``committing`` is called once they all ran, just before the ``COMMIT``."""
    db.execute("BEGIN IMMEDIATE")
    results: list[Any] = []
    try:
        for index, unit in enumerate(units):
            try:
                results.append(unit(db))
            except Exception as exc:
                db.execute("ROLLBACK")
                return _Attempt(results, (index, exc))
        if committing is not None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody listens
                committing()
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return _Attempt(results)
