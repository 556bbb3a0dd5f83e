"""Tikal: the hex in hand on one space, in each distinct rotation (Pillow).

The move picker's rotation menu shows this picture beside its buttons
(:meth:`bot.games.tikal.engine.TikalEngine.picture`, whose view this draws):
one panel per rotation that turns the stones differently, numbered as the
rotation's button, with the hex in hand in the middle and the laid hexes
around it, each with the stones on its edges.

Decisions:

* Phone first: a phone shows the image at most about 412 px wide; the panels
  are 330 px wide, two a row (up to three rows), so a hex is still about 67 px
  across on the phone, its stones visible, and the number is a 56 px badge.
* A linked neighbour (a shared edge with a stone on either side, which a
  figure can cross) is drawn in full with a thick yellow outline; the others
  are dimmed, an empty neighbour space a faint outline: the rotations are
  told apart by where they lead.
* Every hex is named as on the board (``C4``), the hex in hand's space too,
  so a player finds the place on the map; the names are at least 10 px at
  phone width.
* Only hexes, their stones and names are drawn, from the engine's view: nothing is
  re-derived here. The hexes come from ``renderer/tikal.py``'s sprites
  (:func:`renderer.tikal.mini_hex`), so they look as on the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from renderer.common import encode_png, paste_centered, sprite
from renderer.lettering import Pen
from renderer.tikal import FRAME, HIGHLIGHT, OUTLINE, edge_angle, hex_points, mini_hex

#: the board edges as the view names them, clockwise from north (``edge_angle``'s order)
DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")

#: a hex's circumradius in a panel
RADIUS = 56
#: panels per row
PER_ROW = 2
PANEL_W = 330
PANEL_H = 330
PAD = 12
#: the gap between a hex and its neighbour (as on the board)
GAP = 4
DIMMED = 0.45
LINK_WIDTH = 7
#: a space's name, in px at phone width (the glance floor and a little more)
NAME_PX = 10
NAME = (250, 250, 246)


def render_picture(view: Mapping[str, Any], lang: str = "en") -> bytes:
    """The picture of ``view`` (``TikalEngine.picture``) as PNG bytes."""
    return encode_png(draw_picture(view, lang))


def draw_picture(view: Mapping[str, Any], lang: str = "en") -> Image.Image:
    rotations = list(view["rotations"])
    across = PER_ROW
    rows = math.ceil(len(rotations) / across)
    per_row = min(across, len(rotations))
    img = Image.new("RGBA", (per_row * PANEL_W + 2 * PAD, rows * PANEL_H + 2 * PAD), FRAME)
    for index, rotation in enumerate(rotations):
        x = PAD + (index % across) * PANEL_W
        y = PAD + (index // across) * PANEL_H
        _panel(img, view, rotation, x, y)
    return img.convert("RGB")


def _offset(direction: int) -> tuple[float, float]:
    """Where the neighbour in ``direction`` sits from a hex's centre."""
    angle = edge_angle(direction)
    distance = math.sqrt(3) * (RADIUS + GAP / 2)
    return distance * math.cos(angle), distance * math.sin(angle)


def _panel(
    img: Image.Image, view: Mapping[str, Any], rotation: Mapping[str, Any], x: int, y: int
) -> None:
    cx, cy = x + PANEL_W / 2, y + PANEL_H / 2 + 8
    neighbours = {DIRECTIONS.index(n["direction"]): n for n in view["neighbours"]}
    linked = set(rotation["links"])
    for direction in range(6):
        ox, oy = _offset(direction)
        laid = neighbours.get(direction)
        if laid is None:
            paste_centered(img, _empty(), (cx + ox, cy + oy))
            continue
        face = mini_hex(laid["kind"], tuple(laid["stones"]), RADIUS, _value(laid))
        if laid["space"] in linked:
            paste_centered(img, face, (cx + ox, cy + oy))
            _ring(ImageDraw.Draw(img), cx + ox, cy + oy)
            continue
        face = face.copy()
        face.putalpha(face.getchannel("A").point(lambda a: round(a * DIMMED)))
        paste_centered(img, face, (cx + ox, cy + oy))
    tile = view["tile"]
    hand = mini_hex(tile["kind"], tuple(rotation["stones"]), RADIUS, _value(tile))
    paste_centered(img, hand, (cx, cy))
    pen = Pen(img.width)
    draw = ImageDraw.Draw(img)
    size = pen.px(NAME_PX)
    _name(draw, pen, cx, cy, str(view["space"]), size)
    for direction, laid in neighbours.items():
        ox, oy = _offset(direction)
        _name(draw, pen, cx + ox, cy + oy, str(laid["space"]), size)
    _badge(img, x + 34, y + 34, str(rotation["rotation"]))


def _name(draw: ImageDraw.ImageDraw, pen: Pen, cx: float, cy: float, name: str, size: int) -> None:
    """A space's name near the top of its hex, as on the board (light, ringed dark so it
    reads on any terrain, dimmed or not)."""
    top = cy - RADIUS * math.sqrt(3) / 2 + size * 0.75
    pen.text(
        draw, (cx, top), name, size, NAME, bold=True, anchor="mm", stroke=3, stroke_fill=OUTLINE
    )


def _value(hex_: Mapping[str, Any]) -> str | None:
    if hex_.get("kind") == "temple" and hex_.get("value"):
        return str(hex_["value"])
    return None


def _ring(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A linked neighbour's yellow outline."""
    corners = hex_points(cx, cy, RADIUS - 1)
    draw.polygon(corners, outline=OUTLINE, width=LINK_WIDTH + 4)
    draw.polygon(hex_points(cx, cy, RADIUS - 3), outline=HIGHLIGHT, width=LINK_WIDTH)


def _badge(img: Image.Image, cx: float, cy: float, text: str) -> None:
    """The rotation's number, as its button says it."""
    size = 56

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        box = (0, 0, size * k - 1, size * k - 1)
        d.ellipse(box, fill=HIGHLIGHT, outline=OUTLINE, width=round(3 * k))

    paste_centered(img, sprite(size, size, paint), (cx, cy))
    Pen(img.width).put(img, (cx, cy), text, 38, OUTLINE, bold=True, anchor="mm")


def _empty() -> Image.Image:
    size = 2 * RADIUS
    height = math.ceil(2 * RADIUS * math.sqrt(3) / 2)

    def paint(d: ImageDraw.ImageDraw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        d.polygon(hex_points(cx, cy, (RADIUS - 2) * k), outline=(78, 90, 82), width=round(2 * k))

    return sprite(size, height, paint)
