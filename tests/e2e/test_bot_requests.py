"""The REST requests a sealed round costs, counted against the fake Discord: each is one
Discord needs, and what each says is what was stored."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import rest
from bot.discord.delivery import LIVE, TALLY, ClosedDms
from bot.i18n import Text, t
from bot.service import PrivateMessage
from bot.store.sqlite import SqliteStore

from .bot_harness import BotHarness, open_harness, start_oracle
from .fake_discord import FakeDiscord, FakeUser
from .test_bot_shapes import start_relay

#: what a sealed round's last play asks of Discord: the reveal as its answer (the reveal
#: names its card: ``GameEngine.reveals``), the tally closed, each hand by DM
ROUNDS_LAST = ["POST callback", "PATCH message", "POST DM", "POST DM"]


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def routes(h: BotHarness, since: int) -> list[str]:
    """The requests since ``since``, as method and the path's kind (ids left out)."""
    found = []
    for r in h.fake.requests[since:]:
        if "/interactions/" in r.path:
            kind = "callback"
        elif "/webhooks/" in r.path:
            kind = "follow-up"
        elif any(
            r.path == f"/api/v10/channels/{c.id}/messages"
            for c in h.fake.channels.values()
            if c.is_dm
        ):
            kind = "DM"
        else:
            kind = "message"
        found.append(f"{r.method} {kind}")
    return found


def view_timers() -> list[asyncio.Task[object]]:
    """discord.py's timeout tasks of the views it keeps (each a view held that long)."""
    return [
        task
        for task in asyncio.all_tasks()
        if "timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")
    ]


async def sealed(h: BotHarness, user: FakeUser) -> list[str]:
    since = len(h.fake.requests)
    card = (await h.legal(user))[-1]
    itx = await h.slash(user, "play", action=card)
    assert not itx.rejected and itx.messages, h.ephemeral_text(itx)
    return routes(h, since)


async def test_a_sealed_round_costs_the_requests_it_needs(harness: BotHarness) -> None:
    h = harness
    await start_oracle(h, h.alice, h.bob)
    [story] = h.public_messages()[-1:]
    assert t("en", "tally.awaited", players="").strip() in story.text
    dms = {user.id: len(h.fake.dms_to(user)) for user in (h.alice, h.bob)}
    since = len(h.fake.requests)
    # a submission: its answer, and the round's tally in the game's message, edited
    assert await sealed(h, h.alice) == ["POST callback", "PATCH message"]
    [answer] = [i for i in h.fake.interactions if i.user is h.alice][-1:]
    assert answer.callback_type == 4 and (answer.callback_data or {}).get("components")
    assert not view_timers()  # its buttons: discord.py keeps no 15 minute timer for them
    assert h.fake.requests[-1].path.endswith(f"/messages/{story.id}")
    assert t("en", "tally.submitted", players="alice") in story.text
    assert story.custom_ids()  # the round's buttons stay
    # the round's last: the reveal as its answer, the tally closed, each hand by DM
    statements: list[str] = []
    assert isinstance(h.store, SqliteStore)
    await h.store.trace(statements.append)
    assert await sealed(h, h.bob) == ROUNDS_LAST
    assert t("en", "tally.closed") in story.text and story.custom_ids() == []
    reveal = h.public_messages()[-1]
    assert reveal is not story and reveal.custom_ids()
    # the submission's answer asks Discord for no callback object (nothing of it is
    # read); the reveal's asks for its message's id
    callbacks = [r for r in h.fake.requests[since:] if r.path.endswith("/callback")]
    assert [(r.query, r.status) for r in callbacks] == [({}, 204), ({"with_response": "1"}, 200)]
    for user in (h.alice, h.bob):
        [hand] = h.fake.dms_to(user)[dms[user.id] :]
        assert hand.attachments and not hand.ephemeral
    assert all(r.status < 400 for r in h.fake.requests[since:])
    # what the reveal needs from the store (the story's kept messages, how the awaited
    # chose to be told, whose DMs are closed among the users it pings and the invoker)
    # in one read; a recipient whose private message was drawn after it is asked about
    # once the DMs go, in one more read at most
    await h.store.trace(None)
    about = Counter(" ".join(sql.split()[:4]) for sql in statements)
    assert about["SELECT 0, kind, channel_id,"] == 1
    assert about["SELECT kind, channel_id, message_id,"] == 0
    assert about["SELECT user_id, notify FROM"] == 0
    assert about["SELECT channel_id, message_id FROM"] == 0
    assert about["SELECT content FROM game_messages"] == 0
    assert about["INSERT INTO game_messages (game_id,"] == 2  # the new message: live, tally
    assert about["SELECT user_id FROM closed_dms"] <= 1
    assert about["SELECT since FROM closed_dms"] == 0
    # the reveal's id, read from the callback's answer, is what the store keeps
    game = await h.store.latest_game_in(h.channel.id)
    assert game is not None
    kept = await h.running.service.memory.messages(game.id)
    assert (kept[LIVE].channel_id, kept[LIVE].message_id) == (h.channel.id, reveal.id)
    assert (kept[TALLY].channel_id, kept[TALLY].message_id) == (h.channel.id, reveal.id)


