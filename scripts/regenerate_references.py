"""Regenerate the reference images of the visual regression test, on purpose.

Usage: ``python scripts/regenerate_references.py [NAME ...] [--check]``

Draws every case of ``tests/renderer/reference_images.py`` (or only the names
given) with the bundled fonts only and writes ``tests/renderer/references/<name>.png``;
files of cases that no longer exist are removed. ``--check`` writes nothing
and lists the cases whose image differs from its reference (exit status 1).
Look at the new images (``git diff --stat``, an image viewer) before committing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "renderer"))

import reference_images as refs  # noqa: E402
from PIL import Image  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to redraw (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(refs.CASES))
    if unknown:
        parser.error(f"unknown cases: {', '.join(unknown)}; known: {', '.join(refs.CASES)}")
    names = args.names or list(refs.CASES)
    changed = []
    for name in names:
        start = time.perf_counter()
        image = refs.draw(name)
        path = refs.reference_path(name)
        old = Image.open(path).convert("RGB") if path.is_file() else None
        same = old is not None and old.size == image.size and old.tobytes() == image.tobytes()
        if not same:
            changed.append(name)
        if not args.check and not same:
            refs.save(image, path)
        state = "unchanged" if same else ("differs" if args.check else "written")
        ms = (time.perf_counter() - start) * 1000
        print(f"{name}: {state} ({image.width}x{image.height}, {ms:.0f} ms)")
    if not args.names and not args.check:
        for path in sorted(refs.REFERENCES_DIR.glob("*.png")):
            if path.stem not in refs.CASES:
                path.unlink()
                print(f"{path.name}: removed (no such case)")
    total = sum(p.stat().st_size for p in refs.REFERENCES_DIR.glob("*.png"))
    print(f"{len(changed)} of {len(names)} changed; references total {total / 1024:.0f} KB")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
