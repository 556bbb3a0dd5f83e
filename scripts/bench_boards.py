"""Each game's board drawn beside its bare PNG encode: the same view again, the next
positions of a game one after another, and with no region remembered; the private
view beside it.

Usage: ``PYTHONPATH=. python scripts/bench_boards.py [--runs 21] [--games tigris,tikal,temple]``

The position is :func:`bench_scale.mid_game`'s (2 players, 60 random steps from seed
7), the floor the bare encode of the same image (``encode_png`` of the decoded PNG),
as ``bench_scale.py``'s "board drawn whole" line. Figures are medians of the CPU time
of this thread (``time.thread_time``: another process on the same cores does not add
to it), each beside the floor from the same run:

* **same view**: the board drawn again (what ``bench_scale.py`` prints);
* **next positions**: positions 60, 61, ... of the same game, each drawn once after
  the one before: a move changes a few regions (``renderer.common.mapped_by_regions``);
* **nothing remembered**: the regions forgotten before each board (the first board of
  a game or of a process);
* **private**: seat 0's private view (drawn whole, unchanged by the regions), beside the
  board's floor and beside its own: the bare encode of the private image (``encode_png``
  of the decoded PNG: 8-bit where the renderer maps it onto a palette, as the image
  decodes).

Run it with ``PYTHONPATH`` at another checkout to measure that code (where it has no
regions, the three board figures are the same drawing).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from renderer import common
from renderer.common import encode_png

# after the imports above: bench_scale puts its own checkout first on the path, and this
# measures the renderer on PYTHONPATH
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import LABELS, mid_game, random_play, registry_here


def cpu_ms(work: Callable[[], Any]) -> float:
    """Milliseconds of this thread's CPU ``work()`` took."""
    start = time.thread_time()
    work()
    return (time.thread_time() - start) * 1000


def next_positions(game_type: Any, count: int, seed: int = 7, steps: int = 60) -> list[Any]:
    """The public views of positions ``steps``, ``steps + 1``, ... of
    :func:`bench_scale.mid_game`'s game (fewer where it ends)."""
    engine = game_type.engine
    state = engine.new_game(2, {}, seed)
    return [
        engine.public_view(state)
        for done, _ in enumerate(random_play(engine, state, seed, steps + count), 1)
        if done >= steps
    ]


def forget() -> None:
    """Forget the remembered regions (where this code has them)."""
    getattr(common, "forget_regions", lambda: None)()


def measure(name: str, runs: int) -> None:
    game_type = registry_here()[name]
    state = mid_game(game_type)
    view = game_type.engine.public_view(state)
    image = Image.open(io.BytesIO(game_type.render_public(view, LABELS)))
    image.load()
    same, bare = [], []
    for _ in range(runs):
        same.append(cpu_ms(lambda: game_type.render_public(view, LABELS)))
        bare.append(cpu_ms(lambda: encode_png(image)))
    views = next_positions(game_type, runs)
    forget()
    game_type.render_public(views[0], LABELS)
    following = [cpu_ms(lambda v=v: game_type.render_public(v, LABELS)) for v in views[1:]]
    cold = []
    for _ in range(runs):
        forget()
        cold.append(cpu_ms(lambda: game_type.render_public(view, LABELS)))
    private: list[float] = []
    private_bare: list[float] = []
    if game_type.render_private is not None:  # Tikal has no private view
        seen = game_type.engine.private_view(state, 0)
        private = [cpu_ms(lambda: game_type.render_private(seen, LABELS[0])) for _ in range(runs)]
        hand = Image.open(io.BytesIO(game_type.render_private(seen, LABELS[0])))
        hand.load()
        private_bare = [cpu_ms(lambda: encode_png(hand)) for _ in range(runs)]
    floor = statistics.median(bare)
    print(f"{name}: floor: bare PNG encode {floor:.2f} ms ({image.width}x{image.height})")
    for label, figures in (
        ("same view", same),
        (f"next positions ({len(following)})", following),
        ("nothing remembered", cold),
        ("private view", private),
    ):
        if not figures:
            continue
        value = statistics.median(figures)
        print(f"  {label}: {value:.2f} ms, {value / floor:.2f}x the floor")
    if private_bare:
        value, own = statistics.median(private), statistics.median(private_bare)
        print(
            f"  private view beside its own bare encode {own:.2f} ms "
            f"({hand.width}x{hand.height} {hand.mode}): {value / own:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--games", default="tigris,tikal,temple")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; renderer from {Path(common.__file__).parent}")
    for name in args.games.split(","):
        measure(name, args.runs)


if __name__ == "__main__":
    main()
