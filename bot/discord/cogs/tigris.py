"""``/tigris <verb> ...``: Tigris & Euphrates moves with guided, legal-only choices.

One subcommand per action verb of the engine's notation (see
:mod:`bot.games.tigris.actions`): ``/tigris tile colour:red square:F5`` builds
``tile red F5`` and plays it through ``service.act`` like ``/play`` does.

Decisions:

* Autocomplete is derived from the notation of the user's legal actions
  (``service.legal_actions``), word by word: a parameter offers the words
  that legal actions of this verb have at its position, given the parameters
  already filled in. So ``square`` offers only the squares where the chosen
  tile colour may go, and nothing is offered when it is not the user's turn.
  The engine stays the only judge: a value typed by hand is still checked.
* ``swap`` and ``treasure`` take the rest of the notation as one parameter
  (``red red blue``, ``B2 K1``), offered whole.
* Choice names show the catalog's name of a colour or leader in the user's
  language next to the notation word, which is the value sent.
* Every parameter is at most :data:`MAX_PARAM` characters, as ``/play``'s
  action is: Discord itself refuses longer text, so a refusal that quotes
  what was typed stays one short message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command
from bot.discord.delivery import locale_language
from bot.discord.interactions import player_of
from bot.discord.translator import L
from bot.games.tigris.components import LEADER_NAMES
from bot.i18n import has_key, t
from bot.service import Outcome, Player, Refusal

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)

MAX_CHOICES = 25
#: the longest parameter value (the longest legal one, a six-tile swap, has 35)
MAX_PARAM = 100
COLOUR_OF_LEADER = {title: colour for colour, title in LEADER_NAMES.items()}


@dataclass(frozen=True)
class Verb:
    """A subcommand: the verb and its parameters, in notation order."""

    name: str
    params: tuple[str, ...] = ()
    rest: bool = False  # the last parameter takes every remaining word


VERBS: tuple[Verb, ...] = (
    Verb("leader", ("leader", "square")),
    Verb("withdraw", ("leader",)),
    Verb("tile", ("colour", "square")),
    Verb("catastrophe", ("square",)),
    Verb("swap", ("tiles",), rest=True),
    Verb("pass"),
    Verb("support", ("count",)),
    Verb("war", ("colour",)),
    Verb("treasure", ("squares",), rest=True),
    Verb("monument", ("monument", "square")),
    Verb("decline"),
)


def notation(verb: Verb, values: dict[str, Any]) -> str:
    return " ".join([verb.name, *(str(values[p]).strip() for p in verb.params)])


def candidates(verb: Verb, index: int, legal: list[str], filled: dict[str, str]) -> list[str]:
    """The values parameter ``index`` of ``verb`` can take among the legal notations."""
    found: list[str] = []
    for text in legal:
        words = text.split()
        if not words or words[0] != verb.name:
            continue
        args = words[1:]
        last = verb.rest and index == len(verb.params) - 1
        value = " ".join(args[index:]) if last else (args[index] if index < len(args) else "")
        if not value:
            continue
        if any(
            filled.get(name) and filled[name].lower() != args[j].lower()
            for j, name in enumerate(verb.params[:index])
            if j < len(args)
        ):
            continue
        if value not in found:
            found.append(value)
    return found


def choice_name(param: str, value: str, lang: str) -> str:
    """The notation word, with its catalog name when it has one (leaders, colours)."""
    key = None
    if param == "leader" and value in COLOUR_OF_LEADER:
        key = f"tigris.leader.{COLOUR_OF_LEADER[value]}"
    elif param == "colour":
        key = f"tigris.colour.{value}"
    if key is None or not has_key(key):
        return value
    named = t(lang, key)
    return value if named == value else f"{value} ({named})"


class TigrisCog(commands.Cog):
    """``/tigris``."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.group = app_commands.Group(
            name="tigris", description=L("cmd.tigris.description"), guild_only=True
        )
        for verb in VERBS:
            params = [
                Param(
                    name,
                    L(f"cmd.tigris.param.{name}"),
                    annotation=app_commands.Range[str, 1, MAX_PARAM],
                    autocomplete=self._completer(verb, index),
                )
                for index, name in enumerate(verb.params)
            ]
            command = build_command(
                verb.name,
                L(f"cmd.tigris.{verb.name}.description"),
                params,
                self._player(verb),
            )
            self.group.add_command(command)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    def _player(self, verb: Verb) -> Any:
        async def handler(interaction: discord.Interaction, values: dict[str, Any]) -> None:
            action = notation(verb, values)

            async def work(player: Player) -> Outcome:
                return await self.service.act(interaction.channel_id or 0, player, action)

            await self.bot.responder.run(interaction, work)

        return handler

    def _completer(self, verb: Verb, index: int) -> Any:
        name = verb.params[index]

        async def complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            try:
                actions = await self.service.legal_actions(
                    interaction.channel_id or 0, player_of(interaction)
                )
            except Refusal:
                return []
            except Exception:
                log.exception("tigris autocomplete failed in %s", interaction.channel_id)
                return []
            filled = {
                p: str(getattr(interaction.namespace, p, "") or "") for p in verb.params[:index]
            }
            values = candidates(verb, index, [str(a) for a in actions], filled)
            typed = current.strip().lower()
            lang = locale_language(interaction.locale)
            return [
                app_commands.Choice(name=choice_name(name, v, lang), value=v)
                for v in values
                if typed in v.lower()
            ][:MAX_CHOICES]

        return complete
