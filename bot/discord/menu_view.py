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
* Built as Discord's payload (:class:`~bot.discord.components.Components`),
  no ``discord.ui`` object: a click is dispatched by
  :class:`~bot.discord.picking.PickButton` and
  :class:`~bot.discord.picking.PickSelect` from its custom_id alone.
"""

from __future__ import annotations

import logging

from bot.discord.components import (
    DANGER,
    MAX_DESCRIPTION,
    MAX_LABEL,
    MAX_OPTION_LABEL,
    MAX_PLACEHOLDER,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    Component,
    Components,
    button,
    option,
    select,
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
    Style.PRIMARY: PRIMARY,
    Style.SECONDARY: SECONDARY,
    Style.SUCCESS: SUCCESS,
    Style.DANGER: DANGER,
}


def _shown(text: Text, lang: str, limit: int, what: str) -> str:
    """A label as the picker made it; past Discord's own ``limit`` (never for the
    picker's labels, which its tests keep short) logged and cut rather than lost."""
    label = text.render(lang).replace("\n", " ").strip()
    if len(label) > limit:
        log.warning("a picker %s past Discord's %s characters was cut: %r", what, limit, label)
        label = label[: limit - 1] + "…"
    return label or "—"


def menu_view(game_id: int, menu: Menu, lang: str) -> Components:
    """A menu as components: its sections in order, then the controls' row."""
    view = Components()

    def add(item: Component, row: int) -> None:
        try:
            view.add(item, row)
        except ValueError:  # more than Discord allows: the picker's tests keep it within
            log.warning("a picker component of game %s did not fit", game_id, exc_info=True)

    def add_button(choice: Option, row: int) -> None:
        try:
            custom_id = pick_id(game_id, menu.token, choice.token)
        except ValueError:  # a custom_id over 100 characters (a game id past 7 digits)
            log.warning("a picker button of game %s was not made", game_id)
            return
        add(
            button(
                custom_id,
                _shown(choice.label, lang, MAX_LABEL, "button label"),
                STYLES[choice.style],
                emoji=FINAL if choice.final else None,
            ),
            row,
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
                select(
                    custom_id,
                    [
                        option(
                            _shown(o.label, lang, MAX_OPTION_LABEL, "option label"),
                            o.token,
                            description=(
                                None
                                if o.detail is None
                                else _shown(o.detail, lang, MAX_DESCRIPTION, "description")
                            ),
                            emoji=FINAL if o.final else None,
                        )
                        for o in section.options
                    ],
                    placeholder=_shown(placeholder, lang, MAX_PLACEHOLDER, "placeholder"),
                    min_values=section.min_values,
                    max_values=min(section.max_values, len(section.options)),
                ),
                row,
            )
            selects += 1
            row += 1
            continue
        for start in range(0, len(section.options), BUTTONS_PER_ROW):
            for choice in section.options[start : start + BUTTONS_PER_ROW]:
                add_button(choice, row)
            row += 1
    for choice in menu.controls:
        add_button(choice, min(row, MAX_ROWS - 1))
    return view
