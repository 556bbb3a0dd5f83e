"""A random legal player, for the offline demo, benchmarks and tests.

It picks a verb first and then one of that verb's legal actions, so that
cheap actions (a hundred possible moves) do not crowd out the rare ones
(a guard, an exchange); it ends a turn at random, more readily as its AP
run low, and keeps its bids small.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.games.tikal import flow, legal, rules, turns
from bot.games.tikal.actions import Action, Bid, End
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_BID, PHASE_OVER, GameState

#: verbs chosen more often (the others weigh 1)
WEIGHTS = {"enter": 4, "move": 5, "dig": 3, "recover": 3, "guard": 2, "camp": 1, "exchange": 1}
MAX_STEPS = 5000


def choose(state: GameState, seat: int, rng: random.Random) -> Action:
    """A random legal action for ``seat``."""
    if state.phase == PHASE_ACTIONS:
        options = {
            verb: actions
            for verb in legal.verbs_now(state, seat)
            if verb != "end" and (actions := legal.actions_for(state, seat, verb))
        }
        turn = state.turn
        assert turn is not None
        if not options or rng.random() < 0.08 + (0.25 if turn.ap <= 2 else 0.0):
            return End()
        verbs = sorted(options)
        verb = rng.choices(verbs, [WEIGHTS.get(v, 1) for v in verbs])[0]
        return rng.choice(options[verb])
    actions = legal.legal_actions(state, seat)
    if state.phase == PHASE_BID:
        cheap = [a for a in actions if not isinstance(a, Bid) or a.amount <= 4]
        return rng.choice(cheap)
    return rng.choice(actions)


@dataclass
class Played:
    """A finished random game: its final state and its move log."""

    state: GameState
    log: list[tuple[int, str]] = field(default_factory=list)


def random_game(mode: str, seats: int, seed: int, stop_after: int | None = None) -> Played:
    """Play a whole game (or ``stop_after`` steps) with random legal actions."""
    state = turns.new_game(seats, mode, seed)
    rng = random.Random(seed * 7919 + seats)
    played = Played(state)
    while state.phase != PHASE_OVER and len(played.log) < (stop_after or MAX_STEPS):
        (seat,) = rules.waiting_for(state)
        action = choose(state, seat, rng)
        flow.apply(state, seat, action)
        played.log.append((seat, str(action)))
    return played
