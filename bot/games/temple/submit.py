"""Sealed submissions: how each round action changes a seat's submission.

Rules: every seat submits one sealed move per round — a brick (``place`` or
``move``), a ``swap`` or a ``pass`` — and may add power tokens and re-lays.
A seat may change its sealed submission until the round resolves: a new
brick, swap or pass replaces the old one, ``cancel <part>`` takes a part
back. The round is revealed as soon as every seat's submission is complete.

Decisions:

* With Hammer & Chisel in the submission a swap and a brick may both be
  given — the brick then of the rolled length, since the hammer is one power
  or the other (any length, or a swap and a brick); a swap alone then still
  waits for the brick (or a pass), so a seat using the hammer sends
  ``hammer``, ``swap …``, ``place …`` in that order.
* ``pass`` means "no brick this round": it keeps the tokens and re-lays of
  the submission (and, under Hammer & Chisel, its swap); ``cancel`` removes
  one part. The deadline's ``pass`` therefore completes a late submission
  without undoing what the seat had sealed.
* A submission step is announced publicly only as "<seat> sealed a move";
  the seat itself gets its whole submission privately.
"""

from __future__ import annotations

from bot.games.base import Event, RuleError
from bot.games.temple.actions import (
    Action,
    Bag,
    Cancel,
    Hammer,
    Mortar,
    Move,
    Pass,
    Place,
    Relay,
    Swap,
)
from bot.games.temple.building import try_submission
from bot.games.temple.components import HAMMER
from bot.games.temple.naming import part_name, token_name
from bot.games.temple.state import GameState, Submission
from bot.games.temple.words import parts_text


def updated(state: GameState, seat: int, action: Action) -> Submission:
    """The seat's submission with ``action`` applied (not yet checked)."""
    sub = state.submission(seat).copy()
    if isinstance(action, Cancel):
        _cancel(sub, action.part)
    elif isinstance(action, Hammer) and sub.hammer:
        raise RuleError("temple.error.already_played", token=token_name(HAMMER))
    elif isinstance(action, Place | Move | Swap | Pass | Hammer | Mortar | Bag | Relay):
        sub.add(action)
    else:
        raise RuleError("temple.error.not_now")
    return sub


def _cancel(sub: Submission, part: str) -> None:
    present = {
        "brick": sub.brick is not None,
        "swap": sub.swap is not None,
        "hammer": sub.hammer,
        "bag": sub.bag is not None,
        "mortar": sub.mortar is not None,
        "relay": bool(sub.relays),
    }
    if not present.get(part, False):
        raise RuleError("temple.error.nothing_to_cancel", part=part_name(part))
    if part == "brick":
        sub.brick = None
    elif part == "swap":
        sub.swap = None
    elif part == "hammer":
        if sub.brick is not None and sub.swap is not None:
            raise RuleError("temple.error.hammer_needed")
        sub.hammer = False
    elif part == "bag":
        sub.bag = None
    elif part == "mortar":
        sub.mortar = None
    else:
        sub.relays = {}


def submit(state: GameState, seat: int, action: Action) -> list[Event]:
    """Change ``seat``'s sealed submission (checked whole) and report it."""
    sub = updated(state, seat, action)
    _, done = try_submission(state, seat, sub)
    if done.empty():
        state.submissions.pop(seat, None)
    else:
        state.submissions[seat] = done
    public = "temple.event.sealed"
    private = "temple.event.your_submission" if done.complete() else "temple.event.your_draft"
    mine = Event(
        private,
        {"parts": parts_text(done.parts()), "round": state.round},
        private_to=seat,
        receipt=True,
    )
    if not done.complete():  # a draft is the author's business; the tally shows them awaited
        return [mine]
    return [Event(public, {"seat": seat}, receipt=True), mine]


def all_submitted(state: GameState) -> bool:
    return all(state.submission(seat).complete() for seat in range(state.seats))
