"""A hand-off answered early (``announce.answered_early``) tells exactly what it tells whole.

The same Oracle game is played twice from the same seed, once as the adapter
plays it (the outcome back once stored, its images still drawing) and once
whole; the round's last play hands off. Once ``Outcome.drawn()`` is done the
early outcome carries the same board, private messages (words and images)
and tally, byte for byte, and before it, none of them yet.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.service import GameService, Outcome, StepKind
from bot.service.announce import answered_early, early
from bot.store import Store
from tests.conftest import CAROL, CHANNEL, oracle_before_its_rounds_last, register_oracle


async def last_play(tmp_path: Path, *, early: bool) -> tuple[Outcome, bool]:
    """The outcome of the round's last play, and whether its board was still to come."""
    register_oracle()
    store = await Store.open(tmp_path / f"ziggurat-{early}.db")
    try:
        service = GameService(store)
        last = await oracle_before_its_rounds_last(service)
        if early:
            with answered_early():
                outcome = await service.play.act(CHANNEL, CAROL, last)
        else:
            outcome = await service.play.act(CHANNEL, CAROL, last)
        pending = outcome.news is not None and outcome.news.board is None
        await outcome.drawn()
    finally:
        await store.close()
    return outcome, pending


async def test_an_early_handoff_carries_the_same_images_once_drawn(tmp_path: Path) -> None:
    early, pending = await last_play(tmp_path, early=True)
    whole, whole_pending = await last_play(tmp_path, early=False)
    assert early.kind is whole.kind is StepKind.HANDOFF
    assert pending and not whole_pending
    assert early.drawing is not None and early.drawing.done()
    assert early.drawing_private is not None and early.drawing_private.done()
    assert whole.drawing is None and whole.drawing_private is None
    assert early.news is not None and whole.news is not None
    assert early.news.board is not None and early.news.board[:4] == b"\x89PNG"
    assert early.news.board == whole.news.board
    assert early.news.lines == whole.news.lines
    assert early.private and early.private == whole.private
    assert all(pm.image is not None for pm in early.private)
    assert early.tally == whole.tally
    assert early.version == whole.version


async def test_a_task_spawned_inside_an_early_answer_gets_its_outcome_whole(
    tmp_path: Path,
) -> None:
    """Only the task that asked is answered early: one it spawns (a timer's, a
    computer's work started from an interaction) copies the context but not the ask,
    so its outcome never comes back still drawing to a caller that does not wait."""
    register_oracle()
    store = await Store.open(tmp_path / "ziggurat-spawned.db")
    try:
        service = GameService(store)
        last = await oracle_before_its_rounds_last(service)
        with answered_early():
            assert early()
            spawned = asyncio.create_task(service.play.act(CHANNEL, CAROL, last))
            outcome = await spawned
            inside = await asyncio.create_task(_early_inside())
        assert not early()
    finally:
        await store.close()
    assert not inside
    assert outcome.kind is StepKind.HANDOFF
    assert outcome.drawing is None and outcome.drawing_private is None
    assert outcome.news is not None and outcome.news.board is not None
    assert outcome.private and all(pm.image is not None for pm in outcome.private)


async def _early_inside() -> bool:
    return early()
