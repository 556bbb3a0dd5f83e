"""Clicks in DMs, and handing them to the process that owns the game (shard clusters).

In a server, Discord sends an interaction to the gateway shard of its guild,
so it reaches the process owning the guild's games by itself. A DM has no
guild: Discord sends every DM interaction to shard 0. A click in a DM on a
game's button (the "your turn" DM carries the game's move buttons) must still
be handled by the process owning the game's guild.

Decisions:

* Only the buttons a DM can carry work there: a move (``zg:act``), the kind
  :data:`DM_KINDS` lets into the "your turn" DM
  (:meth:`bot.discord.delivery.Delivery._turn_dms`). Their ``custom_id`` names
  the game, so the game's channel comes from the store and the click runs
  exactly as the same click in the channel: same service call,
  same version check, its public message posted in the game's channel. Every
  other game button clicked in a DM gets ``error.dm_only``, as before.
* The receiving process looks the game up. If it owns the game's guild
  (:class:`bot.cluster.ShardRange`) it runs the click itself. Otherwise it
  acknowledges the interaction at once (ephemeral "thinking", inside Discord's
  3 seconds) and leaves Discord's payload in the database for the owner's
  shard (:meth:`bot.store.Store.hand_over`). It never runs the game.
* The owner polls for hand-overs every :data:`POLL_INTERVAL` seconds (one
  indexed read; SQLite has no notifications, and one mechanism for both
  backends is simpler than LISTEN/NOTIFY for a few DM clicks), takes them with
  ``DELETE ... RETURNING`` (each is taken by one process), and feeds each
  payload to discord.py as if its gateway had received it, so the same
  button class runs. The interaction is marked as already acknowledged, so
  the responder skips its own defer; every answer then goes through the
  interaction's webhook with its token (valid 15 minutes, usable by any
  process of the bot): the deferred response edited, follow-ups, exactly as
  for a click it received itself.
* The payload handed over is Discord's own, kept as it arrived:
  :meth:`HandOvers.install` wraps discord.py's parser of ``INTERACTION_CREATE``
  to remember the clicks in DMs (bounded). Feeding it back uses the same
  parser (``Client._connection.parsers``): discord.py has no public way to
  build a received interaction, and this is the very call its gateway makes,
  so nothing of the interaction's handling is copied here.
* A hand-over is taken at most once: an owner killed after taking it leaves
  the click unanswered (Discord shows it failed) and nothing committed, or
  the move committed (the version check guards a repeated click). A
  hand-over older than :data:`MAX_AGE` (its token has expired) is dropped.
* One process running every shard owns every game: nothing is handed over
  and no poller runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.cluster import shard_of
from bot.discord import rest
from bot.service import ChoiceKind, Outcome, Player, Refusal
from bot.store import HandOver

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)

#: the button kinds a DM carries, which therefore work in a DM
DM_KINDS = frozenset({ChoiceKind.ACT})
#: seconds between two looks for hand-overs
POLL_INTERVAL = 0.1
#: an interaction token lives 15 minutes; an older hand-over cannot be answered
MAX_AGE = 14 * 60.0

#: Discord's interaction type of a component (button) click
COMPONENT = 3
#: how many clicks in DMs are remembered until handled (each is handled at once)
RAW_MEMORY = 1024

#: what a click asks of the service, given the game's channel
GameWork = Callable[[int, Player], Awaitable[Outcome]]


class HandOvers:
    """Runs DM clicks on game buttons where the game lives (see the module docstring)."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.shards = bot.shard_range
        #: ids of interactions taken over from another process, running here now
        self._taken: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        #: Discord's payloads of recent component clicks in DMs, by interaction id
        self._raw: OrderedDict[int, dict[str, Any]] = OrderedDict()
        #: clicks handed to another process / taken from one, for tests and diagnostics
        self.handed = 0
        self.taken = 0

    # -- a click on a game's button ----------------------------------------------

    async def run(self, interaction: discord.Interaction, game_id: int, work: GameWork) -> None:
        """Run a click on a button of ``game_id``: in its channel, or from a DM."""
        responder = self.bot.responder
        if interaction.guild_id is not None:
            channel_id = interaction.channel_id or 0
            await responder.run(interaction, lambda player: work(channel_id, player))
            return
        taken = interaction.id in self._taken
        self._taken.discard(interaction.id)
        row = await self.bot.service.store.get_game(game_id)
        if row is None:

            async def stale(player: Player) -> Outcome:
                raise Refusal("error.stale_button")

            await responder.run(interaction, stale, guild_only=False, acknowledged=taken)
            return
        if not taken and not self.shards.owns(row.guild_id):
            await self._hand_over(interaction, shard_of(row.guild_id, self.shards.total), game_id)
            return
        channel_id = row.channel_id
        await responder.run(
            interaction,
            lambda player: work(channel_id, player),
            guild_only=False,
            acknowledged=taken,
        )

    async def _hand_over(self, interaction: discord.Interaction, shard: int, game_id: int) -> None:
        try:
            try:
                await rest.defer(interaction, thinking=True, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not acknowledge interaction %s; not handed over", interaction.id)
                return
            payload = self._raw.pop(interaction.id, None)
            if payload is None:  # not seen by the capture: cannot be rebuilt elsewhere
                log.error("interaction %s was not captured; not handed over", interaction.id)
                return
            await self.bot.service.store.hand_over(shard, game_id, payload)
            self.handed += 1
            log.info(
                "interaction %s for game %s handed over to shard %s", interaction.id, game_id, shard
            )
        finally:
            self.bot.interaction_done(interaction.id)

    # -- the owner's side ----------------------------------------------------------

    def install(self) -> None:
        """Keep Discord's payload of each click in a DM (to hand it over as it came)
        by wrapping discord.py's parser of ``INTERACTION_CREATE``; before connecting."""
        if self.shards.everything:
            return
        parsers = self.bot._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def capture(data: dict[str, Any]) -> None:
            if data.get("guild_id") is None and data.get("type") == COMPONENT:
                self._raw[int(data["id"])] = data
                while len(self._raw) > RAW_MEMORY:
                    self._raw.popitem(last=False)
            original(data)

        parsers["INTERACTION_CREATE"] = capture

    def start(self) -> None:
        """Start polling for hand-overs (only in a process that does not run every shard)."""
        if self.shards.everything or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.create_task(self._loop(), name="ziggurat-handovers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        store = self.bot.service.store
        while True:
            try:
                if await store.has_handovers(self.shards):
                    for handover in await store.take_handovers(self.shards):
                        self._feed(handover)
            except Exception:
                log.exception("could not take hand-overs")
            await asyncio.sleep(POLL_INTERVAL)

    def _feed(self, handover: HandOver) -> None:
        """Give discord.py a taken interaction as if its own gateway had received it."""
        if time.time() - handover.created_at > MAX_AGE:
            log.warning("hand-over %s expired before it was taken; dropped", handover.id)
            return
        payload = handover.payload
        self._taken.add(int(payload["id"]))
        self.taken += 1
        log.info("took over interaction %s for game %s", payload["id"], handover.game_id)
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
