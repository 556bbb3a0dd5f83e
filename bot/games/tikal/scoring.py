"""Scoring steps and the final ranking.

At a player's scoring step only that player scores, on the board as it
stands then: every temple they guard, every unguarded temple where they are
strictly strongest (leader 3, worker 1; a tie scores for nobody), each at
its current value; and their treasures, per kind 1 → 1, 2 → 3, 3 → 6.

Decisions:

* The final ranking is by total score; tied players share the place (and,
  at the top, the win). Within a place seats are listed in seat order.
* A result's detail per seat: the total, the points from temples and from
  treasures over all scoring steps, and the points paid in auctions.
"""

from __future__ import annotations

from bot.games.base import Event, Result
from bot.games.tikal.board import Space
from bot.games.tikal.components import MODES, SET_POINTS, TEMPLE
from bot.games.tikal.rules import strongest
from bot.games.tikal.state import GameState


def temples_scored(state: GameState, seat: int) -> list[Space]:
    """The temples that score for ``seat`` now: guarded by it, or unguarded and
    held by its strict majority."""
    found = []
    for space, hex_ in state.hexes.items():
        if hex_.kind != TEMPLE:
            continue
        if hex_.guard == seat or (hex_.guard is None and strongest(state, space) == seat):
            found.append(space)
    return sorted(found)


def treasure_points(treasures: dict[str, int]) -> int:
    """1, 3 or 6 points per kind for 1, 2 or 3 tokens of it."""
    return sum(SET_POINTS[min(count, 3)] for count in treasures.values())


def score_step(state: GameState, seat: int) -> Event:
    """``seat`` scores its temples and treasures now; the event that says so."""
    player = state.players[seat]
    temples = sum(state.hexes[space].value for space in temples_scored(state, seat))
    treasures = treasure_points(player.treasures)
    player.score += temples + treasures
    player.temple_points += temples
    player.treasure_points += treasures
    return Event(
        "tikal.event.scored",
        {
            "seat": seat,
            "points": temples + treasures,
            "temples": temples,
            "treasures": treasures,
            "score": player.score,
        },
    )


def ranking(state: GameState) -> Result:
    """Seats by total score, ties sharing a place."""
    scores = {seat: player.score for seat, player in enumerate(state.players)}
    order = sorted(scores, key=lambda seat: (-scores[seat], seat))
    places: dict[int, int] = {}
    for index, seat in enumerate(order):
        if index and scores[seat] == scores[order[index - 1]]:
            places[seat] = places[order[index - 1]]
        else:
            places[seat] = index + 1
    # the auction modes start at 20 points and pay for turns; the base game does neither
    detail = "tikal.result.detail_auction" if state.auction_mode else "tikal.result.detail"
    details = {
        seat: (
            detail,
            {
                "score": player.score,
                "temples": player.temple_points,
                "treasures": player.treasure_points,
                "paid": player.paid,
                "start": MODES[state.mode].start_score,
            },
        )
        for seat, player in enumerate(state.players)
    }
    return Result(ranking=tuple(order), places=places, scores=scores, details=details)
