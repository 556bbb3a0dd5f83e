"""Temple Rush: the public round image and a seat's private preview (Pillow).

Input is the view schema of ``docs/temple_views.md`` and nothing else: the
public image is drawn from ``public_view`` alone, so it cannot show a sealed
move. Every rule result (which cells a card has, which bricks are new, the
score, what is missing) comes computed in the view; this module only draws.

Decisions recorded here:

* Layout for phones, top to bottom: a header (round, roller, whom the game
  waits for), the face-up cards with their values and names, the deck (its
  count and its visible top card) and a running lightning race; then one
  full-width board per player: name, score, die, tokens and winnings on the
  left, the build areas in the middle, supply and bonus bricks on the right.
  Always 1240 px wide; the height grows with the number of players.
* A build area shows its card's silhouette as a faint sand grid with column
  letters below and row numbers at the side (the cells the notation names),
  bottom-aligned like a building; cells outside the silhouette stay dark.
  Phone first: the letters and numbers are 24 px bold in 30 px bands (30 px
  cells), so a cell can still be named on a 412 px wide phone screen.
* Bricks: each length has its own colour *and* pattern (1 plain yellow,
  2 striped coral, 3 dotted blue, 4 banded teal) and studs on top, so
  lengths read without colour vision. Bricks laid at the last reveal get a
  white frame. In the private preview, the bricks of the sealed move are
  framed in cyan and bricks it takes away are drawn as red ghosts.
* Text: every word comes from the catalog (``temple.render.*``, card names
  ``temple.card.*``) in the ``lang`` the caller passes; a language the
  installed fonts cannot draw is replaced by English for the whole image
  (:func:`image_language`). Names go through :func:`renderer.common.clean_name`.
* Speed: card grids, bricks, dice and token icons are sprites drawn once
  (4x supersampled) and cached; a render pastes them and draws the text,
  then encodes an 8-bit PNG on a palette cached per set of player colours.
  For the PNG (:func:`render_public`) what a round draws over its frame layer
  is recorded (:class:`renderer.common.Recorder`, :class:`renderer.common.RecordingDraw`)
  and drawn by regions of :data:`REGION` px (:func:`renderer.common.mapped_by_regions`):
  a region of sprites and texts on a flat colour drawn and mapped before is pasted
  as it was mapped; one with a shape or another text is drawn in place. The PNG
  is the same, byte for byte, as the whole image mapped; :func:`draw_public`
  draws the whole image.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import PlayerLabel
from bot.i18n import DEFAULT_LANG, Text, catalog, t
from renderer.annotate import Callout, annotate, side_by_side
from renderer.common import (
    DEFAULT_PLAYER_COLOURS,
    RGB,
    Op,
    Recorder,
    RecordingDraw,
    build_palette,
    clean_name,
    drawable_language,
    encode_png,
    font_stack,
    mapped_by_regions,
    mix,
    parse_hex_colour,
    paste,
    readable_on,
    sprite,
    star_points,
)
from renderer.lettering import Pen

View = Mapping[str, Any]
Draw = ImageDraw.ImageDraw

# --------------------------------------------------------------------------- geometry

W = 1240
#: the image's text: 9 px on a phone's 412 px is 28 px here
PEN = Pen(W)
GLANCE = PEN.floor
BIG = PEN.px(10)
PAD = 16
COLUMNS = "ABCDEFGH"
GRID_COLS, GRID_ROWS = 8, 6
CELL = 44  # a cell of a player's build area
LABEL = 36  # the band of row numbers / column letters around an area (phone-legible)
CARD_CELL = 20  # a cell of a face-up card
TOP_CELL = 13  # a cell of the deck's visible top card
RACE_CELL = 22  # a cell of the raced lightning card
HEADER_H = 104  # the title, then whom the game waits for
CAPTION_H = 44  # the last revealed round in words, under the header
CARDS_H = 250
CARD_W = 232
AREA_W = GRID_COLS * CELL + LABEL
AREA_HEAD = 80  # an area's heading (name, then status) above its grid
TOP_ROWS_H = 116  # a board's two top rows: name, score, die, status; tokens, cards, supply
PANEL_GAP = 10
LEGEND_H = 110

# --------------------------------------------------------------------------- palette

FRAME = (27, 30, 37)
CARD = (42, 47, 57)
CARD_EDGE = (62, 68, 80)
TEXT = (240, 240, 240)
TEXT_DIM = (160, 166, 178)
SAND = (226, 203, 150)
SAND_LINE = (196, 170, 116)
SAND_DARK = (120, 100, 62)
CELL_OFF = (34, 38, 46)
GRID_TEXT = (140, 146, 158)
GOLD = (242, 190, 40)
GOLD_DARK = (110, 75, 0)
NEW_FRAME = (255, 255, 255)
PENDING = (0, 220, 255)
REMOVED = (235, 70, 70)
OK_GREEN = (90, 200, 120)
LIGHTNING = (255, 214, 10)
OUTLINE = (20, 20, 24)

LENGTH_COLOURS: dict[int, RGB] = {
    1: (242, 201, 76),
    2: (231, 111, 81),
    3: (69, 123, 190),
    4: (42, 157, 143),
}
TOKENS = ("hammer", "bag", "mortar")

# --------------------------------------------------------------------------- text

PHASE_KEYS = {
    "round": "temple.render.waiting",
    "bonus": "temple.render.bonus_wait",
    "race": "temple.render.race_wait",
}
#: a player's status by (phase, awaited): catalog key and colour
STATUS_KEYS: dict[tuple[str, bool], tuple[str, RGB]] = {
    ("round", False): ("temple.render.sealed", OK_GREEN),
    ("round", True): ("temple.render.thinking", TEXT_DIM),
    ("bonus", True): ("temple.render.choosing", GOLD),
    ("race", True): ("temple.render.racing", LIGHTNING),
    ("race", False): ("temple.render.gave_up", TEXT_DIM),
}
END_KEYS = {
    "complete": "temple.render.over.complete",
    "dead": "temple.render.over.dead",
    "expired": "temple.render.over.expired",
    "idle": "temple.render.over.idle",
}
TEXT_KEYS: tuple[str, ...] = (
    "temple.render.title",
    "temple.render.round",
    "temple.render.roller",
    *PHASE_KEYS.values(),
    *END_KEYS.values(),
    "temple.render.area",
    "temple.render.no_card",
    "temple.render.completed",
    "temple.render.deck",
    "temple.render.deck_empty",
    "temple.render.next",
    "temple.render.score",
    *(key for key, _ in STATUS_KEYS.values()),
    "temple.render.supply",
    "temple.render.bonus",
    "temple.render.to_go",
    "temple.render.complete",
    "temple.render.rounds_left",
    "temple.render.relay",
    "temple.render.joint",
    "temple.render.race",
    "temple.render.skipped",
    "temple.render.your_move",
    "temple.render.no_move",
    "temple.render.incomplete",
    "temple.render.player",
    "temple.render.lightning",
    "temple.render.place",
    "temple.render.place_score",
    "temple.render.tiebreak",
    "temple.render.breakdown",
    "temple.render.legend.brick",
    "temple.render.callout.card",
    "temple.render.callout.match",
    "temple.render.callout.miss",
    "temple.render.callout.card_here",
    "temple.render.callout.deck",
    "temple.render.callout.area",
    "temple.render.callout.tokens",
    "temple.render.callout.supply",
    *(f"temple.token.{token}" for token in TOKENS),
)


def image_language(lang: str | None) -> str:
    """``lang`` when the fonts can draw every label of it, card names included, else
    English."""
    return drawable_language(lang, _label_keys())


@cache
def _label_keys() -> tuple[str, ...]:
    """The catalog keys of every label an image may draw (looked up once: the
    catalog's keys do not change while the bot runs)."""
    cards = (k for k in catalog(DEFAULT_LANG) if k.startswith("temple.card."))
    return (*TEXT_KEYS, *cards)


def card_name(lang: str, card_id: str) -> str:
    return t(lang, f"temple.card.{card_id}")


# --------------------------------------------------------------------------- seats


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    colour: RGB


def _seats(view: View, players: Sequence[PlayerLabel], lang: str) -> list[Seat]:
    by_seat = {p.seat: p for p in players}
    stack = font_stack(28, bold=True)
    seats: list[Seat] = []
    for entry in view.get("players") or ():
        number = int(entry.get("seat", len(seats)))
        label = by_seat.get(number)
        fallback = t(lang, "temple.render.player", number=number + 1)
        name = clean_name(label.name, stack, fallback) if label else fallback
        default = DEFAULT_PLAYER_COLOURS[number % len(DEFAULT_PLAYER_COLOURS)]
        colour = parse_hex_colour(label.colour if label else None, default)
        seats.append(Seat(number, name, colour))
    return seats


# --------------------------------------------------------------------------- sprites


def _stripes(d: Draw, box: tuple[float, float, float, float], colour: RGB, k: float) -> None:
    x0, y0, x1, y1 = box
    step = 7 * k
    x = x0 - (y1 - y0)
    while x < x1:
        d.line((x, y1, x + (y1 - y0), y0), fill=colour, width=round(2 * k))
        x += step


@cache
def brick_sprite(length: int, cell: int, mark: str = "") -> Image.Image:
    """A brick seen from the front: studs on top, its length's colour and pattern.

    ``mark``: ``"new"`` (white frame), ``"pending"`` (cyan frame) or
    ``"removed"`` (a red ghost)."""
    width, height = length * cell, cell
    fill = LENGTH_COLOURS.get(length, (150, 150, 150))
    dark = mix(fill, OUTLINE, 0.45)
    light = mix(fill, (255, 255, 255), 0.45)

    def paint(d: Draw, k: float) -> None:
        stud_h = height * 0.18 * k
        body = (k * 1, stud_h, width * k - k * 1, height * k - k * 1)
        if mark == "removed":
            d.rounded_rectangle(body, radius=3 * k, outline=REMOVED, width=round(2.5 * k))
            d.line((body[0], body[1], body[2], body[3]), fill=REMOVED, width=round(2 * k))
            d.line((body[0], body[3], body[2], body[1]), fill=REMOVED, width=round(2 * k))
            return
        for i in range(length):
            cx = (i + 0.5) * cell * k
            half = cell * 0.22 * k
            d.rounded_rectangle(
                (cx - half, k * 1, cx + half, stud_h + 2 * k), radius=2 * k, fill=dark
            )
            d.rounded_rectangle(
                (cx - half + k, k * 2, cx + half - k, stud_h + 2 * k), radius=2 * k, fill=fill
            )
        d.rounded_rectangle(body, radius=3 * k, fill=dark)
        inner = (body[0] + 2 * k, body[1] + 2 * k, body[2] - 2 * k, body[3] - 2 * k)
        d.rounded_rectangle(inner, radius=2 * k, fill=fill)
        if length == 2:
            _stripes(d, inner, light, k)
        elif length == 3:
            r = cell * 0.09 * k
            cy = (inner[1] + inner[3]) / 2
            for i in range(length * 2):
                cx = (i + 0.5) * cell * k / 2
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=light)
        elif length == 4:
            cy = (inner[1] + inner[3]) / 2
            band = cell * 0.12 * k
            d.rectangle((inner[0], cy - band, inner[2], cy + band), fill=light)
        # re-cut the rim over the pattern, then the seams between cells
        d.rounded_rectangle(body, radius=3 * k, outline=dark, width=round(2 * k))
        if mark == "new":
            d.rounded_rectangle(body, radius=3 * k, outline=NEW_FRAME, width=round(3 * k))
        elif mark == "pending":
            d.rounded_rectangle(body, radius=3 * k, outline=PENDING, width=round(3.5 * k))

    return sprite(width, height, paint)


