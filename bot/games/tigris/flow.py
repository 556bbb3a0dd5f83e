"""Applying actions: the turn, its actions and everything they trigger.

An action is complete only when all it triggers is resolved, in this order:

1. the action itself (leader, tile, catastrophe, swap);
2. conflicts: a revolt, or the wars of a join (the active player picks the
   order when several colours clash; after each war the kingdoms are
   recomputed and a clash whose leaders no longer share a kingdom is over;
   then the unification marker is removed, the tile stays);
3. a monument, if the placed tile is still part of a 2×2 of its colour;
4. treasures, in every kingdom that holds two or more and a trader.

Then the action count goes down; after the second action (or a ``pass``)
the turn ends: monument points for the active player, every hand refilled
to six (active player first, then clockwise), and the game ends if at most
two treasures remain on the board or the bag could not fill a hand this
turn (on a swap or a refill).

Decisions where the rules are silent:

* A player with an empty hand commits 0 automatically (hand sizes are
  public). A player holding tiles is always asked for support, even without
  a tile of the needed colour: answering for them would tell the table what
  their hand lacks. Forced treasure taking is automatic, and a single
  clashing colour needs no order.
* ``pass`` is allowed in the action phase ("up to two actions"); it ends
  the turn at once.
* A swap with too few tiles in the bag draws what is left and ends the game
  at the end of the turn; the turn itself goes on.
* A leader left without an adjacent face-up temple (after a catastrophe, a
  war or a monument) returns to supply at once.
"""

from __future__ import annotations

from bot.games.base import Event, RuleError
from bot.games.tigris import conflicts
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
    action_squares,
    public_notation,
)
from bot.games.tigris.board import NEIGHBOURS, block_squares, square_name
from bot.games.tigris.components import ACTIONS_PER_TURN, COLOURS, HAND_SIZE, TREASURES_TO_END
from bot.games.tigris.events import colour_text, leader_text, scored, tiles_params
from bot.games.tigris.kingdoms import Regions, clashing_colours
from bot.games.tigris.rules import (
    check_catastrophe,
    check_leader,
    check_monument,
    check_support,
    check_swap,
    check_tile,
    check_treasure,
    check_war,
    check_withdraw,
    monument_options,
    waiting_for,
)
from bot.games.tigris.scoring import monument_points, tile_scorer
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_MONUMENT,
    PHASE_OVER,
    PHASE_REVOLT,
    PHASE_TREASURE,
    PHASE_WAR,
    PHASE_WAR_ORDER,
    GameState,
    LastAction,
    Leader,
)
from bot.games.tigris.treasures import pending_claim
from bot.games.tigris.views import step_caption
from bot.games.tigris.words import action_verbs

_PHASE_ACTIONS: dict[str, tuple[type, ...]] = {
    PHASE_ACTION: (PlaceLeader, WithdrawLeader, PlaceTile, PlaceCatastrophe, Swap, Pass),
    PHASE_REVOLT: (Support,),
    PHASE_WAR: (Support,),
    PHASE_WAR_ORDER: (ChooseWar,),
    PHASE_TREASURE: (TakeTreasures,),
    PHASE_MONUMENT: (BuildMonument, Decline),
}


def apply(state: GameState, seat: int, action: Action) -> list[Event]:
    """Apply ``action`` by ``seat`` atomically.

    Everything is done on a copy which replaces the state only on success, so
    a :class:`RuleError` (or any bug) leaves ``state`` untouched.
    """
    if state.phase == PHASE_OVER:
        raise RuleError("tigris.error.game_over")
    if seat not in waiting_for(state):
        raise RuleError("tigris.error.not_your_turn")
    if not isinstance(action, _PHASE_ACTIONS[state.phase]):
        raise RuleError(f"tigris.error.phase.{state.phase}", verbs=action_verbs())
    squares = action_squares(action)
    if isinstance(action, PlaceLeader | WithdrawLeader):
        origin = state.board.leader_square(seat, action.colour)
        squares = ([] if origin is None else [origin]) + squares
    work = state.copy()
    events = _apply(work, seat, action)
    work.last_action = LastAction(
        seat, squares, public_notation(action), step_caption(action).to_json()
    )
    if work.steps and work.steps[-1].seat != seat:  # another seat acts: a hand-off was made
        work.steps = []
    work.steps.append(work.last_action.copy())
    if not isinstance(action, Pass):
        events.extend(_advance(work))
    state.__dict__.update(work.__dict__)
    return events


