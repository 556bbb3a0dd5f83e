"""The computer player of Tigris & Euphrates: a :class:`~bot.games.computer.Brain`.

The shared search (:func:`bot.games.computer.decide`) asks this brain for the
plans worth considering, an evaluation and a sampler of what a seat has not
seen; it reads the real state only through :meth:`TigrisBrain.sample`.

Decisions:

* **Plans: one action each.** A turn's two actions are two decisions (the
  search looks at the second one in its look-ahead). In the action phase the
  candidates are scored by a cheap heuristic on the board and only the best
  :data:`MAX_ACTION_PLANS` are kept, plus the best :data:`RESERVED_PLANS`
  withdrawals and swaps (the answers to a threat or a poor hand, which the
  heuristic ranks low but the evaluation values):

  - *tiles*: for each colour in hand, empty squares next to a kingdom where
    the tile scores for the seat (its leader of that colour, or its king),
    red tiles next to its own leaders (revolt defence), tiles that complete a
    2×2 of one colour (a monument), tiles that bring a leaderless region with
    treasures into its trader's kingdom, and joins that start a war, scored
    by the chance of winning it (:func:`win_chance`); at most
    :data:`PER_COLOUR` squares per colour;
  - *leaders*: from supply (or moved, a little penalised) next to temples,
    into kingdoms without a leader of that colour (more tiles of its colour,
    temples next to it, the treasures a trader takes count), or revolts by
    their chance of being won; at most :data:`PER_LEADER` squares per leader;
  - *catastrophes* on the only temple next to an opponent's leader (the
    leader goes back to supply), never on one that holds up the seat's own
    leader;
  - *withdrawals* of a leader another player could beat in a war started
    with one tile (:func:`war_risk`): withdrawn, it gives the winner nothing;
  - *swaps*: the tiles of colours the seat has no leader on the board for
    (red kept for support), or the whole hand when it cannot score at all;
  - ``pass`` only when nothing else is found.

  The other decisions are small and all their options are plans: support
  (0 to the eligible tiles), the order of wars, which treasures to take,
  which monument (or none).
* **Conflicts from the seat's own information.** Whether a revolt or a war
  can be won is a chance, never read off a sampled hand: the defender's hand
  is as many tiles drawn from those the seat has not seen
  (:func:`holds_at_most`, hypergeometric), and the defender wins ties. The
  attacker's support rule (:func:`attack_support`: the count with the best
  chance, less :data:`SUPPORT_COST` per tile) is the same in the look-ahead
  that values the placement starting a conflict and in the support decided
  after it, so a revolt started is a revolt fought (a look-ahead that read the
  sampled hand would value a placement as if its support always won, which
  the support decided without that hand does not bear out).
* **One horizon for a turn.** The strong look-ahead ends when the deciding
  seat's next turn begins (the rest of its turn, then every other player's),
  whatever the decision (an action, a support, a treasure): the placement
  and the support that follows it are valued at the same moment of the game.
* **Evaluation** (from the seat's side, minus the opponents': the best of
  them in part, their mean in part, so a 2-player game is a plain
  difference). Each seat's value is its points after treasures sorted
  weakest first, weighted :data:`SORTED_WEIGHTS` (the final score is the
  weakest colour, then the next), plus its leaders on the board (each worth
  more in a bigger kingdom with more tiles of its colour and more temples
  next to it, and more the weaker its colour; less by :data:`EXPOSED` of
  the risk of losing it in a war one tile could start, with the points the
  winner would take), the tiles in hand (red for support, colours it has
  leaders for), and catastrophes left. A state waiting for a conflict, a war
  order, treasures or a monument is first settled by the greedy policy, so
  a plan that starts a war is valued by the war's result. A finished game is
  worth ±WIN (:func:`~bot.games.computer.result_value`).
* **Hidden information, sampled honestly.** Hidden are the other hands and
  the bag's order. The sampler starts from every tile that is neither on the
  board nor in the seat's hand (the tile counts are public), sorts them,
  shuffles them with the search's random source and deals the other hands
  (their sizes are public) and the bag (its size is public); the rest are
  the discarded tiles. Which tiles were discarded is not used: the state
  does not keep it, and others' swaps hide it. The state's seed is replaced.
  The other players' points stay as they are, also under hidden scoring:
  every point is scored by a public action (a tile next to a leader, a
  conflict's outcome, a monument's points, a treasure taken), so a player
  who follows the public log knows them all, and the computer does
  (``tests/games/tigris/test_tigris_computer.py`` replays games with every
  hand and the bag dealt differently and gets the same points).
* **Budgets.** ``easy``: one sampled world, every plan valued once, picked by
  a softmax at temperature :data:`EASY_TEMPERATURE` (under a third of a
  point in the weakest colour, which weighs 2), so it usually plays a good
  move and sometimes a merely decent one; a few ms. ``strong``:
  :data:`STRONG` — the best plans of the one-world screen are each played in
  sampled worlds up to the horizon above, by the greedy policy
  (:meth:`TigrisBrain.rollout_plan`: the best plan of the cheap heuristic,
  support by the rules above), inside 2 s of one core at p99 (docs/computer.md
  has the measurements).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache

from bot.games.base import GameEngine
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
    WithdrawLeader,
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
#: withdrawals and swaps kept beside them
RESERVED_PLANS = 3
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
#: the strong search; its look-ahead ends when the deciding seat's next turn begins (the
#: rest of its turn, every other player's turn: the depth only bounds it), so every
#: decision of a turn, a placement and the support that follows, is valued at the same
#: moment of the game
STRONG = Budget(worlds=6, candidates=5, depth=40, temperature=0.0)
#: greedy steps that settle a pending conflict or question before evaluating
SETTLE_STEPS = 12
#: the share of a leader's worth (and of the points its loss gives) lost to the risk
#: of a war another player can start with one tile
EXPOSED = 0.5
#: a treasure a placement takes at once, in the heuristic's units (a wild point)
TREASURE_WORTH = 1.5
#: what committing one more tile to a conflict must add to the chance of winning it
SUPPORT_COST = 0.08


class TigrisBrain(Brain[GameState, Action]):
    """Plans, evaluation and honest sampling for Tigris & Euphrates (module docstring)."""

    # --- the contract ---------------------------------------------------------------

    def baseline(self) -> Brain[GameState, Action]:
        """The frozen strong player of commit 41143bd (:mod:`bot.games.tigris.baseline`)."""
        from bot.games.tigris.baseline import TigrisBaseline

        return TigrisBaseline(self.engine)

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

    def __init__(self, engine: GameEngine[GameState, Action]) -> None:
        super().__init__(engine)
        #: the seat deciding and its turn, from the real state the search samples: the
        #: look-ahead stops when that seat's next turn begins
        self.decider: tuple[int, int] | None = None

    def evaluate(self, state: GameState, seat: int) -> float:
        if state.phase not in (PHASE_ACTION, PHASE_OVER):
            state = self._settled(state)
        final = result_value(self.engine, state, seat)
        if final is not None:
            return final
        return _relative_value(state, seat)

    def sample(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        self.decider = (seat, state.turn_number)
        world = state.copy()
        unseen = unseen_tiles(state, seat)
        pool = [colour for colour in COLOURS for _ in range(max(0, unseen[colour]))]
        rng.shuffle(pool)
        for other, player in enumerate(world.players):
            if other == seat:
                continue
            size = len(player.hand)
            player.hand = sorted(pool[:size], key=COLOURS.index)
            del pool[:size]
        size = len(world.bag)
        world.bag = pool[:size]
        world.seed = rng.getrandbits(32)
        return world

    def rollout_plan(self, state: GameState, seat: int, rng: random.Random) -> Plan | None:
        if self.decider is not None:
            decider, turn = self.decider
            if state.active == decider and state.turn_number > turn:
                return None  # the deciding seat's next turn: every decision is valued here
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


def unseen_tiles(state: GameState, seat: int) -> Counter[Colour]:
    """The tiles ``seat`` has not seen, by colour: neither on the board nor in its hand
    (the other hands, the bag and the discards are dealt from them)."""
    unseen = Counter(TILE_COUNTS)
    unseen.subtract(state.board.tiles.values())
    unseen.subtract(state.players[seat].hand)
    return unseen


def holds_at_most(state: GameState, seat: int, other: int, colour: Colour, most: int) -> float:
    """The chance, as ``seat`` sees it, that ``other``'s hand holds at most ``most`` tiles
    of ``colour``: its hand is as many tiles drawn from what ``seat`` has not seen
    (hypergeometric). The same for every world sampled from ``seat``'s information."""
    if most < 0:
        return 0.0
    unseen = unseen_tiles(state, seat)
    total = sum(max(0, n) for n in unseen.values())
    good = max(0, unseen[colour])
    size = min(len(state.players[other].hand), total)
    if most >= min(size, good):
        return 1.0
    return _hypergeometric_cdf(total, good, size, most)


