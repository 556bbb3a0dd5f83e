"""The registry of persistent components, and the button of each service choice.

Decisions:

* Every :class:`discord.ui.DynamicItem` class is listed once here
  (:data:`DYNAMIC_ITEMS`) and registered by the bot in ``setup_hook``
  (:func:`register`); the item modules import nothing of each other, and this
  module sits above them all, so ``bot.discord`` has no import circle.
* A click runs its class as discord.py runs a dynamic item (its
  ``from_custom_id``, the click's values, ``interaction_check``, ``callback``,
  errors logged), but the item is made from the custom_id and the click alone
  (:func:`_run_item`, in place of the view store's
  ``schedule_dynamic_item_call``): discord.py would first rebuild the whole
  clicked message as a ``View`` (an item per component, a ``SelectOption``
  per option) to find the one clicked, which nothing here reads (no class
  reads the clicked component's label). For the same reason the clicked
  message's components are dropped from a click's payload before discord.py
  parses it (:func:`_without_components`; ``interaction.message`` keeps its id,
  content and the rest): the bot never reads them. A click is thus run even
  when its component is not on its message (a forged custom_id), and answered
  like any other.
* :func:`button_for` is the one place a :class:`~bot.service.Choice` kind
  becomes a component class's button (its payload, the class's ``component``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.buttons import AbandonButton, ActionButton, ResignButton, StaleButton, UndoButton
from bot.discord.components import Component
from bot.discord.lobby_buttons import LobbyButton, OptionSelect
from bot.discord.picking import PickButton, PickSelect, PlayButton
from bot.discord.rematch import RematchButton
from bot.discord.rules_button import RulesButton
from bot.service import Choice, ChoiceKind

log = logging.getLogger(__name__)

#: Discord's interaction type of a component click, and component type of a string select
COMPONENT, SELECT = 3, 3

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


def register(bot: discord.Client) -> None:
    """Register every persistent component class with ``bot``, its clicks run as
    above; in ``setup_hook`` (before :meth:`~bot.discord.handover.HandOvers.install`,
    whose clicks handed over keep their components)."""
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    state = bot._connection
    state._view_store.schedule_dynamic_item_call = _run_item  # type: ignore[method-assign]
    parse = state.parsers["INTERACTION_CREATE"]

    def parse_slim(data: dict[str, Any]) -> None:
        parse(_without_components(data))

    state.parsers["INTERACTION_CREATE"] = parse_slim


def _without_components(data: dict[str, Any]) -> dict[str, Any]:
    """A click's payload without its message's components (a copy; the payload is
    kept as it came)."""
    message = data.get("message")
    if data.get("type") != COMPONENT or not isinstance(message, dict):
        return data
    if not message.get("components"):
        return data
    return {**data, "message": {**message, "components": []}}


async def _run_item(
    component_type: int,
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction,
    custom_id: str,
    match: re.Match[str],
) -> None:
    """discord.py's ``ViewStore.schedule_dynamic_item_call`` with the item made from the
    click alone (see above)."""
    base: discord.ui.Item[Any] = (
        discord.ui.Select(custom_id=custom_id)
        if component_type == SELECT
        else discord.ui.Button(custom_id=custom_id)
    )
    try:
        item = await factory.from_custom_id(interaction, base, match)
    except Exception:
        log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("Ignoring exception in dynamic item callback for %r", item)
