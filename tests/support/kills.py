"""Killing a stream of moves with SIGKILL, and what must hold of its database afterwards.

:func:`kill_after` runs a child (``move_stream.py``, ``computer_stream.py``)
until it has acknowledged enough commands, then kills it; :func:`verify`
opens what it left and checks it: every acknowledged move is stored, every
game replays from its seed and log to its stored state, and (with a service)
no running game awaits a seat with nothing to move it, before any repair.
Used by ``tests/platform/test_kill.py`` and ``scripts/fuzz_kills.py``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.games.base import GameType
from bot.service import GameService
from bot.service.replay import replay
from bot.store import Store

SUPPORT = Path(__file__).resolve().parent
MOVES = SUPPORT / "move_stream.py"
COMPUTERS = SUPPORT / "computer_stream.py"

#: an acknowledged command: (game id, seq of the last move then stored, its action)
Ack = tuple[int, int, str]


class ChildEnded(Exception):
    """The child ended before it was killed (its stderr's tail is the message)."""


async def kill_after(path: Path, acks_wanted: int, seed: int, script: Path = MOVES) -> list[Ack]:
    """Run ``script`` on the database ``path`` until ``acks_wanted`` acknowledgements,
    then SIGKILL it; the acknowledgements it printed."""
    errors = path.with_suffix(".stderr")
    with errors.open("wb") as sink:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            str(path),
            str(seed),
            stdout=asyncio.subprocess.PIPE,
            stderr=sink,
        )
    acked: list[Ack] = []
    assert child.stdout is not None
    try:
        while len(acked) < acks_wanted:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=120)
            if not line:
                raise ChildEnded(errors.read_text(errors="replace")[-2000:])
            _, game_id, seq, action = line.decode().rstrip("\n").split(" ", 3)
            acked.append((int(game_id), int(seq), action))
    finally:
        if child.returncode is None:
            os.kill(child.pid, signal.SIGKILL)
        await child.wait()
    if child.returncode != -signal.SIGKILL:
        raise ChildEnded(f"exit code {child.returncode}")
    return acked


@dataclass(frozen=True)
class Killed:
    """What a killed child left: its games, those still running, computer moves, undos."""

    games: int
    running: int
    computer_moves: int
    undos: int


async def verify(
    path: Path, acked: list[Ack], registry: Mapping[str, GameType], *, audit: bool = True
) -> Killed:
    """Check what a killed child left (see the module docstring); AssertionError if not."""
    store = await Store.open(path)
    try:
        assert await store.integrity_check() == "ok"
        for game_id, seq, action in acked:
            moves = {m.seq: m.action for m in await store.moves(game_id)}
            assert moves.get(seq) == action, (game_id, seq, action)
        games = running = computer_moves = undos = 0
        for game_id in await store.game_ids(("running", "finished", "abandoned")):
            row = await store.get_game(game_id)
            assert row is not None and row.state is not None
            engine = registry[row.game_type].engine
            engine.load_state(row.state)  # every game loads
            log = await store.moves(game_id)
            replayed = replay(engine, len(row.seats), row.options, row.seed, log)
            assert engine.dump_state(replayed) == row.state, f"game {game_id} does not replay"
            games += 1
            running += row.status == "running"
            computer_moves += sum(m.kind == "computer" for m in log)
            undos += sum(m.kind == "undo" for m in log)
        if audit:
            service = GameService(store, registry, render=False, computer_pause=0.0)
            unmoved = await service.timers.audit()  # before any repair
            assert unmoved == [], unmoved
            assert await service.timers.repair_timers() == 0
        return Killed(games, running, computer_moves, undos)
    finally:
        await store.close()
