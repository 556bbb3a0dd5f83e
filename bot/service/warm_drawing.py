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
WARM_SECONDS = 5.0
#: the seats of a made-up game (clipped to the game's range)
SEATS = 3
#: steps of random play a made-up game gets at most
MAX_STEPS = 400
#: positions of a made-up game drawn in the first language
POSITIONS = 40
#: a position in this many also has its seats' private views drawn
PRIVATE_EVERY = 4
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


def _never() -> bool:
    return False


def made_up_positions(game: WarmGame, count: int, stop: Callable[[], bool] = _never) -> list[Any]:
    """Up to ``count`` states of a made-up game, evenly spread over its random play
    (copies, by the engine's own dump and load), in an order that halves the gaps
    between those already taken (:func:`_halving`); fewer
    when ``stop()`` ends the play early."""
    engine = game.engine
    rng = random.Random(SEED)
    state = engine.new_game(len(game.colours), {}, SEED)
    dumps = [engine.dump_state(state)]
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None or stop():
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
    taken = min(count, len(dumps))
    picks = [(len(dumps) - 1) * i // max(1, taken - 1) for i in range(taken)]
    order = sorted(range(taken), key=_halving)
    return [engine.load_state(dumps[picks[i]]) for i in order]


def _halving(i: int) -> tuple[int, int]:
    """The van der Corput order of ``i`` (its bits reversed): 0, 32, 16, 8, 24, 4…
    of 0–39, so that the first few taken already span the game."""
    return (int(f"{i:016b}"[::-1], 2), i)


def _images(
    game: WarmGame, state: Any, lang: str, private: bool
) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
    """The images of one made-up position in ``lang``: its board, then, when
    ``private``, each seat's private view."""
    engine = game.engine
    labels = [PlayerLabel(i, f"Player {i + 1}", c) for i, c in enumerate(game.colours)]
    jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
        (game.render_public, (engine.public_view(state), labels, lang))
    ]
    if private and engine.has_private_view and game.render_private is not None:
        for label in labels:
            jobs.append(
                (game.render_private, (engine.private_view(state, label.seat), label, lang))
            )
    return jobs


def warm(
    games: Sequence[WarmGame],
    languages: Sequence[str],
    seconds: float,
    interrupted: Callable[[], bool],
) -> int:
    """Draw the made-up games' images until done, ``seconds`` have passed, or
    ``interrupted()`` (a job waiting); the number of images drawn (thrown away).
    The games take turns, a position each, in the first language (so the time is
    shared, and the first positions span each game), each game's private views at
    every :data:`PRIVATE_EVERY` th; then one position of each in every other language."""
    deadline = time.monotonic() + seconds

    def stop() -> bool:
        return time.monotonic() >= deadline or interrupted()

    drawn = 0

    def draw(jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]], name: str) -> bool:
        nonlocal drawn
        for render, args in jobs:
            if stop():
                return False
            try:
                render(*args)
            except Exception:
                log.debug("a warm-up image of %s failed", name, exc_info=True)
                continue
            drawn += 1
        return True

    states: list[list[Any]] = []
    for game in games:
        try:
            states.append(made_up_positions(game, POSITIONS, stop))
        except Exception:
            log.debug("could not make up a game of %s", game.engine.name, exc_info=True)
            states.append([])
        if stop():
            return drawn
    first, others = languages[:1], languages[1:]
    rounds = [(k, lang, k % PRIVATE_EVERY == 0) for lang in first for k in range(POSITIONS)] + [
        (0, lang, True) for lang in others
    ]
    for k, lang, private in rounds:
        for game, positions in zip(games, states, strict=True):
            if k >= len(positions):
                continue
            try:
                jobs = _images(game, positions[k], lang, private)
            except Exception:
                log.debug("could not view a made-up %s game", game.engine.name, exc_info=True)
                continue
            if not draw(jobs, game.engine.name):
                return drawn
    return drawn
