"""Monuments: building, flipping, leaders losing temples, points."""

from __future__ import annotations

import pytest
from tigris_positions import keys, leader_at, legal, play, position, sq, tile_at

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.board import COLS, ROWS, SQUARES, block_squares, blocks_containing
from bot.games.tigris.state import Leader

SPARE = {"A11": "red*", "C11": "red*", "E11": "red*"}
BLOCK = ("G5", "H5", "G6", "H6")


def test_monument_offered_after_completing_a_2x2():
    state = position({"G5": "red*", "H5": "red", "G6": "red"}, hands=[["red"], []])
    play(state, "tile red H6")
    assert state.phase == "monument"
    assert ENGINE.waiting_for(state) == {0}
    assert sorted(legal(state)) == [
        "decline",
        "monument red-black G5",
        "monument red-blue G5",
        "monument red-green G5",
    ]
    assert state.actions_left == 2  # the action is not over yet


def test_building_flips_the_tiles_and_keeps_the_treasure():
    state = position(
        {"G5": "red*", "H5": "red", "G6": "red", "G4": "king:1", "I6": "red", "I5": "farmer:1"},
        hands=[["red"], []],
    )
    play(state, "tile red H6")
    events = play(state, "monument red-black G5")
    assert state.board.flipped == {sq(s) for s in BLOCK}
    assert state.board.monuments == {sq("G5"): ("red", "black")}
    assert sq("G5") in state.board.treasures
    assert all(tile_at(state, s) == "red" for s in BLOCK)
    # The king touched only G5; the farmer still touches the temple I6.
    assert leader_at(state, "G4") is None
    assert leader_at(state, "I5") == Leader(1, "blue")
    assert "tigris.event.leader_returned" in keys(events)
    assert state.phase == "action" and state.actions_left == 1
    assert ["red", "black"] not in ENGINE.public_view(state)["monuments_left"]
    assert ENGINE.public_view(state)["monuments"][0]["sq"] == "G5"


def test_declining():
    state = position({"G5": "red", "H5": "red", "G6": "red"}, hands=[["red"], []])
    play(state, "tile red H6", "decline")
    assert not state.board.flipped and not state.board.monuments
    assert state.phase == "action" and state.actions_left == 1


def test_wrong_monument_refused():
    state = position({"G5": "red", "H5": "red", "G6": "red"}, hands=[["red"], []])
    play(state, "tile red H6")
    for move in ("monument blue-green G5", "monument red-blue H5", "monument red-blue F5"):
        with pytest.raises(RuleError) as caught:
            play(state, move)
        assert caught.value.key == "tigris.error.monument_invalid"


def test_no_monument_when_none_of_that_colour_is_left():
    built = {
        "J1": ("red", "blue"),
        "J3": ("red", "green"),
        "L3": ("red", "black"),
    }
    state = position({"G5": "red", "H5": "red", "G6": "red"}, hands=[["red"], []])
    state.board.monuments.update({sq(k): v for k, v in built.items()})
    play(state, "tile red H6")
    assert state.phase == "action" and state.actions_left == 1


def test_choice_between_two_squares():
    state = position(
        {"G5": "black", "G6": "black", "I5": "black", "I6": "black", "H6": "black"},
        hands=[["black"], []],
    )
    play(state, "tile black H5")
    options = {m.split()[-1] for m in legal(state) if m.startswith("monument")}
    assert options == {"G5", "H5"}
    play(state, "monument blue-black H5")
    assert state.board.flipped == {sq(s) for s in ("H5", "I5", "H6", "I6")}


def test_flipped_tiles_still_connect_but_are_no_temples():
    state = position(
        {
            "G5": "red~",
            "H5": "red~",
            "G6": "red~",
            "H6": "red~",
            "F5": "red",
            "E5": "king:0",
        },
        monuments={"G5": ("red", "blue")},
        hands=[["green"], []],
    )
    # I5 touches the monument: the tile is in the king's kingdom.
    events = play(state, "tile green I5")
    assert state.players[0].points["green"] == 1
    assert "tigris.event.scored" in keys(events)
    with pytest.raises(RuleError) as caught:
        play(state, "leader priest I6")
    assert caught.value.key == "tigris.error.leader_needs_temple"


def test_monument_points_at_the_end_of_the_turn():
    state = position(
        {
            **SPARE,
            "G5": "red~",
            "H5": "red~",
            "G6": "red~",
            "H6": "red~",
            "F4": "red",
            "F5": "king:0",
            "I6": "red",
            "I5": "priest:0",
            "J6": "trader:0",
            "H7": "red",
            "H8": "farmer:1",  # another player's leader scores nothing on my turn
        },
        monuments={"G5": ("red", "black")},
    )
    events = play(state, "pass")
    assert state.players[0].points == {"red": 1, "blue": 0, "green": 0, "black": 1}
    assert state.players[1].points == {"red": 0, "blue": 0, "green": 0, "black": 0}
    got = [e for e in events if e.key == "tigris.event.monument_points"]
    assert all(e.private_to == 0 for e in got) and len(got) == 2


def test_king_scores_only_from_a_black_monument():
    state = position(
        {
            **SPARE,
            "G5": "red~",
            "H5": "red~",
            "G6": "red~",
            "H6": "red~",
            "F4": "red",
            "F5": "king:0",
        },
        monuments={"G5": ("red", "blue")},
    )
    play(state, "pass")
    assert sum(state.players[0].points.values()) == 0


def test_monument_comes_after_the_wars():
    # The joining tile H5 completes the green block G5 H5 G6 H6, and joins two
    # king kingdoms (2 against 1 black supporters).
    state = position(
        {
            "E5": "red",
            "E6": "king:0",
            "F5": "black",
            "F6": "black",
            "G5": "green",
            "G6": "green",
            "H6": "green",
            "I5": "black",
            "J5": "red",
            "J6": "king:1",
        },
        hands=[["green"], []],
    )
    events = play(state, "tile green H5")
    assert "tigris.event.war_won" in keys(events)
    assert state.phase == "monument"
    assert state.board.unification is None
    play(state, "monument blue-green G5")
    assert sq("H5") in state.board.flipped


def test_a_monument_outside_any_kingdom_scores_nothing():
    state = position(
        {
            **SPARE,
            "G5": "red~",
            "H5": "red~",
            "G6": "red~",
            "H6": "red~",
            "K5": "red",
            "K4": "king:0",
        },
        monuments={"G5": ("red", "black")},
    )
    play(state, "pass")
    assert sum(state.players[0].points.values()) == 0


def test_the_blocks_holding_a_square_are_every_2x2_block_on_the_board_holding_it() -> None:
    """``blocks_containing`` (a table read) names, for every square, each block whose
    four squares are on the board and hold it, top-left squares in board order."""
    for square in SQUARES:
        expected = [
            top_left
            for top_left in SQUARES
            if top_left % COLS < COLS - 1
            and top_left // COLS < ROWS - 1
            and square in block_squares(top_left)
        ]
        assert list(blocks_containing(square)) == expected
