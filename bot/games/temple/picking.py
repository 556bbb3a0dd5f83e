"""Short labels for the move picker: the value first (``Area 2 · C3 · 3-brick``).

Decisions:

* The engine's suggestions (read off the legal actions) keep their long
  labels for autocomplete; a brick's length gets a short one for the picker,
  which merges it after an area and a cell.
* A layout (a re-lay's bricks) is labelled by the cells each brick covers
  (``A1–C1, B2–C2``), never by its notation (``3:A1 2:B2``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Suggestion
from bot.games.notation import Label
from bot.games.temple.actions import parse_brick
from bot.games.temple.naming import bricks_name

#: the parameters that name a brick's length
LENGTHS = ("length",)
#: the parameters that list a layout's bricks
LAYOUTS = ("bricks",)


def shortened(param: str, found: Sequence[Suggestion]) -> list[Suggestion]:
    """``found`` with the picker's short labels (and a layout's in words)."""
    if param in LAYOUTS:
        return [replace(s, label=layout_label(s.value)) for s in found]
    if param not in LENGTHS:
        return list(found)
    return [replace(s, short=("temple.short.length", {"length": s.value})) for s in found]


def layout_label(words: str) -> Label:
    """A layout written ``3:A1 2:B2`` in words: each brick by the cells it covers."""
    named = bricks_name([parse_brick(word) for word in words.split()])
    return named.key, dict(named.params)
