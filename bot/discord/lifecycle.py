"""The process around the bot: open the store, connect, retry, stop on a signal.

:func:`serve` is the production entry point (:func:`run_bot` wraps it for
``python -m bot``); the bot itself is :mod:`bot.discord.client`'s. It is four
steps, one job each: wiring (:func:`_open_store`: the store and the metrics),
shutdown (:func:`_stopping`: the signals and the stop that closes the bot), the
back-off loop (:func:`_retry_until_stopped`) and the start of one fresh bot
(:func:`_run_once`).

Decisions:

* The bot serves on the event loop ``ZIGGURAT_EVENT_LOOP`` names (uvloop by
  default; :mod:`bot.event_loop` decides, and falls back to asyncio's loop
  with one warning where uvloop is absent). :func:`serve` logs the loop it
  runs on as it starts, one INFO line once the store is open (a database
  the bot cannot use stays the one line it prints).
* The production process (:func:`run_bot`, and the test bot process that
  stands for it) settles its heap the first time the bot is ready
  (:mod:`bot.heap`: one full collection, then ``gc.freeze``), and logs what
  that did in one INFO line. :func:`serve` run inside another program (the
  tests) leaves that program's heap alone unless asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot import event_loop, heap, metrics
from bot.config import Settings, current_user, database_open_problem, database_problem
from bot.discord.client import ZigguratBot, create_bot
from bot.games.base import GameType
from bot.i18n import t
from bot.store import Store

log = logging.getLogger(__name__)

#: gateway close codes after which reconnecting cannot help: a bad token, bad shard
#: or intents settings; 4011 means Discord requires sharding
FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
SHARDING_REQUIRED = 4011
#: failures that mean "Discord cannot be reached now": retried with backoff
UNREACHABLE: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, DNS, timeouts (aiohttp's connector errors are OSErrors too)
    aiohttp.ClientError,
    discord.GatewayNotFound,
    discord.DiscordServerError,
)


@dataclass
class Backoff:
    """Exponential backoff with jitter: waits grow from ``base`` and stop growing at ``cap``.

    Each wait is drawn between half and all of ``min(cap, base * 2**(n-1))``
    ("equal jitter"), so many bots restarting together spread out, and no wait
    is shorter than half its step.
    """

    base: float = 2.0
    cap: float = 300.0
    rng: random.Random = field(default_factory=random.Random)
    attempts: int = 0

    def next_delay(self) -> float:
        self.attempts += 1
        step: float = min(self.cap, self.base * 2.0 ** min(self.attempts - 1, 32))
        return step / 2 + self.rng.uniform(0, step / 2)

    def reset(self) -> None:
        self.attempts = 0


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def serve(
    settings: Settings,
    registry: Mapping[str, GameType] | None = None,
    *,
    backoff: Backoff | None = None,
    stop: asyncio.Event | None = None,
    settle_heap: bool = False,
    **options: Any,
) -> int:
    """Open the store, run the bot until it is stopped (SIGTERM/SIGINT or ``stop``), close it.

    Returns the exit code: 0 after a normal stop; 2 for a database the bot
    cannot write, a rejected token or settings Discord refuses (sharding
    required, bad intents); problems are printed as one line on stderr.

    Decisions:

    * The database is checked before anything connects
      (:func:`bot.config.database_problem`: folder creatable and writable, file
      writable, naming the path and the user; then
      :func:`bot.config.database_open_problem` opens it once), and a SQLite or
      OS error while the store opens it is reported the same way; never a
      traceback. (The stdlib check runs first because a failing
      ``Store.open`` leaves its aiosqlite thread running, which would keep the
      process from exiting.)
    * Discord unreachable (network down, DNS, refused connections, Discord's
      5xx, the gateway not answering) is retried for ever with :class:`Backoff`
      (2 s doubling up to 5 min, jittered; ``backoff`` is injectable for
      tests), each failed attempt logged as one warning line. A fresh bot is
      built for each attempt, since a failed start may have run ``setup_hook``
      half-way. The backoff restarts from its base once a bot got ready.
    * Once connected, discord.py reconnects and resumes by itself
      (``reconnect=True``); :class:`bot.logs.ConnectionLogMixin` logs the outage
      and the recovery in one line each. Should discord.py give up on the
      gateway with a close code that a new session can cure, the same retry
      loop starts a new bot.
    * Not retried: a rejected token (``LoginFailure``, close code 4004) and
      gateway close codes that describe a configuration mistake (4010-4014);
      4011 tells the admin to set ``ZIGGURAT_SHARDS=auto``.
    * With ``ZIGGURAT_METRICS_PORT`` set, Prometheus metrics are served on that
      port for as long as this runs (:mod:`bot.metrics`), the open games counted
      from this store; a port that cannot be bound stops the start (code 2).
    * discord.py's unsharded ``Client.connect`` fails with an ``AttributeError``
      (its ``ws`` is still ``None``) when the very first gateway connection
      cannot be opened; that case, and only that, counts as "unreachable".
    """
    opened = await _open_store(settings)
    if isinstance(opened, str):
        print(opened, file=sys.stderr)
        return 2
    log.info("event loop: %s", event_loop.loop_name(asyncio.get_running_loop()))
    store = opened
    stop = stop if stop is not None else asyncio.Event()
    try:
        async with _stopping(stop) as running:
            process = _Process(settings, store, registry, options, stop, running, settle_heap)
            return await _retry_until_stopped(process, backoff or Backoff())
    finally:
        metrics.stop()
        await store.close()


@dataclass
class _Process:
    """What every attempt shares: the settings, the store, the games, the bot's
    options, the stop, and the bot running now (closed by the stop)."""

    settings: Settings
    store: Store
    registry: Mapping[str, GameType] | None
    options: dict[str, Any]
    stop: asyncio.Event
    running: list[ZigguratBot]
    settle_heap: bool = False


class _Fatal(Exception):
    """A failure that a new attempt cannot cure; its one line for stderr."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


