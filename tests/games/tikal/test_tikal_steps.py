"""Every step since the last hand-off is in the public view (``steps``), with its
spaces and a caption, so the board marks a hex laid and each move of a turn, and
an auction's bids replace the last turn's "camp B6" line."""

from __future__ import annotations

import random

import pytest

from bot.games.tikal import ENGINE
from bot.games.tikal.actions import action_spaces
from bot.games.tikal.board import space_name
from bot.games.tikal.selfplay import choose
from bot.i18n import LANGUAGES, Text


@pytest.mark.parametrize(
    ("mode", "seats", "seed"), [("base", 3, 4), ("auction", 3, 2), ("mini", 2, 1)]
)
def test_every_step_of_a_turn_is_in_the_next_public_view(mode: str, seats: int, seed: int) -> None:
    state = ENGINE.new_game(seats, {"mode": mode}, seed)
    rng = random.Random(seed)
    turn: list[tuple[int, str, list[str]]] = []
    marked_turns = bids = 0
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.waiting_for(state)
        action = choose(state, seat, rng)
        if turn and turn[-1][0] != seat:
            turn = []
        ENGINE.apply(state, seat, action)
        turn.append((seat, str(action), [space_name(s) for s in action_spaces(action)]))
        view = ENGINE.public_view(state)
        steps = view["steps"]
        assert [(s["seat"], s["notation"], s["spaces"]) for s in steps] == turn
        for step in steps:
            for lang in LANGUAGES:
                words = Text.from_json(step["caption"]).render(lang)
                assert words and "{" not in words and "tikal.step" not in words
        if ENGINE.waiting_for(state) != {seat}:
            marked_turns += len([s for s in steps if s["spaces"]]) > 2
            bids += steps[-1]["notation"].startswith("bid")
    assert marked_turns > 5  # turns with a hex laid and several moves happened
    if mode == "auction":
        assert bids > 5  # and a bid's view shows the bid, not the previous turn
