"""An independent audit of the rules engine: one scenario test per rule.

Each test builds a small position, plays the moves that reach the rule, and
checks what only a correct implementation does. Sources: ``notes`` is
``docs/rules/tigris.md`` (it wins), ``001``/``004`` the two Chinese
rulebooks it cites (004 is the more precise on conflicts).
"""

from __future__ import annotations

import pytest
from tigris_positions import keys, leader_at, legal, play, position, sq, tile_at

from bot.games.base import RuleError
from bot.games.tigris import ENGINE
from bot.games.tigris.state import Leader, Player

#: Treasures far from every scenario, so that no test ends the game by accident.
SPARE = {"A11": "red*", "C11": "red*", "E11": "red*"}


def refused(state, move, key):
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError) as caught:
        play(state, move)
    assert caught.value.key == key
    assert ENGINE.dump_state(state) == before


def event(events, key):
    return next(e for e in events if e.key == key)


def no_points(player):
    return sum(player.points.values()) == 0


# --- leaders -----------------------------------------------------------------------------


def test_leader_goes_only_next_to_a_face_up_temple():
    """notes: "A leader goes on an empty non-river square orthogonally next to a face-up temple"."""
    state = position(
        {
            "G5": "black",  # not a temple
            "J5": "red",  # diagonal to K4 only
            "M5": "red~",  # flipped under a monument: no temple
            "M6": "red~",
            "L5": "red~",
            "L6": "red~",
            "D5": "red",  # next to the river square D4
        },
        monuments={"L5": ("red", "blue")},
    )
    refused(state, "leader king G6", "tigris.error.leader_needs_temple")
    refused(state, "leader king K4", "tigris.error.leader_needs_temple")
    refused(state, "leader king M4", "tigris.error.leader_needs_temple")
    refused(state, "leader king D4", "tigris.error.leader_on_river")
    moves = set(legal(state))
    assert not {"leader king G6", "leader king K4", "leader king M4", "leader king D4"} & moves
    assert "leader king J4" in moves
    play(state, "leader king J4")
    assert leader_at(state, "J4") == Leader(0, "black")


def test_leader_moves_within_its_kingdom_without_a_revolt():
    """notes: "Moving = withdraw then place, one action" (a leader cannot revolt against itself)."""
    state = position({"G5": "red", "H5": "red", "G4": "king:0", "H4": "priest:1"})
    events = play(state, "leader king H6")
    assert keys(events) == ["tigris.event.leader_moved"]
    assert leader_at(state, "G4") is None
    assert leader_at(state, "H6") == Leader(0, "black")
    assert state.conflict is None and state.phase == "action" and state.actions_left == 1


def test_leader_moving_into_another_kingdom_starts_a_revolt_as_attacker():
    """
    notes: revolt = "a leader placed into a kingdom that holds a same-colour leader"; 001:
    安置(放置,移动).
    """
    # Seat 0's king leaves G4 for K6, in seat 1's kingdom: K6 touches the
    # temples K5 and L6 (2), the defender on K4 touches only K5 (1).
    state = position(
        {"G5": "red", "G4": "king:0", "K5": "red", "L5": "red", "L6": "red", "K4": "king:1"},
        hands=[[], ["red"]],
    )
    events = play(state, "leader king K6")
    revolt = event(events, "tigris.event.revolt")
    assert (revolt.params["attacker_seat"], revolt.params["defender_seat"]) == (0, 1)
    assert (revolt.params["attacker_square"], revolt.params["defender_square"]) == ("K6", "K4")
    assert (revolt.params["attacker_base"], revolt.params["defender_base"]) == (2, 1)
    assert leader_at(state, "G4") is None  # it left its old square at once
    assert ENGINE.waiting_for(state) == {1}  # seat 0 holds no red: 0 automatically
    play(state, "support 1")  # 2 against 2: the defender holds
    assert leader_at(state, "K6") is None and leader_at(state, "G4") is None  # back to supply
    assert leader_at(state, "K4") == Leader(1, "black")
    assert state.players[1].points["red"] == 1


def test_leader_move_may_not_join_two_kingdoms():
    """notes: a leader "may not join two kingdoms"; moving = withdraw then place, one action."""
    state = position(
        {"G5": "red", "G4": "king:1", "I5": "red", "I4": "priest:1", "L4": "red", "L5": "farmer:0"}
    )
    refused(state, "leader farmer H5", "tigris.error.leader_joins_kingdoms")
    refused(state, "leader trader H5", "tigris.error.leader_joins_kingdoms")
    assert "leader farmer H5" not in legal(state)
    assert "leader trader H5" not in legal(state)


def test_leader_next_to_a_temple_of_one_kingdom_and_a_tile_of_another_is_refused():
    """notes: "A leader goes ... next to a face-up temple, and may not join two kingdoms"."""
    # H5 touches the temple G5 (seat 1's king's kingdom) and the black I5 of
    # the priest's kingdom.
    state = position({"G5": "red", "G4": "king:1", "I5": "black", "I6": "red", "J6": "priest:1"})
    refused(state, "leader farmer H5", "tigris.error.leader_joins_kingdoms")


