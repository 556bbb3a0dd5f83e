"""Laying hexes: where the hex in hand may go, and in which rotations.

A hex goes on an empty usable space next to a laid hex, in any of the six
rotations, so that at least one shared edge with a **non-volcano** hex has a
stone on at least one of its two sides; a volcano needs none.

Decisions:

* When no empty space and rotation meets that condition, the hex goes on any
  empty usable space next to a laid hex, in any rotation (it may then be
  unreachable); it is never skipped or redrawn, so volcanoes come when the
  stack says (``docs/rules/tikal.md#placement``).
* A volcano's rotation is accepted and recorded like any other (it has no
  stones, so it changes nothing).
"""

from __future__ import annotations

from bot.games.base import RuleError
from bot.games.tikal.actions import Place
from bot.games.tikal.board import (
    ADJACENT,
    ROTATIONS,
    Space,
    opposite,
    parse_space,
    rotate,
    space_name,
)
from bot.games.tikal.components import MODES, TILES, VOLCANO
from bot.games.tikal.state import PHASE_PLACE, GameState


def usable(state: GameState, space: Space) -> bool:
    """Whether the mode's board area includes ``space``."""
    area = MODES[state.mode].area
    return area is None or space in _area(state.mode)


def _area(mode: str) -> frozenset[Space]:
    cached = _AREAS.get(mode)
    if cached is None:
        area = MODES[mode].area or ()
        cached = _AREAS[mode] = frozenset(parse_space(name) for name in area)
    return cached


_AREAS: dict[str, frozenset[Space]] = {}


def frontier(state: GameState) -> list[Space]:
    """Empty usable spaces next to a laid hex, in name order."""
    found = {
        nb
        for space in state.hexes
        for _, nb in ADJACENT[space]
        if nb not in state.hexes and usable(state, nb)
    }
    return sorted(found)


def links(state: GameState, tile_id: str, space: Space, rotation: int) -> bool:
    """Whether ``tile_id`` laid so shares an edge with a non-volcano hex that has a
    stone on at least one side (always true for a volcano)."""
    spec = TILES[tile_id]
    if spec.kind == VOLCANO:
        return True
    stones = rotate(spec.stones, rotation)
    for d, nb in ADJACENT[space]:
        other = state.hexes.get(nb)
        if other is not None and other.kind != VOLCANO and stones[d] + other.stones[opposite(d)]:
            return True
    return False


def placements(state: GameState, tile_id: str) -> list[tuple[Space, int]]:
    """Every legal (space, rotation) for ``tile_id``, falling back to any
    rotation on any frontier space when none links by a stone."""
    spaces = frontier(state)
    linked = [(s, r) for s in spaces for r in ROTATIONS if links(state, tile_id, s, r)]
    return linked or [(s, r) for s in spaces for r in ROTATIONS]


def check_place(state: GameState, action: Place) -> str:
    """The tile to lay, if ``action`` may lay it."""
    if state.phase != PHASE_PLACE:
        raise RuleError(f"tikal.error.phase.{state.phase}")
    tile_id = state.in_hand
    assert tile_id is not None
    space = action.space
    if not usable(state, space):
        raise RuleError("tikal.error.unusable", space=space_name(space))
    if space in state.hexes:
        raise RuleError("tikal.error.occupied", space=space_name(space))
    if not any(nb in state.hexes for _, nb in ADJACENT[space]):
        raise RuleError("tikal.error.not_adjacent", space=space_name(space))
    if not links(state, tile_id, space, action.rotation) and any(
        links(state, tile_id, s, r) for s in frontier(state) for r in ROTATIONS
    ):
        raise RuleError(
            "tikal.error.no_stone_link", space=space_name(space), rotation=action.rotation
        )
    return tile_id
