"""Relay: a tiny sequential test game of multi-step turns, never shipped as a product game.

It has the sequential shape the service must handle (the simultaneous one is
:mod:`tests.support.oracle`):

* a turn of many steps by one seat: 4 action points (AP) per turn;
  ``step N`` moves the seat's marker N spaces for N AP — a step that can be
  taken back;
* a hidden reveal: ``draw`` (1 AP) turns the top card of a seeded face-down
  deck face up and scores it — a checkpoint, never taken back;
* ``end`` ends the turn (also the End-turn button); a turn with no AP left
  ends by itself;
* an end: after every seat has had four turns, ranked by marker + cards.

Nothing is private, so it has no private view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Event, GameEngine, Result, RuleError, SeatColour
from bot.games.notation import Count, Param, VerbTable, verb

AP_PER_TURN = 4
TURNS_EACH = 4


@verb("step", Param("count", Count(1, 3)))
@dataclass(frozen=True)
class Step:
    count: int


@verb("draw")
@dataclass(frozen=True)
class Draw:
    pass


@verb("end")
@dataclass(frozen=True)
class End:
    pass


@dataclass
class RelayState:
    seats: int
    deck: list[int]
    positions: list[int]
    cards: list[list[int]] = field(default_factory=list)
    active: int = 0
    ap: int = AP_PER_TURN
    turns: int = 0


class RelayEngine(GameEngine[RelayState, Any]):
    name = "relay"
    title_key = "relay.title"
    help_key = "relay.help"
    min_players = 2
    max_players = 4
    seat_colours = (
        SeatColour("#d04040", "relay.colour.red"),
        SeatColour("#4060d0", "relay.colour.blue"),
        SeatColour("#40a040", "relay.colour.green"),
        SeatColour("#d0a020", "relay.colour.yellow"),
    )
    verbs = VerbTable((Step, Draw, End), error_key="relay.error.bad_notation")

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> RelayState:
        deck = [v for v in range(1, 7) for _ in range(2)]
        random.Random(seed).shuffle(deck)
        return RelayState(seats, deck, [0] * seats, [[] for _ in range(seats)])

    def waiting_for(self, state: RelayState) -> set[int]:
        return set() if self._over(state) else {state.active}

    def _over(self, state: RelayState) -> bool:
        return state.turns >= TURNS_EACH * state.seats

    def legal_actions(self, state: RelayState, seat: int) -> list[Any]:
        if seat not in self.waiting_for(state):
            return []
        moves: list[Any] = [Step(n) for n in range(1, min(3, state.ap) + 1)]
        if state.deck:
            moves.append(Draw())
        return [*moves, End()]

    def apply(self, state: RelayState, seat: int, action: Any) -> list[Event]:
        if seat not in self.waiting_for(state):
            raise RuleError("relay.error.not_your_turn")
        events: list[Event] = []
        if isinstance(action, Step):
            if action.count > state.ap:
                raise RuleError("relay.error.no_ap", cost=action.count, left=state.ap)
            state.ap -= action.count
            state.positions[seat] += action.count
            events.append(Event("relay.event.stepped", {"seat": seat, "count": action.count}))
        elif isinstance(action, Draw):
            if not state.deck:
                raise RuleError("relay.error.deck_empty")
            state.ap -= 1
            card = state.deck.pop()
            state.cards[seat].append(card)
            events.append(Event("relay.event.drew", {"seat": seat, "card": card}))
        elif isinstance(action, End):
            state.ap = 0
        if state.ap == 0:
            state.turns += 1
            state.active = (state.active + 1) % state.seats
            state.ap = AP_PER_TURN
            events.append(Event("relay.event.turn_over", {"seat": seat}))
        return events

    def turn_number(self, state: RelayState) -> int:
        return state.turns

    def is_checkpoint(
        self, state: RelayState, seat: int, action: Any, events: Sequence[Event]
    ) -> bool:
        """A draw reveals a hidden card."""
        return isinstance(action, Draw)

    def end_turn_action(self, state: RelayState, seat: int) -> Any:
        return End() if seat in self.waiting_for(state) else None

    def step_summary(self, state: RelayState, seat: int) -> tuple[str, Mapping[str, Any]] | None:
        return ("relay.summary", {"ap": state.ap}) if seat == state.active else None

    def timeout_action(self, state: RelayState, seat: int) -> Any:
        return End()

    def public_view(self, state: RelayState) -> dict[str, Any]:
        return {
            "positions": list(state.positions),
            "cards": [list(c) for c in state.cards],
            "active": state.active,
            "ap": state.ap,
            "deck": len(state.deck),
            "turns": state.turns,
        }

    def result(self, state: RelayState) -> Result | None:
        if not self._over(state):
            return None
        score = {s: state.positions[s] + sum(state.cards[s]) for s in range(state.seats)}
        ranking = tuple(sorted(score, key=lambda s: (-score[s], s)))
        places: dict[int, int] = {}
        for index, seat in enumerate(ranking):
            tied = index and score[ranking[index - 1]] == score[seat]
            places[seat] = places[ranking[index - 1]] if tied else index + 1
        return Result(ranking, places, score)

    def dump_state(self, state: RelayState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "deck": list(state.deck),
            "positions": list(state.positions),
            "cards": [list(c) for c in state.cards],
            "active": state.active,
            "ap": state.ap,
            "turns": state.turns,
        }

    def load_state(self, data: Mapping[str, Any]) -> RelayState:
        return RelayState(
            seats=data["seats"],
            deck=list(data["deck"]),
            positions=list(data["positions"]),
            cards=[list(c) for c in data["cards"]],
            active=data["active"],
            ap=data["ap"],
            turns=data["turns"],
        )


ENGINE = RelayEngine()
