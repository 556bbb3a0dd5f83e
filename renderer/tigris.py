"""Tigris & Euphrates: public board and private hand images (Pillow).

Input is the view schema of ``docs/tigris_views.md`` and nothing else, so the
public image cannot leak a hand.

Decisions recorded here:

* Layout for phones: the 16x11 board on top (72 px squares, coordinates on all
  four edges so a square can be named without sliding a finger across), the
  panel *below* it. A panel to the right would make the image wider, and a
  phone scales the whole image to its width, shrinking the board; below, the
  image stays roughly square (1240 px wide). A phone shows it about 412 px
  wide: the edge coordinates are 34 px bold in 44 px bands (11 px on the phone).
* Colour-blind cues: every tile colour also has a shape (temple = stepped
  pyramid, farm = wheat ear, market = coin, settlement = house); leaders are
  round tokens with a letter (K/P/F/T) on the leader colour, ringed with the
  player's colour and badged with the dynasty symbol (archer = bow, bull =
  horns, pot = amphora, lion = mane); corner treasures are round with a star,
  the others are diamonds; catastrophes carry a big X.
* Speed: the board background (frame, squares, river, coordinates) and every
  sprite are drawn once (4x supersampled, cached); a render only pastes
  sprites and draws the panel text, then encodes the PNG at zlib level 3.
  The board is a list of ops (:func:`_board_ops`), drawn whole for
  :func:`draw_public` and by regions, its squares, for :func:`render_public`
  (:func:`renderer.common.mapped_by_regions`): a square whose pieces were drawn
  and mapped onto the palette before is pasted as it was mapped, so a render
  draws and maps the panel, the squares new to it and those with a numbered
  disc. The PNG is the same, byte for byte, as the whole image mapped.
  A private view (the hand) is drawn whole and mapped onto its seat's palette
  (:func:`private_palette`, one per seat colour and dynasty) like the board: its
  drawing is a sixth of its cost, the full-colour PNG's encoding the rest, so the
  8-bit PNG costs a third less on a core and is 2.4x smaller to upload (measured
  on the sample hands: 4.0 → 2.6 ms, 50 → 21 kB), every pixel within 17 levels of a
  channel of the full-colour drawing.
* Text: every word drawn comes from the i18n catalog (``tigris.render.*`` in
  ``bot/i18n/locales/<lang>/tigris.json``, colour names from ``tigris.colour.*``),
  in the ``lang`` the caller passes. The language is decided once per image
  (:func:`image_language`): when the fonts cannot draw every label of it (a
  catalog edited without regenerating the shipped CJK subset), the whole image
  is drawn in English, never with boxes.
  Only the leader tokens carry text in a cached sprite, and their cache is
  keyed by the letter itself. Names go through :func:`renderer.common.clean_name`.
* Hand tiles are captioned with the colour name in the image's language alone
  (a tapping player never types the command word).
* Text is drawn through :class:`renderer.lettering.Pen`: what a player reads at
  a glance is at least 9 px at a phone's 412 px (28 px in the 1240 px board,
  22 px in the 1000 px hand); the board's edge coordinates are 11 px there.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import PlayerLabel
from bot.i18n import DEFAULT_LANG, Text, t
from renderer.annotate import Callout, annotate
from renderer.common import (
    DEFAULT_PLAYER_COLOURS,
    RGB,
    FontStack,
    Mark,
    Op,
    build_palette,
    clean_name,
    draw_ops,
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
    star_points,
    turn_steps,
)
from renderer.lettering import Pen, unrecorded

View = Mapping[str, Any]

# --------------------------------------------------------------------------- geometry

COLS, ROWS = 16, 11
CELL = 72
EDGE = 44  # width of the coordinate bands around the board (legible on a phone)
BOARD_W = COLS * CELL + 2 * EDGE  # 1220: the image width
BOARD_H = ROWS * CELL + 2 * EDGE
PAD = 16  # panel padding
COL_LETTERS = "ABCDEFGHIJKLMNOP"
#: the public image's text (1240 px wide: 9 px on a phone is 28 px here)
PEN = Pen(BOARD_W)
GLANCE = PEN.floor
BIG = PEN.px(10)

# --------------------------------------------------------------------------- palette

FRAME = (30, 34, 41)
CARD = (44, 49, 58)
CARD_ACTIVE = (58, 63, 48)
TEXT = (240, 240, 240)
TEXT_DIM = (165, 170, 180)
EDGE_TEXT = (200, 204, 212)
LAND = (234, 221, 184)
LAND_LINE = (205, 190, 148)
LAND_LINE_DARK = (120, 108, 80)  # grey-brown text on the land-coloured hand tray
RIVER = (143, 201, 236)
RIVER_WAVE = (184, 224, 246)
HIGHLIGHT = (255, 212, 0)
CONFLICT_RING = (235, 40, 40)
GOLD = (242, 190, 40)
GOLD_DARK = (110, 75, 0)
OUTLINE = (25, 25, 25)

TILE_COLOURS: dict[str, RGB] = {
    "red": (200, 56, 45),
    "blue": (38, 98, 200),
    "green": (38, 148, 76),
    "black": (42, 42, 46),
}
BLACK_TILE_RIM = (120, 120, 128)
FLIPPED = (150, 132, 104)
FLIPPED_HATCH = (122, 105, 80)
TILE_ORDER = ("red", "blue", "green", "black")
LEADER_ORDER = ("black", "red", "blue", "green")
LEADER_LETTER = {"black": "K", "red": "P", "blue": "F", "green": "T"}
DYNASTIES = ("archer", "bull", "pot", "lion")

# --------------------------------------------------------------------------- text

#: What the game waits for, by turn phase (the active seat's name comes first).
PHASE_KEYS = {
    "action": "tigris.render.phase.action",
    "revolt_support": "tigris.render.phase.revolt_support",
    "war_support": "tigris.render.phase.war_support",
    "war_order": "tigris.render.phase.war_order",
    "treasure": "tigris.render.phase.treasure",
    "monument": "tigris.render.phase.monument",
}
CONFLICT_KEYS = {"revolt": "tigris.render.conflict.revolt", "war": "tigris.render.conflict.war"}
SIDE_KEYS = {"attacker": "tigris.render.side.attacker", "defender": "tigris.render.side.defender"}
COLOUR_KEYS = {c: f"tigris.colour.{c}" for c in TILE_ORDER}
LEADERS_KEYS = {c: f"tigris.render.leaders.{c}" for c in TILE_ORDER}
LETTER_KEYS = {c: f"tigris.render.leader_letter.{c}" for c in TILE_ORDER}

#: the verbs of the turn captions (``tigris.step.<verb>``, given by the view)
STEP_VERBS = (
    "leader",
    "withdraw",
    "tile",
    "catastrophe",
    "swap",
    "pass",
    "support",
    "war",
    "treasure",
    "monument",
    "decline",
)

#: Every catalog key whose text an image may draw: the language check covers them all.
TEXT_KEYS: tuple[str, ...] = (
    "tigris.render.player",
    *PHASE_KEYS.values(),
    "tigris.render.game_over",
    "tigris.render.ranked",
    "tigris.render.rank",
    "tigris.render.sorted",
    "tigris.render.tiebreak",
    "tigris.render.last",
    "tigris.render.last_anonymous",
    "tigris.render.bag",
    "tigris.render.treasures",
    "tigris.render.monuments_left",
    "tigris.render.none",
    *CONFLICT_KEYS.values(),
    "tigris.render.conflict.detail",
    *SIDE_KEYS.values(),
    "tigris.render.hand",
    "tigris.render.your_hand",
    "tigris.render.points",
    "tigris.render.score_now",
    "tigris.render.score_hint",
    *(f"tigris.render.legend.{c}" for c in TILE_ORDER),
    "tigris.render.legend.catastrophe",
    "tigris.render.legend.treasure",
    "tigris.render.callout.red",
    "tigris.render.callout.blue",
    "tigris.render.callout.green",
    "tigris.render.callout.black",
    "tigris.render.callout.leader",
    "tigris.render.callout.river",
    "tigris.render.callout.turn",
    "tigris.render.callout.points",
    "tigris.render.callout.score",
    *COLOUR_KEYS.values(),
    *LEADERS_KEYS.values(),
    *LETTER_KEYS.values(),
    *(f"tigris.leader.{c}" for c in TILE_ORDER),
    *(f"tigris.step.{verb}" for verb in STEP_VERBS),
)


def image_language(lang: str | None) -> str:
    """The catalog language this game's images are drawn in (English when the fonts
    cannot draw every label of ``lang``)."""
    return drawable_language(lang, TEXT_KEYS)


def colour_name(lang: str, colour: str) -> str:
    """A tile colour's name in ``lang``; an unknown colour is shown as given."""
    key = COLOUR_KEYS.get(colour)
    return t(lang, key) if key else colour


