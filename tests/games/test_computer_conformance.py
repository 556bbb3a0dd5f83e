"""Every game's computer sampler keeps the seat's information state (issue 28).

A computer player reads the real state only through its brain's
:meth:`~bot.games.computer.Brain.sample`. As OpenSpiel asserts for its
``resample_from_infostate``, a sample must look the same to the seat as the
state it came from: ``public_view(sample) == public_view(state)`` and
``private_view(sample, seat) == private_view(state, seat)``, at random
positions of every game and mode, for every seat (awaited or not). With the
metamorphic honesty tests of each game (a decision is the same when only what
the seat cannot see changes), this is the check anyone can run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import plugins
from bot.games.base import GameEngine
from tests.support.modes import EVERY_MODE

GAMES = plugins.load_builtin_games()
#: (game, players, options): every game and mode
MODES = EVERY_MODE


def positions(engine: GameEngine[Any, Any], seats: int, options: dict[str, str], seed: int) -> Any:
    """States along one game of random legal steps (every tenth step and the last)."""
    rng = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    for step in range(600):
        if engine.result(state) is not None:
            return
        awaited = sorted(engine.waiting_for(state))
        if not awaited:
            return
        if step % 10 == 0:
            yield state
        seat = rng.choice(awaited)
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    yield state


@pytest.mark.parametrize(("game", "seats", "options"), MODES)
def test_a_sample_keeps_what_the_seat_sees(game: str, seats: int, options: dict[str, str]) -> None:
    engine = GAMES[game].engine
    brain = engine.computer()
    assert brain is not None
    rng = random.Random(f"{game}:{seats}")
    checked = 0
    for seed in (1, 2):
        for state in positions(engine, seats, options, seed):
            public = engine.public_view(state)
            for seat in range(seats):
                world = brain.sample(state, seat, rng)
                assert engine.public_view(world) == public, (game, seat)
                if engine.has_private_view:
                    mine = engine.private_view(state, seat)
                    assert engine.private_view(world, seat) == mine, (game, seat)
                checked += 1
            assert engine.public_view(state) == public  # the state itself untouched
    assert checked >= 30


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_sample_deals_the_hidden_parts_afresh(game: str) -> None:
    """The check above is not vacuous: samples of one position differ from each other
    (what the seat cannot see is dealt anew), and a copy would pass it only because it
    is the state itself."""
    engine = GAMES[game].engine
    brain = engine.computer()
    assert brain is not None
    differ = 0
    for state in positions(engine, 2, {}, 3):
        first = engine.dump_state(brain.sample(state, 0, random.Random(1)))
        second = engine.dump_state(brain.sample(state, 0, random.Random(2)))
        differ += first != second
    assert differ
