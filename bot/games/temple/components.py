"""The components of Temple Rush and the numbers that size a game.

Facts (``docs/rules/temple_rush.md#components``): per player 13 bricks (three of
length 4, three of 3, four of 2, three of 1), one die (1, 2, 3, 4 and two
stars), three power tokens; a deck of 9/11/13 temple cards for 2/3/4
players, of which 2 (2–3 players) or 3 (4 players) lie face up as the
build areas; one lightning card worth 3 points.

Decisions:

* Areas, columns and rows are numbered for people: area ``1``..``3``,
  columns ``A``..``H`` left to right, rows ``1``..``6`` from the ground up.
  Inside the engine they are 0-based ints (``x``, ``y``, area index).
* The deck size counts the temple cards of the game including the first
  face-up ones; the lightning card comes on top of that number.
* Die faces are the strings ``"1"``..``"4"`` and ``"star"``.
"""

from __future__ import annotations

from typing import Final

#: brick length -> how many one player owns
BRICKS: Final[dict[int, int]] = {4: 3, 3: 3, 2: 4, 1: 3}
LENGTHS: Final[tuple[int, ...]] = (1, 2, 3, 4)
BRICKS_PER_PLAYER: Final = sum(BRICKS.values())  # 13
STUDS_PER_PLAYER: Final = sum(k * n for k, n in BRICKS.items())  # 32

STAR: Final = "star"
DIE_FACES: Final[tuple[str, ...]] = ("1", "2", "3", "4", STAR, STAR)

#: card grids are at most this wide and high
MAX_WIDTH: Final = 8
MAX_HEIGHT: Final = 6
COLUMN_LETTERS: Final = "ABCDEFGH"

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
DECK_SIZE: Final[dict[int, int]] = {2: 9, 3: 11, 4: 13}
FACE_UP: Final[dict[int, int]] = {2: 2, 3: 2, 4: 3}
MAX_AREAS: Final = 3

HAMMER: Final = "hammer"
BAG: Final = "bag"
MORTAR: Final = "mortar"
TOKENS: Final[tuple[str, ...]] = (HAMMER, BAG, MORTAR)

LIGHTNING_VALUE: Final = 3
#: the Bag borrows this many bricks
BAG_BRICKS: Final = 2
#: a Mortar lets a build leave this many cells empty and be in this many pieces
MORTAR_GAPS: Final = 1
MORTAR_PIECES: Final = 2


def full_supply() -> dict[int, int]:
    """A fresh copy of one player's bricks by length."""
    return dict(BRICKS)


def cell_name(x: int, y: int) -> str:
    """``(2, 0)`` -> ``"C1"``."""
    return f"{COLUMN_LETTERS[x]}{y + 1}"
