"""Applying actions: each is checked whole (:mod:`bot.games.tikal.rules`)
before anything changes, then carried out, then the turn order moves on
(:mod:`bot.games.tikal.turns`) when it ends a turn or an auction.

Decisions:

* A guard's other figures on that temple leave the game (counted as
  removed); the guard itself is the chosen figure, out of play for good.
* A treasure token recovered goes face up to its finder at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import Event, RuleError
from bot.games.tikal import auction, placement, rules, turns
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
    action_spaces,
)
from bot.games.tikal.board import space_name
from bot.games.tikal.components import (
    COST_CAMP,
    COST_DIG,
    COST_ENTER,
    COST_EXCHANGE,
    COST_GUARD,
    COST_RECOVER,
    LEADER,
    TILES,
)
from bot.games.tikal.scoring import score_step
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_BID,
    SCORING_TURNS,
    Figures,
    GameState,
    Hex,
    LastAction,
    Turn,
    deal_tokens,
)
from bot.games.tikal.texts import figure_text, hex_text, treasure_text
from bot.games.tikal.views import step_caption


def apply(state: GameState, seat: int, action: Action) -> list[Event]:
    """Apply ``action`` for ``seat`` or raise :class:`RuleError` leaving ``state`` untouched."""
    rules.check_seat(state, seat)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("tikal.error.bad_notation", text=str(action))
    events = handler(state, seat, action)
    spaces = action_spaces(action)
    if spaces:
        state.last_action = LastAction(seat, spaces, str(action))
    if state.steps and state.steps[-1].seat != seat:  # another seat acts: a hand-off was made
        state.steps = []
    state.steps.append(LastAction(seat, spaces, str(action), step_caption(state, action).to_json()))
    return events


def _turn(state: GameState) -> Turn:
    assert state.turn is not None
    return state.turn


def _place(state: GameState, seat: int, action: Place) -> list[Event]:
    tile = placement.check_place(state, action)
    state.hexes[action.space] = Hex(tile=tile, rotation=action.rotation, value=TILES[tile].value)
    deal_tokens(state, action.space)
    state.in_hand = None
    state.last_placer = seat
    state.phase = PHASE_ACTIONS
    return [
        Event(
            "tikal.event.placed",
            {
                "seat": seat,
                "hex": hex_text(tile),
                "space": space_name(action.space),
                "rotation": action.rotation,
            },
        )
    ]


def _figures(hex_: Hex, seat: int) -> Figures:
    figs = hex_.figures.get(seat)
    if figs is None:
        figs = hex_.figures[seat] = Figures()
    return figs


def _tidy(hex_: Hex, seat: int) -> None:
    figs = hex_.figures.get(seat)
    if figs is not None and figs.workers == 0 and not figs.leader:
        del hex_.figures[seat]


def _enter(state: GameState, seat: int, action: Enter) -> list[Event]:
    turn = rules.check_enter(state, seat, action)
    player = state.players[seat]
    figs = _figures(state.hexes[action.space], seat)
    if action.kind == LEADER:
        player.leader = False
        figs.leader = True
    else:
        player.workers -= 1
        figs.workers += 1
    turn.entered += 1
    turn.ap -= COST_ENTER
    return [
        Event(
            "tikal.event.entered",
            {"seat": seat, "figure": figure_text(action.kind), "space": space_name(action.space)},
        )
    ]


def _move(state: GameState, seat: int, action: Move) -> list[Event]:
    cost = rules.check_move(state, seat, action)
    origin, target = state.hexes[action.origin], state.hexes[action.target]
    here, there = _figures(origin, seat), _figures(target, seat)
    if action.kind == LEADER:
        here.leader, there.leader = False, True
    else:
        here.workers -= 1
        there.workers += 1
    _tidy(origin, seat)
    _turn(state).ap -= cost
    return [
        Event(
            "tikal.event.moved",
            {
                "seat": seat,
                "figure": figure_text(action.kind),
                "origin": space_name(action.origin),
                "target": space_name(action.target),
                "cost": cost,
            },
        )
    ]


def _dig(state: GameState, seat: int, action: Dig) -> list[Event]:
    value = rules.check_dig(state, seat, action)
    turn = _turn(state)
    state.hexes[action.space].value = value
    state.tiles_left[value] -= 1
    turn.dug[action.space] = turn.dug.get(action.space, 0) + 1
    turn.ap -= COST_DIG
    return [
        Event("tikal.event.dug", {"seat": seat, "space": space_name(action.space), "value": value})
    ]


def _recover(state: GameState, seat: int, action: Recover) -> list[Event]:
    rules.check_recover(state, seat, action)
    turn = _turn(state)
    hex_ = state.hexes[action.space]
    kind = hex_.tokens.pop()
    treasures = state.players[seat].treasures
    treasures[kind] = treasures.get(kind, 0) + 1
    turn.recovered[action.space] = turn.recovered.get(action.space, 0) + 1
    turn.ap -= COST_RECOVER
    return [
        Event(
            "tikal.event.recovered",
            {
                "seat": seat,
                "treasure": treasure_text(kind),
                "space": space_name(action.space),
                "left": len(hex_.tokens),
            },
        )
    ]


def _exchange(state: GameState, seat: int, action: Exchange) -> list[Event]:
    rules.check_exchange(state, seat, action)
    mine = state.players[seat].treasures
    theirs = state.players[action.player].treasures
    for holder, lose, gain in (
        (mine, action.give, action.take),
        (theirs, action.take, action.give),
    ):
        holder[lose] -= 1
        if not holder[lose]:
            del holder[lose]
        holder[gain] = holder.get(gain, 0) + 1
    _turn(state).ap -= COST_EXCHANGE
    return [
        Event(
            "tikal.event.exchanged",
            {
                "seat": seat,
                "other_seat": action.player,
                "give": treasure_text(action.give),
                "take": treasure_text(action.take),
            },
        )
    ]


def _camp(state: GameState, seat: int, action: Camp) -> list[Event]:
    rules.check_camp(state, seat, action)
    state.hexes[action.space].camp = seat
    state.players[seat].camps -= 1
    _turn(state).ap -= COST_CAMP
    return [Event("tikal.event.camp", {"seat": seat, "space": space_name(action.space)})]


def _guard(state: GameState, seat: int, action: Guard) -> list[Event]:
    rules.check_guard(state, seat, action)
    hex_ = state.hexes[action.space]
    player = state.players[seat]
    figs = hex_.figures.pop(seat)
    if action.kind == LEADER:
        removed_workers, removed_leader = figs.workers, False
    else:
        removed_workers, removed_leader = figs.workers - 1, figs.leader
    player.removed_workers += removed_workers
    player.removed_leader = player.removed_leader or removed_leader
    player.guards -= 1
    hex_.guard = seat
    hex_.guard_figure = action.kind
    _turn(state).ap -= COST_GUARD
    removed = removed_workers + (1 if removed_leader else 0)
    return [
        Event(
            "tikal.event.guard" if removed else "tikal.event.guard_alone",
            {
                "seat": seat,
                "space": space_name(action.space),
                "figure": figure_text(action.kind),
                "value": hex_.value,
                "removed": removed,
            },
        )
    ]


def _end(state: GameState, seat: int, action: End) -> list[Event]:
    rules.check_phase(state, PHASE_ACTIONS)
    turn = _turn(state)
    events = [Event("tikal.event.turn_ended", {"seat": seat, "ap": turn.ap})]
    if turn.kind in SCORING_TURNS:
        events.append(score_step(state, seat))
        turns.after_scoring_turn(state, seat, events)
    else:
        turns.after_turn(state, seat, events)
    return events


def _pick(state: GameState, seat: int, action: Pick) -> list[Event]:
    rules.check_pick(state, action)
    events: list[Event] = []
    turns.take_revealed(state, seat, action.slot - 1, events)
    return events


def _bid(state: GameState, seat: int, action: Bid) -> list[Event]:
    rules.check_bid(state, seat, action)
    events: list[Event] = []
    winner = auction.bid(state, seat, action.amount, events)
    if winner is not None:
        turns.won(state, winner)
    return events


def _pass(state: GameState, seat: int, action: Pass) -> list[Event]:
    rules.check_phase(state, PHASE_BID)
    events: list[Event] = []
    winner = auction.pass_turn(state, seat, events)
    if winner is not None:
        turns.won(state, winner)
    return events


_HANDLERS: dict[type, Callable[[GameState, int, Any], list[Event]]] = {
    Place: _place,
    Pick: _pick,
    Bid: _bid,
    Pass: _pass,
    Enter: _enter,
    Move: _move,
    Dig: _dig,
    Recover: _recover,
    Exchange: _exchange,
    Camp: _camp,
    Guard: _guard,
    End: _end,
}
