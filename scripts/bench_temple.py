"""Temple Rush benchmark: round image, lightning layout check, full games, engine steps.

Prints figures; asserts nothing (timings belong in benchmarks, not tests).

* round image: ``render_public(public_view(state))`` of a 4-player game in
  round 14 (the renderer tests' ``mid4`` sample), render + PNG encode, median
  of ``--runs`` after one warm-up, with the PNG's size and pixel dimensions;
  the same in Chinese (drawn in English, and said so, without a CJK font);
* lightning: one layout validation (a valid layout, and one refused at its
  last brick), median;
* full games: complete random games (the seeded player of
  ``tests/support/temple_play.py``: planned bricks at skill 0.9, and pure
  random legal play at skill 0), games per second and rounds per game;
* engine step: the median of one ``apply`` and of one ``legal_actions`` over
  every step of those games.

Usage: ``python scripts/bench_temple.py [--runs 50] [--games 40]``
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "renderer"))

import temple_sample_views as samples  # noqa: E402
from PIL import Image  # noqa: E402

from bot.games.base import RuleError  # noqa: E402
from bot.games.temple import ENGINE  # noqa: E402
from bot.games.temple.actions import parse_action  # noqa: E402
from bot.games.temple.race import check_layout, start_race  # noqa: E402
from renderer import temple  # noqa: E402
from tests.support.temple_play import play  # noqa: E402


def median_ms(run: Callable[[], object], times: int) -> float:
    samples_ms = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples_ms.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples_ms)


def bench_image(runs: int) -> None:
    view = samples.view("mid4")
    players = samples.PLAYERS
    for lang in ("en", "zh"):
        start = time.perf_counter()
        png = temple.render_public(view, players, lang)
        first = (time.perf_counter() - start) * 1000
        median = median_ms(lambda lang=lang: temple.render_public(view, players, lang), runs)
        image = Image.open(io.BytesIO(png))
        drawn = temple.image_language(lang)
        note = "" if drawn == lang else f" (drawn in {drawn}: no font for {lang})"
        print(
            f"round image 4 players [{lang}]{note}: median {median:.1f} ms render+encode "
            f"(first {first:.0f} ms), {len(png) / 1024:.0f} KB, {image.width}x{image.height} px"
        )
    private, seat = samples.private_view()
    median = median_ms(lambda: temple.render_private(private, players[seat]), runs)
    png = temple.render_private(private, players[seat])
    print(f"private preview: median {median:.1f} ms, {len(png) / 1024:.0f} KB")


def bench_lightning(runs: int) -> None:
    state = samples.state("mid4")
    state.deck.insert(0, "lightning")
    start_race(state, [])
    good = parse_action("lightning 4:A1 2:B2 3:C3 2:E4").bricks  # type: ignore[union-attr]
    bad = parse_action("lightning 4:A1 2:B2 3:C3 2:D4").bricks  # type: ignore[union-attr]

    def refused() -> None:
        try:
            check_layout(state, 0, bad)
        except RuleError:
            return

    ok = median_ms(lambda: check_layout(state, 0, good), runs * 20)
    no = median_ms(refused, runs * 20)
    print(f"lightning layout validation: valid {ok * 1000:.0f} µs, refused {no * 1000:.0f} µs")


def bench_games(games: int) -> None:
    for skill in (0.9, 0.0):
        steps: list[float] = []
        listings: list[float] = []
        rounds = 0

        start = time.perf_counter()
        logs = []
        for seed in range(games):
            seats = 2 + seed % 3
            options = {"joint": "on"} if seats > 2 and seed % 2 else {}
            final, log = play(seats, seed, options, skill=skill)
            rounds += final.round
            logs.append((seats, options, seed, log))
        elapsed = time.perf_counter() - start
        print(
            f"full games (skill {skill}): {games / elapsed:.1f} games/s, "
            f"{elapsed / games * 1000:.0f} ms per game, {rounds / games:.0f} rounds per game"
        )
        for seats, options, seed, log in logs[: max(1, games // 4)]:
            state = ENGINE.new_game(seats, options, seed)
            for seat, action in log:
                begin = time.perf_counter()
                ENGINE.legal_actions(state, seat)
                listings.append((time.perf_counter() - begin) * 1000)
                begin = time.perf_counter()
                ENGINE.apply(state, seat, action)
                steps.append((time.perf_counter() - begin) * 1000)
        print(
            f"engine step (skill {skill}): apply median {statistics.median(steps) * 1000:.0f} µs "
            f"(p90 {statistics.quantiles(steps, n=10)[-1] * 1000:.0f} µs), legal_actions median "
            f"{statistics.median(listings) * 1000:.0f} µs over {len(steps)} steps"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    bench_image(args.runs)
    bench_lightning(args.runs)
    bench_games(args.games)


if __name__ == "__main__":
    main()
