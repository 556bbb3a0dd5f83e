"""The Tigris & Euphrates computer player: honest, legal, and sensible where it is clear.

Honesty: at positions reached by seeded random play (2, 3, 4 players, hidden
and open scoring), changing only what the deciding seat cannot see (a tile
moved between another hand and the bag, the bag reshuffled, the seed, other
players' points under hidden scoring) must not change its decision at any
level. A brain whose sampler peeks is caught by the same check.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import RuleError
from bot.games.computer import RANDOM, Budget, decide
from bot.games.tigris import ENGINE
from bot.games.tigris.actions import Action, PlaceLeader, PlaceTile, Support
from bot.games.tigris.components import COLOURS
from bot.games.tigris.computer import TigrisBrain
from bot.games.tigris.state import GameState
from tests.games.tigris.tigris_positions import position, sq

#: a small strong budget for tests, through the same search
SMALL = Budget(worlds=2, candidates=3, depth=2, temperature=0.0)


class SmallBrain(TigrisBrain):
    """The real brain with a small strong budget (tests stay quick)."""

    def budget(self, level: str) -> Budget:
        return SMALL if level == "strong" else super().budget(level)


class PeekingBrain(SmallBrain):
    """A dishonest brain: its "sample" is the real state (other hands, bag, points)."""

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        return state.copy()


MODES = [(seats, scoring) for seats in (2, 3, 4) for scoring in ("hidden", "open")]


def random_position(seats: int, scoring: str, seed: int, steps: int) -> GameState:
    """The position after ``steps`` random legal steps of a game dealt with ``seed``."""
    state = ENGINE.new_game(seats, {"scoring": scoring}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if ENGINE.result(state) is not None:
            break
        (seat,) = ENGINE.waiting_for(state)
        legal = ENGINE.legal_actions(state, seat)
        # Mostly tiles and leaders, so positions have kingdoms and conflicts.
        building = [a for a in legal if isinstance(a, PlaceTile | PlaceLeader)]
        pool = building if building and rng.random() < 0.85 else legal
        ENGINE.apply(state, seat, rng.choice(pool))
    return state


def positions() -> list[GameState]:
    found = []
    for index, (seats, scoring) in enumerate(MODES):
        for steps in (6, 40, 90):
            state = random_position(seats, scoring, 100 + index * 7 + steps, steps)
            if ENGINE.result(state) is None:
                found.append(state)
    return found


def hide_differently(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy that differs from ``state`` only in what ``seat`` cannot see."""
    other = state.copy()
    others = [s for s in range(other.seats) if s != seat and other.players[s].hand]
    for s in others:  # move tiles between another hand and the bag
        hand = other.players[s].hand
        for index in range(len(hand)):
            swap = next((i for i, c in enumerate(other.bag) if c != hand[index]), None)
            if swap is not None and rng.random() < 0.7:
                hand[index], other.bag[swap] = other.bag[swap], hand[index]
        other.players[s].hand = sorted(hand, key=COLOURS.index)
    rng.shuffle(other.bag)
    other.seed = state.seed + 12345
    if state.scoring != "open":
        for s in range(other.seats):
            if s != seat:
                other.players[s].points = {c: rng.randrange(30) for c in COLOURS}
    return other


def differing(brain: TigrisBrain, levels: tuple[str, ...]) -> list[str]:
    """Positions and levels where hidden information changed the decision."""
    rng = random.Random(7)
    found = []
    for state in positions():
        (seat,) = ENGINE.waiting_for(state)
        other = hide_differently(state, seat, rng)
        assert other.players[seat] == state.players[seat]
        for level in levels:
            for seed in (1, 2):
                mine = decide(brain, state, seat, level, seed)
                theirs = decide(brain, other, seat, level, seed)
                if mine != theirs:
                    found.append(f"{state.seats}p {state.scoring} {level}: {mine} / {theirs}")
    return found


def test_positions_cover_every_mode() -> None:
    found = positions()
    assert {(s.seats, s.scoring) for s in found} == set(MODES)
    assert any(s.phase != "action" or s.board.leaders for s in found)


def test_decisions_ignore_what_the_seat_cannot_see() -> None:
    assert differing(SmallBrain(ENGINE), ("easy", "strong")) == []


def test_a_peeking_brain_is_caught() -> None:
    assert differing(PeekingBrain(ENGINE), ("easy", "strong"))


def test_sample_deals_only_unseen_tiles_and_keeps_sizes() -> None:
    state = random_position(3, "hidden", 5, 50)
    (seat,) = ENGINE.waiting_for(state)
    world = TigrisBrain(ENGINE).sample(state, seat, random.Random(3))
    assert world.players[seat] == state.players[seat]
    assert world.board == state.board
    assert [len(p.hand) for p in world.players] == [len(p.hand) for p in state.players]
    assert len(world.bag) == len(state.bag)
    for other in range(3):
        if other != seat:  # hidden scoring: the others' points are an estimate
            assert world.players[other].points == state.players[seat].points
            assert world.players[other].treasures == state.players[other].treasures


