"""The temple cards, read from ``cards.json`` (data, not code).

Each card is a grid of filled cells drawn as text rows, top row first
(``#`` filled, ``.`` empty), at most 8 wide and 6 high, with its point
value. ``tests/games/temple/test_temple_cards.py`` proves that every card
can be built from one player's full supply and that values grow with the
bricks a card needs.

Decisions:

* The set is our own (the printed silhouettes are not published): 31 temple
  cards, sized like the printed pool, and one lightning card (3 points).
* A card's value is half the fewest bricks that build it, rounded up
  (2 bricks: 1 point ... 11 bricks: 6 points); the JSON holds the values and
  the test checks them against the bricks.
* Cards are named by their ``id`` (a catalog key ``temple.card.<id>`` names
  them in words).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.games.temple.geometry import Cell

CARDS_FILE = Path(__file__).with_name("cards.json")
LIGHTNING_ID = "lightning"


@dataclass(frozen=True)
class Card:
    """A temple (or the lightning) card: its silhouette and its value."""

    id: str
    value: int
    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return _width(self.rows)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def cells(self) -> frozenset[Cell]:
        return _cells(self.rows)

    @property
    def ground_first(self) -> tuple[Cell, ...]:
        """:attr:`cells` row by row from the ground (row 0), each row left to right: the
        order the views list them in."""
        return _ground_first(self.rows)

    @property
    def lightning(self) -> bool:
        return self.id == LIGHTNING_ID

    def view(self) -> dict[str, Any]:
        """The card as the views show it (cells as ``[x, y]``, row 0 the ground)."""
        return {
            "id": self.id,
            "value": self.value,
            "width": self.width,
            "height": self.height,
            "cells": [list(cell) for cell in self.ground_first],
            "lightning": self.lightning,
        }


@cache
def _cells(rows: tuple[str, ...]) -> frozenset[Cell]:
    height = len(rows)
    return frozenset(
        (x, height - 1 - i) for i, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"
    )


@cache
def _width(rows: tuple[str, ...]) -> int:
    return max(len(row) for row in rows)


@cache
def _ground_first(rows: tuple[str, ...]) -> tuple[Cell, ...]:
    return tuple(sorted(_cells(rows), key=lambda c: (c[1], c[0])))


def _card(entry: dict[str, Any]) -> Card:
    return Card(str(entry["id"]), int(entry["value"]), tuple(str(r) for r in entry["rows"]))


@cache
def _load() -> tuple[tuple[Card, ...], Card]:
    data = json.loads(CARDS_FILE.read_text("utf-8"))
    return tuple(_card(e) for e in data["temples"]), _card(data["lightning"])


def temple_cards() -> tuple[Card, ...]:
    """Every temple card of the set, in the file's order."""
    return _load()[0]


def lightning_card() -> Card:
    return _load()[1]


@cache
def _by_id() -> dict[str, Card]:
    temples, lightning = _load()
    return {card.id: card for card in (*temples, lightning)}


def card(card_id: str) -> Card:
    """The card with this id (``KeyError`` for an unknown id)."""
    return _by_id()[card_id]
