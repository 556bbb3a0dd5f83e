"""Legal actions: what a seat may do now, for autocomplete, buttons and random play.

Every ``place``, ``move``, ``swap``, ``pass``, token, ``cancel``, ``bonus``,
``joint`` and ``skip`` action the rules accept is listed (with explicit
lengths and bricks named by their left end). Layouts are combinatorial, so:

Decisions:

* ``relay`` is listed as "give the area up" (all bricks back to supply) and
  one greedy re-lay (longest bricks first, lowest and leftmost); any other
  valid layout is accepted when typed.
* ``lightning`` is listed as one layout the solver finds from the seat's
  bricks (random play needs a way to win races). Autocomplete never offers
  it (see :meth:`~bot.games.temple.engine.TempleEngine.legal_values`):
  solving the temple is the race.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from bot.games.base import RuleError
from bot.games.temple import joint, race
from bot.games.temple.actions import (
    PARTS,
    Action,
    Bag,
    Bonus,
    Cancel,
    Hammer,
    Joint,
    Lightning,
    Mortar,
    Move,
    Pass,
    Place,
    Relay,
    Skip,
    Swap,
)
from bot.games.temple.building import (
    Bench,
    lender_completes,
    partner_bricks,
    piece_limit,
    rolled_allows,
    try_submission,
)
from bot.games.temple.components import BAG, HAMMER, LENGTHS, MORTAR
from bot.games.temple.geometry import (
    Brick,
    Cell,
    covered,
    is_valid_build,
    matches,
    pieces,
    sort_bricks,
    top_bricks,
)
from bot.games.temple.solver import greedy_layout
from bot.games.temple.state import (
    PHASE_BONUS,
    PHASE_RACE,
    PHASE_ROUND,
    GameState,
    Submission,
)
from bot.games.temple.submit import updated


def legal_actions(state: GameState, seat: int) -> list[Action]:
    if not 0 <= seat < state.seats:
        return []
    if state.phase == PHASE_BONUS:
        pending = state.players[seat].pending_bonus
        return [Bonus(a, k) for a in sorted(pending) for k in sorted(set(pending[a]))]
    if state.phase == PHASE_RACE:
        if seat in state.race_skipped:
            return []
        layout = race.suggested_layout(state, seat)
        found: list[Action] = [Skip()]
        if layout is not None:
            found.append(Lightning(tuple(sort_bricks(layout))))
        return found
    if state.phase == PHASE_ROUND:
        return round_actions(state, seat)
    return []


def accepted(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` would be accepted into the seat's submission."""
    try:
        try_submission(state, seat, updated(state, seat, action))
    except RuleError:
        return False
    return True


def round_actions(state: GameState, seat: int) -> list[Action]:
    sub = state.submission(seat)
    player = state.players[seat]
    found: list[Action] = []
    found += _bricks(state, seat, sub)
    found += _swaps(state, seat, sub)
    found.append(Pass())
    extras: list[Action] = []
    if HAMMER in player.tokens and not sub.hammer:
        extras.append(Hammer())
    if MORTAR in player.tokens:
        extras += [Mortar(a) for a in state.active_areas() if sub.mortar != Mortar(a)]
    for area in sorted(player.relay_pools):
        extras += _relays(state, seat, sub, area)
    extras += [Cancel(part) for part in PARTS if part != "joint"]
    found += [a for a in extras if accepted(state, seat, a)]
    if BAG in player.tokens:
        found += _bags(state, seat, sub)
    found += _joint(state, seat)
    return found


def _bench_without(state: GameState, seat: int, sub: Submission, *, swap: bool) -> Bench | None:
    """The seat's bricks after its submission minus the brick (and the swap when
    ``swap`` or without a hammer) and minus the Bag, or None if that is refused."""
    base = sub.copy()
    base.brick, base.passed, base.bag = None, False, None
    if swap or not base.hammer:
        base.swap = None
    try:
        bench, _ = try_submission(state, seat, base)
    except RuleError:
        return None
    return bench


