"""A computer seat's randomness: its decisions and its answer delay, from its secret.

Decisions:

* **From the seat's secret.** Every computer seat holds a secret
  (:attr:`~bot.store.SeatRow.secret`), drawn by the store when the computer
  takes the seat (a lobby, an added computer, a seat handed to a computer, a
  rematch) and never shown, logged or exported. A seed is a hash of the
  secret with what it is for and where the game stands, so nothing a player
  can see — the game's id and version (which every button carries), the
  public view, the engine's own code — predicts it. The game's seed, which
  decides the draws, plays no part: two games that differ only in what a
  seat cannot see, with the same secret, get the same decision (the
  honesty checks).
* **A decision** is seeded by (secret, version): a decision retried at the
  same version is the same.
* **The answer delay** (Temple Rush's lightning race) is seeded by (secret,
  public view of the position): a computer timer lost in a restart and
  restored at start-up (:meth:`~bot.service.context.Context.computer_due`,
  given when the game began waiting) gets the same delay, since the
  position is the same; the version is not used, as a step computes its
  timer before its commit bumps the version.
* A computer seat without a secret (none should exist: migration 7 gave one
  to every computer seat stored before it) gets a fresh random seed for each
  use, logged: unpredictable, only not repeatable.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets

from bot.service.loaded import LoadedGame

log = logging.getLogger(__name__)


def seat_seed(secret: int | None, purpose: str, position: str) -> int:
    """A 63-bit seed from a seat's ``secret``, what it seeds and where the game stands."""
    if secret is None:
        log.warning("a computer seat has no secret; seeding it at random")
        return secrets.randbits(63)
    digest = hashlib.sha256(f"{purpose}:{secret}:{position}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def decision_seed(game: LoadedGame, seat: int) -> int:
    """The seed of ``seat``'s decision at the game's current version."""
    return seat_seed(game.row.seats[seat].secret, "decide", str(game.row.version))


def position_key(game: LoadedGame) -> str:
    """The position as everyone sees it (its public view, canonically): the same after
    a restart, whatever version the row then has."""
    view = game.engine.public_view(game.state)
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def answer_delay(game: LoadedGame) -> float | None:
    """Seconds the computer seats the game awaits now wait before answering, beyond the
    pause; None when it awaits none.

    The seats awaited together answer together, after the shortest of their
    delays: a race is won by the first valid answer, so the quickest computer's
    delay is the one a member has to beat. Once no member is awaited with them
    (each has answered: entered a layout or skipped the race), there is nothing
    to beat and they answer after the pause alone."""
    seats = game.computers_awaited()
    if not seats:
        return None
    brain = game.engine.computer()
    if brain is None or not game.members_awaited():
        return 0.0
    key = position_key(game)
    return min(
        brain.answer_delay(
            game.state,
            seat,
            game.row.seats[seat].computer or "",
            random.Random(seat_seed(game.row.seats[seat].secret, "delay", key)),
        )
        for seat in seats
    )
