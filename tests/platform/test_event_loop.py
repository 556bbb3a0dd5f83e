"""The event loop the bot serves on (:mod:`bot.event_loop`): chosen by one setting,
run as chosen, asyncio's with one warning where uvloop is absent."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest

from bot import event_loop
from bot.config import EVENT_LOOP_VARIABLE, Settings
from tests.conftest import TEST_LOOP


async def _running_loop() -> str:
    await asyncio.sleep(0)
    return event_loop.loop_name(asyncio.get_running_loop())


@pytest.mark.parametrize("name", event_loop.LOOPS)
def test_run_runs_the_named_loop(name: event_loop.LoopName) -> None:
    if name == "uvloop":
        pytest.importorskip("uvloop")
    assert event_loop.run(_running_loop(), name) == name


def test_uvloop_asked_for_where_it_is_absent_runs_asyncio_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # ``import uvloop`` raises ImportError
    assert not event_loop.uvloop_available()
    with caplog.at_level(logging.WARNING, logger=event_loop.__name__):
        assert event_loop.run(_running_loop(), "uvloop") == "asyncio"
    [record] = caplog.records
    assert record.levelno == logging.WARNING
    assert "uvloop is not installed" in record.getMessage()


@pytest.mark.parametrize(
    ("value", "loop"),
    [(None, "uvloop"), ("uvloop", "uvloop"), ("asyncio", "asyncio"), ("ASYNCIO", "asyncio")],
)
def test_the_setting_chooses_the_loop(
    monkeypatch: pytest.MonkeyPatch, value: str | None, loop: str
) -> None:
    monkeypatch.delenv(EVENT_LOOP_VARIABLE, raising=False)
    if value is not None:
        monkeypatch.setenv(EVENT_LOOP_VARIABLE, value)
    assert Settings.from_env(env_file=None).event_loop == loop


async def test_the_tests_run_on_the_loop_the_bot_runs() -> None:
    expected = TEST_LOOP if event_loop.uvloop_available() else "asyncio"
    assert event_loop.loop_name(asyncio.get_running_loop()) == expected
