"""Building Temple Rush positions by hand for the scenario tests.

``game()`` makes a state whose face-up cards, deck and dice are chosen (no
shuffle), in round 1 with seat 0 rolling; ``build()`` lays bricks on a
seat's board straight from its supply; ``act()`` plays notation through the
engine; ``refused()`` checks a refusal's key and that the state is untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.games.base import Event, RuleError
from bot.games.temple import ENGINE, GameState
from bot.games.temple.actions import parse_brick
from bot.games.temple.naming import brick_name
from bot.games.temple.state import PHASE_ROUND, Laid, Player


def game(
    seats: int = 2,
    slots: Sequence[str | None] = ("hut", "gate"),
    deck: Sequence[str] = ("mastaba", "dais", "shrine"),
    dice: Sequence[str] | None = None,
    joint: bool = False,
) -> GameState:
    state = GameState(
        seats=seats,
        seed=7,
        deadline="24h",
        joint_rule=joint,
        players=[Player() for _ in range(seats)],
        slots=list(slots),
        deck=list(deck),
        ages=[0] * len(slots),
    )
    state.round, state.roller, state.phase = 1, 0, PHASE_ROUND
    state.dice = list(dice or ["star"] * seats)
    return state


def build(state: GameState, seat: int, area: int, *bricks: str) -> None:
    """Lay ``4:A1``-style bricks on the board (taken from the supply)."""
    player = state.players[seat]
    for word in bricks:
        brick = parse_brick(word)
        assert player.supply[brick.length] > 0, word
        player.supply[brick.length] -= 1
        player.builds[area].append(Laid(brick, 0))


def bricks(state: GameState, seat: int, area: int) -> list[str]:
    """The bricks of a build in notation, sorted."""
    return sorted(b.notation() for b in state.players[seat].bricks(area))


def act(state: GameState, seat: int, text: str) -> list[Event]:
    return ENGINE.apply(state, seat, ENGINE.parse_action(text))


def keys(events: Sequence[Event]) -> list[str]:
    return [e.key for e in events]


def named(notation: str) -> Any:
    """How a refusal names the brick written ``notation`` (``2:A2``): by its cells."""
    return brick_name(parse_brick(notation))


def refused(state: GameState, seat: int, text: str, key: str, **params: Any) -> RuleError:
    """``text`` is refused with ``key`` (and these params) and changes nothing."""
    before = ENGINE.dump_state(state)
    with pytest.raises(RuleError) as caught:
        act(state, seat, text)
    assert caught.value.key == key, caught.value
    for name, value in params.items():
        assert caught.value.params[name] == value, caught.value.params
    assert ENGINE.dump_state(state) == before
    return caught.value


def supply(state: GameState, seat: int) -> dict[int, int]:
    return dict(state.players[seat].supply)
