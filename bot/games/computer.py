"""Computer players: what a game supplies, and the one search every game shares.

A game offers a computer player by returning a :class:`Brain` from
:meth:`~bot.games.base.GameEngine.computer` (the default is None: no computer
player). A brain supplies three things, and the search in :func:`decide` uses
nothing else:

* :meth:`Brain.plans` — the moves worth considering for a seat's current
  decision, each a *plan*: the steps the seat takes in a row (Tikal's 10-AP
  turn as one plan, not every order of its steps; Tigris & Euphrates pruned to
  sensible squares);
* :meth:`Brain.evaluate` — how good a position is for a seat;
* :meth:`Brain.sample` — a copy of the state in which everything the seat has
  not seen (other hands, the bag's order, the draw pile, the future dice,
  other players' sealed moves) is drawn afresh, consistently with what the
  seat has seen (OpenSpiel's ``resample_from_infostate``).

Decisions:

* **Honest by construction.** The search never reads the real state except
  through :meth:`Brain.sample`, whose result must depend only on what the seat
  can see and on the search's own random source: a sampler collects the
  unseen items, puts them in a canonical order (sorted) and deals them with
  ``rng``; it also replaces the state's own seed or random state, since that
  decides future draws. So two states that differ only in what the seat
  cannot see give the same decision for the same seed (the honesty tests).
* **Deterministic, and unreadable.** A decision depends on the state, the
  seat, the level and the seed only; budgets are counted in samples and plans,
  not in time. A time cap (``think``) only stops adding samples early; it is
  a safety net and the arena's ``--think`` for quick runs. The service seeds a
  decision with the seat's secret (:mod:`bot.service.seeds`), never with ids a
  button carries nor the game's seed: nobody can run this search ahead of the
  computer, and honesty stays checkable (the same secret, the same decision,
  whatever the seat cannot see).
* **Levels.** ``easy`` looks one plan ahead in one sampled world and picks by
  a softmax of the plans' values (temperature :attr:`Budget.temperature`), so
  it plays sensibly but makes human mistakes. ``strong`` screens the plans in
  one world (a game may offer it more kinds of plan: :meth:`Brain.plans_at`),
  keeps the best :attr:`Budget.candidates`, then plays each in
  :attr:`Budget.worlds` sampled worlds followed by :attr:`Budget.depth`
  decisions of every awaited seat by the greedy policy
  (:meth:`Brain.rollout_plan`), and takes the best average value: determinized
  search with the game's own evaluation. Plans within
  :attr:`Budget.tolerance` of the best are chosen among at random (from the
  seed), so where several are nearly as good — a simultaneous round above all
  — the move is not a function of the public position. ``random`` (the
  arena's floor) takes a uniformly random legal step, and ``baseline`` (the
  arena's yardstick) is a game's frozen strong player (:meth:`Brain.baseline`);
  neither is offered to players.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.games.errors import RuleError, Seat

if TYPE_CHECKING:
    from bot.games.base import GameEngine

S = TypeVar("S")
A = TypeVar("A")

#: the levels a player may choose for a computer seat, weakest first
LEVELS: tuple[str, ...] = ("easy", "strong")
#: the arena's floor: a uniformly random legal step (never offered to players)
RANDOM = "random"
#: the arena's yardstick: a game's frozen strong player (:meth:`Brain.baseline`;
#: never offered to players)
BASELINE = "baseline"
#: the value of a won game (evaluations of running games stay well inside it)
WIN = 1_000_000.0


@dataclass(frozen=True)
class Budget:
    """How much one decision searches (counted, so a decision is reproducible).

    ``worlds``: sampled worlds each candidate plan is played in (strong);
    ``candidates``: plans kept after the one-world screen (strong);
    ``depth``: decisions of the awaited seats played by the greedy policy after
    a plan, before the position is evaluated (strong);
    ``temperature``: easy's softmax temperature over the plans' values, in
    evaluation units (0: always the best-looking plan);
    ``tolerance``: strong's choice is uniform, from the seed, among the plans whose
    average value is within this many evaluation units of the best (0: the best,
    as the frozen baseline plays);
    ``breadth``: how many more kinds of plan the game offers this level
    (:meth:`Brain.plans_at`; 0: :meth:`Brain.plans` alone).
    """

    worlds: int = 8
    candidates: int = 8
    depth: int = 2
    temperature: float = 1.0
    tolerance: float = 0.0
    breadth: int = 0


Plan = tuple[Any, ...]


class Brain(ABC, Generic[S, A]):
    """What a game supplies for its computer player (see the module docstring)."""

    def __init__(self, engine: GameEngine[S, A]) -> None:
        self.engine = engine

    @abstractmethod
    def plans(self, state: S, seat: Seat) -> list[tuple[A, ...]]:
        """The plans worth considering for ``seat``'s current decision, best guess first.

        Each plan is one or more steps ``seat`` takes in a row, each legal when it
        comes; the search applies a plan's steps while the game still waits for
        ``seat``. Called on sampled worlds only, so it may read anything in
        ``state``. Empty when the seat has no decision.
        """

    def plans_at(self, state: S, seat: Seat, breadth: int) -> list[tuple[A, ...]]:
        """The plans a level of this ``breadth`` (:attr:`Budget.breadth`) considers: a
        game may offer its strong level plans the easy one does not look at. Default:
        :meth:`plans`, whatever the breadth."""
        return self.plans(state, seat)

    @abstractmethod
    def evaluate(self, state: S, seat: Seat) -> float:
        """How good ``state`` is for ``seat``: higher is better, comparable between
        states of one game; a finished game is worth about ±:data:`WIN`
        (:func:`result_value`)."""

    @abstractmethod
    def sample(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A new state (``state`` is untouched) with everything ``seat`` has not seen
        dealt afresh from ``rng``, consistently with what it has seen. The result
        must be the same for two states that differ only in what ``seat`` cannot
        see (sort the unseen items before dealing them; replace the seed)."""

    def copy(self, state: S) -> S:
        """An independent copy of ``state``. Default: through its JSON form."""
        return self.engine.load_state(self.engine.dump_state(state))

    def budget(self, level: str) -> Budget:
        """How much a decision at ``level`` searches (a game tunes it to stay within
        2 s of one core at ``strong``)."""
        if level == "easy":
            return Budget(worlds=1, candidates=0, depth=0, temperature=1.0)
        return Budget()

    def rollout_plan(self, state: S, seat: Seat, rng: random.Random) -> tuple[A, ...] | None:
        """The greedy policy played in the strong search's look-ahead: the plan whose
        resulting position ``seat`` values most. A game may return something cheaper."""
        best: tuple[A, ...] | None = None
        best_value = -math.inf
        for plan in self.plans(state, seat):
            child = self.copy(state)
            if not apply_plan(self.engine, child, seat, plan):
                continue
            value = self.evaluate(child, seat)
            if value > best_value:
                best, best_value = plan, value
        return best

    def reveals(self, action: A) -> bool:
        """Whether ``action``'s outcome is drawn from what the seat cannot see (Tikal's
        recovered treasure): a chosen plan ends after its first run of such steps,
        since the rest was planned for a sampled outcome; the seat then decides
        again, knowing what it drew. The default: no step reveals anything."""
        return False

    def baseline(self) -> Brain[S, A] | None:
        """The game's frozen strong player, which the arena measures this one against
        (played at ``strong``); never offered to players. Default: none."""
        return None

    def answer_delay(self, state: S, seat: Seat, level: str, rng: random.Random) -> float:
        """Seconds a computer seat waits before it answers now, beyond the table's
        short pause (a race a human must be able to win). Default: none."""
        return 0.0


