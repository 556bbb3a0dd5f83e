"""The page buttons of ``/rules <game>``: ``zg:rules:<game>:<page>``.

Persistent like every button (nothing remembered); a click answers with that
page, ephemerally and in the clicker's language, also in DMs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import MAX_LABEL, SECONDARY, Component, button, ui_button
from bot.discord.custom_ids import RULES, rules_id
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=RULES,
):
    """Show page ``page`` of the rules of ``game``."""

    def __init__(self, game: str, page: int, label: str = "") -> None:
        super().__init__(ui_button(self.component(game, page, label)))
        self.game = game
        self.page = page

    @staticmethod
    def component(game: str, page: int, label: str = "") -> Component:
        """The button's payload, as a message carries it."""
        return button(rules_id(game, page), (label or str(page + 1))[:MAX_LABEL], SECONDARY)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RulesButton:
        return cls(match["game"], int(match["page"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: ZigguratBot = interaction.client  # type: ignore[assignment]

        async def work(player: Player) -> Outcome:
            return await bot.service.reading.rules(
                self.game, self.page, language=str(interaction.locale or "en")
            )

        await bot.responder.run(interaction, work, game_command=False, guild_only=False)