@lru_cache(maxsize=256)
def _rows(silhouette: frozenset[Cell]) -> tuple[tuple[int, int], ...]:
    """The silhouette as ``(y, bitmask of x)`` per row, ground first."""
    masks: dict[int, int] = {}
    for x, y in silhouette:
        masks[y] = masks.get(y, 0) | (1 << x)
    return tuple(sorted(masks.items()))


class Site:
    """An area's bricks prepared for listing where a new brick may go: inside
    the silhouette, on free cells, and within the allowed number of pieces.
    Rows are bitmasks, so a whole row of candidates is tested at once."""

    def __init__(self, silhouette: frozenset[Cell], bricks: list[Brick], limit: int) -> None:
        self.rows = _rows(silhouette)
        self.limit = limit
        groups = pieces(bricks)
        self.count = len(groups)
        self.taken: dict[int, int] = {}
        #: per row, per piece: the bitmask of the piece's cells
        self.piece_rows: dict[int, list[int]] = {}
        for n, members in enumerate(groups):
            for i in members:
                length, x, y = bricks[i]
                span = ((1 << length) - 1) << x
                self.taken[y] = self.taken.get(y, 0) | span
                self.piece_rows.setdefault(y, [0] * self.count)[n] |= span

    def cells(self, length: int) -> list[Cell]:
        """Every left end where a brick of ``length`` is accepted."""
        found: list[Cell] = []
        span = (1 << length) - 1
        taken, count, limit = self.taken, self.count, self.limit
        for y, silhouette in self.rows:
            free = silhouette & ~taken.get(y, 0)
            fit = free
            for shift in range(1, length):
                fit &= free >> shift
            if not fit:
                continue
            if count == 1 and limit == 1:  # the new brick must touch the one piece
                near = taken.get(y - 1, 0) | taken.get(y + 1, 0)
                reach = near
                for shift in range(1, length):
                    reach |= near >> shift
                fit &= reach
            elif count and count + 1 > limit:  # it must join pieces together
                below = self.piece_rows.get(y - 1) or [0] * count
                above = self.piece_rows.get(y + 1) or [0] * count
                masks = [a | b for a, b in zip(below, above, strict=True)]
                keep = 0
                rest = fit
                while rest:
                    low = rest & -rest
                    x = low.bit_length() - 1
                    touched = sum(1 for mask in masks if mask & (span << x))
                    if count - touched + 1 <= limit:
                        keep |= low
                    rest ^= low
                fit = keep
            while fit:
                low = fit & -fit
                found.append((low.bit_length() - 1, y))
                fit ^= low
        return found


def site(state: GameState, bench: Bench, seat: int, area: int, own: list[Brick]) -> Site:
    """The site of ``area`` with ``own`` bricks (and the joint partner's)."""
    limit = piece_limit(state, bench, seat, area)
    return Site(state.silhouette(area), [*own, *partner_bricks(state, seat, area)], limit)


def _allowed_lengths(state: GameState, seat: int, sub: Submission) -> list[int]:
    return [k for k in LENGTHS if rolled_allows(state, seat, sub, k)]


def _checked(state: GameState, seat: int, sub: Submission, actions: list[Action]) -> list[Action]:
    """Candidates that passed the fast checks; re-checked whole when the
    submission holds parts applied after them (a brick after a swap, a Bag)."""
    if sub.bag is None and not (sub.hammer and sub.brick is not None):
        return actions
    return [a for a in actions if accepted(state, seat, a)]


def _bricks(state: GameState, seat: int, sub: Submission) -> list[Action]:
    bench = _bench_without(state, seat, sub, swap=False)
    if bench is None:
        return []
    found: list[Action] = []
    lengths = _allowed_lengths(state, seat, sub)
    for area in state.active_areas():
        spot = site(state, bench, seat, area, bench.bricks(area))
        for length in lengths:
            if bench.supply[length] < 1:
                continue
            found += [Place(area, cell, length) for cell in spot.cells(length)]
    for length in lengths:
        if bench.supply[length] == 0:
            found += _moves(state, seat, bench, length)
    if sub.bag is not None:
        return [a for a in found if accepted(state, seat, a)]
    return found


