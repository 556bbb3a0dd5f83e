"""What every ``zg:<verb>:<game_id>`` button shares: its custom_id, its rebuilding
after a restart, and a click that goes through the responder.

Decisions:

* A mixin in front of :class:`discord.ui.DynamicItem` (which needs each
  subclass's own ``template``), so each button class is only its verb,
  style, default label and what its click asks of the service.
* It imports nothing of the other button modules, so each can use it
  without an import cycle.
* Every number in a custom_id (a game id, a version) matches :data:`ID`: at
  most 18 digits, so it always fits the store's signed 64-bit integers
  (2**63 − 1 has 19). A forged id past that range matches no button's
  template and falls to the stale-button answer; it never reaches the store.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

#: Discord's limit on a button label
MAX_LABEL = 80

#: a number in a custom_id: no leading zero, at most 18 digits (always < 2**63)
ID = r"(?:0|[1-9][0-9]{0,17})"
#: every custom_id of the move picker (:mod:`bot.discord.picking`), which the
#: stale-button catch-all leaves alone
PICK_IDS = (
    rf"play:{ID}$|pick:{ID}:(?:{ID}|s[0-9a-f]{{8}})u?(?:[.~].*)?:(?:[0-9]{{1,2}}|s[0-9]?|[rue])$"
)


def game_template(verb: str) -> str:
    """The custom_id pattern of a ``verb`` button: ``zg:<verb>:<game_id>``."""
    return rf"zg:{verb}:(?P<game_id>{ID})"


class GameButton:
    """Mixin of a button that names one game; subclasses set the class variables and
    :meth:`act`, and list :class:`discord.ui.DynamicItem` after this class."""

    verb: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]
    default_label: ClassVar[str]

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(  # type: ignore[call-arg]  # DynamicItem.__init__, next in the MRO
            discord.ui.Button(
                label=(label or self.default_label)[:MAX_LABEL],
                style=self.style,
                custom_id=f"zg:{self.verb}:{game_id}",
            )
        )
        self.game_id = game_id

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
