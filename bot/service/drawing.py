"""Where images are drawn: a pool of processes, one per core, fed by the event loop itself.

Decisions:

* Drawing is mostly Python, so drawing threads would share the interpreter
  with the bot's own work: ``scripts/bench_scale.py`` measured 100
  simultaneous moves with images at 74% of what the cores allow on threads
  and 86–90% on processes. A bounded pool also bounds the memory drawing takes.
* The processes are a :class:`~bot.service.workers.WorkerPool`: the loop
  writes each job (the renderer, by reference, and its view) to the process
  with the fewest, and reads the PNG back as raw bytes; measured with a 150 kB
  image, the bot's own CPU for an image fell from 0.23–0.39 ms (through
  ``concurrent.futures``) to 0.09–0.11 ms. A hand-off asks for its board, the
  longest, first.
* The bot starts them when it starts (:func:`warm_up`), with the renderers'
  modules imported once in the fork server, so the first board is not late
  by the imports, and each process draws made-up games' images before it
  takes work (:mod:`bot.service.warm_drawing`: at most
  ``ZIGGURAT_DRAW_WARMUP_SECONDS``, default
  :data:`~bot.service.warm_drawing.WARM_SECONDS`, and only until the first
  job arrives), so the first boards are not late by the fonts, sprites and
  palettes either; elsewhere (the demo, tests) they start on first use,
  cold.
* **A board's job carries its state, not its view**
  (:func:`board`): the drawing process builds the public view with the
  game's own ``public_view`` and draws that, so what is drawn is still the
  public view alone, and the loop neither builds the view nor pickles it
  (measured per board, mid-game: Tikal 450 → 29 µs of the loop, its job
  8.0 → 2.9 kB; Temple Rush 84 → 27 µs; Tigris 35 → 17 µs). The state is
  pickled as the job is sent, so a step that goes on changing it changes
  nothing drawn. The drawing process holds that whole state while it draws,
  as the bot's own process does; it writes nothing of it anywhere (no log
  line, no file), and its answer is the image, or the error when the view
  or the drawing fails (then logged and the board left out, as a drawing's
  failure always was). Private views are still built on the loop: each is
  one seat's, and a private view's job is small.
* A renderer that cannot be sent to another process (a closure, as tests
  make) is drawn on a thread, and so is an image whose process failed: an
  image late is better than no image. The next image starts new processes.
* **Below the event loop's priority.** The drawing processes run niced
  (:data:`NICENESS`), as the deciding processes do: a step's board is asked
  for before its commit is written, and while it draws on a core the loop
  shares, the loop's commit and the invoker's answer go first (measured on 2
  busy cores: at the bot's priority the invoker's answer came 2–3 ms later
  than when the board was asked for after the commit; niced, no later). The
  cores stay as busy: a niced process takes whatever the loop leaves.
* Each image's time (queueing included) and the images waiting or being
  drawn are recorded in the metrics (:mod:`bot.metrics`: ``image_seconds``,
  ``drawing_queue``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import pickle
import time
from collections.abc import Iterable
from typing import Any

from bot import metrics
from bot.games.base import GameType
from bot.i18n import LANGUAGES
from bot.service.colours import seat_colours
from bot.service.warm_drawing import SEATS, WARM_SECONDS, WarmGame, warm
from bot.service.workers import WorkerPool

log = logging.getLogger(__name__)

#: processes drawing images: one per core (threads for a renderer that cannot be sent)
RENDER_WORKERS = os.cpu_count() or 1
#: how much lower than the bot's the drawing processes' CPU priority is
NICENESS = 5


def _below_the_loop() -> None:
    """Setup of a drawing process: when it shares a core with the bot's event loop,
    the loop goes first (:data:`NICENESS`)."""
    try:
        os.nice(NICENESS)
    except OSError:  # not allowed here: it draws at the bot's priority
        log.warning("could not lower a drawing process's priority", exc_info=True)


#: the drawing processes
POOL = WorkerPool(RENDER_WORKERS, "ziggurat-draw", setup=_below_the_loop)


def warm_up(game_types: Iterable[GameType], seconds: float = WARM_SECONDS) -> None:
    """Start the drawing processes now, with the modules of ``game_types``' renderers
    imported in the fork server they come from, each process drawing made-up games of
    them for at most ``seconds`` before it takes work (0: none); a failure is logged
    and drawing starts them again later. Called from the event loop that draws."""
    if POOL.started:
        return
    kinds = list(game_types)
    renderers = [r for g in kinds for r in (g.render_public, g.render_private) if r is not None]
    modules = sorted({getattr(r, "__module__", "") for r in renderers if POOL.sendable(r)} - {""})
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", *modules])
    games = [game for game in map(_warm_game, kinds) if game is not None]
    if seconds > 0 and games:
        POOL.warm = functools.partial(warm, games, LANGUAGES, seconds)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no event loop yet: they start with the first image
    try:
        POOL.start(loop)
    except (OSError, RuntimeError):
        log.warning("could not start the drawing processes", exc_info=True)


def _warm_game(game_type: GameType) -> WarmGame | None:
    """What a drawing process needs to make up a game of ``game_type``; None when its
    engine or board renderer cannot be sent to one."""
    engine = game_type.engine
    low, high = engine.player_range({})
    seats = min(max(SEATS, low), high)
    game = WarmGame(
        engine=engine,
        render_public=game_type.render_public,
        render_private=game_type.render_private
        if game_type.render_private is not None and POOL.sendable(game_type.render_private)
        else None,
        colours=tuple(colour for colour, _ in seat_colours(game_type, seats)),
    )
    try:
        pickle.dumps(game)
    except Exception:
        return None
    return game


def public_board(render: Any, engine: Any, state: Any, *args: Any) -> bytes:
    """Run where the board is drawn: ``render(engine.public_view(state), *args)``, the
    view built by the game's own :meth:`public_view` (see :func:`board`)."""
    image: bytes = render(engine.public_view(state), *args)
    return image


def worker_pids() -> list[int]:
    """The drawing processes running now (the benchmark measures their memory)."""
    return POOL.pids()


def _sendable(render: Any) -> bool:
    """Whether ``render`` can be drawn in another process (a module-level function)."""
    return POOL.sendable(render)


async def board(render: Any, engine: Any, state: Any, *args: Any) -> bytes:
    """``render(engine.public_view(state), *args)``: the board of ``state``, its public
    view built in the drawing process (:func:`public_board`) when ``render`` and
    ``engine`` can be sent there, else here."""
    if _sendable(render) and _sendable(engine):
        return await drawn(public_board, render, engine, state, *args)
    return await drawn(render, engine.public_view(state), *args)


async def drawn(render: Any, *args: Any) -> bytes:
    """``render(*args)`` in a drawing process (on a thread for a renderer that cannot be
    sent to one, or when the processes cannot be used)."""
    started = time.perf_counter()
    metrics.drawing_queued(1)
    try:
        image, where = await POOL.run(render, *args)
    finally:
        metrics.drawing_queued(-1)
    metrics.image(where, time.perf_counter() - started)
    result: bytes = image
    return result