@lru_cache(maxsize=20_000)
def _hypergeometric_cdf(total: int, good: int, draws: int, most: int) -> float:
    whole = math.comb(total, draws)
    if whole == 0:
        return 1.0
    return (
        sum(math.comb(good, k) * math.comb(total - good, draws - k) for k in range(most + 1))
        / whole
    )


def win_chance(state: GameState, seat: int, rival: int, colour: Colour, lead: int) -> float:
    """The chance an attacker ``lead`` ahead of the defender (temples or tiles, with its own
    support counted) wins once the defender commits all it holds of ``colour``: the
    defender wins ties, so it must hold at most ``lead - 1``."""
    return holds_at_most(state, seat, rival, colour, lead - 1)


def attack_support(state: GameState, seat: int) -> int:
    """What an attacker commits, from its own information only (never the defender's
    hand, even in a sampled world, where it is known): the count with the best chance
    of winning, less :data:`SUPPORT_COST` per tile. The same rule values the placement
    that starts a conflict and the support decided after it, so a revolt started is a
    revolt fought."""
    conflict = state.conflict
    assert conflict is not None
    colour = conflict.support_colour
    mine = state.players[seat].hand.count(colour)
    best, best_value = 0, -math.inf
    for count in range(mine + 1):
        lead = conflict.attacker_base + count - conflict.defender_base
        value = win_chance(state, seat, conflict.defender, colour, lead) - SUPPORT_COST * count
        if value > best_value + 1e-9:
            best, best_value = count, value
    return best


