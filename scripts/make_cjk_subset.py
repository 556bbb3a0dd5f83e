"""Regenerate ``renderer/fonts/ZigguratCJK-Regular.otf`` from the message catalogs.

The renderers draw Chinese and Korean labels with a system CJK font when one is
installed and with this bundled subset otherwise, so a board renders in every
catalog language on any machine. When a catalog gains a character the subset
lacks (``tests/renderer/test_cjk_glyphs.py`` says which), run::

    apt-get install fonts-noto-cjk          # or: apt-get download + dpkg-deb -x
    pip install fonttools                   # a tool for this script only
    python scripts/make_cjk_subset.py       # --source FILE if not at the Debian path
    python scripts/make_cjk_subset.py --check

Decisions:

* Source: Noto Sans CJK Regular (SIL Open Font License 1.1), the face for
  Traditional Chinese (TC) of Debian's ``fonts-noto-cjk`` collection. One face
  serves every language: Korean Hangul is the same in every face, the Simplified
  characters are in the TC face too, and the few characters the two Chinese
  standards shape differently are drawn the Taiwan way (the system font, when
  installed, draws them in its own style).
* Content: every character of every catalog string of every language (English
  included: dashes, arrows, ×, ≤...), plus printable ASCII, so a machine without
  DejaVu still draws a whole label with one font; and, for player names, every
  Hangul syllable (11,172), the common Hanzi of both Chinese scripts — GB 2312
  level 1 (3,755 Simplified, the standard's "most used" level) and Big5's
  common level (5,401 Traditional), 6,722 together — and the Japanese kana.
  Both Hanzi lists come from Python's own codecs, so nothing else is
  downloaded. About 2.7 MB, against ~16 MB for one face of the whole font: a
  name in any of these scripts draws on a bare machine with no install step
  (the README's set-up), which a warning at start could only ask for. A rarer
  character still comes from a system CJK font when one is installed, and is
  drawn as a box otherwise (never dropped: ``renderer.common.draw_text``).
* Size: no hinting (FreeType's autohinter draws the glyphs well at board
  sizes), no layout features, no glyph names; only Regular: the renderers draw
  bold text of a regular fallback with a thin stroke (``renderer/common.py``).
* Names: the family is renamed "Ziggurat CJK Subset" (a Modified Version under
  the OFL may not use the Reserved Font Name, and should not pass for the full
  font); the copyright and license fields are kept, and ``OFL.txt`` sits next to
  the font.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "bot" / "i18n" / "locales"
FONTS = ROOT / "renderer" / "fonts"
OUTPUT = FONTS / "ZigguratCJK-Regular.otf"
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FACE = "Noto Sans CJK TC"
FAMILY = "Ziggurat CJK Subset"
POSTSCRIPT = "ZigguratCJKSubset-Regular"
ASCII = {chr(code) for code in range(0x20, 0x7F)}
#: emoji the chat messages use: Discord draws them, no image does
NOT_DRAWN = {"⚡"}


def catalog_characters(locales: Path = LOCALES) -> set[str]:
    """Every character of every catalog string, every language, plus ASCII."""
    chars = set(ASCII)
    for path in sorted(locales.glob("*/*.json")):
        for text in json.loads(path.read_text("utf-8")).values():
            chars.update(ch for ch in text if ch.isprintable())
    return chars - NOT_DRAWN


def name_characters() -> set[str]:
    """The characters player names are drawn with on any machine (see Content)."""
    chars = {chr(code) for code in range(0xAC00, 0xAC00 + 11172)}  # Hangul syllables
    chars |= {chr(code) for code in range(0x3131, 0x318F)}  # Hangul compatibility jamo
    chars |= {chr(code) for code in range(0x3041, 0x3097)}  # hiragana
    chars |= {chr(code) for code in range(0x30A1, 0x3100)}  # katakana
    chars.add("\u25a1")  # □: drawn for a character of a name no font has
    for high in range(0xB0, 0xD8):  # GB 2312 level 1
        for low in range(0xA1, 0xFF):
            chars |= _decoded(bytes((high, low)), "gb2312")
    for high in range(0xA4, 0xC7):  # Big5 common characters, A440..C67E
        for low in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            if (high, low) <= (0xC6, 0x7E):
                chars |= _decoded(bytes((high, low)), "big5")
    return chars


def _decoded(data: bytes, codec: str) -> set[str]:
    try:
        return {data.decode(codec)}
    except UnicodeDecodeError:
        return set()


def _face(source: Path) -> Any:
    """The TC face of the collection (or the single font) as a fontTools font."""
    from fontTools.ttLib import TTCollection, TTFont

    if source.suffix.lower() in (".ttc", ".otc"):
        for font in TTCollection(str(source)).fonts:
            if font["name"].getDebugName(4) == FACE:
                return font
        raise SystemExit(f"{source} has no face named {FACE!r}")
    return TTFont(str(source))


def build(source: Path, output: Path, chars: set[str]) -> set[str]:
    """Write the subset of ``source`` with ``chars``; return the characters it lacks."""
    from fontTools import subset

    font = _face(source)
    cmap = font.getBestCmap()
    missing = {ch for ch in chars if ord(ch) not in cmap}
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.desubroutinize = False
    options.glyph_names = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 10, 13, 14]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in chars - missing))
    subsetter.subset(font)
    _rename(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(output))
    return missing


def _rename(font: Any) -> None:
    """Give the subset its own names; keep copyright (0) and license (13, 14)."""
    names = font["name"]
    version = names.getDebugName(5) or ""
    described = (
        f"A subset of {FACE} Regular ({version}) with the characters of the "
        "Ziggurat message catalogs and the common characters of player names, "
        "made by scripts/make_cjk_subset.py."
    )
    for record in list(names.names):
        if record.nameID in (1, 3, 4, 6, 10, 16, 17):
            names.removeNames(nameID=record.nameID)
    for name_id, text in (
        (1, FAMILY),
        (3, f"{POSTSCRIPT};{version}"),
        (4, FAMILY),
        (6, POSTSCRIPT),
        (10, described),
    ):
        names.setName(text, name_id, 3, 1, 0x409)
        names.setName(text, name_id, 1, 0, 0)
    font["CFF "].cff.fontNames = [POSTSCRIPT]
    top = font["CFF "].cff.topDictIndex[0]
    for field in ("FullName", "FamilyName"):
        if hasattr(top, field):
            setattr(top, field, FAMILY)


def check(output: Path, chars: set[str]) -> set[str]:
    """The characters of ``chars`` the shipped subset lacks."""
    from fontTools.ttLib import TTFont

    cmap = TTFont(str(output)).getBestCmap()
    return {ch for ch in chars if ord(ch) not in cmap}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="Noto Sans CJK .ttc/.otf")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="only report missing characters")
    args = parser.parse_args(argv)
    chars = catalog_characters() | name_characters()
    if args.check:
        missing = check(args.output, chars)
    else:
        missing = build(args.source, args.output, chars)
        size = args.output.stat().st_size
        print(f"{args.output}: {len(chars) - len(missing)} characters, {size // 1024} KiB")
    if missing:
        print("missing: " + "".join(sorted(missing)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