def _moves(state: GameState, seat: int, bench: Bench, length: int) -> Iterator[Action]:
    for from_area in state.active_areas():
        own = bench.bricks(from_area)
        for taken in own:
            if taken.length != length:
                continue
            rest = [b for b in own if b != taken]
            others = partner_bricks(state, seat, from_area)
            if len(pieces([*rest, *others])) > piece_limit(state, bench, seat, from_area):
                continue
            for area in state.active_areas():
                if area == from_area:
                    continue
                spot = site(state, bench, seat, area, bench.bricks(area))
                for cell in spot.cells(length):
                    yield Move(from_area, (taken.x, taken.y), area, cell)


def _swaps(state: GameState, seat: int, sub: Submission) -> list[Action]:
    bench = _bench_without(state, seat, sub, swap=True)
    if bench is None:
        return []
    found: list[Action] = []
    for area in state.active_areas():
        own = bench.bricks(area)
        for old in own:
            lengths = [k for k in LENGTHS if k != old.length and bench.supply[k] > 0]
            if not lengths:
                continue
            spot = site(state, bench, seat, area, [b for b in own if b != old])
            for length in lengths:
                found += [Swap(area, (old.x, old.y), length, cell) for cell in spot.cells(length)]
    return _checked(state, seat, sub, found)


def _relays(state: GameState, seat: int, sub: Submission, area: int) -> list[Action]:
    pool = Counter(state.players[seat].relay_pools[area])
    player = state.players[seat]
    owned = Counter(player.supply) + Counter(b.length for b in player.bricks(area))
    lengths = [k for k in sorted(pool) for _ in range(min(pool[k], owned[k]))]
    silhouette = state.silhouette(area)
    others = partner_bricks(state, seat, area)
    mortar = (sub.mortar is not None and sub.mortar.area == area) or player.mortar_area == area

    def accept(layout: list[Brick]) -> bool:
        return is_valid_build([*layout, *others], silhouette, mortar and not others)

    layout = tuple(sort_bricks(greedy_layout(silhouette, lengths, accept)))
    found: list[Action] = [Relay(area)]
    if layout and layout != tuple(sort_bricks(player.bricks(area))):
        found.append(Relay(area, layout))
    return found


def _bags(state: GameState, seat: int, sub: Submission) -> list[Action]:
    base = sub.copy()
    base.bag = None
    try:
        bench, _ = try_submission(state, seat, base)
    except RuleError:
        return []
    found: list[Action] = []
    for lender in range(state.seats):
        if lender == seat:
            continue
        for from_area in state.active_areas():
            build = state.players[lender].bricks(from_area)
            if len(build) < 2 or lender_completes(state, lender, from_area):
                continue
            first, second = top_bricks(build, 2)
            for area in state.active_areas():
                if partner_bricks(state, seat, area):
                    continue
                found += _bag_spots(state, bench, seat, lender, from_area, area, first, second)
    return found


def _bag_spots(
    state: GameState,
    bench: Bench,
    seat: int,
    lender: int,
    from_area: int,
    area: int,
    first: Brick,
    second: Brick,
) -> Iterator[Action]:
    silhouette = state.silhouette(area)
    own = bench.bricks(area)
    mortar = bench.mortar_area == area
    missing = silhouette - (covered(own) or set())
    spare = len(missing) - first.length - second.length
    if not 0 <= spare <= (1 if mortar else 0):
        return
    for cx, cy in sorted(missing):
        one = Brick(first.length, cx, cy)
        if not all(c in missing for c in one.cells()):
            continue
        rest = missing - set(one.cells())
        for dx, dy in sorted(rest):
            two = Brick(second.length, dx, dy)
            if all(c in rest for c in two.cells()) and matches(
                [*own, one, two], silhouette, mortar
            ):
                yield Bag(lender, from_area, area, (cx, cy), (dx, dy))


def _joint(state: GameState, seat: int) -> list[Action]:
    found: list[Action] = []
    if state.joint_rule and state.joint_pair is None and seat in state.joint_offers:
        found.append(Cancel("joint"))
    for partner in range(state.seats):
        try:
            joint.check_offer(state, seat, partner)
        except RuleError:
            continue
        found.append(Joint(partner))
    return found