def _apply(state: GameState, seat: int, action: Action) -> list[Event]:
    match action:
        case PlaceLeader():
            check_leader(state, seat, action)
            return _place_leader(state, seat, action)
        case WithdrawLeader():
            check_withdraw(state, seat, action)
            sq = state.board.leader_square(seat, action.colour)
            assert sq is not None
            del state.board.leaders[sq]
            return [
                Event(
                    "tigris.event.leader_withdrawn",
                    {"seat": seat, "leader": leader_text(action.colour), "square": square_name(sq)},
                )
            ]
        case PlaceTile():
            check_tile(state, seat, action)
            return _place_tile(state, seat, action)
        case PlaceCatastrophe():
            check_catastrophe(state, seat, action)
            return _place_catastrophe(state, seat, action)
        case Swap():
            check_swap(state, seat, action)
            return _swap(state, seat, action)
        case Pass():
            events = [Event("tigris.event.pass", {"seat": seat})]
            return events + _end_turn(state)
        case Support():
            check_support(state, seat, action)
            return _commit(state, seat, action.count)
        case ChooseWar():
            check_war(state, seat, action)
            state.wars.remove(action.colour)
            conflict, event = conflicts.start_war(state, action.colour)
            state.conflict = conflict
            return [
                Event(
                    "tigris.event.war_chosen",
                    {
                        "seat": seat,
                        "colour": colour_text(action.colour),
                        "leader": leader_text(action.colour),
                    },
                ),
                event,
            ]
        case TakeTreasures():
            check_treasure(state, seat, action)
            return _take_treasures(state, seat, action.squares)
        case BuildMonument():
            check_monument(state, seat, action)
            return _build_monument(state, seat, action)
        case Decline():
            state.placed = None
            return [Event("tigris.event.monument_declined", {"seat": seat})]
    raise RuleError("tigris.error.bad_notation", text=str(action))


# --- the actions --------------------------------------------------------------------------


def _place_leader(state: GameState, seat: int, action: PlaceLeader) -> list[Event]:
    board = state.board
    origin = board.leader_square(seat, action.colour)
    params = {
        "seat": seat,
        "leader": leader_text(action.colour),
        "square": square_name(action.square),
    }
    if origin is None:
        events = [Event("tigris.event.leader_placed", params)]
    else:
        del board.leaders[origin]
        events = [
            Event("tigris.event.leader_moved", {**params, "from_square": square_name(origin)})
        ]
    board.leaders[action.square] = Leader(seat, action.colour)
    regions = Regions(board)
    region = regions.region_of(action.square)
    for sq in regions.leaders[region]:
        if sq != action.square and board.leaders[sq].colour == action.colour:
            conflict, event = conflicts.start_revolt(state, action.square, sq)
            state.conflict = conflict
            events.append(event)
            break
    return events


def _place_tile(state: GameState, seat: int, action: PlaceTile) -> list[Event]:
    board = state.board
    sq, colour = action.square, action.colour
    before = Regions(board)
    kingdoms = sorted(before.kingdoms_around(sq))
    state.players[seat].remove_from_hand([colour])
    board.tiles[sq] = colour
    state.placed = sq
    params = {"seat": seat, "colour": colour_text(colour), "square": square_name(sq)}
    if len(kingdoms) == 2:
        events = [Event("tigris.event.tile_joins", params)]
        after = Regions(board)
        clashes = clashing_colours(board, after, after.region_of(sq))
        if clashes:
            board.unification = sq
            state.wars = clashes
            state.sides = [sorted(before.squares[kingdom]) for kingdom in kingdoms]
            events.extend(
                Event(
                    "tigris.event.clash",
                    {"leader": leader_text(clash), "square": square_name(sq)},
                )
                for clash in clashes
            )
        return events
    events = [Event("tigris.event.tile_placed", params)]
    scorer = tile_scorer(board, before, kingdoms[0], colour) if kingdoms else None
    if scorer is not None:
        state.players[scorer].points[colour] += 1
        events.append(scored(state, scorer, colour, 1))
    return events


def _place_catastrophe(state: GameState, seat: int, action: PlaceCatastrophe) -> list[Event]:
    board = state.board
    sq = action.square
    state.players[seat].catastrophes -= 1
    destroyed = board.tiles.pop(sq, None)
    board.catastrophes.add(sq)
    params = {"seat": seat, "square": square_name(sq)}
    if destroyed is None:
        events = [Event("tigris.event.catastrophe", params)]
    else:
        state.discarded += 1
        events = [
            Event("tigris.event.catastrophe_destroys", {**params, "colour": colour_text(destroyed)})
        ]
    return events + _withdraw_orphans(state)


def _swap(state: GameState, seat: int, action: Swap) -> list[Event]:
    player = state.players[seat]
    player.remove_from_hand(list(action.tiles))
    state.discarded += len(action.tiles)
    drawn = state.draw(len(action.tiles))
    player.add_to_hand(drawn)
    events = [
        Event("tigris.event.swapped", {"seat": seat, "count": len(action.tiles)}),
        Event("tigris.event.drew", {"seat": seat, **tiles_params(drawn)}, private_to=seat),
    ]
    if len(drawn) < len(action.tiles):
        events.append(Event("tigris.event.bag_empty", {"seat": seat}))
    return events


def _commit(state: GameState, seat: int, count: int) -> list[Event]:
    conflict = state.conflict
    assert conflict is not None
    colour = conflict.support_colour
    state.players[seat].remove_from_hand([colour] * count)
    state.discarded += count
    if seat == conflict.attacker and conflict.attacker_committed is None:
        conflict.attacker_committed = count
    else:
        conflict.defender_committed = count
    return [
        Event("tigris.event.support", {"seat": seat, "count": count, "colour": colour_text(colour)})
    ]


