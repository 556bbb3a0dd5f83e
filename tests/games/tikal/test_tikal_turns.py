"""Base game turn order: drawing, the volcano scoring round in its exact order,
and the final round from the seat after the last placer."""

from __future__ import annotations

from tikal_positions import S, act, put

from bot.games.tikal import ENGINE, legal
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_OVER,
    PHASE_PLACE,
    TURN_FINAL,
    TURN_NORMAL,
    TURN_SCORING,
    TURN_VOLCANO,
    GameState,
    new_state,
)
from bot.games.tikal.turns import begin


def game_with_stack(seats: int, stack: list[str], mode: str = "base") -> GameState:
    game = new_state(seats, mode, 0)
    game.stack = list(stack)
    begin(game)
    return game


def place_anywhere(game: GameState, seat: int) -> None:
    action = legal.actions_for(game, seat, "place")[0]
    ENGINE.apply(game, seat, action)


def whose(game: GameState) -> tuple[int, str, str]:
    assert game.turn is not None
    return game.turn.seat, game.turn.kind, game.phase


def test_a_new_base_game_starts_with_seat_0_drawing_the_top_hex() -> None:
    game = ENGINE.new_game(3, {"mode": "base"}, 7)
    assert game.in_hand is not None and game.in_hand.startswith("A-")
    assert whose(game) == (0, TURN_NORMAL, PHASE_PLACE)
    assert len(game.stack) == 35
    assert ENGINE.waiting_for(game) == {0}


def test_stacks_are_shuffled_per_letter_a_on_top() -> None:
    game = new_state(2, "base", 3)
    letters = [tile.split("-")[0] for tile in game.stack]
    assert letters == sorted(letters)
    other = new_state(2, "base", 4)
    assert game.stack != other.stack and sorted(game.stack) == sorted(other.stack)


def test_turns_go_clockwise_each_drawing_a_hex() -> None:
    game = game_with_stack(3, ["A-1", "A-3", "A-4", "C-2"])
    assert (game.in_hand, whose(game)) == ("A-1", (0, TURN_NORMAL, PHASE_PLACE))
    place_anywhere(game, 0)
    assert whose(game) == (0, TURN_NORMAL, PHASE_ACTIONS)
    keys = act(game, 0, "end")
    assert keys == ["tikal.event.turn_ended", "tikal.event.drew"]
    assert (game.in_hand, whose(game)) == ("A-3", (1, TURN_NORMAL, PHASE_PLACE))
    place_anywhere(game, 1)
    act(game, 1, "end")
    assert (game.in_hand, whose(game)) == ("A-4", (2, TURN_NORMAL, PHASE_PLACE))


def test_volcano_round_order() -> None:
    # Seat 1 draws the volcano in a 3-player game: 1 scores, 2 scores, 0 scores,
    # then 1 lays the volcano and plays a normal turn; then seat 2 draws.
    game = game_with_stack(3, ["A-1", "B-5", "C-2", "C-3"])
    place_anywhere(game, 0)
    put(game, "A6", 0, workers=1)
    put(game, "B7", 2, workers=2)
    keys = act(game, 0, "end")
    assert "tikal.event.volcano" in keys
    assert game.aside == "B-5" and game.in_hand is None
    assert game.scoring is not None and game.scoring.order == [1, 2, 0]
    assert whose(game) == (1, TURN_SCORING, PHASE_ACTIONS)
    assert game.turn is not None and game.turn.ap == 10
    act(game, 1, "enter A7")
    act(game, 1, "end")
    assert [p.score for p in game.players] == [0, 0, 0]  # seat 1 holds no temple
    assert whose(game) == (2, TURN_SCORING, PHASE_ACTIONS)
    act(game, 2, "end")
    assert [p.score for p in game.players] == [0, 0, 1]  # B7 for seat 2 only
    assert whose(game) == (0, TURN_SCORING, PHASE_ACTIONS)
    act(game, 0, "end")
    assert [p.score for p in game.players] == [1, 0, 1]
    assert game.scoring is None
    assert (game.in_hand, whose(game)) == ("B-5", (1, TURN_VOLCANO, PHASE_PLACE))
    place_anywhere(game, 1)
    assert whose(game) == (1, TURN_VOLCANO, PHASE_ACTIONS)
    assert game.turn is not None and (game.turn.ap, game.turn.entered) == (10, 0)
    act(game, 1, "end")
    assert (game.in_hand, whose(game)) == ("C-2", (2, TURN_NORMAL, PHASE_PLACE))