def test_leader_joining_a_kingdom_and_leaderless_temples_counts_them_in_the_revolt():
    """
    notes: revolt strength = face-up temples adjacent to each leader;
    001: 可以连接王国与无领袖的区域.
    """
    # J5 touches I5 (the defender's kingdom) and the leaderless temples K5, J6.
    state = position(
        {"H5": "red", "H4": "king:1", "I5": "black", "K5": "red", "K6": "red", "J6": "red"},
        hands=[["red"], ["red"]],
    )
    assert "leader king J5" in legal(state)
    play(state, "leader king J5")
    conflict = ENGINE.public_view(state)["conflict"]
    assert conflict["kind"] == "revolt"
    assert (conflict["attacker_base"], conflict["defender_base"]) == (2, 1)


def test_leader_without_a_temple_after_a_monument_returns_at_once():
    """
    notes: "A leader with no adjacent temple left (after a catastrophe, war or monument) returns".
    """
    state = position(
        {**SPARE, "G5": "red", "H5": "red", "G6": "red", "G4": "king:1", "F6": "trader:1"},
        hands=[["red"], []],
    )
    play(state, "tile red H6")
    events = play(state, "monument red-black G5")
    assert leader_at(state, "G4") is None and leader_at(state, "F6") is None
    returned = [e for e in events if e.key == "tigris.event.leader_returned"]
    assert sorted(e.params["square"] for e in returned) == ["F6", "G4"]


def test_leader_without_a_temple_after_a_catastrophe_returns_at_once():
    """
    notes: "A leader with no adjacent temple left (after a catastrophe ...) returns to its owner".
    """
    state = position({"G5": "red", "G4": "king:1", "H4": "priest:1", "H3": "red"})
    play(state, "catastrophe G5")
    assert leader_at(state, "G4") is None
    assert leader_at(state, "H4") == Leader(1, "red")


# --- tiles -------------------------------------------------------------------------------


def test_blue_only_on_the_river_other_colours_never():
    """notes: "Blue tiles only on river squares; other colours never on river"."""
    state = position(hands=[["blue", "red", "green", "black"], []])
    refused(state, "tile blue H5", "tigris.error.farm_off_river")
    for colour in ("red", "green", "black"):
        refused(state, f"tile {colour} H9", "tigris.error.tile_on_river")
    play(state, "tile blue H9")
    assert tile_at(state, "H9") == "blue"


def test_tile_may_not_touch_three_kingdoms():
    """notes: "A tile may not touch three or more kingdoms"."""
    state = position(
        {
            "G5": "red",
            "G4": "king:0",
            "I5": "red",
            "I4": "king:1",
            "H6": "red",
            "I6": "farmer:0",  # I6 touches I5: the same kingdom as I4
            "H3": "red",
            "H2": "trader:1",
        },
        hands=[["black"], []],
    )
    # H5 touches G5, I5/H6 (one kingdom with I4) ... and nothing else: 2 kingdoms.
    assert "tile black H5" in legal(state)
    # H4 touches G4's kingdom (via G4), I4's and H3's: three kingdoms.
    refused(state, "tile black H4", "tigris.error.three_kingdoms")


def test_tile_scores_for_the_same_colour_leader_else_the_king_else_nobody():
    """
    notes: "Tile points: ... same-colour leader ...; if there is none, ... the king ...; otherwise
    nobody".
    """
    state = position(
        {"G5": "red", "G4": "trader:1", "G6": "king:0", "K5": "red", "K4": "farmer:1"},
        hands=[["red", "green", "black"], []],
        actions_left=3,
    )
    play(state, "tile green H5")  # the trader's owner
    assert state.players[1].points["green"] == 1 and state.players[0].points["green"] == 0
    play(state, "tile red F5")  # no priest: the king's owner scores 1 red
    assert state.players[0].points["red"] == 1 and state.players[1].points["red"] == 0
    play(state, "tile black L5")  # a farmer, no king: nobody
    assert state.players[0].points["black"] == 0 and state.players[1].points["black"] == 0


def test_a_tile_joining_two_kingdoms_scores_nothing_even_without_war():
    """notes: "A tile that joins two kingdoms scores nothing"."""
    state = position(
        {"G5": "red", "G4": "king:0", "I5": "red", "I4": "trader:0"}, hands=[["green"], []]
    )
    events = play(state, "tile green H5")
    assert "tigris.event.tile_joins" in keys(events)
    assert no_points(state.players[0])
    assert state.board.unification is None and state.phase == "action"


# --- revolts -----------------------------------------------------------------------------


