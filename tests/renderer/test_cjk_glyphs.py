"""Every catalog string of every language is drawn with real glyphs, on this
machine and on a bare one (no DejaVu, no system CJK font), thanks to the CJK
subset shipped in ``renderer/fonts/``; each game's images come out in
Traditional Chinese with no box glyph.

Decisions:

* "A box" is a ``.notdef`` glyph: :meth:`FontStack.font_for` answers ``None``
  for a character every font of the stack draws like its ``.notdef``, and
  :func:`draw_text` drops such characters. So a string is drawn without boxes
  exactly when ``stack.drawable(text) == text``; the image tests record every
  :func:`draw_text` call of a renderer and check that of each text drawn.
* The bare machine is made in-process: fontconfig finds nothing, the known
  Debian paths and DejaVu are hidden, and every renderer cache is cleared before
  and after (cached sprites drawn with other fonts would hide a box).
* Emoji of chat messages (⚡) are left out of the glyph check: Discord draws
  them; a test checks no image label contains one.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import temple_sample_views as temple_samples
import tigris_sample_views as tigris_samples
from PIL import Image, ImageChops, ImageDraw
from reference_images import bundled_fonts, clear_font_caches

from bot.games.base import PlayerLabel
from bot.games.tikal import ENGINE as TIKAL
from bot.games.tikal.selfplay import random_game
from bot.i18n import LANGUAGES, LOCALES_DIR, catalog, t
from renderer import common, lettering, temple, tigris, tikal
from renderer.common import FontStack, font_stack

ROOT = Path(__file__).resolve().parents[2]
SUBSET = common.FONTS_DIR / "ZigguratCJK-Regular.otf"
EMOJI_FONT = common.FONTS_DIR / "ZigguratEmoji-Regular.ttf"
PLACEHOLDER = re.compile(r"\{\w*\}")
EMOJI = {"⚡"}
STACKS = ((24, False), (24, True), (40, True))
#: a Chinese and a Korean name in characters no catalog uses (the subset has them
#: for names: common Hanzi, every Hangul syllable)
RARE_NAME = "龍飛鳳舞 똠얌꿍"
#: the names the issue saw lose glyphs or turn into "玩家 1" on a bare machine
NAMES = ("王大偉", "林美玲", "김민준", "이서연", "王小明", "陳怡君", "さくら")
#: a character beyond the subset (CJK Extension B): drawn as a box, never dropped
BEYOND = "\U00020000"


@pytest.fixture
def bare_machine() -> Iterator[None]:
    """No fontconfig fonts, no known CJK path, no DejaVu: only Pillow's own font
    and the shipped subset (the reference images' machine)."""
    with bundled_fonts():
        yield


@pytest.fixture
def this_machine() -> Iterator[None]:
    clear_font_caches()
    yield
    clear_font_caches()


MACHINES = ["this_machine", "bare_machine"]


def catalog_strings(lang: str) -> dict[str, str]:
    """The language's own strings, read from its files (without test catalogs)."""
    strings: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.json")):
        strings.update(json.loads(path.read_text("utf-8")))
    return strings


def undrawable(text: str) -> str:
    """The characters of ``text`` some stack the renderers use cannot draw."""
    chars = {ch for ch in PLACEHOLDER.sub("", text) if not ch.isspace() and ch not in EMOJI}
    stacks = [font_stack(size, bold) for size, bold in STACKS]
    return "".join(sorted(ch for ch in chars if any(s.font_for(ch) is None for s in stacks)))


# --------------------------------------------------------------------------- the subset


def test_the_subset_ships_with_its_license_and_is_small() -> None:
    assert SUBSET.is_file()
    size = SUBSET.stat().st_size
    # every Hangul syllable and the common Hanzi of both scripts, for player names:
    # a few MB, not a whole CJK font (one face of Noto Sans CJK is ~16 MB)
    assert 1_000_000 < size < 4_000_000, size
    license_text = (common.FONTS_DIR / "OFL.txt").read_text("utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in license_text
    assert "Noto Sans CJK" in license_text and "Copyright" in license_text
    assert "Noto Emoji" in license_text
    assert common.shipped_font_files() == (str(SUBSET), str(EMOJI_FONT))
    assert 300_000 < EMOJI_FONT.stat().st_size < 1_200_000  # outlines, no colour bitmaps
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "fonts/*" in pyproject["tool"]["setuptools"]["package-data"]["renderer"]
    runtime = " ".join(pyproject["project"]["dependencies"]).lower()
    assert "fonttools" not in runtime and "opencc" not in runtime


def test_the_subset_has_its_own_name_and_a_notdef_box() -> None:
    font = common.ImageFont.truetype(str(SUBSET), 40)
    assert font.getname() == ("Ziggurat CJK Subset", "Regular")
    stack = FontStack((font,))
    assert stack.font_for("寶") is font and stack.font_for("보") is font
    assert stack.font_for("龘") is None  # in no catalog: not in the subset either


def test_emoji_are_never_image_labels() -> None:
    keys = {*tigris.TEXT_KEYS, *tikal.TEXT_KEYS, *temple.TEXT_KEYS}
    keys |= {k for k in catalog_strings("en") if k.startswith("temple.card.")}
    for lang in LANGUAGES:
        strings = catalog_strings(lang)
        assert not [k for k in keys if EMOJI & set(strings.get(k, ""))], lang


# --------------------------------------------------------------------------- every string


@pytest.mark.slow_except(
    "en-bare_machine", "en-this_machine", "ko-bare_machine", "zh-TW-bare_machine"
)
@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_string_is_drawn_without_boxes(
    lang: str, machine: str, request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue(machine)
    strings = catalog_strings(lang)
    assert len(strings) > 600
    missing = {key: chars for key, text in strings.items() if (chars := undrawable(text))}
    assert missing == {}
    # and drawing them puts ink on the image, with the width the stack measured
    stack = font_stack(24)
    image = Image.new("L", (4000, 40))
    draw = ImageDraw.Draw(image)
    for key, text in strings.items():
        line = PLACEHOLDER.sub("", text.split("\n")[0])[:120]
        if not line.strip() or set(line.strip()) <= EMOJI:
            continue
        draw.rectangle((0, 0, 4000, 40), fill=0)
        width = common.draw_text(draw, (2, 20), line, stack, 255)
        assert width == stack.width(line) > 0, key
        assert image.getbbox() is not None, key


def test_a_bare_machine_needs_the_subset(bare_machine: None, monkeypatch) -> None:
    """Without the shipped font, the same bare machine cannot draw the labels: the
    check above really depends on the subset."""
    assert not common.has_system_cjk_font()
    assert common.font_stack(24).primary.getname()[0] != "DejaVu Sans"
    monkeypatch.setattr(common, "shipped_font_files", lambda: ())
    clear_font_caches()
    assert undrawable(t("zh-TW", "tikal.render.treasures")) == "寶藏"
    assert tigris.image_language("zh-TW") == "en"


# --------------------------------------------------------------------------- names


def test_names_prefer_a_system_cjk_font_over_the_subset(
    bare_machine: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A system CJK font (here a copy standing in for one) comes before the
    subset, so a name's characters are all drawn by one full font."""
    system = tmp_path / "SystemCJK-Regular.otf"
    system.write_bytes(SUBSET.read_bytes())
    monkeypatch.setattr(common, "_fc_list", lambda lang: [str(system)])
    clear_font_caches()
    assert common.fallback_font_files() == (str(system), str(SUBSET), str(EMOJI_FONT))
    shipped = [str(system), str(SUBSET), str(EMOJI_FONT)]
    for bold in (False, True):
        stack = font_stack(24, bold)
        assert [getattr(f, "path", None) for f in stack.fonts[1:]] == shipped
        assert getattr(stack.font_for("寶"), "path", None) == str(system)
        assert all(id(f) in stack.faux_bold for f in stack.fonts[1:]) is bold
    assert common.has_system_cjk_font()


def test_names_in_any_script_draw_whole_on_a_bare_machine(bare_machine: None) -> None:
    """Chinese (both scripts), Korean and Japanese names keep every character on a
    machine with no system CJK font: the shipped font has them."""
    for bold in (False, True):
        stack = font_stack(24, bold)
        for name in (*NAMES, RARE_NAME, "寶藏王", "Ann Lee"):
            assert common.clean_name(name, stack, "Player 3") == name
            assert stack.drawable(name) == name
            assert stack.width(name) > 0


def test_a_missing_glyph_is_a_box_never_another_name(bare_machine: None) -> None:
    """A character no font has is drawn as a box: the name keeps its length and is
    never cut short or replaced by the fallback."""
    stack = font_stack(24)
    assert stack.font_for(BEYOND) is None
    assert common.clean_name(f"王{BEYOND}偉", stack, "Player 3") == f"王{common.MISSING_GLYPH}偉"
    assert common.clean_name(BEYOND * 3, stack, "Player 3") == common.MISSING_GLYPH * 3
    assert common.clean_name("Ann\u200b", stack, "Player 3") == "Ann"
    assert common.clean_name(" \u200b ", stack, "Player 3") == "Player 3"  # nothing visible


@pytest.mark.parametrize("machine", MACHINES)
def test_each_game_draws_cjk_player_names_whole(
    machine: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public image of each game draws every character of 王大偉 and 김민준 (a
    recorded draw_text call holds the whole name), on this machine and a bare one."""
    request.getfixturevalue(machine)
    labels = [
        PlayerLabel(0, "王大偉", "#d35400"),
        PlayerLabel(1, "김민준", "#2e86c1"),
        PlayerLabel(2, "林美玲", "#27ae60"),
    ]
    for module, view in (
        (temple, temple_samples.view("three")),
        (tigris, tigris_samples.late_view()),
    ):
        drawn = record_texts(monkeypatch, module)
        module.render_public(view, labels, "en")
        texts = " ".join(text for text, _ in drawn)
        monkeypatch.undo()
        for label in labels[: len(view["players"])]:
            assert label.name in texts, (module.__name__, label.name)


def test_this_machine_draws_names_with_its_cjk_font(this_machine: None) -> None:
    """Any Chinese or Korean name is drawn here too (with the system font when
    there is one, else with the shipped one)."""
    stack = font_stack(24)
    assert common.clean_name(RARE_NAME, stack, "Player 3") == RARE_NAME


# --------------------------------------------------------------------------- images


def record_texts(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, FontStack]]:
    """Every (text, stack) the renderers draw from now on (through the one helper,
    :class:`renderer.lettering.Pen`), until ``monkeypatch.undo()``."""
    drawn: list[tuple[str, FontStack]] = []
    original = lettering._note

    def spy(text: str, size: float, detail: bool, bold: bool) -> None:
        drawn.append((text, font_stack(max(1, round(size)), bold)))
        original(text, size, detail, bold)

    monkeypatch.setattr(lettering, "_note", spy)
    return drawn


def tikal_public(lang: str) -> bytes:
    game = random_game("auction", 3, 1, stop_after=120).state
    players = [
        PlayerLabel(seat, name, colour.hex)
        for seat, (name, colour) in enumerate(
            zip(("Alice", "Bob", "李小龙"), TIKAL.seat_colours[:3], strict=True)
        )
    ]
    return tikal.render_public(TIKAL.public_view(game), players, lang)


def tigris_images(lang: str) -> list[bytes]:
    view = tigris_samples.late_view()
    players = tigris_samples.PLAYERS[: len(view["players"])]
    private = tigris_samples.private_view()
    return [
        tigris.render_public(view, players, lang),
        tigris.render_private(private, tigris_samples.PLAYERS[0], lang),
    ]


def temple_images(lang: str) -> list[bytes]:
    view = temple_samples.view("mid4")
    players = temple_samples.PLAYERS[: len(view["players"])]
    private, seat = temple_samples.private_view()
    return [
        temple.render_public(view, players, lang),
        temple.render_private(private, temple_samples.PLAYERS[seat], lang),
    ]


GAMES: dict[str, tuple[Any, Callable[[str], list[bytes]], str]] = {
    "tigris": (tigris, tigris_images, "tigris.render.treasures"),
    "tikal": (tikal, lambda lang: [tikal_public(lang)], "tikal.render.treasures"),
    "temple": (temple, temple_images, "temple.render.supply"),
}


def pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_board_renders_in_traditional_chinese_without_boxes(
    game: str, machine: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    request.getfixturevalue(machine)
    module, images, label_key = GAMES[game]
    assert module.image_language("zh-TW") == "zh-TW"
    assert module.image_language("zh-HK") == "zh-TW"
    english = images("en")
    drawn = record_texts(monkeypatch, module)
    traditional = images("zh-TW")
    for ours, theirs in zip(traditional, english, strict=True):
        assert ImageChops.difference(pixels(ours), pixels(theirs)).getbbox() is not None
    boxes = [text for text, stack in drawn if stack.drawable(text) != text]
    assert boxes == []
    texts = "\n".join(text for text, _ in drawn)
    assert t("zh-TW", label_key) in texts  # a Traditional label, not the Simplified one
    assert t("zh-TW", label_key) != t("zh", label_key)
    assert not any(catalog("en")[label_key] == text for text, _ in drawn)
