"""Legality: one ``check_*`` per action, raising :class:`RuleError` or returning
what the action needs; none of them changes the state.

The rules checked (``docs/rules/tikal.md#action-points``):

* Laying a hex: see :mod:`bot.games.tikal.placement`.
* Entering (1 AP): a figure from supply onto the base camp or one of your
  own camps (never another player's camp); at most 10 per turn.
* Moving: see :mod:`bot.games.tikal.paths`.
* Digging (2 AP): the next level of an unguarded temple while a tile of the
  next value is left; at most 2 levels per temple per turn, the k-th needing
  at least k of your figures there (the leader counts 1).
* Recovering (3 AP): the top token of a treasure hex; at most 2 per hex per
  turn, the k-th needing at least k of your figures there.
* Exchanging (3 AP): one of your single treasures for another player's
  single treasure; pairs and triples are never split; never refused.
* A camp (5 AP): on a jungle or an emptied treasure hex without a camp, no
  figure needed; 2 per player (1 in Mini-Tikal).
* A guard (5 AP): on an unguarded temple where you are strictly strongest
  (leader 3, worker 1); 2 per player (1 in Mini-Tikal).

Decisions:

* Exchanging a kind for the same kind would change nothing and is refused.
* A guarded temple takes no second guard.
* Checks are ordered from what the player named to what they can afford,
  so a refusal names the first thing to fix; the AP check comes last.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import RuleError
from bot.games.tikal import placement
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
from bot.games.tikal.board import (
    Space,
    space_name,
)
from bot.games.tikal.components import (
    COST_CAMP,
    COST_DIG,
    COST_ENTER,
    COST_EXCHANGE,
    COST_GUARD,
    COST_RECOVER,
    JUNGLE,
    LEADER,
    MAX_ENTERED_PER_TURN,
    MAX_LEVELS_PER_TEMPLE_PER_TURN,
    MAX_TOKENS_PER_HEX_PER_TURN,
    TEMPLE,
    TOP_TEMPLE_VALUE,
    TREASURE,
    VOLCANO,
)
from bot.games.tikal.paths import path_cost
from bot.games.tikal.state import (
    BASE_CAMP,
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_OVER,
    PHASE_PICK,
    GameState,
    Hex,
    Turn,
)
from bot.games.tikal.texts import figure_text, treasure_text

# -- whose turn ------------------------------------------------------------------


def waiting_for(state: GameState) -> set[int]:
    """The one seat the game waits for (none once it is over)."""
    if state.phase == PHASE_OVER:
        return set()
    if state.phase == PHASE_BID and state.auction is not None:
        return {state.auction.current}
    if state.turn is not None:
        return {state.turn.seat}
    return set()


def check_seat(state: GameState, seat: int) -> None:
    if state.phase == PHASE_OVER:
        raise RuleError("tikal.error.game_over")
    if seat not in waiting_for(state):
        raise RuleError("tikal.error.not_your_turn")


def check_phase(state: GameState, phase: str) -> None:
    """Refuse an action of another phase, saying what the game waits for."""
    if state.phase != phase:
        raise RuleError(f"tikal.error.phase.{state.phase}")


def acting_turn(state: GameState) -> Turn:
    """The turn, if it is in its action phase."""
    check_phase(state, PHASE_ACTIONS)
    assert state.turn is not None
    return state.turn


def check_ap(turn: Turn, cost: int) -> None:
    if turn.ap < cost:
        raise RuleError("tikal.error.no_ap", cost=cost, ap=turn.ap)


def laid(state: GameState, space: Space) -> Hex:
    found = state.hexes.get(space)
    if found is None:
        raise RuleError("tikal.error.empty_space", space=space_name(space))
    return found


# -- the seven actions -----------------------------------------------------------


def check_enter(state: GameState, seat: int, action: Enter) -> Turn:
    turn = acting_turn(state)
    player = state.players[seat]
    target = state.hexes.get(action.space)
    if action.space != BASE_CAMP:
        if target is not None and target.camp is not None and target.camp != seat:
            raise RuleError("tikal.error.others_camp", space=space_name(action.space))
        if target is None or target.camp != seat:
            raise RuleError("tikal.error.not_a_camp", space=space_name(action.space))
    if action.kind == LEADER and not player.leader:
        raise RuleError("tikal.error.leader_not_in_supply")
    if action.kind != LEADER and player.workers <= 0:
        raise RuleError("tikal.error.no_workers_in_supply")
    if turn.entered >= MAX_ENTERED_PER_TURN:
        raise RuleError("tikal.error.enter_limit", limit=MAX_ENTERED_PER_TURN)
    check_ap(turn, COST_ENTER)
    return turn


def check_move(state: GameState, seat: int, action: Move) -> int:
    """The move's cost, if ``seat`` may make it."""
    turn = acting_turn(state)
    origin = laid(state, action.origin)
    figs = origin.of(seat)
    has = figs.leader if action.kind == LEADER else figs.workers > 0
    if not has:
        raise RuleError(
            "tikal.error.no_figure_there",
            figure=figure_text(action.kind),
            space=space_name(action.origin),
        )
    if action.target == action.origin:
        raise RuleError("tikal.error.same_space", space=space_name(action.origin))
    target = laid(state, action.target)
    if target.kind == VOLCANO:
        raise RuleError("tikal.error.volcano", space=space_name(action.target))
    cost = path_cost(state, seat, action.origin, action.target)
    if cost is None:
        raise RuleError(
            "tikal.error.no_path",
            origin=space_name(action.origin),
            target=space_name(action.target),
        )
    if cost > turn.ap:
        raise RuleError(
            "tikal.error.too_far",
            origin=space_name(action.origin),
            target=space_name(action.target),
            cost=cost,
            ap=turn.ap,
        )
    return cost


