"""The public view: JSON-able, everything the image needs, nothing hidden; it
does not change when only the stacks' order or face-down tokens do."""

from __future__ import annotations

import json
import random

import pytest
from tikal_positions import S, blank, lay, put

from bot.games.tikal import ENGINE
from bot.games.tikal.board import space_name
from bot.games.tikal.components import MODES, TILES, TREASURE_KINDS
from bot.games.tikal.selfplay import random_game
from bot.games.tikal.state import GameState, copy_state


def shuffle_hidden(game: GameState, rng: random.Random) -> GameState:
    """The same public position with the hidden data permuted: each stack group
    reshuffled, the token pool and every face-down token dealt anew."""
    other = copy_state(game)
    groups = MODES[game.mode].stacks
    stack = []
    for group in groups:
        part = [t for t in other.stack if TILES[t].letter in group]
        rng.shuffle(part)
        stack.extend(part)
    assert sorted(stack) == sorted(other.stack)
    other.stack = stack
    tokens = list(other.pool)
    holders = [h for h in other.hexes.values() if h.tokens]
    for hex_ in holders:
        tokens.extend(hex_.tokens)
    rng.shuffle(tokens)
    for hex_ in holders:
        count = len(hex_.tokens)
        hex_.tokens, tokens = tokens[:count], tokens[count:]
    other.pool = tokens
    return other


@pytest.mark.parametrize(("mode", "seats"), [("base", 4), ("auction", 3), ("mini", 2)])
def test_view_ignores_the_stack_order_and_face_down_tokens(mode: str, seats: int) -> None:
    rng = random.Random(4)
    for stop in (1, 40, 120, 200):
        game = random_game(mode, seats, 3, stop_after=stop).state
        view = ENGINE.public_view(game)
        for _ in range(5):
            other = shuffle_hidden(game, rng)
            assert ENGINE.public_view(other) == view


def test_view_changes_when_public_things_do() -> None:
    game = blank()
    before = ENGINE.public_view(game)
    put(game, "A6", 0, workers=1)
    assert ENGINE.public_view(game) != before


def test_view_is_json_and_holds_no_hidden_data() -> None:
    game = random_game("base", 4, 8, stop_after=150).state
    view = ENGINE.public_view(game)
    text = json.dumps(view)
    assert json.loads(text) == view
    for hex_ in game.hexes.values():
        assert f'"{hex_.tile}"' not in text  # tile ids (which say nothing hidden) stay out
    assert "pool" not in view and "stack" not in view
    hexes = {h["space"]: h for h in view["hexes"]}
    for space, hex_ in game.hexes.items():
        shown = hexes[space_name(space)]
        if hex_.kind == "treasure":
            assert shown["tokens"] == len(hex_.tokens)
            assert not any(v in TREASURE_KINDS for v in shown.values() if isinstance(v, str))


def test_view_content_for_the_image() -> None:
    game = blank(3)
    lay(game, "A5", "D-4", 0, tokens=["mask", "jade", "idol", "vase"])
    put(game, "A6", 0, workers=2, leader=True)
    put(game, "A6", 1, workers=3)
    game.hexes[S("B6")].camp = 2
    game.hexes[S("B7")].guard = 1
    game.hexes[S("B7")].guard_figure = "worker"
    game.players[1].treasures = {"mask": 2, "jade": 1}
    game.players[1].score = 17
    view = ENGINE.public_view(game)
    hexes = {h["space"]: h for h in view["hexes"]}
    a6 = hexes["A6"]
    assert a6["kind"] == "temple" and a6["value"] == 1 and a6["next_value"] == 2
    assert a6["figures"] == [
        {"seat": 0, "workers": 2, "leader": True, "strength": 5},
        {"seat": 1, "workers": 3, "leader": False, "strength": 3},
    ]
    assert a6["holder_seat"] == 0
    assert a6["stones"] == [1, 1, 0, 1, 0, 0]  # printed: N1 NE1 S1
    assert a6["x"] == pytest.approx(1.0) and a6["y"] == pytest.approx(0.866 * 11, abs=0.01)
    assert hexes["A5"]["tokens"] == 4 and hexes["A5"]["masks"] == 4
    assert hexes["B6"]["camp_seat"] == 2
    assert hexes["B7"]["guard_seat"] == 1 and hexes["B7"]["holder_seat"] == 1
    assert hexes["B7"]["next_value"] is None
    assert view["base_camp"] == "A7"
    crossing = {(c["a"], c["b"]): c["cost"] for c in view["crossings"]}
    assert crossing[("A6", "A5")] == 1  # A6 has 1 stone north, D-4 none south
    player = view["players"][1]
    assert player["score"] == 17 and player["treasures"] == {"jade": 1, "mask": 2}
    assert player["treasure_points"] == 4 and player["colour"] == "blue"
    assert view["players"][0]["workers"] == 16 and view["players"][0]["leader"] is False
    assert view["turn"]["ap"] == 10 and view["waiting_for"] == [0]
    assert len(view["spaces"]) == 63 and all(s["usable"] for s in view["spaces"])
    assert sum(s["count"] for s in view["stacks"]) == view["stack_total"] == 35
    assert [s["letter"] for s in view["stacks"]] == list("ABCDEFG")


def test_mini_view_marks_the_unusable_spaces() -> None:
    view = ENGINE.public_view(ENGINE.new_game(2, {"mode": "mini"}, 1))
    usable = [s["space"] for s in view["spaces"] if s["usable"]]
    assert len(usable) == 25 and "A7" in usable and "F1" not in usable
    assert view["limits"]["treasure_kinds"] == ["mask", "jade", "idol", "vase"]
    assert [r["slot"] for r in view["revealed"]] == [1, 2]
    assert view["auction"]["current_seat"] == view["waiting_for"][0]


def test_auction_view() -> None:
    game = ENGINE.new_game(3, {"mode": "auction"}, 2)
    ENGINE.apply(game, 0, ENGINE.parse_action("bid 3"))
    ENGINE.apply(game, 1, ENGINE.parse_action("pass"))
    view = ENGINE.public_view(game)
    assert view["auction"] == {
        "opener_seat": 0,
        "current_seat": 2,
        "high": 3,
        "high_seat": 0,
        "bidders": [0, 1, 2],
        "passed": [1],
    }
    assert [r["kind"] for r in view["revealed"]] == [TILES[t].kind for t in game.revealed]
