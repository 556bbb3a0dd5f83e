"""Benchmark: is a member answered as fast beside three computer players as among members?

Usage: ``python scripts/bench_computer_seats.py [--game temple|tigris|tikal] [--moves 60]
[--level strong] [--seed 1]``

Plays the game through the e2e harness (the real bot, a real SQLite file, the fake
Discord on loopback; computer seats move with no pause, so their decisions run while
the member plays) twice, and prints the time from a member's ``/play`` to the bot
having fully answered it (reply, public message with the board, DMs):

* floor — four members playing random legal moves (every member's move counted);
* computers — one member playing random legal moves beside three computer players at
  ``--level`` (Tikal's mini mode seats two: one member, one computer). The member
  acts as soon as the game awaits them, even while the computers are deciding (a
  Temple Rush round: the computers seal their moves as the member does).

The decisions run in the deciding processes, never on the bot's event loop, and no
lock is held while they run, so the two figures should match within the noise of
the machine. Needs the game's computer player.

Like is compared with like: a move that hands over (a public message with the board
is drawn and sent) costs far more than one that does not (a sealed submission, a
step of a turn), and the mix differs between the runs (beside computers that have
already sealed, a member's Temple Rush seal is always the one that reveals the
round). So each run prints its moves of both kinds apart, then the answer of the
moves that hand over beside the floor's, as a ratio.
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

from loops import add_loop_argument, run  # noqa: E402

from bot import plugins  # noqa: E402
from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeUser  # noqa: E402

#: the lobby options of each game (Tikal's mini mode is for two)
OPTIONS = {"temple": {}, "tigris": {}, "tikal": {}}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


#: a member's answered move: whether it handed over (a public message), milliseconds
Answered = tuple[bool, float]


def summary(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: no moves"
    return (
        f"{label}: {len(values)} moves, median {statistics.median(values):.1f} ms, "
        f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms"
    )


def of_kind(answered: list[Answered], public: bool) -> list[float]:
    return [ms for handed, ms in answered if handed is public]


async def new_game(h: BotHarness, game: str, members: list[FakeUser], levels: list[str]) -> None:
    creator, *others = members
    await h.slash(creator, f"game new {game}", **OPTIONS[game])
    for user in others:
        await h.slash(user, "game join")
    for level in levels:
        await h.slash(creator, "game add-computer", level=level)
    await h.slash(creator, "game start")


async def play(
    h: BotHarness, game: str, members: list[FakeUser], levels: list[str], moves: int, seed: int
) -> list[Answered]:
    """Each member's move: whether it handed over, milliseconds to its full answer."""
    rng = random.Random(seed)
    answered: list[Answered] = []
    started = False
    while len(answered) < moves:
        waiting = await h.waiting(members)
        if not waiting:
            assert h.store is not None
            row = await h.store.latest_game_in(h.channel.id)
            if not started or row is None or row.status != "running":
                await new_game(h, game, members, levels)
                started = True
            else:
                await asyncio.sleep(0.005)  # the computers are deciding
            continue
        user = rng.choice(waiting)
        legal = await h.legal(user)
        if not legal:
            await asyncio.sleep(0.005)
            continue
        posted = len(h.public_messages())
        sent = time.monotonic()
        itx = await h.slash(user, "play", action=rng.choice(legal))
        done = time.monotonic()
        if itx.rejected:
            raise RuntimeError(f"a move was not played: {h.ephemeral_text(itx)}")
        answered.append((len(h.public_messages()) > posted, (done - sent) * 1000))
    return answered


async def scenario(
    game: str, count: int, levels: list[str], moves: int, seed: int
) -> list[Answered]:
    """One bot, on its own database: ``count`` seats, the last ones computers."""
    async with FakeDiscord() as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = BotHarness(fake, Path(tmp) / "bench.db")
            await h.start()
            try:
                members = [h.alice, h.bob, h.mallory, h.carol][: count - len(levels)]
                return await play(h, game, members, levels, moves, seed)
            finally:
                await h.stop()


async def bench(
    game: str, moves: int, level: str, seed: int
) -> tuple[list[Answered], list[Answered]]:
    count = 2 if OPTIONS[game].get("mode") == "mini" else 4
    floor = await scenario(game, count, [], moves, seed)
    computers = await scenario(game, count, [level] * (count - 1), moves, seed)
    return floor, computers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="temple", choices=sorted(OPTIONS))
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--level", default="strong", choices=("easy", "strong"))
    parser.add_argument("--seed", type=int, default=1)
    add_loop_argument(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if plugins.load_builtin_games()[args.game].engine.computer() is None:
        print(f"{args.game} has no computer player yet")
        return 1
    floor, computers = run(bench(args.game, args.moves, args.level, args.seed), args.loop)
    print(f"{args.game}: a member's /play until fully answered")
    for public, kind in ((True, "handing over"), (False, "not handing over")):
        print(summary(f"floor (members only), {kind}", of_kind(floor, public)))
        print(
            summary(f"beside computer players ({args.level}), {kind}", of_kind(computers, public))
        )
    both = of_kind(floor, True), of_kind(computers, True)
    if all(both):
        ratio = statistics.median(both[1]) / statistics.median(both[0])
        print(f"handing over: median beside computers / floor = {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
