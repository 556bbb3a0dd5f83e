"""Can a player compute a computer seat's move before it is made? Prints how often.

    python scripts/predictability.py --game temple --level strong --games 4 [--legacy]

Plays ``--games`` two-player games: seat 0 is the computer under test, seat 1
an ``easy`` computer standing in for a member who reads the source. Before
each decision of seat 0 that seat 1 could exploit (Temple Rush: a sealed round
while seat 1 has not sealed yet; Tikal: every decision), seat 1 tries to
compute it from what it knows only — the public view, its own private view
and the ids every button carries (game id, version, seat) — with the
project's own search: it reconstructs the position with the seat-1 sampler
(:meth:`~bot.games.computer.Brain.sample`, which keeps exactly seat 1's
information) and runs :func:`~bot.games.computer.decide` with the seed the ids
gave before seats held secrets (:func:`legacy_seed`). It does the same for the
lightning race's answer delay.

The computer decides with ``--legacy``'s seed (the ids: as before issue 28)
or, by default, with its secret's (:func:`bot.service.seeds.seat_seed`, a
fresh secret per game). The *chance* line is the yardstick: how often two
independent secrets give the same move in the same rounds, i.e. what
guessing among the near-equal plans achieves without the secret.

The version is counted in steps; the game id is the game's index. It prints
one line, e.g.::

    temple strong (secret), 2 games in 55 s: decisions reproduced 54 of 95;
    two secrets agree in 57 of 95 (chance); race delays reproduced 0 of 2
"""

from __future__ import annotations

import argparse
import hashlib
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import plugins
from bot.games.computer import Brain, apply_plan, decide
from bot.service.seeds import seat_seed


def legacy_seed(game_id: int, version: int, seat: int) -> int:
    """The seed of a decision before seats held secrets: ids every button carries."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def exploitable(game: str, engine: Any, state: Any) -> bool:
    """Whether seat 0's decision now is one seat 1 would want to know first."""
    awaited = engine.waiting_for(state)
    if 0 not in awaited:
        return False
    if game == "temple":
        return bool(state.phase == "round" and 1 not in state.submissions)
    return True


def play(
    game: str, level: str, index: int, seed: int, legacy: bool, options: dict[str, str]
) -> dict[str, int]:
    engine = plugins.load_builtin_games()[game].engine
    brain: Brain[Any, Any] | None = engine.computer()
    assert brain is not None
    state = engine.new_game(2, options, seed + index)
    secret, other_secret = secrets.randbits(62), secrets.randbits(62)
    rng = random.Random(f"predict:{seed}:{index}")
    counts = dict.fromkeys(("rounds", "reproduced", "chance", "races", "delays"), 0)
    version = 0
    while engine.result(state) is None and version < 5000:
        awaited = sorted(engine.waiting_for(state))
        if not awaited:
            break
        if 0 in awaited and state_phase(state) == "race":
            counts["races"] += 1
            key = str(version)
            actual = brain.answer_delay(
                state,
                0,
                level,
                random.Random(
                    legacy_seed(index, version, 0) if legacy else seat_seed(secret, "delay", key)
                ),
            )
            guess = brain.answer_delay(
                state, 0, level, random.Random(legacy_seed(index, version, 0))
            )
            counts["delays"] += round(actual * 1000) == round(guess * 1000)
        for seat in awaited:
            if engine.result(state) is not None or seat not in engine.waiting_for(state):
                continue
            if seat == 0:
                real_seed = (
                    legacy_seed(index, version, 0)
                    if legacy
                    else seat_seed(secret, "decide", str(version))
                )
                plan = decide(brain, state, 0, level, real_seed)
                if exploitable(game, engine, state):
                    counts["rounds"] += 1
                    known = brain.sample(state, 1, random.Random(rng.getrandbits(63)))
                    guess = decide(brain, known, 0, level, legacy_seed(index, version, 0))
                    counts["reproduced"] += guess == plan
                    other = decide(
                        brain, state, 0, level, seat_seed(other_secret, "decide", str(version))
                    )
                    counts["chance"] += other == plan
            else:
                plan = decide(brain, state, seat, "easy", rng.getrandbits(63))
            if not plan or not apply_plan(engine, state, seat, plan):
                legal = engine.legal_actions(state, seat)
                apply_plan(engine, state, seat, (rng.choice(legal),))
            version += 1
    return counts


def state_phase(state: Any) -> str:
    return str(getattr(state, "phase", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="temple")
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--legacy", action="store_true", help="decide with the ids' seed")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    started = time.monotonic()
    total = dict.fromkeys(("rounds", "reproduced", "chance", "races", "delays"), 0)
    for index in range(args.games):
        for key, value in play(
            args.game, args.level, index, args.seed, args.legacy, options
        ).items():
            total[key] += value
    how = "ids, as before" if args.legacy else "secret"
    print(
        f"{args.game} {args.level} ({how}), {args.games} games in"
        f" {time.monotonic() - started:.0f} s: decisions reproduced {total['reproduced']} of"
        f" {total['rounds']}; two secrets agree in {total['chance']} of {total['rounds']}"
        f" (chance); race delays reproduced {total['delays']} of {total['races']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
