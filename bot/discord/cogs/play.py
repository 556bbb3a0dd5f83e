"""``/play action:<notation>``: the one move command every game shares.

The action is the game's own notation (``play 3``, ``tile red F5``); its
autocomplete lists the user's legal actions now (``service.reading.suggestions``,
filtered by the words typed), so a player never has to learn the notation,
and anything typed by hand is still checked by the rules engine, whose
refusal comes back translated. Quick decisions also come as buttons
(:mod:`bot.discord.buttons`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command
from bot.discord.interactions import player_of
from bot.discord.translator import L
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)

#: Discord shows at most 25 autocomplete choices, each at most 100 characters
MAX_SUGGESTIONS = 25
MAX_ACTION = 100


class PlayCog(commands.Cog):
    """``/play``."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.service = bot.service
        action = Param(
            "action",
            L("cmd.play.action"),
            annotation=app_commands.Range[str, 1, MAX_ACTION],
            autocomplete=self.suggest,
        )
        self.command = build_command("play", L("cmd.play.description"), [action], self.play)
        self.command.guild_only = True

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.command)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.command.name)

    async def play(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        action = str(values["action"])

        async def work(player: Player) -> Outcome:
            return await self.service.play.act(interaction.channel_id or 0, player, action)

        await self.bot.responder.run(interaction, work)

    async def suggest(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's legal actions matching what they typed (none when not their turn)."""
        try:
            notations = await self.service.reading.suggestions(
                interaction.channel_id or 0, player_of(interaction), current
            )
        except Exception:
            log.exception("suggestions failed in channel %s", interaction.channel_id)
            return []
        return [
            app_commands.Choice(name=n, value=n)
            for n in notations[:MAX_SUGGESTIONS]
            if len(n) <= MAX_ACTION
        ]


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(PlayCog(bot))
