"""How long Temple Rush's slow steps (a round's end, the solver cold) stall the event loop.

Usage: ``python scripts/bench_loop.py [--games 6] [--slowest 12] [--calm 3] [--only-calm]``

A ticker coroutine sleeps 1 ms at a time and records how late it wakes: the
event loop's stall, what every other channel waits. Steps are found by
playing seeded Temple Rush games (``tests/support/temple_play.py``, 4
players) and timing each ``apply`` with the solver's caches cleared (cold);
the ``--slowest`` steps are kept. Each is then run cold again, while the
ticker runs:

* ``loop``: ``engine.apply`` on the event loop (what the service did before);
* ``thread``: on a worker thread (as :func:`bot.service.play.off_loop` does);
* ``process``: in another process (the state sent as JSON, the new state
  back), which frees the loop of the GIL but pays the copies;

and, end to end, the same games are played through :class:`GameService`
(render off, a real SQLite file), the caches cleared before each slow step:
the worst stall the service lets the loop have during those steps, first
with the engine's work on the loop (the code before:
:func:`bot.service.play.off_loop` replaced by a direct call), then as the
service runs it now.

Floor: the ticker's worst stall while the loop is idle for as long (what
the machine's scheduler alone costs). Prints the load average with each part.

``--calm N`` (also ``--only-calm``): the steps the engines declare calm
(:meth:`~bot.games.base.GameEngine.calm`), which the service applies on the
event loop. ``N`` random games of every game and mode
(``tests/support/modes.py``; Temple Rush by its random player, the others by a
random legal action), every calm step timed with every cache of the rules
cleared first (cold), three times, the fastest kept. Beside them, what
the hop to an engine thread and back costs (:func:`bot.service.play.off_loop`
of a call that does nothing): its wall time and the event loop's CPU. Then the
slowest calm steps are applied on the loop again while the ticker runs: the
stall they give every other channel, beside the idle floor. Last, Tigris moves
through the service one after another, in alternating blocks with the calm
steps applied on the loop and with every step hopping to a thread (the code
before, in the same run): each move's wall time, the loop's CPU and the
process's (every thread, the hop's own included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loops import add_loop_argument, run  # noqa: E402

from bot import plugins  # noqa: E402
from bot.games.base import GameEngine, RuleError  # noqa: E402
from bot.games.temple import (  # noqa: E402
    ENGINE,
    cards,
    legal,
    solver,
)
from bot.service import GameService, Player  # noqa: E402
from bot.service import play as play_module  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.support.modes import EVERY_MODE  # noqa: E402
from tests.support.temple_play import Player as TemplePlayer  # noqa: E402
from tests.support.temple_play import play  # noqa: E402

T = TypeVar("T")
SEATS = 4
#: the service moves of the calm part: blocks alternating on the loop / hopping
MOVE_BLOCKS = 8
MOVES_A_BLOCK = 100
#: how many times each of the slowest calm steps is run while the ticker runs
REPEATS = 5
#: a step at least this slow (ms, cold) counts as slow in the service run
SLOW_MS = 10.0


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


def cold() -> None:
    """Forget every cache the Temple Rush rules keep (the solver's first of all)."""
    for module in (solver, legal, cards):
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


Slow = tuple[float, dict[str, Any], int, str]  # cold ms, state before, seat, action


def slowest_steps(games: int, keep: int) -> list[Slow]:
    """The ``keep`` slowest cold steps of ``games`` seeded games (each step timed cold
    three times, its fastest kept, so that a busy machine does not pick the steps)."""
    found: list[Slow] = []
    for seed in range(games):
        _, log = play(SEATS, seed)
        state = ENGINE.new_game(SEATS, {}, seed)
        for seat, action in log:
            before = ENGINE.dump_state(state)
            times = []
            for _ in range(3):
                trial = ENGINE.load_state(before)
                cold()
                start = time.perf_counter()
                ENGINE.apply(trial, seat, action)
                times.append((time.perf_counter() - start) * 1000)
            ENGINE.apply(state, seat, action)
            found.append((min(times), before, seat, str(action)))
    found.sort(key=lambda s: -s[0])
    return found[:keep]


class Ticker:
    """Sleeps 1 ms at a time; ``worst`` is the latest wake-up since :meth:`reset` (ms)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            late = (time.perf_counter() - start) * 1000 - 1.0
            self.worst = max(self.worst, late)

    def reset(self) -> None:
        self.worst = 0.0

    def __enter__(self) -> Ticker:
        self._task = asyncio.create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


def apply_json(state: dict[str, Any], seat: int, action: str) -> dict[str, Any]:
    """In a worker process: the step applied cold to a copy; the new state."""
    cold()
    game = ENGINE.load_state(state)
    ENGINE.apply(game, seat, ENGINE.parse_action(action))
    result: dict[str, Any] = ENGINE.dump_state(game)
    return result


async def stalls(steps: Sequence[T], run: Callable[[T], Awaitable[None]]) -> list[float]:
    """The ticker's worst stall during each step."""
    worst: list[float] = []
    with Ticker() as ticker:
        await asyncio.sleep(0.01)
        for step in steps:
            cold()
            gc.collect()
            await asyncio.sleep(0.005)
            ticker.reset()
            await run(step)
            await asyncio.sleep(0.002)  # let the ticker see the end of the step
            worst.append(ticker.worst)
    return worst


async def idle_floor(durations: Sequence[float]) -> list[float]:
    """The ticker's worst stall over an idle loop, for as long as each step took (ms)."""
    worst: list[float] = []
    with Ticker() as ticker:
        await asyncio.sleep(0.01)
        for ms in durations:
            ticker.reset()
            await asyncio.sleep(ms / 1000 + 0.002)
            worst.append(ticker.worst)
    return worst


async def through_service(games: int) -> tuple[list[float], list[float]]:
    """Play seeded games through the service (the moves chosen on a mirror of the stored
    state); the worst stalls during the slow steps and during the others."""
    slow: list[float] = []
    other: list[float] = []
    players = [Player(100 + i, f"P{i}") for i in range(SEATS)]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "loop.db")
        try:
            service = GameService(store, plugins.load_builtin_games(), render=False)
            with Ticker() as ticker:
                for channel in range(1, games + 1):
                    await service.lobby.new_game(
                        guild_id=1,
                        channel_id=channel,
                        user=players[0],
                        game_type_name="temple",
                        seed=channel,
                    )
                    for p in players[1:]:
                        await service.lobby.join(channel, p)
                    await service.lobby.start(channel, players[0])
                    row = await store.open_game_in(channel)
                    assert row is not None
                    user_of = {s.seat: s.user_id for s in row.seats}
                    mirror = ENGINE.load_state(row.state)
                    rng = random.Random(channel)
                    chooser = TemplePlayer(rng)
                    while ENGINE.result(mirror) is None:
                        seat = rng.choice(sorted(ENGINE.waiting_for(mirror)))
                        action = chooser.quick(mirror, seat)
                        cold()
                        start = time.perf_counter()
                        if action is not None:
                            try:
                                ENGINE.apply(mirror, seat, action)
                            except RuleError:
                                action = None
                        if action is None:
                            action = chooser.choose(mirror, seat)
                            cold()
                            start = time.perf_counter()
                            ENGINE.apply(mirror, seat, action)
                        ms = (time.perf_counter() - start) * 1000
                        cold()
                        await asyncio.sleep(0.002)
                        ticker.reset()
                        player = next(p for p in players if p.id == user_of[seat])
                        await service.play.act(channel, player, str(action))
                        await asyncio.sleep(0.002)
                        (slow if ms >= SLOW_MS else other).append(ticker.worst)
        finally:
            await store.close()
    return slow, other


