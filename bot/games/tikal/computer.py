"""Tikal's computer player: the :class:`~bot.games.computer.Brain` the shared search plays.

Decisions:

* **Plans.** A 10-AP turn is ONE plan: its steps and ``end``. It is built
  greedily, goal by goal, on a copy of the (sampled) world through the real
  rules (:func:`bot.games.tikal.flow.apply`), so every step is legal when it
  comes. The goals, each priced in AP with the cheapest figures: take a
  temple (enough strength for a strict majority: new workers or the leader
  from the cheapest entry, or spare figures from elsewhere), dig a temple
  held (1–2 levels), guard a temple held (optionally after digging it),
  reinforce a thin majority, recover 1–2 treasure tokens, exchange a single
  treasure for a set, build a camp where it shortens the way to the
  targets. The greedy takes the goal with the best gain per AP, weighted by
  a *priority* (balanced, temples, treasures, digging, guards, camps), so
  the handful of priorities gives a handful of distinct turns; leftover AP
  enter workers. Identical plans are kept once.
* **Strong plans more.** The strong level (its budget's ``breadth``) also
  weighs *focused* turns (:func:`focus_plans`): for each kind of goal — a
  guard, a camp, taking a temple, denying one (taking or tying a temple
  another seat holds, counting what that seat loses), treasures towards a
  set, an exchange, digging — its richest goal first, then the balanced
  turn. These are turns no priority builds (the greedy weighs gain per AP
  and never what an opponent loses), so strong does not merely look further
  ahead than easy along the same turns. Among them, *defending* a temple it
  holds (:func:`_defend_goals`): bringing enough strength that no other seat
  can take it in its next turn (:func:`reach_strength`: the most strength a
  seat brings in 10 AP, new figures from its entries and spare ones from
  elsewhere), when one could; and *holding* one it takes: taking it with
  that much strength at once rather than the thinnest majority.
* **Ways** are the rules' own: every cost is
  :func:`bot.games.tikal.paths.costs_from` (from one hex, or several with
  their starting costs), remembered per layout (:func:`ways`) since a plan
  asks for them many times; the hex in hand is priced by laying it in the
  world for the time of the look (:func:`bot.games.tikal.paths.crossing_cost`).
* **Laying the hex** is a decision of its own, but it is planned together
  with the turn it opens: the legal placements are ranked by a cheap reach
  test (a temple or treasure hex laid near our figures and far from theirs
  scores its worth), the best :data:`PLACEMENTS` are kept, and each is
  followed by the turn plans above, so the search compares whole turns.
  Picking an auction hex likewise: each revealed hex, followed by its best
  :data:`PICK_PLACEMENTS` placements and their turns.
* **Bids** (:func:`valued_bid`) are one plan, decided by what winning the
  auction is worth (:func:`auction_worth`): each revealed hex is priced for
  the seat and for its strongest rival still bidding by what a turn with it
  gains (its best placement and turn) plus :data:`LAID_SHARE` of its
  reach-test value (its worth beyond the turn); whoever wins takes the hex
  that leaves it most ahead, the other the best of the rest; the worth is
  the seat's lead when it wins less its lead when the rival wins, plus
  :data:`TEMPO` (a volcano, which every seat scores this round, by the order
  alone: :data:`VOLCANO_FIRST`). It bids one more than the high bid while
  that is below :data:`BID_SHADE` of the worth (the worth is the best of
  several estimates, so it runs high), never more than :data:`BID_SHARE` of
  its score. So a rich temple
  the rival would take is worth denying. Both levels bid so; the greedy
  look-ahead bids by a cheap rule (:func:`bid_decision`: the spread of the
  revealed hexes' worths).
* **Evaluation** (points): each seat's projected total is its score, plus
  its treasure sets × the scorings it has left, plus guarded temples × the
  scorings left, plus temples held by a strict majority × a discounted
  count of scorings left (more for a wider margin), plus what it still has
  in hand (an unused guard is worth a rich temple fixed later, none at the
  last scoring; the leader while it can move), plus a little for figures on
  the board, camps and treasure tokens within reach. The value is our
  projection minus the others' (half the best, half the mean); at a scoring
  turn the plan's ``end`` scores, so the scoring itself is counted exactly.
  The search's evaluation (:meth:`TikalBrain.evaluate`, both levels) also counts the
  *threat* (:func:`with_threat`): when the rules already say whose turn is
  next (not while an auction decides it), that seat's best steal — the
  unguarded temple it can take from its holder with the AP it has, by the
  holder's loss plus its own gain — moves :data:`THREAT_SHARE` of both
  between the two projections. So a temple held by a thin majority within the
  next player's reach is worth little, and guarding it, outnumbering the
  reach, or not spending the turn on it are weighed at their worth.
  A finished game is worth ±WIN (:func:`result_value`).
* **Hidden information** is the order of the hex stacks and the face-down
  treasure tokens (the state's seed decides nothing after set-up but is
  replaced too). The sampler keeps each stack group (a letter, Mini-Tikal's
  A-B-C, D, E-F-G) in its place and reshuffles only within it, and deals
  the unseen tokens (pool and every face-down stack, sorted first) afresh,
  each treasure hex keeping its count. The world lists hexes, figures and
  treasures in a canonical order, so that ties between plans never depend
  on how the real state was stored (a reloaded state lists them otherwise).
* **Budgets.** ``easy``: one world, the plans' values through a softmax of
  temperature :data:`EASY_TEMPERATURE` points (it plays sensibly but takes a
  worse turn now and then). ``strong``: :data:`STRONG` — the best plans of
  the one-world screen, each played in several worlds and followed by the
  greedy turns of every seat for :data:`LOOK_AHEAD` turns by player count
  (two players 4: the other player's answer, our next turn, and both again;
  three 5, through the answers to our next turn; four 4, one round); bids,
  decided by rule there, are played but not counted, and the budget's depth
  only bounds the look-ahead. The greedy look-ahead
  (:meth:`TikalBrain.rollout_plan`) is the best placement and the balanced
  turn only, after the first revealed hex in an auction. The budget keeps
  a decision within 2 s of one core at p99; docs/computer.md has the arena
  measurements that chose it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from bot.games.base import GameEngine, RuleError
from bot.games.computer import Brain, Budget, result_value
from bot.games.tikal import flow, legal, placement, rules
from bot.games.tikal.actions import (
    Action,
    Bid,
    Camp,
    Dig,
    End,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Pick,
    Place,
    Recover,
)
from bot.games.tikal.board import ADJACENT, Space
from bot.games.tikal.components import (
    COST_CAMP,
    COST_DIG,
    COST_ENTER,
    COST_EXCHANGE,
    COST_GUARD,
    COST_RECOVER,
    LEADER,
    MAX_ENTERED_PER_TURN,
    MAX_LEVELS_PER_TEMPLE_PER_TURN,
    MAX_TOKENS_PER_HEX_PER_TURN,
    MODES,
    SET_POINTS,
    TEMPLE,
    TILES,
    TREASURE,
    VOLCANO,
    WORKER,
)
from bot.games.tikal.paths import costs_from, crossing_cost
from bot.games.tikal.scoring import treasure_points
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_PICK,
    PHASE_PLACE,
    SCORING_TURNS,
    Auction,
    Figures,
    GameState,
    Hex,
    Player,
    Scoring,
    Turn,
)

#: placements kept (by the reach test) and followed by turn plans
PLACEMENTS = 3
#: placements kept after each auction pick
PICK_PLACEMENTS = 2
#: the farthest a figure is looked for when a hex is laid (AP)
REACH_LIMIT = 14
#: the priorities of the turn plans, each a weight per goal kind
PRIORITIES: dict[str, dict[str, float]] = {
    "balanced": {},
    "temples": {"take": 2.0, "reinforce": 1.5},
    "treasures": {"recover": 2.5, "exchange": 2.0},
    "digging": {"dig": 2.5, "take": 1.3},
    "guards": {"guard": 3.0},
    "camps": {"camp": 4.0},
}
#: the priorities followed after each placement (all of them in the action phase)
PLACE_PRIORITIES = ("balanced", "temples", "treasures")
EASY_TEMPERATURE = 3.0
#: the budget's depth only bounds the look-ahead: :data:`LOOK_AHEAD` stops it
STRONG = Budget(worlds=6, candidates=6, depth=60, temperature=0.0, breadth=1)
#: the turns strong looks ahead (bids are not counted), by player count (module
#: docstring): two players 4, three 5 (through the answers to our next turn), four 4
LOOK_AHEAD = {2: 4, 3: 5, 4: 4}
#: the projection's weights (points)
WORKER_ON_BOARD = 0.3
LEADER_ON_BOARD = 0.8
CAMP_WORTH = 1.0
#: an unused guard, per scoring left beyond the next (at most 2)
GUARD_WORTH = 2.0
#: the leader while it can still move (not yet a guard)
LEADER_WORTH = 2.5
TOKEN_IN_REACH = 0.6
#: the most strength a threat or a defence counts (a leader and four workers)
MAX_THREAT = 7
#: the share of the next mover's best steal of a temple the evaluation counts
THREAT_SHARE = 0.8
#: a bid never spends more than this share of our score
BID_SHARE = 0.5
#: points for playing before the others (their answer comes after ours)
TEMPO = 1.0
#: a bid stays under this share of what winning is worth: the worth is the best of
#: several estimates, so it runs high (the winner's curse), and a point paid is lost
BID_SHADE = 0.6
#: what taking a volcano is worth beyond the order it sets: scoring first (more when
#: leading, by a fifth of the lead)
VOLCANO_FIRST = 2.0
#: the share of a hex's reach-test value (its worth near our figures) an auction
#: counts beyond the turn it is played in
LAID_SHARE = 0.5


class TikalBrain(Brain[GameState, Action]):
    """The computer player (module docstring)."""

    def __init__(self, engine: GameEngine[GameState, Action]) -> None:
        super().__init__(engine)
        #: greedy decisions played since the last evaluation: the search evaluates
        #: each look-ahead once at its end, so this counts the look-ahead under way
        self.ahead = 0

    def baseline(self) -> Brain[GameState, Action]:
        """The frozen strong player of commit 41143bd (:mod:`bot.games.tikal.baseline`)."""
        from bot.games.tikal.baseline import TikalBaseline

        return TikalBaseline(self.engine)

    def budget(self, level: str) -> Budget:
        if level == "easy":
            return Budget(worlds=1, candidates=0, depth=0, temperature=EASY_TEMPERATURE)
        return STRONG

    def copy(self, state: GameState) -> GameState:
        return fast_copy(state)

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        return sample_world(state, rng)

    def evaluate(self, state: GameState, seat: int) -> float:
        self.ahead = 0
        final = result_value(self.engine, state, seat)
        if final is not None:
            return final
        return _relative(with_threat(state, projections(state)), seat)

    def reveals(self, action: Action) -> bool:
        """A recovered treasure is a hex's hidden top token: the turn is planned again
        once the seat has drawn it."""
        return isinstance(action, Recover)

    def plans(self, state: GameState, seat: int) -> list[tuple[Action, ...]]:
        return self.plans_at(state, seat, 0)

    def plans_at(self, state: GameState, seat: int, breadth: int) -> list[tuple[Action, ...]]:
        """The greedy priorities' turns; with a ``breadth``, also the focused turns
        (:func:`focus_plans`) after each placement or pick."""
        if state.phase == PHASE_BID and seat in rules.waiting_for(state):
            return [(valued_bid(self, state, seat),)]
        return plans_for(
            state, seat, PLACEMENTS, tuple(PRIORITIES), PLACE_PRIORITIES, focus=breadth > 0
        )

    def rollout_plan(
        self, state: GameState, seat: int, rng: random.Random
    ) -> tuple[Action, ...] | None:
        if self.ahead >= LOOK_AHEAD.get(state.seats, 4):
            return None
        if state.phase == PHASE_BID and seat in rules.waiting_for(state):
            return (bid_decision(state, seat),)
        self.ahead += 1
        found = plans_for(state, seat, 1, ("balanced",), ("balanced",), first=True)
        return found[0] if found else None


# -- copying and sampling ---------------------------------------------------------------


def _copy_hex(hex_: Hex) -> Hex:
    new = object.__new__(Hex)
    new.__dict__.update(hex_.__dict__)
    new.tokens = list(hex_.tokens)
    new.figures = {seat: Figures(f.workers, f.leader) for seat, f in hex_.figures.items()}
    return new


def _copy_player(player: Player) -> Player:
    new = object.__new__(Player)
    new.__dict__.update(player.__dict__)
    new.treasures = dict(player.treasures)
    return new


def fast_copy(state: GameState) -> GameState:
    """An independent copy of ``state``, field by field (no JSON round trip)."""
    turn, auction, scoring = state.turn, state.auction, state.scoring
    return GameState(
        mode=state.mode,
        seats=state.seats,
        seed=state.seed,
        stack=list(state.stack),
        pool=list(state.pool),
        hexes={space: _copy_hex(hex_) for space, hex_ in state.hexes.items()},
        tiles_left=dict(state.tiles_left),
        players=[_copy_player(player) for player in state.players],
        phase=state.phase,
        turn=None
        if turn is None
        else Turn(
            turn.seat, turn.kind, turn.ap, turn.entered, dict(turn.dug), dict(turn.recovered)
        ),
        in_hand=state.in_hand,
        aside=state.aside,
        queue=list(state.queue),
        revealed=list(state.revealed),
        auction=None
        if auction is None
        else Auction(
            auction.opener,
            list(auction.order),
            auction.current,
            auction.high,
            auction.high_seat,
            list(auction.passed),
        ),
        played=list(state.played),
        first_seat=state.first_seat,
        last_placer=state.last_placer,
        scoring=None
        if scoring is None
        else Scoring(
            scoring.kind, scoring.number, list(scoring.order), list(scoring.done), scoring.drawer
        ),
        volcanoes=state.volcanoes,
        round_number=state.round_number,
        turn_number=state.turn_number,
        turns_done=state.turns_done,
        last_action=state.last_action,
        steps=list(state.steps),
    )


def stack_groups(state: GameState) -> list[list[str]]:
    """The stack left, cut into its shuffled groups (top group first); the order inside
    each group is what is hidden."""
    groups = MODES[state.mode].stacks
    index = {letter: i for i, group in enumerate(groups) for letter in group}
    cut: dict[int, list[str]] = {}
    for tile in state.stack:
        letter = TILES[tile].letter
        assert letter is not None
        cut.setdefault(index[letter], []).append(tile)
    return [cut[i] for i in sorted(cut)]


def sample_world(state: GameState, rng: random.Random) -> GameState:
    """A copy with the hidden parts dealt afresh from ``rng`` (module docstring)."""
    world = fast_copy(state)
    # canonical order: a state reloaded from storage lists things in another order,
    # and ties between equal plans must not depend on it
    world.hexes = dict(sorted(world.hexes.items()))
    for hex_ in world.hexes.values():
        hex_.figures = dict(sorted(hex_.figures.items()))
    for player in world.players:
        player.treasures = dict(sorted(player.treasures.items()))
    stack: list[str] = []
    for group in stack_groups(state):
        tiles = sorted(group)
        rng.shuffle(tiles)
        stack.extend(tiles)
    world.stack = stack
    treasure_hexes = sorted(space for space, hex_ in world.hexes.items() if hex_.tokens)
    unseen = sorted([*state.pool, *(t for s in treasure_hexes for t in world.hexes[s].tokens)])
    rng.shuffle(unseen)
    for space in treasure_hexes:
        count = len(world.hexes[space].tokens)
        world.hexes[space].tokens = unseen[:count]
        del unseen[:count]
    world.pool = unseen
    world.seed = rng.getrandbits(31)
    return world


# -- evaluation ---------------------------------------------------------------------------


def scorings_left(state: GameState, seat: int) -> int:
    """The scoring steps ``seat`` still has (this round's included, if still to come)."""
    volcanoes = sum(1 for t in state.stack if TILES[t].kind == VOLCANO)
    volcanoes += sum(1 for t in state.revealed if TILES[t].kind == VOLCANO)
    scoring = state.scoring
    pending = 1 if scoring is not None and seat not in scoring.done else 0
    if scoring is not None and scoring.kind == "final":
        return pending
    return volcanoes + 1 + pending


def hold_weight(left: int) -> float:
    """How many scorings an unguarded majority is expected to bring in."""
    return 0.0 if left <= 0 else 0.75 + 0.4 * (left - 1)


def guard_worth(left: int) -> float:
    """What an unused guard is worth: a rich temple fixed later (none at the last scoring)."""
    return GUARD_WORTH * min(max(0, left - 1), 2)


def _in_hand(state: GameState, seat: int, left: int) -> float:
    """The worth of ``seat``'s unused guards and of its leader while still in play."""
    player = state.players[seat]
    worth = player.guards * guard_worth(left)
    leader_in_play = player.leader or any(
        h.figures[seat].leader for h in state.hexes.values() if seat in h.figures
    )
    if leader_in_play:
        worth += LEADER_WORTH if left >= 2 else LEADER_WORTH / 3
    return worth


def projections(state: GameState) -> list[float]:
    """Each seat's projected total in points (module docstring)."""
    n = state.seats
    left = [scorings_left(state, seat) for seat in range(n)]
    values = [
        float(p.score + treasure_points(p.treasures) * left[s]) + _in_hand(state, s, left[s])
        for s, p in enumerate(state.players)
    ]
    for hex_ in state.hexes.values():
        figures = hex_.figures
        for seat, figs in figures.items():
            values[seat] += WORKER_ON_BOARD * figs.workers + (
                LEADER_ON_BOARD if figs.leader else 0.0
            )
        if hex_.camp is not None and left[hex_.camp] >= 2:
            values[hex_.camp] += CAMP_WORTH
        kind = hex_.kind
        if kind == TEMPLE:
            if hex_.guard is not None:
                values[hex_.guard] += hex_.value * left[hex_.guard]
                continue
            if not figures:
                continue
            ranked = sorted(((f.strength, s) for s, f in figures.items()), reverse=True)
            best, holder = ranked[0]
            second = ranked[1][0] if len(ranked) > 1 else 0
            if best > second:
                share = _margin_share(best - second)
                values[holder] += hex_.value * hold_weight(left[holder]) * share
            else:
                for strength, seat in ranked:
                    if strength == best:
                        values[seat] += 0.15 * hex_.value * hold_weight(left[seat])
        elif kind == TREASURE and hex_.tokens:
            for seat, figs in figures.items():
                if left[seat]:
                    reach = min(figs.count, len(hex_.tokens), MAX_TOKENS_PER_HEX_PER_TURN)
                    values[seat] += TOKEN_IN_REACH * reach
    return values


def next_mover(state: GameState) -> tuple[int, int, int] | None:
    """The seat whose turn is under way or comes next, its AP and the figures it has
    entered, when the rules already say who it is (a hex to place or actions to take;
    not while an auction decides it)."""
    turn = state.turn
    if turn is None or state.phase not in (PHASE_PLACE, PHASE_ACTIONS):
        return None
    return turn.seat, turn.ap, turn.entered


def _margin_share(margin: int) -> float:
    """The share of a held temple's worth a strict majority of ``margin`` counts."""
    return min(1.0, 0.55 + 0.15 * margin)


def best_steal(state: GameState) -> tuple[int, int, float, float] | None:
    """The richest unguarded temple the next mover (:func:`next_mover`) can take from
    its holder with the AP it has: (mover, holder, what the holder's projection loses,
    what the mover's gains), or None when it can take none."""
    mover_now = next_mover(state)
    if mover_now is None:
        return None
    mover, ap, entered = mover_now
    left_mover = scorings_left(state, mover)
    best: tuple[int, int, float, float] | None = None
    for space, hex_ in state.hexes.items():
        if hex_.kind != TEMPLE or hex_.guard is not None or not hex_.figures:
            continue
        ranked = sorted(((f.strength, s) for s, f in hex_.figures.items()), reverse=True)
        top, holder = ranked[0]
        second = ranked[1][0] if len(ranked) > 1 else 0
        if holder == mover or top == second:
            continue
        left_holder = scorings_left(state, holder)
        if left_holder <= 0:
            continue
        need = top - hex_.of(mover).strength + 1
        if need > MAX_THREAT:
            continue
        dist = ways(state, mover, space, ap)
        brought = _bring(_units(state, mover, space, dist, entered), space, need, 0, ap)
        if brought is None:
            continue
        loss = hex_.value * hold_weight(left_holder) * _margin_share(top - second)
        gain = hex_.value * hold_weight(left_mover) * _margin_share(1)
        if best is None or loss + gain > best[2] + best[3]:
            best = (mover, holder, loss, gain)
    return best


def with_threat(state: GameState, values: list[float]) -> list[float]:
    """The projections ``values`` once the next mover's best steal (:func:`best_steal`)
    is counted at :data:`THREAT_SHARE`: a temple held by a thin majority within the
    reach of the seat about to move is worth little to its holder."""
    steal = best_steal(state)
    if steal is None:
        return values
    mover, holder, loss, gain = steal
    counted = list(values)
    counted[holder] -= THREAT_SHARE * loss
    counted[mover] += THREAT_SHARE * gain
    return counted


# -- plans --------------------------------------------------------------------------------


def plans_for(
    state: GameState,
    seat: int,
    places: int,
    priorities: tuple[str, ...],
    place_priorities: tuple[str, ...],
    first: bool = False,
    focus: bool = False,
) -> list[tuple[Action, ...]]:
    """The plans for ``seat``'s decision now (module docstring); empty when not awaited.
    With ``first``, an auction pick stops at the first revealed hex giving a plan (the
    greedy look-ahead plays the first plan only); with ``focus``, the focused turns
    are added (:func:`focus_plans`)."""
    if seat not in rules.waiting_for(state):
        return []
    found: list[tuple[Action, ...]] = []
    if state.phase == PHASE_BID:
        found.append((bid_decision(state, seat),))
    elif state.phase == PHASE_PICK:
        seen: set[str] = set()
        pick_places = min(places, PICK_PLACEMENTS)
        for slot, tile in enumerate(state.revealed, start=1):
            if tile in seen:
                continue
            seen.add(tile)
            world = fast_copy(state)
            if not _act(world, seat, Pick(slot)):
                continue
            for rest in _continue(world, seat, pick_places, priorities, place_priorities, focus):
                found.append((Pick(slot), *rest))
            if first and found:
                break
    else:
        found.extend(_continue(state, seat, places, priorities, place_priorities, focus))
    unique = list(dict.fromkeys(found))
    if not unique:
        legal_now = legal.legal_actions(state, seat)
        return [(legal_now[0],)] if legal_now else []
    return unique


def _continue(
    state: GameState,
    seat: int,
    places: int,
    priorities: tuple[str, ...],
    place_priorities: tuple[str, ...],
    focus: bool = False,
) -> list[tuple[Action, ...]]:
    """Plans from a place or action phase of ``seat``'s turn."""
    if seat not in rules.waiting_for(state):
        return [()]
    if state.phase == PHASE_PLACE:
        found: list[tuple[Action, ...]] = []
        for action in best_placements(state, seat, places):
            world = fast_copy(state)
            if not _act(world, seat, action):
                continue
            if seat not in rules.waiting_for(world) or world.phase != PHASE_ACTIONS:
                found.append((action,))
                continue
            for priority in place_priorities:
                found.append((action, *turn_plan(world, seat, priority)))
            if focus:
                found.extend((action, *plan) for plan in focus_plans(world, seat))
        return found
    if state.phase == PHASE_ACTIONS:
        plans = [turn_plan(state, seat, priority) for priority in priorities]
        return plans + focus_plans(state, seat) if focus else plans
    return []


def _act(state: GameState, seat: int, action: Action, steps: list[Action] | None = None) -> bool:
    try:
        flow.apply(state, seat, action)
    except RuleError:
        return False
    if steps is not None:
        steps.append(action)
    return True


# -- ways ---------------------------------------------------------------------------------

#: the most layouts' costs remembered (a decision looks at a few layouts many times)
WAYS_CACHE = 4096
_WAYS: dict[tuple[Any, ...], dict[Space, int]] = {}


def ways(
    state: GameState, seat: int, origin: Space | dict[Space, int], limit: int
) -> dict[Space, int]:
    """:func:`bot.games.tikal.paths.costs_from` (the rules' own crossing costs), within
    ``limit``, remembered per layout: the costs depend only on the laid hexes and the
    seat's camps, which a turn's steps rarely change, while a plan asks for them many
    times (every goal, every step, every sampled world)."""
    layout = tuple(
        (space, hex_.tile, hex_.rotation, hex_.camp) for space, hex_ in state.hexes.items()
    )
    start = tuple(sorted(origin.items())) if isinstance(origin, dict) else origin
    key = (layout, seat, start)
    full = _WAYS.get(key)
    if full is None:
        if len(_WAYS) >= WAYS_CACHE:
            _WAYS.clear()
        full = _WAYS[key] = costs_from(state, seat, origin)
    return {space: cost for space, cost in full.items() if cost <= limit}


# -- placement ------------------------------------------------------------------------


def _reach(cost: float) -> float:
    if cost <= 5:
        return 1.0
    if cost <= 8:
        return 0.6
    if cost <= 12:
        return 0.3
    return 0.1 if cost < math.inf else 0.0


def _worth(tile: str) -> float:
    spec = TILES[tile]
    if spec.kind == TEMPLE:
        return spec.value + 1.0
    if spec.kind == TREASURE:
        return 1.2 * spec.masks
    return 0.5


def reach_costs(state: GameState, seat: int) -> dict[Space, int]:
    """What bringing one of ``seat``'s figures to each hex costs: from its figures, or
    entered (1 AP) at the base camp or one of its camps."""
    sources = {entry: COST_ENTER for entry in legal.entry_spaces(state, seat)}
    for space, hex_ in state.hexes.items():
        if seat in hex_.figures:
            sources[space] = 0
    return ways(state, seat, sources, REACH_LIMIT)


def _entry_costs(state: GameState, space: Space) -> list[tuple[Space, int]]:
    """What crossing from each neighbour into a hex laid on ``space`` costs (the rules'
    own crossing costs: the hex is laid in ``state`` for the time of the look)."""
    return [
        (neighbour, cost)
        for direction, neighbour in ADJACENT[space]
        if (cost := crossing_cost(state, space, direction, neighbour)) > 0
    ]


def _cost_to(reach: dict[Space, int], entries: list[tuple[Space, int]]) -> float:
    """The cost to reach a hex from the hexes ``reach`` prices, over ``entries``."""
    return min((reach[nb] + cost for nb, cost in entries if nb in reach), default=math.inf)


def best_placements(state: GameState, seat: int, count: int) -> list[Place]:
    """The ``count`` best legal placements of the hex in hand by the reach test."""
    tile = state.in_hand
    assert tile is not None
    return [place for _value, place in scored_placements(state, seat, tile)[:count]]


def scored_placements(state: GameState, seat: int, tile: str) -> list[tuple[float, Place]]:
    """The legal placements of ``tile`` (one rotation per space), best first, with their
    reach-test value: the hex's worth, more the nearer it is to ``seat``'s figures and
    the farther from the others'."""
    options = placement.placements(state, tile)
    spec = TILES[tile]
    if spec.kind == VOLCANO:
        # a volcano blocks crossings: lay it where it touches the fewest of our figures
        scored = [
            (-_volcano_harm(state, seat, space), space, rotation) for space, rotation in options
        ]
    else:
        worth = _worth(tile)
        reaches = [reach_costs(state, other) for other in range(state.seats)]
        scored = []
        for space, rotation in options:
            state.hexes[space] = Hex(tile=tile, rotation=rotation)
            try:
                entries = _entry_costs(state, space)
            finally:
                del state.hexes[space]
            mine = _cost_to(reaches[seat], entries)
            theirs = min(
                (_cost_to(reach, entries) for other, reach in enumerate(reaches) if other != seat),
                default=math.inf,
            )
            value = worth * (_reach(mine) - 0.6 * _reach(theirs)) - 0.01 * min(mine, 30)
            scored.append((value, space, rotation))
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    chosen: list[tuple[float, Place]] = []
    spaces: set[Space] = set()
    for value, space, rotation in scored:
        if space not in spaces:
            spaces.add(space)
            chosen.append((value, Place(space, rotation)))
    return chosen


def _volcano_harm(state: GameState, seat: int, space: Space) -> float:
    harm = 0.0
    for _direction, neighbour in ADJACENT[space]:
        hex_ = state.hexes.get(neighbour)
        if hex_ is None:
            continue
        for other, figs in hex_.figures.items():
            harm += figs.count if other == seat else -0.5 * figs.count
    return harm


# -- the turn -----------------------------------------------------------------------------


@dataclass
class Goal:
    """Steps towards one aim, their AP and their estimated gain in points."""

    kind: str
    gain: float
    cost: int
    steps: list[Action]


def turn_plan(
    state: GameState, seat: int, priority: str, first: Goal | None = None
) -> tuple[Action, ...]:
    """One turn for ``seat`` (its steps and ``end``), built goal by goal on a copy;
    ``first``, when given, is pursued before the others."""
    world = fast_copy(state)
    weights = PRIORITIES[priority]
    steps: list[Action] = []
    if first is not None:
        for action in first.steps:
            if not _act(world, seat, action, steps):
                break
    for _ in range(12):
        turn = world.turn
        if turn is None or turn.seat != seat or world.phase != PHASE_ACTIONS or turn.ap <= 0:
            break
        goals = [g for g in goals_now(world, seat) if g.cost <= turn.ap and g.gain > 0]
        if not goals:
            break
        best = max(goals, key=lambda g: weights.get(g.kind, 1.0) * g.gain / max(1, g.cost))
        done = 0
        for action in best.steps:
            if not _act(world, seat, action, steps):
                break
            done += 1
        if done == 0:
            break
    _fill(world, seat, steps)
    if world.phase == PHASE_ACTIONS and seat in rules.waiting_for(world):
        steps.append(End())
    return tuple(steps)


def focus_plans(state: GameState, seat: int) -> list[tuple[Action, ...]]:
    """Turns the greedy priorities do not build (strong only): for each kind of goal —
    a guard, a camp, taking or denying a temple, treasures for a set, an exchange,
    digging — its richest goal first, then the balanced turn."""
    turn = state.turn
    if turn is None or turn.seat != seat or state.phase != PHASE_ACTIONS:
        return []
    best: dict[str, Goal] = {}
    for goal in goals_now(state, seat, deny=True):
        fits = goal.cost <= turn.ap and goal.gain > 0
        if fits and (goal.kind not in best or goal.gain > best[goal.kind].gain):
            best[goal.kind] = goal
    return [turn_plan(state, seat, "balanced", goal) for _, goal in sorted(best.items())]


def _fill(world: GameState, seat: int, steps: list[Action]) -> None:
    """Leftover AP: workers onto the board at the entry nearest the temples."""
    turn = world.turn
    player = world.players[seat]
    while (
        turn is not None
        and world.phase == PHASE_ACTIONS
        and turn.seat == seat
        and turn.ap >= COST_ENTER
        and player.workers > 0
        and turn.entered < MAX_ENTERED_PER_TURN
    ):
        if not _act(world, seat, Enter(legal.entry_spaces(world, seat)[0]), steps):
            return


@dataclass
class _Unit:
    """One figure that could join a hex: its cost and strength, and how."""

    cost: int
    strength: int
    kind: str
    origin: Space | None
    entry: Space | None


def _units(
    world: GameState, seat: int, target: Space, dist: dict[Space, int], entered: int | None = None
) -> list[_Unit]:
    """The figures that could come to ``target`` this turn (``entered`` figures already
    entered: the turn's own count unless given), cheapest first."""
    if entered is None:
        assert world.turn is not None
        entered = world.turn.entered
    player = world.players[seat]
    units: list[_Unit] = []
    entries = [e for e in legal.entry_spaces(world, seat) if e in dist]
    if entries and entered < MAX_ENTERED_PER_TURN:
        entry = min(entries, key=lambda e: (dist[e], e))
        cost = COST_ENTER + dist[entry]
        room = MAX_ENTERED_PER_TURN - entered
        units.extend(
            _Unit(cost, 1, WORKER, None, entry) for _ in range(min(player.workers, room, 6))
        )
        if player.leader:
            units.append(_Unit(cost, 3, LEADER, None, entry))
    for space, hex_ in world.hexes.items():
        figs = hex_.figures.get(seat)
        if figs is None or space == target or space not in dist:
            continue
        spare_workers, spare_leader = _spare(world, seat, space, hex_, figs)
        units.extend(_Unit(dist[space], 1, WORKER, space, None) for _ in range(spare_workers))
        if spare_leader:
            units.append(_Unit(dist[space], 3, LEADER, space, None))
    units.sort(key=lambda u: (u.cost / u.strength, u.cost, u.kind))
    return units


def _spare(world: GameState, seat: int, space: Space, hex_: Hex, figs: Figures) -> tuple[int, bool]:
    """The figures that may leave ``space`` without losing a majority held there."""
    if hex_.kind == TREASURE and hex_.tokens:
        return max(0, figs.workers - 1), False
    if hex_.kind != TEMPLE or hex_.guard is not None:
        return min(figs.workers, 3), figs.leader
    others = max((f.strength for s, f in hex_.figures.items() if s != seat), default=0)
    if figs.strength <= others:
        return min(figs.workers, 3), figs.leader
    margin = figs.strength - others - 1
    return min(figs.workers, margin), figs.leader and margin >= 3


def _bring(
    units: list[_Unit], target: Space, strength: int, count: int, ap: int
) -> tuple[int, list[Action]] | None:
    """The cheapest steps bringing at least ``strength`` and ``count`` figures to ``target``."""
    options: list[tuple[int, list[_Unit]]] = []
    for with_leader in (False, True):
        chosen: list[_Unit] = []
        got_strength = got_count = 0
        pool = [u for u in units if u.kind == WORKER]
        if with_leader:
            leaders = [u for u in units if u.kind == LEADER]
            if not leaders:
                continue
            chosen.append(leaders[0])
            got_strength, got_count = 3, 1
        for unit in pool:
            if got_strength >= strength and got_count >= count:
                break
            chosen.append(unit)
            got_strength += unit.strength
            got_count += 1
        if got_strength >= strength and got_count >= count:
            options.append((sum(u.cost for u in chosen), chosen))
    if not options:
        return None
    cost, chosen = min(options, key=lambda o: o[0])
    if cost > ap:
        return None
    steps: list[Action] = []
    for unit in chosen:
        figure = None if unit.kind == WORKER else LEADER
        if unit.origin is None:
            assert unit.entry is not None
            steps.append(Enter(unit.entry, figure))
            if unit.entry != target:
                steps.append(Move(unit.entry, target, figure))
        else:
            steps.append(Move(unit.origin, target, figure))
    return cost, steps


def goals_now(world: GameState, seat: int, deny: bool = False) -> list[Goal]:
    """Every goal worth a look for ``seat`` now (module docstring); with ``deny``, also
    taking or tying a temple another seat holds, counting what it loses."""
    turn = world.turn
    assert turn is not None
    ap = turn.ap
    left = scorings_left(world, seat)
    if left <= 0:
        return []
    scoring_now = turn.kind in SCORING_TURNS
    hold = (1.0 if scoring_now else 0.75) + 0.4 * (left - 1)
    player = world.players[seat]
    goals: list[Goal] = []
    base: dict[Space, int] = {}
    if player.camps > 0 and ap >= COST_CAMP and left >= 2:
        entries = legal.entry_spaces(world, seat)
        base = ways(world, seat, dict.fromkeys(entries, 0), 20)
    for space, hex_ in sorted(world.hexes.items()):
        if hex_.kind == TEMPLE and hex_.guard is None:
            goals.extend(_temple_goals(world, seat, space, hex_, ap, left, hold, deny))
        elif hex_.kind == TREASURE and hex_.tokens:
            goals.extend(_treasure_goals(world, seat, space, hex_, ap, left))
        elif (
            rules.camp_ground(hex_)
            and hex_.camp is None
            and player.camps > 0
            and left >= 2
            and ap >= COST_CAMP
        ):
            gain = _camp_gain(world, seat, space, base)
            if gain > 0:
                goals.append(Goal("camp", gain, COST_CAMP, [Camp(space)]))
    if ap >= COST_EXCHANGE:
        goals.extend(_exchange_goals(world, seat, left))
    return goals


def _holder(hex_: Hex) -> int | None:
    """The seat strictly strongest on a temple, if one is."""
    ranked = sorted(((f.strength, s) for s, f in hex_.figures.items()), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def _temple_goals(
    world: GameState,
    seat: int,
    space: Space,
    hex_: Hex,
    ap: int,
    left: int,
    hold: float,
    deny: bool = False,
) -> list[Goal]:
    turn = world.turn
    assert turn is not None
    mine = hex_.of(seat)
    others = max((f.strength for s, f in hex_.figures.items() if s != seat), default=0)
    value = hex_.value
    goals: list[Goal] = []
    dist: dict[Space, int] | None = None
    dug = turn.dug.get(space, 0)
    levels_left = MAX_LEVELS_PER_TEMPLE_PER_TURN - dug
    if mine.strength > others:
        margin = mine.strength - others
        level_value = value
        dig_steps: list[Action] = []
        for level in range(levels_left):
            raised = level_value + 1
            if mine.count < dug + level + 1 or world.tiles_left.get(raised, 0) <= 0:
                break
            level_value = raised
            dig_steps.append(Dig(space))
            cost = COST_DIG * len(dig_steps)
            if cost <= ap:
                goals.append(Goal("dig", hold * len(dig_steps) * 0.9, cost, list(dig_steps)))
        if world.players[seat].guards > 0:
            for extra in range(len(dig_steps) + 1):
                cost = COST_GUARD + COST_DIG * extra
                if cost > ap:
                    break
                figure = None if mine.workers > 0 else LEADER
                lost = guard_worth(left) + WORKER_ON_BOARD * max(0, mine.workers - 1)
                if mine.leader:
                    lost += LEADER_ON_BOARD + LEADER_WORTH
                gain = (value + extra) * left - value * hold * min(1.0, 0.55 + 0.15 * margin) - lost
                goals.append(Goal("guard", gain, cost, [*dig_steps[:extra], Guard(space, figure)]))
        if deny:
            goals.extend(_defend_goals(world, seat, space, hex_, ap, hold))
        if margin <= 2:
            dist = ways(world, seat, space, ap)
            brought = _bring(_units(world, seat, space, dist), space, 1, 1, ap)
            if brought is not None:
                cost, steps = brought
                goals.append(Goal("reinforce", value * 0.15 * hold, cost, steps))
        return goals
    need = others - mine.strength + 1
    if need > 7:
        return goals
    dist = ways(world, seat, space, ap)
    units = _units(world, seat, space, dist)
    brought = _bring(units, space, need, 0, ap)
    if brought is not None:
        cost, steps = brought
        goals.append(Goal("take", value * hold * 0.7, cost, steps))
    if deny:  # taking it beyond what the others can bring in their next turn
        safe = threat_on(world, seat, space, hex_) - mine.strength + 1
        brought = _bring(units, space, safe, 0, ap) if need <= safe <= MAX_THREAT else None
        if brought is not None:
            goals.append(Goal("hold", value * hold * 0.85, brought[0], brought[1]))
    holder = _holder(hex_)
    if deny and holder is not None and holder != seat:
        # what the holder loses: taking it, or only tying it (nobody strictly strongest)
        loss = value * hold_weight(scorings_left(world, holder)) * 0.7
        if brought is not None:
            goals.append(Goal("deny", value * hold * 0.7 + loss, brought[0], brought[1]))
        tied = _bring(units, space, need - 1, 0, ap) if need > 1 else None
        if tied is not None:
            goals.append(Goal("deny", loss, tied[0], tied[1]))
    # taking it with a margin of 2 and digging a level at once
    if levels_left > 0 and rules.next_level(world, hex_) is not None:
        brought = _bring(units, space, need + 1, max(1, dug + 1), ap - COST_DIG)
        if brought is not None:
            cost, steps = brought
            goals.append(
                Goal("take", (value + 1) * hold * 0.85, cost + COST_DIG, [*steps, Dig(space)])
            )
    return goals


def reach_strength(world: GameState, seat: int, target: Space, ap: int = 10) -> int:
    """The most majority strength ``seat`` can bring to ``target`` in a turn of ``ap``
    AP (new figures from its entries, spare ones from elsewhere)."""
    dist = ways(world, seat, target, ap)
    units = _units(world, seat, target, dist, entered=0)
    strength = 0
    while strength < MAX_THREAT and _bring(units, target, strength + 1, 0, ap) is not None:
        strength += 1
    return strength


def threat_on(world: GameState, seat: int, space: Space, hex_: Hex) -> int:
    """The most strength another seat can have on the temple at ``space`` after its
    next turn (what it has there and :func:`reach_strength`)."""
    return max(
        hex_.of(other).strength + reach_strength(world, other, space)
        for other in range(world.seats)
        if other != seat
    )


def _defend_goals(
    world: GameState, seat: int, space: Space, hex_: Hex, ap: int, hold: float
) -> list[Goal]:
    """Bringing enough strength to a temple ``seat`` holds that no other seat can take
    it in its next turn (:func:`reach_strength`), when one could."""
    need = threat_on(world, seat, space, hex_) - hex_.of(seat).strength + 1
    if need <= 0 or need > MAX_THREAT:
        return []
    dist = ways(world, seat, space, ap)
    brought = _bring(_units(world, seat, space, dist), space, need, 0, ap)
    if brought is None:
        return []
    cost, steps = brought
    return [Goal("defend", hex_.value * hold * 0.7, cost, steps)]


def _treasure_goals(
    world: GameState, seat: int, space: Space, hex_: Hex, ap: int, left: int
) -> list[Goal]:
    turn = world.turn
    assert turn is not None
    done = turn.recovered.get(space, 0)
    have = hex_.of(seat).count
    held = dict(world.players[seat].treasures)
    goals: list[Goal] = []
    dist: dict[Space, int] | None = None
    gain = 0.0
    tokens = list(hex_.tokens)
    for taken in range(1, MAX_TOKENS_PER_HEX_PER_TURN - done + 1):
        if not tokens:
            break
        kind = tokens.pop()
        count = held.get(kind, 0)
        gain += (SET_POINTS[min(3, count + 1)] - SET_POINTS[min(3, count)]) * left + 0.3
        held[kind] = count + 1
        need = done + taken
        recover: list[Action] = [Recover(space)] * taken
        if have >= need:
            cost = COST_RECOVER * taken
            if cost <= ap:
                goals.append(Goal("recover", gain, cost, recover))
            continue
        if dist is None:
            dist = ways(world, seat, space, ap)
        units = _units(world, seat, space, dist)
        brought = _bring(units, space, 0, need - have, ap - COST_RECOVER * taken)
        if brought is not None:
            cost, steps = brought
            goals.append(Goal("recover", gain, cost + COST_RECOVER * taken, [*steps, *recover]))
    return goals


def _exchange_goals(world: GameState, seat: int, left: int) -> list[Goal]:
    mine = world.players[seat].treasures
    goals: list[Goal] = []
    for action in legal.actions_for(world, seat, "exchange"):
        assert isinstance(action, Exchange)
        theirs = world.players[action.player].treasures
        have = mine.get(action.take, 0)
        gain_me = SET_POINTS[min(3, have + 1)] - SET_POINTS[min(3, have)] - 1
        their_have = theirs.get(action.give, 0)
        gain_them = SET_POINTS[min(3, their_have + 1)] - SET_POINTS[min(3, their_have)] - 1
        gain = (gain_me - 0.5 * gain_them) * left
        if gain > 0:
            goals.append(Goal("exchange", gain, COST_EXCHANGE, [action]))
    return goals


def _camp_gain(world: GameState, seat: int, space: Space, base: dict[Space, int]) -> float:
    """AP saved reaching the temples and treasures from a camp on ``space``."""
    from_camp = ways(world, seat, space, 12)
    saved = 0.0
    for target, hex_ in world.hexes.items():
        if (hex_.kind == TEMPLE and hex_.guard is None) or (hex_.kind == TREASURE and hex_.tokens):
            near = from_camp.get(target)
            far = base.get(target, 20)
            if near is not None and near < far:
                saved += min(far - near, 8) * (0.1 + 0.02 * hex_.value)
    return saved


# -- auctions -----------------------------------------------------------------------------


def valued_bid(brain: TikalBrain, state: GameState, seat: int) -> Action:
    """Bid one more than the high bid while that costs less than winning is worth to
    ``seat`` (:func:`auction_worth`), never more than :data:`BID_SHARE` of its score;
    else pass."""
    auction = state.auction
    assert auction is not None
    score = state.players[seat].score
    amount = auction.high + 1
    if amount > score or amount > score * BID_SHARE:
        return Pass()
    return Bid(amount) if amount < BID_SHADE * auction_worth(brain, state, seat) else Pass()


def auction_worth(brain: TikalBrain, state: GameState, seat: int) -> float:
    """What winning this auction is worth to ``seat``, in points (its evaluation's).

    Each revealed hex is priced for ``seat`` and for its strongest rival still bidding
    by what a turn with it gains the one who plays it (its best placement and turn,
    from the position now). Whoever wins takes the hex that leaves it most ahead (its
    own gain, or what it denies the other), the other its best of the rest. The worth
    is ``seat``'s lead when it wins less its lead when the rival wins, plus
    :data:`TEMPO` for playing first: so a rich temple the rival would take is worth
    denying, and a hex nobody needs is worth little."""
    auction = state.auction
    assert auction is not None
    rivals = [other for other in auction.order if other != seat and other not in auction.passed]
    if not rivals:
        return math.inf
    values = projections(state)
    rival = max(rivals, key=lambda other: (values[other], -other))
    mine, theirs = hex_gains(state, seat), hex_gains(state, rival)
    tiles = sorted(set(mine) & set(theirs))
    if not tiles:
        return TEMPO

    def first_takes(first: dict[str, float], second: dict[str, float]) -> float:
        """The first player's gain less the second's, the first taking the hex that
        leaves it most ahead (its own gain, or what it denies)."""
        return max(
            first[tile] - max((second[other] for other in tiles if other != tile), default=0.0)
            for tile in tiles
        )

    return first_takes(mine, theirs) + first_takes(theirs, mine) + TEMPO


def hex_gains(state: GameState, seat: int) -> dict[str, float]:
    """For each revealed hex, what ``seat`` gains in its evaluation by taking it now and
    playing its turn (its best placement, the balanced turn)."""
    world = fast_copy(state)
    if not _win_free(world, seat):
        return {}
    before = relative(world, seat)
    gains: dict[str, float] = {}
    for plan in plans_for(world, seat, PICK_PLACEMENTS, ("balanced",), ("balanced",)):
        pick = plan[0]
        if not isinstance(pick, Pick):
            continue
        tile = world.revealed[pick.slot - 1]
        if TILES[tile].kind == VOLCANO:
            continue
        child = fast_copy(world)
        for step in plan:
            if seat not in rules.waiting_for(child) or not _act(child, seat, step):
                break
        gains[tile] = max(gains.get(tile, -math.inf), relative(child, seat) - before)
    for tile in gains:  # and what the hex is worth to it beyond this turn
        laid = scored_placements(world, seat, tile)
        gains[tile] += LAID_SHARE * max(0.0, laid[0][0]) if laid else 0.0
    values = projections(world)
    lead = values[seat] - max(v for other, v in enumerate(values) if other != seat)
    for tile in set(world.revealed):
        if TILES[tile].kind == VOLCANO:  # every seat scores this round: only the order counts
            gains[tile] = VOLCANO_FIRST + 0.2 * max(0.0, lead)
    return gains


def _win_free(world: GameState, seat: int) -> bool:
    """Let ``seat`` win the auction under way for free (the others pass, ``seat`` bids
    1 when it must and gets its point back); whether it now picks its hex."""
    scores = [player.score for player in world.players]
    for _ in range(4 * world.seats):
        if world.phase != PHASE_BID:
            break
        (bidder,) = rules.waiting_for(world)
        high = world.auction.high if world.auction is not None else 0
        if bidder == seat and not _act(world, seat, Bid(high + 1)):
            _act(world, seat, Pass())
        elif bidder != seat:
            _act(world, bidder, Pass())
    for player, before in zip(world.players, scores, strict=True):
        player.paid -= before - player.score
        player.score = before
    playing = (PHASE_PICK, PHASE_PLACE, PHASE_ACTIONS)
    return world.phase in playing and seat in rules.waiting_for(world)


def relative(state: GameState, seat: int) -> float:
    """``seat``'s projected total less the others' (half the best, half the mean)."""
    return _relative(projections(state), seat)


def _relative(values: list[float], seat: int) -> float:
    mine = values[seat]
    others = [v for s, v in enumerate(values) if s != seat]
    return mine - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def turn_worth(state: GameState, seat: int) -> float:
    """What going now is worth to ``seat``: the choice among the revealed hexes and
    the tempo (a volcano is worth our lead in its scoring)."""
    worths = []
    for tile in state.revealed:
        if TILES[tile].kind == VOLCANO:
            values = projections(state)
            lead = values[seat] - max(v for s, v in enumerate(values) if s != seat)
            worths.append(max(0.0, lead * 0.2) + 2.0)
        else:
            worths.append(_worth(tile))
    if not worths:
        return 0.0
    return max(worths) - min(worths) + 1.0


def bid_decision(state: GameState, seat: int) -> Action:
    """Bid one more than the high bid while that is within the turn's worth; else pass."""
    auction = state.auction
    assert auction is not None
    score = state.players[seat].score
    cap = min(int(turn_worth(state, seat) * 0.6), int(score * BID_SHARE))
    amount = auction.high + 1
    if amount <= cap and amount <= score:
        return Bid(amount)
    return Pass()
