"""The bot logs in to the fake Discord, registers its commands and answers /help."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import discord.gateway
import discord.http
import pytest

from bot.config import Settings
from bot.discord.lifecycle import Backoff, serve
from bot.i18n import t
from bot.logs import OneLineFormatter

from .bot_harness import BotHarness, open_harness, registry
from .fake_discord import CallbackType, FakeDiscord


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
    assert set(registered) == set(code) == {"game", "play", "help", "rules", "stats"} | games
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
        "pause",
        "resume",
        "extend",
        "replace",
        "add-computer",
        "remove-computer",
        "resign",
        "back",
        "auto",
        "notify",
        "mine",
        "export",
    }
    new = {
        o["name"]: {p["name"]: p for p in o.get("options") or []} for o in game["new"]["options"]
    }
    assert set(new) == games  # one subcommand per game, with that game's options only
    assert [c["value"] for c in new["tigris"]["scoring"]["choices"]] == ["hidden", "open"]
    assert [c["value"] for c in new["oracle"]["style"]["choices"]] == ["plain", "fancy"]
    assert set(new["relay"]) == {"clock", "absent", "thread"}  # the table's options only
    # a game's verbs are its group's subcommands, each verb's parameters its options
    tigris = {o["name"]: o for o in registered["tigris"]["options"]}
    verbs = registry()["tigris"].engine.verbs.verbs
    assert list(tigris) == list(verbs)
    for verb in verbs.values():
        options = tigris[verb.name].get("options") or []
        assert [o["name"] for o in options] == [p.name for p in verb.params]
        assert all(o["autocomplete"] for o in options)
    assert registered["game"]["description"] == t("en", "cmd.game.description")
    # descriptions are translated from the catalogs
    localized = registered["game"].get("description_localizations") or {}
    assert localized.get("zh-CN") == t("zh", "cmd.game.description")
    assert localized.get("zh-TW") == t("zh-TW", "cmd.game.description")
    assert localized.get("zh-TW") != localized.get("zh-CN")
    assert localized.get("ko") == t("ko", "cmd.game.description")


#: the test games of the harness, whose catalogs are English only
TEST_GAMES = ("oracle", "relay")


def localizations(node: dict) -> Iterator[tuple[str, dict]]:
    """(English text, its localizations) of every description and choice name of a
    command, recursively, leaving out the test games' subcommands."""
    yield node["description"], node.get("description_localizations") or {}
    for option in node.get("options") or []:
        if option["name"] in TEST_GAMES:
            continue
        if option.get("type") in (1, 2):  # a subcommand or a group
            yield from localizations(option)
            continue
        yield option["description"], option.get("description_localizations") or {}
        for choice in option.get("choices") or []:
            if choice["value"] not in TEST_GAMES:
                yield choice["name"], choice.get("name_localizations") or {}


async def test_every_command_string_has_every_catalog_language(harness: BotHarness) -> None:
    """Discord shows each catalog language's own text: Simplified Chinese to zh-CN,
    Traditional to zh-TW, Korean to ko, for every description and choice name of
    every command of the real games (the test game ``oracle`` is English-only)."""
    checked, kept = 0, []
    for command in harness.fake.guild_commands[harness.guild.id]:
        if command["name"] in TEST_GAMES:
            continue
        for english, localized in localizations(command):
            checked += 1
            assert {"zh-CN", "zh-TW", "ko"} <= localized.keys(), (command["name"], english)
            if localized["zh-TW"] == english and not english.isdigit():  # numbers are numbers
                kept.append(english)
    assert checked > 100
    # nothing kept in English: even Temple Rush is 神廟急建 (temple.title) in zh-TW
    assert kept == []


async def test_help_answers_ephemerally(harness: BotHarness) -> None:
    itx = await harness.slash(harness.mallory, "help")
    assert itx.callback_type == CallbackType.CHANNEL_MESSAGE and itx.ephemeral
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
        assert names == {"game", "play", "help", "rules", "stats"} | set(
            harness.running.service.registry
        )
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
    from bot.discord.lifecycle import serve

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
    from bot.discord.lifecycle import serve

    settings = Settings(
        token=fake_discord.token,
        database=tmp_path / "serve.db",
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )
    before = signal.getsignal(signal.SIGTERM)
    task = asyncio.create_task(serve(settings))
    await fake_discord.wait_ready(15)
    await fake_discord.wait_for(lambda: bool(fake_discord.global_commands), timeout=15)
    from bot import plugins

    products = {game_type.engine.name for game_type in plugins.GAMES}
    assert products == {"tigris", "tikal", "temple"}  # the product games only
    assert {c["name"] for c in fake_discord.global_commands} == {
        "game",
        "play",
        "help",
        "rules",
        "stats",
    } | products
    # read through the signal module, not a loop's internals: asyncio's and uvloop's
    # loops both put a handler of their own there while theirs is added
    assert signal.getsignal(signal.SIGTERM) != before, "serve() did not handle SIGTERM"
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0
    assert signal.getsignal(signal.SIGTERM) == before  # handed back on the way out


# -- Discord unreachable at start, and lost later ---------------------------------------


