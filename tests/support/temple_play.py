"""A seeded random player for Temple Rush, shared by the tests, the renderer
samples and the benchmark.

It only ever plays an action from ``ENGINE.legal_actions``. With probability
``skill`` it prefers a brick of a layout it plans for one area (the solver
with the area's bricks fixed, from its supply and its other builds), which
finishes temples the way a player would; otherwise it picks a kind of action
at random, then an action of that kind (so the hundreds of legal swaps do not
drown the rest). In a race it tries its solver layout now and then, or skips.
``skill=0`` is pure random legal play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from bot.games.base import RuleError
from bot.games.temple import ENGINE, GameState, Lightning, Move, Place, Skip
from bot.games.temple.actions import Action
from bot.games.temple.geometry import Brick, Cell
from bot.games.temple.solver import Counts, counts_of, find_layout


@lru_cache(maxsize=20000)
def _layout(
    silhouette: frozenset[Cell], counts: Counts, fixed: tuple[Brick, ...], mortar: bool
) -> tuple[Brick, ...] | None:
    return find_layout(
        silhouette, counts, fixed=fixed, gaps=1 if mortar else 0, max_pieces=2 if mortar else 1
    )


@dataclass
class Player:
    """A deterministic (seeded) random player for every seat of one game."""

    rng: random.Random
    skill: float = 0.9
    race_try: float = 0.3
    plans: dict[int, tuple[int, str | None, frozenset[Brick]]] = field(default_factory=dict)

    def _movable(self, game: GameState, seat: int, area: int) -> Counter[int]:
        player = game.players[seat]
        counts = Counter(player.supply)
        for other, build in enumerate(player.builds):
            if other != area:
                counts.update(laid.brick.length for laid in build)
        return counts

    def _plan(self, game: GameState, seat: int) -> tuple[int, frozenset[Brick]] | None:
        player = game.players[seat]
        known = self.plans.get(seat)
        if known is not None:
            area, card_id, layout = known
            own = frozenset(player.bricks(area))
            if area < len(game.slots) and game.slots[area] == card_id and own <= layout:
                need = Counter(b.length for b in layout - own)
                have = self._movable(game, seat, area)
                if all(have[k] >= n for k, n in need.items()):
                    return area, layout - own
        best: tuple[tuple[int, int], int, frozenset[Brick]] | None = None
        for area in game.active_areas():
            own_bricks = tuple(sorted(player.bricks(area)))
            found = _layout(
                game.silhouette(area),
                counts_of(self._movable(game, seat, area)),
                own_bricks,
                player.mortar_area == area,
            )
            if found is not None:
                key = (len(found) - len(own_bricks), area)
                if best is None or key < best[0]:
                    best = (key, area, frozenset(found))
        if best is None:
            self.plans.pop(seat, None)
            return None
        _, area, layout = best
        self.plans[seat] = (area, game.slots[area], layout)
        return area, layout - frozenset(player.bricks(area))

    def _adapt(self, game: GameState, seat: int, area: int, legal: list[Action]) -> Action | None:
        """The die fits no planned brick: try a few other places in the planned
        area after which the temple can still be finished, and plan anew."""
        player = game.players[seat]
        own = tuple(sorted(player.bricks(area)))
        places = [a for a in legal if isinstance(a, Place) and a.area == area]
        self.rng.shuffle(places)
        for action in places[:6]:
            brick = self._laid(game, seat, action)
            if brick is None:
                continue
            counts = self._movable(game, seat, area)
            counts[brick.length] -= 1
            found = _layout(
                game.silhouette(area),
                counts_of(counts),
                tuple(sorted((*own, brick))),
                player.mortar_area == area,
            )
            if found is not None:
                self.plans[seat] = (area, game.slots[area], frozenset(found))
                return action
        return None

    def _laid(self, game: GameState, seat: int, action: Place | Move) -> Brick | None:
        if isinstance(action, Place):
            return None if action.length is None else Brick(action.length, *action.cell)
        for brick in game.players[seat].bricks(action.from_area):
            if brick.covers(action.from_cell):
                return Brick(brick.length, *action.cell)
        return None

    def quick(self, game: GameState, seat: int) -> Action | None:
        """A planned brick the die allows, without listing every legal action
        (``play`` applies it, and falls back to :meth:`choose` if refused)."""
        if game.phase != "round" or self.rng.random() >= self.skill:
            return None
        plan = self._plan(game, seat)
        if plan is None:
            return None
        area, wanted = plan
        face, supply = game.dice[seat], game.players[seat].supply
        options = [
            b for b in wanted if (face == "star" or face == str(b.length)) and supply[b.length]
        ]
        if not options:
            return None
        brick = self.rng.choice(sorted(options))
        return Place(area, (brick.x, brick.y), brick.length)

    def choose(self, game: GameState, seat: int) -> Action:
        rng = self.rng
        legal = ENGINE.legal_actions(game, seat)
        if game.phase == "round":
            if rng.random() < self.skill:
                plan = self._plan(game, seat)
                if plan is not None:
                    area, wanted = plan
                    good = [
                        a
                        for a in legal
                        if isinstance(a, Place | Move)
                        and a.area == area
                        and self._laid(game, seat, a) in wanted
                    ]
                    if good:
                        return rng.choice(good)
                    adapted = self._adapt(game, seat, area, legal)
                    if adapted is not None:
                        return adapted
            kinds: dict[str, list[Action]] = {}
            for action in legal:
                kind = "brick" if isinstance(action, Place | Move) else type(action).__name__
                kinds.setdefault(kind, []).append(action)
            return rng.choice(kinds[rng.choice(sorted(kinds))])
        if game.phase == "race":
            layouts = [a for a in legal if isinstance(a, Lightning)]
            if layouts and rng.random() < self.race_try:
                return layouts[0]
            return Skip() if rng.random() < 0.25 else rng.choice(legal)
        return rng.choice(legal)


Step = tuple[int, Action]


def play(
    seats: int,
    seed: int,
    options: dict[str, str] | None = None,
    *,
    skill: float = 0.9,
    quick: bool = True,
    stop: Callable[[GameState, int], bool] | None = None,
    each: Callable[[GameState, int, Action], None] | None = None,
) -> tuple[GameState, list[Step]]:
    """Play a game (to its end, or until ``stop(state, steps)``); returns the
    state and the move log. ``each`` is called after every step. ``quick``:
    try a planned brick before listing the legal actions (a refused try
    changes nothing); off, every decision lists the legal actions."""
    rng = random.Random(seed)
    player = Player(rng, skill)
    game = ENGINE.new_game(seats, options or {}, seed)
    log: list[Step] = []
    while ENGINE.result(game) is None:
        if stop is not None and stop(game, len(log)):
            break
        seat = rng.choice(sorted(ENGINE.waiting_for(game)))
        action = player.quick(game, seat) if quick else None
        if action is not None:
            try:
                ENGINE.apply(game, seat, action)
            except RuleError:
                action = None
        if action is None:
            action = player.choose(game, seat)
            ENGINE.apply(game, seat, action)
        log.append((seat, action))
        if each is not None:
            each(game, seat, action)
    return game, log
