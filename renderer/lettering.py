"""Text on the images, sized for a phone: the one way the renderers draw text.

A phone shows an image :data:`PHONE_WIDTH` px wide before any zoom, so what a
glyph measures there is its size in the image times ``PHONE_WIDTH / width``.
A :class:`Pen` is made for one image (its final width) and draws every text
of it.

Decisions:

* Text size is the font's pixel size (its em, as CSS ``font-size``), measured
  at phone width. What a player reads at a glance (whose turn and what they
  must do, scores, hand and supply counts, the last step's marks, names,
  legends, coordinates) is at least :data:`GLANCE` = 9 px there: a renderer
  asks ``pen.px(9)`` (or more) and gets the image's own size for it, rounded
  up, so the floor follows from the canvas width alone.
* A text that cannot reach the floor is drawn with ``detail=True`` and is named
  so in the renderer; it must be readable elsewhere (the Tikal close-up). No
  text is made bigger behind the renderer's back: the floor is checked, not
  enforced, by ``tests/renderer/test_legibility.py``, which renders every
  reference position under :func:`recording` and fails on a glanceable text
  under the floor at the decoded image's width.
* Sprites drawn supersampled (``renderer.common.sprite``) pass their factor as
  ``k``: a font of ``size * k`` on the 4x canvas is ``size`` in the image.
* Recording costs nothing when off (one context-variable read per text).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from renderer.common import (
    INKED,
    RGB,
    RGBA,
    FontStack,
    baseline_start,
    draw_text,
    fit_text,
    font_stack,
    paste,
)

#: the width at which a phone shows an image before any zoom
PHONE_WIDTH = 412
#: the least size, in px at phone width, of a text read at a glance
GLANCE = 9.0


@dataclass(frozen=True)
class Lettered:
    """One text drawn, for the legibility test: its size in the image's pixels."""

    text: str
    size: float
    detail: bool
    bold: bool = False


_RECORD: ContextVar[list[Lettered] | None] = ContextVar("renderer_lettering", default=None)


@contextmanager
def recording() -> Iterator[list[Lettered]]:
    """Collect every text drawn inside the block (cached sprites included only
    when drawn inside it: clear the renderers' caches first)."""
    found: list[Lettered] = []
    token = _RECORD.set(found)
    try:
        yield found
    finally:
        _RECORD.reset(token)


@contextmanager
def unrecorded() -> Iterator[None]:
    """Draw inside the block without recording: a sample nobody sees (the sample
    board a palette is built from), whose texts are not the image's."""
    token = _RECORD.set(None)
    try:
        yield
    finally:
        _RECORD.reset(token)


def phone_size(size: float, width: int) -> float:
    """A text ``size`` px tall in an image ``width`` px wide, at phone width."""
    return size * PHONE_WIDTH / width


@dataclass(frozen=True)
class Pen:
    """Draws the texts of one image ``width`` px wide (see the module's decisions)."""

    width: int

    @property
    def scale(self) -> float:
        """Phone px per image px."""
        return PHONE_WIDTH / self.width

    def px(self, phone: float) -> int:
        """The image's size in px for ``phone`` px at phone width (rounded up)."""
        return math.ceil(phone / self.scale - 1e-6)

    @property
    def floor(self) -> int:
        """The least size in px of a glanceable text in this image."""
        return self.px(GLANCE)

    def font(self, size: int, bold: bool = False) -> FontStack:
        """The font stack for a text ``size`` px tall (to measure or fit text)."""
        return font_stack(size, bold)

    def fit(self, text: str, size: int, max_width: float, bold: bool = False) -> str:
        """``text`` cut with an ellipsis to fit ``max_width`` at ``size``."""
        return fit_text(text, font_stack(size, bold), max_width)

    def width_of(self, text: str, size: int, bold: bool = False) -> float:
        return font_stack(size, bold).width(text)

    def text(
        self,
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB | RGBA,
        *,
        bold: bool = False,
        anchor: str = "lm",
        detail: bool = False,
        k: float = 1,
        stroke: int = 0,
        stroke_fill: RGB | None = None,
        on: RGB | None = None,
    ) -> float:
        """Draw ``text`` ``size`` px tall (``size * k`` on a ``k``-times canvas)
        with font fallback; returns its width on that canvas. ``on``: the flat
        colour under the text, where the caller knows it (drawn faster)."""
        _note(text, size, detail, bold)
        stack = font_stack(round(size * k), bold)
        return draw_text(draw, xy, text, stack, fill, anchor, stroke, stroke_fill, on)

    def put(
        self,
        img: Image.Image,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        *,
        bold: bool = False,
        anchor: str = "lm",
        detail: bool = False,
        on: RGB | None = None,
    ) -> float:
        """:meth:`text` through a cache of drawn strips (a board repeats most of its
        words from one render to the next); returns the width. ``on``: the flat
        colour under the text, where the caller knows it: the strip blended onto it
        once, then copied where it has ink (the same pixels, without blending)."""
        if not text:
            return 0.0
        _note(text, size, detail, bold)
        strip, width, baseline, (left, top) = _strip(text, size, bold, fill)
        x, y = baseline_start(xy, width, font_stack(size, bold), anchor)
        if strip is None:
            return width
        at = (round(x - 4) + left, round(y - baseline) + top)  # the inked part's place
        if on is None or img.mode != "RGB":
            paste(img, strip, at)
        else:
            blended, inked = _strip_on(text, size, bold, fill, on)
            box = (at[0], at[1], at[0] + strip.width, at[1] + strip.height)
            img.im.paste(blended.im, box, inked.im)
        return width


def _note(text: str, size: float, detail: bool, bold: bool) -> None:
    found = _RECORD.get()
    if found is not None and text.strip():
        found.append(Lettered(text, size, detail, bold))


@lru_cache(maxsize=1024)
def _strip_on(
    text: str, size: int, bold: bool, fill: RGB, on: RGB
) -> tuple[Image.Image, Image.Image]:
    """The inked part of :func:`_strip` pasted onto a canvas of ``on``, and the one-bit
    mask of where it has ink: copying the first through the second draws what pasting
    the strip draws wherever the canvas is ``on``."""
    strip = _strip(text, size, bold, fill)[0]
    assert strip is not None
    blended = Image.new("RGB", strip.size, on)
    blended.paste(strip, (0, 0), strip)
    inked = strip.getchannel("A").point(INKED, "1")
    return blended, inked


@lru_cache(maxsize=4096)
def _strip(
    text: str, size: int, bold: bool, fill: RGB
) -> tuple[Image.Image | None, float, int, tuple[int, int]]:
    """``text`` drawn once on a transparent strip: (its inked part, or None when it has
    none; the text's width; the baseline's y on the strip; where the inked part starts
    on the strip). Pasting only the inked part draws the same pixels (a transparent
    pixel leaves the canvas as it was) over a fraction of the strip."""
    stack = font_stack(size, bold)
    width = stack.width(text)
    baseline = round(size * 1.25)
    img = Image.new("RGBA", (math.ceil(width) + 8, round(size * 1.8)), (0, 0, 0, 0))
    draw_text(ImageDraw.Draw(img), (4, baseline), text, stack, fill, anchor="ls")
    inked = img.getchannel("A").getbbox()
    if inked is None:
        return None, width, baseline, (0, 0)
    return img.crop(inked), width, baseline, (inked[0], inked[1])
