"""A step's board is asked of the drawing pool before its commit is written, and shown
only once the commit is stored; a step refused at its commit drops it unshown.

The round's last play of an Oracle game hands off (a board and private views); the
drawing pool is watched at its edge (``drawing.drawn``) and the store's commit as
:mod:`tests.platform.test_store_answer` watches it. On both backends.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import GameService, Refusal, StepKind, drawing
from bot.store import Store
from tests.conftest import BOTH_BACKENDS, CAROL, CHANNEL, oracle_before_its_rounds_last
from tests.platform.test_store_answer import Watched

pytestmark = BOTH_BACKENDS


class Drawings:
    """Records each image asked of the drawing pool in ``events`` (beside the store's),
    the boards' bytes, and a drawing dropped before it ended; with ``held``, no image
    is drawn until it is set."""

    def __init__(self, events: list[str], board: Any, held: asyncio.Event | None = None) -> None:
        self.events = events
        self.board = board
        self.held = held
        self.boards: list[bytes] = []
        self.original = drawing.drawn

    async def drawn(self, render: Any, *args: Any) -> bytes:
        what = "board" if render is self.board else "image"
        self.events.append(f"{what} asked")
        try:
            if self.held is not None:
                await self.held.wait()
            image = await self.original(render, *args)
        except asyncio.CancelledError:
            self.events.append(f"{what} dropped")
            raise
        if what == "board":
            self.boards.append(image)
        return image


async def test_a_handoffs_board_is_drawn_while_its_commit_is_written(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await oracle_before_its_rounds_last(service)
    watched = Watched(store)
    drawings = Drawings(watched.events, service.ctx.game_type("oracle").render_public)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    outcome = await service.play.act(CHANNEL, CAROL, last)
    watched.events.append("answered")
    assert outcome.kind is StepKind.HANDOFF
    events = watched.events
    # the board went to the pool before the step was handed to the store
    assert events.index("board asked") < events.index("sent") < events.index("committed")
    assert events.count("board asked") == 1  # asked once, not again by the answer
    assert events.index("committed") < events.index("answered")
    assert outcome.news is not None and outcome.news.board is not None
    assert outcome.news.board[:4] == b"\x89PNG"
    assert drawings.boards == [outcome.news.board]
    assert outcome.private and all(pm.image is not None for pm in outcome.private)
    row = await store.latest_game_in(CHANNEL)
    assert row is not None and outcome.version == row.version


async def test_a_step_refused_at_its_commit_drops_its_board_unshown(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await oracle_before_its_rounds_last(service)
    before = await store.latest_game_in(CHANNEL)
    assert before is not None
    watched = Watched(store, stale=True)  # the commit is refused: another process moved on
    held = asyncio.Event()  # never set: the board is still drawing when the commit is refused
    drawings = Drawings(watched.events, service.ctx.game_type("oracle").render_public, held)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    with pytest.raises(Refusal) as refused:
        await service.play.act(CHANNEL, CAROL, last)
    assert refused.value.text.key == "error.conflict"
    events = watched.events
    assert events.index("board asked") < events.index("committed")
    assert "board dropped" in events and drawings.boards == []
    # every image asked ahead was dropped by the time the refusal came back
    assert events.count("board asked") + events.count("image asked") == (
        events.count("board dropped") + events.count("image dropped")
    )
    after = await store.latest_game_in(CHANNEL)
    assert after is not None
    assert (after.version, after.state) == (before.version, before.state)
