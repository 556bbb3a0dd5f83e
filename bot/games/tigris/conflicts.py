"""Revolts (internal conflicts) and wars (external conflicts).

Revolt
    A leader placed into a kingdom holding a leader of its colour. Strength:
    face-up temples orthogonally next to each leader (a temple may count for
    both) plus red tiles committed from hand. The placer attacks. Ties go to
    the defender. The loser's leader returns to supply, the winner scores
    one **red** point whatever the leaders' colour, committed tiles are
    discarded, and no board tile is removed.

War
    A tile joining two kingdoms where leaders of one colour meet. The
    joining tile carries the unification marker and counts for nobody. The
    attacker is the active player if involved, else the involved player next
    clockwise from the active player. Strength: face-up tiles of the war's
    colour in the leader's own former kingdom (its side) plus tiles of that
    colour committed from hand. A side is the leader's kingdom as it was
    just before the join (recorded then) and still in the joined kingdom:
    after an earlier war of the same join, a part it cut off the joined
    kingdom no longer counts, while two pieces it split apart that both
    still touch the unification tile both count. Leaderless tiles the
    joining tile brought in count for nobody. Ties go to the defender. The
    loser's leader and the face-up tiles of that colour on the loser's side
    are removed; the winner scores one point of that colour for the leader
    and for each removed tile (committed tiles score nothing and are
    discarded). In a priest (red) war, temples that carry a treasure or
    touch another leader stay and do not score. Flipped monument tiles
    never count.
"""

from __future__ import annotations

from bot.games.base import Event
from bot.games.tigris.board import NEIGHBOURS, Square, square_name
from bot.games.tigris.components import RED, Colour
from bot.games.tigris.events import colour_text, leader_text, scored
from bot.games.tigris.kingdoms import Regions
from bot.games.tigris.state import Board, Conflict, GameState


def adjacent_temples(board: Board, sq: Square) -> int:
    """Face-up temples orthogonally next to ``sq``: a revolt's base strength."""
    return sum(1 for nb in NEIGHBOURS[sq] if board.is_temple(nb))


def start_revolt(
    state: GameState, attacker_sq: Square, defender_sq: Square
) -> tuple[Conflict, Event]:
    board = state.board
    attacker = board.leaders[attacker_sq]
    defender = board.leaders[defender_sq]
    conflict = Conflict(
        kind="revolt",
        colour=attacker.colour,
        attacker=attacker.seat,
        defender=defender.seat,
        attacker_sq=attacker_sq,
        defender_sq=defender_sq,
        attacker_base=adjacent_temples(board, attacker_sq),
        defender_base=adjacent_temples(board, defender_sq),
    )
    return conflict, Event(
        "tigris.event.revolt",
        {
            "leader": leader_text(conflict.colour),
            "attacker_seat": conflict.attacker,
            "defender_seat": conflict.defender,
            "attacker_square": square_name(attacker_sq),
            "defender_square": square_name(defender_sq),
            "attacker_base": conflict.attacker_base,
            "defender_base": conflict.defender_base,
        },
    )


def clash_pair(board: Board, regions: Regions, colour: Colour) -> tuple[Square, Square] | None:
    """Two leaders of ``colour`` in one kingdom, if any."""
    seen: dict[int, Square] = {}
    for sq, leader in sorted(board.leaders.items()):
        if leader.colour != colour:
            continue
        region = regions.region_of(sq)
        if region in seen:
            return seen[region], sq
        seen[region] = sq
    return None


def war_side(state: GameState, leader_sq: Square, colour: Colour) -> list[Square]:
    """Face-up tiles of ``colour`` in the leader's own former kingdom.

    That is the squares of the leader's kingdom just before the join
    (``state.sides``) that are still in the joined kingdom now.
    """
    board = state.board
    own = next((set(side) for side in state.sides if leader_sq in side), None)
    if own is None:
        # A state saved before the sides were recorded: the region reached
        # from the leader without crossing the unification square.
        sides = Regions(board, without=board.unification)
        region = sides.region_of(leader_sq)
        return [sq for sq in sides.squares[region] if board.is_face_up(sq, colour)]
    regions = Regions(board)
    joined = regions.squares[regions.region_of(leader_sq)]
    return sorted(sq for sq in joined if sq in own and board.is_face_up(sq, colour))


