"""The lobby by tapping, through the real discord.py client and the fake Discord:
``/game new`` posts one lobby message with Join, Leave and Start and the options as
menus, and every tap edits that message in place; then ``/help`` and ``/rules``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import language_of, t

from .bot_harness import BotHarness, decode_png, open_harness
from .fake_discord import FakeDiscord, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def lobby_ids(message: RecordedMessage) -> dict[str, str]:
    """The lobby message's components: join/leave/start and each option name."""
    found: dict[str, str] = {}
    for cid in message.custom_ids():
        parts = cid.split(":")
        if parts[1] in ("lobby", "lopt"):
            found[parts[3]] = cid
    return found


def selected(message: RecordedMessage, custom_id: str) -> list[str]:
    menu = message.find_component(custom_id)
    assert menu is not None and menu["type"] == 3
    return [o["value"] for o in menu["options"] if o.get("default")]


async def test_a_lobby_is_played_by_taps_and_edited_in_place(harness: BotHarness) -> None:
    h = harness
    created = await h.slash(h.alice, "game new tikal")
    [lobby] = h.public_of(created)
    ids = lobby_ids(lobby)
    # and the host's Computer players button once Tikal has a computer player
    offers = {"computer"} if h.running.service.registry["tikal"].engine.computer() else set()
    assert set(ids) == {"join", "leave", "start", "mode", "clock", "absent"} | offers
    labels = {c.get("label") for c in lobby.walk_components() if c.get("type") == 2}
    assert {"Join", "Leave", "Start"} <= labels
    assert "Players (1/4): alice" in lobby.text
    assert "· Variant: base game" in lobby.text.splitlines()
    assert selected(lobby, ids["mode"]) == ["base"]
    assert selected(lobby, ids["absent"]) == ["3"]  # the default, not the first value
    menu = lobby.find_component(ids["absent"])
    assert menu is not None
    assert [o["value"] for o in menu["options"]] == ["2", "3", "5", "never"]
    public_count = len(h.public_messages())

    for user, count in ((h.bob, 2), (h.carol, 3), (h.mallory, 4)):
        joined = await h.click(user, lobby, ids["join"])
        assert t("en", "lobby.joined_reply") in h.ephemeral_text(joined)
        assert h.public_of(joined) == []  # the lobby message says it
        assert f"Players ({count}/4)" in h.fake.message(lobby.id).text
    assert "alice, bob, carol, mallory" in h.fake.message(lobby.id).text

    left = await h.click(h.mallory, lobby, ids["leave"])
    assert t("en", "lobby.left_reply") in h.ephemeral_text(left)
    assert "Players (3/4): alice, bob, carol" in h.fake.message(lobby.id).text

    # only the host changes an option, to a value it has
    refused = await h.fake.select(h.bob, lobby, ids["clock"], ["1d"])
    await h.running.wait_interaction_done(refused.id, 15.0)
    assert t("en", "error.only_creator_options") in h.ephemeral_text(refused)
    before = await h.raw_game()
    assert "· Turn clock: off" in h.fake.message(lobby.id).text.splitlines()
    assert await h.raw_game() == before  # refused: nothing changed
    chosen = await h.fake.select(h.alice, lobby, ids["clock"], ["1d"])
    await h.running.wait_interaction_done(chosen.id, 15.0)
    assert t("en", "lobby.option_set_reply", option="Turn clock", value="1 day") in (
        h.ephemeral_text(chosen)
    )
    current = h.fake.message(lobby.id)
    assert "· Turn clock: 1 day" in current.text.splitlines()
    assert selected(current, ids["clock"]) == ["1d"]
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.options["clock"] == "1d"

    # only the host starts
    refused = await h.click(h.bob, lobby, ids["start"])
    assert t("en", "error.only_creator_starts") in h.ephemeral_text(refused)
    assert len(h.public_messages()) == public_count  # nothing new in the channel so far

    started = await h.click(h.alice, lobby, ids["start"])
    assert t("en", "lobby.started_reply") in h.ephemeral_text(started)
    [first, *_] = h.public_of(started)
    assert "The game of Tikal has started." in first.text
    closed = h.fake.message(lobby.id)
    assert t("en", "lobby.panel_started") in closed.text
    assert closed.custom_ids() == []  # the lobby's buttons are gone
    assert len(closed.history) == 6  # edited in place: 3 joins, a leave, an option, the start


async def test_lobby_taps_of_another_game_are_stale_and_commands_still_work(
    harness: BotHarness,
) -> None:
    h = harness
    created = await h.slash(h.alice, "game new tigris", scoring="open")
    [lobby] = h.public_of(created)
    ids = lobby_ids(lobby)
    assert selected(lobby, ids["scoring"]) == ["open"]
    joined = await h.slash(h.bob, "game join")  # the command still works, and edits the lobby
    assert "bob joined (2/4)." in h.public_of(joined)[0].text
    assert "Players (2/4): alice, bob" in h.fake.message(lobby.id).text
    # a forged id past 18 digits is answered as stale
    forged = "zg:lobby:1234567890123456789:join"
    lobby.components[0]["components"][0]["custom_id"] = forged
    stale = await h.click(h.carol, lobby, forged)
    assert t("en", "error.stale_button") in h.ephemeral_text(stale)
    # abandoning the lobby closes its message; its buttons then belong to no game
    asked = await h.slash(h.alice, "game abandon")
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    await h.click(h.alice, confirm, confirm.custom_ids()[0])
    assert t("en", "lobby.panel_abandoned") in h.fake.message(lobby.id).text
    await h.slash(h.alice, "game new tigris")
    old_join = ids["join"]
    lobby.components = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": old_join}]}
    ]
    late = await h.click(h.carol, lobby, old_join)
    assert t("en", "error.stale_button") in h.ephemeral_text(late)


