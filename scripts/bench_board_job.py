"""The event loop's CPU for each board it asks of the drawing processes, by game.

What the bot's own process spends on one board, from asking to the PNG in
hand: building the job (``drawing.board``: the state, the drawing process
builds the public view; where a tree has no ``drawing.board``, the public view
built on the loop, as ``Context.board`` did), pickling it, writing it to a
drawing process, and reading the answer. Measured as this process's CPU
(``getrusage``, all its threads) over ``--boards`` boards of mid-game
positions (random legal play from fixed seeds), asked ``--at-once`` at a time
so that the processes stay busy. Floor, same run: the same number of jobs
that return a PNG of the same size without drawing (the pool's own cost: the
pickled call, the pipe, the answer read). The drawing processes are started
and warmed first. Prints one line a game, and the machine's load.

Usage: ``python scripts/bench_board_job.py [--boards 400] [--at-once 8]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loops import add_loop_argument, run

from bot import plugins
from bot.games.base import PlayerLabel
from bot.service import drawing
from bot.service.colours import seat_colours

#: the PNG the floor's jobs return (set in the drawing process by its first job)
_PNG: dict[int, bytes] = {}


def same_png(size: int) -> bytes:
    """Run in a drawing process: ``size`` bytes, the same every time, nothing drawn."""
    if size not in _PNG:
        _PNG[size] = b"\x89PNG" + bytes(size - 4)
    return _PNG[size]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def seats_of(game_type: Any, wanted: int = 3) -> int:
    low, high = game_type.engine.player_range({})
    return int(min(max(wanted, low), high))


def positions(game_type: Any, count: int) -> list[Any]:
    """``count`` mid-game states of ``game_type`` (40–120 random legal steps)."""
    engine = game_type.engine
    seats = seats_of(game_type)
    states = []
    for seed in range(count):
        rng = random.Random(seed)
        state = engine.new_game(seats, {}, seed)
        for _ in range(40 + seed * 80 // max(1, count - 1)):
            waiting = sorted(engine.waiting_for(state))
            if not waiting or engine.result(state) is not None:
                break
            seat = rng.choice(waiting)
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        states.append(state)
    return states


async def ask_board(game_type: Any, state: Any, labels: list[PlayerLabel]) -> bytes:
    """A board as ``Context.board`` asks for it in this tree."""
    engine = game_type.engine
    board = getattr(drawing, "board", None)
    if board is not None:
        image: bytes = await board(game_type.render_public, engine, state, labels, "en")
        return image
    return await drawing.drawn(game_type.render_public, engine.public_view(state), labels, "en")


async def main(boards: int, at_once: int) -> None:
    registry = plugins.load_builtin_games()
    drawing.warm_up(registry.values())
    await asyncio.sleep(8)  # the processes warm up whole, as a serving bot's have
    how = "the state sent" if hasattr(drawing, "board") else "the view built on the loop"
    print(f"{drawing.RENDER_WORKERS} drawing processes; a board's job: {how}", flush=True)
    for name in ("tigris", "tikal", "temple"):
        game_type = registry[name]
        states = positions(game_type, 8)
        colours = [c for c, _ in seat_colours(game_type, seats_of(game_type))]
        labels = [PlayerLabel(i, f"Player {i + 1}", c) for i, c in enumerate(colours)]
        sizes = [len(await ask_board(game_type, s, labels)) for s in states]  # each drawn once
        size = sum(sizes) // len(sizes)
        await asyncio.gather(*(drawing.drawn(same_png, size) for _ in range(at_once)))
        jobs = [states[i % len(states)] for i in range(boards)]
        started = cpu()
        for first in range(0, boards, at_once):
            await asyncio.gather(
                *(drawing.drawn(same_png, size) for _ in jobs[first : first + at_once])
            )
        floor = (cpu() - started) / boards * 1e6
        started = cpu()
        for first in range(0, boards, at_once):
            await asyncio.gather(
                *(ask_board(game_type, s, labels) for s in jobs[first : first + at_once])
            )
        spent = (cpu() - started) / boards * 1e6
        print(
            f"{name}: the loop's CPU a board {spent:.0f} us; floor: a job returning "
            f"{size // 1024} kB undrawn {floor:.0f} us; board/floor {spent / floor:.2f} "
            f"(load {os.getloadavg()[0]:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--at-once", type=int, default=8)
    add_loop_argument(parser)
    args = parser.parse_args()
    run(main(args.boards, args.at_once), args.loop)
