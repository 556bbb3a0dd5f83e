"""The Tigris & Euphrates images in English, Chinese and Korean.

Every word on the images comes from the catalog (``tigris.render.*`` and the
colour names ``tigris.colour.*``). A language the installed fonts cannot draw
is replaced by English for the whole image. With the CJK subset shipped in
``renderer/fonts/`` every catalog language is drawn on every machine, so no test
depends on a system font."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import tigris_sample_views as samples
from PIL import Image, ImageChops

from bot.i18n import catalog, t
from renderer import common, tigris
from renderer.common import font_stack
from renderer.tigris import BOARD_H, BOARD_W
from tests.support.catalog_files import family

LANGS = ("en", "zh", "zh-TW", "ko")
OTHERS = [lang for lang in LANGS if lang != "en"]
NO_FONT_HAS_IT = "\U000f0000"  # plane 15 private use
PLACEHOLDER = re.compile(r"\{(\w*)\}")
SOURCE = Path(tigris.__file__).read_text("utf-8")

VIEWS = {
    "early": samples.early_view,
    "late": samples.late_view,
    "two_player": samples.two_player_view,
    "revolt": samples.revolt_view,
    "open": lambda: samples.open_scoring(samples.late_view(war=False)),
}


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def public(view, lang: str) -> bytes:
    return tigris.render_public(view, samples.PLAYERS[: len(view["players"])], lang)


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


def drawable(lang: str) -> bool:
    """Whether this machine draws ``lang`` (always for English)."""
    return tigris.image_language(lang) == lang


def read_catalog(lang: str) -> dict[str, str]:
    return family(lang, "tigris.render")


# --------------------------------------------------------------------------- catalog


def test_labels_come_from_the_catalog():
    assert t("en", "tigris.render.bag") == "bag"
    assert t("en", "tigris.render.phase.action", count=1) == "to play · actions left: 1"
    assert tigris.colour_name("en", "black") == "black"
    assert tigris.colour_name("zh", "red") == t("zh", "tigris.colour.red")
    assert tigris.colour_name("ko", "purple") == "purple"  # bad data is shown as given
    assert not hasattr(tigris, "LABELS")


def test_every_key_the_renderer_uses_is_in_english_and_checked_for_glyphs():
    used = set(re.findall(r'"(tigris\.[a-z0-9_.]+)"', SOURCE))
    used |= set(tigris.COLOUR_KEYS.values()) | set(tigris.LEADERS_KEYS.values())
    used |= set(tigris.LETTER_KEYS.values())
    assert len(used) > 25
    assert sorted(used - catalog("en").keys()) == []
    assert sorted(used - set(tigris.TEXT_KEYS)) == []
    assert sorted(k for k in read_catalog("en") if k not in tigris.TEXT_KEYS) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_are_complete_and_keep_the_placeholders(lang):
    english, other = read_catalog("en"), read_catalog(lang)
    assert other.keys() == english.keys()
    for key, text in other.items():
        assert key.startswith("tigris.render."), key
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), key
        assert text.strip() and text != english[key], key
    for colour in tigris.TILE_ORDER:  # the game's own colour names are reused
        assert t(lang, f"tigris.colour.{colour}") != t("en", f"tigris.colour.{colour}")


def test_no_plural_tricks_in_english():
    for key, text in read_catalog("en").items():
        assert "{s}" not in text and "(s)" not in text, key


# --------------------------------------------------------------------------- rendering


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_public_renders_in_every_language(lang, name):
    image = decode(public(VIEWS[name](), lang))
    assert image.width == BOARD_W
    assert 1000 <= image.height <= 1600


@pytest.mark.parametrize("lang", LANGS)
def test_private_renders_in_every_language(lang):
    for seat in range(4):
        image = decode(
            tigris.render_private(samples.private_view(seat), samples.PLAYERS[seat], lang)
        )
        assert image.size == (tigris.PRIVATE_W, tigris.PRIVATE_H)


def test_english_is_the_default_and_locales_map_to_languages():
    view = samples.late_view()
    english = tigris.render_public(view, samples.PLAYERS)
    assert tigris.render_public(view, samples.PLAYERS, "en") == english
    assert tigris.render_public(view, samples.PLAYERS, "en-GB") == english
    assert tigris.render_public(view, samples.PLAYERS, "pt-BR") == english
    assert tigris.image_language("zh-CN") == tigris.image_language("zh")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_language_gets_its_own_image(lang):
    """The shipped subset draws every catalog language, so a Chinese or Korean
    request never falls back to the English image."""
    assert drawable(lang)
    view = samples.late_view()
    private = samples.private_view()
    assert public(view, lang) != public(view, "en")
    assert tigris.render_private(private, samples.PLAYERS[0], lang) != (
        tigris.render_private(private, samples.PLAYERS[0], "en")
    )


def test_traditional_and_simplified_images_differ():
    view = samples.late_view()
    assert tigris.image_language("zh-TW") == "zh-TW"
    assert public(view, "zh-TW") != public(view, "zh")
    assert public(view, "zh-HK") == public(view, "zh-TW")


@pytest.mark.parametrize("lang", OTHERS)
def test_one_undrawable_label_switches_the_whole_image_to_english(lang, monkeypatch):
    monkeypatch.setitem(catalog(lang), "tigris.render.bag", f"{NO_FONT_HAS_IT} ok")
    assert tigris.image_language(lang) == "en"
    view = samples.early_view()
    assert public(view, lang) == public(view, "en")


def test_changing_a_catalog_entry_changes_the_image(monkeypatch):
    view = samples.late_view()
    before = decode(public(view, "en"))
    private_before = decode(tigris.render_private(samples.private_view(), samples.PLAYERS[0]))
    monkeypatch.setitem(catalog("en"), "tigris.render.bag", "sack")
    monkeypatch.setitem(catalog("en"), "tigris.render.your_hand", "Tiles")
    after = decode(public(view, "en"))
    box = (0, BOARD_H, BOARD_W, after.height)
    assert differs(before.crop(box), after.crop(box))
    assert not differs(before.crop((0, 0, BOARD_W, BOARD_H)), after.crop((0, 0, BOARD_W, BOARD_H)))
    private_after = decode(tigris.render_private(samples.private_view(), samples.PLAYERS[0]))
    assert differs(private_before, private_after)


def test_leader_letters_are_translated_and_cached_by_letter():
    player = (230, 126, 34)
    default = tigris.leader_sprite("black", player, "archer")
    assert tigris.leader_letter("en", "black") == "K"
    assert tigris.leader_sprite("black", player, "archer", letter="K").tobytes() == (
        default.tobytes()
    )
    assert tigris.leader_letter("zh", "black") == "王"
    assert differs(default, tigris.leader_sprite("black", player, "archer", letter="W"))


# --------------------------------------------------------------------------- fonts


@pytest.mark.parametrize("lang", OTHERS)
def test_cjk_labels_are_drawn_with_real_glyphs(lang):
    """Pixel check: the labels change and no box is drawn."""
    assert drawable(lang)
    for key in tigris.TEXT_KEYS:
        text = PLACEHOLDER.sub("", t(lang, key))
        for stack in (font_stack(24), font_stack(24, bold=True)):
            assert stack.drawable(text) == text, key
    english = decode(tigris.render_private(samples.private_view(), samples.PLAYERS[0], "en"))
    other = decode(tigris.render_private(samples.private_view(), samples.PLAYERS[0], lang))
    heading = (20, 320, 300, 370)  # the "Points" heading
    assert differs(english.crop(heading), other.crop(heading))
    tiles = (40, 108, 960, 232)  # the tiles themselves are the same
    assert not differs(english.crop(tiles), other.crop(tiles))


@pytest.mark.parametrize("lang", LANGS)
def test_labels_fit_their_boxes(lang):
    """Widths of the fixed labels against the room the layout leaves them (the
    numbers are the layout's, see ``_draw_counters``, ``_draw_card`` and
    ``_draw_hand``); measured in the language the image is drawn in."""
    drawn = tigris.image_language(lang)
    small, hand_font = font_stack(24), font_stack(22)
    bag = small.width(t(drawn, "tigris.render.bag"))
    treasures = small.width(t(drawn, "tigris.render.treasures"))
    assert bag + treasures <= 220  # right block: 434 px minus icons and counts
    assert small.width(t(drawn, "tigris.render.monuments_left")) <= 148  # before 6 monuments
    assert hand_font.width(t(drawn, "tigris.render.hand")) <= 148  # end of a player card
    slot = (tigris.PRIVATE_W - 60) / tigris.HAND_SLOTS - 8
    caption, word = font_stack(24, bold=True), font_stack(22)
    for colour in tigris.TILE_ORDER:
        name = tigris.colour_name(drawn, colour)
        extra = "" if name == colour else " " + colour
        assert caption.width(name) + word.width(extra) <= slot, colour
    hint = hand_font.width(t(drawn, "tigris.render.score_hint"))
    assert hint <= 376  # right of the points row of the private image


def test_text_keys_match_what_can_draw_is_asked():
    """The language check covers the templates without their placeholders."""
    texts = tuple(PLACEHOLDER.sub("", t("en", key)) for key in tigris.TEXT_KEYS)
    assert common.can_draw(texts)
    assert not common.can_draw((*texts, NO_FONT_HAS_IT))
