"""Private information (Oracle hands) reaches only its owner, and never the channel.

By DM when the owner accepts DMs; by ephemeral follow-up when their DMs are
closed (carol), who is then named once per game in the channel without any
of her private content.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import PlayerLabel
from bot.i18n import t
from tests.support import oracle, oracle_render

from .bot_harness import BotHarness, decode_png, open_harness, play_to_end, start_oracle
from .fake_discord import FakeDiscord, FakeUser, RecordedMessage

#: a private view's DM: its header, then the news (the Oracle has only generic words)
NEWS = t("en", "hand.news", game=t("en", "oracle.title"))
HAND_FIRST = f"{NEWS}\n{t('en', 'hand.view')}"


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def private_png(h: BotHarness, user: FakeUser) -> bytes:
    """The user's private view drawn now, straight from the stored state."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    seat = row.seat_of(user.id)
    assert seat is not None
    view = oracle.ENGINE.private_view(oracle.ENGINE.load_state(row.state), seat.seat)
    return oracle_render.render_private(
        view, PlayerLabel(seat.seat, seat.display_name, seat.colour)
    )


def images(messages: list[RecordedMessage]) -> list[bytes]:
    return [a.data for m in messages for a in m.attachments]


async def test_hands_go_by_dm_to_their_owners_only(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob, h.carol)
    for user in (h.alice, h.bob):
        [dm] = h.fake.dms_to(user)
        assert dm.text == HAND_FIRST
        [attachment] = dm.attachments
        assert attachment.filename == "hand.png"
        decode_png(attachment.data)
        assert attachment.data == await private_png(h, user)
    assert h.fake.dms_to(h.carol) == []  # her DMs are closed
    assert h.fake.dms_to(h.mallory) == []
    alice_hand = h.fake.dms_to(h.alice)[0].attachments[0].data
    assert alice_hand != h.fake.dms_to(h.bob)[0].attachments[0].data
    assert alice_hand not in images(h.fake.visible_to(h.bob))


async def test_closed_dms_get_their_private_view_ephemerally(harness: BotHarness) -> None:
    h = harness
    started = await start_oracle(h, h.alice, h.bob, h.carol)
    notices = [m for m in h.public_of(started) if m.text.startswith(h.carol.mention)]
    assert [m.text for m in notices] == [t("en", "dm.closed_notice", player=h.carol.mention)]
    assert notices[0].attachments == []
    assert {u.id for u in notices[0].mentions} == {h.carol.id}

    # her own sealed move: its answer, only she sees it, shows her private view
    card = (await h.legal(h.carol))[0]
    played = await h.slash(h.carol, "play", action=card)
    preview = [m for m in played.messages if m.ephemeral and m.attachments]
    assert len(preview) == 1
    assert preview[0].ephemeral_for is h.carol
    assert t("en", "oracle.event.you_played", card=card.split()[1]) in preview[0].text
    assert preview[0].attachments[0].data == await private_png(h, h.carol)
    assert h.public_of(played) == []  # a sealed move is announced to nobody

    # any later game command in the channel brings her current view along
    status = await h.slash(h.carol, "game status")
    [view] = [m for m in status.messages if m.attachments]
    assert view.ephemeral and view.ephemeral_for is h.carol
    assert view.attachments[0].data == await private_png(h, h.carol)
    # ... but not for someone who reads DMs
    status = await h.slash(h.alice, "game status")
    assert all(not m.attachments for m in status.messages)

    # /game hand answers in place, once
    hand = await h.slash(h.carol, "game hand")
    assert [m.attachments[0].filename for m in hand.messages if m.attachments] == ["hand.png"]
    assert all(m.ephemeral for m in hand.messages)


async def test_no_public_message_or_image_carries_hidden_information(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]
    await start_oracle(h, *players)
    await play_to_end(h, players, random.Random(7))
    public = h.public_messages()
    assert "The game is over. Final ranking:" in public[-1].text
    private = [m for u in players for m in h.fake.dms_to(u)]
    private += [m for m in h.fake.ephemerals_for(h.carol) if m.attachments]
    assert private, "no private message was sent"
    private_images = set(images(private))
    for message in public:
        assert all(a.filename == "board.png" for a in message.attachments)
        assert not private_images & set(images([message]))
        assert "You played your" not in message.text
        assert NEWS not in message.text
        assert t("en", "dm.fallback") not in message.text
        for line in ("play 1", "play 2", "play 3", "play 4", "play 5"):
            assert line not in message.text
        for attachment in message.attachments:
            decode_png(attachment.data)
    # the closed-DM notice was posted once for the whole game
    notice = t("en", "dm.closed_notice", player=h.carol.mention)
    assert [m.text for m in public].count(notice) == 1
    # carol's private messages never reached anyone else
    for other in (h.alice, h.bob, h.mallory):
        seen = h.fake.visible_to(other)
        assert not {m.id for m in seen} & {m.id for m in h.fake.ephemerals_for(h.carol)}


