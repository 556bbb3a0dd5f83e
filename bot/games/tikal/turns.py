"""The order of turns: drawing, auction rounds, scoring rounds, the end.

Base game: seat 0 starts; each turn draws the top hex, lays it and spends
10 AP; play goes clockwise.

Auction (and Mini-Tikal): each round reveals as many hexes as players and
auctions the turns one by one (:mod:`bot.games.tikal.auction`); the first
auction is opened by the first seat (Mini-Tikal: a random seat), later
ones by the first player clockwise from the one who just played who has
not yet played this round; the last player of a round takes the last hex
for free; the next round is opened by the clockwise neighbour of the
round's last player.

A volcano (drawn, bought or the last hex): its taker sets it aside, takes
10 AP and scores; every other player clockwise takes 10 AP and scores
(in the auction variant everyone, including those who already played this
round, and these turns are not their turn of the round); then the taker
lays the volcano and takes a normal 10-AP turn, drawing no hex.

Final scoring, after the player who laid the last hex has used their AP:
each player takes 10 AP and then scores. Base game: from the next seat
clockwise, ending with the last placer. Auction: lowest score first (scores
before final scoring starts); among tied players clockwise from the seat
after the last placer, so the last placer comes last among them.

Decisions:

* A turn's first step (the drawn hex, the revealed row, the volcano) is
  announced by the ``end`` that hands over, so ``end`` is always a
  checkpoint.
* If the stack ran out before a round's hexes were all revealed (not with
  the shipped tile set: 36 and 12 divide by every player count), the round
  reveals what is left and the players without a hex play no turn; the
  final scoring follows.
"""

from __future__ import annotations

from bot.games.base import Event
from bot.games.tikal import auction
from bot.games.tikal.components import TILES, VOLCANO
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PLACE,
    TURN_FINAL,
    TURN_NORMAL,
    TURN_SCORING,
    TURN_VOLCANO,
    GameState,
    Scoring,
    Turn,
    new_state,
)
from bot.games.tikal.texts import hex_text


def new_game(seats: int, mode: str, seed: int) -> GameState:
    """A game of ``seats`` players in ``mode`` at its first turn (the engine checks both)."""
    game = new_state(seats, mode, seed)
    begin(game)
    return game


def begin(state: GameState) -> list[Event]:
    """Open the first turn (base) or the first round (auction)."""
    events: list[Event] = []
    if state.auction_mode:
        start_round(state, state.first_seat, events)
    else:
        start_drawing_turn(state, state.first_seat, events)
    return events


def open_turn(state: GameState, seat: int, kind: str, phase: str) -> None:
    state.turn = Turn(seat=seat, kind=kind)
    state.phase = phase
    state.turn_number += 1


def start_drawing_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """Base game: ``seat`` draws the top hex (the final round once none is left)."""
    if not state.stack:
        start_final(state, events)
        return
    tile = state.stack.pop(0)
    events.append(Event("tikal.event.drew", {"seat": seat, "hex": hex_text(tile)}))
    take_hex(state, seat, tile, events)


def take_hex(state: GameState, seat: int, tile: str, events: list[Event]) -> None:
    """``seat`` has a hex to lay: a volcano opens a scoring round first."""
    if TILES[tile].kind == VOLCANO:
        volcano_round(state, seat, tile, events)
        return
    state.in_hand = tile
    open_turn(state, seat, TURN_NORMAL, PHASE_PLACE)


def volcano_round(state: GameState, seat: int, tile: str, events: list[Event]) -> None:
    """The volcano is set aside; everyone scores, from its taker clockwise."""
    state.aside = tile
    state.volcanoes += 1
    order = [(seat + i) % state.seats for i in range(state.seats)]
    state.scoring = Scoring(kind="volcano", number=state.volcanoes, order=order, drawer=seat)
    state.queue = [(TURN_SCORING, s) for s in order] + [(TURN_VOLCANO, seat)]
    events.append(Event("tikal.event.volcano", {"seat": seat, "number": state.volcanoes}))
    next_queued(state, events)


