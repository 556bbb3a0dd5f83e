"""A drawing process's warm-up: made-up games' images drawn before it takes work.

Decisions:

* **Why.** A drawing process's first image of a game is its slowest: the
  fonts opened, the pieces' sprites drawn at 4x, the palette built, every text
  strip drawn for the first time. Measured in a fresh process (2 busy cores,
  ``en``): the first board of a game 139–147 ms (Tigris), 154–165 ms (Tikal),
  57–74 ms (Temple Rush), where such a board drawn again takes 10–17 ms; a
  first board in another language (its CJK fallback fonts) ≈ 100 ms more.
  After the warm-up (all three games, 207 images, 3.3–3.7 s of CPU) the
  first board of a game the process had not drawn took 10–12, 15–16 and
  29–35 ms, and the boards of a new game drawn for the first time
  1.09, 1.16–1.22 and 1.07–1.08 times their redraw (unwarmed: 1.25, 1.68–1.77
  and 1.09: a Tikal hex in hand is six sprites, one per rotation).
  A bot that had just started drew its first hand-offs of each game, in each
  process, that late.
* **What is drawn: made-up games only.** Each game is started with a fixed
  seed and played by seeded random legal moves, its seats named
  ``Player 1``… in the colours a real game of as many seats has
  (:func:`bot.service.colours.seat_colours`); :data:`POSITIONS` of its
  positions are drawn in English, the games taking turns, with each seat's
  private view at every :data:`PRIVATE_EVERY` th, then one position of each
  in every other language of the catalog. No real game's state, name or
  private view is ever part of it: the process has nothing but what
  :func:`warm` is given, and the bot gives it games' engines and renderers
  only.
* **Bounded, and it gives way.** It stops after the seconds the admin set
  (``ZIGGURAT_DRAW_WARMUP_SECONDS``, default :data:`WARM_SECONDS`; 0: no
  warm-up at all, for a small host) of wall time, or as soon as a job is
  waiting on the process's pipe, whichever comes first (a sample drawn
  when the job arrives is finished first: one image's wait at most); its
  memory is the renderers' own caches, bounded as they are (a warmed
  process: ≈ 215–222 MB resident, what a process reaches anyway once it has
  drawn each game: 164 MB in English alone, 238 MB in all four languages).
  A sample that fails is skipped: warming never keeps a process from
  drawing. What it filled is frozen out of the collector once it ends
  (:mod:`bot.service.workers`).
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
MAX_STEPS = 1000
#: positions of a made-up game drawn in the first language
POSITIONS = 40
#: a made-up game's play stops once it has handed over this many times the positions
SPREAD = 4
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
    """Up to ``count`` states of a made-up game where it handed over (the positions
    boards show: in Tikal each with a newly drawn hex in hand), evenly spread over its
    random play
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
        waiting = engine.waiting_for(state)
        if not waiting:
            break
        seat = rng.choice(sorted(waiting))
        actions = engine.legal_actions(state, seat)
        if not actions:
            break
        engine.apply(state, seat, rng.choice(actions))
        if engine.waiting_for(state) != waiting or engine.result(state) is not None:
            dumps.append(engine.dump_state(state))  # a hand-off: what a board shows
            if len(dumps) >= SPREAD * count:  # enough to choose from (a long game)
                break
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
