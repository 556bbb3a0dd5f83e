"""Oracle: a tiny game for testing the platform, never shipped as a product game.

It has the simultaneous shape the service must handle (the sequential one
is :mod:`tests.support.relay`):

* hidden information: each seat holds a private hand of three cards (values
  1..5 dealt from a seeded deck), and cards played in the current round stay
  hidden (sealed) until every seat has played;
* a simultaneous sealed round: every seat plays one card (``play N``);
  ``waiting_for`` holds every seat that has not played yet, and a seat that
  has played may change its card until the round resolves (``may_act``);
  each card is confirmed to its player alone (``oracle.event.you_played``)
  but the round's last, which its reveal names in public (``reveals``);
* a round deadline (lobby option ``deadline: 1h``): a seat still missing at
  the deadline plays its lowest card (the timeout action);
* private choices: a seat's own cards come as buttons only it sees;
* a single-seat decision: after the reveal, the round's winner (highest card,
  ties to the lower seat) chooses ``claim`` (1 point) or ``gift`` (1 point to
  the next seat), offered as public buttons;
* an end: after three rounds, ranked by points (ties share a place).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Deadline, Event, GameEngine, OptionSpec, Result, RuleError, TurnShape
from bot.games.notation import Count, Param, VerbTable, verb

ROUNDS = 3
DEADLINES = {"none": None, "1h": 3600.0}


@verb("play", Param("card", Count(1, 99)))
@dataclass(frozen=True)
class Play:
    card: int


@verb("claim")
@dataclass(frozen=True)
class Keep:
    @property
    def gift(self) -> bool:
        return False


@verb("gift")
@dataclass(frozen=True)
class Gift:
    @property
    def gift(self) -> bool:
        return True


def Claim(gift: bool) -> Keep | Gift:
    return Gift() if gift else Keep()


@dataclass
class OracleState:
    seats: int
    hands: list[list[int]]
    played: dict[int, int] = field(default_factory=dict)
    revealed: dict[int, int] = field(default_factory=dict)
    points: list[int] = field(default_factory=list)
    round: int = 1
    chooser: int | None = None
    deck: list[int] = field(default_factory=list)
    style: str = "plain"
    deadline: str = "none"


class OracleEngine(GameEngine[OracleState, Any]):
    name = "oracle"
    title_key = "oracle.title"
    help_key = "oracle.help"
    min_players = 2
    max_players = 4
    turns = TurnShape.SIMULTANEOUS
    has_private_view = True
    options = (
        OptionSpec("style", ("plain", "fancy"), "oracle.option.style"),
        OptionSpec("deadline", ("none", "1h"), "oracle.option.deadline"),
    )
    verbs = VerbTable((Play, Keep, Gift), error_key="oracle.error.bad_notation")

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> OracleState:
        deck = [v for v in range(1, 6) for _ in range(3)]
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[i * 3 : i * 3 + 3]) for i in range(seats)]
        return OracleState(
            seats=seats,
            hands=hands,
            points=[0] * seats,
            deck=deck[seats * 3 :],
            style=options.get("style", "plain"),
            deadline=options.get("deadline", "none"),
        )

    def waiting_for(self, state: OracleState) -> set[int]:
        if self.result(state) is not None:
            return set()
        if state.chooser is not None:
            return {state.chooser}
        return {s for s in range(state.seats) if s not in state.played}

    def may_act(self, state: OracleState, seat: int) -> bool:
        """A seat that has played may change its sealed card until the reveal."""
        if self.result(state) is not None:
            return False
        if state.chooser is not None:
            return seat == state.chooser
        return 0 <= seat < state.seats

    def turn_number(self, state: OracleState) -> int:
        """Each round has two decisions: the sealed cards, then the winner's choice."""
        return 2 * state.round + (state.chooser is not None)

    def deadlines(self, state: OracleState) -> list[Deadline]:
        seconds = DEADLINES[state.deadline]
        if seconds is None or state.chooser is not None or self.result(state) is not None:
            return []
        return [Deadline(f"round:{state.round}", seconds)]

    def timeout_action(self, state: OracleState, seat: int) -> Any:
        """A late seat plays its lowest card (leaks nothing: nobody sees it until the reveal)."""
        if state.chooser is not None or not state.hands[seat]:
            return None
        return Play(min(state.hands[seat]))

    def legal_actions(self, state: OracleState, seat: int) -> list[Any]:
        if not self.may_act(state, seat):
            return []
        if state.chooser is not None:
            return [Claim(False), Claim(True)]
        return [Play(card) for card in sorted(set(state.hands[seat]))]

    def private_choices(self, state: OracleState, seat: int) -> list[Any]:
        """A seat's own cards, as buttons only it sees (they spell out its hand)."""
        if state.chooser is not None or not self.may_act(state, seat):
            return []
        return [Play(card) for card in sorted(set(state.hands[seat]))]

    def public_choices(self, state: OracleState, seat: int) -> list[Any]:
        """Buttons for the winner's claim/gift; the cards in a hand are never buttons."""
        if state.chooser is None or seat != state.chooser or self.result(state) is not None:
            return []
        return [Claim(False), Claim(True)]

    def public_notation(self, action: Any) -> str:
        """A card played is face down: everyone sees that a card was played."""
        return "play ?" if isinstance(action, Play) else str(action)

    def apply(self, state: OracleState, seat: int, action: Any) -> list[Event]:
        if not self.may_act(state, seat):
            raise RuleError("oracle.error.not_waiting")
        if isinstance(action, Play):
            if state.chooser is not None:
                raise RuleError("oracle.error.choose_first")
            if action.card not in state.hands[seat]:
                raise RuleError("oracle.error.no_such_card", card=action.card)
            changed = seat in state.played
            if changed:
                state.hands[seat].append(state.played.pop(seat))
                state.hands[seat].sort()
            state.hands[seat].remove(action.card)
            state.played[seat] = action.card
            key = "oracle.event.changed" if changed else "oracle.event.played"
            events = [Event(key, {"seat": seat})]
            if len(state.played) < state.seats:  # the reveal tells the last card publicly
                events.append(
                    Event("oracle.event.you_played", {"card": action.card}, private_to=seat)
                )
            else:
                state.revealed = dict(state.played)
                state.played = {}
                best = max(state.revealed.values())
                state.chooser = min(s for s, c in state.revealed.items() if c == best)
                shown = ", ".join(f"{s + 1}:{c}" for s, c in sorted(state.revealed.items()))
                events.append(Event("oracle.event.revealed", {"cards": shown}))
                events.append(Event("oracle.event.winner", {"seat": state.chooser}))
            return events
        if isinstance(action, Keep | Gift):
            if state.chooser is None:
                raise RuleError("oracle.error.nothing_to_choose")
            receiver = (seat + 1) % state.seats if action.gift else seat
            state.points[receiver] += 1
            state.chooser = None
            state.round += 1
            if state.round <= ROUNDS:
                for s in range(state.seats):
                    if state.deck:
                        state.hands[s].append(state.deck.pop())
                    state.hands[s].sort()
            return [Event("oracle.event.point", {"seat": receiver})]
        raise RuleError("oracle.error.bad_notation", text=str(action))

    def reveals(self, state: OracleState, seat: int, action: Any, events: Sequence[Event]) -> bool:
        """The round's last card is named by its reveal, with every seat's."""
        return isinstance(action, Play) and any(e.key == "oracle.event.revealed" for e in events)

    def public_view(self, state: OracleState) -> dict[str, Any]:
        return {
            "game": "oracle",
            "round": min(state.round, ROUNDS),
            "points": list(state.points),
            "has_played": sorted(state.played),
            "revealed": {str(s): c for s, c in sorted(state.revealed.items())},
            "hand_sizes": [len(h) for h in state.hands],
            "chooser": state.chooser,
            "deck": len(state.deck),
            "style": state.style,
        }

    def private_view(self, state: OracleState, seat: int) -> dict[str, Any]:
        return {
            "game": "oracle",
            "seat": seat,
            "hand": list(state.hands[seat]),
            "played": state.played.get(seat),
        }

    def result(self, state: OracleState) -> Result | None:
        if state.round <= ROUNDS:
            return None
        ranking = tuple(sorted(range(state.seats), key=lambda s: (-state.points[s], s)))
        places: dict[int, int] = {}
        for index, seat in enumerate(ranking):
            tied = index and state.points[ranking[index - 1]] == state.points[seat]
            places[seat] = places[ranking[index - 1]] if tied else index + 1
        return Result(
            ranking=ranking,
            places=places,
            scores={s: state.points[s] for s in range(state.seats)},
        )

    def dump_state(self, state: OracleState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "hands": state.hands,
            "played": {str(k): v for k, v in state.played.items()},
            "revealed": {str(k): v for k, v in state.revealed.items()},
            "points": state.points,
            "round": state.round,
            "chooser": state.chooser,
            "deck": state.deck,
            "style": state.style,
            "deadline": state.deadline,
        }

    def load_state(self, data: Mapping[str, Any]) -> OracleState:
        return OracleState(
            seats=data["seats"],
            hands=[list(h) for h in data["hands"]],
            played={int(k): v for k, v in data["played"].items()},
            revealed={int(k): v for k, v in data["revealed"].items()},
            points=list(data["points"]),
            round=data["round"],
            chooser=data["chooser"],
            deck=list(data["deck"]),
            style=data["style"],
            deadline=data.get("deadline", "none"),
        )


ENGINE = OracleEngine()
