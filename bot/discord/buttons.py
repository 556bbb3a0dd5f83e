"""Persistent buttons: quick decisions, Undo and the abandon and resign confirmations.

Decisions:

* Buttons are :class:`discord.ui.DynamicItem` s: everything a click needs is in
  its ``custom_id`` (``zg:act:<game>:<version>:<action>``, ``zg:undo:<game>:<version>``,
  ``zg:abandon:<game>``; every layout is in :mod:`bot.discord.custom_ids`),
  and the classes are registered once in ``setup_hook`` (:mod:`bot.discord.items`),
  so a button works after any number of restarts without remembering the message.
* ``<version>`` is the game's stored version when the button was posted; a
  click on a button from an earlier decision, or from a finished or abandoned
  game, is answered with ``error.stale_button`` rather than replaying its
  action on whatever the game asks now.
* Messages carry each button's payload (its class's ``component``, a
  :class:`~bot.discord.components.Components` row), which discord.py never
  tracks; a click builds the class from its custom_id.
* A quick decision's answer carries the clicker's next menu of the move
  picker when they still act (:meth:`bot.service.tapping.Tapping.press`).
* Any other ``zg:`` custom_id (an older layout, a mangled one, the "Your
  options" button of older messages, ``zg:mine``) gets a
  :class:`StaleButton` answer (:data:`~bot.discord.custom_ids.STALE`), so no
  click goes unanswered.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import MAX_LABEL, PRIMARY, SECONDARY, Component, button, ui_button
from bot.discord.custom_ids import ACT, STALE, UNDO, act_id, game_template, undo_id
from bot.discord.game_button import GameButton
from bot.service import Outcome, Player, Refusal

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


def _bot(interaction: discord.Interaction) -> ZigguratBot:
    return interaction.client  # type: ignore[return-value]


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=ACT,
):
    """Play ``action`` in game ``game_id`` for whoever clicks, if still current."""

    def __init__(self, game_id: int, version: int, action: str, label: str | None = None) -> None:
        super().__init__(ui_button(self.component(game_id, version, action, label)))
        self.game_id = game_id
        self.version = version
        self.action = action

    @staticmethod
    def component(game_id: int, version: int, action: str, label: str | None = None) -> Component:
        """The button's payload, as a message carries it."""
        return button(act_id(game_id, version, action), (label or action)[:MAX_LABEL], PRIMARY)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(
            int(match["game_id"]),
            int(match["version"]),
            match["action"],
            getattr(item, "label", None),
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot = _bot(interaction)

        async def work(channel_id: int, player: Player) -> Outcome:
            return await bot.service.tapping.press(
                channel_id, player, self.action, game_id=self.game_id, version=self.version
            )

        await bot.handovers.run(interaction, self.game_id, work)


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=UNDO,
):
    """Take back the clicker's last step, if the game is still where the button was made."""

    def __init__(self, game_id: int, version: int, label: str = "") -> None:
        super().__init__(ui_button(self.component(game_id, version, label)))
        self.game_id = game_id
        self.version = version

    @staticmethod
    def component(game_id: int, version: int, label: str = "") -> Component:
        """The button's payload, as a message carries it."""
        return button(undo_id(game_id, version), (label or "Undo")[:MAX_LABEL], SECONDARY)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["game_id"]), int(match["version"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot = _bot(interaction)

        async def work(player: Player) -> Outcome:
            return await bot.service.play.undo(
                interaction.channel_id or 0,
                player,
                expected_game=self.game_id,
                expected_version=self.version,
            )

        await bot.responder.run(interaction, work)


class AbandonButton(
    GameButton,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=game_template("abandon"),
):
    """The confirmation of ``/game abandon``; re-checks who may abandon when clicked."""

    verb, style, default_label = "abandon", discord.ButtonStyle.danger, "Abandon"

    async def act(
        self, bot: ZigguratBot, interaction: discord.Interaction, player: Player
    ) -> Outcome:
        return await bot.service.lobby.abandon(
            interaction.channel_id or 0,
            player,
            can_manage_channel=interaction.permissions.manage_channels,
            confirmed=True,
            expected_game=self.game_id,
        )


class ResignButton(
    GameButton,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=game_template("resign"),
):
    """The confirmation of ``/game resign``; only for that game, only by a seated player."""

    verb, style, default_label = "resign", discord.ButtonStyle.danger, "Resign"

    async def act(
        self, bot: ZigguratBot, interaction: discord.Interaction, player: Player
    ) -> Outcome:
        return await bot.service.seats.resign(
            interaction.channel_id or 0, player, confirmed=True, expected_game=self.game_id
        )


class StaleButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=STALE,
):
    """Any other ``zg:`` button: answered, never ignored."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="-", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StaleButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> Any:
        async def work(player: Player) -> Outcome:
            raise Refusal("error.stale_button")

        await _bot(interaction).responder.run(interaction, work)
