"""``/game mine``: every game the user is in, and where it waits for them.

It joins the ``/game`` group made by :class:`~bot.discord.cogs.lobby.LobbyCog`.

Decisions:

* The answer is ephemeral and read from the store
  (:meth:`~bot.service.reading.Reading.mine`), so it lists the games of every
  server and thread, whichever process of a cluster received the command.
* Each game links its newest hand-off message, the one the delivery keeps
  (:data:`~bot.discord.delivery.LIVE`).
* It needs no game in the channel where it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import build_command, game_group
from bot.discord.delivery import LIVE
from bot.discord.translator import L
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


class MineCog(commands.Cog):
    """``/game mine`` in the ``/game`` group."""

    def __init__(self, bot: ZigguratBot, group: app_commands.Group) -> None:
        self.bot = bot
        group.add_command(build_command("mine", L("cmd.game.mine.description"), [], self.mine))

    async def mine(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.bot.service.reading.mine(player, message_kind=LIVE)

        await self.bot.responder.run(interaction, work, game_command=False)


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(MineCog(bot, game_group(bot.tree)))
