"""Memory of the kept games (:mod:`bot.store.kept`): RSS after a move in each of more and
more games, with the default bound and with nothing kept (the floor), in one run.

Tigris games of two players on a SQLite file, moved through the service as
``bench_scale.py`` moves them (100 at once); RSS after a full collection once 256, 512,
1,024, 2,048 and ``--games`` games have each had a move. Beyond the bound the kept rows
are replaced, not added: the figure must stay flat from there. Asserts nothing.

Usage: ``python scripts/bench_kept.py [--games 3000] [--size 512]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scale

from bot.service import GameService
from bot.store.kept import DEFAULT_KEPT_GAMES


async def run(size: int, total: int) -> None:
    registry = bench_scale.registry_here()
    with tempfile.TemporaryDirectory() as name:
        store = await bench_scale.open_store("sqlite", Path(name))
        try:
            store.keep_games(size)
            service = GameService(store, registry, render=False)
            await bench_scale.create_games(service, range(1, total + 1))
            rng = random.Random(1)
            done = 0
            for upto in sorted({n for n in (256, 512, 1024, 2048) if n < total} | {total}):
                for first in range(done + 1, upto + 1, bench_scale.BATCH):
                    batch = list(range(first, min(first + bench_scale.BATCH, upto + 1)))
                    await bench_scale.simultaneous(service, batch, rng)
                done = upto
                gc.collect()
                print(
                    f"kept at most {size}: a move in each of {upto:,} games: RSS "
                    f"{bench_scale.rss_mb():.1f} MB ({len(getattr(store, 'kept', ())):,} kept; "
                    f"{bench_scale.load()})",
                    flush=True,
                )
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--size", type=int, default=DEFAULT_KEPT_GAMES)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        asyncio.run(run(args.size, args.games))
        return
    for size in (args.size, 0):  # each in a process of its own: no run's memory in the next
        command = [sys.executable, __file__, "--one", "--games", str(args.games)]
        subprocess.run([*command, "--size", str(size)], check=True)


if __name__ == "__main__":
    main()
