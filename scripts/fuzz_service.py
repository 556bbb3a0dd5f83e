"""Random and hostile commands through the service for a long while, with invariants after each.

Every game and mode, lobby options, computer seats, typed moves, buttons,
picker taps with hostile tokens, undo, back, resign, replace, the host's
clock and timeouts, on SQLite (a fresh file) or PostgreSQL (a throwaway
server, as the tests start one); the checks are those of
:mod:`tests.support.fuzz`. Prints one summary line (commands, games,
failures by kind), then the first examples of each failure; exits 1 when
anything failed.

Usage: ``python scripts/fuzz_service.py --db sqlite|postgres --commands N --seed S
[--channels 6] [--levels easy,strong]``
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import games, plugins  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.support.fuzz import LEVELS, FakeClock, Fuzzer, Tally  # noqa: E402
from tests.support.postgres import PostgresServer, find_bin  # noqa: E402


async def fuzz(
    location: str, commands: int, seed: int, channels: int, levels: tuple[str, ...]
) -> Tally:
    plugins.load_builtin_games()
    store = await Store.open(location)
    try:
        clock = FakeClock()
        service = GameService(store, games.REGISTRY, clock=clock, render=False, computer_pause=0.0)
        fuzzer = Fuzzer(service, clock, seed, channels=channels, levels=levels)
        return await fuzzer.run(commands)
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--channels", type=int, default=6)
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels hosts ask for")
    parser.add_argument("--refusals", action="store_true", help="also list the refusals met")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the service logs every refusal it meets
    levels = tuple(args.levels.split(","))
    with tempfile.TemporaryDirectory(prefix="ziggurat-fuzz-") as folder:
        if args.db == "sqlite":
            tally = asyncio.run(
                fuzz(str(Path(folder) / "fuzz.db"), args.commands, args.seed, args.channels, levels)
            )
        else:
            bin_dir = find_bin()
            if bin_dir is None:
                raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
            server = PostgresServer(bin_dir)
            server.start()
            try:
                url = server.url(server.create_database())
                tally = asyncio.run(fuzz(url, args.commands, args.seed, args.channels, levels))
            finally:
                server.stop()
    print(tally.line(args.db), flush=True)
    for kind, examples in sorted(tally.examples.items()):
        for example in examples:
            print(f"  {kind}: {example}"[:2000])
    if args.refusals:
        print("  carried out: " + ", ".join(f"{k} {n}" for k, n in tally.done.most_common()))
        print("  games left: " + ", ".join(f"{k} {n}" for k, n in tally.states.most_common()))
        for what, count in tally.refusals.most_common():
            print(f"  {count:6d}  {what}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
