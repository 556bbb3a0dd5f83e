"""Tikal's ``only_end_turn`` answers exactly what the engine contract's default
answers (End turn when it is the only legal action, else None), over seeded random
play in every mode and seat count, for every seat at every step, and for the
acting seat again with less action points left and its entries used up (where
End turn alone is common)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from tikal_positions import S, acting, blank, lay, put

from bot.games.base import GameEngine
from bot.games.tikal import ENGINE
from bot.games.tikal.components import (
    COST_CAMP,
    COST_DIG,
    COST_EXCHANGE,
    COST_GUARD,
    COST_RECOVER,
    MAX_ENTERED_PER_TURN,
    MAX_LEVELS_PER_TEMPLE_PER_TURN,
    TILES,
    TREASURE_KINDS,
)
from bot.games.tikal.selfplay import choose
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_OVER, GameState

CONFIGS = [
    ("base", 2),
    ("base", 3),
    ("base", 4),
    ("auction", 2),
    ("auction", 3),
    ("auction", 4),
    ("mini", 2),
]
GAMES_PER_CONFIG = 4


def compared(game: GameState, seat: int, tally: Counter[str]) -> None:
    default = GameEngine.only_end_turn(ENGINE, game, seat)
    override = ENGINE.only_end_turn(game, seat)
    assert (None if override is None else str(override)) == (
        None if default is None else str(default)
    ), (seat, game.phase, game.turn)
    tally["end" if default is not None else "none"] += 1
    if default is not None and game.turn is not None and game.turn.ap > 0:
        tally["end, AP left"] += 1


def test_only_end_turn_equals_the_default_over_random_play() -> None:
    tally: Counter[str] = Counter()
    for mode, seats in CONFIGS:
        for seed in range(GAMES_PER_CONFIG):
            game = ENGINE.new_game(seats, {"mode": mode}, seed)
            rng = random.Random(seed * 31 + seats)
            while game.phase != PHASE_OVER:
                for seat in range(seats):
                    compared(game, seat, tally)
                turn = game.turn
                if game.phase == PHASE_ACTIONS and turn is not None:
                    for ap in range(min(turn.ap, 4)):
                        for entered in {turn.entered, MAX_ENTERED_PER_TURN}:
                            game.turn = dataclasses.replace(turn, ap=ap, entered=entered)
                            compared(game, turn.seat, tally)
                    game.turn = turn
                (seat,) = ENGINE.waiting_for(game)
                ENGINE.apply(game, seat, choose(game, seat, rng))
    # both answers are reached often (End turn alone with action points left too),
    # so the comparison decides something
    assert tally["none"] > 20000 and tally["end"] > 5000 and tally["end, AP left"] > 200, tally


def test_only_end_turn_when_no_action_point_is_left() -> None:
    game = acting(blank(), 0, ap=0)
    put(game, "B6", 0, workers=1)
    assert str(ENGINE.only_end_turn(game, 0)) == "end"
    assert ENGINE.only_end_turn(game, 1) is None


def test_no_only_end_turn_while_a_figure_may_still_enter_or_move() -> None:
    game = acting(blank(), 0, ap=1)
    assert ENGINE.only_end_turn(game, 0) is None  # an entry at the base camp
    game.turn = dataclasses.replace(game.turn, entered=MAX_ENTERED_PER_TURN)
    put(game, "B6", 0, workers=1)
    assert ENGINE.only_end_turn(game, 0) is None  # a move


def lone(verb: str) -> tuple[GameState, int]:
    """Seat 0 with its entries used up and its figures, if any, on a hex no path
    leaves (E3, nothing laid around it): ``verb`` is its one action besides End
    turn with the returned action points, and End turn alone with one less."""
    game = acting(blank(), 0)
    game.turn = dataclasses.replace(game.turn, entered=MAX_ENTERED_PER_TURN)
    if verb in ("dig", "guard"):
        lay(game, "E3", "A-1")
        put(game, "E3", 0, workers=1)
        if verb == "guard":  # no dig (dug as deep as a turn allows) and no camp left
            game.turn.dug[S("E3")] = MAX_LEVELS_PER_TEMPLE_PER_TURN
            game.players[0].camps = 0
        return game, COST_DIG if verb == "dig" else COST_GUARD
    if verb == "recover":
        lay(game, "E3", "A-5")
        put(game, "E3", 0, workers=1)
        return game, COST_RECOVER
    if verb == "camp":
        lay(game, "E3", next(t for t, spec in TILES.items() if spec.kind == "jungle"))
        return game, COST_CAMP
    assert verb == "exchange"
    mine, theirs = TREASURE_KINDS[:2]
    game.players[0].treasures[mine] = 1
    game.players[1].treasures[theirs] = 1
    return game, COST_EXCHANGE


@pytest.mark.parametrize("verb", ["dig", "guard", "recover", "camp", "exchange"])
def test_a_lone_action_of_each_verb_is_found(verb: str) -> None:
    game, ap = lone(verb)
    game.turn = dataclasses.replace(game.turn, ap=ap)
    others = {type(a).__name__.lower() for a in ENGINE.legal_actions(game, 0)} - {"end"}
    assert others == {verb}
    compared(game, 0, Counter())
    assert ENGINE.only_end_turn(game, 0) is None
    game.turn = dataclasses.replace(game.turn, ap=ap - 1)
    compared(game, 0, Counter())
    assert str(ENGINE.only_end_turn(game, 0)) == "end"
