"""The frame under load: latency, simultaneous channels, rendering throughput, memory.

Prints figures, each with a floor measured in the same run; asserts nothing
(timings belong in benchmarks, not tests). Tigris & Euphrates games of two
players on a real database, through :class:`~bot.service.GameService`
exactly as the Discord adapter drives it. Everything ``docs/scaling.md``
shows comes from one run; the machine's load (``/proc/loadavg``, as
``uptime`` shows it) is printed with each part, since a shared machine
moves the absolute figures: compare the ratios to their same-run floors.

* floor: a bare ``BEGIN IMMEDIATE; INSERT; COMMIT`` with the store's
  pragmas (:func:`bench_floors.floor_commit`); and the bare PNG encode of one
  board;
* each built-in game's board (a mid-game position of 2 players, random legal
  play from a fixed seed) drawn whole, beside its floor: the bare PNG encode
  of the same image (medians of interleaved runs, one thread; the goal is a
  render within twice its encode);
* one move through the service, render off, p50/p99, with 1,000 (or ``--games``
  when fewer) and then ``--games`` games stored;
* one move in each of :data:`KEPT_CHANNELS` games in turn with no read before it
  (planned from the game kept in memory, :mod:`bot.store.kept`), each game's last
  write its own previous step; then the same with nothing kept (every load a read):
  p50/p99, the share of loads answered from memory, and where the time goes. The
  single moves above are each planned by reading the game first (as a player's
  picker taps read it), which keeps it: their loads come from memory too;
* 100 simultaneous moves in 100 channels, render off: p50/p99 of each
  move's latency from the common start, all committed; floor: the same 100
  moves one after another (their wall time; the ratio of the two walls is
  what concurrency gains);
* the same with the images drawn (board and changed private views):
  throughput in moves/s and as a ratio of what the cores allow
  (cores ÷ one move's drawing time on one thread); where the cores' time
  went meanwhile (the drawing processes, the bot's process, the database
  server's processes, the machine's other processes, idle: ``/proc``), and the bot's own
  process's CPU a move (all its threads; floor: the same moves without
  images): one process's share, which bounds the throughput once the cores
  draw fast enough. Both over the waves alone, from each wave's start to its
  last answer: a wave's moves are planned before it starts (each channel's
  legal actions read through the service, the bench's own work, which left
  a core idle while the loop planned);
* memory: RSS once the ``--games`` games are stored, and after a move in each
  of them; then the allocation sites that still hold memory after
  ``TRACED_MOVES`` more moves (:mod:`tracemalloc`: what a move leaves behind,
  biggest first, each named by its innermost frame in the project); the
  drawing processes with all three games' renderers loaded and each game
  drawn in each (RSS, and PSS: shared pages split between their users, and
  the CPU of one full collection in each, with the objects it walked and
  those frozen out of it), and the fork server; floor: a bare Python process
  with Pillow imported; then the same of drawing processes started again as
  the bot starts them (warmed up for at most
  :data:`~bot.service.warm_drawing.WARM_SECONDS`), read 3 s after that.

The drawing floors (a board's and a private view's drawing time, the bare
encode, each game's board beside its encode) are measured in a measuring
process of their own (:func:`measuring`): the bot never draws in its own
process (its drawing processes do), and the renderers' caches, fonts and
Pillow's buffers (about 60 MB with all three games drawn) would otherwise be
counted as the bot's memory.

The database (``--db``, a comma-separated list): ``sqlite`` (default: a file
in a temporary folder), a SQLite file path, ``postgres`` (a throwaway
PostgreSQL server the script starts and stops, with ``fsync`` on: Debian's
``postgresql`` package, as the tests use it, :mod:`tests.support.postgres`),
or the ``postgresql://`` URL of an empty database. Each is passed as it is
to ``Store.open`` (the store's opener chooses the backend), with a bare
commit through its driver as the floor (:mod:`bench_floors`);
:func:`open_store` and :func:`floor` are the only places that know the
backend. With several, each runs in a process of its own, one after the
other (so that no run's memory, games or drawing processes count in the
next), prints its lines as it goes, and at the end every figure is printed
side by side, one column per database, as a Markdown table.

Usage: ``python scripts/bench_scale.py [--games 10000] [--waves 5]
[--db sqlite,postgres]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import io
import json
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_floors import floor_commit, floor_commit_postgres, floor_read, floor_read_postgres
from loops import add_loop_argument, run

from bot import heap, plugins
from bot.games.base import PlayerLabel, RuleError
from bot.service import GameService, Player, drawing
from bot.service.warm_drawing import WARM_SECONDS
from bot.store import Store, is_postgres, redact_url
from bot.store.kept import DEFAULT_KEPT_GAMES
from renderer.common import encode_png

PLAYERS = (Player(1, "Ishtar"), Player(2, "Gilgamesh"))
BATCH = 100
#: the games stored for the first single moves (fewer when ``--games`` is less)
FIRST_GAMES = 1000
#: the fewest games a run needs: its waves use the channels up to 210
MIN_GAMES = 210
#: every figure printed in this run, by what it measures (for the side-by-side table)
FIGURES: dict[str, str] = {}
#: the line with which a run in a child process hands its figures to the comparing run
FIGURES_LINE = "figures as JSON: "
#: the moves traced for the allocation sites a move leaves behind (tracemalloc slows
#: a move twentyfold with its frames, so a sample, not the whole pass)
TRACED_MOVES = 500
#: the frames kept of each traced allocation (enough to reach the project's own code)
TRACED_FRAMES = 8
#: the allocation sites printed
TOP_SITES = 6
ROOT = Path(__file__).resolve().parents[1]
LABELS = [PlayerLabel(0, "Ishtar", "#f1a208"), PlayerLabel(1, "Gilgamesh", "#9b59b6")]


STARTED = time.monotonic()


def say(what: str, figures: str) -> None:
    """Print one figure line (with the seconds since the start), and keep it for the
    side-by-side table."""
    FIGURES[what] = figures
    print(f"{what}: {figures} [{time.monotonic() - STARTED:.0f} s]", flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pss_mb(pid: int | str = "self") -> float:
    """Proportional set size: the process's private pages plus its share of shared ones."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load() -> str:
    """The 1-minute load average, as ``uptime`` prints it."""
    return "load " + open("/proc/loadavg").read().split(" ")[0]


