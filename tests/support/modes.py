"""Every game and mode the built-in games offer, as (game, players, options): the list
the tests that must cover them all walk."""

from __future__ import annotations

EVERY_MODE: list[tuple[str, int, dict[str, str]]] = [
    ("tigris", 2, {"scoring": "hidden"}),
    ("tigris", 3, {"scoring": "open"}),
    ("tigris", 4, {"scoring": "hidden"}),
    ("tikal", 2, {"mode": "base"}),
    ("tikal", 3, {"mode": "auction"}),
    ("tikal", 4, {"mode": "base"}),
    ("tikal", 2, {"mode": "mini"}),
    ("temple", 2, {}),
    ("temple", 3, {"joint": "on"}),
    ("temple", 4, {}),
]
