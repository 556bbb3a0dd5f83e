"""Treasure taking.

At the end of every action, a kingdom holding two or more treasures and a
trader gives all of them but one to the trader's owner. The four corner
treasures (B2, P2, B8, O9) must be taken before any other, so the only
choice is which treasure stays: a non-corner one if there is any, else any
corner one. When only one treasure may stay the engine takes the others at
once; otherwise the trader's owner chooses.

Several kingdoms may need taking after one action (a war can split the
joined kingdom); they are handled one at a time, in board order.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.tigris.board import CORNER_TREASURES, Square
from bot.games.tigris.components import GREEN
from bot.games.tigris.kingdoms import Regions, leader_in
from bot.games.tigris.state import Board


@dataclass(frozen=True)
class TreasureClaim:
    """A kingdom's treasures and the trader's owner who must take from them."""

    seat: int
    treasures: tuple[Square, ...]

    @property
    def options(self) -> list[tuple[Square, ...]]:
        """Every legal set of treasures to take."""
        others = [sq for sq in self.treasures if sq not in CORNER_TREASURES]
        keepable = others or list(self.treasures)
        return [tuple(sorted(sq for sq in self.treasures if sq != keep)) for keep in keepable]


def pending_claim(board: Board) -> TreasureClaim | None:
    """The first kingdom (in board order) where a trader must take treasures."""
    if len(board.treasures) < 2:
        return None
    regions = Regions(board)
    for region in regions.kingdoms():
        treasures = tuple(sorted([sq for sq in regions.squares[region] if sq in board.treasures]))
        if len(treasures) < 2:
            continue
        trader = leader_in(board, regions, region, GREEN)
        if trader is not None:
            return TreasureClaim(board.leaders[trader].seat, treasures)
    return None
