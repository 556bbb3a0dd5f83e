"""Finding layouts: which bricks, where, build a silhouette.

Used to check the card set (every card can be built from one full supply;
how many bricks a card needs at least), to end the life of a card nobody can
build any more, and to suggest the layouts ``legal_actions`` lists for the
lightning race.

The search fills the silhouette row by row from the ground up and left to
right: the first undecided cell of a row is the left end of a brick (or,
with a Mortar, the one empty cell). At each row start the pieces that no
longer touch the row below are final, so too many of them cut the branch;
and a failed row start is remembered by what the future depends on (row,
bricks left, gaps left, the bricks of the row below and how they are
joined), which makes an impossible silhouette cheap to refute.

Decisions:

* Longer bricks are tried first, so a layout is found quickly when one
  exists (and suggested layouts use few bricks).
* "Buildable" answers are cached by silhouette, brick counts and Mortar:
  they change only when a player keeps a bonus brick, so the check before
  every round costs a look-up.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from bot.games.temple.components import BRICKS_PER_PLAYER, LENGTHS
from bot.games.temple.geometry import Brick, Cell

#: bricks of length 1, 2, 3, 4
Counts = tuple[int, int, int, int]


def counts_of(lengths: dict[int, int]) -> Counts:
    """``{4: 3, 1: 2}`` -> ``(2, 0, 0, 3)``."""
    return (lengths.get(1, 0), lengths.get(2, 0), lengths.get(3, 0), lengths.get(4, 0))


Frontier = tuple[tuple[int, int, int], ...]  # (left x, right x, piece label) of a row's bricks


def _next_frontier(frontier: Frontier, row: list[Brick]) -> tuple[Frontier, int]:
    """The pieces after a row: the row's bricks labelled by piece, and how many
    pieces of the row below no brick of the row touched (they are final)."""
    labels = 1 + max((label for _, _, label in frontier), default=-1)
    parent = list(range(labels))

    def find(label: int) -> int:
        while parent[label] != label:
            label = parent[label]
        return label

    first_hit: list[int] = []
    for length, x, _ in row:
        right = x + length - 1
        hit = -1
        for fx, fright, label in frontier:
            if fx <= right and x <= fright:
                if hit < 0:
                    hit = find(label)
                else:
                    parent[find(label)] = hit
        first_hit.append(hit)
    roots = {find(label) for label in range(labels)}
    touched = {find(hit) for hit in first_hit if hit >= 0}
    canon: dict[int, int] = {}
    fresh = labels
    labelled = []
    for (length, x, _), hit in zip(row, first_hit, strict=True):
        if hit >= 0:
            key = find(hit)
        else:
            key, fresh = fresh, fresh + 1
        labelled.append((x, x + length - 1, canon.setdefault(key, len(canon))))
    return tuple(labelled), len(roots - touched)


def find_layout(
    silhouette: frozenset[Cell],
    counts: Counts,
    *,
    gaps: int = 0,
    max_pieces: int = 1,
    max_bricks: int = BRICKS_PER_PLAYER,
    fixed: tuple[Brick, ...] = (),
) -> tuple[Brick, ...] | None:
    """A layout of at most ``max_bricks`` bricks from ``counts`` covering
    ``silhouette`` (leaving at most ``gaps`` cells empty) in at most
    ``max_pieces`` pieces, or None. Longer bricks are tried first.

    ``fixed`` bricks are already laid (inside the silhouette, not
    overlapping): they are part of the layout returned and of its pieces,
    and cost nothing from ``counts``."""
    if not silhouette:
        return None
    ys = sorted({y for _, y in silhouette})
    row_xs = {y: sorted(x for x, yy in silhouette if yy == y) for y in ys}
    fixed_at = {(b.x, b.y): b for b in fixed}
    fixed_cells = {cell for b in fixed for cell in b.cells()}
    capacity = sum((k + 1) * n for k, n in enumerate(counts))
    #: cells the search must decide (fixed bricks' cells excluded)
    total = len(silhouette) - len(fixed_cells)
    if total - gaps > capacity:
        return None
    fixed_from = [any(b.y >= y for b in fixed) for y in ys]

    def room_of(counts_left: list[int]) -> int:
        return sum((k + 1) * n for k, n in enumerate(counts_left))

    failed: set[tuple[object, ...]] = set()
    placed: list[Brick] = []
    left = list(counts)

    def row_start(
        r: int, frontier: Frontier, closed: int, gaps_left: int, budget: int, done: int
    ) -> bool:
        live = len({label for _, _, label in frontier})
        if r == len(ys):
            return bool(placed) and closed + live <= max_pieces
        future = total - done - gaps_left > 0 or fixed_from[r]
        if closed + (1 if live or future else 0) > max_pieces:
            return False
        key = (r, tuple(left), gaps_left, budget, closed, frontier)
        if key in failed:
            return False
        if in_row(r, 0, frontier, closed, [], gaps_left, budget, done, room_of(left)):
            return True
        failed.add(key)
        return False

    def in_row(
        r: int,
        i: int,
        frontier: Frontier,
        closed: int,
        row: list[Brick],
        gaps_left: int,
        budget: int,
        done: int,
        room: int,
    ) -> bool:
        xs = row_xs[ys[r]]
        if i == len(xs):
            after, ended = _next_frontier(frontier, row)
            if r + 1 < len(ys) and ys[r + 1] != ys[r] + 1:
                ended += len({label for _, _, label in after})
                after = ()
            return row_start(r + 1, after, closed + ended, gaps_left, budget, done)
        x, y = xs[i], ys[r]
        given = fixed_at.get((x, y))
        if given is not None:
            placed.append(given)
            row.append(given)
            if in_row(r, i + given.length, frontier, closed, row, gaps_left, budget, done, room):
                return True
            row.pop()
            placed.pop()
            return False
        if total - done - gaps_left > min(room, budget * 4):
            return False
        run = 1
        while (
            i + run < len(xs)
            and xs[i + run] == x + run
            and run < 4
            and (x + run, y) not in fixed_cells
        ):
            run += 1
        if budget > 0:
            for length in range(run, 0, -1):
                if left[length - 1] == 0:
                    continue
                left[length - 1] -= 1
                brick = Brick(length, x, y)
                placed.append(brick)
                row.append(brick)
                if in_row(
                    r,
                    i + length,
                    frontier,
                    closed,
                    row,
                    gaps_left,
                    budget - 1,
                    done + length,
                    room - length,
                ):
                    return True
                row.pop()
                placed.pop()
                left[length - 1] += 1
        return gaps_left > 0 and in_row(
            r, i + 1, frontier, closed, row, gaps_left - 1, budget, done + 1, room
        )

    if row_start(0, (), 0, gaps, max_bricks, 0):
        return tuple(placed)
    return None


@lru_cache(maxsize=8192)
def buildable(silhouette: frozenset[Cell], counts: Counts, mortar: bool) -> bool:
    """Whether these bricks can build the silhouette (with a Mortar's freedom)."""
    if find_layout(silhouette, counts) is not None:
        return True
    return mortar and find_layout(silhouette, counts, gaps=1, max_pieces=2) is not None


@lru_cache(maxsize=1024)
def cached_layout(silhouette: frozenset[Cell], counts: Counts) -> tuple[Brick, ...] | None:
    """:func:`find_layout` without a Mortar, remembered."""
    return find_layout(silhouette, counts)


def fewest_bricks(silhouette: frozenset[Cell], counts: Counts) -> int | None:
    """The fewest bricks from ``counts`` that build the silhouette, or None."""
    low = -(-len(silhouette) // max(LENGTHS))
    for budget in range(low, sum(counts) + 1):
        if find_layout(silhouette, counts, max_bricks=budget) is not None:
            return budget
    return None


def greedy_layout(
    silhouette: frozenset[Cell],
    lengths: list[int],
    accept: Callable[[list[Brick]], bool],
) -> list[Brick]:
    """Lay ``lengths`` (longest first) one by one at the lowest, leftmost spot
    ``accept`` allows; bricks that fit nowhere are left out."""
    layout: list[Brick] = []
    cells = sorted(silhouette, key=lambda c: (c[1], c[0]))
    for length in sorted(lengths, reverse=True):
        for x, y in cells:
            brick = Brick(length, x, y)
            if accept([*layout, brick]):
                layout.append(brick)
                break
    return layout
