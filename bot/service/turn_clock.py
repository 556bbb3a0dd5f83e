"""What the table adds to every game: the turn clock and the absent seats.

Decisions:

* **Turn clock** (lobby option ``clock``: ``off``, ``1d``, ``3d``, ``7d``
  per decision), for games that take turns one seat at a time; a
  simultaneous game's rounds keep their own deadlines (its engine's). A
  decision's clock starts when the game hands it over; its player is
  reminded at half time and shortly before the end (an eighth of the clock
  before, at most six hours); at the end the game plays the engine's safe
  timeout action for them (one that leaks nothing). With the clock off, the
  bot's reminder interval (``ZIGGURAT_TURN_DEADLINE_HOURS``) repeats instead.
* **Absent seats** (lobby option ``absent``: after 2, 3 (the default) or 5 timeouts
  in a row, or never): a seat that times out that many times in a row is marked
  absent and the table is told; from then on its decisions are played by
  timeouts at once, until its player acts again. A resigned seat is played
  the same way for the rest of the game. When no seat is left playing,
  nothing is played automatically (the clock still runs).
* The names ``clock`` and ``absent`` are reserved: an engine's own lobby
  options must not use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import GameEngine, GameType, OptionSpec, TurnShape
from bot.games.notation import ascii_int

DAY = 86_400.0
CLOCK = OptionSpec("clock", ("off", "1d", "3d", "7d"), "frame.option.clock")
ABSENT = OptionSpec("absent", ("2", "3", "5", "never"), "frame.option.absent", "3")
CLOCK_SECONDS = {"1d": DAY, "3d": 3 * DAY, "7d": 7 * DAY}
#: the "shortly before" reminder comes an eighth of the clock before its end, at most this early
LAST_CALL = 6 * 3600.0
#: seat statuses
PLAYING = "playing"
ABSENT_SEAT = "absent"
RESIGNED = "resigned"
#: the most decisions played automatically after one step (a safety bound)
MAX_AUTOPLAY = 200


def table_options(engine: GameEngine[Any, Any]) -> tuple[OptionSpec, ...]:
    """The table's options a game's lobby offers (the clock for turn-based games)."""
    if engine.turns is TurnShape.SEQUENTIAL:
        return (CLOCK, ABSENT)
    return (ABSENT,)


def all_options(game_type: GameType) -> tuple[OptionSpec, ...]:
    """A game's own lobby options, then the table's."""
    return (*game_type.engine.options, *table_options(game_type.engine))


def clock_seconds(options: Mapping[str, str]) -> float | None:
    """The turn clock's length in seconds, or None when it is off."""
    return CLOCK_SECONDS.get(options.get("clock", "off"))


def absent_after(options: Mapping[str, str]) -> int | None:
    """How many timeouts in a row make a seat absent (None: never)."""
    value = options.get("absent", ABSENT.default)
    return None if value == "never" else ascii_int(value)


def clock_timers(now: float, seconds: float) -> dict[str, float]:
    """The timers of a decision's clock started ``now``: the end and two reminders."""
    return {
        "turn": now + seconds,
        "half": now + seconds / 2,
        "soon": now + seconds - min(seconds / 8, LAST_CALL),
    }
