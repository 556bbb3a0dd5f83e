"""Game state: plain dataclasses, a JSON form, and the initial position.

Everything that decides the future of a game lives here, including the bag in
draw order: the bag is shuffled once from the seed by :func:`new_state` and
tiles are drawn from its end, so a seed plus a move log replays exactly. The
bag order, the hands and the points are hidden information; only
:mod:`bot.games.tigris.views` decides what the public sees.

Phases (``GameState.phase``):

``action``
    the active player chooses one of their two actions;
``revolt_support`` / ``war_support``
    a conflict waits for the attacker's, then the defender's support;
``war_order``
    several colours clash after a join: the active player picks the next war;
``monument``
    the placed tile completed a 2×2 of one colour: build or decline;
``treasure``
    a trader's owner chooses which treasures to take;
``over``
    the game has ended.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.games.tigris.board import (
    START_TEMPLES,
    Square,
    parse_square,
    square_name,
    square_names,
)
from bot.games.tigris.components import (
    ACTIONS_PER_TURN,
    CATASTROPHES_PER_PLAYER,
    COLOURS,
    HAND_SIZE,
    RED,
    TILE_COUNTS,
    Colour,
    sort_colours,
)

STATE_VERSION = 1

PHASE_ACTION = "action"
PHASE_REVOLT = "revolt_support"
PHASE_WAR = "war_support"
PHASE_WAR_ORDER = "war_order"
PHASE_MONUMENT = "monument"
PHASE_TREASURE = "treasure"
PHASE_OVER = "over"
PHASES = (
    PHASE_ACTION,
    PHASE_REVOLT,
    PHASE_WAR,
    PHASE_WAR_ORDER,
    PHASE_TREASURE,
    PHASE_MONUMENT,
    PHASE_OVER,
)


class Leader(NamedTuple):
    """A leader on the board: its owner's seat and its colour."""

    seat: int
    colour: Colour


@dataclass
class Board:
    """What lies on the 176 squares.

    ``tiles`` holds every civilization tile on the board, face up or not;
    ``flipped`` the squares of tiles turned face down under a monument.
    ``monuments`` maps the top-left square of each built monument's 2×2 to
    its two colours. ``unification`` is the square of the unification marker
    while a war is being resolved.
    """

    tiles: dict[Square, Colour] = field(default_factory=dict)
    flipped: set[Square] = field(default_factory=set)
    leaders: dict[Square, Leader] = field(default_factory=dict)
    catastrophes: set[Square] = field(default_factory=set)
    treasures: set[Square] = field(default_factory=set)
    monuments: dict[Square, tuple[Colour, Colour]] = field(default_factory=dict)
    unification: Square | None = None

    def is_empty(self, sq: Square) -> bool:
        """No tile, leader or catastrophe on ``sq``."""
        return sq not in self.tiles and sq not in self.leaders and sq not in self.catastrophes

    def is_temple(self, sq: Square) -> bool:
        """A face-up red tile (a flipped temple under a monument is no temple)."""
        return self.tiles.get(sq) == RED and sq not in self.flipped

    def is_face_up(self, sq: Square, colour: Colour) -> bool:
        return self.tiles.get(sq) == colour and sq not in self.flipped

    def leader_square(self, seat: int, colour: Colour) -> Square | None:
        """Where ``seat``'s leader of ``colour`` stands, or None in supply."""
        for sq, leader in self.leaders.items():
            if leader.seat == seat and leader.colour == colour:
                return sq
        return None

    def copy(self) -> Board:
        return Board(
            tiles=dict(self.tiles),
            flipped=set(self.flipped),
            leaders=dict(self.leaders),
            catastrophes=set(self.catastrophes),
            treasures=set(self.treasures),
            monuments=dict(self.monuments),
            unification=self.unification,
        )