def leader_letter(lang: str, colour: str) -> str:
    """The letter on a leader token (K, P, F, T in English)."""
    key = LETTER_KEYS.get(colour)
    return t(lang, key) if key else "?"


# --------------------------------------------------------------------------- squares


def parse_square(name: str) -> tuple[int, int] | None:
    """``"F5"`` -> (column 5, row 4), zero-based; None when not on the board."""
    if not isinstance(name, str) or len(name) < 2:
        return None
    col = COL_LETTERS.find(name[0].upper())
    try:
        row = int(name[1:]) - 1
    except ValueError:
        return None
    if col < 0 or not 0 <= row < ROWS:
        return None
    return col, row


def square_origin(name: str) -> tuple[int, int] | None:
    """Top-left pixel of a square in the public image."""
    pos = parse_square(name)
    if pos is None:
        return None
    return EDGE + pos[0] * CELL, EDGE + pos[1] * CELL


def square_center(name: str) -> tuple[int, int]:
    """Centre pixel of a square in the public image (tests sample here)."""
    origin = square_origin(name)
    if origin is None:
        raise ValueError(f"not a square: {name!r}")
    return origin[0] + CELL // 2, origin[1] + CELL // 2


# --------------------------------------------------------------------------- symbols

Draw = ImageDraw.ImageDraw
Point = tuple[float, float]


def _leaf(p0: Point, p1: Point, width: float) -> list[Point]:
    """A leaf/grain polygon from ``p0`` to ``p1``."""
    mx, my = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    length = math.hypot(dx, dy) or 1
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    return [p0, (mx + nx, my + ny), p1, (mx - nx, my - ny)]


def _temple_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """Stepped pyramid (a ziggurat): three tiers and a shrine."""
    tier_h = s * 0.2
    bottom = cy + s * 0.42
    for i, frac in enumerate((1.0, 0.68, 0.38)):
        w = s * frac
        top = bottom - tier_h * (i + 1)
        d.rectangle((cx - w / 2, top, cx + w / 2, top + tier_h - s * 0.035), fill=fg)
    d.rectangle(
        (cx - s * 0.08, bottom - tier_h * 3 - s * 0.16, cx + s * 0.08, bottom - tier_h * 3), fill=fg
    )


def _farm_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A wheat ear: stalk and three pairs of grains."""
    d.line((cx, cy + s * 0.48, cx, cy - s * 0.2), fill=fg, width=max(1, round(s * 0.08)))
    for k in range(3):
        y = cy + s * 0.2 - k * s * 0.22
        d.polygon(_leaf((cx, y), (cx - s * 0.3, y - s * 0.2), s * 0.16), fill=fg)
        d.polygon(_leaf((cx, y), (cx + s * 0.3, y - s * 0.2), s * 0.16), fill=fg)
    d.polygon(_leaf((cx, cy - s * 0.18), (cx, cy - s * 0.5), s * 0.17), fill=fg)


def _market_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A coin: thick ring and a centre dot."""
    r = s * 0.42
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fg, width=max(1, round(s * 0.11)))
    r = s * 0.16
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fg)


