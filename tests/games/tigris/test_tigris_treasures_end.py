"""Treasures, the end of the game and the final ranking."""

from __future__ import annotations

import pytest
from tigris_positions import keys, legal, play, position, sq

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.state import Player
from bot.games.tigris.treasures import TreasureClaim

SPARE = {"A11": "red*", "C11": "red*", "E11": "red*"}


def test_corner_treasure_is_taken_first_automatically():
    state = position({**SPARE, "B2": "red*", "C2": "black", "D2": "red*"})
    events = play(state, "leader trader B1")
    assert "tigris.event.treasures_taken" in keys(events)
    assert sq("B2") not in state.board.treasures
    assert sq("D2") in state.board.treasures
    assert state.players[0].treasures == 1
    assert state.phase == "action" and state.actions_left == 1


def test_trader_owner_chooses_among_ordinary_treasures():
    state = position({**SPARE, "G5": "red*", "H5": "red*", "I5": "red*"})
    play(state, "leader trader G4")
    assert state.phase == "treasure"
    assert sorted(legal(state)) == ["treasure G5 H5", "treasure G5 I5", "treasure H5 I5"]
    with pytest.raises(RuleError) as caught:
        play(state, "treasure G5")
    assert caught.value.key == "tigris.error.treasure_choice"
    play(state, "treasure i5 g5")
    assert state.board.treasures & {sq("G5"), sq("H5"), sq("I5")} == {sq("H5")}
    assert state.players[0].treasures == 2
    assert state.phase == "action" and state.actions_left == 1


def test_the_traders_owner_chooses_even_on_another_players_turn():
    state = position(
        {**SPARE, "G5": "red*", "G4": "trader:1", "I5": "red*", "J5": "red*"},
        hands=[["black"], []],
    )
    play(state, "tile black H5")
    assert state.phase == "treasure"
    assert ENGINE.waiting_for(state) == {1}
    assert ENGINE.legal_actions(state, 0) == []
    play(state, "treasure G5 J5")
    assert state.players[1].treasures == 2
    assert ENGINE.waiting_for(state) == {0}
    assert state.actions_left == 1


def test_treasures_stay_without_a_trader():
    state = position({**SPARE, "G5": "red*", "H5": "red*"})
    play(state, "leader king G4")
    assert state.board.treasures >= {sq("G5"), sq("H5")}


def test_claim_options():
    b2, b8, f3, k1 = sq("B2"), sq("B8"), sq("F3"), sq("K1")
    assert TreasureClaim(0, (b2, f3)).options == [(b2,)]
    assert sorted(TreasureClaim(0, (b2, b8)).options) == [(b2,), (b8,)]
    assert sorted(TreasureClaim(0, (b2, f3, k1)).options) == sorted([(b2, f3), (k1, b2)])


def test_game_ends_at_the_end_of_the_turn_when_two_treasures_remain():
    state = position({"A11": "red*", "G5": "red*", "H5": "red*"})
    play(state, "leader trader G4", "treasure G5")
    assert len(state.board.treasures) == 2
    assert state.phase == "action" and ENGINE.result(state) is None
    events = play(state, "pass")
    assert state.phase == "over"
    assert "tigris.event.game_over.treasures" in keys(events)
    assert ENGINE.result(state) is not None
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(state, 1, ENGINE.parse_action("pass"))
    assert caught.value.key == "tigris.error.game_over"


def test_game_goes_on_with_three_treasures():
    state = position(SPARE)
    play(state, "pass")
    assert state.phase == "action" and state.active == 1


def test_game_ends_when_the_bag_cannot_refill_a_hand():
    state = position(SPARE, hands=[["red"] * 5, ["red"] * 6], bag=[])
    events = play(state, "pass")
    assert state.phase == "over"
    assert "tigris.event.game_over.bag" in keys(events)


def test_every_hand_is_refilled_at_the_end_of_a_turn():
    state = position(SPARE, hands=[["red"], ["blue"], []], seats=3, bag=["black"] * 20)
    play(state, "pass")
    assert [len(p.hand) for p in state.players] == [6, 6, 6]
    assert state.bag == ["black"] * 4


def finished(points, treasures):
    state = position(SPARE, seats=len(points))
    state.players = [
        Player(
            hand=[],
            points=dict(zip(("red", "blue", "green", "black"), p, strict=True)),
            treasures=t,
        )
        for p, t in zip(points, treasures, strict=True)
    ]
    state.phase = "over"
    return ENGINE.result(state)


def test_treasures_raise_the_weakest_colours():
    result = finished([(5, 3, 4, 10), (4, 4, 4, 4)], [3, 1])
    # 3 treasures: blue 3->4, then 4 4 5 or so: sorted vector 5 5 5 10
    assert result.details[0][1]["vector"] == [5, 5, 5, 10]
    assert result.scores == {0: 5, 1: 4}
    assert result.ranking == (0, 1)


def test_ties_are_broken_by_the_next_weakest_colour():
    result = finished([(5, 6, 7, 8), (5, 6, 8, 8), (8, 7, 6, 5), (5, 5, 9, 9)], [0, 0, 0, 0])
    assert result.ranking[0] == 1
    assert result.places == {1: 1, 0: 2, 2: 2, 3: 4}
    assert result.scores == {0: 5, 1: 5, 2: 5, 3: 5}
    key, params = result.details[1]
    assert key == "tigris.result.detail"
    assert params["sorted"] == "5 · 6 · 8 · 8"


def test_a_single_wild_treasure_beats_a_higher_colour():
    # 4 4 4 9 + 1 treasure -> 4 4 5 9 ; 4 4 5 5 -> second weakest tie, third 5=5, fourth 9>5
    result = finished([(4, 4, 4, 9), (4, 4, 5, 5)], [1, 0])
    assert result.ranking == (0, 1)
