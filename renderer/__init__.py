"""Pillow renderers: one module per game (``renderer.<game>``) exposing
``render_public(view, players) -> bytes`` and, for games with hidden
information, ``render_private(view, player) -> bytes``. Shared, game-agnostic
drawing helpers (fonts with CJK fallback, text, sprites, PNG encoding) live in
:mod:`renderer.common`."""
