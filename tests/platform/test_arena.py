"""The arena (``python -m bot arena``) and the shared search, on the test game Oracle.

Oracle hides each seat's hand, the deck and the sealed cards of the round;
:class:`OracleBrain` is a small honest brain for it, so the search and the
arena are tested here apart from the product games' brains (each game's own
tests check its brain).
"""

from __future__ import annotations

import argparse
import random
import re
from typing import Any, ClassVar

import pytest

from bot import arena
from bot.__main__ import main
from bot.games.base import GameType
from bot.games.computer import Brain, Budget, decide
from bot.i18n import t
from tests.conftest import ORACLE
from tests.support.oracle import OracleEngine, OracleState, Play

LINE = re.compile(
    r"^(?P<level>\w+): won (?P<won>\d+) of (?P<games>\d+) games "
    r"\((?P<percent>\d+)% \[(?P<low>\d+)–(?P<high>\d+)\]\), average score (?P<score>[\d.]+), "
    r"decision p50 (?P<p50>\d+) ms, p99 (?P<p99>\d+) ms$"
)


class OracleBrain(Brain[OracleState, Any]):
    """Plays the highest card when it can win the round, else the lowest; keeps points."""

    def plans(self, state: OracleState, seat: int) -> list[tuple[Any, ...]]:
        return [(action,) for action in self.engine.legal_actions(state, seat)]

    def evaluate(self, state: OracleState, seat: int) -> float:
        others = [p for s, p in enumerate(state.points) if s != seat]
        return state.points[seat] - max(others) + 0.01 * sum(state.hands[seat])

    def sample(self, state: OracleState, seat: int, rng: random.Random) -> OracleState:
        world = self.copy(state)
        unseen = sorted(
            [card for s, hand in enumerate(state.hands) if s != seat for card in hand]
            + [card for s, card in state.played.items() if s != seat]
            + state.deck
        )
        rng.shuffle(unseen)
        for s in range(state.seats):
            if s == seat:
                continue
            size = len(state.hands[s]) + (s in state.played)
            world.hands[s] = sorted(unseen[:size])
            del unseen[:size]
            world.played.pop(s, None)
        world.deck = unseen
        return world


ENGINE_WITH_BRAIN = type("OracleWithBrain", (OracleEngine,), {"computer": lambda self: BRAIN})()
BRAIN = OracleBrain(ENGINE_WITH_BRAIN)
GAME = GameType(ENGINE_WITH_BRAIN, ORACLE.render_public, ORACLE.render_private)


def _request(seats: tuple[str, ...], games: int) -> arena.ArenaRequest:
    return arena.ArenaRequest("oracle", {}, seats, games, seed=5, think=None, jobs=1)


def test_a_decision_ignores_what_its_seat_cannot_see() -> None:
    """The same seed gives the same plan after the other hands, the deck and a sealed
    card are redealt; a sampler that peeked would give different plans."""
    engine = ENGINE_WITH_BRAIN
    differing = 0
    for seed in range(30):
        state = engine.new_game(3, {}, seed)
        engine.apply(state, 1, Play(state.hands[1][0]))  # seat 1's card is sealed
        for level in ("easy", "strong"):
            first = decide(BRAIN, state, 0, level, seed)
            changed = BRAIN.copy(state)
            pool = changed.hands[1] + changed.hands[2] + [changed.played[1]] + changed.deck
            random.Random(seed).shuffle(pool)
            changed.played[1] = pool.pop()
            changed.hands[1], changed.hands[2] = sorted(pool[:2]), sorted(pool[2:5])
            changed.deck = pool[5:]
            assert decide(BRAIN, changed, 0, level, seed) == first
            differing += decide(BRAIN, state, 0, level, seed + 1) != first
    assert differing, "the seed never mattered: the test could not tell samplers apart"


def test_the_arena_plays_every_game_to_its_end_with_the_levels_rotated() -> None:
    request = _request(("strong", "easy", "random"), 6)
    records = [arena.play_game(request, index, GAME) for index in range(request.games)]
    assert all(record.finished for record in records)
    assert [record.levels[0] for record in records] == ["strong", "easy", "random"] * 2
    for record in records:
        assert sorted(record.places) == [0, 1, 2]
        assert all(record.times[seat] for seat in range(3))  # every seat decided
    lines = arena.summary(request, records)
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    assert [m["level"] for m in parsed if m] == ["strong", "easy", "random"]
    wins = {
        level: sum(
            any(r.levels[s] == level and p == 1 for s, p in r.places.items()) for r in records
        )
        for level in ("strong", "easy", "random")
    }
    assert [int(m["won"]) for m in parsed if m] == list(wins.values())
    assert all(int(m["games"]) == 6 for m in parsed if m)


