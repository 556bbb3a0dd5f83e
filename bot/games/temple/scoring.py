"""Scoring and the final ranking.

Rules: a player scores the values of the cards won, the score tokens, the
lengths of the bonus bricks and 1 point per unused power token. Ties: the
highest single card wins; still tied, the win is shared.

Decisions:

* "Highest single card" compares the best card each tied player won (the
  lightning card included; score tokens are not cards); a player without a
  card has 0. Players still tied share their place.
"""

from __future__ import annotations

from bot.games.base import Result
from bot.games.temple.cards import card
from bot.games.temple.state import GameState, Player


def card_points(player: Player) -> int:
    return sum(card(c).value for c in player.won)


def breakdown(player: Player) -> dict[str, int]:
    """Each source of points, and the total."""
    parts = {
        "cards": card_points(player),
        "tokens": sum(player.score_tokens),
        "bonus": sum(player.bonus),
        "unused": len(player.tokens),
    }
    parts["total"] = sum(parts.values())
    return parts


def score(player: Player) -> int:
    return breakdown(player)["total"]


def best_card(player: Player) -> int:
    return max((card(c).value for c in player.won), default=0)


def ranking(state: GameState) -> Result:
    def key(seat: int) -> tuple[int, int]:
        player = state.players[seat]
        return (-score(player), -best_card(player))

    order = tuple(sorted(range(state.seats), key=lambda s: (key(s), s)))
    places: dict[int, int] = {}
    for index, seat in enumerate(order):
        tied = index > 0 and key(order[index - 1]) == key(seat)
        places[seat] = places[order[index - 1]] if tied else index + 1
    return Result(
        ranking=order,
        places=places,
        scores={s: score(state.players[s]) for s in range(state.seats)},
        details={
            s: ("temple.result.detail", breakdown(state.players[s])) for s in range(state.seats)
        },
    )
