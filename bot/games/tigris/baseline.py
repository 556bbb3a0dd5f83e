"""The frozen baseline: Tigris & Euphrates's ``strong`` player as it was at commit 41143bd.

Kept unchanged, so that the arena can measure the current computer player
against it (``python -m bot arena --seats strong,baseline``); it is never
offered to players. Its decisions are those stated in that commit's
``bot/games/tigris/computer.py``; it plays at ``strong``'s budget of then, and its
search picks the best plan (no choice among near-equal ones). Do not improve
it: a change here moves the yardstick.
"""

from __future__ import annotations

import random
from collections import Counter

from bot.games.computer import Brain, Budget, result_value
from bot.games.tigris.actions import (
    Action,
    BuildMonument,
    ChooseWar,
    Decline,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Support,
    Swap,
    TakeTreasures,
)
from bot.games.tigris.board import (
    NEIGHBOURS,
    RIVER,
    Square,
    block_squares,
    blocks_containing,
)
from bot.games.tigris.components import (
    BLACK,
    BLUE,
    COLOURS,
    GREEN,
    LEADER_ORDER,
    MONUMENTS,
    RED,
    TILE_COUNTS,
    Colour,
)
from bot.games.tigris.kingdoms import Regions
from bot.games.tigris.rules import legal_actions, waiting_for
from bot.games.tigris.scoring import final_points
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_MONUMENT,
    PHASE_OVER,
    PHASE_REVOLT,
    PHASE_TREASURE,
    PHASE_WAR,
    PHASE_WAR_ORDER,
    GameState,
)
from bot.games.tigris.treasures import pending_claim

Plan = tuple[Action, ...]

#: action plans kept after the heuristic (the one-world screen values each)
MAX_ACTION_PLANS = 18
#: tile squares kept per colour in hand
PER_COLOUR = 3
#: squares kept per leader
PER_LEADER = 3
#: weights of a seat's points after treasures, weakest colour first
SORTED_WEIGHTS = (2.0, 1.0, 0.6, 0.4)
#: the share of the best opponent (the rest: their mean) in the evaluation
BEST_OPPONENT_SHARE = 0.5
#: easy's softmax temperature, in evaluation units
EASY_TEMPERATURE = 0.6
#: the strong search's budget
STRONG = Budget(worlds=6, candidates=5, depth=3, temperature=0.0)
#: greedy steps that settle a pending conflict or question before evaluating
SETTLE_STEPS = 12


class TigrisBaseline(Brain[GameState, Action]):
    """Plans, evaluation and honest sampling for Tigris & Euphrates (module docstring)."""

    # --- the contract ---------------------------------------------------------------

    def budget(self, level: str) -> Budget:
        if level == "easy":
            return Budget(worlds=1, candidates=0, depth=0, temperature=EASY_TEMPERATURE)
        return STRONG

    def copy(self, state: GameState) -> GameState:
        return state.copy()

    def plans(self, state: GameState, seat: int) -> list[Plan]:
        if seat not in waiting_for(state):
            return []
        if state.phase == PHASE_ACTION:
            return [(action,) for _, action in _action_candidates(state, seat)]
        return [(action,) for action in legal_actions(state, seat)]

    def evaluate(self, state: GameState, seat: int) -> float:
        if state.phase not in (PHASE_ACTION, PHASE_OVER):
            state = self._settled(state)
        final = result_value(self.engine, state, seat)
        if final is not None:
            return final
        return _relative_value(state, seat)

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        world = state.copy()
        unseen = Counter(TILE_COUNTS)
        unseen.subtract(world.board.tiles.values())
        unseen.subtract(world.players[seat].hand)
        pool = [colour for colour in COLOURS for _ in range(max(0, unseen[colour]))]
        rng.shuffle(pool)
        for other, player in enumerate(world.players):
            if other == seat:
                continue
            size = len(player.hand)
            player.hand = sorted(pool[:size], key=COLOURS.index)
            del pool[:size]
            if world.scoring != "open":
                player.points = dict(world.players[seat].points)
        size = len(world.bag)
        world.bag = pool[:size]
        world.seed = rng.getrandbits(32)
        return world

    def rollout_plan(self, state: GameState, seat: int, rng: random.Random) -> Plan | None:
        action = _greedy_action(state, seat)
        return None if action is None else (action,)

    # --- helpers --------------------------------------------------------------------

    def _settled(self, state: GameState) -> GameState:
        """A copy with the pending conflict or question played out by the greedy policy."""
        work = state.copy()
        for _ in range(SETTLE_STEPS):
            if work.phase in (PHASE_ACTION, PHASE_OVER):
                break
            awaited = waiting_for(work)
            if not awaited:
                break
            (other,) = awaited
            action = _greedy_action(work, other)
            if action is None:
                break
            self.engine.apply(work, other, action)
        return work


