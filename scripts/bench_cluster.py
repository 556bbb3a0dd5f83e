"""A shard cluster under load: one bot process running both shards, then two processes
of one shard each, on one PostgreSQL database.

Prints figures, each beside its floor measured in the same run; asserts
nothing (timings belong in benchmarks, not tests). The world and the
processes are the end-to-end test's (``tests/e2e/test_bot_cluster.py``): the
production ``serve`` in real subprocesses, against the fake Discord on
loopback, a guild on each of 2 shards with 50 channels each, an Oracle game
(the test game: sealed cards, small real PNGs from its test renderer) in
every channel. The database is a
throwaway PostgreSQL server with ``fsync`` on (:mod:`tests.support.postgres`,
``durable=True``), a fresh database per layout.

For each layout (1 process: ``ZIGGURAT_SHARDS=2``, every shard; 2 processes:
``ZIGGURAT_SHARD_IDS=0-0`` and ``1-1``; and, for reference, 1 process on a
SQLite file, the embedded default):

* floor: ``/help`` sent in all 100 channels at once (the same gateway, the
  same responder and REST answer, no database): p50/p99 of each answer's
  time from the common start, and answers/s;
* 200 sealed plays in the 100 channels at once (each a version-checked
  commit on PostgreSQL, answered with the player's card): the same figures;
* 100 round winners' decisions (``/play claim``) at once: the same.

Each wave also prints the REST requests the fake Discord received per interaction
(every answer's whole work, until quiet), in all and by route: counts, which a busy
machine changes little (only in which of a burst's tallies wait their turn).

Each run starts afresh (fake Discord, database, processes); ``--rounds``
runs of each layout, alternating; p50/p99 over all runs' answers, answers/s
the median of the runs.

Each layout also prints its plays' and decisions' rates as a fraction of its
``/help`` rate (a sealed play's goal: a third of ``/help``'s), and the CPU the
bot processes' event loops (their main threads, ``/proc/<pid>/task/<pid>/schedstat``)
ran per interaction in each wave, all of its work until the fake is quiet: the
floor's beside a play's is the rate ratio a machine whose one loop is the limit
would give, and, unlike a rate, a busy machine changes it little.

Usage: ``nice python scripts/bench_cluster.py [--rounds 2] [--layouts '1 process']``. The machine's
cores are shared by both layouts' processes, the fake Discord and the
server, so the two-process figures show what splitting costs or gains on
*this* machine; on several machines each process has its own cores.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import os
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loops import add_loop_argument, loop_env, run

from bot.store import GameRow
from tests.conftest import register_oracle
from tests.e2e.fake_discord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RequestRecord,
)
from tests.e2e.test_bot_cluster import (
    TOTAL,
    WAIT,
    Cluster,
    awaited,
    complete,
    read_games,
    send_plays,
    set_up_games,
)
from tests.support.postgres import PostgresServer, benchmark_server

#: each layout's processes (ZIGGURAT_SHARD_IDS, None: every shard; the shards it runs)
LAYOUTS: dict[str, list[tuple[str | None, list[int]]]] = {
    "1 process (shards 0-1), PostgreSQL": [(None, list(range(TOTAL)))],
    "2 processes (0-0, 1-1), PostgreSQL": [(f"{n}-{n}", [n]) for n in range(TOTAL)],
    "1 process (shards 0-1), SQLite": [(None, list(range(TOTAL)))],
}


@dataclass
class Wave:
    """One wave: each answer's time (ms) from the common start, answers per second, the
    bot's event loops' CPU per interaction (ms), and the REST requests per interaction
    by route (:func:`route`)."""

    times: list[float]
    rate: float
    cpu: float
    routes: Counter[str]

    @property
    def requests(self) -> float:
        return sum(self.routes.values()) / len(self.times)


def route(request: RequestRecord, fake: FakeDiscord) -> str:
    """A request's method and the kind of its path (ids left out), "!" after a refused one."""
    path = request.path
    if "/interactions/" in path:
        kind = "callback"
    elif "/webhooks/" in path:
        kind = "follow-up"
    elif path.endswith("/users/@me/channels"):
        kind = "DM channel"
    elif path.endswith("/messages") and any(
        path.endswith(f"/channels/{c.id}/messages") for c in fake.channels.values() if c.is_dm
    ):
        kind = "DM"
    else:
        kind = "message"
    return f"{request.method} {kind}{'!' if request.status >= 400 else ''}"


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(fake: FakeDiscord, sent: Sequence[InteractionResult], start: float) -> list[float]:
    """Milliseconds from ``start`` until each interaction's answer is complete."""
    loop = asyncio.get_running_loop()

    async def one(itx: InteractionResult) -> float:
        await fake.wait_for(lambda: complete(itx), timeout=WAIT, what=itx.label)
        return (loop.time() - start) * 1000

    return list(await asyncio.gather(*(one(itx) for itx in sent)))


def loop_cpu(world: Cluster) -> float:
    """Seconds of CPU the bot processes' event loops (their main threads) have run, from
    ``/proc/<pid>/task/<pid>/schedstat`` (nanoseconds); NaN where that cannot be read."""
    total = 0
    for member in world.members.values():
        pid = member.process.pid
        try:
            total += int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return math.nan
    return total / 1e9


