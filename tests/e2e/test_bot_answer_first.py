"""An interaction is answered by its own response when the answer is ready in time,
acknowledged ("thinking") first when it is not, and deferred before its work when it
arrives already old; the move is stored and the user told the same either way."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import interactions, messages

from .bot_harness import BotHarness, move, open_harness, start_oracle
from .fake_discord import CallbackType, FakeDiscord


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


RecordedRoute = tuple[str, str]


def to_the_interaction(h: BotHarness, since: int) -> list[RecordedRoute]:
    """The requests since ``since`` that answer an interaction (its callback, the edit of
    its original response), as (method, last part of the path)."""
    return [
        (r.method, r.path.rsplit("/", 1)[-1])
        for r in h.fake.requests[since:]
        if "/interactions/" in r.path or r.path.endswith("/@original")
    ]


async def played(h: BotHarness) -> tuple[int, str, list[RecordedRoute]]:
    """A move by /play: the game's version after it, what the mover was told, and the
    requests that answered the interaction."""
    since = len(h.fake.requests)
    user = (await h.waiting([h.alice, h.bob]))[0]
    itx = await move(h, user, (await h.legal(user))[0], prefer_buttons=False)
    row = await h.store.latest_game_in(h.channel.id) if h.store else None
    assert row is not None
    return row.version, h.ephemeral_text(itx), to_the_interaction(h, since)


async def test_a_ready_answer_is_the_response_itself(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    version, told, answering = await played(h)
    assert answering == [("POST", "callback")]  # no "thinking", no edit of it
    itx = h.fake.interactions[-1]
    assert itx.callback_type == CallbackType.CHANNEL_MESSAGE and itx.ephemeral
    assert itx.response is not None and itx.response.text == told
    assert told and version > 0


async def test_an_answer_not_ready_in_time_edits_a_thinking_acknowledgement(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    # answered first, but its time is up at once: the acknowledgement goes first
    monkeypatch.setattr(interactions, "ANSWER_WITHIN", 1e9)
    monkeypatch.setattr(messages, "ANSWER_WITHIN", -1e9)
    before = (await h.store.latest_game_in(h.channel.id)).version  # type: ignore[union-attr]
    since = len(h.fake.requests)
    version, told, answering = await played(h)
    assert answering == [("POST", "callback"), ("PATCH", "@original")]
    itx = h.fake.interactions[-1]
    assert itx.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE and itx.ephemeral
    assert version == before + 1 and told
    assert not [r for r in h.fake.requests[since:] if r.status >= 400]


async def test_an_interaction_arriving_old_is_deferred_before_its_work(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    monkeypatch.setattr(interactions, "ANSWER_WITHIN", -1e9)  # every interaction is "old"
    version, told, answering = await played(h)
    assert answering == [("POST", "callback"), ("PATCH", "@original")]
    assert h.fake.interactions[-1].callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert told and version > 0


async def test_a_clock_behind_discords_never_delays_the_acknowledgement(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    # the bot's clock 100 s behind: every interaction looks 100 s younger than it is;
    # the acknowledgement is still due ANSWER_WITHIN after it arrived (here: at once)
    monkeypatch.setattr(messages, "age_of", lambda interaction: -100.0)
    monkeypatch.setattr(interactions, "age_of", lambda interaction: -100.0)
    monkeypatch.setattr(messages, "ANSWER_WITHIN", 0.0)
    version, told, answering = await played(h)
    assert answering == [("POST", "callback"), ("PATCH", "@original")]
    assert h.fake.interactions[-1].callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert told and version > 0