# --- the greedy policy ----------------------------------------------------------------


def _greedy_action(state: GameState, seat: int) -> Action | None:
    """A cheap good decision: the best heuristic action, support by the greedy rule."""
    if seat not in waiting_for(state):
        return None
    phase = state.phase
    if phase == PHASE_ACTION:
        candidates = _action_candidates(state, seat)
        return candidates[0][1] if candidates else Pass()
    if phase in (PHASE_REVOLT, PHASE_WAR):
        return Support(_greedy_support(state, seat))
    if phase == PHASE_WAR_ORDER:
        return ChooseWar(state.wars[0])
    if phase == PHASE_TREASURE:
        claim = pending_claim(state.board)
        assert claim is not None
        return TakeTreasures(claim.options[0])
    if phase == PHASE_MONUMENT:
        options = [action for action in legal_actions(state, seat) if action != Decline()]
        if not options:
            return Decline()
        return max(options, key=lambda action: _monument_gain(state, seat, action))
    return None


def _greedy_support(state: GameState, seat: int) -> int:
    """Commit just enough to win when it can, nothing when it cannot."""
    conflict = state.conflict
    assert conflict is not None
    colour = conflict.support_colour
    mine = state.players[seat].hand.count(colour)
    if seat == conflict.attacker:
        rival = state.players[conflict.defender].hand.count(colour)
        needed = conflict.defender_base + rival + 1 - conflict.attacker_base
        if needed <= 0:
            return 0
        if needed <= mine:
            return needed
        # Cannot be sure to win: all in when the defender might fall short.
        return mine if conflict.attacker_base + mine > conflict.defender_base else 0
    attack = conflict.attacker_base + (conflict.attacker_committed or 0)
    needed = attack - conflict.defender_base
    if needed <= 0 or needed > mine:
        return 0
    return needed


def _monument_gain(state: GameState, seat: int, action: Action) -> int:
    """How many of the seat's leaders in the monument's kingdom match its colours."""
    if not isinstance(action, BuildMonument):
        return -1
    regions = Regions(state.board)
    region = regions.region_of(action.square)
    if region < 0:
        return 0
    return sum(
        1
        for sq in regions.leaders[region]
        if state.board.leaders[sq].seat == seat and state.board.leaders[sq].colour in action.colours
    )


# --- candidate actions ----------------------------------------------------------------


class _Board:
    """What the heuristic needs of a board, computed once per decision."""

    def __init__(self, state: GameState, seat: int) -> None:
        board = state.board
        self.state = state
        self.seat = seat
        self.board = board
        self.regions = Regions(board)
        self.hand = state.players[seat].hand
        # Every region (leaderless ones too) by flood fill over tiles and leaders.
        label: dict[Square, int] = {}
        groups: list[list[Square]] = []
        for start in sorted(set(board.tiles) | set(board.leaders)):
            if start in label:
                continue
            label[start] = len(groups)
            members = [start]
            stack = [start]
            while stack:
                for nb in NEIGHBOURS[stack.pop()]:
                    if nb not in label and (nb in board.tiles or nb in board.leaders):
                        label[nb] = len(groups)
                        members.append(nb)
                        stack.append(nb)
            groups.append(members)
        self.group = label
        self.groups = groups
        self.need = _colour_need(final_points(state.players[seat]))

    def leader_of(self, region: int, colour: Colour) -> Square | None:
        for sq in self.regions.leaders[region]:
            if self.board.leaders[sq].colour == colour:
                return sq
        return None

    def scorer(self, region: int, colour: Colour) -> int | None:
        sq = self.leader_of(region, colour)
        if sq is None:
            sq = self.leader_of(region, BLACK)
        return None if sq is None else self.board.leaders[sq].seat

    def face_up_count(self, squares: list[Square], colour: Colour) -> int:
        board = self.board
        return sum(1 for sq in squares if board.tiles.get(sq) == colour and sq not in board.flipped)


