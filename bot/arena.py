"""``python -m bot arena``: computer players measured against each other.

``python -m bot arena --game G [--option k=v] --seats strong,easy,random,random
--games N --seed S [--think MS] [--jobs J]`` plays N games of G with one seat per
listed level, on all cores, and ends with one line per level::

    strong: won 38 of 40 games (95% [83–99]), average score 41.3, decision p50 310 ms, p99 1210 ms

Decisions:

* **Rotation.** Game ``i`` seats the levels rotated by ``i`` places, so every
  level sits in every seat (first player, last player) equally often.
* **Seeds.** Game ``i`` is dealt with seed ``S + i``; each decision's seed is
  drawn from the game's own seeded source, so a run is reproducible.
* **Won.** A level won a game when one of its seats took first place (a
  shared first place counts for each level sharing it). The interval is
  Wilson's 95% score interval. The average score is over the level's seats
  (each game's headline scores, from the engine's result).
* **Decision time** is the CPU time of the process making it
  (``time.process_time``), so a loaded machine does not inflate it: the
  issue's budget is "2 s of one core". ``--think`` caps a strong decision's
  wall time for quick runs.
* **Levels.** ``easy`` and ``strong`` are the players' levels; ``random``
  takes a uniformly random legal step; ``baseline`` is the game's frozen
  strong player (:meth:`~bot.games.computer.Brain.baseline`), searched at
  ``strong``, the yardstick a new player is measured against.
* **Moves.** A seat's plan is applied step by step while the game waits for
  it; a plan the rules refuse at its first step is decided again on the
  current state, and a seat whose brain has nothing plays a random legal
  step. Seats awaited together (a sealed round, a race) answer in the order
  of their :meth:`~bot.games.computer.Brain.answer_delay`, then seat order.
  A game still running after :data:`MAX_STEPS` steps is reported as
  unfinished and counts as won by nobody.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.demo import DemoError, check_request
from bot.games.base import GameType
from bot.games.computer import BASELINE, LEVELS, RANDOM, Brain, apply_plan, decide
from bot.games.notation import ascii_int
from bot.i18n import t

#: the most steps one arena game may take before it is called unfinished
MAX_STEPS = 20_000
#: the levels a seat may be given in the arena: the players' levels, the game's frozen
#: strong player and random play
ARENA_LEVELS: tuple[str, ...] = (*LEVELS, BASELINE, RANDOM)


class ArenaError(Exception):
    """A bad argument: one line for stderr."""


@dataclass(frozen=True)
class ArenaRequest:
    """The arena's arguments, checked."""

    game: str
    options: dict[str, str]
    seats: tuple[str, ...]
    games: int
    seed: int
    think: float | None
    jobs: int


@dataclass
class GameRecord:
    """One arena game: each seat's level, place, score and decision times (ms)."""

    levels: tuple[str, ...]
    places: dict[int, int]
    scores: dict[int, int]
    times: dict[int, list[float]] = field(default_factory=dict)
    finished: bool = True


def add_arguments(arena: argparse.ArgumentParser) -> None:
    arena.add_argument("--game", default=None, help="game type (default: the first registered)")
    arena.add_argument(
        "--seats",
        default="strong,random",
        help=f"one level per seat, comma-separated ({', '.join(ARENA_LEVELS)})",
    )
    arena.add_argument("--games", default="20", help="number of games")
    arena.add_argument("--seed", default="1", help="seed of the first game")
    arena.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a lobby option of the game (repeatable), e.g. mode=auction",
    )
    arena.add_argument("--think", default=None, help="cap a strong decision at MS milliseconds")
    arena.add_argument("--jobs", default=None, help="processes (default: one per core)")


def check_arena(registry: dict[str, GameType], args: argparse.Namespace) -> ArenaRequest:
    """Validate the arena's arguments; :class:`ArenaError` names the first bad one."""
    seats = tuple(level.strip().lower() for level in str(args.seats).split(","))
    for level in seats:
        if level not in ARENA_LEVELS:
            raise ArenaError(
                t("en", "app.arena_bad_level", level=level, levels=", ".join(ARENA_LEVELS))
            )
    try:
        request = check_request(registry, args.game, len(seats), args.seed, args.option, ".")
    except DemoError as error:
        raise ArenaError(str(error)) from None
    games = _count(args.games, "--games", 1, 100_000)
    think = None if args.think in (None, "") else _count(args.think, "--think", 1, 600_000) / 1000
    jobs = (os.cpu_count() or 1) if args.jobs in (None, "") else _count(args.jobs, "--jobs", 1, 256)
    brain = registry[request.game].engine.computer()
    if brain is None:
        raise ArenaError(t("en", "app.arena_no_computer", game=request.game))
    if BASELINE in seats and brain.baseline() is None:
        raise ArenaError(t("en", "app.arena_no_baseline", game=request.game))
    return ArenaRequest(request.game, request.options, seats, games, request.seed, think, jobs)