def _greedy_support(state: GameState, seat: int) -> int:
    """The attacker by :func:`attack_support`; the defender, who sees the attack, commits
    just enough to win when it can, nothing when it cannot."""
    conflict = state.conflict
    assert conflict is not None
    colour = conflict.support_colour
    mine = state.players[seat].hand.count(colour)
    if seat == conflict.attacker:
        return attack_support(state, seat)
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
    candidates.sort(key=lambda pair: -pair[0])
    kept = candidates[:MAX_ACTION_PLANS]
    # the answers to a threat or a poor hand always reach the search: the one-world
    # screen values them with the evaluation's war risk and hand
    kept += sorted(_withdraw_candidates(view) + _swap_candidates(view), key=lambda pair: -pair[0])[
        :RESERVED_PLANS
    ]
    kept.sort(key=lambda pair: -pair[0])
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
        chance = win_chance(state, seat, other, war_colour, mine + my_hand - theirs)
        total += chance * ((1 + theirs) * view.need[war_colour] + 1.0)
        total -= (1 - chance) * ((1 + mine) * view.need[war_colour] + 1.0)
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
                    chance = win_chance(state, seat, rival, RED, temples_here + my_red - theirs)
                    gain = 1.5 + 0.3 * view.face_up_count(regions.squares[region], colour)
                    value += chance * gain - (1 - chance) * 2.0
                else:
                    members = regions.squares[region]
                    value += 0.25 * min(8, view.face_up_count(members, colour))
                    value += 0.05 * min(20, len(members))
                    if colour == GREEN:  # the trader takes all treasures but one
                        treasures = sum(1 for s in members if s in board.treasures)
                        value += TREASURE_WORTH * max(0, treasures - 1) + 0.3 * min(1, treasures)
                    if colour == BLACK:
                        value += 0.03 * min(20, len(members))
            else:
                value += 0.1 * _adjacent_group_tiles(view, sq, colour)
                if colour == GREEN:  # founds a kingdom: its trader takes all treasures but one
                    treasures = _adjacent_group_treasures(view, sq)
                    value += TREASURE_WORTH * max(0, treasures - 1) + 0.3 * min(1, treasures)
            value *= view.need[colour]
            if origin is not None:
                value -= current + 0.5
            options.append((value, PlaceLeader(colour, sq)))
        options.sort(key=lambda pair: -pair[0])
        result.extend(options[:PER_LEADER])
    return result


def _adjacent_group_treasures(view: _Board, sq: Square) -> int:
    groups = {view.group[nb] for nb in NEIGHBOURS[sq] if nb in view.group}
    return sum(1 for group in groups for s in view.groups[group] if s in view.board.treasures)


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