async def _open_store(settings: Settings) -> Store | str:
    """Wiring: the store this process runs with, its metrics served when a port is
    set; else the one line saying why it cannot start."""
    problem = database_problem(settings.database) or database_open_problem(settings.database)
    if problem is not None:
        return problem
    try:
        store = await Store.open(settings.database)
    except (sqlite3.Error, OSError) as exc:
        return t(
            "en", "config.db_open_failed", path=settings.database, user=current_user(), error=exc
        )
    store.keep_games(settings.kept_games)
    try:
        if metrics.serve(settings.metrics_port):
            metrics.watch_open_games(store, asyncio.get_running_loop())
    except OSError as exc:
        await store.close()
        return t("en", "config.metrics_failed", port=settings.metrics_port, error=exc)
    return store


@contextlib.asynccontextmanager
async def _stopping(stop: asyncio.Event) -> AsyncIterator[list[ZigguratBot]]:
    """Shutdown: while inside, SIGTERM and SIGINT set ``stop``, and ``stop`` closes the
    bot that runs (the list yielded holds it)."""
    loop = asyncio.get_running_loop()
    running: list[ZigguratBot] = []

    async def stopper() -> None:
        await stop.wait()
        for bot in running:
            await bot.close()

    watcher = asyncio.create_task(stopper(), name="ziggurat-stop")
    handled: list[signal.Signals] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows, threads
            loop.add_signal_handler(signum, stop.set)
            handled.append(signum)
    try:
        yield running
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        for signum in handled:
            loop.remove_signal_handler(signum)


async def _retry_until_stopped(process: _Process, backoff: Backoff) -> int:
    """The back-off loop: a fresh bot per attempt until ``stop`` is set (0) or a
    failure no attempt can cure (2, its line on stderr)."""
    stop = process.stop
    while not stop.is_set():
        ready = asyncio.Event()
        try:
            failure = await _run_once(process, ready)
        except _Fatal as fatal:
            print(fatal.line, file=sys.stderr)
            return 2
        if failure is None or stop.is_set():
            return 0
        if ready.is_set():
            backoff.reset()
        delay = backoff.next_delay()
        log.warning(
            "cannot reach Discord (%s); attempt %d failed, retrying in %.1f s",
            _describe(failure),
            backoff.attempts,
            delay,
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
    return 0


async def _run_once(process: _Process, ready: asyncio.Event) -> BaseException | None:
    """Start: one fresh bot, run until it ends (``ready`` set once it got ready).

    None when it ended because of ``stop``; else why Discord could not be reached,
    to retry. :class:`_Fatal` for a failure a new attempt cannot cure."""
    settings, stop, running = process.settings, process.stop, process.running
    bot = await create_bot(settings, process.store, process.registry, **process.options)
    running[:] = [bot]

    async def on_ready() -> None:
        ready.set()
        if process.settle_heap:
            _settle()

    bot.add_listener(on_ready, "on_ready")
    try:
        async with bot:
            if not stop.is_set():  # a stop during create_bot found no bot to close
                await bot.start(settings.token or "")
        if stop.is_set():
            return None
        return RuntimeError("the gateway connection ended")
    except discord.LoginFailure:
        raise _Fatal(t("en", "app.bad_token")) from None
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:
            raise _Fatal(t("en", "app.bad_token")) from None
        if exc.code == SHARDING_REQUIRED:
            raise _Fatal(t("en", "app.sharding_required")) from None
        if exc.code in FATAL_CLOSE_CODES:
            raise _Fatal(t("en", "app.gateway_failed", error=exc)) from None
        return exc
    except discord.PrivilegedIntentsRequired as exc:
        raise _Fatal(t("en", "app.gateway_failed", error=exc)) from None
    except UNREACHABLE as exc:
        return exc
    except AttributeError:
        if bot.ws is not None:  # not discord.py's first-connection failure: a bug
            raise
        return discord.GatewayNotFound()
    finally:
        running.clear()


def _settle() -> None:
    settled = heap.settle()
    if settled is not None:
        log.info(
            "heap settled: %d objects frozen; a full collection %.1f ms before, %.1f ms after",
            settled.frozen,
            settled.full_before_ms,
            settled.full_after_ms,
        )


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C); return the exit code.

    An unexpected crash is logged as one line and exits with code 1.
    """
    try:
        return event_loop.run(serve(settings, settle_heap=True), settings.event_loop)
    except KeyboardInterrupt:
        return 0
    except Exception:
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        return 1