def _colour_need(points: dict[Colour, int]) -> dict[Colour, float]:
    """How much a point of each colour is worth now: more for the weaker colours."""
    top = max(points.values())
    return {colour: 1.0 + 0.25 * min(4, top - points[colour]) for colour in COLOURS}


def _action_candidates(state: GameState, seat: int) -> list[tuple[float, Action]]:
    """Action-phase candidates with their heuristic value, best first (pruned)."""
    view = _Board(state, seat)
    candidates: list[tuple[float, Action]] = []
    candidates.extend(_tile_candidates(view))
    candidates.extend(_leader_candidates(view))
    candidates.extend(_catastrophe_candidates(view))
    candidates.extend(_swap_candidates(view))
    candidates.sort(key=lambda pair: -pair[0])
    kept = candidates[:MAX_ACTION_PLANS]
    if not kept:
        kept = [(0.0, Pass())]
    return kept


def _empty(view: _Board, sq: Square) -> bool:
    board = view.board
    return sq not in board.tiles and sq not in board.leaders and sq not in board.catastrophes


def _tile_candidates(view: _Board) -> list[tuple[float, Action]]:
    board, regions, seat = view.board, view.regions, view.seat
    colours = sorted(set(view.hand), key=COLOURS.index)
    if not colours:
        return []
    frontier: set[Square] = set()
    for members in regions.squares:
        for sq in members:
            for nb in NEIGHBOURS[sq]:
                if _empty(view, nb):
                    frontier.add(nb)
    my_leaders = [sq for sq, leader in board.leaders.items() if leader.seat == seat]
    near_mine = {nb for sq in my_leaders for nb in NEIGHBOURS[sq]}
    per_colour: dict[Colour, list[tuple[float, Action]]] = {colour: [] for colour in colours}
    wars: list[tuple[float, Action]] = []
    for sq in sorted(frontier):
        around = regions.kingdoms_around(sq)
        if len(around) >= 3:
            continue
        on_river = sq in RIVER
        for colour in colours:
            if (colour == BLUE) != on_river:
                continue
            action = PlaceTile(colour, sq)
            if len(around) == 2:
                value = _war_value(view, sq, colour, sorted(around))
                if value is not None:
                    wars.append((value, action))
                continue
            (region,) = around
            scorer = view.scorer(region, colour)
            if scorer is None:
                value = 0.1
            elif scorer == seat:
                value = 1.0 * view.need[colour]
            else:
                value = -1.0
            if colour == RED and sq in near_mine:
                value += 0.4
            value += _merge_value(view, sq, region)
            if _completes_block(view, sq, colour):
                value += 0.8
            per_colour[colour].append((value, action))
    result: list[tuple[float, Action]] = []
    for options in per_colour.values():
        options.sort(key=lambda pair: -pair[0])
        result.extend(pair for pair in options[:PER_COLOUR] if pair[0] > 0)
    wars.sort(key=lambda pair: -pair[0])
    result.extend(wars[:4])
    return result


def _merge_value(view: _Board, sq: Square, region: int) -> float:
    """A tile that brings leaderless tiles into the kingdom: treasures for its trader."""
    board = view.board
    groups = {view.group[nb] for nb in NEIGHBOURS[sq] if nb in view.group}
    kingdom_groups = {view.group[s] for s in view.regions.squares[region]}
    treasures = sum(
        1 for group in groups - kingdom_groups for s in view.groups[group] if s in board.treasures
    )
    if not treasures:
        return 0.0
    trader = view.leader_of(region, GREEN)
    if trader is None:
        return 0.0
    return 1.2 * treasures if board.leaders[trader].seat == view.seat else -1.0 * treasures


