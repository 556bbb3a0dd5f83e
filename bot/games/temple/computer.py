"""Temple Rush's computer player: the :class:`~bot.games.computer.Brain` the
shared search (:func:`bot.games.computer.decide`) plays with.

Decisions:

* **Hidden information** (:meth:`TempleBrain.sample`): the deck below its
  visible top card, the future dice, and the other seats' sealed moves of
  the current round. A sample keeps the top card and deals the rest of the
  deck (its size is public) from every card the seat has not seen — the
  temple cards not face up, won, set aside or last shown (sorted by id),
  plus the lightning card while no race has run — shuffled with the
  search's ``rng``; it replaces the state's ``seed`` (which decides every
  future die) with one drawn from ``rng``; and every other seat that has
  sealed its move (public) gets the move the greedy policy seals there
  (what it sealed is not public; an unfinished submission, private, is
  dropped). So a sample looks to the seat exactly as the real state does
  (the conformance test: the same public view and the same own view). The
  seat's own submission stays. Everything else on the table is public.
* **Plans** (:meth:`TempleBrain.plans`), each one sealed submission (the
  step that completes it last), scored first by a static guess:

  - a round: the bricks the seat may lay (``place``, and ``move`` when the
    supply lacks the rolled length), each scored by how much closer it
    brings its area to completion (:func:`progress`, the solver with the
    build's bricks fixed); the best :data:`BRICK_PLANS` are kept, and
    ``pass``. Hammer & Chisel is considered with the best bricks of any
    length when the die is not a star; the Mortar on an area where it makes
    the build completable or shorter; the best :data:`SWAP_PLANS` swaps; every
    Bag that completes a temple now (with the best brick elsewhere, or a
    pass); a re-lay of an area whose card changed (the legal greedy one,
    then the best brick); a joint offer (or acceptance) with the best brick.
    Cancelling a part is never planned (a plan is sealed once).
  - a bonus choice: every length of the completed temple, the one that leaves
    the best total first (:func:`bonus_value`: the brick's length against
    what the bricks left build, :func:`capacity`);
  - a lightning race: ``skip`` and a layout the solver finds, from the
    supply alone when it can (no build loses a brick), else from all the
    seat's bricks.
* **Evaluation** (:meth:`TempleBrain.evaluate`): for each player, the points
  already scored (cards, score tokens, bonus bricks, unused tokens, the
  longest pending bonus brick) plus, for each face-up card, its value and
  its likely bonus brick (:func:`bonus_guess`: the longest brick of the build
  or of the supply; the build's longest once it completes at the reveal)
  times :data:`DECAY` to the power of the bricks the player still needs to
  finish it (the solver with the build's bricks fixed, from the supply; when
  the supply alone cannot finish it, from the supply and the bricks of the
  player's other builds — they come back when those temples complete, or may
  be moved — plus :data:`FREED_WAIT` bricks for the wait; nothing when even
  those cannot; half when another player needs fewer bricks there), plus
  :data:`SUPPLY_WEIGHT` per stud left in supply, plus what the player's
  bricks can still build of the deck (:func:`capacity`: each card they could
  build counts :data:`CAPACITY_WEIGHT` of its value, shared among the
  players), which is what a long brick kept as a bonus costs. A sealed
  submission counts as laid (tried out as the reveal would), and a sealed Bag
  as the temple it completes. Once two partners
  agreed to build the last card jointly (both offered), each counts the
  better of its own build and half the card's value (rounded up) decayed by
  the bricks the joint build still needs from both supplies; an offer alone
  counts nothing, so a computer accepts an offer that pays rather than
  starting one. The position's value for a seat
  is its total minus the mean of the best other total and the others'
  average (two players: minus the other's). A finished game is ±WIN.
* **Budgets** (:meth:`TempleBrain.budget`), measured in CPU time on the
  arena: ``strong`` screens its plans in one world, keeps
  :data:`STRONG.candidates <STRONG>` and plays each in ``worlds`` samples
  with ``depth`` greedy decisions of every awaited seat (the next round),
  well inside 2 s of one core at p99, and chooses at random among the plans
  within ``tolerance`` points of the best: a round is simultaneous, so a
  sealed move that the public position determined could be read in advance;
  ``easy`` looks one submission ahead in one world and picks by a softmax
  at :data:`EASY_TEMPERATURE` points, so it sometimes lays a weaker brick.
  The greedy look-ahead policy (:meth:`TempleBrain.rollout_plan`) takes the
  best statically scored brick (or the race layout, or the best bonus brick)
  without trying plans out.
* **Race delay** (:meth:`TempleBrain.answer_delay`): in a lightning race a
  computer waits before entering its layout, so a human can win: a uniform
  draw from :data:`RACE_DELAY` (strong 30–90 s, easy 2–5 min), never more than
  :data:`RACE_DELAY_SHARE` of the race's deadline. Nothing else waits.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Final

from bot.games.base import RuleError
from bot.games.computer import Brain, Budget, result_value
from bot.games.temple import legal
from bot.games.temple.actions import (
    Action,
    Bag,
    Bonus,
    Hammer,
    Joint,
    Lightning,
    Mortar,
    Move,
    Pass,
    Place,
    Relay,
    Skip,
    Swap,
)
from bot.games.temple.building import try_submission
from bot.games.temple.cards import card, lightning_card, temple_cards
from bot.games.temple.components import LENGTHS, MORTAR, STAR
from bot.games.temple.engine import ENGINE, deadline_seconds
from bot.games.temple.geometry import Brick, Cell, sort_bricks
from bot.games.temple.reveal import half_up
from bot.games.temple.solver import buildable, counts_of, find_layout
from bot.games.temple.state import (
    PHASE_BONUS,
    PHASE_RACE,
    PHASE_ROUND,
    GameState,
    Player,
)

Plan = tuple[Action, ...]

#: a card's worth shrinks by this factor for every brick still to lay
DECAY: Final = 0.8
#: a build another player is closer to finishing is worth this share
CONTESTED: Final = 0.5
#: the share of the likely bonus brick's length a build in progress counts (in full
#: once it completes at the reveal)
BONUS_SHARE: Final = 1.0
#: bricks' worth of waiting counted when a build needs bricks now in another of the
#: seat's builds (freed when that temple completes, or moved)
FREED_WAIT: Final = 2
#: points per stud left in supply (bricks to build with)
SUPPLY_WEIGHT: Final = 0.02
#: the share of a deck card's value (split among the players) its builders count
CAPACITY_WEIGHT: Final = 1.0
#: brick plans kept after the static guess (strong and easy)
BRICK_PLANS: Final = 8
#: swaps and hammer bricks kept
SWAP_PLANS: Final = 3
HAMMER_PLANS: Final = 3
#: easy's softmax temperature, in points
EASY_TEMPERATURE: Final = 0.4
STRONG: Final = Budget(worlds=10, candidates=8, depth=2, temperature=0.0, tolerance=0.1)
EASY: Final = Budget(worlds=1, candidates=0, depth=0, temperature=EASY_TEMPERATURE)
#: seconds a computer waits before entering a lightning layout, by level
RACE_DELAY: Final[dict[str, tuple[float, float]]] = {
    "strong": (30.0, 90.0),
    "easy": (120.0, 300.0),
}
#: the delay never exceeds this share of the race's deadline
RACE_DELAY_SHARE: Final = 0.5


# --------------------------------------------------------------------------- copies


def _copy_player(player: Player) -> Player:
    return player.copy()


def copy_state(state: GameState) -> GameState:
    """An independent copy (bricks and actions are immutable and shared)."""
    return GameState(
        seats=state.seats,
        seed=state.seed,
        deadline=state.deadline,
        joint_rule=state.joint_rule,
        players=[_copy_player(p) for p in state.players],
        slots=list(state.slots),
        deck=list(state.deck),
        ages=list(state.ages),
        draws=state.draws,
        phase=state.phase,
        round=state.round,
        roller=state.roller,
        dice=list(state.dice),
        discarded=list(state.discarded),
        submissions={s: sub.copy() for s, sub in state.submissions.items()},
        race=state.race,
        race_card=state.race_card,
        race_skipped=set(state.race_skipped),
        joint_offers=dict(state.joint_offers),
        joint_pair=state.joint_pair,
        idle_rounds=state.idle_rounds,
        revealed=state.revealed,
        last_moves={s: list(m) for s, m in state.last_moves.items()},
        end_reason=state.end_reason,
        last_shown=list(state.last_shown),
        last_exit=state.last_exit,
    )


# --------------------------------------------------------------------------- progress


@lru_cache(maxsize=200_000)
def bricks_needed(
    silhouette: frozenset[Cell],
    fixed: tuple[Brick, ...],
    counts: tuple[int, int, int, int],
    mortar: bool,
) -> int | None:
    """How many more bricks from ``counts`` finish a build of ``fixed`` bricks
    (the solver's layout, longest bricks first), or None when none can."""
    found = find_layout(
        silhouette,
        counts,
        fixed=fixed,
        gaps=1 if mortar else 0,
        max_pieces=2 if mortar else 1,
    )
    if found is None and mortar:
        found = find_layout(silhouette, counts, fixed=fixed)
    return None if found is None else len(found) - len(fixed)


def _need(
    silhouette: frozenset[Cell],
    bricks: list[Brick],
    supply: dict[int, int],
    mortar: bool,
    elsewhere: dict[int, int] | None = None,
) -> float | None:
    """The bricks still to lay on a build (its worth decays with them): from the supply
    alone, else from the supply and the bricks of the seat's other builds
    (``elsewhere``: they come back when those temples complete, or may be moved) plus
    :data:`FREED_WAIT` for the wait; None when even those cannot finish it."""
    if not silhouette:
        return None
    fixed = tuple(sorted(bricks))
    need = bricks_needed(silhouette, fixed, counts_of(supply), mortar)
    if need is not None or not elsewhere or not any(elsewhere.values()):
        return need
    pooled = {length: supply.get(length, 0) + elsewhere.get(length, 0) for length in LENGTHS}
    freed = bricks_needed(silhouette, fixed, counts_of(pooled), mortar)
    return None if freed is None else freed + FREED_WAIT


def elsewhere(builds: list[list[Brick]], area: int) -> dict[int, int]:
    """The lengths of the bricks in every build but ``area``'s."""
    counts = dict.fromkeys(LENGTHS, 0)
    for other, bricks in enumerate(builds):
        if other != area:
            for brick in bricks:
                counts[brick.length] += 1
    return counts


def progress(value: float, need: float | None) -> float:
    """What a build ``need`` bricks from finishing a card worth ``value`` is worth."""
    return 0.0 if need is None else value * DECAY**need


def bonus_guess(bricks: list[Brick], supply: dict[int, int]) -> int:
    """The bonus brick a build will likely give: its longest brick, or the longest the
    supply still holds (a completion scores the card and a brick's length)."""
    laid = max((b.length for b in bricks), default=0)
    free = max((length for length, count in supply.items() if count > 0), default=0)
    return max(laid, free)


class Board:
    """One player's bricks as they will be after its sealed submission."""

    def __init__(self, state: GameState, seat: int) -> None:
        player = state.players[seat]
        sub = state.submissions.get(seat)
        self.supply = dict(player.supply)
        self.builds = [[laid.brick for laid in build] for build in player.builds]
        self.mortar_area = player.mortar_area
        self.tokens = len(player.tokens)
        self.bagged: int | None = None
        if state.phase == PHASE_ROUND and sub is not None and not sub.empty():
            bench, done = try_submission(state, seat, sub, strict=False)
            self.supply = bench.supply
            self.builds = [[laid.brick for laid in build] for build in bench.builds]
            self.mortar_area = bench.mortar_area
            self.tokens = len(bench.tokens)
            if done.bag is not None:
                self.bagged = done.bag.area


def _points(player: Player, board: Board) -> float:
    cards = sum(card(c).value for c in player.won)
    pending = sum(max(lengths, default=0) for lengths in player.pending_bonus.values())
    return float(cards + sum(player.score_tokens) + sum(player.bonus) + pending + board.tokens)


def _needs(state: GameState, boards: list[Board]) -> dict[int, list[float | None]]:
    """Per active area, each player's bricks still needed there."""
    found: dict[int, list[float | None]] = {}
    for area in state.active_areas():
        silhouette = state.silhouette(area)
        row: list[float | None] = []
        for board in boards:
            if board.bagged == area:
                row.append(0)
                continue
            row.append(
                _need(
                    silhouette,
                    board.builds[area],
                    board.supply,
                    board.mortar_area == area,
                    elsewhere(board.builds, area),
                )
            )
        found[area] = row
    return found


def joint_partners(state: GameState) -> tuple[int, int] | None:
    """The pair building the last card together, or about to (both offered)."""
    if state.joint_pair is not None:
        return state.joint_pair
    pairs = sorted(
        (a, b) for a, b in state.joint_offers.items() if a < b and state.joint_offers.get(b) == a
    )
    return pairs[0] if pairs and state.last_card() else None


def _joint_worth(state: GameState, boards: list[Board], pair: tuple[int, int]) -> float:
    """What the joint build of the last card is worth to each partner."""
    areas = state.active_areas()
    if len(areas) != 1:
        return 0.0
    area = areas[0]
    found = card(str(state.slots[area]))
    first, second = (boards[s] for s in pair)
    supply = {k: first.supply.get(k, 0) + second.supply.get(k, 0) for k in LENGTHS}
    need = _need(found.cells, [*first.builds[area], *second.builds[area]], supply, False)
    return progress(half_up(found.value), need)


def totals(state: GameState) -> list[float]:
    """Every player's points plus the worth of its builds (see the module docstring)."""
    boards = [Board(state, seat) for seat in range(state.seats)]
    needs = _needs(state, boards)
    values = {area: card(str(state.slots[area])).value for area in needs}
    pair = joint_partners(state) if state.joint_rule else None
    joint = _joint_worth(state, boards, pair) if pair is not None else 0.0
    result: list[float] = []
    for seat, board in enumerate(boards):
        total = _points(state.players[seat], board)
        for area, row in needs.items():
            mine = row[seat]
            bricks = board.builds[area]
            bonus = (
                max((b.length for b in bricks), default=0)
                if mine == 0  # completes at the reveal: its longest brick
                else bonus_guess(bricks, board.supply)
            )
            worth = progress(values[area] + BONUS_SHARE * bonus, mine)
            if mine and any(n is not None and n < mine for i, n in enumerate(row) if i != seat):
                worth *= CONTESTED
            if pair is not None and seat in pair:
                worth = max(worth, joint)
            total += worth
        total += SUPPLY_WEIGHT * sum(k * n for k, n in board.supply.items())
        total += capacity(state, seat)
        result.append(total)
    return result


def capacity(state: GameState, seat: int) -> float:
    """What the seat's bricks (supply, builds, and a pending bonus's bricks but the
    longest) are worth for the cards still in the deck: each card it could still
    build counts its value, shared among the players, times :data:`CAPACITY_WEIGHT`.
    A brick kept as a bonus is out of play for good; this is what it costs."""
    deck = [c for c in state.deck if c != lightning_card().id]
    if not deck:
        return 0.0
    player = state.players[seat]
    owned = player.owned()
    for lengths in player.pending_bonus.values():
        for length in sorted(lengths)[:-1]:
            owned[length] += 1
    counts = counts_of(owned)
    worth = sum(card(c).value for c in deck if buildable(card(c).cells, counts, False))
    return CAPACITY_WEIGHT * worth / state.seats


def relative(values: list[float], seat: int) -> float:
    others = [v for i, v in enumerate(values) if i != seat]
    if not others:
        return values[seat]
    return values[seat] - (max(others) + sum(others) / len(others)) / 2


# --------------------------------------------------------------------------- plans


def _laid_brick(board: Board, action: Place | Move) -> Brick | None:
    """The brick ``action`` lays, on the seat's bricks as its submission leaves them."""
    if isinstance(action, Place):
        return None if action.length is None else Brick(action.length, *action.cell)
    for brick in board.builds[action.from_area]:
        if brick.covers(action.from_cell):
            return Brick(brick.length, *action.cell)
    return None


class Scorer:
    """Static guesses for one seat's round actions: the change in the worth of
    the areas an action touches (the seat's own builds only)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        board = Board(state, seat)
        self.board = board
        self.base: dict[int, float] = {
            area: self.worth(area, board.builds[area], board.supply)
            for area in state.active_areas()
        }

    def worth(self, area: int, bricks: list[Brick], supply: dict[int, int]) -> float:
        found = self.state.card_at(area)
        if found is None:
            return 0.0
        need = _need(
            found.cells,
            bricks,
            supply,
            self.board.mortar_area == area,
            elsewhere(self.board.builds, area),
        )
        if need is None:  # a lost build still counts its bricks a little (a fit returns them)
            return -0.01 * len(bricks)
        return progress(found.value + BONUS_SHARE * bonus_guess(bricks, supply), need)

    def brick(self, action: Place | Move) -> float:
        new = _laid_brick(self.board, action)
        if new is None:
            return -math.inf
        board = self.board
        supply = dict(board.supply)
        gain = 0.0
        if isinstance(action, Move):
            rest = [b for b in board.builds[action.from_area] if not b.covers(action.from_cell)]
            gain += self.worth(action.from_area, rest, supply) - self.base[action.from_area]
        else:
            supply[new.length] -= 1
        after = [*board.builds[action.area], new]
        gain += self.worth(action.area, after, supply) - self.base[action.area]
        return gain + 0.001 * new.length

    def swap(self, action: Swap) -> float:
        board = self.board
        old = next((b for b in board.builds[action.area] if b.covers(action.cell)), None)
        if old is None:
            return -math.inf
        supply = dict(board.supply)
        supply[old.length] += 1
        supply[action.length] -= 1
        new = Brick(action.length, *(action.to_cell or (old.x, old.y)))
        after = [*(b for b in board.builds[action.area] if b != old), new]
        return self.worth(action.area, after, supply) - self.base[action.area]


def _ranked(scored: list[tuple[float, Action]], keep: int) -> list[Action]:
    scored.sort(key=lambda pair: -pair[0])
    return [action for value, action in scored[:keep] if value > -math.inf]


def _brick_actions(state: GameState, seat: int, actions: list[Action]) -> list[Place | Move]:
    return [a for a in actions if isinstance(a, Place | Move)]


def best_bricks(state: GameState, seat: int, keep: int) -> list[Action]:
    """The seat's best ``keep`` bricks by the static guess (none when none helps
    more than a pass)."""
    scorer = Scorer(state, seat)
    scored: list[tuple[float, Action]] = [
        (scorer.brick(a), a) for a in _brick_actions(state, seat, legal.round_actions(state, seat))
    ]
    return _ranked([(v, a) for v, a in scored if v > 0], keep)


def _after(state: GameState, seat: int, step: Action) -> GameState | None:
    """A copy with ``step`` sealed (None if refused)."""
    child = copy_state(state)
    try:
        ENGINE.apply(child, seat, step)
    except RuleError:
        return None
    return child


def _then_brick(state: GameState, seat: int, prefix: tuple[Action, ...]) -> list[Plan]:
    """``prefix`` followed by the best brick it allows, and by a pass."""
    child: GameState | None = state
    for step in prefix:
        child = _after(child, seat, step) if child is not None else None
    if child is None:
        return []
    plans: list[Plan] = [(*prefix, brick) for brick in best_bricks(child, seat, 1)]
    plans.append((*prefix, Pass()))
    return plans


def round_plans(state: GameState, seat: int) -> list[Plan]:
    actions = legal.round_actions(state, seat)
    scorer = Scorer(state, seat)
    bricks = _ranked(
        [(scorer.brick(a), a) for a in _brick_actions(state, seat, actions)], BRICK_PLANS
    )
    plans: list[Plan] = [(a,) for a in bricks]
    plans.append((Pass(),))
    swaps = [(scorer.swap(a), a) for a in actions if isinstance(a, Swap)]
    player = state.players[seat]
    sub = state.submission(seat)
    for swap in _ranked([(v, a) for v, a in swaps if v > 0], SWAP_PLANS):
        # under Hammer & Chisel a swap still waits for the round's brick (or a pass)
        plans += _then_brick(state, seat, (swap,))[:1] if sub.hammer else [(swap,)]
    if Hammer() in actions and state.dice[seat] != STAR and not sub.hammer:
        hammered = _after(state, seat, Hammer())
        if hammered is not None:
            extra = [b for b in best_bricks(hammered, seat, HAMMER_PLANS) if b not in bricks]
            plans += [(Hammer(), b) for b in extra]
    if MORTAR in player.tokens:
        for action in actions:
            if isinstance(action, Mortar) and _mortar_helps(state, seat, scorer, action.area):
                plans += _then_brick(state, seat, (action,))[:1]
    for action in actions:
        if (
            isinstance(action, Bag)
            or (isinstance(action, Relay) and action.bricks is not None)
            or isinstance(action, Joint)
        ):
            plans += _then_brick(state, seat, (action,))[:1]
    return plans


def _mortar_helps(state: GameState, seat: int, scorer: Scorer, area: int) -> bool:
    found = state.card_at(area)
    if found is None:
        return False
    board = scorer.board
    bricks, supply = board.builds[area], board.supply
    plain = _need(found.cells, bricks, supply, False)
    mortared = _need(found.cells, bricks, supply, True)
    return mortared is not None and (plain is None or mortared < plain)


def joint_step(state: GameState, seat: int) -> Action | None:
    """The look-ahead's move for a partner in an agreed joint build of the last card
    (both offered): the brick that brings the joint build closest to completion without
    covering a cell of the partner's bricks (which would make the joint build fail),
    else a pass. The static guess (:class:`Scorer`) sees the seat's own build only."""
    pair = joint_partners(state) if state.joint_rule else None
    areas = state.active_areas()
    if pair is None or seat not in pair or len(areas) != 1:
        return None
    area = areas[0]
    boards = [Board(state, s) for s in pair]
    taken = {cell for board in boards for brick in board.builds[area] for cell in brick.cells()}
    fixed = [brick for board in boards for brick in board.builds[area]]
    pooled = {k: sum(board.supply.get(k, 0) for board in boards) for k in LENGTHS}
    silhouette = state.silhouette(area)
    best: Action = Pass()
    best_need = _need(silhouette, fixed, pooled, False)
    for action in legal.round_actions(state, seat):
        if not isinstance(action, Place) or action.area != area or action.length is None:
            continue
        brick = Brick(action.length, *action.cell)
        if taken & set(brick.cells()):
            continue
        after = dict(pooled)
        after[brick.length] -= 1
        need = _need(silhouette, [*fixed, brick], after, False)
        if need is not None and (best_need is None or need < best_need):
            best, best_need = action, need
    return best


