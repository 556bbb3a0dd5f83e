"""Auctions for turns (auction variant and Mini-Tikal).

Each auction is among the players who have not yet played this round,
clockwise from its opener. Each bid beats the last or passes; a pass is
final for that auction. When only the highest bidder is left, they win and
pay their bid. When everyone passes, the opener plays for free.

Decisions:

* Bids are whole numbers ≥ 1 and never above the bidder's score.
* A player who cannot beat the current bid (their score is not higher)
  passes automatically: they have no choice, and the game need not wait
  for them. An event says so.
* Every bid and pass is final (a checkpoint): it is a public commitment the
  next bidder answers.
"""

from __future__ import annotations

from bot.games.base import Event
from bot.games.tikal.state import PHASE_BID, Auction, GameState


def open_auction(state: GameState, opener: int, events: list[Event]) -> int | None:
    """Open an auction among the seats yet to play, clockwise from ``opener``.

    Returns the winner when it is decided at once (everyone else must pass).
    """
    order = [(opener + i) % state.seats for i in range(state.seats)]
    order = [seat for seat in order if seat not in state.played]
    state.auction = Auction(opener=opener, order=order, current=opener)
    state.phase = PHASE_BID
    state.turn = None
    events.append(
        Event(
            "tikal.event.auction",
            {"seat": opener, "number": len(state.played) + 1, "count": state.seats},
        )
    )
    return _settle(state, events)


def bid(state: GameState, seat: int, amount: int, events: list[Event]) -> int | None:
    """``seat`` bids ``amount`` (already checked); the winner if that decides it."""
    auction = state.auction
    assert auction is not None
    auction.high = amount
    auction.high_seat = seat
    events.append(Event("tikal.event.bid", {"seat": seat, "amount": amount}))
    _advance(auction)
    return _settle(state, events)


def pass_turn(state: GameState, seat: int, events: list[Event]) -> int | None:
    """``seat`` drops out of this auction; the winner if that decides it."""
    auction = state.auction
    assert auction is not None
    auction.passed.append(seat)
    events.append(Event("tikal.event.passed", {"seat": seat}))
    _advance(auction)
    return _settle(state, events)


def _bidders(auction: Auction) -> list[int]:
    return [seat for seat in auction.order if seat not in auction.passed]


def _decided(auction: Auction) -> tuple[int, int] | None:
    """(winner, price) once the auction is over."""
    left = _bidders(auction)
    if not left:
        return auction.opener, 0
    if auction.high_seat is not None and left == [auction.high_seat]:
        return auction.high_seat, auction.high
    return None


def _advance(auction: Auction) -> None:
    """The next bidder clockwise after the current one who has not passed."""
    if _decided(auction) is not None:
        return
    index = auction.order.index(auction.current)
    for step in range(1, len(auction.order) + 1):
        seat = auction.order[(index + step) % len(auction.order)]
        if seat not in auction.passed:
            auction.current = seat
            return


def _settle(state: GameState, events: list[Event]) -> int | None:
    """Pass for bidders who cannot beat the bid; pay and close a decided auction."""
    auction = state.auction
    assert auction is not None
    while _decided(auction) is None:
        seat = auction.current
        score = state.players[seat].score
        if score > auction.high:
            return None
        auction.passed.append(seat)
        events.append(
            Event("tikal.event.auto_passed", {"seat": seat, "amount": auction.high, "score": score})
        )
        _advance(auction)
    decided = _decided(auction)
    assert decided is not None
    winner, price = decided
    state.players[winner].score -= price
    state.players[winner].paid += price
    if price:
        events.append(Event("tikal.event.won", {"seat": winner, "amount": price}))
    else:
        events.append(Event("tikal.event.free_turn", {"seat": winner}))
    state.auction = None
    return winner