async def test_dms_use_what_the_public_message_read_about_closed_dms(
    harness: BotHarness,
) -> None:
    h = harness
    assert h.bot is not None and isinstance(h.store, SqliteStore)
    await h.store.mark_dms_closed(h.bob.id)
    messages = [PrivateMessage(u.id, (Text("dm.fallback"),)) for u in (h.alice, h.bob, h.carol)]

    async def no_public_message(*args: Any, **kwargs: Any) -> rest.Sent:
        raise AssertionError("no game: no closed-DM notice in a channel")

    async def dm_statements(closed_dms: ClosedDms) -> Counter[str]:
        statements: list[str] = []
        await h.store.trace(statements.append)
        await h.bot.delivery.send_private(
            messages,
            game_id=None,
            actor=None,
            actor_lang="en",
            public_lang="en",
            send_public=no_public_message,
            actor_fallback=None,
            closed_dms=closed_dms,
        )
        await asyncio.sleep(0)
        await h.store.trace(None)
        return Counter(" ".join(sql.split()[:4]) for sql in statements)

    before = {u.id: len(h.fake.dms_to(u)) for u in (h.alice, h.bob, h.carol)}
    # all three known: no read of whose DMs are closed (bob's refusal is only checked
    # for its retry), and bob is not DMed; carol, not known closed, is tried (her DMs
    # are closed: refused, and remembered)
    everyone = frozenset(u.id for u in (h.alice, h.bob, h.carol))
    about = await dm_statements(ClosedDms(asked=everyone, closed=frozenset({h.bob.id})))
    assert about["SELECT user_id FROM closed_dms"] == 0
    assert about["SELECT since FROM closed_dms"] == 1
    assert [len(h.fake.dms_to(u)) - before[u.id] for u in (h.alice, h.bob, h.carol)] == [1, 0, 0]
    assert await h.store.dms_closed(h.carol.id)
    # two not asked: one read for them (both closed now: neither is tried)
    about = await dm_statements(ClosedDms(asked=frozenset({h.alice.id})))
    assert about["SELECT user_id FROM closed_dms"] == 1
    assert about["SELECT since FROM closed_dms"] == 2
    assert [len(h.fake.dms_to(u)) - before[u.id] for u in (h.alice, h.bob, h.carol)] == [2, 0, 0]


async def test_a_failed_read_of_what_a_message_needs_falls_back_to_the_reads_apart(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    assert h.bot is not None
    await start_oracle(h, h.alice, h.bob)
    [story] = h.public_messages()[-1:]
    dms = {user.id: len(h.fake.dms_to(user)) for user in (h.alice, h.bob)}

    async def refused(game_id: int | None, user_ids: object) -> object:
        raise OSError("the database is gone for a moment")

    monkeypatch.setattr(h.bot.service.memory, "message_reads", refused)
    await sealed(h, h.alice)
    assert await sealed(h, h.bob) == ROUNDS_LAST
    # the reveal told as always: the tally closed in the story's message, each hand DMed
    assert t("en", "tally.closed") in story.text and story.custom_ids() == []
    assert h.public_messages()[-1] is not story
    assert all(len(h.fake.dms_to(u)) == dms[u.id] + 1 for u in (h.alice, h.bob))


async def test_a_hand_off_asks_once_whether_the_movers_dms_are_open(harness: BotHarness) -> None:
    """The mover's DMs, found open by the hand-off message's read, are not asked about
    again to show them their private view (a fallback only closed DMs need)."""
    h = harness
    assert isinstance(h.store, SqliteStore)
    await start_relay(h, [h.alice, h.bob])
    [mover] = await h.waiting([h.alice, h.bob])
    for _ in range(8):  # steps of 1 until the turn is handed off
        statements: list[str] = []
        await h.store.trace(statements.append)
        itx = await h.slash(mover, "relay step", count="1")
        await asyncio.sleep(0)
        await h.store.trace(None)
        about = Counter(" ".join(sql.split()[:4]) for sql in statements)
        if h.public_of(itx):
            break
        # mid-turn: no public message, so the fallback asks (one read)
        assert about["SELECT since FROM closed_dms"] == 1
    assert h.public_of(itx)  # handed off
    assert about["SELECT 0, kind, channel_id,"] == 1
    assert about["SELECT since FROM closed_dms"] == 0
