"""The frozen baseline: Temple Rush's ``strong`` player as it was at commit 41143bd.

Kept unchanged, so that the arena can measure the current computer player
against it (``python -m bot arena --seats strong,baseline``); it is never
offered to players. Its decisions are those stated in that commit's
``bot/games/temple/computer.py``; it plays at ``strong``'s budget of then, and its
search picks the best plan (no choice among near-equal ones). Do not improve
it: a change here moves the yardstick.
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
from bot.games.temple.solver import counts_of, find_layout
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
#: points per stud left in supply (bricks to build with)
SUPPLY_WEIGHT: Final = 0.02
#: brick plans kept after the static guess (strong and easy)
BRICK_PLANS: Final = 8
#: swaps and hammer bricks kept
SWAP_PLANS: Final = 3
HAMMER_PLANS: Final = 3
#: easy's softmax temperature, in points
EASY_TEMPERATURE: Final = 0.4
STRONG: Final = Budget(worlds=6, candidates=6, depth=2, temperature=0.0)
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
    silhouette: frozenset[Cell], bricks: list[Brick], supply: dict[int, int], mortar: bool
) -> int | None:
    if not silhouette:
        return None
    return bricks_needed(silhouette, tuple(sorted(bricks)), counts_of(supply), mortar)


def progress(value: int, need: int | None) -> float:
    """What a build ``need`` bricks from finishing a card worth ``value`` is worth."""
    return 0.0 if need is None else value * DECAY**need


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


def _needs(state: GameState, boards: list[Board]) -> dict[int, list[int | None]]:
    """Per active area, each player's bricks still needed there."""
    found: dict[int, list[int | None]] = {}
    for area in state.active_areas():
        silhouette = state.silhouette(area)
        row: list[int | None] = []
        for board in boards:
            if board.bagged == area:
                row.append(0)
                continue
            row.append(
                _need(silhouette, board.builds[area], board.supply, board.mortar_area == area)
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
            worth = progress(values[area], mine)
            if mine == 0:  # completes at the reveal: the card and a bonus brick
                worth += max((b.length for b in board.builds[area]), default=0)
            elif mine is not None and any(
                n is not None and n < mine for i, n in enumerate(row) if i != seat
            ):
                worth *= CONTESTED
            if pair is not None and seat in pair:
                worth = max(worth, joint)
            total += worth
        total += SUPPLY_WEIGHT * sum(k * n for k, n in board.supply.items())
        result.append(total)
    return result


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
        need = _need(found.cells, bricks, supply, self.board.mortar_area == area)
        # a lost build still counts its bricks a little (they come back on a fit)
        return progress(found.value, need) if need is not None else -0.01 * len(bricks)

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
    plans += [(a,) for a in _ranked([(v, a) for v, a in swaps if v > 0], SWAP_PLANS)]
    player = state.players[seat]
    sub = state.submission(seat)
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
    pending = state.players[seat].pending_bonus
    return [(Bonus(a, k),) for a in sorted(pending) for k in sorted(set(pending[a]), reverse=True)]


# --------------------------------------------------------------------------- the brain


class TempleBaseline(Brain[GameState, Action]):
    """Temple Rush's computer player (see the module docstring)."""

    def copy(self, state: GameState) -> GameState:
        return copy_state(state)

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
        return world

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
