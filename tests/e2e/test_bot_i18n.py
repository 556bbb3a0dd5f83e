"""Languages: public text in the guild's language, ephemeral text in the user's; every
adapter string is in the catalog."""

from __future__ import annotations

import json
import re
import string
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import LOCALES_DIR, catalog, t

from .bot_harness import BotHarness, open_harness, registry
from .fake_discord import FakeDiscord

ADAPTER = Path(__file__).resolve().parents[2] / "bot" / "discord"


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def test_public_in_guild_language_ephemeral_in_user_language(harness: BotHarness) -> None:
    h = harness
    h.guild.locale = "ko"
    wei = h.fake.add_user("wei", locale="zh-CN")
    created = await h.slash(wei, "game new tigris")
    [public] = h.public_of(created)
    assert t("ko", "tigris.title") in public.text  # the guild reads Korean
    assert t("en", "tigris.title") not in public.text
    joined = await h.slash(h.alice, "game join")
    assert t("en", "lobby.joined_reply") == h.ephemeral_text(joined)  # alice reads English
    await h.slash(wei, "game start")
    board = await h.slash(wei, "game board")
    assert h.ephemeral_text(board) == t("zh", "delivery.posted")  # wei reads Chinese
    assert t("ko", "tigris.title") in h.public_of(board)[0].text


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def generated_keys(name: str) -> set[str]:
    """The catalog keys of a game's generated command group, from its verb table."""
    engine = registry()[name].engine
    keys = {f"cmd.{name}.description", engine.title_key, engine.help_key}
    for verb in engine.verbs.verbs.values():
        keys.add(f"cmd.{name}.{verb.name}.description")
        keys |= {f"cmd.{name}.param.{p.name}" for p in verb.params}
    keys |= {spec.description_key for spec in engine.options}
    return keys


def test_adapter_strings_are_in_the_english_catalog() -> None:
    english = catalog("en")
    source = "\n".join(p.read_text("utf-8") for p in ADAPTER.rglob("*.py"))
    used = set(
        re.findall(r"""(?:Text|L|t)\(\s*(?:[\w.()]+,\s*)?"([a-z_]+\.[a-z_.]+)"\s*[,)]""", source)
    )
    used |= {f"cmd.game.{n}.description" for n in ("new", "join", "leave", "start", "undo")}
    for name in registry():
        used |= generated_keys(name)
    assert len(used) > 30
    assert sorted(used - english.keys()) == []


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "ko"])
def test_every_product_game_command_is_translated(lang: str) -> None:
    from bot import plugins

    for game_type in plugins.GAMES:
        keys = generated_keys(game_type.engine.name)
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert missing == [], (lang, missing)
        for key in keys:
            if key.startswith("cmd."):
                assert len(t(lang, key)) <= 100, key


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "ko"])
def test_translations_match_english(lang: str) -> None:
    english = json.loads((LOCALES_DIR / "en" / "cmd.json").read_text("utf-8"))
    other = json.loads((LOCALES_DIR / lang / "cmd.json").read_text("utf-8"))
    assert other.keys() <= english.keys()
    for key, template in other.items():
        assert placeholders(template) == placeholders(english[key]), key
        if key.startswith("cmd."):
            assert len(template) <= 100, key
    # every command description is translated
    commands = {k for k in english if k.startswith("cmd.")}
    assert commands <= other.keys()