def _settlement_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A house: roof, walls and a door in the tile colour."""
    d.polygon(
        [(cx - s * 0.48, cy - s * 0.02), (cx, cy - s * 0.46), (cx + s * 0.48, cy - s * 0.02)],
        fill=fg,
    )
    d.rectangle((cx - s * 0.33, cy - s * 0.06, cx + s * 0.33, cy + s * 0.42), fill=fg)
    d.rectangle((cx - s * 0.09, cy + s * 0.12, cx + s * 0.09, cy + s * 0.42), fill=bg)


SYMBOLS: dict[str, Callable[[Draw, float, float, float, RGB, RGB], None]] = {
    "red": _temple_symbol,
    "blue": _farm_symbol,
    "green": _market_symbol,
    "black": _settlement_symbol,
}


def _archer_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A bow with an arrow."""
    w = max(1, round(s * 0.1))
    box = (cx - s * 0.62, cy - s * 0.45, cx + s * 0.12, cy + s * 0.45)
    d.arc(box, start=-80, end=80, fill=fg, width=w)
    string_x = cx - s * 0.25 + s * 0.37 * math.cos(math.radians(80))  # the arc's tips
    d.line((string_x, cy - s * 0.44, string_x, cy + s * 0.44), fill=fg, width=max(1, w // 2))
    d.line((cx - s * 0.35, cy, cx + s * 0.3, cy), fill=fg, width=w)
    d.polygon(
        [(cx + s * 0.48, cy), (cx + s * 0.24, cy - s * 0.14), (cx + s * 0.24, cy + s * 0.14)],
        fill=fg,
    )


def _bull_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A bull's head: round face under a pair of horns (like the Taurus sign)."""
    r = s * 0.25
    d.ellipse((cx - r, cy - s * 0.02, cx + r, cy + s * 0.48), fill=fg)
    d.arc(
        (cx - s * 0.46, cy - s * 0.62, cx + s * 0.46, cy + s * 0.08),
        start=15,
        end=165,
        fill=fg,
        width=max(1, round(s * 0.13)),
    )


def _pot_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """An amphora: round body, neck, rim and handles."""
    d.ellipse((cx - s * 0.32, cy - s * 0.12, cx + s * 0.32, cy + s * 0.46), fill=fg)
    d.rectangle((cx - s * 0.12, cy - s * 0.38, cx + s * 0.12, cy), fill=fg)
    d.rectangle((cx - s * 0.22, cy - s * 0.48, cx + s * 0.22, cy - s * 0.36), fill=fg)
    w = max(1, round(s * 0.07))
    d.arc((cx - s * 0.38, cy - s * 0.36, cx - s * 0.04, cy + s * 0.06), 100, 260, fill=fg, width=w)
    d.arc((cx + s * 0.04, cy - s * 0.36, cx + s * 0.38, cy + s * 0.06), -80, 80, fill=fg, width=w)


def _lion_symbol(d: Draw, cx: float, cy: float, s: float, fg: RGB, bg: RGB) -> None:
    """A lion's face: a spiky mane around a round face with eyes."""
    d.polygon(star_points(cx, cy, s * 0.5, s * 0.36, spikes=10), fill=fg)
    r = s * 0.27
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=bg)
    e = s * 0.055
    for ex in (cx - s * 0.1, cx + s * 0.1):
        d.ellipse((ex - e, cy - s * 0.08 - e, ex + e, cy - s * 0.08 + e), fill=fg)
    d.polygon(
        [(cx - s * 0.08, cy + s * 0.06), (cx + s * 0.08, cy + s * 0.06), (cx, cy + s * 0.15)],
        fill=fg,
    )


DYNASTY_SYMBOLS: dict[str, Callable[[Draw, float, float, float, RGB, RGB], None]] = {
    "archer": _archer_symbol,
    "bull": _bull_symbol,
    "pot": _pot_symbol,
    "lion": _lion_symbol,
}


# --------------------------------------------------------------------------- sprites

TILE = CELL - 8
LEADER = CELL - 6


@cache
def tile_sprite(colour: str, size: int = TILE) -> Image.Image:
    """A face-up civilization tile: rounded square, darker rim, light symbol.

    Black tiles get a grey rim instead, so they stand out on the dark panel."""
    fill = TILE_COLOURS.get(colour, (128, 128, 128))
    rim = BLACK_TILE_RIM if colour == "black" else mix(fill, OUTLINE, 0.45)

    def paint(d: Draw, k: float) -> None:
        d.rounded_rectangle((0, 0, size * k - 1, size * k - 1), radius=8 * k, fill=rim)
        inset = 2.5 * k
        d.rounded_rectangle(
            (inset, inset, size * k - 1 - inset, size * k - 1 - inset), radius=6 * k, fill=fill
        )
        symbol = SYMBOLS.get(colour)
        if symbol is not None:
            symbol(
                d,
                size * k / 2,
                size * k / 2,
                size * k * 0.58,
                mix(fill, (255, 255, 255), 0.78),
                fill,
            )

    return sprite(size, size, paint)


@cache
def flipped_sprite(size: int = TILE) -> Image.Image:
    """A face-down tile (under a monument): plain back with diagonal hatching."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.rounded_rectangle((0, 0, full, full), radius=8 * k, fill=mix(FLIPPED, OUTLINE, 0.4))
        inset = 2.5 * k
        d.rounded_rectangle((inset, inset, full - inset, full - inset), radius=6 * k, fill=FLIPPED)
        step = 10 * k
        for i in range(-6, 8):
            x = i * step
            d.line((x, full - inset, x + full, -inset), fill=FLIPPED_HATCH, width=round(2.5 * k))
        # re-cut the rounded rim the hatching crossed
        d.rounded_rectangle(
            (0, 0, full, full),
            radius=8 * k,
            outline=mix(FLIPPED, OUTLINE, 0.4),
            width=round(2.5 * k),
        )

    img = sprite(size, size, paint)
    # keep the rounded silhouette: hatching drawn past the corners is cleared
    mask = sprite(
        size,
        size,
        lambda d, k: d.rounded_rectangle(
            (0, 0, size * k - 1, size * k - 1), radius=8 * k, fill=(255, 255, 255, 255)
        ),
    )
    img.putalpha(mask.getchannel("A"))
    return img


@cache
def dynasty_badge(dynasty: str, player: RGB, size: int) -> Image.Image:
    """A disc in the player's colour with the dynasty symbol on it."""
    fg = readable_on(player)

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.ellipse((0, 0, full, full), fill=OUTLINE)
        d.ellipse((k * 1.2, k * 1.2, full - k * 1.2, full - k * 1.2), fill=player)
        symbol = DYNASTY_SYMBOLS.get(dynasty)
        if symbol is not None:
            symbol(d, size * k / 2, size * k / 2, size * k * 0.62, fg, player)

    return sprite(size, size, paint)


@cache
def leader_sprite(
    colour: str,
    player: RGB,
    dynasty: str,
    size: int = LEADER,
    ghost: bool = False,
    letter: str | None = None,
) -> Image.Image:
    """A leader token: ring in the player's colour, disc in the leader colour with
    its letter, dynasty badge at the bottom right. ``ghost`` draws the empty
    place of a leader that is not in supply (for the panel). ``letter`` is the
    translated letter (:func:`leader_letter`); the English one by default."""
    fill = TILE_COLOURS.get(colour, (128, 128, 128))
    if letter is None:
        letter = LEADER_LETTER.get(colour, "?")
    letter_size = max(GLANCE, round(size * 0.46))

    def paint(d: Draw, k: float) -> None:
        full = size * k
        if ghost:
            d.ellipse(
                (k * 4, k * 4, full - k * 4, full - k * 4),
                outline=(95, 100, 110),
                width=round(2 * k),
            )
            PEN.text(
                d,
                (full / 2, full / 2),
                letter,
                letter_size,
                (95, 100, 110),
                bold=True,
                anchor="mm",
                k=k,
            )
            return
        ring = full * 0.5 - k * 1
        c = full / 2
        d.ellipse((c - ring, c - ring, c + ring, c + ring), fill=OUTLINE)
        r = ring - k * 1.5
        d.ellipse((c - r, c - r, c + r, c + r), fill=player)
        r = ring * 0.70
        d.ellipse(
            (c - r - k * 2, c - r - k * 2, c + r + k * 2, c + r + k * 2), fill=(255, 255, 255)
        )
        d.ellipse((c - r, c - r, c + r, c + r), fill=fill)
        PEN.text(
            d,
            (c, c),
            letter,
            letter_size,
            (255, 255, 255),
            bold=True,
            anchor="mm",
            k=k,
            stroke=round(k * 1.2),
            stroke_fill=OUTLINE,
        )

    img = sprite(size, size, paint)
    if not ghost:
        badge = dynasty_badge(dynasty, player, round(size * 0.42))
        img.alpha_composite(badge, (size - badge.width, size - badge.height))
    return img


@cache
def treasure_sprite(corner: bool, size: int = 30) -> Image.Image:
    """A treasure: a gold diamond; a corner treasure is a gold coin with a star."""

    def paint(d: Draw, k: float) -> None:
        full = size * k
        c = full / 2
        if corner:
            d.ellipse((0, 0, full - 1, full - 1), fill=OUTLINE)
            d.ellipse((k * 2, k * 2, full - k * 2, full - k * 2), fill=(255, 255, 255))
            d.ellipse((k * 4, k * 4, full - k * 4, full - k * 4), fill=GOLD)
            d.polygon(star_points(c, c + k * 0.8, full * 0.34, full * 0.14), fill=GOLD_DARK)
        else:
            d.polygon([(c, 0), (full, c), (c, full), (0, c)], fill=OUTLINE)
            m = k * 3
            d.polygon([(c, m), (full - m, c), (c, full - m), (m, c)], fill=GOLD)
            d.polygon(
                [(c, m * 2.2), (full - m * 2.2, c), (c, c), (m * 2.2, c)],
                fill=mix(GOLD, (255, 255, 255), 0.45),
            )

    return sprite(size, size, paint)


@cache
def catastrophe_sprite(size: int = TILE) -> Image.Image:
    """A catastrophe: dark rubble tile with a bold orange X."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.rounded_rectangle((0, 0, full, full), radius=8 * k, fill=(20, 20, 20))
        d.rounded_rectangle(
            (2.5 * k, 2.5 * k, full - 2.5 * k, full - 2.5 * k), radius=6 * k, fill=(70, 64, 60)
        )
        for pts in (
            ((0.2, 0.55), (0.35, 0.62), (0.3, 0.8)),
            ((0.7, 0.18), (0.8, 0.35), (0.92, 0.38)),
        ):
            d.line(
                [(x * full, y * full) for x, y in pts],
                fill=(45, 40, 38),
                width=round(2 * k),
            )
        a, b = full * 0.22, full * 0.78
        for w, col in ((16 * k, OUTLINE), (10 * k, (255, 120, 40))):
            d.line((a, a, b, b), fill=col, width=round(w))
            d.line((a, b, b, a), fill=col, width=round(w))

    return sprite(size, size, paint)


@cache
def unification_sprite(size: int = 40) -> Image.Image:
    """The unification marker: a white disc with two linked rings."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.ellipse((0, 0, full, full), fill=OUTLINE)
        d.ellipse((2 * k, 2 * k, full - 2 * k, full - 2 * k), fill=(255, 255, 255))
        r = full * 0.2
        for cx in (full * 0.38, full * 0.62):
            d.ellipse(
                (cx - r, full / 2 - r, cx + r, full / 2 + r), outline=OUTLINE, width=round(3 * k)
            )

    return sprite(size, size, paint)


@cache
def monument_sprite(colour_a: str, colour_b: str, size: int = 104) -> Image.Image:
    """A monument: a stepped tower, left half ``colour_a``, right half ``colour_b``,
    each half with its colour symbol on the base tier."""
    fill_a = TILE_COLOURS.get(colour_a, (128, 128, 128))
    fill_b = TILE_COLOURS.get(colour_b, (128, 128, 128))

    def paint(d: Draw, k: float) -> None:
        full = size * k
        c = full / 2
        tiers = ((0.96, 0.36), (0.66, 0.24), (0.38, 0.2))  # width fraction, height fraction
        bottom = full * 0.98
        boxes = []
        y = bottom
        for wf, hf in tiers:
            h = full * hf
            boxes.append((c - full * wf / 2, y - h, c + full * wf / 2, y))
            y -= h
        for x0, y0, x1, y1 in boxes:  # dark outline first
            d.rectangle((x0 - 2 * k, y0 - 2 * k, x1 + 2 * k, y1 + 2 * k), fill=OUTLINE)
        for x0, y0, x1, y1 in boxes:
            d.rectangle((x0, y0, c, y1), fill=fill_a)
            d.rectangle((c, y0, x1, y1), fill=fill_b)
        for x0, _, x1, y1 in boxes[1:]:  # tier steps
            d.line((x0, y1, x1, y1), fill=OUTLINE, width=round(2 * k))
        d.line((c, boxes[-1][1], c, bottom), fill=(255, 255, 255), width=round(2 * k))
        x0, y0, x1, y1 = boxes[0]
        s = (y1 - y0) * 0.7
        for fill, colour, cx in (
            (fill_a, colour_a, (x0 + c) / 2),
            (fill_b, colour_b, (c + x1) / 2),
        ):
            symbol = SYMBOLS.get(colour)
            if symbol is not None:
                symbol(d, cx, (y0 + y1) / 2, s, mix(fill, (255, 255, 255), 0.8), fill)

    return sprite(size, size, paint)


@cache
def highlight_sprite(size: int = CELL + 4) -> Image.Image:
    """The last-action frame: a thick yellow square with dark edges."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.rounded_rectangle((0, 0, full, full), radius=6 * k, outline=OUTLINE, width=round(9 * k))
        d.rounded_rectangle(
            (1.5 * k, 1.5 * k, full - 1.5 * k, full - 1.5 * k),
            radius=5 * k,
            outline=HIGHLIGHT,
            width=round(6 * k),
        )

    return sprite(size, size, paint)


@cache
def conflict_sprite(size: int = CELL + 4) -> Image.Image:
    """A square in the current conflict: a red frame on the square's edge (it
    replaces the last-action frame on a square that is both) and a
    crossed-swords badge at the top left."""

    def paint(d: Draw, k: float) -> None:
        full = size * k - 1
        d.rounded_rectangle(
            (0, 0, full, full), radius=6 * k, outline=(255, 255, 255), width=round(9 * k)
        )
        box = (1.5 * k, 1.5 * k, full - 1.5 * k, full - 1.5 * k)
        d.rounded_rectangle(box, radius=5 * k, outline=CONFLICT_RING, width=round(6 * k))
        badge = 30 * k
        d.ellipse((0, 0, badge, badge), fill=OUTLINE)
        d.ellipse((1.5 * k, 1.5 * k, badge - 1.5 * k, badge - 1.5 * k), fill=CONFLICT_RING)
        _swords(d, badge / 2, badge / 2, badge * 0.6, (255, 255, 255))

    return sprite(size, size, paint)


def _swords(d: Draw, cx: float, cy: float, s: float, fg: RGB) -> None:
    """Two crossed swords: blades, cross-guards and grips."""
    h = s / 2
    for sign in (1, -1):
        tip = (cx + sign * h, cy - h)
        hilt = (cx - sign * h * 0.55, cy + h * 0.55)
        d.line((tip, hilt), fill=fg, width=max(1, round(s * 0.13)))
        gx, gy = hilt
        g = s * 0.2
        d.line(
            ((gx - g, gy - sign * g), (gx + g, gy + sign * g)),
            fill=fg,
            width=max(1, round(s * 0.1)),
        )
        end = (cx - sign * h, cy + h)
        d.line((hilt, end), fill=fg, width=max(1, round(s * 0.16)))


@cache
def bag_sprite(size: int = 34) -> Image.Image:
    """Two stacked tile backs: the bag / a hand of tiles."""

    def paint(d: Draw, k: float) -> None:
        full = size * k
        for off, col in ((0.0, (120, 110, 95)), (0.22, (185, 170, 140))):
            x0 = full * off
            d.rounded_rectangle(
                (x0, full * (0.22 - off), x0 + full * 0.76, full * (0.98 - off)),
                radius=4 * k,
                fill=OUTLINE,
            )
            d.rounded_rectangle(
                (
                    x0 + 2 * k,
                    full * (0.22 - off) + 2 * k,
                    x0 + full * 0.76 - 2 * k,
                    full * (0.98 - off) - 2 * k,
                ),
                radius=3 * k,
                fill=col,
            )

    return sprite(size, size, paint)


# --------------------------------------------------------------------------- board


@cache
def board_background(river: frozenset[str]) -> Image.Image:
    """Frame, land and river squares, grid and edge coordinates (drawn once)."""
    img = Image.new("RGB", (BOARD_W, BOARD_H), FRAME)
    d = ImageDraw.Draw(img)
    d.rectangle((EDGE - 3, EDGE - 3, BOARD_W - EDGE + 2, BOARD_H - EDGE + 2), fill=OUTLINE)
    d.rectangle((EDGE, EDGE, BOARD_W - EDGE - 1, BOARD_H - EDGE - 1), fill=LAND)
    for name in river:
        origin = square_origin(name)
        if origin is not None:
            x, y = origin
            d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=RIVER)
            _waves(d, x, y)
    for i in range(1, COLS):
        x = EDGE + i * CELL
        d.line((x, EDGE, x, BOARD_H - EDGE - 1), fill=LAND_LINE, width=2)
    for j in range(1, ROWS):
        y = EDGE + j * CELL
        d.line((EDGE, y, BOARD_W - EDGE - 1, y), fill=LAND_LINE, width=2)
    size = PEN.px(11)
    for i, letter in enumerate(COL_LETTERS[:COLS]):
        cx = EDGE + i * CELL + CELL / 2
        PEN.text(d, (cx, EDGE / 2), letter, size, EDGE_TEXT, bold=True, anchor="mm")
        PEN.text(d, (cx, BOARD_H - EDGE / 2), letter, size, EDGE_TEXT, bold=True, anchor="mm")
    for j in range(ROWS):
        cy = EDGE + j * CELL + CELL / 2
        PEN.text(d, (EDGE / 2, cy), str(j + 1), size, EDGE_TEXT, bold=True, anchor="mm")
        PEN.text(d, (BOARD_W - EDGE / 2, cy), str(j + 1), size, EDGE_TEXT, bold=True, anchor="mm")
    return img


def _waves(d: Draw, x: int, y: int) -> None:
    """Two short wave strokes in a river square, clear of its centre."""
    for wy, wx in ((y + 16, x + 10), (y + CELL - 18, x + 26)):
        points = [(wx + t, wy + 3 * math.sin(t / 6)) for t in range(0, 37, 3)]
        d.line(points, fill=RIVER_WAVE, width=3)


#: how far from its centre a disc and its number may draw (more than they do)
_DISC_REACH = 40


class _Disc(Mark):
    """A numbered step's disc, centred on (cx, cy)."""

    def __init__(self, number: int, cx: int, cy: int) -> None:
        self.number, self.cx, self.cy = number, cx, cy
        reach = _DISC_REACH
        self.box = (cx - reach, cy - reach, cx + reach, cy + reach)

    def draw(self, img: Image.Image, at: tuple[int, int] = (0, 0)) -> None:
        assert at == (0, 0), "drawn in its place only"
        cx, cy = self.cx, self.cy
        d = ImageDraw.Draw(img)
        d.ellipse((cx - 17, cy - 17, cx + 17, cy + 17), fill=HIGHLIGHT, outline=OUTLINE, width=2)
        PEN.text(d, (cx, cy + 1), str(self.number), GLANCE, OUTLINE, bold=True, anchor="mm")