async def _inline(work: Callable[..., Any], *args: Any) -> Any:
    """The engine's work run on the event loop itself, as the service did before."""
    return work(*args)


@contextlib.contextmanager
def engine_work_on_loop(on_loop: bool) -> Iterator[None]:
    """While active (``on_loop``), the service runs the engine's work on the event loop
    (its :func:`~bot.service.play.off_loop` replaced): the code before, in the same run."""
    kept = play_module.off_loop
    if on_loop:
        play_module.off_loop = _inline
    try:
        yield
    finally:
        play_module.off_loop = kept


def every_cache_cold() -> None:
    """Forget every cache any module of the rules keeps (``bot.games.*``): a calm step
    is timed as the first step after a start."""
    for name, module in list(sys.modules.items()):
        if name == "bot.games" or name.startswith("bot.games."):
            for value in vars(module).values():
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def cold_ms(work: Callable[[Any], object], state: Callable[[], Any]) -> float:
    """``work(state())`` timed with every cache cold (the state loaded before the caches
    are cleared, and left out of the time), three times, the fastest kept (so that a
    busy machine does not pick the slow ones), in ms."""
    best = math.inf
    for _ in range(3):
        game = state()
        every_cache_cold()
        start = time.perf_counter()
        work(game)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def _apply(engine: GameEngine[Any, Any], seat: int, action: Any, state: Any) -> None:
    with contextlib.suppress(RuleError):
        engine.apply(state, seat, action)


#: a calm step: cold ms, game, state before (JSON), seat, action
Calm = tuple[float, str, dict[str, Any], int, str]


