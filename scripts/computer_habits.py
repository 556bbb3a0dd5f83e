"""How a computer player plays the parts issue 28 found weak: counts over self-play games.

    python scripts/computer_habits.py --game tigris [--baseline] [--games 4]
    python scripts/computer_habits.py --game temple [--baseline] [--games 6]

Both seats play ``strong`` (the current player, or with ``--baseline`` the frozen
one), dealt with seeds 1000 and up, decision seeds from ``random.Random(game)``.
It prints one line of counts:

* Tigris & Euphrates: revolts a seat started (``revolt_attacks``), those it
  committed no tile to while holding reds (``attack_commit0_with_reds``), the same
  leader placed on the same square twice in one turn (``same_leader_same_square``),
  withdrawals and swaps, and every action's count;
* Temple Rush: round decisions (``round_decisions``) and those that passed while a
  brick was legal (``pass_with_brick``), bonus choices by length kept and by the
  longest length offered, and how each game ended.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import plugins
from bot.games.computer import apply_plan, decide


def tigris(state: Any, seat: int, plan: Any, c: Counter[str], placed: set[Any]) -> None:
    from bot.games.tigris.actions import PlaceLeader

    action = plan[0]
    c["act_" + type(action).__name__] += 1
    conflict = state.conflict
    attacking = state.phase == "revolt_support" and conflict.attacker == seat
    if attacking and conflict.attacker_committed is None:
        c["revolt_attacks"] += 1
        if action.count == 0 and state.players[seat].hand.count("red"):
            c["attack_commit0_with_reds"] += 1
    if isinstance(action, PlaceLeader):
        key = (state.turn_number, seat, action.leader, action.square)
        if key in placed:
            c["same_leader_same_square"] += 1
        placed.add(key)


def temple(state: Any, seat: int, plan: Any, c: Counter[str], placed: set[Any]) -> None:
    from bot.games.temple import legal
    from bot.games.temple.actions import Bonus, Move, Pass, Place

    if state.phase == "round":
        c["round_decisions"] += 1
        bricks = [a for a in legal.round_actions(state, seat) if isinstance(a, Place | Move)]
        if plan and isinstance(plan[-1], Pass) and bricks:
            c["pass_with_brick"] += 1
    if plan and isinstance(plan[0], Bonus):
        offered = max(state.players[seat].pending_bonus[plan[0].area])
        c[f"bonus_kept_{plan[0].length}"] += 1
        c[f"bonus_longest_offered_{offered}"] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("tigris", "temple"), default="tigris")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--baseline", action="store_true", help="the frozen strong player")
    args = parser.parse_args()
    engine = plugins.load_builtin_games()[args.game].engine
    brain = engine.computer()
    if brain is None:
        raise SystemExit(f"{args.game} has no computer player")
    if args.baseline:
        frozen = brain.baseline()
        if frozen is None:
            raise SystemExit(f"{args.game} has no frozen baseline")
        brain = frozen
    count = tigris if args.game == "tigris" else temple
    totals: Counter[str] = Counter()
    for index in range(args.games):
        state = engine.new_game(2, {}, 1000 + index)
        rng = random.Random(index)
        game: Counter[str] = Counter()
        placed: set[Any] = set()
        for _ in range(5000):
            if engine.result(state) is not None:
                break
            for seat in sorted(engine.waiting_for(state)):
                if seat not in engine.waiting_for(state):
                    continue
                plan = decide(brain, state, seat, "strong", rng.getrandbits(60))
                count(state, seat, plan, game, placed)
                if not apply_plan(engine, state, seat, plan):
                    apply_plan(
                        engine, state, seat, (rng.choice(engine.legal_actions(state, seat)),)
                    )
        totals.update(game)
        if args.game == "temple":
            totals[f"end_{state.end_reason}"] += 1
    which = "baseline" if args.baseline else "strong"
    print(f"{args.game} {which}, {args.games} games:", dict(sorted(totals.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
