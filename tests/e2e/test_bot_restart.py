"""Stop the bot mid-game, start a new one on the same database, finish the game."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, open_harness, play_to_end, start_oracle
from .fake_discord import FakeDiscord


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def test_restart_mid_game_then_play_to_the_end(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]
    await start_oracle(h, *players)
    rng = random.Random(3)
    played = await play_to_end(h, players, rng, stop_after=5)
    assert played == 5
    before = await h.raw_game()

    await h.restart()
    assert await h.raw_game() == before  # nothing lost, nothing added
    status = await h.slash(h.mallory, "game status")
    assert "in progress" in h.ephemeral_text(status)

    played += await play_to_end(h, players, rng)
    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [line.split(" — ")[0] for line in final.text.splitlines() if line[:1].isdigit()]
    assert sorted(name.split(". ", 1)[1] for name in ranked) == sorted(u.name for u in players)
    assert final.mentions == []  # nobody is waited for any more
    assert h.store is not None
    moves = await h.store.moves(await h.game_id())
    assert len(moves) == played

    status = await h.slash(h.mallory, "game status")
    text = h.ephemeral_text(status)
    assert "finished" in text and "Final ranking:" in text
    again = await h.slash(h.alice, "play", action="claim")
    assert t("en", "error.no_game") in h.ephemeral_text(again)
