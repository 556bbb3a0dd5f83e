"""Tikal: the public board image (Pillow). Tikal has no private view.

Input is the view schema of ``docs/tikal_views.md`` and nothing else: the
engine has already computed the hexes' centres, the stones on each board
edge, temple values and holders, the crossings' AP costs, the supplies and
the scores, so this module only draws.

Decisions recorded here:

* Layout for phones: the hex map on top (every space named inside its hex,
  column letters above and row numbers to the left), the panel *below* it
  rather than beside it: a phone scales the whole image to its width, and a
  side panel would shrink the map. The panel holds the turn line, the
  stacks and temple tiles left beside the hex to lay (all six rotations
  drawn), the auction row or this turn's limits used, then one card per
  player and a legend.
* The map is cropped to the mode's spaces (no ring of unusable ones: an
  unnamed hex or a column without a letter only puzzled players) and scaled
  to about 1248 px wide, hexes at most 120 px in circumradius: the full board
  gets about 82 px hexes, Mini-Tikal's smaller area 120 px ones. The image is
  never narrower than 1248 px.
* Phone first: a phone shows the image about 412 px wide, a third of its
  size. Every text is drawn through :class:`renderer.lettering.Pen` at 9 px or
  more there (28 px in the 1248 px image): hex names, figure chips, crossing
  costs, temple values, the panel, the legend; column letters and row numbers
  are 12 px. Only the stones are smaller, and they are read in the close-up
  (:func:`render_zoom`), where the map is about twice as large.
* Each hex: its name at the top, its content in the middle (a temple's value
  on a plate ringed in the colour of whoever scores it now, grey when
  nobody does, and a shield in the guard's colour; face-down tokens left on
  a treasure hex; a camp's tent in its owner's colour), and the figures at
  the bottom as one chip per player in their colour with the number of
  workers and a crown when the leader is there. Chips and tags (a step's
  number, the close-up's AP) share two rows below the centre, the second on
  either side of the south crossing's badge, so no mark covers a chip or a
  cost.
* Stones are grey pips just inside each edge, off to one side of the edge's
  middle; the middle of every open crossing carries a dark square badge with
  its AP cost (both sides added), so a player plans moves without adding
  up. Badges are square and chips round, so a white player's chip never
  reads as a cost.
* The hex to lay is drawn in its six rotations, numbered as the ``place``
  command takes them.
* Treasure kinds are told apart by colour *and* shape (mask, jade gem, idol,
  vase, crown, dagger, bowl, shell); the panel's legend names each in the
  image's language only.
* Text comes from the catalog (``tikal.render.*`` and the game's names) in
  the ``lang`` given; when the fonts cannot draw every label of that
  language, the whole image is drawn in English (as ``renderer/tigris.py``).
* Speed: the map's background, every hex face with its stones, badge, chip
  and icon is drawn once (4x supersampled, cached), and so is every text
  strip; a render pastes them, then maps the image onto a cached 256-colour
  palette. For the PNG (:func:`render_public`) the map's pastes are recorded
  (:class:`renderer.common.Recorder`) and drawn by regions of
  :data:`MAP_REGION` px (:func:`renderer.common.mapped_by_regions`): a region
  drawn and mapped before is pasted as it was mapped; the panel is drawn on an
  image of its own. The PNG is the same, byte for byte, as the whole image
  mapped; :func:`draw_public` and the close-up draw the whole image.

New generic helper defined here: :func:`hex_points` (a flat-topped hexagon's
corners).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import PlayerLabel
from bot.i18n import DEFAULT_LANG, Text, t
from renderer.annotate import Callout, annotate
from renderer.common import (
    RGB,
    Recorder,
    build_palette,
    clean_name,
    drawable_language,
    encode_png,
    font_stack,
    mapped_by_regions,
    mix,
    parse_hex_colour,
    paste,
    paste_centered,
    readable_on,
    seat_named,
    sprite,
    turn_steps,
)
from renderer.lettering import Pen, unrecorded

View = Mapping[str, Any]
Draw = ImageDraw.ImageDraw
Point = tuple[float, float]

# --------------------------------------------------------------------------- geometry

R = 84  # hex circumradius in px
GAP = 2.5  # dark gap between neighbouring hexes
MARGIN_X = 52  # left band: row numbers
MARGIN_TOP = 54  # top band: column letters
PAD = 18
#: the image's width (:func:`geometry` never draws it narrower)
TARGET_WIDTH = 1248
#: its text: 9 px on a phone's 412 px is 28 px here
PEN = Pen(TARGET_WIDTH)
GLANCE = PEN.floor
BIG = PEN.px(10)

# --------------------------------------------------------------------------- palette

FRAME = (27, 31, 29)
BAND_TEXT = (196, 204, 196)
EMPTY = (52, 60, 55)
EMPTY_LINE = (78, 90, 82)
EMPTY_TEXT = (168, 180, 170)
UNUSABLE = (33, 37, 35)
CARD = (44, 50, 47)
CARD_ACTIVE = (58, 66, 50)
TEXT = (240, 240, 236)
TEXT_DIM = (170, 178, 172)
HIGHLIGHT = (255, 212, 0)
REACH = (64, 210, 230)  # the close-up's marks of where the turn may act
OUTLINE = (22, 22, 22)
WHITE = (255, 255, 255)
STONE = (118, 120, 124)
STONE_EDGE = (40, 40, 44)
NAME_ON_HEX = (30, 34, 30)
NO_HOLDER = (150, 150, 150)
BADGE = (40, 42, 48)
BADGE_RIM = (232, 232, 226)
PLATE = (250, 246, 234)

TERRAIN: dict[str, RGB] = {
    "base": (214, 182, 128),
    "temple": (178, 170, 152),
    "jungle": (104, 150, 86),
    "treasure": (222, 190, 100),
    "volcano": (78, 58, 54),
}
TERRAIN_MARK: dict[str, RGB] = {
    "base": (172, 138, 88),
    "temple": (150, 141, 124),
    "jungle": (84, 128, 68),
    "treasure": (196, 160, 70),
    "volcano": (60, 42, 40),
}
LAVA = (232, 88, 40)
GOLD = (240, 192, 40)
TOKEN = (150, 112, 60)
TOKEN_EDGE = (70, 48, 24)

DEFAULT_PLAYER_COLOURS: tuple[RGB, ...] = (
    (217, 52, 43),
    (47, 111, 222),
    (242, 196, 24),
    (244, 241, 234),
)

TREASURE_COLOURS: dict[str, RGB] = {
    "mask": (232, 180, 30),
    "jade": (40, 160, 100),
    "idol": (190, 100, 60),
    "vase": (60, 120, 200),
    "crown": (150, 80, 190),
    "dagger": (120, 130, 140),
    "bowl": (160, 110, 70),
    "shell": (230, 130, 160),
}
TREASURE_ORDER = tuple(TREASURE_COLOURS)

# --------------------------------------------------------------------------- text

PHASE_KEYS = {p: f"tikal.render.phase.{p}" for p in ("place", "actions", "bid", "pick")}
TURN_KEYS = {k: f"tikal.render.turn.{k}" for k in ("scoring", "final", "volcano")}
KIND_KEYS = {k: f"tikal.render.kind.{k}" for k in TERRAIN}
TREASURE_KEYS = {k: f"tikal.treasure.{k}" for k in TREASURE_ORDER}
#: the verbs of the turn captions (``tikal.step.<verb>``, given by the view)
STEP_VERBS = (
    "place",
    "pick",
    "bid",
    "pass",
    "enter",
    "move",
    "dig",
    "recover",
    "exchange",
    "camp",
    "guard",
    "end",
)

TEXT_KEYS: tuple[str, ...] = (
    "tikal.render.player",
    "tikal.render.ap",
    "tikal.render.entered",
    *PHASE_KEYS.values(),
    *TURN_KEYS.values(),
    *KIND_KEYS.values(),
    *TREASURE_KEYS.values(),
    "tikal.render.game_over",
    "tikal.render.in_hand",
    "tikal.render.aside",
    "tikal.render.scoring_round",
    "tikal.render.final_round",
    "tikal.render.stack",
    "tikal.render.stack_empty",
    "tikal.render.temple_tiles",
    "tikal.render.revealed",
    "tikal.render.bid",
    "tikal.render.no_bid",
    "tikal.render.passed",
    "tikal.render.played",
    "tikal.render.score",
    "tikal.render.supply",
    "tikal.render.removed",
    "tikal.render.treasures",
    "tikal.render.none",
    "tikal.render.last",
    "tikal.render.legend_cost",
    "tikal.render.legend_chip",
    "tikal.render.legend_plate",
    "tikal.render.rotation_help",
    "tikal.render.any_rotation",
    "tikal.render.winner",
    "tikal.render.this_turn",
    "tikal.render.dug",
    "tikal.render.recovered",
    *(f"tikal.step.{verb}" for verb in STEP_VERBS),
    "tikal.figure.worker",
    "tikal.figure.leader",
    *(f"tikal.colour.{c}" for c in ("red", "blue", "yellow", "white")),
    "tikal.render.zoom.lay",
    "tikal.render.zoom.reach",
    "tikal.render.zoom.steps",
    "tikal.render.zoom.yours",
    "tikal.render.callout.base_camp",
    "tikal.render.callout.temple",
    "tikal.render.callout.figures",
    "tikal.render.callout.treasure",
    "tikal.render.callout.jungle",
    "tikal.render.callout.volcano",
    "tikal.render.callout.cost",
    "tikal.render.callout.turn",
    "tikal.render.callout.in_hand",
    "tikal.render.callout.scores",
    "tikal.render.callout.strength",
)


def image_language(lang: str | None) -> str:
    """``lang`` when the fonts draw every label of it, else English."""
    return drawable_language(lang, TEXT_KEYS)


# --------------------------------------------------------------------------- shapes


def hex_points(cx: float, cy: float, radius: float) -> list[Point]:
    """A flat-topped hexagon's corners, clockwise from the east corner."""
    return [
        (cx + radius * math.cos(math.radians(60 * i)), cy + radius * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def edge_angle(direction: int) -> float:
    """The angle (radians) from a hex's centre to the middle of edge ``direction``
    (0 = N, clockwise)."""
    return math.radians(-90 + 60 * direction)


def stone_offsets(direction: int, count: int, radius: int = R) -> list[Point]:
    """Where a hex's ``count`` stones on edge ``direction`` sit, from its centre:
    just inside the edge, clockwise of the edge's middle (which the crossing's
    cost badge takes)."""
    angle = edge_angle(direction)
    inward = radius * math.sqrt(3) / 2 - 10
    tangent = angle + math.pi / 2
    points = []
    for i in range(count):
        along = radius * 0.24 + 12 * i
        points.append(
            (
                inward * math.cos(angle) + along * math.cos(tangent),
                inward * math.sin(angle) + along * math.sin(tangent),
            )
        )
    return points


# --------------------------------------------------------------------------- sprites


@cache
def terrain_sprite(kind: str, radius: int = R) -> Image.Image:
    """A laid hex's face (no stones): terrain colour and a faint emblem."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)
    fill = TERRAIN.get(kind, (128, 128, 128))
    mark = TERRAIN_MARK.get(kind, fill)

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        d.polygon(hex_points(cx, cy, (radius - GAP) * k), fill=mix(fill, OUTLINE, 0.35))
        d.polygon(hex_points(cx, cy, (radius - GAP - 2.5) * k), fill=fill)
        s = radius * k / 84
        if kind == "jungle":
            for dx, dy, h in ((-44, -8, 26), (42, -12, 22), (-30, 30, 20), (34, 30, 24)):
                x, y = cx + dx * s, cy + dy * s
                d.polygon([(x, y - h * s), (x - h * 0.55 * s, y), (x + h * 0.55 * s, y)], fill=mark)
        elif kind == "temple":
            for i, w in enumerate((64, 46, 28)):
                y0 = cy + (2 - i * 13) * s
                d.rectangle((cx - w / 2 * s, y0, cx + w / 2 * s, y0 + 11 * s), fill=mark)
        elif kind == "treasure":
            d.ellipse((cx - 46 * s, cy - 24 * s, cx + 46 * s, cy + 26 * s), fill=mark)
        elif kind == "volcano":
            d.polygon(
                [
                    (cx - 60 * s, cy + 40 * s),
                    (cx - 14 * s, cy - 30 * s),
                    (cx + 14 * s, cy - 30 * s),
                    (cx + 60 * s, cy + 40 * s),
                ],
                fill=(96, 74, 68),
            )
            d.polygon(
                [
                    (cx - 14 * s, cy - 30 * s),
                    (cx + 14 * s, cy - 30 * s),
                    (cx + 6 * s, cy - 14 * s),
                    (cx - 4 * s, cy - 4 * s),
                    (cx - 8 * s, cy - 18 * s),
                ],
                fill=LAVA,
            )
            for dx, dy, r in ((-6, -44, 7), (8, -54, 5), (-2, -62, 4)):
                x, y = cx + dx * s, cy + dy * s
                d.ellipse((x - r * s, y - r * s, x + r * s, y + r * s), fill=(120, 112, 110))
        elif kind == "base":
            _tent(d, cx, cy - 8 * s, 54 * s, mark, fill)

    return sprite(size, height, paint)


@lru_cache(maxsize=160)
def hex_face(kind: str, stones: tuple[int, ...], radius: int = R) -> Image.Image:
    """A laid hex: its terrain with the stones on each edge (``stones`` per board
    edge, clockwise from north)."""
    face = terrain_sprite(kind, radius).copy()
    pip = stone_sprite(round(12 * radius / R))
    cx, cy = face.width / 2, face.height / 2
    for direction, count in enumerate(stones):
        for ox, oy in stone_offsets(direction, count, radius):
            face.alpha_composite(
                pip, (round(cx + ox - pip.width / 2), round(cy + oy - pip.height / 2))
            )
    return face


@cache
def empty_sprite(unusable: bool, radius: int = R) -> Image.Image:
    """An empty space: a dark hex outline (unusable spaces are darker and bare)."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        if unusable:
            d.polygon(hex_points(cx, cy, (radius - GAP) * k), fill=UNUSABLE)
            return
        d.polygon(hex_points(cx, cy, (radius - GAP) * k), fill=EMPTY_LINE)
        d.polygon(hex_points(cx, cy, (radius - GAP - 2) * k), fill=EMPTY)

    return sprite(size, height, paint)


def _tent(d: Draw, cx: float, cy: float, w: float, fill: RGB, door: RGB) -> None:
    """A tent: a triangle with a door and a pennant."""
    h = w * 0.78
    d.polygon([(cx, cy - h / 2), (cx - w / 2, cy + h / 2), (cx + w / 2, cy + h / 2)], fill=fill)
    d.polygon(
        [(cx, cy - h * 0.05), (cx - w * 0.14, cy + h / 2), (cx + w * 0.14, cy + h / 2)], fill=door
    )
    d.line((cx, cy - h / 2, cx, cy - h * 0.85), fill=fill, width=max(1, round(w * 0.05)))
    d.polygon([(cx, cy - h * 0.85), (cx + w * 0.22, cy - h * 0.75), (cx, cy - h * 0.65)], fill=fill)


@cache
def stone_sprite(size: int = 12) -> Image.Image:
    def paint(d: Draw, k: float) -> None:
        d.ellipse((0, 0, size * k - 1, size * k - 1), fill=STONE_EDGE)
        d.ellipse((1.4 * k, 1.4 * k, size * k - 1.4 * k, size * k - 1.4 * k), fill=STONE)
        d.ellipse((3 * k, 2.6 * k, size * k * 0.55, size * k * 0.45), fill=(170, 172, 176))

    return sprite(size, size, paint)


@cache
def badge_sprite(cost: int, size: int = 34) -> Image.Image:
    """A crossing's AP cost: a dark rounded square with a light rim and a bold
    number (unlike the round figure chips)."""
    text = max(GLANCE, round(size * 0.8))

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.rounded_rectangle((0, 0, full, full), radius=6 * k, fill=BADGE_RIM)
        d.rounded_rectangle(
            (1.8 * k, 1.8 * k, full - 1.8 * k, full - 1.8 * k), radius=5 * k, fill=BADGE
        )
        PEN.text(
            d, (full / 2, full / 2 + 0.5 * k), str(cost), text, WHITE, bold=True, anchor="mm", k=k
        )

    return sprite(size, size, paint)


@cache
def tent_sprite(colour: RGB, size: int = 40) -> Image.Image:
    """A camp in its owner's colour."""

    def paint(d: Draw, k: float) -> None:
        c = size * k / 2
        _tent(d, c, c + 2 * k, size * k * 0.92, OUTLINE, OUTLINE)
        _tent(d, c, c + 2 * k, size * k * 0.78, colour, mix(colour, OUTLINE, 0.55))

    return sprite(size, size, paint)


def _shield(d: Draw, cx: float, cy: float, w: float, fill: RGB) -> None:
    h = w * 1.15
    d.polygon(
        [
            (cx - w / 2, cy - h / 2),
            (cx + w / 2, cy - h / 2),
            (cx + w / 2, cy),
            (cx, cy + h / 2),
            (cx - w / 2, cy),
        ],
        fill=fill,
    )


@cache
def shield_sprite(colour: RGB, size: int = 34, ghost: bool = False) -> Image.Image:
    """A guard in its owner's colour (a ghost: a guard not yet placed, for the panel)."""

    def paint(d: Draw, k: float) -> None:
        c = size * k / 2
        if ghost:
            _shield(d, c, c, size * k * 0.8, (90, 96, 92))
            _shield(d, c, c, size * k * 0.8 - 5 * k, CARD)
            return
        _shield(d, c, c, size * k * 0.8, OUTLINE)
        _shield(d, c, c, size * k * 0.8 - 4 * k, colour)
        fg = readable_on(colour)
        d.line((c, c - size * k * 0.22, c, c + size * k * 0.18), fill=fg, width=round(2.5 * k))
        d.line(
            (c - size * k * 0.16, c - size * k * 0.06, c + size * k * 0.16, c - size * k * 0.06),
            fill=fg,
            width=round(2.5 * k),
        )

    return sprite(size, size, paint)


@cache
def value_plate(value: int, holder: RGB | None, size: int = 46) -> Image.Image:
    """A temple's value on a white plate ringed in the holder's colour (wider for
    two digits)."""
    text = max(GLANCE, round(size * 0.66))
    ring = holder or NO_HOLDER
    width = round(size * 1.3) if value >= 10 else size

    def paint(d: Draw, k: float) -> None:
        full_w, full_h = width * k - 1, size * k - 1
        d.rounded_rectangle((0, 0, full_w, full_h), radius=10 * k, fill=OUTLINE)
        d.rounded_rectangle(
            (1.5 * k, 1.5 * k, full_w - 1.5 * k, full_h - 1.5 * k), radius=9 * k, fill=ring
        )
        inset = 5 * k
        box = (inset, inset, full_w - inset, full_h - inset)
        d.rounded_rectangle(box, radius=6 * k, fill=OUTLINE)
        inset += 1.5 * k
        box = (inset, inset, full_w - inset, full_h - inset)
        d.rounded_rectangle(box, radius=5 * k, fill=PLATE)
        centre = (full_w / 2, full_h / 2 + k)
        PEN.text(d, centre, str(value), text, OUTLINE, bold=True, anchor="mm", k=k)

    return sprite(width, size, paint)


@cache
def token_sprite(size: int = 22) -> Image.Image:
    """A face-down treasure token."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.ellipse((0, 0, full, full), fill=TOKEN_EDGE)
        d.ellipse((2 * k, 2 * k, full - 2 * k, full - 2 * k), fill=TOKEN)
        d.ellipse((6 * k, 6 * k, full - 6 * k, full - 6 * k), outline=TOKEN_EDGE, width=round(k))

    return sprite(size, size, paint)


def _crown(d: Draw, cx: float, cy: float, w: float, fill: RGB) -> None:
    h = w * 0.7
    d.polygon(
        [
            (cx - w / 2, cy + h / 2),
            (cx - w / 2, cy - h / 2),
            (cx - w / 4, cy),
            (cx, cy - h / 2),
            (cx + w / 4, cy),
            (cx + w / 2, cy - h / 2),
            (cx + w / 2, cy + h / 2),
        ],
        fill=fill,
    )


@cache
def chip_sprite(colour: RGB, workers: int, leader: bool, height: int = 36) -> Image.Image:
    """One player's figures on a hex: a pill in their colour, a crown for the
    leader and the number of workers."""
    size = max(GLANCE, round(height * 0.78))
    text = str(workers) if workers else ""
    fg = readable_on(colour)
    text_w = PEN.width_of(text, size, bold=True) if text else 0
    crown_w = height * 0.78 if leader else 0
    width = round(max(height, 12 + crown_w + (4 if leader and text else 0) + text_w))

    def paint(d: Draw, k: float) -> None:
        full_w, full_h = width * k - 1, height * k - 1
        d.rounded_rectangle((0, 0, full_w, full_h), radius=full_h / 2, fill=OUTLINE)
        d.rounded_rectangle(
            (3.2 * k, 3.2 * k, full_w - 3.2 * k, full_h - 3.2 * k),
            radius=full_h / 2 - 3.2 * k,
            fill=colour,
        )
        x = (width - crown_w - (4 if leader and text else 0) - text_w) / 2 * k
        if leader:
            _crown(d, x + crown_w * k / 2, full_h / 2, crown_w * k * 0.9, fg)
            x += crown_w * k + (4 * k if text else 0)
        if text:
            PEN.text(d, (x, full_h / 2 + 0.5 * k), text, size, fg, bold=True, k=k)

    return sprite(width, height, paint)


@cache
def figure_icon(colour: RGB, leader: bool, size: int = 30) -> Image.Image:
    """A pawn (worker) or a crowned pawn (leader), for the panel."""

    def paint(d: Draw, k: float) -> None:
        s = size * k
        head = s * 0.19
        for grow, fill in ((2.2 * k, OUTLINE), (0.0, colour)):
            d.ellipse(
                (
                    s / 2 - head - grow,
                    s * 0.16 - grow + (4 * k if leader else 0),
                    s / 2 + head + grow,
                    s * 0.16 + 2 * head + grow + (4 * k if leader else 0),
                ),
                fill=fill,
            )
            d.polygon(
                [
                    (s / 2, s * 0.34),
                    (s * 0.18 - grow, s - 1 - grow / 2),
                    (s * 0.82 + grow, s - 1 - grow / 2),
                ],
                fill=fill,
            )
        if leader:
            _crown(d, s / 2, s * 0.1, s * 0.42, GOLD)

    return sprite(size, size, paint)


@cache
def treasure_icon(kind: str, size: int = 30) -> Image.Image:
    """A recovered treasure: a disc in the kind's colour with its emblem."""
    colour = TREASURE_COLOURS.get(kind, (128, 128, 128))
    fg = mix(colour, WHITE, 0.85)

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        c = full / 2
        d.ellipse((0, 0, full, full), fill=OUTLINE)
        d.ellipse((1.6 * k, 1.6 * k, full - 1.6 * k, full - 1.6 * k), fill=colour)
        s = full * 0.5
        _EMBLEMS.get(kind, _emblem_dot)(d, c, c, s, fg, colour)

    return sprite(size, size, paint)


def _emblem_dot(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.ellipse((cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3), fill=fg)


def _emblem_mask(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.ellipse((cx - s * 0.62, cy - s * 0.7, cx + s * 0.62, cy + s * 0.75), fill=fg)
    for ex in (-0.28, 0.28):
        d.rectangle(
            (cx + (ex - 0.16) * s, cy - 0.22 * s, cx + (ex + 0.16) * s, cy - 0.06 * s), fill=bg
        )
    d.rectangle((cx - 0.24 * s, cy + 0.28 * s, cx + 0.24 * s, cy + 0.4 * s), fill=bg)


def _emblem_jade(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.polygon(
        [(cx, cy - s * 0.75), (cx + s * 0.6, cy), (cx, cy + s * 0.75), (cx - s * 0.6, cy)], fill=fg
    )
    d.polygon(
        [(cx, cy - s * 0.4), (cx + s * 0.3, cy), (cx, cy + s * 0.4), (cx - s * 0.3, cy)], fill=bg
    )


def _emblem_idol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.ellipse((cx - s * 0.26, cy - s * 0.76, cx + s * 0.26, cy - s * 0.24), fill=fg)
    d.polygon(
        [
            (cx - s * 0.18, cy - s * 0.22),
            (cx + s * 0.18, cy - s * 0.22),
            (cx + s * 0.5, cy + s * 0.72),
            (cx - s * 0.5, cy + s * 0.72),
        ],
        fill=fg,
    )


def _emblem_vase(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.ellipse((cx - s * 0.5, cy - s * 0.2, cx + s * 0.5, cy + s * 0.75), fill=fg)
    d.rectangle((cx - s * 0.18, cy - s * 0.6, cx + s * 0.18, cy), fill=fg)
    d.rectangle((cx - s * 0.34, cy - s * 0.76, cx + s * 0.34, cy - s * 0.56), fill=fg)


def _emblem_crown(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    _crown(d, cx, cy, s * 1.3, fg)


def _emblem_dagger(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.polygon(
        [(cx, cy - s * 0.82), (cx + s * 0.16, cy + s * 0.2), (cx - s * 0.16, cy + s * 0.2)], fill=fg
    )
    d.rectangle((cx - s * 0.46, cy + s * 0.2, cx + s * 0.46, cy + s * 0.34), fill=fg)
    d.rectangle((cx - s * 0.1, cy + s * 0.34, cx + s * 0.1, cy + s * 0.78), fill=fg)


def _emblem_bowl(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.chord((cx - s * 0.72, cy - s * 0.6, cx + s * 0.72, cy + s * 0.6), 0, 180, fill=fg)
    d.rectangle((cx - s * 0.3, cy + s * 0.56, cx + s * 0.3, cy + s * 0.7), fill=fg)


def _emblem_shell(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    d.pieslice((cx - s * 0.75, cy - s * 0.55, cx + s * 0.75, cy + s * 0.95), 200, 340, fill=fg)
    for a in (215, 245, 270, 295, 325):
        x = cx + s * 0.74 * math.cos(math.radians(a))
        y = cy + s * 0.2 + s * 0.74 * math.sin(math.radians(a))
        d.line((cx, cy + s * 0.2, x, y), fill=bg, width=max(1, round(s * 0.08)))
    d.rectangle((cx - s * 0.2, cy + s * 0.2, cx + s * 0.2, cy + s * 0.5), fill=fg)


_EMBLEMS = {
    "mask": _emblem_mask,
    "jade": _emblem_jade,
    "idol": _emblem_idol,
    "vase": _emblem_vase,
    "crown": _emblem_crown,
    "dagger": _emblem_dagger,
    "bowl": _emblem_bowl,
    "shell": _emblem_shell,
}


@cache
def highlight_sprite(radius: int = R) -> Image.Image:
    """The last action's hexes: a thick yellow hex outline."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        d.polygon(hex_points(cx, cy, (radius - 1) * k), outline=OUTLINE, width=round(7 * k))
        d.polygon(hex_points(cx, cy, (radius - 2.5) * k), outline=HIGHLIGHT, width=round(4 * k))

    return sprite(size, height, paint)


@cache
def mini_hex(kind: str, stones: tuple[int, ...], radius: int, value: str | None) -> Image.Image:
    """A small hex off the board (to lay, on offer): terrain, stones, and ``value``
    (a temple's value, a treasure hex's ``×3`` tokens)."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)
    fill = TERRAIN.get(kind, (128, 128, 128))
    text = max(GLANCE, round(radius * 0.62))

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        d.polygon(hex_points(cx, cy, (radius - 1) * k), fill=OUTLINE)
        d.polygon(hex_points(cx, cy, (radius - 2.5) * k), fill=fill)
        apothem = radius * math.sqrt(3) / 2
        for direction, count in enumerate(stones):
            angle = edge_angle(direction)
            tangent = angle + math.pi / 2
            for i in range(count):
                along = (i - (count - 1) / 2) * radius * 0.24
                x = (
                    cx
                    + ((apothem - radius * 0.17) * math.cos(angle) + along * math.cos(tangent)) * k
                )
                y = (
                    cy
                    + ((apothem - radius * 0.17) * math.sin(angle) + along * math.sin(tangent)) * k
                )
                r = radius * 0.1 * k
                d.ellipse((x - r, y - r, x + r, y + r), fill=STONE_EDGE)
                r2 = r - 1.2 * k
                d.ellipse((x - r2, y - r2, x + r2, y + r2), fill=(200, 200, 204))
        if value is not None:
            value_size = text if len(value) < 2 else max(GLANCE, round(radius * 0.5))
            PEN.text(d, (cx, cy), value, value_size, OUTLINE, bold=True, anchor="mm", k=k)
        elif kind == "volcano":
            r = radius * 0.3 * k
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LAVA)
        elif kind == "jungle":
            h = radius * 0.5 * k
            d.polygon(
                [(cx, cy - h), (cx - h * 0.6, cy + h * 0.5), (cx + h * 0.6, cy + h * 0.5)],
                fill=TERRAIN_MARK["jungle"],
            )

    return sprite(size, height, paint)


# --------------------------------------------------------------------------- the map


@dataclass(frozen=True)
class Geometry:
    """Where the map goes: hex radius and placement, and the spaces drawn.

    The map shows the usable spaces and one ring of unusable ones around
    them (Mini-Tikal's smaller area), cropped to them and scaled so that the
    image is about :data:`TARGET_WIDTH` wide, hexes at most :data:`MAX_R`.
    """

    radius: int
    x0: float
    y0: float
    left: float
    width: int
    height: int
    spaces: tuple[tuple[str, float, float, bool], ...]

    def px(self, x: float, y: float) -> Point:
        return self.left + (x - self.x0) * self.radius, MARGIN_TOP + (y - self.y0) * self.radius

    @cached_property
    def centres(self) -> dict[str, Point]:
        """Each space's centre in pixels, by name."""
        return {name: self.px(x, y) for name, x, y, _ in self.spaces}


@dataclass(frozen=True)
class Marks:
    """The close-up's marks (the view's ``turn_options``): where the seat on its
    turn may lay the hex in hand, and the AP that brings a figure to each hex."""

    seat: int
    lay: tuple[str, ...]
    reach: Mapping[str, int]

    @classmethod
    def of(cls, view: View) -> Marks | None:
        options = view.get("turn_options")
        if not options:
            return None
        reach = {str(r.get("space")): int(r.get("ap", 0)) for r in options.get("reach") or ()}
        return cls(int(options.get("seat", 0)), tuple(options.get("lay") or ()), reach)


MAX_R = 120


@lru_cache(maxsize=16)
def geometry(spaces: tuple[tuple[str, float, float, bool], ...]) -> Geometry:
    shown = [s for s in spaces if s[3]] or list(spaces)
    if not shown:
        shown = [("A1", 1.0, math.sqrt(3) / 2, True)]
    half_h = math.sqrt(3) / 2
    x0 = min(s[1] for s in shown) - 1
    x1 = max(s[1] for s in shown) + 1
    y0 = min(s[2] for s in shown) - half_h
    y1 = max(s[2] for s in shown) + half_h
    radius = min(MAX_R, int((TARGET_WIDTH - 2 * MARGIN_X) / (x1 - x0)))
    map_w = (x1 - x0) * radius
    width = max(TARGET_WIDTH, round(map_w + 2 * MARGIN_X))
    height = round(MARGIN_TOP + (y1 - y0) * radius + 10)
    return Geometry(radius, x0, y0, (width - map_w) / 2, width, height, tuple(shown))


def view_geometry(view: View) -> Geometry:
    return geometry(_space_key(view))


def board_size(view: View) -> tuple[int, int]:
    """The map's size in pixels for this view (the panel goes below it)."""
    geo = view_geometry(view)
    return geo.width, geo.height


@lru_cache(maxsize=8)
def map_background(geo: Geometry) -> Image.Image:
    """The frame, every empty space with its name, column letters and row numbers."""
    img = Image.new("RGB", (geo.width, geo.height), FRAME)
    size = max(GLANCE, round(30 * geo.radius / R))
    band = PEN.px(12)
    columns: dict[str, float] = {}
    rows: dict[str, float] = {}
    for name, x, y, usable in geo.spaces:
        px, py = geo.px(x, y)
        paste_centered(img, empty_sprite(not usable, geo.radius), (px, py))
        d = ImageDraw.Draw(img)
        if usable:
            PEN.text(d, (px, py), name, size, EMPTY_TEXT, bold=True, anchor="mm")
            columns.setdefault(name[0], px)
            rows.setdefault(name[1:], py)
    d = ImageDraw.Draw(img)
    for letter, px in columns.items():
        PEN.text(d, (px, MARGIN_TOP / 2), letter, band, BAND_TEXT, bold=True, anchor="mm")
    left = min(geo.px(s[1], s[2])[0] for s in geo.spaces) - geo.radius
    for number, py in rows.items():
        PEN.text(
            d,
            (max(MARGIN_X / 2, left - 4), py),
            number,
            band,
            BAND_TEXT,
            bold=True,
            anchor="rm" if left - 4 > MARGIN_X else "mm",
        )
    return img


def _space_key(view: View) -> tuple[tuple[str, float, float, bool], ...]:
    return tuple(
        (str(s.get("space")), float(s.get("x", 0)), float(s.get("y", 0)), bool(s.get("usable")))
        for s in view.get("spaces") or ()
    )


def _draw_map(
    img: Image.Image,
    view: View,
    geo: Geometry,
    colours: Mapping[int, RGB],
    marks: Marks | None = None,
) -> None:
    """Laid hexes with stones and content, the steps' frames, the crossing badges,
    and (the close-up's) ``marks``: where the seat on its turn may act."""
    r = geo.radius
    k = r / R
    name_size = max(GLANCE, round(24 * k))
    hexes = list(view.get("hexes") or ())
    by_space = {str(h.get("space")): h for h in hexes}
    marked = [step for step in turn_steps(view) if step.get("spaces")]
    tags: dict[str, list[Image.Image]] = {}
    for number, step in enumerate(marked, start=1):
        for name in step.get("spaces") or ():
            if len(marked) > 1 and name in by_space:  # numbered in their order
                tags.setdefault(name, []).append(step_tag(number, _tag_height(r)))
    if marks is not None:
        for name, ap in marks.reach.items():
            if name in by_space:
                tags.setdefault(name, []).append(reach_tag(ap, _tag_height(r)))
        for name in marks.lay:
            space = geo.centres.get(name)
            if space is not None:
                paste_centered(img, lay_sprite(r), space)
    crossings = {
        (round(float(c.get("x", 0)), 2), round(float(c.get("y", 0)), 2))
        for c in view.get("crossings") or ()
    }
    for hex_ in hexes:
        hx, hy = float(hex_.get("x", 0)), float(hex_.get("y", 0))
        south = (round(hx, 2), round(hy + math.sqrt(3) / 2, 2)) in crossings
        cx, cy = geo.px(hx, hy)
        kind = str(hex_.get("kind"))
        stones = tuple(int(n) for n in hex_.get("stones") or ())
        paste_centered(img, hex_face(kind, stones, r), (cx, cy))
        if kind != "volcano":
            name = str(hex_.get("space", ""))
            PEN.put(img, (cx, cy - 0.5 * r), name, name_size, NAME_ON_HEX, bold=True, anchor="mm")
        _draw_content(img, hex_, (cx, cy - 0.15 * r), k, colours)
        items = _chips(hex_, r, colours) + tags.get(str(hex_.get("space")), [])
        _draw_slots(img, items, (cx, cy), r, south)
    others = marks is not None and any(step.get("seat") != marks.seat for step in marked)
    frame = previous_sprite(r) if others else highlight_sprite(r)
    for step in marked:
        for name in step.get("spaces") or ():
            hex_ = by_space.get(name)
            if hex_ is not None:
                paste_centered(img, frame, geo.px(float(hex_["x"]), float(hex_["y"])))
    for crossing in view.get("crossings") or ():
        x, y = geo.px(float(crossing.get("x", 0)), float(crossing.get("y", 0)))
        paste_centered(
            img, badge_sprite(int(crossing.get("cost", 0)), max(34, round(34 * k))), (x, y)
        )


def _tag_height(radius: int) -> int:
    return max(34, round(34 * radius / R))


@cache
def step_tag(number: int, height: int = 36) -> Image.Image:
    """A step's number (its order in the turn): a yellow disc with a dark rim."""
    return _disc_tag(str(number), HIGHLIGHT, height)


@cache
def reach_tag(ap: int, height: int = 36) -> Image.Image:
    """The AP that brings a figure to a hex (the close-up): a cyan disc, unlike the
    dark square crossing costs and the player-coloured chips."""
    return _disc_tag(str(ap), REACH, height)


def _disc_tag(text: str, fill: RGB, height: int) -> Image.Image:
    size = max(GLANCE, round(height * 0.74))

    def paint(d: Draw, k: float) -> None:
        full = height * k - 1
        d.ellipse((0, 0, full, full), fill=OUTLINE)
        d.ellipse((2.5 * k, 2.5 * k, full - 2.5 * k, full - 2.5 * k), fill=fill)
        PEN.text(d, (full / 2, full / 2 + k), text, size, OUTLINE, bold=True, anchor="mm", k=k)

    return sprite(height, height, paint)


@cache
def lay_sprite(radius: int = R) -> Image.Image:
    """A space where the hex in hand may go (the close-up): a cyan ring inside it."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        d.polygon(hex_points(cx, cy, (radius - 6) * k), outline=REACH, width=round(6 * k))

    return sprite(size, height, paint)


@cache
def previous_sprite(radius: int = R) -> Image.Image:
    """The steps since the last hand-over in the close-up: a thin dashed yellow
    frame, so the marks of the turn to play stand out."""
    size = 2 * radius
    height = math.ceil(2 * radius * math.sqrt(3) / 2)

    def paint(d: Draw, k: float) -> None:
        cx, cy = size * k / 2, height * k / 2
        corners = hex_points(cx, cy, (radius - 3) * k)
        for i in range(6):
            (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 6]
            for j in range(0, 10, 2):
                a, b = j / 10, (j + 1) / 10
                d.line(
                    (
                        x0 + (x1 - x0) * a,
                        y0 + (y1 - y0) * a,
                        x0 + (x1 - x0) * b,
                        y0 + (y1 - y0) * b,
                    ),
                    fill=HIGHLIGHT,
                    width=round(4 * k),
                )

    return sprite(size, height, paint)


def _draw_content(
    img: Image.Image,
    hex_: Mapping[str, Any],
    centre: Point,
    k: float,
    colours: Mapping[int, RGB],
) -> None:
    """The middle of a hex (``centre``): value and guard, tokens, camp; ``k`` is
    the hex's size relative to the full board's."""
    cx, mid = centre
    kind = hex_.get("kind")
    if kind == "temple":
        holder = hex_.get("holder_seat")
        ring = colours.get(holder) if holder is not None else None
        plate = value_plate(int(hex_.get("value") or 0), ring, round(40 * k))
        guard = hex_.get("guard_seat")
        if guard is not None:
            shield = shield_sprite(colours.get(guard, NO_HOLDER), round(34 * k))
            paste_centered(img, plate, (cx - 16 * k, mid))
            paste_centered(img, shield, (cx + 22 * k, mid))
        else:
            paste_centered(img, plate, (cx, mid))
    elif kind == "treasure":
        tokens = int(hex_.get("tokens") or 0)
        size = max(GLANCE, round(20 * k))
        if tokens:
            shown = min(tokens, 4)
            step = 14 * k
            width = step * (shown - 1)
            for i in range(shown):
                paste_centered(
                    img, token_sprite(round(22 * k)), (cx - width / 2 + step * i - 16 * k, mid)
                )
            PEN.put(img, (cx + width / 2 - 2 * k, mid), f"×{tokens}", size, OUTLINE, bold=True)
        elif hex_.get("camp_seat") is None:
            PEN.put(img, (cx, mid), "×0", size, TERRAIN_MARK["treasure"], bold=True, anchor="mm")
    camp = hex_.get("camp_seat")
    if camp is not None:
        paste_centered(img, tent_sprite(colours.get(camp, NO_HOLDER), round(40 * k)), (cx, mid))


#: the rows of chips and tags below a hex's centre, in radii
SLOT_ROWS = (0.3, 0.78)
#: the second row leaves this much of the middle free for a south crossing's badge
SOUTH_GAP = 0.46


def _chips(hex_: Mapping[str, Any], radius: int, colours: Mapping[int, RGB]) -> list[Image.Image]:
    """One chip per player with figures on the hex."""
    height = _tag_height(radius)
    return [
        chip_sprite(
            colours.get(f.get("seat"), NO_HOLDER),
            int(f.get("workers") or 0),
            bool(f.get("leader")),
            height,
        )
        for f in hex_.get("figures") or ()
        if int(f.get("workers") or 0) or f.get("leader")
    ]


def _row_width(radius: int, row: float) -> float:
    """The hex's width at ``row`` radii below its centre, less a margin."""
    return 2 * radius * (1 - row / math.sqrt(3)) - 0.12 * radius


def _draw_slots(
    img: Image.Image, items: Sequence[Image.Image], centre: Point, radius: int, south: bool
) -> None:
    """Chips, then tags (a step's number, the close-up's AP), in two rows below the
    centre: as many as fit in the first row, centred; the rest in the second, on
    either side of the south crossing's badge when there is one. Nothing covers a
    chip or a cost."""
    cx, cy = centre
    room = _row_width(radius, SLOT_ROWS[0])
    count = 0
    used = -6.0
    for item in items:
        if count >= 2 and used + 6 + item.width > room:
            break
        used += 6 + item.width
        count += 1
    first, rest = items[:count], items[count:]
    y = cy + SLOT_ROWS[0] * radius
    x = cx - used / 2
    for item in first:
        paste(img, item, (x, y - item.height / 2))
        x += item.width + 6
    if not rest:
        return
    y = cy + SLOT_ROWS[1] * radius
    if not south:
        total = sum(i.width for i in rest) + 4 * (len(rest) - 1)
        x = cx - total / 2
        for item in rest:
            paste(img, item, (x, y - item.height / 2))
            x += item.width + 4
        return
    gap = SOUTH_GAP * radius / 2
    x = cx - gap
    for item in rest[0::2]:
        x -= item.width
        paste(img, item, (x, y - item.height / 2))
        x -= 4
    x = cx + gap
    for item in rest[1::2]:
        paste(img, item, (x, y - item.height / 2))
        x += item.width + 4


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Seat:
    """Everything the panel shows about one seat."""

    seat: int
    name: str
    colour: RGB
    info: Mapping[str, Any]


def _seats(view: View, players: Sequence[PlayerLabel], lang: str) -> list[Seat]:
    labels = {p.seat: p for p in players}
    stack = font_stack(BIG, bold=True)
    seats = []
    for info in view.get("players") or [{"seat": p.seat} for p in players]:
        seat = int(info.get("seat", 0))
        label = labels.get(seat)
        fallback = t(lang, "tikal.render.player", number=seat + 1)
        name = clean_name(label.name, stack, fallback) if label else fallback
        default = DEFAULT_PLAYER_COLOURS[seat % len(DEFAULT_PLAYER_COLOURS)]
        colour = parse_hex_colour(label.colour if label else None, default)
        seats.append(Seat(seat, name, colour, info))
    return seats


# --------------------------------------------------------------------------- panel

STATUS_H = 108
STRIP_H = 236
CARD_H = 176
CARD_GAP = 14


def _panel_height(n_seats: int) -> int:
    rows = math.ceil(max(1, n_seats) / 2)
    return STATUS_H + STRIP_H + rows * (CARD_H + CARD_GAP) + LEGEND_H + PAD


def _dot(d: Draw, x: float, y: float, colour: RGB, r: float = 11) -> None:
    d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=OUTLINE)
    d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _draw_status(
    img: Image.Image, d: Draw, view: View, seats: Sequence[Seat], y: int, width: int, lang: str
) -> None:
    """Line 1: who plays, what, AP left; line 2: the scoring round or the last action."""
    by_seat = {s.seat: s for s in seats}
    turn = view.get("turn") or {}
    big, mid = PEN.px(13), PEN.px(10.5)
    line1, line2 = y + 32, y + 80
    x: float = PAD
    if view.get("over"):
        best = max((int(s.info.get("score", 0)) for s in seats), default=0)
        winners = [s for s in seats if int(s.info.get("score", 0)) == best]
        over = t(lang, "tikal.render.game_over")
        x += PEN.put(img, (x, line1), over, big, HIGHLIGHT, bold=True, on=FRAME) + 20
        for seat in winners:
            _dot(d, x + 11, line1, seat.colour)
            x += 30
            text = t(lang, "tikal.render.winner", player=seat.name, score=best)
            x += (
                PEN.put(img, (x, line1), PEN.fit(text, mid, width - x - PAD), mid, TEXT, on=FRAME)
                + 20
            )
        return
    waiting = [by_seat[s] for s in view.get("waiting_for") or () if s in by_seat]
    if waiting:
        seat = waiting[0]
        _dot(d, x + 12, line1, seat.colour, 13)
        x += 34
        name = PEN.fit(seat.name, big, 360, bold=True)
        x += PEN.put(img, (x, line1), name, big, TEXT, bold=True, on=FRAME) + 16
    phase = str(view.get("phase", ""))
    kind = str(turn.get("kind", "normal"))
    what = t(lang, TURN_KEYS[kind]) if kind in TURN_KEYS and phase == "actions" else ""
    what = what or (t(lang, PHASE_KEYS[phase]) if phase in PHASE_KEYS else "")
    x += PEN.put(img, (x, line1), PEN.fit(what, mid, width - x - 420), mid, TEXT_DIM, on=FRAME) + 24
    if phase == "actions":
        ap = t(lang, "tikal.render.ap", ap=int(turn.get("ap", 0)))
        x += PEN.put(img, (x, line1), ap, big, HIGHLIGHT, bold=True, on=FRAME) + 16
        limit = (view.get("limits") or {}).get("entered_per_turn", "?")
        entered = t(lang, "tikal.render.entered", entered=int(turn.get("entered", 0)), limit=limit)
        PEN.put(
            img, (x, line1 + 2), PEN.fit(entered, mid, width - x - PAD), mid, TEXT_DIM, on=FRAME
        )
    scoring = view.get("scoring")
    x = PAD
    if scoring:
        key = (
            "tikal.render.final_round"
            if scoring.get("kind") == "final"
            else "tikal.render.scoring_round"
        )
        text = t(lang, key, number=int(scoring.get("number", 0)))
        x += PEN.put(img, (x, line2), text, mid, HIGHLIGHT, on=FRAME) + 16
        done = set(scoring.get("done") or ())
        for seat_no in scoring.get("order") or ():
            scorer = by_seat.get(seat_no)
            if scorer is None:
                continue
            _dot(d, x + 11, line2, scorer.colour, 10)
            if seat_no in done:
                d.line((x + 4, line2, x + 10, line2 + 7, x + 20, line2 - 8), fill=OUTLINE, width=4)
            x += 32
        x += 16
    steps = turn_steps(view)
    if steps:
        who = seat_named(by_seat, steps[-1])
        player = PEN.fit(who.name, GLANCE, 220) if who else "?"
        action = " · ".join(step_words(step, lang) for step in steps)
        text = t(lang, "tikal.render.last", player=player, action=action)
        PEN.put(img, (x, line2), PEN.fit(text, GLANCE, width - x - PAD), GLANCE, TEXT_DIM, on=FRAME)


def step_words(step: Mapping[str, Any], lang: str) -> str:
    """The caption of one step in ``lang`` (its notation in views without one)."""
    caption = step.get("caption")
    if caption:
        return Text.from_json(caption).render(lang)
    return str(step.get("notation", ""))


RIGHT_BLOCK = 640  # x where the hex to lay / the auction row starts


def _draw_strip(
    img: Image.Image, d: Draw, view: View, seats: Sequence[Seat], y: int, width: int, lang: str
) -> None:
    """Stacks and temple tiles left on the left; the hex to lay (six rotations),
    or the auction row, or the volcano set aside, on the right."""
    top = y + 18
    _draw_stacks(img, d, view, PAD, top, lang)
    if view.get("in_hand"):
        _draw_in_hand(img, d, view["in_hand"], RIGHT_BLOCK, top, width, lang)
    elif view.get("revealed") or view.get("aside"):
        _draw_offer(img, d, view, seats, RIGHT_BLOCK, top, width, lang)
    elif view.get("phase") == "actions":
        _draw_this_turn(img, view, RIGHT_BLOCK, top, width, lang)


def _draw_this_turn(img: Image.Image, view: View, x: int, top: int, width: int, lang: str) -> None:
    """The per-turn limits used so far: levels per temple, tokens per hex."""
    turn = view.get("turn") or {}
    limits = view.get("limits") or {}
    rows = [
        (key, counts, limit)
        for key, counts, limit in (
            ("tikal.render.dug", turn.get("dug") or {}, limits.get("levels_per_temple", "?")),
            (
                "tikal.render.recovered",
                turn.get("recovered") or {},
                limits.get("tokens_per_hex", "?"),
            ),
        )
        if counts
    ]
    if not rows:
        return
    PEN.put(img, (x, top), t(lang, "tikal.render.this_turn"), GLANCE, TEXT, bold=True)
    y = top + 46
    for key, counts, limit in rows:
        tx = x + PEN.put(img, (x, y), t(lang, key), GLANCE, TEXT_DIM) + 14
        for space, count in counts.items():
            if tx > width - 130:
                break
            tx += PEN.put(img, (tx, y), f"{space} {int(count)}/{limit}", GLANCE, TEXT, bold=True)
            tx += 18
        y += 44


def _mini_value(hex_: Mapping[str, Any]) -> str | None:
    """What a small hex shows: a temple's value, a treasure hex's tokens."""
    if hex_.get("value") is not None:
        return str(hex_["value"])
    if hex_.get("masks") is not None:
        return f"×{int(hex_['masks'])}"
    return None


def _turned(stones: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The stones of a hex drawn turned (the view gives them as printed)."""
    items = [int(n) for n in stones] or [0] * 6
    return tuple(items[-rotation:] + items[:-rotation]) if rotation else tuple(items)


def _draw_in_hand(
    img: Image.Image, d: Draw, hex_: Mapping[str, Any], x: int, top: int, width: int, lang: str
) -> None:
    title = t(lang, "tikal.render.in_hand")
    kind = str(hex_.get("kind"))
    tx = x + PEN.put(img, (x, top), title, GLANCE, TEXT, bold=True) + 12
    kind_text = t(lang, KIND_KEYS[kind]) if kind in KIND_KEYS else kind
    PEN.put(img, (tx, top), PEN.fit(kind_text, GLANCE, width - tx - PAD), GLANCE, TEXT_DIM)
    value = _mini_value(hex_)
    if kind == "volcano":
        paste_centered(img, mini_hex(kind, (0,) * 6, 46, None), (x + 48, top + 80))
        hint = PEN.fit(t(lang, "tikal.render.any_rotation"), GLANCE, width - x - 110 - PAD)
        PEN.put(img, (x + 110, top + 80), hint, GLANCE, TEXT_DIM)
        return
    for rotation in range(6):
        cx = x + 48 + rotation * 98
        stones = _turned(hex_.get("stones") or (), rotation)
        paste_centered(img, mini_hex(kind, stones, 46, value), (cx, top + 80))
        PEN.put(img, (cx, top + 144), str(rotation), GLANCE, HIGHLIGHT, bold=True, anchor="mm")
    hint = PEN.fit(t(lang, "tikal.render.rotation_help"), GLANCE, width - x - PAD)
    PEN.put(img, (x, top + 186), hint, GLANCE, TEXT_DIM)


def _draw_offer(
    img: Image.Image,
    d: Draw,
    view: View,
    seats: Sequence[Seat],
    x: int,
    top: int,
    width: int,
    lang: str,
) -> None:
    """The auction row (slot numbers as ``pick`` takes them) and the bidding; the
    volcano set aside during its scoring round."""
    by_seat = {s.seat: s for s in seats}
    revealed = list(view.get("revealed") or [])
    if revealed:
        title = t(lang, "tikal.render.revealed", number=int(view.get("round", 0)))
        PEN.put(img, (x, top), PEN.fit(title, GLANCE, width - x - PAD), GLANCE, TEXT, bold=True)
    cx = x + 46
    for item in revealed:
        stones = tuple(int(n) for n in item.get("stones") or ())
        paste_centered(
            img, mini_hex(str(item.get("kind")), stones, 42, _mini_value(item)), (cx, top + 80)
        )
        slot = str(item.get("slot"))
        PEN.put(img, (cx, top + 140), slot, GLANCE, HIGHLIGHT, bold=True, anchor="mm")
        cx += 96
    if view.get("aside"):
        aside = t(lang, "tikal.render.aside")
        if not revealed:
            PEN.put(img, (x, top), aside, GLANCE, TEXT, bold=True)
        paste_centered(img, mini_hex("volcano", (0,) * 6, 42, None), (cx, top + 80))
        if revealed:
            PEN.put(img, (cx - 42, top + 140), PEN.fit(aside, GLANCE, 190), GLANCE, TEXT_DIM)
        cx += 96
    auction = view.get("auction")
    if not auction:
        return
    bx = cx - 20
    high_seat = by_seat.get(auction.get("high_seat"))
    room = width - bx - 30 - PAD
    if high_seat is not None:
        _dot(d, bx + 10, top + 60, high_seat.colour, 11)
        text = t(lang, "tikal.render.bid", amount=int(auction.get("high", 0)))
        PEN.put(
            img, (bx + 30, top + 60), PEN.fit(text, BIG, room, bold=True), BIG, HIGHLIGHT, bold=True
        )
    else:
        no_bid = PEN.fit(t(lang, "tikal.render.no_bid"), GLANCE, room)
        PEN.put(img, (bx, top + 60), no_bid, GLANCE, TEXT_DIM)
    passed = [by_seat[s] for s in auction.get("passed") or () if s in by_seat]
    if passed:
        px = bx + PEN.put(img, (bx, top + 108), t(lang, "tikal.render.passed"), GLANCE, TEXT_DIM)
        for seat in passed:
            _dot(d, px + 20, top + 108, seat.colour, 10)
            px += 28


def _draw_stacks(img: Image.Image, d: Draw, view: View, x: int, top: int, lang: str) -> None:
    """Hexes left per letter (the next one framed), and temple tiles left per value
    (the value over how many are left)."""
    PEN.put(img, (x, top), t(lang, "tikal.render.stack"), GLANCE, TEXT, bold=True)
    stacks = list(view.get("stacks") or ())
    sx = x
    if not stacks:
        PEN.put(img, (sx, top + 46), t(lang, "tikal.render.stack_empty"), GLANCE, TEXT_DIM)
    for i, item in enumerate(stacks):
        box = (sx, top + 26, sx + 76, top + 68)
        d.rounded_rectangle(
            box,
            radius=8,
            fill=(120, 96, 64) if i == 0 else (86, 72, 54),
            outline=HIGHLIGHT if i == 0 else None,
            width=2,
        )
        letter = str(item.get("letter", "?"))
        PEN.put(img, (sx + 20, top + 47), letter, GLANCE, TEXT, bold=True, anchor="mm")
        PEN.put(img, (sx + 54, top + 47), str(item.get("count", 0)), GLANCE, TEXT, anchor="mm")
        sx += 82
    PEN.put(img, (x, top + 100), t(lang, "tikal.render.temple_tiles"), GLANCE, TEXT, bold=True)
    tx = x
    for value, count in (view.get("temple_tiles_left") or {}).items():
        colour = TEXT if count else (110, 110, 110)
        d.rounded_rectangle((tx, top + 124, tx + 62, top + 204), radius=6, fill=(88, 84, 76))
        PEN.put(img, (tx + 31, top + 146), str(value), GLANCE, colour, bold=True, anchor="mm")
        PEN.put(img, (tx + 31, top + 182), f"×{count}", GLANCE, colour, anchor="mm")
        tx += 68


def _draw_card(
    img: Image.Image,
    d: Draw,
    seat: Seat,
    box: tuple[int, int, int, int],
    view: View,
    lang: str,
) -> None:
    """One player's card: name and score; supply, camps and guards left; treasures."""
    x0, y0, x1, y1 = box
    info = seat.info
    waiting = seat.seat in (view.get("waiting_for") or ())
    d.rounded_rectangle(
        box,
        radius=14,
        fill=CARD_ACTIVE if waiting else CARD,
        outline=HIGHLIGHT if waiting else None,
        width=3,
    )
    d.rounded_rectangle((x0, y0, x0 + 10, y1), radius=4, fill=seat.colour)
    name_size, score_size = BIG, PEN.px(12)
    score = t(lang, "tikal.render.score", score=int(info.get("score", 0)))
    x: float = x0 + 24
    extra = ("  · " + t(lang, "tikal.render.played")) if info.get("played") else ""
    room = x1 - x - PEN.width_of(score, score_size, bold=True) - 40 - PEN.width_of(extra, GLANCE)
    name = PEN.fit(seat.name, name_size, room, bold=True)
    nx = x + PEN.put(img, (x, y0 + 34), name, name_size, TEXT, bold=True)
    if extra:
        PEN.put(img, (nx, y0 + 36), extra, GLANCE, TEXT_DIM)
    PEN.put(img, (x1 - 18, y0 + 34), score, score_size, HIGHLIGHT, bold=True, anchor="rm")
    line = y0 + 90
    paste_centered(img, figure_icon(seat.colour, False, 34), (x + 16, line))
    workers = f"×{int(info.get('workers', 0))}"
    x += 36 + PEN.put(img, (x + 36, line), workers, GLANCE, TEXT, bold=True)
    if info.get("leader"):
        paste_centered(img, figure_icon(seat.colour, True, 34), (x + 24, line - 2))
        x += 44
    supply = t(lang, "tikal.render.supply")
    x += 10 + PEN.put(img, (x + 10, line + 1), supply, GLANCE, TEXT_DIM)
    x += 20
    limits = view.get("limits") or {}
    camps_left = int(info.get("camps_left", 0))
    for i in range(int(limits.get("camps", camps_left))):
        colour = seat.colour if i < camps_left else (90, 96, 92)
        paste_centered(img, tent_sprite(colour, 38), (x + 19, line))
        x += 40
    x += 10
    guards_left = int(info.get("guards_left", 0))
    for i in range(int(limits.get("guards", guards_left))):
        paste_centered(img, shield_sprite(seat.colour, 36, ghost=i >= guards_left), (x + 18, line))
        x += 40
    removed = int(info.get("removed", 0))
    if removed:
        text = PEN.fit(t(lang, "tikal.render.removed", count=removed), GLANCE, x1 - x - 30)
        PEN.put(img, (x + 12, line + 1), text, GLANCE, TEXT_DIM)
    line = y0 + 142
    x = x0 + 24
    treasures = info.get("treasures") or {}
    if not treasures:
        text = t(lang, "tikal.render.treasures") + ": " + t(lang, "tikal.render.none")
        PEN.put(img, (x, line), PEN.fit(text, GLANCE, x1 - x - 20), GLANCE, TEXT_DIM)
        return
    for kind in TREASURE_ORDER:
        count = int(treasures.get(kind, 0))
        if count:
            paste_centered(img, treasure_icon(kind, 36), (x + 18, line))
            x += 40 + PEN.put(img, (x + 40, line), f"×{count}", GLANCE, TEXT, bold=True) + 14
    points = info.get("treasure_points")
    if points is not None:
        PEN.put(img, (x1 - 18, line), f"= {int(points)}", GLANCE, TEXT_DIM, bold=True, anchor="rm")


LEGEND_H = 150


def _draw_legend(img: Image.Image, d: Draw, view: View, y: int, width: int, lang: str) -> None:
    """What a badge, a chip and a plate mean; then the treasure kinds, by name."""
    x: float = PAD
    paste_centered(img, badge_sprite(3), (x + 17, y))
    x += (
        42
        + PEN.put(img, (x + 42, y), t(lang, "tikal.render.legend_cost"), GLANCE, TEXT_DIM, on=FRAME)
        + 36
    )
    chip = chip_sprite((150, 150, 150), 2, True)
    paste(img, chip, (x, y - chip.height / 2))
    x += chip.width + 10
    chip_text = PEN.fit(t(lang, "tikal.render.legend_chip"), GLANCE, width - x - PAD)
    PEN.put(img, (x, y), chip_text, GLANCE, TEXT_DIM, on=FRAME)
    y += 46
    x = PAD
    paste_centered(img, value_plate(4, None, 40), (x + 20, y))
    plate_text = PEN.fit(t(lang, "tikal.render.legend_plate"), GLANCE, width - x - 48 - PAD)
    PEN.put(img, (x + 48, y), plate_text, GLANCE, TEXT_DIM, on=FRAME)
    y += 46
    x = PAD
    kinds = list((view.get("limits") or {}).get("treasure_kinds") or TREASURE_ORDER)
    for kind in kinds:
        paste_centered(img, treasure_icon(kind, 32), (x + 16, y))
        name = t(lang, TREASURE_KEYS[kind]) if kind in TREASURE_KEYS else kind
        x += 38 + PEN.put(img, (x + 38, y), name, GLANCE, TEXT_DIM, on=FRAME) + 22


def _draw_panel(img: Image.Image, view: View, seats: Sequence[Seat], top: int, lang: str) -> None:
    d = ImageDraw.Draw(img)
    width = img.width
    _draw_status(img, d, view, seats, top, width, lang)
    y = top + STATUS_H
    _draw_strip(img, d, view, seats, y, width, lang)
    y += STRIP_H
    card_w = (width - 2 * PAD - CARD_GAP) // 2
    for i, seat in enumerate(seats):
        cx = PAD + (i % 2) * (card_w + CARD_GAP)
        cy = y + (i // 2) * (CARD_H + CARD_GAP)
        _draw_card(img, d, seat, (cx, cy, cx + card_w, cy + CARD_H), view, lang)
    rows = math.ceil(max(1, len(seats)) / 2)
    _draw_legend(img, d, view, y + rows * (CARD_H + CARD_GAP) + 24, width, lang)


# --------------------------------------------------------------------------- API


def _compose(view: View, seats: Sequence[Seat], lang: str) -> Image.Image:
    geo = view_geometry(view)
    img = Image.new("RGB", (geo.width, geo.height + _panel_height(len(seats))), FRAME)
    img.paste(map_background(geo), (0, 0))
    colours = {s.seat: s.colour for s in seats}
    _draw_map(img, view, geo, colours)
    _draw_panel(img, view, seats, geo.height, lang)
    return img


def draw_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> Image.Image:
    """The public image as an RGB Pillow image (``render_public`` encodes it)."""
    lang = image_language(lang)
    return _compose(view, _seats(view, players, lang), lang)


#: a zoom shows this many hex radii around its focus, and at least this wide and high
ZOOM_MARGIN = 1.6
ZOOM_MIN_SIDE = 7.0


def zoom_box(view: View, focus: Sequence[str]) -> tuple[int, int, int, int] | None:
    """The map's region around the spaces ``focus`` names (left, top, right, bottom in
    the public image's pixels), or None when they name none.

    Decisions: the region keeps a margin of :data:`ZOOM_MARGIN` hex radii around the
    focus and is at least :data:`ZOOM_MIN_SIDE` radii on each side, so a lone hex is
    shown with its neighbours; it is cut at the map's edges, and may be the whole
    map (a hex to lay with spaces all around the laid ones): the close-up still
    carries the marks the board has not.
    """
    geo = view_geometry(view)
    points = [geo.centres[name] for name in focus if name in geo.centres]
    if not points:
        return None
    margin, least = ZOOM_MARGIN * geo.radius, ZOOM_MIN_SIDE * geo.radius
    xs, ys = [x for x, _ in points], [y for _, y in points]
    width = min(geo.width, max(max(xs) - min(xs) + 2 * margin, least))
    height = min(geo.height, max(max(ys) - min(ys) + 2 * margin, least))
    left = min(max(0.0, (min(xs) + max(xs) - width) / 2), geo.width - width)
    top = min(max(0.0, (min(ys) + max(ys) - height) / 2), geo.height - height)
    return round(left), round(top), round(left + width), round(top + height)


def render_zoom(
    view: View, players: Sequence[PlayerLabel], lang: str, focus: Sequence[str]
) -> bytes | None:
    """PNG of the close-up: the map around ``focus`` (:func:`zoom_box`) at the
    board's own scale, with the marks of where the seat on its turn may act (the
    view's ``turn_options``) and a legend below; None when the focus names no space.

    Decisions: the spaces the hex in hand may go on get a cyan ring; a hex a figure
    can reach gets a cyan disc with the least AP it takes, among the chips (never on
    a chip, a cost badge or the name); the steps since the last hand-over keep their
    numbers, in a dashed frame when another player took them, and the legend names
    whose they are."""
    box = zoom_box(view, focus)
    if box is None:
        return None
    lang = image_language(lang)
    seats = _seats(view, players, lang)
    geo = view_geometry(view)
    marks = Marks.of(view)
    img = Image.new("RGB", (geo.width, geo.height), FRAME)
    img.paste(map_background(geo), (0, 0))
    _draw_map(img, view, geo, {s.seat: s.colour for s in seats}, marks)
    crop = img.crop(box)
    shown = {name for name, (x, y) in geo.centres.items() if _inside(box, x, y)}
    legend = _zoom_legend(view, seats, marks, shown, crop.width, lang)
    out = Image.new("RGB", (crop.width, crop.height + (legend.height if legend else 0)), FRAME)
    out.paste(crop, (0, 0))
    if legend is not None:
        out.paste(legend, (0, crop.height))
    palette = public_palette(tuple(s.colour for s in seats))
    return encode_png(out, palette)


def _inside(box: tuple[int, int, int, int], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _zoom_legend(
    view: View,
    seats: Sequence[Seat],
    marks: Marks | None,
    shown: set[str],
    width: int,
    lang: str,
) -> Image.Image | None:
    """The close-up's legend, for its own width (its text at least the phone floor
    of that width): one entry per kind of mark shown, wrapped into lines."""
    pen = Pen(width)
    size = pen.floor
    icon = round(size * 1.3)
    entries: list[tuple[Image.Image, str]] = []
    if marks is not None and shown & set(marks.lay):
        entries.append((lay_sprite(round(icon * 0.62)), t(lang, "tikal.render.zoom.lay")))
    if marks is not None and shown & set(marks.reach):
        entries.append((reach_tag(3, icon), t(lang, "tikal.render.zoom.reach")))
    marked = [step for step in turn_steps(view) if step.get("spaces")]
    if any(shown & set(step.get("spaces") or ()) for step in marked):
        by_seat = {s.seat: s for s in seats}
        owner = seat_named(by_seat, marked[-1])
        if marks is not None and owner is not None and owner.seat != marks.seat:
            text = t(lang, "tikal.render.zoom.steps", player=owner.name)
        else:
            text = t(lang, "tikal.render.zoom.yours")
        sample = step_tag(1, icon) if len(marked) > 1 else highlight_sprite(round(icon * 0.62))
        entries.append((sample, text))
    if not entries:
        return None
    pad, line_h = round(size * 0.6), round(size * 1.9)
    lines: list[list[tuple[Image.Image, str]]] = [[]]
    x: float = pad
    for sample, text in entries:
        need = sample.width + pad / 2 + pen.width_of(text, size) + pad * 2
        if lines[-1] and x + need > width:
            lines.append([])
            x = pad
        lines[-1].append((sample, text))
        x += need
    legend = Image.new("RGB", (width, pad + len(lines) * line_h), FRAME)
    for row, line in enumerate(lines):
        y = pad + row * line_h + line_h / 2
        x = pad
        for sample, text in line:
            paste(legend, sample, (x, y - sample.height / 2))
            x += sample.width + pad / 2
            text = pen.fit(text, size, width - x - pad)
            x += pen.put(legend, (x, y), text, size, TEXT) + pad * 2
    return legend


def render_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> bytes:
    """PNG of the board and the panel, drawn from ``view`` alone, labels in ``lang``
    (English when the fonts cannot draw that language)."""
    lang = image_language(lang)
    seats = _seats(view, players, lang)
    palette = public_palette(tuple(s.colour for s in seats))
    geo = view_geometry(view)
    recorder = Recorder()
    _draw_map(recorder, view, geo, {s.seat: s.colour for s in seats})
    background = map_background(geo)
    xs = (*range(0, geo.width, MAP_REGION), geo.width)
    ys = (*range(0, geo.height, MAP_REGION), geo.height)
    board = mapped_by_regions(recorder.ops, background, palette, xs, ys)
    if board is None:
        return encode_png(_compose(view, seats, lang), palette)
    # the panel drawn on an image of its own, moved up by an even number of pixels (a
    # mark rounded half to even lands as many pixels up), then its extra row cut off
    odd = geo.height % 2
    panel = Image.new("RGB", (geo.width, _panel_height(len(seats)) + odd), FRAME)
    _draw_panel(panel, view, seats, odd, lang)
    mapped = panel.im.convert("P", Image.Dither.NONE, palette.im)
    if odd:
        mapped = mapped.crop((0, 1, panel.width, panel.height))
    out = board.crop((0, 0, geo.width, geo.height + panel.height - odd))
    out.im.paste(mapped, (0, geo.height, *out.size))
    return encode_png(out)


#: the side of the map's regions (:func:`renderer.common.mapped_by_regions`), in pixels
MAP_REGION = 128


# --------------------------------------------------------------------------- palette

EXACT_COLOURS: tuple[RGB, ...] = (
    FRAME,
    EMPTY,
    EMPTY_LINE,
    EMPTY_TEXT,
    UNUSABLE,
    CARD,
    CARD_ACTIVE,
    TEXT,
    TEXT_DIM,
    HIGHLIGHT,
    REACH,
    OUTLINE,
    WHITE,
    STONE,
    NAME_ON_HEX,
    PLATE,
    BADGE,
    BADGE_RIM,
    LAVA,
    *TERRAIN.values(),
    *TERRAIN_MARK.values(),
    *TREASURE_COLOURS.values(),
)


@lru_cache(maxsize=32)
def public_palette(player_colours: tuple[RGB, ...]) -> Image.Image:
    """The 256-colour palette for boards with these player colours, built once
    from a sample image holding every kind of hex, piece and icon."""
    colours = player_colours or DEFAULT_PLAYER_COLOURS
    seats = [Seat(i, "Wg", colour, _palette_player(i)) for i, colour in enumerate(colours)]
    with unrecorded():
        sample = _compose(_palette_view(len(seats)), seats, DEFAULT_LANG)
    return build_palette(sample, [*EXACT_COLOURS, *colours])


def _palette_player(seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "score": 10,
        "workers": 9,
        "leader": True,
        "camps_left": 1,
        "guards_left": 1,
        "removed": 2,
        "treasures": {k: 1 + (i + seat) % 3 for i, k in enumerate(TREASURE_ORDER)},
        "treasure_points": 9,
    }


def _palette_view(n_seats: int) -> dict[str, Any]:
    """A synthetic view with one of everything (for :func:`public_palette`)."""
    kinds = ("base", "temple", "jungle", "treasure", "volcano")
    hexes = []
    for i in range(10):
        kind = kinds[i % len(kinds)]
        col, row = i % 5, i // 5
        hexes.append(
            {
                "space": f"{'ABCDE'[col]}{row + 1}",
                "x": 1 + 1.5 * col,
                "y": 0.866 + 1.732 * (row + 0.5 * (col % 2)),
                "kind": kind,
                "stones": [1, 2, 0, 3, 0, 1],
                "value": 5 if kind == "temple" else None,
                "tokens": 3 if kind == "treasure" else None,
                "camp_seat": i % n_seats if kind == "jungle" else None,
                "guard_seat": i % n_seats if kind == "temple" and i > 4 else None,
                "holder_seat": i % n_seats if kind == "temple" else None,
                "figures": [
                    {"seat": s, "workers": s + 1, "leader": s % 2 == 0} for s in range(n_seats)
                ],
            }
        )
    return {
        "spaces": [
            {
                "space": f"{c}{r}",
                "x": 1 + 1.5 * i,
                "y": 0.866 + 1.732 * (r - 1 + 0.5 * (i % 2)),
                "usable": r < 7,
            }
            for i, c in enumerate("ABCDEFGHI")
            for r in range(1, 8)
        ],
        "hexes": hexes,
        "crossings": [{"x": 1.75, "y": 1.3, "cost": c} for c in range(1, 7)],
        "stacks": [{"letter": "C", "count": 3}, {"letter": "D", "count": 5}],
        "temple_tiles_left": {"2": 3, "3": 0},
        "in_hand": {"kind": "temple", "value": 4, "stones": [2, 1, 0, 0, 0, 0]},
        "revealed": [],
        "phase": "actions",
        "turn": {"seat": 0, "kind": "normal", "ap": 7, "entered": 2},
        "waiting_for": [0],
        "scoring": {"kind": "volcano", "number": 1, "order": list(range(n_seats)), "done": [0]},
        "limits": {"camps": 2, "guards": 2, "treasure_kinds": list(TREASURE_ORDER)},
        "players": [_palette_player(s) for s in range(n_seats)],
        "last_action": {"seat": 0, "spaces": ["A1"], "notation": "move A1 B2"},
    }


# --------------------------------------------------------------------------- /rules


def render_rules(
    examples: Mapping[str, Any], kind: str, players: Sequence[PlayerLabel], lang: str = "en"
) -> bytes | None:
    """A picture of ``/rules``: ``board``, the example board with each kind of hex and
    piece numbered and named below; ``scoring``, the close-up of a temple that
    scores for its strongest player, with who and how much. None otherwise."""
    lang = image_language(lang)
    view = examples.get(kind)
    if not view:
        return None
    seats = _seats(view, players, lang)
    palette = public_palette(tuple(s.colour for s in seats))
    if kind == "board":
        view = {**view, "steps": [], "last_action": None}  # no step marks beside the callouts
        image = _compose(view, seats, lang)
        return encode_png(annotate(image, _board_callouts(view, lang)), palette)
    if kind != "scoring":
        return None
    temple = _scored_temple(view)
    if temple is None:
        return None
    geo = view_geometry(view)
    img = Image.new("RGB", (geo.width, geo.height), FRAME)
    img.paste(map_background(geo), (0, 0))
    _draw_map(img, view, geo, {s.seat: s.colour for s in seats})
    box = zoom_box(view, [str(temple["space"])])
    if box is None:
        return None
    cx, cy = geo.centres[str(temple["space"])]
    r = geo.radius
    by_seat = {s.seat: s for s in seats}
    holder = by_seat.get(int(temple["holder_seat"]))
    strengths = ", ".join(
        f"{by_seat[f['seat']].name} {int(f.get('strength', 0))}"
        for f in temple.get("figures") or ()
        if f.get("seat") in by_seat
    )
    words = t(
        lang,
        "tikal.render.callout.scores",
        player=holder.name if holder else "?",
        value=int(temple.get("value") or 0),
    )
    callouts = [
        Callout(cx - 0.3 * r - box[0], cy - 0.15 * r - box[1], words),
        Callout(
            cx - 0.5 * r - box[0],
            cy + 0.3 * r - box[1],
            t(lang, "tikal.render.callout.strength", list=strengths),
        ),
    ]
    return encode_png(annotate(img.crop(box), callouts), palette)


def _scored_temple(view: View) -> Mapping[str, Any] | None:
    """A temple with a holder and figures of two players or more (else of one)."""
    temples = [
        h
        for h in view.get("hexes") or ()
        if h.get("kind") == "temple" and h.get("holder_seat") is not None and h.get("figures")
    ]
    temples.sort(key=lambda h: (-len(h.get("figures") or ()), str(h.get("space"))))
    return temples[0] if temples else None


def _board_callouts(view: View, lang: str) -> list[Callout]:
    """One callout per kind of hex and piece the example board shows."""
    geo = view_geometry(view)
    r = geo.radius
    found: list[Callout] = []
    hexes = list(view.get("hexes") or ())

    def first(test: Any) -> Mapping[str, Any] | None:
        return next((h for h in hexes if test(h)), None)

    base = geo.centres.get(str(view.get("base_camp")))
    if base is not None:
        found.append(Callout(base[0], base[1] - 0.1 * r, t(lang, "tikal.render.callout.base_camp")))
    for test, key, dy in (
        (lambda h: h.get("kind") == "temple", "tikal.render.callout.temple", -0.15),
        (lambda h: h.get("figures"), "tikal.render.callout.figures", 0.3),
        (
            lambda h: h.get("kind") == "treasure" and h.get("tokens"),
            "tikal.render.callout.treasure",
            -0.15,
        ),
        (lambda h: h.get("kind") == "jungle", "tikal.render.callout.jungle", -0.15),
        (lambda h: h.get("kind") == "volcano", "tikal.render.callout.volcano", 0.0),
    ):
        hex_ = first(test)
        if hex_ is not None:
            x, y = geo.centres[str(hex_["space"])]
            found.append(Callout(x, y + dy * r, t(lang, key)))
    crossing = next(iter(view.get("crossings") or ()), None)
    if crossing is not None:
        x, y = geo.px(float(crossing["x"]), float(crossing["y"]))
        found.append(Callout(x, y, t(lang, "tikal.render.callout.cost")))
    found.append(Callout(PAD + 12, geo.height + 32, t(lang, "tikal.render.callout.turn")))
    if view.get("in_hand"):
        y = geo.height + STATUS_H + 18 + 80
        found.append(Callout(RIGHT_BLOCK + 48, y, t(lang, "tikal.render.callout.in_hand")))
    return found
