"""The bot process serves on the event loop its settings choose, and says which as it starts.

The process is ``tests/support/bot_process.py`` (the production ``serve``, run
as :func:`bot.discord.lifecycle.run_bot` runs it) against the fake Discord; its
log is read for the start-up line. Left unset, the process inherits the loop
the tests run on (tests/conftest.py), which is the bot's default.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import event_loop
from bot.config import EVENT_LOOP_VARIABLE
from tests.conftest import TEST_LOOP

from .fake_discord import FakeDiscord
from .test_bot_process import CHILD, ROOT, WAIT, inherited_env


def process_env(fake: FakeDiscord, tmp_path: Path) -> dict[str, str]:
    """The bot process's settings: the fake Discord, a fresh database, INFO logs."""
    return {
        **inherited_env(),
        "PYTHONPATH": str(ROOT),
        "ZIGGURAT_FAKE_DISCORD": fake.url,
        "DISCORD_TOKEN": fake.token,
        "ZIGGURAT_DB": str(tmp_path / "z.db"),
        "ZIGGURAT_LOG_LEVEL": "INFO",
    }


@contextlib.asynccontextmanager
async def bot_process(env: dict[str, str], log_path: Path) -> AsyncIterator[None]:
    """The bot process running, its log in ``log_path``; stopped with SIGTERM on leaving
    (it must exit 0), killed if the body failed first."""
    with log_path.open("wb") as log:
        child = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), env=env, cwd=str(ROOT), stderr=log
        )
        try:
            yield
            child.terminate()
            assert await asyncio.wait_for(child.wait(), WAIT) == 0
        finally:
            if child.returncode is None:
                child.kill()
                await child.wait()


@pytest.mark.slow
@pytest.mark.parametrize("chosen", [None, *event_loop.LOOPS])
async def test_the_bot_process_runs_and_logs_the_loop_chosen(
    fake_discord: FakeDiscord, tmp_path: Path, chosen: event_loop.LoopName | None
) -> None:
    fake = fake_discord
    wanted = chosen or TEST_LOOP
    if wanted == "uvloop" and not event_loop.uvloop_available():
        wanted = "asyncio"  # the fallback, tested in tests/platform/test_event_loop.py
    identified = len(fake.identify_payloads)
    env = process_env(fake, tmp_path)
    if chosen is not None:
        env[EVENT_LOOP_VARIABLE] = chosen
    log_path = tmp_path / "bot.log"
    async with bot_process(env, log_path):
        await fake.wait_for(
            lambda: len(fake.identify_payloads) > identified,
            timeout=WAIT,
            what="the bot process to identify",
        )
    lines = log_path.read_text("utf-8").splitlines()
    said = [
        line.split(": ", 1)[1] for line in lines if "bot.discord.lifecycle: event loop:" in line
    ]
    assert said == [f"event loop: {wanted}"], lines


@pytest.mark.slow
async def test_the_bot_process_settles_its_heap_once_ready(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    env = process_env(fake, tmp_path)
    log_path = tmp_path / "bot.log"

    def settled() -> list[str]:
        text = log_path.read_text("utf-8") if log_path.exists() else ""
        return [line for line in text.splitlines() if "heap settled:" in line]

    async with bot_process(env, log_path):
        await fake.wait_ready(WAIT)
        await fake.wait_for(lambda: bool(settled()), timeout=WAIT, what="the heap settled")
    [line] = settled()
    frozen = int(line.split("heap settled: ", 1)[1].split(" ", 1)[0])
    assert frozen > 10_000, line  # the modules, catalogs and caches of a started bot