def test_revolt_strength_counts_only_adjacent_face_up_temples():
    """notes: revolt "strength = face-up temples orthogonally adjacent to each leader"."""
    state = position(
        {
            "H4": "king:1",  # defender: H5 only (G4 black, I4 flipped, H3 empty)
            "H5": "red",
            "G4": "black",
            "I4": "red~",
            "G5": "red",  # diagonal to both leaders
            "G6": "red~",  # next to the attacker, but flipped
            "H7": "red",  # next to the attacker
            "I6": "black",
            "I5": "black",
            "J5": "red",  # in the kingdom, next to neither
        },
        hands=[["red"], ["red"]],
    )
    play(state, "leader king H6")
    conflict = ENGINE.public_view(state)["conflict"]
    assert (conflict["attacker_base"], conflict["defender_base"]) == (2, 1)


def test_revolt_winner_scores_one_red_point_and_committed_tiles_are_discarded():
    """
    notes: revolt: winner scores 1 red "whatever the leaders' colour"; committed discarded; no board
    tile removed.
    """
    state = position(
        {"G5": "red", "H5": "red", "I5": "red", "G4": "trader:1"},
        hands=[["red", "red", "green"], ["red"]],
    )
    tiles = dict(state.board.tiles)
    play(state, "leader trader I4", "support 2", "support 1")  # 1+2 against 1+1
    assert leader_at(state, "G4") is None and leader_at(state, "I4") == Leader(0, "green")
    assert state.players[0].points == {"red": 1, "blue": 0, "green": 0, "black": 0}
    assert state.discarded == 3
    assert state.board.tiles == tiles


def test_revolt_tie_goes_to_the_defender():
    """notes: revolt "Tie: defender wins"."""
    state = position({"G5": "red", "H5": "red", "I5": "red", "G4": "trader:1"})
    play(state, "leader trader I4")
    assert leader_at(state, "G4") == Leader(1, "green") and leader_at(state, "I4") is None
    assert state.players[1].points["red"] == 1


# --- wars --------------------------------------------------------------------------------

# Left (seat 0): temple E5, king E6, black F5 G5. Right (seat 1): black I5,
# temple J5, king J6, green K5. H5 joins them.
KINGS = {
    "E5": "red",
    "E6": "king:0",
    "F5": "black",
    "G5": "black",
    "I5": "black",
    "J5": "red",
    "J6": "king:1",
    "K5": "green",
}


@pytest.mark.parametrize(
    ("active", "left", "right", "attacker"),
    [(0, 2, 1, 1), (0, 1, 2, 1), (2, 0, 1, 0), (1, 2, 0, 2), (1, 0, 1, 1)],
)
def test_war_attacker_is_the_active_player_or_the_next_involved_clockwise(
    active, left, right, attacker
):
    """
    notes: "Attacker: the active player if involved, otherwise the involved player next clockwise".
    """
    hands = [[], [], []]
    hands[active] = ["green"]
    state = position(KINGS, seats=3, active=active, hands=hands)
    state.board.leaders[sq("E6")] = Leader(left, "black")
    state.board.leaders[sq("J6")] = Leader(right, "black")
    war = event(play(state, "tile green H5"), "tigris.event.war")
    assert war.params["attacker_seat"] == attacker
    assert war.params["defender_seat"] == ({left, right} - {attacker}).pop()


def test_war_attacker_is_decided_for_each_war():
    """004: 如果当前游戏者选择的冲突有他自己的领袖参与,他便成为攻击方 — per chosen war."""
    state = position(
        {
            **SPARE,
            "E5": "red",
            "E6": "king:1",
            "E4": "priest:0",
            "F5": "black",
            "G5": "black",
            "I5": "red",
            "I4": "priest:2",
            "I6": "king:2",
            "J5": "black",
        },
        seats=3,
        hands=[["green"], ["black"], ["black", "red"]],
    )
    play(state, "tile green H5", "war black")
    conflict = ENGINE.public_view(state)["conflict"]
    assert (conflict["attacker_seat"], conflict["defender_seat"]) == (1, 2)
    play(state, "support 0", "support 0")  # 2 against 1: seat 1 wins the black war
    assert leader_at(state, "I6") is None and tile_at(state, "J5") is None
    conflict = ENGINE.public_view(state)["conflict"]
    assert conflict["colour"] == "red"
    assert (conflict["attacker_seat"], conflict["defender_seat"]) == (0, 2)


