"""The bot: :class:`ZigguratBot` (unsharded or sharded) and :func:`create_bot`.

Running it as a process (the store, retries, signals) is :mod:`bot.discord.lifecycle`.

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
import logging
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import discord
from discord.ext import commands

from bot import plugins
from bot.config import Settings
from bot.discord.delivery import Delivery
from bot.discord.errors import ZigguratTree
from bot.discord.handover import HandOvers
from bot.discord.interactions import Responder
from bot.discord.items import register as register_items
from bot.discord.translator import CatalogTranslator
from bot.games.base import GameType
from bot.logs import ConnectionLogMixin
from bot.service import GameService, Outcome
from bot.store import Store
from bot.timers import TimerRunner

log = logging.getLogger(__name__)

#: how many finished interaction ids are remembered for :meth:`wait_interaction_done`
DONE_MEMORY = 1024
#: the cogs, as extensions loaded in this order (each module has ``async def setup(bot)``);
#: the lobby first, since the seat commands, ``/game mine`` and ``/game export`` join its ``/game``
EXTENSIONS = (
    "bot.discord.cogs.lobby",
    "bot.discord.cogs.seats",
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
            service.store,
            service,
            self.deliver_timer_outcome,
            shards=self.shard_range,
            drawn_early=True,  # Delivery.to_channel waits for each part's images
        )
        self._done: OrderedDict[int, asyncio.Event] = OrderedDict()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        register_items(self)
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
        draw_warmup=settings.draw_warmup,
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
