"""Notation: every verb reads back, aliases and case, ASCII digits only, and
arbitrary text gives an action or a RuleError, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import RuleError
from bot.games.tikal import (
    ENGINE,
    Bid,
    Camp,
    Dig,
    End,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Pick,
    Place,
    Recover,
    parse_action,
)
from bot.games.tikal.board import parse_space

S = parse_space

EXAMPLES = [
    ("place C4 2", Place(S("C4"), 2)),
    ("pick 2", Pick(2)),
    ("bid 5", Bid(5)),
    ("pass", Pass()),
    ("enter A7", Enter(S("A7"))),
    ("enter A7 leader", Enter(S("A7"), "leader")),
    ("move B6 C5", Move(S("B6"), S("C5"))),
    ("move B6 C5 leader", Move(S("B6"), S("C5"), "leader")),
    ("dig A6", Dig(S("A6"))),
    ("recover D3", Recover(S("D3"))),
    ("exchange mask blue jade", Exchange("mask", 1, "jade")),
    ("camp C5", Camp(S("C5"))),
    ("guard A6", Guard(S("A6"))),
    ("guard A6 leader", Guard(S("A6"), "leader")),
    ("end", End()),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_examples_read_and_write(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(action) == text


def test_a_worker_is_the_default_figure() -> None:
    assert parse_action("enter a7 worker") == Enter(S("A7"))
    assert str(parse_action("MOVE b6 c5 W")) == "move B6 C5"
    assert parse_action("guard a6 l") == Guard(S("A6"), "leader")


def test_players_are_named_by_colour() -> None:
    assert parse_action("exchange MASK White jade") == Exchange("mask", 3, "jade")
    with pytest.raises(RuleError):
        parse_action("exchange mask green jade")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "place",
        "place C4",
        "place C4 6",
        "place J1 0",
        "place C8 0",
        "place C0 0",
        "place C４ 1",
        "place C4 ²",
        "move B6",
        "move B6 C5 queen",
        "bid ٣",
        "pick 5",
        "exchange mask blue",
        "end now",
        "dance",
        "x" * 500,
    ],
)
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_action(text)
    assert caught.value.key == "tikal.error.bad_notation"


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_gives_an_action_or_a_rule_error(text: str) -> None:
    try:
        action = ENGINE.parse_action(text)
    except RuleError as error:
        assert error.key == "tikal.error.bad_notation"
        return
    assert parse_action(str(action)) == action


VERB_WORDS = ["place", "move", "enter", "dig", "recover", "exchange", "camp", "guard", "bid"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(VERB_WORDS),
    st.lists(
        st.one_of(
            st.text(alphabet="ABCDEFGHIJabcdefghij0123456789٣²④", min_size=1, max_size=4),
            st.sampled_from(["mask", "blue", "leader", "worker", "jade", "red", "7"]),
        ),
        max_size=4,
    ),
)
def test_verb_with_arbitrary_words(verb: str, words: list[str]) -> None:
    text = " ".join([verb, *words])
    try:
        action = parse_action(text)
    except RuleError:
        return
    assert parse_action(str(action)) == action
    assert str(action).isascii()
