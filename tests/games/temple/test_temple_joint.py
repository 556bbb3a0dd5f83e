"""The optional joint last card (lobby option ``joint``, 3–4 players)."""

from __future__ import annotations

import pytest
from temple_helpers import act, bricks, build, game, keys, refused

from bot.games.base import RuleError
from bot.games.temple import ENGINE, Joint, Pass
from bot.games.temple.state import PHASE_OVER


def last_card(joint: bool = True, seats: int = 3):
    return game(seats, slots=("hut", None), deck=(), joint=joint)


def agreed(seats: int = 3):
    """Seats 0 and 1 agree in round 1; everyone passes; round 2 opens jointly."""
    state = last_card(seats=seats)
    act(state, 0, "joint 2")
    act(state, 1, "joint 1")
    events = []
    for seat in range(seats):
        events += act(state, seat, "pass")
    assert "temple.event.joint_started" in keys(events) and state.joint_pair == (0, 1)
    state.dice = ["star"] * seats
    return state


def test_the_joint_option_needs_three_or_four_players() -> None:
    assert ENGINE.player_range({"joint": "on"}) == (3, 4)
    assert ENGINE.player_range({"joint": "off"}) == (2, 4)
    with pytest.raises(RuleError) as caught:
        ENGINE.new_game(2, {"joint": "on"}, 1)
    assert caught.value.key == "temple.error.player_count"
    with pytest.raises(RuleError) as caught:
        ENGINE.new_game(3, {"joint": "maybe"}, 1)
    assert caught.value.key == "temple.error.bad_option"
    assert ENGINE.new_game(3, {"joint": "on"}, 1).joint_rule


def test_two_players_who_agree_build_the_last_card_together() -> None:
    state = last_card()
    events = act(state, 0, "joint 2")
    assert keys(events) == ["temple.event.joint_offered"]
    assert state.joint_pair is None and 0 in ENGINE.waiting_for(state)  # not a move
    assert Joint(0) in ENGINE.private_choices(state, 1)
    events = act(state, 1, "joint 1")
    assert keys(events) == ["temple.event.joint_agreed"]
    assert state.joint_pair is None  # it takes effect when the next round opens
    for seat in range(3):
        act(state, seat, "pass")
    assert state.joint_pair == (0, 1) and state.joint_offers == {}
    state.dice = ["star"] * 3
    act(state, 0, "place 1 A1 4")
    act(state, 1, "place 1 B2 2")  # alone it would be the first brick; jointly it touches
    events = act(state, 2, "pass")
    assert "temple.event.joint_completed" in keys(events)
    assert state.players[0].score_tokens == [1] and state.players[1].score_tokens == [1]
    assert state.players[0].won == [] and state.discarded == ["hut"]
    assert state.players[0].bonus == [4] and state.players[1].bonus == [2]
    assert state.phase == PHASE_OVER
    result = ENGINE.result(state)
    assert result is not None and dict(result.scores) == {0: 8, 1: 6, 2: 3}


def test_an_agreement_fails_if_the_bricks_overlap_when_it_would_take_effect() -> None:
    state = last_card()
    act(state, 0, "joint 2")
    act(state, 1, "joint 1")
    act(state, 0, "place 1 A1 4")
    act(state, 1, "place 1 A1 4")
    events = act(state, 2, "pass")
    assert "temple.event.joint_failed" in keys(events)
    assert state.joint_pair is None and state.joint_offers == {}


def test_joint_bricks_must_not_overlap_and_touch_the_joint_build() -> None:
    state = agreed()
    build(state, 0, 0, "4:A1")
    refused(state, 1, "place 1 A1 2", "temple.error.overlap")
    refused(state, 1, "mortar 1", "temple.error.joint_no_tokens")
    act(state, 1, "place 1 B2 2")
    assert bricks(state, 1, 0) == []  # sealed until the reveal


def test_a_joint_brick_blocked_at_the_reveal_is_skipped() -> None:
    state = agreed()
    state.roller = 0
    act(state, 0, "place 1 A1 4")
    act(state, 1, "place 1 B1 2")  # fine alone, but seat 0's 4 lands first
    events = act(state, 2, "pass")
    assert "temple.event.part_skipped" in keys(events)
    assert bricks(state, 0, 0) == ["4:A1"] and bricks(state, 1, 0) == []
    assert state.players[1].supply[2] == 4


def test_joint_offers_are_refused_off_the_last_card_or_without_the_option() -> None:
    refused(last_card(joint=False), 0, "joint 2", "temple.error.joint_off")
    state = game(3, slots=("hut", "gate"), deck=(), joint=True)
    refused(state, 0, "joint 2", "temple.error.joint_not_last")
    state = last_card()
    refused(state, 0, "joint 1", "temple.error.joint_player")
    build(state, 0, 0, "4:A1")
    build(state, 2, 0, "2:A1")
    refused(state, 0, "joint 3", "temple.error.joint_overlap")
    act(state, 0, "joint 2")
    refused(state, 0, "joint 2", "temple.error.joint_offered")
    act(state, 0, "cancel joint")
    assert state.joint_offers == {}
    state = agreed()
    refused(state, 0, "cancel joint", "temple.error.joint_agreed")
    refused(state, 2, "joint 1", "temple.error.joint_agreed")


def test_a_lone_completer_beats_a_later_joint_pair() -> None:
    state = agreed()
    state.roller = 2
    build(state, 2, 0, "4:A1")
    act(state, 0, "place 1 A1 4")
    act(state, 1, "place 1 B2 2")
    act(state, 2, "place 1 B2 2")
    assert state.players[2].won == ["hut"]
    assert state.players[0].score_tokens == [1] and state.players[1].score_tokens == [1]
    assert state.discarded == []
    assert [s for s in range(3) if Pass() in ENGINE.legal_actions(state, s)] == []
