"""The fake Discord, proven against the real discord.py 2.7 client.

A small ``discord.Client`` with an ``app_commands.CommandTree`` logs in to the fake, syncs its
commands and answers slash commands, buttons, selects, autocomplete and modals; the tests check
that the fake delivers what Discord would and records what the bot sent.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import threading
import warnings
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.gateway import KeepAliveHandler
from PIL import Image

from .fake_discord import (
    CallbackType,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionType,
    running_client,
    snowflake_time,
)

GAME_TYPES = ("tigris", "tikal", "temple-rush")


def _make_png() -> bytes:
    image = Image.new("RGB", (48, 32), (200, 40, 40))
    for x in range(48):
        image.putpixel((x, x % 32), (10, 20, 250))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


PNG = _make_png()


# --------------------------------------------------------------------------- the test bot


class BoardView(discord.ui.View):
    """Persistent (no timeout, fixed custom_id): registered with ``add_view`` at startup."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(
        label="Refresh", style=discord.ButtonStyle.primary, custom_id="board:refresh"
    )
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(
            f"Refreshed for {interaction.user.name}", ephemeral=True
        )


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick:game",
        options=[discord.SelectOption(label=g.title(), value=g) for g in GAME_TYPES],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"You picked {select.values[0]}", view=None)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput = discord.ui.TextInput(
        label="Your feedback", custom_id="feedback:text", max_length=200
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


class E2EBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.test_guild = discord.Object(guild_id)
        self.available_guilds: list[int] = []
        self.dm_failures: list[int] = []
        self.http_error_codes: list[int] = []
        self._register_commands()

    async def setup_hook(self) -> None:
        self.add_view(BoardView())
        await self.tree.sync()
        await self.tree.sync(guild=self.test_guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.available_guilds.append(guild.id)

    def _register_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Check that the bot is alive")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        game = app_commands.Group(name="game", description="Manage games")

        @game.command(name="new", description="Start a new game")
        @app_commands.describe(type="Which game to play")
        async def game_new(interaction: discord.Interaction, type: str) -> None:
            await interaction.response.send_message(
                f"New {type} game created by {interaction.user.name}"
            )

        @game_new.autocomplete("type")
        async def game_type_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=g.title(), value=g)
                for g in GAME_TYPES
                if g.startswith(current.lower())
            ]

        tree.add_command(game, guild=self.test_guild)

        @tree.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "Current board",
                file=discord.File(io.BytesIO(PNG), filename="board.png"),
                view=BoardView(),
            )

        @tree.command(description="Pick a game")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick a game", view=PickView())

        @tree.command(description="Send feedback")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FeedbackModal())

        @tree.command(description="DM me a reminder")
        async def remind(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Sending you a DM", ephemeral=True)
            try:
                await interaction.user.send("Reminder: it is your turn")
            except discord.Forbidden as exc:
                if exc.code != 50007:
                    raise
                self.dm_failures.append(interaction.user.id)
                await interaction.followup.send(
                    "I cannot DM you: please open your DMs.", ephemeral=True
                )

        @tree.command(description="Think, then answer")
        async def think(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("Thought hard", ephemeral=True)

        @tree.command(description="Answer too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as exc:
                self.http_error_codes.append(exc.code)

        @tree.command(description="Answer too long")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.http_error_codes.append(exc.code)


# --------------------------------------------------------------------------- fixtures


@dataclass
class World:
    guild: FakeGuild
    games: FakeChannel
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    guild = fake_discord.add_guild("Ziggurat Test")
    games = fake_discord.add_channel(guild, "games")
    alice = fake_discord.add_user("alice")
    bob = fake_discord.add_user("bob", dms_open=False)
    return World(guild, games, alice, bob)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world: World) -> AsyncIterator[E2EBot]:
    async with running_client(fake_discord, E2EBot(world.guild.id)) as client:
        yield client


# --------------------------------------------------------------------------- login & sync


async def test_login_ready_and_guild_available(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and not guild.unavailable
    assert bot.available_guilds == [world.guild.id]
    channel = guild.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "games"
    # Without the members intent Discord sends only the bot's member, as the fake does.
    assert guild.member_count == 4 and guild.get_member(world.alice.id) is None
    assert guild.me is not None and guild.me.id == fake_discord.bot_user.id
    alice = await guild.fetch_member(world.alice.id)
    assert alice.name == "alice" and not alice.bot
    # Snowflakes are time-based: the guild was "created" moments ago.
    assert abs((guild.created_at - discord.utils.utcnow()).total_seconds()) < 60
    assert snowflake_time(world.guild.id) == guild.created_at

    identify = fake_discord.identify_payloads
    assert len(identify) == 1 and identify[0]["intents"] == discord.Intents.default().value
    seen = {(r.method, r.path) for r in fake_discord.requests}
    assert ("GET", "/api/v10/users/@me") in seen
    assert ("GET", "/api/v10/oauth2/applications/@me") in seen
    await fake_discord.wait_for(lambda: fake_discord.heartbeats >= 1, what="a heartbeat")
    await asyncio.sleep(0.05)  # let the client process the HEARTBEAT_ACK
    assert bot.latency < 1.0


async def test_tree_sync_recorded_and_matches_code(fake_discord: FakeDiscord, bot: E2EBot) -> None:
    guild_id = bot.test_guild.id
    assert fake_discord.command_syncs == [
        (None, ["ping", "board", "pick", "feedback", "remind", "think", "slow", "long"]),
        (guild_id, ["game"]),
    ]
    for scope, registered in fake_discord.registered_commands.items():
        local = bot.tree.get_commands(guild=None if scope is None else discord.Object(scope))
        assert [c["name"] for c in registered] == [c.name for c in local]
        for cmd, reg in zip(local, registered, strict=True):
            expected = json.loads(json.dumps(cmd.to_dict(bot.tree)))
            assert {k: reg[k] for k in expected} == expected
            assert int(reg["id"]) > 0 and reg["application_id"] == str(bot.application_id)
    game = fake_discord.command("game", world_guild := fake_discord.guilds[guild_id])
    assert game is not None and game["guild_id"] == str(world_guild.id)
    assert game["options"][0]["options"][0]["autocomplete"] is True

    fetched = await bot.tree.fetch_commands(guild=bot.test_guild)
    assert [(c.id, c.name) for c in fetched] == [(int(game["id"]), "game")]

    # Re-syncing overwrites in place: Discord keeps the ids of commands that stay.
    ids = [c["id"] for c in fake_discord.global_commands]
    synced = await bot.tree.sync()
    assert [str(c.id) for c in synced] == ids == [c["id"] for c in fake_discord.global_commands]
    assert len(fake_discord.command_syncs) == 3


# --------------------------------------------------------------------------- slash commands


async def test_slash_ping_is_answered_ephemerally(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await (await fake_discord.slash(world.alice, world.games, "ping")).wait()
    assert res.callback_type is CallbackType.CHANNEL_MESSAGE
    assert res.response is not None and res.response.content == "pong"
    assert res.ephemeral and res.response.ephemeral_for is world.alice
    assert res.response.interaction is res and res.response.source == "callback"
    assert fake_discord.ephemerals_for(world.alice) == [res.response]
    assert res.response in fake_discord.visible_to(world.alice)
    assert res.response not in fake_discord.visible_to(world.bob)
    assert fake_discord.messages_in(world.games) == []
    assert res.latency is not None and 0 < res.latency < 1.0
    assert fake_discord.latencies == [res.latency]


async def test_group_subcommand_option_and_autocomplete(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    choices = await fake_discord.autocomplete(world.alice, world.games, "game new", "type", "Ti")
    assert choices == [{"name": "Tigris", "value": "tigris"}, {"name": "Tikal", "value": "tikal"}]
    focused = fake_discord.interactions[-1].payload["data"]["options"][0]["options"][0]
    assert focused == {"name": "type", "type": 3, "value": "Ti", "focused": True}

    res = await fake_discord.slash(world.alice, world.games, "game new", type="tigris")
    await res.wait()
    game = fake_discord.command("game", world.guild)
    assert game is not None
    assert res.payload["data"] == {
        "id": game["id"],
        "name": "game",
        "type": 1,
        "guild_id": str(world.guild.id),
        "options": [
            {"name": "new", "type": 1, "options": [{"name": "type", "type": 3, "value": "tigris"}]}
        ],
    }
    assert res.response is not None and not res.ephemeral
    assert res.response.content == "New tigris game created by alice"
    assert fake_discord.messages_in(world.games) == [res.response]
    assert res.response in fake_discord.visible_to(world.bob)

    # The fake refuses what Discord's UI could not send.
    with pytest.raises(ValueError, match="pick a subcommand"):
        await fake_discord.slash(world.alice, world.games, "game")
    with pytest.raises(LookupError, match="no subcommand"):
        await fake_discord.slash(world.alice, world.games, "game old")
    with pytest.raises(ValueError, match="missing required"):
        await fake_discord.slash(world.alice, world.games, "game new")
    with pytest.raises(TypeError, match="no option"):
        await fake_discord.slash(world.alice, world.games, "ping", loud=True)
    with pytest.raises(LookupError, match="not registered for DMs"):
        await fake_discord.slash(
            world.alice, fake_discord.dm_channel(world.alice), "game new", type="tikal"
        )


async def test_file_attachment_and_persistent_button(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await (await fake_discord.slash(world.bob, world.games, "board")).wait()
    msg = res.response
    assert msg is not None and msg.content == "Current board"
    assert [a.filename for a in msg.attachments] == ["board.png"]
    assert msg.attachments[0].data == PNG
    with Image.open(io.BytesIO(msg.attachments[0].data)) as image:
        assert image.size == (48, 32) and image.getpixel((5, 5)) == (10, 20, 250)
    assert msg.custom_ids() == ["board:refresh"]

    # The bot can read its message and download the attachment back from the fake.
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(msg.id)
    assert await fetched.attachments[0].read() == PNG

    click = await (await fake_discord.click(world.alice, msg, "board:refresh")).wait()
    assert click.type is InteractionType.MESSAGE_COMPONENT
    assert click.payload["message"]["id"] == str(msg.id)
    assert click.response is not None and click.response.content == "Refreshed for alice"
    assert click.response.ephemeral_for is world.alice
    with pytest.raises(LookupError, match="no component"):
        await fake_discord.click(world.alice, msg, "board:nope")


async def test_select_menu_and_modal(fake_discord: FakeDiscord, world: World, bot: E2EBot) -> None:
    res = await (await fake_discord.slash(world.alice, world.games, "pick")).wait()
    msg = res.response
    assert msg is not None
    with pytest.raises(ValueError, match="not among the options"):
        await fake_discord.select(world.alice, msg, "pick:game", ["chess"])
    picked = await (await fake_discord.select(world.alice, msg, "pick:game", ["tikal"])).wait()
    assert picked.callback_type is CallbackType.UPDATE_MESSAGE and picked.response is msg
    assert msg.content == "You picked tikal" and msg.components == []
    assert msg.history[0]["content"] == "Pick a game" and msg.edited_at is not None

    opened = await (await fake_discord.slash(world.alice, world.games, "feedback")).wait()
    assert opened.callback_type is CallbackType.MODAL and opened.modal is not None
    assert opened.modal["custom_id"] and opened.modal["title"] == "Feedback"
    with pytest.raises(ValueError, match="required"):
        await fake_discord.submit_modal(world.alice, opened, {})
    sent = await (
        await fake_discord.submit_modal(world.alice, opened, {"feedback:text": "great"})
    ).wait()
    assert sent.response is not None and sent.response.content == "Thanks: great"
    assert sent.response.ephemeral_for is world.alice


# --------------------------------------------------------------------------- DMs


async def test_dm_delivered_to_user_with_open_dms(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await (await fake_discord.slash(world.alice, world.games, "remind")).wait()
    await fake_discord.wait_for(lambda: bool(fake_discord.dms_to(world.alice)), what="the DM")
    await res.wait(quiet=0.05)
    [dm] = fake_discord.dms_to(world.alice)
    assert dm.content == "Reminder: it is your turn"
    assert dm.is_dm and dm.dm_recipient is world.alice and not dm.ephemeral
    assert dm in fake_discord.visible_to(world.alice)
    assert dm not in fake_discord.visible_to(world.bob)
    assert res.followups == [] and bot.dm_failures == []


async def test_closed_dms_get_50007_and_ephemeral_fallback(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await (await fake_discord.slash(world.bob, world.games, "remind")).wait(followups=1)
    assert bot.dm_failures == [world.bob.id]
    assert fake_discord.dms_to(world.bob) == []
    dm_channel = fake_discord.dm_channel(world.bob)
    refused = [
        r for r in fake_discord.requests if r.path == f"/api/v10/channels/{dm_channel.id}/messages"
    ]
    assert [(r.status, r.code) for r in refused] == [(403, ErrorCode.CANNOT_SEND_MESSAGES_TO_USER)]
    [fallback] = res.followups
    assert fallback.source == "followup" and fallback.interaction is res
    assert fallback.ephemeral and fallback.ephemeral_for is world.bob
    assert "open your DMs" in fallback.content
    assert fake_discord.ephemerals_for(world.bob) == [res.response, fallback]


# --------------------------------------------------------------------------- Discord's rules


async def test_first_followup_after_defer_edits_the_loading_message(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await (await fake_discord.slash(world.alice, world.games, "think")).wait(followups=1)
    assert res.callback_type is CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert res.followups == [res.response]
    msg = res.response
    assert msg is not None and msg.content == "Thought hard" and not msg.loading
    assert not msg.ephemeral  # the defer was public; the follow-up's ephemeral flag is ignored
    assert fake_discord.messages_in(world.games) == [msg]


async def test_late_callback_is_unknown_interaction(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    fake_discord.callback_deadline = 0.1
    res = await fake_discord.slash(world.alice, world.games, "slow")
    await fake_discord.wait_for(lambda: bool(bot.http_error_codes), what="the bot's error")
    assert bot.http_error_codes == [ErrorCode.UNKNOWN_INTERACTION]
    assert not res.acknowledged and [r.code for r in res.rejected] == [10062]
    with pytest.raises(TimeoutError, match="/slow"):
        await res.wait(timeout=0.1)


async def test_oversized_message_is_rejected(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "long")
    await fake_discord.wait_for(lambda: bool(bot.http_error_codes), what="the bot's error")
    assert bot.http_error_codes == [ErrorCode.INVALID_FORM_BODY]
    assert not res.acknowledged and fake_discord.messages == []


# --------------------------------------------------------------------------- gateway & HTTP


async def test_gateway_resume_after_disconnect(
    fake_discord: FakeDiscord, world: World, bot: E2EBot
) -> None:
    session_id = bot.ws.session_id
    await fake_discord.disconnect_bot(code=4000)
    await fake_discord.wait_for(lambda: fake_discord.resume_count == 1, what="RESUME")
    assert len(fake_discord.identify_payloads) == 1 and bot.ws.session_id == session_id
    assert bot.ws.gateway.path == "/resume/"  # reconnected via resume_gateway_url
    res = await (await fake_discord.slash(world.alice, world.games, "ping")).wait()
    assert res.response is not None and res.response.content == "pong"


async def test_unknown_route_is_loud_and_json_is_exact(
    fake_discord: FakeDiscord, bot: E2EBot, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert [str(r) for r in fake_discord.unknown_requests] == ["GET /api/v10/voice/regions -> 404"]
    assert "UNKNOWN ROUTE GET /api/v10/voice/regions" in caplog.text
    with pytest.raises(AssertionError, match="unknown route"):
        fake_discord.assert_clean()
    fake_discord.unknown_requests.clear()

    async with aiohttp.ClientSession() as http:
        url = f"{fake_discord.api_base}/users/@me"
        async with http.get(url, headers={"Authorization": f"Bot {fake_discord.token}"}) as resp:
            assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
        async with http.get(url, headers={"Authorization": "Bot wrong"}) as resp:
            assert resp.status == 401


async def test_client_closes_cleanly(fake_discord: FakeDiscord, world: World) -> None:
    client = E2EBot(world.guild.id)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with running_client(fake_discord, client):
            res = await (await fake_discord.slash(world.alice, world.games, "ping")).wait()
            assert res.acknowledged and fake_discord.connected
        assert client.is_closed()
        await fake_discord.wait_for(lambda: not fake_discord.connected, what="the socket closing")
        # A close handshake, not a dropped connection (1006). discord.py 2.7.1 on aiohttp 3.14
        # sends 4000 rather than 1000 here: its poll loop, woken by aiohttp's CLOSING message,
        # closes the socket with 4000 before client.close()'s 1000 frame goes out.
        assert fake_discord.gateway_close_codes in ([1000], [4000])
        await fake_discord.stop()
        await asyncio.sleep(0)
        gc.collect()
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert others == []
    alive = [t for t in threading.enumerate() if isinstance(t, KeepAliveHandler) and t.is_alive()]
    assert alive == []
    assert [str(w.message) for w in caught] == []


# --------------------------------------------------------------------------- wider surface


class SurfaceBot(discord.Client):
    """Members intent on, message-content intent off; exercises threads, edits, events."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Message] = []
        self.joined: list[int] = []
        self.created_channels: list[str] = []
        self._register_commands()

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    async def on_member_join(self, member: discord.Member) -> None:
        self.joined.append(member.id)

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.created_channels.append(channel.name)

    def _register_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Resolved options")
        async def who(
            interaction: discord.Interaction,
            member: discord.Member,
            where: discord.TextChannel,
            pic: discord.Attachment,
            n: app_commands.Range[int, 1, 5] = 1,
        ) -> None:
            data = await pic.read()
            await interaction.response.send_message(
                f"{member.name} in {where.name} n={n} pic={len(data)}"
            )

        @tree.command(description="Threads, edits, reactions, history")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("opening")
            original = await interaction.original_response()
            thread = await original.create_thread(name="game-1")
            kept = await thread.send("hello")
            await kept.add_reaction("✅")
            await kept.edit(content="hello (edited)")
            await (await thread.send("to delete")).delete()
            history = [m.content async for m in thread.history(limit=10)]
            await interaction.followup.send(f"history={history}", ephemeral=True)
            await interaction.edit_original_response(content="opened")
            assert isinstance(interaction.channel, discord.TextChannel)
            secret = await interaction.channel.create_thread(
                name="secret", type=discord.ChannelType.private_thread
            )
            await secret.add_user(interaction.user)
            await secret.send("psst")

        @tree.command(description="Works in DMs")
        async def hi(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.followup.send("hi")
            await interaction.followup.send("second")
            await interaction.delete_original_response()


async def test_resolved_options_threads_edits_and_reactions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("Surface")
    games = fake.add_channel(guild, "games")
    alice = fake.add_user("alice")
    async with running_client(fake, SurfaceBot()) as bot:
        live_guild = bot.get_guild(guild.id)
        assert live_guild is not None and live_guild.get_member(alice.id) is not None
        res = await fake.slash(
            alice, games, "who", member=alice, where=games, pic=("a.txt", b"abc")
        )
        assert (await res.wait()).response is not None
        assert res.response.content == "alice in games n=1 pic=3"
        with pytest.raises(ValueError, match="out of range"):
            await fake.slash(alice, games, "who", member=alice, where=games, pic=("b", b""), n=6)

        res = await (await fake.slash(alice, games, "table")).wait(followups=1, quiet=0.1)
        assert res.response is not None and res.response.content == "opened"
        assert res.response.history[0]["content"] == "opening"
        [thread] = [c for c in fake.channels.values() if c.name == "game-1"]
        assert thread.id == res.response.id and thread.parent is games  # started from it
        [kept] = fake.messages_in(thread)
        assert kept.content == "hello (edited)" and set(kept.reactions) == {"✅"}
        assert [m.content for m in fake.messages if m.deleted] == ["to delete"]
        assert res.followups[0].content == "history=['hello (edited)']"
        [secret] = [c for c in fake.channels.values() if c.name == "secret"]
        bob = fake.add_user("bob")
        await fake.wait_for(lambda: bob.id in bot.joined, what="GUILD_MEMBER_ADD")
        assert [m.content for m in fake.visible_to(alice) if m.channel is secret] == ["psst"]
        assert [m.content for m in fake.visible_to(bob) if m.channel is secret] == []


async def test_dm_slash_intents_and_world_changes_after_ready(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("Surface")
    games = fake.add_channel(guild, "games")
    alice = fake.add_user("alice")
    async with running_client(fake, SurfaceBot()) as bot:
        res = await fake.slash(alice, fake.dm_channel(alice), "hi")
        await res.wait(followups=2, quiet=0.05)
        assert res.payload["context"] == 1 and "user" in res.payload and "member" not in res.payload
        assert res.response is not None and res.response.deleted
        assert res.followups[0] is res.response  # the first follow-up filled the defer
        assert res.followups[1].content == "second" and res.followups[1].is_dm

        # Without the message-content intent the bot sees content only when mentioned.
        await fake.user_says(alice, games, "secret words")
        await fake.user_says(alice, games, f"hey {fake.bot_user.mention}")

        def from_alice() -> list[str]:
            return [m.content for m in bot.seen if m.author.id == alice.id]

        await fake.wait_for(lambda: len(from_alice()) == 2, what="alice's MESSAGE_CREATEs")
        assert from_alice() == ["", f"hey {fake.bot_user.mention}"]
        # The bot also got MESSAGE_CREATE for its own (non-ephemeral) DM follow-up.
        assert any(m.author.id == fake.bot_user.id and m.content == "second" for m in bot.seen)

        fake.add_channel(guild, "late")
        await fake.wait_for(lambda: bot.created_channels == ["late"], what="CHANNEL_CREATE")
        await fake.request_reconnect()
        await fake.wait_for(lambda: fake.resume_count == 1, what="RESUME after op 7")
        res = await fake.slash(alice, games, "who", member=alice, where=games, pic=("b", b"xy"))
        assert (await res.wait()).response is not None
        assert res.response.content == "alice in games n=1 pic=2"


@pytest.mark.parametrize(
    "options, problem",
    [
        ([{"name": f"o{n}", "type": 3, "description": "d"} for n in range(26)], "more than 25"),
        ([{"name": "Big", "type": 3, "description": "d"}], "invalid option name"),
        ([{"name": "o", "type": 3, "description": "d" * 101}], "must be 1 to 100"),
        (
            [
                {"name": "a", "type": 3, "description": "d"},
                {"name": "b", "type": 3, "description": "d", "required": True},
            ],
            "required after optional",
        ),
        (
            [
                {
                    "name": "g",
                    "type": 2,
                    "description": "d",
                    "options": [{"name": "x", "type": 3, "description": "d"}],
                }
            ],
            "subcommands only",
        ),
        (
            [
                {
                    "name": "o",
                    "type": 3,
                    "description": "d",
                    "autocomplete": True,
                    "choices": [{"name": "a", "value": "a"}],
                }
            ],
            "choices and autocomplete",
        ),
    ],
)
def test_command_trees_are_checked_as_discord_does(options: list, problem: str) -> None:
    from .fake_discord import _ApiError, _check_options

    with pytest.raises(_ApiError, match=problem):
        _check_options(options, "cmd", depth=0)


def test_a_command_over_discords_size_limit_is_refused() -> None:
    from .fake_discord import MAX_COMMAND_SIZE, _command_size

    option = {"name": "o", "description": "d" * 100, "description_localizations": {"ko": "k"}}
    assert _command_size({"name": "c", "description": "x", "options": [option]}) == 1 + 1 + 101
    big = {"name": "c", "description": "x", "options": [option] * 80}
    assert _command_size(big) > MAX_COMMAND_SIZE
