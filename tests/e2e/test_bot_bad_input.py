"""Bad input gets an ephemeral reason, and the stored game stays byte-identical."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, move, open_harness, start_oracle
from .fake_discord import CallbackType, FakeDiscord, InteractionResult


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def refused(h: BotHarness, itx: InteractionResult, reason: str) -> None:
    # the refusal is the interaction's own response: no "thinking" acknowledgement first
    assert itx.callback_type == CallbackType.CHANNEL_MESSAGE and itx.ephemeral
    assert h.public_of(itx) == []
    text = h.ephemeral_text(itx)
    assert reason in text, text
    assert "Traceback" not in text


async def test_bad_input_changes_nothing(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    for user in players:  # both play their card: the round's winner must choose
        await move(h, user, (await h.legal(user))[0])
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    chooser = row.seats[row.state["chooser"]].user_id
    first = next(u for u in players if u.id != chooser)
    public_before = len(h.public_messages())
    before = await h.raw_game()

    # not your turn: the game waits for the round's winner
    itx = await h.slash(first, "play", action="claim")
    refused(h, itx, "It is not your turn: the game is waiting for")

    # malformed action
    second = next(u for u in players if u.id == chooser)
    itx = await h.slash(second, "play", action="dance wildly")
    refused(h, itx, t("en", "oracle.error.bad_notation", text="dance wildly"))

    # a card now, when the winner must choose
    itx = await h.slash(second, "play", action="play 1")
    refused(h, itx, t("en", "oracle.error.choose_first"))

    # a second game in a busy channel
    itx = await h.slash(h.mallory, "game new oracle")
    refused(h, itx, t("en", "error.channel_busy"))
    itx = await h.slash(h.alice, "game new tigris", scoring="open")
    refused(h, itx, t("en", "error.channel_busy"))

    assert await h.raw_game() == before
    assert len(h.public_messages()) == public_before


async def test_no_game_in_channel(harness: BotHarness) -> None:
    h = harness
    for command, options in (
        ("play", {"action": "play 1"}),
        ("game join", {}),
        ("game start", {}),
        ("game hand", {}),
        ("game board", {}),
        ("game abandon", {}),
    ):
        itx = await h.slash(h.alice, command, channel=h.other_channel, **options)
        assert itx.ephemeral and h.public_of(itx) == []
        assert h.ephemeral_text(itx) in (
            t("en", "error.no_game"),
            t("en", "error.no_board"),
        ), command


async def test_each_game_offers_only_its_own_options(harness: BotHarness) -> None:
    h = harness
    [game] = [c for c in h.fake.guild_commands[h.guild.id] if c["name"] == "game"]
    [new] = [o for o in game["options"] if o["name"] == "new"]
    options = {sub["name"]: [o["name"] for o in sub.get("options") or []] for sub in new["options"]}
    # the game's own options, then the table's (the turn clock only for turn-based games)
    assert options["oracle"] == ["style", "deadline", "absent", "thread"]
    assert options["tigris"] == ["scoring", "clock", "absent", "thread"]
    with pytest.raises(TypeError):  # Discord's client cannot even send another game's option
        await h.slash(h.alice, "game new oracle", scoring="open")
    assert h.store is not None
    assert await h.store.latest_game_in(h.channel.id) is None


async def test_unexpected_error_answers_without_traceback(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)

    async def broken(channel_id: int) -> None:
        raise RuntimeError("secret internals")

    h.running.service.reading.status = broken  # type: ignore[method-assign]
    itx = await h.slash(h.alice, "game status")
    refused(h, itx, t("en", "error.internal"))
    assert "secret internals" not in h.ephemeral_text(itx)


async def test_outdated_command_gets_an_answer(harness: BotHarness) -> None:
    """A subcommand Discord still shows but this code no longer has (a stale sync)."""
    h = harness
    game = h.fake.command("game", h.guild)
    assert game is not None
    game["options"].append({"name": "ghost", "type": 1, "description": "gone", "options": []})
    itx = await h.slash(h.alice, "game ghost")
    assert itx.ephemeral and h.public_of(itx) == []
    assert h.ephemeral_text(itx) == t("en", "error.outdated_command")