@cache
def area_grid(
    cells: tuple[tuple[int, int], ...], width: int, height: int, cell: int = CELL
) -> Image.Image:
    """A card's silhouette as a faint grid with row numbers (left) and column
    letters (below) in ``LABEL`` px bands (the names the notation uses);
    transparent elsewhere."""
    img = Image.new("RGBA", (LABEL + width * cell, height * cell + LABEL), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    filled = set(cells)
    for x in range(width):
        for y in range(height):
            left, top = LABEL + x * cell, (height - 1 - y) * cell
            box = (left, top, left + cell - 1, top + cell - 1)
            if (x, y) in filled:
                d.rectangle(box, fill=SAND, outline=SAND_LINE)
            else:
                d.rectangle(box, fill=CELL_OFF)
    size = max(GLANCE, round(min(LABEL * 0.8, cell * 0.85)))
    for x in range(width):
        centre = (LABEL + x * cell + cell / 2, height * cell + LABEL / 2)
        PEN.text(d, centre, COLUMNS[x], size, GRID_TEXT, bold=True, anchor="mm")
    for y in range(height):
        centre = (LABEL / 2, (height - 1 - y) * cell + cell / 2)
        PEN.text(d, centre, str(y + 1), size, GRID_TEXT, bold=True, anchor="mm")
    return img


@cache
def card_art(
    cells: tuple[tuple[int, int], ...], width: int, height: int, cell: int, lightning: bool
) -> Image.Image:
    """A face-up card's temple: sandstone blocks (gold for the lightning card)."""
    fill = LIGHTNING if lightning else SAND
    edge = mix(fill, OUTLINE, 0.35)

    def paint(d: Draw, k: float) -> None:
        for x, y in cells:
            left, top = x * cell * k, (height - 1 - y) * cell * k
            d.rectangle((left, top, left + cell * k - 1, top + cell * k - 1), fill=edge)
            d.rectangle(
                (left + k, top + k, left + cell * k - 1 - k, top + cell * k - 1 - k), fill=fill
            )

    return sprite(width * cell, height * cell, paint)


def _pip_spots(face: int) -> list[tuple[float, float]]:
    return {
        1: [(0.5, 0.5)],
        2: [(0.28, 0.28), (0.72, 0.72)],
        3: [(0.26, 0.26), (0.5, 0.5), (0.74, 0.74)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    }.get(face, [])


@cache
def die_sprite(face: str, size: int, colour: RGB) -> Image.Image:
    """A die showing ``face`` (1–4 pips, or a gold star), rimmed in ``colour``."""

    def paint(d: Draw, k: float) -> None:
        full = size * k
        d.rounded_rectangle((0, 0, full - 1, full - 1), radius=9 * k, fill=colour)
        inset = 3.5 * k
        d.rounded_rectangle(
            (inset, inset, full - inset, full - inset), radius=7 * k, fill=(250, 248, 240)
        )
        if face == "star":
            d.polygon(star_points(full / 2, full / 2 + k, full * 0.36, full * 0.15), fill=GOLD)
            d.polygon(
                star_points(full / 2, full / 2 + k, full * 0.36, full * 0.15),
                outline=GOLD_DARK,
                width=round(1.5 * k),
            )
            return
        r = full * 0.085
        for fx, fy in _pip_spots(int(face) if face.isdigit() else 0):
            d.ellipse((fx * full - r, fy * full - r, fx * full + r, fy * full + r), fill=OUTLINE)

    return sprite(size, size, paint)


def _hammer(d: Draw, s: float, fg: RGB) -> None:
    d.line((s * 0.25, s * 0.85, s * 0.62, s * 0.42), fill=(150, 105, 60), width=round(s * 0.11))
    d.polygon(
        [(s * 0.42, s * 0.3), (s * 0.6, s * 0.12), (s * 0.88, s * 0.4), (s * 0.7, s * 0.58)],
        fill=fg,
    )


def _bag(d: Draw, s: float, fg: RGB) -> None:
    d.ellipse((s * 0.16, s * 0.34, s * 0.84, s * 0.92), fill=(170, 125, 70))
    d.polygon(
        [(s * 0.34, s * 0.38), (s * 0.5, s * 0.12), (s * 0.66, s * 0.38)], fill=(170, 125, 70)
    )
    d.line((s * 0.33, s * 0.36, s * 0.67, s * 0.36), fill=fg, width=round(s * 0.07))


def _mortar(d: Draw, s: float, fg: RGB) -> None:
    d.polygon([(s * 0.12, s * 0.52), (s * 0.55, s * 0.15), (s * 0.62, s * 0.62)], fill=fg)
    d.line((s * 0.58, s * 0.5, s * 0.86, s * 0.82), fill=(150, 105, 60), width=round(s * 0.11))


_TOKEN_ICONS = {"hammer": _hammer, "bag": _bag, "mortar": _mortar}


@cache
def token_sprite(token: str, size: int, unused: bool) -> Image.Image:
    """A power token: a disc with its tool; a used one is dim and struck out."""

    def paint(d: Draw, k: float) -> None:
        full = size * k
        ring = (200, 200, 210) if unused else (80, 84, 94)
        d.ellipse((0, 0, full - 1, full - 1), fill=ring)
        d.ellipse((2 * k, 2 * k, full - 2 * k, full - 2 * k), fill=(58, 63, 74))
        icon = _TOKEN_ICONS.get(token)
        if icon is not None:
            icon(d, full, (205, 210, 220) if unused else (95, 100, 110))
        if not unused:
            d.line(
                (full * 0.18, full * 0.82, full * 0.82, full * 0.18),
                fill=REMOVED,
                width=round(3 * k),
            )

    return sprite(size, size, paint)


@cache
def bolt_sprite(size: int) -> Image.Image:
    """The lightning symbol."""

    def paint(d: Draw, k: float) -> None:
        s = size * k
        d.polygon(
            [
                (s * 0.58, 0),
                (s * 0.18, s * 0.56),
                (s * 0.46, s * 0.56),
                (s * 0.36, s),
                (s * 0.84, s * 0.38),
                (s * 0.54, s * 0.38),
                (s * 0.7, 0),
            ],
            fill=LIGHTNING,
            outline=OUTLINE,
            width=round(1.5 * k),
        )

    return sprite(size, size, paint)


@cache
def chip_sprite(value: int, lightning: bool, token: bool) -> Image.Image:
    """A won card (a small card with its value) or a score token (a coin)."""
    size = 38

    def paint(d: Draw, k: float) -> None:
        full = size * k
        if token:
            d.ellipse((0, 0, full - 1, full - 1), fill=GOLD_DARK)
            d.ellipse((2 * k, 2 * k, full - 2 * k, full - 2 * k), fill=GOLD)
        else:
            fill = LIGHTNING if lightning else SAND
            d.rounded_rectangle((2 * k, 0, full - 2 * k, full - 1), radius=4 * k, fill=SAND_DARK)
            d.rounded_rectangle((4 * k, 2 * k, full - 4 * k, full - 2 * k), radius=3 * k, fill=fill)
        PEN.text(d, (full / 2, full / 2), str(value), GLANCE, OUTLINE, bold=True, anchor="mm", k=k)

    return sprite(size, size, paint)


# --------------------------------------------------------------------------- drawing


def _card_cells(card: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    return tuple((int(c[0]), int(c[1])) for c in card.get("cells") or ())


def _value_badge(d: Draw, cx: float, cy: float, value: int, r: float = 20) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD_DARK)
    d.ellipse((cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2), fill=GOLD)
    PEN.text(d, (cx, cy + 1), str(value), GLANCE, OUTLINE, bold=True, anchor="mm")


def _draw_header(
    img: Image.Image, d: Draw, view: View, seats: Sequence[Seat], lang: str, title: str
) -> None:
    """The title, then (below it) whom the game waits for, or how it ended."""
    names = {s.seat: PEN.fit(s.name, GLANCE, 230) for s in seats}  # short names here
    PEN.text(d, (PAD, 30), title, PEN.px(11), TEXT, bold=True, on=FRAME)
    phase = str(view.get("phase") or "")
    if phase == "over":
        key = END_KEYS.get(str(view.get("end_reason")), "temple.render.over.complete")
        status = t(lang, key)
        colour = GOLD
    else:
        waiting = ", ".join(names.get(int(s), "?") for s in view.get("waiting_for") or ())
        status = t(lang, PHASE_KEYS.get(phase, "temple.render.waiting"), names=waiting)
        if phase == "round" and int(view.get("roller", -1)) in names:
            rolled = t(lang, "temple.render.roller", name=names[int(view["roller"])])
            status = f"{rolled} · {status}"
        colour = LIGHTNING if phase == "race" else TEXT_DIM
    PEN.text(d, (PAD, 76), PEN.fit(status, GLANCE, W - 2 * PAD), GLANCE, colour, on=FRAME)


def _draw_card_tile(
    img: Image.Image,
    d: Draw,
    box: tuple[int, int, int, int],
    card: Mapping[str, Any] | None,
    heading: str,
    footer: str,
    lang: str,
    race: bool = False,
    framed: bool = False,
) -> None:
    """A face-up card: heading (its area), name, value, the temple, a footer.
    The raced lightning card is gold-framed and drawn as a labelled grid:
    players write their layout from it. ``framed``: its frame is on the canvas."""
    x0, y0, x1, y1 = box
    if not framed:
        _card_frame(d, box, race)
    hx = x0 + 12
    if race:
        paste(img, bolt_sprite(26), (hx - 2, y0 + 8))
        hx += 28
    PEN.text(d, (hx, y0 + 24), PEN.fit(heading, GLANCE, x1 - hx - 50), GLANCE, TEXT_DIM, on=CARD)
    if card is None:
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        PEN.text(
            d, centre, t(lang, "temple.render.no_card"), GLANCE, TEXT_DIM, anchor="mm", on=CARD
        )
        return
    _value_badge(d, x1 - 26, y0 + 26, int(card.get("value") or 0))
    if card.get("lightning"):
        name = t(lang, "temple.render.lightning")
    else:
        name = card_name(lang, str(card.get("id")))
    name = PEN.fit(name, GLANCE, x1 - x0 - 24, bold=True)
    PEN.text(d, (x0 + 12, y0 + 60), name, GLANCE, TEXT, bold=True, on=CARD)
    cells = _card_cells(card)
    width, height = int(card.get("width") or 0), int(card.get("height") or 0)
    if race:
        grid = area_grid(cells, width, height, RACE_CELL)
        paste(img, grid, ((x0 + x1 - grid.width - LABEL) / 2, y1 - 10 - grid.height))
        return
    art = card_art(cells, width, height, CARD_CELL, bool(card.get("lightning")))
    paste(img, art, ((x0 + x1 - art.width) / 2, y1 - 44 - art.height))
    if footer:
        footer = PEN.fit(footer, GLANCE, x1 - x0 - 12)
        PEN.text(d, ((x0 + x1) / 2, y1 - 22), footer, GLANCE, TEXT_DIM, anchor="mm", on=CARD)


def _card_frame(d: Draw, box: tuple[int, int, int, int], race: bool = False) -> None:
    """A card's (or the deck's) frame: the raced card's gold."""
    outline, width = (LIGHTNING, 3) if race else (CARD_EDGE, 1)
    d.rounded_rectangle(box, radius=12, fill=CARD, outline=outline, width=width)


def _draw_deck(
    img: Image.Image,
    d: Draw,
    box: tuple[int, int, int, int],
    deck: View,
    lang: str,
    framed: bool = False,
) -> None:
    """The deck: a little stack, how many cards are left, and its visible top card
    (``framed``: its frame is on the canvas)."""
    x0, y0, x1, y1 = box
    if not framed:
        _card_frame(d, box)
    count = int(deck.get("count") or 0)
    for i in range(min(count, 5)):
        stack_box = (x0 + 14 + i * 3, y0 + 14 - i * 2, x0 + 44 + i * 3, y0 + 54 - i * 2)
        d.rounded_rectangle(stack_box, radius=4, fill=SAND_DARK, outline=OUTLINE)
    label = (
        t(lang, "temple.render.deck", count=count) if count else t(lang, "temple.render.deck_empty")
    )
    label = PEN.fit(label, BIG, x1 - x0 - 80, bold=True)
    PEN.text(d, (x0 + 70, y0 + 34), label, BIG, TEXT, bold=True, on=CARD)
    top = deck.get("top")
    if not top:
        return
    lightning = bool(top.get("lightning"))
    name = card_name(lang, str(top.get("id")))
    if lightning:
        name = t(lang, "temple.render.lightning")
    text = PEN.fit(f"{t(lang, 'temple.render.next')}: {name}", GLANCE, x1 - x0 - 70)
    PEN.text(d, (x0 + 14, y0 + 86), text, GLANCE, TEXT_DIM, on=CARD)
    _value_badge(d, x1 - 28, y0 + 86, int(top.get("value") or 0))
    width, height = int(top.get("width") or 0), int(top.get("height") or 0)
    art = card_art(_card_cells(top), width, height, TOP_CELL, lightning)
    paste(img, art, ((x0 + x1 - art.width) / 2, y1 - 14 - art.height))


def _card_boxes(top: int, race: bool, slots: int) -> list[tuple[int, int, int, int]]:
    """Where the face-up cards, the raced card (during a race) and the deck go."""
    y0, y1 = top + 12, top + CARDS_H - 8
    lefts = [PAD + i * (CARD_W + 12) for i in range(slots + race)]
    boxes = [(x, y0, x + CARD_W, y1) for x in lefts]
    deck_x = lefts[-1] + CARD_W + 12 if lefts else PAD
    return [*boxes, (deck_x, y0, W - PAD, y1)]


def _draw_cards(
    img: Image.Image, d: Draw, view: View, lang: str, top: int = HEADER_H, framed: bool = False
) -> None:
    """The face-up cards, the raced lightning card (during a race) and the deck
    (``framed``: their frames are on the canvas)."""
    y0, y1 = top + 12, top + CARDS_H - 8
    x = PAD
    for slot in view.get("slots") or ():
        card = slot.get("card")
        left = slot.get("rounds_left")
        footer = (
            "" if card is None or left is None else t(lang, "temple.render.rounds_left", count=left)
        )
        heading = t(lang, "temple.render.area", area=int(slot.get("area", 0)) + 1)
        box = (x, y0, x + CARD_W, y1)
        _draw_card_tile(img, d, box, card, heading, footer, lang, framed=framed)
        x += CARD_W + 12
    race = view.get("race")
    if race:
        heading = t(lang, "temple.render.race", number=race.get("number", 1))
        skipped = len(race.get("skipped") or ())
        footer = t(lang, "temple.render.skipped", count=skipped) if skipped else ""
        box = (x, y0, x + CARD_W, y1)
        card = race.get("card")
        _draw_card_tile(img, d, box, card, heading, footer, lang, race=True, framed=framed)
        x += CARD_W + 12
    _draw_deck(img, d, (x, y0, W - PAD, y1), view.get("deck") or {}, lang, framed)


def _draw_area(
    img: Image.Image,
    d: Draw,
    x: int,
    y: int,
    rows: int,
    area: Mapping[str, Any],
    lang: str,
    pending: Sequence[int] | None = None,
) -> None:
    """One build area: name, status, silhouette grid and bricks; ``(x, y)`` is
    its top-left. The grid stands on the area's ground line. An area whose
    temple the player just completed shows the bricks to choose the bonus from."""
    number = int(area.get("area", 0)) + 1
    card_id = area.get("card")
    grid_top = y + AREA_HEAD
    if card_id is None:
        heading = t(lang, "temple.render.area", area=number)
        PEN.text(d, (x, y + 18), heading, GLANCE, TEXT_DIM, bold=True, on=CARD)
        box = (x + LABEL, grid_top, x + AREA_W, grid_top + rows * CELL)
        d.rounded_rectangle(box, radius=8, outline=CARD_EDGE)
        centre_x, centre_y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if pending is None:
            no_card = t(lang, "temple.render.no_card")
            PEN.text(d, (centre_x, centre_y), no_card, GLANCE, TEXT_DIM, anchor="mm", on=CARD)
            return
        done = t(lang, "temple.render.completed")
        done = PEN.fit(done, GLANCE, box[2] - box[0] - 8, bold=True)
        PEN.text(
            d, (centre_x, centre_y - 22), done, GLANCE, OK_GREEN, bold=True, anchor="mm", on=CARD
        )
        bricks = [brick_sprite(int(k), 20) for k in pending]
        bx = centre_x - (sum(b.width for b in bricks) + 6 * (len(bricks) - 1)) / 2
        for brick in bricks:
            paste(img, brick, (bx, centre_y + 6))
            bx += brick.width + 6
        return
    room = AREA_W - (40 if area.get("mortar") else 0)
    heading = PEN.fit(f"{number} · {card_name(lang, str(card_id))}", GLANCE, room, bold=True)
    PEN.text(d, (x, y + 18), heading, GLANCE, TEXT, bold=True, on=CARD)
    if area.get("mortar"):
        paste(img, token_sprite("mortar", 36, True), (x + AREA_W - 36, y))
    if area.get("matches"):
        status, colour = t(lang, "temple.render.complete"), OK_GREEN
    else:
        status, colour = t(lang, "temple.render.to_go", count=area.get("missing", 0)), TEXT_DIM
    end = x + PEN.text(d, (x, y + 54), status, GLANCE, colour, on=CARD)
    for flag, key, tint in (
        ("relay", "temple.render.relay", PENDING),
        ("joint", "temple.render.joint", GOLD),
    ):
        if area.get(flag):
            label = PEN.fit("· " + t(lang, key), GLANCE, x + AREA_W - end - 6)
            end += 6 + PEN.text(d, (end + 6, y + 54), label, GLANCE, tint, on=CARD)
    width, height = int(area.get("width") or 0), int(area.get("height") or 0)
    grid = area_grid(_card_cells(area), width, height)
    gx = x + (AREA_W - grid.width) // 2
    gy = grid_top + (rows - height) * CELL
    paste(img, grid, (gx, gy))
    origin_x, ground = gx + LABEL, gy + height * CELL
    for brick in area.get("bricks") or ():
        mark = "pending" if brick.get("pending") else "new" if brick.get("new") else ""
        _paste_brick(img, brick, origin_x, ground, mark)
    for brick in area.get("removed") or ():
        _paste_brick(img, brick, origin_x, ground, "removed")


def _paste_brick(
    img: Image.Image, brick: Mapping[str, Any], origin_x: int, ground: int, mark: str
) -> None:
    length = int(brick.get("length") or 1)
    bx = origin_x + int(brick.get("x") or 0) * CELL
    by = ground - (int(brick.get("y") or 0) + 1) * CELL
    paste(img, brick_sprite(length, CELL, mark), (bx, by))


def _draw_supply(
    img: Image.Image, d: Draw, x: float, y: float, player: Mapping[str, Any], lang: str
) -> float:
    """Supply counts by length (a small brick of each length and its count), then
    the bonus bricks, on one row centred on ``y``; returns the end x."""
    small = 13
    x += 12 + PEN.text(d, (x, y), t(lang, "temple.render.supply"), GLANCE, TEXT_DIM, on=CARD)
    supply = player.get("supply") or {}
    for length in (4, 3, 2, 1):
        count = int(supply.get(str(length), 0))
        paste(img, brick_sprite(length, small), (x, y - small / 2))
        x += length * small + 4
        colour = TEXT if count else TEXT_DIM
        x += PEN.text(d, (x, y), f"×{count}", GLANCE, colour, bold=True, on=CARD) + 16
    bonus = [int(v) for v in player.get("bonus") or ()]
    if bonus:
        x += (
            8
            + PEN.text(d, (x + 8, y), t(lang, "temple.render.bonus"), GLANCE, TEXT_DIM, on=CARD)
            + 10
        )
        for length in bonus:
            if x + length * small > W - PAD - 16:
                break
            paste(img, brick_sprite(length, small), (x, y - small / 2))
            x += length * small + 4
    return x


def grid_rows(players: Sequence[Mapping[str, Any]]) -> int:
    """The height in cells of the tallest card above an area (all boards share it)."""
    heights = [int(a.get("height") or 0) for p in players for a in p.get("areas") or ()]
    return max([3, *heights])


def panel_height(rows: int) -> int:
    """A player's board: its two top rows, then the areas with their grids."""
    return TOP_ROWS_H + AREA_HEAD + rows * CELL + LABEL + 16


def _draw_player(
    img: Image.Image,
    d: Draw,
    y: int,
    rows: int,
    seat: Seat,
    player: Mapping[str, Any],
    view: View,
    lang: str,
    framed: bool = False,
) -> None:
    """One player's board, full width: name, score, die and status; tokens, cards
    won and supply; then the three build areas side by side (or, at the end, the
    place and where the points came from). ``framed``: its panel is on the canvas."""
    height = panel_height(rows)
    waiting = {int(s) for s in view.get("waiting_for") or ()}
    if not framed:
        _panel(d, y, rows, seat.colour)
    x: float = PAD + 22
    line1, line2 = y + 32, y + 84
    total = (player.get("score") or {}).get("total", 0)
    score = t(lang, "temple.render.score", score=total)
    score_w = PEN.width_of(score, BIG, bold=True)
    name = PEN.fit(seat.name, BIG, 420, bold=True)
    x += PEN.text(d, (x, line1), name, BIG, TEXT, bold=True, on=CARD) + 24
    x += PEN.text(d, (x, line1), score, BIG, GOLD, bold=True, on=CARD) + 24
    face = player.get("die")
    if face:
        paste(img, die_sprite(str(face), 44, seat.colour), (x, line1 - 22))
        x += 56
    status = STATUS_KEYS.get((str(view.get("phase")), seat.seat in waiting))
    if status is not None:
        key, tint = status
        text = PEN.fit(t(lang, key), GLANCE, W - PAD - 16 - x, bold=tint != TEXT_DIM)
        PEN.text(d, (x, line1), text, GLANCE, tint, bold=tint != TEXT_DIM, on=CARD)
    del score_w
    x = PAD + 22
    tokens = player.get("tokens") or {}
    for token in TOKENS:
        paste(img, token_sprite(token, 40, bool(tokens.get(token))), (x, line2 - 20))
        x += 46
    x += 10
    chips = [
        chip_sprite(int(w.get("value") or 0), w.get("id") == "lightning", False)
        for w in player.get("won") or ()
    ] + [chip_sprite(int(v), False, True) for v in player.get("score_tokens") or ()]
    for chip in chips[:8]:
        paste(img, chip, (x, line2 - chip.height / 2))
        x += chip.width + 4
    _draw_supply(img, d, max(x + 24, 560), line2, player, lang)
    top = y + TOP_ROWS_H
    places = (view.get("result") or {}).get("places") or {}
    if str(seat.seat) in places:
        result = view.get("result") or {}
        best = (result.get("tiebreak") or {}).get(str(seat.seat))
        place = int(places[str(seat.seat)])
        _draw_final(d, PAD + 22, W - PAD - 16, top, y + height - top, place, player, lang, best)
        return
    areas = list(player.get("areas") or ())
    left, right = PAD + 16, W - PAD - 16
    gap = (right - left - 3 * AREA_W) / 2  # three places; two areas take the first two
    pending = {
        int(p.get("area", 0)): p.get("lengths") or [] for p in player.get("pending_bonus") or ()
    }
    for i, area in enumerate(areas):
        ax = round(left + i * (AREA_W + gap))
        number = int(area.get("area", i))
        _draw_area(img, d, ax, top, rows, area, lang, pending.get(number))


def _panel(d: Draw, y: int, rows: int, colour: RGB) -> None:
    """A player's panel at ``y``, with the seat's colour down its left edge."""
    height = panel_height(rows)
    d.rounded_rectangle((PAD, y, W - PAD, y + height), radius=12, fill=CARD, outline=CARD_EDGE)
    d.rounded_rectangle((PAD, y, PAD + 8, y + height), radius=4, fill=colour)


def _draw_final(
    d: Draw,
    left: int,
    right: int,
    y: int,
    height: int,
    place: int,
    player: Mapping[str, Any],
    lang: str,
    tiebreak: int | None = None,
) -> None:
    """At the end, a board shows the player's place, score and where the points
    came from; a score tied with another's also shows the tie-break (best card)."""
    score = player.get("score") or {}
    cx, cy = left + 60, y + height / 2
    colour = GOLD if place == 1 else TEXT_DIM
    d.ellipse((cx - 48, cy - 48, cx + 48, cy + 48), outline=colour, width=4)
    PEN.text(d, (cx, cy), str(place), PEN.px(15), colour, bold=True, anchor="mm", on=CARD)
    label = t(lang, "temple.render.place_score", place=place, score=score.get("total", 0))
    x = left + 140 + PEN.text(d, (left + 140, cy - 26), label, BIG, TEXT, bold=True, on=CARD)
    if tiebreak is not None:
        text = PEN.fit(t(lang, "temple.render.tiebreak", value=tiebreak), GLANCE, right - x - 16)
        PEN.text(d, (x + 16, cy - 26), text, GLANCE, GOLD, bold=True, on=CARD)
    parts = t(
        lang,
        "temple.render.breakdown",
        cards=score.get("cards", 0),
        tokens=score.get("tokens", 0),
        bonus=score.get("bonus", 0),
        unused=score.get("unused", 0),
    )
    PEN.text(
        d,
        (left + 140, cy + 22),
        PEN.fit(parts, GLANCE, right - left - 150),
        GLANCE,
        TEXT_DIM,
        on=CARD,
    )


def _draw_legend(img: Image.Image, d: Draw, y: float, lang: str) -> None:
    """What the symbols are: a brick of each length, the three power tokens."""
    x: float = PAD
    for length in (1, 2, 3, 4):
        paste(img, brick_sprite(length, 16), (x, y - 8))
        x += length * 16 + 8
        word = t(lang, "temple.render.legend.brick", length=length)
        x += PEN.text(d, (x, y), word, GLANCE, TEXT_DIM) + 26
    x, y = PAD, y + 48
    for token in TOKENS:
        paste(img, token_sprite(token, 36, True), (x, y - 18))
        x += 42 + PEN.text(d, (x + 42, y), t(lang, f"temple.token.{token}"), GLANCE, TEXT_DIM)
        x += 26


@lru_cache(maxsize=2)
def _frame_layer(
    height: int,
    top: int,
    cards: tuple[tuple[tuple[int, int, int, int], bool], ...],
    panels: tuple[tuple[int, RGB], ...],
    rows: int,
    legend: int,
    lang: str,
) -> Image.Image:
    """What a round's image draws the same every round, drawn once: the background,
    the rules under the header and the caption, the cards' and the deck's frames
    (``cards``: box, raced), the players' panels (``panels``: top, seat colour) and
    the legend at ``legend``. A round's image starts from a copy (two layouts kept:
    ~7 MB each)."""
    img = Image.new("RGB", (W, height), FRAME)
    d = ImageDraw.Draw(img)
    d.line((PAD, HEADER_H - 2, W - PAD, HEADER_H - 2), fill=CARD_EDGE, width=2)
    if top != HEADER_H:
        d.line((PAD, top - 2, W - PAD, top - 2), fill=CARD_EDGE, width=2)
    for box, race in cards:
        _card_frame(d, box, race)
    for y, colour in panels:
        _panel(d, y, rows, colour)
    _draw_legend(img, d, legend, lang)
    return img


def _compose(
    view: View, seats: Sequence[Seat], lang: str, ops: list[Op] | None = None
) -> Image.Image:
    """The round's image; with ``ops``, its frame layer (not to be changed), what is
    drawn over it recorded into ``ops`` (:func:`render_public`)."""
    players = list(view.get("players") or ())
    rows = grid_rows(players)
    caption = caption_text(view, seats, lang)
    top = HEADER_H + (CAPTION_H if caption else 0)
    height = top + CARDS_H + len(players) * (panel_height(rows) + PANEL_GAP) + LEGEND_H + PAD
    race = bool(view.get("race"))
    boxes = _card_boxes(top, race, len(view.get("slots") or ()))
    cards = tuple((box, race and i == len(boxes) - 2) for i, box in enumerate(boxes))
    by_seat = {s.seat: s for s in seats}
    boards = [
        (by_seat[int(p.get("seat", 0))], p) for p in players if int(p.get("seat", 0)) in by_seat
    ]
    step = panel_height(rows) + PANEL_GAP
    panels = tuple((top + CARDS_H + i * step, seat.colour) for i, (seat, _) in enumerate(boards))
    legend = top + CARDS_H + len(boards) * step + 24
    frame = _frame_layer(height, top, cards, panels, rows, legend, lang)
    if ops is not None:
        recorder = Recorder()
        _draw_round(recorder, RecordingDraw(recorder), view, seats, lang, caption, top, rows)
        ops += recorder.ops
        return frame
    img = frame.copy()
    _draw_round(img, ImageDraw.Draw(img), view, seats, lang, caption, top, rows)
    return img


def _draw_round(
    img: Image.Image,
    d: Draw,
    view: View,
    seats: Sequence[Seat],
    lang: str,
    caption: str,
    top: int,
    rows: int,
) -> None:
    """What a round draws over its frame layer: header, caption, cards, boards."""
    players = list(view.get("players") or ())
    by_seat = {s.seat: s for s in seats}
    boards = [
        (by_seat[int(p.get("seat", 0))], p) for p in players if int(p.get("seat", 0)) in by_seat
    ]
    step = panel_height(rows) + PANEL_GAP
    panels = tuple((top + CARDS_H + i * step, seat.colour) for i, (seat, _) in enumerate(boards))
    round_no = int(view.get("round") or 0)
    title = t(lang, "temple.render.title")
    if round_no:
        title += " · " + t(lang, "temple.render.round", round=round_no)
    _draw_header(img, d, view, seats, lang, title)
    if caption:
        text = PEN.fit(caption, GLANCE, W - 2 * PAD)
        PEN.text(d, (PAD, HEADER_H + CAPTION_H / 2), text, GLANCE, TEXT, on=FRAME)
    _draw_cards(img, d, view, lang, top, framed=True)
    for (y, _), (seat, player) in zip(panels, boards, strict=True):
        _draw_player(img, d, y, rows, seat, player, view, lang, framed=True)


def caption_text(view: View, seats: Sequence[Seat], lang: str) -> str:
    """The last revealed round in words, from the view ("Round 3: Ann laid a brick ·
    Bo passed"); empty before the first reveal."""
    caption = view.get("caption") or {}
    names = {s.seat: s.name for s in seats}
    moves = [
        t(
            lang,
            "temple.caption.seat",
            name=names.get(int(move.get("seat", -1)), "?"),
            words=Text.from_json(move["words"]).render(lang),
        )
        for move in caption.get("moves") or ()
        if move.get("words")
    ]
    if not moves:
        return ""
    return t(lang, "temple.caption.round", round=caption.get("round"), moves=" · ".join(moves))


def draw_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> Image.Image:
    """The public image as an RGB Pillow image (``render_public`` encodes it)."""
    lang = image_language(lang)
    return _compose(view, _seats(view, players, lang), lang)


def render_public(view: View, players: Sequence[PlayerLabel], lang: str = "en") -> bytes:
    """PNG of the round: cards, deck, every player's board, dice; labels in
    ``lang`` (English when the fonts cannot draw that language)."""
    lang = image_language(lang)
    seats = _seats(view, players, lang)
    palette = public_palette(tuple(sorted({s.colour for s in seats})))
    ops: list[Op] = []
    frame = _compose(view, seats, lang, ops)
    xs = (*range(0, frame.width, REGION), frame.width)
    ys = (*range(0, frame.height, REGION), frame.height)
    mapped = mapped_by_regions(ops, frame, palette, xs, ys)
    if mapped is None:
        return encode_png(_compose(view, seats, lang), palette)
    return encode_png(mapped)


#: the side of the regions the image is drawn by (:func:`renderer.common.mapped_by_regions`)
REGION = 128


# --------------------------------------------------------------------------- private


PRIVATE_TOP = 70


def _wrap(text: str, size: int, width: float, pen: Pen = PEN) -> list[str]:
    """``text`` in lines that fit ``width`` (broken at spaces, or anywhere in a
    language written without them)."""
    lines: list[str] = []
    line = ""
    for word in text.replace("; ", "; \n").split(" "):
        for piece in word.split("\n"):
            candidate = f"{line} {piece}".strip() if line else piece
            if pen.width_of(candidate, size) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = piece
    if line:
        lines.append(line)
    out: list[str] = []
    for line in lines:  # a line still too long (no spaces): cut it by characters
        while pen.width_of(line, size) > width and len(line) > 1:
            cut = len(line)
            while cut > 1 and pen.width_of(line[:cut], size) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out


def draw_private(view: View, player: PlayerLabel, lang: str = "en") -> Image.Image:
    """One seat's preview: its board as its sealed move leaves it (the move's
    bricks framed in cyan, bricks it takes away as red ghosts) and the move in
    words, on as many lines as it needs."""
    lang = image_language(lang)
    seat_no = int(view.get("seat", player.seat))
    board = view.get("board") or {}
    seats = _seats({"players": [board]}, [player], lang)
    seat = seats[0] if seats else Seat(seat_no, player.name, DEFAULT_PLAYER_COLOURS[0])
    rows = grid_rows([board])
    submission = view.get("submission") or {}
    words = submission.get("words")
    if words:
        text = Text.from_json(words).render(lang)
    else:
        text = "; ".join(submission.get("parts") or ()) or t(lang, "temple.render.no_move")
    if submission.get("parts") and not submission.get("complete"):
        text += " — " + t(lang, "temple.render.incomplete")
    lines = _wrap(text, GLANCE, W - 2 * PAD)
    height = PRIVATE_TOP + panel_height(rows) + 24 + len(lines) * 42 + 16
    img = Image.new("RGB", (W, height), FRAME)
    d = ImageDraw.Draw(img)
    title = t(lang, "temple.render.your_move")
    round_no = int(view.get("round") or 0)
    if round_no:
        title += " · " + t(lang, "temple.render.round", round=round_no)
    PEN.text(d, (PAD, PRIVATE_TOP / 2), title, PEN.px(11), TEXT, bold=True)
    fake = {
        "phase": view.get("phase"),
        "waiting_for": [] if submission.get("complete") else [seat.seat],
    }
    _draw_player(img, d, PRIVATE_TOP, rows, seat, board, fake, lang)
    y = PRIVATE_TOP + panel_height(rows) + 24 + 21
    for line in lines:
        PEN.text(d, (PAD, y), line, GLANCE, PENDING, bold=True)
        y += 42
    return img


def render_private(view: View, player: PlayerLabel, lang: str = "en") -> bytes:
    """PNG of one seat's preview (its sealed move on its board)."""
    lang = image_language(lang)
    colour = parse_hex_colour(player.colour, DEFAULT_PLAYER_COLOURS[player.seat % 4])
    return encode_png(draw_private(view, player, lang), public_palette((colour,)))


# --------------------------------------------------------------------------- palette

EXACT_COLOURS: tuple[RGB, ...] = (
    FRAME,
    CARD,
    CARD_EDGE,
    TEXT,
    TEXT_DIM,
    SAND,
    SAND_LINE,
    SAND_DARK,
    CELL_OFF,
    GRID_TEXT,
    GOLD,
    GOLD_DARK,
    NEW_FRAME,
    PENDING,
    REMOVED,
    OK_GREEN,
    LIGHTNING,
    OUTLINE,
    *LENGTH_COLOURS.values(),
    *(mix(c, OUTLINE, 0.45) for c in LENGTH_COLOURS.values()),
    *(mix(c, (255, 255, 255), 0.45) for c in LENGTH_COLOURS.values()),
)


@lru_cache(maxsize=64)
def public_palette(player_colours: tuple[RGB, ...]) -> Image.Image:
    """The 256-colour palette for images with these player colours, built once
    from a sample holding every sprite."""
    colours = player_colours or DEFAULT_PLAYER_COLOURS
    sample = Image.new("RGB", (W, 200), FRAME)
    x = 0
    for length in (1, 2, 3, 4):
        for mark in ("", "new", "pending", "removed"):
            brick = brick_sprite(length, CELL, mark)
            paste(sample, brick, (x % (W - 130), 10 + (x // (W - 130)) * 32))
            x += brick.width + 4
    for i, colour in enumerate(colours):
        for j, face in enumerate(("1", "4", "star")):
            paste(sample, die_sprite(face, 46, colour), (10 + (i * 3 + j) * 50, 110))
    for i, token in enumerate(TOKENS):
        paste(sample, token_sprite(token, 36, True), (700 + i * 40, 110))
        paste(sample, token_sprite(token, 36, False), (700 + i * 40, 150))
    paste(sample, bolt_sprite(30), (860, 110))
    paste(sample, chip_sprite(3, True, False), (900, 110))
    paste(sample, chip_sprite(3, False, True), (940, 110))
    return build_palette(sample, [*EXACT_COLOURS, *colours, *(readable_on(c) for c in colours)])


# --------------------------------------------------------------------------- /rules


def render_rules(
    examples: Mapping[str, Any], kind: str, players: Sequence[PlayerLabel], lang: str = "en"
) -> bytes | None:
    """A picture of ``/rules``: ``board``, the first round's board with its parts
    numbered and named below; ``scoring``, a card beside a build that matches it
    and one that does not. None otherwise."""
    lang = image_language(lang)
    example = examples.get(kind)
    if not example:
        return None
    seats = _seats(examples.get("board") or {}, players, lang)
    palette = public_palette(tuple(sorted({s.colour for s in seats})))
    if kind == "board":
        image = _compose(example, seats, lang)
        return encode_png(annotate(image, _board_callouts(example, lang)), palette)
    if kind != "scoring":
        return None
    card = example.get("card") or {}
    cells = _card_cells(card)
    width, height = int(card.get("width") or 0), int(card.get("height") or 0)
    tile = Image.new("RGB", (CARD_W, CARDS_H - 20), FRAME)
    name = card_name(lang, str(card.get("id")))
    _draw_card_tile(
        tile, ImageDraw.Draw(tile), (0, 0, CARD_W - 1, CARDS_H - 21), card, "", "", lang
    )
    builds = []
    for bricks in (example.get("match") or [], example.get("miss") or []):
        grid = area_grid(cells, width, height)
        build = Image.new("RGB", grid.size, FRAME)
        paste(build, grid, (0, 0))
        for brick in bricks:
            _paste_brick(build, brick, LABEL, height * CELL, "")
        builds.append(build)
    missing = len(cells) - sum(int(b.get("length") or 0) for b in example.get("miss") or [])
    captions = [
        t(lang, "temple.render.callout.card", name=name, value=int(card.get("value") or 0)),
        t(lang, "temple.render.callout.match"),
        t(lang, "temple.render.callout.miss", count=missing),
    ]
    return encode_png(side_by_side([tile, *builds], captions, W), palette)


def _board_callouts(view: View, lang: str) -> list[Callout]:
    """The parts of a board: a card, the deck, a player's area, supply and tokens."""
    top = HEADER_H + (CAPTION_H if view.get("caption") else 0)
    board_y = top + CARDS_H
    return [
        Callout(PAD + CARD_W / 2, top + 150, t(lang, "temple.render.callout.card_here")),
        Callout(PAD + 4 * (CARD_W + 12) - 30, top + 50, t(lang, "temple.render.callout.deck")),
        Callout(
            PAD + 40 + AREA_W / 2,
            board_y + TOP_ROWS_H + AREA_HEAD + 40,
            t(lang, "temple.render.callout.area"),
        ),
        Callout(PAD + 40, board_y + 84, t(lang, "temple.render.callout.tokens")),
        Callout(600, board_y + 84, t(lang, "temple.render.callout.supply")),
    ]
