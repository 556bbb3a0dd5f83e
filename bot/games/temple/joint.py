"""The optional joint last card (lobby option ``joint``, 3–4 players).

Rules: the last card may be built jointly by two players who both agree;
their bricks in that area must not overlap and together must match; each
gets half the card's value, rounded up.

Decisions:

* Agreement is public (not sealed): ``joint <player>`` offers, the same from
  the other player accepts. The agreement takes effect when the next round
  opens (so the moves both have sealed this round stay as they were
  checked), if their bricks there do not overlap then; from then on it
  holds to the end. Until it takes effect an offer can be cancelled
  (``cancel joint``). With two agreements at once, the one with the lower
  seat takes effect and the other offers lapse.
* Offers are possible in a round while exactly one temple card is left in
  the game (none in the deck) and only when the two builds there do not
  overlap. Each player may have one offer out at a time.
* The two builds need not touch when the players agree; from then on, in
  that area each partner's bricks must not overlap the partner's and must
  not split the joint build into more pieces than it already has (a new
  brick touches it); tokens cannot be played there.
"""

from __future__ import annotations

from bot.games.base import Event, RuleError
from bot.games.temple.actions import Joint
from bot.games.temple.geometry import covered
from bot.games.temple.naming import part_name
from bot.games.temple.state import PHASE_ROUND, GameState


def check_offer(state: GameState, seat: int, partner: int) -> None:
    if not state.joint_rule:
        raise RuleError("temple.error.joint_off")
    if state.phase != PHASE_ROUND:
        raise RuleError("temple.error.not_now")
    if not state.last_card():
        raise RuleError("temple.error.joint_not_last")
    if state.joint_pair is not None:
        raise RuleError("temple.error.joint_agreed")
    if partner == seat or not 0 <= partner < state.seats:
        raise RuleError("temple.error.joint_player")
    if state.joint_offers.get(seat) == partner:
        raise RuleError("temple.error.joint_offered", partner_seat=partner)
    area = state.active_areas()[0]
    both = [*state.players[seat].bricks(area), *state.players[partner].bricks(area)]
    if covered(both) is None:
        raise RuleError("temple.error.joint_overlap", partner_seat=partner)


def offer(state: GameState, seat: int, action: Joint) -> list[Event]:
    check_offer(state, seat, action.player)
    partner = action.player
    state.joint_offers[seat] = partner
    key = "temple.event.joint_agreed" if state.joint_offers.get(partner) == seat else None
    return [Event(key or "temple.event.joint_offered", {"seat": seat, "partner_seat": partner})]


def withdraw(state: GameState, seat: int) -> list[Event]:
    if state.joint_pair is not None and seat in state.joint_pair:
        raise RuleError("temple.error.joint_agreed")
    if seat not in state.joint_offers:
        raise RuleError("temple.error.nothing_to_cancel", part=part_name("joint"))
    partner = state.joint_offers.pop(seat)
    return [Event("temple.event.joint_withdrawn", {"seat": seat, "partner_seat": partner})]


def take_effect(state: GameState, events: list[Event]) -> None:
    """As a round opens: the first agreed pair starts building jointly (if the
    last card is still up and their bricks do not overlap); offers lapse."""
    pairs = sorted(
        (a, b) for a, b in state.joint_offers.items() if a < b and state.joint_offers.get(b) == a
    )
    if not pairs or state.joint_pair is not None or not state.last_card():
        return
    first, second = pairs[0]
    area = state.active_areas()[0]
    both = [*state.players[first].bricks(area), *state.players[second].bricks(area)]
    state.joint_offers = {}
    params = {"seat": first, "partner_seat": second}
    if covered(both) is None:
        events.append(Event("temple.event.joint_failed", params))
        return
    state.joint_pair = (first, second)
    events.append(Event("temple.event.joint_started", params))
