"""The ``/rules`` pictures' callouts and captions (renderer/annotate.py)."""

from __future__ import annotations

from PIL import Image

from renderer.annotate import CAPTION, Callout, _disc_place, side_by_side, wrap
from renderer.lettering import GLANCE, Pen, phone_size, recording


def _overlap(a: tuple[float, float], b: tuple[float, float], size: int) -> bool:
    return abs(a[0] - b[0]) < size and abs(a[1] - b[1]) < size


def test_callouts_at_nearly_the_same_point_get_discs_that_do_not_cover_each_other():
    size = 40
    placed: list[tuple[float, float]] = []
    points = [(300.0, 300.0), (305.0, 310.0), (296.0, 290.0), (310.0, 300.0)]
    for x, y in points:
        placed.append(_disc_place(Callout(x, y, "w"), placed, size, (800, 800)))
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            assert not _overlap(a, b, size), (a, b)


def test_a_disc_near_the_image_edge_stays_inside():
    x, y = _disc_place(Callout(5.0, 5.0, "w"), [], 40, (400, 400))
    assert 20 <= x <= 380 and 20 <= y <= 380


def test_a_caption_too_long_for_one_line_breaks_after_its_clause():
    pen = Pen(1240)
    size = pen.floor
    text = "this one does not: 4 cells missing"
    width = pen.width_of("this one does not: 4 cells", size) + 1
    assert wrap(pen, text, size, width) == ["this one does not:", "4 cells missing"]


def test_a_clause_break_that_would_take_more_lines_is_not_taken():
    pen = Pen(1240)
    size = pen.floor
    text = "a: bbbbbbbbbb cccccccccc"
    width = pen.width_of("a: bbbbbbbbbb", size) + 1
    assert wrap(pen, text, size, width) == ["a: bbbbbbbbbb", "cccccccccc"]


def test_side_by_side_captions_are_whole_and_read_above_the_glance_floor():
    images = [Image.new("RGB", (300, 200), (0, 0, 0)) for _ in range(3)]
    long = "a caption long enough to need three lines at this size under a narrow picture"
    captions = ["short", long, "this one does not: 4 cells missing"]
    with recording() as texts:
        sheet = side_by_side(images, captions, 1240)
    drawn = [lettered.text for lettered in texts]
    assert " ".join(drawn) == " ".join(captions)  # in order, nothing cut
    assert sum(1 for line in drawn if line in long) >= 3
    assert {round(phone_size(lettered.size, 1240)) for lettered in texts} == {CAPTION}
    assert CAPTION > GLANCE
    shorter = side_by_side(images, ["short"] * 3, 1240)
    assert sheet.height > shorter.height  # the sheet grows with the lines it holds
