"""Names in words for events, refusals and labels, as nested catalog texts.

Hexes, figures, treasures and colours are passed as :class:`bot.i18n.Text`
params, so every reader sees them in their own language; spaces are plain
names (``C4``) and seats are params named ``seat`` or ending in ``_seat``.
"""

from __future__ import annotations

from bot.games.tikal.board import DIRECTIONS
from bot.games.tikal.components import TEMPLE, TILES, TREASURE
from bot.i18n import Text, join_texts


def hex_text(tile_id: str, value: int | None = None) -> Text:
    """``temple 3 (B)``, ``jungle (A)``, ``treasure hex, 3 tokens (D)``, ``volcano (F)``.

    ``value`` is a laid temple's current value (the printed one by default).
    """
    spec = TILES[tile_id]
    letter = spec.letter or "-"
    if spec.kind == TEMPLE:
        return Text(
            "tikal.hex.temple", {"value": spec.value if value is None else value, "letter": letter}
        )
    if spec.kind == TREASURE:
        return Text("tikal.hex.treasure", {"masks": spec.masks, "letter": letter})
    return Text(f"tikal.hex.{spec.kind}", {"letter": letter})


def figure_text(figure: str) -> Text:
    return Text(f"tikal.figure.{figure}")


def treasure_text(kind: str) -> Text:
    return Text(f"tikal.treasure.{kind}")


def stones_text(stones: tuple[int, ...]) -> Text:
    """The stones on each edge of a hex as laid, by the edge's compass side
    (``2 north, 1 south-east``; ``tikal.side.<n|ne|se|s|sw|nw>``)."""
    return join_texts(
        [
            Text("tikal.stones.side", {"count": count, "side": Text(f"tikal.side.{DIRECTIONS[d]}")})
            for d, count in enumerate(stones)
            if count
        ]
    )


def colour_text(colour: str) -> Text:
    return Text(f"tikal.colour.{colour}")
