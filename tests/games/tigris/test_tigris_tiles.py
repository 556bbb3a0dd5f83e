"""Tiles: where they may go and who scores them."""

from __future__ import annotations

import pytest
from tigris_positions import keys, legal, play, position, tile_at

from bot.games.base import RuleError
from bot.games.tigris import ENGINE

HAND = ["red", "blue", "green", "black", "black", "red"]


def refused(state, move, key):
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError) as caught:
        play(state, move)
    assert caught.value.key == key
    assert ENGINE.dump_state(state) == before


def scores(events):
    return [
        (e.params["seat"], e.params["colour"].key, e.params["count"], e.private_to)
        for e in events
        if e.key == "tigris.event.scored"
    ]


def test_blue_only_on_the_river_and_nothing_else_there():
    state = position(hands=[HAND, []])
    refused(state, "tile blue G5", "tigris.error.farm_off_river")
    refused(state, "tile red G8", "tigris.error.tile_on_river")
    assert "tile blue G8" in legal(state)
    assert "tile red G8" not in legal(state)
    assert "tile blue G5" not in legal(state)
    play(state, "tile blue G8")
    assert tile_at(state, "G8") == "blue"
    assert state.players[0].hand.count("blue") == 0


def test_tile_must_be_in_hand_and_square_empty():
    state = position({"G5": "red"}, hands=[["red"], []])
    refused(state, "tile black H5", "tigris.error.tile_not_in_hand")
    refused(state, "tile red G5", "tigris.error.occupied")


def test_same_colour_leader_owner_scores_privately():
    state = position({"G5": "red", "G4": "trader:1", "G6": "king:0"}, hands=[HAND, []])
    events = play(state, "tile green H5")
    assert scores(events) == [(1, "tigris.colour.green", 1, 1)]
    assert state.players[1].points["green"] == 1
    assert state.players[0].points == {"red": 0, "blue": 0, "green": 0, "black": 0}
    public = [e for e in events if e.private_to is None]
    assert all("count" not in e.params for e in public)


def test_king_scores_a_colour_without_its_leader():
    state = position({"G5": "red", "G4": "trader:1", "G6": "king:0"}, hands=[HAND, []])
    events = play(state, "tile red H5")
    assert scores(events) == [(0, "tigris.colour.red", 1, 0)]
    assert state.players[0].points["red"] == 1


def test_nobody_scores_without_leader_or_king():
    state = position({"G5": "red", "G4": "trader:1"}, hands=[HAND, []])
    events = play(state, "tile red H5")
    assert scores(events) == []
    assert all(sum(p.points.values()) == 0 for p in state.players)


def test_tile_outside_any_kingdom_scores_nothing():
    state = position({"G5": "red", "K5": "red", "K4": "king:0"}, hands=[HAND, []])
    assert scores(play(state, "tile red H5")) == []


def test_scoring_is_public_when_open():
    state = position({"G5": "red", "G4": "trader:1"}, hands=[HAND, []], scoring="open")
    events = play(state, "tile green H5")
    assert scores(events) == [(1, "tigris.colour.green", 1, None)]


def test_joining_tile_scores_nothing():
    state = position({"G4": "red", "G3": "king:0", "I4": "red", "I3": "trader:1"}, hands=[HAND, []])
    events = play(state, "tile red H4")
    assert "tigris.event.tile_joins" in keys(events)
    assert scores(events) == []
    assert state.board.unification is None
    assert state.phase == "action"
    assert state.actions_left == 1


def test_tile_may_not_touch_three_kingdoms():
    state = position(
        {
            "G4": "red",
            "G3": "king:0",
            "I4": "red",
            "I3": "priest:1",
            "H5": "red",
            "H6": "farmer:0",
        },
        hands=[HAND, []],
    )
    refused(state, "tile black H4", "tigris.error.three_kingdoms")
    assert not any(move.endswith(" H4") for move in legal(state) if move.startswith("tile"))


def test_tile_may_touch_two_kingdoms_and_a_plain_region():
    state = position(
        {"G4": "red", "G3": "king:0", "I4": "red", "I3": "priest:1", "H5": "black"},
        hands=[HAND, []],
    )
    assert "tile black H4" in legal(state)
    play(state, "tile black H4")
    assert tile_at(state, "H4") == "black"
