"""Pillow drawings of the Oracle test game: real PNGs, drawn from the views."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import PlayerLabel


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def render_public(
    view: Mapping[str, Any], players: Sequence[PlayerLabel], lang: str = "en"
) -> bytes:
    image = Image.new("RGB", (320, 40 + 30 * len(players)), "#20242c")
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), f"Oracle round {view['round']}  deck {view['deck']}", fill="white")
    for player in players:
        y = 40 + 30 * player.seat
        draw.rectangle((10, y, 30, y + 20), fill=player.colour)
        played = "played" if player.seat in view["has_played"] else ""
        draw.text(
            (40, y + 4),
            f"{player.name}: {view['points'][player.seat]} pts {played}",
            fill="white",
        )
    return _png(image)


def render_private(view: Mapping[str, Any], player: PlayerLabel, lang: str = "en") -> bytes:
    image = Image.new("RGB", (240, 60), "#2c2020")
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), f"{player.name}: {' '.join(map(str, view['hand']))}", fill="white")
    return _png(image)


def render_relay(
    view: Mapping[str, Any], players: Sequence[PlayerLabel], lang: str = "en"
) -> bytes:
    """The Relay test game's board: each seat's marker, cards and the AP left."""
    image = Image.new("RGB", (360, 40 + 30 * len(players)), "#202c24")
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), f"Relay  deck {view['deck']}  AP {view['ap']}", fill="white")
    for player in players:
        y = 40 + 30 * player.seat
        draw.rectangle((10, y, 30, y + 20), fill=player.colour)
        cards = " ".join(map(str, view["cards"][player.seat]))
        marker = ">" if view["active"] == player.seat else " "
        draw.text(
            (40, y + 4),
            f"{marker}{player.name}: at {view['positions'][player.seat]} cards {cards}",
            fill="white",
        )
    return _png(image)
