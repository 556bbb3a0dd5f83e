"""Messages sent and edited through ``client.http``, and an interaction's answers through
discord.py's webhook adapter (:mod:`bot.discord.rest`), against the fake Discord, which
validates their payloads as strictly as discord.py's own sends; an answer's request is
compared with the one discord.py's own call sends."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from PIL import Image

from bot.discord import rest
from bot.discord.components import SECONDARY, Components, button
from bot.discord.messages import png

from .fake_discord import (
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    RequestRecord,
    running_client,
)


def tiny_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


class Bare(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none(), guild_ready_timeout=0.01)


@pytest.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[Bare]:
    async with running_client(fake_discord, Bare()) as bare:
        yield bare


def _buttons(*custom_ids: str) -> Components:
    view = Components()
    for custom_id in custom_ids:
        view.add(button(custom_id, custom_id, SECONDARY))
    return view


def _their_buttons(*custom_ids: str) -> discord.ui.View:
    """:func:`_buttons` as discord.py's own view, for discord.py's own calls (finished:
    discord.py keeps no task for it)."""
    view = discord.ui.View(timeout=None)
    for custom_id in custom_ids:
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
    view.stop()
    return view


async def test_a_dm_with_a_file_and_buttons_is_delivered_and_its_id_returned(
    fake_discord: FakeDiscord, client: Bare
) -> None:
    alice = fake_discord.add_user("alice")
    channel = await client.create_dm(discord.Object(alice.id))
    image = tiny_png()
    sent = await rest.send(
        client,
        channel.id,
        "your hand",
        allowed_mentions=discord.AllowedMentions.none(),
        view=_buttons("zg:a", "zg:b"),
        file=png(image, "hand.png"),
    )
    [dm] = fake_discord.dms_to(alice)
    assert sent == dm.id
    assert dm.content == "your hand" and dm.custom_ids() == ["zg:a", "zg:b"]
    assert [(a.filename, a.data) for a in dm.attachments] == [("hand.png", image)]
    assert len(client.cached_messages) == 0  # nothing parsed nor kept


async def test_an_edit_changes_only_what_it_names(fake_discord: FakeDiscord, client: Bare) -> None:
    guild = fake_discord.add_guild("G")
    games = fake_discord.add_channel(guild, "games")
    sent = await rest.send(client, games.id, "round 1", view=_buttons("zg:x"))
    await rest.edit(client, games.id, sent, view=None)  # the buttons go, the text stays
    message = fake_discord.message(sent)
    assert message.content == "round 1" and message.components == []
    await rest.edit(client, games.id, sent, content="round 1: over")
    assert message.content == "round 1: over" and len(message.history) == 2


async def test_what_discord_refuses_raises_discord_s_error(
    fake_discord: FakeDiscord, client: Bare
) -> None:
    bob = fake_discord.add_user("bob", dms_open=False)
    guild = fake_discord.add_guild("G")
    games = fake_discord.add_channel(guild, "games")
    channel = await client.create_dm(discord.Object(bob.id))
    with pytest.raises(discord.Forbidden) as closed:
        await rest.send(client, channel.id, "psst")
    assert closed.value.code == ErrorCode.CANNOT_SEND_MESSAGES_TO_USER
    with pytest.raises(discord.HTTPException) as oversized:
        await rest.send(client, games.id, "x" * 2001)
    assert oversized.value.code == ErrorCode.INVALID_FORM_BODY
    with pytest.raises(discord.NotFound):
        await rest.edit(client, games.id, 1234567890123, content="gone")
    assert fake_discord.dms_to(bob) == [] and fake_discord.messages_in(games) == []


async def test_a_discord_ui_view_is_refused(client: Bare) -> None:
    tracked = discord.ui.View(timeout=None)
    tracked.add_item(discord.ui.Button(label="x", custom_id="zg:x"))
    with pytest.raises(ValueError, match=r"through discord\.py"):
        await rest.send(client, 1, "x", view=tracked)


# -- an interaction's answers: the requests discord.py's own calls send --------------------

#: the fixed words of the routes compared (the rest are ids and tokens)
_ROUTE_WORDS = {"api", "v10", "interactions", "callback", "webhooks", "messages", "@original"}

Answer = Callable[[discord.Interaction], Awaitable[Any]]


class Answering(Bare):
    """Answers each interaction with the test's ``answer``; its result or error is queued."""

    def __init__(self) -> None:
        super().__init__()
        self.answer: Answer | None = None
        self.results: asyncio.Queue[tuple[Any, BaseException | None]] = asyncio.Queue()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        assert self.answer is not None
        try:
            self.results.put_nowait((await self.answer(interaction), None))
        except Exception as exc:
            self.results.put_nowait((None, exc))


