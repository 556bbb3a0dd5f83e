"""Messages sent and edited through discord.py's own HTTP layers, when nobody reads the answer.

Decisions:

* A message the bot edits (a tally, a message losing its buttons) or DMs is
  sent with ``client.http`` (discord.py's public lower-level HTTP client) and
  the payload discord.py itself builds (``handle_message_parameters``: the
  same JSON, files and merged allowed mentions as ``Messageable.send`` and
  ``PartialMessage.edit``), but Discord's answer is not parsed into a
  :class:`discord.Message` nor kept in discord.py's message cache: nothing
  reads it. :func:`send` returns the new message's id, the one thing read.
* An interaction's answers go the same way through discord.py's webhook
  adapter (the one ``InteractionResponse`` and ``Webhook.send`` use: no bot
  token, the interaction's own rate-limit bucket, discord.py's retries): the
  payload built by discord.py's own builders
  (``interaction_message_response_params``, ``handle_message_parameters``),
  the route, body and query of each as discord.py sends them, except the
  callback's ``with_response``: :func:`respond`, :func:`respond_update` and
  :func:`defer` ask for no callback object (Discord answers 204, so nothing is
  sent back nor parsed; discord.py ≥ 2.5 asks for one and builds a message
  from it). :func:`respond_public` (a hand-off's public message as the
  response) asks for it, since the message's id is kept: it reads only
  ``resource.message``'s id and channel from the adapter's one parse (orjson
  where installed), no message object built. :func:`followup` reads only the
  new message's id and channel (a follow-up's answer is always the message:
  Discord's ``wait`` is always true there), :func:`edit_original` reads
  nothing. The interaction is marked answered as discord.py marks it
  (``InteractionResponse.is_done``).
* Only components built as Discord's payload
  (:class:`~bot.discord.components.Components`) go this way: discord.py is
  not told of the message, so a ``discord.ui`` view (which it would dispatch
  to, or keep) is refused here rather than silently never dispatched.
* Errors are discord.py's (``discord.HTTPException`` and its subclasses, with
  Discord's code), as the higher-level calls raise them; a second response to
  one interaction raises ``discord.InteractionResponded`` before any request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord.enums import InteractionResponseType, InteractionType
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

from bot.discord.components import Components

__all__ = [
    "Sent",
    "defer",
    "edit",
    "edit_original",
    "followup",
    "respond",
    "respond_public",
    "respond_update",
    "send",
]


@dataclass(frozen=True, slots=True)
class Sent:
    """A message just posted: what the bot reads of Discord's answer."""

    id: int
    channel_id: int


def _refuse_tracked(view: Any) -> None:
    if view is not None and view is not MISSING and not isinstance(view, Components):
        raise ValueError("a discord.ui view must be sent through discord.py")


def _fields(
    client: discord.Client,
    content: str | None,
    allowed_mentions: discord.AllowedMentions | None,
    view: Any,
    files: list[discord.File] | None,
) -> dict[str, Any]:
    _refuse_tracked(view)
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
    view: Components | None = None,
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


# -- an interaction's answers ---------------------------------------------------------


def _session(interaction: discord.Interaction) -> Any:
    """The HTTP session discord.py answers ``interaction`` with (its own)."""
    return interaction._session


def _message(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions | None,
    view: Components | None,
    files: Sequence[discord.File] | None,
) -> dict[str, Any]:
    """A new message's fields, as discord.py's builders take them for an answer to
    ``interaction`` (a response or a follow-up)."""
    _refuse_tracked(view)
    return {
        "content": content,
        "files": files or MISSING,
        "view": MISSING if view is None else view,
        "allowed_mentions": MISSING if allowed_mentions is None else allowed_mentions,
        "previous_allowed_mentions": interaction.client.allowed_mentions,
        "flags": discord.MessageFlags(ephemeral=True) if ephemeral else MISSING,
    }


def _webhook(interaction: discord.Interaction, params: MultipartParameters) -> dict[str, Any]:
    """What discord.py's webhook adapter is given with ``params`` to answer
    ``interaction``: its session and proxy, the payload or its multipart form."""
    http = interaction.client.http
    return {
        "session": _session(interaction),
        "proxy": http.proxy,
        "proxy_auth": http.proxy_auth,
        "payload": params.payload,
        "multipart": params.multipart,
        "files": params.files,
    }


