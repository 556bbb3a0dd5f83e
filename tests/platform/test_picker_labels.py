"""The picker's labels read apart on a phone, whatever the players are called.

Decisions: a menu's labels must differ in their first characters in every language
(:func:`bot.service.menus.distinct`). A label leads with its value ("With purple: joint
last card"); a player inside a label is named by their seat's colour word (as the
service's ``LoadedGame.label_text`` does), never by a name cut short; the option's
description and the menu's title name them in full.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from bot.games.temple import ENGINE
from bot.i18n import LANGUAGES, Text
from bot.service.colours import SEAT_COLOUR_NAMES, SEAT_COLOURS
from bot.service.menus import MAX_DETAIL, MAX_OPTION_LABEL, distinct, seat_in_label, width
from bot.service.picker import Picker
from tests.games.temple.temple_helpers import act, game

#: Discord's longest display name (32 characters), Latin and CJK, sharing their starts
LONGEST = (
    "Alexander the Great of Macedonia",
    "Alexander the Great of Macedonib",
    "亚历山大大帝第二位玩家亚历山大大帝第二位玩家亚历山大大帝第二位玩",
    "알렉산더대왕두번째플레이어알렉산더대왕두번째플레이어알렉산더대",
)
#: a name cut short: a letter right before an ellipsis
CUT = re.compile(r"\S…")


def _colour(seat: int) -> Text:
    return Text(SEAT_COLOUR_NAMES[SEAT_COLOURS[seat]])


def _named(names: Mapping[int, str]) -> Any:
    def text(key: str, params: Mapping[str, Any]) -> Text:
        return Text(
            key,
            {
                k: seat_in_label(_colour(v), names[v])
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
    [("Alice", "CPU 1 (easy)", "CPU 2 (easy)", "CPU 3 (easy)"), LONGEST],
    ids=["short", "longest"],
)
def test_two_joint_offers_read_apart_and_name_the_players_in_full_below(
    names: tuple[str, ...],
) -> None:
    assert all(len(name) <= 32 for name in names)  # Discord's longest display name
    picker = Picker(
        ENGINE, _two_offers_to_seat_0(), 0, version=0, text=_named(dict(enumerate(names)))
    )
    menu = picker.menu()
    options = [option for section in menu.sections for option in section.options]
    assert distinct([o.label for o in options])
    for lang in LANGUAGES:
        offers = []
        for option in options:
            label = option.label.render(lang)
            assert not CUT.search(label), (lang, label)
            assert width(label) <= MAX_OPTION_LABEL, (lang, label)
            detail = option.detail.render(lang) if option.detail is not None else ""
            assert len(detail) <= MAX_DETAIL
            for seat in (1, 2):
                if _colour(seat).render(lang) in label:
                    assert names[seat] in detail, (lang, label, detail)
                    offers.append(label)
        assert len(offers) == 2 and len(set(offers)) == 2, offers


def test_an_offer_leads_with_the_players_colour_and_names_them_below() -> None:
    picker = Picker(
        ENGINE,
        _two_offers_to_seat_0(),
        0,
        version=0,
        text=_named({1: "Bob", 2: "Carol", 3: "Dave"}),
    )
    menu = picker.menu()
    shown = {
        option.label.render("en"): option.detail.render("en") if option.detail else None
        for section in menu.sections
        for option in section.options
    }
    # a button has no second line: the title says who each colour is
    legend = menu.title.render("en").splitlines()[-1]
    assert {"purple: Bob", "teal: Carol"} <= set(legend.split(", ")), legend
    assert shown["With purple: joint last card"] == "With Bob: joint last card"
    assert shown["With teal: joint last card"] == "With Carol: joint last card"
