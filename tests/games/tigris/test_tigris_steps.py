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


def test_the_end_view_ranks_every_seat_with_scores_and_tie_breaks() -> None:
    for seed in (1, 2, 3, 4):
        chooser = random.Random(seed)
        state = ENGINE.new_game(4, {}, seed)
        while ENGINE.result(state) is None:
            assert ENGINE.public_view(state)["result"] is None
            seat = chooser.choice(sorted(ENGINE.waiting_for(state)))
            ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        result = ENGINE.result(state)
        assert result is not None
        view = ENGINE.public_view(state)
        entries = view["result"]["ranking"]
        assert [e["seat"] for e in entries] == list(result.ranking)
        assert all(e["score"] == result.scores[e["seat"]] for e in entries)
        assert all(e["place"] == result.places[e["seat"]] for e in entries)
        assert all(p["points"] is not None for p in view["players"])  # the screens are lifted
        for entry in entries:
            rivals = [
                e["sorted"]
                for e in entries
                if e is not entry
                and e["score"] == entry["score"]
                and e["sorted"] != entry["sorted"]
            ]
            assert (entry["tiebreak"] is not None) == bool(rivals)
            if rivals:
                assert entry["sorted"][: entry["tiebreak"]] not in [
                    r[: entry["tiebreak"]] for r in rivals
                ]
