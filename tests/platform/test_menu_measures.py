"""A label's measures are remembered by its value, and are what its words show.

Decisions (:mod:`bot.service.menus`): how wide a text shows in its widest language
and its first columns in each language are measured once per value of the text
(:attr:`bot.i18n.Text.value_key`: equal texts, whichever objects, are measured
once; no text object is held). A text whose value cannot be told (a parameter that
is neither a text, a str nor an int) is measured each time. Here the remembered
measures are compared with the texts rendered and measured afresh, over every text
of real menus of every game, in every language.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import plugins
from bot.i18n import LANGUAGES, Text
from bot.service import menus
from bot.service.menus import Menu, distinct, fits, prefix, widest, width
from tests.support.menu_walk import menus_along_a_game

GAMES = plugins.load_builtin_games()


def _direct_widest(text: Text) -> int:
    return max(width(text.render(lang)) for lang in LANGUAGES)


def _direct_distinct(labels: list[Text], wide: int = menus.DISTINCT_PREFIX) -> bool:
    for lang in LANGUAGES:
        heads = [prefix(label.render(lang), wide) for label in labels]
        if len(set(heads)) != len(heads):
            return False
    return True


def _texts(menu: Menu) -> Iterator[Text]:
    yield menu.title
    for section in menu.sections:
        if section.header is not None:
            yield section.header
        for option in section.options:
            yield option.label
            if option.detail is not None:
                yield option.detail
    for option in menu.controls:
        yield option.label


def _first_menus(game: str, count: int, options: dict[str, str], seed: int) -> list[Menu]:
    return menus_along_a_game(game, count, options, seed, steps=120, every=12, opened=4)


@pytest.mark.parametrize(
    ("game", "count", "options", "seed"),
    [
        ("tikal", 2, {"mode": "base"}, 41),
        ("tikal", 3, {"mode": "auction"}, 42),
        ("tigris", 3, {}, 43),
        ("temple", 3, {"joint": "on"}, 44),
    ],
)
def test_remembered_measures_are_the_measures_of_the_rendered_words(
    game: str, count: int, options: dict[str, str], seed: int
) -> None:
    found = _first_menus(game, count, options, seed)
    assert len(found) >= 3, f"{game}: only {len(found)} menus"
    measured = 0
    for menu in found:
        labels = [option.label for option in menu.options]
        for text in _texts(menu):
            assert widest(text) == _direct_widest(text), text
            # asked again, through another object of the same value: the same answer
            again = Text.from_json(text.to_json())
            assert again == text and again is not text
            assert widest(again) == _direct_widest(text), text
            measured += 1
        assert distinct(labels) == _direct_distinct(labels), menu.token
        # two labels alike in their first columns are found alike however measured
        if labels:
            twice = [*labels, Text.from_json(labels[0].to_json())]
            assert not distinct(twice) and not _direct_distinct(twice)
    assert measured > 30


def test_equal_texts_are_measured_once_and_a_flag_is_not_taken_for_a_number() -> None:
    name = "亚历山大大帝"
    first = Text(
        "picker.join", {"first": Text("colour.amber"), "rest": Text("picker.word", {"word": name})}
    )
    second = Text(
        "picker.join", {"first": Text("colour.amber"), "rest": Text("picker.word", {"word": name})}
    )
    assert first is not second and first.value_key == second.value_key
    assert first.value_key is not None
    assert widest(first) == widest(second) == _direct_widest(first) > 2 * len(name)
    # True renders "True", 1 renders "1": never measured as one another
    flag, number = Text("picker.word", {"word": True}), Text("picker.word", {"word": 1})
    assert flag.value_key is None and number.value_key is not None
    assert widest(number) == 1 and widest(flag) == 4
    assert fits(number, 1) and not fits(flag, 3)
    # a str and an int of the same digits are two values (they may render alike)
    assert Text("picker.word", {"word": "1"}).value_key != number.value_key
    # measured afresh whenever asked: the remembered measures may be dropped at any time
    menus._WIDEST.clear()
    menus._HEADS.clear()
    menus._RENDERED.clear()
    assert widest(second) == _direct_widest(first)
    assert distinct([first, number]) and not distinct([first, second])