def test_war_support_counts_only_the_leaders_own_former_kingdom():
    """
    004: 各自计算领袖所在的"原始王国"中追随者的总数;
    notes: "the joining tile ... counts for nobody".
    """
    # The black joining tile H5 also touches the leaderless black H4-H3: they
    # join the kingdom but belonged to neither side.
    state = position({**KINGS, "H4": "black", "H3": "black"}, hands=[["black"], []])
    war = event(play(state, "tile black H5"), "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (2, 1)
    assert state.players[0].points["black"] == 2  # the king and I5


def test_war_removes_only_the_losers_tiles_of_that_colour_on_his_side():
    """
    notes: "The loser's leader and all of the loser's supporters of that colour on his side are
    removed".
    """
    state = position({**KINGS, "H4": "black", "H3": "black"}, hands=[["green"], []])
    play(state, "tile green H5")
    assert leader_at(state, "J6") is None
    assert tile_at(state, "I5") is None  # the loser's supporter
    assert tile_at(state, "J5") == "red" and tile_at(state, "K5") == "green"  # other colours
    assert tile_at(state, "F5") == "black" and tile_at(state, "G5") == "black"  # winner's side
    assert tile_at(state, "H4") == "black" and tile_at(state, "H3") == "black"  # neither side
    assert tile_at(state, "H5") == "green"  # the joining tile stays
    assert state.players[0].points["black"] == 2
    assert state.discarded == 1


def test_war_committed_tiles_do_not_score():
    """notes: the winner scores "for the leader and each removed tile (not for committed tiles)"."""
    state = position(KINGS, hands=[["green"], ["black", "black"]])
    play(state, "tile green H5", "support 2")  # 2 against 1+2: seat 1 wins
    assert leader_at(state, "E6") is None and tile_at(state, "F5") is None
    assert state.players[1].points["black"] == 3  # king + F5 + G5, not the 2 committed
    assert state.discarded == 2 + 2


def test_unification_tile_scores_nothing_after_the_wars():
    """
    notes: "the joining tile gets the unification marker and counts for nobody ... the tile stays".
    """
    # Seat 1's trader sits in the joined kingdom: the green joining tile
    # would score for it as an ordinary tile.
    state = position({**KINGS, "K4": "trader:1", "K3": "red"}, hands=[["green"], []])
    play(state, "tile green H5")
    assert state.players[1].points["green"] == 0
    assert state.players[0].points == {"red": 0, "blue": 0, "green": 0, "black": 2}
    assert state.board.unification is None and tile_at(state, "H5") == "green"


# Priests. Left (seat 0): priest E6; temples D5 (touches seat 0's own king on
# D6), E5 (treasure), F5 (touches seat 1's trader on F4), G5 (diagonal to the
# trader), E7 (touches only the priest). Right (seat 1): priest K4; temples
# I5 J5 K5 L5 I6 J6. H5 joins: 5 against 6.
PRIESTS = {
    **SPARE,
    "D5": "red",
    "D6": "king:0",
    "E5": "red*",
    "E6": "priest:0",
    "F5": "red",
    "F4": "trader:1",
    "G5": "red",
    "E7": "red",
    "I5": "red",
    "J5": "red",
    "K5": "red",
    "L5": "red",
    "I6": "red",
    "J6": "red",
    "K4": "priest:1",
}


def test_priest_war_keeps_treasure_temples_and_temples_touching_any_other_leader():
    """
    notes: "Priest war exception: temples that carry a treasure or that touch another leader stay".
    """
    state = position(PRIESTS, hands=[["black"], []])
    war = event(play(state, "tile black H5"), "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (5, 6)
    assert leader_at(state, "E6") is None
    assert tile_at(state, "E5") == "red" and sq("E5") in state.board.treasures
    assert tile_at(state, "F5") == "red"  # touches another player's trader
    assert tile_at(state, "D5") == "red"  # touches the loser's own king
    assert tile_at(state, "G5") is None  # only diagonal to a leader
    assert tile_at(state, "E7") is None  # touched only the beaten priest
    assert state.players[1].points["red"] == 3  # the priest, G5 and E7
    assert leader_at(state, "D6") == Leader(0, "black")  # no leader orphaned


# Two wars. Left (seat 0): black D5 F5 G5, temples E5 G4, priest E6 (touches
# E5), king G3 (touches G4). Right (seat 1): black I5 I6, temples J5 K5 L5,
# priest J6, king K4. The green H5 joins them.
TWO_WARS = {
    **SPARE,
    "D5": "black",
    "E5": "red",
    "F5": "black",
    "G5": "black",
    "G4": "red",
    "E6": "priest:0",
    "G3": "king:0",
    "I5": "black",
    "I6": "black",
    "J5": "red",
    "K5": "red",
    "L5": "red",
    "J6": "priest:1",
    "K4": "king:1",
}


def test_the_active_player_orders_the_wars_and_kingdoms_are_recomputed_after_each():
    """
    notes: "If several colours clash, the active player chooses the order ... After each war
    recompute the kingdoms".
    """
    state = position(TWO_WARS, hands=[["green"], []])
    play(state, "tile green H5")
    assert state.phase == "war_order" and sorted(legal(state)) == ["war black", "war red"]
    events = play(state, "war red")
    # Red: 2 against 3, seat 0 loses the priest and E5 (G4 touches the king).
    assert leader_at(state, "E6") is None and tile_at(state, "E5") is None
    assert tile_at(state, "G4") == "red"
    assert state.players[1].points["red"] == 2
    # D5 is cut off: the black war is fought on the board as it now stands,
    # 2 (F5 G5) against 2 (I5 I6), and the defender holds.
    wars = [e for e in events if e.key == "tigris.event.war"]
    assert (wars[-1].params["attacker_base"], wars[-1].params["defender_base"]) == (2, 2)
    assert leader_at(state, "G3") is None and leader_at(state, "K4") == Leader(1, "black")
    assert tile_at(state, "F5") is None and tile_at(state, "G5") is None
    assert tile_at(state, "D5") == "black"  # no longer on the loser's side
    assert state.players[1].points["black"] == 3
    assert state.board.unification is None
    assert state.phase == "action" and state.actions_left == 1


def test_a_war_that_splits_the_kingdom_ends_the_other_clash():
    """
    notes: "a clash whose leaders are no longer in one kingdom is over";
    004: 它们自然无需再进行冲突.
    """
    state = position(TWO_WARS, hands=[["green"], ["black"]])
    play(state, "tile green H5")
    events = play(state, "war black", "support 1")  # 3 against 2+1: the defender holds
    # F5 G5 are gone: G3-G4 and D5-E5-E6 no longer reach H5.
    assert leader_at(state, "G3") is None
    assert tile_at(state, "D5") is None and tile_at(state, "F5") is None
    assert "tigris.event.war_over" in keys(events)
    assert keys(events).count("tigris.event.war") == 1
    assert leader_at(state, "E6") == Leader(0, "red") and leader_at(state, "J6") == Leader(1, "red")
    assert state.board.unification is None and state.phase == "action"


def test_a_pending_war_whose_leader_is_gone_is_off():
    """notes: "After each war recompute the kingdoms: a clash whose leaders are no longer in one
    kingdom is over".

    Under these rules no war removes another colour's leader (the priest war
    spares temples touching any leader, so nobody is orphaned); the state is
    forced here to check the engine does not start a war with one leader.
    """
    state = position(TWO_WARS, hands=[["green"], []])
    play(state, "tile green H5")
    state.board.leaders.pop(sq("K4"))
    events = play(state, "war red")
    assert keys(events).count("tigris.event.war") == 1
    assert "tigris.event.war_over" in keys(events)
    assert leader_at(state, "G3") == Leader(0, "black")
    assert state.board.unification is None and state.phase == "action"


# Split side. Left (seat 0): black G4 F5 (G4 links G5 to H4), temples G5 G6
# H4 H3, king F6, priest G7; it touches H5 twice (G5 and H4). Right (seat 1):
# black I5 I6, temples J5 K5 L5, priest J6, king K4. The green H5 joins them.
SPLIT_SIDE = {
    **SPARE,
    "G4": "black",
    "F5": "black",
    "G5": "red",
    "G6": "red",
    "H4": "red",
    "H3": "red",
    "F6": "king:0",
    "G7": "priest:0",
    "I5": "black",
    "I6": "black",
    "J5": "red",
    "K5": "red",
    "L5": "red",
    "J6": "priest:1",
    "K4": "king:1",
}


def test_a_side_split_by_an_earlier_war_still_supports_its_leader():
    """
    notes: "Strength = tiles of that colour in the leader's own former kingdom";
    004: 各自计算领袖所在的"原始王国"中追随者的总数 (H4 H3 were in the priest's kingdom).
    """
    state = position(SPLIT_SIDE, hands=[["green"], []])
    play(state, "tile green H5")
    events = play(state, "war black")  # 2 against 2: the defender holds, G4 and F5 go
    assert tile_at(state, "G4") is None and leader_at(state, "F6") is None
    # H4-H3 now reach the priest on G7 only through H5, but they belonged to
    # its former kingdom and are still in the joined one: 4 temples against 3.
    war = [e for e in events if e.key == "tigris.event.war"][-1]
    assert war.params["colour"].key == "tigris.colour.red"
    assert (war.params["attacker_base"], war.params["defender_base"]) == (4, 3)
    assert leader_at(state, "J6") is None and leader_at(state, "G7") == Leader(0, "red")
    assert tile_at(state, "J5") is None and tile_at(state, "L5") is None
    assert tile_at(state, "K5") == "red"  # touches the king on K4
    assert state.players[0].points["red"] == 3


def test_a_split_side_loses_all_its_supporters():
    """notes: "all of the loser's supporters of that colour on his side are removed"."""
    state = position({**SPLIT_SIDE, "M5": "red", "M4": "red"}, hands=[["green"], []])
    play(state, "tile green H5", "war black")
    # 4 temples against 5: the priest loses, and H4 H3 (his side) go too.
    assert leader_at(state, "G7") is None
    assert all(tile_at(state, s) is None for s in ("G5", "G6", "H4", "H3"))
    assert state.players[1].points["red"] == 5


def test_war_sides_survive_saving_and_loading_mid_war():
    """notes: "An action is complete only when every event it triggers ... is resolved"."""
    state = position(SPLIT_SIDE, hands=[["green"], []])
    play(state, "tile green H5")
    assert state.phase == "war_order"
    saved = ENGINE.dump_state(state)
    assert ENGINE.dump_state(ENGINE.load_state(saved)) == saved
    state = ENGINE.load_state(saved)
    events = play(state, "war black")
    war = [e for e in events if e.key == "tigris.event.war"][-1]
    assert (war.params["attacker_base"], war.params["defender_base"]) == (4, 3)
    assert not state.sides and state.board.unification is None
    # A state saved before the sides were recorded still plays.
    old = {key: value for key, value in saved.items() if key != "sides"}
    state = ENGINE.load_state(old)
    play(state, "war red")
    assert state.phase == "action"


# --- monuments ---------------------------------------------------------------------------


def test_monument_only_with_a_colour_of_the_square_and_only_if_left():
    """notes: "build a monument whose colours include that colour (if one is left)"."""
    state = position(
        {"G5": "red", "H5": "red", "G6": "red"},
        hands=[["red"], []],
        monuments={"K1": ("red", "blue")},
    )
    play(state, "tile red H6")
    assert sorted(legal(state)) == ["decline", "monument red-black G5", "monument red-green G5"]


def test_monument_choice_between_several_2x2_squares():
    """notes: "with several 2×2 squares they choose which"."""
    state = position(
        {"G5": "green", "H5": "green", "G6": "green", "I6": "green", "H7": "green", "I7": "green"},
        hands=[["green"], []],
    )
    play(state, "tile green H6")
    squares = {move.split()[-1] for move in legal(state) if move.startswith("monument")}
    assert squares == {"G5", "H6"}
    play(state, "monument green-black H6")
    assert state.board.flipped == {sq(s) for s in ("H6", "I6", "H7", "I7")}
    assert sq("G5") not in state.board.flipped


def test_monument_on_a_square_including_the_unification_tile():
    """notes: monument "if after the tile placement and its conflicts the tile is part of a 2×2"."""
    # The black H5 joins the kings' kingdoms and completes H5 I5 H6 I6 on the
    # winner's side (the right: 3 black against 2).
    state = position(
        {
            "E5": "red",
            "E6": "king:0",
            "F5": "black",
            "G5": "black",
            "I5": "black",
            "H6": "black",
            "I6": "black",
            "J5": "red",
            "J6": "king:1",
        },
        hands=[["black"], []],
    )
    play(state, "tile black H5")
    assert leader_at(state, "E6") is None
    assert state.phase == "monument" and state.board.unification is None
    play(state, "monument blue-black H5")
    assert sq("H5") in state.board.flipped and tile_at(state, "H5") == "black"


def test_no_monument_when_the_war_broke_the_square():
    """001: 如果纷争解决后大方格依然存在,当前玩家可以建造一座纪念碑."""
    # H5 completes H5 I5 H6 I6, but those are on the loser's side (4 against 3).
    state = position(
        {
            "C5": "black",
            "D5": "black",
            "E5": "red",
            "E6": "king:0",
            "F5": "black",
            "G5": "black",
            "I5": "black",
            "H6": "black",
            "I6": "black",
            "J5": "red",
            "J6": "king:1",
        },
        hands=[["black"], []],
    )
    play(state, "tile black H5")
    assert leader_at(state, "J6") is None and tile_at(state, "I5") is None
    assert state.phase == "action" and state.actions_left == 1
    assert not state.board.monuments


def test_monument_points_only_for_the_active_player_at_the_end_of_the_turn():
    """
    notes: "Monument points (end of the active player's turn) ... each of the active player's
    leaders".
    """
    state = position(
        {
            **SPARE,
            "G5": "blue~",
            "H5": "blue~",
            "G6": "blue~",
            "H6": "blue~",
            "F4": "red",
            "F5": "king:0",
            "F6": "trader:0",
            "I6": "red",
            "I5": "farmer:1",
        },
        monuments={"G5": ("blue", "black")},
    )
    events = play(state, "pass")
    assert state.players[0].points == {"red": 0, "blue": 0, "green": 0, "black": 1}
    assert no_points(state.players[1])  # not on seat 0's turn
    got = [e for e in events if e.key == "tigris.event.monument_points"]
    assert len(got) == 1 and got[0].private_to == 0
    play(state, "pass")
    assert state.players[1].points == {"red": 0, "blue": 1, "green": 0, "black": 0}
    assert state.players[0].points["black"] == 1


def test_flipped_tiles_connect_but_count_for_nothing():
    """notes: "The four tiles flip face down: they still connect, but count for nothing"."""
    # The king on F6 reaches I5 only through the flipped blacks; the green J5
    # joins its kingdom to the right king's. 1 against 1: the defender holds.
    state = position(
        {
            **SPARE,
            "F5": "red",
            "F6": "king:0",
            "G5": "black~",
            "H5": "black~",
            "G6": "black~",
            "H6": "black~",
            "I5": "black",
            "K5": "black",
            "L5": "red",
            "L4": "king:1",
        },
        monuments={"G5": ("blue", "black")},
        hands=[["green"], []],
    )
    war = event(play(state, "tile green J5"), "tigris.event.war")
    assert (war.params["attacker_base"], war.params["defender_base"]) == (1, 1)
    assert leader_at(state, "F6") is None and tile_at(state, "I5") is None
    assert all(tile_at(state, s) == "black" for s in ("G5", "H5", "G6", "H6"))
    assert state.players[1].points["black"] == 2  # the king and I5 only


# --- treasures ---------------------------------------------------------------------------


def test_corner_treasures_are_taken_first_then_the_owner_chooses():
    """
    notes: treasures: "gives all but one to the trader's owner, corner treasures first; the owner
    chooses".
    """
    state = position({**SPARE, "B2": "red*", "C2": "black", "D2": "red*", "D1": "red*"})
    play(state, "leader trader B1")
    assert state.phase == "treasure" and ENGINE.waiting_for(state) == {0}
    assert sorted(legal(state)) == ["treasure B2 D2", "treasure D1 B2"]
    play(state, "treasure D1 B2")
    assert state.board.treasures == {sq(s) for s in ("D2", "A11", "C11", "E11")}
    assert state.players[0].treasures == 2


def test_treasures_only_in_a_kingdom_with_a_trader():
    """notes: "a kingdom with two or more treasures and a trader gives all but one"."""
    state = position({**SPARE, "G5": "red*", "H5": "red*"})
    play(state, "leader king G4")
    assert state.board.treasures >= {sq("G5"), sq("H5")}
    assert state.phase == "action" and state.actions_left == 1
    play(state, "leader trader H4")
    assert state.phase == "treasure"
    assert sorted(legal(state)) == ["treasure G5", "treasure H5"]


def test_treasures_are_taken_at_the_end_of_the_first_action():
    """notes: "Treasures: at the end of **every action**"."""
    state = position({**SPARE, "G5": "red*", "H5": "red*"}, hands=[["black"], []])
    play(state, "leader trader G4")
    assert state.phase == "treasure" and state.actions_left == 2  # the action is not over
    play(state, "treasure G5")
    assert state.players[0].treasures == 1 and state.actions_left == 1


def test_treasure_on_a_flipped_monument_temple_stays_and_may_be_taken():
    """notes: "A treasure on such a temple stays"; 004: 翻转之后财宝仍然放在原位."""
    state = position(
        {
            **SPARE,
            "G5": "red~*",
            "H5": "red~",
            "G6": "red~",
            "H6": "red~",
            "I5": "red",
            "J5": "red*",
        },
        monuments={"G5": ("red", "blue")},
    )
    assert sq("G5") in state.board.treasures
    refused(state, "catastrophe G5", "tigris.error.catastrophe_on_monument")
    play(state, "leader trader I4")
    assert state.phase == "treasure"
    assert sorted(legal(state)) == ["treasure G5", "treasure J5"]


def test_a_revolt_is_settled_before_the_treasures_go_to_the_winners_trader():
    """notes: "An action is complete only when every event it triggers (conflicts, ...)"."""
    # The trader on H5 joins the leaderless I5 to seat 1's kingdom: two
    # treasures and two traders. 2 temples against 1: seat 0 wins, then takes.
    state = position({**SPARE, "G5": "red*", "G4": "trader:1", "I5": "red*"})
    play(state, "leader trader H5")
    assert leader_at(state, "G4") is None
    assert state.phase == "treasure" and ENGINE.waiting_for(state) == {0}
    play(state, "treasure I5")
    assert state.players[0].treasures == 1 and state.players[1].treasures == 0


def test_a_war_is_settled_before_the_treasures_go_to_the_winners_trader():
    """notes: conflicts, then treasures "at the end of every action" to the kingdom's trader."""
    state = position(
        {
            **SPARE,
            "E5": "red*",
            "E6": "trader:0",
            "F5": "green",
            "G5": "green",
            "I5": "red*",
            "I6": "trader:1",
            "J5": "green",
        },
        hands=[["black"], []],
    )
    play(state, "tile black H5")  # 2 markets against 1: seat 0 wins
    assert leader_at(state, "I6") is None and tile_at(state, "J5") is None
    assert state.phase == "treasure" and ENGINE.waiting_for(state) == {0}


# --- catastrophes ------------------------------------------------------------------------


def test_catastrophe_restrictions():
    """
    notes: "Catastrophe: on an empty square or a tile, never on a leader, a monument or a tile
    carrying a treasure".
    """
    state = position(
        {
            "G5": "red*",
            "G4": "king:1",
            "J5": "red~",
            "K5": "red~",
            "J6": "red~",
            "K6": "red~",
            "L5": "x",
            "M5": "black",
        },
        monuments={"J5": ("red", "blue")},
    )
    refused(state, "catastrophe G4", "tigris.error.catastrophe_on_leader")
    refused(state, "catastrophe G5", "tigris.error.catastrophe_on_treasure")
    refused(state, "catastrophe J6", "tigris.error.catastrophe_on_monument")
    refused(state, "catastrophe L5", "tigris.error.occupied")
    play(state, "catastrophe M5", "catastrophe H9")  # a tile; an empty river square
    assert tile_at(state, "M5") is None and state.discarded == 1
    assert {sq("M5"), sq("H9")} <= state.board.catastrophes


def test_catastrophe_splits_the_kingdom_before_the_treasure_check():
    """notes: "It is permanent and may split kingdoms" + treasures "at the end of every action"."""
    # An artificial position (three treasures and a trader not yet claimed):
    # once H5 is destroyed the trader's kingdom holds one treasure only.
    state = position({**SPARE, "G5": "red*", "G4": "trader:0", "H5": "black", "I5": "red*"})
    state.board.tiles[sq("J5")] = "red"
    state.board.treasures.add(sq("J5"))
    play(state, "catastrophe H5")
    assert state.phase == "action" and state.players[0].treasures == 0
    assert {sq("G5"), sq("I5"), sq("J5")} <= state.board.treasures


# --- end of the game ---------------------------------------------------------------------


def test_game_ends_only_at_the_end_of_a_turn_with_at_most_two_treasures():
    """notes: "Game end: at the end of a turn in which at most 2 treasures remain on the board"."""
    state = position({"A11": "red*", "G5": "red*", "H5": "red*"}, hands=[["black"], []])
    play(state, "leader trader G4", "treasure G5")
    assert len(state.board.treasures) == 2
    assert state.phase == "action" and ENGINE.result(state) is None
    events = play(state, "tile black K8")
    assert state.phase == "over"
    assert "tigris.event.game_over.treasures" in keys(events)


def test_swap_the_bag_cannot_serve_ends_the_game_at_the_end_of_the_turn():
    """notes: "Game end: ... or in which the bag could not fill a hand (on a swap or a refill)"."""
    state = position(SPARE, hands=[["red", "red", "red"], ["black"] * 6], bag=["green", "blue"])
    play(state, "swap red red red")
    assert sorted(state.players[0].hand) == ["blue", "green"]
    assert state.phase == "action" and state.actions_left == 1
    play(state, "pass")
    assert state.phase == "over" and ENGINE.result(state) is not None


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


def test_final_score_treasures_are_wild_and_ties_compare_the_next_weakest():
    """
    notes: "Final score: each treasure is a wild point ... ties compare the second weakest, then
    ...".
    """
    result = finished(
        [(3, 9, 9, 9), (5, 5, 6, 20), (5, 5, 6, 19), (6, 5, 5, 19)],
        [3, 0, 0, 0],
    )
    assert result.details[0][1]["vector"] == [6, 9, 9, 9]  # 3 + 3 treasures
    assert result.ranking == (0, 1, 2, 3)
    assert result.places == {0: 1, 1: 2, 2: 3, 3: 3}
    assert result.scores == {0: 6, 1: 5, 2: 5, 3: 5}


# --- hidden information ------------------------------------------------------------------


def test_hidden_scoring_never_shows_points_publicly():
    """notes: "Hands and victory points are private": scoring events go to the scorer only."""
    state = position(KINGS, hands=[["green", "black"], []])
    events = play(state, "tile black E7")  # seat 0's king scores a black point
    view = ENGINE.public_view(state)
    assert all(p["points"] is None and p["treasures"] is None for p in view["players"])
    events += play(state, "tile green H5")  # a war: seat 0 wins 2 black points
    assert state.players[0].points["black"] == 3
    public = [e for e in events if e.private_to is None]
    assert not {"tigris.event.scored", "tigris.event.monument_points"} & set(keys(public))
    private = [e for e in events if e.key == "tigris.event.scored"]
    assert len(private) == 2 and all(e.private_to == 0 for e in private)
    # this position has no treasure left, so the game is now over: the end board
    # lifts the screens and shows everyone's points
    assert state.phase == "over"
    view = ENGINE.public_view(state)
    assert all(p["points"] is not None for p in view["players"])


def test_support_prompt_does_not_reveal_how_many_tiles_a_player_holds():
    """notes: "Hands ... are private": the public waiting line must not tell the hand's content."""
    prompts = []
    for reds in (1, 3):
        state = position(
            {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"},
            hands=[["red"], ["red"] * reds],
        )
        play(state, "leader farmer I4", "support 1")
        prompts.append(ENGINE.prompt(state))
    assert prompts[0][0] == "tigris.prompt.revolt_support"
    assert prompts[0] == prompts[1]


def test_support_is_asked_even_without_a_tile_of_the_colour():
    """notes: "Hands ... are private"; the game "waits for ... support in a revolt or war"."""
    state = position(
        {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"},
        hands=[["blue"], ["green"]],
    )
    events = play(state, "leader farmer I4")
    assert "tigris.event.support" not in keys(events)  # nobody answered for seat 0
    assert state.phase == "revolt_support" and ENGINE.waiting_for(state) == {0}
    assert legal(state) == ["support 0"]
    play(state, "support 0")
    assert ENGINE.waiting_for(state) == {1}
    play(state, "support 0")
    assert leader_at(state, "G4") == Leader(1, "blue")
    # Only an empty hand (its size is public) answers by itself.
    state = position({"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"}, hands=[[], ["red"]])
    play(state, "leader farmer I4")
    assert ENGINE.waiting_for(state) == {1}
