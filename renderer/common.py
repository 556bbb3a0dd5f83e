"""Game-agnostic drawing helpers shared by every board renderer.

Decisions recorded here:

* Fonts: DejaVu Sans (regular and bold) from the system when present, else the
  scalable font Pillow bundles (``ImageFont.load_default(size=...)``), so a bare
  machine still renders.
* Player names may be Chinese, Korean, emoji... A :class:`FontStack` is a
  primary font plus fallbacks: first the system's CJK fonts (found through
  ``fc-list`` or at their usual Debian paths), which have every character a
  name may use, then the fonts shipped in ``renderer/fonts/``: the CJK subset,
  then a monochrome emoji face (Noto Emoji, OFL; ``scripts/make_emoji_subset.py``),
  so a name's emoji is drawn in the name's colour, never as a box. Text is split
  into runs, each drawn with the first font that has the glyph. In a label a
  character no font has is dropped; in a player name it is drawn as a box
  (:func:`clean_name`): a name is never cut into another name nor replaced by
  "Player 2" (only an empty name gets the caller's fallback).
* The shipped font is a subset of Noto Sans CJK (OFL, ``renderer/fonts/OFL.txt``)
  with every character of every catalog string, every Hangul syllable and the
  common Hanzi of both Chinese scripts (``scripts/make_cjk_subset.py``
  regenerates it; ~2.7 MB). It comes *after* the system fonts: where a full
  CJK font is installed, names and labels are drawn with it in one consistent
  style; on a bare machine the subset draws every label of every catalog
  language and the names of nearly every Chinese, Korean or Japanese player.
* A bold stack whose fallback has no bold face (WenQuanYi Micro Hei, the shipped
  subset) draws it with a thin stroke of the text colour, so a Chinese name is
  as heavy as a Latin one beside it.
* Glyph coverage is detected without extra dependencies: a character is
  "missing" when the font draws it exactly like its ``.notdef`` glyph.
* Labels in another language (the catalog's Chinese or Korean) are only drawn
  when the stack covers every character of them (:func:`can_draw`); a renderer
  otherwise draws the whole image in English rather than mixing in boxes. With
  the shipped subset this holds for every catalog language on every machine;
  the check stays for a catalog edited without regenerating the subset.
* Sprites (tiles, tokens, icons) are drawn once at 4x with plain Pillow
  primitives and downscaled with LANCZOS: antialiased edges at no per-render
  cost, because callers cache the result.
* PNG encoding: images are mapped onto a cached 256-colour palette (exact key
  colours plus an octree of a sample image) and saved at zlib level 3: about a
  third of the RGB size and several times faster to encode. An image kept in
  full colour (a Tigris hand: thousands of antialiased colours, no palette
  holds them exactly) is written with no PNG row filter (:func:`unfiltered_png`):
  Pillow tries every filter on every row, which cost a hand 6 ms of its
  6.7 ms; unfiltered it is 2–2.5× faster to encode and no bigger, with the
  same pixels.
* Mapping onto a palette (no dithering) is a function of each pixel's colour
  alone, so a part of an image mapped alone gives the pixels the whole gives
  there; and a region's pixels follow from the background there and what is
  drawn over it, in order. So a board's PNG is drawn by regions
  (:func:`mapped_by_regions`): what a board draws over a cached background is a
  list of ops (sprites pasted, texts copied onto a flat colour, other marks),
  recorded by drawing on a :class:`Recorder` with a :class:`RecordingDraw`; a
  region of sprites and copied texts is drawn and mapped once and remembered
  (8 MB of mapped regions, least recently used dropped), a region with any other
  mark is drawn in place, and the background is mapped once (:func:`mapped_onto`,
  4 kept). The bytes are those of the whole image mapped (the renderers' tests
  compare them); drawing and mapping the whole image was half of a board's time
  beside its encode.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import shutil
import struct
import subprocess
import unicodedata
import weakref
import zlib
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import DEFAULT_LANG, catalog, language_of

RGB = tuple[int, int, int]
#: seat colours for a player label that brings none (the service always gives one)
DEFAULT_PLAYER_COLOURS: tuple[RGB, ...] = (
    (230, 126, 34),
    (155, 89, 182),
    (26, 188, 156),
    (241, 196, 15),
)
RGBA = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont

FONTS_DIR = Path(__file__).parent / "fonts"
DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
_DEJAVU = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_FONT_SUFFIXES = (".ttf", ".otf", ".ttc")

#: Usual Debian locations of fonts with Chinese and Korean glyphs, used when
#: ``fc-list`` is not installed. Bold variants are preferred for bold stacks.
_KNOWN_CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
    "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf",
    "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
)
_MAX_FALLBACKS = 3
#: text widths remembered per stack (names, labels, their cut-down forms)
_MAX_CACHED_WIDTHS = 4096


# --------------------------------------------------------------------------- fonts


class _Masks:
    """Texts already rasterized (:class:`RememberingFont`), by font and everything that
    shapes their pixels; the least recently used are dropped past ``budget`` bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._entries: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Any:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: tuple[Any, ...], value: Any, size: int) -> None:
        if size > self.budget:
            return
        self._entries[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            _, (_, dropped) = self._entries.popitem(last=False)
            self.used -= dropped

    def __len__(self) -> int:
        return len(self._entries)


#: the texts a drawing process remembers rasterized, at most this many bytes of them
TEXT_MASKS = _Masks(16 * 1024 * 1024)


class RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType font that rasterizes a text once (:data:`TEXT_MASKS`).

    A board draws the same labels at the same places render after render, and
    rasterizing them was the largest part of composing one (Temple Rush: 16
    of 43 ms). The bitmap is FreeType's own for the same text, size, anchor,
    stroke and subpixel start, so the pixels are the same; Pillow only reads
    it (``draw_bitmap``). Colour glyphs (``RGBA``, which Pillow recolours in
    place) are not remembered.
    """

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args or set(kwargs) - {"stroke_filled"}:
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                *args, **kwargs,
            )  # fmt: skip
        key = (
            self, text, mode, direction, tuple(features or ()), language, stroke_width,
            bool(kwargs.get("stroke_filled")), anchor, tuple(start or (0, 0)),
        )  # fmt: skip
        found = TEXT_MASKS.get(key)
        if found is None:
            found = super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                **kwargs,
            )  # fmt: skip
            width, height = found[0].size
            TEXT_MASKS.put(key, found, width * height + 200)
        return cast(tuple[Any, tuple[int, int]], found)


def _font(file: str | BinaryIO, size: int, like: Font | None = None) -> Font:
    """``file`` at ``size`` (as :func:`PIL.ImageFont.truetype` opens it, or as ``like``
    was opened: its face index, encoding and layout engine)."""
    if like is None:
        return RememberingFont(file, size)
    return RememberingFont(file, size, like.index, like.encoding, like.layout_engine)


@cache
def load_font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold or regular) at ``size`` px, else Pillow's bundled font."""
    path = DEJAVU_DIR / _DEJAVU[bold]
    if path.is_file():
        return _font(str(path), size)
    bundled = cast(Font, ImageFont.load_default(size=size))  # FreeType: Pillow bundles it
    return _font(io.BytesIO(bundled.font_bytes), size, like=bundled)


def _fc_list(lang: str) -> list[str]:
    """Font files that fontconfig says cover ``lang``; empty without fc-list."""
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    try:
        out = subprocess.run(
            [exe, f":lang={lang}", "file"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    files = (line.strip().rstrip(":").strip() for line in out.splitlines())
    return sorted(f for f in files if f.endswith(_FONT_SUFFIXES))


def shipped_font_files() -> tuple[str, ...]:
    """The fonts of ``renderer/fonts/`` (the CJK subset), sorted by name."""
    return tuple(sorted(str(p) for p in FONTS_DIR.glob("*") if p.suffix in _FONT_SUFFIXES))


@cache
def system_cjk_font_files() -> tuple[str, ...]:
    """The system's fonts with Chinese or Korean glyphs, best first: fonts that
    fontconfig says cover Simplified and Traditional Chinese and Korean, then
    both Chinese scripts, then any one, then the known Debian paths."""
    zh, tw, ko = _fc_list("zh-cn"), _fc_list("zh-tw"), _fc_list("ko")
    every = [f for f in zh if f in tw and f in ko]
    chinese = [f for f in zh if f in tw]
    known = [p for p in _KNOWN_CJK_FONTS if os.path.isfile(p)]
    shipped = {str(Path(f).resolve()) for f in shipped_font_files()}
    ordered: list[str] = []
    for path in [*every, *chinese, *zh, *tw, *ko, *known]:
        if path not in ordered and str(Path(path).resolve()) not in shipped:
            ordered.append(path)
    return tuple(ordered)


@cache
def fallback_font_files() -> tuple[str, ...]:
    """Font files tried, in order, for glyphs the primary font lacks: the
    system's CJK fonts, then the shipped ones (see the module's decisions)."""
    return (*system_cjk_font_files(), *shipped_font_files())


def has_cjk_font() -> bool:
    """True when some fallback font can draw Chinese (with the shipped subset,
    always for the catalogs' characters)."""
    return font_stack(20).font_for("中") is not None


def has_system_cjk_font() -> bool:
    """True when a system font (not the shipped subset) draws Chinese and Korean:
    then player names in any CJK characters are drawn, not only the catalogs'."""
    stack = font_stack(20)
    shipped = set(shipped_font_files())
    fonts = [f for f in stack.fonts[1:] if getattr(f, "path", None) not in shipped]
    return all(any(stack.covers(ch, f) for f in fonts) for ch in "中한")


@lru_cache(maxsize=64)
def can_draw(texts: tuple[str, ...]) -> bool:
    """Whether both the regular and the bold stack have a real glyph for every
    character of ``texts`` (glyph coverage does not depend on the size).

    Renderers ask it once per image with the label templates of the image's
    language and draw in English when it says no, so a Chinese board on a
    machine without a CJK font gets English labels, never empty boxes. The
    answer is cached by the exact texts, so an edited catalog is checked again.
    """
    chars = {ch for text in texts for ch in text if not ch.isspace()}
    stacks = (font_stack(24), font_stack(24, bold=True))
    return all(stack.font_for(ch) is not None for stack in stacks for ch in chars)


_PLACEHOLDER = re.compile(r"\{\w*\}")


def drawable_language(lang: str | None, keys: Iterable[str]) -> str:
    """The catalog language an image is drawn in: ``lang`` (a catalog language or
    a Discord locale such as ``zh-CN``) when the fonts can draw every label of the
    catalog ``keys`` in it (placeholders left out), else English."""
    code = language_of(lang)
    if code == DEFAULT_LANG:
        return code
    own, english = catalog(code), catalog(DEFAULT_LANG)
    texts = tuple(_PLACEHOLDER.sub("", own.get(k) or english.get(k, "")) for k in keys)
    return code if can_draw(texts) else DEFAULT_LANG


def _pick_fallbacks(bold: bool) -> list[str]:
    """Fallback files: at most ``_MAX_FALLBACKS`` system fonts, preferring a bold
    face of a family for bold stacks (a regular one otherwise), then every shipped
    font, which always closes the stack."""
    files = list(system_cjk_font_files())
    if bold:
        files.sort(key=lambda f: "bold" not in f.lower())
    else:
        files.sort(key=lambda f: "bold" in f.lower())
    return [*files[:_MAX_FALLBACKS], *shipped_font_files()]


@dataclass(frozen=True)
class FontStack:
    """A primary font and fallbacks; draws each character with the first that has it."""

    fonts: tuple[Font, ...]
    #: fonts drawn with a thin same-colour stroke: regular fallbacks of a bold stack
    faux_bold: frozenset[int] = frozenset()
    _coverage: dict[tuple[int, str], bool] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _widths: dict[tuple[int, str], float] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _runs: dict[str, list[tuple[str, Font]]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: each character's font (:meth:`font_for`), remembered: a text never seen before
    #: (a longer one cut to fit is measured at several lengths) is split by it
    _font_of: dict[str, Font | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @property
    def primary(self) -> Font:
        return self.fonts[0]

    def covers(self, ch: str, font: Font) -> bool:
        """Whether ``font`` has a real glyph for ``ch`` (not its .notdef box)."""
        key = (id(font), ch)
        known = self._coverage.get(key)
        if known is None:
            known = ch.isspace() or _glyph_signature(font, ch) != _notdef_signature(font)
            self._coverage[key] = known
        return known

    def font_for(self, ch: str) -> Font | None:
        """The first font able to draw ``ch``, or None (remembered)."""
        try:
            return self._font_of[ch]
        except KeyError:
            pass
        found = next((font for font in self.fonts if self.covers(ch, font)), None)
        if len(self._font_of) >= _MAX_CACHED_WIDTHS:
            self._font_of.clear()
        self._font_of[ch] = found
        return found

    def drawable(self, text: str) -> str:
        """``text`` without the characters no font of the stack can draw."""
        return "".join(ch for ch in text if self.font_for(ch) is not None)

    def runs(self, text: str) -> list[tuple[str, Font]]:
        """Split ``text`` into (chunk, font) runs; undrawable characters are dropped.
        Remembered: a board splits the same labels every render."""
        known = self._runs.get(text)
        if known is None:
            if len(self._runs) >= _MAX_CACHED_WIDTHS:
                self._runs.clear()
            known = self._runs[text] = self._split(text)
        return list(known)

    def _split(self, text: str) -> list[tuple[str, Font]]:
        runs: list[tuple[str, Font]] = []
        font_for = self.font_for
        for ch in text:
            font = font_for(ch)
            if font is None:
                continue
            if runs and runs[-1][1] is font:
                runs[-1] = (runs[-1][0] + ch, font)
            else:
                runs.append((ch, font))
        return runs

    def length(self, chunk: str, font: Font) -> float:
        """``font.getlength(chunk)``, remembered: a CJK font's layout is several
        times slower than DejaVu's, and labels are measured again every render."""
        key = (id(font), chunk)
        known = self._widths.get(key)
        if known is None:
            if len(self._widths) >= _MAX_CACHED_WIDTHS:
                self._widths.clear()
            known = self._widths[key] = font.getlength(chunk)
        return known

    def width(self, text: str) -> float:
        return sum(self.length(chunk, font) for chunk, font in self.runs(text))


@cache
def font_stack(size: int, bold: bool = False) -> FontStack:
    """DejaVu (or Pillow's font) at ``size`` followed by CJK/shipped fallbacks."""
    fonts: list[Font] = [load_font(size, bold)]
    faux: set[int] = set()
    for path in _pick_fallbacks(bold):
        try:
            font = _font(path, size)
        except OSError:
            continue
        fonts.append(font)
        if bold and "bold" not in path.lower():
            faux.add(id(font))
    return FontStack(tuple(fonts), frozenset(faux))


def _glyph_signature(font: Font, ch: str) -> bytes:
    """The exact pixels of ``ch`` drawn alone with ``font``."""
    left, top, right, bottom = font.getbbox(ch)
    width, height = max(1, int(right - left)), max(1, int(bottom - top))
    canvas = Image.new("L", (width, height))
    ImageDraw.Draw(canvas).text((-left, -top), ch, font=font, fill=255)
    return f"{width}x{height}".encode() + canvas.tobytes()


@cache
def _notdef_signature(font: Font) -> bytes:
    """Pixels of a code point no font maps (plane 16 private use): the .notdef box."""
    return _glyph_signature(font, "\U0010fffd")


# --------------------------------------------------------------------------- text


#: drawn for a character of a name no font has: a box, as a font's .notdef would be
MISSING_GLYPH = "\u25a1"  # □
#: left out of names: variation selectors and skin-tone modifiers (emoji are drawn flat)
_EMOJI_MODIFIERS = frozenset(["\ufe0e", "\ufe0f", *(chr(code) for code in range(0x1F3FB, 0x1F400))])


def clean_name(name: str, stack: FontStack, fallback: str) -> str:
    """A display name the stack can draw; ``fallback`` only for a name with nothing
    visible in it.

    Control and format characters are removed (an emoji sequence's joiners
    with them), so are variation selectors and skin-tone modifiers (an emoji is
    drawn in one flat colour), and runs of spaces collapsed. A
    character no font has becomes a box (:data:`MISSING_GLYPH`, or ``?`` if not
    even that can be drawn): a name is never shortened into another name, nor
    replaced by "Player 1" because some of its glyphs are missing. With the
    shipped font (every Hangul syllable, the common Hanzi of both scripts,
    kana) that is rare on any machine.
    """
    visible = [
        ch
        for ch in " ".join(name.split())
        if unicodedata.category(ch) not in ("Cc", "Cf", "Cs") and ch not in _EMOJI_MODIFIERS
    ]
    if not "".join(visible).strip():
        return fallback
    box = MISSING_GLYPH if stack.font_for(MISSING_GLYPH) is not None else "?"
    shown = "".join(
        ch
        if ch.isspace() or unicodedata.category(ch) == "Mn" or stack.font_for(ch) is not None
        else box
        for ch in visible
    )
    return " ".join(shown.split())


def fit_text(text: str, stack: FontStack, max_width: float, ellipsis: str = "…") -> str:
    """``text`` cut at a character boundary with an ellipsis to fit ``max_width`` px."""
    if stack.width(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # longest prefix whose ellipsised form fits
        mid = (low + high + 1) // 2
        if stack.width(text[:mid].rstrip() + ellipsis) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ellipsis if low else ""


def baseline_start(
    xy: tuple[float, float], width: float, stack: FontStack, anchor: str
) -> tuple[float, float]:
    """Where a text ``width`` wide starts on its baseline, for ``anchor`` at ``xy``
    (see :func:`draw_text`)."""
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    if anchor[1] == "m":
        ascent, descent = stack.primary.getmetrics()
        y += (ascent - descent) / 2
    return x, y


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    stack: FontStack | Font,
    fill: RGB | RGBA | str,
    anchor: str = "lm",
    stroke_width: int = 0,
    stroke_fill: RGB | RGBA | str | None = None,
    on: RGB | None = None,
) -> float:
    """Draw ``text`` with font fallback and return its width.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` then
    vertical ``m`` (middle of the primary font's ascender/descender) or ``s``
    (baseline). Runs of different fonts share one baseline. ``on``: the flat colour
    the text is drawn on, when the caller knows it (:func:`_draw_plain`).
    """
    if isinstance(stack, ImageFont.FreeTypeFont):
        stack = FontStack((stack,))
    runs = stack.runs(text)
    width = sum(stack.length(chunk, font) for chunk, font in runs)
    x, y = baseline_start(xy, width, stack, anchor)
    for chunk, font in runs:
        width_, fill_ = stroke_width, stroke_fill
        if not stroke_width and id(font) in stack.faux_bold:
            width_, fill_ = max(1, round(font.size / 30)), fill
        if isinstance(draw, RecordingDraw):
            draw.run((x, y), chunk, font, fill, width_, fill_, on)
        else:
            _draw_run(draw, (x, y), chunk, font, fill, width_, fill_, on)
        x += stack.length(chunk, font)
    return width


def _draw_run(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    chunk: str,
    font: Font,
    fill: Any,
    stroke_width: int,
    stroke_fill: Any,
    on: RGB | None,
) -> None:
    """One run of :func:`draw_text`, from ``xy`` on its baseline."""
    if stroke_width or not _plain_text(draw, chunk, font, fill):
        draw.text(
            xy, chunk, font=font, fill=fill, anchor="ls", stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )  # fmt: skip
    else:
        _draw_plain(draw, xy, chunk, font, fill, on)


def _plain_text(draw: ImageDraw.ImageDraw, chunk: str, font: Font, fill: object) -> bool:
    """Whether :func:`_draw_plain` draws ``chunk`` as ``draw.text`` would: one line, a
    remembering font, a colour given as numbers, an antialiased canvas."""
    return (
        isinstance(font, RememberingFont)
        and isinstance(fill, tuple)
        and draw.fontmode == "L"
        and "\n" not in chunk
    )


def _draw_plain(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    chunk: str,
    font: Font,
    fill: Any,
    on: RGB | None = None,
) -> None:
    """``draw.text(xy, chunk, font=font, fill=fill, anchor="ls")`` without its layout
    machinery: the same mask (remembered, :class:`RememberingFont`) at the same place
    with the same ink, drawn by the same call (``draw_bitmap``); a board draws dozens
    of texts, and the machinery cost more than drawing them.

    ``on``, the flat colour under the text's inked pixels (the caller's promise): the
    text blended onto that colour once (:data:`TEXT_ON`), then copied wherever the
    mask has ink: the pixels ``draw_bitmap`` would blend there, six times faster
    (blending every pixel of a text's box was most of what a text cost)."""
    x, y = xy
    ink = draw.draw.draw_ink(fill)
    start = (math.modf(x)[0], math.modf(y)[0])
    if on is not None and draw.im is not None:
        strip, inked, (dx, dy) = _text_on_remembered(font, chunk, start, ink, on)
        left, top = int(x) + dx, int(y) + dy
        draw.im.paste(strip, (left, top, left + strip.size[0], top + strip.size[1]), inked)
        return
    mask, offset = font.getmask2(
        chunk, "L", None, None, None, 0, "ls", ink, start, stroke_filled=True
    )
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


#: texts already blended onto a flat colour (:func:`_draw_plain`), at most this many bytes
TEXT_ON = _Masks(8 * 1024 * 1024)


#: a coverage or alpha channel to one bit (``Image.point``): inked wherever it is not 0
INKED = [0] + [255] * 255


def _text_on_remembered(
    font: Font, chunk: str, start: tuple[float, float], ink: int, on: RGB
) -> tuple[Any, Any, tuple[int, int]]:
    """:func:`_text_on` through :data:`TEXT_ON`."""
    key = (font, chunk, start, ink, on)
    found = TEXT_ON.get(key)
    if found is None:
        found = _text_on(font, chunk, start, ink, on)
        TEXT_ON.put(key, found, found[0].size[0] * found[0].size[1] * 5 + 200)
    return cast(tuple[Any, Any, tuple[int, int]], found)


def _text_on(
    font: Font, chunk: str, start: tuple[float, float], ink: int, on: RGB
) -> tuple[Any, Any, tuple[int, int]]:
    """``chunk`` blended by ``draw_bitmap`` onto ``on``, the one-bit mask of its inked
    pixels, and where they go from the pen's position (the images' cores)."""
    mask, offset = font.getmask2(
        chunk, "L", None, None, None, 0, "ls", ink, start, stroke_filled=True
    )
    strip = Image.new("RGB", mask.size, on)
    ImageDraw.Draw(strip).draw.draw_bitmap((0, 0), mask, ink)
    coverage = Image.new("L", mask.size)
    coverage.im.paste(mask, (0, 0, *mask.size))
    inked = coverage.point(INKED, "1")
    return strip.im, inked.im, (int(offset[0]), int(offset[1]))


# --------------------------------------------------------------------------- colours


def parse_hex_colour(value: str | None, default: RGB) -> RGB:
    """``"#rrggbb"`` (or ``"rrggbb"``/``"#rgb"``) to an RGB tuple; ``default`` if invalid."""
    if not isinstance(value, str):
        return default
    digits = value.strip().lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    if len(digits) != 6:
        return default
    try:
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    except ValueError:
        return default


def luminance(rgb: RGB) -> float:
    """Relative luminance (sRGB, WCAG formula), 0 = black, 1 = white."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def readable_on(rgb: RGB, dark: RGB = (20, 20, 20), light: RGB = (255, 255, 255)) -> RGB:
    """The text colour (dark or light) with the better contrast on ``rgb``."""
    lum = luminance(rgb)
    return dark if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else light


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend from ``a`` (t=0) to ``b`` (t=1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# --------------------------------------------------------------------------- sprites

SUPERSAMPLE = 4


def sprite(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, float], None]
) -> Image.Image:
    """An RGBA sprite drawn by ``paint(draw, scale)`` at 4x, then downscaled.

    ``paint`` receives the 4x drawing context and the scale factor, so it can
    use coordinates in final pixels multiplied by ``scale``.
    """
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def paste(canvas: Image.Image, image: Image.Image, xy: tuple[float, float]) -> None:
    """Paste an RGBA sprite at ``xy`` (top-left, rounded) using its alpha.

    The same pixels as ``canvas.paste(image, xy, image)``, drawn for less: Pillow's
    checks around a paste cost as much as a small paste, and a masked paste blends
    every pixel of the sprite, the opaque inside of a tile and the empty inside of a
    ring too. So, where Pillow's own would do nothing more (images made in memory,
    an RGBA sprite on a writable RGB canvas): the images' cores are pasted directly,
    and a sprite big enough is pasted in pieces (:func:`_pieces`): its opaque middle
    copied without blending, its empty middle skipped, the rest blended as before.
    """
    x, y = round(xy[0]), round(xy[1])
    if (
        type(canvas) is not Image.Image
        or type(image) is not Image.Image
        or image.mode != "RGBA"
        or canvas.mode != "RGB"
        or canvas.readonly
    ):
        canvas.paste(image, (x, y), image)
        return
    target = canvas.im
    pieces = _pieces(image)
    if pieces is None:
        core = image.im
        target.paste(core, (x, y, x + image.width, y + image.height), core)
        return
    for dx, dy, piece, masked in pieces:
        core = piece.im
        box = (x + dx, y + dy, x + dx + piece.width, y + dy + piece.height)
        if masked:
            target.paste(core, box, core)
        else:
            target.paste(core, box)


#: a piece of a sprite: where it starts on the sprite, its image, whether it is blended
_Piece = tuple[int, int, Image.Image, bool]
#: sprites already looked at (:func:`_pieces`), by id, each with a weak reference to the
#: sprite (an id names one object only while it lives; the sprite's own cache, not
#: this one, decides how long it lives); emptied when full
_CUT: dict[int, tuple[weakref.ref[Image.Image], tuple[_Piece, ...] | None]] = {}
_MAX_CUT = 2048
#: a middle smaller than this (pixels) is not cut out: the pieces would cost more
_CUT_AREA = 50 * 50


def _pieces(image: Image.Image) -> tuple[_Piece, ...] | None:
    """``image`` (RGBA) as pieces that paste the same pixels, or None to paste it
    whole; remembered."""
    known = _CUT.get(id(image))
    if known is not None and known[0]() is image:
        return known[1]
    pieces = _cut(image)
    if len(_CUT) >= _MAX_CUT:
        _CUT.clear()
    _CUT[id(image)] = (weakref.ref(image), pieces)
    return pieces


def _cut(image: Image.Image) -> tuple[_Piece, ...] | None:
    """The largest rectangle around the sprite's centre that is all opaque (copied)
    or all transparent (skipped), and the bands around it (blended, each cut to its
    visible part); the whole sprite, blended, when there is no such rectangle worth
    it (None). Blending with alpha 255 gives the sprite's pixel and with 0 the
    canvas's, so the pieces draw exactly what the whole would."""
    whole = None
    width, height = image.size
    if width * height < _CUT_AREA:
        return whole
    alpha = image.getchannel("A")
    cx, cy = width // 2, height // 2
    middle = alpha.getpixel((cx, cy))
    if middle not in (0, 255):
        return whole
    rect = _middle_rectangle_of(alpha.tobytes(), width, height, b"\xff" if middle else b"\x00")
    if rect is None:
        return whole
    x0, y0, x1, y1 = rect
    if (x1 - x0) * (y1 - y0) < _CUT_AREA:  # the pieces' own cost would eat the saving
        return whole
    pieces: list[_Piece] = []
    for box in ((0, 0, width, y0), (0, y1, width, height), (0, y0, x0, y1), (x1, y0, width, y1)):
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        band = image.crop(box)
        seen = band.getchannel("A").getbbox()
        if seen is not None:
            pieces.append((box[0] + seen[0], box[1] + seen[1], band.crop(seen), True))
    if middle == 255:
        pieces.append((x0, y0, image.crop(rect).convert("RGB"), False))
    return tuple(pieces)


#: :func:`_middle_rectangle` by its alpha's digest, size and value: sprites made anew
#: (a Tikal hex with other stones, a card with another number) mostly have an alpha
#: seen before; emptied when full
_RECTANGLES: dict[tuple[bytes, int, int, bytes], tuple[int, int, int, int] | None] = {}
_MAX_RECTANGLES = 4096


def _middle_rectangle_of(
    alpha: bytes, width: int, height: int, value: bytes
) -> tuple[int, int, int, int] | None:
    """:func:`_middle_rectangle`, remembered by what it depends on: the alpha's bytes
    (by a 128-bit digest), the size and the value."""
    key = (hashlib.blake2b(alpha, digest_size=16).digest(), width, height, value)
    try:
        return _RECTANGLES[key]
    except KeyError:
        pass
    rect = _middle_rectangle(alpha, width, height, value)
    if len(_RECTANGLES) >= _MAX_RECTANGLES:
        _RECTANGLES.clear()
    _RECTANGLES[key] = rect
    return rect


def _middle_rectangle(
    alpha: bytes, width: int, height: int, value: bytes
) -> tuple[int, int, int, int] | None:
    """The largest rectangle of ``value`` alone, of whole rows through the centre, each
    row's part the run of ``value`` through the centre column (left, top, right,
    bottom; right and bottom excluded)."""
    cx, cy = width // 2, height // 2
    runs: list[tuple[int, int]] = []
    for y in range(height):
        row = alpha[y * width : (y + 1) * width]
        if row[cx : cx + 1] != value:
            runs.append((cx, cx))
            continue
        left = len(row[:cx].rstrip(value))
        right = width - len(row[cx:].lstrip(value))
        runs.append((left, right))
    # the best of every top (at or above the centre row) with every bottom (below it)
    ups: list[tuple[int, int, int]] = []  # (top, widest left, narrowest right)
    left, right = 0, width
    for top in range(cy, -1, -1):
        left, right = max(left, runs[top][0]), min(right, runs[top][1])
        if right <= left:
            break
        ups.append((top, left, right))
    downs: list[tuple[int, int, int]] = []
    left, right = 0, width
    for bottom in range(cy, height):
        left, right = max(left, runs[bottom][0]), min(right, runs[bottom][1])
        if right <= left:
            break
        downs.append((bottom + 1, left, right))
    best: tuple[int, tuple[int, int, int, int]] | None = None
    for top, up_left, up_right in ups:
        for bottom, down_left, down_right in downs:
            left, right = max(up_left, down_left), min(up_right, down_right)
            area = (right - left) * (bottom - top)
            if right > left and (best is None or area > best[0]):
                best = (area, (left, top, right, bottom))
    return best[1] if best is not None else None


def paste_centered(canvas: Image.Image, image: Image.Image, center: tuple[float, float]) -> None:
    """Paste an RGBA sprite centred on ``center``."""
    paste(canvas, image, (center[0] - image.width / 2, center[1] - image.height / 2))


# --------------------------------------------------------------------------- drawn by regions

#: a region of an image: left, top, right, bottom (right and bottom excluded)
Box = tuple[int, int, int, int]
#: a sprite pasted with its top left at (x, y), with its alpha (:func:`paste`)
Paste = tuple[Image.Image, int, int]


class Mark:
    """Something drawn on the canvas itself rather than pasted (a disc with a number):
    it draws within :attr:`box` only. One with a :attr:`key` draws the same pixels
    moved by whole pixels (``draw(img, at)`` draws it ``at`` pixels up and left), and
    the key, with the mark itself kept alive, says everything that decides them."""

    box: Box
    key: tuple[Any, ...] | None = None

    def draw(self, img: Image.Image, at: tuple[int, int] = (0, 0)) -> None:
        raise NotImplementedError


class Copied(Mark):
    """A text drawn on a flat colour (:func:`_draw_plain` with ``on``): its strip copied
    through its one-bit mask of ink, with its top left at (x, y)."""

    def __init__(self, strip: Any, inked: Any, x: int, y: int) -> None:
        self.strip, self.inked = strip, inked
        self.box = (x, y, x + strip.size[0], y + strip.size[1])
        self.key = (id(strip), id(inked), x, y)

    def draw(self, img: Image.Image, at: tuple[int, int] = (0, 0)) -> None:
        left, top, right, bottom = self.box
        img.im.paste(
            self.strip, (left - at[0], top - at[1], right - at[0], bottom - at[1]), self.inked
        )


Op = Paste | Mark


class Recorder(Image.Image):
    """A stand-in canvas: what :func:`paste` (so :func:`paste_centered` and
    :meth:`renderer.lettering.Pen.put` without ``on``) puts on it is recorded in
    :attr:`ops`, in order, and not drawn; any other drawing on it fails."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: list[Op] = []

    def paste(self, im: Any, box: Any = None, mask: Any = None) -> None:
        if not isinstance(im, Image.Image) or mask is not im or len(box or ()) != 2:
            raise TypeError("a Recorder records sprites pasted with their own alpha only")
        self.ops.append((im, box[0], box[1]))


class Later(Mark):
    """A drawing on the canvas (``paint(img)``), staying within ``box``."""

    def __init__(self, box: Box, paint: Callable[[Image.Image], None]) -> None:
        self.box, self.paint = box, paint

    def draw(self, img: Image.Image, at: tuple[int, int] = (0, 0)) -> None:
        assert at == (0, 0), "drawn in its place only"
        self.paint(img)


def _bounds(xy: Any, reach: float) -> Box:
    """The box of the points (or the box) ``xy`` with ``reach`` pixels around."""
    flat: list[float] = []
    for item in xy if isinstance(xy, (list, tuple)) else (xy,):
        flat += item if isinstance(item, (list, tuple)) else (item,)
    xs, ys = flat[0::2], flat[1::2]
    return (
        math.floor(min(xs) - reach),
        math.floor(min(ys) - reach),
        math.ceil(max(xs) + reach) + 1,
        math.ceil(max(ys) + reach) + 1,
    )


class RecordingDraw(ImageDraw.ImageDraw):
    """An ``ImageDraw`` for a :class:`Recorder`: its shapes and the texts
    :meth:`renderer.lettering.Pen.text` draws with it are recorded as :class:`Later`
    ops, each with a box around it (the shape's bounds, its outline's width and two
    pixels; a text's width and its size around it), and drawn when the ops are."""

    fontmode = "L"

    def __init__(self, recorder: Recorder) -> None:  # draws nothing: records
        self.recorder = recorder

    def _later(self, name: str, xy: Any, args: Any, kwargs: dict[str, Any]) -> None:
        reach = int(kwargs.get("width") or 1) + 2

        def paint(img: Image.Image) -> None:
            getattr(ImageDraw.Draw(img), name)(xy, *args, **kwargs)

        self.recorder.ops.append(Later(_bounds(xy, reach), paint))

    def rounded_rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._later("rounded_rectangle", xy, args, kwargs)

    def rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._later("rectangle", xy, args, kwargs)

    def ellipse(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._later("ellipse", xy, args, kwargs)

    def line(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._later("line", xy, args, kwargs)

    def polygon(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        self._later("polygon", xy, args, kwargs)

    def run(
        self,
        xy: tuple[float, float],
        chunk: str,
        font: Font,
        fill: Any,
        stroke_width: int,
        stroke_fill: Any,
        on: RGB | None,
    ) -> None:
        """One run of :func:`draw_text` recorded: on a flat colour, the strip it copies
        (:class:`Copied`); else the run drawn later, in a box of its size around it."""
        x, y = xy
        if on is not None and not stroke_width and _plain_text(self, chunk, font, fill):
            start = (math.modf(x)[0], math.modf(y)[0])
            ink = _INK.draw_ink(fill)
            strip, inked, (dx, dy) = _text_on_remembered(font, chunk, start, ink, on)
            self.recorder.ops.append(Copied(strip, inked, int(x) + dx, int(y) + dy))
            return
        size = font.size + stroke_width + 2
        length = font.getlength(chunk)

        def paint(img: Image.Image) -> None:
            _draw_run(ImageDraw.Draw(img), xy, chunk, font, fill, stroke_width, stroke_fill, on)

        self.recorder.ops.append(Later(_bounds(((x, y - size), (x + length, y)), size), paint))


#: draws nothing: turns a colour into the ink of an RGB image (:meth:`RecordingDraw.run`)
_INK = ImageDraw.Draw(Image.new("RGB", (1, 1))).draw


def draw_ops(img: Image.Image, ops: Iterable[Op]) -> None:
    """Draw ``ops`` on ``img`` in their order."""
    for op in ops:
        if isinstance(op, Mark):
            op.draw(img)
        else:
            paste(img, op[0], (op[1], op[2]))


#: regions already drawn and mapped by :func:`mapped_by_regions`, by what decides their
#: pixels: the ids of the background, the palette (each with a weak reference, checked:
#: a background dropped from its cache is not kept alive, and an id names one object
#: only while it lives) and the sprites (kept alive by the entry), the region's box
#: and where each sprite goes; the least recently used dropped past
#: :data:`_REGIONS_BUDGET` bytes (the mapped pixels, and the part in the region of
#: each text strip the entry keeps alive)
_REGIONS: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], Any, int]] = OrderedDict()
_REGIONS_BUDGET = 8 * 2**20
_regions_used = 0


def forget_regions() -> None:
    """Empty :data:`_REGIONS`."""
    global _regions_used
    _REGIONS.clear()
    _regions_used = 0


def mapped_by_regions(
    ops: Sequence[Op],
    background: Image.Image,
    palette: Image.Image,
    xs: Sequence[int],
    ys: Sequence[int],
) -> Image.Image | None:
    """``background`` with ``ops`` drawn, mapped onto ``palette``: the pixels
    ``encode_png`` gives, or None when an op reaches out of the background.

    The background is cut into regions at ``xs`` and ``ys`` (from 0 to its width and
    height). A region's pixels follow from the background there and the ops that reach
    it, in their order (a paste cut to the region blends the same pixels, and mapping
    is a function of each pixel's colour alone), so a region of pastes (and of marks
    with a key) is drawn and mapped once and remembered (:data:`_REGIONS`); a region
    no op reaches is the background mapped (:func:`mapped_onto`). A region a mark
    without a key reaches is drawn on a canvas of the background's size (drawn on
    there only), every op that reaches it in its place, then mapped. Where regions
    not remembered cover more than :data:`_WHOLE_WHEN_NEW` of the image (a game's
    first board), the whole is drawn and mapped, and its regions remembered from it."""
    width, height = background.size
    by_region: dict[tuple[int, int], list[int]] = {}
    for n, op in enumerate(ops):
        if isinstance(op, Mark):
            left, top, right, bottom = op.box
        else:
            left, top, right, bottom = op[1], op[2], op[1] + op[0].width, op[2] + op[0].height
        if left < 0 or top < 0 or right > width or bottom > height:
            return None
        for i in range(bisect_right(xs, left) - 1, bisect_left(xs, right)):
            for j in range(bisect_right(ys, top) - 1, bisect_left(ys, bottom)):
                by_region.setdefault((i, j), []).append(n)
    palette.load()
    known: list[tuple[Box, Any]] = []  # (box, mapped)
    new: list[tuple[Box, tuple[Any, ...], list[Op]]] = []  # (box, key, ops)
    on_canvas: list[Box] = []
    canvas_ops: set[int] = set()
    new_area = 0
    for (i, j), numbers in by_region.items():
        box = (xs[i], ys[j], xs[i + 1], ys[j + 1])
        region_ops = [ops[n] for n in numbers]
        if any(isinstance(op, Mark) and op.key is None for op in region_ops):
            on_canvas.append(box)
            canvas_ops.update(numbers)
            new_area += (box[2] - box[0]) * (box[3] - box[1])
            continue
        key = (
            id(background),
            id(palette),
            box,
            *(op.key if isinstance(op, Mark) else (id(op[0]), op[1], op[2]) for op in region_ops),
        )
        found = _REGIONS.get(key)
        if found is None or found[0][0]() is not background or found[0][1]() is not palette:
            new.append((box, key, region_ops))
            new_area += (box[2] - box[0]) * (box[3] - box[1])
        else:
            with suppress(KeyError):
                _REGIONS.move_to_end(key)
            known.append((box, found[1]))
    if new_area > _WHOLE_WHEN_NEW * width * height:
        canvas = background.copy()
        draw_ops(canvas, ops)
        out = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
        for box, key, region_ops in new:
            _remember(key, region_ops, background, palette, out.im.crop(box), box)
        return out
    out = mapped_onto(background, palette).copy()
    for box, mapped in known:
        out.im.paste(mapped, box)
    for box, key, region_ops in new:
        patch = background.crop(box)
        for op in region_ops:
            if isinstance(op, Mark):
                op.draw(patch, box[:2])
            else:
                paste(patch, op[0], (op[1] - box[0], op[2] - box[1]))
        mapped = patch.im.convert("P", Image.Dither.NONE, palette.im)
        _remember(key, region_ops, background, palette, mapped, box)
        out.im.paste(mapped, box)
    if canvas_ops:
        canvas = Image.new("RGB", background.size, None)
        for box in on_canvas:
            canvas.im.paste(background.im.crop(box), box)
        draw_ops(canvas, [ops[n] for n in sorted(canvas_ops)])
        for box in on_canvas:
            out.im.paste(canvas.im.crop(box).convert("P", Image.Dither.NONE, palette.im), box)
    return out


#: :func:`mapped_by_regions` draws the whole image where regions it does not remember
#: cover more than this share of it: drawing and mapping the regions one by one costs
#: more a pixel than the whole at once
_WHOLE_WHEN_NEW = 0.25


def _remember(
    key: tuple[Any, ...],
    region_ops: Sequence[Op],
    background: Image.Image,
    palette: Image.Image,
    mapped: Any,
    box: Box,
) -> None:
    """Remember a region mapped (:data:`_REGIONS`), keeping alive what its key names."""
    global _regions_used
    size = (box[2] - box[0]) * (box[3] - box[1])
    for op in region_ops:  # the part in the region of each text's strip kept alive
        if isinstance(op, Copied):
            left, top, right, bottom = op.box
            inside = (min(right, box[2]) - max(left, box[0])) * (
                min(bottom, box[3]) - max(top, box[1])
            )
            size += inside * 5  # RGB (4 bytes a pixel) and its one-bit mask (a byte)
    keep = (
        weakref.ref(background),
        weakref.ref(palette),
        *(op if isinstance(op, Mark) else op[0] for op in region_ops),
    )
    _REGIONS[key] = (keep, mapped, size)
    _regions_used += size
    while _regions_used > _REGIONS_BUDGET and _REGIONS:
        with suppress(KeyError):  # another thread dropped it first
            _regions_used -= _REGIONS.popitem(last=False)[1][2]


def star_points(
    cx: float, cy: float, outer: float, inner: float, spikes: int = 5
) -> Sequence[tuple[float, float]]:
    """Vertices of a star polygon pointing up."""
    points = []
    for i in range(spikes * 2):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / spikes
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


# --------------------------------------------------------------------------- encoding


def build_palette(sample: Image.Image, exact: Sequence[RGB], size: int = 256) -> Image.Image:
    """A ``P`` image whose palette holds ``exact`` colours unchanged plus the
    best ``size - len(exact)`` colours of ``sample`` (fast octree).

    Renderers build it once from a sample image containing every sprite they
    may draw, then map each render onto it (:func:`encode_png`), which is
    several times faster than quantizing each image adaptively.
    """
    unique = list(dict.fromkeys(tuple(c[:3]) for c in exact))[:size]
    octree = sample.convert("RGB").quantize(
        size - len(unique), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    raw = octree.getpalette() or []
    colours = unique + [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    colours = list(dict.fromkeys(colours))[:size]
    flat = [v for colour in colours for v in colour]
    flat += flat[-3:] * (256 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def encode_png(
    image: Image.Image, palette: Image.Image | None = None, compress_level: int = 3
) -> bytes:
    """PNG bytes of ``image``, mapped onto ``palette`` (no dithering) when given.

    Boards are flat colours with antialiased edges: 256 well-chosen colours
    look the same, and an 8-bit PNG is about a third of the RGB size and much
    faster to compress.
    """
    if palette is not None:
        rgb = image if image.mode == "RGB" else image.convert("RGB")  # no copy when RGB
        image = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    elif image.mode in _PNG_COLOUR_TYPES:
        return unfiltered_png(image, compress_level)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()


#: :func:`mapped_onto`'s images, by the ids of the image and the palette, each with weak
#: references to both (an id names one object only while it lives); the least recently
#: used dropped past this many (a board's background mapped is about 1.1 MB)
_MAPPED: OrderedDict[
    tuple[int, int], tuple[weakref.ref[Image.Image], weakref.ref[Image.Image], Image.Image]
] = OrderedDict()
_MAX_MAPPED = 4


def mapped_onto(image: Image.Image, palette: Image.Image) -> Image.Image:
    """An RGB ``image`` that does not change (a cached background) mapped onto
    ``palette`` as :func:`encode_png` maps it; remembered (:data:`_MAX_MAPPED`). Do not
    change the result: copy it."""
    key = (id(image), id(palette))
    known = _MAPPED.get(key)
    if known is not None and known[0]() is image and known[1]() is palette:
        with suppress(KeyError):
            _MAPPED.move_to_end(key)
        return known[2]
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    _MAPPED[key] = (weakref.ref(image), weakref.ref(palette), mapped)
    if len(_MAPPED) > _MAX_MAPPED:
        with suppress(KeyError):  # another thread dropped it first
            _MAPPED.popitem(last=False)
    return mapped


#: PNG colour types of the modes :func:`unfiltered_png` writes (8 bits a sample)
_PNG_COLOUR_TYPES = {"RGB": (2, 3), "RGBA": (6, 4)}
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join(
        (struct.pack("!I", len(data)), kind, data, struct.pack("!I", zlib.crc32(kind + data)))
    )


def unfiltered_png(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes of an RGB or RGBA ``image``, every row with filter type 0 (none) and
    the whole deflated at ``compress_level``: the same pixels as Pillow's PNG, whose
    encoder tries all five filters on every row of a full-colour image."""
    colour_type, channels = _PNG_COLOUR_TYPES[image.mode]
    width, height = image.size
    stride = width * channels
    pixels = memoryview(image.tobytes())
    deflate = zlib.compressobj(compress_level)
    data = []
    for start in range(0, stride * height, stride):
        data.append(deflate.compress(b"\x00"))  # the row's filter type: none
        data.append(deflate.compress(pixels[start : start + stride]))
    data.append(deflate.flush())
    header = struct.pack("!IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join(
        (
            _PNG_SIGNATURE,
            _png_chunk(b"IHDR", header),
            _png_chunk(b"IDAT", b"".join(data)),
            _png_chunk(b"IEND", b""),
        )
    )


SeatT = TypeVar("SeatT")


def seat_named(by_seat: Mapping[int, SeatT], item: Mapping[str, Any]) -> SeatT | None:
    """The seat an item of a view names (``"seat"``), if it is one of ``by_seat``."""
    seat = item.get("seat")
    return by_seat.get(seat) if isinstance(seat, int) else None


def turn_steps(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The steps since the last hand-off a view lists (older views: the last action only)."""
    steps = view.get("steps")
    if steps is None:
        last = view.get("last_action")
        steps = [last] if last else []
    return list(steps)
