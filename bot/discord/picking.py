"""Tap to play on Discord: the "Play" button and the move picker's components.

The service answers each tap (:meth:`bot.service.tapping.Tapping.tap`) with a
:class:`~bot.service.menus.Menu` and, when the tap played a step, its
outcome. This module only draws a menu as components on one ephemeral
message and sends the chosen option tokens back: it builds no menu and
calls no engine.

The components (their custom_id layouts are :mod:`bot.discord.custom_ids`'):

* ``zg:play:<game_id>`` — the Play button on a public message: opens the
  clicker's picker as a new ephemeral message (refused ephemerally, in the
  clicker's language, to anyone the game does not await).
* ``zg:pick:<game_id>:<token>:<n>`` — a button choosing option ``<n>`` (one
  or two digits) of the menu of ``<token>``.
* ``zg:pick:<game_id>:<token>:s<i>`` — select ``<i>`` of the menu of
  ``<token>`` (``s`` for the first): its values are the chosen option
  tokens (``min_values`` to ``max_values`` of them: a swap's tiles).
* ``zg:pick:<game_id>:<token>:r`` / ``:u`` / ``:e`` — the controls: Start
  over, Undo, End turn.

A custom_id past Discord's 100 characters (a game id past 7 digits) is never
sent: the component is left out and logged.

Decisions:

* One tap, one service call, answered first (:func:`~bot.discord.messages.answering`):
  the service's answer, ready in time, is the click's response, an update of the picker
  message (``UPDATE_MESSAGE``; the Play button opens a new ephemeral message); one not
  ready in time edits the acknowledgement (``DEFERRED_UPDATE_MESSAGE``, "thinking" for
  Play). The answer: the lines (a stale picker's note, the step's result), the menu's
  title and components, and its image — the step's preview, the map around where the
  player can act on a fresh picker (with the player's private view, image and words, in
  a game that has one), or the menu's picture (a Tikal hex in each rotation). The public
  hand-off, the tally and private messages go exactly as for a typed move.
* A menu is drawn by :mod:`bot.discord.menu_view`.
* Nothing in a custom_id is trusted: the service recomputes the menu from
  the token and the game's state, and answers a stale or unreadable one with
  a fresh menu. The game id must be the channel's running game's, else the
  click is a stale button. Other ``zg:`` ids (numbers past 18 digits) match
  no template here and fall to :class:`~bot.discord.buttons.StaleButton`.
* Every click is answered (an unexpected failure with ``error.internal``,
  logged) and reported finished (``bot.interaction_done``) for the tests: it
  runs through :func:`bot.discord.interactions.guard`, like every interaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import Components
from bot.discord.custom_ids import PICK_BUTTON, PICK_SELECT, game_template
from bot.discord.game_button import GameButton
from bot.discord.interactions import THINKING, UPDATE, Handled, guard
from bot.discord.menu_view import PICTURE_FILE, menu_view
from bot.discord.messages import (
    HAND_FILE,
    ZOOM_FILE,
    locale_language,
    original_response,
    png,
    render,
    split_content,
)
from bot.i18n import Text
from bot.service import Player, TapAnswer
from bot.service.announce import answered_early

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


def _bot(interaction: discord.Interaction) -> ZigguratBot:
    return interaction.client  # type: ignore[return-value]


class Tapper:
    """The picker's clicks for one bot; see the module docstring."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot

    async def show(
        self,
        interaction: discord.Interaction,
        lines: Sequence[Text],
        view: Components | None,
        *,
        image: bytes | None = None,
        name: str = ZOOM_FILE,
        hand: bytes | None = None,
    ) -> None:
        """Show ``lines`` and ``view`` on the picker message (the acknowledged
        interaction's response), with ``image`` (and the seat's private view,
        ``hand``) or without any."""
        lang = locale_language(interaction.locale)
        content = split_content(render(lines, lang))[0]
        files = [png(data, file) for data, file in ((hand, HAND_FILE), (image, name)) if data]
        await original_response(
            interaction,
            content=content,
            view=view,
            attachments=files,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def answer(self, interaction: discord.Interaction, answer: TapAnswer) -> None:
        """The service's answer on the picker message (see the module docstring)."""
        lang = locale_language(interaction.locale)
        lines: list[Text] = [*answer.lines, *answer.hand_lines]
        view: Components | None = None
        if answer.menu is not None:
            lines.append(answer.menu.title)
            view = menu_view(answer.game_id, answer.menu, lang)
        if answer.outcome is not None:
            await self.bot.delivery.to_interaction(
                interaction,
                answer.outcome,
                picker_lines=lines,
                picker_view=Components() if view is None else view,
            )
            return
        if answer.picture is not None:
            await self.show(interaction, lines, view, image=answer.picture, name=PICTURE_FILE)
        else:
            await self.show(interaction, lines, view, image=answer.zoom, hand=answer.hand)

    async def say(self, interaction: discord.Interaction, text: Text) -> None:
        """A refusal or a failure, in place of the picker's menu."""
        await self.show(interaction, [text], None)

    async def tap(
        self,
        interaction: discord.Interaction,
        game_id: int,
        token: str | None,
        picked: Sequence[str],
    ) -> None:
        """One tap: the service's one call, and its answer shown."""

        async def work(player: Player, handled: Handled) -> None:
            # a step that hands off comes back once stored, its images still drawing
            with answered_early():
                answer = await self.bot.service.tapping.tap(
                    interaction.channel_id or 0, player, token, list(picked), game_id=game_id
                )
            await self.answer(interaction, answer)

        await guard(
            interaction,
            work,
            say=self.say,
            on_done=self.bot.interaction_done,
            defer=THINKING if token is None else UPDATE,  # the Play button opens a new one
            game=game_id,
            answer_first=True,
        )


def _tapper(interaction: discord.Interaction) -> Tapper:
    return Tapper(_bot(interaction))


class PlayButton(
    GameButton,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=game_template("play"),
):
    """On a public message that waits for someone: opens the clicker's picker."""

    verb, style, default_label = "play", discord.ButtonStyle.primary, "Play"

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _tapper(interaction).tap(interaction, self.game_id, None, ())


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=PICK_BUTTON,
):
    """A picker button: an option or a control (see the module docstring)."""

    def __init__(self, game_id: int, token: str, what: str, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[arg-type]  # a forged id may name a select
        self.game_id = game_id
        self.token = token
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickButton:
        return cls(int(match["game_id"]), match["token"], match["what"], item)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _tapper(interaction).tap(interaction, self.game_id, self.token, (self.what,))


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=PICK_SELECT,
):
    """A picker select: its values are the chosen options' tokens."""

    def __init__(self, game_id: int, token: str, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[arg-type]  # a forged id may name a button
        self.game_id = game_id
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        return cls(int(match["game_id"]), match["token"], item)

    async def callback(self, interaction: discord.Interaction) -> Any:
        values = [str(v) for v in getattr(self.item, "values", ())]  # none: a forged button
        await _tapper(interaction).tap(interaction, self.game_id, self.token, values)
