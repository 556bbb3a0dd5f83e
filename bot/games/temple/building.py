"""Laying bricks: the checks behind every sealed part, and trying a whole
submission out on a copy of one seat's bricks.

Rules:

* ``place``: a supply brick of the rolled length (a star or Hammer & Chisel:
  any length) goes inside the area's silhouette, on no other brick, touching
  the build (the first brick of a build may go anywhere). With a Mortar on
  the area the build may be in two pieces.
* ``move``: when the supply has no brick of the rolled length, a brick of
  that length may come from another of one's builds, if that build stays
  in one piece (two with its Mortar).
* ``swap``: a build's brick goes back to supply and a supply brick of
  another length goes into the same build; the build must stay valid.
  Without Hammer & Chisel it replaces the round's brick.
* Hammer & Chisel is one power or the other
  (``docs/rules/temple_rush.md#hammer-and-chisel``): a brick of any length,
  or a swap and still a brick — of the rolled length.
  A swap and a brick of another length are refused together
  (``temple.error.hammer_one_power``), whichever was sealed first.
* ``relay``: right after the card above an area changed, that area may be
  laid again with bricks from what it held before the change (its *relay
  pool*); the rest goes back to supply.
* Power tokens are played once per game; a Mortar stays on its area until a
  temple is completed there.

Decisions:

* A submission is tried out whole whenever one of its parts changes, in the
  order the reveal applies it: Hammer & Chisel, Mortar, re-lays, swap, the
  brick, then the Bag. A change that would make any part illegal is refused
  (naming that part), so a stored submission is always legal. Nothing but
  the seat's own parts changes its bricks before the reveal, so it is still
  legal there — except in a joint area, where the partner's bricks may
  since stand in the way: such a part is skipped at the reveal.
* The Bag is accepted only if, with the lender's current top two bricks on
  the two cells named, the build would match its card; at the reveal the
  lender's top two bricks then are borrowed (after every seat's moves).
* In the joint area each partner's bricks must not overlap the other's and
  must not leave the joint build (both partners' bricks) in more pieces
  than before; no Mortar counts there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from bot.games.base import RuleError
from bot.games.temple.actions import Bag, Mortar, Move, Place, Relay, Swap
from bot.games.temple.components import BAG, HAMMER, MORTAR, STAR, cell_name
from bot.games.temple.geometry import (
    Brick,
    Cell,
    covered,
    inside,
    matches,
    max_pieces,
    pieces,
    top_bricks,
)
from bot.games.temple.naming import brick_name, bricks_name, token_name
from bot.games.temple.state import GameState, Laid, Submission


@dataclass
class Bench:
    """A seat's bricks while a submission is tried out (a copy; the state is untouched)."""

    supply: dict[int, int]
    builds: list[list[Laid]]
    mortar_area: int | None
    tokens: list[str]
    #: parts tried and refused at the reveal (lenient mode), with the reason
    skipped: list[tuple[str, RuleError]] = field(default_factory=list)
    #: whether any brick was laid, swapped, moved or re-laid
    changed: bool = False
    #: the swap made, as ``(area, old brick, new brick)`` (for the reveal's message)
    swapped: list[tuple[int, Brick, Brick]] = field(default_factory=list)

    def bricks(self, area: int) -> list[Brick]:
        return [laid.brick for laid in self.builds[area]]


def bench_of(state: GameState, seat: int) -> Bench:
    player = state.players[seat]
    return Bench(
        dict(player.supply),
        [list(build) for build in player.builds],
        player.mortar_area,
        list(player.tokens),
    )


# --------------------------------------------------------------------------- checks


def partner_bricks(state: GameState, seat: int, area: int) -> list[Brick]:
    """The joint partner's bricks in ``area`` when it is the joint area, else none."""
    pair = state.joint_pair
    if pair is None or seat not in pair or state.joint_area() != area:
        return []
    partner = pair[1] if pair[0] == seat else pair[0]
    return state.players[partner].bricks(area)


def allows_mortar(state: GameState, bench: Bench, seat: int, area: int) -> bool:
    """Whether the Mortar's freedom applies to ``area`` (never in the joint area)."""
    return bench.mortar_area == area and not partner_bricks(state, seat, area)


