"""The card set (data in ``cards.json``) and the setup that deals it."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.games.temple import ENGINE
from bot.games.temple.cards import card, lightning_card, temple_cards
from bot.games.temple.components import BRICKS, DECK_SIZE, FACE_UP, MAX_HEIGHT, MAX_WIDTH
from bot.games.temple.geometry import Brick, covered, matches, pieces
from bot.games.temple.solver import counts_of, fewest_bricks, find_layout

FULL = counts_of(BRICKS)
ALL_CARDS = [*temple_cards(), lightning_card()]


def test_the_set_has_about_31_temple_cards_and_one_lightning_card() -> None:
    assert 29 <= len(temple_cards()) <= 33
    ids = [c.id for c in ALL_CARDS]
    assert len(ids) == len(set(ids))
    assert lightning_card().lightning and lightning_card().value == 3
    assert not any(c.lightning for c in temple_cards())


@pytest.mark.parametrize("found", ALL_CARDS, ids=lambda c: c.id)
def test_every_card_fits_the_grid_and_is_built_from_one_full_supply(found) -> None:
    assert 1 <= found.width <= MAX_WIDTH and 1 <= found.height <= MAX_HEIGHT
    assert all(set(row) <= {"#", "."} for row in found.rows)
    layout = find_layout(found.cells, FULL)
    assert layout is not None, f"{found.id} cannot be built from a full supply"
    # checked independently of the solver: exact silhouette, one piece, the supply suffices
    assert covered(layout) == set(found.cells)
    assert len(pieces(layout)) == 1
    assert matches(list(layout), found.cells, mortar=False)
    used = Counter(b.length for b in layout)
    assert all(used[k] <= BRICKS[k] for k in used)


def test_values_grow_with_the_bricks_a_card_needs() -> None:
    needs = {c.id: fewest_bricks(c.cells, FULL) for c in temple_cards()}
    for a, b in itertools.permutations(temple_cards(), 2):
        if needs[a.id] < needs[b.id]:
            assert a.value <= b.value, (a.id, b.id)
        if needs[a.id] + 2 <= needs[b.id]:
            assert a.value < b.value, (a.id, b.id)
    assert min(c.value for c in temple_cards()) < max(c.value for c in temple_cards())
    # the documented rule: half the fewest bricks, rounded up
    assert all(c.value == -(-needs[c.id] // 2) for c in temple_cards())


def _brute_force(cells: frozenset, counts: tuple[int, int, int, int], gaps: int, most: int) -> bool:
    """Every way to cover ``cells`` row by row, connection checked at the end."""
    order = sorted(cells, key=lambda c: (c[1], c[0]))

    def go(i: int, taken: set, placed: list, left: list, gaps_left: int) -> bool:
        while i < len(order) and order[i] in taken:
            i += 1
        if i == len(order):
            return bool(placed) and len(pieces(placed)) <= most
        x, y = order[i]
        for length in range(1, 5):
            brick = Brick(length, x, y)
            spots = set(brick.cells())
            if left[length - 1] and spots <= cells and not spots & taken:
                left[length - 1] -= 1
                if go(i + 1, taken | spots, [*placed, brick], left, gaps_left):
                    return True
                left[length - 1] += 1
        return gaps_left > 0 and go(i + 1, taken | {(x, y)}, placed, left, gaps_left - 1)

    return go(0, set(), [], list(counts), gaps)


def test_the_solver_agrees_with_brute_force_on_random_silhouettes() -> None:
    rng = random.Random(3)
    for _ in range(250):
        width, height = rng.randint(2, 5), rng.randint(1, 4)
        cells = frozenset((x, y) for x in range(width) for y in range(height) if rng.random() < 0.7)
        if not cells:
            continue
        counts = tuple(rng.randint(0, 3) for _ in range(4))
        for gaps, most in ((0, 1), (1, 2)):
            found = find_layout(cells, counts, gaps=gaps, max_pieces=most)
            assert (found is not None) == _brute_force(cells, counts, gaps, most), (
                sorted(cells),
                counts,
                gaps,
            )
            if found is not None:
                assert len(set(cells) - (covered(found) or set())) <= gaps


def test_fixed_bricks_are_kept_in_a_found_layout() -> None:
    cells = card("ziggurat").cells
    fixed = (Brick(3, 0, 0),)
    found = find_layout(cells, FULL, fixed=fixed)
    assert found is not None and fixed[0] in found and matches(list(found), cells, False)
    # two single bricks at the ends of the ground row can never join the rest
    assert find_layout(cells, FULL, fixed=(Brick(1, 0, 0), Brick(1, 5, 0))) is None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_deck_sizes_and_face_up_cards_by_player_count(seats: int) -> None:
    for seed in range(20):
        state = ENGINE.new_game(seats, {}, seed)
        in_play = [s for s in state.slots if s is not None] + list(state.deck)
        if state.race_card is not None:
            in_play.append(state.race_card)
        temples = [c for c in in_play if not card(c).lightning]
        assert len(temples) == DECK_SIZE[seats]
        assert len(set(temples)) == len(temples)
        assert len(state.slots) == FACE_UP[seats] == (3 if seats == 4 else 2)
        assert not any(card(c).lightning for c in state.slots if c is not None)
        assert sum(card(c).lightning for c in in_play) == 1
        view = ENGINE.public_view(state)
        top = state.deck[0] if state.deck else None
        assert (view["deck"]["top"] or {}).get("id") == top
        assert view["deck"]["count"] == len(state.deck)


def test_the_lightning_card_lies_anywhere_below_the_face_up_cards() -> None:
    positions = Counter()
    for seed in range(300):
        state = ENGINE.new_game(2, {}, seed)
        if state.race_card is not None:
            positions[0] += 1  # it was on top: the race runs before round 1
        else:
            positions[state.deck.index("lightning") + 1] += 1
    assert positions[0] > 0 and len(positions) >= 6


def test_setup_is_a_function_of_the_seed() -> None:
    a, b = ENGINE.new_game(3, {}, 99), ENGINE.new_game(3, {}, 99)
    assert ENGINE.dump_state(a) == ENGINE.dump_state(b)
    assert ENGINE.dump_state(ENGINE.new_game(3, {}, 100)) != ENGINE.dump_state(a)
