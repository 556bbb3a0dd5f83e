"""Tests of the game-agnostic drawing helpers."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from renderer import common
from renderer.common import clean_name, fit_text, font_stack, parse_hex_colour

NO_FONT_HAS_IT = "\U000f0000"  # plane 15 private use


def test_fonts_load_and_have_the_requested_size():
    font = common.load_font(30, bold=True)
    assert isinstance(font, ImageFont.FreeTypeFont)
    assert font.size == 30


def test_pillow_font_is_used_without_dejavu(monkeypatch, tmp_path):
    monkeypatch.setattr(common, "DEJAVU_DIR", tmp_path)
    common.load_font.cache_clear()
    try:
        font = common.load_font(27)
        assert isinstance(font, ImageFont.FreeTypeFont)
        image = Image.new("RGB", (200, 50))
        common.draw_text(ImageDraw.Draw(image), (5, 25), "Abc 123", font, (255, 255, 255))
        assert image.getbbox() is not None
    finally:
        common.load_font.cache_clear()


def test_no_fc_list_means_no_fontconfig_fonts(monkeypatch):
    monkeypatch.setattr(common.shutil, "which", lambda name: None)
    assert common._fc_list("zh-cn") == []


def test_glyph_coverage():
    stack = font_stack(24)
    assert stack.font_for("A") is stack.primary
    assert stack.font_for(NO_FONT_HAS_IT) is None
    assert stack.drawable(f"Bob{NO_FONT_HAS_IT}") == "Bob"


def test_clean_name_draws_a_box_for_what_no_font_can_draw():
    """A missing glyph is a box: the name is never cut or replaced by the fallback."""
    stack = font_stack(24)
    assert clean_name(f"Bob {NO_FONT_HAS_IT}", stack, "Player 1") == "Bob \u25a1"
    assert clean_name(NO_FONT_HAS_IT * 3, stack, "Player 1") == "\u25a1" * 3
    assert clean_name("  Ann\u200b  Lee \n", stack, "Player 1") == "Ann Lee"
    assert clean_name("", stack, "Player 1") == "Player 1"


def test_cjk_names_are_drawn_when_a_font_has_them():
    """Names in catalog characters are drawn on every machine (the shipped subset
    has them); tests/renderer/test_cjk_glyphs.py covers names beyond the subset."""
    stack = font_stack(24)
    assert common.has_cjk_font()
    for name in ("寶藏", "积木", "보물"):
        assert clean_name(name, stack, "Player 3") == name
        assert stack.width(name) > 0


def test_fit_text_truncates_with_an_ellipsis():
    stack = font_stack(24)
    text = "Bartholomew the Magnificent of Uruk"
    fitted = fit_text(text, stack, 200)
    assert fitted.endswith("…")
    assert stack.width(fitted) <= 200
    assert fit_text("Bob", stack, 200) == "Bob"


def test_draw_text_anchors_share_the_width():
    stack = font_stack(24)
    image = Image.new("L", (400, 60))
    draw = ImageDraw.Draw(image)
    width = common.draw_text(draw, (390, 30), "right", stack, 255, anchor="rm")
    assert width == stack.width("right")
    left, _, right, _ = image.getbbox()
    assert right <= 392 and left >= 390 - width - 2


def test_parse_hex_colour():
    assert parse_hex_colour("#e67e22", (0, 0, 0)) == (230, 126, 34)
    assert parse_hex_colour("#abc", (0, 0, 0)) == (170, 187, 204)
    assert parse_hex_colour("nope", (1, 2, 3)) == (1, 2, 3)
    assert parse_hex_colour(None, (1, 2, 3)) == (1, 2, 3)


def test_readable_text_colour():
    assert common.readable_on((250, 250, 250)) == (20, 20, 20)
    assert common.readable_on((20, 20, 60)) == (255, 255, 255)


def test_palette_keeps_exact_colours_and_encodes_8_bit():
    image = Image.new("RGB", (64, 64), (143, 201, 236))
    ImageDraw.Draw(image).ellipse((8, 8, 56, 56), fill=(200, 56, 45))
    palette = common.build_palette(image, [(143, 201, 236), (1, 2, 3)])
    png = common.encode_png(image, palette)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").getpixel((0, 0)) == (143, 201, 236)
    assert Image.open(io.BytesIO(common.encode_png(image))).mode == "RGB"


def test_widths_are_remembered_and_exact(monkeypatch):
    stack = font_stack(23)
    assert stack.width("Monuments") == stack.primary.getlength("Monuments")
    calls = []
    original = type(stack.primary).getlength
    monkeypatch.setattr(
        type(stack.primary),
        "getlength",
        lambda self, *a, **k: calls.append(a) or original(self, *a, **k),
    )
    stack.width("Monuments")
    stack.width("Monuments")
    assert calls == []  # measured once, before the patch
    monkeypatch.setattr(common, "_MAX_CACHED_WIDTHS", 2)
    for text in ("a", "b", "c"):
        stack.width(text)
    assert len(stack._widths) <= 2


def test_can_draw_needs_every_character_in_both_weights():
    assert common.can_draw(("Last: {player}", "bag"))
    assert not common.can_draw(("bag", NO_FONT_HAS_IT))
    assert common.can_draw(("寶藏", "보물"))  # the shipped subset at least
    assert not common.can_draw(("寶藏", NO_FONT_HAS_IT))


def test_a_remembered_text_draws_the_pixels_freetype_draws():
    remembered = common.load_font(23)
    plain = ImageFont.truetype(remembered.path, 23)
    labels = [("Ziggurat · 12 ♦", (3.25, 30.5), 0), ("Ziggurat · 12 ♦", (7.0, 30.0), 2)]
    for text, xy, stroke in labels * 2:  # the second time from the remembered bitmaps
        mine, theirs = (Image.new("RGB", (260, 50), (20, 30, 40)) for _ in range(2))
        for image, font in ((mine, remembered), (theirs, plain)):
            ImageDraw.Draw(image).text(
                xy, text, font=font, fill=(250, 200, 10), anchor="ls",
                stroke_width=stroke, stroke_fill=(0, 0, 0),
            )  # fmt: skip
        assert mine.tobytes() == theirs.tobytes()
        assert mine.getbbox() is not None


def test_remembered_texts_stay_within_their_budget():
    masks = common._Masks(budget=10_000)
    for n in range(100):
        masks.put(("text", n), object(), 400)
    assert masks.used <= 10_000 and len(masks) == 25
    assert masks.get(("text", 0)) is None and masks.get(("text", 99)) is not None
    masks.put(("huge",), object(), 20_000)  # over the whole budget: not kept
    assert masks.get(("huge",)) is None


def _noisy_canvas(mode: str = "RGB") -> Image.Image:
    """A canvas whose every pixel differs from its neighbours, so a blend shows."""
    size = (240, 200)
    noise = bytes((i * 37) % 251 for i in range(size[0] * size[1] * len(mode)))
    return Image.frombytes(mode, size, noise)


def _sprites() -> list[Image.Image]:
    def hexagon(d: ImageDraw.ImageDraw, k: float) -> None:
        d.regular_polygon((72 * k, 64 * k, 62 * k), 6, fill=(200, 120, 40), outline=(0, 0, 0))
        d.text((50 * k, 55 * k), "Ab", fill=(255, 255, 255))

    def ring(d: ImageDraw.ImageDraw, k: float) -> None:
        d.ellipse((2 * k, 2 * k, 140 * k, 124 * k), outline=(250, 250, 0), width=round(5 * k))

    def square(d: ImageDraw.ImageDraw, k: float) -> None:
        d.rounded_rectangle((1 * k, 1 * k, 63 * k, 63 * k), radius=9 * k, fill=(30, 160, 90))

    def haze(d: ImageDraw.ImageDraw, k: float) -> None:  # translucent middle: pasted whole
        d.ellipse((0, 0, 60 * k, 60 * k), fill=(10, 20, 200, 128))

    sprites = [common.sprite(144, 128, hexagon), common.sprite(144, 128, ring)]
    sprites += [common.sprite(64, 64, square), common.sprite(60, 60, haze)]
    return [*sprites, common.sprite(40, 24, square)]  # too small to cut


def test_a_sprite_pasted_in_pieces_draws_what_a_whole_paste_draws():
    for sprite in _sprites():
        for xy in ((10.4, 7.6), (-60, -40), (160.5, 120.5), (3, 150)):  # inside, at edges
            for _ in range(2):  # cut the first time, from the remembered pieces after
                mine, theirs = _noisy_canvas(), _noisy_canvas()
                common.paste(mine, sprite, xy)
                theirs.paste(sprite, (round(xy[0]), round(xy[1])), sprite)
                assert mine.tobytes() == theirs.tobytes()
    sprites = _sprites()
    tile, ring, square, haze, small = (common._pieces(sprite) for sprite in sprites)
    assert tile is not None and ring is not None and square is not None  # cut
    assert [masked for *_, masked in tile].count(False) == 1  # an opaque middle, copied
    assert all(masked for *_, masked in ring)  # the ring's empty middle is skipped
    assert haze is None and small is None  # pasted whole


def test_a_sprite_on_another_kind_of_canvas_is_pasted_as_pillow_does():
    sprite = _sprites()[0]
    for mode in ("RGBA", "L"):
        mine, theirs = _noisy_canvas(mode), _noisy_canvas(mode)
        common.paste(mine, sprite, (5, 5))
        theirs.paste(sprite, (5, 5), sprite)
        assert mine.tobytes() == theirs.tobytes()


def test_a_text_drawn_on_its_known_colour_draws_what_pillow_draws(monkeypatch):
    """A text on a flat colour the caller names (``on``) is copied from a blend made
    once: the same pixels as Pillow's own, the first time and from the cache."""
    monkeypatch.setattr(common, "TEXT_ON", common._Masks(1_000_000))
    stack = font_stack(23, bold=True)
    for text, xy, fill in (
        ("Ziggurat · 12", (3.25, 30.5), (250, 200, 10)),
        ("李小龙 ×3", (7.5, 31.0), (9, 9, 9)),
    ):
        for _ in range(2):
            mine, theirs = (Image.new("RGB", (260, 50), (40, 44, 52)) for _ in range(2))
            common.draw_text(ImageDraw.Draw(mine), xy, text, stack, fill, "ls", on=(40, 44, 52))
            draw = ImageDraw.Draw(theirs)
            x = xy[0]
            for chunk, font in stack.runs(text):
                width = max(1, round(font.size / 30)) if id(font) in stack.faux_bold else 0
                draw.text(
                    (x, xy[1]),
                    chunk,
                    font=font,
                    fill=fill,
                    anchor="ls",
                    stroke_width=width,
                    stroke_fill=fill,
                )
                x += stack.length(chunk, font)
            assert mine.tobytes() == theirs.tobytes()
            assert mine.getcolors(1) is None  # something was drawn
    assert len(common.TEXT_ON) >= 2  # the known colour's way was taken


