"""``/game``: new, join, leave, start, abandon, status, board, hand, log.

Decisions:

* ``/game new`` takes the game as a required choice and one optional parameter
  per lobby option name of the registered games (``scoring``, ``style``...),
  each a fixed list of choices — no free text where a list exists. A value
  set for an option the chosen game does not have is refused by the service
  (``error.unknown_option``).
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

from bot.discord.buttons import AbandonButton, ButtonView
from bot.discord.commands import Param, build_command
from bot.discord.delivery import locale_language
from bot.discord.translator import L
from bot.games.base import OptionSpec
from bot.i18n import has_key, t
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

DEFAULT_LOG_COUNT = 10
RESERVED = frozenset({"game"})


def option_specs(bot: ZigguratBot) -> dict[str, OptionSpec]:
    """Every lobby option name of the registered games, with the union of its values."""
    merged: dict[str, OptionSpec] = {}
    for name in sorted(bot.service.registry):
        for spec in bot.service.registry[name].engine.options:
            if spec.name in RESERVED:
                raise ValueError(f"game {name}: option name {spec.name!r} is reserved")
            known = merged.get(spec.name)
            if known is None:
                merged[spec.name] = spec
            else:
                values = known.choices + tuple(v for v in spec.choices if v not in known.choices)
                merged[spec.name] = OptionSpec(spec.name, values, known.description_key)
    return merged


def _choice_name(spec: OptionSpec, value: str) -> str | app_commands.locale_str:
    key = f"{spec.description_key}.{value}"
    return L(key) if has_key(key) else value


class LobbyCog(commands.Cog):
    """The ``/game`` group."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.group = app_commands.Group(
            name="game", description=L("cmd.game.description"), guild_only=True
        )
        games = sorted(self.service.registry.items())
        new_params = [
            Param(
                "game",
                L("cmd.game.new.game"),
                choices=[
                    app_commands.Choice(name=L(gt.engine.title_key), value=name)
                    for name, gt in games
                ],
            )
        ] + [
            Param(
                spec.name,
                L(spec.description_key),
                required=False,
                choices=[
                    app_commands.Choice(name=_choice_name(spec, v), value=v) for v in spec.choices
                ],
            )
            for spec in option_specs(bot).values()
        ]
        simple = {
            "join": self.join,
            "leave": self.leave,
            "start": self.start,
            "abandon": self.abandon,
            "status": self.status,
            "board": self.board,
            "hand": self.hand,
        }
        self._add("new", new_params, self.new)
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

    async def new(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        game = values.pop("game")

        async def work(player: Player) -> Outcome:
            return await self.service.new_game(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user=player,
                game_type_name=game,
                options=values,
                language=str(interaction.guild_locale or "en"),
            )

        await self.bot.responder.run(interaction, work)

    async def join(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.join)

    async def leave(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.leave)

    async def start(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.start)

    async def hand(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        await self._channel_command(interaction, self.service.hand, private_inline=True)

    async def status(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.status(interaction.channel_id or 0)

        await self.bot.responder.run(interaction, work)

    async def board(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.board(interaction.channel_id or 0)

        await self.bot.responder.run(interaction, work)

    async def log(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        count = int(values.get("count", DEFAULT_LOG_COUNT))

        async def work(player: Player) -> Outcome:
            return await self.service.log_lines(interaction.channel_id or 0, count)

        await self.bot.responder.run(interaction, work)

    async def abandon(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.abandon(
                interaction.channel_id or 0,
                player,
                can_manage_channel=interaction.permissions.manage_channels,
                confirmed=False,
            )

        def confirm(outcome: Outcome) -> discord.ui.View | None:
            if outcome.game_id is None or not outcome.choices:
                return None
            view = ButtonView()
            label = t(locale_language(interaction.locale), "lobby.confirm_button")
            view.add_item(AbandonButton(outcome.game_id, label))
            return view

        await self.bot.responder.run(interaction, work, reply_view=confirm)

    async def _channel_command(
        self, interaction: discord.Interaction, call: Any, *, private_inline: bool = False
    ) -> None:
        async def work(player: Player) -> Outcome:
            return await call(interaction.channel_id or 0, player)

        await self.bot.responder.run(interaction, work, private_inline=private_inline)
