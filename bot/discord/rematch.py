"""The Rematch button on a finished game's final message.

Decisions:

* A :class:`discord.ui.DynamicItem` like every button of the bot
  (:mod:`bot.discord.buttons`): ``zg:rematch:<game_id>`` holds all a click
  needs, so it works after any number of restarts. It carries no version:
  a finished game never changes again.
* The click goes through the same :class:`~bot.discord.interactions.Responder`
  as every command; the service decides who may (any player of that game)
  and when (no unfinished game in the channel), and refuses with a reason.
* It shares :class:`~bot.discord.game_button.GameButton` with the other
  game buttons; :mod:`bot.discord.items` registers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord.custom_ids import game_template
from bot.discord.game_button import GameButton
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


class RematchButton(
    GameButton,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=game_template("rematch"),
):
    """Open and start a rematch of finished game ``game_id`` with the same players."""

    verb, style, default_label = "rematch", discord.ButtonStyle.success, "Rematch"

    async def act(
        self, bot: ZigguratBot, interaction: discord.Interaction, player: Player
    ) -> Outcome:
        return await bot.service.after.rematch(interaction.channel_id or 0, player, self.game_id)
