"""A full lobby through slash commands: create, join, start, status, board, log, abandon."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, decode_png, open_harness, said, start_oracle
from .fake_discord import FakeDiscord


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def test_three_players_create_join_and_start(harness: BotHarness) -> None:
    h = harness
    created = await h.slash(h.alice, "game new oracle", style="fancy")
    assert t("en", "lobby.created_reply") in h.ephemeral_text(created)
    [announce] = h.public_of(created)
    opened = t("en", "lobby.created", player="alice", game=t("en", "oracle.title"), range="2–4")
    assert announce.text.splitlines()[0] == opened
    assert "· style: fancy" in announce.text.splitlines()

    joined = await h.slash(h.bob, "game join")
    assert "bob joined (2/4)." in h.public_of(joined)[0].text
    joined = await h.slash(h.carol, "game join")
    assert "carol joined (3/4)." in h.public_of(joined)[0].text

    status = await h.slash(h.mallory, "game status")
    assert "waiting for players" in h.ephemeral_text(status)
    assert h.public_of(status) == []

    refused = await h.slash(h.bob, "game start")
    assert t("en", "error.only_creator_starts") in h.ephemeral_text(refused)

    started = await h.slash(h.alice, "game start")
    assert t("en", "lobby.started_reply") in h.ephemeral_text(started)
    public, *notices = h.public_of(started)
    assert "The game of Oracle (test game) has started." in public.text
    # carol's DMs are closed: the channel is told so, without her hand
    assert [n.text for n in notices] == [t("en", "dm.closed_notice", player=h.carol.mention)]
    # everyone plays at once: the start pings all three, and only them
    assert {u.id for u in public.mentions} == {h.alice.id, h.bob.id, h.carol.id}
    assert public.text.splitlines()[-1].startswith("Your turn: ")
    [board] = public.attachments
    assert board.filename == "board.png"
    image = decode_png(board.data)
    assert image.width > 0 and image.height > 0


async def test_outsider_is_refused_ephemerally(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob, h.carol)
    before = await h.raw_game()
    count = len(h.public_messages())
    for command, options in (("play", {"action": "play 1"}), ("game hand", {})):
        itx = await h.slash(h.mallory, command, **options)
        assert itx.ephemeral
        assert t("en", "error.not_in_game") in h.ephemeral_text(itx)
    itx = await h.slash(h.mallory, "game join")
    assert t("en", "error.already_started") in h.ephemeral_text(itx)
    assert len(h.public_messages()) == count
    assert await h.raw_game() == before
    # and the outsider is offered nothing to play
    assert await h.autocomplete(h.mallory, "play", "action") == []


async def test_board_status_and_log(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    [card, *_] = await h.legal(h.bob)
    await h.slash(h.bob, "play", action=card)

    board = await h.slash(h.mallory, "game board")
    assert t("en", "delivery.posted") in h.ephemeral_text(board)
    [public] = h.public_of(board)
    assert "Current board of Oracle (test game)." in public.text
    decode_png(public.attachments[0].data)

    status = await h.slash(h.mallory, "game status")
    assert "Oracle (test game) — in progress" in h.ephemeral_text(status)
    assert "Waiting for alice" in h.ephemeral_text(status)

    log = await h.slash(h.alice, "game log", count=5)
    assert h.ephemeral_text(log) == t("en", "log.empty")  # sealed until the round resolves
    await h.slash(h.alice, "play", action=(await h.legal(h.alice))[0])
    log = await h.slash(h.alice, "game log", count=5)
    text = h.ephemeral_text(log)
    # the card stays face down in the log: the move in its public words only
    assert f"#1 bob: {said('oracle', card, public=True)} (<t:" in text
    assert card not in text and said("oracle", card) not in text


async def test_leave_before_start(harness: BotHarness) -> None:
    h = harness
    await h.slash(h.alice, "game new oracle")
    await h.slash(h.bob, "game join")
    left = await h.slash(h.bob, "game leave")
    assert "bob left the game." in h.public_of(left)[0].text
    refused = await h.slash(h.alice, "game leave")
    assert t("en", "error.creator_cannot_leave") in h.ephemeral_text(refused)


async def test_abandon_needs_the_creator_and_a_confirmation(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    before = await h.raw_game()

    refused = await h.slash(h.bob, "game abandon")
    assert t("en", "error.abandon_not_allowed") in h.ephemeral_text(refused)

    asked = await h.slash(h.alice, "game abandon")
    assert t("en", "lobby.abandon_confirm") in h.ephemeral_text(asked)
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    assert confirm.ephemeral and confirm.ephemeral_for is h.alice
    [button] = confirm.custom_ids()
    assert await h.raw_game() == before  # asking changes nothing

    done = await h.click(h.alice, confirm, button)
    assert t("en", "lobby.abandoned_reply") in h.ephemeral_text(done)
    assert "alice abandoned the game." in h.public_of(done)[0].text

    again = await h.click(h.alice, confirm, button)
    assert t("en", "error.stale_button") in h.ephemeral_text(again)
    fresh = await h.slash(h.bob, "game new oracle")
    assert t("en", "lobby.created_reply") in h.ephemeral_text(fresh)


async def test_channel_manager_may_abandon(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    owner = h.fake.owner  # the guild owner has every permission, Manage Channels included
    asked = await h.slash(owner, "game abandon")
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    done = await h.click(owner, confirm, confirm.custom_ids()[0])
    assert t("en", "lobby.abandoned_reply") in h.ephemeral_text(done)
