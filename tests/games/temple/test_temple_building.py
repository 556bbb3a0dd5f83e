"""Laying bricks: move, swap, Hammer & Chisel, Mortar, Bag, re-laying an area."""

from __future__ import annotations

from temple_helpers import act, bricks, build, game, keys, named, refused, supply

from bot.games.temple import ENGINE
from bot.games.temple.actions import Place, Swap
from bot.games.temple.state import PHASE_BONUS
from bot.i18n import t


def test_move_takes_the_rolled_length_from_another_build_that_stays_connected() -> None:
    state = game(2, slots=("mastaba", "dais"), dice=["3", "star"])
    build(state, 0, 0, "3:A1", "3:B2", "3:D1")  # every 3 is in area 1
    refused(state, 0, "place 2 A1", "temple.error.no_supply_move", length=3)
    refused(state, 0, "move 1 B2 2 A1", "temple.error.move_breaks", area=1)
    refused(state, 0, "move 1 D1 1 A2", "temple.error.move_same_area")
    refused(state, 0, "move 1 E2 2 A1", "temple.error.no_brick_there", area=1, cell="E2")
    act(state, 0, "move 1 E1 2 B2")  # names the 3 on D1 by a cell it covers
    act(state, 1, "pass")
    assert bricks(state, 0, 0) == ["3:A1", "3:B2"]
    assert bricks(state, 0, 1) == ["3:B2"]
    assert supply(state, 0)[3] == 0


def test_move_is_only_for_a_length_the_supply_lacks() -> None:
    state = game(2, slots=("mastaba", "dais"), dice=["2", "2"])
    build(state, 0, 0, "4:A1", "2:B2")
    refused(state, 0, "move 1 B2 2 A1", "temple.error.supply_has", length=2)
    state.dice[0] = "4"
    build(state, 0, 1, "4:A1", "4:B2")
    refused(state, 0, "move 1 B2 2 A1", "temple.error.wrong_length", length=2, die="4")


def test_swap_returns_a_brick_and_lays_another_length_in_its_place() -> None:
    state = game(2, slots=("hut", "gate"), dice=["1", "1"])
    build(state, 0, 0, "4:A1")
    refused(state, 0, "swap 1 A1 4", "temple.error.swap_same", length=4)
    refused(state, 0, "swap 1 B2 3", "temple.error.no_brick_there", area=1, cell="B2")
    act(state, 0, "swap 1 C1 3")  # any cell of the brick names it; the 3 takes its left end
    act(state, 1, "pass")
    assert bricks(state, 0, 0) == ["3:A1"]
    assert supply(state, 0) == {4: 3, 3: 2, 2: 4, 1: 3}


def test_swap_may_put_the_new_brick_elsewhere_in_the_same_build() -> None:
    state = game(2, slots=("mastaba", "gate"))
    build(state, 0, 0, "4:A1", "2:A2")
    act(state, 0, "swap 1 A2 3 C2")
    act(state, 1, "pass")
    assert bricks(state, 0, 0) == ["3:C2", "4:A1"]
    state2 = game(2, slots=("mastaba", "gate"))
    build(state2, 0, 0, "4:A1", "2:A2")
    refused(state2, 0, "swap 1 A2 1 F2", "temple.error.not_connected")


def test_without_the_hammer_a_swap_replaces_the_round_brick() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["2", "2"])
    build(state, 0, 0, "4:A1")
    act(state, 0, "place 1 A2")
    act(state, 0, "swap 1 A1 3")
    assert [str(p) for p in state.submission(0).parts()] == ["swap 1 A1 3"]
    act(state, 0, "place 1 C2")
    assert [str(p) for p in state.submission(0).parts()] == ["place 1 C2 2"]


def test_hammer_and_chisel_any_length_or_a_swap_and_a_brick() -> None:
    """Either power alone: a brick of any length (here a 2 on a rolled 1), or a swap
    and a brick of the rolled length."""
    state = game(2, slots=("hut", "gate"), dice=["1", "1"])
    build(state, 0, 0, "4:A1")
    refused(state, 0, "place 1 B2 2", "temple.error.wrong_length", length=2, die="1")
    act(state, 0, "hammer")
    refused(state, 0, "hammer", "temple.error.already_played")
    act(state, 0, "place 1 B2 2")  # any length
    act(state, 1, "pass")
    assert state.players[0].won == ["hut"]
    assert "hammer" not in state.players[0].tokens
    state.phase, state.dice = "round", ["4", "4"]
    state.players[0].pending_bonus.clear()
    refused(state, 0, "hammer", "temple.error.token_used")

    state = game(2, slots=("hut", "gate"), dice=["1", "1"])
    build(state, 0, 0, "3:A1")
    act(state, 0, "hammer")
    act(state, 0, "swap 1 A1 4")
    assert 0 in ENGINE.waiting_for(state)  # a brick (or pass) may still follow the swap
    act(state, 0, "place 1 B2 1")  # of the rolled length
    refused(state, 0, "cancel hammer", "temple.error.hammer_needed")
    assert [str(p) for p in state.submission(0).parts()] == [
        "hammer",
        "swap 1 A1 4",
        "place 1 B2 1",
    ]
    act(state, 1, "pass")
    assert bricks(state, 0, 0) == ["1:B2", "4:A1"]
    assert "hammer" not in state.players[0].tokens


