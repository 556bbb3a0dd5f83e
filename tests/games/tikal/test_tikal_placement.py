"""Laying hexes: adjacency, the stone link, rotations, volcanoes, the fallback,
treasure tokens and Mini-Tikal's board area."""

from __future__ import annotations

from tikal_positions import S, act, blank, lay, refused

from bot.games.tikal import ENGINE
from bot.games.tikal.board import rotate, space_name
from bot.games.tikal.components import TILES
from bot.games.tikal.legal import destinations
from bot.games.tikal.placement import placements
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_PLACE, TURN_NORMAL, GameState, Turn


def placing(tile_id: str, mode: str = "base", seats: int = 2) -> GameState:
    game = blank(seats, mode)
    game.phase = PHASE_PLACE
    game.turn = Turn(seat=0, kind=TURN_NORMAL)
    game.in_hand = tile_id
    game.stack.remove(tile_id)
    return game


def test_rotation_turns_stones_clockwise() -> None:
    assert rotate((2, 1, 0, 0, 0, 0), 0) == (2, 1, 0, 0, 0, 0)
    assert rotate((2, 1, 0, 0, 0, 0), 1) == (0, 2, 1, 0, 0, 0)
    assert rotate((2, 1, 0, 0, 0, 0), 5) == (1, 0, 0, 0, 0, 2)


def test_laying_a_hex_next_to_a_laid_one_with_a_stone_link() -> None:
    # B-3 (jungle, 3 stones on N) on A5, above the start temple A6 (A6 has 1 stone on N).
    game = placing("B-3")
    assert act(game, 0, "place A5 0") == ["tikal.event.placed"]
    hex_ = game.hexes[S("A5")]
    assert (hex_.tile, hex_.rotation, hex_.stones) == ("B-3", 0, (3, 0, 0, 0, 0, 0))
    assert game.phase == PHASE_ACTIONS and game.turn is not None and game.turn.ap == 10
    assert game.in_hand is None and game.last_placer == 0


def test_the_neighbours_stone_alone_is_enough() -> None:
    # B-3 turned so its 3 stones face north-east (B4, not laid): the shared edge with
    # A6 (south) has no stone on the new hex, but A6 has one on its north edge.
    game = placing("B-3")
    act(game, 0, "place A5 1")
    assert game.hexes[S("A5")].stones[3] == 0


def test_no_stone_on_either_side_is_refused() -> None:
    # A5 holds B-3 with its 3 stones north: its NE edge, facing B4, is bare.
    game = placing("G-4")  # another jungle with 3 stones on one edge
    lay(game, "A5", "B-3", 0)
    error = refused(game, 0, "place B4 0")  # stones N: nothing faces A5
    assert error.key == "tikal.error.no_stone_link"
    assert error.params == {"space": "B4", "rotation": 0}
    act(game, 0, "place B4 4")  # stones SW, facing A5
    assert game.hexes[S("B4")].stones == (0, 0, 0, 0, 3, 0)


def test_not_next_to_a_laid_hex_is_refused() -> None:
    game = placing("A-1")
    assert refused(game, 0, "place E3 0").key == "tikal.error.not_adjacent"


def test_an_occupied_space_is_refused() -> None:
    game = placing("A-1")
    assert refused(game, 0, "place B6 0").key == "tikal.error.occupied"


def test_every_rotation_is_offered_when_it_links() -> None:
    game = placing("E-4")  # jungle, stones N NE SE
    options = placements(game, "E-4")
    spaces = {s for s, _ in options}
    assert S("A5") in spaces and S("C6") in spaces
    # on A5 every rotation links, because A6 has a stone on its north edge
    assert sorted(r for s, r in options if s == S("A5")) == [0, 1, 2, 3, 4, 5]


def test_a_volcano_needs_no_stone_and_any_rotation_is_accepted() -> None:
    game = placing("B-5")
    game.hexes[S("A6")].stones = (0, 0, 0, 0, 0, 0)
    act(game, 0, "place A5 4")
    assert game.hexes[S("A5")].kind == "volcano"


