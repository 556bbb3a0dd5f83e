"""The bot: :class:`ZigguratBot`, :func:`create_bot` and :func:`run_bot`.

Decisions:

* ``commands.Bot`` for its cog machinery; every command is an application
  command (no prefix commands), so the only intent is ``guilds`` — no message
  content, no members.
* Nobody is pinged unless a message says so: the client's default
  ``allowed_mentions`` is none, and a game message allows exactly its pings.
* ``setup_hook`` (before the gateway connects) loads the cogs (as extensions,
  :data:`EXTENSIONS`, each module with its ``setup``, as discord.py's
  extensions are), registers the
  persistent button classes, installs the catalog translator, syncs the
  commands — to ``dev_guild_id`` only when it is set (instant), else globally
  — and starts the timer task (and, in a shard cluster, the hand-over poller
  of :mod:`bot.discord.handover`). A failed sync stops the start: a bot whose
  commands do not match its code would fail on every use.
* The timer task delivers only once the gateway is ready (channels cached).
* :meth:`ZigguratBot.interaction_done` / :meth:`wait_interaction_done` let the
  end-to-end tests and the latency benchmark wait for "this interaction is
  fully answered" instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import sqlite3
import sys
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot import metrics, plugins
from bot.config import Settings, current_user, database_open_problem, database_problem
from bot.discord.delivery import Delivery
from bot.discord.errors import ZigguratTree
from bot.discord.handover import HandOvers
from bot.discord.interactions import Responder
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.translator import CatalogTranslator
from bot.games.base import GameType
from bot.i18n import t
from bot.logs import ConnectionLogMixin
from bot.service import GameService, Outcome
from bot.store import Store
from bot.timers import TimerRunner

log = logging.getLogger(__name__)

#: how many finished interaction ids are remembered for :meth:`wait_interaction_done`
DONE_MEMORY = 1024
#: the cogs, as extensions loaded in this order (each module has ``async def setup(bot)``);
#: the lobby first, since the table, ``/game mine`` and ``/game export`` join its ``/game``
EXTENSIONS = (
    "bot.discord.cogs.lobby",
    "bot.discord.cogs.table",
    "bot.discord.cogs.mine",
    "bot.discord.cogs.play",
    "bot.discord.cogs.help",
    "bot.discord.cogs.games",
    "bot.discord.cogs.after",
)


def intents() -> discord.Intents:
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


class ZigguratBot(commands.Bot):
    """The Discord adapter around one :class:`~bot.service.GameService`."""

    def __init__(self, settings: Settings, service: GameService, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=ZigguratTree,
            **options,
        )
        self.settings = settings
        self.service = service
        #: the shards this process runs; it owns exactly their guilds' games
        self.shard_range = settings.shard_range
        self.delivery = Delivery(self, service)
        self.responder = Responder(service, self.delivery, self.interaction_done)
        self.handovers = HandOvers(self)
        self.timers = TimerRunner(
            service.store, service, self.deliver_timer_outcome, shards=self.shard_range
        )
        self._done: OrderedDict[int, asyncio.Event] = OrderedDict()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()
        self.handovers.install()
        self.timers.start()
        self.handovers.start()
        self.service.start_drawing()
        self.service.start_computers()

    async def sync_commands(self) -> list[discord.app_commands.AppCommand]:
        """Register the command tree with Discord (the dev guild, else globally)."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        return synced

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d guild(s)", self.user, len(self.guilds))

    async def deliver_timer_outcome(self, outcome: Outcome) -> None:
        await self.wait_until_ready()
        await self.delivery.to_channel(outcome)

    async def close(self) -> None:
        await self.timers.stop()
        await self.handovers.stop()
        await super().close()

    # -- "answered" signals, for tests and the benchmark ------------------------

    def _done_event(self, interaction_id: int) -> asyncio.Event:
        event = self._done.get(interaction_id)
        if event is None:
            event = self._done[interaction_id] = asyncio.Event()
            while len(self._done) > DONE_MEMORY:
                self._done.popitem(last=False)
        return event

    def interaction_done(self, interaction_id: int) -> None:
        """Record that an interaction got its complete answer."""
        self._done_event(interaction_id).set()

    async def wait_interaction_done(self, interaction_id: int, timeout: float = 10.0) -> None:
        """Wait until :meth:`interaction_done` was called for ``interaction_id``."""
        async with asyncio.timeout(timeout):
            await self._done_event(interaction_id).wait()


#: seconds between two shards' IDENTIFYs (Discord allows one per 5 s per bucket)
IDENTIFY_INTERVAL = 5.0
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


class UnshardedZigguratBot(ConnectionLogMixin, ZigguratBot):
    """:class:`ZigguratBot` on one gateway connection, whose outages are logged.

    (:class:`~bot.logs.ConnectionLogMixin` logs a lost connection and its
    recovery in one line each.)
    """


