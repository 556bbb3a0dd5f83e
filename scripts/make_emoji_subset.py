"""Regenerate ``renderer/fonts/ZigguratEmoji-Regular.ttf`` from Noto Emoji.

Discord names often carry an emoji; the boards draw it with this monochrome
font (in the name's colour) instead of a missing-glyph box::

    pip install fonttools                    # a tool for this script only
    python scripts/make_emoji_subset.py --source NotoEmoji[wght].ttf
    python scripts/make_emoji_subset.py --check

Decisions:

* Source: Noto Emoji, the monochrome outline face (Google, SIL Open Font
  License 1.1; https://github.com/googlefonts/noto-emoji, also on Google Fonts
  and inside PyPI's ``manimgx-fonts`` wheel), its variable font instanced at
  weight 400 (Regular).
* Monochrome, not Noto Color Emoji: the colour font is bitmaps (CBDT, 10 MB,
  drawn by Pillow only at its 109 px strike and then scaled), and the boards
  are encoded on a fixed 256-colour palette that would posterise it. An
  outline face draws at any size through the same font stacks as every other
  text, flat like the rest of the board, in about 0.8 MB.
* Content: every character the face maps (about 1,470 emoji, the keycap and
  regional-indicator parts included). No layout tables: sequences (a family
  joined by zero-width joiners, a flag, a skin tone) are drawn as their parts,
  cleaned by ``renderer.common.clean_name`` (joiners and variation selectors
  dropped, skin-tone swatches left out).
* Names: renamed "Ziggurat Emoji Subset" (a Modified Version under the OFL);
  copyright and license fields kept; ``renderer/fonts/OFL.txt`` covers it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "renderer" / "fonts" / "ZigguratEmoji-Regular.ttf"
FAMILY = "Ziggurat Emoji Subset"
POSTSCRIPT = "ZigguratEmojiSubset-Regular"
#: characters every emoji name test relies on (checked with ``--check``)
REQUIRED = "😀🐉❤🔥🎲🌸👑🦊🍀⭐🐱🚀"


def build(source: Path, output: Path) -> int:
    """Write the Regular instance of ``source``, renamed; return its character count."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    font = TTFont(str(source))
    if "fvar" in font:
        font = instancer.instantiateVariableFont(font, {"wght": 400})
    codes = sorted(font.getBestCmap())
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.glyph_names = False
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 10, 13, 14]
    options.drop_tables += ["GSUB", "GPOS", "vhea", "vmtx", "STAT"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    _rename(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(output))
    return len(codes)


def _rename(font: Any) -> None:
    names = font["name"]
    version = names.getDebugName(5) or ""
    described = (
        f"Noto Emoji ({version}) at weight 400, without layout tables, "
        "made by scripts/make_emoji_subset.py."
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


def missing(output: Path) -> str:
    """The characters of :data:`REQUIRED` the shipped font lacks."""
    from fontTools.ttLib import TTFont

    cmap = TTFont(str(output)).getBestCmap()
    return "".join(ch for ch in REQUIRED if ord(ch) not in cmap)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="Noto Emoji .ttf (variable or static)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="only check the shipped font")
    args = parser.parse_args(argv)
    if not args.check:
        if args.source is None:
            parser.error("--source is required to build")
        count = build(args.source, args.output)
        print(f"{args.output}: {count} characters, {args.output.stat().st_size // 1024} KiB")
    lacking = missing(args.output)
    if lacking:
        print(f"missing: {lacking}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
