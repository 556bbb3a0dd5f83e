"""Computer players for the test games: Oracle and Relay with a small honest Brain.

The product games' brains are their own; these exist so the service's computer
seats can be tested on the tiny games (:mod:`tests.support.oracle`,
:mod:`tests.support.relay`). They are registered under their own names
(``robot_oracle``, ``robot_relay``) so the plain test games keep offering no
computer player.

Decisions:

* Oracle's brain samples honestly: the other hands, the other seats' sealed
  cards and the deck are pooled, sorted and dealt afresh from the search's
  random source; its evaluation is its points against the best other seat's.
* Relay has one hidden thing, the deck's order: the sample shuffles it. Its
  evaluation is the seat's marker and cards against the best other seat's. Its
  plans are whole turns (an action, then the end of the turn), so a computer
  turn of several steps is one decision and one commit.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.computer import Brain, result_value
from tests.support.oracle import OracleEngine, OracleState
from tests.support.relay import End, RelayEngine, RelayState


class OracleBrain(Brain[OracleState, Any]):
    def plans(self, state: OracleState, seat: int) -> list[tuple[Any, ...]]:
        return [(action,) for action in self.engine.legal_actions(state, seat)]

    def evaluate(self, state: OracleState, seat: int) -> float:
        done = result_value(self.engine, state, seat)
        if done is not None:
            return done
        others = [p for s, p in enumerate(state.points) if s != seat]
        return float(state.points[seat] - max(others, default=0))

    def sample(self, state: OracleState, seat: int, rng: random.Random) -> OracleState:
        world = self.copy(state)
        others = [s for s in range(world.seats) if s != seat]
        unseen = sorted(
            [card for s in others for card in world.hands[s]]
            + [world.played[s] for s in others if s in world.played]
            + world.deck
        )
        rng.shuffle(unseen)
        for s in others:
            size = len(world.hands[s])
            world.hands[s], unseen = sorted(unseen[:size]), unseen[size:]
            if s in world.played:
                world.played[s], unseen = unseen[0], unseen[1:]
        world.deck = unseen
        return world


class RelayBrain(Brain[RelayState, Any]):
    def plans(self, state: RelayState, seat: int) -> list[tuple[Any, ...]]:
        """Whole turns: one action, then the end of the turn (several steps a plan)."""
        legal = self.engine.legal_actions(state, seat)
        return [(a,) if isinstance(a, End) else (a, End()) for a in legal]

    def evaluate(self, state: RelayState, seat: int) -> float:
        done = result_value(self.engine, state, seat)
        if done is not None:
            return done

        def score(s: int) -> int:
            return state.positions[s] + sum(state.cards[s]) if state.cards else state.positions[s]

        others = [score(s) for s in range(state.seats) if s != seat]
        return float(score(seat) - max(others, default=0))

    def sample(self, state: RelayState, seat: int, rng: random.Random) -> RelayState:
        world = self.copy(state)
        deck = sorted(world.deck)
        rng.shuffle(deck)
        world.deck = deck
        return world


class RobotOracle(OracleEngine):
    name = "robot_oracle"

    def computer(self) -> Brain[OracleState, Any]:
        return OracleBrain(self)


class RobotRelay(RelayEngine):
    name = "robot_relay"

    def computer(self) -> Brain[RelayState, Any]:
        return RelayBrain(self)


ORACLE = RobotOracle()
RELAY = RobotRelay()
