"""The tile set and board data: every published count and every invariant of
``docs/rules/tikal.md#tile-set`` and ``#board`` (digital edition layout)."""

from __future__ import annotations

import json
import re
from collections import Counter

from bot.games.tikal.board import ADJACENT, COLS, NEIGHBOURS, ROWS, SPACES, parse_space, space_name
from bot.games.tikal.components import DATA_FILE, MODES, TILE_SET, TILES
from bot.games.tikal.paths import crossing_cost, path_cost
from bot.games.tikal.state import BASE_CAMP, new_state
from bot.i18n import LANGUAGES, t

TERRAIN = TILE_SET.tiles
S = parse_space


def test_36_terrain_hexes_by_kind() -> None:
    kinds = Counter(t.kind for t in TERRAIN.values())
    assert len(TERRAIN) == 36
    assert kinds == {"temple": 15, "jungle": 10, "treasure": 8, "volcano": 3}


def test_temples_printed_values_1_to_6() -> None:
    values = sorted(t.value for t in TERRAIN.values() if t.kind == "temple")
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert len(values) == 15
    assert all(t.value == 0 for t in TERRAIN.values() if t.kind != "temple")


def test_treasure_masks() -> None:
    masks = sorted(t.masks for t in TERRAIN.values() if t.kind == "treasure")
    assert masks == [2, 2, 3, 3, 3, 3, 4, 4]
    assert sum(masks) == 24 == len(TILE_SET.treasure_kinds) * TILE_SET.treasure_copies
    assert len(TILE_SET.treasure_kinds) == 8 and TILE_SET.treasure_copies == 3


def _stone_groups(stones: tuple[int, ...]) -> list[int]:
    return sorted((n for n in stones if n), reverse=True)


def test_three_stones_per_non_volcano_hex_grouped_3_21_111() -> None:
    """The 36 drawn hexes only: the printed start hexes carry the board's own stones."""
    for tile in TERRAIN.values():
        if tile.kind == "volcano":
            assert tile.stones == (0, 0, 0, 0, 0, 0), tile.id
            continue
        assert len(tile.stones) == 6
        assert sum(tile.stones) == 3, tile.id
        assert max(tile.stones) <= 3
        assert _stone_groups(tile.stones) in ([3], [2, 1], [1, 1, 1]), tile.id


def test_volcanoes_one_each_in_b_d_f_and_backs_a_to_g() -> None:
    letters = Counter(t.letter for t in TERRAIN.values())
    assert set(letters) == set("ABCDEFG")
    volcano_letters = sorted(t.letter or "" for t in TERRAIN.values() if t.kind == "volcano")
    assert volcano_letters == ["B", "D", "F"]
    assert MODES["base"].stacks == tuple((letter,) for letter in "ABCDEFG")


def test_temple_level_tiles() -> None:
    assert TILE_SET.temple_tiles == {2: 3, 3: 6, 4: 9, 5: 11, 6: 8, 7: 5, 8: 3, 9: 2, 10: 1}
    assert sum(TILE_SET.temple_tiles.values()) == 48


def test_every_space_has_a_typeable_name() -> None:
    assert len(SPACES) == COLS * ROWS >= 40 + 10
    for space in SPACES:
        name = space_name(space)
        assert name[0].isalpha() and name[1:].isdigit() and name.isascii()
        assert parse_space(name) == space == parse_space(name.lower())


def test_neighbours_are_symmetric() -> None:
    for space in SPACES:
        for d, nb in ADJACENT[space]:
            assert NEIGHBOURS[nb][(d + 3) % 6] == space


def test_start_hexes() -> None:
    start = {parse_space(s.space): s.tile for s in TILE_SET.start}
    kinds = Counter(t.kind for t in start.values())
    assert kinds == {"base": 1, "temple": 2, "jungle": 1}
    assert all(t.value == 1 for t in start.values() if t.kind == "temple")
    game = new_state(2, "base", 0)
    temples = [s for s, t in start.items() if t.kind == "temple"]
    (jungle,) = [s for s, t in start.items() if t.kind == "jungle"]
    adjacent = {s: {nb for _, nb in ADJACENT[s]} for s in start}
    assert temples[1] not in adjacent[temples[0]]
    assert jungle in adjacent[temples[0]] and jungle in adjacent[temples[1]]
    for other in [*temples, jungle]:
        direction = next(d for d, nb in ADJACENT[BASE_CAMP] if nb == other)
        assert crossing_cost(game, BASE_CAMP, direction, other) > 0
    # near one corner
    assert space_name(BASE_CAMP) in ("A1", f"A{ROWS}", f"{space_name(SPACES[-1])}")


