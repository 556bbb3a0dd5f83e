"""The drawing processes: images come back from other processes, and drawing survives
a renderer that cannot be sent and a worker that dies."""

from __future__ import annotations

import os
import signal
from typing import Any

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
