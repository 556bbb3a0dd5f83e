"""The Tigris & Euphrates computer player: honest, legal, and sensible where it is clear.

Honesty: at positions reached by seeded random play (2, 3, 4 players, hidden
and open scoring), changing only what the deciding seat cannot see (a tile
moved between another hand and the bag, the bag reshuffled, the seed) must
not change its decision at any level. A brain whose sampler peeks is caught
by the same check. The other players' points are not among these, even under
hidden scoring: every point is scored by a public action (a tile next to a
leader, a conflict's outcome, a monument, a treasure), so a player who follows
the public log knows them all — which
:func:`test_every_point_is_scored_by_a_public_action` checks by replaying each
game's actions with every hand and the bag dealt differently.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import RuleError
from bot.games.computer import RANDOM, Budget, decide
from bot.games.tigris import ENGINE
from bot.games.tigris.actions import Action, PlaceLeader, PlaceTile, Support, Swap
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


#: the frozen strong player of before (a control: the scenarios tell it apart)
BASELINE = TigrisBrain(ENGINE).baseline()

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
    for other in range(3):  # points and treasures: scored by public actions (module doc)
        assert world.players[other].points == state.players[other].points
        assert world.players[other].treasures == state.players[other].treasures


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_point_is_scored_by_a_public_action(seats: int) -> None:
    """Replaying a game's actions (all public) on a twin whose hands and bag are dealt
    at random before every step — keeping only what that step needs — gives every
    player the same points after every step: the points are a function of the public
    log, so the computer may keep them under hidden scoring."""
    rng = random.Random(seats)
    for seed in range(3):
        state = ENGINE.new_game(seats, {}, 50 + seed)
        twin = ENGINE.new_game(seats, {}, 900 + seed)
        twin.board = state.board.copy()
        scored = 0
        for _ in range(220):
            if ENGINE.result(state) is not None:
                break
            (seat,) = ENGINE.waiting_for(state)
            assert ENGINE.waiting_for(twin) == {seat}
            action = rng.choice(ENGINE.legal_actions(state, seat))
            for player, real in zip(twin.players, state.players, strict=True):
                player.hand = _dealt_like(real.hand, rng)
            twin.players[seat].hand = _with(twin.players[seat].hand, _needed(state, action))
            rng.shuffle(twin.bag)
            ENGINE.apply(state, seat, action)
            ENGINE.apply(twin, seat, action)
            assert [p.points for p in twin.players] == [p.points for p in state.players]
            assert [p.treasures for p in twin.players] == [p.treasures for p in state.players]
            scored += sum(sum(p.points.values()) for p in state.players)
        assert scored, "no point was scored: the replay proved nothing"


def _dealt_like(hand: list[str], rng: random.Random) -> list[str]:
    """A hand of the same size, dealt at random."""
    return sorted((rng.choice(COLOURS) for _ in hand), key=COLOURS.index)


def _needed(state: GameState, action: Action) -> list[str]:
    """The tiles ``action`` takes from hand (a tile, a swap, a conflict's support)."""
    if isinstance(action, PlaceTile):
        return [action.colour]
    if isinstance(action, Swap):
        return list(action.tiles)
    if isinstance(action, Support) and action.count:
        assert state.conflict is not None
        return [state.conflict.support_colour] * action.count
    return []


def _with(hand: list[str], needed: list[str]) -> list[str]:
    """``hand`` changed as little as possible to hold ``needed`` (size kept)."""
    rest = list(hand)
    for colour in needed:
        if colour in rest:
            rest.remove(colour)
        else:
            rest.pop()
    return sorted([*needed, *rest], key=COLOURS.index)


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
    # black tile): the kings clash and seat 0, the stronger side, wins the war in its
    # turn (the starting temples keep the game going, so the war is worth it).
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
        start=True,
    )
    joins: list[Action] = []
    while state.active == 0:
        (seat,) = ENGINE.waiting_for(state)
        for action in strong(state):
            if isinstance(action, PlaceTile) and action.square in (sq("G5"), sq("G6")):
                joins.append(action)
            ENGINE.apply(state, seat, action)
    assert joins
    assert state.board.leader_square(1, "black") is None
    assert state.players[0].points["black"] == 2


def _revolt_board(hand: list[str], rival: list[str], *temples: str) -> GameState:
    """Seat 1's priest on H6 (next to the temple H5, and to G6 if listed) in a kingdom
    that reaches I6; seat 0 may revolt from I5 (temples H5, J5) or J6 (J5, and J7 if
    listed)."""
    squares = {"H5": "red", "H6": "priest:1", "I6": "black", "J5": "red"}
    squares.update({"E3": "red", "E4": "king:1"} | dict.fromkeys(temples, "red"))
    return position(squares, hands=[hand, rival], start=True)


def test_a_revolt_it_starts_with_reds_in_hand_is_fought_with_them() -> None:
    """The priest placed on J6 (1 temple) attacks H6 (2): with three reds against a
    one-tile hand, all three win for sure (two lose to a red); the frozen baseline, whose
    look-ahead read the sampled hand, committed two."""
    short = 0
    for seed in range(4):
        state = _revolt_board(["red", "red", "red", "blue", "green", "black"], ["green"], "G6")
        ENGINE.apply(state, 0, PlaceLeader("red", sq("J6")))
        assert state.phase == "revolt_support"
        assert decide(TigrisBrain(ENGINE), state, 0, "strong", seed) == (Support(3),)
        short += decide(BASELINE, state, 0, "strong", seed) != (Support(3),)
    assert short, "the control: the position no longer tells the two apart"


def _placements_of_a_turn(brain: TigrisBrain, state: GameState, seed: int) -> list[Action]:
    """The leader placements seat 0 makes in its turn (both seats played by ``brain``)."""
    placed: list[Action] = []
    for step in range(12):
        if state.active != 0:
            break
        (seat,) = ENGINE.waiting_for(state)
        for action in decide(brain, state, seat, "strong", seed * 100 + step):
            if seat == 0 and isinstance(action, PlaceLeader):
                placed.append(action)
            ENGINE.apply(state, seat, action)
    return placed


def test_a_lost_revolt_is_not_started_again_from_the_same_square() -> None:
    """Four reds against a full hand: if the priest revolts and loses, the turn's second
    action does not place it on the same square again (an action wasted, a red point
    handed over). The frozen baseline did, in these very positions."""
    hand, rival = ["red"] * 4 + ["blue", "green"], ["red", "red", "red", "green", "blue", "black"]
    repeats = {"strong": 0, "baseline": 0}
    for name, brain in (("strong", TigrisBrain(ENGINE)), ("baseline", BASELINE)):
        for temples in ((), ("G6", "J7")):
            for seed in range(2):
                placed = _placements_of_a_turn(brain, _revolt_board(hand, rival, *temples), seed)
                repeats[name] += len(placed) - len(set(placed))
    assert repeats["strong"] == 0
    assert repeats["baseline"] > 0, "the control: the positions no longer tell the two apart"