def piece_limit(state: GameState, bench: Bench, seat: int, area: int) -> int:
    """How many pieces the build of ``area`` may be in after a change: one (two
    with a Mortar), or as many as it is in now — a joint build may start in two
    pieces (the partners' builds need not touch when they agree)."""
    others = partner_bricks(state, seat, area)
    if not others:  # a seat's own build is never in more pieces than allowed
        return max_pieces(bench.mortar_area == area)
    return max(1, len(pieces([*bench.bricks(area), *others])))


def check_active(state: GameState, area: int) -> None:
    if state.card_at(area) is None:
        raise RuleError("temple.error.area_unused", area=area + 1)


def check_build(
    state: GameState, bench: Bench, seat: int, area: int, bricks: Sequence[Brick], new: Brick
) -> None:
    """``bricks`` (the build, ``new`` among them) is a legal build of ``area``."""
    silhouette = state.silhouette(area)
    where = {"brick": brick_name(new), "area": area + 1}
    if not inside(new, silhouette):
        raise RuleError("temple.error.outside", **where)
    others = partner_bricks(state, seat, area)
    if covered([*bricks, *others]) is None:
        raise RuleError("temple.error.overlap", **where)
    if len(pieces([*bricks, *others])) > piece_limit(state, bench, seat, area):
        raise RuleError("temple.error.not_connected", **where)


def own_brick_at(bench: Bench, area: int, cell: Cell) -> Laid:
    for laid in bench.builds[area]:
        if laid.brick.covers(cell):
            return laid
    raise RuleError("temple.error.no_brick_there", area=area + 1, cell=cell_name(*cell))


def any_length(sub: Submission) -> bool:
    """Hammer & Chisel used for its first power: a brick of any length. With a
    swap in the submission the hammer is used for its second power, and the
    brick is of the rolled length (one power or the other, never both)."""
    return sub.hammer and sub.swap is None


def rolled_allows(state: GameState, seat: int, sub: Submission, length: int) -> bool:
    """The die (or Hammer & Chisel without a swap) allows a brick of ``length``."""
    face = state.dice[seat]
    return any_length(sub) or face == STAR or face == str(length)


def check_length(state: GameState, seat: int, sub: Submission, length: int) -> None:
    """Refuse a brick of ``length`` the die does not allow, saying why: the die,
    or the Hammer & Chisel already used for a swap."""
    if rolled_allows(state, seat, sub, length):
        return
    face = state.dice[seat]
    if sub.hammer:
        raise RuleError("temple.error.hammer_one_power", length=length, die=face)
    raise RuleError("temple.error.wrong_length", length=length, die=face)


def resolve_length(state: GameState, seat: int, sub: Submission, place: Place) -> int:
    """The length a ``place`` lays: the one written, or the rolled number."""
    face = state.dice[seat]
    if place.length is None:
        if any_length(sub) or face == STAR:
            raise RuleError("temple.error.length_needed")
        return int(face)
    check_length(state, seat, sub, place.length)
    return place.length


def lay(state: GameState, bench: Bench, seat: int, area: int, brick: Brick, round_no: int) -> None:
    """Add ``brick`` to ``area`` on the bench, checked."""
    check_active(state, area)
    bricks = [*bench.bricks(area), brick]
    check_build(state, bench, seat, area, bricks, brick)
    bench.builds[area].append(Laid(brick, round_no))


def take_from_supply(bench: Bench, length: int) -> None:
    if bench.supply.get(length, 0) < 1:
        raise RuleError("temple.error.no_supply", length=length)
    bench.supply[length] -= 1


# --------------------------------------------------------------------------- parts


def do_mortar(state: GameState, bench: Bench, seat: int, part: Mortar) -> None:
    if MORTAR not in bench.tokens:
        raise RuleError("temple.error.token_used", token=token_name(MORTAR))
    check_active(state, part.area)
    if partner_bricks(state, seat, part.area):
        raise RuleError("temple.error.joint_no_tokens")
    bench.tokens.remove(MORTAR)
    bench.mortar_area = part.area


