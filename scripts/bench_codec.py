"""Benchmark the stored state's JSON text: written and read, beside the standard library.

Usage: ``python scripts/bench_codec.py [--games 3] [--repeat 5]``

Collects every state along ``--games`` random games of each game (Tigris &
Euphrates of 3, Tikal of 3 in the base mode, Temple Rush of 3), as the
engines dump them (``dump_state``), and times, per state, in microseconds
(the median of ``--repeat`` passes over all of them):

* **write** — the store's canonical text (:func:`bot.store.codec.dumps`);
  beside it the standard library's (``json.dumps`` with the same separators,
  sorted keys, ``ensure_ascii=False``: what the store wrote before), which
  writes the same text;
* **read** — :func:`bot.store.codec.loads` of that text; beside it
  ``json.loads``;
* the engine's own part of a load and a store, for scale: ``load_state`` of
  the decoded value and ``dump_state`` of the state.

The machine's load (``/proc/loadavg``) is printed with the figures; nothing
is asserted (the equality of the texts is a test: ``tests/platform/
test_json_codec.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import plugins
from bot.store.codec import dumps, loads

GAMES = (("tigris", {"scoring": "hidden"}), ("tikal", {"mode": "base"}), ("temple", {}))


def standard_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def states(game: str, options: dict[str, str], games: int) -> list[Any]:
    engine = plugins.load_builtin_games()[game].engine
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(3, options, seed)
        for _ in range(2000):
            found.append(state)
            found.append(engine.load_state(engine.dump_state(state)))  # a copy as it stands
            awaited = sorted(engine.waiting_for(state))
            if engine.result(state) is not None or not awaited:
                break
            seat = rng.choice(awaited)
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            found.pop(-2)  # keep only the copies: the live state moves on
    return found


def per_item(call: Callable[[Any], Any], items: list[Any], repeat: int) -> float:
    """Microseconds per item, the median of ``repeat`` passes."""
    passes = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            call(item)
        passes.append((time.perf_counter() - start) / len(items) * 1e6)
    return statistics.median(passes)


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load {load()}")
    for game, options in GAMES:
        engine = plugins.load_builtin_games()[game].engine
        live = states(game, options, args.games)
        values = [engine.dump_state(s) for s in live]
        texts = [dumps(v) for v in values]
        size = statistics.mean(len(t.encode()) for t in texts)
        write = per_item(dumps, values, args.repeat)
        write_std = per_item(standard_dumps, values, args.repeat)
        read = per_item(loads, texts, args.repeat)
        read_std = per_item(json.loads, texts, args.repeat)
        dump_state = per_item(engine.dump_state, live, args.repeat)
        load_state = per_item(engine.load_state, values, args.repeat)
        print(
            f"{game:7} {len(values)} states, {size:,.0f} bytes:"
            f" write {write:.1f} us (standard library {write_std:.1f}, {write_std / write:.1f}x)"
            f" | read {read:.1f} us (standard library {read_std:.1f}, {read_std / read:.1f}x)"
            f" | engine dump_state {dump_state:.1f} us, load_state {load_state:.1f} us"
        )
    print(f"load {load()}")


if __name__ == "__main__":
    main()