def calm_steps(games: int) -> tuple[dict[str, list[float]], list[Calm]]:
    """Every calm step of ``games`` random games of each mode, timed cold, by mode; the
    calm steps."""
    engines = plugins.load_builtin_games()
    steps: dict[str, list[float]] = {}
    found: list[Calm] = []
    for name, seats, options in EVERY_MODE:
        mode = f"{name} {seats}p {' '.join(f'{k}={v}' for k, v in options.items())}".strip()
        engine: GameEngine[Any, Any] = engines[name].engine
        steps[mode] = []
        for seed in range(games):
            rng = random.Random(seed)
            chooser = TemplePlayer(rng) if name == "temple" else None
            state = engine.new_game(seats, options, seed)
            for _ in range(3000):
                if engine.result(state) is not None:
                    break
                seat = rng.choice(sorted(engine.waiting_for(state)))
                if chooser is not None:
                    action = chooser.quick(state, seat) or chooser.choose(state, seat)
                else:
                    action = rng.choice(engine.legal_actions(state, seat))
                if engine.calm(state, seat, action):
                    before = engine.dump_state(state)
                    copy = functools.partial(engine.load_state, before)
                    ms = cold_ms(functools.partial(_apply, engine, seat, action), copy)
                    steps[mode].append(ms)
                    found.append((ms, name, before, seat, str(action)))
                with contextlib.suppress(RuleError):
                    engine.apply(state, seat, action)
    return steps, found


async def hop_cost(times: int) -> tuple[float, float]:
    """The hop to an engine thread and back (:func:`bot.service.play.off_loop` of a call
    that does nothing), one after another: median wall ms, and the loop's CPU ms a hop."""
    walls: list[float] = []
    cpu_start = time.thread_time()
    for _ in range(times):
        start = time.perf_counter()
        await play_module.off_loop(int)
        walls.append((time.perf_counter() - start) * 1000)
    cpu = (time.thread_time() - cpu_start) * 1000 / times
    return statistics.median(walls), cpu


def spread(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{label}: n={len(values)} median {statistics.median(ordered):.3f} ms, "
        f"p99 {p99:.3f} ms, longest {ordered[-1]:.3f} ms"
    )


async def calm_part(games: int, keep: int) -> None:
    """The calm steps (see the module docstring): their cold times beside the hop."""
    print(f"-- calm steps ({games} random games of each mode; load {load()})")
    steps, found = calm_steps(games)
    for mode in steps:
        print(spread(f"{mode}: a calm step, cold", steps[mode]))
    longest = max((ms for ms, *_ in found), default=0.0)
    wall, cpu = await hop_cost(2000)
    print(
        f"the hop to an engine thread and back: median {wall:.3f} ms wall, "
        f"the loop's CPU {cpu:.3f} ms a hop (load {load()})"
    )
    print(f"longest calm step {longest:.3f} ms = {longest / cpu:.1f} hops of the loop's CPU")
    found.sort(key=lambda s: -s[0])
    slowest = found[:keep] * REPEATS
    idle = await idle_floor([s[0] for s in slowest])
    floor = max(idle)
    engines = plugins.load_builtin_games()

    async def on_loop(step: Calm) -> None:
        _, name, state, seat, action = step
        engine = engines[name].engine
        game = engine.load_state(state)
        every_cache_cold()
        with contextlib.suppress(RuleError):
            engine.apply(game, seat, engine.parse_action(action))

    worst = await stalls(slowest, on_loop)
    label = f"the {keep} slowest calm steps on the loop, cold, {REPEATS} times each: stall"
    print(line(label, worst, floor))
    print(line(f"floor: an idle loop for as long (load {load()})", idle))


@contextlib.contextmanager
def nothing_calm(engine: GameEngine[Any, Any]) -> Iterator[None]:
    """While active, ``engine`` declares no step calm: every step hops to an engine
    thread, as before the engines declared any (the base, in the same run)."""
    engine.calm = lambda *_: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        del engine.calm


