"""Floors the benchmarks print beside their figures, measured in the same run."""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store import PRAGMAS


async def floor_commit(folder: Path, count: int = 300) -> list[float]:
    """Milliseconds of a bare ``BEGIN IMMEDIATE; INSERT; COMMIT`` through aiosqlite with the
    store's pragmas (WAL, ``synchronous=FULL``), ``count`` times, in a file in ``folder``."""
    db = await aiosqlite.connect(folder / "floor.db", isolation_level=None)
    try:
        for pragma in PRAGMAS:
            await db.execute(pragma)
        await db.execute("CREATE TABLE IF NOT EXISTS t (x TEXT)")
        times = []
        payload = "x" * 2000
        for _ in range(count):
            start = time.perf_counter()
            await db.execute("BEGIN IMMEDIATE")
            await db.execute("INSERT INTO t VALUES (?)", (payload,))
            await db.execute("COMMIT")
            times.append((time.perf_counter() - start) * 1000)
        return times
    finally:
        await db.close()


async def floor_commit_postgres(url: str, count: int = 300) -> list[float]:
    """Milliseconds of a bare one-row ``INSERT`` committed on its own through asyncpg (the
    PostgreSQL backend's driver) at ``url``, ``count`` times: the same floor as
    :func:`floor_commit` for the server database. A plain table, dropped after: a
    temporary one writes no WAL, so its commit would flush nothing."""
    asyncpg: Any = importlib.import_module("asyncpg")  # only needed for a PostgreSQL run
    db = await asyncpg.connect(url)
    try:
        await db.execute("CREATE TABLE bench_floor (x TEXT)")
        payload = "x" * 2000
        times = []
        for _ in range(count):
            start = time.perf_counter()
            await db.execute("INSERT INTO bench_floor VALUES ($1)", payload)
            times.append((time.perf_counter() - start) * 1000)
        await db.execute("DROP TABLE bench_floor")
        return times
    finally:
        await db.close()


async def floor_read(folder: Path, count: int = 300) -> list[float]:
    """Milliseconds of a bare one-row read by primary key through aiosqlite (one
    connection, the store's pragmas), ``count`` times, in a file in ``folder``."""
    db = await aiosqlite.connect(folder / "floor-read.db", isolation_level=None)
    try:
        for pragma in PRAGMAS:
            await db.execute(pragma)
        await db.execute("CREATE TABLE IF NOT EXISTS r (id INTEGER PRIMARY KEY, x TEXT)")
        await db.execute("INSERT OR REPLACE INTO r VALUES (1, ?)", ("x" * 2000,))
        times = []
        for _ in range(count):
            start = time.perf_counter()
            async with db.execute("SELECT x FROM r WHERE id = ?", (1,)) as cursor:
                await cursor.fetchall()
            times.append((time.perf_counter() - start) * 1000)
        return times
    finally:
        await db.close()


async def floor_read_postgres(url: str, count: int = 300) -> list[float]:
    """Milliseconds of a bare one-row read by primary key through asyncpg on one
    connection (no pool), ``count`` times: a read's round trip and nothing else."""
    asyncpg: Any = importlib.import_module("asyncpg")
    db = await asyncpg.connect(url)
    try:
        await db.execute("CREATE TABLE bench_read (id INTEGER PRIMARY KEY, x TEXT)")
        await db.execute("INSERT INTO bench_read VALUES (1, $1)", "x" * 2000)
        times = []
        for _ in range(count):
            start = time.perf_counter()
            await db.fetch("SELECT x FROM bench_read WHERE id = $1", 1)
            times.append((time.perf_counter() - start) * 1000)
        await db.execute("DROP TABLE bench_read")
        return times
    finally:
        await db.close()
