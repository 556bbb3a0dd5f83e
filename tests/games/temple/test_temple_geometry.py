"""Bricks on a grid: matching, connection, the Mortar, fitting to a new card."""

from __future__ import annotations

from bot.games.temple.actions import parse_brick
from bot.games.temple.cards import card
from bot.games.temple.geometry import (
    Brick,
    covered,
    fit,
    is_valid_build,
    matches,
    pieces,
    top_bricks,
    touching,
)


def layout(*words: str) -> list[Brick]:
    return [parse_brick(w) for w in words]


MASTABA = card("mastaba").cells  # two full rows of six
HUT = card("hut").cells  # .##. over ####


def test_a_brick_covers_its_length_to_the_right_of_its_cell() -> None:
    assert list(Brick(3, 2, 1).cells()) == [(2, 1), (3, 1), (4, 1)]
    assert Brick(3, 2, 1).notation() == "3:C2"
    assert covered(layout("2:A1", "2:B1")) is None  # overlap


def test_side_by_side_bricks_in_one_row_do_not_connect() -> None:
    left, right = Brick(3, 0, 0), Brick(3, 3, 0)
    assert not touching(left, right)
    assert len(pieces([left, right])) == 2
    assert touching(Brick(2, 2, 1), left) and touching(Brick(2, 2, 1), right)
    assert not touching(Brick(1, 3, 1), Brick(3, 0, 0))  # diagonal corner only
    assert not touching(Brick(2, 0, 2), Brick(2, 0, 0))  # two rows apart


def test_matching_is_by_silhouette_whatever_bricks_fill_it() -> None:
    for build in (
        layout("4:A1", "2:E1", "2:A2", "4:C2"),
        layout("2:A1", "4:C1", "4:A2", "2:E2"),
        layout("3:A1", "3:D1", "4:B2", "1:A2", "1:F2"),
    ):
        assert matches(build, MASTABA, mortar=False), build


def test_a_covered_silhouette_in_two_pieces_does_not_match() -> None:
    split = layout("3:A1", "3:D1", "3:A2", "3:D2")  # two towers side by side
    assert covered(split) == set(MASTABA)
    assert len(pieces(split)) == 2
    assert not matches(split, MASTABA, mortar=False)
    assert matches(split, MASTABA, mortar=True)  # a Mortar allows two pieces


def test_a_mortar_allows_one_empty_cell_but_not_two() -> None:
    one_gap = layout("4:A1", "1:F1", "4:A2", "2:E2")  # E1 empty
    assert not matches(one_gap, MASTABA, mortar=False)
    assert matches(one_gap, MASTABA, mortar=True)
    two_gaps = layout("4:A1", "4:A2", "2:E2")
    assert not matches(two_gaps, MASTABA, mortar=True)
    outside = layout("4:A1", "2:E1", "4:A2", "2:E2", "1:A3")
    assert not matches(outside, MASTABA, mortar=True)
    assert not matches([], MASTABA, mortar=True)


def test_a_valid_build_lies_inside_without_overlap_in_one_piece() -> None:
    assert is_valid_build(layout("4:A1", "2:B2"), HUT, mortar=False)
    assert not is_valid_build(layout("4:A1", "2:A2"), HUT, mortar=False)  # A2 outside
    assert not is_valid_build(layout("2:A1", "1:D1"), HUT, mortar=False)  # two pieces
    assert is_valid_build(layout("2:A1", "1:D1"), HUT, mortar=True)
    assert not is_valid_build(layout("1:A1", "1:C1", "1:D1"), HUT, mortar=True)  # three


def test_fitting_returns_bricks_outside_then_keeps_the_largest_piece() -> None:
    old = layout("4:A1", "2:E1", "2:A2", "4:C2", "3:B3")  # built for a taller card
    kept, returned = fit(old, MASTABA, mortar=False)
    assert sorted(b.notation() for b in returned) == ["3:B3"]
    assert sorted(b.notation() for b in kept) == ["2:A2", "2:E1", "4:A1", "4:C2"]
    # E-pair and A-pair do not touch: the bigger piece (16 cells vs 4) stays
    towers = layout("4:A1", "4:A2", "2:E1", "2:E2")
    kept, returned = fit(towers, MASTABA, mortar=False)
    assert sorted(b.notation() for b in kept) == ["4:A1", "4:A2"]
    assert sorted(b.notation() for b in returned) == ["2:E1", "2:E2"]
    kept, returned = fit(towers, MASTABA, mortar=True)  # a Mortar keeps two pieces
    assert len(kept) == 4 and not returned


def test_fitting_breaks_ties_to_the_lowest_then_leftmost_piece() -> None:
    towers = layout("3:A1", "3:A2", "3:D1", "3:D2")
    kept, _ = fit(towers, MASTABA, mortar=False)
    assert sorted(b.notation() for b in kept) == ["3:A1", "3:A2"]


def test_the_top_two_bricks_are_the_highest_then_leftmost() -> None:
    build = layout("4:A1", "2:B2", "1:E2", "1:C3")
    assert [b.notation() for b in top_bricks(build, 2)] == ["1:C3", "2:B2"]