def is_url(db: str) -> bool:
    """Whether ``--db`` names a server database (PostgreSQL) rather than a SQLite file."""
    return is_postgres(db)


def floor_name(db: str) -> str:
    """Through what :func:`floor` commits on ``db``, for the printed line."""
    if is_url(db):
        return "through asyncpg"
    return "through aiosqlite (WAL, synchronous=FULL)"


async def open_store(db: str, folder: Path) -> Store:
    """The store the benchmark runs on (see the module docstring for ``--db``)."""
    if is_url(db):
        return await Store.open(db)  # the opener chooses the backend from the URL
    path = folder / "bench.db" if db == "sqlite" else Path(db)
    return await Store.open(path)


async def floor(db: str, folder: Path) -> list[float]:
    """Milliseconds of a bare commit on the benchmark's database (see :func:`open_store`)."""
    if is_url(db):
        return await floor_commit_postgres(db)
    return await floor_commit(folder)


async def floor_reads(db: str, folder: Path) -> list[float]:
    """Milliseconds of a bare one-row read on ``db`` (on one connection, no pool)."""
    if is_url(db):
        return await floor_read_postgres(db)
    return await floor_read(folder)


#: clock ticks a second, the unit of /proc's CPU times
TICKS = os.sysconf("SC_CLK_TCK")


