"""Build Tigris positions from a compact description, like chess test FENs.

``position({"F3": "red*", "F4": "priest:0", "G4": "black", "H4": "x"})``

* ``red`` / ``blue`` / ``green`` / ``black`` — a face-up tile;
  a trailing ``*`` puts a treasure on it, a trailing ``~`` flips it face down
  (use ``monuments=`` to record the monument itself);
* ``king:0`` / ``priest:1`` / ``farmer:2`` / ``trader:3`` — a leader and its seat;
* ``x`` — a catastrophe.

The board starts empty (no starting temples) unless ``start=True``. Hands
default to empty; the bag to a big, fixed, non-random list so refills never
run short unless a test says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games.base import Event
from bot.games.tigris import ENGINE
from bot.games.tigris.board import START_TEMPLES, parse_square
from bot.games.tigris.components import COLOURS, RED, parse_colour, sort_colours
from bot.games.tigris.state import Board, GameState, Leader, Player

DEFAULT_BAG = ["red", "blue", "green", "black"] * 25


def position(
    squares: Mapping[str, str] | None = None,
    *,
    seats: int = 2,
    active: int = 0,
    actions_left: int = 2,
    hands: Iterable[Iterable[str]] | None = None,
    points: Iterable[Mapping[str, int]] | None = None,
    treasures: Iterable[int] | None = None,
    catastrophes: Iterable[int] | None = None,
    monuments: Mapping[str, tuple[str, str]] | None = None,
    bag: list[str] | None = None,
    scoring: str = "hidden",
    start: bool = False,
) -> GameState:
    board = Board()
    if start:
        for sq in START_TEMPLES:
            board.tiles[sq] = RED
            board.treasures.add(sq)
    for name, code in (squares or {}).items():
        sq = parse_square(name)
        code = code.strip().lower()
        if code == "x":
            board.catastrophes.add(sq)
        elif ":" in code:
            word, seat = code.split(":")
            board.leaders[sq] = Leader(int(seat), parse_colour(word))
        else:
            if code.endswith("*"):
                board.treasures.add(sq)
                code = code[:-1]
            if code.endswith("~"):
                board.flipped.add(sq)
                code = code[:-1]
            colour = parse_colour(code)
            assert colour in COLOURS
            board.tiles[sq] = colour
    for name, pair in (monuments or {}).items():
        board.monuments[parse_square(name)] = pair
    hand_lists = [list(h) for h in hands] if hands is not None else [[] for _ in range(seats)]
    point_maps = list(points) if points is not None else [{} for _ in range(seats)]
    treasure_counts = list(treasures) if treasures is not None else [0] * seats
    cats = list(catastrophes) if catastrophes is not None else [2] * seats
    players = [
        Player(
            hand=sort_colours([parse_colour(w) for w in hand_lists[seat]]),
            points={c: point_maps[seat].get(c, 0) for c in COLOURS},
            treasures=treasure_counts[seat],
            catastrophes=cats[seat],
        )
        for seat in range(seats)
    ]
    return GameState(
        seats=seats,
        scoring=scoring,
        seed=0,
        board=board,
        players=players,
        bag=list(DEFAULT_BAG if bag is None else bag),
        active=active,
        actions_left=actions_left,
    )


def play(state: GameState, *moves: str) -> list[Event]:
    """Apply each move for the seat the game waits on; return all events."""
    events: list[Event] = []
    for move in moves:
        (seat,) = ENGINE.waiting_for(state)
        events.extend(ENGINE.apply(state, seat, ENGINE.parse_action(move)))
    return events


def keys(events: Iterable[Event]) -> list[str]:
    return [event.key for event in events]


def sq(name: str) -> int:
    return parse_square(name)


def tile_at(state: GameState, name: str) -> str | None:
    return state.board.tiles.get(parse_square(name))


def leader_at(state: GameState, name: str) -> Leader | None:
    return state.board.leaders.get(parse_square(name))


def legal(state: GameState) -> list[str]:
    (seat,) = ENGINE.waiting_for(state)
    return [str(a) for a in ENGINE.legal_actions(state, seat)]
