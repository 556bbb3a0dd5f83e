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
  piece stays), then the lowest area, then the lowest, leftmost brick.
* ``skip`` gives the race up; when every seat has skipped, the card is
  discarded at once. A seat's deadline action is ``skip``.
* The race has no deadline option of its own: it lasts as long as a round
  (the ``deadline`` option), and ends as soon as it is won or all skipped.
"""

from __future__ import annotations

from collections import Counter

from bot.games.base import Event, RuleError
from bot.games.temple.actions import layout_text
from bot.games.temple.building import check_layout_bricks
from bot.games.temple.cards import card
from bot.games.temple.components import cell_name
from bot.games.temple.geometry import Brick, covered, fit
from bot.games.temple.solver import cached_layout, counts_of
from bot.games.temple.state import PHASE_RACE, GameState


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


def suggested_layout(state: GameState, seat: int) -> tuple[Brick, ...] | None:
    """One valid layout from the seat's bricks (for ``legal_actions``), or None."""
    if state.race_card is None:
        return None
    counts = counts_of(state.players[seat].owned())
    return cached_layout(card(state.race_card).cells, counts)


def _pull(state: GameState, seat: int, length: int) -> int:
    """Pull a brick of ``length`` out of a build; returns how many bricks went to supply."""
    player = state.players[seat]
    best: tuple[int, int, int, int] | None = None
    for area in range(len(player.builds)):
        for laid in player.builds[area]:
            if laid.brick.length != length:
                continue
            rest = [b for b in player.bricks(area) if b != laid.brick]
            _, lost = fit(rest, state.silhouette(area), state.has_mortar(seat, area))
            key = (len(lost), area, laid.brick.y, laid.brick.x)
            best = key if best is None or key < best else best
    if best is None:  # the layout check guarantees a brick
        raise RuleError("temple.error.layout.missing", index=0, brick="", length=length, have=0)
    _, area, y, x = best
    rest = [b for b in player.bricks(area) if (b.y, b.x) != (y, x)]
    kept, lost = fit(rest, state.silhouette(area), state.has_mortar(seat, area))
    player.builds[area] = [laid for laid in player.builds[area] if laid.brick in kept]
    player.supply[length] += 1
    for brick in lost:
        player.supply[brick.length] += 1
    return 1 + len(lost)


def win(state: GameState, seat: int, bricks: tuple[Brick, ...], events: list[Event]) -> None:
    """``seat``'s valid layout wins the race (the layout was checked)."""
    player = state.players[seat]
    needed = Counter(b.length for b in bricks)
    pulled = 0
    for length, count in sorted(needed.items()):
        while player.supply[length] < count:
            pulled += _pull(state, seat, length)
    assert state.race_card is not None
    player.won.append(state.race_card)
    events.append(
        Event(
            "temple.event.race_won",
            {"seat": seat, "bricks": layout_text(bricks), "value": card(state.race_card).value},
        )
    )
    if pulled:
        events.append(Event("temple.event.race_pulled", {"seat": seat, "count": pulled}))
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