def _completes_block(view: _Board, sq: Square, colour: Colour) -> bool:
    board = view.board
    built = set(board.monuments.values())
    if all(pair in built for pair in MONUMENTS if colour in pair):
        return False
    for top_left in blocks_containing(sq):
        if all(
            s == sq or (board.tiles.get(s) == colour and s not in board.flipped)
            for s in block_squares(top_left)
        ):
            return True
    return False


def _war_value(view: _Board, sq: Square, colour: Colour, around: list[int]) -> float | None:
    """A join's likely gain: for each clashing colour, win or lose in the sampled world."""
    board, regions, seat, state = view.board, view.regions, view.seat, view.state
    total = 0.0
    clashes = 0
    for war_colour in COLOURS:
        first = view.leader_of(around[0], war_colour)
        second = view.leader_of(around[1], war_colour)
        if first is None or second is None:
            continue
        clashes += 1
        sides = {
            board.leaders[first].seat: (first, around[0]),
            board.leaders[second].seat: (second, around[1]),
        }
        if seat not in sides:
            total += 0.3  # two opponents fight: one of them loses
            continue
        other = next(s for s in sides if s != seat)
        mine_region = sides[seat][1]
        theirs_region = sides[other][1]
        mine = view.face_up_count(regions.squares[mine_region], war_colour)
        theirs = view.face_up_count(regions.squares[theirs_region], war_colour)
        my_hand = view.hand.count(war_colour) - (1 if colour == war_colour else 0)
        their_hand = state.players[other].hand.count(war_colour)
        if mine + my_hand > theirs + their_hand:
            total += (1 + theirs) * view.need[war_colour] + 1.0
        else:
            total -= (1 + mine) * view.need[war_colour] + 1.0
    if not clashes:
        return None
    return total


def _leader_candidates(view: _Board) -> list[tuple[float, Action]]:
    board, seat, state = view.board, view.seat, view.state
    temples = [sq for sq in board.tiles if board.is_temple(sq)]
    spots = sorted(
        {nb for sq in temples for nb in NEIGHBOURS[sq] if nb not in RIVER and _empty(view, nb)}
    )
    my_red = view.hand.count(RED)
    result: list[tuple[float, Action]] = []
    for colour in LEADER_ORDER:
        origin = board.leader_square(seat, colour)
        regions = view.regions if origin is None else Regions(board, without=origin)
        current = 0.0 if origin is None else _leader_worth(view, origin, colour, view.regions)
        options: list[tuple[float, Action]] = []
        for sq in spots:
            around = regions.kingdoms_around(sq)
            if len(around) >= 2:
                continue
            temples_here = sum(1 for nb in NEIGHBOURS[sq] if board.is_temple(nb))
            value = 0.6 + 0.3 * temples_here
            if around:
                (region,) = around
                rival_sq = None
                for lsq in regions.leaders[region]:
                    if board.leaders[lsq].colour == colour:
                        rival_sq = lsq
                if rival_sq is not None:
                    rival = board.leaders[rival_sq].seat
                    theirs = sum(1 for nb in NEIGHBOURS[rival_sq] if board.is_temple(nb))
                    their_red = state.players[rival].hand.count(RED)
                    if temples_here + my_red > theirs + their_red:
                        value += 1.5 + 0.3 * view.face_up_count(regions.squares[region], colour)
                    else:
                        value -= 2.0
                else:
                    members = regions.squares[region]
                    value += 0.25 * min(8, view.face_up_count(members, colour))
                    value += 0.05 * min(20, len(members))
                    if colour == GREEN:
                        value += 0.8 * sum(1 for s in members if s in board.treasures)
                    if colour == BLACK:
                        value += 0.03 * min(20, len(members))
            else:
                value += 0.1 * _adjacent_group_tiles(view, sq, colour)
            value *= view.need[colour]
            if origin is not None:
                value -= current + 0.5
            options.append((value, PlaceLeader(colour, sq)))
        options.sort(key=lambda pair: -pair[0])
        result.extend(options[:PER_LEADER])
    return result


def _adjacent_group_tiles(view: _Board, sq: Square, colour: Colour) -> int:
    groups = {view.group[nb] for nb in NEIGHBOURS[sq] if nb in view.group}
    return sum(view.face_up_count(view.groups[group], colour) for group in groups)


