"""The bot sharded (``ZIGGURAT_SHARDS``): two shards, a guild on each, same behaviour.

The fake Discord routes each guild's events to the shard ``(guild_id >> 22) %
2`` and DMs to shard 0, as Discord does; ``GET /gateway/bot`` recommends two
shards, which ``ZIGGURAT_SHARDS=auto`` follows. A game is played in a guild on
each shard; the private hands go by DM; ``/help`` is answered in a DM; the
reminder timer posts through ``get_channel``/``fetch_channel`` in both guilds.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.discord import client as client_module
from bot.discord.client import ShardedZigguratBot
from bot.i18n import t

from .bot_harness import BotHarness
from .fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser

SHARDS = 2


@dataclasses.dataclass(eq=False)
class ShardedHarness(BotHarness):
    """The usual world plus a second guild on the other shard; the bot runs sharded."""

    shards: int | str = "auto"
    second_guild: FakeGuild = dataclasses.field(init=False)
    second_channel: FakeChannel = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        fake = self.fake
        other = 1 - fake.shard_of(self.guild.id, SHARDS)
        self.second_guild = fake.add_guild("Second Server", shard=(other, SHARDS))
        self.second_channel = fake.add_channel(self.second_guild, "games")
        for user in (self.alice, self.bob, self.carol, self.mallory):
            fake.add_member(self.second_guild, user)

    def settings(self) -> Settings:
        return dataclasses.replace(super().settings(), shards=self.shards)  # type: ignore[arg-type]


@pytest.fixture
async def sharded(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ShardedHarness]:
    monkeypatch.setattr(client_module, "IDENTIFY_INTERVAL", 0.0)  # no 5 s pause between shards
    fake_discord.shard_count = SHARDS
    harness = ShardedHarness(fake_discord, tmp_path / "ziggurat.db", global_commands=True)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def start_oracle_in(h: BotHarness, channel: FakeChannel, *players: FakeUser) -> None:
    creator, *others = players
    itx = await h.slash(creator, "game new oracle", channel=channel)
    assert h.public_of(itx), h.ephemeral_text(itx)
    for user in others:
        assert h.public_of(await h.slash(user, "game join", channel=channel))
    started = await h.slash(creator, "game start", channel=channel)
    assert h.public_of(started), h.ephemeral_text(started)


async def test_two_shards_identify_and_each_gets_its_own_guild(sharded: ShardedHarness) -> None:
    h, fake = sharded, sharded.fake
    bot = h.running
    assert isinstance(bot, ShardedZigguratBot)
    assert any(r.path.endswith("/gateway/bot") for r in fake.requests)  # "auto" asked Discord
    assert bot.shard_count == SHARDS
    shards = sorted(tuple(p["shard"]) for p in fake.identify_payloads)
    assert shards == [(0, SHARDS), (1, SHARDS)]
    on_shard = {
        guild.id: bot.get_guild(guild.id).shard_id  # type: ignore[union-attr]
        for guild in (h.guild, h.second_guild)
    }
    assert sorted(on_shard.values()) == [0, 1]
    assert on_shard[h.guild.id] == fake.shard_of(h.guild.id, SHARDS)


async def test_a_game_on_each_shard_with_dms_and_reminders(sharded: ShardedHarness) -> None:
    h, fake = sharded, sharded.fake
    games = {h.channel: (h.alice, h.bob), h.second_channel: (h.bob, h.alice)}
    for channel, players in games.items():
        await start_oracle_in(h, channel, *players)

    # private hands reached both players by DM, once per game
    for user in (h.alice, h.bob):
        hands = [m for m in fake.dms_to(user) if m.attachments]
        assert len(hands) == 2, [m.text for m in fake.dms_to(user)]

    # a move in each game, on each shard
    awaited: dict[FakeChannel, FakeUser] = {}
    for channel, players in games.items():
        user = players[0]  # Oracle: everyone plays a card at once; the first one plays now
        action = (await h.legal(user, channel))[0]
        itx = await h.slash(user, "play", channel=channel, action=action)
        assert not itx.rejected and itx.messages, h.ephemeral_text(itx)
        assert h.store is not None
        row = await h.store.latest_game_in(channel.id)
        assert row is not None
        engine = h.running.service.registry["oracle"].engine
        waiting = {row.seats[s].user_id for s in engine.waiting_for(engine.load_state(row.state))}
        assert user.id not in waiting  # the move was taken: now the game waits for the other
        [awaited[channel]] = [u for u in players if u.id in waiting]

    # a DM interaction arrives on shard 0 and is answered
    dm = fake.dm_channel(h.carol)
    itx = await h.slash(h.carol, "help", channel=dm)
    assert "/game new" in h.ephemeral_text(itx)

    # the timer task posts in both guilds' channels (no interaction: get_channel/fetch_channel)
    assert h.store is not None
    for channel in games:
        game_id = await h.game_id(channel)
        await h.store.replace_timers(game_id, "reminder", time.time())
    await h.running.timers.sync()

    def reminders(channel: FakeChannel) -> list[str]:
        return [m.text for m in h.public_messages(channel) if m.text.startswith("Reminder:")]

    await fake.wait_for(
        lambda: all(reminders(channel) for channel in games), timeout=15, what="two reminders"
    )
    for channel, user in awaited.items():
        [text] = reminders(channel)
        assert text.splitlines()[0] == t("en", "reminder.public", players=user.name)


async def test_a_fixed_shard_count_needs_no_gateway_query(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_module, "IDENTIFY_INTERVAL", 0.0)
    harness = ShardedHarness(fake_discord, tmp_path / "z.db", global_commands=True, shards=2)
    await harness.start()
    try:
        assert harness.running.shard_count == 2
        assert not any(r.path.endswith("/gateway/bot") for r in fake_discord.requests)
        itx = await harness.slash(harness.bob, "help", channel=harness.second_channel)
        assert "/game new" in harness.ephemeral_text(itx)
    finally:
        await harness.stop()
