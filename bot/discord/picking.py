"""Tap to play on Discord: the "Play" button and the move picker's components.

The service's picker (:mod:`bot.service.picker`, :mod:`bot.service.tapping`)
offers a seat its next choice as a :class:`~bot.service.picker.Menu`; this
module shows a menu as components on one ephemeral message, and sends the
chosen option tokens back.

custom_id layouts (every number matches :data:`~bot.discord.game_button.ID`,
at most 18 digits; ``<token>`` is the picker's token, at most 80 characters,
starting with the game's version, see :mod:`bot.service.pick_token`):

* ``zg:play:<game_id>`` — the Play button on a public message: opens the
  clicker's picker as a new ephemeral message (refused ephemerally, in the
  clicker's language, to anyone the game does not await).
* ``zg:pick:<game_id>:<token>:<n>`` — a button choosing option ``<n>`` (one
  or two digits) of the menu of ``<token>``.
* ``zg:pick:<game_id>:<token>:s`` — the select menu of ``<token>``; the
  chosen option tokens come as the select's values (``min_values`` to
  ``max_values`` of them: a swap's tiles). A one-choice menu of more than
  25 options is shown as up to four selects of 25, ``:s``, ``:s1``, ``:s2``,
  ``:s3``, each with its first and last option as placeholder; a choice in
  any of them is the menu's one choice.
* ``zg:pick:<game_id>:<token>:r`` — show the menu of ``<token>`` ("Start
  over": ``Menu.restart``, a fresh pick at the same version).
* ``zg:pick:<game_id>:<version>:u`` — Undo the clicker's last step, if the
  game is still at ``<version>``.
* ``zg:pick:<game_id>:<version>:e`` — End the turn, if the game is still at
  ``<version>``.

A token may hold ``:`` (a Tikal word such as ``4:A1``); the last ``:``
separates the kind, which never holds one. "zg:pick:" (8) + the game id +
":" + a token and option (at most 84, checked by the picker's tests) fits in
100 characters for every game id of up to 7 digits; a longer custom_id is
never sent (the component is left out and logged).

Decisions:

* A menu is one message: up to four selects (``MenuKind.SELECT``, 25 options
  each, labels cut to 100 characters) or a row of buttons
  (``MenuKind.BUTTONS``, at most 5, labels cut to 80), then one row of
  controls: Start over, Undo (after a step that can be taken back, kept
  while the game stays at that version) and End turn (where the engine has
  one now). At most five action rows and 7 components: inside Discord's 5
  rows and 40 components.
* Choosing an option that only narrows the pick answers with
  ``UPDATE_MESSAGE`` (``interaction.response.edit_message``): the same
  ephemeral message shows the next menu. A choice that plays a step, Undo
  and End turn first acknowledge with ``DEFERRED_UPDATE_MESSAGE`` (drawing
  the preview may take longer than Discord's 3 seconds), then edit the same
  message through :meth:`~bot.discord.delivery.Delivery.to_interaction`:
  the step's result, the player's preview (the outcome's reply image) and,
  if they go on, their next menu with Undo and End turn. The public
  hand-off, the tally and private messages go exactly as for a typed move.
* Nothing in a custom_id is trusted: the service recomputes the menu from
  the token and the game's state. A picker of an earlier position
  (``picker.stale``), an unreadable token or a choice not on the menu is
  answered in place with the reason and, when the clicker may act, a fresh
  menu. The game id must be the channel's running game's, else the click is
  a stale button. Other ``zg:`` ids (numbers past 18 digits) match no
  template here and fall to :class:`~bot.discord.buttons.StaleButton`.
* Every click is answered (an unexpected failure with ``error.internal``,
  logged) and reported finished (``bot.interaction_done``) for the tests.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.buttons import ButtonView
from bot.discord.delivery import ZOOM_FILE, locale_language, png, render, split_content
from bot.discord.game_button import ID, MAX_LABEL, GameButton, game_template
from bot.discord.interactions import Handled, player_of
from bot.i18n import Text
from bot.service import ChoiceKind, Outcome, Player, Refusal
from bot.service.picker import (
    MAX_SELECT_OPTIONS,
    MAX_SELECTS,
    Menu,
    MenuKind,
    Option,
    Picked,
    StalePick,
)

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)

#: Discord's limit on a custom_id
MAX_CUSTOM_ID = 100
#: Discord's limit on a select option's label
MAX_OPTION_LABEL = 100
#: Discord's limit on a select's placeholder
MAX_PLACEHOLDER = 150
#: a picker token in a custom_id: the game's version first
TOKEN = rf"(?P<token>(?P<version>{ID})(?:[.~].*)?)"
#: refusals that mean "this picker is out of date"
STALE_KEYS = frozenset({"picker.stale", "picker.bad_token", "picker.bad_choice"})


def _bot(interaction: discord.Interaction) -> ZigguratBot:
    return interaction.client  # type: ignore[return-value]


def pick_id(game_id: int, token: str, what: str) -> str:
    """A picker component's custom_id; ValueError past Discord's 100 characters."""
    custom_id = f"zg:pick:{game_id}:{token}:{what}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {custom_id!r}")
    return custom_id


def _label(text: Text, lang: str, limit: int) -> str:
    label = text.render(lang).replace("\n", " ").strip()
    if len(label) > limit:
        label = label[: limit - 1] + "…"
    return label or "—"


@dataclass
class Screen:
    """What the picker message shows: lines, components, and whether the image is kept."""

    lines: list[Text]
    view: discord.ui.View | None = None
    keep_image: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: the map around where the player can act (a fresh picker of a dense board)
    zoom: bytes | None = None


def _select(
    game_id: int, menu: Menu, index: int, part: Sequence[Option], placeholder: str, lang: str
) -> discord.ui.Select[Any]:
    """Select ``index`` of a menu: options ``part`` (custom_id ``:s``, ``:s1``, …)."""
    return discord.ui.Select(
        custom_id=pick_id(game_id, menu.token, f"s{index or ''}"),
        placeholder=placeholder,
        min_values=menu.min_values,
        max_values=min(menu.max_values, len(part)),
        options=[
            discord.SelectOption(label=_label(o.label, lang, MAX_OPTION_LABEL), value=o.token)
            for o in part
        ],
        row=index,
    )


def menu_view(
    game_id: int,
    menu: Menu,
    lang: str,
    *,
    version: int,
    undo: bool = False,
    end: bool = False,
) -> discord.ui.View:
    """A menu as components: its select or buttons, then Start over, Undo, End turn."""
    view = ButtonView()

    def add(make: Callable[[], discord.ui.Item[Any]]) -> None:
        try:
            view.add_item(make())
        except ValueError:  # a custom_id over 100 characters (a game id past 7 digits)
            log.warning("a picker component of game %s was not made", game_id, exc_info=True)

    def button(token: str, what: str, label: str, style: discord.ButtonStyle, row: int) -> None:
        add(
            lambda: discord.ui.Button(
                label=label, custom_id=pick_id(game_id, token, what), style=style, row=row
            )
        )

    if menu.kind is MenuKind.SELECT:
        parts = [
            menu.options[start : start + MAX_SELECT_OPTIONS]
            for start in range(0, len(menu.options), MAX_SELECT_OPTIONS)
        ]
        for index, part in enumerate(parts):
            placeholder = menu.title
            if len(parts) > 1:
                placeholder = Text(
                    "picker.select_part",
                    {"title": menu.title, "first": part[0].label, "last": part[-1].label},
                )
            add(
                partial(
                    _select,
                    game_id,
                    menu,
                    index,
                    part,
                    _label(placeholder, lang, MAX_PLACEHOLDER),
                    lang,
                )
            )
    else:
        style = discord.ButtonStyle.success if menu.confirm else discord.ButtonStyle.primary
        for option in menu.options:
            button(menu.token, option.token, _label(option.label, lang, MAX_LABEL), style, 0)
    secondary = discord.ButtonStyle.secondary
    controls = MAX_SELECTS if menu.kind is MenuKind.SELECT else 1  # the last row
    if menu.restart is not None:
        label = _label(Text("picker.start_over"), lang, MAX_LABEL)
        button(menu.restart, "r", label, secondary, controls)
    if undo:
        button(str(version), "u", _label(Text("choice.undo"), lang, MAX_LABEL), secondary, controls)
    if end:
        label = _label(Text("choice.end_turn"), lang, MAX_LABEL)
        button(str(version), "e", label, discord.ButtonStyle.danger, controls)
    return view


def _undo_offered(interaction: discord.Interaction, game_id: int, version: int) -> bool:
    """Whether the picker message clicked offers Undo at ``version`` (kept while navigating)."""
    wanted = f"zg:pick:{game_id}:{version}:u"
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == wanted:
                return True
    return False


class Tapper:
    """The picker's clicks for one bot; see the module docstring."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot

    # -- screens ---------------------------------------------------------------------

    async def load(self, interaction: discord.Interaction, player: Player, game_id: int) -> Any:
        """The clicker's game and picker now; a stale button unless it is game ``game_id``."""
        game, picker = await self.bot.service.tapping.picker(interaction.channel_id or 0, player)
        if game.id != game_id:
            raise Refusal("error.stale_button")
        return game, picker

    async def fresh(
        self,
        interaction: discord.Interaction,
        player: Player,
        game_id: int,
        *,
        lead: Sequence[Text] = (),
        undo: bool = False,
    ) -> Screen:
        """The clicker's first menu now, after ``lead``; Refusal if they may not act."""
        game, picker = await self.load(interaction, player, game_id)
        try:
            menu = picker.menu()
        except StalePick as stale:
            raise Refusal(stale.key) from None
        return self.screen(interaction, game, picker, menu, lead=lead, undo=undo)

    @staticmethod
    def screen(
        interaction: discord.Interaction,
        game: Any,
        picker: Any,
        menu: Menu,
        *,
        lead: Sequence[Text] = (),
        undo: bool = False,
    ) -> Screen:
        """A menu of ``picker`` (of ``game``) as the picker message."""
        end = game.engine.end_turn_action(game.state, picker.seat) is not None
        lang = locale_language(interaction.locale)
        view = menu_view(game.id, menu, lang, version=game.row.version, undo=undo, end=end)
        return Screen([*lead, menu.title], view)

    async def refused(
        self, interaction: discord.Interaction, player: Player, game_id: int, refusal: Refusal
    ) -> Screen:
        """A refusal in place, with a fresh menu when the clicker may act."""
        stale = refusal.text.key == "picker.stale"
        lead = [Text("picker.stale_fresh")] if stale else [refusal.text]
        try:
            return await self.fresh(interaction, player, game_id, lead=lead)
        except Refusal as again:
            if stale:
                return Screen([refusal.text, again.text], keep_image=False)
            return Screen([refusal.text], keep_image=False)

    # -- answering -------------------------------------------------------------------

    async def show(self, interaction: discord.Interaction, screen: Screen) -> None:
        """Show ``screen`` on the picker message (UPDATE_MESSAGE, or editing it when
        the interaction was already acknowledged)."""
        lang = locale_language(interaction.locale)
        content = split_content(render(screen.lines, lang))[0]
        kwargs: dict[str, Any] = {
            "content": content,
            "view": screen.view,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if screen.zoom is not None:
            kwargs["attachments"] = [png(screen.zoom, ZOOM_FILE)]
        elif not screen.keep_image:
            kwargs["attachments"] = []
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)

    async def guarded(
        self,
        interaction: discord.Interaction,
        game_id: int,
        work: Callable[[Player], Awaitable[None]],
        *,
        new_message: bool = False,
    ) -> None:
        """Run a click: refusals answered in place, failures logged, done reported (and
        logged in one line, counted: :class:`~bot.discord.interactions.Handled`)."""
        bot = self.bot
        handled = Handled(interaction, game_id)
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                handled.refused("error.dm_only")
                await bot.responder.answer_now(interaction, Text("error.dm_only"))
                return
            player = player_of(interaction)
            if new_message:
                await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                await work(player)
            except Refusal as refusal:
                handled.refused(refusal.text.key)
                if new_message:
                    await self.show(interaction, Screen([refusal.text]))
                else:
                    await self.show(
                        interaction, await self.refused(interaction, player, game_id, refusal)
                    )
        except Exception:
            handled.failed()
            log.exception(
                "picker click failed: interaction %s by user %s in channel %s",
                interaction.id,
                interaction.user.id,
                interaction.channel_id,
            )
            try:
                await self.show(interaction, Screen([Text("error.internal")]))
            except Exception:
                log.exception("could not answer interaction %s", interaction.id)
        finally:
            handled.done()
            bot.interaction_done(interaction.id)

    async def deliver(
        self, interaction: discord.Interaction, player: Player, game_id: int, outcome: Outcome
    ) -> None:
        """A played step (or undo): its answer on the picker message, with the next menu
        when the clicker goes on; public and private messages as for a typed move."""
        undo = any(c.kind is ChoiceKind.UNDO for c in outcome.reply_choices)
        lines: list[Text] = []
        view: discord.ui.View | None = None
        try:
            screen = await self.fresh(interaction, player, game_id, undo=undo)
            lines, view = screen.lines, screen.view
        except Refusal:
            pass  # not theirs to play any more (a hand-off, the end): no menu
        await self.bot.delivery.to_interaction(
            interaction, outcome, picker_lines=lines, picker_view=view
        )

    # -- the clicks ------------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Play button: the clicker's picker as a new ephemeral message."""

        async def work(player: Player) -> None:
            screen = await self.fresh(interaction, player, game_id)
            channel = interaction.channel_id or 0
            screen.zoom = await _bot(interaction).service.pick_zoom(channel, player)
            await self.show(interaction, screen)

        await self.guarded(interaction, game_id, work, new_message=True)

    async def choose(
        self, interaction: discord.Interaction, game_id: int, token: str, picked: Sequence[str]
    ) -> None:
        """Options chosen in the menu of ``token``: the next menu, or the step played."""

        async def work(player: Player) -> None:
            game, picker = await self.load(interaction, player, game_id)
            try:
                pending = picker.decode(token)
                after = picker.choose(pending, list(picked)) if picked else pending
                menu = None if isinstance(after, Picked) else picker.menu(after)
            except StalePick as stale:
                raise Refusal(stale.key) from None
            if menu is not None:
                undo = _undo_offered(interaction, game_id, game.row.version)
                await self.show(
                    interaction, self.screen(interaction, game, picker, menu, undo=undo)
                )
                return
            await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE: drawing may be slow
            answer = await self.bot.service.pick(
                interaction.channel_id or 0, player, token, list(picked)
            )
            if answer.outcome is None:  # the position changed between the two looks
                await self.show(interaction, await self.fresh(interaction, player, game_id))
                return
            await self.deliver(interaction, player, game_id, answer.outcome)

        await self.guarded(interaction, game_id, work)

    async def undo(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        async def work(player: Player) -> None:
            await interaction.response.defer()
            outcome = await self.bot.service.undo(
                interaction.channel_id or 0,
                player,
                expected_game=game_id,
                expected_version=version,
            )
            await self.deliver(interaction, player, game_id, outcome)

        await self.guarded(interaction, game_id, work)

    async def end_turn(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        async def work(player: Player) -> None:
            await interaction.response.defer()
            game, picker = await self.load(interaction, player, game_id)
            end = game.engine.end_turn_action(game.state, picker.seat)
            if end is None:
                raise Refusal("picker.nothing")
            outcome = await self.bot.service.act(
                interaction.channel_id or 0,
                player,
                str(end),
                expected_game=game_id,
                expected_version=version,
            )
            await self.deliver(interaction, player, game_id, outcome)

        await self.guarded(interaction, game_id, work)


def _tapper(interaction: discord.Interaction) -> Tapper:
    return Tapper(_bot(interaction))


class PlayButton(
    GameButton, discord.ui.DynamicItem[discord.ui.Button], template=game_template("play")
):
    """On a public message that waits for someone: opens the clicker's picker."""

    verb, style, default_label = "play", discord.ButtonStyle.primary, "Play"

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _tapper(interaction).open(interaction, self.game_id)


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"zg:pick:(?P<game_id>{ID}):{TOKEN}:(?P<what>[0-9]{{1,2}}|[rue])",
):
    """A picker button: an option, Start over, Undo or End turn (see the module docstring)."""

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
        tapper = _tapper(interaction)
        if self.what == "r":
            await tapper.choose(interaction, self.game_id, self.token, ())
        elif self.what in ("u", "e"):
            version = re.fullmatch(ID, self.token)
            if version is None:  # a token where a version belongs
                await tapper.guarded(interaction, self.game_id, _stale)
            elif self.what == "u":
                await tapper.undo(interaction, self.game_id, int(self.token))
            else:
                await tapper.end_turn(interaction, self.game_id, int(self.token))
        else:
            await tapper.choose(interaction, self.game_id, self.token, (self.what,))


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"zg:pick:(?P<game_id>{ID}):{TOKEN}:s[0-9]?",
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
        await _tapper(interaction).choose(interaction, self.game_id, self.token, values)


async def _stale(player: Player) -> None:
    raise Refusal("picker.bad_token")


PICKER_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PlayButton, PickButton, PickSelect)
