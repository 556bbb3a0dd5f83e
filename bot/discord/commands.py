"""Slash commands whose parameters are data, not a Python signature.

``/game new <game>`` takes one optional parameter per lobby option of that
game, and each ``/<game>`` group one subcommand per verb of its verb table;
both are only known at start-up. discord.py reads a command's parameters from its callback's
signature, so :func:`build_command` gives a generic callback an explicit
``__signature__`` (and the description/choice attributes its decorators would
set). The callback collects the values into a dict for ``handler``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import discord
from discord import app_commands

Handler = Callable[[discord.Interaction, dict[str, Any]], Awaitable[None]]
Autocomplete = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


@dataclass(frozen=True)
class Param:
    """One slash-command parameter (a string unless ``annotation`` says otherwise)."""

    name: str
    description: app_commands.locale_str
    annotation: Any = str
    required: bool = True
    choices: Sequence[app_commands.Choice[Any]] | None = None
    autocomplete: Autocomplete | None = None


def build_command(
    name: str,
    description: app_commands.locale_str,
    params: Sequence[Param],
    handler: Handler,
    *,
    parent: app_commands.Group | None = None,
) -> app_commands.Command[Any, ..., None]:
    """A command calling ``handler(interaction, {param: value})``; unset options are absent."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await handler(interaction, {k: v for k, v in values.items() if v is not None})

    signature = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for param in sorted(params, key=lambda p: not p.required):  # Discord: required first
        signature.append(
            inspect.Parameter(
                param.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if param.required else None,
                annotation=param.annotation if param.required else Optional[param.annotation],  # noqa: UP045
            )
        )
    callback.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        p.name: p.description for p in params
    }
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        p.name: list(p.choices) for p in params if p.choices
    }
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description, callback=callback, parent=parent
    )
    for param in params:
        if param.autocomplete is not None:
            command.autocomplete(param.name)(param.autocomplete)
    return command


def game_group(tree: app_commands.CommandTree[Any]) -> app_commands.Group:
    """The ``/game`` group of ``tree`` (made by :mod:`bot.discord.cogs.lobby`, loaded first);
    RuntimeError when it is not there yet."""
    group = tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /game group is missing: load bot.discord.cogs.lobby first")
    return group
