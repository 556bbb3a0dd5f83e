"""The optional joint last card (lobby option ``joint``, 3–4 players).

Rules: the last card may be built jointly by two players who both agree;
their bricks in that area must not overlap and together must match; each
gets half the card's value, rounded up.

Decisions:

* Agreement is public and immediate (not sealed): ``joint <player>`` offers,
  the same from the other player accepts. An offer can be cancelled
  (``cancel joint``) until it is accepted; an agreement holds to the end.
* Offers are possible in a round while exactly one temple card is left in
  the game (none in the deck) and only when the two builds there do not
  overlap. Each player may have one offer out at a time.
* From then on, in that area each partner's bricks must touch the joint
  build and must not overlap the partner's; tokens cannot be played there.
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
    if state.joint_offers.get(partner) == seat:
        state.joint_pair = (min(seat, partner), max(seat, partner))
        state.joint_offers = {}
        return [Event("temple.event.joint_agreed", {"seat": seat, "partner_seat": partner})]
    state.joint_offers[seat] = partner
    return [Event("temple.event.joint_offered", {"seat": seat, "partner_seat": partner})]


def withdraw(state: GameState, seat: int) -> list[Event]:
    if state.joint_pair is not None and seat in state.joint_pair:
        raise RuleError("temple.error.joint_agreed")
    if seat not in state.joint_offers:
        raise RuleError("temple.error.nothing_to_cancel", part=part_name("joint"))
    partner = state.joint_offers.pop(seat)
    return [Event("temple.event.joint_withdrawn", {"seat": seat, "partner_seat": partner})]
