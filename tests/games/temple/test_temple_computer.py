"""Temple Rush's computer player: honest, legal, and taking the clear move.

Positions come from seeded play (``tests/support/temple_play.py``) in every
mode (2, 3 and 4 players; the joint option with 3 and 4). The strong level
runs with a small budget through the same search (only ``budget`` differs).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from temple_helpers import build, game

from bot.games.computer import RANDOM, Budget, decide
from bot.games.temple import ENGINE, GameState, Joint, Lightning, Place, Skip, race
from bot.games.temple.actions import Bag, Bonus, Hammer, Pass
from bot.games.temple.cards import temple_cards
from bot.games.temple.components import HAMMER
from bot.games.temple.computer import RACE_DELAY, TempleBrain, copy_state
from bot.games.temple.engine import deadline_seconds
from bot.games.temple.state import PHASE_BONUS, PHASE_RACE, Submission
from bot.i18n import t
from bot.service.seeds import seat_seed
from tests.support.temple_play import play

MODES: list[tuple[int, dict[str, str]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (3, {"joint": "on"}),
    (4, {"joint": "on"}),
]
SMALL = Budget(worlds=2, candidates=3, depth=2, temperature=0.0)


class SmallBrain(TempleBrain):
    """The real brain with a test-sized strong budget."""

    def budget(self, level: str) -> Budget:
        return SMALL if level == "strong" else super().budget(level)


class PeekingBrain(SmallBrain):
    """A dishonest brain: its "sample" is the real state (deck, seed, sealed moves)."""

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        return copy_state(state)


BRAIN = SmallBrain(ENGINE)


def position(seats: int, options: dict[str, str], seed: int, steps: int) -> GameState:
    state, _ = play(seats, seed, options, stop=lambda s, n: n >= steps)
    return state


def positions() -> Iterator[tuple[GameState, int]]:
    """Running positions of every mode, each with an awaited seat."""
    for index, (seats, options) in enumerate(MODES):
        for steps in (3, 40, 120):
            state = position(seats, options, 100 + index, steps)
            waiting = sorted(ENGINE.waiting_for(state))
            if waiting:
                yield state, waiting[-1]


def _seen(state: GameState) -> set[str]:
    seen = {c for c in (*state.slots, *state.last_shown, *state.discarded) if c is not None}
    for player in state.players:
        seen.update(player.won)
    return seen | set(state.deck[:1]) | ({state.race_card} if state.race_card else set())


def hidden_variants(state: GameState, seat: int, rng: random.Random) -> list[GameState]:
    """Copies of ``state`` that differ only in what ``seat`` cannot see."""
    variants: list[GameState] = []
    shuffled = copy_state(state)
    rest = shuffled.deck[1:]
    rng.shuffle(rest)
    shuffled.deck[1:] = rest
    variants.append(shuffled)
    outside = sorted(c.id for c in temple_cards() if c.id not in _seen(state) | set(state.deck))
    swapped = copy_state(state)
    hidden = [i for i, c in enumerate(swapped.deck) if i > 0 and c != "lightning"]
    if outside and hidden:
        swapped.deck[rng.choice(hidden)] = rng.choice(outside)
        variants.append(swapped)
    reseeded = copy_state(state)
    reseeded.seed += 1 + rng.randrange(10**6)
    variants.append(reseeded)
    for other in range(state.seats):
        if other == seat or state.phase != "round":
            continue
        sealed = copy_state(state)
        sub = sealed.submission(other)
        if sub.complete():  # another complete move in place of the one sealed
            sealed.submissions.pop(other)
            before = Pass() if sub.passed else sub.brick
            choices = [
                a for a in ENGINE.legal_actions(sealed, other) if isinstance(a, Place | Pass)
            ]
            choices = [a for a in choices if a != before]
            if not choices:
                continue
            sealed.submissions[other] = Submission()
            sealed.submissions[other].add(rng.choice(choices))
        elif HAMMER in sealed.players[other].tokens and not sub.hammer:
            sealed.submissions.setdefault(other, Submission()).add(Hammer())
        else:
            continue
        assert sealed.submission(other).complete() == sub.complete()
        variants.append(sealed)
    everything = copy_state(variants[-1])
    everything.deck[1:] = variants[0].deck[1:]
    everything.seed = reseeded.seed
    variants.append(everything)
    return variants


def mismatches(brain: TempleBrain) -> list[str]:
    """Decisions that changed with hidden information (should be none)."""
    rng = random.Random(5)
    found: list[str] = []
    for state, seat in positions():
        for level in ("easy", "strong"):
            expected = decide(brain, state, seat, level, 11)
            for variant in hidden_variants(state, seat, rng):
                got = decide(brain, variant, seat, level, 11)
                if got != expected:
                    found.append(f"{level} {state.phase} r{state.round}: {expected} != {got}")
    return found


def test_a_decision_depends_only_on_what_the_seat_sees() -> None:
    assert mismatches(BRAIN) == []


def test_the_honesty_check_catches_a_peeking_brain() -> None:
    assert mismatches(PeekingBrain(ENGINE))


def test_a_sample_is_the_same_for_states_that_differ_only_in_hidden_things() -> None:
    rng = random.Random(9)
    for state, seat in positions():
        expected = ENGINE.dump_state(BRAIN.sample(state, seat, random.Random(3)))
        for variant in hidden_variants(state, seat, rng):
            assert ENGINE.dump_state(BRAIN.sample(variant, seat, random.Random(3))) == expected
        world = BRAIN.sample(state, seat, random.Random(3))
        assert world.deck[:1] == state.deck[:1] and len(world.deck) == len(state.deck)
        sealed = {s for s, sub in state.submissions.items() if s == seat or sub.complete()}
        assert set(world.submissions) == sealed  # who sealed is public, what is sampled
        assert all(world.submissions[s].complete() for s in sealed if s != seat)
        assert ENGINE.dump_state(BRAIN.copy(state)) == ENGINE.dump_state(state)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 250),
    level=st.sampled_from(["easy", "strong", RANDOM]),
)
@example(mode=(4, {}), seed=51, steps=52, level="easy")  # the last seal opens the bonus phase
def test_every_step_of_a_plan_is_legal(
    mode: tuple[int, dict[str, str]], seed: int, steps: int, level: str
) -> None:
    seats, options = mode
    state = position(seats, options, seed, steps)
    for seat in sorted(ENGINE.waiting_for(state)):
        plan = decide(BRAIN, state, seat, level, seed)
        assert plan, (level, state.phase)
        child = copy_state(state)
        for step in plan:
            assert seat in ENGINE.waiting_for(child), (plan, step)
            ENGINE.apply(child, seat, step)  # a refusal fails the test
        if state.phase == "round" and level != RANDOM:  # a plan is a whole sealed move
            # sealed: the seat is no longer awaited in this round (the last seal may open
            # the round's next phase, where it is awaited again)
            sealed = (child.phase, child.round) != ("round", state.round)
            assert seat not in ENGINE.waiting_for(child) or sealed


# --------------------------------------------------------------------------- scenarios


def test_strong_completes_a_temple_it_can_finish_now() -> None:
    state = game(slots=("hut", "gate"), dice=["2", "2"])
    build(state, 0, 0, "4:A1")
    build(state, 1, 1, "4:A2")
    plan = decide(TempleBrain(ENGINE), state, 0, "strong", 1)
    assert plan == (Place(0, (1, 1), 2),)


def test_strong_plays_hammer_when_the_die_cannot_finish_the_temple() -> None:
    state = game(slots=("hut", "gate"), dice=["4", "4"])
    build(state, 0, 0, "4:A1")
    state.players[0].supply[4] = 0
    state.players[0].supply[2] = 1
    plan = decide(TempleBrain(ENGINE), state, 0, "strong", 1)
    assert plan == (Hammer(), Place(0, (1, 1), 2))


def test_strong_borrows_with_the_bag_to_complete_a_temple() -> None:
    state = game(slots=("hut", "twin"), dice=["3", "3"])
    build(state, 0, 0, "4:A1")  # B2 and C2 missing; no 1 or 2 left, no hammer
    state.players[0].supply[1] = state.players[0].supply[2] = 0
    state.players[0].tokens.remove(HAMMER)
    build(state, 1, 1, "4:A1", "1:A2", "1:B2")  # its top two: two 1s
    plan = decide(TempleBrain(ENGINE), state, 0, "strong", 1)
    bag = plan[0]
    assert isinstance(bag, Bag) and (bag.player, bag.from_area, bag.area) == (1, 1, 0), plan
    assert {bag.top_cell, bag.next_cell} == {(1, 1), (2, 1)}, plan  # either order fits
    for step in plan:
        ENGINE.apply(state, 0, step)
    ENGINE.apply(state, 1, Pass())
    assert state.players[0].won == ["hut"]


def test_strong_enters_a_lightning_layout_from_its_supply() -> None:
    state = game(slots=("hut", "gate"), deck=("lightning", "dais"))
    race.start_race(state, [])
    assert state.phase == PHASE_RACE
    plan = decide(TempleBrain(ENGINE), state, 0, "strong", 1)
    assert len(plan) == 1 and isinstance(plan[0], Lightning)
    ENGINE.apply(state, 0, plan[0])
    assert "lightning" in state.players[0].won


def test_a_seat_without_a_layout_skips_the_race() -> None:
    state = game(slots=("hut", "gate"), deck=("lightning", "dais"))
    race.start_race(state, [])
    state.players[1].supply = {1: 0, 2: 0, 3: 0, 4: 0}
    assert decide(TempleBrain(ENGINE), state, 1, "strong", 1) == (Skip(),)


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_race_delay_is_drawn_per_level_and_only_in_a_race(level: str) -> None:
    brain = TempleBrain(ENGINE)
    state = game(slots=("hut", "gate"), deck=("lightning", "dais"))
    rng = random.Random(1)
    assert brain.answer_delay(state, 0, level, rng) == 0.0
    race.start_race(state, [])
    low, high = RACE_DELAY[level]
    delays = [brain.answer_delay(state, 0, level, rng) for _ in range(50)]
    assert all(low <= d <= high for d in delays) and len(set(delays)) > 1
    assert brain.answer_delay(state, 0, RANDOM, rng) == 0.0
    state.deadline = "1h"
    assert max(delays) < deadline_seconds("1h")


def test_the_engine_offers_its_computer_player() -> None:
    brain = ENGINE.computer()
    assert isinstance(brain, TempleBrain) and brain.engine is ENGINE


def test_the_help_states_the_race_delays() -> None:
    text = t("en", ENGINE.help_key)
    strong_low, strong_high = RACE_DELAY["strong"]
    easy_low, easy_high = RACE_DELAY["easy"]
    assert f"strong: {strong_low:.0f}–{strong_high:.0f} s" in text
    assert f"easy: {easy_low / 60:.0f}–{easy_high / 60:.0f} min" in text


def test_strong_accepts_a_joint_offer_when_alone_it_cannot_finish_the_last_card() -> None:
    state = game(seats=3, slots=("mastaba",), deck=(), dice=["2", "1", "1"], joint=True)
    build(state, 0, 0, "4:A1")
    state.players[0].supply = {1: 0, 2: 1, 3: 0, 4: 0}  # too few bricks alone
    build(state, 1, 0, "4:C2")  # together: E1 and A2 left, two 2s
    ENGINE.apply(state, 1, Joint(0))
    plan = decide(TempleBrain(ENGINE), state, 0, "strong", 1)
    assert plan[0] == Joint(1), plan


#: the frozen strong player of before (a control: the scenarios tell it apart)
BASELINE = TempleBrain(ENGINE).baseline()


def test_strong_builds_towards_a_card_bigger_than_its_supply() -> None:
    """The palace (26 cells) is more than the supply holds (22 studs: 10 are in the
    tower build), but the tower's bricks come back when it completes: the rolled 3 goes
    into the palace. The frozen baseline valued the palace at nothing and passed."""

    def position() -> GameState:
        state = game(slots=("palace", "tower"), deck=("keep", "dais", "shrine"), dice=["3", "3"])
        build(state, 0, 1, "4:A1", "2:E1", "4:B2")  # the tower still needs two 2s
        state.players[0].tokens.remove(HAMMER)
        return state

    for seed in range(3):
        (step,) = decide(TempleBrain(ENGINE), position(), 0, "strong", seed)
        assert isinstance(step, Place) and step.area == 0 and step.length == 3, step
        assert decide(BASELINE, position(), 0, "strong", seed) == (Pass(),)


def test_strong_keeps_the_bonus_brick_it_needs_least() -> None:
    """Its last 4 is in the temple just completed; the deck's top card (the palace) and
    the seven cards still to come need long bricks: it keeps the 3 as its bonus, not
    the 4 the baseline always kept."""

    def position() -> GameState:
        deck = ("palace", "citadel", "sanctum", "keep", "cathedral", "sun_temple", "fan", "arch")
        state = game(slots=("hut", "tower"), deck=deck)
        player = state.players[0]
        player.supply, player.bonus = {4: 0, 3: 2, 2: 3, 1: 3}, [4, 4]
        player.pending_bonus, player.won = {0: [4, 3]}, ["gate"]
        state.phase = PHASE_BONUS
        return state

    for seed in range(3):
        assert decide(TempleBrain(ENGINE), position(), 0, "strong", seed) == (Bonus(0, 3),)
        assert decide(BASELINE, position(), 0, "strong", seed) == (Bonus(0, 4),)


def _ids_seed(game_id: int, version: int, seat: int) -> int:
    """The seed a decision had before seats held secrets: from ids every button carries
    (what a player reading the source would compute)."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def test_a_sealed_move_cannot_be_computed_before_the_reveal() -> None:
    """Seat 1 (a member reading the source) knows the public view, its own view and the
    ids its buttons carry. Before each round it has not sealed yet, it rebuilds the
    position with its own sampler and runs the project's search for seat 0 (strong)
    with the ids' seed. Had seat 0 decided with that seed (as before issue 28), every
    sealed move would be computed in advance; deciding with its secret's seed, seat 0
    is guessed in no more rounds than a second secret agrees with it (chance among its
    near-equal plans)."""
    brain = TempleBrain(ENGINE)
    secret, other_secret = 0x5EC12E7, 0xC0FFEE
    rng = random.Random(4)
    state = ENGINE.new_game(2, {}, 4)
    rounds = before = reproduced = chance = 0
    for version in range(400):
        if rounds >= 12 or ENGINE.result(state) is not None:
            break
        seat = min(ENGINE.waiting_for(state))  # seat 0 first when both are awaited
        if seat == 0 and state.phase == "round" and 1 not in state.submissions:
            ids = _ids_seed(7, version, 0)
            known = brain.sample(state, 1, random.Random(version))  # what seat 1 knows
            guess = decide(brain, known, 0, "strong", ids)
            before += decide(brain, state, 0, "strong", ids) == guess
            plan = decide(brain, state, 0, "strong", seat_seed(secret, "decide", str(version)))
            second = seat_seed(other_secret, "decide", str(version))
            reproduced += guess == plan
            chance += decide(brain, state, 0, "strong", second) == plan
            rounds += 1
        else:
            plan = decide(brain, state, seat, "easy", rng.getrandbits(32))
        for step in plan:
            if seat not in ENGINE.waiting_for(state):
                break
            ENGINE.apply(state, seat, step)
    assert rounds == 12
    assert before == rounds  # the ids alone gave the sealed move away
    assert chance < rounds, "strong never chose among near-equal plans here"
    assert reproduced <= chance + 3 and reproduced < rounds


def test_the_race_delay_cannot_be_computed_from_the_ids() -> None:
    """The lightning race's delay drawn with the seat's secret is never the one the ids'
    seed gives (to the millisecond)."""
    brain = TempleBrain(ENGINE)
    state = game(slots=("hut", "gate"), deck=("lightning", "dais"))
    race.start_race(state, [])
    for version in range(40):
        real = brain.answer_delay(
            state, 0, "strong", random.Random(seat_seed(0x5EC12E7, "delay", str(version)))
        )
        guessed = brain.answer_delay(state, 0, "strong", random.Random(_ids_seed(7, version, 0)))
        assert round(real * 1000) != round(guessed * 1000)
