"""Rebuilding a game from its seed and move log, undos included.

The log is append-only: an undo is a row of kind ``undo`` that takes back
the last step still standing after the last checkpoint. A step's row
records whether it was a checkpoint. Replaying keeps the state at the last
checkpoint and the steps since; an undo drops the last of them and re-applies
the rest to that state. Steps after a checkpoint draw nothing at random (a
draw is itself a checkpoint), so re-applying them gives the same states.
The live service undoes the same way (:func:`standing`, :func:`rebuild`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.base import GameEngine
from bot.store import MoveRow

UNDO = "undo"


def standing(moves: Iterable[MoveRow]) -> list[MoveRow]:
    """The steps of ``moves`` not taken back by an undo among them, in order."""
    stack: list[MoveRow] = []
    for move in moves:
        if move.kind == UNDO:
            if stack:
                stack.pop()
        else:
            stack.append(move)
    return stack


def rebuild(engine: GameEngine[Any, Any], checkpoint: Any, steps: Sequence[MoveRow]) -> Any:
    """The state after applying ``steps`` to the stored ``checkpoint`` state."""
    state = engine.load_state(copy.deepcopy(checkpoint))
    for step in steps:
        engine.apply(state, step.seat, engine.parse_action(step.action))
    return state


def replay(
    engine: GameEngine[Any, Any],
    seats: int,
    options: Mapping[str, str],
    seed: int,
    moves: Iterable[MoveRow],
) -> Any:
    """The state a game reaches from its seed through its whole log."""
    state = engine.new_game(seats, options, seed)
    checkpoint = copy.deepcopy(engine.dump_state(state))
    since: list[MoveRow] = []
    for move in moves:
        if move.kind == UNDO:
            if since:
                since.pop()
            state = rebuild(engine, checkpoint, since)
            continue
        engine.apply(state, move.seat, engine.parse_action(move.action))
        if move.checkpoint:
            checkpoint = copy.deepcopy(engine.dump_state(state))
            since = []
        else:
            since.append(move)
    return state