def test_hammer_and_chisel_is_one_power_or_the_other_never_a_swap_and_another_length() -> None:
    """temple_rush.md: with the Hammer, a swap and a brick of another length than the
    rolled one are never both sealed, whichever comes first; legal_actions and
    autocomplete offer only what may be combined."""
    state = game(2, slots=("mastaba", "gate"), dice=["1", "1"])
    build(state, 0, 0, "3:A1")
    act(state, 0, "hammer")
    offered = {str(a) for a in ENGINE.legal_actions(state, 0)}
    assert "swap 1 A1 4 A1" in offered and "place 1 A2 3" in offered  # each alone is fine
    act(state, 0, "swap 1 A1 4 A1")
    error = refused(state, 0, "place 1 A2 3", "temple.error.hammer_one_power", length=3, die="1")
    assert "hammer_one_power" not in t("en", error.key, **error.params)
    offered = {str(a) for a in ENGINE.legal_actions(state, 0)}
    assert "place 1 A2 3" not in offered and "place 1 A2 1" in offered
    assert {a.length for a in ENGINE.legal_actions(state, 0) if isinstance(a, Place)} == {1}
    lengths = ENGINE.legal_values(state, 0, "place", "length", {"area": "1", "cell": "A2"})
    assert [s.value for s in lengths] == ["1"]
    act(state, 0, "place 1 A2")  # no length written: the rolled one
    assert [str(p) for p in state.submission(0).parts()] == [
        "hammer",
        "swap 1 A1 4 A1",
        "place 1 A2 1",
    ]

    state = game(2, slots=("mastaba", "gate"), dice=["1", "1"])
    build(state, 0, 0, "3:A1")
    act(state, 0, "hammer")
    act(state, 0, "place 1 A2 3")
    refused(state, 0, "swap 1 A1 4 A1", "temple.error.hammer_one_power", length=3, die="1")
    assert not [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Swap)]
    assert ENGINE.legal_values(state, 0, "swap", "area", {}) == []


def test_a_cancelled_hammer_is_not_spent() -> None:
    state = game(2, slots=("hut", "gate"), dice=["1", "1"])
    act(state, 0, "hammer")
    act(state, 0, "cancel hammer")
    act(state, 0, "place 1 A1")
    act(state, 1, "pass")
    assert state.players[0].tokens == ["hammer", "bag", "mortar"]


def test_the_mortar_allows_one_empty_cell_and_two_pieces_until_completion() -> None:
    state = game(2, slots=("mastaba", "gate"), deck=("dais", "hut"), dice=["1", "2"])
    build(state, 0, 0, "4:A1", "2:A2", "4:C2")  # E1 and F1 empty
    act(state, 0, "mortar 1")
    act(state, 0, "place 1 E1")
    act(state, 1, "pass")
    assert state.players[0].won == ["mastaba"]  # F1 stays empty: the Mortar allows it
    assert state.players[0].mortar_area is None and "mortar" not in state.players[0].tokens


def test_without_the_mortar_the_same_build_does_not_complete() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["1", "2"])
    build(state, 0, 0, "4:A1", "2:A2", "4:C2")
    act(state, 0, "place 1 E1")
    act(state, 1, "pass")
    assert state.players[0].won == [] and bricks(state, 0, 0) == ["1:E1", "2:A2", "4:A1", "4:C2"]


def test_the_mortar_lets_a_build_grow_in_two_pieces_and_stays_on_its_area() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["2", "2"])
    build(state, 0, 0, "2:A1")
    refused(state, 0, "place 1 E1", "temple.error.not_connected")
    act(state, 0, "mortar 1")
    act(state, 0, "place 1 E1")
    act(state, 1, "pass")
    assert bricks(state, 0, 0) == ["2:A1", "2:E1"]
    assert state.players[0].mortar_area == 0
    state.dice = ["2", "2"]
    refused(state, 0, "place 1 D3", "temple.error.outside")
    act(state, 0, "place 1 B2")  # joins the first piece; two pieces still allowed
    refused(state, 0, "mortar 2", "temple.error.token_used")


def _bag_position(dice: tuple[str, str] = ("star", "star")):
    state = game(2, slots=("mastaba", "dais"), deck=("hut", "gate"), dice=list(dice))
    build(state, 0, 0, "2:A1", "4:C1", "4:A2")  # E2 and F2 missing
    build(state, 1, 1, "4:B1", "1:B2", "1:E2")  # top two bricks: 1:B2 then 1:E2
    return state