def race_layouts(state: GameState, seat: int) -> list[Lightning]:
    """A layout from the supply alone if there is one, else from every brick."""
    if state.race_card is None:
        return []
    silhouette = card(state.race_card).cells
    player = state.players[seat]
    found = find_layout(silhouette, counts_of(player.supply))
    if found is None:
        found = find_layout(silhouette, counts_of(player.owned()))
    return [] if found is None else [Lightning(tuple(sort_bricks(found)))]


def bonus_plans(state: GameState, seat: int) -> list[Plan]:
    """Every bonus brick the seat may keep, the best for what it still needs first
    (:func:`bonus_value`)."""
    pending = state.players[seat].pending_bonus
    plans: list[Plan] = [
        (Bonus(a, k),) for a in sorted(pending) for k in sorted(set(pending[a]), reverse=True)
    ]
    scored = [(bonus_value(state, seat, plan[0]), index) for index, plan in enumerate(plans)]
    return [plans[index] for _, index in sorted(scored, key=lambda pair: (-pair[0], pair[1]))]


def bonus_value(state: GameState, seat: int, choice: Action) -> float:
    """The seat's total once it keeps ``choice`` as its bonus brick: the brick's length,
    and the worth of its builds from the supply the others return to (a long brick
    kept is a long brick a bigger card may miss)."""
    child = _after(state, seat, choice)
    return -math.inf if child is None else totals(child)[seat]