async def test_option_names_and_values_are_translated_in_the_lobby(harness: BotHarness) -> None:
    h = harness
    h.guild.locale = "zh-TW"
    created = await h.slash(h.alice, "game new temple")
    [lobby] = h.public_of(created)
    assert "· 回合時限：24 小時" in lobby.text.splitlines()
    assert "deadline" not in lobby.text and "24h" not in lobby.text
    menu = lobby.find_component(lobby_ids(lobby)["deadline"])
    assert menu is not None
    assert [o["value"] for o in menu["options"]] == ["1h", "4h", "12h", "24h", "48h"]
    assert [o["label"] for o in menu["options"]][3] == "回合時限：24 小時"
    assert selected(lobby, lobby_ids(lobby)["deadline"]) == ["24h"]


# --------------------------------------------------------------------------- help and rules


def _walk(commands: list[Any]) -> list[str]:
    names: list[str] = []
    for command in commands:
        if isinstance(command, app_commands.Group):
            names.append(command.qualified_name)
            names += _walk(list(command.commands))
        else:
            names.append(command.qualified_name)
    return names


@pytest.mark.parametrize("locale", ["en-US", "ko"])
async def test_help_lists_every_command_by_purpose(harness: BotHarness, locale: str) -> None:
    h = harness
    reader = h.fake.add_user("reader", locale=locale)
    h.fake.add_member(h.guild, reader)
    answer = await h.slash(reader, "help")
    assert answer.ephemeral and h.public_of(answer) == []
    text = h.ephemeral_text(answer)
    lang = language_of(locale)
    for group in ("start", "play", "seat", "host", "after"):
        heading = t(lang, f"help.group.{group}").split("\n")[0]
        assert heading in text
    games = set(h.running.service.registry)
    for name in _walk(h.running.tree.get_commands()):
        if name.startswith("game new "):
            continue  # one per game: "/game new <game>" names them
        if name.split()[0] in games:
            name = name.split()[0]  # a game's own commands: "/tikal …"
        assert f"/{name}" in text, name


@pytest.mark.parametrize("locale", ["en-US", "zh-TW"])
@pytest.mark.parametrize("game", ["tikal", "tigris", "temple"])
async def test_rules_answer_ephemerally_with_an_example_and_pages(
    harness: BotHarness, game: str, locale: str
) -> None:
    h = harness
    reader = h.fake.add_user(f"reader{game}", locale=locale)
    h.fake.add_member(h.guild, reader)
    lang = language_of(locale)
    answer = await h.slash(reader, "rules", game=game)
    assert answer.ephemeral and h.public_of(answer) == []
    text = h.ephemeral_text(answer)
    assert t(lang, f"{game}.title") in text
    [page] = [m for m in answer.messages if m.custom_ids()]
    [image] = page.attachments
    decode_png(image.data)
    [next_page] = page.custom_ids()
    second = await h.click(reader, page, next_page)
    assert second.ephemeral and h.public_of(second) == []
    assert t(lang, f"{game}.rules.scoring").split("**")[1] in h.ephemeral_text(second)
    [page] = [m for m in second.messages if m.custom_ids()]
    [image] = page.attachments  # the worked scoring example, drawn
    decode_png(image.data)
    third = await h.click(reader, page, page.custom_ids()[-1])
    assert t(lang, f"{game}.rules.decisions").split("\n")[1] in h.ephemeral_text(third)


class Untrimmed(app_commands.Translator):
    """Every catalog language, English too, without the cut at 100 characters."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        return t(language_of(locale.value), key, **string.extras.get("params", {}))


def _texts(payload: dict[str, Any], path: str) -> list[tuple[str, str]]:
    """Every description and choice name of a command payload, localizations too."""
    found: list[tuple[str, str]] = []
    for key in ("description",):
        found.append((f"{path} {key}", str(payload.get(key, ""))))
        found += [
            (f"{path} {key}[{loc}]", str(text))
            for loc, text in (payload.get(f"{key}_localizations") or {}).items()
        ]
    for choice in payload.get("choices") or []:
        found.append((f"{path} choice", str(choice["name"])))
        found += [
            (f"{path} choice[{loc}]", str(text))
            for loc, text in (choice.get("name_localizations") or {}).items()
        ]
    for option in payload.get("options") or []:
        found += _texts(option, f"{path} {option['name']}")
    return found


async def test_no_command_text_is_cut_off_in_any_language(harness: BotHarness) -> None:
    """Discord allows 100 characters for a description or a choice name; the bot cuts
    longer ones (with "…"), so the catalogs must fit, in every language."""
    tree = harness.running.tree
    locales = [
        discord.Locale.american_english,
        discord.Locale.chinese,
        discord.Locale.taiwan_chinese,
        discord.Locale.korean,
    ]
    assert {language_of(loc.value) for loc in locales} == {"en", "zh", "zh-TW", "ko"}

    class Only(Untrimmed):
        async def translate(self, string: Any, locale: Any, context: Any) -> str | None:
            return await super().translate(string, locale, context) if locale in locales else None

    texts: list[tuple[str, str]] = []
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, Only())
        texts += _texts(payload, f"/{command.name}")
    assert len(texts) > 400
    too_long = [(where, len(text)) for where, text in texts if not 1 <= len(text) <= 100]
    assert too_long == []