@pytest.fixture
async def answering(fake_discord: FakeDiscord) -> AsyncIterator[Answering]:
    async with running_client(fake_discord, Answering()) as client:
        yield client


@dataclass
class Table:
    """A channel with a message whose button Alice clicks."""

    fake: FakeDiscord
    client: Answering
    alice: FakeUser
    channel: FakeChannel
    message: int

    async def click(self, answer: Answer) -> tuple[Any, list[RequestRecord]]:
        """Alice's click answered by ``answer``: what it returned, and the requests sent."""
        self.client.answer = answer
        since = len(self.fake.requests)
        await self.fake.click(self.alice, self.message, "zg:go")
        result, error = await asyncio.wait_for(self.client.results.get(), 10)
        if error is not None:
            raise error
        return result, self.fake.requests[since:]


@pytest.fixture
async def table(fake_discord: FakeDiscord, answering: Answering) -> Table:
    alice = fake_discord.add_user("alice")
    guild = fake_discord.add_guild("G")
    fake_discord.add_member(guild, alice)
    channel = fake_discord.add_channel(guild, "games")
    message = await rest.send(answering, channel.id, "tap", view=_buttons("zg:go"))
    return Table(fake_discord, answering, alice, channel, message)


def shape(record: RequestRecord) -> tuple[Any, ...]:
    """A request as compared: method, route without its ids, query, payload and files."""
    route = "/".join(p if p in _ROUTE_WORDS or not p else "*" for p in record.path.split("/"))
    payload, files = record.body
    return record.method, route, record.query, payload, files


def without_with_response(record: RequestRecord) -> tuple[Any, ...]:
    method, route, query, payload, files = shape(record)
    assert query == {"with_response": "1"}, query  # what discord.py asks of a callback
    return method, route, {}, payload, files


async def test_an_answer_is_the_request_discord_py_sends_without_the_callback_object(
    table: Table,
) -> None:
    """Each answer is discord.py's own request (route, body, files) but for the callback's
    ``with_response``, which the bot does not ask (Discord answers 204, nothing parsed)."""
    image, none = tiny_png(), discord.AllowedMentions.none()

    async def theirs(i: discord.Interaction) -> None:
        view = _their_buttons("zg:a")
        await i.response.send_message(
            "hi", ephemeral=True, view=view, files=[png(image, "hand.png")], allowed_mentions=none
        )

    async def ours(i: discord.Interaction) -> None:
        files = [png(image, "hand.png")]
        view = _buttons("zg:a")
        await rest.respond(i, "hi", ephemeral=True, view=view, files=files, allowed_mentions=none)
        assert i.response.is_done()

    _, [their_request] = await table.click(theirs)
    _, [our_request] = await table.click(ours)
    assert our_request.status == 204 and our_request.query == {}
    assert shape(our_request) == without_with_response(their_request)
    _, _, _, payload, files = shape(our_request)
    assert payload["data"]["flags"] == 64 and [name for name, _ in files] == ["hand.png"]


async def test_a_deferred_answer_its_edit_and_follow_ups_are_discord_py_s_requests(
    table: Table,
) -> None:
    image, alice = tiny_png(), table.alice
    pinged = discord.AllowedMentions(users=[discord.Object(alice.id)])
    none = discord.AllowedMentions.none()

    async def theirs(i: discord.Interaction) -> list[tuple[int, int]]:
        await i.response.defer(ephemeral=True, thinking=True)
        await i.edit_original_response(
            content="answer",
            attachments=[png(image, "board.png")],
            view=None,
            allowed_mentions=none,
        )
        public = await i.followup.send(
            f"<@{alice.id}>",
            ephemeral=False,
            wait=True,
            file=png(image, "board.png"),
            view=_their_buttons("zg:b"),
            allowed_mentions=pinged,
        )
        private = await i.followup.send("psst", ephemeral=True, wait=False, allowed_mentions=none)
        assert private is not None
        return [(public.id, public.channel.id), (private.id, private.channel.id)]

    async def ours(i: discord.Interaction) -> list[tuple[int, int]]:
        await rest.defer(i, thinking=True, ephemeral=True)
        assert i.response.is_done()
        await rest.edit_original(
            i,
            content="answer",
            attachments=[png(image, "board.png")],
            view=None,
            allowed_mentions=none,
        )
        public = await rest.followup(
            i,
            f"<@{alice.id}>",
            ephemeral=False,
            files=[png(image, "board.png")],
            view=_buttons("zg:b"),
            allowed_mentions=pinged,
        )
        private = await rest.followup(i, "psst", ephemeral=True, allowed_mentions=none)
        return [(public.id, public.channel_id), (private.id, private.channel_id)]

    their_sent, theirs_sent = await table.click(theirs)
    our_sent, ours_sent = await table.click(ours)
    assert [r.status for r in ours_sent] == [204, 200, 200, 200]
    assert [without_with_response(theirs_sent[0]), *map(shape, theirs_sent[1:])] == [
        shape(r) for r in ours_sent
    ]
    # the ids read are the messages Discord made, in the channel clicked
    for sent in (their_sent, our_sent):
        messages = [table.fake.message(message_id) for message_id, _ in sent]
        assert [m.content for m in messages] == [f"<@{alice.id}>", "psst"]
        assert {channel for _, channel in sent} == {table.channel.id}
        assert [m.ephemeral for m in messages] == [False, True]


