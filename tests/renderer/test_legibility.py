"""The legibility floor at a phone's width: every reference position is drawn and
no text read at a glance is under 9 px when the image is 412 px wide.

Decisions:

* The sizes come from the one helper every renderer draws text with
  (:class:`renderer.lettering.Pen`), recorded while the case is drawn (the
  renderers' caches are cleared first, so cached sprites are drawn and recorded
  too), and are measured against the decoded image's own width: a close-up,
  narrower than the board, gets the credit of its larger scale.
* A text marked ``detail`` is allowed under the floor; no reference position
  draws one today (Tikal's stones, the one detail the close-up is for, are not
  text). A case that draws no text at all fails: the check would be empty.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import reference_images as refs

from renderer import lettering

RENDERER_DIR = Path(lettering.__file__).resolve().parent
#: Pillow's and the low-level helper's ways to draw text, outside the one helper
DIRECT_TEXT = re.compile(
    r"\bdraw_text\(|\.text\(\s*\(|\bput_text\(|ImageDraw\.Draw\([^)]*\)\.text\("
)


def smallest(name: str) -> tuple[float, str, int]:
    """The smallest glanceable text of a case at phone width: (px, text, count)."""
    with lettering.recording() as texts:
        image = refs.draw(name)
    sizes = [(lettering.phone_size(t.size, image.width), t.text) for t in texts if not t.detail]
    assert sizes, f"{name}: no text recorded"
    px, text = min(sizes)
    return px, text, len(sizes)


@pytest.mark.parametrize("name", list(refs.CASES))
def test_no_glanceable_text_is_under_the_floor_at_phone_width(name: str) -> None:
    px, text, count = smallest(name)
    assert px >= lettering.GLANCE, f"{name}: {text!r} is {px:.1f} px at 412 px wide"
    assert count > 5


def test_renderers_draw_text_only_through_the_pen() -> None:
    found = []
    for path in sorted(RENDERER_DIR.glob("*.py")):
        if path.name in ("common.py", "lettering.py"):
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if DIRECT_TEXT.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []


def test_the_floor_follows_from_the_canvas_width() -> None:
    assert lettering.Pen(412).floor == 9
    assert lettering.Pen(1240).floor == 28  # 9 * 1240 / 412 = 27.09, rounded up
    assert lettering.Pen(1248).floor == 28
    assert lettering.Pen(824).px(10) == 20
    assert lettering.phone_size(28, 1240) >= lettering.GLANCE


def test_a_text_under_the_floor_is_caught() -> None:
    """The check itself: a small label drawn through the pen is recorded at its size."""
    from PIL import Image, ImageDraw

    pen = lettering.Pen(1240)
    image = Image.new("RGB", (1240, 100))
    with lettering.recording() as texts:
        pen.text(ImageDraw.Draw(image), (10, 50), "tiny", 16, (255, 255, 255))
    assert [round(lettering.phone_size(t.size, 1240), 1) for t in texts] == [5.3]