def attacker_seat(active: int, seats: int, involved: tuple[int, int]) -> int:
    """The active player if involved, else the involved seat next clockwise."""
    if active in involved:
        return active
    return min(involved, key=lambda seat: (seat - active) % seats)


def start_war(state: GameState, colour: Colour) -> tuple[Conflict, Event]:
    """Open the war of ``colour`` in the joined kingdom (which must still clash)."""
    board = state.board
    pair = clash_pair(board, Regions(board), colour)
    assert pair is not None, "start_war on a colour that no longer clashes"
    seat_at = {board.leaders[sq].seat: sq for sq in pair}
    attacker = attacker_seat(state.active, state.seats, tuple(seat_at))  # type: ignore[arg-type]
    defender = next(seat for seat in seat_at if seat != attacker)
    conflict = Conflict(
        kind="war",
        colour=colour,
        attacker=attacker,
        defender=defender,
        attacker_sq=seat_at[attacker],
        defender_sq=seat_at[defender],
        attacker_base=len(war_side(state, seat_at[attacker], colour)),
        defender_base=len(war_side(state, seat_at[defender], colour)),
    )
    return conflict, Event(
        "tigris.event.war",
        {
            "leader": leader_text(colour),
            "colour": colour_text(colour),
            "attacker_seat": attacker,
            "defender_seat": defender,
            "attacker_square": square_name(conflict.attacker_sq),
            "defender_square": square_name(conflict.defender_sq),
            "attacker_base": conflict.attacker_base,
            "defender_base": conflict.defender_base,
        },
    )


def resolve(state: GameState) -> list[Event]:
    """Settle the current conflict once both sides have committed."""
    conflict = state.conflict
    assert conflict is not None
    assert conflict.attacker_committed is not None
    assert conflict.defender_committed is not None
    board = state.board
    attack = conflict.attacker_base + conflict.attacker_committed
    defence = conflict.defender_base + conflict.defender_committed
    attacker_wins = attack > defence
    winner, loser = (
        (conflict.attacker, conflict.defender)
        if attacker_wins
        else (conflict.defender, conflict.attacker)
    )
    loser_sq = conflict.defender_sq if attacker_wins else conflict.attacker_sq
    params = {
        "leader": leader_text(conflict.colour),
        "colour": colour_text(conflict.colour),
        "winner_seat": winner,
        "loser_seat": loser,
        "attacker_total": attack,
        "defender_total": defence,
        "square": square_name(loser_sq),
    }
    events: list[Event] = []
    state.conflict = None
    if conflict.kind == "revolt":
        del board.leaders[loser_sq]
        state.players[winner].points[RED] += 1
        events.append(Event("tigris.event.revolt_won", params))
        events.append(scored(state, winner, RED, 1))
        return events

    colour = conflict.colour
    side = war_side(state, loser_sq, colour)
    del board.leaders[loser_sq]
    if colour == RED:
        side = [
            sq
            for sq in side
            if sq not in board.treasures and not any(nb in board.leaders for nb in NEIGHBOURS[sq])
        ]
    for sq in side:
        del board.tiles[sq]
    state.discarded += len(side)
    gained = 1 + len(side)
    state.players[winner].points[colour] += gained
    if side:
        removed = {
            "removed": len(side),
            "squares": ", ".join(square_name(sq) for sq in sorted(side)),
        }
        events.append(Event("tigris.event.war_won", {**params, **removed}))
    else:  # only the leader goes: no "0 tiles are removed (-)"
        events.append(Event("tigris.event.war_won_alone", dict(params)))
    events.append(scored(state, winner, colour, gained))
    return events