@dataclass
class Player:
    """One seat's private holdings: hand (canonical order), points, treasures."""

    hand: list[Colour] = field(default_factory=list)
    points: dict[Colour, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    treasures: int = 0
    catastrophes: int = CATASTROPHES_PER_PLAYER

    def add_to_hand(self, tiles: list[Colour]) -> None:
        self.hand = sort_colours(self.hand + list(tiles))

    def remove_from_hand(self, tiles: list[Colour]) -> None:
        hand = list(self.hand)
        for colour in tiles:
            hand.remove(colour)
        self.hand = hand

    def copy(self) -> Player:
        return Player(list(self.hand), dict(self.points), self.treasures, self.catastrophes)


@dataclass
class Conflict:
    """A revolt or war waiting for support, with both sides' strengths."""

    kind: str  # "revolt" | "war"
    colour: Colour
    attacker: int
    defender: int
    attacker_sq: Square
    defender_sq: Square
    attacker_base: int
    defender_base: int
    attacker_committed: int | None = None
    defender_committed: int | None = None

    @property
    def support_colour(self) -> Colour:
        """Revolts are fought with temples, wars with tiles of the war's colour."""
        return RED if self.kind == "revolt" else self.colour

    @property
    def next_to_commit(self) -> int | None:
        if self.attacker_committed is None:
            return self.attacker
        if self.defender_committed is None:
            return self.defender
        return None

    def copy(self) -> Conflict:
        return Conflict(**self.__dict__)


@dataclass
class LastAction:
    """An action a player took, for the public view: its squares, its public
    notation and a short caption (``[key, params]`` of an i18n ``Text``)."""

    seat: int
    squares: list[Square]
    notation: str
    caption: list[Any] | None = None

    def copy(self) -> LastAction:
        return LastAction(self.seat, list(self.squares), self.notation, self.caption)

    def dump(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "squares": [square_name(sq) for sq in self.squares],
            "notation": self.notation,
            "caption": self.caption,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> LastAction:
        squares = [parse_square(name) for name in data["squares"]]
        return cls(data["seat"], squares, data["notation"], data.get("caption"))


@dataclass
class GameState:
    """A whole game: board, players, bag and where the turn stands.

    ``wars`` lists the colours still clashing after the current action's
    join, and ``sides`` the squares of the two kingdoms it joined as they
    were just before the join (each war's "own former kingdom"); ``placed``
    is the tile placed by the current action, checked for a monument once
    its conflicts are over. ``bag_short`` records that the bag
    could not fill a hand this turn (the game ends at the end of the turn).
    """

    seats: int
    scoring: str
    seed: int
    board: Board
    players: list[Player]
    bag: list[Colour]
    discarded: int = 0
    active: int = 0
    actions_left: int = ACTIONS_PER_TURN
    phase: str = PHASE_ACTION
    conflict: Conflict | None = None
    wars: list[Colour] = field(default_factory=list)
    sides: list[list[Square]] = field(default_factory=list)
    placed: Square | None = None
    bag_short: bool = False
    turn_number: int = 1
    last_action: LastAction | None = None
    #: every action since the last hand-off (the last one is ``last_action``)
    steps: list[LastAction] = field(default_factory=list)

    def copy(self) -> GameState:
        return GameState(
            seats=self.seats,
            scoring=self.scoring,
            seed=self.seed,
            board=self.board.copy(),
            players=[player.copy() for player in self.players],
            bag=list(self.bag),
            discarded=self.discarded,
            active=self.active,
            actions_left=self.actions_left,
            phase=self.phase,
            conflict=self.conflict.copy() if self.conflict else None,
            wars=list(self.wars),
            sides=[list(side) for side in self.sides],
            placed=self.placed,
            bag_short=self.bag_short,
            turn_number=self.turn_number,
            last_action=self.last_action.copy() if self.last_action else None,
            steps=[step.copy() for step in self.steps],
        )

    def draw(self, count: int) -> list[Colour]:
        """Draw up to ``count`` tiles from the end of the bag.

        Drawing fewer than asked marks the bag short: the game ends at the end
        of this turn.
        """
        drawn = [self.bag.pop() for _ in range(min(count, len(self.bag)))]
        if len(drawn) < count:
            self.bag_short = True
        return drawn

    def tiles_in_play(self) -> int:
        """Bag + hands + board + discarded: always 153."""
        return (
            len(self.bag)
            + sum(len(player.hand) for player in self.players)
            + len(self.board.tiles)
            + self.discarded
        )


def new_state(seats: int, scoring: str, seed: int) -> GameState:
    """The starting position: ten temples with treasures, bag shuffled, hands of six.

    Seat 0 starts; hands are drawn in seat order.
    """
    board = Board()
    for sq in START_TEMPLES:
        board.tiles[sq] = RED
        board.treasures.add(sq)
    bag: list[Colour] = []
    for colour in COLOURS:
        count = TILE_COUNTS[colour] - (len(START_TEMPLES) if colour == RED else 0)
        bag.extend([colour] * count)
    random.Random(seed).shuffle(bag)
    state = GameState(
        seats=seats,
        scoring=scoring,
        seed=seed,
        board=board,
        players=[Player() for _ in range(seats)],
        bag=bag,
    )
    for player in state.players:
        player.add_to_hand(state.draw(HAND_SIZE))
    return state


# --- JSON -----------------------------------------------------------------------------


def _names(squares: Any) -> list[str]:
    return square_names(sorted(squares))


def _squares(names: list[str]) -> list[Square]:
    return [parse_square(name) for name in names]


def dump_state(state: GameState) -> dict[str, Any]:
    """The state as a JSON-able dict (squares by name, sets as sorted lists)."""
    board = state.board
    conflict = state.conflict
    last = state.last_action
    tiles = sorted(board.tiles)
    return {
        "version": STATE_VERSION,
        "seats": state.seats,
        "scoring": state.scoring,
        "seed": state.seed,
        "board": {
            "tiles": dict(zip(square_names(tiles), [board.tiles[sq] for sq in tiles], strict=True)),
            "flipped": _names(board.flipped),
            "leaders": {
                square_name(sq): [board.leaders[sq].seat, board.leaders[sq].colour]
                for sq in sorted(board.leaders)
            },
            "catastrophes": _names(board.catastrophes),
            "treasures": _names(board.treasures),
            "monuments": {
                square_name(sq): list(board.monuments[sq]) for sq in sorted(board.monuments)
            },
            "unification": None if board.unification is None else square_name(board.unification),
        },
        "players": [
            {
                "hand": list(player.hand),
                "points": {colour: player.points[colour] for colour in COLOURS},
                "treasures": player.treasures,
                "catastrophes": player.catastrophes,
            }
            for player in state.players
        ],
        "bag": list(state.bag),
        "discarded": state.discarded,
        "active": state.active,
        "actions_left": state.actions_left,
        "phase": state.phase,
        "conflict": None
        if conflict is None
        else {
            **conflict.__dict__,
            "attacker_sq": square_name(conflict.attacker_sq),
            "defender_sq": square_name(conflict.defender_sq),
        },
        "wars": list(state.wars),
        "sides": [_names(side) for side in state.sides],
        "placed": None if state.placed is None else square_name(state.placed),
        "bag_short": state.bag_short,
        "turn_number": state.turn_number,
        "last_action": None if last is None else last.dump(),
        "steps": [step.dump() for step in state.steps],
    }


def load_state(data: dict[str, Any]) -> GameState:
    """Inverse of :func:`dump_state`."""
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"unknown tigris state version {data.get('version')!r}")
    b = data["board"]
    board = Board(
        tiles={parse_square(name): colour for name, colour in b["tiles"].items()},
        flipped=set(_squares(b["flipped"])),
        leaders={
            parse_square(name): Leader(seat, colour)
            for name, (seat, colour) in b["leaders"].items()
        },
        catastrophes=set(_squares(b["catastrophes"])),
        treasures=set(_squares(b["treasures"])),
        monuments={parse_square(name): (pair[0], pair[1]) for name, pair in b["monuments"].items()},
        unification=None if b["unification"] is None else parse_square(b["unification"]),
    )
    c = data["conflict"]
    conflict = (
        None
        if c is None
        else Conflict(
            **{
                **c,
                "attacker_sq": parse_square(c["attacker_sq"]),
                "defender_sq": parse_square(c["defender_sq"]),
            }
        )
    )
    last = data["last_action"]
    return GameState(
        seats=data["seats"],
        scoring=data["scoring"],
        seed=data["seed"],
        board=board,
        players=[
            Player(
                hand=list(p["hand"]),
                points={colour: p["points"][colour] for colour in COLOURS},
                treasures=p["treasures"],
                catastrophes=p["catastrophes"],
            )
            for p in data["players"]
        ],
        bag=list(data["bag"]),
        discarded=data["discarded"],
        active=data["active"],
        actions_left=data["actions_left"],
        phase=data["phase"],
        conflict=conflict,
        wars=list(data["wars"]),
        # Absent from states saved before the sides were recorded.
        sides=[_squares(side) for side in data.get("sides", [])],
        placed=None if data["placed"] is None else parse_square(data["placed"]),
        bag_short=data["bag_short"],
        turn_number=data["turn_number"],
        last_action=None if last is None else LastAction.load(last),
        # Absent from states saved before the steps were recorded.
        steps=[LastAction.load(step) for step in data.get("steps", [])],
    )
