"""The seats' colours, and the words players call them by.

Decisions:

* A seat's colour is the engine's when it declares ``seat_colours`` (Tikal's
  pieces), else the service's palette, in seat order; each has a catalog word.
* A label that names a player names them by that word (``With amber: joint
  last card``): short, never cut, and shown beside the player's name when the
  game starts and in the board's legend (:func:`colour_key`).
"""

from __future__ import annotations

from bot.games.base import GameType

#: seat colours in seat order; chosen to stay apart from the games' piece colours
SEAT_COLOURS: tuple[str, ...] = ("#f1a208", "#9b59b6", "#1abc9c", "#e84393", "#95a5a6")
#: what players call each seat colour (catalog keys)
SEAT_COLOUR_NAMES: dict[str, str] = {
    "#f1a208": "colour.amber",
    "#9b59b6": "colour.purple",
    "#1abc9c": "colour.teal",
    "#e84393": "colour.pink",
    "#95a5a6": "colour.grey",
}


def seat_colours(game_type: GameType, count: int) -> list[tuple[str, str]]:
    """Each seat's colour and the catalog key naming it: the engine's, else the palette."""
    declared = game_type.engine.seat_colours
    if declared:
        return [(c.hex, c.name_key) for c in declared[:count]]
    return [
        (
            SEAT_COLOURS[i % len(SEAT_COLOURS)],
            SEAT_COLOUR_NAMES[SEAT_COLOURS[i % len(SEAT_COLOURS)]],
        )
        for i in range(count)
    ]


def colour_key(game_type: GameType, colour: str) -> str | None:
    """The catalog key naming a seat's ``colour`` (``#rrggbb``), None if unknown."""
    for declared in game_type.engine.seat_colours:
        if declared.hex.lower() == colour.lower():
            return declared.name_key
    return SEAT_COLOUR_NAMES.get(colour.lower())
