"""Short labels for the move picker: the value first (``Area 2 · C3 · 3-brick``).

Decisions:

* The engine's suggestions (read off the legal actions) keep their long
  labels for autocomplete; a brick's length gets a short one for the picker,
  which merges it after an area and a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Suggestion

#: the parameters that name a brick's length
LENGTHS = ("length",)


def shortened(param: str, found: Sequence[Suggestion]) -> list[Suggestion]:
    """``found`` with the picker's short labels."""
    if param not in LENGTHS:
        return list(found)
    return [replace(s, short=("temple.short.length", {"length": s.value})) for s in found]
