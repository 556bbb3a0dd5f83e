"""Catastrophes and swaps."""

from __future__ import annotations

import pytest
from tigris_positions import legal, play, position, sq, tile_at

from bot.games.base import RuleError
from bot.games.tigris import ENGINE


def refused(state, move, key):
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError) as caught:
        play(state, move)
    assert caught.value.key == key
    assert ENGINE.dump_state(state) == before


def test_catastrophe_destroys_a_tile_for_good():
    state = position({"G5": "black"}, hands=[["black"], []])
    play(state, "catastrophe G5")
    assert tile_at(state, "G5") is None
    assert sq("G5") in state.board.catastrophes
    assert state.discarded == 1
    assert state.players[0].catastrophes == 1
    refused(state, "tile black G5", "tigris.error.occupied")
    refused(state, "catastrophe G5", "tigris.error.occupied")


def test_catastrophe_on_an_empty_square_or_the_river():
    state = position()
    play(state, "catastrophe H5", "catastrophe G8")
    assert state.board.catastrophes == {sq("H5"), sq("G8")}
    assert state.discarded == 0


def test_catastrophe_forbidden_squares():
    state = position(
        {
            "G5": "red*",
            "G4": "king:1",
            "J5": "red~",
            "K5": "red~",
            "J6": "red~",
            "K6": "red~",
        },
        monuments={"J5": ("red", "blue")},
    )
    refused(state, "catastrophe G4", "tigris.error.catastrophe_on_leader")
    refused(state, "catastrophe G5", "tigris.error.catastrophe_on_treasure")
    refused(state, "catastrophe K6", "tigris.error.catastrophe_on_monument")
    moves = legal(state)
    assert not {"catastrophe G4", "catastrophe G5", "catastrophe K6"} & set(moves)
    assert "catastrophe H5" in moves


def test_two_catastrophes_per_player():
    state = position(catastrophes=[0, 2])
    refused(state, "catastrophe H5", "tigris.error.no_catastrophes")
    assert not any(m.startswith("catastrophe") for m in legal(state))


def test_catastrophe_splits_a_kingdom():
    state = position(
        {"G5": "red", "H5": "black", "I5": "red", "G4": "king:0", "I4": "trader:1"},
        hands=[["red", "red"], []],
    )
    play(state, "catastrophe H5")
    events = play(state, "tile red J5")
    # The king is no longer in the trader's kingdom: nobody scores.
    assert not [e for e in events if e.key == "tigris.event.scored"]
    assert state.players[0].points["red"] == 0


def test_swap_discards_and_draws_from_the_bag():
    state = position(hands=[["red", "red", "blue"], []], bag=["green", "black", "black"])
    events = play(state, "swap red blue")
    assert sorted(state.players[0].hand) == sorted(["red", "black", "black"])
    assert state.bag == ["green"]
    assert state.discarded == 2
    drew = [e for e in events if e.key == "tigris.event.drew"]
    assert drew[0].private_to == 0
    assert drew[0].params["black"] == 2
    public = [e for e in events if e.private_to is None]
    assert public[0].params == {"seat": 0, "count": 2}


def test_swap_needs_the_tiles():
    state = position(hands=[["red", "blue"], []])
    refused(state, "swap red red", "tigris.error.tile_not_in_hand")


def test_swap_options_are_distinct_multisets():
    state = position(hands=[["red", "red", "blue"], []])
    swaps = sorted(m for m in legal(state) if m.startswith("swap"))
    assert swaps == sorted(
        ["swap red", "swap red red", "swap blue", "swap red blue", "swap red red blue"]
    )


def test_swap_with_a_short_bag_ends_the_game_at_the_end_of_the_turn():
    state = position(
        {"A11": "red*", "C11": "red*", "E11": "red*"},
        hands=[["red", "red"], ["black"] * 6],
        bag=["green"],
    )
    play(state, "swap red red")
    assert state.players[0].hand == ["green"]
    assert state.bag_short
    assert state.phase == "action" and state.actions_left == 1
    assert ENGINE.result(state) is None
    play(state, "pass")
    assert state.phase == "over"
    assert ENGINE.waiting_for(state) == set()
    assert ENGINE.result(state) is not None


def test_pass_ends_the_turn():
    state = position({"A11": "red*", "C11": "red*", "E11": "red*"})
    play(state, "pass")
    assert state.active == 1
    assert state.actions_left == 2
    assert all(len(p.hand) == 6 for p in state.players)
