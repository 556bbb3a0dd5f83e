"""One slash-command group per registered game, generated from its verb table.

``/tigris tile colour:red square:F5`` builds the notation ``tile red F5``
and plays it through ``service.play.act`` exactly as ``/play`` does. Nothing
here names a game: the groups, their subcommands and options, their
descriptions and their autocomplete all come from each engine's declared
verbs (:mod:`bot.games.notation`).

Decisions:

* One subcommand per verb; one string option per parameter, named as the
  parameter; a ``rest`` parameter takes the rest of the notation as one
  option (``tiles: red red blue``); an ``optional`` parameter is an optional
  option. Descriptions come from the catalog keys
  ``cmd.<game>.description``, ``cmd.<game>.<verb>.description`` and
  ``cmd.<game>.param.<param>``.
* Autocomplete offers only legal values for the parameter being typed,
  given the ones already chosen: the engine's ``legal_values`` hook,
  asked through the service (nothing when it is not the user's turn). A
  value's label is its catalog name in the user's language next to the
  word sent. The engine stays the only judge: a value typed by hand is
  still checked when the command runs.
* Every option is at most :data:`MAX_PARAM` characters: Discord itself
  refuses longer text, so a refusal that quotes what was typed stays short.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import Param, build_command
from bot.discord.interactions import player_of
from bot.discord.messages import locale_language
from bot.discord.translator import L
from bot.games.base import GameEngine, Suggestion
from bot.games.notation import Verb
from bot.i18n import t
from bot.service import Outcome, Player

if TYPE_CHECKING:
    from bot.discord.client import ZigguratBot

log = logging.getLogger(__name__)

#: Discord shows at most 25 autocomplete choices
MAX_CHOICES = 25
#: the longest option value, and Discord's longest choice name
MAX_PARAM = 100


def option_word(value: Any) -> str | None:
    """A command option's value as the notation writes it; None when left out or blank."""
    word = None if value is None else str(value).strip()
    return word or None


def choice_name(suggestion: Suggestion, lang: str) -> str:
    """The word sent, with its label in the user's language when it has one (the label
    alone when it already starts with the word)."""
    if suggestion.label is None:
        return suggestion.value[:MAX_PARAM]
    key, params = suggestion.label
    label = t(lang, key, **params)
    name = label if label.startswith(suggestion.value) else f"{suggestion.value} — {label}"
    return name if len(name) <= MAX_PARAM else name[: MAX_PARAM - 1] + "…"


def verb_group(engine: GameEngine[Any, Any], bot: ZigguratBot) -> app_commands.Group:
    """``/<game>`` with a subcommand per verb of the engine."""
    group = app_commands.Group(
        name=engine.name, description=L(f"cmd.{engine.name}.description"), guild_only=True
    )
    for verb in engine.verbs.verbs.values():
        params = [
            Param(
                param.name,
                L(f"cmd.{engine.name}.param.{param.name}"),
                annotation=app_commands.Range[str, 1, MAX_PARAM],
                required=not param.optional,
                autocomplete=_completer(bot, verb, param.name),
            )
            for param in verb.params
        ]
        group.add_command(
            build_command(
                verb.name,
                L(f"cmd.{engine.name}.{verb.name}.description"),
                params,
                _player(bot, verb),
            )
        )
    return group


def _player(bot: ZigguratBot, verb: Verb) -> Any:
    async def handler(interaction: discord.Interaction, values: dict[str, Any]) -> None:
        action = verb.spell(option_word(values.get(param.name)) for param in verb.params)

        async def work(player: Player) -> Outcome:
            return await bot.service.play.act(interaction.channel_id or 0, player, action)

        await bot.responder.run(interaction, work)

    return handler


def _completer(bot: ZigguratBot, verb: Verb, name: str) -> Any:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        chosen = {
            p.name: str(getattr(interaction.namespace, p.name, "") or "")
            for p in verb.params
            if p.name != name
        }
        try:
            suggestions = await bot.service.reading.legal_values(
                interaction.channel_id or 0, player_of(interaction), verb.name, name, chosen
            )
        except Exception:
            log.exception("autocomplete failed in channel %s", interaction.channel_id)
            return []
        typed = current.strip().lower()
        lang = locale_language(interaction.locale)
        return [
            app_commands.Choice(name=choice_name(s, lang), value=s.value)
            for s in suggestions
            if typed in s.value.lower() and len(s.value) <= MAX_PARAM
        ][:MAX_CHOICES]

    return complete


class GamesCog(commands.Cog):
    """The generated ``/<game>`` groups of every registered game."""

    def __init__(self, bot: ZigguratBot) -> None:
        self.bot = bot
        self.groups = [
            verb_group(game_type.engine, bot)
            for _, game_type in sorted(bot.service.registry.items())
        ]

    async def cog_load(self) -> None:
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)


async def setup(bot: ZigguratBot) -> None:
    """The extension's entry point (``bot.load_extension``)."""
    await bot.add_cog(GamesCog(bot))
