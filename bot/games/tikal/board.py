"""The hex map: space names, neighbours, edge directions and rotations.

Spaces are ints ``column * ROWS + row`` (zero-based); a player reads and
types them as the column letter and the row number, ``C4``. The map is
flat-topped hexes in columns: odd columns (B, D, F, H) sit half a hex lower,
so a column is a straight line of hexes and ``C4`` lies straight below
``C3``.

Edges are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW;
edge ``d`` of a hex touches edge ``(d + 3) % 6`` of its neighbour. A hex laid
with rotation ``r`` is turned ``r`` × 60° clockwise, so the stones printed on
its edge ``e`` lie on the board's edge ``(e + r) % 6``.

Decisions:

* Rotation ``0`` is the hex as printed in the data file; rotations are
  written as the digits 0–5.
* Centres are given in units of the hex's circumradius (``x`` = 1.5 per
  column, ``y`` = √3 per row plus √3/2 in odd columns), so a renderer only
  scales them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from bot.games.notation import ascii_int
from bot.games.tikal.components import TILE_SET

COLS = TILE_SET.columns
ROWS = TILE_SET.rows
COL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:COLS]
SPACES = tuple(range(COLS * ROWS))
DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")
ROTATIONS = tuple(range(6))

Space = int
Stones = tuple[int, int, int, int, int, int]


def space_of(col: int, row: int) -> Space:
    return col * ROWS + row


def col_row(space: Space) -> tuple[int, int]:
    return divmod(space, ROWS)


def space_name(space: Space) -> str:
    col, row = col_row(space)
    return f"{COL_LETTERS[col]}{row + 1}"


@lru_cache(maxsize=2048)  # every load of a state parses each space's name: remembered
def parse_space(word: str) -> Space:
    """``"c4"`` or ``"C4"`` to a space; :class:`ValueError` if not on the map."""
    word = word.strip()
    if len(word) < 2:
        raise ValueError(word)
    col = COL_LETTERS.find(word[0].upper())
    if col < 0 or not word[0].isascii():
        raise ValueError(word)
    row = ascii_int(word[1:], 1, ROWS) - 1
    return space_of(col, row)


def _step(col: int, row: int, direction: int) -> tuple[int, int]:
    odd = col % 2
    dc, dr = {
        0: (0, -1),
        1: (1, -1 + odd),
        2: (1, odd),
        3: (0, 1),
        4: (-1, odd),
        5: (-1, -1 + odd),
    }[direction]
    return col + dc, row + dr


def _neighbour(space: Space, direction: int) -> Space | None:
    col, row = _step(*col_row(space), direction)
    if 0 <= col < COLS and 0 <= row < ROWS:
        return space_of(col, row)
    return None


#: NEIGHBOURS[space][direction]: the adjacent space, or None off the map
NEIGHBOURS: tuple[tuple[Space | None, ...], ...] = tuple(
    tuple(_neighbour(space, d) for d in range(6)) for space in SPACES
)
#: ADJACENT[space]: the adjacent spaces on the map, with the direction towards each
ADJACENT: tuple[tuple[tuple[int, Space], ...], ...] = tuple(
    tuple((d, nb) for d, nb in enumerate(NEIGHBOURS[space]) if nb is not None) for space in SPACES
)

SQRT3 = math.sqrt(3)


def centre(space: Space) -> tuple[float, float]:
    """The hex's centre in circumradius units (the top-left hex A1 at (1, √3/2))."""
    col, row = col_row(space)
    return 1.0 + 1.5 * col, SQRT3 / 2 + SQRT3 * (row + 0.5 * (col % 2))


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def rotate(stones: Stones, rotation: int) -> Stones:
    """The stones on the board's edges of a hex printed with ``stones``, turned
    ``rotation`` × 60° clockwise."""
    r = rotation % 6
    s = stones
    turned = s[-r:] + s[:-r] if r else s
    return (turned[0], turned[1], turned[2], turned[3], turned[4], turned[5])
