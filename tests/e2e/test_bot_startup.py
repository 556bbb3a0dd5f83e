"""The bot logs in to the fake Discord, registers its commands and answers /help."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.i18n import t

from .bot_harness import BotHarness, open_harness
from .bot_harness import registry as games_registry
from .fake_discord import FakeDiscord


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def shape(options: list[dict]) -> list[tuple]:
    """Names, types, required flags, choices and autocomplete of options, recursively."""
    return [
        (
            o["name"],
            o["type"],
            o.get("required", False),
            tuple(c["value"] for c in o.get("choices") or []),
            o.get("autocomplete", False),
            tuple(shape(o.get("options") or [])),
        )
        for o in options
    ]


async def test_logs_in_with_guilds_intent_only(harness: BotHarness) -> None:
    fake = harness.fake
    assert fake.identify_payloads, "the bot never identified"
    assert fake.identify_payloads[-1]["intents"] == discord.Intents(guilds=True).value
    assert harness.running.user is not None
    assert harness.running.user.id == fake.bot_user.id
    # nobody is pinged unless a message names them
    assert harness.running.allowed_mentions is not None
    assert harness.running.allowed_mentions.to_dict() == {"parse": []}


async def test_registered_commands_match_the_code(harness: BotHarness) -> None:
    fake, bot = harness.fake, harness.running
    registered = {c["name"]: c for c in fake.guild_commands[harness.guild.id]}
    code = {
        c.name: c.to_dict(bot.tree)
        for c in bot.tree.get_commands(guild=discord.Object(harness.guild.id))
    }
    games = set(harness.running.service.registry)
    assert games >= {"tigris", "oracle", "relay"}
    assert set(registered) == set(code) == {"game", "play", "help"} | games
    for name, command in code.items():
        assert shape(registered[name].get("options") or []) == shape(command.get("options", []))
        assert registered[name]["description"] == command["description"]
    game = {o["name"]: o for o in registered["game"]["options"]}
    assert set(game) == {
        "new",
        "join",
        "leave",
        "start",
        "abandon",
        "status",
        "board",
        "hand",
        "log",
        "undo",
    }
    new = {
        o["name"]: {p["name"]: p for p in o.get("options") or []} for o in game["new"]["options"]
    }
    assert set(new) == games  # one subcommand per game, with that game's options only
    assert [c["value"] for c in new["tigris"]["scoring"]["choices"]] == ["hidden", "open"]
    assert [c["value"] for c in new["oracle"]["style"]["choices"]] == ["plain", "fancy"]
    assert set(new["relay"]) == set()
    # a game's verbs are its group's subcommands, each verb's parameters its options
    tigris = {o["name"]: o for o in registered["tigris"]["options"]}
    verbs = games_registry()["tigris"].engine.verbs.verbs
    assert list(tigris) == list(verbs)
    for verb in verbs.values():
        options = tigris[verb.name].get("options") or []
        assert [o["name"] for o in options] == [p.name for p in verb.params]
        assert all(o["autocomplete"] for o in options)
    assert registered["game"]["description"] == t("en", "cmd.game.description")
    # descriptions are translated from the catalogs
    localized = registered["game"].get("description_localizations") or {}
    assert localized.get("zh-CN") == t("zh", "cmd.game.description")
    assert localized.get("ko") == t("ko", "cmd.game.description")


async def test_help_answers_ephemerally(harness: BotHarness) -> None:
    itx = await harness.slash(harness.mallory, "help")
    assert itx.deferred and itx.ephemeral
    assert harness.public_of(itx) == []
    assert "/game new" in harness.ephemeral_text(itx)
    assert "oracle" in harness.ephemeral_text(itx)

    itx = await harness.slash(harness.mallory, "help", game="oracle")
    assert t("en", "oracle.help") in harness.ephemeral_text(itx)
    assert harness.public_messages() == []


async def test_every_answer_comes_within_the_deadline(harness: BotHarness) -> None:
    itx = await harness.slash(harness.alice, "game status")
    assert itx.acknowledged
    assert itx.rejected == []
    assert t("en", "error.no_game") in harness.ephemeral_text(itx)


async def test_global_sync_without_dev_guild(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with open_harness(fake_discord, tmp_path, global_commands=True) as harness:
        names = {c["name"] for c in fake_discord.global_commands}
        assert names == {"game", "play", "help"} | set(harness.running.service.registry)
        assert not fake_discord.guild_commands.get(harness.guild.id)
        itx = await harness.slash(harness.alice, "help")
        assert "/game new" in harness.ephemeral_text(itx)
        # /help also works in a DM; the game commands are not offered there
        dm = fake_discord.dm_channel(harness.alice)
        itx = await harness.slash(harness.alice, "help", channel=dm)
        assert "/game new" in harness.ephemeral_text(itx)
        with pytest.raises(ValueError, match="not allowed in DMs"):
            await fake_discord.slash(harness.alice, dm, "game status")


async def test_rejected_token_is_explained(
    fake_discord: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.config import Settings
    from bot.discord.client import serve

    settings = Settings(
        token="not-the-token",
        database=tmp_path / "bad-token.db",
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )
    assert await serve(settings) == 2
    assert t("en", "app.bad_token") in capsys.readouterr().err
    assert (tmp_path / "bad-token.db").exists()  # the store was opened, and closed again


async def test_serve_runs_until_sigterm(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The production entry point: built-in games only, global commands, SIGTERM stops it."""
    import asyncio
    import os
    import signal

    from bot.config import Settings
    from bot.discord.client import serve

    settings = Settings(
        token=fake_discord.token,
        database=tmp_path / "serve.db",
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )
    task = asyncio.create_task(serve(settings))
    await fake_discord.wait_ready(15)
    await fake_discord.wait_for(lambda: bool(fake_discord.global_commands), timeout=15)
    assert {c["name"] for c in fake_discord.global_commands} == {"game", "play", "help", "tigris"}
    handlers = asyncio.get_running_loop()._signal_handlers  # type: ignore[attr-defined]
    assert signal.SIGTERM in handlers, "serve() did not install its SIGTERM handler"
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0
    assert signal.SIGTERM not in handlers  # handed back on the way out
