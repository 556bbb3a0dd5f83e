"""Random play: hundreds of complete games with invariants after every step.

Games are played by the seeded player of ``tests/support/temple_play.py``
(only ever legal actions; ``skill=0`` is uniform random play). After every
step: each player's 13 bricks are all somewhere (supply, builds, bonus,
pending bonus), every card is somewhere (face up, deck, race, won, set
aside), builds are legal, the game waits for someone until it is over.
Sampled along the way: listed actions are accepted, a place not listed is
refused, refused actions change nothing, the public view does not depend on
what a seat sealed. Each game is replayed from its seed and move log.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.base import RuleError
from bot.games.temple import ENGINE, GameState, Place
from bot.games.temple.actions import Action
from bot.games.temple.cards import card
from bot.games.temple.components import BRICKS, LENGTHS
from bot.games.temple.geometry import covered, inside, is_valid_build
from tests.support.temple_play import play

CHUNKS = 8
GAMES_PER_CHUNK = 26  # 208 games
MAX_STEPS = 20_000
ENDS: Counter[str] = Counter()


def bricks_of(state: GameState, seat: int) -> Counter[int]:
    player = state.players[seat]
    counts: Counter[int] = Counter()
    for length, n in player.supply.items():
        assert n >= 0
        counts[length] += n
    for build in player.builds:
        counts.update(laid.brick.length for laid in build)
    counts.update(player.bonus)
    for lengths in player.pending_bonus.values():
        counts.update(lengths)
    return counts


def check_invariants(state: GameState, cards: Counter[str], builds: bool = True) -> None:
    for seat in range(state.seats):
        assert bricks_of(state, seat) == Counter(BRICKS), seat
    where: Counter[str] = Counter(c for c in state.slots if c is not None)
    where.update(state.deck)
    where.update(state.discarded)
    if state.race_card is not None:
        where[state.race_card] += 1
    for player in state.players:
        where.update(player.won)
    assert where == cards
    assert len(state.ages) == len(state.slots)
    pair_area = state.joint_area()
    for area in range(len(state.players[0].builds) if builds else 0):
        found = state.card_at(area)
        for seat, player in enumerate(state.players):
            bricks = player.bricks(area)
            if found is None:  # a completed card's slot is refilled after bonus and race
                assert not bricks or state.phase in ("bonus", "race"), (area, seat)
                continue
            if pair_area == area and state.joint_pair and seat in state.joint_pair:
                continue
            assert is_valid_build(bricks, found.cells, player.mortar_area == area), (area, seat)
        if pair_area == area and state.joint_pair and found is not None:
            a, b = state.joint_pair
            union = [*state.players[a].bricks(area), *state.players[b].bricks(area)]
            assert covered(union) is not None and all(inside(b, found.cells) for b in union)
    waiting = ENGINE.waiting_for(state)
    if state.phase == "over":
        assert not waiting and ENGINE.result(state) is not None
    else:
        assert waiting and ENGINE.result(state) is None
        assert all(ENGINE.may_act(state, seat) for seat in waiting)
        assert len(ENGINE.deadlines(state)) == 1


def refused_changes_nothing(state: GameState, seat: int, action: Action) -> bool:
    """Apply on a copy; a refusal must leave the copy as it was. True if refused."""
    before = ENGINE.dump_state(state)
    copy = ENGINE.load_state(before)
    try:
        ENGINE.apply(copy, seat, action)
    except RuleError:
        assert ENGINE.dump_state(copy) == before
        return True
    return False


def random_action(rng: random.Random, state: GameState) -> Action:
    """A random, often illegal action (right words, random values)."""
    area, length = rng.randrange(3) + 1, rng.choice(LENGTHS)
    cell = f"{'ABCDEFGH'[rng.randrange(8)]}{rng.randrange(6) + 1}"
    other = f"{'ABCDEFGH'[rng.randrange(8)]}{rng.randrange(6) + 1}"
    text = rng.choice(
        [
            f"place {area} {cell} {length}",
            f"place {area} {cell}",
            f"swap {area} {cell} {length} {other}",
            f"move {area} {cell} {rng.randrange(3) + 1} {other}",
            f"mortar {area}",
            f"bag {rng.randrange(4) + 1} {area} {rng.randrange(3) + 1} {cell} {other}",
            f"relay {area} {length}:{cell}",
            f"bonus {area} {length}",
            f"lightning {length}:{cell} 2:{other}",
            f"joint {rng.randrange(4) + 1}",
            "skip",
            "hammer",
            "cancel relay",
        ]
    )
    return ENGINE.parse_action(text)


def sample_checks(rng: random.Random, state: GameState, step: int) -> None:
    seats = range(state.seats)
    for _ in range(2):  # refusals leave the state untouched
        refused_changes_nothing(state, rng.randrange(state.seats + 1), random_action(rng, state))
    for seat in rng.sample(list(seats), 1):  # listed actions are accepted
        legal = ENGINE.legal_actions(state, seat)
        for action in rng.sample(legal, min(3, len(legal))):
            assert not refused_changes_nothing(state, seat, action), action
    if state.phase == "round" and step % 7 == 0:
        seat = rng.randrange(state.seats)
        legal = ENGINE.legal_actions(state, seat)
        base = ENGINE.public_view(state)
        others = [a for a in legal if not isinstance(a, Place)][:3] + legal[:2]
        for action in others:  # the public view does not depend on a sealed move
            copy = ENGINE.load_state(ENGINE.dump_state(state))
            try:
                ENGINE.apply(copy, seat, action)
            except RuleError:
                continue
            if copy.phase != "round" or copy.round != state.round:
                continue  # that move completed the round: the reveal is public
            view = ENGINE.public_view(copy)
            view["submitted"], view["waiting_for"] = base["submitted"], base["waiting_for"]
            assert view == base, action
    if state.phase == "round" and step % 53 == 0:  # every place not listed is refused
        seat = rng.randrange(state.seats)
        listed = {a for a in ENGINE.legal_actions(state, seat) if isinstance(a, Place)}
        for area in state.active_areas():
            found = card(str(state.slots[area]))
            for x in range(found.width):
                for y in range(found.height):
                    for length in LENGTHS:
                        action = Place(area, (x, y), length)
                        accepted = not refused_changes_nothing(state, seat, action)
                        assert accepted == (action in listed), action


def run_game(seed: int) -> None:
    rng = random.Random(seed * 7919)
    seats = 2 + seed % 3
    options = {"joint": "on"} if seats > 2 and seed % 2 else {}
    skill = 0.0 if seed % 9 == 0 else 0.9
    start = ENGINE.new_game(seats, options, seed)
    cards: Counter[str] = Counter(c for c in start.slots if c is not None)
    cards.update(start.deck)
    cards.update(start.discarded)
    if start.race_card:
        cards[start.race_card] += 1

    steps = 0

    def each(state: GameState, seat: int, action: Action) -> None:
        nonlocal steps
        steps += 1
        check_invariants(state, cards, builds=steps % 3 == 0 or state.phase == "over")
        if rng.random() < 0.05:
            sample_checks(rng, state, steps)

    final, log = play(
        seats, seed, options, skill=skill, each=each, stop=lambda state, steps: steps >= MAX_STEPS
    )
    assert final.phase == "over", f"seed {seed} did not end in {MAX_STEPS} steps"
    ENDS[str(final.end_reason)] += 1
    replay = ENGINE.new_game(seats, options, seed)
    for seat, action in log:
        ENGINE.apply(replay, seat, ENGINE.parse_action(str(action)))
    assert ENGINE.dump_state(replay) == ENGINE.dump_state(final)
    assert ENGINE.load_state(ENGINE.dump_state(final)) == final


@pytest.mark.slow_except("6")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant_and_end(chunk: int) -> None:
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        run_game(seed)


def test_most_random_games_end_when_the_cards_run_out() -> None:
    """Not idle: the temple cards run out, won or set aside. Until the end reasons
    were told apart, a last card set aside also counted as "complete"; measured
    since (seeds 0-59): 27 won, 31 set aside after AGE_LIMIT rounds, 2 unbuildable."""
    if sum(ENDS.values()) < CHUNKS * GAMES_PER_CHUNK:
        for seed in range(1000, 1030):
            run_game(seed)
    total = sum(ENDS.values())
    assert ENDS["complete"] + ENDS["dead"] + ENDS["expired"] >= 0.8 * total, ENDS
    assert ENDS["complete"] >= 0.3 * total, ENDS