async def wave(
    fake: FakeDiscord,
    send: Callable[[], Awaitable[Sequence[InteractionResult]]],
    cpu: Callable[[], float],
) -> Wave:
    """Each answer's time (ms) from the common start, answers per second, the bot's
    event loops' CPU per interaction (ms, every answer's whole work, until quiet), and
    the REST requests the fake Discord received per interaction (until quiet)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    began = cpu()
    asked = len(fake.requests)
    sent = await send()
    times = await timed(fake, sent, start)
    await fake.wait_quiet(0.3, timeout=WAIT)
    routes = Counter(route(r, fake) for r in fake.requests[asked:])
    return Wave(
        times, len(times) / (max(times) / 1000), (cpu() - began) * 1000 / len(times), routes
    )


def line(name: str, times: list[float], rate: float, cpu: float, requests: float) -> str:
    return (
        f"  {name:<34} n={len(times):>3}  p50 {statistics.median(times):7.0f} ms"
        f"  p99 {pct(times, 0.99):7.0f} ms  {rate:6.1f}/s  loop CPU {cpu:5.2f} ms each"
        f"  REST {requests:4.2f} each"
    )


def by_route(routes: Counter[str], answers: int) -> str:
    return ", ".join(f"{kind} {n / answers:.2f}" for kind, n in routes.most_common())


async def run_layout(server: PostgresServer, folder: Path, name: str) -> dict[str, Wave]:
    """One run of a layout: fresh fake Discord, database and processes; the three waves."""
    fake = FakeDiscord()
    await fake.start()
    here = Path(tempfile.mkdtemp(dir=folder))
    sqlite = name.endswith("SQLite")
    database = "" if sqlite else server.create_database()
    world = Cluster(fake, here, str(here / "bench.db") if sqlite else server.url(database))
    world.build()
    results: dict[str, Wave] = {}
    try:
        for key, (ids, shards) in enumerate(LAYOUTS[name]):
            await world.launch(key, ids, shards)
        await set_up_games(world)
        await fake.wait_quiet(0.5, timeout=WAIT)
        cpu = functools.partial(loop_cpu, world)
        results["floor"] = await wave(
            fake,
            lambda: asyncio.gather(*(fake.slash(u, c, "help") for u, c in pairs(world))),
            cpu,
        )
        rows = await read_games(world.db, world.channels)
        results["plays"] = await wave(fake, lambda: plays(world, rows), cpu)
        rows = await read_games(world.db, world.channels)
        by_id = {u.id: u for u in world.users}
        deciders = [(by_id[awaited(rows[c.id])[0]], c) for c in world.channels]
        results["claims"] = await wave(
            fake,
            lambda: asyncio.gather(
                *(fake.slash(u, c, "play", action="claim") for u, c in deciders)
            ),
            cpu,
        )
    finally:
        await world.stop()
        await fake.stop()
        if database:
            server.drop_database(database)
    return results


def pairs(world: Cluster) -> list[tuple[FakeUser, FakeChannel]]:
    return [(world.players(i)[0], c) for i, c in enumerate(world.channels)]


async def plays(world: Cluster, rows: dict[int, GameRow]) -> list[InteractionResult]:
    return [itx for *_, itx in await send_plays(world, rows)]


async def measure(server: PostgresServer, rounds: int) -> None:
    register_oracle()
    runs: dict[str, list[dict[str, Wave]]] = {name: [] for name in LAYOUTS}
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as folder:
        for round_no in range(1, rounds + 1):  # the layouts alternate: both meet the same load
            for name in LAYOUTS:
                run = await run_layout(server, Path(folder), name)
                runs[name].append(run)
                print(f"{name}, round {round_no}:", flush=True)
                for key in ("floor", "plays", "claims"):
                    w = run[key]
                    print(line(key, w.times, w.rate, w.cpu, w.requests), flush=True)
    print()
    for name in LAYOUTS:
        print(f"{name}: {rounds} runs, 100 channels on 2 shards")
        rates: dict[str, float] = {}
        cpus: dict[str, float] = {}
        for label, key in (
            ("floor: /help in 100 channels", "floor"),
            ("200 sealed plays at once", "plays"),
            ("100 decisions at once", "claims"),
        ):
            times = [t for run in runs[name] for t in run[key].times]
            rate = rates[key] = statistics.median(run[key].rate for run in runs[name])
            cpus[key] = statistics.median(run[key].cpu for run in runs[name])
            requests = statistics.median(run[key].requests for run in runs[name])
            print(line(label, times, rate, cpus[key], requests))
            routes = sum((run[key].routes for run in runs[name]), Counter[str]())
            print(f"    REST by route, each: {by_route(routes, len(times))}")
        print(
            f"  rate / the floor's rate: sealed plays {rates['plays'] / rates['floor']:.2f},"
            f" decisions {rates['claims'] / rates['floor']:.2f} (goal for a sealed play: 0.33)",
            flush=True,
        )
        print(
            f"  the floor's loop CPU / theirs (the rate ratio a loop-bound quiet machine"
            f" would give): sealed plays {cpus['floor'] / cpus['plays']:.2f},"
            f" decisions {cpus['floor'] / cpus['claims']:.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--layouts",
        default="",
        help="run only the layouts whose name holds one of these comma-separated words"
        " (e.g. '1 process'; default: all)",
    )
    add_loop_argument(parser)
    args = parser.parse_args()
    os.environ.update(loop_env(args.loop))  # the bot processes' loop too
    wanted = [w.strip() for w in args.layouts.split(",") if w.strip()]
    for name in list(LAYOUTS):
        if wanted and not any(w in name for w in wanted):
            del LAYOUTS[name]
    if not LAYOUTS:
        parser.error(f"no layout matches {args.layouts!r}")
    with benchmark_server() as server:  # before the event loop
        run(measure(server, args.rounds), args.loop)


if __name__ == "__main__":
    main()
