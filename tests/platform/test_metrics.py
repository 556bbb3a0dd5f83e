"""The metrics module: nothing when disabled; served over HTTP from its own registry when on.

The end-to-end count of a real bot process is :mod:`tests.e2e.test_bot_metrics`;
here are the parts: the no-op, serving and stopping, the timer and drawing
metrics recorded by the service (the timers fired by the service's clock:
a computer seat's move and a reminder), the open games counted from a real
store, and a port that cannot be bound.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import games, metrics
from bot.config import Settings
from bot.discord.lifecycle import serve
from bot.games.base import GameType
from bot.i18n import t
from bot.service import GameService
from bot.service.drawing import drawn
from bot.store import Store
from tests.conftest import ALICE, BOB, CHANNEL, GUILD, ORACLE
from tests.support import robots
from tests.support.seated import channel_row

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def read(port: int) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def scrape(port: int) -> Samples:
    return await asyncio.to_thread(read, port)


@pytest.fixture
def served() -> Iterator[int]:
    port = free_port()
    assert metrics.serve(port, "127.0.0.1")
    try:
        yield port
    finally:
        metrics.stop()


def double(value: int) -> bytes:
    return bytes([value * 2])


def test_disabled_records_nothing_and_serves_nothing() -> None:
    assert metrics.registry() is None
    assert type(metrics.recorder()) is metrics.Recorder
    metrics.command("play", "ok", 0.01)
    metrics.timer("reminder", "ok", 3.0)
    assert metrics.serve(None) is False
    assert metrics.registry() is None


async def test_served_counts_and_stopping_frees_the_port(served: int) -> None:
    metrics.command("play", "ok", 0.02)
    metrics.command("play", "refused", 0.01, "error.not_your_turn")
    metrics.timer("reminder", "ok", 0.5)
    metrics.timer("deadline", "ok", metrics.OVERDUE_AFTER + 1)
    assert await drawn(double, 21) == b"*"  # a real drawing process
    samples = await scrape(served)
    assert samples[("ziggurat_commands_total", (("outcome", "ok"), ("verb", "play")))] == 1
    assert samples[("ziggurat_refusals_total", (("reason", "error.not_your_turn"),))] == 1
    assert samples[("ziggurat_timers_fired_total", (("kind", "reminder"), ("outcome", "ok")))] == 1
    assert samples[("ziggurat_timers_overdue_total", (("kind", "deadline"),))] == 1
    assert ("ziggurat_timers_overdue_total", (("kind", "reminder"),)) not in samples
    assert samples[("ziggurat_timer_lateness_seconds_count", ())] == 2
    assert samples[("ziggurat_image_seconds_count", (("pool", "process"),))] == 1
    assert samples[("ziggurat_drawing_queue", ())] == 0
    metrics.stop()
    assert metrics.registry() is None
    with socket.socket() as again:  # nobody listens there any more (TIME_WAIT aside)
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", served))


async def test_open_games_are_counted_from_the_store_at_each_scrape(
    served: int, tmp_path: Path
) -> None:
    store = await Store.open(tmp_path / "ziggurat.db")
    try:
        service = GameService(store, render=False)
        metrics.watch_open_games(store, asyncio.get_running_loop())
        key = ("ziggurat_open_games", (("game_type", "oracle"), ("status", "lobby")))
        assert key not in await scrape(served)
        await service.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="oracle"
        )
        assert (await scrape(served))[key] == 1
        await service.lobby.join(CHANNEL, BOB)
        await service.lobby.start(CHANNEL, ALICE)
        samples = await scrape(served)
        assert key not in samples
        assert (
            samples[("ziggurat_open_games", (("game_type", "oracle"), ("status", "running")))] == 1
        )
    finally:
        await store.close()


async def test_a_metrics_port_in_use_stops_the_start_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        settings = Settings(
            token="x" * 70,
            database=tmp_path / "ziggurat.db",
            dev_guild_id=None,
            log_level="INFO",
            turn_deadline_hours=24,
            metrics_port=port,
        )
        assert await serve(settings) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(t("en", "config.metrics_failed", port=port, error="").rstrip())
    assert metrics.registry() is None


async def test_the_clock_counts_each_fired_timer_by_kind_and_lateness(
    served: int, store: Store
) -> None:
    """A started Oracle game with a computer seat: its move is a due ``computer`` timer;
    a reminder made due 5 s ago fires with it. Each is counted once, with its lateness."""
    now = 1_000_000.0
    robot = GameType(engine=robots.ORACLE, render_public=ORACLE.render_public)
    registry = {**games.REGISTRY, robots.ORACLE.name: robot}
    table = GameService(store, registry, clock=lambda: now, render=False, computer_pause=0.0)
    await table.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name=robots.ORACLE.name, seed=7
    )
    await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    await table.lobby.start(CHANNEL, ALICE)
    game = await channel_row(store)
    await store.replace_timers(game.id, "reminder", now - 5)
    assert {t.kind for t in await store.due_timers(now)} == {"computer", "reminder"}
    before = await scrape(served)
    assert before[("ziggurat_timer_lateness_seconds_count", ())] == 0
    fired = await table.timers.fire_due_timers()
    assert fired and not await store.due_timers(now)
    samples = await scrape(served)
    fired_total = {
        dict(labels)["kind"]: (dict(labels)["outcome"], count)
        for (name, labels), count in samples.items()
        if name == "ziggurat_timers_fired_total"
    }
    assert fired_total == {"computer": ("ok", 1), "reminder": ("ok", 1)}
    assert samples[("ziggurat_timer_lateness_seconds_count", ())] == 2
    assert samples[("ziggurat_timer_lateness_seconds_sum", ())] == 5
    assert not [name for name, _ in samples if name == "ziggurat_timers_overdue_total"]
