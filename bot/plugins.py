"""The composition root of the games: each product game is one line here.

A game is a plugin: its engine package under :mod:`bot.games`, its renderer
module under :mod:`renderer`, and one :class:`~bot.games.base.GameType` line
in :data:`GAMES` pairing them. Nothing else in the code names a game — the
service, the Discord adapter and the registry read everything they need
from the engine's declared shape. Engines never import renderers; this
module is the only place that imports both.
"""

from __future__ import annotations

import renderer.temple
import renderer.tigris
import renderer.tikal
import renderer.tikal_hex
from bot import games
from bot.games import temple, tigris, tikal
from bot.games.base import GameType

GAMES: tuple[GameType, ...] = (
    GameType(
        tigris.ENGINE,
        renderer.tigris.render_public,
        renderer.tigris.render_private,
        render_rules=renderer.tigris.render_rules,
    ),
    GameType(
        tikal.ENGINE,
        renderer.tikal.render_public,
        render_zoom=renderer.tikal.render_zoom,
        render_picture=renderer.tikal_hex.render_picture,
        render_rules=renderer.tikal.render_rules,
    ),
    GameType(
        temple.ENGINE,
        renderer.temple.render_public,
        renderer.temple.render_private,
        render_rules=renderer.temple.render_rules,
    ),
)


def load_builtin_games() -> dict[str, GameType]:
    """Register every product game; returns them (and only them) by name."""
    for game_type in GAMES:
        games.register(game_type)
    return {game_type.engine.name: game_type for game_type in GAMES}
