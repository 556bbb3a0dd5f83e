"""The reveal: every sealed submission applied, borrowings, completions.

Rules: when every seat has submitted (or the deadline passed: the missing
seats pass), all submissions are revealed and applied in seat order from
the roller; then every build that matches its card completes. If several
players complete the same card in the same round, the first in seat order
from the roller takes the card and the others take score tokens of the same
value. Each completer keeps one of its bricks from that temple as a bonus
and returns the rest to supply; bricks borrowed with the Bag go back to the
lender's build before the next round, whether the temple was completed or
not (the Bag is spent either way).

Decisions:

* Bags are applied after every seat's moves, in seat order from the roller:
  the lender's top two bricks *then* are borrowed and laid on the two cells
  the borrower named; if they no longer fit there (or the lender's build
  has fewer than two bricks, or matches its own card), nothing is borrowed.
* A joint pair (optional rule) completes the last card when neither partner
  completes it alone, both have bricks there, and together their bricks
  match it. Its place in the seat order is its earlier partner's. If it
  comes first, the card is set aside (nobody holds it) and each partner gets
  score tokens worth half its value, rounded up; otherwise the same half.
* A round in which no brick was laid, swapped, moved, re-laid or borrowed
  counts as idle (see :mod:`~bot.games.temple.flow`).
* A swap is announced in words with where its new brick went: anywhere in
  that build where it fits and keeps the build connected (by default the old
  brick's left end).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Event
from bot.games.temple.actions import Bag
from bot.games.temple.building import Bench, lender_completes, try_submission
from bot.games.temple.components import cell_name
from bot.games.temple.geometry import Brick, covered, inside, matches, top_bricks
from bot.games.temple.naming import card_name, part_name
from bot.games.temple.state import GameState, Laid
from bot.games.temple.words import parts_text


@dataclass
class Loan:
    """Two bricks a Bag borrowed: where they lie now and where they came from."""

    borrower: int
    area: int
    laid: list[Laid]
    lender: int
    from_area: int
    original: list[Laid]


def half_up(value: int) -> int:
    return -(-value // 2)


def _commit(state: GameState, seat: int, bench: Bench) -> None:
    player = state.players[seat]
    player.supply = bench.supply
    player.builds = bench.builds
    player.mortar_area = bench.mortar_area
    player.tokens = bench.tokens


def _borrow(state: GameState, seat: int, bag: Bag, events: list[Event]) -> Loan | None:
    lender = state.players[bag.player]
    build = lender.builds[bag.from_area]
    failed = Event("temple.event.bag_failed", {"seat": seat, "lender_seat": bag.player})
    if len(build) < 2 or lender_completes(state, bag.player, bag.from_area):
        events.append(failed)
        return None
    tops = top_bricks([laid.brick for laid in build], 2)
    originals = [next(laid for laid in build if laid.brick == top) for top in tops]
    new = [Brick(tops[0].length, *bag.top_cell), Brick(tops[1].length, *bag.next_cell)]
    borrower = state.players[seat]
    silhouette = state.silhouette(bag.area)
    if (
        not all(inside(b, silhouette) for b in new)
        or covered([*borrower.bricks(bag.area), *new]) is None
    ):
        events.append(failed)
        return None
    lender.builds[bag.from_area] = [laid for laid in build if laid not in originals]
    laid = [Laid(brick, state.round) for brick in new]
    borrower.builds[bag.area].extend(laid)
    events.append(
        Event(
            "temple.event.bag_borrowed",
            {"seat": seat, "lender_seat": bag.player, "area": bag.area + 1},
        )
    )
    return Loan(seat, bag.area, laid, bag.player, bag.from_area, originals)


def _pair_completes(state: GameState, area: int, solos: list[int]) -> bool:
    pair = state.joint_pair
    if pair is None or state.joint_area() != area or any(s in solos for s in pair):
        return False
    first, second = (state.players[s].bricks(area) for s in pair)
    if not first or not second:
        return False
    return matches([*first, *second], state.silhouette(area), mortar=False)


def _complete(state: GameState, area: int, loans: list[Loan], events: list[Event]) -> None:
    """Award the card above ``area`` to this round's completers, if any."""
    found = state.card_at(area)
    if found is None:
        return
    order = state.order()
    solos = [
        s
        for s in order
        if matches(state.players[s].bricks(area), found.cells, state.has_mortar(s, area))
    ]
    pair = state.joint_pair if _pair_completes(state, area, solos) else None
    entries: list[tuple[int, tuple[int, ...]]] = [(order.index(s), (s,)) for s in solos]
    if pair is not None:
        entries.append((min(order.index(s) for s in pair), pair))
    if not entries:
        return
    entries.sort()
    value, name = found.value, card_name(found.id)
    for rank, (_, seats) in enumerate(entries):
        if len(seats) == 2:
            for s in seats:
                state.players[s].score_tokens.append(half_up(value))
            if rank == 0:
                state.discarded.append(found.id)
            joint = {"seat": seats[0], "partner_seat": seats[1], "card": name}
            events.append(
                Event("temple.event.joint_completed", {**joint, "points": half_up(value)})
            )
        elif rank == 0:
            state.players[seats[0]].won.append(found.id)
            won = {"seat": seats[0], "card": name, "value": value, "area": area + 1}
            events.append(Event("temple.event.card_won", won))
        else:
            state.players[seats[0]].score_tokens.append(value)
            token = {"seat": seats[0], "card": name, "value": value}
            events.append(Event("temple.event.score_token", token))
    borrowed = {id(laid) for loan in loans for laid in loan.laid}
    for _, seats in entries:
        for s in seats:
            player = state.players[s]
            own = [laid for laid in player.builds[area] if id(laid) not in borrowed]
            player.pending_bonus[area] = sorted(laid.brick.length for laid in own)
            player.builds[area] = [laid for laid in player.builds[area] if id(laid) in borrowed]
            if player.mortar_area == area:
                player.mortar_area = None
    state.slots[area] = None
    state.last_exit = "complete"


