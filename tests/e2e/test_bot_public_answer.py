"""A hand-off answered by its public message: the interaction's response is the step's
public message (one request fewer), where the invoker's private answer would tell
nothing more (:mod:`bot.discord.delivery`); else, or when the board is late, the invoker
is answered first and the public message follows up, as before."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import delivery
from bot.discord.delivery import LIVE
from bot.discord.messages import split_content
from bot.games.base import Event
from bot.i18n import t
from tests.support.oracle import ENGINE as ORACLE
from tests.support.oracle import OracleEngine

from .bot_harness import WAIT, BotHarness, open_harness, said, start_oracle
from .fake_discord import CallbackType, FakeChannel, FakeDiscord, FakeUser, RecordedMessage
from .test_bot_requests import routes
from .test_bot_shapes import start_relay


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def live(h: BotHarness, channel: FakeChannel | None = None) -> int:
    """The id of the message the store keeps as the game's newest (:data:`LIVE`)."""
    kept = await h.running.service.memory.messages(await h.game_id(channel))
    assert kept[LIVE].channel_id == (channel or h.channel).id
    return kept[LIVE].message_id


async def mover_of(h: BotHarness, players: list[FakeUser], channel: FakeChannel) -> FakeUser:
    [mover] = [u for u in players if await h.legal(u, channel)]
    return mover


