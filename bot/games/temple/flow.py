"""The course of a game: setup, rounds, the bonus choice, new cards, races, the end.

Rules: the roller (the first seated player first, then clockwise) rolls
every player's die; every seat submits a sealed move; the reveal applies
them (:mod:`~bot.games.temple.reveal`). A completed card's slot takes the
next card of the deck, and every other player's build in that area is
fitted to it (:func:`~bot.games.temple.geometry.fit`); the player may
instead re-lay that area in their next submission. When the lightning card
comes to the top of the deck a race starts (:mod:`~bot.games.temple.race`).
The game ends when the last temple card is won.

Decisions:

* Setup: the game's cards are drawn at random from the set (9/11/13); the
  first 2 or 3 lie face up; the lightning card is shuffled into the rest
  (it may come up first: the race then runs before round 1).
* After a reveal, bonus choices come first (the next round waits for them);
  then the free slots are refilled one by one in area order, so a lightning
  card turned up by a refill is raced before the next refill.
* A slot the deck can no longer refill stays empty (its area is no longer
  used) and the bricks in that area go back to supply.
* A face-up card that no player can build any more from all the bricks they
  still own (supply and builds; with the Mortar's freedom for a player who
  holds it or has it on that area; with the joint rule, also any two
  players together on the last card) is set aside and replaced: without it
  a game could never end. Checked before every round.
* A face-up card not completed after ``AGE_LIMIT`` rounds is set aside and
  replaced the same way. Bricks cannot be taken off a build without a
  supply brick to swap in, so players can lock each other into builds that
  can never be finished (all bricks on the table, none of them movable);
  the physical game relies on the table noticing. This limit unlocks such
  games and bounds every game: each card leaves within ``AGE_LIMIT``
  rounds. Healthy cards are completed well before (one brick per player
  and round builds the largest card in about a dozen rounds). The views
  show how many rounds each card has left.
* A game also ends without its last card after ``IDLE_LIMIT`` rounds in a
  row in which nobody laid, swapped, moved, re-laid or borrowed a brick
  (everyone passed or missed the deadline: an abandoned game). Scoring is
  the same.
* The end says which of these happened (``END_REASONS``, each its own public
  message and image line): ``complete`` when the last temple card to leave
  was completed, ``dead`` or ``expired`` when it was set aside (nobody could
  build it; ``AGE_LIMIT`` rounds), ``idle`` after the idle rounds. Cards set
  aside earlier were announced when it happened.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from bot.games.base import Event, RuleError
from bot.games.temple import joint, race
from bot.games.temple.actions import Bonus
from bot.games.temple.cards import card, lightning_card, temple_cards
from bot.games.temple.components import DECK_SIZE, DIE_FACES, FACE_UP, MORTAR
from bot.games.temple.geometry import Brick, fit
from bot.games.temple.naming import card_name
from bot.games.temple.reveal import keep_bonus, reveal
from bot.games.temple.solver import buildable, counts_of
from bot.games.temple.state import (
    PHASE_BONUS,
    PHASE_OVER,
    PHASE_ROUND,
    GameState,
    Player,
)

IDLE_LIMIT: Final = 5
AGE_LIMIT: Final = 30

#: why a game ended: its last temple card completed, or set aside because nobody
#: could build it or after ``AGE_LIMIT`` rounds; or ``IDLE_LIMIT`` idle rounds
END_REASONS: Final = ("complete", "dead", "expired", "idle")


def new_state(seats: int, seed: int, deadline: str, joint: bool) -> tuple[GameState, list[Event]]:
    """The first state: cards dealt, and the game brought to its first decision."""
    state = GameState(
        seats=seats,
        seed=seed,
        deadline=deadline,
        joint_rule=joint,
        players=[Player() for _ in range(seats)],
        slots=[],
        deck=[],
    )
    rng = state.random()
    pool = [c.id for c in temple_cards()]
    rng.shuffle(pool)
    chosen = pool[: DECK_SIZE[seats]]
    face_up = FACE_UP[seats]
    slots: list[str | None] = list(chosen[:face_up])
    state.slots = slots
    state.last_shown = list(slots)
    state.ages = [0] * face_up
    state.deck = chosen[face_up:]
    state.deck.insert(rng.randint(0, len(state.deck)), lightning_card().id)
    events: list[Event] = []
    settle(state, events)
    return state, events


def open_round(state: GameState, events: list[Event]) -> None:
    """Next round: an agreed joint build takes effect; the next roller rolls every die."""
    joint.take_effect(state, events)
    state.round += 1
    state.roller = (state.round - 1) % state.seats
    rng = state.random()
    state.dice = [rng.choice(DIE_FACES) for _ in range(state.seats)]
    state.submissions = {}
    state.phase = PHASE_ROUND
    # the dice themselves are in the round's prompt (round 1's too), by player name
    events.append(Event("temple.event.round", {"round": state.round, "seat": state.roller}))


def end(state: GameState, reason: str, events: list[Event]) -> None:
    """The game is over for ``reason`` (one of ``END_REASONS``); its public
    message says which."""
    assert reason in END_REASONS, reason
    state.phase = PHASE_OVER
    state.end_reason = reason
    state.submissions = {}
    rounds = IDLE_LIMIT if reason == "idle" else AGE_LIMIT
    events.append(Event(f"temple.event.end.{reason}", {"rounds": rounds}))


def fit_area(state: GameState, area: int, events: list[Event]) -> None:
    """Fit every build in ``area`` to its (new) card, or clear it when there is none."""
    silhouette = state.silhouette(area)
    for seat, player in enumerate(state.players):
        bricks = player.bricks(area)
        if not bricks:
            continue
        kept: list[Brick]
        lost: list[Brick]
        if not silhouette:
            kept, lost = [], bricks
        else:
            kept, lost = fit(bricks, silhouette, state.has_mortar(seat, area))
            # a second change before the next round keeps the first pool
            player.relay_pools.setdefault(area, sorted(b.length for b in bricks))
        player.builds[area] = [laid for laid in player.builds[area] if laid.brick in kept]
        for brick in lost:
            player.supply[brick.length] += 1
        events.append(
            Event(
                "temple.event.fitted",
                {"seat": seat, "area": area + 1, "kept": len(kept), "returned": len(lost)},
            )
        )


def _refill(state: GameState, area: int, events: list[Event]) -> None:
    state.ages[area] = 0
    if state.deck:
        drawn = state.slots[area] = state.deck.pop(0)
        state.last_shown[area] = drawn
        events.append(
            Event("temple.event.card_drawn", {"area": area + 1, "card": card_name(drawn)})
        )
    fit_area(state, area, events)


def can_build(state: GameState, seat: int, area: int) -> bool:
    """Whether ``seat`` could still build the card above ``area`` from all its bricks."""
    player = state.players[seat]
    mortar = MORTAR in player.tokens or player.mortar_area == area
    return buildable(state.silhouette(area), counts_of(player.owned()), mortar)


def anyone_can_build(state: GameState, area: int) -> bool:
    if any(can_build(state, seat, area) for seat in range(state.seats)):
        return True
    if not (state.joint_rule and state.last_card()):
        return False
    silhouette = state.silhouette(area)
    for a, b in combinations(range(state.seats), 2):
        owned_a, owned_b = state.players[a].owned(), state.players[b].owned()
        both = {k: owned_a[k] + owned_b[k] for k in owned_a}
        if buildable(silhouette, counts_of(both), False):
            return True
    return False


def _set_aside_dead(state: GameState, events: list[Event]) -> bool:
    dead = [a for a in state.active_areas() if not anyone_can_build(state, a)]
    for area in dead:
        events.append(
            Event(
                "temple.event.card_dead",
                {"area": area + 1, "card": card_name(str(state.slots[area]))},
            )
        )
        state.discarded.append(str(state.slots[area]))
        state.slots[area] = None
        state.last_exit = "dead"
    return bool(dead)


def _set_aside_old(state: GameState, events: list[Event]) -> bool:
    old = [a for a in state.active_areas() if state.ages[a] >= AGE_LIMIT]
    for area in old:
        events.append(
            Event(
                "temple.event.card_expired",
                {"area": area + 1, "card": card_name(str(state.slots[area])), "rounds": AGE_LIMIT},
            )
        )
        state.discarded.append(str(state.slots[area]))
        state.slots[area] = None
        state.last_exit = "expired"
    return bool(old)


def settle(state: GameState, events: list[Event]) -> None:
    """Bring the game to its next decision: a bonus choice, a race, a round or the end."""
    while True:
        if any(p.pending_bonus for p in state.players):
            state.phase = PHASE_BONUS
            return
        if state.deck and card(state.deck[0]).lightning:
            race.start_race(state, events)
            return
        free = [
            a
            for a in range(len(state.slots))
            if state.slots[a] is None and (state.deck or any(p.builds[a] for p in state.players))
        ]
        if free:
            _refill(state, free[0], events)
            continue
        if state.temple_cards_left() == 0:
            end(state, state.last_exit, events)
            return
        if _set_aside_dead(state, events):
            continue
        if _set_aside_old(state, events):
            continue
        if state.idle_rounds >= IDLE_LIMIT:
            end(state, "idle", events)
            return
        open_round(state, events)
        return


def choose_bonus(state: GameState, seat: int, action: Bonus) -> list[Event]:
    """A completer keeps a brick of the completed temple as its bonus."""
    pending = state.players[seat].pending_bonus
    if action.area not in pending:
        raise RuleError("temple.error.no_bonus_here", area=action.area + 1)
    if action.length not in pending[action.area]:
        lengths = ", ".join(str(k) for k in sorted(set(pending[action.area])))
        raise RuleError("temple.error.bonus_length", length=action.length, lengths=lengths)
    events: list[Event] = []
    keep_bonus(state, seat, action.area, action.length, events)
    settle(state, events)
    return events


def resolve_round(state: GameState) -> list[Event]:
    """Every seat has submitted: reveal, complete, and go on to the next decision."""
    events = reveal(state)
    settle(state, events)
    return events
