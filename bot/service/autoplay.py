"""Decisions the table takes for a seat: absent or resigned seats, and opted-in answers.

Decisions:

* When the game hands a decision to a seat that is absent or has resigned,
  the engine's timeout actions are played for it at once (one that leaks
  nothing), step by step until the game no longer waits for that seat; the
  table is told what was played, as for any timeout.
* A seat whose player opted in to automatic answers (``/game auto on``)
  gets the engine's ``auto_action`` when there is one: an answer that cannot
  change the outcome. It is never the default.
* Nothing is played automatically when no member's seat is left playing (a
  game of absent players waits for its host, even beside computer seats), and never more than
  :data:`~bot.service.turn_clock.MAX_AUTOPLAY` decisions after one step.
* These moves are committed with the step that led to them, as one
  transaction, and announced in its one public message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Event, RuleError
from bot.i18n import Text
from bot.service.loaded import LoadedGame
from bot.service.turn_clock import ABSENT_SEAT, MAX_AUTOPLAY, PLAYING, RESIGNED
from bot.store import NewMove

log = logging.getLogger(__name__)

#: the most steps played for one seat's one decision
MAX_STEPS = 10


@dataclass
class Played:
    """What the table played: log rows, public lines, events (for private updates)."""

    moves: list[NewMove] = field(default_factory=list)
    lines: list[Text] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    seats: set[int] = field(default_factory=set)


def stand_in(game: LoadedGame, seat: int, statuses: dict[int, str]) -> str | None:
    """Why the table plays for ``seat`` now (``absent``, ``resigned``, ``auto``), or None."""
    status = statuses.get(seat, PLAYING)
    if status in (ABSENT_SEAT, RESIGNED):
        return status
    row = game.row.seats[seat]
    if row.auto and game.engine.auto_action(game.state, seat) is not None:
        return "auto"
    return None


def table_decides(game: LoadedGame, statuses: dict[int, str]) -> bool:
    """Whether the table has a decision to take now (:func:`play_for_seats` would play
    one): a member's seat is left playing and an awaited seat has a stand-in. Cheap
    (no step is applied), so it is asked on the event loop."""
    engine, state = game.engine, game.state
    if not _members_playing(game, statuses) or engine.result(state) is not None:
        return False
    return any(stand_in(game, s, statuses) is not None for s in engine.waiting_for(state))


def _members_playing(game: LoadedGame, statuses: dict[int, str]) -> bool:
    seats = game.row.seats
    return any(status == PLAYING and seats[s].computer is None for s, status in statuses.items())


def play_for_seats(game: LoadedGame, statuses: dict[int, str]) -> Played:
    """Play every decision the table takes now, in place on ``game.state``."""
    engine, state = game.engine, game.state
    played = Played()
    if not _members_playing(game, statuses):
        return played
    for _ in range(MAX_AUTOPLAY):
        if engine.result(state) is not None:
            break
        reasons = {s: stand_in(game, s, statuses) for s in sorted(engine.waiting_for(state))}
        todo = [(s, why) for s, why in reasons.items() if why is not None]
        if not todo:
            break
        progressed = False
        for seat, why in todo:
            progressed |= _decide(game, seat, why, played)
        if not progressed:
            break
    return played


def _decide(game: LoadedGame, seat: int, why: str, played: Played) -> bool:
    """Play one seat's decision for it; False when nothing could be played."""
    engine, state = game.engine, game.state
    any_step = False
    for _ in range(MAX_STEPS):
        if seat not in engine.waiting_for(state) or engine.result(state) is not None:
            break
        action: Any = (
            engine.auto_action(state, seat) if why == "auto" else engine.timeout_action(state, seat)
        )
        if action is None:
            break
        try:
            events = engine.apply(state, seat, action)
        except RuleError as error:
            log.warning(
                "the table could not play %s for seat %s in game %s: %s",
                engine.public_notation(action),
                seat,
                game.id,
                error.key,
            )
            break
        key = "table.auto_answer" if why == "auto" else "table.played_for"
        action_key, action_params = engine.describe(action, True)
        lines = [Text(key, {"seat": seat, "action": Text(action_key, dict(action_params))})]
        lines += [Text(e.key, e.params) for e in events if e.private_to is None and not e.receipt]
        played.lines += lines
        played.events += [e for e in events if not e.receipt]  # the table's line says it
        played.moves.append(
            NewMove(seat, str(action), kind="auto", events=[t.to_json() for t in lines])
        )
        played.seats.add(seat)
        any_step = True
        if why == "auto":
            break  # one answer: the next decision is the player's own
    return any_step