async def calm_moves(blocks: int, per_block: int) -> None:
    """Tigris moves (every step calm) through :class:`GameService` on a SQLite file,
    render off, one after another, in alternating blocks: this code (a calm step applied
    on the loop) and every step hopping (:func:`nothing_calm`). Per move: the wall time,
    the event loop's CPU and the process's CPU (every thread: the hop's own included)."""
    engine = plugins.load_builtin_games()["tigris"].engine
    players = [Player(100 + i, f"P{i}") for i in range(2)]
    figures: dict[str, dict[str, list[float]]] = {
        mode: {"wall": [], "loop": [], "process": []} for mode in ("on the loop", "hopping")
    }
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "moves.db")
        try:
            service = GameService(store, plugins.load_builtin_games(), render=False)
            rng = random.Random(7)
            channel = 0
            for block in range(blocks):
                mode = "on the loop" if block % 2 == 0 else "hopping"
                with contextlib.ExitStack() as stack:
                    if mode == "hopping":
                        stack.enter_context(nothing_calm(engine))
                    for _ in range(per_block):
                        row = await store.open_game_in(channel) if channel else None
                        if row is None or row.status != "running":
                            channel += 1
                            await service.lobby.new_game(
                                guild_id=1,
                                channel_id=channel,
                                user=players[0],
                                game_type_name="tigris",
                                seed=channel,
                            )
                            await service.lobby.join(channel, players[1])
                            await service.lobby.start(channel, players[0])
                            row = await store.open_game_in(channel)
                            assert row is not None
                        state = engine.load_state(row.state)
                        seat = min(engine.waiting_for(state))
                        action = rng.choice(engine.legal_actions(state, seat))
                        user = next(p for p in players if p.id == row.seats[seat].user_id)
                        wall, loop, process = (
                            time.perf_counter(),
                            time.thread_time(),
                            time.process_time(),
                        )
                        await service.play.act(channel, user, str(action))
                        figures[mode]["wall"].append((time.perf_counter() - wall) * 1000)
                        figures[mode]["loop"].append((time.thread_time() - loop) * 1000)
                        figures[mode]["process"].append((time.process_time() - process) * 1000)
        finally:
            await store.close()
    for mode, measured in figures.items():
        print(
            f"a Tigris move through the service, {mode}: n={len(measured['wall'])}, "
            + ", ".join(
                f"{kind} median {statistics.median(values):.3f} ms"
                for kind, values in measured.items()
            )
            + f" (load {load()})"
        )


def line(label: str, values: list[float], floor: float | None = None) -> str:
    if not values:
        return f"{label}: no such steps"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    text = (
        f"{label}: worst {ordered[-1]:.1f} ms, p90 {p90:.1f} ms, "
        f"median {statistics.median(ordered):.1f} ms over {len(values)} steps"
    )
    if floor is not None:
        text += f" (worst/floor {ordered[-1] / floor:.1f})"
    return text


async def main(games: int, keep: int, calm: int, only_calm: bool) -> None:
    print(f"load average at start: {load()}")
    if calm:
        await calm_part(calm, keep)
        await calm_moves(MOVE_BLOCKS, MOVES_A_BLOCK)
    if only_calm:
        print(f"load average at end: {load()}")
        return
    steps = slowest_steps(games, keep)
    cold_ms = [s[0] for s in steps]
    print(
        f"{len(steps)} slowest Temple Rush steps of {games} games ({SEATS} players), cold: "
        f"{min(cold_ms):.1f} to {max(cold_ms):.1f} ms (median {statistics.median(cold_ms):.1f})"
    )
    floor = max(await idle_floor([s[0] for s in steps]))
    print(f"floor: worst stall of an idle loop for as long {floor:.1f} ms (load {load()})")

    async def on_loop(step: Slow) -> None:
        _, state, seat, action = step
        ENGINE.apply(ENGINE.load_state(state), seat, ENGINE.parse_action(action))

    async def on_thread(step: Slow) -> None:
        _, state, seat, action = step
        game = ENGINE.load_state(state)
        await asyncio.to_thread(ENGINE.apply, game, seat, ENGINE.parse_action(action))

    with ProcessPoolExecutor(max_workers=1) as pool:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(pool, cold)  # started and imported before measuring

        async def on_process(step: Slow) -> None:
            _, state, seat, action = step
            await loop.run_in_executor(pool, apply_json, state, seat, action)

        for label, run in (("loop", on_loop), ("thread", on_thread), ("process", on_process)):
            print(line(f"{label}: stall during a slow step", await stalls(steps, run), floor))
        interval = sys.getswitchinterval()
        sys.setswitchinterval(0.001)
        try:
            worst = await stalls(steps, on_thread)
        finally:
            sys.setswitchinterval(interval)
        print(line("thread, GIL switch interval 1 ms: stall during a slow step", worst, floor))
    print(f"(load {load()})")
    for label, engine_on_loop in (("service, before", True), ("service (this code)", False)):
        with engine_work_on_loop(engine_on_loop):
            slow, other = await through_service(games)
        print(line(f"{label}: stall during a slow step", slow, floor))
        print(line(f"{label}: stall during other steps", other, floor))
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--slowest", type=int, default=12)
    parser.add_argument("--calm", type=int, default=0, help="random games per mode of calm steps")
    parser.add_argument("--only-calm", action="store_true", help="the calm steps' part alone")
    add_loop_argument(parser)
    args = parser.parse_args()
    calm = args.calm or (3 if args.only_calm else 0)
    run(main(args.games, args.slowest, calm, args.only_calm), args.loop)
