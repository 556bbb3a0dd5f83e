"""The lobby message's components: Join, Leave and Start, and a menu per option.

Decisions:

* Persistent :class:`discord.ui.DynamicItem` s, like the game buttons
  (:mod:`bot.discord.buttons`): ``zg:lobby:<game>:join|leave|start`` (and
  ``computer`` when the game has a computer player: the host's ephemeral
  choices ``easy|strong`` seat one, ``unseat`` removes the last one) and
  ``zg:lopt:<game>:<option>`` (the option's name; the chosen value comes with
  the interaction), so they work after any restart; the layouts are
  :mod:`bot.discord.custom_ids`'. Anything else falls to the stale answer.
* A click goes through the responder like a command, and the service decides
  (the host only for Start and the options, the lobby only, a legal value);
  refusals are ephemeral, in the clicker's language.
* The lobby message itself is the announcement: a tap that joins, leaves or
  changes an option edits it in place (by :class:`~bot.discord.delivery.Delivery`)
  and posts nothing new; Start posts the game's first message as
  ``/game start`` does.
* The message is public, so its labels are in the server's language; each
  menu shows the current value as its selected option (``Variant: auction``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import (
    DANGER,
    MAX_LABEL,
    MAX_OPTION_LABEL,
    MAX_OPTIONS,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    Component,
    Components,
    button,
    option,
    select,
    ui_button,
)
from bot.discord.custom_ids import LOBBY, LOBBY_OPTION, lobby_id, lobby_option_id
from bot.games.computer import LEVELS
from bot.i18n import Text
from bot.service import LobbyPanel, Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

#: the lobby buttons, in their row
LOBBY_VERBS = ("join", "leave", "start")

_STYLES = {
    "join": SUCCESS,
    "leave": SECONDARY,
    "start": PRIMARY,
    "computer": SECONDARY,
    "easy": SECONDARY,
    "strong": SECONDARY,
    "unseat": DANGER,
}


def _text(value: Text | str, lang: str) -> str:
    return value.render(lang) if isinstance(value, Text) else value


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=LOBBY,
):
    """Join, Leave or Start the lobby ``game_id``."""

    def __init__(self, game_id: int, verb: str, label: str = "") -> None:
        super().__init__(ui_button(self.component(game_id, verb, label)))
        self.game_id = game_id
        self.verb = verb

    @staticmethod
    def component(game_id: int, verb: str, label: str = "") -> Component:
        """The button's payload, as a message carries it."""
        return button(lobby_id(game_id, verb), (label or verb.title())[:MAX_LABEL], _STYLES[verb])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game_id"]), match["verb"], getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: ZigguratBot = interaction.client  # type: ignore[assignment]
        service = bot.service
        channel_id = interaction.channel_id or 0

        async def work(player: Player) -> Outcome:
            game = self.game_id
            if self.verb == "join":
                outcome = await service.lobby.join(channel_id, player, expected_game=game)
            elif self.verb == "leave":
                outcome = await service.lobby.leave(channel_id, player, expected_game=game)
            elif self.verb == "computer":
                return await service.lobby.computer_menu(channel_id, player, expected_game=game)
            elif self.verb == "unseat":
                outcome = await service.lobby.remove_computer(
                    channel_id, player, expected_game=game
                )
            elif self.verb in LEVELS:
                outcome = await service.lobby.add_computer(
                    channel_id, player, self.verb, expected_game=game
                )
            else:
                return await service.lobby.start(channel_id, player, expected_game=game)
            if outcome.news is not None:  # the lobby message, edited in place, says it
                outcome.news.lines = []
            return outcome

        await bot.responder.run(interaction, work)


class OptionSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=LOBBY_OPTION,
):
    """The host picks a value of lobby option ``option`` of game ``game_id``."""

    def __init__(self, game_id: int, option: str) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=lobby_option_id(game_id, option),
                options=[discord.SelectOption(label=option, value=option)],
                min_values=1,
                max_values=1,
            )
        )
        self.game_id = game_id
        self.option = option

    @staticmethod
    def component(game_id: int, name: str, choices: list[Component]) -> Component:
        """The menu's payload, as a message carries it: ``choices`` its options."""
        return select(
            lobby_option_id(game_id, name),
            choices or [option(name, name)],
            min_values=1,
            max_values=1,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OptionSelect:
        return cls(int(match["game_id"]), match["option"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: ZigguratBot = interaction.client  # type: ignore[assignment]
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        value = values[0] if values else ""

        async def work(player: Player) -> Outcome:
            outcome = await bot.service.lobby.set_option(
                interaction.channel_id or 0,
                player,
                self.option,
                value,
                expected_game=self.game_id,
            )
            if outcome.news is not None:  # the lobby message, edited in place, says it
                outcome.news.lines = []
            return outcome

        await bot.responder.run(interaction, work)


def lobby_view(panel: LobbyPanel, game_id: int, lang: str) -> Components | None:
    """The components of an open lobby message: a row of buttons, a row per menu."""
    if not panel.open:
        return None
    view = Components()
    for verb in LOBBY_VERBS + (("computer",) if panel.computers else ()):
        view.add(LobbyButton.component(game_id, verb, Text(f"lobby.button.{verb}").render(lang)))
    for row, menu in enumerate(panel.menus, start=1):
        choices = [
            option(label.render(lang)[:MAX_OPTION_LABEL], value, default=value == menu.current)
            for value, label in menu.values[:MAX_OPTIONS]
        ]
        view.add(OptionSelect.component(game_id, menu.name, choices), row)
    return view