def next_queued(state: GameState, events: list[Event]) -> None:
    """Open the next queued turn: a scoring turn, or the volcano taker's own turn."""
    kind, seat = state.queue.pop(0)
    if kind == TURN_VOLCANO:
        state.in_hand, state.aside = state.aside, None
        state.scoring = None
        open_turn(state, seat, TURN_VOLCANO, PHASE_PLACE)
        return
    open_turn(state, seat, kind, PHASE_ACTIONS)


def after_scoring_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """``seat`` has scored: the next scoring turn, the volcano, or the end."""
    state.turns_done += 1
    assert state.scoring is not None
    state.scoring.done.append(seat)
    if state.queue:
        next_queued(state, events)
    else:
        game_over(state, events)


def after_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """``seat``'s normal (or volcano) turn is over: who plays next."""
    state.turns_done += 1
    state.turn = None
    n = state.seats
    if not state.auction_mode:
        if state.stack:
            start_drawing_turn(state, (seat + 1) % n, events)
        else:
            start_final(state, events)
        return
    state.played.append(seat)
    waiting = [(seat + i) % n for i in range(1, n + 1) if (seat + i) % n not in state.played]
    if waiting and state.revealed:
        start_auction(state, waiting[0], events)
    elif state.stack:
        start_round(state, (seat + 1) % n, events)
    else:
        start_final(state, events)


def start_round(state: GameState, opener: int, events: list[Event]) -> None:
    """Auction: reveal as many hexes as players and auction the first turn."""
    count = min(state.seats, len(state.stack))
    state.revealed = state.stack[:count]
    del state.stack[:count]
    state.played = []
    state.round_number += 1
    events.append(Event("tikal.event.revealed", {"number": state.round_number}))
    for slot, tile in enumerate(state.revealed, start=1):
        events.append(Event("tikal.event.revealed_hex", {"slot": slot, "hex": hex_text(tile)}))
    start_auction(state, opener, events)


def start_auction(state: GameState, opener: int, events: list[Event]) -> None:
    """Auction the next turn of the round; the last player takes the last hex free."""
    waiting = [s for s in range(state.seats) if s not in state.played]
    if len(waiting) == 1 or len(state.revealed) == 1:
        events.append(Event("tikal.event.last_hex", {"seat": opener}))
        take_revealed(state, opener, 0, events)
        return
    winner = auction.open_auction(state, opener, events)
    if winner is not None:
        won(state, winner)


def won(state: GameState, seat: int) -> None:
    """The auction's winner picks one of the revealed hexes."""
    state.turn = Turn(seat=seat, kind=TURN_NORMAL)
    state.phase = PHASE_PICK


def take_revealed(state: GameState, seat: int, index: int, events: list[Event]) -> None:
    tile = state.revealed.pop(index)
    events.append(Event("tikal.event.picked", {"seat": seat, "hex": hex_text(tile)}))
    take_hex(state, seat, tile, events)


def start_final(state: GameState, events: list[Event]) -> None:
    """The final scoring round, in the order of the mode (module docstring)."""
    n = state.seats
    last = state.last_placer if state.last_placer is not None else n - 1
    if state.auction_mode:
        scores = [p.score for p in state.players]
        order = sorted(range(n), key=lambda s: (scores[s], (s - last - 1) % n))
    else:
        order = [(last + 1 + i) % n for i in range(n)]
    state.scoring = Scoring(kind="final", number=state.volcanoes + 1, order=order)
    state.queue = [(TURN_FINAL, s) for s in order]
    state.revealed = []
    events.append(Event("tikal.event.final_round", {"seat": order[0]}))
    next_queued(state, events)


def game_over(state: GameState, events: list[Event]) -> None:
    state.phase = PHASE_OVER
    state.turn = None
    state.scoring = None
    best = max(p.score for p in state.players)
    winners = [seat for seat, p in enumerate(state.players) if p.score == best]
    for seat in winners:
        events.append(Event("tikal.event.winner", {"seat": seat, "score": best}))
