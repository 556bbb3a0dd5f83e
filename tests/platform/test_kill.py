"""A process killed with SIGKILL in the middle of a stream of moves loses nothing acknowledged."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot import games
from bot.service.replay import replay
from bot.store import Store

CHILD = Path(__file__).resolve().parents[1] / "support" / "move_stream.py"


async def _kill_after(path: Path, acks_wanted: int, seed: int) -> list[tuple[int, int, str]]:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        str(path),
        str(seed),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    acked: list[tuple[int, int, str]] = []
    assert child.stdout is not None
    try:
        while len(acked) < acks_wanted:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=60)
            if not line:
                err = await child.stderr.read() if child.stderr else b""
                pytest.fail(f"child ended early: {err.decode()[-2000:]}")
            _, game_id, seq, action = line.decode().rstrip("\n").split(" ", 3)
            acked.append((int(game_id), int(seq), action))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    return acked


@pytest.mark.parametrize("seed,acks", [(1, 25), (2, 61), (3, 140)])
async def test_sigkill_mid_stream_keeps_every_acknowledged_move(
    tmp_path: Path, seed: int, acks: int
) -> None:
    path = tmp_path / "killed.db"
    acked = await _kill_after(path, acks, seed)

    store = await Store.open(path)
    try:
        assert await store.integrity_check() == "ok"
        for game_id, seq, action in acked:
            moves = {m.seq: m.action for m in await store.moves(game_id)}
            assert moves.get(seq) == action
        undos = 0
        for game_id in {g for g, _, _ in acked}:
            row = await store.get_game(game_id)
            assert row is not None
            engine = games.REGISTRY[row.game_type].engine
            state = engine.load_state(row.state)  # every game loads
            # the stored state is exactly the replay of the stored move log, undos included
            log = await store.moves(game_id)
            undos += sum(m.kind == "undo" for m in log)
            replayed = replay(engine, len(row.seats), row.options, row.seed, log)
            assert engine.dump_state(replayed) == engine.dump_state(state)
        assert undos > 0 or acks < 100
    finally:
        await store.close()
