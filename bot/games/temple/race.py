"""The lightning race.

Rules: when the lightning card comes to the top of the deck, a race starts
at once. Every player may submit a full layout for the lightning temple
from their bricks — the supply, and bricks pulled out of their own builds
(what is left of such a build must stay connected, or returns to supply).
The first valid layout received wins the card (3 points); every brick used
returns to supply and the next card of the deck shows. With no valid
layout before the race's deadline the card is discarded.

Decisions:

* A layout lists each brick as ``length:cell`` of its left end; it is
  checked brick by brick in the order written, and a refusal names the
  first wrong brick (outside, overlapping, not available, not connected),
  or the cells left empty.
* Bricks come from the supply first. A length the supply lacks is pulled
  from a build: the brick whose removal costs the fewest other bricks
  (what remains is fitted like a build under a new card: its largest
  piece inside the silhouette stays), then the lowest area, then the lowest,
  leftmost brick. The remainder is judged against the card above the area,
  or, when the area has none at the moment (two cards won in one round and
  the first refill turned up the lightning card), against the area's last
  card — never against an empty silhouette (``docs/rules/temple_rush.md#lightning-race``).
* The race's public message names, per area, the bricks pulled out of the
  winner's build there and any bricks of it that no longer held together
  and went back to supply.
* ``skip`` gives the race up; when every seat has skipped, the card is
  discarded at once. A seat's deadline action is ``skip``.
* The race has no deadline option of its own: it lasts as long as a round
  (the ``deadline`` option), and ends as soon as it is won or all skipped.
* A layout may be entered brick by brick (the move picker):
  :func:`layout_next` says what a partial layout allows next, by the same
  check as a submitted layout (:func:`check_layout_bricks`). It offers every
  brick that keeps the layout legal so far (inside the card, on free cells,
  a length the seat still has), not only those that keep it completable:
  offering only completable bricks would solve the temple for the player,
  and finding a layout is the race. The connection is judged when every
  cell is covered: only then is the layout complete (or why not is said).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.games.base import Event, RuleError
from bot.games.temple.building import check_layout_bricks
from bot.games.temple.cards import card
from bot.games.temple.components import cell_name
from bot.games.temple.geometry import Brick, Cell, covered, fit, sort_bricks
from bot.games.temple.solver import cached_layout, counts_of
from bot.games.temple.state import PHASE_RACE, GameState
from bot.games.temple.words import bricks_text


def start_race(state: GameState, events: list[Event]) -> None:
    """Turn the lightning card up from the top of the deck."""
    state.race += 1
    state.race_card = state.deck.pop(0)
    state.race_skipped = set()
    state.phase = PHASE_RACE
    events.append(Event("temple.event.race_started", {"race": state.race}))


def check_layout(state: GameState, seat: int, bricks: tuple[Brick, ...]) -> None:
    """A valid winning layout for ``seat``, or the :class:`RuleError` naming what is wrong."""
    if state.race_card is None:
        raise RuleError("temple.error.no_race")
    silhouette = card(state.race_card).cells
    check_layout_bricks(silhouette, bricks, state.players[seat].owned(), limit=1)
    cells = covered(bricks) or set()
    empty = sorted(silhouette - cells, key=lambda c: (c[1], c[0]))
    if empty:
        raise RuleError(
            "temple.error.layout.empty_cells", cells=", ".join(cell_name(*c) for c in empty)
        )


@dataclass(frozen=True)
class LayoutNext:
    """What a partial lightning layout allows next.

    ``bricks``: for each length the seat may still lay, the cells its left end
    may go on now (lengths with no such cell left out), cells bottom row first,
    left to right. ``complete``: the partial layout is a valid full layout (it
    wins if submitted now). ``problem``: when every cell is covered but the
    layout is not valid, the refusal a submission would get, else None.
    ``empty``: the cells still to cover.
    """

    bricks: tuple[tuple[int, tuple[Cell, ...]], ...]
    complete: bool
    problem: RuleError | None
    empty: tuple[Cell, ...]


def layout_next(state: GameState, seat: int, partial: tuple[Brick, ...]) -> LayoutNext:
    """What ``seat`` may add to ``partial`` in the current race (see the module
    docstring); :class:`RuleError` when there is no race for the seat or the
    partial layout itself is not legal (a stale pick)."""
    if state.race_card is None:
        raise RuleError("temple.error.no_race")
    if seat in state.race_skipped:
        raise RuleError("temple.error.race_skipped")
    silhouette = card(state.race_card).cells
    owned = state.players[seat].owned()
    unjoined = len(partial) + 1  # pieces are judged on the full layout only
    check_layout_bricks(silhouette, partial, owned, limit=unjoined)
    taken = covered(partial) or set()
    empty = tuple(sorted(silhouette - taken, key=lambda c: (c[1], c[0])))
    used = Counter(b.length for b in partial)
    bricks: list[tuple[int, tuple[Cell, ...]]] = []
    for length in sorted(owned):
        if owned[length] - used[length] <= 0:
            continue
        cells: list[Cell] = []
        for x, y in empty:
            try:
                check_layout_bricks(
                    silhouette, (*partial, Brick(length, x, y)), owned, limit=unjoined + 1
                )
            except RuleError:
                continue
            cells.append((x, y))
        if cells:
            bricks.append((length, tuple(cells)))
    problem: RuleError | None = None
    if not empty:
        try:
            check_layout(state, seat, partial)
        except RuleError as error:
            problem = error
    return LayoutNext(tuple(bricks), not empty and problem is None, problem, empty)


def suggested_layout(state: GameState, seat: int) -> tuple[Brick, ...] | None:
    """One valid layout from the seat's bricks (for ``legal_actions``), or None."""
    if state.race_card is None:
        return None
    counts = counts_of(state.players[seat].owned())
    return cached_layout(card(state.race_card).cells, counts)