async def test_reopened_dms_are_used_again_after_the_retry_delay(harness: BotHarness) -> None:
    h = harness
    assert h.store is not None
    await start_oracle(h, h.alice, h.bob, h.carol)
    assert h.fake.dms_to(h.carol) == []
    assert await h.store.dms_closed(h.carol.id)
    # carol opens her DMs; once the retry delay has passed the bot tries again
    h.carol.dms_open = True
    with sqlite3.connect(h.store.path) as raw:
        raw.execute("UPDATE closed_dms SET since = since - 7 * 3600")
    for user in (h.carol, h.alice, h.bob):  # the round resolves: her view changes
        await h.slash(user, "play", action=(await h.legal(user))[0])
    [dm] = h.fake.dms_to(h.carol)
    assert dm.attachments and dm.attachments[0].data == await private_png(h, h.carol)
    assert not await h.store.dms_closed(h.carol.id)


async def test_a_handoffs_dms_follow_its_public_message_without_waiting_for_the_tidying(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start (a hand-off with hands to tell): each DM is posted after the public
    message, and while the messages before it are tidied (``Delivery._retell``): a
    tidying held until a DM went through would wait forever if the DMs waited for it."""
    h = harness
    delivery = h.running.delivery
    dm_sent = asyncio.Event()
    tidied: list[bool] = []
    original_dm, original_retell = delivery.dm, delivery._retell

    async def dm(*args: Any, **kwargs: Any) -> bool:
        delivered = await original_dm(*args, **kwargs)
        dm_sent.set()
        return delivered

    async def retell(*args: Any, **kwargs: Any) -> None:
        await asyncio.wait_for(dm_sent.wait(), 10)
        tidied.append(True)
        await original_retell(*args, **kwargs)

    monkeypatch.setattr(delivery, "dm", dm)
    monkeypatch.setattr(delivery, "_retell", retell)
    started = await start_oracle(h, h.alice, h.bob, h.carol)
    assert tidied == [True]
    [public] = [m for m in h.public_of(started) if m.attachments]
    dms = h.fake.dms_to(h.alice) + h.fake.dms_to(h.bob)
    assert len(dms) == 2
    assert all(m.id > public.id for m in dms)


async def test_a_handoffs_invoker_is_answered_before_its_board_is_drawn(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start (a hand-off): the invoker's answer goes while the board is drawn —
    a board held until that answer went through would wait forever otherwise — and
    the public message still carries the board, the DMs the hands."""
    h = harness
    ctx = h.running.service.ctx
    delivery = h.running.delivery
    answered = asyncio.Event()
    held: list[bool] = []
    original_board, original_ephemeral = ctx.board, delivery.ephemeral

    async def board(*args: Any, **kwargs: Any) -> bytes | None:
        await asyncio.wait_for(answered.wait(), 10)
        held.append(True)
        return await original_board(*args, **kwargs)

    async def ephemeral(*args: Any, **kwargs: Any) -> None:
        await original_ephemeral(*args, **kwargs)
        answered.set()

    await h.slash(h.alice, "game new oracle")
    for user in (h.bob, h.carol):
        await h.slash(user, "game join")
    monkeypatch.setattr(ctx, "board", board)
    monkeypatch.setattr(delivery, "ephemeral", ephemeral)
    started = await h.slash(h.alice, "game start")
    assert held == [True]
    [answer] = [m for m in started.messages if m.ephemeral]
    [public] = [m for m in h.public_of(started) if m.attachments]
    assert answer.id < public.id
    assert [a.filename for a in public.attachments] == ["board.png"]
    decode_png(public.attachments[0].data)
    assert [len(h.fake.dms_to(u)) for u in (h.alice, h.bob)] == [1, 1]
