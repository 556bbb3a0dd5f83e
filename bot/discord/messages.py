"""Discord's message limits and the small helpers every answer uses: a locale's
language, lines rendered, text split to fit, a PNG attached, an ephemeral answer.

Decisions:

* Text over Discord's :data:`MAX_CONTENT` characters is split by lines (a single
  overlong line is cut hard), never refused.
* An ephemeral answer that cannot be sent is logged, never raised: nobody is
  waiting for it but the clicker, whose client shows the failure.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence

import discord

from bot.i18n import Text, language_of

log = logging.getLogger(__name__)

#: Discord's limit on a message's content
MAX_CONTENT = 2000
#: the file name of a player's private view (their hand)
HAND_FILE = "hand.png"
#: the file name of the zoomed region where a player can act (beside the board)
ZOOM_FILE = "zoom.png"


def locale_language(locale: discord.Locale | str | None) -> str:
    """The catalog language of a Discord locale (``None`` means English)."""
    return language_of(None if locale is None else str(locale))


def render(lines: Sequence[Text], lang: str) -> str:
    return "\n".join(line.render(lang) for line in lines)


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split text into message-sized parts, at line breaks where possible."""
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
            await interaction.followup.send(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)