def test_open_scoring_keeps_the_points() -> None:
    state = random_position(2, "open", 9, 60)
    (seat,) = ENGINE.waiting_for(state)
    world = TigrisBrain(ENGINE).sample(state, seat, random.Random(3))
    assert [p.points for p in world.players] == [p.points for p in state.players]


# --- legality ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(2, 4),
    scoring=st.sampled_from(["hidden", "open"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    decision_seed=st.integers(0, 1000),
)
def test_every_plan_step_is_legal(
    seats: int, scoring: str, seed: int, steps: int, decision_seed: int
) -> None:
    state = random_position(seats, scoring, seed, steps)
    if ENGINE.result(state) is not None:
        return
    brain = SmallBrain(ENGINE)
    (seat,) = ENGINE.waiting_for(state)
    for level in ("easy", "strong", RANDOM):
        plan = decide(brain, state, seat, level, decision_seed)
        assert plan, level
        work = state.copy()
        for action in plan:
            if seat not in ENGINE.waiting_for(work):
                break
            try:
                ENGINE.apply(work, seat, action)
            except RuleError as error:  # pragma: no cover - the failure being tested
                pytest.fail(f"{level} plan step {action} refused: {error.key}")


def test_brain_plays_whole_games_in_every_player_count() -> None:
    brain = SmallBrain(ENGINE)
    for seats in (2, 3, 4):
        state = ENGINE.new_game(seats, {}, seats)
        rng = random.Random(seats)
        for _ in range(60):
            (seat,) = ENGINE.waiting_for(state)
            plan = decide(brain, state, seat, "easy", rng.randrange(1000))
            for action in plan:
                ENGINE.apply(state, seat, action)
        assert any(leader.seat == 0 for leader in state.board.leaders.values())


# --- scenarios ----------------------------------------------------------------------------


def strong(state: GameState) -> tuple[Action, ...]:
    (seat,) = ENGINE.waiting_for(state)
    return decide(TigrisBrain(ENGINE), state, seat, "strong", 1)


def test_scores_its_weakest_colour() -> None:
    # Seat 0's priest and king rule a kingdom; red is its weakest colour by far.
    state = position(
        {"F3": "red", "F4": "priest:0", "G3": "black", "G4": "king:0", "H3": "green"},
        hands=[["red", "black", "green"], ["black"] * 6],
        points=[{"red": 0, "blue": 4, "green": 5, "black": 5}, {}],
    )
    (action,) = strong(state)
    assert isinstance(action, PlaceTile) and action.colour == "red"
    ENGINE.apply(state, 0, action)
    assert state.players[0].points["red"] == 1


def test_defends_a_revolt_with_just_enough_temples() -> None:
    # Seat 1's priest (2 temples) is attacked by seat 0's priest (2 temples) + 1
    # red committed: seat 1 needs exactly one red to hold (ties go to the defender).
    state = position(
        {"H5": "red", "G6": "red", "H6": "priest:1", "I6": "black", "J5": "red", "J7": "red"},
        hands=[["red", "black"], ["red", "red", "red", "green"]],
    )
    ENGINE.apply(state, 0, PlaceLeader("red", sq("J6")))
    assert state.phase == "revolt_support"
    ENGINE.apply(state, 0, Support(1))
    assert strong(state) == (Support(1),)


def test_takes_a_trader_spot_with_treasures() -> None:
    # Two treasure temples in one leaderless region: a trader next to them takes one.
    state = position(
        {"F5": "red*", "F6": "red", "F7": "red*", "K10": "red*", "K9": "king:1", "C10": "red*"},
        hands=[["black"] * 6, ["black"] * 6],
        points=[{"red": 1, "blue": 1, "green": 1, "black": 1}, {}],
    )
    # Its turn (two actions, and the treasure choice if one comes) takes a treasure.
    while state.active == 0:
        for action in strong(state):
            ENGINE.apply(state, 0, action)
    assert state.players[0].treasures == 1
    assert any(leader == (0, "green") for leader in state.board.leaders.values())


def test_starts_a_war_it_wins() -> None:
    # A tile on G5 or G6 joins seat 0's kingdom (3 black tiles) and seat 1's (1
    # black tile): the kings clash and seat 0, the stronger side, wins the war.
    state = position(
        {
            "C6": "black",
            "D6": "black",
            "E6": "black",
            "F5": "red",
            "F6": "king:0",
            "H5": "red",
            "H6": "king:1",
            "I6": "black",
        },
        hands=[["green", "black", "black", "red"], ["red"] * 6],
    )
    (action,) = strong(state)
    assert isinstance(action, PlaceTile) and action.square in (sq("G5"), sq("G6"))
    ENGINE.apply(state, 0, action)
    while state.phase == "war_support":
        (seat,) = ENGINE.waiting_for(state)
        ENGINE.apply(state, seat, strong(state)[0])
    assert state.board.leader_square(1, "black") is None
    assert state.players[0].points["black"] == 2
