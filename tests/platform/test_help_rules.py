"""``/help`` and ``/rules``: learning to play from the bot alone, by tapping, in the
reader's language, with pictures drawn by the renderers."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot import plugins
from bot.discord.messages import MAX_CONTENT, render
from bot.i18n import LANGUAGES, Text, t
from bot.service import GameService, help_lines, rules_page
from bot.service.reading import RULES_PAGES, RULES_PICTURES
from bot.store import Store

REGISTRY = plugins.load_builtin_games()
#: typed notation a tapping reader should never meet on the teaching pages
NOTATION = re.compile(r"`|\b(?:leader|tile|place|move|enter|dig) [a-z]+ [A-P]\d+\b")


def rendered(lines: list[Text], lang: str) -> str:
    return "\n".join(line.render(lang) for line in lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_opens_with_playing_by_tapping(lang: str) -> None:
    text = rendered(help_lines(REGISTRY, None), lang)
    play = t(lang, "picker.play_button")
    first_command = text.index("/game new")
    assert f"**{play}**" in text[:first_command]  # the Play button, before any command
    assert "/rules" in text[:first_command]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_of_a_game_says_what_its_shape_allows(lang: str) -> None:
    for name, game_type in REGISTRY.items():
        text = rendered(help_lines(REGISTRY, name), lang)
        has_hand = t(lang, "help.hand") in text
        assert has_hand is game_type.engine.has_private_view, name
        assert (t(lang, "help.no_hand") in text) is not game_type.engine.has_private_view
    assert not REGISTRY["tikal"].engine.has_private_view  # Tikal's help offers no hand


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_rules_teach_in_words_for_tapping(game: str, lang: str) -> None:
    english = [rendered(rules_page(REGISTRY, game, page), "en") for page in range(RULES_PAGES)]
    pages = [rendered(rules_page(REGISTRY, game, page), lang) for page in range(RULES_PAGES)]
    for text in pages[:2]:  # the teaching pages: no typed notation
        assert not NOTATION.search(text), text
    assert t(lang, "picker.play_button") in pages[0]
    if lang != "en":  # a real translation, not the English text
        assert all(ours != theirs for ours, theirs in zip(pages, english, strict=True))


@pytest.mark.parametrize("game", sorted(REGISTRY))
async def test_rules_pages_carry_the_renderers_pictures(store: Store, game: str) -> None:
    service = GameService(store, REGISTRY)
    for page, kind in enumerate(RULES_PICTURES):
        outcome = await service.reading.rules(game, page, language="ko")
        if kind is None:
            assert outcome.reply.image is None
            continue
        assert outcome.reply.image is not None, (game, kind)
        image = Image.open(io.BytesIO(outcome.reply.image))
        assert image.width >= 400 and image.height >= 300
        again = await service.reading.rules(game, page, language="ko")
        assert again.reply.image is outcome.reply.image  # drawn once per process


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_is_one_message_in_every_language(lang: str) -> None:
    """/help and each game's /help fit one Discord message, so a phone shows them whole
    without a second message after the first."""
    for game in [None, *sorted(REGISTRY)]:
        text = render(help_lines(REGISTRY, game), lang)
        assert len(text) <= MAX_CONTENT, (game, len(text))
