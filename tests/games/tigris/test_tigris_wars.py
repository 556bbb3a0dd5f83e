"""Wars: a tile joins two kingdoms where leaders of one colour meet."""

from __future__ import annotations

import pytest
from tigris_positions import keys, leader_at, legal, play, position, sq, tile_at

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.state import Leader

# Kings. Left: temple E5, king 0 on E6, black F5 G5 (2 supporters).
# Right: black I5, temple J5, king 1 on J6 (1 supporter). H5 joins them.
KINGS = {
    "E5": "red",
    "E6": "king:0",
    "F5": "black",
    "G5": "black",
    "I5": "black",
    "J5": "red",
    "J6": "king:1",
}


def event(events, key):
    return next(e for e in events if e.key == key)


def test_war_removes_the_losers_leader_and_supporters():
    state = position(KINGS, hands=[["green"], []])
    events = play(state, "tile green H5")
    war = event(events, "tigris.event.war")
    assert (war.params["attacker_seat"], war.params["defender_seat"]) == (0, 1)
    assert (war.params["attacker_base"], war.params["defender_base"]) == (2, 1)
    assert leader_at(state, "J6") is None
    assert tile_at(state, "I5") is None  # the loser's black supporter
    assert tile_at(state, "J5") == "red"  # other colours stay
    assert tile_at(state, "H5") == "green"  # the joining tile stays
    assert state.board.unification is None
    assert state.players[0].points["black"] == 2  # leader + one tile
    assert state.discarded == 1
    assert state.phase == "action" and state.actions_left == 1


