"""Board geometry: squares, river, starting temples and neighbours.

The standard side is 16 columns × 11 rows. A square is an ``int`` index
``row * 16 + col`` (both 0-based), like python-chess squares; its name is
spreadsheet-like: column letter ``A``..``P`` then row ``1``..``11``, so ``A1``
is the top-left square and ``P11`` the bottom-right. Adjacency is orthogonal.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from bot.games.base import RuleError
from bot.games.notation import ascii_int

Square = int

COLS: Final = 16
ROWS: Final = 11
SQUARES: Final[range] = range(COLS * ROWS)

_LETTERS: Final = "ABCDEFGHIJKLMNOP"


def square(col: int, row: int) -> Square:
    """The square at 0-based ``col``, ``row``."""
    return row * COLS + col


def square_col(sq: Square) -> int:
    return sq % COLS


def square_row(sq: Square) -> int:
    return sq // COLS


def _spelled(sq: Square) -> str:
    return f"{_LETTERS[sq % COLS]}{sq // COLS + 1}"


#: every square's name, spelled once (a state's JSON names each square it holds)
_NAMES: Final = tuple(_spelled(sq) for sq in SQUARES)


def square_name(sq: Square) -> str:
    """``F5`` for column F, row 5."""
    return _NAMES[sq] if 0 <= sq < len(_NAMES) else _spelled(sq)


def square_names(squares: Iterable[Square]) -> list[str]:
    """Each square's name (:func:`square_name`), in one pass: a state's JSON names every
    square it holds."""
    names, count = _NAMES, len(_NAMES)
    return [names[sq] if 0 <= sq < count else _spelled(sq) for sq in squares]


@lru_cache(maxsize=2048)  # every load of a state parses each square's name: remembered
def parse_square(text: str) -> Square:
    """Parse a square name, case-insensitively (``f5`` == ``F5``).

    Raises ``RuleError('tigris.error.bad_square', text=...)`` (never remembered).
    """
    name = text.strip().upper()
    if len(name) in (2, 3) and name[0] in _LETTERS and name[1] != "0":
        try:
            row = ascii_int(name[1:], 1, ROWS)
        except ValueError:
            raise RuleError("tigris.error.bad_square", text=text) from None
        return square(_LETTERS.index(name[0]), row - 1)
    raise RuleError("tigris.error.bad_square", text=text)


def _squares(names: str) -> frozenset[Square]:
    return frozenset(parse_square(name) for name in names.split())


#: The 41 river squares: only blue tiles go there, and no leader.
RIVER: Final[frozenset[Square]] = _squares(
    "E1 F1 G1 H1 I1 M1 E2 M2 D3 E3 M3 N3 A4 B4 C4 D4 N4 O4 P4 O5 P5 O6 "
    "A7 B7 C7 D7 M7 N7 O7 D8 E8 F8 G8 M8 G9 H9 I9 J9 K9 L9 M9"
)

#: The ten starting temples, each carrying a treasure.
START_TEMPLES: Final[tuple[Square, ...]] = tuple(
    sorted(_squares("K1 B2 P2 F3 N5 I7 B8 O9 F10 K11"))
)

#: Treasures a trader must take before any other.
CORNER_TREASURES: Final[frozenset[Square]] = _squares("B2 P2 B8 O9")


def _neighbours(sq: Square) -> tuple[Square, ...]:
    col, row = sq % COLS, sq // COLS
    result = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < COLS and 0 <= r < ROWS:
            result.append(square(c, r))
    return tuple(result)


#: Orthogonal neighbours of every square.
NEIGHBOURS: Final[tuple[tuple[Square, ...], ...]] = tuple(_neighbours(sq) for sq in SQUARES)


def block_squares(top_left: Square) -> tuple[Square, Square, Square, Square]:
    """The four squares of the 2×2 block whose top-left square is given."""
    return (top_left, top_left + 1, top_left + COLS, top_left + COLS + 1)


def _blocks_containing(sq: Square) -> tuple[Square, ...]:
    col, row = sq % COLS, sq // COLS
    return tuple(
        square(c, r)
        for r in (row - 1, row)
        for c in (col - 1, col)
        if 0 <= c < COLS - 1 and 0 <= r < ROWS - 1
    )


#: the top-left squares of the 2×2 blocks holding each square (every tile placed asks)
_BLOCKS: Final[tuple[tuple[Square, ...], ...]] = tuple(_blocks_containing(sq) for sq in SQUARES)


def blocks_containing(sq: Square) -> tuple[Square, ...]:
    """Top-left squares of every 2×2 block on the board that contains ``sq``."""
    return _BLOCKS[sq]


def is_top_left(sq: Square) -> bool:
    """Whether a 2×2 block may start at ``sq``."""
    return sq % COLS < COLS - 1 and sq // COLS < ROWS - 1
