"""The pieces of Tigris & Euphrates: colours, leaders, monuments, counts.

Colours are plain strings so that states and views stay JSON-able:

========  ============  ========
colour    tile          leader
========  ============  ========
``red``   temple        priest
``blue``  farm          farmer
``green`` market        trader
``black`` settlement    king
========  ============  ========
"""

from __future__ import annotations

from typing import Final

from bot.games.base import RuleError

Colour = str

RED: Final = "red"
BLUE: Final = "blue"
GREEN: Final = "green"
BLACK: Final = "black"

#: Canonical colour order (hands, swaps, point vectors).
COLOURS: Final[tuple[Colour, ...]] = (RED, BLUE, GREEN, BLACK)

#: Canonical leader order (king, priest, farmer, trader), as in the rulebook.
LEADER_ORDER: Final[tuple[Colour, ...]] = (BLACK, RED, BLUE, GREEN)

LEADER_NAMES: Final[dict[Colour, str]] = {
    BLACK: "king",
    RED: "priest",
    BLUE: "farmer",
    GREEN: "trader",
}

#: 153 civilization tiles; 10 temples start on the board.
TILE_COUNTS: Final[dict[Colour, int]] = {RED: 57, BLUE: 36, GREEN: 30, BLACK: 30}
TOTAL_TILES: Final = sum(TILE_COUNTS.values())

#: The six monuments, one per pair of colours, colours in canonical order.
MONUMENTS: Final[tuple[tuple[Colour, Colour], ...]] = (
    (RED, BLUE),
    (RED, GREEN),
    (RED, BLACK),
    (BLUE, GREEN),
    (BLUE, BLACK),
    (GREEN, BLACK),
)

#: Seat ``i`` plays dynasty ``DYNASTIES[i]``.
DYNASTIES: Final[tuple[str, ...]] = ("archer", "bull", "pot", "lion")

HAND_SIZE: Final = 6
CATASTROPHES_PER_PLAYER: Final = 2
ACTIONS_PER_TURN: Final = 2
TREASURE_COUNT: Final = 10
#: The game ends at the end of a turn with at most this many treasures on the board.
TREASURES_TO_END: Final = 2

_WORDS: Final[dict[str, Colour]] = {
    **{colour: colour for colour in COLOURS},
    **{name: colour for colour, name in LEADER_NAMES.items()},
    # Tile names, for players who think in tiles.
    "temple": RED,
    "farm": BLUE,
    "market": GREEN,
    "settlement": BLACK,
}


def parse_colour(word: str) -> Colour:
    """A colour from a colour, leader or tile word (``red``, ``priest``, ``temple``).

    Raises ``RuleError('tigris.error.bad_colour')`` for anything else.
    """
    colour = _WORDS.get(word.strip().lower())
    if colour is None:
        raise RuleError("tigris.error.bad_colour", text=word)
    return colour


def sort_colours(colours: list[Colour] | tuple[Colour, ...]) -> list[Colour]:
    """Colours in canonical order (red, blue, green, black)."""
    return sorted(colours, key=COLOURS.index)


def monument_name(colours: tuple[Colour, Colour]) -> str:
    """``red-blue``: the notation of a monument."""
    return f"{colours[0]}-{colours[1]}"


def parse_monument(text: str) -> tuple[Colour, Colour]:
    """A monument from ``red-blue`` (either order, leader words accepted)."""
    parts = text.split("-")
    if len(parts) != 2:
        raise RuleError("tigris.error.bad_monument", text=text)
    first, second = sort_colours([parse_colour(part) for part in parts])
    if (first, second) not in MONUMENTS:
        raise RuleError("tigris.error.bad_monument", text=text)
    return first, second
