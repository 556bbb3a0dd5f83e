"""The seven actions: costs, per-turn limits and conditions, each refusal
leaving the state untouched (``refused`` compares the dumped state)."""

from __future__ import annotations

from tikal_positions import S, act, acting, blank, figures, lay, put, refused

from bot.games.tikal.state import TURN_NORMAL, Turn

# -- entering -------------------------------------------------------------------------


def test_enter_a_worker_on_the_base_camp_costs_1() -> None:
    game = blank()
    act(game, 0, "enter A7")
    assert figures(game, "A7", 0) == (1, False)
    assert game.players[0].workers == 17
    assert game.turn is not None and (game.turn.ap, game.turn.entered) == (9, 1)


def test_enter_the_leader() -> None:
    game = blank()
    act(game, 0, "enter A7 leader")
    assert figures(game, "A7", 0) == (0, True)
    assert game.players[0].leader is False and game.players[0].workers == 18
    assert refused(game, 0, "enter A7 leader").key == "tikal.error.leader_not_in_supply"


def test_enter_on_your_own_camp_but_never_anothers() -> None:
    game = blank(3)
    lay(game, "A5", "B-3", 0)
    lay(game, "B5", "G-4", 0)
    game.hexes[S("A5")].camp = 0
    game.hexes[S("B5")].camp = 1
    act(game, 0, "enter A5")
    assert figures(game, "A5", 0) == (1, False)
    error = refused(game, 0, "enter B5")
    assert (error.key, error.params) == ("tikal.error.others_camp", {"space": "B5"})
    assert refused(game, 0, "enter B6").key == "tikal.error.not_a_camp"


def test_at_most_10_figures_enter_per_turn() -> None:
    game = blank()
    for _ in range(10):
        act(game, 0, "enter A7")
    assert game.turn is not None and game.turn.ap == 0
    # the limit holds on its own (an 11th entry is refused even with AP to spare)
    game.turn.ap = 5
    error = refused(game, 0, "enter A7")
    assert (error.key, error.params) == ("tikal.error.enter_limit", {"limit": 10})
    # moving between camps is not entering
    lay(game, "A5", "B-3", 0).camp = 0
    act(game, 0, "move A7 A5")  # by the secret passage: 1 AP (walking costs 2)
    assert figures(game, "A5", 0) == (1, False)
    assert (game.turn.ap, game.turn.entered) == (4, 10)


def test_enter_with_an_empty_supply_or_no_ap() -> None:
    game = blank()
    game.players[0].workers = 0
    assert refused(game, 0, "enter A7").key == "tikal.error.no_workers_in_supply"
    game = acting(blank(), 0, ap=0)
    error = refused(game, 0, "enter A7")
    assert (error.key, error.params) == ("tikal.error.no_ap", {"cost": 1, "ap": 0})


# -- digging --------------------------------------------------------------------------


def test_dig_costs_2_and_takes_the_next_tile() -> None:
    game = blank()
    put(game, "A6", 0, workers=1)
    act(game, 0, "dig A6")
    assert game.hexes[S("A6")].value == 2
    assert game.tiles_left[2] == 2
    assert game.turn is not None and game.turn.ap == 8


def test_the_kth_level_needs_k_figures_and_two_levels_per_temple_per_turn() -> None:
    game = blank()
    put(game, "A6", 0, workers=1)
    act(game, 0, "dig A6")
    error = refused(game, 0, "dig A6")
    assert error.key == "tikal.error.dig_figures"
    assert error.params == {"space": "A6", "needed": 2, "have": 1}
    put(game, "A6", 0, workers=2)
    act(game, 0, "dig A6")
    assert game.hexes[S("A6")].value == 3
    error = refused(game, 0, "dig A6")
    assert (error.key, error.params["limit"]) == ("tikal.error.dig_limit", 2)
    # another temple the same turn is fine; the next turn starts afresh
    put(game, "B7", 0, workers=1)
    act(game, 0, "dig B7")
    game.turn = Turn(seat=0, kind=TURN_NORMAL)
    act(game, 0, "dig A6")
    assert game.hexes[S("A6")].value == 4


def test_the_leader_counts_one_figure_for_digging() -> None:
    game = blank()
    put(game, "A6", 0, leader=True)
    act(game, 0, "dig A6")
    assert refused(game, 0, "dig A6").params["have"] == 1


def test_levels_only_while_a_tile_of_the_next_value_is_left() -> None:
    game = blank()
    put(game, "A6", 0, workers=2)
    game.tiles_left[2] = 0
    error = refused(game, 0, "dig A6")
    assert (error.key, error.params) == (
        "tikal.error.no_temple_tile",
        {"space": "A6", "value": 2},
    )
    lay(game, "A5", "F-2", 0, value=10)
    put(game, "A5", 0, workers=1)
    assert refused(game, 0, "dig A5").key == "tikal.error.no_temple_tile"


