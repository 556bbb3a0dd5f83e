"""Messages sent and edited through ``client.http`` (:mod:`bot.discord.rest`), against the
fake Discord, which validates their payloads as strictly as discord.py's own sends."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import discord
import pytest
from PIL import Image

from bot.discord import rest
from bot.discord.components import ButtonView
from bot.discord.messages import png

from .fake_discord import ErrorCode, FakeDiscord, running_client


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


def _buttons(*custom_ids: str) -> ButtonView:
    view = ButtonView()
    for custom_id in custom_ids:
        view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
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


async def test_a_view_discord_py_would_dispatch_to_is_refused(client: Bare) -> None:
    tracked = discord.ui.View(timeout=None)
    tracked.add_item(discord.ui.Button(label="x", custom_id="zg:x"))
    with pytest.raises(ValueError, match=r"through discord\.py"):
        await rest.send(client, 1, "x", view=tracked)
