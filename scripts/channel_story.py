"""What whole games put in the channel and the DMs: one table, one row per game and mode.

Usage: ``python scripts/channel_story.py [--only tigris] [--mode auction] [--seed 1]
[--people-only | --computers-only]``

Each row is one whole game played by taps through the real bot, a real SQLite file
and the fake Discord on loopback (:class:`tests.support.channel_story.StoryTable`):
people tap Play on the newest public message and random options of their move
picker; computer seats (easy) move as soon as their timer fires. Every game and mode
is played twice: by people only, and by one person against computer seats. Columns:

* posted / kept — public messages posted for the game, and those still in the
  channel at the end (a message told in place and replaced is posted, not kept);
* boards — public messages posted with the board image;
* hand-offs — hand-offs between people (the game awaits a member it did not, or
  members again in a new turn or round): the goal is boards <= hand-offs + 1;
* Play→CPU — Play buttons on messages posted while the game awaited only
  computer seats;
* DMs per player, and DMs that say only "your private view has changed";
* taps — clicks and selects of the people.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.support.channel_story import StoryCounts, StoryTable  # noqa: E402

#: (game, lobby options, seats, label of the mode)
GAMES: list[tuple[str, dict[str, str], int, str]] = [
    ("tikal", {"mode": "base"}, 4, "base"),
    ("tikal", {"mode": "auction"}, 3, "auction"),
    ("tikal", {"mode": "mini"}, 2, "mini"),
    ("tigris", {}, 3, "-"),
    ("temple", {}, 3, "-"),
]


async def one_game(
    game: str, options: dict[str, str], seats: int, label: str, computers: int, seed: int
) -> StoryCounts:
    async with FakeDiscord() as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = BotHarness(fake, Path(tmp) / "ziggurat.db")
            people = [h.alice, h.bob, h.mallory, fake.add_user("dave")][: seats - computers]
            await h.start()
            try:
                table = StoryTable(h, people, random.Random(seed))
                await table.start(game, seed, computers, **options)
                await table.play()
                who = f"{len(people)} people" if not computers else f"1 + {computers} CPU"
                return table.counts(game, label, who)
            finally:
                await h.stop()


def print_table(rows: list[StoryCounts]) -> None:
    cells = [list(StoryCounts.HEADER)] + [r.row() for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    for row in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="one game (tigris, tikal, temple)")
    parser.add_argument("--mode", help="one Tikal mode (base, auction, mini)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--people-only", action="store_true")
    parser.add_argument("--computers-only", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    rows: list[StoryCounts] = []
    for game, options, seats, label in GAMES:
        if (args.only and game != args.only) or (args.mode and label != args.mode):
            continue
        for computers in (0, seats - 1):
            if (computers and args.people_only) or (not computers and args.computers_only):
                continue
            started = time.monotonic()
            rows.append(await one_game(game, options, seats, label, computers, args.seed))
            print(
                f"# {game} {label} computers={computers}: {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    print_table(rows)


if __name__ == "__main__":
    asyncio.run(main())
