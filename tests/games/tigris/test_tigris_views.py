"""Views: the documented schema, and nothing hidden in the public view."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tigris_positions import play, position

from bot.games.tigris import ENGINE
from bot.games.tigris.components import COLOURS

PUBLIC_KEYS = {
    "game",
    "cols",
    "rows",
    "river",
    "tiles",
    "leaders",
    "catastrophes",
    "treasures",
    "monuments",
    "monuments_left",
    "unification",
    "last_action",
    "bag",
    "treasures_left",
    "turn",
    "conflict",
    "players",
    "scoring",
}
CONFLICT_KEYS = {
    "kind",
    "colour",
    "attacker_seat",
    "defender_seat",
    "attacker_sq",
    "defender_sq",
    "attacker_base",
    "defender_base",
    "attacker_committed",
    "defender_committed",
}
PLAYER_KEYS = {
    "seat",
    "dynasty",
    "leaders_in_supply",
    "catastrophes",
    "hand_size",
    "points",
    "treasures",
}


def played(seed: int, actions: int, seats: int = 3, scoring: str = "hidden"):
    state = ENGINE.new_game(seats, {"scoring": scoring}, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        waiting = ENGINE.waiting_for(state)
        if not waiting:
            break
        (seat,) = waiting
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return state


def test_new_game_public_view_schema():
    state = ENGINE.new_game(4, {}, 7)
    view = ENGINE.public_view(state)
    assert view.keys() >= PUBLIC_KEYS
    json.dumps(view)
    assert view["game"] == "tigris" and (view["cols"], view["rows"]) == (16, 11)
    assert len(view["river"]) == 41
    assert len(view["tiles"]) == 10
    assert view["tiles"][0].keys() == {"sq", "colour", "flipped"}
    assert {t["sq"] for t in view["treasures"] if t["corner"]} == {"B2", "P2", "B8", "O9"}
    assert view["leaders"] == [] and view["catastrophes"] == [] and view["monuments"] == []
    assert len(view["monuments_left"]) == 6
    assert view["unification"] is None and view["last_action"] is None and view["conflict"] is None
    assert view["bag"] == 143 - 24
    assert view["treasures_left"] == 10
    assert view["turn"]["active_seat"] == 0
    assert view["turn"]["actions_left"] == 2
    assert view["turn"]["phase"] == "action"
    assert view["turn"]["waiting_for"] == [0]
    assert [p["dynasty"] for p in view["players"]] == ["archer", "bull", "pot", "lion"]
    for player in view["players"]:
        assert player.keys() >= PLAYER_KEYS
        assert player["leaders_in_supply"] == ["black", "red", "blue", "green"]
        assert player["points"] is None and player["treasures"] is None
        assert player["hand_size"] == 6 and player["catastrophes"] == 2
    assert view["scoring"] == "hidden"


def test_conflict_and_last_action_in_view():
    state = position(
        {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"},
        hands=[["red", "blue"], ["red"]],
    )
    play(state, "leader farmer I4")
    view = ENGINE.public_view(state)
    assert view["conflict"].keys() >= CONFLICT_KEYS
    assert view["conflict"]["kind"] == "revolt" and view["conflict"]["colour"] == "blue"
    assert view["last_action"] == {"seat": 0, "squares": ["I4"], "notation": "leader farmer I4"}
    assert view["turn"]["phase"] == "revolt_support"
    json.dumps(view)


def test_a_swap_is_public_only_as_a_count():
    state = position(hands=[["red", "red", "blue"], []])
    play(state, "swap red blue")
    assert ENGINE.public_view(state)["last_action"]["notation"] == "swap 2"


def test_open_scoring_shows_points_and_treasures():
    state = position(
        {"G5": "red", "G4": "trader:1"},
        hands=[["green"], []],
        scoring="open",
        treasures=[0, 3],
    )
    play(state, "tile green H5")
    players = ENGINE.public_view(state)["players"]
    assert players[1]["points"] == {"red": 0, "blue": 0, "green": 1, "black": 0}
    assert players[1]["treasures"] == 3


def test_private_view():
    state = ENGINE.new_game(2, {}, 3)
    view = ENGINE.private_view(state, 1)
    assert view["game"] == "tigris" and view["seat"] == 1 and view["dynasty"] == "bull"
    assert len(view["hand"]) == 6 and set(view["hand"]) <= set(COLOURS)
    assert view["hand"] == sorted(view["hand"], key=COLOURS.index)
    assert view["points"] == dict.fromkeys(COLOURS, 0) and view["treasures"] == 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    actions=st.integers(0, 60),
    data=st.data(),
)
def test_public_view_ignores_hidden_information(seed, actions, data):
    state = played(seed, actions)
    before = ENGINE.public_view(state)
    colour = st.sampled_from(COLOURS)
    for player in state.players:
        player.hand = sorted(
            data.draw(st.lists(colour, min_size=len(player.hand), max_size=len(player.hand))),
            key=COLOURS.index,
        )
        player.points = {c: data.draw(st.integers(0, 50)) for c in COLOURS}
        player.treasures = data.draw(st.integers(0, 10))
    state.bag = data.draw(st.permutations(state.bag))
    assert ENGINE.public_view(state) == before


def test_public_view_is_json_through_a_game():
    state = played(11, 150, seats=4, scoring="open")
    json.dumps(ENGINE.public_view(state))
    for seat in range(4):
        json.dumps(ENGINE.private_view(state, seat))
