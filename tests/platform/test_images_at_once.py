"""A hand-off's images (the board and the changed private views) are drawn at once.

The Oracle's renderers are replaced by one that, once armed, waits until
another image is being drawn at the same time (or a generous timeout) and
records how many were drawn together. Armed just before the play that
resolves a round, the hand-off must have had its board and private views in
flight together, and every image must be there. Drawing them one after
another would never see two at once (each would wait out the timeout).
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from bot import games
from bot.service import GameService, StepKind
from bot.store import Store
from tests.conftest import CAROL, CHANNEL, oracle_before_its_rounds_last

#: generous: only a drawing one after another waits this long (and then fails)
WAIT = 10.0
PNG = b"\x89PNG\r\n\x1a\n"


class Overlap:
    """A renderer (thread-drawn: a bound method cannot be sent to a process) that
    records how many images are drawn at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.armed = False
        self.in_flight = 0
        self.most = 0
        self.drawn = 0
        self.together = threading.Event()

    def render(self, *args: object) -> bytes:
        if not self.armed:
            return PNG
        with self.lock:
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
            if self.in_flight >= 2:
                self.together.set()
        self.together.wait(WAIT)
        with self.lock:
            self.in_flight -= 1
            self.drawn += 1
        return PNG


async def test_a_handoff_draws_its_board_and_private_views_at_once(tmp_path: Path) -> None:
    overlap = Overlap()
    oracle = games.REGISTRY["oracle"]
    registry = {
        "oracle": dataclasses.replace(
            oracle, render_public=overlap.render, render_private=overlap.render
        )
    }
    store = await Store.open(tmp_path / "ziggurat.db")
    try:
        service = GameService(store, registry)
        last = await oracle_before_its_rounds_last(service)
        overlap.armed = True
        outcome = await service.play.act(CHANNEL, CAROL, last)
    finally:
        await store.close()
    assert outcome.kind is StepKind.HANDOFF
    assert outcome.news.board == PNG
    assert len(outcome.private) == 3 and all(m.image == PNG for m in outcome.private)
    assert overlap.drawn == 4
    assert overlap.most >= 2
