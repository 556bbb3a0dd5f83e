"""``/game pause|resume|extend|replace|resign|back|auto|notify``: keeping a table playing for days.

They join the ``/game`` group made by :class:`~bot.discord.cogs.lobby.LobbyCog`.

Decisions:

* The host's commands (pause, resume, extend, replace) pass whether the
  member can manage the channel; the service decides who may use them.
* ``/game add-computer`` and ``/game remove-computer`` seat and remove the
  lobby's computer players (:mod:`bot.service.computer`); ``/game replace``
  names the seat by member (``old``) or number (``seat``) and the newcomer
  by member (``new``) or computer level (``computer``).
* ``/game resign`` asks for a confirmation with an ephemeral danger button
  (:class:`~bot.discord.buttons.ResignButton`).
* ``/game notify`` works anywhere in a server (it is remembered per user,
  for every game); the others need the channel's game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command, game_group
from bot.discord.translator import L
from bot.games.computer import LEVELS
from bot.service import Outcome, Player, Refusal
from bot.service.seats import NOTIFY

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot


def _choices(prefix: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=L(f"{prefix}.{v}"), value=v) for v in values]


class SeatsCog(commands.Cog):
    """The seat commands in the ``/game`` group, served by :mod:`bot.service.seats`."""

    def __init__(self, bot: ZigguratBot, group: app_commands.Group) -> None:
        self.bot = bot
        self.service = bot.service
        self.group = group
        for name in ("pause", "resume", "extend"):
            self._add(name, [], self._host(name))
        self._add(
            "replace",
            [
                Param("old", L("cmd.game.replace.old"), annotation=discord.User, required=False),
                Param("new", L("cmd.game.replace.new"), annotation=discord.Member, required=False),
                Param(
                    "computer",
                    L("cmd.game.replace.computer"),
                    required=False,
                    choices=_choices("cmd.game.computer", LEVELS),
                ),
                Param("seat", L("cmd.game.replace.seat"), annotation=int, required=False),
            ],
            self.replace,
        )
        self._add(
            "add-computer",
            [
                Param(
                    "level",
                    L("cmd.game.add-computer.level"),
                    choices=_choices("cmd.game.computer", LEVELS),
                )
            ],
            self.add_computer,
        )
        self._add("remove-computer", [], self.remove_computer)
        self._add("resign", [], self.resign)
        self._add("back", [], self.back)
        self._add(
            "auto",
            [
                Param(
                    "answers",
                    L("cmd.game.auto.answers"),
                    choices=_choices("cmd.game.auto", ("on", "off")),
                )
            ],
            self.auto,
        )
        self._add(
            "notify",
            [Param("how", L("cmd.game.notify.how"), choices=_choices("cmd.game.notify", NOTIFY))],
            self.notify,
        )

    def _add(self, name: str, params: list[Param], handler: Any) -> None:
        self.group.add_command(
            build_command(name, L(f"cmd.game.{name}.description"), params, handler)
        )

    def _host(self, name: str) -> Any:
        call = getattr(self.service.seats, name)

        async def handler(interaction: discord.Interaction, values: dict[str, Any]) -> None:
            async def work(player: Player) -> Outcome:
                outcome: Outcome = await call(
                    interaction.channel_id or 0,
                    player,
                    can_manage_channel=interaction.permissions.manage_channels,
                )
                return outcome

            await self.bot.responder.run(interaction, work)

        return handler

    async def replace(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        old: discord.abc.User | None = values.get("old")
        new: discord.abc.User | None = values.get("new")

        async def work(player: Player) -> Outcome:
            if new is not None and new.bot:
                raise Refusal("error.replace_bot")
            return await self.service.seats.replace(
                interaction.channel_id or 0,
                player,
                old.id if old is not None else None,
                Player(new.id, new.display_name) if new is not None else None,
                can_manage_channel=interaction.permissions.manage_channels,
                computer=values.get("computer"),
                seat_number=values.get("seat"),
            )

        await self.bot.responder.run(interaction, work)

    async def add_computer(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        level = str(values["level"])

        async def work(player: Player) -> Outcome:
            return await self.service.lobby.add_computer(interaction.channel_id or 0, player, level)

        await self.bot.responder.run(interaction, work)

    async def remove_computer(
        self, interaction: discord.Interaction, values: dict[str, Any]
    ) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.lobby.remove_computer(interaction.channel_id or 0, player)

        await self.bot.responder.run(interaction, work)

    async def resign(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.seats.resign(
                interaction.channel_id or 0, player, confirmed=False
            )

        await self.bot.responder.run(interaction, work)

    async def back(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        async def work(player: Player) -> Outcome:
            return await self.service.seats.back(interaction.channel_id or 0, player)

        await self.bot.responder.run(interaction, work)

    async def auto(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        on = values["answers"] == "on"

        async def work(player: Player) -> Outcome:
            return await self.service.seats.auto(interaction.channel_id or 0, player, on=on)

        await self.bot.responder.run(interaction, work)

    async def notify(self, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        how = str(values["how"])

        async def work(player: Player) -> Outcome:
            return await self.service.seats.notify(player, how)

        await self.bot.responder.run(interaction, work, game_command=False)


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(SeatsCog(bot, game_group(bot.tree)))
