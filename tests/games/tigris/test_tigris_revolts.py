"""Revolts: a leader placed into a kingdom holding one of its colour."""

from __future__ import annotations

import pytest
from tigris_positions import keys, leader_at, legal, play, position

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.state import Leader

# Farmers: the defender on G4 touches the temple G5, the attacker on I4 the
# temple I5; G5-H5-I5 joins them in one kingdom. Base 1 against 1.
FARMERS = {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"}


def test_revolt_between_farmers_scores_a_red_point():
    state = position(FARMERS, hands=[["red", "blue"], ["blue"]])
    play(state, "leader farmer I4")
    assert state.phase == "revolt_support"
    assert ENGINE.waiting_for(state) == {0}
    assert legal(state) == ["support 0", "support 1"]
    play(state, "support 1")
    # The defender holds no red tile but is asked all the same: answering
    # for them would tell the table what their hand lacks.
    assert ENGINE.waiting_for(state) == {1}
    assert legal(state) == ["support 0"]
    events = play(state, "support 0")
    assert leader_at(state, "G4") is None
    assert leader_at(state, "I4") == Leader(0, "blue")
    assert state.players[0].points == {"red": 1, "blue": 0, "green": 0, "black": 0}
    assert state.players[1].points["red"] == 0
    assert state.players[0].hand == ["blue"]
    assert state.discarded == 1
    assert len(state.board.tiles) == 3  # no board tile is removed
    won = next(e for e in events if e.key == "tigris.event.revolt_won")
    assert won.params["winner_seat"] == 0
    assert (won.params["attacker_total"], won.params["defender_total"]) == (2, 1)
    assert state.phase == "action" and state.actions_left == 1


def test_revolt_tie_goes_to_the_defender():
    state = position(FARMERS)
    events = play(state, "leader farmer I4")  # both hands are empty: resolved at once
    assert "tigris.event.revolt_won" in keys(events)
    assert leader_at(state, "I4") is None
    assert leader_at(state, "G4") == Leader(1, "blue")
    assert state.players[1].points["red"] == 1
    assert state.phase == "action"


def test_attacker_commits_first_then_defender():
    state = position(FARMERS, hands=[["red"], ["red", "red"]])
    play(state, "leader farmer I4")
    play(state, "support 1")
    assert ENGINE.waiting_for(state) == {1}
    view = ENGINE.public_view(state)["conflict"]
    assert view["attacker_committed"] == 1 and view["defender_committed"] is None
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(state, 0, ENGINE.parse_action("support 0"))
    assert caught.value.key == "tigris.error.not_your_turn"
    with pytest.raises(RuleError) as caught:
        play(state, "support 3")
    assert caught.value.key == "tigris.error.support_range"
    play(state, "support 1")  # 2 against 2: the defender holds
    assert leader_at(state, "G4") == Leader(1, "blue")
    assert state.players[1].points["red"] == 1
    assert state.discarded == 2
    assert state.conflict is None


def test_a_temple_touching_both_leaders_counts_for_both():
    state = position({"H5": "red", "H4": "king:1"}, hands=[["red"], ["red"]])
    play(state, "leader king H6")
    conflict = ENGINE.public_view(state)["conflict"]
    assert conflict["kind"] == "revolt"
    assert (conflict["attacker_base"], conflict["defender_base"]) == (1, 1)
    assert conflict["attacker_seat"] == 0 and conflict["defender_seat"] == 1
    assert (conflict["attacker_sq"], conflict["defender_sq"]) == ("H6", "H4")


def test_only_adjacent_face_up_temples_count_in_a_revolt():
    state = position(
        {
            "G5": "red",
            "H5": "black",
            "I5": "red",
            "F4": "black",
            "H4": "black",
            "J4": "black",
            "J5": "red",  # in the kingdom, but touches neither leader
            "G4": "king:1",
            "I3": "red~",  # flipped under a monument: no temple
        },
        hands=[["red"], ["red"]],
    )
    play(state, "leader king I4")
    conflict = ENGINE.public_view(state)["conflict"]
    assert (conflict["attacker_base"], conflict["defender_base"]) == (1, 1)
