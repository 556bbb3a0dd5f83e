"""Random play: hundreds of complete games with invariants after every action.

Each game is replayed from its seed and move log, its state round-trips
through JSON, refused actions leave the state untouched, and every action's
notation reads back. Every event key is in the English catalog.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.games.base import RuleError
from bot.games.tigris import ENGINE, PlaceCatastrophe, PlaceLeader, PlaceTile, WithdrawLeader
from bot.games.tigris.board import NEIGHBOURS, RIVER, square_name
from bot.games.tigris.components import BLUE, COLOURS, TOTAL_TILES, TREASURE_COUNT
from bot.games.tigris.kingdoms import Regions
from bot.i18n import Text, has_key

GAMES = 240
CHUNKS = 8
MAX_ACTIONS = 1500
SEEN: Counter[str] = Counter()


def check_invariants(state, previous_points) -> None:
    board = state.board
    assert state.tiles_in_play() == TOTAL_TILES
    assert len(board.treasures) + sum(p.treasures for p in state.players) == TREASURE_COUNT
    for player, before in zip(state.players, previous_points, strict=True):
        assert all(player.points[c] >= before[c] for c in COLOURS)
        assert len(player.hand) <= 6
        assert 0 <= player.catastrophes <= 2
    assert not (set(board.tiles) & set(board.leaders))
    assert not (set(board.tiles) & board.catastrophes)
    assert not (set(board.leaders) & board.catastrophes)
    assert board.treasures <= set(board.tiles)
    assert board.flipped <= set(board.tiles)
    assert all((colour == BLUE) == (sq in RIVER) for sq, colour in board.tiles.items())
    assert not set(board.leaders) & RIVER
    per_seat = Counter((leader.seat, leader.colour) for leader in board.leaders.values())
    assert max(per_seat.values(), default=1) == 1
    if state.phase in ("action", "over"):
        assert state.conflict is None and not state.wars and board.unification is None
        regions = Regions(board)
        for region in regions.kingdoms():
            colours = [board.leaders[sq].colour for sq in regions.leaders[region]]
            assert len(colours) == len(set(colours)), "two leaders of a colour in a kingdom"
        for sq in board.leaders:
            assert any(board.is_temple(nb) for nb in NEIGHBOURS[sq])
    if state.phase == "over":
        assert ENGINE.waiting_for(state) == set()
    else:
        assert len(ENGINE.waiting_for(state)) == 1


def event_keys(event) -> list[str]:
    found = [event.key]
    found += [value.key for value in event.params.values() if isinstance(value, Text)]
    return found


def refused_leaves_state(state, seat, action) -> None:
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, action)
    assert ENGINE.dump_state(state) == before


def try_illegal(state, rng, seat) -> None:
    """Throw a few refused actions at the state; none may change it."""
    board = state.board
    others = [s for s in range(state.seats) if s != seat]
    legal = ENGINE.legal_actions(state, seat)
    refused_leaves_state(state, rng.choice(others), rng.choice(legal))
    if state.phase == "action":
        if board.tiles:
            occupied = rng.choice(sorted(board.tiles))
            refused_leaves_state(state, seat, PlaceTile(rng.choice(COLOURS), occupied))
        refused_leaves_state(state, seat, ENGINE.parse_action("tile red E1"))
        refused_leaves_state(state, seat, ENGINE.parse_action("support 1"))
    else:
        refused_leaves_state(state, seat, ENGINE.parse_action("pass"))


def play_game(seed: int, seats: int) -> None:
    rng = random.Random(seed * 7919 + seats)
    state = ENGINE.new_game(seats, {"scoring": rng.choice(["hidden", "open"])}, seed)
    options = {"scoring": state.scoring}
    log: list[str] = []
    check_invariants(state, [p.points for p in state.players])
    for step in range(MAX_ACTIONS):
        waiting = ENGINE.waiting_for(state)
        if not waiting:
            break
        (seat,) = waiting
        legal = ENGINE.legal_actions(state, seat)
        assert legal, f"no legal action in phase {state.phase}"
        SEEN[state.phase] += 1
        if step % 15 == 0:
            for action in legal:
                assert ENGINE.parse_action(str(action)) == action
            try_illegal(state, rng, seat)
        action = rng.choice(legal)
        text = str(action)
        assert ENGINE.parse_action(text) == action
        previous = [dict(p.points) for p in state.players]
        events = ENGINE.apply(state, seat, action)
        log.append(text)
        for event in events:
            SEEN[event.key] += 1
            for key in event_keys(event):
                assert has_key(key), key
            if event.private_to is None and state.scoring == "hidden":
                assert event.key != "tigris.event.scored"
        check_invariants(state, previous)
        if step % 40 == 0:
            dumped = ENGINE.dump_state(state)
            assert ENGINE.dump_state(ENGINE.load_state(json.loads(json.dumps(dumped)))) == dumped
            assert ENGINE.load_state(dumped) == state
    else:
        pytest.fail(f"game {seed} did not end within {MAX_ACTIONS} actions")

    result = ENGINE.result(state)
    assert result is not None
    assert sorted(result.ranking) == list(range(seats))
    assert min(result.places.values()) == 1
    for seat_, (key, params) in result.details.items():
        assert has_key(key)
        assert params["weakest"] == result.scores[seat_]

    replay = ENGINE.new_game(seats, options, seed)
    for text in log:
        (seat,) = ENGINE.waiting_for(replay)
        ENGINE.apply(replay, seat, ENGINE.parse_action(text))
    assert ENGINE.dump_state(replay) == ENGINE.dump_state(state)
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state


@pytest.mark.slow_except("0")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(chunk):
    for game in range(chunk, GAMES, CHUNKS):
        play_game(seed=1000 + game, seats=2 + game % 3)


@pytest.mark.slow
def test_random_games_reach_every_phase():
    """Plays its own games so it does not depend on test order."""
    SEEN.clear()
    for game in range(40):
        play_game(seed=50_000 + game, seats=2 + game % 3)
    for phase in ("revolt_support", "war_support", "war_order", "treasure", "monument"):
        assert SEEN[phase], f"random play never reached {phase}"
    for key in (
        "tigris.event.war_won",
        "tigris.event.revolt_won",
        "tigris.event.monument_built",
        "tigris.event.treasures_taken",
        "tigris.event.catastrophe_destroys",
        "tigris.event.leader_moved",
        "tigris.event.leader_withdrawn",
        "tigris.event.swapped",
        "tigris.event.catastrophe",
        "tigris.event.monument_declined",
        "tigris.event.pass",
        "tigris.event.war_chosen",
        "tigris.event.war_over",
        "tigris.event.game_over.bag",
    ):
        assert SEEN[key], f"random play never produced {key}"


def test_same_seed_same_bag():
    a = ENGINE.new_game(3, {}, 42)
    b = ENGINE.new_game(3, {}, 42)
    c = ENGINE.new_game(3, {}, 43)
    assert ENGINE.dump_state(a) == ENGINE.dump_state(b)
    assert a.bag != c.bag
    assert [len(p.hand) for p in a.players] == [6, 6, 6]
    assert sorted(a.bag + [t for p in a.players for t in p.hand]) == sorted(
        ["red"] * 47 + ["blue"] * 36 + ["green"] * 30 + ["black"] * 30
    )
    assert square_name(min(a.board.treasures)) == "K1"


def test_every_legal_action_met_round_trips():
    seen = set()
    for game in range(12):
        state = ENGINE.new_game(2 + game % 3, {}, 70_000 + game)
        rng = random.Random(game)
        while waiting := ENGINE.waiting_for(state):
            (seat,) = waiting
            legal = ENGINE.legal_actions(state, seat)
            seen.update(legal)
            ENGINE.apply(state, seat, rng.choice(legal))
    assert len(seen) > 1000
    for action in seen:
        assert ENGINE.parse_action(str(action)) == action


def test_legal_actions_are_exactly_the_accepted_placements():
    """In random positions, a placement is accepted by apply iff it is listed."""
    checked = 0
    for game in range(4):
        state = ENGINE.new_game(2 + game % 3, {}, 90_000 + game)
        rng = random.Random(game)
        step = 0
        while waiting := ENGINE.waiting_for(state):
            (seat,) = waiting
            legal = ENGINE.legal_actions(state, seat)
            if state.phase == "action" and step % 25 == 0:
                universe = [PlaceTile(c, s) for c in COLOURS for s in range(176)]
                universe += [PlaceLeader(c, s) for c in COLOURS for s in range(176)]
                universe += [PlaceCatastrophe(s) for s in range(176)]
                universe += [WithdrawLeader(c) for c in COLOURS]
                listed = set(legal)
                for action in universe:
                    trial = state.copy()
                    try:
                        ENGINE.apply(trial, seat, action)
                        accepted = True
                    except RuleError:
                        accepted = False
                    assert accepted == (action in listed), str(action)
                checked += 1
            ENGINE.apply(state, seat, rng.choice(legal))
            step += 1
    assert checked >= 10
