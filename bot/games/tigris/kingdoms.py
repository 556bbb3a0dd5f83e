"""Regions and kingdoms, by flood fill.

A *region* is a group of squares holding tiles (face up or flipped under a
monument) or leaders, connected orthogonally; catastrophes and empty squares
separate regions. A *kingdom* is a region with at least one leader.

Every rule that looks at connections looks at kingdoms only (scoring,
conflicts, treasures, monument points, legality of placements), so
:class:`Regions` flood-fills from the leaders only: it labels each kingdom
once per call (a few dozen operations) and leaves leaderless regions
unlabelled.
"""

from __future__ import annotations

from bot.games.tigris.board import NEIGHBOURS, SQUARES, Square
from bot.games.tigris.components import COLOURS
from bot.games.tigris.state import Board


class Regions:
    """Every kingdom of a board.

    ``label[sq]`` is the id of the kingdom containing ``sq``, or -1 when
    ``sq`` is empty or in a leaderless region. ``squares[k]`` and
    ``leaders[k]`` list the squares and the leaders' squares of kingdom
    ``k``. Ids follow the board order of each kingdom's first leader, so they
    are the same for equal boards whatever the history.

    ``without`` treats one square as empty: the unification square when
    finding each side of a war ("the leader's own former kingdom"), or a
    moving leader's square when checking where it may go.
    """

    __slots__ = ("label", "leaders", "squares")

    def __init__(self, board: Board, *, without: Square | None = None) -> None:
        tiles, pieces = board.tiles, board.leaders
        label = [-1] * len(SQUARES)
        squares: list[list[Square]] = []
        leaders: list[list[Square]] = []
        for start in sorted(pieces):
            if start == without or label[start] != -1:
                continue
            kingdom = len(squares)
            label[start] = kingdom
            members = [start]
            stack = [start]
            while stack:
                for nb in NEIGHBOURS[stack.pop()]:
                    if label[nb] == -1 and nb != without and (nb in tiles or nb in pieces):
                        label[nb] = kingdom
                        members.append(nb)
                        stack.append(nb)
            squares.append(members)
            leaders.append(sorted([sq for sq in members if sq in pieces]))
        self.label = label
        self.squares = squares
        self.leaders = leaders

    def region_of(self, sq: Square) -> int:
        """The kingdom containing ``sq``, or -1."""
        return self.label[sq]

    def is_kingdom(self, region: int) -> bool:
        return region >= 0

    def kingdoms_around(self, sq: Square) -> set[int]:
        """The distinct kingdoms orthogonally next to ``sq``."""
        label = self.label
        around = {label[nb] for nb in NEIGHBOURS[sq]}
        around.discard(-1)
        return around

    def kingdoms(self) -> list[int]:
        """Every kingdom id."""
        return list(range(len(self.squares)))


def leader_in(board: Board, regions: Regions, region: int, colour: str) -> Square | None:
    """The square of the leader of ``colour`` in kingdom ``region`` (the first, if several)."""
    if region < 0:
        return None
    for sq in regions.leaders[region]:
        if board.leaders[sq].colour == colour:
            return sq
    return None


def clashing_colours(board: Board, regions: Regions, region: int) -> list[str]:
    """Colours with two leaders in kingdom ``region`` (canonical order)."""
    counts = dict.fromkeys(COLOURS, 0)
    for sq in regions.leaders[region]:
        counts[board.leaders[sq].colour] += 1
    return [colour for colour in COLOURS if counts[colour] >= 2]
