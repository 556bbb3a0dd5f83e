"""``/game``: new, join, leave, start, undo, abandon, status, board, hand, log.

Decisions:

* ``/game new <game> [options]``: ``new`` is a subcommand group with one
  subcommand per registered game, whose options are that game's lobby
  options only, each a fixed list of choices — no free text where a list
  exists, and no value another game would accept.
* ``/game undo`` takes back the user's last step (also a button on the
  step's preview).
* ``/game abandon`` first asks for confirmation with an ephemeral danger
  button (:class:`~bot.discord.buttons.AbandonButton`); the click checks again
  who may abandon (the creator, or anyone with Manage Channels here).
* ``/game hand`` answers ephemerally, never by DM: the user asked in the channel.
* Every command is guild-only: a game lives in a server channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command
from bot.discord.translator import L
from bot.games.base import GameType, OptionSpec
from bot.i18n import Text, has_key, t
from bot.service import Outcome, Player, Refusal
from bot.service.turn_clock import all_options

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

DEFAULT_LOG_COUNT = 10


def _choice_name(spec: OptionSpec, value: str) -> str | app_commands.locale_str:
    key = f"{spec.description_key}.{value}"
    return L(key) if has_key(key) else value


def option_params(game_type: GameType) -> list[Param]:
    """One optional parameter per lobby option of a game and of the table, its values as
    choices, and whether to open the game in a new thread."""
    return [
        Param(
            spec.name,
            L(spec.description_key),
            required=False,
            choices=[
                app_commands.Choice(name=_choice_name(spec, v), value=v) for v in spec.choices
            ],
        )
        for spec in all_options(game_type)
    ] + [Param("thread", L("cmd.game.new.thread"), annotation=bool, required=False)]


class LobbyCog(commands.Cog):
    """The ``/game`` group."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.group = app_commands.Group(
            name="game", description=L("cmd.game.description"), guild_only=True
        )
        new = app_commands.Group(
            name="new", description=L("cmd.game.new.description"), parent=self.group
        )
        for name, game_type in sorted(self.service.registry.items()):
            new.add_command(
                build_command(
                    name,
                    L("cmd.game.new.game_description", game=Text(game_type.engine.title_key)),
                    option_params(game_type),
                    self._new(name),
                )
            )
        simple = {
            "join": self.join,
            "leave": self.leave,
            "start": self.start,
            "undo": self.undo,
            "abandon": self.abandon,
            "status": self.status,
            "board": self.board,
            "hand": self.hand,
        }
        for name, handler in simple.items():
            self._add(name, [], handler)
        count = Param(
            "count",
            L("cmd.game.log.count"),
            annotation=app_commands.Range[int, 1, 50],
            required=False,
        )
        self._add("log", [count], self.log)

    def _add(self, name: str, params: list[Param], handler: Any) -> None:
        command = build_command(name, L(f"cmd.game.{name}.description"), params, handler)
        self.group.add_command(command)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    # -- handlers -------------------------------------------------------------

    def _new(self, game: str) -> Any:
        async def new(interaction: discord.Interaction, values: dict[str, Any]) -> None:
            in_thread = bool(values.pop("thread", False))

            async def work(player: Player) -> Outcome:
                channel_id = interaction.channel_id or 0
                if in_thread:
                    channel_id = await self._thread(interaction, game, player)
                outcome = await self.service.lobby.new_game(
                    guild_id=interaction.guild_id,
                    channel_id=channel_id,
                    user=player,
                    game_type_name=game,
                    options=values,
                    language=str(interaction.guild_locale or "en"),
                )
                if in_thread:
                    if outcome.news is not None:
                        outcome.news.in_channel = True
                    outcome.reply.lines = [
                        Text("lobby.created_in_thread", {"thread": f"<#{channel_id}>"})
                    ]
                return outcome

            await self.bot.responder.run(interaction, work)

        return new

    async def _thread(self, interaction: discord.Interaction, game: str, player: Player) -> int:
        """A new public thread of the channel for the game; a refusal if it cannot be made."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal("error.thread_here")
        title = t(
            str(interaction.guild_locale or "en"), self.service.registry[game].engine.title_key
        )
        name = t(
            str(interaction.guild_locale or "en"),
            "lobby.thread_name",
            game=title,
            player=player.name,
        )
        try:
            thread = await channel.create_thread(
                name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException:
            raise Refusal("error.thread_failed") from None
        return thread.id

    async def join(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.lobby.join)

    async def leave(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.lobby.leave)

    async def start(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.lobby.start)

    async def undo(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.play.undo)

    async def hand(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.reading.hand, private_inline=True)

    async def status(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.reading.status(interaction.channel_id or 0)

        await self.bot.responder.run(interaction, work)

    async def board(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.reading.board(interaction.channel_id or 0)

        await self.bot.responder.run(interaction, work)

    async def log(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        count = int(values.get("count", DEFAULT_LOG_COUNT))

        async def work(player: Player) -> Outcome:
            return await self.service.reading.log_lines(interaction.channel_id or 0, count)

        await self.bot.responder.run(interaction, work)

    async def abandon(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.lobby.abandon(
                interaction.channel_id or 0,
                player,
                can_manage_channel=interaction.permissions.manage_channels,
                confirmed=False,
            )

        await self.bot.responder.run(interaction, work)

    async def _channel_command(
        self, interaction: discord.Interaction, call: Any, *, private_inline: bool = False
    ) -> None:
        async def work(player: Player) -> Outcome:
            outcome: Outcome = await call(interaction.channel_id or 0, player)
            return outcome

        await self.bot.responder.run(interaction, work, private_inline=private_inline)


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(LobbyCog(bot))
