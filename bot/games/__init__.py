"""The game registry: a game type's name mapped to its :class:`~bot.games.base.GameType`.

This package knows no game by name. The product's games are paired with
their renderers in the composition root, :mod:`bot.plugins`, which calls
:func:`register`; tests register extra games (the test game lives under
``tests/`` only).
"""

from __future__ import annotations

from bot.games.base import GameType

REGISTRY: dict[str, GameType] = {}


def register(game_type: GameType) -> None:
    """Add or replace a game type under its engine's name."""
    REGISTRY[game_type.engine.name] = game_type


def get(name: str) -> GameType:
    return REGISTRY[name]
