"""The command tree's last resort: every error gets an ephemeral answer, none a traceback.

Commands run through :class:`~bot.discord.interactions.Responder`, which
answers refusals and failures itself. What reaches :meth:`ZigguratTree.on_error`
failed before that: an option value discord.py could not convert, a command
used outside a server, a command whose definition changed since the user's
Discord app loaded it, or a bug. Expected cases get their own catalog
message; anything else is logged with its traceback and answered with
``error.internal``. Either way the interaction gets its one INFO line and
is counted (:class:`~bot.discord.interactions.Handled`).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord.interactions import Handled
from bot.discord.messages import answer_ephemeral, locale_language
from bot.i18n import t

log = logging.getLogger(__name__)


def error_key(error: app_commands.AppCommandError) -> str:
    """The catalog key answering an error (``error.internal`` for the unexpected)."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "error.dm_only"
    if isinstance(error, app_commands.TransformerError):
        return "error.bad_input"
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return "error.outdated_command"
    return "error.internal"


class ZigguratTree(app_commands.CommandTree):
    """A command tree whose errors are answered ephemerally and logged."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        key = error_key(error)
        handled = Handled(interaction)
        if key == "error.internal":
            handled.failed()
            log.error(
                "unexpected error in %s",
                interaction.command.qualified_name if interaction.command else interaction.data,
                exc_info=error,
            )
        else:
            handled.refused(key)
            log.info("command refused before running: %r", error)
        if interaction.type is discord.InteractionType.autocomplete:
            return  # an autocomplete cannot carry a message; discord.py already logged it
        try:
            await answer_ephemeral(interaction, t(locale_language(interaction.locale), key))
        finally:
            handled.done()
            done = getattr(self.client, "interaction_done", None)
            if done is not None:
                done(interaction.id)
