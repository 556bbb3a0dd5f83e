"""Temple Rush views for the renderer tests and the benchmark, taken from real
games: the seeded random player of ``tests/support/temple_play.py`` plays a
game until the situation wanted, and the engine's views of it are returned.
Deterministic: the same seeds give the same views."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.games.base import PlayerLabel
from bot.games.temple import ENGINE, GameState, Place, Swap
from tests.support.temple_play import play

PLAYERS = (
    PlayerLabel(0, "Alice", "#e67e22"),
    PlayerLabel(1, "Bartholomew the Magnificent of Uruk", "#9b59b6"),
    PlayerLabel(2, "李小龙", "#1abc9c"),
    PlayerLabel(3, "김민준 🦁", "#f1c40f"),
)


def _mid_round(seats: int, seed: int, rounds: int, submitted: int) -> GameState:
    """A game ``rounds`` rounds in, with ``submitted`` seats' moves sealed."""

    def stop(game: GameState, steps: int) -> bool:
        if game.phase != "round" or game.round < rounds:
            return False
        done = sum(1 for s in range(game.seats) if game.submission(s).complete())
        return done >= submitted

    game, _ = play(seats, seed, stop=stop)
    return game


@cache
def _states() -> dict[str, GameState]:
    states = {
        "mid4": _mid_round(4, 11, 14, 2),
        "late4": _mid_round(4, 5, 30, 0),
        "two": _mid_round(2, 3, 12, 1),
        "three": _mid_round(3, 8, 9, 0),
    }
    states["race"], _ = play(3, 2, stop=lambda g, n: g.phase == "race" and g.round > 3)
    states["bonus"], _ = play(4, 4, stop=lambda g, n: g.phase == "bonus")
    states["over"], _ = play(4, 12)
    return states


def view(name: str) -> dict[str, Any]:
    """The public view of a named sample: mid4, late4, two, three, race, bonus, over."""
    return ENGINE.public_view(ENGINE.load_state(ENGINE.dump_state(_states()[name])))


def state(name: str) -> GameState:
    """A fresh copy of a sample's state."""
    return ENGINE.load_state(ENGINE.dump_state(_states()[name]))


def private_view() -> tuple[dict[str, Any], int]:
    """A seat of ``mid4`` that has not submitted, with a swap and a brick sealed
    under Hammer & Chisel when possible (else a brick): its private view."""
    game = state("mid4")
    seat = min(s for s in range(game.seats) if not game.submission(s).complete())
    legal = ENGINE.legal_actions(game, seat)
    swaps = [a for a in legal if isinstance(a, Swap)]
    if "hammer" in game.players[seat].tokens and swaps:
        ENGINE.apply(game, seat, ENGINE.parse_action("hammer"))
        ENGINE.apply(game, seat, swaps[len(swaps) // 2])
        legal = ENGINE.legal_actions(game, seat)
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        ENGINE.apply(game, seat, places[len(places) // 2])
    return ENGINE.private_view(game, seat), seat
