"""After the game: ``/game export`` and ``/stats [member]``.

Decisions:

* ``/game export`` joins the ``/game`` group of :class:`~bot.discord.cogs.lobby.LobbyCog`
  (this cog is loaded after it and adds its subcommand to the group before the
  tree is synced). Its answer is ephemeral: the record and the animation hold
  only information that is public once the game is over, but they are for
  whoever asked, and a channel need not see a 3 MB animation each time
  someone wants a copy. The files go with the deferred answer itself
  (``edit_original_response``), so the asker sees them where they asked.
* The upload budget is Discord's 10 MiB for both files together
  (:data:`~bot.service.after.EXPORT_BUDGET`), lowered to the interaction's
  own ``attachment_size_limit`` should Discord report less.
* Outcomes carry images, not files, so this one command answers by itself
  rather than through :class:`~bot.discord.delivery.Delivery`, but with the
  same guarded path (:func:`bot.discord.interactions.guard`): a DM is refused
  at once, the answer is deferred, a :class:`~bot.service.Refusal` is
  answered with its reason, anything else is logged and answered with
  ``error.internal``, and the interaction is logged, counted and reported
  done either way (tests wait on that).
* ``/stats`` answers ephemerally in the asker's language; it never pings
  (names, not mentions).
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import rest
from bot.discord.commands import Param, build_command, game_group
from bot.discord.interactions import Handled, guard
from bot.discord.messages import locale_language, render
from bot.discord.translator import L
from bot.i18n import Text
from bot.service import Outcome, Player
from bot.service.after import EXPORT_BUDGET, Export

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)


class AfterCog(commands.Cog):
    """``/game export`` and ``/stats``."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.export_command = build_command(
            "export", L("cmd.game.export.description"), [], self.export
        )
        member = Param("member", L("cmd.stats.member"), annotation=discord.Member, required=False)
        self.stats_command = build_command(
            "stats", L("cmd.stats.description"), [member], self.stats
        )
        self.stats_command.guild_only = True
        self._group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        group = game_group(self.bot.tree)
        group.add_command(self.export_command)
        self._group = group
        self.bot.tree.add_command(self.stats_command)

    async def cog_unload(self) -> None:
        if self._group is not None:
            self._group.remove_command(self.export_command.name)
            self._group = None
        self.bot.tree.remove_command(self.stats_command.name)

    # -- /stats -----------------------------------------------------------------

    async def stats(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        chosen = values.get("member")
        member = (
            Player(chosen.id, chosen.display_name)
            if isinstance(chosen, discord.User | discord.Member)
            else None
        )

        async def work(player: Player) -> Outcome:
            return await self.service.after.stats(interaction.guild_id or 0, member)

        await self.bot.responder.run(interaction, work, game_command=False)

    # -- /game export -------------------------------------------------------------

    async def export(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player, handled: Handled) -> None:
            await self._export(interaction, handled)

        await guard(interaction, work, say=self._say, on_done=self.bot.interaction_done)

    async def _export(self, interaction: discord.Interaction, handled: Handled) -> None:
        budget = min(EXPORT_BUDGET, int(getattr(interaction, "filesize_limit", EXPORT_BUDGET)))
        exported = await self.service.after.export(interaction.channel_id or 0, budget=budget)
        handled.game = exported.game_id
        try:
            await rest.edit_original(
                interaction,
                content=render(exported.lines, locale_language(interaction.locale))[:2000],
                attachments=_files(exported),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            handled.failed()
            log.exception("could not upload the export of game %s", exported.game_id)
            try:
                await self._say(interaction, Text("after.error.export_upload"))
            except discord.HTTPException:
                log.exception("could not answer interaction %s", interaction.id)

    async def _say(self, interaction: discord.Interaction, text: Text) -> None:
        await self.bot.delivery.ephemeral(interaction, [text])


def _files(exported: Export) -> list[discord.File]:
    files = [discord.File(io.BytesIO(exported.record), filename=exported.record_name)]
    if exported.animation is not None:
        files.append(discord.File(io.BytesIO(exported.animation), filename=exported.animation_name))
    return files


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(AfterCog(bot))
