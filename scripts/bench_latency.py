"""Benchmark interaction latency of the real bot against the fake Discord.

Usage: ``python scripts/bench_latency.py [--game tigris|oracle] [--moves 200] [--seed 1]``

Plays random legal moves with ``/play`` (through the e2e harness: the real
bot, a real SQLite file, the fake Discord on loopback) until ``--moves`` moves
were made, starting new games as needed, and prints two figures per move:

* callback — from the fake sending INTERACTION_CREATE to receiving the bot's
  callback (the ephemeral deferral): what Discord's 3-second rule measures;
* complete — until the bot reported the interaction fully answered: the reply,
  the public message with the board image, and the DMs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeUser  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def summary(label: str, values: list[float]) -> str:
    return (
        f"{label}: median {statistics.median(values):.1f} ms, "
        f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms"
    )


async def new_game(h: BotHarness, game: str, players: list[FakeUser]) -> None:
    creator, *others = players
    await h.slash(creator, f"game new {game}")
    for user in others:
        await h.slash(user, "game join")
    await h.slash(creator, "game start")


async def bench(game: str, moves: int, seed: int) -> tuple[list[float], list[float], int]:
    rng = random.Random(seed)
    callback: list[float] = []
    complete: list[float] = []
    games = 0
    async with FakeDiscord() as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = BotHarness(fake, Path(tmp) / "bench.db")
            await h.start()
            try:
                players = [h.alice, h.bob, h.carol]
                while len(callback) < moves:
                    waiting = await h.waiting(players)
                    if not waiting:
                        await new_game(h, game, players)
                        games += 1
                        continue
                    user = rng.choice(waiting)
                    action = rng.choice(await h.legal(user))
                    sent = time.monotonic()
                    itx = await h.slash(user, "play", action=action)
                    done = time.monotonic()
                    if itx.latency is None or not h.public_of(itx):
                        raise RuntimeError(f"{action!r} was not played: {h.ephemeral_text(itx)}")
                    callback.append(itx.latency * 1000)
                    complete.append((done - sent) * 1000)
            finally:
                await h.stop()
    return callback, complete, games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tigris", choices=("tigris", "oracle"))
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    callback, complete, games = asyncio.run(bench(args.game, args.moves, args.seed))
    print(f"{args.game}: {len(callback)} moves over {games} game(s), 3 players")
    print(summary("interaction -> callback (deferral)", callback))
    print(summary("interaction -> fully answered", complete))
    return 0


if __name__ == "__main__":
    sys.exit(main())