def check_layout_bricks(
    silhouette: frozenset[Cell], bricks: Sequence[Brick], available: dict[int, int], limit: int
) -> None:
    """Each brick of a layout, in the order written: inside, not overlapping an
    earlier one, available; then the pieces. Refusals name the first wrong brick."""
    used: Counter[int] = Counter()
    seen: dict[Cell, int] = {}
    for index, brick in enumerate(bricks, start=1):
        if not inside(brick, silhouette):
            raise RuleError("temple.error.layout.outside", index=index, brick=brick_name(brick))
        for cell in brick.cells():
            if cell in seen:
                raise RuleError(
                    "temple.error.layout.overlap",
                    other=seen[cell],
                    index=index,
                    brick=brick_name(brick),
                )
        for cell in brick.cells():
            seen[cell] = index
        used[brick.length] += 1
        if used[brick.length] > available.get(brick.length, 0):
            raise RuleError(
                "temple.error.layout.missing",
                length=brick.length,
                have=available.get(brick.length, 0),
                index=index,
                brick=brick_name(brick),
            )
    groups = pieces(bricks)
    if len(groups) > limit:
        loose = min(i for group in groups[limit:] for i in group)
        raise RuleError(
            "temple.error.layout.loose", index=loose + 1, brick=brick_name(bricks[loose])
        )


def do_relay(state: GameState, bench: Bench, seat: int, part: Relay, round_no: int) -> None:
    area = part.area
    check_active(state, area)
    pool = state.players[seat].relay_pools.get(area)
    if pool is None:
        raise RuleError("temple.error.relay_not_now", area=area + 1)
    available = Counter(pool)
    owned = Counter(bench.supply) + Counter(b.length for b in bench.bricks(area))
    limit = max_pieces(allows_mortar(state, bench, seat, area))
    check_layout_bricks(
        state.silhouette(area),
        part.layout,
        {k: min(available[k], owned[k]) for k in available},
        limit,
    )
    others = partner_bricks(state, seat, area)
    if others and (covered([*part.layout, *others]) is None):
        raise RuleError("temple.error.overlap", brick=bricks_name(part.layout), area=area + 1)
    for laid in bench.builds[area]:
        bench.supply[laid.brick.length] += 1
    bench.builds[area] = []
    for brick in part.layout:
        bench.supply[brick.length] -= 1
        bench.builds[area].append(Laid(brick, round_no))
    bench.changed = True


def do_swap(state: GameState, bench: Bench, seat: int, part: Swap, round_no: int) -> None:
    check_active(state, part.area)
    old = own_brick_at(bench, part.area, part.cell)
    if part.length == old.brick.length:
        raise RuleError("temple.error.swap_same", length=part.length)
    new = Brick(part.length, *(part.to_cell or (old.brick.x, old.brick.y)))
    rest = [laid for laid in bench.builds[part.area] if laid is not old]
    bench.supply[old.brick.length] += 1
    take_from_supply(bench, part.length)
    check_build(state, bench, seat, part.area, [*(lay.brick for lay in rest), new], new)
    bench.builds[part.area] = [*rest, Laid(new, round_no)]
    bench.swapped.append((part.area, old.brick, new))
    bench.changed = True


def do_brick(
    state: GameState, bench: Bench, seat: int, sub: Submission, part: Place | Move, round_no: int
) -> Place | Move:
    """Lay the round's brick; returns the part with its length resolved."""
    if isinstance(part, Place):
        length = resolve_length(state, seat, sub, part)
        if bench.supply.get(length, 0) < 1:
            raise RuleError("temple.error.no_supply_move", length=length)
        bench.supply[length] -= 1
        lay(state, bench, seat, part.area, Brick(length, *part.cell), round_no)
        bench.changed = True
        return Place(part.area, part.cell, length)
    if part.from_area == part.area:
        raise RuleError("temple.error.move_same_area")
    check_active(state, part.from_area)
    taken = own_brick_at(bench, part.from_area, part.from_cell)
    length = taken.brick.length
    check_length(state, seat, sub, length)
    if bench.supply.get(length, 0) > 0:
        raise RuleError("temple.error.supply_has", length=length)
    rest = [laid for laid in bench.builds[part.from_area] if laid is not taken]
    others = partner_bricks(state, seat, part.from_area)
    limit = piece_limit(state, bench, seat, part.from_area)
    if len(pieces([*(lay.brick for lay in rest), *others])) > limit:
        raise RuleError("temple.error.move_breaks", area=part.from_area + 1)
    bench.builds[part.from_area] = rest
    lay(state, bench, seat, part.area, Brick(length, *part.cell), round_no)
    bench.changed = True
    return part


