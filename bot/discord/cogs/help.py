"""``/help [game]``: every command grouped by what it is for, or one game's
summary; ``/rules <game>``: a short illustrated rules summary in pages.

The answers are ephemeral (they are for the asker), in the asker's language,
and work in DMs too; the games offered are the registry's, as fixed choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command
from bot.discord.translator import L
from bot.service import Outcome, Player, Reply, help_lines

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


class HelpCog(commands.Cog):
    """``/help``."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        registry = bot.service.registry
        game = Param(
            "game",
            L("cmd.help.game"),
            required=False,
            choices=[
                app_commands.Choice(name=L(registry[name].engine.title_key), value=name)
                for name in sorted(registry)
            ],
        )
        self.command = build_command("help", L("cmd.help.description"), [game], self.help)
        rules_game = Param(
            "game",
            L("cmd.rules.game"),
            choices=[
                app_commands.Choice(name=L(registry[name].engine.title_key), value=name)
                for name in sorted(registry)
            ],
        )
        self.rules_command = build_command(
            "rules", L("cmd.rules.description"), [rules_game], self.rules
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.command)
        self.bot.tree.add_command(self.rules_command)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.command.name)
        self.bot.tree.remove_command(self.rules_command.name)

    async def rules(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        game = str(values.get("game", ""))

        async def work(player: Player) -> Outcome:
            return await self.bot.service.reading.rules(
                game, 0, language=str(interaction.locale or "en")
            )

        await self.bot.responder.run(interaction, work, game_command=False, guild_only=False)

    async def help(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        game = values.get("game")

        async def work(player: Player) -> Outcome:
            return Outcome(reply=Reply(help_lines(self.bot.service.registry, game)))

        await self.bot.responder.run(interaction, work, game_command=False, guild_only=False)


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(HelpCog(bot))
