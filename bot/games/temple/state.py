"""Game state: plain dataclasses, their JSON form and the seeded randomness.

Everything that decides the future lives here: the deck in draw order, the
dice, every brick and the counter of the seeded RNG, so ``new_game(seed)``
plus the move log replays exactly. Only :mod:`~bot.games.temple.views`
decides what the public sees (sealed submissions never).

Phases (``GameState.phase``):

``round``
    dice are rolled; every seat owes a sealed submission;
``bonus``
    after a reveal, completers choose the brick they keep as a bonus;
``race``
    the lightning card is up; the first valid layout wins it;
``over``
    the game has ended (``end_reason`` says why).

Decisions:

* Randomness: each random event (the setup shuffle, a round's dice) uses
  ``random.Random("temple:<seed>:<n>")`` where ``n`` counts the events so
  far (``draws``): a tiny JSON state, and exact replays.
* A brick on a board remembers the round whose reveal laid it, so the views
  can mark the bricks laid last round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.games.temple import actions
from bot.games.temple.actions import Bag, Mortar, Move, Place, Relay, Swap
from bot.games.temple.cards import Card, card
from bot.games.temple.components import LENGTHS, MAX_AREAS, TOKENS, full_supply
from bot.games.temple.geometry import Brick, Cell

STATE_VERSION = 1

PHASE_ROUND = "round"
PHASE_BONUS = "bonus"
PHASE_RACE = "race"
PHASE_OVER = "over"
PHASES = (PHASE_ROUND, PHASE_BONUS, PHASE_RACE, PHASE_OVER)


class Laid(NamedTuple):
    """A brick on a board and the round whose reveal laid it (0: none yet)."""

    brick: Brick
    round: int


@dataclass
class Submission:
    """One seat's sealed submission for the current round, part by part.

    ``brick`` is the brick laid (``place`` or ``move``); without Hammer &
    Chisel a swap and a brick exclude each other. ``relays`` re-lays areas
    whose card changed. It is complete (the seat is no longer awaited) once
    it says what happens to the round's brick: a brick, a pass, or a swap
    (a swap under Hammer & Chisel still waits for the brick or a pass).
    """

    brick: Place | Move | None = None
    swap: Swap | None = None
    passed: bool = False
    hammer: bool = False
    mortar: Mortar | None = None
    bag: Bag | None = None
    relays: dict[int, Relay] = field(default_factory=dict)

    def complete(self) -> bool:
        return self.passed or self.brick is not None or (self.swap is not None and not self.hammer)

    def add(self, part: actions.Action) -> None:
        """Put a part in: a brick, swap or pass replaces what it excludes
        (without Hammer & Chisel a swap and a brick exclude each other); a
        token or a re-lay is added (replacing one of its own kind)."""
        if isinstance(part, Place | Move):
            self.brick, self.passed = part, False
            if not self.hammer:
                self.swap = None
        elif isinstance(part, Swap):
            self.swap = part
            if not self.hammer:
                self.brick, self.passed = None, False
        elif isinstance(part, actions.Pass):
            self.brick, self.passed = None, True
            if not self.hammer:
                self.swap = None
        elif isinstance(part, actions.Hammer):
            self.hammer = True
        elif isinstance(part, Mortar):
            self.mortar = part
        elif isinstance(part, Bag):
            self.bag = part
        elif isinstance(part, Relay):
            self.relays[part.area] = part
        else:
            raise ValueError(f"not a part of a submission: {part}")

    def empty(self) -> bool:
        return self == Submission()

    def parts(self) -> list[actions.Action]:
        """The parts in the order they are applied at the reveal."""
        parts: list[actions.Action] = []
        if self.hammer:
            parts.append(actions.Hammer())
        if self.mortar is not None:
            parts.append(self.mortar)
        parts += [self.relays[area] for area in sorted(self.relays)]
        if self.swap is not None:
            parts.append(self.swap)
        if self.brick is not None:
            parts.append(self.brick)
        if self.passed:
            parts.append(actions.Pass())
        if self.bag is not None:
            parts.append(self.bag)
        return parts

    def copy(self) -> Submission:
        return Submission(
            self.brick,
            self.swap,
            self.passed,
            self.hammer,
            self.mortar,
            self.bag,
            dict(self.relays),
        )


@dataclass
class Player:
    """One seat's bricks, tokens and winnings.

    ``builds`` has one list per build area (unused areas stay empty);
    ``tokens`` the power tokens not yet played; ``mortar_area`` the area the
    played Mortar lies on until a temple is completed there. ``relay_pools``
    holds, for an area whose card just changed, the lengths of the bricks
    the build had before it was fitted (what a ``relay`` may use);
    ``pending_bonus`` the own bricks of a completed temple waiting for the
    bonus choice, by area.
    """

    supply: dict[int, int] = field(default_factory=full_supply)
    builds: list[list[Laid]] = field(default_factory=lambda: [[] for _ in range(MAX_AREAS)])
    bonus: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=lambda: list(TOKENS))
    mortar_area: int | None = None
    won: list[str] = field(default_factory=list)
    score_tokens: list[int] = field(default_factory=list)
    relay_pools: dict[int, list[int]] = field(default_factory=dict)
    pending_bonus: dict[int, list[int]] = field(default_factory=dict)

    def bricks(self, area: int) -> list[Brick]:
        return [laid.brick for laid in self.builds[area]]

    def owned(self) -> dict[int, int]:
        """Bricks in supply and builds by length (bonus and pending excluded)."""
        counts = dict(self.supply)
        for build in self.builds:
            for laid in build:
                counts[laid.brick.length] += 1
        return counts

    def copy(self) -> Player:
        return Player(
            dict(self.supply),
            [list(build) for build in self.builds],
            list(self.bonus),
            list(self.tokens),
            self.mortar_area,
            list(self.won),
            list(self.score_tokens),
            {a: list(v) for a, v in self.relay_pools.items()},
            {a: list(v) for a, v in self.pending_bonus.items()},
        )


@dataclass
class GameState:
    """A whole game of Temple Rush.

    ``slots`` holds the face-up card (id) above each build area, None once
    the deck can no longer refill it; ``ages`` how many rounds each has been
    revealed with that card up; ``deck`` the cards left, top first
    (the lightning card among them); ``roller`` the seat that rolled this
    round (its submission is applied first). ``last_shown`` holds the card
    last shown above each area: it stays when that card is won or set aside
    until the next one comes, so a build left in an area with no card (two
    cards won in one round and the first refill turned up the lightning
    card) is judged against the card it was built for. ``last_exit`` says how
    the last temple card to leave play left it (``complete``, or set aside:
    ``dead``, ``expired``), the end's reason when no temple card is left.
    ``race`` counts the lightning
    races started; ``race_card`` is the card raced for now. ``joint_offers``
    maps a seat to the partner it offered to build the last card with,
    ``joint_pair`` the two seats that agreed. ``revealed`` is the last
    round revealed and ``last_moves`` what each seat did then (notation).
    """

    seats: int
    seed: int
    deadline: str
    joint_rule: bool
    players: list[Player]
    slots: list[str | None]
    deck: list[str]
    ages: list[int] = field(default_factory=list)
    draws: int = 0
    phase: str = PHASE_ROUND
    round: int = 0
    roller: int = 0
    dice: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    submissions: dict[int, Submission] = field(default_factory=dict)
    race: int = 0
    race_card: str | None = None
    race_skipped: set[int] = field(default_factory=set)
    joint_offers: dict[int, int] = field(default_factory=dict)
    joint_pair: tuple[int, int] | None = None
    idle_rounds: int = 0
    revealed: int = 0
    last_moves: dict[int, list[str]] = field(default_factory=dict)
    end_reason: str | None = None
    last_shown: list[str | None] = field(default_factory=list)
    last_exit: str = "complete"

    def __post_init__(self) -> None:
        if not self.last_shown:  # a state made by hand, or stored before the field
            self.last_shown = list(self.slots)

    # -- derived -------------------------------------------------------------

    def card_at(self, area: int) -> Card | None:
        """The card above an area, or None for an unused or emptied area."""
        if area >= len(self.slots):
            return None
        slot = self.slots[area]
        return None if slot is None else card(slot)

    def active_areas(self) -> list[int]:
        return [a for a in range(len(self.slots)) if self.slots[a] is not None]

    def silhouette(self, area: int) -> frozenset[Cell]:
        found = self.card_at(area)
        return found.cells if found is not None else frozenset()

    def judged_silhouette(self, area: int) -> frozenset[Cell]:
        """What a build in ``area`` is judged against: the card above it, or, while
        the area has none, the last card it showed
        (``docs/rules/temple_rush.md#lightning-race``:
        what is left after a race pull keeps its bricks when still connected and
        inside its area's silhouette, judged against the area's last card)."""
        if self.card_at(area) is not None:
            return self.silhouette(area)
        last = self.last_shown[area] if area < len(self.last_shown) else None
        return card(last).cells if last is not None else frozenset()

    def has_mortar(self, seat: int, area: int) -> bool:
        return self.players[seat].mortar_area == area

    def order(self) -> list[int]:
        """Seats from the roller, clockwise: the order moves are applied in."""
        return [(self.roller + i) % self.seats for i in range(self.seats)]

    def submission(self, seat: int) -> Submission:
        return self.submissions.get(seat) or Submission()

    def awaited(self) -> set[int]:
        """The seats the game waits for: an incomplete sealed move (round),
        a bonus to choose (bonus), a race not given up (race); none at the end."""
        if self.phase == PHASE_ROUND:
            return {s for s in range(self.seats) if not self.submission(s).complete()}
        if self.phase == PHASE_BONUS:
            return {s for s, p in enumerate(self.players) if p.pending_bonus}
        if self.phase == PHASE_RACE:
            return set(range(self.seats)) - self.race_skipped
        return set()

    def temple_cards_left(self) -> int:
        """Temple cards still to be won: face up and in the deck."""
        return sum(1 for s in self.slots if s is not None) + sum(
            1 for c in self.deck if not card(c).lightning
        )

    def last_card(self) -> bool:
        """Exactly one temple card is left in the game (the joint rule's moment)."""
        return self.temple_cards_left() == 1 and not self.deck

    def joint_area(self) -> int | None:
        """The area of the last card while a joint pair builds it."""
        if self.joint_pair is None:
            return None
        areas = self.active_areas()
        return areas[0] if len(areas) == 1 else None

    def random(self) -> random.Random:
        """The next random source; each call is a new, counted event."""
        rng = random.Random(f"temple:{self.seed}:{self.draws}")
        self.draws += 1
        return rng


# --------------------------------------------------------------------------- JSON


def _dump_laid(laid: Laid) -> list[int]:
    return [laid.brick.length, laid.brick.x, laid.brick.y, laid.round]


def _load_laid(data: list[int]) -> Laid:
    return Laid(Brick(int(data[0]), int(data[1]), int(data[2])), int(data[3]))


def _dump_player(player: Player) -> dict[str, Any]:
    return {
        "supply": {str(k): player.supply[k] for k in LENGTHS},
        "builds": [[_dump_laid(laid) for laid in build] for build in player.builds],
        "bonus": list(player.bonus),
        "tokens": list(player.tokens),
        "mortar_area": player.mortar_area,
        "won": list(player.won),
        "score_tokens": list(player.score_tokens),
        "relay_pools": {str(a): list(v) for a, v in sorted(player.relay_pools.items())},
        "pending_bonus": {str(a): list(v) for a, v in sorted(player.pending_bonus.items())},
    }


def _load_player(data: dict[str, Any]) -> Player:
    return Player(
        supply={int(k): int(v) for k, v in data["supply"].items()},
        builds=[[_load_laid(laid) for laid in build] for build in data["builds"]],
        bonus=[int(v) for v in data["bonus"]],
        tokens=[str(v) for v in data["tokens"]],
        mortar_area=data["mortar_area"],
        won=[str(v) for v in data["won"]],
        score_tokens=[int(v) for v in data["score_tokens"]],
        relay_pools={int(a): [int(x) for x in v] for a, v in data["relay_pools"].items()},
        pending_bonus={int(a): [int(x) for x in v] for a, v in data["pending_bonus"].items()},
    )


def _dump_submission(sub: Submission) -> list[str]:
    return [str(part) for part in sub.parts()]


def _load_submission(data: list[str]) -> Submission:
    sub = Submission()
    for text in data:  # the parts in their order of application rebuild it exactly
        sub.add(actions.parse_action(text))
    return sub


def dump_state(state: GameState) -> dict[str, Any]:
    return {
        "version": STATE_VERSION,
        "seats": state.seats,
        "seed": state.seed,
        "deadline": state.deadline,
        "joint_rule": state.joint_rule,
        "players": [_dump_player(p) for p in state.players],
        "slots": list(state.slots),
        "deck": list(state.deck),
        "ages": list(state.ages),
        "draws": state.draws,
        "phase": state.phase,
        "round": state.round,
        "roller": state.roller,
        "dice": list(state.dice),
        "discarded": list(state.discarded),
        "submissions": {
            str(seat): _dump_submission(sub) for seat, sub in sorted(state.submissions.items())
        },
        "race": state.race,
        "race_card": state.race_card,
        "race_skipped": sorted(state.race_skipped),
        "joint_offers": {str(a): b for a, b in sorted(state.joint_offers.items())},
        "joint_pair": None if state.joint_pair is None else list(state.joint_pair),
        "idle_rounds": state.idle_rounds,
        "revealed": state.revealed,
        "last_moves": {str(s): list(m) for s, m in sorted(state.last_moves.items())},
        "end_reason": state.end_reason,
        "last_shown": list(state.last_shown),
        "last_exit": state.last_exit,
    }


def load_state(data: dict[str, Any]) -> GameState:
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"unknown temple state version {data.get('version')!r}")
    pair = data["joint_pair"]
    return GameState(
        seats=int(data["seats"]),
        seed=int(data["seed"]),
        deadline=str(data["deadline"]),
        joint_rule=bool(data["joint_rule"]),
        players=[_load_player(p) for p in data["players"]],
        slots=list(data["slots"]),
        deck=list(data["deck"]),
        ages=[int(a) for a in data["ages"]],
        draws=int(data["draws"]),
        phase=str(data["phase"]),
        round=int(data["round"]),
        roller=int(data["roller"]),
        dice=[str(d) for d in data["dice"]],
        discarded=list(data["discarded"]),
        submissions={int(s): _load_submission(v) for s, v in data["submissions"].items()},
        race=int(data["race"]),
        race_card=data["race_card"],
        race_skipped={int(s) for s in data["race_skipped"]},
        joint_offers={int(a): int(b) for a, b in data["joint_offers"].items()},
        joint_pair=None if pair is None else (int(pair[0]), int(pair[1])),
        idle_rounds=int(data["idle_rounds"]),
        revealed=int(data["revealed"]),
        last_moves={int(s): [str(x) for x in m] for s, m in data["last_moves"].items()},
        end_reason=data["end_reason"],
        last_shown=list(data.get("last_shown") or data["slots"]),
        last_exit=str(data.get("last_exit", "complete")),
    )