def _board_ops(
    view: View, colours: Mapping[int, RGB], dynasties: Mapping[int, str], lang: str
) -> list[Op]:
    """What the board draws over its background, bottom-up: tiles and catastrophes,
    monuments, leaders, treasures, then the markers (unification, last action,
    conflict) on top."""
    ops: list[Op] = []
    for tile in view.get("tiles") or ():
        face = flipped_sprite() if tile.get("flipped") else tile_sprite(str(tile.get("colour")))
        _on_square(ops, face, tile.get("sq"))
    for sq in view.get("catastrophes") or ():
        _on_square(ops, catastrophe_sprite(), sq)
    for monument in view.get("monuments") or ():
        origin = square_origin(monument.get("sq"))
        pair = [*(monument.get("colours") or ()), "black", "black"]
        if origin is not None:
            _centred(ops, monument_sprite(pair[0], pair[1]), (origin[0] + CELL, origin[1] + CELL))
    for leader in view.get("leaders") or ():
        seat = leader.get("seat")
        colour = colours.get(seat, (128, 128, 128))
        kind = str(leader.get("colour"))
        token = leader_sprite(
            kind, colour, dynasties.get(seat, ""), letter=leader_letter(lang, kind)
        )
        _on_square(ops, token, leader.get("sq"))
    for treasure in view.get("treasures") or ():
        origin = square_origin(treasure.get("sq"))
        if origin is not None:
            badge = treasure_sprite(bool(treasure.get("corner")))
            ops.append((badge, origin[0] + CELL - badge.width - 1, origin[1] + 1))
    _on_square(ops, unification_sprite(), view.get("unification"))
    _steps(ops, view)
    conflict = view.get("conflict") or {}
    for key in ("attacker_sq", "defender_sq"):
        _on_square(ops, conflict_sprite(), conflict.get(key))
    return ops


def _steps(ops: list[Op], view: View) -> None:
    """A yellow frame on every square of every action since the last hand-off;
    numbered (1, 2, ...) in their order when there is more than one action."""
    marked = [step for step in turn_steps(view) if step.get("squares")]
    for number, step in enumerate(marked, start=1):
        for sq in step.get("squares") or ():
            _on_square(ops, highlight_sprite(), sq)
            origin = square_origin(sq) if isinstance(sq, str) else None
            if origin is not None and len(marked) > 1:
                ops.append(_Disc(number, origin[0] + 16, origin[1] + 16))


def _on_square(ops: list[Op], piece: Image.Image, sq: Any) -> None:
    """``piece`` centred on square ``sq``; nothing for a missing or bad square."""
    origin = square_origin(sq) if isinstance(sq, str) else None
    if origin is not None:
        _centred(ops, piece, (origin[0] + CELL / 2, origin[1] + CELL / 2))


