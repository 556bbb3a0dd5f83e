"""The SQLite executor of the store: one file, one writer thread with group commit.

The statements and units of work are :mod:`bot.store.sql`'s, spelled by
:data:`~bot.store.dialect.SQLITE`; this module opens and migrates the file,
runs reads, and runs writes through its one writer.

Decisions:

* **One writer, group commit.** Every write is a *unit* (a function of the
  writer's ``sqlite3`` connection; the store's own units are plans stepped by
  :func:`_run_plan`) handed to one writer task, which owns the only
  connection that writes. The task takes every unit waiting, runs them in
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SqliteStore(SqlStore):
    """One SQLite file. Open with :meth:`open`; all methods are coroutines, and each
    public method's contract is its docstring in :class:`~bot.store.base.Store`."""

    dialect = SQLITE

    def __init__(self, writer: _WriterThread, reader: aiosqlite.Connection, path: str):
        super().__init__(path)
        self._writer = writer
        self._reader = reader
        self._queue: asyncio.Queue[_Pending] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

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

    # -- what the statements need -------------------------------------------------------

    async def _fetch(self, statement: Compiled, params: Mapping[str, Any]) -> list[Any]:
        """Rows of one read, in one trip to the reader's thread."""
        if self._closed:
            raise StoreClosed(self.path)
        bound = SQLITE.bind(statement, params)
        return list(await self._reader.execute_fetchall(statement.text, bound))

    async def _perform(self, plan: PlanFactory[T]) -> T:
        return await self.write(functools.partial(_run_plan, plan))

    # -- the writer ---------------------------------------------------------------------

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
                del batch  # nothing of it is held while the task waits for the next

    async def _run_batch(self, batch: list[_Pending]) -> None:
        """Commit the batch; a unit that fails is dropped and the rest run again."""
        remaining = list(batch)
        while remaining:
            failed = await self._attempt(remaining)
            if failed is None:
                return
            index, error = failed
            _settle(remaining.pop(index).future, False, error)

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
                error = exc if isinstance(exc, Exception) else StoreClosed()
                _settle(pending.future, False, error)
            if not isinstance(exc, Exception):
                raise
            return None
        if done.failed is not None:
            return done.failed
        self.batches += 1
        self.units += len(batch)
        for pending, result in zip(batch, done.results, strict=True):
            _settle(pending.future, True, result)
        return None


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
            self._answer(*call)
            del call  # nothing of the last batch is held while the thread waits

    @staticmethod
    def _answer(
        loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], fn: Callable[[], Any]
    ) -> None:
        try:
            outcome: tuple[bool, Any] = (True, fn())
        except BaseException as exc:
            outcome = (False, exc)
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
            loop.call_soon_threadsafe(_settle, future, *outcome)

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
