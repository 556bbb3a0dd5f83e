"""A step an engine declares calm never reaches a search (:meth:`GameEngine.calm`).

The service applies a calm step on the event loop (:func:`bot.service.play.applied`),
so a calm step must never reach the code that searches: Temple Rush's layout solver
(:func:`bot.games.temple.solver.find_layout`, behind the round-end check and the
race's suggested layout) and the computer players' search
(:func:`bot.games.computer.decide`). Each is wrapped so that a call raises a flag;
the solver's caches are cleared before every calm step (cold: a cache hit would
hide a search). Random play of every game and mode
(:data:`tests.support.modes.EVERY_MODE`): before each step, whether the engine
declares it calm; a calm step (applied, or refused) must leave the flag down.
The flag is shown to work: in Temple Rush the steps not declared calm do reach
the solver, in every mode.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot import plugins
from bot.games import computer
from bot.games.base import GameEngine, RuleError
from bot.games.temple import cards, legal, solver
from tests.support.modes import EVERY_MODE
from tests.support.temple_play import Player as TemplePlayer

GAMES = plugins.load_builtin_games()
#: steps played per game (a game that ends sooner stops there)
STEPS = 400
SEEDS = (1, 2, 3)


class Searches:
    """Counts the calls of the searching functions while armed."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return function(*args, **kwargs)

        return counted


def cold() -> None:
    """Forget every cache Temple Rush's rules keep (the solver's first of all)."""
    for module in (solver, legal, cards):
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> Searches:
    found = Searches()
    monkeypatch.setattr(solver, "find_layout", found.wrap("find_layout", solver.find_layout))
    monkeypatch.setattr(computer, "decide", found.wrap("decide", computer.decide))
    return found


def chooser(name: str, engine: GameEngine[Any, Any], rng: random.Random) -> Callable[..., Any]:
    """How a seat picks its step: Temple Rush's random player (it builds, so bonus
    choices and races come up), else a random legal action."""
    if name == "temple":
        player = TemplePlayer(rng)
        return lambda state, seat: player.quick(state, seat) or player.choose(state, seat)
    return lambda state, seat: rng.choice(engine.legal_actions(state, seat))


def steps(
    name: str, seats: int, options: dict[str, str], seed: int
) -> Iterator[tuple[GameEngine[Any, Any], Any, int, Any]]:
    """(engine, state, seat, action) before each step of a random game; the caller
    applies the step."""
    engine = GAMES[name].engine
    rng = random.Random(seed)
    pick = chooser(name, engine, rng)
    state = engine.new_game(seats, options, seed)
    for _ in range(STEPS):
        if engine.result(state) is not None:
            return
        seat = rng.choice(sorted(engine.waiting_for(state)))
        yield engine, state, seat, pick(state, seat)


@pytest.mark.parametrize(("name", "seats", "options"), EVERY_MODE)
def test_a_calm_step_never_searches(
    searches: Searches, name: str, seats: int, options: dict[str, str]
) -> None:
    calm_steps = uncalm_searched = 0
    for seed in SEEDS:
        for engine, state, seat, action in steps(name, seats, options, seed):
            calm = engine.calm(state, seat, action)
            if calm:
                cold()
            searches.calls.clear()
            with contextlib.suppress(RuleError):
                engine.apply(state, seat, action)
            if calm:
                assert searches.calls == [], (name, seed, seat, str(action))
                calm_steps += 1
            elif searches.calls:
                uncalm_searched += 1
    assert calm_steps > 0
    if name == "temple":  # the flag is live: the round-end check searches (caches warm or not)
        assert uncalm_searched > 0


def test_temple_declares_a_rounds_last_submission_not_calm() -> None:
    engine = GAMES["temple"].engine
    state = engine.new_game(3, {}, 4)
    pass_ = engine.parse_action("pass")
    assert engine.calm(state, 0, pass_) and engine.calm(state, 1, pass_)
    engine.apply(state, 0, pass_)
    engine.apply(state, 1, pass_)
    assert engine.waiting_for(state) == {2}
    assert not engine.calm(state, 2, pass_)
    assert engine.calm(state, 0, pass_)  # seat 0 re-seals while seat 2 is still awaited
