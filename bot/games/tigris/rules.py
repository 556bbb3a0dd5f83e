"""Legality: one check per kind of action, and legal action generation.

Each ``check_*`` raises :class:`RuleError` with a catalog key and changes
nothing; :mod:`bot.games.tigris.flow` calls them before touching the state,
and :func:`legal_actions` uses the same predicates so the two never disagree.

Placement rules
    * A leader goes on an empty, non-river square orthogonally next to a
      face-up temple and may not join two kingdoms (a kingdom and leaderless
      tiles is fine). Moving a leader is withdraw + place in one action and is
      checked on the board without the moving leader; moving it onto its own
      square is refused (use ``pass`` to skip an action).
    * A tile goes on an empty square; blue only on river squares, other
      colours never on river. It may not touch three or more kingdoms.
    * A catastrophe goes on an empty square (river included) or a tile, never
      on a leader, a monument, a tile carrying a treasure or another
      catastrophe.
    * A swap discards 1 to 6 tiles from hand.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from bot.games.base import RuleError
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
    SQUARES,
    Square,
    block_squares,
    blocks_containing,
    square_name,
)
from bot.games.tigris.components import (
    BLUE,
    COLOURS,
    HAND_SIZE,
    LEADER_ORDER,
    MONUMENTS,
    RED,
    Colour,
)
from bot.games.tigris.events import colour_text
from bot.games.tigris.kingdoms import Regions
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_MONUMENT,
    PHASE_OVER,
    PHASE_REVOLT,
    PHASE_TREASURE,
    PHASE_WAR,
    PHASE_WAR_ORDER,
    Board,
    GameState,
)
from bot.games.tigris.treasures import pending_claim


def waiting_for(state: GameState) -> set[int]:
    """The seat the game waits on (a one-element set), or nobody once over."""
    if state.phase == PHASE_OVER:
        return set()
    if state.phase in (PHASE_REVOLT, PHASE_WAR):
        assert state.conflict is not None
        seat = state.conflict.next_to_commit
        return set() if seat is None else {seat}
    if state.phase == PHASE_TREASURE:
        claim = pending_claim(state.board)
        return set() if claim is None else {claim.seat}
    return {state.active}


def next_to_temple(board: Board, sq: Square) -> bool:
    return any(board.is_temple(nb) for nb in NEIGHBOURS[sq])


# --- checks -----------------------------------------------------------------------------


def check_leader(state: GameState, seat: int, action: PlaceLeader) -> None:
    board = state.board
    sq = action.square
    origin = board.leader_square(seat, action.colour)
    if sq == origin:
        raise RuleError("tigris.error.same_square", square=square_name(sq))
    if not board.is_empty(sq):
        raise RuleError("tigris.error.occupied", square=square_name(sq))
    if sq in RIVER:
        raise RuleError("tigris.error.leader_on_river", square=square_name(sq))
    if not next_to_temple(board, sq):
        raise RuleError("tigris.error.leader_needs_temple", square=square_name(sq))
    if len(Regions(board, without=origin).kingdoms_around(sq)) >= 2:
        raise RuleError("tigris.error.leader_joins_kingdoms", square=square_name(sq))


def check_withdraw(state: GameState, seat: int, action: WithdrawLeader) -> None:
    if state.board.leader_square(seat, action.colour) is None:
        raise RuleError("tigris.error.leader_not_on_board")


def check_tile(state: GameState, seat: int, action: PlaceTile) -> None:
    board = state.board
    sq = action.square
    if action.colour not in state.players[seat].hand:
        raise RuleError("tigris.error.tile_not_in_hand")
    if not board.is_empty(sq):
        raise RuleError("tigris.error.occupied", square=square_name(sq))
    if action.colour == BLUE and sq not in RIVER:
        raise RuleError("tigris.error.farm_off_river", square=square_name(sq))
    if action.colour != BLUE and sq in RIVER:
        raise RuleError("tigris.error.tile_on_river", square=square_name(sq))
    if len(Regions(board).kingdoms_around(sq)) >= 3:
        raise RuleError("tigris.error.three_kingdoms", square=square_name(sq))


def check_catastrophe(state: GameState, seat: int, action: PlaceCatastrophe) -> None:
    board = state.board
    sq = action.square
    name = square_name(sq)
    if state.players[seat].catastrophes <= 0:
        raise RuleError("tigris.error.no_catastrophes")
    if sq in board.catastrophes:
        raise RuleError("tigris.error.occupied", square=name)
    if sq in board.leaders:
        raise RuleError("tigris.error.catastrophe_on_leader", square=name)
    if sq in board.flipped:
        raise RuleError("tigris.error.catastrophe_on_monument", square=name)
    if sq in board.treasures:
        raise RuleError("tigris.error.catastrophe_on_treasure", square=name)


def check_swap(state: GameState, seat: int, action: Swap) -> None:
    if not 1 <= len(action.tiles) <= HAND_SIZE:
        raise RuleError("tigris.error.swap_count")
    hand = Counter(state.players[seat].hand)
    if Counter(action.tiles) - hand:
        raise RuleError("tigris.error.tile_not_in_hand")


def eligible_support(state: GameState, seat: int) -> int:
    """How many tiles ``seat`` could commit to the current conflict."""
    assert state.conflict is not None
    return state.players[seat].hand.count(state.conflict.support_colour)


def check_support(state: GameState, seat: int, action: Support) -> None:
    most = eligible_support(state, seat)
    if not 0 <= action.count <= most:
        assert state.conflict is not None
        raise RuleError(
            "tigris.error.support_range",
            most=most,
            colour=colour_text(state.conflict.support_colour),
        )


def check_war(state: GameState, seat: int, action: ChooseWar) -> None:
    if action.colour not in state.wars:
        raise RuleError("tigris.error.no_such_war")


def check_treasure(state: GameState, seat: int, action: TakeTreasures) -> None:
    claim = pending_claim(state.board)
    assert claim is not None
    if action.squares not in claim.options:
        raise RuleError(
            "tigris.error.treasure_choice",
            count=len(claim.treasures) - 1,
            treasures=", ".join(square_name(sq) for sq in claim.treasures),
        )


def monument_options(state: GameState) -> list[BuildMonument]:
    """Monuments the active player may build around the tile just placed."""
    board = state.board
    placed = state.placed
    if placed is None or placed in board.flipped:
        return []
    colour = board.tiles.get(placed)
    if colour is None:
        return []
    built = set(board.monuments.values())
    available = [pair for pair in MONUMENTS if colour in pair and pair not in built]
    if not available:
        return []
    blocks = [
        top_left
        for top_left in blocks_containing(placed)
        if all(board.is_face_up(sq, colour) for sq in block_squares(top_left))
    ]
    return [BuildMonument(pair, top_left) for top_left in blocks for pair in available]


def check_monument(state: GameState, seat: int, action: BuildMonument) -> None:
    if action not in monument_options(state):
        raise RuleError(
            "tigris.error.monument_invalid",
            monument=f"{action.colours[0]}-{action.colours[1]}",
            square=square_name(action.square),
        )


# --- legal actions ------------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty if the game does not wait on them)."""
    if seat not in waiting_for(state):
        return []
    phase = state.phase
    if phase == PHASE_ACTION:
        return _turn_actions(state, seat)
    if phase in (PHASE_REVOLT, PHASE_WAR):
        return [Support(count) for count in range(eligible_support(state, seat) + 1)]
    if phase == PHASE_WAR_ORDER:
        return [ChooseWar(colour) for colour in state.wars]
    if phase == PHASE_TREASURE:
        claim = pending_claim(state.board)
        assert claim is not None
        return [TakeTreasures(option) for option in claim.options]
    if phase == PHASE_MONUMENT:
        return [*monument_options(state), Decline()]
    return []


