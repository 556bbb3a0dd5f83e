"""Benchmark a tap of the move picker through the service, beside its floors.

Usage: ``python scripts/bench_tap.py [--game tikal,tigris,temple] [--taps 400]
[--seed 1]``

Plays each game on a real SQLite file (the store's pragmas) by random taps
through :meth:`bot.service.tapping.Tapping.tap` (in process, no Discord, no
images), until ``--taps`` taps were timed (new games as needed). Each tap is
one of two kinds, told apart by its answer:

* **narrow** — an option tap that opens the next menu (nothing played): one
  load of the game, the token checked, the picker built, the next menu built.
  Floor: the bare picker build — the same picker and the same next menu built
  from the state already in memory (no load, no lock, no token), measured just
  before the tap. The service keeps the menus built at a position, so the tap
  reuses the menu it chooses from and may cost less than this floor;
* **step** — a tap that plays a step (and answers with the seat's next menu):
  also the step applied, judged, committed with its version check, and the next
  picker built. Floor: a bare commit (``BEGIN IMMEDIATE; INSERT; COMMIT`` with
  the store's pragmas, :func:`bench_floors.floor_commit`) on the same disk,
  measured in the same run.

Opening a picker (the Play button) is not timed. Figures are milliseconds, p50
and p99 over the taps of the kind; the machine's load (``/proc/loadavg``) is
printed at the start and the end. Each kind's line is wall time; the line
below it (``cpu``) the process's CPU time over the same taps and bare builds
(every thread's: the engine threads', SQLite's writer's), which other work on
a shared machine disturbs far less than the wall time. No figure is asserted
anywhere.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_floors import floor_commit  # noqa: E402
from loops import add_loop_argument, run  # noqa: E402

from bot import heap, plugins  # noqa: E402
from bot.service import GameService, Player, Refusal  # noqa: E402
from bot.service.menus import RESTART, UNDO, Menu  # noqa: E402
from bot.service.pick_token import Pending  # noqa: E402
from bot.service.picker import Picker  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.conftest import CHANNEL  # noqa: E402
from tests.support.seated import open_game  # noqa: E402

#: players per game, and its options
GAMES: dict[str, tuple[int, dict[str, str]]] = {
    "tikal": (2, {"mode": "base"}),
    "tigris": (3, {}),
    "temple": (3, {}),
}


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return "?"


def p(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def figure(name: str, values: list[float], floor: list[float], floor_name: str) -> str:
    return (
        f"  {name:<7} n={len(values):<4} p50 {p(values, 50):7.2f} ms  p99 {p(values, 99):7.2f} ms"
        f"   | floor ({floor_name}) p50 {p(floor, 50):6.2f} ms  p99 {p(floor, 99):6.2f} ms"
    )


async def _open(service: GameService, game: str, seed: int) -> list[Player]:
    count, options = GAMES[game]
    players = [Player(9000 + n, f"Player {n + 1}") for n in range(count)]
    await open_game(service, game, *players, seed=seed, **options)
    return players


def _bare_build(
    service: GameService, game: str, row: Any, seat: int, menu: Menu, picked: str
) -> tuple[float, float]:
    """Milliseconds to build the picker at ``row``'s state and the menu ``picked`` opens:
    wall time and the process's CPU time."""
    engine = service.registry[game].engine
    state = engine.load_state(row.state)  # not timed: the tap's load is what the floor leaves out
    start, cpu = time.perf_counter(), time.process_time()
    picker = Picker(engine, state, seat, version=row.version)
    pending = Pending.decode(menu.token, engine.verbs)
    after = picker.choose(pending, [picked])
    if isinstance(after, Pending):
        picker.menu(after)
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


async def bench(game: str, taps: int, seed: int, folder: Path) -> tuple[list[float], ...]:
    store = await Store.open(folder / f"{game}.db")
    service = GameService(store, render=False)
    rng = random.Random(seed)
    narrow: list[float] = []
    step: list[float] = []
    bare: list[float] = []
    cpu: dict[str, list[float]] = {"narrow": [], "step": [], "bare": []}
    try:
        players = await _open(service, game, seed)
        engine = service.registry[game].engine
        menus: dict[int, Menu] = {}
        while len(narrow) + len(step) < taps:
            row = await store.latest_game_in(CHANNEL)
            assert row is not None
            if row.status != "running":
                await store.close()
                store = await Store.open(folder / f"{game}-{len(step)}.db")
                service = GameService(store, render=False)
                players = await _open(service, game, rng.randrange(1000))
                menus.clear()
                continue
            state = engine.load_state(row.state)
            seat = rng.choice(sorted(engine.waiting_for(state)))
            player = next(x for x in players if x.id == row.seats[seat].user_id)
            menu = menus.pop(seat, None)
            if menu is None:
                try:
                    menu = (await service.tapping.tap(CHANNEL, player)).menu
                except Refusal:
                    continue
            if menu is None:
                continue
            options = [o for o in (*menu.options, *menu.controls) if o.token not in (RESTART, UNDO)]
            options = [o for o in options if not o.layout] or options
            option = rng.choice(options)
            floor, floor_cpu = _bare_build(service, game, row, seat, menu, option.token)
            start, started_cpu = time.perf_counter(), time.process_time()
            answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
            took = (time.perf_counter() - start) * 1000
            took_cpu = (time.process_time() - started_cpu) * 1000
            if answer.outcome is None:
                narrow.append(took)
                bare.append(floor)
                cpu["narrow"].append(took_cpu)
                cpu["bare"].append(floor_cpu)
            else:
                step.append(took)
                cpu["step"].append(took_cpu)
                menus.clear()  # another seat's menu may be stale now
            if answer.menu is not None and not answer.lines:
                menus[seat] = answer.menu
    finally:
        await store.close()
    commit = await floor_commit(folder)
    return narrow, bare, step, commit, cpu


async def main(args: argparse.Namespace) -> None:
    plugins.load_builtin_games()
    heap.settle()  # the started process's heap frozen, as the bot's is (bot.heap)
    print(f"load at start: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.game.split(","):
            narrow, bare, step, commit, cpu = await bench(game, args.taps, args.seed, Path(tmp))
            print(f"{game}: a tap through service.tapping.tap (SQLite file)")
            print(figure("narrow", narrow, bare, "bare picker build"))
            print(figure("cpu", cpu["narrow"], cpu["bare"], "its cpu"))
            print(figure("step", step, commit, "bare commit"))
            print(
                f"  {'cpu':<7} n={len(cpu['step']):<4} p50 {p(cpu['step'], 50):7.2f} ms"
                f"  p99 {p(cpu['step'], 99):7.2f} ms"
            )
    print(f"load at end: {load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tikal,tigris,temple")
    parser.add_argument("--taps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    add_loop_argument(parser)
    args = parser.parse_args()
    run(main(args), args.loop)