def _centred(ops: list[Op], piece: Image.Image, center: tuple[float, float]) -> None:
    """``piece`` centred on ``center`` (rounded as :func:`renderer.common.paste_centered`)."""
    ops.append((piece, round(center[0] - piece.width / 2), round(center[1] - piece.height / 2)))


def _draw_board(
    img: Image.Image,
    view: View,
    colours: Mapping[int, RGB],
    dynasties: Mapping[int, str],
    lang: str,
) -> None:
    """The pieces and marks of :func:`_board_ops`, drawn on ``img``."""
    draw_ops(img, _board_ops(view, colours, dynasties, lang))


# --------------------------------------------------------------------------- the board by regions

#: the board cut into regions: its squares, those on the edge with the band beside them
_XS = (0, *(EDGE + i * CELL for i in range(1, COLS)), BOARD_W)
_YS = (0, *(EDGE + j * CELL for j in range(1, ROWS)), BOARD_H)


def _mapped_board(
    ops: Sequence[Op], background: Image.Image, palette: Image.Image
) -> Image.Image | None:
    """The board (``background`` with ``ops`` drawn) mapped onto ``palette`` by regions
    (:func:`renderer.common.mapped_by_regions`: a square's pieces drawn and mapped
    once), or None when an op reaches out of the board."""
    return mapped_by_regions(ops, background, palette, _XS, _YS)


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Seat:
    """Everything the panel shows about one seat."""

    seat: int
    name: str
    colour: RGB
    dynasty: str
    info: Mapping[str, Any]


def _seats(view: View, players: Sequence[PlayerLabel], stack: FontStack, lang: str) -> list[Seat]:
    """Join the view's players with their labels (a missing label gets a default)."""
    labels = {p.seat: p for p in players}
    seats = []
    infos = view.get("players") or [{"seat": p.seat} for p in players]
    for info in infos:
        seat = int(info.get("seat", 0))
        label = labels.get(seat)
        fallback = t(lang, "tigris.render.player", number=seat + 1)
        default = DEFAULT_PLAYER_COLOURS[seat % len(DEFAULT_PLAYER_COLOURS)]
        name = clean_name(label.name, stack, fallback) if label else fallback
        colour = parse_hex_colour(label.colour if label else None, default)
        dynasty = str(info.get("dynasty") or DYNASTIES[seat % len(DYNASTIES)])
        seats.append(Seat(seat, name, colour, dynasty, info))
    return seats


# --------------------------------------------------------------------------- panel

STATUS_H = 108
CONFLICT_H = 124
CARD_GAP = 12


def _card_height(scoring_open: bool, over: bool = False) -> int:
    return 214 if over else 172 if scoring_open else 128


def _panel_height(view: View, n_seats: int) -> int:
    rows = math.ceil(max(1, n_seats) / 2)
    card = _card_height(_scoring_open(view), bool(view.get("result")))
    height = STATUS_H + rows * (card + CARD_GAP) + PAD + LEGEND_H
    if view.get("conflict"):
        height += CONFLICT_H + CARD_GAP
    return height


def _scoring_open(view: View) -> bool:
    return any(p.get("points") is not None for p in view.get("players") or ())


def _name_with_badge(
    img: Image.Image,
    d: Draw,
    x: float,
    y: float,
    seat: Seat,
    size: int,
    max_width: float,
    pen: Pen = PEN,
    on: RGB | None = None,
) -> float:
    """Dynasty badge then the bold name, vertically centred on ``y``; returns the end x
    (``on``: the flat colour it is drawn on, where known)."""
    badge = dynasty_badge(seat.dynasty, seat.colour, size + 8)
    paste(img, badge, (x, y - badge.height / 2))
    x += badge.width + 8
    name = pen.fit(seat.name, size, max_width - badge.width - 8, bold=True)
    return x + pen.text(d, (x, y), name, size, TEXT, bold=True, on=on)


def _phase_text(view: View, lang: str) -> str:
    turn = view.get("turn") or {}
    phase = str(turn.get("phase", "action"))
    key = PHASE_KEYS.get(phase)
    if key is None:
        return phase
    colour = str((view.get("conflict") or {}).get("colour", ""))
    return t(
        lang,
        key,
        count=int(turn.get("actions_left", 0)),
        colour=colour_name(lang, colour),
    )


def _draw_status(
    img: Image.Image, d: Draw, view: View, seats: Sequence[Seat], y: int, lang: str
) -> None:
    """Whose turn / what the game waits for, the last action, bag, treasures, monuments."""
    by_seat = {s.seat: s for s in seats}
    turn = view.get("turn") or {}
    phase = turn.get("phase", "action")
    line1 = y + 32
    x: float = PAD
    right_block = 500
    if phase == "over":
        over = t(lang, "tigris.render.game_over")
        x += PEN.text(d, (x, line1), over, BIG, HIGHLIGHT, bold=True, on=FRAME)
        _draw_ranking(d, view, by_seat, x + 24, line1, BOARD_W - right_block, lang)
    else:
        waiting = [by_seat[s] for s in turn.get("waiting_for") or () if s in by_seat]
        if not waiting and turn.get("active_seat") in by_seat:
            waiting = [by_seat[turn["active_seat"]]]
        phase_text = _phase_text(view, lang)
        budget = BOARD_W - right_block - x - PEN.width_of(phase_text, BIG) - 16
        for seat in waiting:
            share = budget / len(waiting)
            x = _name_with_badge(img, d, x, line1, seat, BIG, share, on=FRAME) + 14
        phase_text = PEN.fit(phase_text, BIG, BOARD_W - right_block - x)
        PEN.text(d, (x, line1), phase_text, BIG, TEXT, on=FRAME)
    steps = turn_steps(view)
    if steps:
        last = steps[-1]
        who = seat_named(by_seat, last)
        action = " · ".join(step_words(step, lang) for step in steps)
        if who:
            player = PEN.fit(who.name, GLANCE, 260)
            text = t(lang, "tigris.render.last", player=player, action=action)
        else:
            text = t(lang, "tigris.render.last_anonymous", action=action)
        text = PEN.fit(text, GLANCE, BOARD_W - right_block - PAD)
        PEN.text(d, (PAD, y + 80), text, GLANCE, TEXT_DIM, on=FRAME)
    _draw_counters(img, d, view, BOARD_W - right_block + 20, y, lang)


def ranking_entries(view: View) -> list[Mapping[str, Any]]:
    """The final ranking of the view, best first (empty while the game runs)."""
    return list((view.get("result") or {}).get("ranking") or ())


def _draw_ranking(
    d: Draw, view: View, by_seat: Mapping[int, Seat], x: float, y: float, right: float, lang: str
) -> None:
    """The ranking after "Game over" ("1. Alice: 5  2. Bob: 4"), in the space left."""
    for entry in ranking_entries(view):
        seat = seat_named(by_seat, entry)
        if seat is None:
            continue
        text = t(
            lang,
            "tigris.render.ranked",
            place=entry.get("place"),
            player=PEN.fit(seat.name, GLANCE, 150, bold=True),
            score=entry.get("score"),
        )
        if x + PEN.width_of(text, GLANCE, bold=True) > right:
            break
        x += PEN.text(d, (x, y), text, GLANCE, seat.colour, bold=True, on=FRAME) + 22


def step_words(step: Mapping[str, Any], lang: str) -> str:
    """The caption of one action in ``lang`` (its notation in views without one)."""
    caption = step.get("caption")
    if caption:
        return Text.from_json(caption).render(lang)
    return str(step.get("notation", ""))


def _draw_counters(img: Image.Image, d: Draw, view: View, x: int, y: int, lang: str) -> None:
    """Bag and treasures left on line 1, the monuments still to build on line 2."""
    line1 = y + 32
    paste(img, bag_sprite(), (x, line1 - 17))
    x1 = (
        x
        + 40
        + PEN.text(d, (x + 40, line1), str(view.get("bag", "?")), BIG, TEXT, bold=True, on=FRAME)
    )
    x1 += 6 + PEN.text(
        d, (x1 + 6, line1 + 2), t(lang, "tigris.render.bag"), GLANCE, TEXT_DIM, on=FRAME
    )
    x1 += 24
    paste(img, treasure_sprite(False, 30), (x1, line1 - 15))
    left_count = str(view.get("treasures_left", "?"))
    x2 = x1 + 36 + PEN.text(d, (x1 + 36, line1), left_count, BIG, TEXT, bold=True, on=FRAME)
    treasures = PEN.fit(t(lang, "tigris.render.treasures"), GLANCE, BOARD_W - PAD - x2 - 6)
    PEN.text(d, (x2 + 6, line1 + 2), treasures, GLANCE, TEXT_DIM, on=FRAME)
    line2 = y + 80
    left = view.get("monuments_left") or []
    heading = t(lang, "tigris.render.monuments_left")
    room = BOARD_W - PAD - x - 46 * len(left) - 10
    mx = (
        x + PEN.text(d, (x, line2), PEN.fit(heading, GLANCE, room), GLANCE, TEXT_DIM, on=FRAME) + 10
    )
    if not left:
        PEN.text(d, (mx, line2), t(lang, "tigris.render.none"), GLANCE, TEXT_DIM, on=FRAME)
    for pair in left:
        pair = [*list(pair), "black", "black"]
        paste(img, monument_sprite(pair[0], pair[1], 44), (mx, line2 - 26))
        mx += 46