def swap_options(hand: list[Colour]) -> list[Swap]:
    """Every distinct multiset of 1+ hand tiles (at most 63 for six tiles)."""
    return list(_swap_options(tuple(hand)))


@cache
def _swap_options(hand: tuple[Colour, ...]) -> tuple[Swap, ...]:
    counts = Counter(hand)
    present = [colour for colour in COLOURS if counts[colour]]
    swaps = []
    for picks in product(*(range(counts[colour] + 1) for colour in present)):
        tiles = [colour for colour, n in zip(present, picks, strict=True) for _ in range(n)]
        if tiles:
            swaps.append(Swap(tuple(tiles)))
    return tuple(swaps)


# Immutable action values, built once: legal action generation only picks them.
_LEADER_ACTIONS = {c: tuple(PlaceLeader(c, sq) for sq in SQUARES) for c in COLOURS}
_TILE_ACTIONS = {c: tuple(PlaceTile(c, sq) for sq in SQUARES) for c in COLOURS}
_CATASTROPHE_ACTIONS = tuple(PlaceCatastrophe(sq) for sq in SQUARES)


def _kingdom_counts(regions: Regions, squares: list[Square]) -> list[int]:
    """For each square, how many distinct kingdoms touch it."""
    label = regions.label
    counts = []
    for sq in squares:
        around = {label[nb] for nb in NEIGHBOURS[sq]}
        around.discard(-1)
        counts.append(len(around))
    return counts


def _turn_actions(state: GameState, seat: int) -> list[Action]:
    board = state.board
    player = state.players[seat]
    regions = Regions(board)
    tiles, leaders, catastrophes = board.tiles, board.leaders, board.catastrophes
    empty = [
        sq for sq in SQUARES if sq not in tiles and sq not in leaders and sq not in catastrophes
    ]
    kingdoms = dict(zip(empty, _kingdom_counts(regions, empty), strict=True))
    actions: list[Action] = []

    # Leaders: from supply or moved, then withdrawals.
    near_temples: set[Square] = set()
    for sq, colour in tiles.items():
        if colour == RED and sq not in board.flipped:
            near_temples.update(NEIGHBOURS[sq])
    spots = [sq for sq in empty if sq in near_temples and sq not in RIVER]
    for colour in LEADER_ORDER:
        origin = board.leader_square(seat, colour)
        table = _LEADER_ACTIONS[colour]
        if origin is None:
            actions.extend(table[sq] for sq in spots if kingdoms[sq] <= 1)
        else:
            counts = _kingdom_counts(Regions(board, without=origin), spots)
            actions.extend(table[sq] for sq, count in zip(spots, counts, strict=True) if count <= 1)
    actions.extend(
        WithdrawLeader(colour)
        for colour in LEADER_ORDER
        if board.leader_square(seat, colour) is not None
    )

    # Tiles.
    land = [_TILE_ACTIONS[c] for c in COLOURS if c != BLUE and c in player.hand]
    blue = _TILE_ACTIONS[BLUE] if BLUE in player.hand else None
    for sq in empty:
        if kingdoms[sq] >= 3:
            continue
        if sq in RIVER:
            if blue is not None:
                actions.append(blue[sq])
        else:
            actions.extend(table[sq] for table in land)

    # Catastrophes.
    if player.catastrophes > 0:
        actions.extend(
            _CATASTROPHE_ACTIONS[sq]
            for sq in SQUARES
            if sq not in catastrophes
            and sq not in leaders
            and sq not in board.flipped
            and sq not in board.treasures
        )

    actions.extend(swap_options(player.hand))
    actions.append(Pass())
    return actions
