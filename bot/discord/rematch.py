"""The Rematch button on a finished game's final message.

Decisions:

* A :class:`discord.ui.DynamicItem` like every button of the bot
  (:mod:`bot.discord.buttons`): ``zg:rematch:<game_id>`` holds all a click
  needs, so it works after any number of restarts. It carries no version:
  a finished game never changes again.
* The click goes through the same :class:`~bot.discord.interactions.Responder`
  as every command; the service decides who may (any player of that game)
  and when (no unfinished game in the channel), and refuses with a reason.
* This module imports nothing of :mod:`bot.discord.buttons`, so that module
  can register this class without an import cycle.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

#: Discord's limit on a button label
MAX_LABEL = 80


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"zg:rematch:(?P<game_id>\d+)"
):
    """Open and start a rematch of finished game ``game_id`` with the same players."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or "Rematch")[:MAX_LABEL],
                style=discord.ButtonStyle.success,
                custom_id=f"zg:rematch:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game_id"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: ZigguratBot = interaction.client  # type: ignore[assignment]

        async def work(player: Player) -> Outcome:
            return await bot.service.rematch(interaction.channel_id or 0, player, self.game_id)

        await bot.responder.run(interaction, work)