def test_a_volcano_is_not_a_link_for_the_next_hex() -> None:
    game = placing("A-1")  # temple, stones N NE SE
    lay(game, "A5", "B-5")  # volcano above A6
    game.hexes[S("A6")].stones = (0, 0, 0, 0, 0, 0)
    # A4 touches only the volcano A5 (and nothing else laid): not a link
    options = placements(game, "A-1")
    assert S("A4") not in {s for s, _ in options}
    assert refused(game, 0, "place A4 3").key == "tikal.error.no_stone_link"


def test_fallback_when_no_space_and_rotation_links() -> None:
    # Every laid hex next to the frontier is a volcano: any frontier space, any rotation.
    game = placing("A-1")
    game.hexes = {S("A7"): game.hexes[S("A7")]}
    for space in ("A6", "B6", "B7"):
        lay(game, space, "B-5")
    options = placements(game, "A-1")
    assert {s for s, _ in options} == {S(n) for n in ("A5", "B5", "C6", "C7")}
    assert len(options) == 4 * 6
    act(game, 0, "place C7 5")
    assert game.hexes[S("C7")].tile == "A-1"


def test_fallback_still_needs_an_empty_space_next_to_a_laid_hex() -> None:
    game = placing("A-1")
    game.hexes = {S("A7"): game.hexes[S("A7")]}
    for space in ("A6", "B6", "B7"):
        lay(game, space, "B-5")
    assert refused(game, 0, "place D4 0").key == "tikal.error.not_adjacent"


def test_a_treasure_hex_gets_its_tokens_face_down_from_the_pool() -> None:
    game = placing("D-4")  # 4 masks
    pool = list(game.pool)
    act(game, 0, "place A5 0")
    assert game.hexes[S("A5")].tokens == pool[:4]
    assert game.pool == pool[4:]


def test_temple_starts_at_its_printed_value() -> None:
    game = placing("F-2")
    act(game, 0, "place A5 3")
    assert game.hexes[S("A5")].value == TILES["F-2"].value == 6


def test_mini_tikal_spaces_outside_the_area_are_unusable() -> None:
    game = placing("A-3", mode="mini")
    lay(game, "C6", "C-3", 0)
    lay(game, "D6", "C-3", 0)
    lay(game, "E6", "C-3", 0)
    assert refused(game, 0, "place F6 0").key == "tikal.error.unusable"
    assert S("F6") not in {s for s, _ in placements(game, "A-3")}
    assert refused(game, 0, "place A2 0").key == "tikal.error.unusable"


def test_place_only_in_the_place_phase() -> None:
    game = blank()
    assert refused(game, 0, "place A5 0").key == "tikal.error.phase.actions"
    placing_game = placing("A-1")
    assert refused(placing_game, 0, "end").key == "tikal.error.phase.place"
    assert refused(placing_game, 0, "enter A7").key == "tikal.error.phase.place"
    assert refused(placing_game, 1, "place A5 0").key == "tikal.error.not_your_turn"
    assert ENGINE.legal_actions(placing_game, 1) == []


def test_the_opening_offers_sensible_moves_with_the_printed_start_stones() -> None:
    """With the printed start stones, the spaces a start stone points at (A5 and B5
    north and north-east of the northern temple, B5, C6 and C7 north, north-east and
    south-east of the jungle, C7 north-east of the south-eastern temple) take the
    first hex in every rotation, in every mode (Mini's area included); once a figure
    is in, every start hex is in reach."""
    for mode in ("base", "auction", "mini"):
        for tile_id in ("A-3", "A-1", "B-4"):  # a jungle, a temple, a treasure hex
            game = placing(tile_id, mode=mode)
            offered = set(placements(game, tile_id))
            for name in ("A5", "B5", "C6", "C7"):
                assert {(S(name), r) for r in range(6)} <= offered, (mode, tile_id, name)
    game = blank()
    act(game, 0, "enter A7")
    reach = destinations(game, 0, S("A7"))
    assert {space_name(s): cost for s, cost in reach.items()} == {"A6": 2, "B6": 1, "B7": 2}
    assert {str(a) for a in ENGINE.legal_actions(game, 0) if str(a).startswith("move")} == {
        "move A7 A6",
        "move A7 B6",
        "move A7 B7",
    }