def test_strong_beats_random_at_oracle() -> None:
    """A measurable difference on a game where the highest card wins."""
    request = _request(("strong", "random"), 40)
    records = [arena.play_game(request, index, GAME) for index in range(request.games)]
    won = sum(1 for r in records for s, p in r.places.items() if p == 1 and r.levels[s] == "strong")
    assert won >= 28


def test_wilson_interval_and_percentiles() -> None:
    assert arena.wilson(0, 10)[0] == 0.0
    low, high = arena.wilson(19, 20)
    assert 0.763 < low < 0.765 and 0.990 < high < 0.992  # the textbook 76.4%–99.1%
    assert arena.percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert arena.percentile(list(map(float, range(1, 101))), 0.99) == 99.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "tigris", "--seats", "strong,genius"], 'Unknown level "genius"'),
        (["--game", "tigris", "--seats", "strong,random", "--games", "0"], "--games must be"),
        (["--game", "tigris", "--seats", "strong,random", "--think", "fast"], "--think must be"),
        (["--game", "chess"], "chess"),
        pytest.param(  # one seat: the game named by its title, with the players it needs
            ["--game", "tigris", "--seats", "strong"],
            t("en", "app.demo_bad_players", game=t("en", "tigris.title"), min=2, max=4),
            id="argv4-tigris",
        ),
    ],
)
def test_a_bad_argument_gets_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


class FrozenOracleBrain(OracleBrain):
    """A baseline that plays like OracleBrain and counts the levels it is searched at."""

    searched: ClassVar[list[str]] = []

    def budget(self, level: str) -> Budget:
        FrozenOracleBrain.searched.append(level)
        return super().budget(level)


class OracleWithBaseline(OracleBrain):
    def baseline(self) -> Brain[OracleState, Any]:
        return FrozenOracleBrain(self.engine)


def test_the_baseline_level_is_the_games_frozen_player_searched_at_strong() -> None:
    engine = type("OracleWithBaseline", (OracleEngine,), {})()
    brain = OracleWithBaseline(engine)
    engine.computer = lambda: brain
    game = GameType(engine, ORACLE.render_public, ORACLE.render_private)
    FrozenOracleBrain.searched.clear()
    request = _request(("strong", "baseline"), 4)
    records = [arena.play_game(request, index, game) for index in range(request.games)]
    assert all(record.finished for record in records)
    assert FrozenOracleBrain.searched and set(FrozenOracleBrain.searched) == {"strong"}
    assert [m["level"] for m in map(LINE.match, arena.summary(request, records)) if m] == [
        "strong",
        "baseline",
    ]


def test_a_game_without_a_baseline_refuses_the_level() -> None:
    args = argparse.Namespace(
        game="oracle", seats="strong,baseline", games="2", seed="1", option=[], think=None, jobs="1"
    )
    with pytest.raises(arena.ArenaError, match="baseline"):
        arena.check_arena({"oracle": GAME}, args)
    args.seats = "strong,easy"
    assert arena.check_arena({"oracle": GAME}, args).seats == ("strong", "easy")


def test_strong_chooses_among_near_equal_plans_from_its_seed() -> None:
    """With a tolerance, plans within it of the best are chosen at random (by the seed);
    without one (the baseline's search), the best plan always."""

    class Flat(OracleBrain):
        tolerance = 0.0

        def evaluate(self, state: OracleState, seat: int) -> float:
            return 0.0  # every plan as good as any other

        def budget(self, level: str) -> Budget:
            return Budget(worlds=2, candidates=8, depth=0, tolerance=self.tolerance)

    engine = ENGINE_WITH_BRAIN
    state = engine.new_game(2, {}, 11)
    flat = Flat(engine)
    plans = {decide(flat, state, 0, "strong", seed) for seed in range(40)}
    assert plans == {decide(flat, state, 0, "strong", 0)}
    flat.tolerance = 0.5
    chosen = {decide(flat, state, 0, "strong", seed) for seed in range(40)}
    assert len(chosen) == len(engine.legal_actions(state, 0)) > 1