def test_a_strip_put_on_its_known_colour_draws_what_pasting_it_draws():
    from renderer.lettering import Pen

    pen = Pen(1240)
    for text, xy, anchor in (("Stacks 12 · 李", (10.5, 25.25), "lm"), ("×3", (130, 25), "mm")):
        mine, theirs = (Image.new("RGB", (260, 50), (24, 26, 30)) for _ in range(2))
        assert pen.put(mine, xy, text, 28, (240, 240, 240), anchor=anchor, on=(24, 26, 30)) > 0
        pen.put(theirs, xy, text, 28, (240, 240, 240), anchor=anchor)
        assert mine.tobytes() == theirs.tobytes()
        assert mine.getcolors(1) is None  # something was drawn


def test_a_new_sprite_with_an_alpha_seen_before_is_cut_as_before():
    """The middle rectangle is remembered by the alpha's bytes, size and value: a sprite
    made anew with the same alpha (a hex with other stones) is not measured again, and
    the answer is what measuring it gives."""
    common._RECTANGLES.clear()
    ring = Image.new("RGBA", (120, 100), (0, 0, 0, 0))
    ImageDraw.Draw(ring).ellipse((4, 4, 116, 96), fill=(200, 30, 30, 255))
    other = ring.copy()
    ImageDraw.Draw(other).rectangle((50, 40, 70, 60), fill=(10, 200, 10, 255))  # same alpha
    calls: list[int] = []
    measured = common._middle_rectangle

    def counted(*args):
        calls.append(1)
        return measured(*args)

    common._middle_rectangle = counted
    try:
        first = common._cut(ring)
        second = common._cut(other)
    finally:
        common._middle_rectangle = measured
    assert len(calls) == 1 and first is not None and second is not None
    alpha = other.getchannel("A").tobytes()
    rect = measured(alpha, 120, 100, b"\xff")
    assert common._RECTANGLES and rect in common._RECTANGLES.values()
    for sprite in (ring, other):
        canvas = Image.new("RGB", (140, 120), (1, 2, 3))
        whole = canvas.copy()
        whole.paste(sprite, (7, 9), sprite)
        common.paste(canvas, sprite, (7, 9))
        assert canvas.tobytes() == whole.tobytes()


def test_a_characters_font_is_remembered_as_the_first_that_covers_it():
    stack = font_stack(23)
    for ch in "Aé中한□\U0010fffd ":
        expected = next((f for f in stack.fonts if stack.covers(ch, f)), None)
        assert stack.font_for(ch) is expected
        assert stack.font_for(ch) is expected  # remembered: the same answer
