"""What every ``zg:<verb>:<game_id>`` button shares: its custom_id, its rebuilding
after a restart, and a click that goes through the responder.

Decisions:

* A mixin in front of :class:`discord.ui.DynamicItem` (which needs each
  subclass's own ``template``), so each button class is only its verb,
  style, default label and what its click asks of the service.
* It imports nothing of the other button modules, so each can use it
  without an import cycle.
* Its custom_id and template are :mod:`bot.discord.custom_ids`'
  (:func:`~bot.discord.custom_ids.game_template`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord.components import MAX_LABEL, Component, button, ui_button
from bot.discord.custom_ids import game_button_id
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


class GameButton:
    """Mixin of a button that names one game; subclasses set the class variables and
    :meth:`act`, and list :class:`discord.ui.DynamicItem` after this class."""

    verb: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]
    default_label: ClassVar[str]

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(  # type: ignore[call-arg]  # DynamicItem.__init__, next in the MRO
            ui_button(self.component(game_id, label))
        )
        self.game_id = game_id

    @classmethod
    def component(cls, game_id: int, label: str = "") -> Component:
        """The button's payload, as a message carries it."""
        return button(
            game_button_id(cls.verb, game_id),
            (label or cls.default_label)[:MAX_LABEL],
            cls.style.value,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(int(match["game_id"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: ZigguratBot = interaction.client  # type: ignore[assignment]

        async def work(player: Player) -> Outcome:
            return await self.act(bot, interaction, player)

        await bot.responder.run(interaction, work)

    async def act(
        self, bot: ZigguratBot, interaction: discord.Interaction, player: Player
    ) -> Outcome:
        """What a click by ``player`` asks of the service."""
        raise NotImplementedError
