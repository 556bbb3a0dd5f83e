"""Event helpers: translated names and private scoring.

Colour and leader names are passed as nested :class:`bot.i18n.Text` params
(``tigris.colour.red``, ``tigris.leader.black``), so every recipient reads
them in their own language. Squares are plain names (``F5``); seats are
params named ``seat`` or ending in ``_seat``.

Points are hidden unless the game was set up with ``scoring: open``: a
scoring event is then private to the scorer.
"""

from __future__ import annotations

from bot.games.base import Event
from bot.games.tigris.components import COLOURS, Colour
from bot.games.tigris.state import GameState
from bot.i18n import Text


def colour_text(colour: Colour) -> Text:
    return Text(f"tigris.colour.{colour}")


def leader_text(colour: Colour) -> Text:
    return Text(f"tigris.leader.{colour}")


def scoring_is_open(state: GameState) -> bool:
    return state.scoring == "open"


def scored(state: GameState, seat: int, colour: Colour, count: int, key: str = "") -> Event:
    """``seat`` scored ``count`` points of ``colour``: private unless scoring is open."""
    return Event(
        key or "tigris.event.scored",
        {"seat": seat, "count": count, "colour": colour_text(colour)},
        private_to=None if scoring_is_open(state) else seat,
    )


def tiles_params(tiles: list[Colour]) -> dict[str, int]:
    """Counts per colour, for "you drew" messages."""
    return {colour: tiles.count(colour) for colour in COLOURS}