def _leader_worth(view: _Board, sq: Square, colour: Colour, regions: Regions) -> float:
    region = regions.region_of(sq)
    temples_here = sum(1 for nb in NEIGHBOURS[sq] if view.board.is_temple(nb))
    members = regions.squares[region] if region >= 0 else []
    return (
        0.6
        + 0.3 * temples_here
        + 0.25 * min(8, view.face_up_count(members, colour))
        + 0.05 * min(20, len(members))
    ) * view.need[colour]


def _catastrophe_candidates(view: _Board) -> list[tuple[float, Action]]:
    board, seat, state = view.board, view.seat, view.state
    if state.players[seat].catastrophes <= 0:
        return []
    result: list[tuple[float, Action]] = []
    for sq, leader in sorted(board.leaders.items()):
        if leader.seat == seat:
            continue
        temples = [nb for nb in NEIGHBOURS[sq] if board.is_temple(nb)]
        if len(temples) != 1 or temples[0] in board.treasures:
            continue
        target = temples[0]
        hurts_me = any(
            board.leaders[nb].seat == seat
            and sum(1 for t in NEIGHBOURS[nb] if board.is_temple(t)) == 1
            for nb in NEIGHBOURS[target]
            if nb in board.leaders
        )
        if hurts_me:
            continue
        victims = sum(
            1
            for nb in NEIGHBOURS[target]
            if nb in board.leaders
            and board.leaders[nb].seat != seat
            and sum(1 for t in NEIGHBOURS[nb] if board.is_temple(t)) == 1
        )
        result.append((0.9 * victims + 0.2, PlaceCatastrophe(target)))
    result.sort(key=lambda pair: -pair[0])
    return result[:2]


def _swap_candidates(view: _Board) -> list[tuple[float, Action]]:
    board, seat = view.board, view.seat
    hand = view.hand
    if not hand:
        return []
    led = {leader.colour for leader in board.leaders.values() if leader.seat == seat}
    useful = set(COLOURS) if BLACK in led else led | {RED}
    bad = [colour for colour in hand if colour not in useful]
    reds = [colour for colour in hand if colour == RED]
    bad.extend(reds[3:])
    result: list[tuple[float, Action]] = []
    if bad:
        result.append((0.2 * len(bad) - 0.3, Swap(tuple(bad))))
    if not led:
        result.append((-0.5, Swap(tuple(hand))))
    return result


# --- evaluation ---------------------------------------------------------------------


def _seat_value(state: GameState, seat: int, regions: Regions) -> float:
    player = state.players[seat]
    points = final_points(player)
    ordered = sorted(points.values())
    value = sum(weight * v for weight, v in zip(SORTED_WEIGHTS, ordered, strict=True))
    need = _colour_need(points)
    board = state.board
    for sq, leader in board.leaders.items():
        if leader.seat != seat:
            continue
        region = regions.region_of(sq)
        members = regions.squares[region] if region >= 0 else []
        strength = sum(
            1 for s in members if board.tiles.get(s) == leader.colour and s not in board.flipped
        )
        temples_here = sum(1 for nb in NEIGHBOURS[sq] if board.is_temple(nb))
        worth = 1.0 + 0.15 * min(10, strength) + 0.2 * min(3, temples_here)
        worth += 0.02 * min(25, len(members))
        if leader.colour == GREEN:
            worth += 0.3 * sum(1 for s in members if s in board.treasures)
        value += worth * need[leader.colour] * 0.8
    led = {leader.colour for leader in board.leaders.values() if leader.seat == seat}
    for colour in player.hand:
        if colour == RED:
            value += 0.2
        elif colour in led or BLACK in led:
            value += 0.15
        else:
            value += 0.05
    value += 0.4 * player.catastrophes
    return value


def _relative_value(state: GameState, seat: int) -> float:
    regions = Regions(state.board)
    values = [_seat_value(state, other, regions) for other in range(len(state.players))]
    mine = values[seat]
    others = [value for other, value in enumerate(values) if other != seat]
    if not others:
        return mine
    best = max(others)
    mean = sum(others) / len(others)
    return mine - BEST_OPPONENT_SHARE * best - (1 - BEST_OPPONENT_SHARE) * mean
