"""Prometheus metrics of a real bot process, scraped over HTTP after a few moves.

The bot runs through its production entry point (``serve``, as in
:mod:`.test_bot_process`) with ``ZIGGURAT_METRICS_PORT`` set, against the
fake Discord; a Tigris game is opened, joined, started and played a few
steps, one move is refused, and ``/metrics`` is read from the port and
parsed with prometheus-client's own parser. Every count is compared with
what the test did.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import plugins

from .fake_discord import FakeDiscord, FakeUser
from .test_bot_process import WAIT, answered, bot_process, waiting_and_legal

#: steps played before scraping
STEPS = 6

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def scrape(port: int) -> Samples:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""

    def read() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=WAIT) as reply:
            assert reply.status == 200
            text: str = reply.read().decode()
            return text

    text = await asyncio.to_thread(read)
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.slow
async def test_a_bot_process_serves_its_metrics(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    plugins.load_builtin_games()  # waiting_and_legal reads the stored game with its engine
    fake = fake_discord
    guild = fake.add_guild("Metrics Test")
    channel = fake.add_channel(guild, "games")
    users = [fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")]
    by_id: dict[int, FakeUser] = {u.id: u for u in users}
    db = tmp_path / "ziggurat.db"
    port = free_port()
    async with bot_process(fake, db, guild.id, {"ZIGGURAT_METRICS_PORT": str(port)}):
        before = await scrape(port)
        assert value(before, "ziggurat_commands_total", verb="play", outcome="ok") == 0
        await answered(await fake.slash(users[0], channel, "game new tigris"))
        for user in users[1:]:
            await answered(await fake.slash(user, channel, "game join"))
        await answered(await fake.slash(users[0], channel, "game start"))
        for _ in range(STEPS):
            user_id, legal, finished = await waiting_and_legal(db, channel.id)
            assert user_id is not None and not finished
            await answered(await fake.slash(by_id[user_id], channel, "play", action=legal[0]))
        user_id, legal, _ = await waiting_and_legal(db, channel.id)
        idle = next(u for u in users if u.id != user_id)
        await answered(await fake.slash(idle, channel, "play", action=legal[0]))
        samples = await scrape(port)

    def commands(verb: str, outcome: str = "ok") -> float:
        return value(samples, "ziggurat_commands_total", verb=verb, outcome=outcome)

    assert commands("game.new.tigris") == 1
    assert commands("game.join") == 2
    assert commands("game.start") == 1
    assert commands("play") == STEPS
    assert commands("play", "refused") == 1
    assert value(samples, "ziggurat_refusals_total", reason="error.not_your_turn") == 1
    assert value(samples, "ziggurat_step_seconds_count") == STEPS
    answers = sum(
        value(samples, "ziggurat_command_seconds_count", outcome=outcome)
        for outcome in ("ok", "refused")
    )
    assert answers == 1 + 2 + 1 + STEPS + 1
    assert value(samples, "ziggurat_open_games", game_type="tigris", status="running") == 1
    # the start and every hand-off drew a board; Tigris has private views too
    assert value(samples, "ziggurat_image_seconds_count", pool="process") >= 2
    assert value(samples, "ziggurat_drawing_queue") == 0
    assert value(samples, "ziggurat_timers_fired_total", kind="reminder", outcome="ok") == 0
