"""Messages sent and edited through discord.py's own HTTP layer, when nobody reads the answer.

Decisions:

* A message the bot edits (a tally, a message losing its buttons) or DMs is
  sent with ``client.http`` (discord.py's public lower-level HTTP client) and
  the payload discord.py itself builds (``handle_message_parameters``: the
  same JSON, files and merged allowed mentions as ``Messageable.send`` and
  ``PartialMessage.edit``), but Discord's answer is not parsed into a
  :class:`discord.Message` nor kept in discord.py's message cache: nothing
  reads it. :func:`send` returns the new message's id, the one thing read.
* Only untracked views (:class:`~bot.discord.components.ButtonView`) go this
  way: discord.py is not told of the message, so a view it would dispatch to
  is refused here rather than silently never dispatched.
* Errors are discord.py's (``discord.HTTPException`` and its subclasses, with
  Discord's code), as the higher-level calls raise them.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING

__all__ = ["edit", "send"]


def _fields(
    client: discord.Client,
    content: str | None,
    allowed_mentions: discord.AllowedMentions | None,
    view: Any,
    files: list[discord.File] | None,
) -> dict[str, Any]:
    if isinstance(view, discord.ui.View) and view.is_dispatchable():
        raise ValueError("a view discord.py dispatches to must be sent through discord.py")
    fields: dict[str, Any] = {"view": view}
    if content is not MISSING:
        fields["content"] = content
        fields["previous_allowed_mentions"] = client.allowed_mentions
    if allowed_mentions is not None:
        fields["allowed_mentions"] = allowed_mentions
    if files:
        fields["files"] = files
    return fields


async def edit(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    content: Any = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Any = MISSING,
) -> None:
    """Edit a message: its content (``MISSING``: kept), its components (``view``:
    ``MISSING`` kept, ``None`` removed)."""
    fields = _fields(client, content, allowed_mentions, view, None)
    with handle_message_parameters(**fields) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def send(
    client: discord.Client,
    channel_id: int,
    content: str,
    *,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> int:
    """Post a message in a channel (a DM channel too); the new message's id."""
    fields = _fields(
        client,
        content,
        allowed_mentions,
        MISSING if view is None else view,
        None if file is None else [file],
    )
    with handle_message_parameters(**fields) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])