def result_value(engine: GameEngine[Any, Any], state: Any, seat: Seat) -> float | None:
    """A finished game's value for ``seat`` (±:data:`WIN`, shaded by its place), or
    None while the game runs."""
    result = engine.result(state)
    if result is None:
        return None
    place = result.places.get(seat, len(result.ranking))
    if place == 1:
        return WIN
    return -WIN * (place - 1) / max(1, len(result.ranking) - 1)


def apply_plan(engine: GameEngine[S, A], state: S, seat: Seat, plan: Sequence[A]) -> bool:
    """Apply ``plan``'s steps for ``seat`` in place while the game waits for it;
    False when the first step is refused (a later refusal stops the plan)."""
    for index, action in enumerate(plan):
        if engine.result(state) is not None or seat not in engine.waiting_for(state):
            break
        try:
            engine.apply(state, seat, action)
        except RuleError:
            return index > 0
    return True


def decide(
    brain: Brain[S, A],
    state: S,
    seat: Seat,
    level: str,
    seed: int,
    *,
    think: float | None = None,
) -> tuple[A, ...]:
    """The plan ``seat`` plays now at ``level`` (see the module docstring).

    ``state`` is the real state; only :meth:`Brain.sample` reads it. ``think``
    caps the strong search's time in seconds (None: the budget alone decides).
    The plan ends after its first run of steps that reveal something
    (:meth:`Brain.reveals`).
    """
    plan = _search(brain, state, seat, level, seed, think)
    for index, action in enumerate(plan):
        if brain.reveals(action):
            end = index
            while end < len(plan) and brain.reveals(plan[end]):
                end += 1
            return plan[:end]
    return plan