def test_the_drawers_scoring_turn_and_normal_turn_have_separate_limits() -> None:
    game = game_with_stack(2, ["B-5", "C-2"])
    assert whose(game) == (0, TURN_SCORING, PHASE_ACTIONS)
    put(game, "A6", 0, workers=2)
    act(game, 0, "dig A6")
    act(game, 0, "dig A6")
    act(game, 0, "end")
    act(game, 1, "end")
    place_anywhere(game, 0)
    act(game, 0, "dig A6")  # a new turn: 2 more levels allowed
    act(game, 0, "dig A6")
    assert game.hexes[S("A6")].value == 5


def test_scoring_is_on_the_board_as_it_stands_at_each_step() -> None:
    game = game_with_stack(2, ["B-5", "C-2"])
    put(game, "A6", 1, workers=1)
    put(game, "A6", 0, workers=1)
    act(game, 0, "move A6 B6")  # seat 0 leaves: seat 1 now holds A6 ...
    act(game, 0, "end")  # ... but only seat 0 scores now
    assert [p.score for p in game.players] == [0, 0]
    act(game, 1, "end")
    assert [p.score for p in game.players] == [0, 1]


def test_final_round_from_the_seat_after_the_last_placer() -> None:
    game = game_with_stack(3, ["A-1", "A-3"])
    place_anywhere(game, 0)
    act(game, 0, "end")
    place_anywhere(game, 1)  # the last hex: seat 1 is the last placer
    put(game, "A6", 0, workers=1)
    keys = act(game, 1, "end")
    assert "tikal.event.final_round" in keys
    assert game.scoring is not None and game.scoring.order == [2, 0, 1]
    assert whose(game) == (2, TURN_FINAL, PHASE_ACTIONS)
    act(game, 2, "end")
    assert whose(game) == (0, TURN_FINAL, PHASE_ACTIONS)
    act(game, 0, "end")
    assert whose(game) == (1, TURN_FINAL, PHASE_ACTIONS)
    keys = act(game, 1, "end")
    assert game.phase == PHASE_OVER and ENGINE.waiting_for(game) == set()
    assert keys[-1] == "tikal.event.winner"
    result = ENGINE.result(game)
    assert result is not None and result.ranking[0] == 0 and dict(result.scores)[0] == 1


def test_a_game_ends_with_every_hex_laid() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 11)
    while game.phase != PHASE_OVER:
        (seat,) = ENGINE.waiting_for(game)
        if game.phase == PHASE_PLACE:
            place_anywhere(game, seat)
        else:
            act(game, seat, "end")
    assert len(game.hexes) == 40 and not game.stack and game.in_hand is None
    assert game.volcanoes == 3


def test_up_next_names_only_what_public_information_decides() -> None:
    # Seat 1 will draw the volcano B-5: up next is still seat 1 (the drawer plays first),
    # then the scoring queue 2, 0, then seat 1's volcano turn, then seat 2 draws.
    game = game_with_stack(3, ["A-1", "B-5", "C-2", "C-3"])
    assert ENGINE.up_next(game) == 1
    place_anywhere(game, 0)
    assert ENGINE.up_next(game) == 1  # the same whatever the stack hides
    act(game, 0, "end")
    assert whose(game) == (1, TURN_SCORING, PHASE_ACTIONS)
    assert ENGINE.up_next(game) == 2
    act(game, 1, "end")
    assert ENGINE.up_next(game) == 0
    act(game, 2, "end")
    assert ENGINE.up_next(game) == 1  # seat 1's own volcano turn
    act(game, 0, "end")
    assert whose(game)[:2] == (1, TURN_VOLCANO)
    assert ENGINE.up_next(game) == 2


def test_up_next_is_unknown_when_an_auction_or_the_final_order_decides() -> None:
    auction = game_with_stack(3, ["A-1", "A-3", "A-4", "C-2"], mode="auction")
    assert ENGINE.up_next(auction) is None
    last = game_with_stack(2, ["A-1"])
    assert last.stack == [] and ENGINE.up_next(last) is None
