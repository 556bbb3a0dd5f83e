"""Short labels for the move picker: the value first (``Red ×2``, ``King``, ``F5``).

Decisions:

* The engine's suggestions (read off the legal actions) keep their long
  labels for autocomplete; each gets a short one for the picker: a tile
  colour with how many of it the seat holds (its own hand: the picker is
  the seat's own), a leader by title, a war by colour, a count as a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Suggestion
from bot.games.tigris.state import GameState
from bot.i18n import Text


def shortened(
    state: GameState, seat: int, verb: str, param: str, found: Sequence[Suggestion]
) -> list[Suggestion]:
    """``found`` with the picker's short labels."""
    hand = state.players[seat].hand if 0 <= seat < len(state.players) else []
    shown = []
    for suggestion in found:
        word = suggestion.value
        short: tuple[str, dict[str, object]] | None = None
        if param == "leader":
            short = (f"tigris.short.leader.{word}", {})
        elif param == "colour" and verb == "tile":
            colour = Text(f"tigris.short.colour.{word}")
            short = ("tigris.short.tile", {"colour": colour, "count": hand.count(word)})
        elif param == "colour":
            short = (f"tigris.short.colour.{word}", {})
        if short is not None:
            suggestion = replace(suggestion, short=short)
        shown.append(suggestion)
    return shown
