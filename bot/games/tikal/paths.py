"""Movement: crossing costs and the cheapest way between two hexes.

Crossing the edge between two laid hexes costs the stones on both sides of
it added together; with no stone on either side there is no crossing, and a
volcano is never entered or crossed, even where stones point at it. A
player's figures also use the secret passages between that player's camps
and the base camp, 1 AP each.

Decisions:

* A ``move`` names a figure's start and end; it is charged the cheapest
  sequence of steps (crossings and the mover's own secret passages) and is
  refused whole, with its cost, when the AP left cannot pay it.
* Several figures may share a hex and any hex but a volcano may be crossed:
  other players' figures, camps and guards never block.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from bot.games.tikal.board import ADJACENT, Space, opposite
from bot.games.tikal.components import COST_PASSAGE, VOLCANO
from bot.games.tikal.state import BASE_CAMP, GameState


def crossing_cost(state: GameState, space: Space, direction: int, neighbour: Space) -> int:
    """AP to cross from ``space`` to ``neighbour`` over edge ``direction``; 0 = no crossing."""
    here = state.hexes.get(space)
    there = state.hexes.get(neighbour)
    if here is None or there is None or here.kind == VOLCANO or there.kind == VOLCANO:
        return 0
    return here.stones[direction] + there.stones[opposite(direction)]


def passage_ends(state: GameState, seat: int) -> set[Space]:
    """The base camp and ``seat``'s camps: the ends of its secret passages."""
    ends = {BASE_CAMP}
    ends.update(space for space, hex_ in state.hexes.items() if hex_.camp == seat)
    return ends


def costs_from(
    state: GameState, seat: int, origin: Space | Mapping[Space, int], limit: int | None = None
) -> dict[Space, int]:
    """The cheapest cost from ``origin`` to every hex ``seat``'s figure can reach
    (``origin`` itself at 0), leaving out hexes dearer than ``limit``. ``origin`` may
    be several hexes, each with the cost of starting there (the cheapest start wins)."""
    ends = passage_ends(state, seat)
    best: dict[Space, int] = dict(origin) if isinstance(origin, Mapping) else {origin: 0}
    heap = [(cost, space) for space, cost in best.items()]
    heapq.heapify(heap)
    while heap:
        cost, space = heapq.heappop(heap)
        if cost > best.get(space, cost):
            continue
        steps = [
            (d_cost, nb)
            for d, nb in ADJACENT[space]
            if (d_cost := crossing_cost(state, space, d, nb)) > 0
        ]
        if space in ends:
            steps.extend((COST_PASSAGE, end) for end in ends if end != space)
        for step, nb in steps:
            total = cost + step
            if limit is not None and total > limit:
                continue
            if total < best.get(nb, total + 1):
                best[nb] = total
                heapq.heappush(heap, (total, nb))
    return best


def path_cost(state: GameState, seat: int, origin: Space, target: Space) -> int | None:
    """The cheapest cost of ``seat``'s figure from ``origin`` to ``target``; None if unreachable."""
    return costs_from(state, seat, origin).get(target)