def _draw_conflict(
    img: Image.Image, d: Draw, view: View, seats: Sequence[Seat], y: int, lang: str
) -> None:
    """The conflict card: kind, colour, both sides' strength (committed or '?')."""
    conflict = view["conflict"]
    by_seat = {s.seat: s for s in seats}
    colour = str(conflict.get("colour", ""))
    d.rounded_rectangle(
        (PAD, y, BOARD_W - PAD, y + CONFLICT_H),
        radius=14,
        fill=(70, 36, 36),
        outline=CONFLICT_RING,
        width=3,
    )
    kind = str(conflict.get("kind", ""))
    title = t(lang, CONFLICT_KEYS[kind]) if kind in CONFLICT_KEYS else kind.upper()
    paste(img, tile_sprite(colour, 40), (PAD + 16, y + 14))
    tx: float = PAD + 66
    tx += PEN.text(d, (tx, y + 34), title, BIG, TEXT, bold=True)
    leaders = t(lang, LEADERS_KEYS[colour]) if colour in LEADERS_KEYS else colour
    detail = "  " + t(
        lang, "tigris.render.conflict.detail", leaders=leaders, colour=colour_name(lang, colour)
    )
    detail = PEN.fit(detail, GLANCE, BOARD_W - PAD - 16 - tx)
    PEN.text(d, (tx, y + 35), detail, GLANCE, TEXT_DIM)
    half = (BOARD_W - 2 * PAD) // 2
    for i, side in enumerate(("attacker", "defender")):
        seat = by_seat.get(conflict.get(f"{side}_seat"))
        x = PAD + 16 + i * half
        line = y + 88
        if seat is not None:
            token = leader_sprite(
                colour, seat.colour, seat.dynasty, 50, letter=leader_letter(lang, colour)
            )
            paste_centered(img, token, (x + 22, line))
        name = seat.name if seat else "?"
        base = int(conflict.get(f"{side}_base") or 0)
        committed = conflict.get(f"{side}_committed")
        total = (
            f"{base} + {committed} = {base + int(committed)}"
            if committed is not None
            else f"{base} + ?"
        )
        total_w = PEN.width_of(total, BIG, bold=True)
        name_x = x + 54
        label = _spaced(t(lang, SIDE_KEYS[side]))
        room = half - 54 - total_w - PEN.width_of(label, GLANCE) - 40
        name = PEN.fit(name, GLANCE, room, bold=True)
        nx = name_x + PEN.text(d, (name_x, line), name, GLANCE, TEXT, bold=True)
        PEN.text(d, (nx, line + 1), label, GLANCE, TEXT_DIM)
        PEN.text(d, (x + half - 40, line), total, BIG, HIGHLIGHT, bold=True, anchor="rm")


def _spaced(label: str) -> str:
    """``label`` after a space, unless it opens with full-width punctuation
    (``（进攻方）``), which carries its own spacing."""
    if label[:1] and unicodedata.east_asian_width(label[0]) in ("F", "W"):
        return label
    return " " + label


def _draw_card(
    img: Image.Image, d: Draw, seat: Seat, box: tuple[int, int, int, int], view: View, lang: str
) -> None:
    """One player's card: name, leaders in supply, catastrophes, hand, open points."""
    x0, y0, x1, y1 = box
    turn = view.get("turn") or {}
    active = turn.get("active_seat") == seat.seat and turn.get("phase") != "over"
    waiting = seat.seat in (turn.get("waiting_for") or ())
    d.rounded_rectangle(
        box,
        radius=14,
        fill=CARD_ACTIVE if active else CARD,
        outline=HIGHLIGHT if waiting else None,
        width=3,
    )
    d.rounded_rectangle((x0, y0, x0 + 8, y1), radius=4, fill=seat.colour)
    x: float = x0 + 22
    name_room = x1 - x - 16 - (250 if view.get("result") else 0)
    _name_with_badge(img, d, x, y0 + 34, seat, GLANCE, name_room)
    info = seat.info
    supply = list(info.get("leaders_in_supply") or ())
    line2 = y0 + 92
    for colour in LEADER_ORDER:
        present = colour in supply
        token = leader_sprite(
            colour,
            seat.colour,
            seat.dynasty,
            50,
            ghost=not present,
            letter=leader_letter(lang, colour),
        )
        paste_centered(img, token, (x + 25, line2))
        x += 56
    x += 14
    catastrophes = int(info.get("catastrophes") or 0)
    for i in range(2):
        icon = catastrophe_sprite(34) if i < catastrophes else used_catastrophe_sprite(34)
        paste_centered(img, icon, (x + 17, line2))
        x += 40
    x += 18
    paste_centered(img, bag_sprite(34), (x + 17, line2))
    hand_size = str(info.get("hand_size", "?"))
    x += 40 + PEN.text(d, (x + 40, line2), hand_size, BIG, TEXT, bold=True)
    hand = PEN.fit(t(lang, "tigris.render.hand"), GLANCE, x1 - x - 16)
    PEN.text(d, (x + 6, line2 + 2), hand, GLANCE, TEXT_DIM)
    if info.get("points") is not None:
        _draw_points(img, d, info.get("points") or {}, info.get("treasures"), x0 + 22, y0 + 146, 34)
    entry = next((e for e in ranking_entries(view) if e.get("seat") == seat.seat), None)
    if entry is not None:
        _draw_final(d, entry, box, lang)


def _draw_final(
    d: Draw, entry: Mapping[str, Any], box: tuple[int, int, int, int], lang: str
) -> None:
    """The end of the game on a card: place and score at the top right, then the
    colours weakest first, or the tie-break where one was needed."""
    x0, y0, x1, _ = box
    values = [str(v) for v in entry.get("sorted") or ()]
    rank = t(lang, "tigris.render.rank", place=entry.get("place"), score=entry.get("score"))
    width = PEN.width_of(rank, GLANCE, bold=True) + 20
    d.rounded_rectangle((x1 - width - 14, y0 + 14, x1 - 14, y0 + 54), radius=10, fill=HIGHLIGHT)
    PEN.text(d, (x1 - 24, y0 + 34), rank, GLANCE, OUTLINE, bold=True, anchor="rm")
    depth = entry.get("tiebreak")
    if depth:
        shown = " · ".join(values[: int(depth)])
        text = t(lang, "tigris.render.tiebreak", score=entry.get("score"), values=shown)
        colour: RGB = HIGHLIGHT
    else:
        text = t(lang, "tigris.render.sorted", values=" · ".join(values))
        colour = TEXT_DIM
    PEN.text(d, (x0 + 22, y0 + 188), PEN.fit(text, GLANCE, x1 - x0 - 40), GLANCE, colour)


def _draw_points(
    img: Image.Image,
    d: Draw,
    points: Mapping[str, Any],
    treasures: Any,
    x: float,
    y: float,
    size: int,
    pen: Pen = PEN,
) -> float:
    """Points by colour (tile icon + number) then treasures; returns the end x."""
    text = max(pen.floor, round(size * 0.85))
    for colour in TILE_ORDER:
        paste_centered(img, tile_sprite(colour, size), (x + size / 2, y))
        x += size + 8
        x += pen.text(d, (x, y), str(points.get(colour, 0)), text, TEXT, bold=True) + 22
    if treasures is not None:
        paste_centered(img, treasure_sprite(False, size), (x + size / 2, y))
        x += size + 8
        x += pen.text(d, (x, y), str(treasures), text, TEXT, bold=True)
    return x


