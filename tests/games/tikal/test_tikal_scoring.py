"""Scoring steps: temples by guard or strict majority (ties: nobody), treasures
1/3/6 per kind, only the scoring player scores, and the final ranking."""

from __future__ import annotations

from tikal_positions import S, blank, lay, put

from bot.games.tikal import ENGINE
from bot.games.tikal.scoring import ranking, score_step, temples_scored, treasure_points
from bot.games.tikal.state import PHASE_OVER
from bot.i18n import t


def test_treasure_sets_score_1_3_6() -> None:
    assert treasure_points({}) == 0
    assert treasure_points({"mask": 1}) == 1
    assert treasure_points({"mask": 2}) == 3
    assert treasure_points({"mask": 3}) == 6
    assert treasure_points({"mask": 3, "jade": 2, "idol": 1}) == 10


def test_seed_example_21_for_temples_and_8_for_two_pairs_and_two_singles() -> None:
    game = blank(2)
    lay(game, "A5", "B-2", 0)  # temple 3
    lay(game, "A4", "E-3", 0)  # temple 5
    lay(game, "A3", "F-1", 0)  # temple 5
    lay(game, "A2", "F-2", 0, value=8)  # temple uncovered to 8
    for space in ("A5", "A4", "A3", "A2"):
        put(game, space, 0, workers=1)
    put(game, "A3", 1, workers=1)
    put(game, "A3", 0, leader=True)  # 4 against 1 on A3
    game.players[0].treasures = {"mask": 2, "jade": 2, "idol": 1, "vase": 1}
    event = score_step(game, 0)
    assert event.params == {"seat": 0, "points": 29, "temples": 21, "treasures": 8, "score": 29}
    assert game.players[0].score == 29
    assert (game.players[0].temple_points, game.players[0].treasure_points) == (21, 8)


def test_only_the_scoring_player_scores() -> None:
    game = blank(2)
    put(game, "A6", 1, workers=1)
    game.players[1].treasures = {"mask": 3}
    score_step(game, 0)
    assert [p.score for p in game.players] == [0, 0]
    score_step(game, 1)
    assert [p.score for p in game.players] == [0, 7]


def test_a_tie_scores_for_nobody_and_the_leader_counts_3() -> None:
    game = blank(3)
    put(game, "A6", 0, leader=True)
    put(game, "A6", 1, workers=3)
    put(game, "B7", 0, workers=1)
    put(game, "B7", 2, workers=1)
    assert temples_scored(game, 0) == []
    assert temples_scored(game, 1) == []
    put(game, "A6", 1, workers=1)
    assert temples_scored(game, 1) == [S("A6")]
    put(game, "B7", 2, workers=1)
    assert temples_scored(game, 2) == [S("B7")]


def test_a_guarded_temple_scores_for_its_guard_only() -> None:
    game = blank(2)
    game.hexes[S("A6")].guard = 1
    game.hexes[S("A6")].value = 4
    put(game, "A6", 0, workers=5)
    assert temples_scored(game, 0) == []
    assert temples_scored(game, 1) == [S("A6")]
    score_step(game, 1)
    assert game.players[1].score == 4


def test_temples_score_their_current_value() -> None:
    game = blank(2)
    put(game, "A6", 0, workers=1)
    game.hexes[S("A6")].value = 7
    score_step(game, 0)
    assert game.players[0].score == 7


def test_ranking_ties_share_the_place() -> None:
    game = blank(4)
    for seat, score in enumerate((30, 42, 30, 12)):
        game.players[seat].score = score
    game.phase = PHASE_OVER
    result = ranking(game)
    assert result.ranking == (1, 0, 2, 3)
    assert dict(result.places) == {1: 1, 0: 2, 2: 2, 3: 4}
    assert dict(result.scores) == {0: 30, 1: 42, 2: 30, 3: 12}
    key, params = result.details[1]
    assert key == "tikal.result.detail" and params["score"] == 42
    assert ENGINE.result(game) == result


def test_tied_winners_share_the_win() -> None:
    game = blank(3)
    for seat, score in enumerate((50, 50, 10)):
        game.players[seat].score = score
    game.phase = PHASE_OVER
    assert dict(ranking(game).places) == {0: 1, 1: 1, 2: 3}


def test_no_result_while_the_game_runs() -> None:
    assert ENGINE.result(blank()) is None


def test_the_ranking_explains_each_score_with_what_the_mode_counts() -> None:
    base = blank(2)
    base.players[0].temple_points, base.players[0].treasure_points = 9, 4
    base.players[0].score = 13
    key, params = ranking(base).details[0]
    assert key == "tikal.result.detail"  # no start score and no auctions to explain
    assert t("en", key, **params) == "temples 9, treasures 4"

    auction = blank(2, mode="auction")
    player = auction.players[1]
    player.temple_points, player.treasure_points, player.paid = 7, 3, 12
    player.score = 20 + 7 + 3 - 12
    key, params = ranking(auction).details[1]
    assert key == "tikal.result.detail_auction"
    assert params["start"] + params["temples"] + params["treasures"] - params["paid"] == 18
    assert t("en", key, **params) == "20 at the start, temples 7, treasures 3, paid in auctions 12"
