"""Victory points: tile points, monument points and the final ranking.

* A tile placed into a kingdom scores 1 point of its colour for the owner of
  the kingdom's leader of that colour; failing that, for the owner of the
  kingdom's king; failing that, for nobody. A tile outside any kingdom, or a
  tile joining two kingdoms, scores nothing.
* At the end of the active player's turn, for each monument, each of that
  player's leaders in the monument's kingdom whose colour is one of the
  monument's two colours scores 1 point of that colour.
* Final score: each treasure is a wild point, added one at a time to the
  currently lowest colour (ties: the first in red, blue, green, black order;
  the sorted vector is the same whichever is chosen). Players are ranked by
  their weakest colour, then the second weakest, then the third, then the
  fourth. Equal vectors share a place.
"""

from __future__ import annotations

from bot.games.base import Result
from bot.games.tigris.components import BLACK, COLOURS, Colour
from bot.games.tigris.kingdoms import Regions, leader_in
from bot.games.tigris.state import Board, GameState, Player


def tile_scorer(board: Board, regions: Regions, region: int, colour: Colour) -> int | None:
    """Who scores a tile of ``colour`` placed into ``region`` (None: nobody)."""
    if not regions.is_kingdom(region):
        return None
    sq = leader_in(board, regions, region, colour)
    if sq is None:
        sq = leader_in(board, regions, region, BLACK)
    return None if sq is None else board.leaders[sq].seat


def monument_points(board: Board, seat: int) -> dict[Colour, int]:
    """Points ``seat`` scores from monuments at the end of their turn."""
    points = dict.fromkeys(COLOURS, 0)
    if not board.monuments:
        return points
    regions = Regions(board)
    for top_left, colours in board.monuments.items():
        region = regions.region_of(top_left)
        if region < 0:
            continue
        for sq in regions.leaders[region]:
            leader = board.leaders[sq]
            if leader.seat == seat and leader.colour in colours:
                points[leader.colour] += 1
    return points


def final_points(player: Player) -> dict[Colour, int]:
    """Points after adding each treasure to the currently lowest colour."""
    points = dict(player.points)
    for _ in range(player.treasures):
        lowest = min(COLOURS, key=lambda colour: points[colour])
        points[lowest] += 1
    return points


def score_vector(player: Player) -> tuple[int, ...]:
    """Final points sorted weakest first: the ranking key (higher is better)."""
    return tuple(sorted(final_points(player).values()))


def ranking(state: GameState) -> Result:
    """Rank every seat by :func:`score_vector` (ties share a place)."""
    vectors = {seat: score_vector(player) for seat, player in enumerate(state.players)}
    order = sorted(vectors, key=lambda seat: (tuple(-v for v in vectors[seat]), seat))
    places: dict[int, int] = {}
    for index, seat in enumerate(order):
        if index and vectors[seat] == vectors[order[index - 1]]:
            places[seat] = places[order[index - 1]]
        else:
            places[seat] = index + 1
    details = {}
    for seat, player in enumerate(state.players):
        final = final_points(player)
        details[seat] = (
            "tigris.result.detail",
            {
                **final,
                "treasures": player.treasures,
                "vector": list(vectors[seat]),
                "sorted": " · ".join(str(v) for v in vectors[seat]),
                "next": ", ".join(str(v) for v in vectors[seat][1:]),
                "weakest": vectors[seat][0],
            },
        )
    return Result(
        ranking=tuple(order),
        places=places,
        scores={seat: vectors[seat][0] for seat in vectors},
        details=details,
    )
