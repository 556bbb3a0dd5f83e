"""Every brick laid at a reveal is marked in the next public view (``new``), so the
round's board shows each player's bricks of that round, not only some."""

from __future__ import annotations

from typing import Any

from bot.games.temple import ENGINE, GameState, Place
from bot.games.temple.actions import Action
from bot.games.temple.components import cell_name
from tests.support.temple_play import play


def test_every_brick_laid_at_a_reveal_is_marked_new() -> None:
    checked = 0
    seen: dict[str, Any] = {"revealed": 0}

    def each(game: GameState, seat: int, action: Action) -> None:
        nonlocal checked
        if not game.revealed or game.revealed == seen["revealed"]:
            return
        seen["revealed"] = game.revealed
        view = ENGINE.public_view(game)
        for player in view["players"]:
            areas = {a["area"]: a for a in player["areas"]}
            for text in player["last_moves"]:
                try:
                    move = ENGINE.parse_action(text)
                except Exception:  # a token or a pass: no brick
                    continue
                if not isinstance(move, Place):
                    continue
                bricks = [
                    b for b in areas[move.area]["bricks"] if b["cell"] == cell_name(*move.cell)
                ]
                if bricks:  # else the temple was completed and its bricks left the board
                    assert all(b["new"] for b in bricks), (text, areas[move.area])
                    checked += 1
        # and nothing laid earlier is marked
        for player in view["players"]:
            for area in player["areas"]:
                assert sum(b["new"] for b in area["bricks"]) <= len(player["last_moves"])

    for seed in (1, 2, 3):
        play(4, seed, each=each)
        seen["revealed"] = 0
    assert checked > 100


def test_the_end_view_gives_scores_and_the_tie_break_of_tied_seats() -> None:
    ties = 0
    for seed in range(1, 13):
        game, _ = play(4, seed)
        result = ENGINE.result(game)
        assert result is not None
        view = ENGINE.public_view(game)["result"]
        assert view["scores"] == {str(s): v for s, v in result.scores.items()}
        tied = {s for s, v in result.scores.items() if list(result.scores.values()).count(v) > 1}
        assert set(view["tiebreak"]) == {str(s) for s in tied}
        ties += bool(tied)
    assert ties  # some seed did tie