async def test_a_hand_off_is_answered_by_its_public_message(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_relay(h, players)
    before = await live(h)
    mover = await mover_of(h, players, h.channel)
    since = len(h.fake.requests)
    itx = await h.slash(mover, "play", action="end")
    # the response is the hand-off message: public, the board and the next mover's buttons,
    # pinging exactly who is awaited now; nothing ephemeral
    public = h.answered_publicly(itx)
    assert public is not None and h.public_of(itx) == [public]
    assert h.ephemeral_text(itx) == ""
    assert [a.filename for a in public.attachments] == ["board.png"]
    assert public.custom_ids()
    [awaited] = [u for u in players if u is not mover]
    assert [u.id for u in public.mentions] == [awaited.id]
    # one callback asking for the callback object (its message's id), and the message
    # before stripped of its buttons: no follow-up
    assert routes(h, since) == ["POST callback", "PATCH message"]
    callback, strip = h.fake.requests[since:]
    assert callback.query == {"with_response": "1"} and callback.status == 200
    assert strip.path.endswith(f"/messages/{before}")
    assert h.fake.message(before).custom_ids() == []
    # the store keeps the response as the newest message: the next hand-off strips it
    assert await live(h) == public.id
    again = await h.slash(awaited, "play", action="end")
    newer = h.answered_publicly(again)
    assert newer is not None and newer is not public
    assert h.fake.message(public.id).custom_ids() == []
    assert await live(h) == newer.id
    assert newer.custom_ids()


async def test_a_split_hand_off_answers_with_its_first_part(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A public message over one message's length (parts made short here): its first
    part is the response, the rest follow up in order, the board and buttons on the last
    part, which the store keeps as the newest."""
    h = harness
    players = [h.alice, h.bob]
    await start_relay(h, players)
    mover = await mover_of(h, players, h.channel)

    def short_parts(text: str, limit: int = 0) -> list[str]:
        return split_content(text, 40)

    monkeypatch.setattr(delivery, "split_content", short_parts)
    since = len(h.fake.requests)
    itx = await h.slash(mover, "play", action="end")
    first = h.answered_publicly(itx)
    parts = h.public_of(itx)
    assert first is not None and len(parts) > 1 and parts[0] is first
    assert parts[1:] == itx.followups
    assert all(not m.attachments and not m.custom_ids() for m in parts[:-1])
    assert [a.filename for a in parts[-1].attachments] == ["board.png"]
    assert parts[-1].custom_ids()
    assert await live(h) == parts[-1].id
    assert routes(h, since)[: len(parts)] == ["POST callback"] + ["POST follow-up"] * (
        len(parts) - 1
    )


async def test_a_late_board_answers_the_invoker_first(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board not drawn within the bound: the invoker's answer is the response, and
    the public message follows up once the board is in (no timing asserted: the board
    waits on the test)."""
    h = harness
    players = [h.alice, h.bob]
    await start_relay(h, players)
    before = await live(h)
    mover = await mover_of(h, players, h.channel)
    assert h.bot is not None
    ctx = h.running.service.ctx
    drawn = ctx.board
    gate = asyncio.Event()

    async def slow_board(game: object) -> bytes | None:
        await gate.wait()
        return await drawn(game)  # type: ignore[arg-type]

    monkeypatch.setattr(ctx, "board", slow_board)
    h.bot.delivery.public_within = 0.05
    since = len(h.fake.requests)
    itx = await h.fake.slash(mover, h.channel, "play", {"action": "end"})
    await itx.wait(timeout=WAIT)
    assert itx.callback_type is CallbackType.CHANNEL_MESSAGE and itx.ephemeral
    assert itx.response is not None
    assert t("en", "move.accepted", action=said("relay", "end")) in itx.response.text
    assert h.public_of(itx) == []  # the board is not drawn: nothing public yet
    gate.set()
    await h.running.wait_interaction_done(itx.id, WAIT)
    [public] = h.public_of(itx)
    assert [a.filename for a in public.attachments] == ["board.png"] and public.custom_ids()
    assert routes(h, since)[:3] == ["POST callback", "POST follow-up", "PATCH message"]
    assert h.fake.requests[since].query == {}  # no callback object asked: nothing read
    assert await live(h) == public.id
    assert h.fake.message(before).custom_ids() == []


async def revealed_cards(h: BotHarness) -> dict[int, tuple[int, int]]:
    """The stored Oracle game's cards of the round just revealed: each user's seat and card."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    revealed = ORACLE.load_state(row.state).revealed
    return {row.seats[seat].user_id: (seat, card) for seat, card in revealed.items()}


async def test_a_rounds_last_play_is_answered_by_its_reveal(harness: BotHarness) -> None:
    """The Oracle's sealed card is hidden in public, but the round's last play is named
    by its reveal with every seat's (``GameEngine.reveals``): the reveal is the response,
    its tally closed in the round's message, each hand by DM; nothing ephemeral."""
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    first, last = players
    story = await live(h)  # the round's message, with its tally
    await h.slash(first, "play", action=(await h.legal(first))[-1])
    card = (await h.legal(last))[-1]
    assert said("oracle", card) != said("oracle", card, public=True)
    dms = {u.id: len(h.fake.dms_to(u)) for u in players}
    since = len(h.fake.requests)
    itx = await h.slash(last, "play", action=card)
    reveal = h.answered_publicly(itx)
    assert reveal is not None and h.public_of(itx) == [reveal]
    assert h.ephemeral_text(itx) == ""
    # what the mover's answer said is in it: their card, named with every seat's
    cards = await revealed_cards(h)
    assert cards[last.id][1] == int(card.split()[1])
    shown = ", ".join(f"{seat + 1}:{value}" for seat, value in sorted(cards.values()))
    assert t("en", "oracle.event.revealed", cards=shown) in reveal.text
    assert [a.filename for a in reveal.attachments] == ["board.png"] and reveal.custom_ids()
    # one request fewer: no follow-up; the tally closed in the story's message, the hands
    assert routes(h, since) == ["POST callback", "PATCH message", "POST DM", "POST DM"]
    callback, closing = h.fake.requests[since : since + 2]
    assert callback.query == {"with_response": "1"} and callback.status == 200
    assert closing.path.endswith(f"/messages/{story}")
    assert t("en", "tally.closed") in h.fake.message(story).text
    assert all(len(h.fake.dms_to(u)) == dms[u.id] + 1 for u in players)
    assert await live(h) == reveal.id


async def test_a_rounds_last_play_with_a_private_event_is_answered_privately_first(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same play, its engine telling the mover something privately at the reveal (its
    card's receipt, kept): the private answer first, the reveal following up."""
    h = harness
    apply = OracleEngine.apply

    def with_receipt(engine: OracleEngine, state: Any, seat: int, action: Any) -> list[Event]:
        events = apply(engine, state, seat, action)
        if engine.reveals(state, seat, action, events):
            events.append(Event("oracle.event.you_played", {"card": action.card}, private_to=seat))
        return events

    monkeypatch.setattr(OracleEngine, "apply", with_receipt)
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    first, last = players
    await h.slash(first, "play", action=(await h.legal(first))[-1])
    card = (await h.legal(last))[-1]
    since = len(h.fake.requests)
    itx = await h.slash(last, "play", action=card)
    assert itx.callback_type is CallbackType.CHANNEL_MESSAGE and itx.ephemeral
    answer = h.ephemeral_text(itx)
    assert t("en", "move.accepted", action=said("oracle", card)) in answer
    assert t("en", "oracle.event.you_played", card=card.split()[1]) in answer
    [reveal] = h.public_of(itx)
    assert routes(h, since)[:2] == ["POST callback", "POST follow-up"]
    assert h.fake.requests[since].query == {}
    assert await live(h) == reveal.id


async def test_closed_dms_fall_back_to_a_follow_up_after_a_public_answer(
    harness: BotHarness,
) -> None:
    """A decision answered by its public message, whose private news for the decider
    cannot be DMed: it comes as an ephemeral follow-up, the public message untouched."""
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    for user in players:
        await h.slash(user, "play", action=(await h.legal(user))[0])
    [chooser] = await h.waiting(players)
    chooser.dms_open = False
    since = len(h.fake.requests)
    itx = await h.slash(chooser, "play", action="claim")
    public = h.answered_publicly(itx)
    assert public is not None and h.public_of(itx) == [public]
    text = public.text
    assert routes(h, since)[:2] == ["POST callback", "PATCH message"]
    assert routes(h, since)[-1] == "POST follow-up"
    [fallback] = [m for m in itx.messages if m.ephemeral]
    assert fallback is not public and fallback in itx.followups
    assert fallback.text.startswith(t("en", "dm.fallback"))
    assert h.fake.message(public.id).text == text  # not edited by the fallback
    assert t("en", "dm.fallback") not in text


async def test_hand_offs_in_many_channels_at_once(harness: BotHarness) -> None:
    """Hand-offs in eight channels at the same instant: each answered by its own public
    message, in its channel, kept as that game's newest, the one before stripped."""
    h = harness
    players = [h.alice, h.bob]
    channels = [h.fake.add_channel(h.guild, f"table-{n}") for n in range(8)]
    before: dict[int, int] = {}
    movers: dict[int, FakeUser] = {}
    for channel in channels:
        await h.slash(players[0], "game new relay", channel)
        await h.slash(players[1], "game join", channel)
        await h.slash(players[0], "game start", channel)
        before[channel.id] = await live(h, channel)
        movers[channel.id] = await mover_of(h, players, channel)
    itxs = await asyncio.gather(
        *(h.fake.slash(movers[c.id], c, "play", {"action": "end"}) for c in channels)
    )
    for itx in itxs:
        await h.running.wait_interaction_done(itx.id, WAIT)
    answers: list[RecordedMessage] = []
    for channel, itx in zip(channels, itxs, strict=True):
        assert not itx.rejected, itx.rejected
        public = h.answered_publicly(itx)
        assert public is not None and public.channel is channel
        assert h.public_of(itx) == [public] and public.custom_ids()
        assert await live(h, channel) == public.id
        assert h.fake.message(before[channel.id]).custom_ids() == []
        answers.append(public)
    assert len({m.id for m in answers}) == len(channels)
