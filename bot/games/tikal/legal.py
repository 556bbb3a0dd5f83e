"""Legal actions, by verb: for random play, tests and the autocomplete.

Everything here is generated directly from the position (one cheapest-path
search per square a player's figures stand on), never by trying every
conceivable action, so a crowded late board answers in about a millisecond.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.base import RuleError
from bot.games.tikal import placement, rules
from bot.games.tikal.actions import (
    MAX_BID,
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
from bot.games.tikal.board import Space
from bot.games.tikal.components import (
    COST_CAMP,
    COST_ENTER,
    COST_GUARD,
    LEADER,
    MAX_ENTERED_PER_TURN,
    TEMPLE,
    TREASURE,
    VOLCANO,
    WORKER,
)
from bot.games.tikal.paths import costs_from
from bot.games.tikal.state import (
    BASE_CAMP,
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_PICK,
    PHASE_PLACE,
    GameState,
)

#: the verbs that may be legal in each phase
PHASE_VERBS = {
    PHASE_PLACE: ("place",),
    PHASE_PICK: ("pick",),
    PHASE_BID: ("bid", "pass"),
    PHASE_ACTIONS: ("enter", "move", "dig", "recover", "exchange", "camp", "guard", "end"),
}


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now."""
    found: list[Action] = []
    for verb in verbs_now(state, seat):
        found.extend(actions_for(state, seat, verb))
    return found


def only_end(state: GameState, seat: int) -> bool:
    """Whether ``End`` is all :func:`legal_actions` would list for ``seat``: the
    phase's other verbs are tried cheapest first, each only up to its first legal
    action (an entry needs no path search, a move one per square)."""
    verbs = verbs_now(state, seat)
    if "end" not in verbs:
        return False
    others = sorted((verb for verb in verbs if verb != "end"), key=_CHEAPEST_FIRST.index)
    return all(next(_GENERATORS[verb](state, seat), None) is None for verb in others)


def verbs_now(state: GameState, seat: int) -> tuple[str, ...]:
    """The verbs of the phase, when the game waits for ``seat``."""
    if seat not in rules.waiting_for(state):
        return ()
    return PHASE_VERBS.get(state.phase, ())


def actions_for(state: GameState, seat: int, verb: str) -> list[Action]:
    """The legal actions of one verb (empty when the verb does not apply now)."""
    if verb not in verbs_now(state, seat):
        return []
    generator = _GENERATORS[verb]
    return list(generator(state, seat))


def _places(state: GameState, seat: int) -> Iterator[Action]:
    assert state.in_hand is not None
    for space, rotation in placement.placements(state, state.in_hand):
        yield Place(space, rotation)


def _picks(state: GameState, seat: int) -> Iterator[Action]:
    for slot in range(1, len(state.revealed) + 1):
        yield Pick(slot)


def _bids(state: GameState, seat: int) -> Iterator[Action]:
    assert state.auction is not None
    top = min(state.players[seat].score, MAX_BID)
    for amount in range(state.auction.high + 1, top + 1):
        yield Bid(amount)


def _passes(state: GameState, seat: int) -> Iterator[Action]:
    yield Pass()


def entry_spaces(state: GameState, seat: int) -> list[Space]:
    """The base camp and ``seat``'s own camps."""
    return sorted({BASE_CAMP} | {s for s, h in state.hexes.items() if h.camp == seat})


def _enters(state: GameState, seat: int) -> Iterator[Action]:
    turn = state.turn
    assert turn is not None
    player = state.players[seat]
    if turn.ap < COST_ENTER or turn.entered >= MAX_ENTERED_PER_TURN:
        return
    kinds = [k for k, ok in ((WORKER, player.workers > 0), (LEADER, player.leader)) if ok]
    for space in entry_spaces(state, seat):
        for kind in kinds:
            yield Enter(space, kind)


def figure_spaces(state: GameState, seat: int) -> list[Space]:
    """Hexes where ``seat`` has figures (guards are not figures)."""
    return sorted(s for s, h in state.hexes.items() if seat in h.figures)


def kinds_at(state: GameState, seat: int, space: Space) -> list[str]:
    hex_ = state.hexes.get(space)
    if hex_ is None:
        return []
    figs = hex_.of(seat)
    return [k for k, ok in ((WORKER, figs.workers > 0), (LEADER, figs.leader)) if ok]


def destinations(state: GameState, seat: int, origin: Space) -> dict[Space, int]:
    """Hexes a figure of ``seat`` on ``origin`` can reach with the AP left, and their cost."""
    turn = state.turn
    assert turn is not None
    costs = costs_from(state, seat, origin, limit=turn.ap)
    return {
        space: cost
        for space, cost in costs.items()
        if space != origin and state.hexes[space].kind != VOLCANO
    }