def test_the_last_tile_of_a_value_goes_to_the_first_digger() -> None:
    game = blank()
    lay(game, "A5", "F-2", 0, value=9)
    put(game, "A5", 0, workers=2)
    act(game, 0, "dig A5")
    assert game.tiles_left[10] == 0 and game.hexes[S("A5")].value == 10


def test_dig_refusals() -> None:
    game = blank()
    put(game, "B6", 0, workers=1)
    assert refused(game, 0, "dig B6").key == "tikal.error.not_temple"
    assert refused(game, 0, "dig A6").key == "tikal.error.dig_figures"
    assert refused(game, 0, "dig C3").key == "tikal.error.empty_space"
    game.hexes[S("A6")].guard = 1
    put(game, "A6", 0, workers=1)
    assert refused(game, 0, "dig A6").key == "tikal.error.guarded"
    game = acting(blank(), 0, ap=1)
    put(game, "A6", 0, workers=1)
    assert refused(game, 0, "dig A6").params == {"cost": 2, "ap": 1}


# -- treasures ------------------------------------------------------------------------


def test_recover_takes_the_top_token_face_up_for_3() -> None:
    game = blank()
    lay(game, "A5", "D-4", 0, tokens=["mask", "jade", "idol", "vase"])
    put(game, "A5", 0, workers=2)
    act(game, 0, "recover A5")
    assert game.players[0].treasures == {"vase": 1}
    assert game.hexes[S("A5")].tokens == ["mask", "jade", "idol"]
    assert game.turn is not None and game.turn.ap == 7
    act(game, 0, "recover A5")
    assert game.players[0].treasures == {"vase": 1, "idol": 1}
    error = refused(game, 0, "recover A5")
    assert (error.key, error.params["limit"]) == ("tikal.error.recover_limit", 2)


def test_the_kth_token_needs_k_figures() -> None:
    game = blank()
    lay(game, "A5", "D-4", 0, tokens=["mask", "jade", "idol", "vase"])
    put(game, "A5", 0, leader=True)
    act(game, 0, "recover A5")
    error = refused(game, 0, "recover A5")
    assert error.params == {"space": "A5", "needed": 2, "have": 1}


def test_recover_refusals() -> None:
    game = blank()
    lay(game, "A5", "C-5", 0, tokens=[])
    put(game, "A5", 0, workers=1)
    assert refused(game, 0, "recover A5").key == "tikal.error.no_tokens"
    put(game, "B6", 0, workers=1)
    assert refused(game, 0, "recover B6").key == "tikal.error.not_treasure"
    lay(game, "B5", "C-5", 0, tokens=["mask"])
    assert refused(game, 0, "recover B5").params["have"] == 0


def test_exchange_single_for_single_chosen_by_the_active_player() -> None:
    game = blank(3)
    game.players[0].treasures = {"mask": 1, "jade": 2}
    game.players[1].treasures = {"jade": 1, "idol": 1}
    game.players[2].treasures = {"jade": 1}
    act(game, 0, "exchange mask blue jade")
    assert game.players[0].treasures == {"jade": 3}
    assert game.players[1].treasures == {"mask": 1, "idol": 1}
    assert game.players[2].treasures == {"jade": 1}
    assert game.turn is not None and game.turn.ap == 7


def test_pairs_and_triples_are_never_split() -> None:
    game = blank(3)
    game.players[0].treasures = {"mask": 2, "vase": 1}
    game.players[1].treasures = {"jade": 2, "idol": 1}
    error = refused(game, 0, "exchange mask blue idol")
    assert (error.key, error.params["count"]) == ("tikal.error.not_single", 2)
    error = refused(game, 0, "exchange vase blue jade")
    assert error.key == "tikal.error.not_single_other"
    assert (error.params["count"], error.params["other_seat"]) == (2, 1)
    assert refused(game, 0, "exchange vase blue crown").params["count"] == 0


def test_exchange_refusals() -> None:
    game = blank(2)
    game.players[0].treasures = {"mask": 1}
    game.players[1].treasures = {"mask": 1}
    assert refused(game, 0, "exchange mask red mask").key == "tikal.error.exchange_self"
    assert refused(game, 0, "exchange mask blue mask").key == "tikal.error.exchange_same"
    assert refused(game, 0, "exchange mask yellow jade").key == "tikal.error.no_such_player"
    game.players[1].treasures = {"jade": 1}
    game.turn = Turn(seat=0, kind=TURN_NORMAL, ap=2)
    assert refused(game, 0, "exchange mask blue jade").params == {"cost": 3, "ap": 2}