def _withdraw_candidates(view: _Board) -> list[tuple[float, Action]]:
    """Leaders an opponent could attack with one tile (a war over a square next to both
    kingdoms) and would likely beat: withdrawn, they give the winner no points."""
    board, regions, seat, state = view.board, view.regions, view.seat, view.state
    result: list[tuple[float, Action]] = []
    for sq, leader in sorted(board.leaders.items()):
        if leader.seat != seat:
            continue
        mine_region = regions.region_of(sq)
        if mine_region < 0:
            continue
        mine = view.face_up_count(regions.squares[mine_region], leader.colour)
        my_hand = view.hand.count(leader.colour)
        worst = 0.0
        for other in regions.kingdoms():
            rival_sq = view.leader_of(other, leader.colour) if other != mine_region else None
            if rival_sq is None or board.leaders[rival_sq].seat == seat:
                continue
            joins = any(
                _empty(view, nb)
                and mine_region in regions.kingdoms_around(nb)
                and other in regions.kingdoms_around(nb)
                and len(regions.kingdoms_around(nb)) == 2
                for member in regions.squares[mine_region]
                for nb in NEIGHBOURS[member]
            )
            if not joins:
                continue
            theirs = view.face_up_count(regions.squares[other], leader.colour)
            # they attack and we defend (ties are ours) with all we hold
            lose = 1.0 - holds_at_most(
                state, seat, board.leaders[rival_sq].seat, leader.colour, mine + my_hand - theirs
            )
            worst = max(worst, lose * (1 + mine) * view.need[leader.colour])
        if worst > 0.5:
            result.append((worst - 1.0, WithdrawLeader(leader.colour)))
    return result


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


def joinable(state: GameState, regions: Regions) -> dict[int, set[int]]:
    """For each kingdom, the kingdoms one tile could join it to (an empty square next to
    both and to no third)."""
    board = state.board
    pairs: dict[int, set[int]] = {}
    seen: set[Square] = set()
    for members in regions.squares:
        for sq in members:
            for nb in NEIGHBOURS[sq]:
                if nb in seen or not board.is_empty(nb):
                    continue
                seen.add(nb)
                around = regions.kingdoms_around(nb)
                if len(around) == 2:
                    first, second = sorted(around)
                    pairs.setdefault(first, set()).add(second)
                    pairs.setdefault(second, set()).add(first)
    return pairs


def war_risk(
    state: GameState, seat: int, sq: Square, regions: Regions, joins: dict[int, set[int]]
) -> tuple[float, int]:
    """The chance, as ``seat`` sees it, that its leader on ``sq`` loses a war another
    player starts with one tile (the likeliest such war), and the face-up tiles of its
    colour on its side (what the winner would score)."""
    board = state.board
    leader = board.leaders[sq]
    region = regions.region_of(sq)
    if region < 0 or region not in joins:
        return 0.0, 0
    colour = leader.colour
    mine = sum(1 for s in regions.squares[region] if board.is_face_up(s, colour))
    held = state.players[seat].hand.count(colour)
    worst = 0.0
    for other in joins[region]:
        rival = next(
            (
                board.leaders[s].seat
                for s in regions.leaders[other]
                if board.leaders[s].colour == colour and board.leaders[s].seat != seat
            ),
            None,
        )
        if rival is None:
            continue
        theirs = sum(1 for s in regions.squares[other] if board.is_face_up(s, colour))
        worst = max(worst, 1.0 - holds_at_most(state, seat, rival, colour, mine + held - theirs))
    return worst, mine


def _seat_value(state: GameState, seat: int, regions: Regions, joins: dict[int, set[int]]) -> float:
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
        worth *= need[leader.colour] * 0.8
        risk, side = war_risk(state, seat, sq, regions, joins)
        # a leader another player can beat in a war by one tile: it may be lost, with a
        # point for the winner per tile of its side (withdrawing it saves those)
        value += worth - EXPOSED * risk * (worth + 0.5 * (1 + side))
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
    joins = joinable(state, regions)
    values = [_seat_value(state, other, regions, joins) for other in range(len(state.players))]
    mine = values[seat]
    others = [value for other, value in enumerate(values) if other != seat]
    if not others:
        return mine
    best = max(others)
    mean = sum(others) / len(others)
    return mine - BEST_OPPONENT_SHARE * best - (1 - BEST_OPPONENT_SHARE) * mean
