"""Visual regression: each position of ``reference_images.CASES`` is drawn again
and compared with its committed reference in ``tests/renderer/references/``.

Decisions:

* A pixel "differs" when one of its channels is off by more than
  :data:`CHANNEL_TOLERANCE`; an image fails when more than :data:`MAX_DIFFERING`
  pixels differ, or when its size changed. The slack absorbs antialiasing noise
  of another FreeType or Pillow build, nothing a player could see: a single
  misplaced digit is several hundred differing pixels (the Tigris right-edge
  row numbers drawn on one spot differ in 2,653 pixels with today's 34 px edge
  labels, 1,377 with the 24 px ones of the regression).
* On a failure the test writes ``<name>-diff.png`` to its ``tmp_path`` (the
  reference, the new image, and the new image greyed with the differing pixels
  in magenta, side by side) and names the file in the message.
* A deliberate change is recorded with ``python scripts/regenerate_references.py``
  (one command; it also removes references of cases that no longer exist).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reference_images as refs
from PIL import Image, ImageChops

CHANNEL_TOLERANCE = 40
MAX_DIFFERING = 60
MAGENTA = (255, 0, 255)


def differing_mask(reference: Image.Image, image: Image.Image) -> Image.Image:
    """An ``L`` mask, 255 where some channel differs by more than the tolerance."""
    diff = ImageChops.difference(reference, image)
    channels = [c.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0) for c in diff.split()]
    mask = channels[0]
    for channel in channels[1:]:
        mask = ImageChops.lighter(mask, channel)
    return mask


def difference_image(reference: Image.Image, image: Image.Image, mask: Image.Image) -> Image.Image:
    """Reference | new | new greyed with the differing pixels in magenta."""
    width = reference.width + image.width * 2
    height = max(reference.height, image.height)
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    sheet.paste(reference, (0, 0))
    sheet.paste(image, (reference.width, 0))
    white = Image.new("RGB", image.size, "white")
    grey = Image.blend(image.convert("L").convert("RGB"), white, 0.6)
    grey.paste(Image.new("RGB", image.size, MAGENTA), (0, 0), mask)
    sheet.paste(grey, (reference.width + image.width, 0))
    return sheet


def compare(name: str, image: Image.Image, reference: Image.Image, out_dir: Path) -> str | None:
    """None when ``image`` matches ``reference``, else the failure message."""
    hint = f"(python scripts/regenerate_references.py {name} if the change is deliberate)"
    if image.size != reference.size:
        path = out_dir / f"{name}-new.png"
        image.save(path)
        return f"{name}: size {image.size} != reference {reference.size}; new image: {path} {hint}"
    mask = differing_mask(reference, image)
    count = mask.histogram()[255]
    if count <= MAX_DIFFERING:
        return None
    path = out_dir / f"{name}-diff.png"
    difference_image(reference, image, mask).save(path)
    return f"{name}: {count} pixels differ (tolerance {MAX_DIFFERING}); difference: {path} {hint}"


def test_every_case_has_a_reference_and_every_reference_a_case() -> None:
    files = {p.stem for p in refs.REFERENCES_DIR.glob("*.png")}
    assert files == set(refs.CASES)
    total = sum(p.stat().st_size for p in refs.REFERENCES_DIR.glob("*.png"))
    assert total < 3_500_000, total  # small enough to live in the repository


@pytest.mark.parametrize("name", list(refs.CASES))
def test_the_image_matches_its_reference(name: str, tmp_path: Path) -> None:
    reference = Image.open(refs.reference_path(name)).convert("RGB")
    failure = compare(name, refs.draw(name), reference, tmp_path)
    assert failure is None, failure


def test_a_moved_label_is_caught(tmp_path: Path) -> None:
    """The comparison itself: one board number drawn elsewhere fails, with a
    difference image written; the same image passes."""
    reference = Image.open(refs.reference_path("tigris-early")).convert("RGB")
    assert compare("same", reference.copy(), reference, tmp_path) is None
    moved = reference.copy()
    moved.paste(reference.crop((1186, 34, 1220, 106)), (1186, 500))  # the "1" by row 7
    failure = compare("moved", moved, reference, tmp_path)
    assert failure is not None and "pixels differ" in failure
    assert (tmp_path / "moved-diff.png").is_file()