# --------------------------------------------------------------------------- the brain


class TempleBrain(Brain[GameState, Action]):
    """Temple Rush's computer player (see the module docstring)."""

    def copy(self, state: GameState) -> GameState:
        return copy_state(state)

    def baseline(self) -> Brain[GameState, Action]:
        """The frozen strong player of commit 41143bd (:mod:`bot.games.temple.baseline`)."""
        from bot.games.temple.baseline import TempleBaseline

        return TempleBaseline(self.engine)

    def budget(self, level: str) -> Budget:
        return STRONG if level == "strong" else EASY

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        world = copy_state(state)
        own = state.submissions.get(seat)
        world.submissions = {} if own is None else {seat: own.copy()}
        seen: set[str] = {c for c in (*state.slots, *state.last_shown) if c is not None}
        seen.update(state.discarded)
        for player in state.players:
            seen.update(player.won)
        if state.race_card is not None:
            seen.add(state.race_card)
        top = state.deck[:1]
        seen.update(top)
        hidden = max(0, len(state.deck) - 1)
        flash = lightning_card().id
        deal: list[str] = []
        if hidden and state.race == 0 and flash not in seen:
            deal.append(flash)
        unseen = sorted(c.id for c in temple_cards() if c.id not in seen)
        deal += rng.sample(unseen, min(len(unseen), hidden - len(deal)))
        rng.shuffle(deal)
        world.deck = top + deal
        world.seed = rng.getrandbits(62)
        self._seal_for_others(state, world, seat, rng)
        return world

    def _seal_for_others(
        self, state: GameState, world: GameState, seat: int, rng: random.Random
    ) -> None:
        """Give each other seat that has sealed its move (public) a sealed move of its
        own choosing in ``world``: what the greedy policy seals there, from the public
        position (what it sealed is not public). An unfinished submission is private
        and the seat still awaited: it is dropped."""
        if world.phase != PHASE_ROUND:
            return
        for other in sorted(state.submissions):
            if other == seat or not state.submissions[other].complete():
                continue
            scratch = copy_state(world)
            scratch.submissions = {}
            plan = self.rollout_plan(scratch, other, rng) or (Pass(),)
            for step in plan:
                try:
                    ENGINE.apply(scratch, other, step)
                except RuleError:
                    scratch.submissions = {}
                    ENGINE.apply(scratch, other, Pass())
                    break
            world.submissions[other] = scratch.submissions[other]

    def plans(self, state: GameState, seat: int) -> list[Plan]:
        if seat not in ENGINE.waiting_for(state):
            return []
        if state.phase == PHASE_BONUS:
            return bonus_plans(state, seat)
        if state.phase == PHASE_RACE:
            return [*((layout,) for layout in race_layouts(state, seat)), (Skip(),)]
        if state.phase == PHASE_ROUND:
            return round_plans(state, seat)
        return []

    def evaluate(self, state: GameState, seat: int) -> float:
        finished = result_value(ENGINE, state, seat)
        if finished is not None:
            return finished
        return relative(totals(state), seat)

    def rollout_plan(self, state: GameState, seat: int, rng: random.Random) -> Plan | None:
        if state.phase == PHASE_BONUS:
            plans = bonus_plans(state, seat)
            return plans[0] if plans else None
        if state.phase == PHASE_RACE:
            layouts = race_layouts(state, seat)
            return (layouts[0],) if layouts else (Skip(),)
        if state.phase == PHASE_ROUND:
            joint = joint_step(state, seat)
            if joint is not None:
                return (joint,)
            bricks = best_bricks(state, seat, 1)
            return (bricks[0],) if bricks else (Pass(),)
        return None

    def answer_delay(self, state: GameState, seat: int, level: str, rng: random.Random) -> float:
        """In a lightning race only: a draw from :data:`RACE_DELAY` for the level,
        at most :data:`RACE_DELAY_SHARE` of the race's deadline."""
        if state.phase != PHASE_RACE or level not in RACE_DELAY:
            return 0.0
        low, high = RACE_DELAY[level]
        return min(rng.uniform(low, high), RACE_DELAY_SHARE * deadline_seconds(state.deadline))