def test_joining_tile_counts_for_nobody():
    state = position(KINGS, hands=[["black"], []])
    events = play(state, "tile black H5")
    war = event(events, "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (2, 1)
    assert tile_at(state, "H5") == "black"
    assert state.players[0].points["black"] == 2


def test_war_tie_goes_to_the_defender():
    state = position({**KINGS, "K5": "black"}, hands=[["green"], []])
    play(state, "tile green H5")
    assert leader_at(state, "E6") is None
    assert tile_at(state, "F5") is None and tile_at(state, "G5") is None
    assert leader_at(state, "J6") == Leader(1, "black")
    assert state.players[1].points["black"] == 3


def test_war_support_from_hand():
    state = position(
        {**KINGS, "K5": "black"},
        hands=[["green", "black", "black"], ["black", "red"]],
    )
    play(state, "tile green H5")
    assert state.phase == "war_support"
    assert ENGINE.public_view(state)["unification"] == "H5"
    assert ENGINE.waiting_for(state) == {0}
    assert legal(state) == ["support 0", "support 1", "support 2"]
    play(state, "support 2")
    assert ENGINE.waiting_for(state) == {1}
    assert legal(state) == ["support 0", "support 1"]
    events = play(state, "support 1")
    won = event(events, "tigris.event.war_won")
    assert (won.params["attacker_total"], won.params["defender_total"]) == (4, 3)
    assert won.params["winner_seat"] == 0
    # Leader + I5 + K5; the committed tiles score nothing and are discarded.
    assert state.players[0].points["black"] == 3
    assert state.discarded == 3 + 2
    assert state.players[0].hand == []
    assert state.players[1].hand == ["red"]


def test_attacker_is_the_active_player_when_involved():
    state = position(KINGS, seats=3, active=1, hands=[[], ["green"], []])
    state.board.leaders[sq("E6")] = Leader(2, "black")
    state.board.leaders[sq("J6")] = Leader(1, "black")
    events = play(state, "tile green H5")
    war = event(events, "tigris.event.war")
    assert war.params["attacker_seat"] == 1


@pytest.mark.parametrize(
    ("active", "left", "right", "attacker"),
    [(2, 0, 1, 0), (2, 1, 0, 0), (0, 1, 2, 1), (1, 2, 0, 2), (3, 1, 2, 1), (3, 2, 0, 0)],
)
def test_attacker_is_next_clockwise_when_the_active_player_is_not_involved(
    active, left, right, attacker
):
    hands = [[] for _ in range(4)]
    hands[active] = ["green"]
    state = position(KINGS, seats=4, active=active, hands=hands)
    state.board.leaders[sq("E6")] = Leader(left, "black")
    state.board.leaders[sq("J6")] = Leader(right, "black")
    events = play(state, "tile green H5")
    war = event(events, "tigris.event.war")
    assert war.params["attacker_seat"] == attacker
    assert war.params["defender_seat"] == ({left, right} - {attacker}).pop()


# Priests. Left (seat 0): priest on E6; temples E4, E5 (treasure), F5, G5, E7;
# seat 0's trader on G4 touches G5. Right (seat 1): priest on J4; temples
# I5 J5 K5 L5 J6. H5 joins. 5 against 4: the right wins.
PRIESTS = {
    "E5": "red*",
    "E6": "priest:0",
    "F5": "red",
    "G5": "red",
    "E7": "red",
    "G4": "trader:0",
    "I5": "red",
    "J5": "red",
    "K5": "red",
    "L5": "red",
    "J6": "red",
    "J4": "priest:1",
    # Spare treasures far away so the game goes on.
    "A11": "red*",
    "C11": "red*",
    "E11": "red*",
}


def test_priest_war_spares_treasure_temples_and_temples_touching_a_leader():
    state = position(PRIESTS, hands=[["black"], []])
    events = play(state, "tile black H5")
    war = event(events, "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (4, 5)
    assert leader_at(state, "E6") is None
    assert tile_at(state, "E5") == "red"  # treasure
    assert sq("E5") in state.board.treasures
    assert tile_at(state, "G5") == "red"  # touches the trader
    assert tile_at(state, "F5") is None
    assert tile_at(state, "E7") is None  # the beaten priest protects nothing
    assert state.players[1].points["red"] == 3  # priest + F5 + E7
    assert leader_at(state, "G4") == Leader(0, "green")


def test_flipped_monument_tiles_are_not_supporters():
    squares = {
        **KINGS,
        "F6": "black~",
        "G6": "black~",
        "F7": "black~",
        "G7": "black~",
        "K5": "black",
    }
    state = position(squares, hands=[["green"], []], monuments={"F6": ("blue", "black")})
    events = play(state, "tile green H5")
    war = event(events, "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (2, 2)
    assert all(tile_at(state, s) == "black" for s in ("F6", "G6", "F7", "G7"))
    assert sq("F6") in state.board.flipped


# Two clashes. Left (seat 0): temples E4 E5, priest E6, king F4, black F5 G5.
# Right (seat 1): black I5 J5 K5, temple K4, king K3, priest L4. H5 joins.
# Black: 2 against 3. Red: 2 against 1.
DOUBLE = {
    "E4": "red",
    "E5": "red",
    "E6": "priest:0",
    "F4": "king:0",
    "F5": "black",
    "G5": "black",
    "I5": "black",
    "J5": "black",
    "K5": "black",
    "K4": "red",
    "K3": "king:1",
    "L4": "priest:1",
    "A11": "red*",
    "C11": "red*",
    "E11": "red*",
}


def test_active_player_orders_the_wars():
    state = position(DOUBLE, hands=[["green"], []])
    events = play(state, "tile green H5")
    assert "tigris.event.clash" in keys(events)
    assert state.phase == "war_order"
    assert ENGINE.waiting_for(state) == {0}
    assert sorted(legal(state)) == ["war black", "war red"]
    with pytest.raises(RuleError) as caught:
        play(state, "war green")
    assert caught.value.key == "tigris.error.no_such_war"
    assert state.board.unification == sq("H5")


def test_a_war_can_end_the_next_clash():
    state = position(DOUBLE, hands=[["green"], []])
    play(state, "tile green H5")
    events = play(state, "war black")  # 2 against 3: seat 0 loses F5 G5
    assert leader_at(state, "F4") is None
    assert tile_at(state, "F5") is None and tile_at(state, "G5") is None
    # The priests are no longer in one kingdom: no red war.
    assert "tigris.event.war_over" in keys(events)
    assert leader_at(state, "E6") == Leader(0, "red")
    assert leader_at(state, "L4") == Leader(1, "red")
    assert state.board.unification is None
    assert state.phase == "action" and state.actions_left == 1
    assert state.players[1].points["black"] == 3


def test_wars_in_the_other_order():
    state = position(DOUBLE, hands=[["green"], []])
    play(state, "tile green H5")
    events = play(state, "war red")
    # Red: 2 against 1, seat 0 wins; K4 touches the king 1, so it stays.
    assert leader_at(state, "L4") is None
    assert tile_at(state, "K4") == "red"
    assert state.players[0].points["red"] == 1
    # Then the black war follows by itself: 2 against 3.
    assert keys(events).count("tigris.event.war") == 2
    assert leader_at(state, "F4") is None
    assert state.players[1].points["black"] == 3
    assert state.phase == "action"