def _search(
    brain: Brain[S, A], state: S, seat: Seat, level: str, seed: int, think: float | None
) -> tuple[A, ...]:
    engine = brain.engine
    rng = random.Random(seed)
    if level == RANDOM:
        return _random_step(brain, state, seat, rng)
    budget = brain.budget(level)
    world = brain.sample(state, seat, rng)
    plans = brain.plans_at(world, seat, budget.breadth)
    if not plans:
        return _random_step(brain, state, seat, rng)
    if len(plans) == 1:
        return plans[0]
    screened = [(_value_after(brain, world, seat, plan), index) for index, plan in enumerate(plans)]
    if level != "strong":
        return plans[_softmax_pick(screened, budget.temperature, rng)]
    screened.sort(key=lambda pair: (-pair[0], pair[1]))
    kept = [index for value, index in screened[: max(1, budget.candidates)] if value > -math.inf]
    if len(kept) <= 1:
        return plans[kept[0] if kept else screened[0][1]]
    deadline = None if think is None else time.monotonic() + think
    totals = dict.fromkeys(kept, 0.0)
    played = 0
    for sample_index in range(max(1, budget.worlds)):
        if sample_index and deadline is not None and time.monotonic() > deadline:
            break
        played += 1
        if sample_index:
            world = brain.sample(state, seat, rng)
        for index in kept:
            child = brain.copy(world)
            if not apply_plan(engine, child, seat, plans[index]):
                totals[index] = -math.inf
                continue
            _play_ahead(brain, child, budget.depth, rng)
            totals[index] += brain.evaluate(child, seat)
    best = max(kept, key=lambda index: (totals[index], -kept.index(index)))
    near = [
        index
        for index in kept
        if totals[index] > -math.inf and totals[index] >= totals[best] - budget.tolerance * played
    ]
    if budget.tolerance > 0 and len(near) > 1:
        return plans[rng.choice(near)]
    return plans[best]


def _random_step(brain: Brain[S, A], state: S, seat: Seat, rng: random.Random) -> tuple[A, ...]:
    legal = brain.engine.legal_actions(state, seat)
    return (rng.choice(legal),) if legal else ()


def _value_after(brain: Brain[S, A], world: S, seat: Seat, plan: tuple[A, ...]) -> float:
    child = brain.copy(world)
    if not apply_plan(brain.engine, child, seat, plan):
        return -math.inf
    return brain.evaluate(child, seat)


def _softmax_pick(scored: list[tuple[float, int]], temperature: float, rng: random.Random) -> int:
    """An index drawn with weight exp(value / temperature); the best when it is 0."""
    finite = [(value, index) for value, index in scored if value > -math.inf]
    if not finite:
        return scored[0][1]
    top = max(value for value, _ in finite)
    if temperature <= 0:
        return next(index for value, index in finite if value == top)
    weights = [math.exp((value - top) / temperature) for value, _ in finite]
    return rng.choices([index for _, index in finite], weights=weights)[0]


def _play_ahead(brain: Brain[S, A], state: S, depth: int, rng: random.Random) -> None:
    """Let every awaited seat play the greedy policy for ``depth`` decisions."""
    engine = brain.engine
    for _ in range(depth):
        if engine.result(state) is not None:
            return
        awaited = sorted(engine.waiting_for(state))
        if not awaited:
            return
        for other in awaited:
            if other not in engine.waiting_for(state):
                continue
            plan = brain.rollout_plan(state, other, rng)
            if not plan or not apply_plan(engine, state, other, plan):
                return