class ShardedZigguratBot(ConnectionLogMixin, ZigguratBot, commands.AutoShardedBot):
    """:class:`ZigguratBot` over discord.py's ``AutoShardedBot``: several gateway connections.

    Decisions:

    * The behaviour is :class:`ZigguratBot`'s, inherited unchanged (cogs,
      commands, buttons, timers, delivery); only the connection differs. The
      shared state (channel cache, DMs, ``get_channel``/``fetch_channel``,
      ``create_dm``) spans every shard, so timers and DMs work whichever shard
      the guild is on; DMs arrive on shard 0, as Discord sends them.
    * ``identify_interval`` is the pause before each shard after the first
      identifies (default :data:`IDENTIFY_INTERVAL`, 5 s: Discord's rate
      limit, as discord.py's own hook); tests pass 0.
    """

    def __init__(
        self,
        settings: Settings,
        service: GameService,
        *,
        identify_interval: float | None = None,
        **options: Any,
    ) -> None:
        self.identify_interval = (
            IDENTIFY_INTERVAL if identify_interval is None else identify_interval
        )
        super().__init__(settings, service, **options)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.identify_interval)


def bot_class(settings: Settings) -> type[ZigguratBot]:
    """:class:`ShardedZigguratBot` when ``settings.shards`` is set, else unsharded.

    Both are :class:`ZigguratBot` with the same behaviour; only the gateway
    connection (and its logging) differs.
    """
    return UnshardedZigguratBot if settings.shards is None else ShardedZigguratBot


async def create_bot(
    settings: Settings,
    store: Store,
    registry: Mapping[str, GameType] | None = None,
    **options: Any,
) -> ZigguratBot:
    """A bot over ``store`` and ``registry`` (default: the built-in games), not started.

    Sharded (:class:`ShardedZigguratBot`) when ``settings.shards`` is set: ``"auto"``
    asks Discord for the shard count, a number fixes it; with ``settings.shard_ids``
    the process connects only that range of the shards (``shard_ids``), as one
    process of a shard cluster. ``options`` go to
    :class:`discord.Client` (tests pass ``guild_ready_timeout``; a sharded bot also
    takes ``identify_interval``). Lost and restored gateway connections are logged
    (:class:`bot.logs.ConnectionLogMixin`).
    """
    service = GameService(
        store,
        registry if registry is not None else plugins.load_builtin_games(),
        deadline_hours=settings.turn_deadline_hours,
        computer_pause=settings.computer_pause,
    )
    # The bot never joins voice: discord.py's start-up warnings about missing voice
    # libraries (PyNaCl, davey) would only worry admins.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    cls = bot_class(settings)
    if cls is ShardedZigguratBot:
        if isinstance(settings.shards, int):
            options.setdefault("shard_count", settings.shards)
        if settings.shard_ids is not None:  # one process of a shard cluster
            options.setdefault("shard_ids", settings.shard_ids.ids)
    else:
        options.pop("identify_interval", None)
    return cls(settings, service, **options)


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
    problem = database_problem(settings.database) or database_open_problem(settings.database)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    try:
        store = await Store.open(settings.database)
    except (sqlite3.Error, OSError) as exc:
        problem = t(
            "en", "config.db_open_failed", path=settings.database, user=current_user(), error=exc
        )
    if problem is None:
        try:
            if metrics.serve(settings.metrics_port):
                metrics.watch_open_games(store, asyncio.get_running_loop())
        except OSError as exc:
            problem = t("en", "config.metrics_failed", port=settings.metrics_port, error=exc)
            await store.close()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    loop = asyncio.get_running_loop()
    stop = stop if stop is not None else asyncio.Event()
    backoff = backoff if backoff is not None else Backoff()
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
        while not stop.is_set():
            bot = await create_bot(settings, store, registry, **options)
            running[:] = [bot]
            got_ready = asyncio.Event()

            async def on_ready(flag: asyncio.Event = got_ready) -> None:
                flag.set()

            bot.add_listener(on_ready, "on_ready")
            try:
                async with bot:
                    if not stop.is_set():  # a stop during create_bot found no bot to close
                        await bot.start(settings.token or "")
                if stop.is_set():
                    return 0
                failure: BaseException = RuntimeError("the gateway connection ended")
            except discord.LoginFailure:
                print(t("en", "app.bad_token"), file=sys.stderr)
                return 2
            except discord.ConnectionClosed as exc:
                if exc.code == 4004:
                    print(t("en", "app.bad_token"), file=sys.stderr)
                    return 2
                if exc.code in FATAL_CLOSE_CODES:
                    key = "app.sharding_required" if exc.code == SHARDING_REQUIRED else None
                    print(
                        t("en", key) if key else t("en", "app.gateway_failed", error=exc),
                        file=sys.stderr,
                    )
                    return 2
                failure = exc
            except discord.PrivilegedIntentsRequired as exc:
                print(t("en", "app.gateway_failed", error=exc), file=sys.stderr)
                return 2
            except UNREACHABLE as exc:
                failure = exc
            except AttributeError:
                if bot.ws is not None:  # not discord.py's first-connection failure: a bug
                    raise
                failure = discord.GatewayNotFound()
            finally:
                running.clear()
            if stop.is_set():
                return 0
            if got_ready.is_set():
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
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        for signum in handled:
            loop.remove_signal_handler(signum)
        metrics.stop()
        await store.close()


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C); return the exit code.

    An unexpected crash is logged as one line and exits with code 1.
    """
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0
    except Exception:
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        return 1
