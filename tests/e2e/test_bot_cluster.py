"""A shard cluster: two real bot processes, one shard each, sharing one database.

Each process is ``tests/support/bot_process.py`` (the production ``serve``)
with ``ZIGGURAT_SHARDS=2`` and its own ``ZIGGURAT_SHARD_IDS``, against the
fake Discord in this test's process, which routes each guild's interactions
to the connection running its shard and every DM to shard 0's. The database
is one PostgreSQL server, the cluster's deployment (a throwaway server from
:mod:`tests.support.postgres`); the first test runs again on one shared
SQLite file (possible on one machine: both processes open it in WAL mode),
the kill test only on PostgreSQL, to keep the module near two minutes.

The world: a guild on each shard, :data:`PER_GUILD` channels in each, an
Oracle game in every channel; every player asked for "your turn" DMs. Then:

* all 100 channels act at once: each move is committed exactly once and each
  player is told the card the database holds for them;
* each round's winner answers from the "your turn" DM: the click arrives at
  shard 0's process, which hands the clicks of games in the other guild over
  to their owner (both processes' logs show it), and the move is committed
  once and announced in the game's channel;
* the same load with shard 0's process killed (SIGKILL) mid-load and
  restarted: every acknowledged move is stored; reminders made due while it is
  down are fired by the live process for its own games only, and by the
  restarted one for the rest: one reminder in every channel, each logged by
  the owner.

Waiting is on what the fake records (answers, messages) and on the stored
games; the timeouts only turn a hang into a failure. The fake's callback
deadline is one of them (60 s, not Discord's 3 s: ``tests/e2e/conftest.py``):
200 interactions at once reach a process on a loaded machine late, and are
acknowledged late, not refused and lost.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from bot import games
from bot.cluster import shard_of
from bot.i18n import t
from bot.store import GameRow, Store
from tests.conftest import BOTH_BACKENDS, register_oracle

from .bot_harness import action_buttons, said
from .fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, InteractionResult
from .test_bot_process import CHILD, ROOT, inherited_env

TOTAL = 2
PER_GUILD = 50
WAIT = 60.0


@dataclass
class Member:
    """One bot process of the cluster."""

    shard: int
    process: asyncio.subprocess.Process
    log: IO[bytes]


@dataclass(eq=False)
class Cluster:
    fake: FakeDiscord
    folder: Path
    #: the shared database: a ``postgresql://`` URL or a SQLite file
    db: str
    guilds: list[FakeGuild] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    users: list[FakeUser] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    def log_path(self, shard: int) -> Path:
        return self.folder / f"shard{shard}.log"

    def log(self, shard: int) -> str:
        return self.log_path(shard).read_text(encoding="utf-8", errors="replace")

    def print_log_tails(self, lines: int = 80) -> None:
        """The last ``lines`` of each process's log, for a failed test's report."""
        for path in sorted(self.folder.glob("shard*.log")):
            tail = path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            print(f"--- {path.name} (last {len(tail)} lines)", *tail, sep="\n")

    def build(self) -> None:
        fake = self.fake
        self.users = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave")]
        for shard in range(TOTAL):
            guild = fake.add_guild(f"Shard {shard} Server", shard=(shard, TOTAL))
            self.guilds.append(guild)
            for user in self.users:
                fake.add_member(guild, user)
            self.channels += [fake.add_channel(guild, f"games-{n}") for n in range(PER_GUILD)]

    def players(self, index: int) -> tuple[FakeUser, FakeUser]:
        return self.users[index % 4], self.users[(index + 1) % 4]

    async def start(self, shard: int) -> None:
        """Start the process of ``shard``; wait until it identified and synced."""
        await self.launch(shard, f"{shard}-{shard}", [shard])

    async def launch(self, key: int, shard_ids: str | None, shards: list[int]) -> None:
        """Start a process running ``shard_ids`` (``None``: every shard), kept as
        ``members[key]``; wait until ``shards`` identified and it synced."""
        synced = len(self.fake.command_syncs)
        env = {
            **inherited_env(),
            "PYTHONPATH": str(ROOT),
            "ZIGGURAT_FAKE_DISCORD": self.fake.url,
            "DISCORD_TOKEN": self.fake.token,
            "ZIGGURAT_DB": self.db,
            "ZIGGURAT_SHARDS": str(TOTAL),
            **({"ZIGGURAT_SHARD_IDS": shard_ids} if shard_ids is not None else {}),
            "ZIGGURAT_LOG_LEVEL": "INFO",
        }
        log = self.log_path(key).open("ab")
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), env=env, cwd=str(ROOT), stderr=log
        )
        self.members[key] = Member(key, process, log)
        await self.fake.wait_for(
            lambda: (
                all(self.fake.shard_connected(n) for n in shards)
                and len(self.fake.command_syncs) > synced
            ),
            timeout=WAIT,
            what=f"the process of shards {shards} to identify and sync",
        )

    async def kill(self, shard: int) -> None:
        member = self.members.pop(shard)
        member.process.send_signal(signal.SIGKILL)
        await member.process.wait()
        member.log.close()
        await self.fake.wait_for(
            lambda: not self.fake.shard_connected(shard), timeout=WAIT, what="the lost shard"
        )

    async def stop(self) -> None:
        for member in self.members.values():
            if member.process.returncode is None:
                member.process.send_signal(signal.SIGTERM)
        for member in self.members.values():
            try:
                await asyncio.wait_for(member.process.wait(), WAIT)
            except TimeoutError:
                member.process.kill()
                await member.process.wait()
            member.log.close()
        self.members.clear()


@pytest.fixture
async def cluster(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> AsyncIterator[Cluster]:
    register_oracle()
    world = Cluster(fake_discord, tmp_path, database_url)
    world.build()
    try:
        for shard in range(TOTAL):
            await world.start(shard)
        yield world
    finally:
        await world.stop()
        world.print_log_tails()  # pytest shows a test's teardown output only when it fails


async def answered(itx: InteractionResult) -> InteractionResult:
    """The interaction's complete answer: its deferred response edited and no more traffic."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        await itx.wait(timeout=WAIT, quiet=0.3)
        if itx.response is not None and not itx.response.loading:
            return itx
        await asyncio.sleep(0.05)
    raise AssertionError(f"{itx.label} was never answered")


