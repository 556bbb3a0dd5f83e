"""The drawing processes: images come back from other processes, each to its caller when
there are more than processes, a renderer's error as itself, and drawing survives a
renderer that cannot be sent and a worker that dies."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

from bot.games.base import PlayerLabel
from bot.service import drawing
from tests.support.oracle_render import render_relay

VIEW = {"deck": 9, "ap": 4, "cards": [[], [2]], "active": 0, "positions": [0, 3]}
PLAYERS = [PlayerLabel(0, "Ann", "#aa3333"), PlayerLabel(1, "Ben", "#3333aa")]


def _drawn_here(view: Any, players: Any, lang: str = "en") -> bytes:
    return render_relay(view, players, lang) + os.getpid().to_bytes(4, "big")


async def test_a_module_renderer_is_drawn_in_another_process() -> None:
    here = lambda view, players, lang="en": _drawn_here(view, players, lang)  # noqa: E731
    assert not drawing._sendable(here)
    image = await drawing.drawn(here, VIEW, PLAYERS, "en")
    assert image.startswith(b"\x89PNG") and image[-4:] == os.getpid().to_bytes(4, "big")

    elsewhere = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")
    assert elsewhere.startswith(b"\x89PNG")
    pid = int.from_bytes(elsewhere[-4:], "big")
    assert pid != os.getpid() and pid in drawing.worker_pids()


async def test_a_killed_drawing_process_costs_no_image() -> None:
    await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")
    for pid in drawing.worker_pids():
        os.kill(pid, signal.SIGKILL)
    image = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # broken pool: a thread
    assert image.startswith(b"\x89PNG")
    again = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # a new pool
    assert int.from_bytes(again[-4:], "big") in drawing.worker_pids()


def _refused(view: Any, players: Any, lang: str = "en") -> bytes:
    raise ValueError(f"no image for {lang}")


def _counted(view: Any, players: Any, lang: str = "en") -> bytes:
    return view["n"].to_bytes(4, "big") + os.getpid().to_bytes(4, "big")


async def test_more_images_than_processes_each_come_back_to_their_caller() -> None:
    asked = 5 * drawing.RENDER_WORKERS + 3
    images = await asyncio.gather(
        *(drawing.drawn(_counted, {"n": n}, PLAYERS, "en") for n in range(asked))
    )
    assert [int.from_bytes(image[:4], "big") for image in images] == list(range(asked))
    pids = {int.from_bytes(image[4:], "big") for image in images}
    assert os.getpid() not in pids and pids <= set(drawing.worker_pids())


async def test_a_renderers_error_comes_back_as_itself() -> None:
    with pytest.raises(ValueError, match="no image for ko"):
        await drawing.drawn(_refused, VIEW, PLAYERS, "ko")
    image = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # the process goes on
    assert int.from_bytes(image[-4:], "big") in drawing.worker_pids()