def _pull(state: GameState, seat: int, length: int) -> tuple[int, Brick, list[Brick]]:
    """Pull a brick of ``length`` out of a build: ``(area, the brick, the bricks
    of that build that no longer hold and go back to supply)``."""
    player = state.players[seat]
    best: tuple[int, int, int, int] | None = None
    for area in range(len(player.builds)):
        silhouette = state.judged_silhouette(area)
        for laid in player.builds[area]:
            if laid.brick.length != length:
                continue
            rest = [b for b in player.bricks(area) if b != laid.brick]
            _, lost = fit(rest, silhouette, state.has_mortar(seat, area))
            key = (len(lost), area, laid.brick.y, laid.brick.x)
            best = key if best is None or key < best else best
    if best is None:  # the layout check guarantees a brick
        raise RuleError("temple.error.layout.missing", index=0, brick="", length=length, have=0)
    _, area, y, x = best
    pulled = next(b for b in player.bricks(area) if (b.y, b.x) == (y, x))
    rest = [b for b in player.bricks(area) if b != pulled]
    kept, lost = fit(rest, state.judged_silhouette(area), state.has_mortar(seat, area))
    player.builds[area] = [laid for laid in player.builds[area] if laid.brick in kept]
    player.supply[length] += 1
    for brick in lost:
        player.supply[brick.length] += 1
    return area, pulled, lost


def win(state: GameState, seat: int, bricks: tuple[Brick, ...], events: list[Event]) -> None:
    """``seat``'s valid layout wins the race (the layout was checked); the public
    message says which bricks were pulled out of which build, and which bricks of
    those builds no longer held together and went back to supply."""
    player = state.players[seat]
    needed = Counter(b.length for b in bricks)
    pulled: dict[int, list[Brick]] = {}
    loose: dict[int, list[Brick]] = {}
    for length, count in sorted(needed.items()):
        while player.supply[length] < count:
            area, brick, lost = _pull(state, seat, length)
            pulled.setdefault(area, []).append(brick)
            loose.setdefault(area, []).extend(lost)
    assert state.race_card is not None
    player.won.append(state.race_card)
    events.append(
        Event(
            "temple.event.race_won",
            {"seat": seat, "bricks": bricks_text(bricks), "value": card(state.race_card).value},
        )
    )
    for area in sorted(pulled):
        where = {"seat": seat, "area": area + 1, "bricks": bricks_text(sort_bricks(pulled[area]))}
        if loose[area]:
            returned = bricks_text(sort_bricks(loose[area]))
            events.append(Event("temple.event.race_pulled_loose", {**where, "returned": returned}))
        else:
            events.append(Event("temple.event.race_pulled", where))
    state.race_card = None


def skip(state: GameState, seat: int, events: list[Event]) -> bool:
    """``seat`` gives the race up; True when every seat has, and the card is discarded."""
    state.race_skipped.add(seat)
    events.append(Event("temple.event.race_skipped", {"seat": seat}))
    if len(state.race_skipped) < state.seats:
        return False
    assert state.race_card is not None
    state.discarded.append(state.race_card)
    events.append(Event("temple.event.race_lost", {"race": state.race}))
    state.race_card = None
    return True
