"""Many channels at the same instant: every move committed exactly once, answered as stored.

No sleeps: every command of a wave is started before any of them runs
(``asyncio.gather``), so their transactions meet in the store's writer.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.service import GameService, Outcome, Player, Refusal
from bot.store import NewMove, StepWrite, Store
from tests.conftest import BOTH_BACKENDS
from tests.support import relay
from tests.support.stored import started_game

CHANNELS = 24
WAVES = 6
PLAYERS = (Player(201, "Ann"), Player(202, "Ben"))


async def _games(service: GameService, channels: range) -> None:
    await asyncio.gather(
        *(
            service.lobby.new_game(
                guild_id=1, channel_id=c, user=PLAYERS[0], game_type_name="relay", seed=c
            )
            for c in channels
        )
    )
    await asyncio.gather(*(service.lobby.join(c, PLAYERS[1]) for c in channels))
    await asyncio.gather(*(service.lobby.start(c, PLAYERS[0]) for c in channels))


async def _mover(store: Store, channel: int) -> Player:
    row = await store.latest_game_in(channel)
    assert row is not None
    (seat,) = relay.ENGINE.waiting_for(relay.ENGINE.load_state(row.state))
    return next(p for p in PLAYERS if p.id == row.seats[seat].user_id)


@pytest.mark.slow_except("sqlite")
@BOTH_BACKENDS
async def test_moves_in_many_channels_at_once_are_each_committed_once(
    service: GameService, store: Store, backend: str
) -> None:
    channels = range(7000, 7000 + CHANNELS)
    await _games(service, channels)
    expected: dict[int, list[str]] = {c: [] for c in channels}
    for wave in range(WAVES):
        movers = {c: await _mover(store, c) for c in channels}
        action = "end" if wave % 3 == 2 else "step 1"
        results = await asyncio.gather(
            *(service.play.act(c, movers[c], action) for c in channels), return_exceptions=True
        )
        for channel, result in zip(channels, results, strict=True):
            assert isinstance(result, Outcome), result  # every one answered as committed
            said = {"end": "End turn", "step 1": "Step: 1"}[action]  # the step in words
            assert result.reply.lines[0].params["action"].render("en") == said
            # drawn in the drawing processes while the other channels drew theirs
            image = result.news.board if action == "end" else result.reply.image
            assert image is not None and image.startswith(b"\x89PNG"), (channel, action)
            expected[channel].append(action)
    for channel in channels:
        row = await store.latest_game_in(channel)
        assert row is not None
        moves = await store.moves(row.id)
        assert [m.action for m in moves] == expected[channel]  # exactly once, in order
        assert [m.seq for m in moves] == list(range(1, WAVES + 1))
        assert row.version == 2 + WAVES  # a join, the start, then one per move
        timers = await store.timers(row.id)
        assert [t.kind for t in timers] == ["reminder"]  # the game kept its reminder
    assert store.units >= CHANNELS * WAVES
    if backend == "sqlite":
        assert store.batches < store.units  # transactions were grouped
    else:
        assert store.batches == store.units  # one transaction each, the server groups flushes


@pytest.mark.slow_except("sqlite")
@BOTH_BACKENDS
async def test_lobby_commands_in_many_channels_at_once(service: GameService, store: Store) -> None:
    channels = range(8000, 8000 + 40)
    await _games(service, channels)
    for channel in channels:
        row = await store.latest_game_in(channel)
        assert row is not None and row.status == "running" and len(row.seats) == 2


async def test_a_failed_unit_is_rolled_back_alone(store: Store) -> None:
    """One command's transaction fails in the middle of a batch of others: only it is undone."""
    game = await started_game(store, "relay", {"n": 0})

    class Boom(Exception):
        pass

    def failing(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO closed_dms (user_id, since) VALUES (999, 0)")
        db.execute("UPDATE games SET state = '\"forged\"' WHERE id = ?", (game.id,))
        raise Boom

    writes = [store.mark_dms_closed(100 + n) for n in range(10)]
    step = store.commit_step(
        game, StepWrite(state={"n": 1}, status="running", moves=[NewMove(0, "move")])
    )
    results = await asyncio.gather(
        *writes[:5], store.write(failing), step, *writes[5:], return_exceptions=True
    )
    assert [type(r) for r in results].count(Boom) == 1
    assert all(not isinstance(r, Exception) for r in results if not isinstance(r, Boom))
    for n in range(10):
        assert await store.dms_closed(100 + n)  # nothing else was lost
    assert not await store.dms_closed(999)  # the failed unit's own write is gone
    row = await store.get_game(game.id)
    assert row is not None and row.state == {"n": 1}  # the step after it is kept, not forged
    assert [m.action for m in await store.moves(game.id)] == ["move"]


async def test_a_statement_never_lands_in_another_commands_transaction(tmp_path: Path) -> None:
    """Reads see only committed data, whatever the writer is doing."""
    store = await Store.open(tmp_path / "iso.db")
    try:
        started = threading.Event()
        release = threading.Event()

        def slow(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO closed_dms (user_id, since) VALUES (5, 0)")
            started.set()
            release.wait(10)

        pending = asyncio.create_task(store.write(slow))
        await asyncio.to_thread(started.wait, 10)
        assert not await store.dms_closed(5)  # the open transaction is invisible
        release.set()
        await pending
        assert await store.dms_closed(5)
    finally:
        await store.close()


async def test_a_version_conflict_changes_nothing(tmp_path: Path) -> None:
    """Two processes on one file, each step from a fresh load: the loser's whole step
    is refused, nothing half-written (a step from a kept row: ``test_store_kept.py``)."""
    path = tmp_path / "two.db"
    first, second = await Store.open(path), await Store.open(path)
    try:
        for store in (first, second):
            store.keep_games(0)  # every load reads
        one = GameService(first, games.REGISTRY, render=False)
        two = GameService(second, games.REGISTRY, render=False)
        await _games(one, range(1, 2))
        mover = await _mover(first, 1)
        # both read the game before either commits (as two processes acting at the same
        # instant do): else the second may load the first's step, legal to follow it
        both_loaded = asyncio.Barrier(2)
        for store in (first, second):
            read = store.open_game_in

            async def loaded(channel_id: int, read: Any = read) -> Any:
                row = await read(channel_id)
                await both_loaded.wait()
                return row

            store.open_game_in = loaded  # type: ignore[method-assign]
        results = await asyncio.gather(
            one.play.act(1, mover, "step 1"),
            two.play.act(1, mover, "step 2"),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Outcome) for r in results) == 1
        [refused] = [r for r in results if isinstance(r, Refusal)]
        assert refused.text.key in {"error.conflict", "error.not_your_turn"}
        with sqlite3.connect(path) as raw:
            assert raw.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 1
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("count", [300])
async def test_locks_do_not_outlive_their_commands(service: GameService, count: int) -> None:
    """Refused commands in channels without a game leave nothing behind in memory."""
    results = await asyncio.gather(
        *(service.play.act(9000 + c, PLAYERS[0], "step 1") for c in range(count)),
        return_exceptions=True,
    )
    assert all(isinstance(r, Refusal) for r in results)
    assert len(service.ctx.locks) == 0
