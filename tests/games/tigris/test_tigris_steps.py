"""Every action since the last hand-off is in the public view (``steps``), with
its squares and a caption, so the board marks each one, not only the last."""

from __future__ import annotations

import random

from bot.games.tigris import ENGINE
from bot.games.tigris.actions import action_squares, public_notation
from bot.games.tigris.board import square_name
from bot.i18n import LANGUAGES, Text


def test_every_action_of_a_turn_is_in_the_next_public_view() -> None:
    chooser = random.Random(5)
    state = ENGINE.new_game(3, {}, 5)
    turn: list[tuple[int, str, list[str]]] = []
    two_action_turns = 0
    while ENGINE.result(state) is None:
        seat = chooser.choice(sorted(ENGINE.waiting_for(state)))
        action = chooser.choice(ENGINE.legal_actions(state, seat))
        if turn and turn[-1][0] != seat:
            turn = []
        squares = [square_name(sq) for sq in action_squares(action)]
        ENGINE.apply(state, seat, action)
        turn.append((seat, public_notation(action), squares))
        view = ENGINE.public_view(state)
        steps = view["steps"]
        assert [(s["seat"], s["notation"]) for s in steps] == [(a, n) for a, n, _ in turn]
        for step, (_, _, squares) in zip(steps, turn, strict=True):
            assert set(squares) <= set(step["squares"])
            for lang in LANGUAGES:
                words = Text.from_json(step["caption"]).render(lang)
                assert words and "{" not in words and "tigris.step" not in words
        if ENGINE.waiting_for(state) != {seat} and len([s for s in steps if s["squares"]]) > 1:
            two_action_turns += 1
        assert ENGINE.public_view(ENGINE.load_state(ENGINE.dump_state(state))) == view
    assert two_action_turns > 10  # turns of two marked actions did happen
