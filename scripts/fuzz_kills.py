"""Kill games with computer seats with SIGKILL, again and again; check what each kill left.

Each round runs ``tests/support/computer_stream.py`` (games of a member and
computer seats deciding in their own processes: the robot games, Temple
Rush, Mini-Tikal) on a fresh SQLite file until it has acknowledged a random
number of commands, kills it, and checks the file (:mod:`tests.support.kills`):
every acknowledged move stored, every game replaying to its stored state, no
running game awaiting a seat with nothing to move it before any repair.
Prints one summary line; exits 1 when a round failed.

Usage: ``python scripts/fuzz_kills.py --kills 20 --seed 1 [--most 400]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.computer_stream import registry  # noqa: E402
from tests.support.kills import COMPUTERS, kill_after, verify  # noqa: E402


async def rounds(kills: int, seed: int, most: int) -> tuple[Counter[str], Counter[str]]:
    rng = random.Random(seed)
    games = registry()
    totals: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="ziggurat-kills-") as folder:
        for round_number in range(kills):
            path = Path(folder) / f"killed-{round_number}.db"
            acks = rng.randint(5, most)
            try:
                acked = await kill_after(path, acks, rng.randrange(10**6), COMPUTERS)
                killed = await verify(path, acked, games)
            except AssertionError as error:
                failures["check"] += 1
                print(f"  round {round_number}: {error}"[:2000], flush=True)
                continue
            except Exception as error:
                failures[type(error).__name__] += 1
                print(f"  round {round_number}: {error!r}"[:2000], flush=True)
                continue
            totals["kills"] += 1
            totals["acknowledged"] += len(acked)
            totals["games"] += killed.games
            totals["running"] += killed.running
            totals["computer moves"] += killed.computer_moves
    return totals, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--most", type=int, default=400, help="most acknowledgements a round")
    args = parser.parse_args()
    totals, failures = asyncio.run(rounds(args.kills, args.seed, args.most))
    found = ", ".join(f"{k} {n}" for k, n in sorted(failures.items())) or "none"
    print(
        f"kills: {totals['kills']} of {args.kills} rounds checked, {totals['acknowledged']}"
        f" commands acknowledged, {totals['games']} games replayed"
        f" ({totals['running']} running at the kill), {totals['computer moves']} computer"
        f" moves; failures: {found}",
        flush=True,
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