async def test_a_tap_answered_by_updating_its_message_is_discord_py_s_request(
    table: Table,
) -> None:
    image = tiny_png()

    async def theirs(i: discord.Interaction) -> None:
        await i.response.edit_message(
            content="picked", view=_their_buttons("zg:go"), attachments=[png(image, "zoom.png")]
        )

    async def ours(i: discord.Interaction) -> None:
        await rest.respond_update(
            i, content="picked", view=_buttons("zg:go"), attachments=[png(image, "zoom.png")]
        )

    async def their_defer(i: discord.Interaction) -> None:
        await i.response.defer()

    async def our_defer(i: discord.Interaction) -> None:
        await rest.defer(i, thinking=False, ephemeral=False)

    requests = [(await table.click(answer))[1] for answer in (theirs, ours, their_defer, our_defer)]
    [[their_update], [our_update], [their_ack], [our_ack]] = requests
    assert shape(our_update) == without_with_response(their_update)
    assert shape(our_ack) == without_with_response(their_ack)
    assert shape(our_ack)[3] == {"type": 6}
    message = table.fake.message(table.message)
    assert message.content == "picked" and [a.filename for a in message.attachments] == ["zoom.png"]


async def test_what_discord_refuses_of_an_answer_raises_discord_py_s_error(table: Table) -> None:
    async def twice(i: discord.Interaction) -> None:
        await rest.respond(i, "once", ephemeral=True)
        with pytest.raises(discord.InteractionResponded):
            await rest.respond(i, "twice", ephemeral=True)
        with pytest.raises(discord.InteractionResponded):
            await rest.defer(i, thinking=True, ephemeral=True)

    _, sent = await table.click(twice)
    assert len(sent) == 1  # the second answer never left

    async def oversized(i: discord.Interaction) -> list[int | None]:
        await rest.defer(i, thinking=True, ephemeral=True)
        codes = []
        for follow in (
            rest.followup(i, "x" * 2001, ephemeral=False),
            i.followup.send("x" * 2001, ephemeral=False, wait=True),
        ):
            with pytest.raises(discord.HTTPException) as refused:
                await follow
            codes.append(refused.value.code)
        return codes

    codes, _ = await table.click(oversized)
    assert codes == [ErrorCode.INVALID_FORM_BODY] * 2

    table.fake.callback_deadline = 0.0  # every answer too late: Unknown interaction

    async def late(i: discord.Interaction) -> list[tuple[type, int]]:
        errors = []
        for answer in (rest.respond(i, "late", ephemeral=True), i.response.send_message("late")):
            with pytest.raises(discord.NotFound) as expired:
                await answer
            errors.append((type(expired.value), expired.value.code))
        assert not i.response.is_done()
        return errors

    errors, _ = await table.click(late)
    assert errors == [(discord.NotFound, ErrorCode.UNKNOWN_INTERACTION)] * 2
    table.fake.requests.clear()  # the refusals above are on purpose


async def test_an_answer_with_a_discord_ui_view_is_refused(table: Table) -> None:
    tracked = discord.ui.View(timeout=None)
    tracked.add_item(discord.ui.Button(label="x", custom_id="zg:x"))

    async def refused(i: discord.Interaction) -> None:
        for answer in (
            rest.respond(i, "x", ephemeral=True, view=tracked),
            rest.followup(i, "x", ephemeral=True, view=tracked),
            rest.edit_original(i, content="x", view=tracked),
            rest.respond_update(i, view=tracked),
        ):
            with pytest.raises(ValueError, match=r"through discord\.py"):
                await answer
        await rest.respond(i, "answered", ephemeral=True)

    _, sent = await table.click(refused)
    assert len(sent) == 1