def test_start_hexes_carry_the_printed_boards_stones_edge_by_edge() -> None:
    """tikal.md: base camp N1 NE1 SE1; northern temple N1 NE1 S1; jungle N1 NE1 SE1;
    south-eastern temple NE1 NW1 (N first, clockwise)."""
    start = {s.space: s.tile for s in TILE_SET.start}
    assert (start["A7"].kind, start["A7"].stones) == ("base", (1, 1, 1, 0, 0, 0))
    assert (start["A6"].kind, start["A6"].stones) == ("temple", (1, 1, 0, 1, 0, 0))
    assert (start["B6"].kind, start["B6"].stones) == ("jungle", (1, 1, 1, 0, 0, 0))
    assert (start["B7"].kind, start["B7"].stones) == ("temple", (0, 1, 0, 0, 0, 1))
    # the northern temple lies north of the base camp, the jungle north-east, the
    # other temple south-east
    assert [NEIGHBOURS[BASE_CAMP][d] for d in (0, 1, 2)] == [S("A6"), S("B6"), S("B7")]


def test_from_the_base_camp_temples_cost_2_the_jungle_1_and_no_temple_meets_the_jungle() -> None:
    game = new_state(2, "base", 0)
    assert path_cost(game, 0, BASE_CAMP, S("A6")) == 2
    assert path_cost(game, 0, BASE_CAMP, S("B6")) == 1
    assert path_cost(game, 0, BASE_CAMP, S("B7")) == 2
    jungle = S("B6")
    for temple in (S("A6"), S("B7")):
        direction = next(d for d, nb in ADJACENT[temple] if nb == jungle)
        assert crossing_cost(game, temple, direction, jungle) == 0
        # the only way between a temple and the jungle runs through the base camp
        assert path_cost(game, 0, temple, jungle) == path_cost(game, 0, temple, BASE_CAMP) + 1
    # neither temple meets the other either: from one to the other costs 2 + 2
    assert path_cost(game, 0, S("A6"), S("B7")) == 4


def test_board_has_room_for_every_hex() -> None:
    assert len(SPACES) >= len(TERRAIN) + len(TILE_SET.start) + 10


def test_mini_tikal_selection() -> None:
    mini = MODES["mini"]
    tiles = [TILES[t] for t in mini.tiles]
    assert len(tiles) == 12
    by_set = [[t for t in tiles if t.letter in group] for group in mini.stacks]
    assert mini.stacks == (("A", "B", "C"), ("D",), ("E", "F", "G"))
    assert [len(group) for group in by_set] == [5, 3, 4]
    assert [t.kind for t in tiles].count("volcano") == 1
    assert any(t.kind == "volcano" for t in by_set[1])
    assert sum(t.masks for t in tiles) <= 12
    assert len(mini.treasure_kinds) == 4
    assert (mini.workers, mini.camps, mini.guards, mini.start_score) == (12, 1, 1, 20)
    assert mini.first_seat == "random" and mini.auction


def test_mini_area_holds_the_start_the_hexes_and_slack() -> None:
    area = {parse_space(name) for name in MODES["mini"].area or ()}
    start = {parse_space(s.space) for s in TILE_SET.start}
    assert start <= area
    assert len(area) >= 4 + 12 + 4
    assert len(area) < len(SPACES)
    # connected
    seen, todo = {BASE_CAMP}, [BASE_CAMP]
    while todo:
        for _, nb in ADJACENT[todo.pop()]:
            if nb in area and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == area


def test_other_modes_use_the_whole_set() -> None:
    for name in ("base", "auction"):
        mode = MODES[name]
        assert sorted(mode.tiles) == sorted(TERRAIN) and mode.area is None
        assert (mode.workers, mode.camps, mode.guards) == (18, 2, 2)
    assert MODES["base"].start_score == 0 and MODES["auction"].start_score == 20


def test_data_file_is_plain_json_labelled_digital_edition() -> None:
    raw = json.loads(DATA_FILE.read_text("utf-8"))
    assert "digital edition layout" in raw["_about"]
    ids = [t["id"] for t in raw["tiles"]]
    assert len(ids) == len(set(ids))


def test_the_help_text_gives_the_start_costs_the_engine_charges() -> None:
    """The help's "Start" line, in every locale, names the costs the stone data gives."""
    game = new_state(2, "base", 0)
    costs = {name: path_cost(game, 0, BASE_CAMP, S(name)) for name in ("A6", "B6", "B7")}
    assert costs == {"A6": 2, "B6": 1, "B7": 2}
    for locale in LANGUAGES:
        help_text = t(locale, "tikal.help")
        (line,) = [ln for ln in help_text.splitlines() if "A7" in ln and "B7" in ln]
        for name, cost in costs.items():
            found = re.search(re.escape(name) + r"\D*?(\d+)", line)
            assert found is not None and int(found.group(1)) == cost, (locale, name, line)