def _count(value: Any, name: str, low: int, high: int) -> int:
    try:
        return ascii_int(str(value).strip(), low, high)
    except ValueError:
        raise ArenaError(
            t("en", "app.demo_bad_number", name=name, value=value, min=low, max=high)
        ) from None


def play_game(request: ArenaRequest, index: int, game_type: GameType | None = None) -> GameRecord:
    """Arena game ``index``: the levels rotated by ``index``, dealt with ``seed + index``.

    ``game_type`` defaults to the product game named by the request."""
    if game_type is None:
        from bot import plugins

        game_type = plugins.load_builtin_games()[request.game]
    engine = game_type.engine
    brain = engine.computer()
    assert brain is not None
    brains: dict[str, Brain[Any, Any]] = dict.fromkeys((*LEVELS, RANDOM), brain)
    frozen = brain.baseline()
    if frozen is not None:
        brains[BASELINE] = frozen
    count = len(request.seats)
    levels = tuple(request.seats[(seat + index) % count] for seat in range(count))
    state = engine.new_game(count, request.options, request.seed + index)
    rng = random.Random(f"arena:{request.seed}:{index}")
    times: dict[int, list[float]] = {seat: [] for seat in range(count)}
    steps = 0
    while engine.result(state) is None and steps < MAX_STEPS:
        awaited = sorted(engine.waiting_for(state))
        if not awaited:
            break
        delays = {
            seat: brains[levels[seat]].answer_delay(state, seat, _searched(levels[seat]), rng)
            if levels[seat] != RANDOM
            else 0.0
            for seat in awaited
        }
        for seat in sorted(awaited, key=lambda s: (delays[s], s)):
            if engine.result(state) is not None or seat not in engine.waiting_for(state):
                continue
            level = levels[seat]
            steps += _take_turn(
                brains[level], state, seat, _searched(level), rng, request.think, times[seat]
            )
    result = engine.result(state)
    if result is None:
        return GameRecord(levels, {}, {}, times, finished=False)
    return GameRecord(levels, dict(result.places), dict(result.scores), times)


def _searched(level: str) -> str:
    """The level the search plays ``level`` at: the baseline is a strong player."""
    return "strong" if level == BASELINE else level


def _take_turn(
    brain: Brain[Any, Any],
    state: Any,
    seat: int,
    level: str,
    rng: random.Random,
    think: float | None,
    times: list[float],
) -> int:
    """One decision of ``seat`` (decided again once when refused); the steps taken."""
    engine = brain.engine
    for _attempt in range(2):
        started = time.process_time()
        plan = decide(brain, state, seat, level, rng.getrandbits(63), think=think)
        times.append((time.process_time() - started) * 1000)
        if plan and apply_plan(engine, state, seat, plan):
            return len(plan)
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise RuntimeError(f"seat {seat} is awaited but has no legal step")
    apply_plan(engine, state, seat, (rng.choice(legal),))
    return 1


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a proportion, as fractions."""
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    denominator = 1 + z * z / total
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summary(request: ArenaRequest, records: Sequence[GameRecord]) -> list[str]:
    """One line per level, in the order the levels first appear in ``--seats``."""
    lines = []
    for level in dict.fromkeys(request.seats):
        won = sum(
            1
            for record in records
            if any(
                record.levels[seat] == level and place == 1 for seat, place in record.places.items()
            )
        )
        scores = [
            score
            for record in records
            for seat, score in record.scores.items()
            if record.levels[seat] == level
        ]
        times = [
            ms
            for record in records
            for seat, values in record.times.items()
            if record.levels[seat] == level
            for ms in values
        ]
        low, high = wilson(won, len(records))
        lines.append(
            t(
                "en",
                "app.arena_line",
                level=level,
                won=won,
                games=len(records),
                percent=round(100 * won / len(records)),
                low=math.floor(100 * low),
                high=math.ceil(100 * high),
                score=f"{sum(scores) / len(scores):.1f}" if scores else "-",
                p50=round(percentile(times, 0.5)),
                p99=round(percentile(times, 0.99)),
            )
        )
    return lines


def run(request: ArenaRequest) -> list[GameRecord]:
    """Play the request's games on ``request.jobs`` processes."""
    if request.jobs == 1:
        return [play_game(request, index) for index in range(request.games)]
    with ProcessPoolExecutor(max_workers=request.jobs) as pool:
        return list(pool.map(play_game, [request] * request.games, range(request.games)))


def main(args: argparse.Namespace) -> int:
    from bot import plugins

    try:
        request = check_arena(plugins.load_builtin_games(), args)
    except ArenaError as error:
        print(error, file=sys.stderr)
        return 2
    started = time.monotonic()
    records = run(request)
    unfinished = sum(1 for record in records if not record.finished)
    print(
        t(
            "en",
            "app.arena_header",
            game=request.game,
            options=", ".join(f"{k}={v}" for k, v in sorted(request.options.items())),
            seats=",".join(request.seats),
            games=request.games,
            seconds=round(time.monotonic() - started),
            unfinished=unfinished,
        )
    )
    for line in summary(request, records):
        print(line)
    return 0