@cache
def used_catastrophe_sprite(size: int) -> Image.Image:
    """A catastrophe already played: greyed and faded."""
    grey = catastrophe_sprite(size).convert("LA").convert("RGBA")
    alpha = grey.getchannel("A").point(lambda a: a * 35 // 100)
    grey.putalpha(alpha)
    return grey


def _draw_panel(
    img: Image.Image, view: View, seats: Sequence[Seat], lang: str, top: int = BOARD_H
) -> None:
    """Status row, conflict card (if any), then the player cards two per row, from
    ``top`` down (an image of the panel alone: 0; moved by an even number of pixels,
    rounding half to even puts every mark the same pixels down)."""
    d = ImageDraw.Draw(img)
    y = top
    _draw_status(img, d, view, seats, y, lang)
    y += STATUS_H
    if view.get("conflict"):
        _draw_conflict(img, d, view, seats, y, lang)
        y += CONFLICT_H + CARD_GAP
    card_h = _card_height(_scoring_open(view), bool(view.get("result")))
    card_w = (BOARD_W - 2 * PAD - CARD_GAP) // 2
    for i, seat in enumerate(seats):
        cx = PAD + (i % 2) * (card_w + CARD_GAP)
        cy = y + (i // 2) * (card_h + CARD_GAP)
        _draw_card(img, d, seat, (cx, cy, cx + card_w, cy + card_h), view, lang)
    rows = math.ceil(max(1, len(seats)) / 2)
    _draw_legend(img, d, y + rows * (card_h + CARD_GAP) + 28, lang)


#: the legend under the cards: two rows
LEGEND_H = 104


def _draw_legend(img: Image.Image, d: Draw, y: int, lang: str) -> None:
    """What the symbols are: each tile colour's kind; the leaders' letters, a
    catastrophe and a treasure."""
    x: float = PAD
    for colour in TILE_ORDER:
        paste_centered(img, tile_sprite(colour, 40), (x + 20, y))
        word = t(lang, f"tigris.render.legend.{colour}")
        x += 50 + PEN.text(d, (x + 50, y), word, GLANCE, TEXT_DIM, on=FRAME) + 34
    y += 52
    x = PAD
    for colour in LEADER_ORDER:
        token = leader_sprite(colour, (150, 150, 150), "", 44, letter=leader_letter(lang, colour))
        paste_centered(img, token, (x + 22, y))
        word = t(lang, f"tigris.leader.{colour}")
        x += 52 + PEN.text(d, (x + 52, y), word, GLANCE, TEXT_DIM, on=FRAME) + 26
    for sprite_, key in (
        (catastrophe_sprite(40), "tigris.render.legend.catastrophe"),
        (treasure_sprite(False, 36), "tigris.render.legend.treasure"),
    ):
        paste_centered(img, sprite_, (x + 20, y))
        x += 48 + PEN.text(d, (x + 48, y), t(lang, key), GLANCE, TEXT_DIM, on=FRAME) + 26


# --------------------------------------------------------------------------- API


def _compose(view: View, seats: Sequence[Seat], lang: str) -> Image.Image:
    """Background, board pieces and panel for the given seats, labels in ``lang``
    (already checked by :func:`image_language`)."""
    background = board_background(frozenset(view.get("river") or ()))
    img = Image.new("RGB", (BOARD_W, BOARD_H + _panel_height(view, len(seats))), FRAME)
    img.paste(background, (0, 0))
    colours = {s.seat: s.colour for s in seats}
    dynasties = {s.seat: s.dynasty for s in seats}
    _draw_board(img, view, colours, dynasties, lang)
    _draw_panel(img, view, seats, lang)
    return img


def draw_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> Image.Image:
    """The public image as an RGB Pillow image (``render_public`` encodes it)."""
    lang = image_language(lang)
    return _compose(view, _seats(view, players, font_stack(BIG, bold=True), lang), lang)


def render_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> bytes:
    """PNG of the public board, drawn from ``view`` alone, labels in ``lang``
    (English when the fonts cannot draw that language)."""
    lang = image_language(lang)
    seats = _seats(view, players, font_stack(BIG, bold=True), lang)
    palette = public_palette(tuple(sorted({s.colour for s in seats})))
    background = board_background(frozenset(view.get("river") or ()))
    colours = {s.seat: s.colour for s in seats}
    dynasties = {s.seat: s.dynasty for s in seats}
    ops = _board_ops(view, colours, dynasties, lang)
    board = _mapped_board(ops, background, palette)
    if board is None:
        return encode_png(_compose(view, seats, lang), palette)
    panel = Image.new("RGB", (BOARD_W, _panel_height(view, len(seats))), FRAME)
    _draw_panel(panel, view, seats, lang, top=0)
    out = board.crop((0, 0, BOARD_W, BOARD_H + panel.height))
    out.im.paste(panel.im.convert("P", Image.Dither.NONE, palette.im), (0, BOARD_H, *out.size))
    return encode_png(out)


# --------------------------------------------------------------------------- palette

#: Colours kept exact in the 8-bit PNG (large flat areas and key cues).
EXACT_COLOURS: tuple[RGB, ...] = (
    FRAME,
    CARD,
    CARD_ACTIVE,
    TEXT,
    TEXT_DIM,
    EDGE_TEXT,
    LAND,
    LAND_LINE,
    RIVER,
    RIVER_WAVE,
    HIGHLIGHT,
    CONFLICT_RING,
    GOLD,
    OUTLINE,
    FLIPPED,
    FLIPPED_HATCH,
    (255, 255, 255),
    *TILE_COLOURS.values(),
    *(mix(c, (255, 255, 255), 0.78) for c in TILE_COLOURS.values()),
)


@lru_cache(maxsize=64)
def public_palette(player_colours: tuple[RGB, ...]) -> Image.Image:
    """The 256-colour palette for boards with these player colours.

    Built once per colour set from a sample board holding every kind of piece,
    every leader of every seat, all monuments, a conflict and open scores.
    """
    seats = [
        Seat(i, "Wg", colour, DYNASTIES[i % len(DYNASTIES)], {})
        for i, colour in enumerate(player_colours or DEFAULT_PLAYER_COLOURS)
    ]
    view = _palette_view(len(seats))
    seats = [Seat(s.seat, s.name, s.colour, s.dynasty, view["players"][s.seat]) for s in seats]
    with unrecorded():
        sample = _compose(view, seats, DEFAULT_LANG)
    return build_palette(sample, [*EXACT_COLOURS, *player_colours])


def _palette_view(n_seats: int) -> dict[str, Any]:
    """A synthetic view containing one of everything (for :func:`public_palette`)."""
    land = [f"{COL_LETTERS[c]}{r + 1}" for r in range(9) for c in range(COLS)]
    land = [sq for sq in land if sq not in _RIVER_SQUARES]
    tiles = [{"sq": sq, "colour": "blue", "flipped": False} for sq in _RIVER_SQUARES[:3]]
    pairs = [(a, b) for i, a in enumerate(TILE_ORDER) for b in TILE_ORDER[i + 1 :]]
    monuments = []
    for i, pair in enumerate(pairs):
        col = 2 * i
        monuments.append({"sq": f"{COL_LETTERS[col]}10", "colours": list(pair)})
        for dc in (0, 1):
            for row in (10, 11):
                tiles.append(
                    {"sq": f"{COL_LETTERS[col + dc]}{row}", "colour": pair[0], "flipped": True}
                )
    cursor = iter(land)
    for colour in ("red", "green", "black", "red", "green", "black"):
        tiles.append({"sq": next(cursor), "colour": colour, "flipped": False})
    leaders = [
        {"sq": next(cursor), "colour": colour, "seat": seat}
        for seat in range(n_seats)
        for colour in LEADER_ORDER
    ]
    treasure_sqs = [t["sq"] for t in tiles[-4:]]
    return {
        "river": list(_RIVER_SQUARES),
        "tiles": tiles,
        "leaders": leaders,
        "catastrophes": [next(cursor), next(cursor)],
        "treasures": [{"sq": sq, "corner": i % 2 == 0} for i, sq in enumerate(treasure_sqs)],
        "monuments": monuments,
        "monuments_left": [list(p) for p in pairs],
        "unification": tiles[-1]["sq"],
        "last_action": {"seat": 0, "squares": [tiles[-2]["sq"]], "notation": "tile red A1"},
        "bag": 88,
        "treasures_left": 10,
        "turn": {"active_seat": 0, "actions_left": 2, "phase": "war_support", "waiting_for": [1]},
        "conflict": {
            "kind": "war",
            "colour": "black",
            "attacker_seat": 0,
            "defender_seat": 1 % n_seats,
            "attacker_sq": leaders[0]["sq"],
            "defender_sq": leaders[-1]["sq"],
            "attacker_base": 4,
            "defender_base": 3,
            "attacker_committed": 2,
            "defender_committed": 1,
        },
        "players": [
            {
                "seat": seat,
                "dynasty": DYNASTIES[seat % len(DYNASTIES)],
                "leaders_in_supply": ["black", "red"],
                "catastrophes": 1,
                "hand_size": 6,
                "points": {"red": 1, "blue": 2, "green": 3, "black": 4},
                "treasures": 1,
            }
            for seat in range(n_seats)
        ],
        "scoring": "open",
    }


#: The standard river (the sample board for the palette needs one; real boards
#: take theirs from the view).
_RIVER_SQUARES = tuple(
    f"{col}{row}"
    for row, cols in {
        1: "EFGHIM",
        2: "EM",
        3: "DEMN",
        4: "ABCDNOP",
        5: "OP",
        6: "O",
        7: "ABCDMNO",
        8: "DEFGM",
        9: "GHIJKLM",
    }.items()
    for col in cols
)


PRIVATE_W, PRIVATE_H = 1000, 480
#: the hand's text (1000 px wide: 9 px on a phone is 22 px here)
PRIVATE_PEN = Pen(PRIVATE_W)
HAND_TILE = 124
HAND_SLOTS = 6


def final_score(points: Mapping[str, int], treasures: int) -> int:
    """Weakest colour after adding each treasure to the currently lowest colour."""
    values = sorted(int(points.get(c, 0)) for c in TILE_ORDER)
    for _ in range(max(0, treasures)):
        values[0] += 1
        values.sort()
    return values[0]


def draw_private(view: View, player: PlayerLabel, lang: str = "en") -> Image.Image:
    """One player's hand, points by colour and treasures, as a Pillow image.

    The hand sits on a board-coloured tray (black tiles read badly on the dark
    frame); each tile is captioned with its colour name (and the word the
    ``tile`` command uses, when that differs). Empty hand slots are drawn as
    outlines.
    """
    lang = image_language(lang)
    seat_no = int(view.get("seat", player.seat))
    stack = font_stack(32, bold=True)
    seat = Seat(
        seat_no,
        clean_name(player.name, stack, t(lang, "tigris.render.player", number=seat_no + 1)),
        *_private_seat(view, player),
        {},
    )
    img = Image.new("RGB", (PRIVATE_W, PRIVATE_H), FRAME)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 10, img.height), fill=seat.colour)
    pen = PRIVATE_PEN
    end = _name_with_badge(img, d, 30, 44, seat, 32, PRIVATE_W - 300, pen)
    your_hand = "· " + t(lang, "tigris.render.your_hand")
    pen.text(d, (end + 16, 46), your_hand, 26, TEXT_DIM)
    _draw_hand(img, d, [str(c) for c in view.get("hand") or ()], lang)
    points = view.get("points") or {}
    treasures = int(view.get("treasures") or 0)
    heading = t(lang, "tigris.render.points")
    pen.text(d, (30, 346), heading, 26, TEXT_DIM)
    points_end = _draw_points(img, d, points, treasures, 30, 402, 52, pen)
    room = PRIVATE_W - 30 - points_end - 24
    score = t(lang, "tigris.render.score_now", score=final_score(points, treasures))
    score = pen.fit(score, 30, room, bold=True)
    hint = pen.fit(t(lang, "tigris.render.score_hint"), pen.floor, room)
    pen.text(d, (PRIVATE_W - 30, 384), score, 30, HIGHLIGHT, bold=True, anchor="rm")
    pen.text(d, (PRIVATE_W - 30, 422), hint, pen.floor, TEXT_DIM, anchor="rm")
    return img


