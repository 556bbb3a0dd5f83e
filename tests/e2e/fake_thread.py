"""The fake Discord on an event loop of its own, in a thread of its own: for benchmarks.

:func:`serving` gives a :class:`~.fake_discord.FakeDiscord` for a benchmark's bot to run
against, either on the bot's own event loop (``on_thread=False``, as the tests run it)
or on a loop in another thread (:class:`FakeThread`), where what the fake does for each
request (parsing a multipart upload, JSON, recording) is not charged to the bot's loop,
as real Discord's work is not.

Decisions:

* On its own thread the fake is reached through :class:`Remote`: its coroutine methods
  (``slash``, ``click``, ``wait_ready``...) run on its loop and are awaited from the
  caller's; every other attribute is the fake's own, read directly. What the harness
  reads (an interaction's messages, its callback's time) was recorded before the call
  or the bot's own "fully answered" returned, so it is read after the fake wrote it.
* A thread, not a process: the bot's harness builds its world with the fake's own
  objects and reads its records. The fake still shares the process's interpreter lock
  with the bot: while it parses a request the bot's loop may wait for the lock (at
  most the switch interval, 5 ms); its CPU is measured apart (:meth:`FakeThread.cpu`)
  so a benchmark can say what it took. On 2 cores it also takes CPU from the drawing
  processes, as it does on the bot's loop.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import inspect
import threading
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

from .fake_discord import FakeDiscord

T = TypeVar("T")


class FakeThread:
    """An event loop running in a thread of its own, for the fake Discord."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fake-discord")
        self.thread.start()
        self.fake: Any = None

    def call(self, coro: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Run ``coro`` on the fake's loop; awaitable from the caller's."""
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def cpu(self) -> float:
        """The CPU time (s) the fake's thread has used so far."""
        ident = self.thread.ident
        assert ident is not None
        return time.clock_gettime(time.pthread_getcpuclockid(ident))

    async def start(self) -> Any:
        """Start the fake on the thread's loop; the fake itself."""

        async def made() -> FakeDiscord:
            fake = FakeDiscord()
            await fake.start()
            return fake

        self.fake = await self.call(made())
        return self.fake

    async def stop(self) -> None:
        if self.fake is not None:
            await self.call(self.fake.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self.thread.join)
        self.loop.close()


class Remote:
    """The fake on :class:`FakeThread`, used as if it ran on the caller's loop."""

    def __init__(self, side: FakeThread) -> None:
        self.side = side
        self.fake: FakeDiscord = side.fake

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.fake, name)
        if not inspect.iscoroutinefunction(value):
            return value

        @functools.wraps(value)
        def on_its_loop(*args: Any, **kwargs: Any) -> asyncio.Future[Any]:
            return self.side.call(value(*args, **kwargs))

        return on_its_loop


@contextlib.asynccontextmanager
async def serving(*, on_thread: bool) -> AsyncIterator[Any]:
    """A started fake Discord (on its own thread: a :class:`Remote`, with ``.side``), stopped
    on exit."""
    if not on_thread:
        async with FakeDiscord() as fake:
            yield fake
        return
    side = FakeThread()
    try:
        await side.start()
        yield Remote(side)
    finally:
        await side.stop()


def where(on_thread: bool) -> str:
    """How a benchmark says where the fake ran."""
    return (
        "the fake Discord on its own thread and event loop (its work not on the bot's loop)"
        if on_thread
        else "the fake Discord on the bot's own event loop (its work charged to the bot)"
    )


def add_fake_argument(parser: argparse.ArgumentParser) -> None:
    """``--fake thread|loop``: where a benchmark runs the fake Discord (``thread``, the
    default: its own thread and event loop, so its work is not charged to the bot's loop)."""
    parser.add_argument(
        "--fake",
        choices=("thread", "loop"),
        default="thread",
        help="where the fake Discord runs: its own thread and event loop (default: its work "
        "is not the bot's, as real Discord's is not), or the bot's own loop",
    )
