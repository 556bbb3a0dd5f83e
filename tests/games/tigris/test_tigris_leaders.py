"""Leaders: where they may go, moving, withdrawing, automatic return."""

from __future__ import annotations

import pytest
from tigris_positions import keys, leader_at, legal, play, position

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.state import Leader


def refused(state, move, key):
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError) as caught:
        play(state, move)
    assert caught.value.key == key
    assert ENGINE.dump_state(state) == before


def test_leader_goes_next_to_a_temple():
    state = position({"G5": "red"})
    events = play(state, "leader king G6")
    assert leader_at(state, "G6") == Leader(0, "black")
    assert state.actions_left == 1
    assert keys(events) == ["tigris.event.leader_placed"]


def test_leader_needs_a_face_up_temple():
    refused(position({"G5": "black"}), "leader king G6", "tigris.error.leader_needs_temple")
    refused(position({"G5": "red"}), "leader king H6", "tigris.error.leader_needs_temple")
    flipped = position({"G5": "red~"}, monuments={"G5": ("red", "blue")})
    refused(flipped, "leader king G6", "tigris.error.leader_needs_temple")


def test_leader_never_on_the_river():
    refused(position({"D5": "red"}), "leader king D4", "tigris.error.leader_on_river")


def test_leader_needs_an_empty_square():
    refused(position({"G5": "red", "G6": "black"}), "leader king G6", "tigris.error.occupied")
    refused(position({"G5": "red", "G6": "x"}), "leader king G6", "tigris.error.occupied")
    refused(position({"G5": "red", "G6": "priest:1"}), "leader king G6", "tigris.error.occupied")


def test_leader_may_not_join_two_kingdoms():
    state = position({"G4": "red", "G3": "king:1", "I4": "red", "I3": "priest:1"})
    refused(state, "leader farmer H4", "tigris.error.leader_joins_kingdoms")
    assert "leader farmer H4" not in legal(state)


def test_leader_may_join_a_kingdom_and_leaderless_tiles():
    state = position({"G4": "red", "G3": "king:1", "I4": "red"})
    assert "leader farmer H4" in legal(state)
    play(state, "leader farmer H4")
    assert leader_at(state, "H4") == Leader(0, "blue")


def test_move_is_one_action_and_leaves_the_old_square():
    state = position({"G5": "red", "G6": "king:0", "J5": "red"})
    events = play(state, "leader king J6")
    assert leader_at(state, "G6") is None
    assert leader_at(state, "J6") == Leader(0, "black")
    assert state.actions_left == 1
    assert events[0].key == "tigris.event.leader_moved"
    assert events[0].params["from_square"] == "G6"
    assert ENGINE.public_view(state)["last_action"]["squares"] == ["G6", "J6"]


def test_move_is_checked_without_the_moving_leader():
    # With the king still on G3, H4 would join two kingdoms; once it moves,
    # G3-G4 is only a leaderless tile.
    state = position({"G4": "red", "G3": "king:0", "I4": "red", "I3": "priest:1"})
    play(state, "leader king H4")
    assert leader_at(state, "H4") == Leader(0, "black")


def test_move_onto_its_own_square_is_refused():
    state = position({"G5": "red", "G6": "king:0"})
    refused(state, "leader king G6", "tigris.error.same_square")
    assert "leader king G6" not in legal(state)


def test_withdraw():
    state = position({"G5": "red", "G6": "king:0"})
    assert "withdraw king" in legal(state)
    assert "withdraw priest" not in legal(state)
    play(state, "withdraw king")
    assert not state.board.leaders
    assert state.actions_left == 1
    refused(state, "withdraw king", "tigris.error.leader_not_on_board")


def test_leader_returns_when_a_catastrophe_destroys_its_last_temple():
    state = position({"G5": "red", "G4": "king:1", "J5": "red", "J4": "farmer:1"})
    events = play(state, "catastrophe G5")
    assert leader_at(state, "G4") is None
    assert leader_at(state, "J4") == Leader(1, "blue")
    returned = [e for e in events if e.key == "tigris.event.leader_returned"]
    assert [e.params["seat"] for e in returned] == [1]
    assert returned[0].params["square"] == "G4"


def test_leader_stays_while_another_temple_touches_it():
    state = position({"G5": "red", "H4": "red", "G4": "king:1"})
    play(state, "catastrophe G5")
    assert leader_at(state, "G4") == Leader(1, "black")


def test_only_the_waiting_seat_may_act():
    state = position({"G5": "red"})
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(state, 1, ENGINE.parse_action("leader king G6"))
    assert caught.value.key == "tigris.error.not_your_turn"
    assert ENGINE.legal_actions(state, 1) == []
