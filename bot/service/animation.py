"""An animated replay of a game's public boards, under an upload budget.

Decisions:

* **GIF, not APNG.** Every board renderer writes palette PNGs of at most 256
  colours, so a GIF frame is the board pixel for pixel (measured on full
  demo games: 53 to 152 boards make 1.8 to 3.1 MB). APNG keeps only one
  changed rectangle per frame, and a board's changes (the map and the score
  panel) span most of it, so the same games made 15 to 20 MB. A frame with
  more than 256 colours is reduced to an adaptive 256-colour palette
  without dithering.
* **The budget** is for everything uploaded together: the caller passes
  what is left of Discord's upload limit (10 MiB for the two export files
  of an unboosted server) after the record itself. Over budget, the frames
  are first scaled down (to no less than :data:`MIN_SCALE` of their size,
  the board staying readable), then frames are dropped evenly, keeping the
  first and the last; each try is sized from the last one's bytes. If even
  the start and the end do not fit, there is no animation (the record still
  holds every board).
* Each board shows for :data:`FRAME_MS`, the last one for :data:`LAST_FRAME_MS`;
  the animation loops.
* Boards of different sizes (a score panel that grew) are placed at the top
  centre of a canvas of the largest size.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

FRAME_MS = 1000
LAST_FRAME_MS = 4000
MIN_SCALE = 0.5
#: tries before giving up on fitting the budget
MAX_TRIES = 8
#: aim this far under the budget when sizing the next try
HEADROOM = 0.92


@dataclass(frozen=True)
class Animation:
    """The GIF, how many of the boards it shows and at what scale."""

    data: bytes
    frames: int
    boards: int
    scale: float


def animate(pngs: Sequence[bytes], budget: int | None = None) -> Animation | None:
    """A looping GIF of ``pngs`` of at most ``budget`` bytes (None: no limit)."""
    if not pngs:
        return None
    images = _canvas([_opened(data) for data in pngs])
    keep = list(range(len(images)))
    scale = 1.0
    for _ in range(MAX_TRIES):
        data = _gif([images[i] for i in keep], scale)
        if budget is None or len(data) <= budget:
            return Animation(data, len(keep), len(images), scale)
        ratio = budget / len(data) * HEADROOM
        if scale > MIN_SCALE:
            scale = max(MIN_SCALE, scale * math.sqrt(ratio))
        elif len(keep) > 2:
            keep = _evenly(len(images), max(2, int(len(keep) * ratio)))
        else:
            return None
    return None


def _opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _canvas(images: list[Image.Image]) -> list[Image.Image]:
    """The boards at one size: a smaller one (a board whose panel grew) is placed at the
    top centre of the largest canvas, padded with its own bottom-left colour, in its
    own palette."""
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    placed = []
    for image in images:
        if image.size == (width, height):
            placed.append(image)
            continue
        if image.mode not in ("P", "RGB"):
            image = image.convert("RGB")
        background = image.getpixel((0, image.height - 1))
        canvas = Image.new(image.mode, (width, height), background)
        if image.mode == "P":
            canvas.putpalette(image.getpalette() or [])
        canvas.paste(image, ((width - image.width) // 2, 0))
        placed.append(canvas)
    return placed


def _evenly(total: int, count: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)``, first and last included."""
    if count >= total:
        return list(range(total))
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})


def _frame(image: Image.Image, scale: float) -> Image.Image:
    """One GIF frame: the board itself, or scaled down (box filter) and mapped back
    onto the board's own palette, so consecutive frames still share their colours."""
    if scale < 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        smaller = image.convert("RGB").resize(size, Image.Resampling.BOX)
        if image.mode == "P" and "transparency" not in image.info:
            palette = Image.new("P", (1, 1))
            palette.putpalette(image.getpalette() or [])
            return smaller.quantize(palette=palette, dither=Image.Dither.NONE)
        image = smaller
    if image.mode == "P" and "transparency" not in image.info:
        return image
    return image.convert("RGB").quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


def _gif(images: Sequence[Image.Image], scale: float) -> bytes:
    frames = [_frame(image, scale) for image in images]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
    )
    return buffer.getvalue()
