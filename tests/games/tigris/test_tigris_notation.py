"""Notation: every action reads back from its text; junk is refused clearly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tigris_positions import sq

from bot.games.base import RuleError
from bot.games.tigris import (
    ENGINE,
    BuildMonument,
    ChooseWar,
    Decline,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Support,
    Swap,
    TakeTreasures,
    WithdrawLeader,
)
from bot.games.tigris.board import (
    RIVER,
    START_TEMPLES,
    parse_square,
    square_name,
    square_names,
)
from bot.games.tigris.components import COLOURS, MONUMENTS

EXAMPLES = [
    (PlaceLeader("black", sq("F5")), "leader king F5"),
    (PlaceLeader("green", sq("P11")), "leader trader P11"),
    (WithdrawLeader("red"), "withdraw priest"),
    (PlaceTile("blue", sq("A4")), "tile blue A4"),
    (PlaceCatastrophe(sq("A1")), "catastrophe A1"),
    (Swap(("blue", "red", "red")), "swap red red blue"),
    (Pass(), "pass"),
    (Support(0), "support 0"),
    (Support(3), "support 3"),
    (ChooseWar("black"), "war black"),
    (TakeTreasures((sq("K1"), sq("B2"))), "treasure K1 B2"),
    (BuildMonument(("red", "blue"), sq("G5")), "monument red-blue G5"),
    (Decline(), "decline"),
]


@pytest.mark.parametrize(("action", "text"), EXAMPLES)
def test_notation_round_trip(action, text):
    assert str(action) == text
    assert ENGINE.parse_action(text) == action
    assert ENGINE.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("LEADER King f5", PlaceLeader("black", sq("F5"))),
        ("leader black f5", PlaceLeader("black", sq("F5"))),
        ("tile temple g7", PlaceTile("red", sq("G7"))),
        ("tile priest g7", PlaceTile("red", sq("G7"))),
        ("  tile   farm   a4 ", PlaceTile("blue", sq("A4"))),
        ("swap black red", Swap(("red", "black"))),
        ("war king", ChooseWar("black")),
        ("monument black-green c3", BuildMonument(("green", "black"), sq("C3"))),
        ("treasure b2 k1", TakeTreasures((sq("B2"), sq("K1")))),
    ],
)
def test_parse_is_lenient_and_canonical(text, expected):
    assert ENGINE.parse_action(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tile",
        "tile red",
        "tile pink F5",
        "tile red Q5",
        "tile red A12",
        "tile red A0",
        "tile red A05",
        "leader queen F5",
        "swap",
        "swap red red red red red red red",
        "support -1",
        "support two",
        "monument red-red G5",
        "monument red G5",
        "treasure B2 B2",
        "pass now",
        "jump F5",
    ],
)
def test_bad_notation(text):
    with pytest.raises(RuleError) as caught:
        ENGINE.parse_action(text)
    assert caught.value.key == "tigris.error.bad_notation"
    assert caught.value.params == {"text": text}


def test_square_names_in_one_pass_are_each_squares_name():
    squares = [*range(176), 176, 200, -1]
    assert square_names(squares) == [square_name(s) for s in squares]
    assert square_names([]) == []


def test_square_names():
    assert square_name(0) == "A1"
    assert square_name(16 * 11 - 1) == "P11"
    assert parse_square("p11") == 175
    assert all(parse_square(square_name(s)) == s for s in range(176))


def test_board_facts():
    assert len(RIVER) == 41
    assert len(START_TEMPLES) == 10
    assert not RIVER & set(START_TEMPLES)


squares = st.integers(0, 175)
colours = st.sampled_from(COLOURS)
ACTIONS = st.one_of(
    st.builds(PlaceLeader, colours, squares),
    st.builds(WithdrawLeader, colours),
    st.builds(PlaceTile, colours, squares),
    st.builds(PlaceCatastrophe, squares),
    st.builds(Swap, st.lists(colours, min_size=1, max_size=6).map(tuple)),
    st.just(Pass()),
    st.builds(Support, st.integers(0, 30)),
    st.builds(ChooseWar, colours),
    st.builds(TakeTreasures, st.lists(squares, min_size=1, max_size=9, unique=True).map(tuple)),
    st.builds(BuildMonument, st.sampled_from(MONUMENTS), squares),
    st.just(Decline()),
)


@given(ACTIONS)
def test_any_action_round_trips(action):
    assert ENGINE.parse_action(str(action)) == action
    assert ENGINE.parse_action(str(action).upper()) == action