def next_level(state: GameState, hex_: Hex) -> int | None:
    """The value a temple would be raised to, or None when no tile is left for it."""
    value = hex_.value + 1
    if value > TOP_TEMPLE_VALUE or state.tiles_left.get(value, 0) <= 0:
        return None
    return value


def check_dig(state: GameState, seat: int, action: Dig) -> int:
    """The temple's new value, if ``seat`` may dig it."""
    turn = acting_turn(state)
    hex_ = laid(state, action.space)
    name = space_name(action.space)
    if hex_.kind != TEMPLE:
        raise RuleError("tikal.error.not_temple", space=name)
    if hex_.guard is not None:
        raise RuleError("tikal.error.guarded", space=name)
    done = turn.dug.get(action.space, 0)
    if done >= MAX_LEVELS_PER_TEMPLE_PER_TURN:
        raise RuleError("tikal.error.dig_limit", space=name, limit=MAX_LEVELS_PER_TEMPLE_PER_TURN)
    have = hex_.of(seat).count
    if have < done + 1:
        raise RuleError("tikal.error.dig_figures", space=name, needed=done + 1, have=have)
    value = next_level(state, hex_)
    if value is None:
        raise RuleError("tikal.error.no_temple_tile", space=name, value=hex_.value + 1)
    check_ap(turn, COST_DIG)
    return value


def check_recover(state: GameState, seat: int, action: Recover) -> None:
    turn = acting_turn(state)
    space = action.space
    hex_ = laid(state, space)
    name = space_name(space)
    if hex_.kind != TREASURE:
        raise RuleError("tikal.error.not_treasure", space=name)
    if not hex_.tokens:
        raise RuleError("tikal.error.no_tokens", space=name)
    done = turn.recovered.get(space, 0)
    if done >= MAX_TOKENS_PER_HEX_PER_TURN:
        raise RuleError("tikal.error.recover_limit", space=name, limit=MAX_TOKENS_PER_HEX_PER_TURN)
    have = hex_.of(seat).count
    if have < done + 1:
        raise RuleError("tikal.error.recover_figures", space=name, needed=done + 1, have=have)
    check_ap(turn, COST_RECOVER)


