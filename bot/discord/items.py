"""The registry of persistent components, and the button of each service choice.

Decisions:

* Every :class:`discord.ui.DynamicItem` class is listed once here
  (:data:`DYNAMIC_ITEMS`) and registered by the bot in ``setup_hook``; the
  item modules import nothing of each other, and this module sits above them
  all, so ``bot.discord`` has no import circle.
* :func:`button_for` is the one place a :class:`~bot.service.Choice` kind
  becomes a component class's button (its payload, the class's ``component``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.buttons import AbandonButton, ActionButton, ResignButton, StaleButton, UndoButton
from bot.discord.components import Component
from bot.discord.lobby_buttons import LobbyButton, OptionSelect
from bot.discord.picking import PickButton, PickSelect, PlayButton
from bot.discord.rematch import RematchButton
from bot.discord.rules_button import RulesButton
from bot.service import Choice, ChoiceKind

#: every persistent component class, registered once per bot
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    UndoButton,
    AbandonButton,
    ResignButton,
    StaleButton,
    RematchButton,
    RulesButton,
    LobbyButton,
    OptionSelect,
    PlayButton,
    PickButton,
    PickSelect,
)


def button_for(choice: Choice, game_id: int, version: int | None, lang: str) -> Component:
    """The button of one :class:`~bot.service.Choice`, labelled in ``lang``, as a
    message carries it (the payload of the class a click on it builds).

    Raises ValueError when it cannot be made (a custom_id over Discord's limit).
    """
    label = choice.label.render(lang)
    if choice.kind is ChoiceKind.ABANDON:
        return AbandonButton.component(game_id, label)
    if choice.kind is ChoiceKind.RESIGN:
        return ResignButton.component(game_id, label)
    if choice.kind is ChoiceKind.REMATCH:
        return RematchButton.component(game_id, label)
    if choice.kind is ChoiceKind.PAGE:
        game, page = choice.action.split(":")
        return RulesButton.component(game, int(page), label)
    if choice.kind is ChoiceKind.LOBBY:
        return LobbyButton.component(game_id, choice.action, label)
    if choice.kind is ChoiceKind.PLAY:
        return PlayButton.component(game_id, label)
    if version is None:
        raise ValueError("a move or undo button needs the game's version")
    if choice.kind is ChoiceKind.UNDO:
        return UndoButton.component(game_id, version, label)
    return ActionButton.component(game_id, version, choice.action, label)