def closed_port() -> int:
    """A loopback port nothing listens on: connections to it are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Records(logging.Handler):
    """Collects the records of one logger; wakes waiters when ``count`` of them match."""

    def __init__(self, match: str) -> None:
        super().__init__(logging.DEBUG)
        self.match = match
        self.records: list[logging.LogRecord] = []
        self.changed = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.changed.set()

    def matching(self) -> list[logging.LogRecord]:
        return [r for r in self.records if self.match in r.getMessage()]

    async def wait(self, count: int, timeout: float = 15.0) -> list[logging.LogRecord]:
        async with asyncio.timeout(timeout):
            while len(self.matching()) < count:
                self.changed.clear()
                await self.changed.wait()
        return self.matching()


@contextlib.contextmanager
def collecting(logger: str, match: str) -> Iterator[Records]:
    handler = Records(match)
    target = logging.getLogger(logger)
    old_level = target.level
    target.addHandler(handler)
    target.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        target.removeHandler(handler)
        target.setLevel(old_level)


def quick_settings(fake: FakeDiscord, db: Path) -> Settings:
    return Settings(
        token=fake.token,
        database=db,
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )


async def test_discord_unreachable_at_start_is_retried_with_one_line_per_attempt(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Login refused (no network): backoff, one warning per attempt; then Discord comes up."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    stop = asyncio.Event()
    with collecting("bot.discord.lifecycle", "cannot reach Discord") as retries:
        task = asyncio.create_task(
            serve(
                quick_settings(fake_discord, tmp_path / "retry.db"),
                registry(),
                backoff=Backoff(base=0.01, cap=0.02),
                stop=stop,
                guild_ready_timeout=0.05,
            )
        )
        failed = await retries.wait(3)
        assert fake_discord.requests == []  # nothing reached Discord yet
        monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)  # network is back
        await fake_discord.wait_ready(15)
        await fake_discord.wait_for(lambda: bool(fake_discord.global_commands), timeout=15)
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    formatter = OneLineFormatter()
    for number, record in enumerate(failed[:3], start=1):
        assert record.levelno == logging.WARNING
        assert record.exc_info is None  # no traceback
        line = formatter.format(record)
        assert "\n" not in line
        assert f"attempt {number} failed, retrying in " in line
        assert "ClientConnectorError" in line or "Connect" in line


async def test_gateway_unreachable_at_start_is_retried(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REST answers but the gateway refuses: a fresh bot is started once it is back.

    (discord.py sleeps up to 2 s of its own backoff before giving up on the
    first gateway connection; that wait is not ours to shorten.)
    """
    import yarl

    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", yarl.URL(f"ws://127.0.0.1:{closed_port()}/"))
    stop = asyncio.Event()
    with collecting("bot.discord.lifecycle", "cannot reach Discord") as retries:
        task = asyncio.create_task(
            serve(
                quick_settings(fake_discord, tmp_path / "gateway.db"),
                registry(),
                backoff=Backoff(base=0.01, cap=0.02),
                stop=stop,
                guild_ready_timeout=0.05,
            )
        )
        [failed] = await retries.wait(1)
        monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", yarl.URL(fake_discord.gateway_url))
        await fake_discord.wait_ready(15)
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
    assert "GatewayNotFound" in failed.getMessage() and failed.exc_info is None


async def test_a_lost_gateway_connection_is_one_line_and_so_is_its_recovery(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with open_harness(fake_discord, tmp_path) as harness:
        with collecting("bot.logs", "connection to Discord") as lines:
            resumed = fake_discord.resume_count
            await fake_discord.disconnect_bot(4000)
            await fake_discord.wait_for(
                lambda: fake_discord.resume_count > resumed, timeout=15, what="a RESUME"
            )
            lost, back = await lines.wait(2)
        itx = await harness.slash(harness.alice, "help")  # and it still answers
        assert "/game new" in harness.ephemeral_text(itx)
    assert lost.levelno == logging.WARNING
    assert lost.getMessage() == "lost the connection to Discord; reconnecting"
    assert back.levelno == logging.INFO
    assert back.getMessage().startswith("connection to Discord is back after ")
    assert lost.exc_info is None and back.exc_info is None
    assert len(lines.matching()) == 2


# -- clearing the commands a development server kept -------------------------------------


async def test_clear_dev_commands_removes_the_duplicates_a_dev_guild_kept(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run with ZIGGURAT_DEV_GUILD_ID, then without: the server has both sets until cleared."""
    from bot.admin import clear_dev_commands

    async with open_harness(fake_discord, tmp_path) as harness:  # the dev guild set
        guild = harness.guild
    async with open_harness(fake_discord, tmp_path, global_commands=True):  # then unset
        pass
    names = {"game", "play", "help", "rules", "stats"} | set(registry())
    assert {c["name"] for c in fake_discord.guild_commands[guild.id]} == names
    assert {c["name"] for c in fake_discord.global_commands} == names

    identified = len(fake_discord.identify_payloads)
    assert await clear_dev_commands(fake_discord.token, guild.id) == 0
    assert capsys.readouterr().out.splitlines() == [
        t("en", "app.clear_commands_done", count=len(names), guild=guild.id)
    ]
    assert fake_discord.guild_commands[guild.id] == []
    assert {c["name"] for c in fake_discord.global_commands} == names  # untouched
    assert len(fake_discord.identify_payloads) == identified  # REST only, no gateway session

    # and the ways it can fail, each one line
    assert await clear_dev_commands("not-the-token", guild.id) == 2
    assert capsys.readouterr().err.splitlines() == [t("en", "app.bad_token")]
    assert await clear_dev_commands(fake_discord.token, 4242) == 2  # a server the bot left
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("Discord refused to change the commands of server 4242 (")
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    assert await clear_dev_commands(fake_discord.token, guild.id) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("Cannot reach Discord: ")
