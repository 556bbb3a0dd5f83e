"""The service fuzzer, bounded: random sequences of every command, computer seats among them.

A property over random command sequences (:mod:`tests.support.fuzz`): every
game and mode with computer seats, lobby options, typed moves, buttons, picker
taps with hostile tokens, undo, back, resign, replace, the host's clock,
timeouts and rematches, on SQLite and on PostgreSQL. After every command: no
internal error, the stored log replays to the stored state, whatever a game
awaits has what will move it (the audit is empty), and nothing hidden reads
differently in public. ``scripts/fuzz_service.py`` runs the same for longer.
"""

from __future__ import annotations

import pytest

from bot import plugins
from bot.service import GameService
from bot.store import GameRow, Store
from tests.conftest import BOTH_BACKENDS
from tests.support.fuzz import FakeClock, Fuzzer

pytestmark = BOTH_BACKENDS

#: commands of the full run: well under a minute on a busy two-core machine
COMMANDS = 900


@pytest.mark.slow_except("5-120-sqlite", "5-120-postgres")
@pytest.mark.parametrize("seed,commands", [(5, 120), (24, COMMANDS)])
async def test_random_commands_keep_every_invariant(store: Store, seed: int, commands: int) -> None:
    registry = plugins.load_builtin_games()
    clock = FakeClock()
    service = GameService(store, registry, clock=clock, render=False, computer_pause=0.0)
    fuzzer = Fuzzer(service, clock, seed, levels=("easy", "easy", "genius"))
    tally = await fuzzer.run(commands)
    assert not tally.failures, (tally.line("test"), tally.examples)
    # the run did what it is for: games, computer moves, taps, refusals
    assert tally.commands == commands and tally.games >= 3
    assert tally.computer_moves > 0 and tally.refused > 0 and tally.done["tap"] > 0
    if commands == COMMANDS:  # every game, and taps refused with hostile tokens
        assert any(key.startswith("tap: picker.") for key in tally.refusals)
        played = {row.game_type for row in await _games(store)}
        assert played == set(registry), played


async def _games(store: Store) -> list[GameRow]:
    rows = []
    for game_id in await store.game_ids(("lobby", "running", "finished", "abandoned")):
        row = await store.get_game(game_id)
        if row is not None and row.state is not None:
            rows.append(row)
    return rows