def bag_bricks(state: GameState, part: Bag) -> tuple[Brick, Brick]:
    """The two bricks the Bag would borrow now, at the cells it names."""
    lender = state.players[part.player]
    top = top_bricks(lender.bricks(part.from_area), 2)
    return (
        Brick(top[0].length, *part.top_cell),
        Brick(top[1].length, *part.next_cell),
    )


def check_bag(state: GameState, bench: Bench, seat: int, part: Bag) -> None:
    """The Bag's form, and that it completes the area as things stand."""
    if BAG not in bench.tokens:
        raise RuleError("temple.error.token_used", token=token_name(BAG))
    if part.player == seat or part.player >= state.seats:
        raise RuleError("temple.error.bag_player")
    check_active(state, part.area)
    check_active(state, part.from_area)
    if partner_bricks(state, seat, part.area):
        raise RuleError("temple.error.joint_no_tokens")
    lender_build = state.players[part.player].bricks(part.from_area)
    if len(lender_build) < 2:
        raise RuleError("temple.error.bag_too_few", seat=part.player, area=part.from_area + 1)
    if lender_completes(state, part.player, part.from_area):
        raise RuleError("temple.error.bag_complete", seat=part.player, area=part.from_area + 1)
    first, second = bag_bricks(state, part)
    bricks = [*bench.bricks(part.area), first, second]
    silhouette = state.silhouette(part.area)
    if not matches(bricks, silhouette, bench.mortar_area == part.area):
        raise RuleError(
            "temple.error.bag_no_complete",
            area=part.area + 1,
            top=first.notation(),
            next=second.notation(),
        )


def lender_completes(state: GameState, seat: int, area: int) -> bool:
    """A build that matches its card lends nothing (it completes this round)."""
    player = state.players[seat]
    return matches(player.bricks(area), state.silhouette(area), player.mortar_area == area)


def try_submission(
    state: GameState, seat: int, sub: Submission, *, strict: bool = True
) -> tuple[Bench, Submission]:
    """Apply ``sub`` to a copy of the seat's bricks; returns the bench and the
    submission as applied (lengths resolved; skipped parts dropped). Strict:
    the first illegal part raises its :class:`RuleError`; lenient (the
    reveal): an illegal part is recorded in ``bench.skipped`` and left out."""
    bench = bench_of(state, seat)
    round_no = state.round
    done = Submission(passed=sub.passed)

    def run(label: str, step: Callable[[], None]) -> bool:
        """One part, all or nothing: a refused part leaves the bench as it was."""
        saved = (
            dict(bench.supply),
            [list(b) for b in bench.builds],
            bench.mortar_area,
            list(bench.tokens),
        )
        try:
            step()
        except RuleError as error:
            if strict:
                raise
            bench.supply, bench.builds, bench.mortar_area, bench.tokens = saved
            bench.skipped.append((label, error))
            return False
        return True

    if sub.hammer:
        if HAMMER not in bench.tokens:
            raise RuleError("temple.error.token_used", token=token_name(HAMMER))
        bench.tokens.remove(HAMMER)
        done.hammer = True
    mortar = sub.mortar
    if mortar is not None and run("mortar", lambda: do_mortar(state, bench, seat, mortar)):
        done.mortar = mortar
    for area, relay in sorted(sub.relays.items()):
        if run("relay", partial(do_relay, state, bench, seat, relay, round_no)):
            done.relays[area] = relay
    swap = sub.swap
    if swap is not None and run("swap", lambda: do_swap(state, bench, seat, swap, round_no)):
        done.swap = swap
    brick = sub.brick
    if brick is not None:
        resolved: list[Place | Move] = []

        def lay_brick() -> None:
            assert brick is not None
            resolved.append(do_brick(state, bench, seat, done, brick, round_no))

        if run("brick", lay_brick):
            done.brick = resolved[0]
    if sub.bag is not None:
        if strict:
            check_bag(state, bench, seat, sub.bag)
        if BAG in bench.tokens:
            bench.tokens.remove(BAG)
        done.bag = sub.bag
    return bench, done