# -- camps ----------------------------------------------------------------------------


def test_camp_on_a_jungle_costs_5_and_needs_no_figure() -> None:
    game = blank()
    act(game, 0, "camp B6")
    assert game.hexes[S("B6")].camp == 0
    assert game.players[0].camps == 1
    assert game.turn is not None and game.turn.ap == 5
    act(game, 0, "enter B6")
    assert figures(game, "B6", 0) == (1, False)


def test_camp_on_an_emptied_treasure_hex_only() -> None:
    game = blank()
    lay(game, "A5", "C-5", 0, tokens=["mask"])
    lay(game, "B5", "C-5", 0, tokens=[])
    assert refused(game, 0, "camp A5").key == "tikal.error.camp_ground"
    assert refused(game, 0, "camp A6").key == "tikal.error.camp_ground"
    assert refused(game, 0, "camp A7").key == "tikal.error.camp_ground"
    act(game, 0, "camp B5")
    assert game.hexes[S("B5")].camp == 0


def test_one_camp_per_hex_and_two_per_player() -> None:
    game = blank()
    lay(game, "A5", "B-3", 0)
    lay(game, "B5", "G-4", 0)
    game.hexes[S("A5")].camp = 1
    error = refused(game, 0, "camp A5")
    assert (error.key, error.params["other_seat"]) == ("tikal.error.camp_taken", 1)
    game.players[0].camps = 0
    assert refused(game, 0, "camp B5").key == "tikal.error.no_camps_left"


def test_mini_tikal_one_camp_and_one_guard() -> None:
    game = blank(2, "mini")
    assert (game.players[0].camps, game.players[0].guards, game.players[0].workers) == (1, 1, 12)
    act(game, 0, "camp B6")
    game.turn = Turn(seat=0, kind=TURN_NORMAL)
    lay(game, "A5", "A-3", 0)
    assert refused(game, 0, "camp A5").key == "tikal.error.no_camps_left"


# -- guards ---------------------------------------------------------------------------


def test_guard_needs_strict_majority_leader_counts_3() -> None:
    game = blank(2)
    put(game, "A6", 0, workers=2)
    put(game, "A6", 1, leader=True)
    error = refused(game, 0, "guard A6")
    assert (error.key, error.params) == (
        "tikal.error.not_strongest",
        {"space": "A6", "mine": 2, "best": 3},
    )
    put(game, "A6", 0, workers=1)  # 3 against 3: a tie is not a majority
    assert refused(game, 0, "guard A6").key == "tikal.error.not_strongest"
    put(game, "A6", 0, workers=1)  # 4 against 3
    act(game, 0, "guard A6")
    hex_ = game.hexes[S("A6")]
    assert (hex_.guard, hex_.guard_figure) == (0, "worker")
    assert figures(game, "A6", 0) == (0, False)
    assert figures(game, "A6", 1) == (0, True)  # the others' figures stay
    assert game.players[0].removed_workers == 3
    assert game.players[0].guards == 1
    assert game.turn is not None and game.turn.ap == 5


def test_the_player_chooses_which_figure_guards() -> None:
    game = blank(2)
    put(game, "A6", 0, workers=2, leader=True)
    act(game, 0, "guard A6 leader")
    hex_ = game.hexes[S("A6")]
    assert (hex_.guard, hex_.guard_figure) == (0, "leader")
    player = game.players[0]
    assert (player.removed_workers, player.removed_leader) == (2, False)

    game = blank(2)
    put(game, "A6", 0, workers=2, leader=True)
    act(game, 0, "guard A6")
    player = game.players[0]
    assert (player.removed_workers, player.removed_leader) == (1, True)


def test_guard_refusals() -> None:
    game = blank(2)
    put(game, "A6", 0, leader=True)
    assert refused(game, 0, "guard A6").key == "tikal.error.no_figure_there"
    put(game, "B6", 0, workers=1)
    assert refused(game, 0, "guard B6").key == "tikal.error.not_temple"
    game.players[0].guards = 0
    assert refused(game, 0, "guard A6 leader").key == "tikal.error.no_guards_left"
    game.players[0].guards = 2
    game.hexes[S("B7")].guard = 1
    put(game, "B7", 0, workers=1)
    assert refused(game, 0, "guard B7").key == "tikal.error.already_guarded"
    game.turn = Turn(seat=0, kind=TURN_NORMAL, ap=4)
    assert refused(game, 0, "guard A6 leader").params == {"cost": 5, "ap": 4}


def test_ap_never_go_negative() -> None:
    game = acting(blank(), 0, ap=4)
    assert refused(game, 0, "camp B6").params == {"cost": 5, "ap": 4}
    assert game.turn is not None and game.turn.ap == 4
