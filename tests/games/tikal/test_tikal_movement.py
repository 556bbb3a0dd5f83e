"""Movement: stones on both sides of an edge, the cheapest path, volcanoes,
secret passages, and refusals that name the cost and the AP left."""

from __future__ import annotations

from tikal_positions import S, act, acting, blank, figures, lay, put, refused, seed_example

from bot.games.tikal.paths import path_cost


def test_seed_example_the_move_via_the_jungle_costs_6() -> None:
    game = seed_example(blank())
    put(game, "A5", 0, workers=3)
    assert path_cost(game, 0, S("A5"), S("B4")) == 3  # temple "2" to the jungle
    assert path_cost(game, 0, S("A5"), S("A6")) == 1  # temple "2" to temple "1"
    assert path_cost(game, 0, S("A5"), S("A4")) == 6  # no direct crossing: via the jungle
    act(game, 0, "move A5 A4")
    assert figures(game, "A4", 0) == (1, False)
    assert figures(game, "A5", 0) == (2, False)
    assert game.turn is not None and game.turn.ap == 4


def test_a_move_short_of_ap_is_refused_with_its_cost() -> None:
    game = acting(seed_example(blank()), 0, ap=5)
    put(game, "A5", 0, workers=1)
    error = refused(game, 0, "move A5 A4")
    assert error.key == "tikal.error.too_far"
    assert error.params == {"origin": "A5", "target": "A4", "cost": 6, "ap": 5}
    act(game, 0, "move A5 B4")
    assert game.turn is not None and game.turn.ap == 2


def test_crossing_cost_adds_both_sides() -> None:
    game = blank()
    lay(game, "A5", "B-3", 3)  # 3 stones south, facing A6 (which has 1 north)
    put(game, "A6", 0, workers=1)
    act(game, 0, "move A6 A5")
    assert game.turn is not None and game.turn.ap == 6


def test_no_stone_on_either_side_means_no_crossing() -> None:
    game = blank()
    lay(game, "A5", "B-3", 1)  # stones NE only; A6 has 1 north: crossing costs 1
    lay(game, "A4", "B-3", 0)  # stones N only; A5 has none north: no crossing A5-A4
    put(game, "A5", 0, workers=1)
    error = refused(game, 0, "move A5 A4")
    assert (error.key, error.params) == ("tikal.error.no_path", {"origin": "A5", "target": "A4"})


def test_volcanoes_are_never_entered_or_crossed() -> None:
    game = blank()
    lay(game, "A5", "B-5", 0)  # volcano above A6, which has a stone pointing at it
    lay(game, "A4", "B-3", 3)  # jungle above, stones towards the volcano
    put(game, "A6", 0, workers=1)
    assert refused(game, 0, "move A6 A5").key == "tikal.error.volcano"
    assert refused(game, 0, "move A6 A4").key == "tikal.error.no_path"


def test_the_cheapest_of_several_ways_is_charged() -> None:
    game = blank()
    put(game, "A6", 0, workers=1)
    lay(game, "B5", "B-3", 0)  # jungle: N 3 only
    # the printed temple A6 and jungle B6 do not meet: A6 -> A7 -> B6 costs 2 + 1;
    # A6 -> B5 -> B6 costs (A6 NE 1 + B5 SW 0) + (B5 S 0 + B6 N 1) = 2
    act(game, 0, "move A6 B6")
    assert game.turn is not None and game.turn.ap == 8


def test_secret_passages_between_own_camps_and_the_base_camp_cost_1() -> None:
    game = blank(2)
    lay(game, "A5", "B-3", 1)
    lay(game, "A4", "G-4", 0)  # unreachable on foot from A5 (no stone between)
    game.hexes[S("A4")].camp = 0
    put(game, "A7", 0, workers=1)
    put(game, "A7", 1, workers=1)
    act(game, 0, "move A7 A4")
    assert game.turn is not None and game.turn.ap == 9
    act(game, 0, "move A4 A7")
    assert game.turn.ap == 8
    # another player cannot use that camp's passage
    game.turn.seat = 1
    assert refused(game, 1, "move A7 A4").key == "tikal.error.no_path"


def test_a_passage_then_a_walk_in_one_move() -> None:
    game = blank(2)
    lay(game, "C3", "E-1", 3)  # temple: 3 stones south, facing C4
    lay(game, "C4", "G-4", 0)  # jungle camp: 3 stones north, facing C3
    game.hexes[S("C4")].camp = 0
    put(game, "A7", 0, workers=1)
    act(game, 0, "move A7 C3")  # passage to C4 (1) + crossing to C3 (3 + 3)
    assert figures(game, "C3", 0) == (1, False)
    assert game.turn is not None and game.turn.ap == 3


def test_others_figures_camps_and_guards_never_block() -> None:
    game = blank(2)
    put(game, "B6", 1, workers=3)
    game.hexes[S("B6")].camp = 1
    game.hexes[S("A6")].guard = 1
    put(game, "A7", 0, workers=1)
    act(game, 0, "move A7 A6")
    act(game, 0, "move A6 B6")
    assert figures(game, "B6", 0) == (1, False)


def test_the_leader_moves_like_a_worker() -> None:
    game = blank()
    put(game, "A7", 0, workers=1, leader=True)
    act(game, 0, "move A7 A6 leader")
    assert figures(game, "A6", 0) == (0, True)
    assert figures(game, "A7", 0) == (1, False)
    error = refused(game, 0, "move A7 A6 leader")
    assert (error.key, error.params["space"]) == ("tikal.error.no_figure_there", "A7")


def test_move_refusals() -> None:
    game = blank()
    put(game, "A7", 0, workers=1)
    assert refused(game, 0, "move A6 A7").key == "tikal.error.no_figure_there"
    assert refused(game, 0, "move A7 A7").key == "tikal.error.same_space"
    assert refused(game, 0, "move A7 C1").key == "tikal.error.empty_space"
    assert refused(game, 0, "move C1 A7").key == "tikal.error.empty_space"
    assert refused(game, 1, "move A7 A6").key == "tikal.error.not_your_turn"


def test_a_figure_may_stop_anywhere_and_go_on_next_turn() -> None:
    game = acting(seed_example(blank()), 0, ap=3)
    put(game, "A5", 0, workers=1)
    act(game, 0, "move A5 B4")
    acting(game, 0, ap=10)
    act(game, 0, "move B4 A4")
    assert figures(game, "A4", 0) == (1, False)
    assert game.turn is not None and game.turn.ap == 7