def _return_loans(state: GameState, loans: list[Loan]) -> None:
    for loan in loans:
        borrower = state.players[loan.borrower]
        lent = {id(laid) for laid in loan.laid}
        borrower.builds[loan.area] = [
            laid for laid in borrower.builds[loan.area] if id(laid) not in lent
        ]
        state.players[loan.lender].builds[loan.from_area].extend(loan.original)


def auto_bonus(state: GameState, events: list[Event]) -> None:
    """Keep the bonus brick at once where there is no choice (one length or none)."""
    for seat, player in enumerate(state.players):
        for area in sorted(player.pending_bonus):
            lengths = player.pending_bonus[area]
            if len(set(lengths)) <= 1:
                keep_bonus(state, seat, area, lengths[0] if lengths else None, events)


def keep_bonus(
    state: GameState, seat: int, area: int, length: int | None, events: list[Event]
) -> None:
    """Move one brick of ``length`` to the bonus area, the rest back to supply."""
    player = state.players[seat]
    lengths = list(player.pending_bonus.pop(area))
    if length is not None:
        lengths.remove(length)
        player.bonus.append(length)
        events.append(Event("temple.event.bonus", {"seat": seat, "length": length}))
    for rest in lengths:
        player.supply[rest] += 1


def reveal(state: GameState) -> list[Event]:
    """Apply every submission, then the Bags, then completions; clears the round."""
    events = [Event("temple.event.reveal", {"round": state.round})]
    order = state.order()
    changed = False
    moves: dict[int, list[str]] = {}
    for seat in order:
        sub = state.submission(seat)
        bench, done = try_submission(state, seat, sub, strict=False)
        _commit(state, seat, bench)
        changed |= bench.changed
        moves[seat] = [str(part) for part in done.parts()]
        events.append(
            Event("temple.event.revealed", {"seat": seat, "moves": parts_text(done.parts())})
        )
        asked = done.swap.to_cell or done.swap.cell if done.swap is not None else None
        for area, old, new in bench.swapped:
            if (new.x, new.y) == asked:
                continue  # where the player asked: the revealed move says it already
            swapped = {
                "seat": seat,
                "area": area + 1,
                "old_length": old.length,
                "old_cell": cell_name(old.x, old.y),
                "new_length": new.length,
                "new_cell": cell_name(new.x, new.y),
            }
            events.append(Event("temple.event.swapped", swapped))
        for label, _error in bench.skipped:
            events.append(
                Event("temple.event.part_skipped", {"seat": seat, "part": part_name(label)})
            )
    loans: list[Loan] = []
    for seat in order:
        bag = state.submission(seat).bag
        if bag is not None:
            loan = _borrow(state, seat, bag, events)
            if loan is not None:
                loans.append(loan)
                changed = True
    for area in state.active_areas():
        state.ages[area] += 1
        _complete(state, area, loans, events)
    _return_loans(state, loans)
    for player in state.players:
        player.relay_pools.clear()
    state.submissions.clear()
    state.last_moves = moves
    state.revealed = state.round
    state.idle_rounds = 0 if changed else state.idle_rounds + 1
    auto_bonus(state, events)
    return events
