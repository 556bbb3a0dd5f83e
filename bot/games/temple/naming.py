"""Names in words for event and refusal parameters (translated late, per reader).

Decisions:

* Cards, power tokens and submission parts are passed to catalog strings as
  :class:`~bot.i18n.Text`, so each reader sees them in their own language
  (``temple.card.<id>``, ``temple.token.<name>``, ``temple.part.<name>``).
* A brick is named by the cells it covers (``A1–D1``, ``C2`` for a brick of
  one), as the board prints them: no notation (``4:A1``) where players tap.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.temple.components import COLUMN_LETTERS, cell_name
from bot.games.temple.geometry import Brick
from bot.i18n import Text, join_texts


def brick_name(brick: Brick) -> Text:
    """The cells ``brick`` covers: ``A1–D1`` (``C2`` for a brick of one); a brick
    reaching past the grid's last column, by its length and left end."""
    first = cell_name(brick.x, brick.y)
    if brick.length == 1:
        return Text("picker.word", {"word": first})
    if brick.right >= len(COLUMN_LETTERS):
        return Text("temple.brick", {"length": brick.length, "cell": first})
    return Text("temple.picker.span", {"first": first, "last": cell_name(brick.right, brick.y)})


def bricks_name(bricks: Sequence[Brick]) -> Text:
    """Several bricks by the cells each covers: ``A1–D1, B2–C2``."""
    return join_texts([brick_name(b) for b in bricks])


def card_name(card_id: str) -> Text:
    """``temple.card.<id>``: the card's name (``Ziggurat``)."""
    return Text(f"temple.card.{card_id}")


def token_name(token: str) -> Text:
    """``temple.token.<token>``: Hammer & Chisel, Bag, Mortar."""
    return Text(f"temple.token.{token}")


def part_name(part: str) -> Text:
    """``temple.part.<part>``: a part of a sealed submission."""
    return Text(f"temple.part.{part}")
