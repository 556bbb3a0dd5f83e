"""Bricks on a card's grid: covering, connection, matching and fitting.

Rules (``docs/rules/temple_rush.md#geometry``):

* A brick of length ``k`` placed at ``(x, y)`` covers ``(x..x+k-1, y)``.
  ``x`` is the column (0 = ``A``), ``y`` the row (0 = row ``1``, the ground).
* Bricks never overlap and lie inside the silhouette of the card above
  their area.
* Two bricks are connected when they lie in adjacent rows and share at least
  one column. Bricks side by side in one row do **not** hold together.
* A build **matches** its card when the cells it covers are exactly the
  card's cells (whatever bricks cover them) and its bricks form one piece.
  With a Mortar on the area, one cell may stay empty and the bricks may form
  two pieces.

Decisions:

* "Fitting" a build to a new card (another player completed the card above
  the area): bricks not wholly inside the new silhouette go back to supply,
  then only the largest connected piece stays — the two largest with a
  Mortar on the area. "Largest" counts covered cells, then bricks; a tie
  keeps the piece with the lowest, then leftmost brick. The same fitting
  tidies what is left of a build that lost bricks to a lightning layout.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from bot.games.temple.components import COLUMN_LETTERS, MORTAR_GAPS, MORTAR_PIECES

Cell = tuple[int, int]


class Brick(NamedTuple):
    """A brick of ``length`` whose left end is at column ``x``, row ``y``."""

    length: int
    x: int
    y: int

    @property
    def right(self) -> int:
        """The column of the brick's right end."""
        return self.x + self.length - 1

    def cells(self) -> tuple[Cell, ...]:
        """The cells it covers, left to right (worked out once per brick: every check of
        a build asks)."""
        return _cells(self)

    def covers(self, cell: Cell) -> bool:
        return cell[1] == self.y and self.x <= cell[0] <= self.right

    def notation(self) -> str:
        """``4:A1``: the length, a colon and the left end's cell."""
        return f"{self.length}:{COLUMN_LETTERS[self.x]}{self.y + 1}"


@lru_cache(maxsize=4096)
def _cells(brick: Brick) -> tuple[Cell, ...]:
    return tuple([(x, brick.y) for x in range(brick.x, brick.x + brick.length)])


def touching(a: Brick, b: Brick) -> bool:
    """Whether two bricks hold together: adjacent rows, a column in common."""
    return abs(a.y - b.y) == 1 and a.x <= b.right and b.x <= a.right


def pieces(bricks: Sequence[Brick]) -> list[list[int]]:
    """The connected pieces of ``bricks`` as lists of indices, each sorted."""
    count = len(bricks)
    if count < 2:
        return [[0]] if count else []
    spans = [(y, x, x + length - 1) for length, x, y in bricks]
    parent = list(range(count))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(count):
        ay, ax, ar = spans[i]
        for j in range(i + 1, count):
            by, bx, br = spans[j]
            if (ay - by == 1 or by - ay == 1) and ax <= br and bx <= ar:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values())


def piece_count(bricks: Sequence[Brick]) -> int:
    return len(pieces(bricks))


def covered(bricks: Iterable[Brick]) -> set[Cell] | None:
    """The cells the bricks cover, or None when two of them overlap."""
    cells: set[Cell] = set()
    for brick in bricks:
        for cell in brick.cells():
            if cell in cells:
                return None
            cells.add(cell)
    return cells


def inside(brick: Brick, silhouette: frozenset[Cell]) -> bool:
    return all(cell in silhouette for cell in brick.cells())


def max_pieces(mortar: bool) -> int:
    return MORTAR_PIECES if mortar else 1


def is_valid_build(bricks: Sequence[Brick], silhouette: frozenset[Cell], mortar: bool) -> bool:
    """Inside the silhouette, no overlap, in one piece (two with a Mortar)."""
    if not all(inside(b, silhouette) for b in bricks):
        return False
    if covered(bricks) is None:
        return False
    return piece_count(bricks) <= max_pieces(mortar)


def matches(bricks: Sequence[Brick], silhouette: frozenset[Cell], mortar: bool) -> bool:
    """Whether the build completes its card (exact silhouette and connection)."""
    if not bricks:
        return False
    cells = covered(bricks)
    if cells is None or not cells <= silhouette:
        return False
    if len(silhouette) - len(cells) > (MORTAR_GAPS if mortar else 0):
        return False
    return piece_count(bricks) <= max_pieces(mortar)


def _piece_rank(bricks: Sequence[Brick], group: list[int]) -> tuple[int, int, int, int]:
    """Sort key: bigger pieces first; ties to the lowest, then leftmost brick."""
    cells = sum(bricks[i].length for i in group)
    low = min((bricks[i].y, bricks[i].x) for i in group)
    return (-cells, -len(group), low[0], low[1])


def fit(
    bricks: Sequence[Brick], silhouette: frozenset[Cell], mortar: bool
) -> tuple[list[Brick], list[Brick]]:
    """``(kept, returned)``: the build fitted to ``silhouette`` (see the module doc)."""
    inner = [b for b in bricks if inside(b, silhouette)]
    returned = [b for b in bricks if not inside(b, silhouette)]
    groups = sorted(pieces(inner), key=lambda g: _piece_rank(inner, g))
    keep = {i for group in groups[: max_pieces(mortar)] for i in group}
    kept = [b for i, b in enumerate(inner) if i in keep]
    returned += [b for i, b in enumerate(inner) if i not in keep]
    return kept, returned


def sort_bricks(bricks: Iterable[Brick]) -> list[Brick]:
    """Bricks in reading order: bottom row first, left to right."""
    return sorted(bricks, key=lambda b: (b.y, b.x, b.length))


def top_bricks(bricks: Sequence[Brick], count: int) -> list[Brick]:
    """The ``count`` highest bricks (a tie in height: the leftmost first)."""
    return sorted(bricks, key=lambda b: (-b.y, b.x))[:count]
