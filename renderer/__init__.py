"""Pillow renderers: one module per game (``renderer.<game>``) exposing
``render_public(view, players, lang="en") -> bytes`` and, for games with
hidden information, ``render_private(view, player, lang="en") -> bytes``; the
words on an image come from the i18n catalog in ``lang`` (English when the
installed fonts cannot draw that language). Shared, game-agnostic
drawing helpers (fonts with CJK fallback, text, sprites, PNG encoding) live in
:mod:`renderer.common`."""