def test_the_bag_borrows_the_top_two_bricks_to_complete_a_temple() -> None:
    state = _bag_position()
    act(state, 0, "bag 2 2 1 E2 F2")
    assert 0 in ENGINE.waiting_for(state)  # the Bag comes with a move (here a pass)
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert "temple.event.bag_borrowed" in keys(events)
    assert state.players[0].won == ["mastaba"]
    assert bricks(state, 1, 1) == ["1:B2", "1:E2", "4:B1"]  # lent bricks are back
    assert state.phase == PHASE_BONUS
    assert state.players[0].pending_bonus == {0: [2, 4, 4]}  # only its own bricks
    assert "bag" not in state.players[0].tokens


def test_the_bag_must_complete_the_temple_as_things_stand() -> None:
    state = _bag_position()
    refused(state, 0, "bag 2 2 1 A3 B3", "temple.error.bag_no_complete")
    refused(state, 0, "bag 2 1 1 E2 F2", "temple.error.bag_too_few")
    refused(state, 0, "bag 1 2 1 E2 F2", "temple.error.bag_player")


def test_a_bag_that_cannot_borrow_at_the_reveal_is_spent_anyway() -> None:
    state = _bag_position()
    act(state, 0, "bag 2 2 1 E2 F2")
    act(state, 0, "pass")
    act(state, 1, "swap 2 B2 2")  # the lender's top bricks are now 2:B2 and 1:E2
    assert state.round == 2
    assert state.players[0].won == [] and "bag" not in state.players[0].tokens
    assert bricks(state, 1, 1) == ["1:E2", "2:B2", "4:B1"]
    assert bricks(state, 0, 0) == ["2:A1", "4:A2", "4:C1"]  # nothing borrowed


def test_a_complete_build_lends_nothing() -> None:
    state = game(2, slots=("mastaba", "hut"), dice=["star", "star"])
    build(state, 0, 0, "2:A1", "4:C1", "4:A2")
    build(state, 1, 1, "4:A1", "2:B2")  # matches the hut
    refused(state, 0, "bag 2 2 1 E2 F2", "temple.error.bag_complete")


def _fitted_position():
    state = game(2, slots=("hut", "mastaba"), deck=("gate", "dais"))
    build(state, 0, 0, "4:A1")
    build(state, 1, 0, "4:A1", "1:B2")  # C2 missing; will be fitted to the gate
    act(state, 0, "place 1 B2 2")
    act(state, 1, "pass")
    act(state, 0, "bonus 1 4")
    return state


def test_other_builds_are_fitted_to_the_new_card() -> None:
    state = _fitted_position()
    assert state.slots[0] == "gate"
    # the 4 on A1 lies outside the gate (B1, C1 are empty there): back to supply
    assert bricks(state, 1, 0) == ["1:B2"]
    assert supply(state, 1) == {4: 3, 3: 3, 2: 4, 1: 2}
    assert state.players[1].relay_pools == {0: [1, 4]}
    view = ENGINE.public_view(state)
    assert view["players"][1]["areas"][0]["relay"] is True


def test_a_fitted_area_may_be_re_laid_with_its_own_bricks_in_the_next_round() -> None:
    state = _fitted_position()
    refused(state, 1, "relay 1 2:A2", "temple.error.layout.missing", index=1, brick=named("2:A2"))
    refused(state, 1, "relay 2 4:A1", "temple.error.relay_not_now", area=2)
    refused(state, 1, "relay 1 4:A2 1:B1", "temple.error.layout.outside", index=2)
    refused(state, 1, "relay 1 1:A2 4:A2", "temple.error.layout.overlap", index=2, other=1)
    refused(state, 1, "relay 1 1:A1 1:D1", "temple.error.layout.missing", index=2)
    act(state, 1, "relay 1 4:A2 1:D1")
    act(state, 1, "pass")
    act(state, 0, "pass")
    assert bricks(state, 1, 0) == ["1:D1", "4:A2"]
    assert supply(state, 1) == {4: 2, 3: 3, 2: 4, 1: 2}
    assert state.players[1].relay_pools == {}
    refused(state, 1, "relay 1 4:A2", "temple.error.relay_not_now", area=1)


def test_relay_with_no_bricks_gives_the_area_up() -> None:
    state = _fitted_position()
    act(state, 1, "relay 1")
    act(state, 1, "pass")
    act(state, 0, "pass")
    assert bricks(state, 1, 0) == [] and supply(state, 1) == {4: 3, 3: 3, 2: 4, 1: 3}
    assert state.players[1].relay_pools == {}


def test_cancel_takes_parts_back() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["2", "2"])
    act(state, 0, "mortar 1")
    act(state, 0, "place 1 A1")
    act(state, 0, "cancel mortar")
    act(state, 0, "cancel brick")
    assert state.submission(0).empty() and 0 not in state.submissions
    refused(state, 0, "cancel swap", "temple.error.nothing_to_cancel")
