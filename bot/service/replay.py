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


def restored(engine: GameEngine[Any, Any], checkpoint: Any) -> Any:
    """The state stored as ``checkpoint``, loaded from a copy (the stored data stays as it is)."""
    return engine.load_state(copy.deepcopy(checkpoint))


def rebuild(engine: GameEngine[Any, Any], checkpoint: Any, steps: Sequence[MoveRow]) -> Any:
    """The state after applying ``steps`` to the stored ``checkpoint`` state."""
    state = restored(engine, checkpoint)
    for step in steps:
        engine.apply(state, step.seat, engine.parse_action(step.action))
    return state


class Replayer:
    """A game rebuilt from its seed, fed its log in order (all at once, or a few rows
    at a time as they are written: a checker that follows a game)."""

    def __init__(
        self, engine: GameEngine[Any, Any], seats: int, options: Mapping[str, str], seed: int
    ) -> None:
        self.engine = engine
        self.state = engine.new_game(seats, options, seed)
        self._checkpoint = copy.deepcopy(engine.dump_state(self.state))
        self._since: list[MoveRow] = []

    def feed(self, moves: Iterable[MoveRow]) -> Any:
        """Apply ``moves`` (the next rows of the log); the state after them."""
        engine = self.engine
        for move in moves:
            if move.kind == UNDO:
                if self._since:
                    self._since.pop()
                self.state = rebuild(engine, self._checkpoint, self._since)
                continue
            engine.apply(self.state, move.seat, engine.parse_action(move.action))
            if move.checkpoint:
                self._checkpoint = copy.deepcopy(engine.dump_state(self.state))
                self._since = []
            else:
                self._since.append(move)
        return self.state


def replay(
    engine: GameEngine[Any, Any],
    seats: int,
    options: Mapping[str, str],
    seed: int,
    moves: Iterable[MoveRow],
) -> Any:
    """The state a game reaches from its seed through its whole log."""
    return Replayer(engine, seats, options, seed).feed(moves)