def _take_treasures(state: GameState, seat: int, squares: tuple[int, ...]) -> list[Event]:
    board = state.board
    for sq in squares:
        board.treasures.remove(sq)
    state.players[seat].treasures += len(squares)
    return [
        Event(
            "tigris.event.treasures_taken",
            {
                "seat": seat,
                "count": len(squares),
                "squares": ", ".join(square_name(sq) for sq in squares),
            },
        )
    ]


def _build_monument(state: GameState, seat: int, action: BuildMonument) -> list[Event]:
    board = state.board
    board.flipped.update(block_squares(action.square))
    board.monuments[action.square] = action.colours
    state.placed = None
    events = [
        Event(
            "tigris.event.monument_built",
            {
                "seat": seat,
                "colour_a": colour_text(action.colours[0]),
                "colour_b": colour_text(action.colours[1]),
                "square": square_name(action.square),
            },
        )
    ]
    return events + _withdraw_orphans(state)


def _withdraw_orphans(state: GameState) -> list[Event]:
    """Return to supply every leader with no face-up temple next to it."""
    board = state.board
    events = []
    for sq in sorted(board.leaders):
        if not any(board.is_temple(nb) for nb in NEIGHBOURS[sq]):
            leader = board.leaders.pop(sq)
            events.append(
                Event(
                    "tigris.event.leader_returned",
                    {
                        "seat": leader.seat,
                        "leader": leader_text(leader.colour),
                        "square": square_name(sq),
                    },
                )
            )
    return events


# --- what actions trigger -----------------------------------------------------------------


def _advance(state: GameState) -> list[Event]:
    """Resolve what can be resolved without asking; stop at the next question."""
    events: list[Event] = []
    board = state.board
    while True:
        conflict = state.conflict
        if conflict is not None:
            seat = conflict.next_to_commit
            if seat is not None:
                if not state.players[seat].hand:
                    events.extend(_commit(state, seat, 0))
                    continue
                state.phase = PHASE_REVOLT if conflict.kind == "revolt" else PHASE_WAR
                return events
            events.extend(conflicts.resolve(state))
            events.extend(_withdraw_orphans(state))
            continue
        if board.unification is not None:
            regions = Regions(board)
            still = []
            for colour in state.wars:
                if conflicts.clash_pair(board, regions, colour) is None:
                    params = {"colour": colour_text(colour), "leader": leader_text(colour)}
                    events.append(Event("tigris.event.war_over", params))
                else:
                    still.append(colour)
            state.wars = still
            if len(still) > 1:
                state.phase = PHASE_WAR_ORDER
                return events
            if len(still) == 1:
                conflict, event = conflicts.start_war(state, state.wars.pop())
                state.conflict = conflict
                events.append(event)
                continue
            board.unification = None
            state.sides = []
        if state.placed is not None:
            if monument_options(state):
                state.phase = PHASE_MONUMENT
                return events
            state.placed = None
        claim = pending_claim(board)
        if claim is not None:
            options = claim.options
            if len(options) > 1:
                state.phase = PHASE_TREASURE
                return events
            events.extend(_take_treasures(state, claim.seat, options[0]))
            continue
        break
    # The action is complete.
    state.phase = PHASE_ACTION
    state.actions_left -= 1
    if state.actions_left <= 0:
        events.extend(_end_turn(state))
    return events


def _end_turn(state: GameState) -> list[Event]:
    board = state.board
    seat = state.active
    events: list[Event] = []
    gained = monument_points(board, seat)
    for colour in COLOURS:
        if gained[colour]:
            state.players[seat].points[colour] += gained[colour]
            events.append(
                scored(state, seat, colour, gained[colour], "tigris.event.monument_points")
            )
    was_short = state.bag_short
    for offset in range(state.seats):
        refill = (seat + offset) % state.seats
        player = state.players[refill]
        missing = HAND_SIZE - len(player.hand)
        if missing > 0:
            drawn = state.draw(missing)
            player.add_to_hand(drawn)
            events.append(
                Event(
                    "tigris.event.drew", {"seat": refill, **tiles_params(drawn)}, private_to=refill
                )
            )
    if state.bag_short and not was_short:
        events.append(Event("tigris.event.bag_empty", {"seat": seat}))
    events.append(Event("tigris.event.turn_end", {"seat": seat}))
    state.actions_left = 0
    if len(board.treasures) <= TREASURES_TO_END or state.bag_short:
        state.phase = PHASE_OVER
        reason = "bag" if state.bag_short else "treasures"
        events.append(Event(f"tigris.event.game_over.{reason}", {"count": len(board.treasures)}))
        return events
    state.active = (seat + 1) % state.seats
    state.actions_left = ACTIONS_PER_TURN
    state.turn_number += 1
    state.phase = PHASE_ACTION
    events.append(Event("tigris.event.turn_start", {"seat": state.active}))
    return events
