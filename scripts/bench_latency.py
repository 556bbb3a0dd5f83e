"""Benchmark interaction latency of the real bot against the fake Discord.

Usage: ``python scripts/bench_latency.py [--game tigris,tikal,temple] [--moves 200]
[--seed 1] [--db sqlite,postgres] [--fake thread] [--latency 0]``

Plays random legal moves with ``/play`` (through the e2e harness: the real
bot, a real database, the fake Discord on loopback) until ``--moves`` moves
were made, starting new games as needed; each game of ``--game`` on each
database of ``--db``: ``sqlite`` (a file in a temporary folder) or
``postgres`` (a throwaway server started once, ``fsync`` on, a fresh
database per game: :mod:`tests.support.postgres`, ``ZIGGURAT_PG_BIN=wheel``
for the pip-installed one). ``--fake thread`` (the default) runs the fake on its
own thread and event loop, so its handling of each request is not charged to the
bot's loop, as real Discord's is not; ``--fake loop`` runs it on the bot's loop,
as the runs before the ninth round did. ``--latency MS`` makes the fake answer each REST
request MS milliseconds late, as a round trip to Discord would (on loopback
requests sent one after another cost little more than sent at once). Every
move is checked to be stored; moves are told apart by what they produced: a
**hand-off** (a public message: the game waits for someone else, a round
resolved, the game ended) or a **step** (only the player is answered: a step
of a turn, a sealed submission). Each figure is printed with a floor measured in the same run:

* callback — from the fake sending INTERACTION_CREATE to receiving the bot's
  callback: what Discord's 3-second rule measures; an answer ready in time is
  that callback itself (the move committed and its reply drawn), else it is
  the "thinking" acknowledgement (``bot.discord.messages.answering``); floor:
  the same for ``/help`` (no game, no database write);
* fully answered, per kind — until the bot reported the interaction fully
  answered: the reply, the public message with the board image, and the
  DMs; floor: a bare commit on the same database (``bench_floors``) plus one board
  drawn on the drawing pool (the least either kind draws: a hand-off its
  board, with the changed private views at once beside it; a step its
  preview, the board or the seat's own view, with the zoom beside it); the
  hand-offs also by whether their player's DMs are open (Carol's are closed, as in
  the tests: her private view comes as an ephemeral follow-up, and after a game
  command that did not show it, it is drawn and shown again:
  ``bot.discord.interactions``);
* beside each hand-off, its own position's board drawn alone: again, after the
  run (the renderer's caches then hold what its first drawing drew), and as the
  hand-off drew it, first (fresh drawing processes, warmed up as the bot's, draw
  every move's board in the run's order and the hand-offs' are timed); the
  median of each hand-off's ratio to the commit plus either;
* the images each hand-off really drew, counted in the bot where it asks its drawing
  pool for them (:mod:`tests.e2e.images_drawn`): boards and private views, and the
  private images it sent (DMs, and the ephemeral messages of a closed DM's
  fallback, from the fake's records); the hand-offs' median count of private
  views is what the next two figures draw (before the eleventh round they drew
  every seat's view, which no hand-off of these games does: a Tigris hand-off
  draws the acting seat's refilled hand, a Temple Rush one none);
* the images of one hand-off of the game's last state (the board and that many
  private views), drawn one after another (sum) and at once (as the bot draws
  them): their ratio is what drawing them concurrently saves; floor: the board alone;
* the CPU time of those images, each drawn in this process
  (``time.process_time``, which a busy machine barely moves): the board's and
  the private views', and what the machine's cores allow at best for them at
  once (the longest image, or their sum over the cores). Where that is above
  the board alone, the hand-off's floor on this machine is that, not the board
  (also given with every seat's view, as the rounds before counted).

``scripts/handoff_timeline.py`` shows where one hand-off's time goes.

The bot is left idle for ``--settle`` seconds after it starts (6 by default),
as a bot serving for a while is: its drawing processes warm up meanwhile
(:mod:`bot.service.warm_drawing`, at most 5 s; on a busy machine it waits on until
they are idle), so the figures are those of warm processes; ``--settle 0``
measures from a cold start (the first images of each game in each process then
take 60–360 ms more).

Figures are medians unless said; the machine's load (``/proc/loadavg``) is
printed at the start and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_floors import floor_commit, floor_commit_postgres  # noqa: E402
from loops import add_loop_argument, run  # noqa: E402

from bot import heap  # noqa: E402
from bot.service import drawing  # noqa: E402
from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeUser  # noqa: E402
from tests.e2e.fake_thread import Remote, add_fake_argument, serving, where  # noqa: E402
from tests.e2e.images_drawn import counting_images, private_images_sent  # noqa: E402

#: rounds of the image measurement
IMAGE_ROUNDS = 15
#: /help calls for the callback floor
HELP_CALLS = 30


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def summary(label: str, values: list[float], floor: float | None = None) -> str:
    if not values:
        return f"{label}: none"
    median = statistics.median(values)
    text = (
        f"{label}: n={len(values)} median {median:.1f} ms, "
        f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms"
    )
    if floor is not None:
        text += f"; floor {floor:.1f} ms, median/floor {median / floor:.2f}"
    return text


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


async def new_game(h: BotHarness, game: str, players: list[FakeUser]) -> None:
    creator, *others = players
    await h.slash(creator, f"game new {game}")
    for user in others:
        await h.slash(user, "game join")
    await h.slash(creator, "game start")


async def handoff_images(
    h: BotHarness, count: int
) -> tuple[list[float], list[float], list[float], int]:
    """Board alone, sequential and concurrent times (ms) of the last game's hand-off
    images: its board and ``count`` private views (the first seats'), as many as a
    hand-off drew; and how many private views that is."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.state is not None
    game = h.running.service.ctx.loaded(row)
    ctx = h.running.service.ctx
    engine = game.engine
    views = (
        [engine.private_view(game.state, s.seat) for s in row.seats][:count]
        if engine.has_private_view and game.game_type.render_private is not None
        else []
    )
    board_alone: list[float] = []
    sequential: list[float] = []
    concurrent: list[float] = []
    for _ in range(IMAGE_ROUNDS):
        start = time.perf_counter()
        await ctx.board(game)
        board_alone.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await ctx.board(game)
        for seat, view in enumerate(views):
            await ctx.private_image(game, view, seat)
        sequential.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await asyncio.gather(
            ctx.board(game), *(ctx.private_image(game, v, s) for s, v in enumerate(views))
        )
        concurrent.append((time.perf_counter() - start) * 1000)
    return board_alone, sequential, concurrent, len(views)


async def own_boards_alone(h: BotHarness, rows: list[Any]) -> list[float]:
    """Each hand-off's own board (the position it showed) drawn again alone on the
    drawing pool, in ms, in the hand-offs' order: a second drawing of its position,
    with the renderer's caches holding what the first one drew (its new texts, a
    changed frame)."""
    ctx = h.running.service.ctx
    times = []
    for row in rows:
        game = ctx.loaded(row)
        start = time.perf_counter()
        await ctx.board(game)
        times.append((time.perf_counter() - start) * 1000)
    return times


def schedstat(pid: int) -> tuple[int, int]:
    """A process's (main thread's) time on a core and waiting for one so far, in ns."""
    with open(f"/proc/{pid}/schedstat") as stat:
        run, queued, _ = stat.read().split()
    return int(run), int(queued)


async def warmed(pids: list[int], limit: float = 60.0) -> None:
    """Wait until the processes ``pids`` are idle (their warm-up over: under 1 ms on a
    core in a quarter of a second), ``limit`` seconds at most: on a busy machine a
    warm-up of a few seconds of CPU outlasts the bot's idle ``--settle``."""
    before = [schedstat(pid)[0] for pid in pids]
    for _ in range(int(limit / 0.25)):
        await asyncio.sleep(0.25)
        now = [schedstat(pid)[0] for pid in pids]
        if all(b - a < 1_000_000 for a, b in zip(before, now, strict=True)):
            return
        before = now


async def settled(settle: float) -> None:
    """The bot idle ``settle`` seconds, and then until its drawing processes' warm-up is
    over (none of that for 0: a cold start)."""
    if settle > 0:
        await asyncio.sleep(settle)
        await warmed(drawing.POOL.pids())


async def own_boards_first(
    h: BotHarness, moves: list[tuple[Any, bool]], settle: float
) -> list[float]:
    """Each hand-off's own board drawn alone as the hand-off drew it, the first drawing
    of its position: fresh drawing processes (warmed up as the bot's: ``settle``
    seconds, and until their warm-up is over) draw the board after every move of the
    run in order, the steps' too (a
    step's preview came before its hand-off's board in the bot), and the hand-offs'
    (``moves``: each move's game row, and whether it was a hand-off) are timed, in ms."""
    ctx = h.running.service.ctx
    drawing.POOL.stop()
    h.running.service.start_drawing()
    await settled(settle)
    times = []
    for row, handed in moves:
        game = ctx.loaded(row)
        start = time.perf_counter()
        await ctx.board(game)
        if handed:
            times.append((time.perf_counter() - start) * 1000)
    return times


def cpu_ms(draw: Any, *args: Any) -> float:
    """The median CPU time (ms) of ``draw(*args)`` in this process, after one warm-up."""
    draw(*args)
    times = []
    for _ in range(IMAGE_ROUNDS):
        start = time.process_time()
        draw(*args)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


async def handoff_cpu(h: BotHarness) -> tuple[float, list[float]]:
    """CPU time (ms) of the last game's board and of each private view, drawn here."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.state is not None
    game = h.running.service.ctx.loaded(row)
    engine, game_type = game.engine, game.game_type
    labels = game.labels()
    board = cpu_ms(game_type.render_public, engine.public_view(game.state), labels, row.language)
    views = []
    if engine.has_private_view and game_type.render_private is not None:
        for s in row.seats:
            view = engine.private_view(game.state, s.seat)
            views.append(cpu_ms(game_type.render_private, view, labels[s.seat], row.language))
    return board, views


def fake_cpu(fake: Any) -> float:
    """The CPU time (s) of the fake's own thread so far; 0 when it runs on the bot's loop."""
    return fake.side.cpu() if isinstance(fake, Remote) else 0.0


async def bench(
    game: str,
    moves: int,
    seed: int,
    url: str | None = None,
    settle: float = 0.0,
    on_thread: bool = True,
) -> dict[str, Any]:
    """One game's figures on SQLite, or on the empty PostgreSQL database at ``url``."""
    rng = random.Random(seed)
    callback: list[float] = []
    handoff: list[float] = []
    handoff_rows: list[Any] = []
    every_move: list[tuple[Any, bool]] = []  # each move's game row, and whether it handed off
    handoff_use: list[tuple[float, float]] = []  # the loop's and the fake's CPU, ms
    handoff_drew: list[tuple[int, int, int]] = []  # boards, private views drawn, sent
    handoff_open: list[bool] = []  # whether the invoker's DMs are open
    step: list[float] = []
    games = 0
    async with serving(on_thread=on_thread) as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            if url is None:
                commit = await floor_commit(Path(tmp))
                h = BotHarness(fake, Path(tmp) / "bench.db")
            else:
                commit = await floor_commit_postgres(url)
                h = BotHarness(fake, url)  # type: ignore[arg-type]  # Store.open takes a URL
            await h.start()
            heap.settle()  # as the bot process does once ready (bot.discord.lifecycle)
            await settled(settle)
            try:
                players = [h.alice, h.bob, h.carol]
                helps = []
                for _ in range(HELP_CALLS):
                    itx = await h.slash(h.alice, "help")
                    if itx.latency is not None:
                        helps.append(itx.latency * 1000)
                with counting_images() as drawn:
                    while len(callback) < moves:
                        waiting = await h.waiting(players)
                        if not waiting:
                            await new_game(h, game, players)
                            games += 1
                            continue
                        user = rng.choice(waiting)
                        action = rng.choice(await h.legal(user))
                        assert h.store is not None
                        before = await h.store.latest_game_in(h.channel.id)
                        drawn.clear()
                        mark = len(fake.messages)
                        sent = time.monotonic()
                        loop_cpu, its_cpu = time.thread_time(), fake_cpu(fake)
                        itx = await h.slash(user, "play", action=action)
                        done = time.monotonic()
                        loop_cpu = (time.thread_time() - loop_cpu) * 1000
                        its_cpu = (fake_cpu(fake) - its_cpu) * 1000
                        after = await h.store.latest_game_in(h.channel.id)
                        played = before is not None and after is not None
                        if not played or after.last_seq <= before.last_seq or itx.latency is None:
                            raise RuntimeError(
                                f"{action!r} was not played: {h.ephemeral_text(itx)}"
                            )
                        callback.append(itx.latency * 1000)
                        every_move.append((after, bool(h.public_of(itx))))
                        if h.public_of(itx):
                            handoff.append((done - sent) * 1000)
                            handoff_rows.append(after)
                            handoff_open.append(user.dms_open)
                            handoff_use.append((loop_cpu, its_cpu))
                            shown = len(private_images_sent(fake, mark))
                            handoff_drew.append((drawn.boards, drawn.private, shown))
                        else:
                            step.append((done - sent) * 1000)
                own_boards = await own_boards_alone(h, handoff_rows)
                first_boards = await own_boards_first(h, every_move, settle)
                counted = statistics.median_low(p for _, p, _ in handoff_drew or [(0, 0, 0)])
                board, sequential, concurrent, views = await handoff_images(h, counted)
                cpu_board, cpu_views = await handoff_cpu(h)
            finally:
                await h.stop()
    return {
        "games": games,
        "callback": callback,
        "help": helps,
        "handoff": handoff,
        "handoff_open": handoff_open,
        "handoff_use": handoff_use,
        "handoff_drew": handoff_drew,
        "on_thread": on_thread,
        "own_boards": own_boards,
        "first_boards": first_boards,
        "step": step,
        "commit": commit,
        "board": board,
        "sequential": sequential,
        "concurrent": concurrent,
        "views": views,
        "cpu_board": cpu_board,
        "cpu_views": cpu_views,
    }


def at_once(board: float, views: list[float], cores: int, more: float = 0.0) -> tuple[float, float]:
    """The CPU of a board, its private ``views`` and ``more`` (ms) together, and the least
    they take at once on ``cores``: no image faster than alone, no less than the sum spread
    over the cores."""
    total = board + sum(views) + more
    return total, max([board, *views, total / cores])


def report(game: str, db: str, r: dict[str, Any]) -> None:
    commit = statistics.median(r["commit"])
    concurrent = statistics.median(r["concurrent"])
    sequential = statistics.median(r["sequential"])
    board = statistics.median(r["board"])
    print(
        f"{game} on {db}: {len(r['callback'])} moves over {r['games']} game(s), 3 players; "
        f"{where(r['on_thread'])}"
    )
    print(f"floor: bare INSERT+COMMIT median {commit:.2f} ms")
    helped = statistics.median(r["help"])
    print(summary("interaction -> callback (the first response)", r["callback"], helped))
    print(summary("hand-off -> fully answered", r["handoff"], commit + board))
    opened = [took for took, dms in zip(r["handoff"], r["handoff_open"], strict=True) if dms]
    closed = [took for took, dms in zip(r["handoff"], r["handoff_open"], strict=True) if not dms]
    if opened and closed:
        print(
            f"  by players whose DMs are open: n={len(opened)} median "
            f"{statistics.median(opened):.1f} ms; closed (Carol: her private view follows "
            f"ephemerally): n={len(closed)} median {statistics.median(closed):.1f} ms"
        )
    own = r["own_boards"]
    if own:
        ratios = [took / (commit + alone) for took, alone in zip(r["handoff"], own, strict=True)]
        print(
            f"  beside its own board's floor: each hand-off's own position drawn again alone "
            f"median {statistics.median(own):.1f} ms (the floor's board above {board:.1f} ms); "
            f"floor {commit + statistics.median(own):.1f} ms, median of each hand-off's "
            f"ratio {statistics.median(ratios):.2f}"
        )
    first = r["first_boards"]
    if first:
        ratios = [took / (commit + alone) for took, alone in zip(r["handoff"], first, strict=True)]
        print(
            f"  beside its own board drawn first: each hand-off's position drawn alone as the "
            f"hand-off drew it (fresh processes, every move's board in order) median "
            f"{statistics.median(first):.1f} ms; floor {commit + statistics.median(first):.1f} "
            f"ms, median of each hand-off's ratio {statistics.median(ratios):.2f}"
        )
    if r["handoff_use"]:
        loop_cpu = statistics.median(c for c, _ in r["handoff_use"])
        fake_cpu = statistics.median(c for _, c in r["handoff_use"])
        print(
            f"  CPU of a hand-off (time.thread_time): the bot's loop {loop_cpu:.1f} ms"
            + (
                f", the fake's thread {fake_cpu:.1f} ms (not the loop's)"
                if r["on_thread"]
                else " (the fake's handling of its requests included)"
            )
        )
    print(summary("step (no public message) -> fully answered", r["step"], commit + board))
    drew = r["handoff_drew"]
    if drew:
        print(
            f"images each hand-off drew (counted in the bot): boards "
            f"{tally(b for b, _, _ in drew)}; private views {tally(p for _, p, _ in drew)}; "
            f"private images sent (DMs, closed DMs' ephemeral messages) "
            f"{tally(s for _, _, s in drew)}"
        )
    print(
        f"images of one hand-off (board + {r['views']} private views, as many as a hand-off "
        f"drew): one after another {sequential:.1f} ms, at once {concurrent:.1f} ms (at "
        f"once/one after another {concurrent / sequential:.2f}); floor: the board alone "
        f"{board:.1f} ms (at once/board {concurrent / board:.2f})",
        flush=True,
    )
    cpu_board, cpu_views = r["cpu_board"], r["cpu_views"]
    cores = drawing.RENDER_WORKERS
    each = statistics.median(cpu_views) if cpu_views else 0.0
    drawn = [each] * r["views"]
    total, best = at_once(cpu_board, drawn, cores)
    print(
        f"CPU of those images: board {cpu_board:.1f} ms + {len(drawn)} private views "
        f"{sum(drawn):.1f} ms ({each:.1f} ms each) = {total:.1f} ms; at once on {cores} cores "
        f"at best {best:.1f} ms (÷ board {best / cpu_board:.2f})",
        flush=True,
    )
    if r["handoff_use"]:
        loop_cpu = statistics.median(c for c, _ in r["handoff_use"])
        fake_cpu = statistics.median(c for _, c in r["handoff_use"])
        whole, least = at_once(cpu_board, drawn, cores, loop_cpu + fake_cpu)
        print(
            f"  with a hand-off's CPU on the bot's loop ({loop_cpu:.1f} ms) and the fake's "
            f"({fake_cpu:.1f} ms), all on these {cores} cores: {whole:.1f} ms, at best "
            f"{least:.1f} ms at once (÷ board {least / cpu_board:.2f}): the least a hand-off "
            f"takes here after its commit",
            flush=True,
        )
        if len(cpu_views) != len(drawn):
            every, most = at_once(cpu_board, cpu_views, cores, loop_cpu + fake_cpu)
            print(
                f"  the same with every seat's private view ({len(cpu_views)}), as the rounds "
                f"before counted: {every:.1f} ms, at best {most:.1f} ms at once (÷ board "
                f"{most / cpu_board:.2f})",
                flush=True,
            )


def tally(counts: Any) -> str:
    """``counts`` as their median and how often each occurred: "median 1 (0 ×1, 1 ×22)"."""
    values = list(counts)
    often = sorted(Counter(values).items())
    return (
        f"median {statistics.median_low(values)} ("
        + ", ".join(f"{value} ×{times}" for value, times in often)
        + ")"
    )


def with_latency(seconds: float) -> None:
    """Each REST request to the fake Discord is answered ``seconds`` late (the gateway
    is not delayed)."""
    handle = FakeDiscord._handle

    async def late(self: FakeDiscord, request: Any) -> Any:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            await asyncio.sleep(seconds)
        return await handle(self, request)

    FakeDiscord._handle = late  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tigris", help="comma-separated: tigris,tikal,temple")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="sqlite", help="comma-separated: sqlite,postgres")
    parser.add_argument(
        "--settle", type=float, default=6.0, help="seconds the bot idles after it starts"
    )
    add_fake_argument(parser)
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="milliseconds the fake Discord waits before answering each REST request",
    )
    add_loop_argument(parser)
    args = parser.parse_args()
    on_thread = args.fake == "thread"
    logging.basicConfig(level=logging.ERROR)
    if args.latency > 0:
        with_latency(args.latency / 1000)
    games = args.game.split(",")
    for game in games:
        if game not in ("tigris", "tikal", "temple", "oracle"):
            parser.error(f"unknown game {game!r}")
    print(f"load average at start: {load()} ({drawing.RENDER_WORKERS} drawing processes)")
    if args.latency > 0:
        print(f"each REST request answered {args.latency:g} ms late (a round trip to Discord)")
    for db in args.db.split(","):
        if db == "sqlite":
            for game in games:
                report(
                    game,
                    db,
                    run(
                        bench(game, args.moves, args.seed, None, args.settle, on_thread), args.loop
                    ),
                )
            continue
        if db != "postgres":
            parser.error(f"unknown database {db!r}")
        from tests.support.postgres import benchmark_server

        with benchmark_server() as server:  # before any event loop
            for game in games:
                url = server.url(server.create_database(migrated=False))
                report(
                    game,
                    db,
                    run(bench(game, args.moves, args.seed, url, args.settle, on_thread), args.loop),
                )
    print(f"load average at end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
