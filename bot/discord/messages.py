"""Discord's message limits and the small helpers every answer uses: a locale's
language, lines rendered, text split to fit, a PNG attached, an ephemeral answer.

Decisions:

* Text over Discord's :data:`MAX_CONTENT` characters is split by lines (a single
  overlong line is cut hard), never refused.
* An ephemeral answer that cannot be sent is logged, never raised: nobody is
  waiting for it but the clicker, whose client shows the failure.
* An interaction answered first (:func:`answering`) is acknowledged only if its
  answer is not ready :data:`ANSWER_WITHIN` seconds after Discord made it: a
  ready answer is the interaction's response itself (one request, not a
  "thinking" acknowledgement and then its edit). :func:`original_response`
  sends or edits that response under the interaction's lock, so a late
  acknowledgement and the answer never both respond.
* A hand-off's public message may be the response itself
  (:func:`public_response`, :mod:`bot.discord.delivery` decides when): under the
  same lock, so it and a late acknowledgement never both respond; one that finds
  the interaction acknowledged already is not sent (the caller follows up).
* Answers go through :mod:`bot.discord.rest` (discord.py's payloads and errors,
  no message built from Discord's answer, which nothing reads).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord import rest
from bot.discord.components import Components
from bot.i18n import Text, language_of

log = logging.getLogger(__name__)

#: Discord's limit on a message's content
MAX_CONTENT = 2000
#: the file name of a player's private view (their hand)
HAND_FILE = "hand.png"
#: the file name of the zoomed region where a player can act (beside the board)
ZOOM_FILE = "zoom.png"
#: how long after Discord made an interaction its answer may wait before the bot
#: acknowledges it (Discord wants the first response within 3 seconds)
ANSWER_WITHIN = 1.5

#: interactions answered first (:func:`answering`): their lock, and whether their
#: response updates the clicked message (else it is a new ephemeral message)
_answering: dict[int, tuple[asyncio.Lock, bool]] = {}


def locale_language(locale: discord.Locale | str | None) -> str:
    """The catalog language of a Discord locale (``None`` means English)."""
    return language_of(None if locale is None else str(locale))


def render(lines: Sequence[Text], lang: str) -> str:
    return "\n".join([line.render(lang) for line in lines])


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split text into message-sized parts, at line breaks where possible."""
    if len(text) <= limit:  # the commonest: one part, as it is
        return [text]
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single overlong line is cut hard
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    if current or not parts:
        parts.append(current)
    return parts


def png(data: bytes, filename: str) -> discord.File:
    """A fresh file object (discord.File streams are consumed by one send)."""
    return discord.File(io.BytesIO(data), filename=filename)


async def answer_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer ephemerally without deferring, or follow up if already answered; never raises."""
    try:
        if interaction.response.is_done():
            await rest.followup(interaction, content, ephemeral=True)
        else:
            await rest.respond(interaction, content, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


def age_of(interaction: discord.Interaction) -> float:
    """Seconds since Discord made ``interaction`` (its snowflake's time)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


@contextlib.asynccontextmanager
async def answering(
    interaction: discord.Interaction,
    acknowledge: Callable[[], Awaitable[None]],
    *,
    update: bool,
    on_late: Callable[[], None],
) -> AsyncIterator[None]:
    """Inside, ``interaction`` is answered first: ``acknowledge()`` runs only if no
    response was sent :data:`ANSWER_WITHIN` seconds after Discord made it (or after
    it arrived, whichever is sooner) (``on_late``
    when Discord refuses that acknowledgement), and at the end if none was sent."""
    lock = asyncio.Lock()
    _answering[interaction.id] = (lock, update)

    async def once() -> None:
        async with lock:
            if interaction.response.is_done():
                return
            try:
                await acknowledge()
            except discord.HTTPException:
                on_late()
                log.warning("could not acknowledge interaction %s in time", interaction.id)

    late: list[asyncio.Task[None]] = []  # a timer, not a task: most answers are in time
    # never later than ANSWER_WITHIN after it arrived either: a clock behind
    # Discord's would otherwise make an interaction look younger than it is
    timer = asyncio.get_running_loop().call_later(
        max(0.0, min(ANSWER_WITHIN, ANSWER_WITHIN - age_of(interaction))),
        lambda: late.append(asyncio.create_task(once())),
    )
    try:
        yield
    finally:
        timer.cancel()
        try:
            for task in late:
                await task
            if not interaction.response.is_done():
                await once()
        finally:
            _answering.pop(interaction.id, None)


async def original_response(
    interaction: discord.Interaction,
    *,
    content: str,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Any = discord.utils.MISSING,
    attachments: Any = discord.utils.MISSING,
) -> None:
    """Edit ``interaction``'s original response; an interaction answered first
    (:func:`answering`) and not acknowledged yet gets these as its response
    instead (a new ephemeral message, or the clicked message updated). ``view``
    and ``attachments`` as :meth:`discord.Interaction.edit_original_response`'s
    (``MISSING``: kept, ``None`` / ``[]``: removed)."""
    fields: dict[str, Any] = {
        "content": content,
        "allowed_mentions": allowed_mentions,
        "view": view,
        "attachments": attachments,
    }
    entry = _answering.get(interaction.id)
    if entry is None:
        await rest.edit_original(interaction, **fields)
        return
    lock, update = entry
    async with lock:
        if interaction.response.is_done():
            await rest.edit_original(interaction, **fields)
        elif update:
            await rest.respond_update(interaction, **fields)
        else:
            await rest.respond(
                interaction,
                content,
                ephemeral=True,
                allowed_mentions=allowed_mentions,
                view=None if view is discord.utils.MISSING else view,
                files=None if attachments is discord.utils.MISSING else attachments,
            )


def answering_first(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` is answered first (:func:`answering`) with a new message
    and has no response yet: its response may still be a public message
    (:func:`public_response`)."""
    entry = _answering.get(interaction.id)
    return entry is not None and not entry[1] and not interaction.response.is_done()


async def public_response(
    interaction: discord.Interaction,
    content: str,
    *,
    allowed_mentions: discord.AllowedMentions | None = None,
    view: Components | None = None,
    files: Sequence[discord.File] | None = None,
) -> rest.Sent | None:
    """Answer ``interaction`` (answered first, :func:`answering`) with a public message
    as its response, under the interaction's lock; the message posted, or None when it
    was responded to already (acknowledged meanwhile): the caller then follows up."""
    entry = _answering.get(interaction.id)
    if entry is None or entry[1]:
        return None
    async with entry[0]:
        if interaction.response.is_done():
            return None
        return await rest.respond_public(
            interaction, content, allowed_mentions=allowed_mentions, view=view, files=files
        )