async def _callback(
    interaction: discord.Interaction,
    kind: InteractionResponseType,
    params: MultipartParameters,
    *,
    with_response: bool = False,
) -> Any:
    """Send ``interaction``'s one response, asking for no callback object back unless
    ``with_response`` (then Discord's callback object, parsed once by the adapter)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    http = interaction.client.http
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    data = await async_context.get().request(
        route,
        _session(interaction),
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params={"with_response": "1"} if with_response else None,
    )
    # what discord.py's InteractionResponse records once it has responded
    response._response_type = kind
    return data


async def _new_message(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions | None,
    view: Components | None,
    files: Sequence[discord.File] | None,
    with_response: bool,
) -> Any:
    """The response CHANNEL_MESSAGE_WITH_SOURCE to ``interaction`` sent, with Discord's
    callback object when ``with_response`` (see :func:`_callback`)."""
    kind = InteractionResponseType.channel_message
    fields = _message(
        interaction,
        content,
        ephemeral=ephemeral,
        allowed_mentions=allowed_mentions,
        view=view,
        files=files,
    )
    with interaction_message_response_params(type=kind.value, **fields) as params:
        return await _callback(interaction, kind, params, with_response=with_response)


async def respond(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Components | None = None,
    files: Sequence[discord.File] | None = None,
) -> None:
    """Answer ``interaction`` with a new message (CHANNEL_MESSAGE_WITH_SOURCE), as
    ``InteractionResponse.send_message`` does."""
    await _new_message(
        interaction,
        content,
        ephemeral=ephemeral,
        allowed_mentions=allowed_mentions,
        view=view,
        files=files,
        with_response=False,
    )


async def respond_public(
    interaction: discord.Interaction,
    content: str,
    *,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Components | None = None,
    files: Sequence[discord.File] | None = None,
) -> Sent:
    """Answer ``interaction`` with a new public message (CHANNEL_MESSAGE_WITH_SOURCE), as
    :func:`respond` does, asking for the callback object (``with_response``): the new
    message's id and channel, read from its ``resource.message``."""
    data = await _new_message(
        interaction,
        content,
        ephemeral=False,
        allowed_mentions=allowed_mentions,
        view=view,
        files=files,
        with_response=True,
    )
    message = data["resource"]["message"]
    return Sent(int(message["id"]), int(message["channel_id"]))


async def respond_update(
    interaction: discord.Interaction,
    *,
    content: Any = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Any = MISSING,
    attachments: Any = MISSING,
) -> None:
    """Answer a component's ``interaction`` by editing its message (UPDATE_MESSAGE), as
    ``InteractionResponse.edit_message`` does; ``view``/``attachments``: ``MISSING``
    kept, ``None``/``[]`` removed."""
    if interaction.type not in (InteractionType.component, InteractionType.modal_submit):
        raise ValueError("only a component's interaction can update its message")
    _refuse_tracked(view)
    kind = InteractionResponseType.message_update
    params = interaction_message_response_params(
        type=kind.value,
        content=content,
        view=view,
        attachments=attachments,
        allowed_mentions=MISSING if allowed_mentions is None else allowed_mentions,
        previous_allowed_mentions=interaction.client.allowed_mentions,
    )
    with params:
        await _callback(interaction, kind, params)


async def defer(interaction: discord.Interaction, *, thinking: bool, ephemeral: bool) -> None:
    """Acknowledge ``interaction`` now and answer later, as ``InteractionResponse.defer``
    does: a "thinking" message (ephemeral when asked), or for a component without
    ``thinking`` its message to be edited."""
    data: dict[str, Any] | None = None
    if interaction.type is InteractionType.application_command:
        kind = InteractionResponseType.deferred_channel_message
        ephemeral_flag = ephemeral
    elif interaction.type in (InteractionType.component, InteractionType.modal_submit):
        kind = (
            InteractionResponseType.deferred_channel_message
            if thinking
            else InteractionResponseType.deferred_message_update
        )
        ephemeral_flag = thinking and ephemeral
    else:
        raise ValueError(f"an interaction of type {interaction.type} is not deferred")
    if ephemeral_flag:
        data = {"flags": 64}
    await _callback(interaction, kind, interaction_response_params(kind.value, data))


async def edit_original(
    interaction: discord.Interaction,
    *,
    content: Any = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Any = MISSING,
    attachments: Any = MISSING,
) -> None:
    """Edit ``interaction``'s original response, as
    ``Interaction.edit_original_response`` does."""
    _refuse_tracked(view)
    with handle_message_parameters(
        content=content,
        attachments=attachments,
        view=view,
        allowed_mentions=MISSING if allowed_mentions is None else allowed_mentions,
        previous_allowed_mentions=interaction.client.allowed_mentions,
    ) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, **_webhook(interaction, params)
        )


async def followup(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Components | None = None,
    files: Sequence[discord.File] | None = None,
) -> Sent:
    """A follow-up message to ``interaction``, as ``interaction.followup.send`` sends it;
    the new message's id and channel."""
    fields = _message(
        interaction,
        content,
        ephemeral=ephemeral,
        allowed_mentions=allowed_mentions,
        view=view,
        files=files,
    )
    with handle_message_parameters(**fields) as params:
        data = await async_context.get().execute_webhook(
            interaction.application_id,
            interaction.token,
            **_webhook(interaction, params),
            wait=True,
            with_components=view is not None,
        )
    assert data is not None  # a follow-up's answer is always its message
    return Sent(int(data["id"]), int(data["channel_id"]))
