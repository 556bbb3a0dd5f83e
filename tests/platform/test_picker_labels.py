"""The picker's labels read apart on a phone, whatever the players are called.

Decisions: a menu's labels must differ in their first characters in every language
(:func:`bot.service.menus.distinct`). A label leads with its value ("With Bob: joint
last card"); a player's name inside a label is cut to a few columns (as the service's
``LoadedGame.label_text`` does), and where two labels still read alike that far (two
players whose names share their first characters), the menu numbers its labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.games.temple import ENGINE
from bot.i18n import LANGUAGES, Text
from bot.service.menus import NAME_IN_LABEL, clipped, distinct, width
from bot.service.picker import Picker
from tests.games.temple.temple_helpers import act, game


def _named(names: Mapping[int, str]) -> Any:
    def text(key: str, params: Mapping[str, Any]) -> Text:
        return Text(
            key,
            {
                k: clipped(names[v])
                if (k == "seat" or k.endswith("_seat")) and isinstance(v, int)
                else v
                for k, v in params.items()
            },
        )

    return text


def _two_offers_to_seat_0() -> Any:
    """The last card of a joint game where seats 1 and 2 both offer to build it with 0."""
    state = game(4, slots=("hut", None), deck=(), joint=True)
    act(state, 1, "joint 1")
    act(state, 2, "joint 1")
    return state


@pytest.mark.parametrize(
    "names",
    [
        ("Alice", "CPU 1 (easy)", "CPU 2 (easy)", "CPU 3 (easy)"),
        ("Alice", "Alexander the Great 1", "Alexander the Great 2", "Alexander the Great 3"),
    ],
    ids=["short", "shared-prefix"],
)
def test_two_joint_offers_read_apart_in_the_first_menu(names: tuple[str, ...]) -> None:
    picker = Picker(
        ENGINE, _two_offers_to_seat_0(), 0, version=0, text=_named(dict(enumerate(names)))
    )
    menu = picker.menu()
    labels = [option.label for section in menu.sections for option in section.options]
    assert distinct(labels)
    for lang in LANGUAGES:
        rendered = [label.render(lang) for label in labels]
        offers = [r for r in rendered if clipped(names[1]) in r or clipped(names[2]) in r]
        assert len(offers) == 2 and len(set(offers)) == 2, rendered


def test_an_offer_leads_with_the_player_it_is_made_with() -> None:
    picker = Picker(
        ENGINE,
        _two_offers_to_seat_0(),
        0,
        version=0,
        text=_named({1: "Bob", 2: "Carol", 3: "Dave"}),
    )
    rendered = [
        option.label.render("en")
        for section in picker.menu().sections
        for option in section.options
    ]
    assert "With Bob: joint last card" in rendered
    assert "With Carol: joint last card" in rendered


def test_a_long_name_is_cut_to_its_columns_with_an_ellipsis() -> None:
    assert clipped("Bob") == "Bob"
    long = "Alexander the Great 2"
    assert clipped(long).endswith("…") and width(clipped(long)) == NAME_IN_LABEL
    assert width(clipped("亚历山大大帝第二位玩家")) <= NAME_IN_LABEL