def _draw_hand(img: Image.Image, d: Draw, hand: Sequence[str], lang: str) -> None:
    """Six slots on a tray: tiles with their colour name, or empty outlines."""
    d.rounded_rectangle((30, 88, PRIVATE_W - 30, 300), radius=16, fill=LAND)
    slot = (PRIVATE_W - 60) / HAND_SLOTS
    pen = PRIVATE_PEN
    for i in range(max(HAND_SLOTS, len(hand))):
        cx = 30 + slot * i + slot / 2
        if i < len(hand):
            paste_centered(img, tile_sprite(hand[i], HAND_TILE), (cx, 170))
            name = pen.fit(colour_name(lang, hand[i]), 26, slot - 8, bold=True)
            pen.text(d, (cx, 268), name, 26, OUTLINE, bold=True, anchor="mm")
        else:
            half = HAND_TILE / 2
            box = (cx - half, 170 - half, cx + half, 170 + half)
            d.rounded_rectangle(box, radius=14, outline=LAND_LINE, width=4)


def _private_seat(view: View, player: PlayerLabel) -> tuple[RGB, str]:
    """The colour and dynasty of the seat whose private view ``view`` is."""
    seat_no = int(view.get("seat", player.seat))
    colour = parse_hex_colour(player.colour, DEFAULT_PLAYER_COLOURS[seat_no % 4])
    return colour, str(view.get("dynasty") or DYNASTIES[seat_no % 4])


def render_private(view: View, player: PlayerLabel, lang: str = "en") -> bytes:
    """PNG of one player's hand (up to 6 tiles), points by colour and treasures,
    labels in ``lang`` (English when the fonts cannot draw that language), mapped
    onto the seat's palette (:func:`private_palette`)."""
    return encode_png(
        draw_private(view, player, lang), private_palette(*_private_seat(view, player))
    )


@lru_cache(maxsize=32)
def private_palette(colour: RGB, dynasty: str) -> Image.Image:
    """The 256-colour palette of the private views of a seat of ``colour`` and
    ``dynasty``: built once from a sample hand holding a tile of every colour, an
    empty slot, the seat's badge and every digit, with :data:`EXACT_COLOURS` and the
    seat's colour kept exact (antialiased edges map within a few levels of a channel)."""
    view = {
        "seat": 0,
        "dynasty": dynasty,
        "hand": list(TILE_ORDER),
        "points": {"red": 10, "blue": 23, "green": 45, "black": 67},
        "treasures": 89,
    }
    hex_colour = "#{:02x}{:02x}{:02x}".format(*colour)
    with unrecorded():
        sample = draw_private(view, PlayerLabel(0, "Wg", hex_colour), DEFAULT_LANG)
    return build_palette(sample, [*EXACT_COLOURS, colour])


# --------------------------------------------------------------------------- /rules


def render_rules(
    examples: Mapping[str, Any], kind: str, players: Sequence[PlayerLabel], lang: str = "en"
) -> bytes | None:
    """A picture of ``/rules``: ``board``, the example board with each kind of piece
    numbered and named below; ``scoring``, a hand and its points, the score read
    off them. None for another kind or a missing example."""
    lang = image_language(lang)
    view = examples.get(kind)
    if not view or not players:
        return None
    if kind == "board":
        view = {**view, "steps": [], "last_action": None}  # no step marks beside the callouts
        image = draw_public(view, players, lang)
        callouts = _board_callouts(view, lang)
    elif kind == "scoring":
        image = draw_private(view, players[0], lang)
        callouts = [
            Callout(60, 402, t(lang, "tigris.render.callout.points")),
            Callout(PRIVATE_W - 150, 384, t(lang, "tigris.render.callout.score")),
        ]
    else:
        return None
    colours = tuple(sorted({parse_hex_colour(p.colour, (128, 128, 128)) for p in players}))
    return encode_png(annotate(image, callouts), public_palette(colours))


def _board_callouts(view: View, lang: str) -> list[Callout]:
    """One callout per kind of piece the example board shows."""
    found: list[Callout] = []

    def at(sq: Any, words: str, dx: float = 0, dy: float = 0) -> None:
        origin = square_origin(sq) if isinstance(sq, str) else None
        if origin is not None:
            found.append(Callout(origin[0] + CELL / 2 + dx, origin[1] + CELL / 2 + dy, words))

    tiles = [tile for tile in view.get("tiles") or () if not tile.get("flipped")]
    for colour in TILE_ORDER:
        tile = next((tile for tile in tiles if tile.get("colour") == colour), None)
        if tile is not None:
            at(tile.get("sq"), t(lang, f"tigris.render.callout.{colour}"))
    leader = next(iter(view.get("leaders") or ()), None)
    if leader is not None:
        words = t(lang, f"tigris.leader.{leader.get('colour')}")
        at(leader.get("sq"), t(lang, "tigris.render.callout.leader", leader=words))
    taken = {tile.get("sq") for tile in view.get("tiles") or ()}
    river = next((sq for sq in view.get("river") or () if sq not in taken), None)
    at(river, t(lang, "tigris.render.callout.river"))
    for sq in (view.get("catastrophes") or ())[:1]:
        at(sq, t(lang, "tigris.render.legend.catastrophe"))
    for treasure in (view.get("treasures") or ())[:1]:
        at(treasure.get("sq"), t(lang, "tigris.render.legend.treasure"), CELL / 3, -CELL / 3)
    found.append(Callout(PAD + 40, BOARD_H + 32, t(lang, "tigris.render.callout.turn")))
    return found