def check_exchange(state: GameState, seat: int, action: Exchange) -> None:
    turn = acting_turn(state)
    other = action.player
    if other == seat:
        raise RuleError("tikal.error.exchange_self")
    if not 0 <= other < state.seats:
        raise RuleError("tikal.error.no_such_player", player=action.player)
    if action.give == action.take:
        raise RuleError("tikal.error.exchange_same")
    mine = state.players[seat].treasures.get(action.give, 0)
    if mine != 1:
        raise RuleError("tikal.error.not_single", treasure=treasure_text(action.give), count=mine)
    theirs = state.players[other].treasures.get(action.take, 0)
    if theirs != 1:
        raise RuleError(
            "tikal.error.not_single_other",
            treasure=treasure_text(action.take),
            count=theirs,
            other_seat=other,
        )
    check_ap(turn, COST_EXCHANGE)


def camp_ground(hex_: Hex) -> bool:
    """A jungle, or a treasure hex whose tokens are all recovered."""
    return hex_.kind == JUNGLE or (hex_.kind == TREASURE and not hex_.tokens)


def check_camp(state: GameState, seat: int, action: Camp) -> None:
    turn = acting_turn(state)
    hex_ = laid(state, action.space)
    name = space_name(action.space)
    if not camp_ground(hex_):
        raise RuleError("tikal.error.camp_ground", space=name)
    if hex_.camp is not None:
        raise RuleError("tikal.error.camp_taken", space=name, other_seat=hex_.camp)
    if state.players[seat].camps <= 0:
        raise RuleError("tikal.error.no_camps_left")
    check_ap(turn, COST_CAMP)


def strongest(state: GameState, space: Space) -> int | None:
    """The strictly strongest seat on ``space`` (leader 3, worker 1), or None on a tie."""
    strengths = state.strengths(space)
    if not strengths:
        return None
    best = max(strengths.values())
    top = [seat for seat, value in strengths.items() if value == best]
    return top[0] if len(top) == 1 else None


def check_guard(state: GameState, seat: int, action: Guard) -> None:
    turn = acting_turn(state)
    hex_ = laid(state, action.space)
    name = space_name(action.space)
    if hex_.kind != TEMPLE:
        raise RuleError("tikal.error.not_temple", space=name)
    if hex_.guard is not None:
        raise RuleError("tikal.error.already_guarded", space=name, other_seat=hex_.guard)
    figs = hex_.of(seat)
    if not (figs.leader if action.kind == LEADER else figs.workers > 0):
        raise RuleError("tikal.error.no_figure_there", figure=figure_text(action.kind), space=name)
    if strongest(state, action.space) != seat:
        best = max((v for s, v in state.strengths(action.space).items() if s != seat), default=0)
        raise RuleError("tikal.error.not_strongest", space=name, mine=figs.strength, best=best)
    if state.players[seat].guards <= 0:
        raise RuleError("tikal.error.no_guards_left")
    check_ap(turn, COST_GUARD)


# -- auction ---------------------------------------------------------------------


def check_pick(state: GameState, action: Pick) -> None:
    check_phase(state, PHASE_PICK)
    if not 1 <= action.slot <= len(state.revealed):
        raise RuleError("tikal.error.no_such_slot", slot=action.slot, count=len(state.revealed))


def check_bid(state: GameState, seat: int, action: Bid) -> None:
    check_phase(state, PHASE_BID)
    auction = state.auction
    assert auction is not None
    score = state.players[seat].score
    if action.amount <= auction.high:
        raise RuleError("tikal.error.bid_too_low", minimum=auction.high + 1)
    if action.amount > score:
        raise RuleError("tikal.error.bid_too_high", amount=action.amount, score=score)


# -- any action ------------------------------------------------------------------


def check(state: GameState, seat: int, action: Action) -> None:
    """Raise the :class:`RuleError` that applying ``action`` would raise, if any."""
    check_seat(state, seat)
    CHECKS[type(action)](state, seat, action)


CHECKS: dict[type, Callable[[GameState, int, Any], object]] = {
    Place: lambda state, seat, action: placement.check_place(state, action),
    Pick: lambda state, seat, action: check_pick(state, action),
    Bid: check_bid,
    Pass: lambda state, seat, action: check_phase(state, PHASE_BID),
    Enter: check_enter,
    Move: check_move,
    Dig: check_dig,
    Recover: check_recover,
    Exchange: check_exchange,
    Camp: check_camp,
    Guard: check_guard,
    End: lambda state, seat, action: check_phase(state, PHASE_ACTIONS),
}
