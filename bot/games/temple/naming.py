"""Names in words for event and refusal parameters (translated late, per reader).

Decisions:

* Cards, power tokens and submission parts are passed to catalog strings as
  :class:`~bot.i18n.Text`, so each reader sees them in their own language
  (``temple.card.<id>``, ``temple.token.<name>``, ``temple.part.<name>``).
"""

from __future__ import annotations

from bot.i18n import Text


def card_name(card_id: str) -> Text:
    """``temple.card.<id>``: the card's name (``Ziggurat``)."""
    return Text(f"temple.card.{card_id}")


def token_name(token: str) -> Text:
    """``temple.token.<token>``: Hammer & Chisel, Bag, Mortar."""
    return Text(f"temple.token.{token}")


def part_name(part: str) -> Text:
    """``temple.part.<part>``: a part of a sealed submission."""
    return Text(f"temple.part.{part}")
