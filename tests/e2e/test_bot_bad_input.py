"""Bad input gets an ephemeral reason, and the stored game stays byte-identical."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, move, open_harness, start_oracle
from .fake_discord import FakeDiscord, InteractionResult


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def refused(h: BotHarness, itx: InteractionResult, reason: str) -> None:
    assert itx.acknowledged and itx.deferred and itx.ephemeral
    assert h.public_of(itx) == []
    text = h.ephemeral_text(itx)
    assert reason in text, text
    assert "Traceback" not in text


async def test_bad_input_changes_nothing(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    first = (await h.waiting(players))[0]
    await move(h, first, (await h.legal(first))[0])
    public_before = len(h.public_messages())
    before = await h.raw_game()

    # not your turn: the first player has played and waits for the other
    itx = await h.slash(first, "play", action="play 1")
    refused(h, itx, "It is not your turn: the game is waiting for")

    # malformed action
    second = next(u for u in players if u is not first)
    itx = await h.slash(second, "play", action="dance wildly")
    refused(h, itx, t("en", "oracle.error.bad_notation", text="dance wildly"))

    # a card the player does not hold
    held = await h.legal(second)
    missing = next(c for c in range(1, 6) if f"play {c}" not in held)
    itx = await h.slash(second, "play", action=f"play {missing}")
    refused(h, itx, t("en", "oracle.error.no_such_card", card=missing))

    # a second game in a busy channel
    itx = await h.slash(h.mallory, "game new", game="oracle")
    refused(h, itx, t("en", "error.channel_busy"))
    itx = await h.slash(h.alice, "game new", game="tigris", scoring="open")
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


async def test_option_of_another_game_is_refused(harness: BotHarness) -> None:
    h = harness
    itx = await h.slash(h.alice, "game new", game="oracle", scoring="open")
    refused(h, itx, t("en", "error.unknown_option", option="scoring"))
    assert h.store is not None
    assert await h.store.latest_game_in(h.channel.id) is None


async def test_unexpected_error_answers_without_traceback(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)

    async def broken(channel_id: int) -> None:
        raise RuntimeError("secret internals")

    h.running.service.status = broken  # type: ignore[method-assign]
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