def ticks_of(pid: int) -> int:
    """Clock ticks of CPU process ``pid`` used so far (all its threads); 0 once gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime


def tree_of(root: int) -> list[int]:
    """``root`` and every process descended from it (the database server's backends)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sorted(tree)


def machine_busy() -> float:
    """Seconds of CPU the whole machine's cores were busy so far (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        fields = [int(f) for f in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / TICKS


async def server_pid(db: str) -> int | None:
    """The PostgreSQL server's main process on this machine (None for SQLite)."""
    if not is_url(db):
        return None
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        data = await conn.fetchval("SHOW data_directory")
    finally:
        await conn.close()
    try:
        return int((Path(data) / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class Cores:
    """Where the machine's cores went over the waves (each from its start to its last
    answer; the moves' planning between them left out, as the bench's own work): the
    drawing processes, the bot's own process (all its threads), the database server
    (its main process and backends), everything else on the machine, and idle."""

    def __init__(self, server: int | None) -> None:
        self.server = server
        self.used: dict[str, float] = {}
        self.start: dict[str, float] | None = None

    def sample(self) -> dict[str, float]:
        server = 0 if self.server is None else sum(map(ticks_of, tree_of(self.server)))
        return {
            "drawing": sum(map(ticks_of, drawing.worker_pids())) / TICKS,
            "the bot": process_cpu(),
            "the database server": server / TICKS,
            "machine": machine_busy(),
            "wall": time.perf_counter(),
        }

    def begin(self) -> None:
        self.start = self.sample()

    def end(self) -> None:
        assert self.start is not None
        end = self.sample()
        for key, value in end.items():
            self.used[key] = self.used.get(key, 0.0) + value - self.start[key]
        self.start = None

    def line(self, moves: int, cores: int) -> str:
        """Each part's ms a move and its share of the cores' time over the waves."""
        used = dict(self.used)
        capacity = cores * used.pop("wall")
        machine = used.pop("machine")
        used["other processes"] = max(0.0, machine - sum(used.values()))
        used["idle"] = max(0.0, capacity - machine)
        return f"{capacity / moves * 1000:.2f} ms of {cores} cores a move: " + ", ".join(
            f"{what} {seconds / moves * 1000:.2f} ms ({seconds / capacity:.0%})"
            for what, seconds in used.items()
        )


def process_cpu() -> float:
    """Seconds of CPU this process used so far, all its threads (its children not)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def random_play(engine: Any, state: Any, seed: int = 7, steps: int = 60) -> Iterator[None]:
    """``steps`` random legal steps of 2-player ``state`` (fewer where it ends), chosen from
    ``seed``: the state changed in place, a turn of the iterator after each."""
    rng = random.Random(seed)
    for _ in range(steps):
        waiting = sorted(engine.waiting_for(state))
        if not waiting or engine.result(state) is not None:
            return
        seat = rng.choice(waiting)
        legal = engine.legal_actions(state, seat)
        if not legal:
            return
        with contextlib.suppress(RuleError):
            engine.apply(state, seat, rng.choice(legal))
        yield


def mid_game(game_type: Any, seed: int = 7, steps: int = 60) -> Any:
    """A 2-player state after ``steps`` random legal steps from a fixed seed."""
    state = game_type.engine.new_game(2, {}, seed)
    for _ in random_play(game_type.engine, state, seed, steps):
        pass
    return state


def board_ratios() -> list[tuple[str, str]]:
    """Each game's board drawn whole beside the bare encode of the same image (run in
    the measuring process: :func:`measuring`); the figure lines to print."""
    registry = registry_here()
    lines = []
    for name in ("tigris", "tikal", "temple"):
        game_type = registry[name]
        view = game_type.engine.public_view(mid_game(game_type))
        image = Image.open(io.BytesIO(game_type.render_public(view, LABELS)))
        image.load()
        renders, encodes = [], []
        for _ in range(15):
            start = time.perf_counter()
            game_type.render_public(view, LABELS)
            renders.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            encode_png(image)
            encodes.append((time.perf_counter() - start) * 1000)
        render, encode = statistics.median(renders), statistics.median(encodes)
        lines.append(
            (
                f"{name} board drawn whole",
                f"{render:.1f} ms; floor: its bare PNG encode {encode:.1f} ms "
                f"({image.width}x{image.height}); render/encode {render / encode:.2f} ({load()})",
            )
        )
    return lines


#: the built-in games of this process (:func:`registry_here`)
_REGISTRY: dict[str, Any] = {}


def registry_here() -> dict[str, Any]:
    """The built-in games, loaded once in this process (the measuring process too)."""
    if not _REGISTRY:
        _REGISTRY.update(plugins.load_builtin_games())
    return _REGISTRY


def measuring() -> ProcessPoolExecutor:
    """A process of its own for the drawing floors (see the module docstring)."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


async def measured(pool: ProcessPoolExecutor, work: Any, *args: Any) -> Any:
    """``work(*args)`` in the measuring process."""
    return await asyncio.get_running_loop().run_in_executor(pool, work, *args)


def bare_python_mb() -> float:
    """RSS of a bare Python process that imported Pillow's drawing modules (a floor)."""
    code = (
        "import PIL.Image, PIL.ImageDraw, PIL.ImageFont\n"
        "for line in open('/proc/self/status'):\n"
        "    if line.startswith('VmRSS:'): print(int(line.split()[1]) / 1024)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def forkserver_pid() -> int | None:
    """The fork server the drawing processes come from (None if not started)."""
    from multiprocessing import forkserver

    pid: int | None = getattr(forkserver._forkserver, "_forkserver_pid", None)
    return pid


def heap_here(_: int) -> tuple[int, float, int, int]:
    """Run in a drawing process: its pid, the CPU of one full collection there (ms), the
    objects it walked, and the objects frozen (kept out of every collection)."""
    time.sleep(0.05)  # so that each idle process takes one of the jobs sent at once
    walked = len(gc.get_objects())
    started = time.thread_time()
    gc.collect()
    return os.getpid(), (time.thread_time() - started) * 1000, walked, gc.get_freeze_count()


async def drawing_processes() -> str:
    """Each drawing process's memory (RSS / PSS) and a full collection's CPU there."""
    asked = [drawing.POOL.run(heap_here, i) for i in range(drawing.RENDER_WORKERS)]
    heaps = {
        pid: (ms, walked, frozen) for (pid, ms, walked, frozen), _ in await asyncio.gather(*asked)
    }
    parts = []
    for pid in drawing.worker_pids():
        ms, walked, frozen = heaps.get(pid, (float("nan"), 0, 0))
        parts.append(
            f"{rss_mb(pid):.0f} MB RSS / {pss_mb(pid):.0f} MB PSS, a full collection "
            f"{ms:.1f} ms of CPU walking {walked:,} objects ({frozen:,} frozen)"
        )
    return "; ".join(parts)


async def every_game_drawn(service: GameService, registry: dict[str, Any]) -> list[str]:
    """Open a game of each built-in game and draw its board on every drawing process."""
    drawn = []
    for offset, name in enumerate(sorted(registry)):
        channel = 900_000 + offset
        await service.lobby.new_game(
            guild_id=1, channel_id=channel, user=PLAYERS[0], game_type_name=name, seed=offset
        )
        await service.lobby.join(channel, PLAYERS[1])
        await service.lobby.start(channel, PLAYERS[0])
        row = await service.store.latest_game_in(channel)
        assert row is not None
        game = service.ctx.loaded(row)
        for _ in range(3):  # at once, so that every process draws one
            await asyncio.gather(
                *(service.ctx.board(game) for _ in range(2 * drawing.RENDER_WORKERS))
            )
        drawn.append(name)
    return drawn


async def create_games(service: GameService, channels: range) -> None:
    for start in range(channels.start, channels.stop, BATCH):
        batch = range(start, min(start + BATCH, channels.stop))
        await asyncio.gather(
            *(
                service.lobby.new_game(
                    guild_id=1, channel_id=c, user=PLAYERS[0], game_type_name="tigris", seed=c
                )
                for c in batch
            )
        )
        await asyncio.gather(*(service.lobby.join(c, PLAYERS[1]) for c in batch))
        await asyncio.gather(*(service.lobby.start(c, PLAYERS[0]) for c in batch))


async def next_move(service: GameService, channel: int, rng: random.Random) -> tuple[Player, str]:
    """The awaited player of a channel's game and a random legal action of theirs."""
    row = await service.store.latest_game_in(channel)
    assert row is not None
    engine = service.registry[row.game_type].engine
    (seat,) = engine.waiting_for(engine.load_state(row.state))
    player = next(p for p in PLAYERS if p.id == row.seats[seat].user_id)
    return player, str(rng.choice(await service.reading.legal_actions(channel, player)))


class Split:
    """Where single moves' time goes: while set on a store, each of its reads
    (``_fetch``: a round trip and its decoding) and writes (a step's
    ``start_step`` until committed, any other plan's ``_perform``) adds its wall
    time to the move under way, and the loop thread's CPU time is taken over the
    whole move (the engine's thread not counted)."""

    def __init__(self, store: Store) -> None:
        self.store: Any = store
        self.reads: list[float] = []
        self.writes: list[float] = []
        self.cpu: list[float] = []
        self.statements: list[int] = []
        self._read = self._write = 0.0
        self._count = 0
        self._stepping = False
        fetch, perform, start_step = store._fetch, store._perform, store.start_step  # type: ignore[attr-defined]

        async def timed_fetch(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await fetch(*args, **kwargs)
            finally:
                self._read += time.perf_counter() - start
                self._count += 1

        async def timed(work: Any) -> Any:
            start = time.perf_counter()
            try:
                return await work
            finally:
                self._write += time.perf_counter() - start
                self._count += 1

        def timed_perform(*args: Any, **kwargs: Any) -> Any:
            work = perform(*args, **kwargs)
            return work if self._stepping else timed(work)  # a step is timed whole

        def timed_step(*args: Any, **kwargs: Any) -> Any:
            self._stepping = True
            try:
                return asyncio.ensure_future(timed(start_step(*args, **kwargs)))
            finally:
                self._stepping = False

        self.store._fetch, self.store._perform = timed_fetch, timed_perform
        self.store.start_step = timed_step

    def close(self) -> None:
        del self.store._fetch, self.store._perform, self.store.start_step  # the class's own

    @contextlib.contextmanager
    def move(self) -> Iterator[None]:
        self._read = self._write = 0.0
        self._count = 0
        cpu = time.thread_time()
        yield
        self.cpu.append((time.thread_time() - cpu) * 1000)
        self.reads.append(self._read * 1000)
        self.writes.append(self._write * 1000)
        self.statements.append(self._count)

    def line(self, times: list[float], commit: float, read: float) -> str:
        """The split's medians beside the same run's bare commit and bare read."""
        cpu, reads, writes = (pct(v, 0.5) for v in (self.cpu, self.reads, self.writes))
        return (
            f"a move p50 {pct(times, 0.5):.2f} ms: the loop's CPU {cpu:.2f} ms; reads "
            f"{reads:.2f} ms, the write {writes:.2f} ms ({pct(self.statements, 0.5)} store "
            f"calls); floors: bare commit {commit:.2f} ms, bare read {read:.2f} ms; "
            f"the loop's CPU alone / bare commit {cpu / commit:.1f}"
        )


async def single_moves(
    service: GameService, channels: range, count: int, split: Split | None = None
) -> list[float]:
    rng = random.Random(len(channels))
    times = []
    for channel in rng.sample(list(channels), count):
        player, action = await next_move(service, channel, rng)
        start = time.perf_counter()
        with split.move() if split is not None else contextlib.nullcontext():
            await service.play.act(channel, player, action)
        times.append((time.perf_counter() - start) * 1000)
    return times


#: games whose moves follow one another with no read (each kept by its previous step)
KEPT_CHANNELS = 100


async def kept_moves(
    service: GameService, channels: range, count: int, split: Split | None = None
) -> tuple[list[float], float]:
    """Moves in games whose last write was their own previous step, with no read before
    them (each planned from the game kept in memory, :mod:`bot.store.kept`, by the engine
    alone: the bench's own work, not timed); the latencies and the share of the moves
    whose load was answered from memory (with nothing kept, every move reads its game)."""
    rng = random.Random(len(channels))
    store: Any = service.store
    for channel in channels:  # each game's last write its own step
        await service.play.act(channel, *await next_move(service, channel, rng))
    hits, misses = store.kept.hits, store.kept.misses
    times = []
    for index in range(count):
        channel = channels[index % len(channels)]
        row = store.kept.peek(channel)
        if row is None:  # nothing kept: planned from a read, as next_move plans
            player, action = await next_move(service, channel, rng)
        else:
            engine = service.registry[row.game_type].engine
            state = engine.load_state(row.state)
            (seat,) = engine.waiting_for(state)
            player = next(p for p in PLAYERS if p.id == row.seats[seat].user_id)
            action = str(rng.choice(engine.legal_actions(state, seat)))
        start = time.perf_counter()
        with split.move() if split is not None else contextlib.nullcontext():
            await service.play.act(channel, player, action)
        times.append((time.perf_counter() - start) * 1000)
    hit = store.kept.hits - hits
    return times, hit / max(1, hit + store.kept.misses - misses)


async def planned(
    service: GameService, channels: list[int], rng: random.Random
) -> list[tuple[Player, str]]:
    """A wave's moves: each channel's awaited player and a random legal action."""
    return [await next_move(service, c, rng) for c in channels]


async def simultaneous(
    service: GameService,
    channels: list[int],
    rng: random.Random,
    moves: list[tuple[Player, str]] | None = None,
) -> tuple[list[float], float]:
    """One wave: a move in each channel (``moves``, else planned now), all started at
    once; latencies and wall time."""
    moves = moves if moves is not None else await planned(service, channels, rng)
    latencies: list[float] = []

    async def one(channel: int, player: Player, action: str, start: float) -> None:
        await service.play.act(channel, player, action)
        latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(one(c, p, a, start) for c, (p, a) in zip(channels, moves, strict=True)))
    return latencies, time.perf_counter() - start


def render_times(name: str, stored: Any) -> tuple[float, float, float]:
    """Seconds to draw one board and one private view of the game whose stored state is
    ``stored`` (medians, one thread), and milliseconds of the bare PNG encode of that
    board (median); run in the measuring process (:func:`measuring`)."""
    game_type = registry_here()[name]
    engine = game_type.engine
    state = engine.load_state(stored)
    view = engine.public_view(state)
    boards, privates = [], []
    for _ in range(20):
        start = time.perf_counter()
        game_type.render_public(view, LABELS)
        boards.append(time.perf_counter() - start)
        start = time.perf_counter()
        game_type.render_private(engine.private_view(state, 0), LABELS[0])
        privates.append(time.perf_counter() - start)
    image = Image.open(io.BytesIO(game_type.render_public(view, LABELS)))
    image.load()
    encodes = []
    for _ in range(20):
        start = time.perf_counter()
        encode_png(image)
        encodes.append((time.perf_counter() - start) * 1000)
    return statistics.median(boards), statistics.median(privates), statistics.median(encodes)


def mean_render_times(name: str, states: list[Any]) -> tuple[float, float]:
    """Mean seconds to draw the board and a private view of each stored state; run in
    the measuring process (:func:`measuring`)."""
    game_type = registry_here()[name]
    engine = game_type.engine
    boards, privates = [], []
    for stored in states:
        state = engine.load_state(stored)
        start = time.perf_counter()
        game_type.render_public(engine.public_view(state), LABELS)
        boards.append(time.perf_counter() - start)
        start = time.perf_counter()
        game_type.render_private(engine.private_view(state, 0), LABELS[0])
        privates.append(time.perf_counter() - start)
    return statistics.mean(boards), statistics.mean(privates)


async def stored_states(store: Store, channels: range) -> list[Any]:
    """The stored states of these channels' games."""
    states = []
    for channel in channels:
        row = await store.latest_game_in(channel)
        assert row is not None
        states.append(row.state)
    return states


class Counted:
    """Counts the images the service draws (boards and private views) while active."""

    def __init__(self, game_type: Any) -> None:
        self.game_type = game_type
        self.boards = 0
        self.privates = 0
        self.original = drawing.drawn

    async def drawn(self, render: Any, *args: Any) -> bytes:
        public = self.game_type.render_public
        if render is public or (
            render is getattr(drawing, "public_board", None) and args[0] is public
        ):
            self.boards += 1
        else:
            self.privates += 1
        image: bytes = await self.original(render, *args)
        return image

    def __enter__(self) -> Counted:
        drawing.drawn = self.drawn
        return self

    def __exit__(self, *exc: object) -> None:
        drawing.drawn = self.original


async def stored_moves(store: Store, channels: list[int]) -> int:
    """How many moves the games of these channels have stored."""
    total = 0
    for channel in channels:
        row = await store.latest_game_in(channel)
        assert row is not None
        total += len(await store.moves(row.id))
    return total


async def one_after_another(service: GameService, channels: list[int], rng: random.Random) -> float:
    """The same as one wave of :func:`simultaneous`, each move waiting for the one
    before: the wall time (s)."""
    planned = [await next_move(service, c, rng) for c in channels]
    start = time.perf_counter()
    for channel, (player, action) in zip(channels, planned, strict=True):
        await service.play.act(channel, player, action)
    return time.perf_counter() - start


def project_site(traceback: tracemalloc.Traceback) -> str:
    """Where an allocation was made: its innermost frame in the project's own code (not
    the standard library's or an installed package's), else its innermost frame."""
    frames = list(traceback)  # oldest first
    ours = [
        f for f in frames if f.filename.startswith(str(ROOT)) and "site-packages" not in f.filename
    ]
    frame = (ours or frames)[-1]
    filename = frame.filename
    if filename.startswith(str(ROOT)):
        filename = filename[len(str(ROOT)) + 1 :]
    return f"{filename}:{frame.lineno}"


async def held_sites(service: GameService, channels: list[int], rng: random.Random) -> str:
    """What a move in each of ``channels`` leaves held: the allocation sites (by
    :func:`project_site`) whose memory is still allocated after the moves, biggest
    first, and their total (:mod:`tracemalloc`, ``TRACED_FRAMES`` frames)."""
    gc.collect()
    tracemalloc.start(TRACED_FRAMES)
    try:
        before = tracemalloc.take_snapshot()
        for first in range(0, len(channels), BATCH):
            await simultaneous(service, channels[first : first + BATCH], rng)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    sizes: dict[str, list[int]] = {}
    for stat in after.compare_to(before, "traceback"):
        site = sizes.setdefault(project_site(stat.traceback), [0, 0])
        site[0] += stat.size_diff
        site[1] += stat.count_diff
    total = sum(size for size, _ in sizes.values())
    top = sorted(sizes.items(), key=lambda item: -item[1][0])[:TOP_SITES]
    shown = "; ".join(
        f"{site} {size / 1024:+.0f} KiB ({count:+d} blocks)" for site, (size, count) in top
    )
    return f"{total / 1024:+.0f} KiB in all ({total / len(channels):+.0f} B a move): {shown}"


async def main(total: int, waves: int, db: str) -> None:
    registry = registry_here()
    game_type = registry["tigris"]
    cores = os.cpu_count() or 1
    shown = redact_url(db) if is_url(db) else db
    print(f"database: {shown}; {cores} cores; {load()} at start", flush=True)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        commits = await floor(db, folder)
        say(
            "floor: bare INSERT+COMMIT",
            f"{floor_name(db)}: p50 "
            f"{pct(commits, 0.5):.2f} ms, p99 {pct(commits, 0.99):.2f} ms ({load()})",
        )
        store = await open_store(db, folder)
        try:
            service = GameService(store, registry, render=False)
            heap.settle()  # the started process's heap frozen, as the bot's is (bot.heap)
            first = min(FIRST_GAMES, total)
            await create_games(service, range(1, first + 1))
            kept: Any = store  # the counts of its kept games (bot.store.kept)
            hits, misses = kept.kept.hits, kept.kept.misses
            split = Split(store)
            try:
                times = await single_moves(service, range(1, first + 1), 300, split)
            finally:
                split.close()
            hits, misses = kept.kept.hits - hits, kept.kept.misses - misses
            alone = pct(times, 0.5)
            commits = await floor(db, folder)  # again: a floor from the same minute
            reads = await floor_reads(db, folder)
            say(
                f"one move, no render, {first:,} games stored",
                f"p50 {alone:.2f} ms, "
                f"p99 {pct(times, 0.99):.2f} ms; floor: bare commit p50 "
                f"{pct(commits, 0.5):.2f} ms, p50/floor {alone / pct(commits, 0.5):.1f} ({load()})",
            )
            say(
                "where a move's time goes",
                split.line(times, pct(commits, 0.5), pct(reads, 0.5))
                + f"; loads from memory {hits / max(1, hits + misses):.0%} (next_move's read"
                " of the game before each move keeps it)",
            )
            kept_channels = range(1, KEPT_CHANNELS + 1)
            for size in (DEFAULT_KEPT_GAMES, 0):  # kept, then nothing kept
                store.keep_games(size)
                split = Split(store)
                try:
                    times, hit_rate = await kept_moves(service, kept_channels, 300, split)
                finally:
                    split.close()
                commits = await floor(db, folder)
                say(
                    f"one move with no read before it, {KEPT_CHANNELS} games in turn "
                    + ("(each kept by its previous step)" if size else "(nothing kept)"),
                    f"p50 {pct(times, 0.5):.2f} ms, p99 {pct(times, 0.99):.2f} ms, loads "
                    f"from memory {hit_rate:.0%}; floor: bare commit p50 "
                    f"{pct(commits, 0.5):.2f} ms, p50/floor "
                    f"{pct(times, 0.5) / pct(commits, 0.5):.1f} ({load()}); "
                    + split.line(times, pct(commits, 0.5), pct(reads, 0.5)),
                )
            store.keep_games(DEFAULT_KEPT_GAMES)
            rng = random.Random(1)
            channels = list(range(1, 101))
            all_latencies: list[float] = []
            wave_walls: list[float] = []
            serial_walls: list[float] = []
            committed = 0
            for _ in range(waves):
                before = await stored_moves(store, channels)
                latencies, wall = await simultaneous(service, channels, rng)
                committed += await stored_moves(store, channels) - before
                all_latencies += latencies
                wave_walls.append(wall)
                serial_walls.append(await one_after_another(service, channels, rng))
            wave_wall = statistics.median(wave_walls) * 1000
            serial_wall = statistics.median(serial_walls) * 1000
            say(
                f"100 simultaneous moves in 100 channels, no render ({waves} waves)",
                f"p50 {pct(all_latencies, 0.5):.1f} ms, p99 {pct(all_latencies, 0.99):.1f} ms, "
                f"wall {wave_wall:.0f} ms; {len(all_latencies)} answered, {committed} moves "
                f"stored by them; {store.units} writes in {store.batches} commits so far",
            )
            say(
                "floor: the same 100 moves one after another",
                f"wall {serial_wall:.0f} ms "
                f"({serial_wall / 100:.2f} ms a move); simultaneous/one after another "
                f"{wave_wall / serial_wall:.2f} ({load()})",
            )
            service.render = True
            row = await store.latest_game_in(1)
            assert row is not None
            pool = measuring()  # the drawing floors: not in the bot's own process
            board_s, private_s, encode = await measured(pool, render_times, "tigris", row.state)
            say(
                "floor: bare PNG encode of one board",
                f"{encode:.1f} ms "
                f"(the whole board: {board_s * 1000:.1f} ms; a private view: "
                f"{private_s * 1000:.1f} ms)",
            )
            for what, figures in await measured(pool, board_ratios):
                say(what, figures)
            # the bot's own CPU a move without images (the floor), and with them below:
            # over the waves alone, the moves' planning (the bench's own) left out
            service.render = False
            bare_cpu = 0.0
            wave = list(range(101, 201))
            for _ in range(waves):
                plan = await planned(service, wave, rng)
                bare_cpu -= process_cpu()
                await simultaneous(service, wave, rng, plan)
                bare_cpu += process_cpu()
            bare_cpu = bare_cpu / (100 * waves) * 1000
            service.render = True
            service.start_drawing()  # the fork server preloads every game's renderers
            await simultaneous(service, list(range(201, 211)), rng)  # the drawing pool is up
            walls = []
            rendered: list[float] = []
            cpu = 0.0
            planning = 0.0
            where = Cores(await server_pid(db))
            with Counted(game_type) as counted:
                for _ in range(waves):
                    planning -= time.perf_counter()
                    plan = await planned(service, wave, rng)
                    planning += time.perf_counter()
                    where.begin()
                    cpu -= process_cpu()
                    latencies, wall = await simultaneous(service, wave, rng, plan)
                    cpu += process_cpu()
                    where.end()
                    walls.append(wall)
                    rendered += latencies
            moves = 100 * waves
            went = where.line(moves, cores)
            cpu = cpu / moves * 1000
            throughput = moves / sum(walls)
            # what drawing those games' images costs one thread, measured on their
            # own states now (boards grow with the game)
            states = await stored_states(store, range(101, 201))
            board_s, private_s = await measured(pool, mean_render_times, "tigris", states)
            pool.shutdown()
            unit = (counted.boards * board_s + counted.privates * private_s) / moves
            allowed = cores / unit
            say(
                "100 simultaneous moves with images",
                f"{throughput:.0f} moves/s "
                f"(p50 {pct(rendered, 0.5):.0f} ms, p99 {pct(rendered, 0.99):.0f} ms); "
                f"a move drew {counted.boards / moves:.2f} boards and "
                f"{counted.privates / moves:.2f} private views, {unit * 1000:.1f} ms of drawing, "
                f"so {cores} cores allow {allowed:.0f} moves/s: ratio {throughput / allowed:.0%} "
                f"({load()})",
            )
            say(
                "where the cores went in those waves",
                f"{went}; left out: each wave's planning, {planning / waves * 1000:.0f} ms of "
                f"the loop ({load()})",
            )
            say(
                "the bot's process CPU a move with images (all its threads)",
                f"{cpu:.2f} ms, so one process allows {1000 / cpu:.0f} moves/s; floor: the same "
                f"moves without images {bare_cpu:.2f} ms ({load()})",
            )
            service.render = False
            await create_games(service, range(first + 1, total + 1))
            gc.collect()
            stored_rss = rss_mb()
            times = await single_moves(service, range(1, total + 1), 300)
            commits = await floor(db, folder)
            say(
                f"one move, no render, {total:,} games stored",
                f"p50 {pct(times, 0.5):.2f} ms, "
                f"p99 {pct(times, 0.99):.2f} ms; floor: bare commit p50 "
                f"{pct(commits, 0.5):.2f} ms, p50/floor {pct(times, 0.5) / pct(commits, 0.5):.1f} "
                f"({load()})",
            )
            start = time.perf_counter()
            for first in range(1, total + 1, BATCH):
                batch = list(range(first, min(first + BATCH, total + 1)))
                await simultaneous(service, batch, rng)
            touched = time.perf_counter() - start
            gc.collect()
            bare = bare_python_mb()
            say(
                f"RSS after a move in each of {total:,} games",
                f"{rss_mb():.0f} MB "
                f"({stored_rss:.0f} MB with them stored, before; {touched:.0f} s to touch "
                f"them all; {len(service.ctx.locks)} channel locks held); floor: a bare "
                f"Python with Pillow {bare:.0f} MB",
            )
            traced = list(range(1, min(total, TRACED_MOVES) + 1))
            say(
                f"held after {len(traced)} more moves (tracemalloc, top sites)",
                await held_sites(service, traced, rng),
            )
            service.render = True
            games = await every_game_drawn(service, registry)
            workers = await drawing_processes()
            server = forkserver_pid()
            served = (
                f"{rss_mb(server):.0f} MB RSS / {pss_mb(server):.0f} MB PSS"
                if server is not None
                else "not running"
            )
            say(
                f"drawing processes with {', '.join(games)} drawn in each",
                f"{workers}; "
                f"fork server (the renderers preloaded): {served}; floor: a bare Python with "
                f"Pillow {bare:.0f} MB RSS ({load()})",
            )
            # the drawing processes as the bot starts them: warmed up, then idle
            running = drawing.POOL._running
            if running is not None:
                running.close()
            drawing.POOL._running = None
            service.start_drawing()
            await asyncio.sleep(WARM_SECONDS + 3)
            say(
                f"drawing processes as the bot starts them, {WARM_SECONDS + 3:g} s on",
                f"{await drawing_processes()}; warmed up for at most {WARM_SECONDS:g} s ({load()})",
            )
        finally:
            await store.close()


@contextlib.contextmanager
def database(db: str) -> Iterator[str]:
    """Where a ``--db`` item runs: ``postgres`` starts a throwaway server (stopped after)
    and gives an empty database's URL; anything else is used as it is."""
    if db != "postgres":
        yield db
        return
    from tests.support.postgres import benchmark_server

    with benchmark_server() as server:
        yield server.url(server.create_database(migrated=False))


def compare(dbs: list[str], total: int, waves: int, loop: str) -> None:
    """Run each database in a child process, one after the other, passing its lines
    through; then print every figure side by side."""
    columns: list[tuple[str, dict[str, str]]] = []
    for db in dbs:
        with database(db) as location:
            command = [
                sys.executable,
                __file__,
                "--games",
                str(total),
                "--waves",
                str(waves),
                "--loop",
                loop,
            ]
            child = subprocess.Popen(
                [*command, "--db", location, "--hand-over"], stdout=subprocess.PIPE, text=True
            )
            assert child.stdout is not None
            figures: dict[str, str] = {}
            for text in child.stdout:
                if text.startswith(FIGURES_LINE):
                    figures = json.loads(text[len(FIGURES_LINE) :])
                else:
                    print(text, end="", flush=True)
            if child.wait() != 0:
                raise SystemExit(f"the run on {db} failed")
        columns.append(("PostgreSQL" if db == "postgres" or is_url(db) else "SQLite", figures))
    print()
    print("| figure | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for what in columns[0][1]:
        cells = [figures.get(what, "").replace("|", "/") for _, figures in columns]
        print(f"| {what} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--waves", type=int, default=5)
    parser.add_argument(
        "--db",
        default="sqlite",
        help="comma-separated: sqlite, a SQLite file path, postgres (a throwaway server), "
        "or a postgresql:// URL of an empty database",
    )
    parser.add_argument("--hand-over", action="store_true", help=argparse.SUPPRESS)
    add_loop_argument(parser)
    args = parser.parse_args()
    if args.games < MIN_GAMES:
        parser.error(f"--games must be at least {MIN_GAMES} (the waves use that many channels)")
    dbs = args.db.split(",")
    if len(dbs) > 1 or dbs == ["postgres"]:
        compare(dbs, args.games, args.waves, args.loop)
    else:
        run(main(args.games, args.waves, args.db), args.loop)
        if args.hand_over:
            print(FIGURES_LINE + json.dumps(FIGURES), flush=True)
