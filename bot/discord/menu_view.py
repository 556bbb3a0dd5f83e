"""A move picker's menu (:class:`~bot.service.menus.Menu`) drawn as Discord components.

Decisions:

* A menu is one message: its sections in order (a row of up to five buttons
  each, or one select with its header as placeholder and each option's
  detail as its description), then the controls' row.
* An option whose step cannot be taken back (``Option.final``: it plays at
  once) carries the 🔒 mark, which the menu's title explains.
* Labels are drawn as the service made them: never cut (the picker keeps
  them short; a label past Discord's own limit would be logged and cut
  rather than lose the message).
* The custom_ids are :func:`bot.discord.custom_ids.pick_id`'s.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.components import (
    MAX_DESCRIPTION,
    MAX_LABEL,
    MAX_OPTION_LABEL,
    MAX_PLACEHOLDER,
    ButtonView,
)
from bot.discord.custom_ids import pick_id
from bot.i18n import Text
from bot.service.menus import (
    BUTTONS_PER_ROW,
    FINAL_MARK,
    MAX_ROWS,
    Menu,
    Option,
    Style,
    Widget,
)

log = logging.getLogger(__name__)

#: the mark of an option that plays a step which cannot be taken back (the menu's
#: title says why, after the same mark)
FINAL = FINAL_MARK
#: the file name of a menu's picture
PICTURE_FILE = "choices.png"

STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}


def _shown(text: Text, lang: str, limit: int, what: str) -> str:
    """A label as the picker made it; past Discord's own ``limit`` (never for the
    picker's labels, which its tests keep short) logged and cut rather than lost."""
    label = text.render(lang).replace("\n", " ").strip()
    if len(label) > limit:
        log.warning("a picker %s past Discord's %s characters was cut: %r", what, limit, label)
        label = label[: limit - 1] + "…"
    return label or "—"


def menu_view(game_id: int, menu: Menu, lang: str) -> discord.ui.View:
    """A menu as components: its sections in order, then the controls' row."""
    view = ButtonView()

    def add(item: discord.ui.Item[Any]) -> None:
        try:
            view.add_item(item)
        except ValueError:  # more than Discord allows: the picker's tests keep it within
            log.warning("a picker component of game %s did not fit", game_id, exc_info=True)

    def button(option: Option, row: int) -> None:
        try:
            custom_id = pick_id(game_id, menu.token, option.token)
        except ValueError:  # a custom_id over 100 characters (a game id past 7 digits)
            log.warning("a picker button of game %s was not made", game_id)
            return
        add(
            discord.ui.Button(
                label=_shown(option.label, lang, MAX_LABEL, "button label"),
                custom_id=custom_id,
                style=STYLES[option.style],
                emoji=FINAL if option.final else None,
                row=row,
            )
        )

    row = 0
    selects = 0
    for section in menu.sections:
        if section.widget is Widget.SELECT:
            try:
                custom_id = pick_id(game_id, menu.token, f"s{selects or ''}")
            except ValueError:
                log.warning("a picker select of game %s was not made", game_id)
                continue
            placeholder = section.header if section.header is not None else menu.title
            add(
                discord.ui.Select(
                    custom_id=custom_id,
                    placeholder=_shown(placeholder, lang, MAX_PLACEHOLDER, "placeholder"),
                    min_values=section.min_values,
                    max_values=min(section.max_values, len(section.options)),
                    options=[
                        discord.SelectOption(
                            label=_shown(o.label, lang, MAX_OPTION_LABEL, "option label"),
                            value=o.token,
                            description=(
                                None
                                if o.detail is None
                                else _shown(o.detail, lang, MAX_DESCRIPTION, "description")
                            ),
                            emoji=FINAL if o.final else None,
                        )
                        for o in section.options
                    ],
                    row=row,
                )
            )
            selects += 1
            row += 1
            continue
        for start in range(0, len(section.options), BUTTONS_PER_ROW):
            for option in section.options[start : start + BUTTONS_PER_ROW]:
                button(option, row)
            row += 1
    for option in menu.controls:
        button(option, min(row, MAX_ROWS - 1))
    return view
