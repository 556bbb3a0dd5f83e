"""Pictures for ``/rules``: a board with numbered callouts and a key below it.

Decisions:

* A callout is a point of the image and the words for what is there; it is
  drawn as a numbered magenta disc (a colour no board uses) beside the point (an arrow
  from the disc to the point, so the disc covers no piece); two discs never cover
  each other (a disc takes the first diagonal around its point that is free), and the key below
  the image repeats each number with its words, wrapped into as many lines as
  the image's width needs.
* The key's text is drawn through :class:`renderer.lettering.Pen` at the
  phone floor of the final image's width or more, like every board text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.common import RGB, paste
from renderer.lettering import Pen

FRAME = (27, 30, 37)
TEXT = (240, 240, 240)
DISC = (214, 51, 132)  # magenta: no board uses it, so a callout never reads as a piece
RIM = (22, 22, 22)
NUMBER = (255, 255, 255)
#: a side-by-side caption's size in phone px: a teaching page is read, not glanced at,
#: so above the glance floor (the Temple Rush scoring captions read 9 px on a phone)
CAPTION = 12


@dataclass(frozen=True)
class Callout:
    """Number a point of the picture and say what is there."""

    x: float
    y: float
    words: str


def _disc(pen: Pen, number: int, size: int) -> Image.Image:
    disc = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(disc)
    d.ellipse((0, 0, size - 1, size - 1), fill=RIM)
    d.ellipse((3, 3, size - 4, size - 4), fill=DISC)
    text = max(pen.floor, round(size * 0.62))
    pen.text(d, (size / 2, size / 2 + 1), str(number), text, NUMBER, bold=True, anchor="mm")
    return disc


def _disc_place(
    callout: Callout,
    placed: Sequence[tuple[float, float]],
    disc_size: int,
    bounds: tuple[int, int],
) -> tuple[float, float]:
    """Where a callout's disc goes: up and to the left of its point by preference,
    else the first other diagonal (then twice as far out) whose disc stays inside
    the image and clears every disc already placed and every point they mark."""
    offset = disc_size * 0.9
    half = disc_size / 2
    width, height = bounds
    candidates = [
        (callout.x + sx * offset * k, callout.y + sy * offset * k)
        for k in (1.0, 1.8)
        for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1))
    ]

    def inside(x: float, y: float) -> bool:
        return half <= x <= width - half and half <= y <= height - half

    def clear(x: float, y: float) -> bool:
        return all(abs(x - px) >= disc_size or abs(y - py) >= disc_size for px, py in placed)

    for x, y in candidates:
        if inside(x, y) and clear(x, y):
            return x, y
    return next(((x, y) for x, y in candidates if inside(x, y)), candidates[0])


def annotate(
    image: Image.Image, callouts: Sequence[Callout], background: RGB = FRAME
) -> Image.Image:
    """``image`` with its callouts drawn on it and their key below."""
    pen = Pen(image.width)
    size = pen.floor
    disc_size = round(size * 1.7)
    out = image.convert("RGB").copy()
    d = ImageDraw.Draw(out)
    placed: list[tuple[float, float]] = []
    for number, callout in enumerate(callouts, start=1):
        cx, cy = _disc_place(callout, placed, disc_size, image.size)
        placed.append((cx, cy))
        d.line((cx, cy, callout.x, callout.y), fill=RIM, width=max(4, disc_size // 6))
        d.line((cx, cy, callout.x, callout.y), fill=DISC, width=max(2, disc_size // 12))
        d.ellipse(
            (callout.x - 5, callout.y - 5, callout.x + 5, callout.y + 5), fill=DISC, outline=RIM
        )
        paste(out, _disc(pen, number, disc_size), (cx - disc_size / 2, cy - disc_size / 2))
    pad, line_h = size, round(size * 1.9)
    lines: list[list[tuple[int, str]]] = [[]]
    x: float = pad
    for number, callout in enumerate(callouts, start=1):
        need = disc_size + pad / 2 + pen.width_of(callout.words, size) + pad * 1.5
        if lines[-1] and x + need > image.width - pad:
            lines.append([])
            x = pad
        lines[-1].append((number, callout.words))
        x += need
    key_h = pad + len(lines) * line_h if callouts else 0
    sheet = Image.new("RGB", (image.width, out.height + key_h), background)
    sheet.paste(out, (0, 0))
    for row, line in enumerate(lines):
        y = out.height + pad / 2 + row * line_h + line_h / 2
        x = pad
        for number, words in line:
            paste(sheet, _disc(pen, number, disc_size), (x, y - disc_size / 2))
            x += disc_size + pad / 2
            words = pen.fit(words, size, image.width - x - pad)
            x += pen.put(sheet, (x, y), words, size, TEXT) + pad * 1.5
    return sheet


def side_by_side(
    images: Sequence[Image.Image], captions: Sequence[str], width: int, background: RGB = FRAME
) -> Image.Image:
    """``images`` in a row, each scaled to fit its share of ``width``, with a caption
    under each (for a card beside builds that match it or not), at
    :data:`CAPTION` phone px and on as many lines as it takes, never cut."""
    pen = Pen(width)
    size = pen.px(CAPTION)
    pad = pen.floor
    share = (width - pad * (len(images) + 1)) / max(1, len(images))
    scaled = []
    for image in images:
        k = min(share / image.width, 2.0)
        scaled.append(image.resize((round(image.width * k), round(image.height * k))))
    tallest = max((s.height for s in scaled), default=0)
    wrapped = [wrap(pen, caption, size, share) for caption in captions]
    lines = max((len(w) for w in wrapped), default=0)
    height = pad + tallest + pad + round(size * (1.5 * lines + 0.2)) + pad
    sheet = Image.new("RGB", (width, height), background)
    for i, (image, caption_lines) in enumerate(zip(scaled, wrapped, strict=True)):
        x = pad + i * (share + pad)
        y = pad + tallest - image.height
        sheet.paste(image.convert("RGB"), (round(x + (share - image.width) / 2), y))
        for j, line in enumerate(caption_lines):
            centre = (x + share / 2, pad + tallest + pad + size * 0.8 + j * size * 1.5)
            pen.text(ImageDraw.Draw(sheet), centre, line, size, TEXT, anchor="mm")
    return sheet


def wrap(pen: Pen, text: str, size: int, width: float) -> list[str]:
    """``text`` in lines that fit ``width``: a text too long for one line breaks
    after its first clause (a colon or semicolon) when that takes no more lines,
    else at spaces, or between any two characters in a language written without
    them."""
    greedy = _wrap_words(pen, text, size, width)
    for mark in (": ", "：", "; "):
        head, sep, tail = text.partition(mark)
        if sep and tail and len(greedy) > 1:
            clauses = _wrap_words(pen, head + sep.rstrip(), size, width)
            clauses += _wrap_words(pen, tail, size, width)
            return clauses if len(clauses) <= len(greedy) else greedy
    return greedy


def _wrap_words(pen: Pen, text: str, size: int, width: float) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if pen.width_of(candidate, size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while pen.width_of(line, size) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and pen.width_of(line[:cut], size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line:
        lines.append(line)
    return lines
