"""The bot: :class:`ZigguratBot`, :func:`create_bot` and :func:`run_bot`.

Decisions:

* ``commands.Bot`` for its cog machinery; every command is an application
  command (no prefix commands), so the only intent is ``guilds`` — no message
  content, no members.
* Nobody is pinged unless a message says so: the client's default
  ``allowed_mentions`` is none, and a game message allows exactly its pings.
* ``setup_hook`` (before the gateway connects) loads the cogs, registers the
  persistent button classes, installs the catalog translator, syncs the
  commands — to ``dev_guild_id`` only when it is set (instant), else globally
  — and starts the timer task. A failed sync stops the start: a bot whose
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
import signal
import sys
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import discord
from discord.ext import commands

from bot import plugins
from bot.config import Settings
from bot.discord.buttons import DYNAMIC_ITEMS
from bot.discord.cogs.games import GamesCog
from bot.discord.cogs.help import HelpCog
from bot.discord.cogs.lobby import LobbyCog
from bot.discord.cogs.play import PlayCog
from bot.discord.delivery import Delivery
from bot.discord.errors import ZigguratTree
from bot.discord.interactions import Responder
from bot.discord.translator import CatalogTranslator
from bot.games.base import GameType
from bot.i18n import t
from bot.service import GameService, Outcome
from bot.store import Store
from bot.timers import TimerRunner

log = logging.getLogger(__name__)

#: how many finished interaction ids are remembered for :meth:`wait_interaction_done`
DONE_MEMORY = 1024


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
        self.delivery = Delivery(self, service)
        self.responder = Responder(service, self.delivery, self.interaction_done)
        self.timers = TimerRunner(service.store, service, self.deliver_timer_outcome)
        self._done: OrderedDict[int, asyncio.Event] = OrderedDict()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        await self.add_cog(LobbyCog(self))
        await self.add_cog(PlayCog(self))
        await self.add_cog(HelpCog(self))
        await self.add_cog(GamesCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()
        self.timers.start()

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


async def create_bot(
    settings: Settings,
    store: Store,
    registry: Mapping[str, GameType] | None = None,
    **options: Any,
) -> ZigguratBot:
    """A bot over ``store`` and ``registry`` (default: the built-in games), not started.

    ``options`` go to :class:`discord.Client` (tests pass ``guild_ready_timeout``).
    """
    service = GameService(
        store,
        registry if registry is not None else plugins.load_builtin_games(),
        deadline_hours=settings.turn_deadline_hours,
    )
    return ZigguratBot(settings, service, **options)


async def serve(settings: Settings, registry: Mapping[str, GameType] | None = None) -> int:
    """Open the store, run the bot until it is closed (SIGTERM/SIGINT), close the store.

    Returns the exit code: 0 after a normal stop, 2 for a rejected token, 1 when
    the gateway connection could not be kept.
    """
    loop = asyncio.get_running_loop()
    store = await Store.open(settings.database)
    handled: list[int] = []
    try:
        bot = await create_bot(settings, store, registry)
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows, threads
                loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
                handled.append(signum)
        async with bot:
            try:
                await bot.start(settings.token or "")
            except discord.LoginFailure:
                print(t("en", "app.bad_token"), file=sys.stderr)
                return 2
            except (discord.GatewayNotFound, discord.ConnectionClosed) as exc:
                print(t("en", "app.gateway_failed", error=exc), file=sys.stderr)
                return 1
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        await store.close()
    return 0


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C); return the exit code."""
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0
