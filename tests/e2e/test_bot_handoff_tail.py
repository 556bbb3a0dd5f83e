"""What follows a hand-off's public message, through the real discord.py client and the
fake Discord: the round's tally before it is closed while the new message is kept in the
store, neither waiting for the other (:mod:`bot.discord.delivery`, "Order of a hand-off's
parts")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.discord.delivery import LIVE, TALLY
from bot.games.temple import ENGINE, Place
from bot.i18n import t

from .bot_harness import BotHarness, open_harness
from .fake_discord import FakeDiscord, _compile
from .test_bot_temple import SEED, SUBMITTED, freeze_clock, loaded, start_temple, tallies

#: the longest the tally's edit is held for the store's write (a deadlock breaker: a write
#: that waited for the edit never comes while it is held)
HOLD_LIMIT = 5.0


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def test_a_rounds_tally_is_closed_while_its_successor_is_kept(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fake holds the edit that closes the round's tally (the previous hand-off
    message) until the store has kept the round's new hand-off message: a write that
    waited for that edit would come only once the hold gave up."""
    h = harness
    freeze_clock(h)
    await start_temple(h, [h.alice, h.bob], SEED)
    [tally] = tallies(h)
    row, state = await loaded(h)
    seats = {s.user_id: s.seat for s in row.seats}
    place = next(a for a in ENGINE.legal_actions(state, seats[h.alice.id]) if isinstance(a, Place))
    await h.slash(h.alice, "play", action=str(place))

    memory = h.running.service.memory
    kept = asyncio.Event()
    keep_messages = memory.keep_messages

    async def keeping(*args: Any, **kwargs: Any) -> Any:
        try:
            return await keep_messages(*args, **kwargs)
        finally:
            kept.set()

    monkeypatch.setattr(memory, "keep_messages", keeping)
    held: list[bool] = []  # per edit of the tally: released by the write (True) or not
    fake = h.fake
    pattern = _compile("/channels/{channel_id}/messages/{message_id}").pattern

    def holding(handler: Any) -> Any:
        async def handle(request: web.Request, **parts: str) -> web.StreamResponse:
            if int(parts["message_id"]) == tally.id:
                try:
                    await asyncio.wait_for(kept.wait(), HOLD_LIMIT)
                    held.append(True)
                except TimeoutError:
                    held.append(False)
            return await handler(request, **parts)

        return handle

    routes = [
        dataclasses.replace(route, handler=holding(route.handler))
        if (route.method, route.pattern.pattern) == ("PATCH", pattern)
        else route
        for route in fake._routes
    ]
    monkeypatch.setattr(fake, "_routes", routes)

    itx = await h.slash(h.bob, "play", action="pass")  # the round's last: it resolves
    [public] = h.public_of(itx)
    assert held == [True]  # the write did not wait for the edit
    closed = fake.message(tally.id).text
    assert t("en", "tally.closed") in closed and SUBMITTED not in closed
    [new_tally] = tallies(h)
    assert new_tally.id == public.id
    messages = await memory.messages(await h.game_id())
    assert messages[LIVE].message_id == public.id
    assert messages[TALLY].message_id == public.id
