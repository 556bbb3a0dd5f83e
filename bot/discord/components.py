"""What every message's components share: their payload, and Discord's limits.

Decisions:

* A message's components are built as Discord's payload itself
  (:class:`Components`: action rows of button and select dicts, Discord's
  documented message component objects), never as ``discord.ui`` objects
  turned into dicts: nothing reads them back, and discord.py's object layer
  (a ``View``, an ``Item`` and a ``Component`` per button, a ``SelectOption``
  per option) cost more of the event loop than the rest of a picker tap.
  The dicts are the very ones discord.py's ``View.to_components`` made for
  the same message (the same keys: ``disabled`` false, a select's
  ``required`` true (Discord reads it only in modals), an emoji as
  ``{"id": None, "name": ...}``); a test compares them.
* Rows are laid out as discord.py's ``View`` lays them out: an item with a
  row goes there, one without fills the first row with room (a button is one
  fifth of a row, a select a whole one); past Discord's limits (5 rows of 5
  buttons, 25 items) :meth:`Components.add` raises ValueError, as
  ``View.add_item`` did, and adds nothing.
* :class:`Components` is what discord.py's message builders
  (``handle_message_parameters``, ``interaction_message_response_params``)
  read of a view (``to_components``, ``has_components_v2``), so messages go
  through :mod:`bot.discord.rest` as before. discord.py is never told of the
  message (nothing of it is in its view store, no timeout task): a click is
  dispatched by the registered :class:`discord.ui.DynamicItem` classes
  (:mod:`bot.discord.items`), which match its custom_id.
* The limits are Discord's documented ones; a custom_id's is in
  :mod:`bot.discord.custom_ids`, the rows' in :mod:`bot.service.menus`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service.menus import BUTTONS_PER_ROW, MAX_ROWS

#: Discord's limit on a button label
MAX_LABEL = 80
#: Discord's limits on a select option's label and description, and a placeholder
MAX_OPTION_LABEL = 100
MAX_DESCRIPTION = 100
MAX_PLACEHOLDER = 150
#: Discord's limit on a select's options
MAX_OPTIONS = 25
#: Discord's limit on a message's interactive components
MAX_ITEMS = MAX_ROWS * BUTTONS_PER_ROW

#: Discord's component types: an action row, a button, a string select
ACTION_ROW, BUTTON, SELECT = 1, 2, 3
#: Discord's button styles (discord.py's ``ButtonStyle`` values)
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4

Component = dict[str, Any]


def _emoji(emoji: str | None) -> dict[str, Any] | None:
    """A unicode emoji as discord.py's ``PartialEmoji.to_dict`` writes it."""
    return None if not emoji else {"id": None, "name": emoji}


def button(custom_id: str, label: str, style: int, *, emoji: str | None = None) -> Component:
    """A button's payload (an empty label is left out, as discord.py leaves it)."""
    payload: Component = {"type": BUTTON, "style": style, "disabled": False}
    if label:
        payload["label"] = label
    payload["custom_id"] = custom_id
    if emoji:
        payload["emoji"] = _emoji(emoji)
    return payload


def option(
    label: str,
    value: str,
    *,
    description: str | None = None,
    emoji: str | None = None,
    default: bool = False,
) -> Component:
    """A select option's payload."""
    payload: Component = {"label": label, "value": value, "default": default}
    if description:
        payload["description"] = description
    if emoji:
        payload["emoji"] = _emoji(emoji)
    return payload


def select(
    custom_id: str,
    options: list[Component],
    *,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
) -> Component:
    """A string select's payload."""
    payload: Component = {
        "type": SELECT,
        "custom_id": custom_id,
        "min_values": min_values,
        "max_values": max_values,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        payload["placeholder"] = placeholder
    if options:
        payload["options"] = options
    return payload


class Components:
    """A message's components: up to :data:`~bot.service.menus.MAX_ROWS` action rows,
    laid out as discord.py's ``View`` lays them out (see above)."""

    __slots__ = ("_count", "_rows", "_widths")

    def __init__(self) -> None:
        self._rows: list[list[Component]] = [[] for _ in range(MAX_ROWS)]
        self._widths = [0] * MAX_ROWS
        self._count = 0

    def add(self, component: Component, row: int | None = None) -> None:
        """Add a button or a select, in ``row`` or the first with room; ValueError (and
        nothing added) when it does not fit."""
        if self._count >= MAX_ITEMS:
            raise ValueError("maximum number of children exceeded")
        width = BUTTONS_PER_ROW if component["type"] == SELECT else 1
        if row is None:
            row = next(
                (i for i, used in enumerate(self._widths) if used + width <= BUTTONS_PER_ROW),
                None,
            )
            if row is None:
                raise ValueError("could not find open space for item")
        elif not 0 <= row < MAX_ROWS or self._widths[row] + width > BUTTONS_PER_ROW:
            raise ValueError(f"item would not fit at row {row}")
        self._rows[row].append(component)
        self._widths[row] += width
        self._count += 1

    @property
    def empty(self) -> bool:
        """Whether nothing was added."""
        return self._count == 0

    def to_components(self) -> list[Component]:
        """The action rows' payload (an empty row left out)."""
        return [{"type": ACTION_ROW, "components": list(row)} for row in self._rows if row]

    def has_components_v2(self) -> bool:
        """Never: these are classic components (read by discord.py's builders)."""
        return False


def ui_button(payload: Component) -> discord.ui.Button[discord.ui.View]:
    """The ``discord.ui`` button of a button's payload: what a
    :class:`discord.ui.DynamicItem` built from a click holds."""
    return discord.ui.Button(
        label=payload.get("label"),
        style=discord.ButtonStyle(payload["style"]),
        custom_id=payload["custom_id"],
    )
