"""A drawing process's warm-up: made-up games' images drawn before it takes work.

Decisions:

* **Why.** A drawing process's first image of a game is its slowest: the
  fonts opened, the pieces' sprites drawn at 4x, the palette built, every text
  strip drawn for the first time. Measured in a fresh process (one core,
  `en`): a Tikal board 361 ms, Tigris 141 ms, Temple Rush 57 ms, where the
  same boards drawn warm take 10–17 ms; a first board in another language
  (its CJK fallback fonts) ≈ 100 ms more. A bot that had just started drew
  its first hand-offs of each game, in each process, that late.
* **What is drawn: made-up games only.** Each game is started with a fixed
  seed and played by seeded random legal moves, its seats named
  ``Player 1``… in the colours a real game of as many seats has
  (:func:`bot.service.colours.seat_colours`); a few of its positions are
  drawn, the public board and each seat's private view, in every language of
  the catalog, English first. No real game's state, name or private view is
  ever part of it: the process has nothing but what :func:`warm` is given,
  and the bot gives it games' engines and renderers only.
* **Bounded, and it gives way.** It stops after :data:`WARM_SECONDS` of wall
  time, or as soon as a job is waiting on the process's pipe, whichever comes
  first (a sample drawn when the job arrives is finished first: one image's
  wait at most); its memory is the renderers' own caches, bounded as they
  are. A sample that fails is skipped: warming never keeps a process from
  drawing.
* The pixels do not depend on it: every cache it fills is keyed by what the
  pixels depend on (``tests/platform/test_warm_drawing.py``: the same bytes
  drawn by a warmed and an unwarmed process).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import GameEngine, PlayerLabel, PrivateRenderer, PublicRenderer

log = logging.getLogger(__name__)

#: how long a drawing process warms up at most before it takes work (wall time, seconds)
WARM_SECONDS = 3.0
#: the seats of a made-up game (clipped to the game's range)
SEATS = 3
#: steps of random play a made-up game gets at most
MAX_STEPS = 400
#: positions of a made-up game drawn in the first language, and in each other one
POSITIONS_FIRST, POSITIONS_OTHER = 4, 1
#: the seed every made-up game is started and played with
SEED = 20261128


@dataclass(frozen=True)
class WarmGame:
    """What a drawing process needs to make up a game and draw it."""

    engine: GameEngine[Any, Any]
    render_public: PublicRenderer
    render_private: PrivateRenderer | None
    #: the seats' colours, in seat order, as a real game of as many seats has them
    colours: tuple[str, ...]


def made_up_positions(game: WarmGame, count: int) -> list[Any]:
    """``count`` states of a made-up game spread over its random play (copies, by the
    engine's own dump and load), the last one where the play stopped."""
    engine = game.engine
    rng = random.Random(SEED)
    state = engine.new_game(len(game.colours), {}, SEED)
    dumps = [engine.dump_state(state)]
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None:
            break
        waiting = sorted(engine.waiting_for(state))
        if not waiting:
            break
        seat = rng.choice(waiting)
        actions = engine.legal_actions(state, seat)
        if not actions:
            break
        engine.apply(state, seat, rng.choice(actions))
        dumps.append(engine.dump_state(state))
    picks = sorted({(len(dumps) - 1) * (i + 1) // count for i in range(count)})
    return [engine.load_state(dumps[i]) for i in picks]


def _samples(
    game: WarmGame, states: Sequence[Any], languages: Sequence[str]
) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
    """The images of ``states`` to draw in ``languages``: each board, then each seat's
    private view."""
    engine = game.engine
    labels = [PlayerLabel(i, f"Player {i + 1}", c) for i, c in enumerate(game.colours)]
    jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    for lang in languages:
        for state in states:
            jobs.append((game.render_public, (engine.public_view(state), labels, lang)))
            if engine.has_private_view and game.render_private is not None:
                for label in labels:
                    view = engine.private_view(state, label.seat)
                    jobs.append((game.render_private, (view, label, lang)))
    return jobs


def warm(
    games: Sequence[WarmGame],
    languages: Sequence[str],
    seconds: float,
    interrupted: Callable[[], bool],
) -> int:
    """Draw the made-up games' images until done, ``seconds`` have passed, or
    ``interrupted()`` (a job waiting); the number of images drawn (thrown away).
    Every game in the first language first, then in the others: what the time
    cuts is the rarer."""
    deadline = time.monotonic() + seconds

    def stop() -> bool:
        return time.monotonic() >= deadline or interrupted()

    states: dict[int, list[Any]] = {}
    drawn = 0
    for first in (True, False):
        for i, game in enumerate(games):
            if stop():
                return drawn
            try:
                if i not in states:
                    states[i] = made_up_positions(game, POSITIONS_FIRST)
                shown = states[i] if first else states[i][-POSITIONS_OTHER:]
                jobs = _samples(game, shown, languages[:1] if first else languages[1:])
            except Exception:
                log.debug("could not make up a game of %s", game.engine.name, exc_info=True)
                continue
            for render, args in jobs:
                if stop():
                    return drawn
                try:
                    render(*args)
                except Exception:
                    log.debug("a warm-up image of %s failed", game.engine.name, exc_info=True)
                    continue
                drawn += 1
    return drawn
