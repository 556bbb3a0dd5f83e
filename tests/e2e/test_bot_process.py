"""The bot as real OS processes: killed with SIGKILL mid-game, a new process carries on.

The bot runs through its production entry point (``serve``) in a child
process (:mod:`tests.support.bot_process`) against the fake Discord in this
test's process; a second child on the same SQLite file finishes the game.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot import games
from bot.config import EVENT_LOOP_VARIABLE
from bot.i18n import t
from bot.store import Store

from .fake_discord import FakeDiscord, FakeUser, InteractionResult

CHILD = Path(__file__).resolve().parents[1] / "support" / "bot_process.py"
ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0


def inherited_env() -> dict[str, str]:
    """This process's environment without its bot settings, but for the event loop: a
    child bot runs the loop the tests run on (``ZIGGURAT_EVENT_LOOP``, tests/conftest.py)."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "ZIGGURAT_")) or k == EVENT_LOOP_VARIABLE
    }


@asynccontextmanager
async def bot_process(
    fake: FakeDiscord, db: Path, guild_id: int, extra_env: Mapping[str, str] | None = None
) -> AsyncIterator[int]:
    """Start one bot process (``extra_env`` added to its settings) and wait until it has
    identified and synced its commands."""
    identified = len(fake.identify_payloads)
    synced = len(fake.command_syncs)
    env = {
        **inherited_env(),
        "PYTHONPATH": str(ROOT),
        "ZIGGURAT_FAKE_DISCORD": fake.url,
        "DISCORD_TOKEN": fake.token,
        "ZIGGURAT_DB": str(db),
        "ZIGGURAT_DEV_GUILD_ID": str(guild_id),
        "ZIGGURAT_LOG_LEVEL": "WARNING",
        **(extra_env or {}),
    }
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), env=env, cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    try:
        await fake.wait_for(
            lambda: len(fake.identify_payloads) > identified and len(fake.command_syncs) > synced,
            timeout=WAIT,
            what="the bot process to identify and sync",
        )
        yield child.pid
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()


async def answered(itx: InteractionResult) -> InteractionResult:
    """A command's whole answer: its deferred response edited, then nothing more for a while."""
    await itx.wait(timeout=WAIT, messages=1)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        await itx.wait(timeout=WAIT, quiet=0.2)
        if itx.response is not None and not itx.response.loading:
            return itx
        await asyncio.sleep(0.05)
    raise AssertionError(f"{itx.label} was never answered")


async def waiting_and_legal(db: Path, channel_id: int) -> tuple[int | None, list[str], bool]:
    """Read the stored game (as a second reader of the WAL file): whom it waits for, what."""
    store = await Store.open(db)
    try:
        row = await store.latest_game_in(channel_id)
        assert row is not None
        engine = games.REGISTRY[row.game_type].engine
        state = engine.load_state(row.state)
        waiting = sorted(engine.waiting_for(state))
        if not waiting:
            return None, [], row.status == "finished"
        seat = random.Random(row.version).choice(waiting)
        legal = [str(a) for a in engine.legal_actions(state, seat)]
        return row.seats[seat].user_id, legal, False
    finally:
        await store.close()


@pytest.mark.slow
async def test_sigkill_mid_game_then_a_new_process_finishes_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Process Test")
    channel = fake.add_channel(guild, "games")
    users = [fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")]
    by_id: dict[int, FakeUser] = {u.id: u for u in users}
    db = tmp_path / "ziggurat.db"
    rng = random.Random(9)

    async def play(count: int | None) -> int:
        played = 0
        while count is None or played < count:
            user_id, legal, finished = await waiting_and_legal(db, channel.id)
            if finished:
                break
            assert user_id is not None
            itx = await fake.slash(by_id[user_id], channel, "play", action=rng.choice(legal))
            await answered(itx)
            played += 1
        return played

    async with bot_process(fake, db, guild.id) as first_pid:
        await answered(await fake.slash(users[0], channel, "game new oracle"))
        for user in users[1:]:
            await answered(await fake.slash(user, channel, "game join"))
        await answered(await fake.slash(users[0], channel, "game start"))
        assert await play(5) == 5
        os.kill(first_pid, signal.SIGKILL)

    store = await Store.open(db)
    try:
        assert await store.integrity_check() == "ok"
        row = await store.latest_game_in(channel.id)
        assert row is not None and row.status == "running"
        assert len(await store.moves(row.id)) == 5  # every answered move survived the kill
    finally:
        await store.close()

    async with bot_process(fake, db, guild.id):
        status = await answered(await fake.slash(users[1], channel, "game status"))
        assert status.response is not None and status.response.ephemeral
        played = await play(None)
        assert played == 12 - 5  # Oracle: three rounds of three plays and a claim
        final = fake.messages_in(channel)[-1]
        assert t("en", "game.over") in final.text
        assert not final.ephemeral
