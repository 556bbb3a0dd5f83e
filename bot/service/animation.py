"""An animated replay of a game's public boards, under an upload budget.

Decisions:

* **GIF, not APNG.** Every board renderer writes palette PNGs of at most 256
  colours, so a GIF frame is the board pixel for pixel; each frame holds
  only the rectangle that changed, its unchanged pixels transparent, so a
  whole game is small (measured on full demo games: 53 to 152 boards make
  1.8 to 3.4 MB). APNG keeps one changed rectangle per frame but has no
  such transparency trick, and a board's changes (the map and the score
  panel) span most of it: the same games made 15 to 20 MB. A frame with
  more than 256 colours is reduced to an adaptive 256-colour palette
  without dithering.
* **The budget** is for everything uploaded together: the caller passes
  what is left of Discord's upload limit (10 MiB for the two export files
  of an unboosted server) after the record itself. Over budget, the frames
  are first scaled down (box filter, mapped back onto each board's own
  palette; to no less than :data:`MIN_SCALE` of their size, the board
  staying readable), then boards are dropped evenly, keeping the first and
  the last; each try is sized from the last one's bytes. If even the start
  and the end do not fit, there is no animation (the record still holds
  every board).
* **Memory**: the GIF is written one frame at a time from the PNGs, so at
  most two decoded boards are held (Pillow's ``save_all`` holds them all:
  some 350 MB for the 150 boards of a Tikal game).
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

from PIL import GifImagePlugin, Image, ImageChops

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
    sizes = [_size(data) for data in pngs]
    canvas = (max(w for w, _ in sizes), max(h for _, h in sizes))
    keep = list(range(len(pngs)))
    scale = 1.0
    for _ in range(MAX_TRIES):
        data = _gif([pngs[i] for i in keep], canvas, scale)
        if budget is None or len(data) <= budget:
            return Animation(data, len(keep), len(pngs), scale)
        ratio = budget / len(data) * HEADROOM
        if scale > MIN_SCALE:
            scale = max(MIN_SCALE, scale * math.sqrt(ratio))
        elif len(keep) > 2:
            keep = _evenly(len(pngs), max(2, int(len(keep) * ratio)))
        else:
            return None
    return None


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:  # reads the header only
        return image.size


def _evenly(total: int, count: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)``, first and last included."""
    if count >= total:
        return list(range(total))
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})


def _placed(data: bytes, canvas: tuple[int, int]) -> Image.Image:
    """A board on the canvas: a smaller one (a board whose panel grew) at the top centre,
    padded with its own bottom-left colour, in its own palette."""
    image: Image.Image = Image.open(io.BytesIO(data))
    image.load()
    if image.size == canvas:
        return image
    if image.mode not in ("P", "RGB"):
        image = image.convert("RGB")
    placed = Image.new(image.mode, canvas, image.getpixel((0, image.height - 1)))
    if image.mode == "P":
        placed.putpalette(image.getpalette() or [])
    placed.paste(image, ((canvas[0] - image.width) // 2, 0))
    return placed


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


def _gif(pngs: Sequence[bytes], canvas: tuple[int, int], scale: float) -> bytes:
    """The GIF, written one frame at a time.

    Pillow's own ``save_all`` keeps every frame in memory until the end
    (150 boards of a Tikal game: some 350 MB); this keeps two. As Pillow
    does, each frame is only the rectangle that changed since the previous
    one, in its own palette, and its unchanged pixels are transparent (an
    index the frame does not use), which is what makes a board game's GIF
    small; a board identical to the previous one lengthens that frame.
    """
    out = io.BytesIO()
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int, int | None] | None = None
    for index, data in enumerate(pngs):
        frame = _frame(_placed(data, canvas), scale)
        duration = LAST_FRAME_MS if index == len(pngs) - 1 else FRAME_MS
        current = frame.convert("RGB")
        if previous is None or pending is None:
            header, _ = GifImagePlugin.getheader(frame, info={"loop": 0, "duration": duration})
            out.write(b"".join(header))
            pending, previous = (frame, (0, 0), duration, None), current
            continue
        box = ImageChops.difference(previous, current).getbbox()
        if box is None:
            pending = (pending[0], pending[1], pending[2] + duration, pending[3])
            continue
        _write(out, *pending)
        changed, transparency = _changed(frame.crop(box), previous.crop(box), current.crop(box))
        pending = (changed, (box[0], box[1]), duration, transparency)
        previous = current
    assert pending is not None
    _write(out, *pending)
    out.write(b";")
    return out.getvalue()


def _changed(
    frame: Image.Image, before: Image.Image, after: Image.Image
) -> tuple[Image.Image, int | None]:
    """The changed rectangle with its unchanged pixels made transparent, and the
    transparent index (None when the frame uses every index of its colour table)."""
    used = {colour for _, colour in frame.getcolors(256) or []}
    entries = len(frame.getpalette() or []) // 3
    table = 2
    while table < entries:
        table *= 2
    free = next((i for i in range(table) if i not in used), None)
    if free is None:
        return frame, None
    red, green, blue = ImageChops.difference(before, after).split()
    delta = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    unchanged = delta.point([255] + [0] * 255, "1")
    frame = frame.copy()
    frame.paste(free, mask=unchanged)
    return frame, free


def _write(
    out: io.BytesIO,
    frame: Image.Image,
    offset: tuple[int, int],
    duration: int,
    transparency: int | None,
) -> None:
    params: dict[str, int | bool] = {"duration": duration, "include_color_table": True}
    if transparency is not None:
        params["transparency"] = transparency
    for part in GifImagePlugin.getdata(frame, offset, **params):
        out.write(part)