def reach(state: GameState, seat: int) -> dict[Space, int]:
    """The hexes where ``seat`` can bring a figure with the AP it has left, and the
    least AP that takes: a move from a hex where it has figures, or an entry at the
    base camp or one of its camps (1 AP, while the turn's entries allow and it has
    a figure in supply) and then moves. Hexes where it already has a figure and
    volcanoes are left out; empty outside its action points."""
    turn = state.turn
    if state.phase != PHASE_ACTIONS or turn is None or turn.seat != seat:
        return {}
    best: dict[Space, int] = {}
    starts = [(origin, 0) for origin in figure_spaces(state, seat)]
    player = state.players[seat]
    can_enter = player.workers > 0 or player.leader
    if can_enter and turn.ap >= COST_ENTER and turn.entered < MAX_ENTERED_PER_TURN:
        starts += [(space, COST_ENTER) for space in entry_spaces(state, seat)]
    for origin, spent in starts:
        for space, cost in costs_from(state, seat, origin, limit=turn.ap - spent).items():
            total = spent + cost
            if total and total < best.get(space, total + 1):
                best[space] = total
    have = set(figure_spaces(state, seat))
    return {
        space: cost
        for space, cost in sorted(best.items())
        if space not in have and state.hexes[space].kind != VOLCANO
    }


def lay_spaces(state: GameState) -> list[Space]:
    """The spaces where the hex in hand may be laid (in some rotation)."""
    if state.phase != PHASE_PLACE or state.in_hand is None:
        return []
    return sorted({space for space, _ in placement.placements(state, state.in_hand)})


def _moves(state: GameState, seat: int) -> Iterator[Action]:
    for origin in figure_spaces(state, seat):
        kinds = kinds_at(state, seat, origin)
        for target in sorted(destinations(state, seat, origin)):
            for kind in kinds:
                yield Move(origin, target, kind)


def _checked(state: GameState, seat: int, candidates: list[Action]) -> Iterator[Action]:
    for action in candidates:
        try:
            rules.check(state, seat, action)
        except RuleError:
            continue
        yield action


def _digs(state: GameState, seat: int) -> Iterator[Action]:
    temples: list[Action] = [
        Dig(s) for s, h in sorted(state.hexes.items()) if h.kind == TEMPLE and seat in h.figures
    ]
    yield from _checked(state, seat, temples)


def _recovers(state: GameState, seat: int) -> Iterator[Action]:
    found: list[Action] = [
        Recover(s)
        for s, h in sorted(state.hexes.items())
        if h.kind == TREASURE and h.tokens and seat in h.figures
    ]
    yield from _checked(state, seat, found)


def singles(state: GameState, seat: int) -> list[str]:
    """The kinds ``seat`` holds exactly one of (the only ones it may exchange)."""
    return sorted(kind for kind, n in state.players[seat].treasures.items() if n == 1)


def _exchanges(state: GameState, seat: int) -> Iterator[Action]:
    found: list[Action] = []
    mine = singles(state, seat)
    for other in range(state.seats):
        if other == seat:
            continue
        for take in singles(state, other):
            found.extend(Exchange(give, other, take) for give in mine if give != take)
    yield from _checked(state, seat, found)


def _camps(state: GameState, seat: int) -> Iterator[Action]:
    turn = state.turn
    assert turn is not None
    if turn.ap < COST_CAMP or state.players[seat].camps <= 0:
        return
    for space, hex_ in sorted(state.hexes.items()):
        if hex_.camp is None and rules.camp_ground(hex_):
            yield Camp(space)


def _guards(state: GameState, seat: int) -> Iterator[Action]:
    turn = state.turn
    assert turn is not None
    if turn.ap < COST_GUARD or state.players[seat].guards <= 0:
        return
    for space, hex_ in sorted(state.hexes.items()):
        if hex_.kind == TEMPLE and hex_.guard is None and rules.strongest(state, space) == seat:
            for kind in kinds_at(state, seat, space):
                yield Guard(space, kind)


def _ends(state: GameState, seat: int) -> Iterator[Action]:
    yield End()


#: the action phase's verbs but End, in the order :func:`only_end` tries them
_CHEAPEST_FIRST = ("enter", "move", "camp", "guard", "dig", "recover", "exchange")

_GENERATORS = {
    "place": _places,
    "pick": _picks,
    "bid": _bids,
    "pass": _passes,
    "enter": _enters,
    "move": _moves,
    "dig": _digs,
    "recover": _recovers,
    "exchange": _exchanges,
    "camp": _camps,
    "guard": _guards,
    "end": _ends,
}
