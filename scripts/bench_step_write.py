"""A step's write on PostgreSQL: a script of literals against one statement, beside a bare commit.

Prints figures, each with its floor measured in the same run; asserts nothing.
A Tigris & Euphrates step of a game in mid-play (its state, one move, the
reminder moved, no deadline) is committed through the store again and again,
``--rounds`` times ``--steps`` commits each way, the two ways alternated
(:attr:`~bot.store.postgres.PostgresStore.one_statement` off: the script of
literals; on: one statement, its values bound): the wall time of a commit and
the event loop's CPU for it (``time.thread_time``), p50. Floor: a bare
one-row ``INSERT`` committed on its own (``bench_floors.floor_commit_postgres``).

PostgreSQL is a throwaway server started by the script (the tests' server,
``fsync`` on), as in ``bench_scale.py``.

Usage: ``python scripts/bench_step_write.py [--rounds 6] [--steps 150]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_floors import floor_commit_postgres
from bench_scale import database, load, mid_game
from loops import add_loop_argument, run

from bot import plugins
from bot.store import NewMove, StepWrite, Store
from bot.store.postgres import PostgresStore
from tests.support.stored import started_game

WAYS = {"the script of literals": False, "one statement, values bound": True}


async def measure(url: str, rounds: int, steps: int) -> None:
    registry = plugins.load_builtin_games()
    game_type = registry["tigris"]
    state = game_type.engine.dump_state(mid_game(game_type))
    store = await Store.open(url)
    assert isinstance(store, PostgresStore)
    figures: dict[str, tuple[list[float], list[float]]] = {way: ([], []) for way in WAYS}
    try:
        game = await started_game(store, "tigris", state, order=(10, 11))
        events = [["tigris.event.tile", {"seat": 0, "square": "F5"}]]
        for _ in range(rounds):
            for way, bound in WAYS.items():
                store.one_statement = bound
                walls, cpus = figures[way]
                for _ in range(steps):
                    step = StepWrite(
                        state=state,
                        status="running",
                        moves=[NewMove(0, "tile r F5", events=events)],
                        deadlines={},
                        reminder=time.time() + 86400,
                    )
                    wall, cpu = time.perf_counter(), time.thread_time()
                    await store.commit_step(game, step)
                    walls.append((time.perf_counter() - wall) * 1000)
                    cpus.append((time.thread_time() - cpu) * 1000)
                    game = await store.get_game(game.id)
    finally:
        await store.close()
    floor = statistics.median(await floor_commit_postgres(url))
    print(f"floor: bare INSERT+COMMIT through asyncpg: p50 {floor:.3f} ms ({load()})")
    for way, (walls, cpus) in figures.items():
        wall = statistics.median(walls)
        print(
            f"a step's commit, {way}: wall p50 {wall:.3f} ms ({wall / floor:.1f}x the floor),"
            f" the loop's CPU p50 {statistics.median(cpus):.3f} ms; {len(walls)} commits"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=150)
    add_loop_argument(parser)
    args = parser.parse_args()
    with database("postgres") as url:
        run(measure(url, args.rounds, args.steps), args.loop)


if __name__ == "__main__":
    main()
