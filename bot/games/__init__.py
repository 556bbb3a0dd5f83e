"""Game registry: a game type is one entry mapping its name to a :class:`GameType`.

Product games register themselves in :func:`load_builtin_games`; tests may
register extra games (the test game lives under ``tests/`` only).
"""

from __future__ import annotations

import importlib

from bot.games.base import GameType

REGISTRY: dict[str, GameType] = {}

#: (engine module exposing ``ENGINE``, renderer module exposing ``render_public``
#: and optionally ``render_private``); a game lands by adding a line. The
#: pairing lives here so that engines never import the renderer.
BUILTIN_GAMES: tuple[tuple[str, str], ...] = (("bot.games.tigris", "renderer.tigris"),)


def register(game_type: GameType) -> None:
    """Add or replace a game type under its engine's name."""
    REGISTRY[game_type.engine.name] = game_type


def load_builtin_games() -> dict[str, GameType]:
    """Import every built-in game whose modules exist and register it."""
    for engine_module, renderer_module in BUILTIN_GAMES:
        try:
            engine = importlib.import_module(engine_module).ENGINE
            drawing = importlib.import_module(renderer_module)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (
                engine_module.startswith(exc.name) or renderer_module.startswith(exc.name)
            ):
                continue  # the game has not landed yet
            raise
        register(
            GameType(
                engine=engine,
                render_public=drawing.render_public,
                render_private=getattr(drawing, "render_private", None),
            )
        )
    return REGISTRY


def get(name: str) -> GameType:
    return REGISTRY[name]
