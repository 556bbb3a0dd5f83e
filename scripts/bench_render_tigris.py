"""Benchmark the Tigris & Euphrates renderer on a late-game 4-player board.

Usage: ``python scripts/bench_render_tigris.py [--runs 50] [--out board.png] [--lang zh]``

The view is the hand-written late-game sample of the renderer tests (about 95
tiles, every leader out, 2 monuments, 4 catastrophes, a war in progress). The
first render (fonts, sprites, background and palette caches) is timed apart;
the figures that matter are the warm median and p90 of render + PNG encode.
Both images are timed in English and in ``--lang`` (Chinese by default; drawn
in English, and said so, when no installed font has its glyphs).
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

import tigris_sample_views as samples  # noqa: E402
from PIL import Image  # noqa: E402

from renderer import tigris  # noqa: E402


def timed(fn: Callable[[], bytes], runs: int) -> tuple[list[float], bytes]:
    """Run ``fn`` ``runs`` times; the durations in ms and the last result."""
    durations = []
    result = b""
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        durations.append((time.perf_counter() - start) * 1000)
    return durations, result


def report(label: str, durations: list[float], png: bytes) -> None:
    size = Image.open(io.BytesIO(png)).size
    ordered = sorted(durations)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * len(ordered)) - 1)]
    print(
        f"{label}: median {statistics.median(durations):.1f} ms, p90 {p90:.1f} ms "
        f"over {len(durations)} runs; {len(png) / 1024:.0f} KB; {size[0]}x{size[1]} px"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--out", type=Path, help="also write the public PNG here")
    parser.add_argument("--lang", default="zh", help="second language timed (default zh)")
    args = parser.parse_args()

    view = samples.late_view()
    players = samples.PLAYERS
    cold, png = timed(lambda: tigris.render_public(view, players), 1)
    print(f"public, first render (caches cold): {cold[0]:.1f} ms")
    durations, png = timed(lambda: tigris.render_public(view, players), args.runs)
    report("public (render + encode)", durations, png)
    if args.out:
        args.out.write_bytes(png)

    drawn = tigris.image_language(args.lang)
    note = "" if drawn == args.lang else f", drawn in {drawn}: the fonts lack its glyphs"
    cold, _ = timed(lambda: tigris.render_public(view, players, args.lang), 1)
    print(f"public {args.lang}{note}, first render: {cold[0]:.1f} ms")
    durations, png = timed(lambda: tigris.render_public(view, players, args.lang), args.runs)
    report(f"public {args.lang} (render + encode)", durations, png)

    private = samples.private_view()
    timed(lambda: tigris.render_private(private, players[0]), 1)
    durations, png = timed(lambda: tigris.render_private(private, players[0]), args.runs)
    report("private (render + encode)", durations, png)
    timed(lambda: tigris.render_private(private, players[0], args.lang), 1)
    durations, png = timed(lambda: tigris.render_private(private, players[0], args.lang), args.runs)
    report(f"private {args.lang} (render + encode)", durations, png)


if __name__ == "__main__":
    main()
