"""Which event loop runs the bot: uvloop's or asyncio's own, chosen in one place.

Every entry point that serves players (the bot, :mod:`bot.demo`, the test
bot process, the benchmarks) runs its main coroutine through :func:`run`;
the admin commands keep :func:`asyncio.run`.

Decisions:

* The bot runs on uvloop by default (:data:`DEFAULT_LOOP`): measured on
  the project's benchmarks against asyncio's loop (``docs/scaling-rounds.md``,
  "The event loop: uvloop against asyncio's"), every interaction costs the
  loop less CPU on it. ``ZIGGURAT_EVENT_LOOP=asyncio`` (:mod:`bot.config`)
  runs asyncio's own loop instead.
* uvloop is a dependency only where it installs (not on Windows). Asked
  for where it is absent, asyncio's loop runs and one warning line says so:
  the bot serves either way.
* :func:`loop_name` names the loop actually running, which the bot logs as
  it starts.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

log = logging.getLogger(__name__)

LoopName = Literal["uvloop", "asyncio"]
LOOPS: tuple[LoopName, ...] = ("uvloop", "asyncio")
DEFAULT_LOOP: LoopName = "uvloop"

T = TypeVar("T")


def uvloop_available() -> bool:
    """Whether uvloop is installed here."""
    try:
        importlib.import_module("uvloop")
    except ImportError:
        return False
    return True


def loop_factory(name: LoopName) -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes a new loop of ``name``; asyncio's (with one warning) where uvloop is absent."""
    if name == "uvloop":
        try:
            uvloop = importlib.import_module("uvloop")
        except ImportError:
            log.warning("uvloop is not installed here: running asyncio's own event loop")
        else:
            factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
            return factory
    return asyncio.new_event_loop


def run(main: Coroutine[Any, Any, T], name: LoopName = DEFAULT_LOOP) -> T:
    """Run ``main`` to its end on a new loop of ``name``, as :func:`asyncio.run` does."""
    with asyncio.Runner(loop_factory=loop_factory(name)) as runner:
        return runner.run(main)


def loop_name(loop: asyncio.AbstractEventLoop) -> LoopName:
    """Which of :data:`LOOPS` ``loop`` is."""
    return "uvloop" if type(loop).__module__.split(".")[0] == "uvloop" else "asyncio"