def complete(itx: InteractionResult) -> bool:
    return itx.response is not None and not itx.response.loading


async def each(*chains: Any) -> list[Any]:
    return list(await asyncio.gather(*chains))


async def read_games(db: str, channels: list[FakeChannel]) -> dict[int, GameRow]:
    """The latest game of each channel, read as another process would."""
    store = await Store.open(db)
    try:
        rows = {}
        for channel in channels:
            row = await store.latest_game_in(channel.id)
            assert row is not None
            rows[channel.id] = row
        return rows
    finally:
        await store.close()


def awaited(row: GameRow) -> list[int]:
    engine = games.REGISTRY[row.game_type].engine
    return sorted(row.seats[s].user_id for s in engine.waiting_for(engine.load_state(row.state)))


async def moves_of(db: str, rows: dict[int, GameRow]) -> dict[int, list[tuple[int, str, str]]]:
    """Each game's stored moves: (seat, action, kind)."""
    store = await Store.open(db)
    try:
        return {
            row.id: [(m.seat, m.action, m.kind) for m in await store.moves(row.id)]
            for row in rows.values()
        }
    finally:
        await store.close()


async def reminders_due(db: str, rows: dict[int, GameRow], when: float | None) -> list[int]:
    """Make every game's reminder due at ``when`` (``None``: leave it); return the games
    whose reminder is due by now."""
    store = await Store.open(db)
    try:
        now = time.time()
        due = []
        for row in rows.values():
            if when is not None:
                await store.replace_timers(row.id, "reminder", when)
            if any(t.kind == "reminder" and t.due_at <= now for t in await store.timers(row.id)):
                due.append(row.id)
        return due
    finally:
        await store.close()


async def set_up_games(world: Cluster) -> None:
    fake = world.fake

    async def one(index: int, channel: FakeChannel) -> None:
        first, second = world.players(index)
        for user, command in ((first, "game new oracle"), (second, "game join")):
            itx = await answered(await fake.slash(user, channel, command))
            assert not itx.rejected, itx.rejected
        await answered(await fake.slash(first, channel, "game start"))

    for user in world.users:  # "your turn" by DM, remembered per user
        await answered(await fake.slash(user, world.channels[0], "game notify", how="dm"))
    await each(*(one(i, c) for i, c in enumerate(world.channels)))
    rows = await read_games(world.db, world.channels)
    assert all(row.status == "running" for row in rows.values())


async def send_plays(
    world: Cluster, rows: dict[int, GameRow], channels: list[FakeChannel] | None = None
) -> list[tuple[FakeChannel, FakeUser, str, InteractionResult]]:
    """Every player who still owes a card plays one, in every channel (or ``channels``)
    at once."""
    by_id = {u.id: u for u in world.users}
    plans: list[tuple[FakeChannel, FakeUser, str]] = []
    for channel in world.channels if channels is None else channels:
        row = rows[channel.id]
        engine = games.REGISTRY[row.game_type].engine
        state = engine.load_state(row.state)
        for seat in sorted(engine.waiting_for(state)):
            action = str(engine.legal_actions(state, seat)[-1])  # the highest card
            if action.startswith("play"):  # not a round's winner choosing
                plans.append((channel, by_id[row.seats[seat].user_id], action))
    sent = await each(*(world.fake.slash(u, c, "play", action=a) for c, u, a in plans))
    return [(c, u, a, itx) for (c, u, a), itx in zip(plans, sent, strict=True)]


