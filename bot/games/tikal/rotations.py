"""The hex in hand on one space, in each rotation that makes a difference.

The move picker offers a hex's placement as the space first, then the
rotation beside a picture of the hex in each distinct rotation on that
space with the laid hexes around it (``renderer/tikal_hex.py`` draws it).

Decisions:

* Two rotations that turn the hex's stones to the same edges are the same
  step (a volcano has no stones: all six are one): :func:`representative`
  names the lowest such rotation, the one the picker offers.
* The picture's view holds, for each distinct legal rotation on the space,
  its stones by edge (``n`` first, clockwise) and the neighbours it links to
  (a shared edge with a stone on either side, a volcano linking nothing),
  and the laid neighbours with the stones on their edges: what a renderer
  needs, no rule re-derived.
"""

from __future__ import annotations

from typing import Any

from bot.games.tikal.actions import Action, Place
from bot.games.tikal.board import ADJACENT, DIRECTIONS, Space, opposite, rotate, space_name
from bot.games.tikal.components import TILES, VOLCANO
from bot.games.tikal.placement import placements
from bot.games.tikal.state import GameState
from bot.games.tikal.views import tile_view


def representative(state: GameState, action: Action) -> Action:
    """A placement as the lowest rotation turning the stones the same way."""
    if not isinstance(action, Place) or state.in_hand is None:
        return action
    stones = TILES[state.in_hand].stones
    turned = rotate(stones, action.rotation)
    first = min(r for r in range(6) if rotate(stones, r) == turned)
    return Place(action.space, first) if first != action.rotation else action


def links(state: GameState, space: Space, stones: tuple[int, ...]) -> list[str]:
    """The laid neighbours of ``space`` a hex with ``stones`` would link to."""
    return [
        space_name(nb)
        for d, nb in ADJACENT[space]
        if (other := state.hexes.get(nb)) is not None
        and other.kind != VOLCANO
        and stones[d] + other.stones[opposite(d)]
    ]


def picture(state: GameState, space: Space) -> dict[str, Any] | None:
    """The view of the hex in hand on ``space`` in each distinct legal rotation."""
    tile = state.in_hand
    if tile is None:
        return None
    spec = TILES[tile]
    legal = sorted({r for s, r in placements(state, tile) if s == space})
    distinct: dict[tuple[int, ...], int] = {}
    for rotation in legal:
        distinct.setdefault(rotate(spec.stones, rotation), rotation)
    if not distinct:
        return None
    neighbours = []
    for direction, nb in ADJACENT[space]:
        laid = state.hexes.get(nb)
        if laid is None:
            continue
        neighbours.append(
            {
                "direction": DIRECTIONS[direction],
                "space": space_name(nb),
                "kind": laid.kind,
                "stones": list(laid.stones),
                "value": laid.value or None,
            }
        )
    return {
        "game": "tikal",
        "space": space_name(space),
        "tile": tile_view(tile),
        "rotations": [
            {
                "rotation": rotation,
                "stones": list(stones),
                "links": links(state, space, stones) if spec.kind != VOLCANO else [],
            }
            for stones, rotation in distinct.items()
        ],
        "neighbours": neighbours,
    }
