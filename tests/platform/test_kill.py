"""A process killed with SIGKILL in the middle of a stream of moves loses nothing acknowledged.

Two streams: Oracle and Relay games of members alone (``move_stream``), and
games with computer seats deciding in their own processes (``computer_stream``:
the robot games, Temple Rush, Mini-Tikal). After the kill every acknowledged
move is stored, every stored game replays from its seed and log to its stored
state, and no running game awaits a seat with nothing to move it: the audit
is empty before any repair (:mod:`tests.support.kills`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import games
from tests.support.computer_stream import registry
from tests.support.kills import COMPUTERS, MOVES, kill_after, verify


@pytest.mark.parametrize("seed,acks", [(1, 25), (2, 61), (3, 140)])
async def test_sigkill_mid_stream_keeps_every_acknowledged_move(
    tmp_path: Path, seed: int, acks: int
) -> None:
    path = tmp_path / "killed.db"
    acked = await kill_after(path, acks, seed, MOVES)
    killed = await verify(path, acked, games.REGISTRY)
    assert killed.games >= 1
    assert killed.undos > 0 or acks < 100


@pytest.mark.slow_except("4-30")
@pytest.mark.parametrize("seed,acks", [(4, 30), (5, 90), (6, 200)])
async def test_sigkill_mid_play_with_computer_seats_leaves_every_game_movable(
    tmp_path: Path, seed: int, acks: int
) -> None:
    path = tmp_path / "killed.db"
    acked = await kill_after(path, acks, seed, COMPUTERS)
    killed = await verify(path, acked, registry())
    assert killed.computer_moves > 0 and killed.running >= 3  # killed mid-play