def check_told(
    sent: list[tuple[FakeChannel, FakeUser, str, InteractionResult]],
    rows: dict[int, GameRow],
    moves: dict[int, list[tuple[int, str, str]]],
) -> None:
    """Each answered play: the player was told the card the database holds for them (a
    round's last play by its reveal, which names every seat's card)."""
    for channel, user, action, itx in sent:
        if not complete(itx):
            continue
        assert itx.response is not None
        row = rows[channel.id]
        seat = row.seat_of(user.id)
        assert seat is not None
        if itx.response.ephemeral:
            told = said("oracle", action)
        else:
            told = f"{seat.seat + 1}:{action.split()[1]}"
            assert t("en", "oracle.event.revealed", cards="").removesuffix(" .") in (
                itx.response.text
            )
        assert told in itx.response.text, (channel.name, itx.response.text)
        plays = [a for s, a, kind in moves[row.id] if s == seat.seat and a.startswith("play")]
        assert plays == [action], (channel.name, user.name, plays)


@pytest.mark.slow
@BOTH_BACKENDS
async def test_two_processes_carry_100_channels_and_hand_dm_clicks_to_the_owner(
    cluster: Cluster,
) -> None:
    world, fake = cluster, cluster.fake
    await set_up_games(world)

    # the first round: 200 sealed plays in 100 channels at once, on both processes
    rows = await read_games(world.db, world.channels)
    sent = await send_plays(world, rows)
    assert len(sent) == 2 * len(world.channels)
    await each(*(answered(itx) for *_, itx in sent))
    for channel, _, _, itx in sent:
        assert itx.shard == shard_of(channel.guild.id, TOTAL)  # type: ignore[union-attr]
    rows = await read_games(world.db, world.channels)
    moves = await moves_of(world.db, rows)
    check_told(sent, rows, moves)
    assert all(len(moves[row.id]) == 2 for row in rows.values())  # each play once

    # each round's winner answers from the "your turn" DM, all at once
    clicks: list[tuple[FakeChannel, InteractionResult]] = []
    plans = []
    for channel in world.channels:
        row = rows[channel.id]
        [winner_id] = awaited(row)
        [winner] = [u for u in world.users if u.id == winner_id]
        note = [  # the newest "your turn" DM of this game: the winner's decision
            m
            for m in fake.dms_to(winner)
            if m.text.startswith(t("en", "notify.your_turn_dm", channel=f"<#{channel.id}>"))
        ][-1]
        buttons = action_buttons(note)
        assert sorted(buttons) == ["claim", "gift"], note.custom_ids()
        plans.append((channel, winner, note, buttons["claim"]))
    sent_clicks = await each(*(fake.click(w, n, cid) for _, w, n, cid in plans))
    clicks = [(p[0], itx) for p, itx in zip(plans, sent_clicks, strict=True)]
    await each(*(answered(itx) for _, itx in clicks))

    after = await read_games(world.db, world.channels)
    moves = await moves_of(world.db, after)
    logs = {shard: world.log(shard) for shard in range(TOTAL)}
    for channel, itx in clicks:
        row = after[channel.id]
        assert itx.shard == 0  # Discord sends DM interactions to shard 0
        assert itx.response is not None and said("oracle", "claim") in itx.response.text
        assert [a for _, a, _ in moves[row.id]].count("claim") == 1
        assert row.version > rows[channel.id].version
        # announced in the game's channel (not in the DM where it was clicked)
        assert any("scores a point" in m.text for m in fake.messages_in(channel))
        owner = shard_of(channel.guild.id, TOTAL)  # type: ignore[union-attr]
        handed = f"interaction {itx.id} for game {row.id} handed over to shard 1"
        took = f"took over interaction {itx.id} for game {row.id}"
        if owner == 1:
            assert handed in logs[0] and took in logs[1], itx.id
        else:
            assert handed not in logs[0] and took not in logs[1]
    assert sum(1 for line in logs[1].splitlines() if "took over interaction" in line) == PER_GUILD


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["postgres"])
async def test_one_process_killed_mid_load_loses_nothing_and_timers_fire_once(
    cluster: Cluster,
) -> None:
    world, fake = cluster, cluster.fake
    await set_up_games(world)
    rows = await read_games(world.db, world.channels)
    # shard 1's plays and half of shard 0's are answered; then shard 0's other half is
    # sent and its process SIGKILLed at once, with those plays in flight (killing after
    # "a few answers" of one batch raced the batch's end on a fast or a loaded machine)
    zero = [c for c in world.channels if c.guild is world.guilds[0]]
    first = [c for c in world.channels if c not in zero[len(zero) // 2 :]]
    sent = await send_plays(world, rows, first)
    await each(*(answered(itx) for *_, itx in sent))
    sent += await send_plays(world, rows, zero[len(zero) // 2 :])
    await world.kill(0)
    mine = [itx for c, _, _, itx in sent if itx.shard == 0]
    await fake.wait_quiet(0.5, timeout=WAIT)
    told = [s for s in sent if complete(s[3])]
    assert any(s[3].shard == 0 for s in told)
    assert not all(complete(i) for i in mine)  # it died mid-load
    rows = await read_games(world.db, world.channels)
    moves = await moves_of(world.db, rows)
    check_told(told, rows, moves)  # nothing acknowledged was lost

    # while shard 0 is down, every game's reminder comes due
    game_of = {row.id: channel_id for channel_id, row in rows.items()}
    await reminders_due(world.db, rows, time.time())
    guild_channels = {
        shard: [c for c in world.channels if c.guild is world.guilds[shard]] for shard in (0, 1)
    }

    def reminders(channel: FakeChannel) -> int:
        return sum(m.text.startswith("Reminder:") for m in fake.messages_in(channel))

    await fake.wait_for(
        lambda: all(reminders(c) == 1 for c in guild_channels[1]), timeout=WAIT, what="shard 1"
    )
    assert not any(reminders(c) for c in guild_channels[0])  # not shard 1's business
    due = await reminders_due(world.db, rows, None)  # shard 0's, untouched
    assert sorted(game_of[g] for g in due) == sorted(c.id for c in guild_channels[0])

    # shard 0's process comes back: it fires its own reminders, once
    await world.start(0)
    await fake.wait_for(
        lambda: all(reminders(c) == 1 for c in guild_channels[0]), timeout=WAIT, what="shard 0"
    )
    # the plays it never answered are played again by their players
    rows = await read_games(world.db, world.channels)
    again = await send_plays(world, rows)
    assert all(c.guild is world.guilds[0] for c, *_ in again)
    await each(*(answered(itx) for *_, itx in again))
    await fake.wait_quiet(0.5, timeout=WAIT)

    rows = await read_games(world.db, world.channels)
    moves = await moves_of(world.db, rows)
    check_told(told + again, rows, moves)
    for channel in world.channels:
        row = rows[channel.id]
        plays = [(s, a) for s, a, kind in moves[row.id] if a.startswith("play")]
        assert sorted(s for s, _ in plays) == [0, 1], (channel.name, plays)  # each seat once
        assert reminders(channel) == 1
    logs = {shard: world.log(shard) for shard in range(TOTAL)}
    for game_id, channel_id in game_of.items():
        shard = 0 if any(c.id == channel_id for c in guild_channels[0]) else 1
        line = f"timer of game {game_id} fired by shards {shard}-{shard}/{TOTAL}"
        assert len(re.findall(re.escape(line) + r"\b", logs[shard])) == 1, line
        assert line not in logs[1 - shard]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["postgres"])
async def test_game_mine_answers_the_same_from_either_process(cluster: Cluster) -> None:
    """``/game mine`` is answered from the shared store: a player's games in both guilds,
    whichever process (shard) received the command, those waiting for them first."""
    world, fake = cluster, cluster.fake
    alice, bob = world.users[0], world.users[1]
    tables = [c for c in world.channels if c.name == "games-0"]  # one per guild
    assert [c.guild for c in tables] == world.guilds
    for channel in tables:
        for user, command in ((alice, "game new oracle"), (bob, "game join")):
            await answered(await fake.slash(user, channel, command))
        await answered(await fake.slash(alice, channel, "game start"))
    rows = await read_games(world.db, tables)
    answers = []
    for channel in tables:  # one command received by each process
        itx = await answered(await fake.slash(alice, channel, "game mine"))
        assert itx.shard == shard_of(channel.guild.id, TOTAL)
        answers.append("\n".join(m.text for m in itx.messages))
    assert answers[0] == answers[1], answers
    for channel in tables:  # both games, each linked in its own guild
        row = rows[channel.id]
        assert alice.id in awaited(row)  # an Oracle round awaits every seat
        link = f"https://discord.com/channels/{channel.guild.id}/{channel.id}/"
        assert link in answers[0], answers[0]
    assert t("en", "mine.yours") in answers[0]
