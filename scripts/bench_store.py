"""The store under load on each backend: one move, and 100 moves at once, beside a bare commit.

Prints figures, each with a floor measured in the same run; asserts nothing.
Tigris & Euphrates games of two players through
:class:`~bot.service.GameService` with images off (what the store adds to a
move), on a SQLite file and on PostgreSQL, one after the other in one run:

* floor: a bare one-row ``INSERT`` committed on its own (SQLite: through
  aiosqlite, WAL, ``synchronous=FULL``; PostgreSQL: one asyncpg connection,
  the server's ``fsync`` and ``synchronous_commit`` on);
* one move, render off, with 1,000 games stored: p50/p99;
* a game's row decoded on the loop, µs a row, beside its state's JSON read alone;
* 100 simultaneous moves in 100 channels, render off: p50/p99 from the
  common start, and how many writes shared how many commits; floor: the
  same 100 moves one after another (their wall time, per move).

PostgreSQL is a throwaway server started by the script (the tests' server:
Debian's package, else the one the dev extra installs; here with ``fsync``
on), or the database at ``--postgres URL`` (it must be empty: the script
fills it with games).

Usage: ``python scripts/bench_store.py [--waves 5] [--backends sqlite,postgres]
[--postgres URL]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_floors import floor_commit, floor_commit_postgres
from bench_scale import create_games, one_after_another, pct, simultaneous, single_moves
from loops import add_loop_argument, run

from bot import plugins
from bot.event_loop import LoopName
from bot.service import GameService
from bot.store import Store, redact_url
from bot.store.base import decode_game
from bot.store.codec import loads
from bot.store.sql import SELECT_GAME
from tests.support.postgres import PostgresServer, find_bin


async def measure(location: str, floor: list[float], waves: int) -> list[str]:
    registry = plugins.load_builtin_games()
    store = await Store.open(location)
    lines = [
        f"floor: bare INSERT+COMMIT p50 {pct(floor, 0.5):.2f} ms, p99 {pct(floor, 0.99):.2f} ms"
    ]
    try:
        service = GameService(store, registry, render=False)
        await create_games(service, range(1, 1001))
        times = await single_moves(service, range(1, 1001), 300)
        lines.append(
            f"one move, no render, 1,000 games stored: p50 {pct(times, 0.5):.2f} ms "
            f"({pct(times, 0.5) / pct(floor, 0.5):.1f}x floor), p99 {pct(times, 0.99):.2f} ms"
        )
        lines.append(await decoded(store))
        rng = random.Random(1)
        channels = list(range(1, 101))
        batches = units = 0
        latencies: list[float] = []
        serial: list[float] = []
        for _ in range(waves):
            before = store.batches, store.units
            wave, _wall = await simultaneous(service, channels, rng)
            batches, units = batches + store.batches - before[0], units + store.units - before[1]
            latencies += wave
            serial.append(await one_after_another(service, channels, rng))
        lines.append(
            f"100 simultaneous moves, no render ({waves} waves): p50 {pct(latencies, 0.5):.1f} ms, "
            f"p99 {pct(latencies, 0.99):.1f} ms; {units} writes in {batches} commits;"
            " floor: the same moves one after another "
            f"{pct(serial, 0.5) * 10:.2f} ms a move (p50 / 100 serial moves' wall "
            f"{pct(latencies, 0.5) / (pct(serial, 0.5) * 1000):.2f})"
        )
    finally:
        await store.close()
    return lines


async def decoded(store: Any, games: int = 200, passes: int = 30) -> str:
    """A game's row decoded on the loop (:func:`~bot.store.base.decode_game`), µs a row,
    beside its floor, its state's JSON read alone (:func:`~bot.store.codec.loads`): the
    rows of ``games`` running games as the load reads them: the best of ``passes`` (a
    busy machine only slows a pass) and their median."""
    statement = store.dialect.compile(f"{SELECT_GAME} WHERE status = 'running' LIMIT {games}")
    rows = await store._fetch(statement, {})

    def timed(decode: Callable[[Any], object]) -> float:
        start = time.perf_counter()
        for row in rows:
            decode(row)
        return (time.perf_counter() - start) / len(rows) * 1e6

    whole, state = [], []
    for _ in range(passes):  # alternated, so a machine's drift reaches both alike
        whole.append(timed(decode_game))
        state.append(timed(lambda row: loads(row["state"])))
    return (
        f"a game's row decoded ({len(rows)} rows): best pass {min(whole):.1f} µs a row,"
        f" median {statistics.median(whole):.1f}; floor: its state's JSON read alone"
        f" {min(state):.1f}, {statistics.median(state):.1f} µs;"
        f" row / floor {min(whole) / min(state):.2f}"
    )


async def on_sqlite(waves: int) -> None:
    with tempfile.TemporaryDirectory() as name:
        floor = await floor_commit(Path(name))
        lines = await measure(str(Path(name) / "bench.db"), floor, waves)
    print("SQLite (WAL, synchronous=FULL):")
    print("\n".join(f"  {line}" for line in lines))


async def on_postgres(url: str, waves: int) -> None:
    floor = await floor_commit_postgres(url)
    lines = await measure(url, floor, waves)
    print(f"PostgreSQL ({redact_url(url)}, fsync on):")
    print("\n".join(f"  {line}" for line in lines))


def main(backends: list[str], waves: int, postgres: str | None, loop: LoopName) -> None:
    if "sqlite" in backends:
        run(on_sqlite(waves), loop)
    if "postgres" in backends:
        if postgres is not None:
            run(on_postgres(postgres, waves), loop)
            return
        bin_dir = find_bin()
        if bin_dir is None:
            raise SystemExit(
                'PostgreSQL is not installed: pip install -e ".[dev]" or apt-get install postgresql'
            )
        server = PostgresServer(bin_dir, durable=True)  # started outside any event loop
        server.start()
        try:
            run(on_postgres(server.url(server.create_database(migrated=False)), waves), loop)
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--waves", type=int, default=5)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--postgres", default=None, help="an empty database's URL")
    add_loop_argument(parser)
    args = parser.parse_args()
    main(args.backends.split(","), args.waves, args.postgres, args.loop)
