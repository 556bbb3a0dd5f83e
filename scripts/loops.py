"""The benchmarks' ``--loop asyncio|uvloop``: which event loop a script runs on.

One helper for every script, so they all pick the loop the same way the bot
does (:mod:`bot.event_loop`): the default is what ``python -m bot`` would run
here (``ZIGGURAT_EVENT_LOOP``, else :data:`bot.event_loop.DEFAULT_LOOP`).
A script whose bot runs in child processes passes the choice on to them with
:func:`loop_env`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import event_loop
from bot.config import EVENT_LOOP_VARIABLE, parse_event_loop

T = TypeVar("T")


def add_loop_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--loop``, defaulting to the loop the bot would run here."""
    try:
        default = parse_event_loop(os.environ.get(EVENT_LOOP_VARIABLE, "").strip() or None)
    except ValueError:
        default = event_loop.DEFAULT_LOOP
    parser.add_argument(
        "--loop",
        choices=event_loop.LOOPS,
        default=default,
        help=f"the event loop to run on (default: {default}, what the bot runs here)",
    )


def run(main: Coroutine[Any, Any, T], name: event_loop.LoopName) -> T:
    """Run ``main`` on the loop ``name``, as the bot runs its own."""
    return event_loop.run(main, name)


def loop_env(name: event_loop.LoopName) -> dict[str, str]:
    """The setting that makes a bot process started from here run the loop ``name``."""
    return {EVENT_LOOP_VARIABLE: name}
