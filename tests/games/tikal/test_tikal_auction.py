"""Auction variant and Mini-Tikal: bidding order, payment, passes, free turns,
the last hex, volcanoes bought at auction and the final scoring order."""

from __future__ import annotations

import pytest
from tikal_positions import act, refused

from bot.games.base import RuleError
from bot.games.tikal import ENGINE, legal
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PLACE,
    TURN_FINAL,
    TURN_NORMAL,
    TURN_SCORING,
    TURN_VOLCANO,
    GameState,
    new_state,
)
from bot.games.tikal.turns import begin


def auction_game(seats: int, stack: list[str] | None = None, mode: str = "auction") -> GameState:
    game = new_state(seats, mode, 0)
    if stack is not None:
        game.stack = list(stack)
    begin(game)
    return game


def bidder(game: GameState) -> int:
    assert game.phase == PHASE_BID and game.auction is not None
    (seat,) = ENGINE.waiting_for(game)
    assert seat == game.auction.current
    return seat


def play_turn(game: GameState, seat: int, slot: int | None = 1) -> None:
    """Pick (when asked), lay the hex anywhere legal and end the turn."""
    if game.phase == PHASE_PICK:
        act(game, seat, f"pick {slot}")
    assert game.phase == PHASE_PLACE and game.turn is not None and game.turn.seat == seat
    ENGINE.apply(game, seat, legal.actions_for(game, seat, "place")[0])
    act(game, seat, "end")


def scores(game: GameState) -> list[int]:
    return [p.score for p in game.players]


def test_setup_20_points_as_many_hexes_as_players_seat_0_opens() -> None:
    game = ENGINE.new_game(4, {"mode": "auction"}, 5)
    assert scores(game) == [20, 20, 20, 20]
    assert len(game.revealed) == 4 and len(game.stack) == 32
    assert all(tile.startswith("A-") for tile in game.revealed)
    assert bidder(game) == 0 and game.round_number == 1


def test_the_rulebooks_english_example() -> None:
    a, b, c, d = 0, 1, 2, 3
    game = ENGINE.new_game(4, {"mode": "auction"}, 5)
    act(game, a, "bid 2")
    assert bidder(game) == b
    act(game, b, "bid 5")
    act(game, c, "pass")
    act(game, d, "pass")
    act(game, a, "pass")
    assert game.phase == PHASE_PICK and ENGINE.waiting_for(game) == {b}
    assert scores(game) == [20, 15, 20, 20]
    play_turn(game, b)
    # C opens the second auction (first clockwise from B who has not played)
    assert bidder(game) == c and game.auction is not None
    assert game.auction.order == [c, d, a]
    act(game, c, "bid 1")
    act(game, d, "bid 2")
    act(game, a, "bid 4")
    act(game, c, "pass")
    act(game, d, "pass")
    assert ENGINE.waiting_for(game) == {a} and scores(game) == [16, 15, 20, 20]
    play_turn(game, a)
    # third auction: C again (first clockwise from A not yet played); C and D pass
    assert bidder(game) == c
    act(game, c, "pass")
    keys = act(game, d, "pass")
    assert "tikal.event.free_turn" in keys
    assert game.phase == PHASE_PICK and ENGINE.waiting_for(game) == {c}
    assert scores(game) == [16, 15, 20, 20]
    play_turn(game, c)
    # D takes the last hex for free
    assert game.phase == PHASE_PLACE and game.turn is not None and game.turn.seat == d
    assert len(game.revealed) == 0 and scores(game) == [16, 15, 20, 20]
    play_turn(game, d, slot=None)
    # next round: A, the clockwise neighbour of D, opens
    assert game.round_number == 2 and len(game.revealed) == 4
    assert bidder(game) == a and game.played == []


def test_a_pass_is_final_for_that_auction() -> None:
    game = auction_game(3)
    act(game, 0, "pass")
    act(game, 1, "bid 3")
    act(game, 2, "bid 4")
    assert bidder(game) == 1  # seat 0 passed and is skipped
    act(game, 1, "pass")
    assert ENGINE.waiting_for(game) == {2} and game.phase == PHASE_PICK


def test_bids_are_whole_numbers_above_the_last_and_within_the_score() -> None:
    game = auction_game(2)
    act(game, 0, "bid 3")
    error = refused(game, 1, "bid 3")
    assert (error.key, error.params) == ("tikal.error.bid_too_low", {"minimum": 4})
    error = refused(game, 1, "bid 21")
    assert (error.key, error.params) == ("tikal.error.bid_too_high", {"amount": 21, "score": 20})
    # "bid 0" reads as a bid, refused with the minimum; the rest are not bids at all
    assert refused(game, 1, "bid 0").key == "tikal.error.bid_too_low"
    for text in ("bid -1", "bid 2.5", "bid ５"):
        with pytest.raises(RuleError) as caught:
            ENGINE.parse_action(text)
        assert caught.value.key == "tikal.error.bad_notation"
    assert refused(game, 0, "bid 5").key == "tikal.error.not_your_turn"
    act(game, 1, "bid 20")
    assert scores(game) == [20, 0] and ENGINE.waiting_for(game) == {1}


def test_a_player_who_cannot_beat_the_bid_passes_automatically() -> None:
    game = auction_game(3)
    game.players[1].score = 4
    act(game, 0, "bid 4")
    assert bidder(game) == 2  # seat 1 (4 points) cannot bid 5
    assert game.auction is not None and game.auction.passed == [1]
    act(game, 2, "pass")
    assert ENGINE.waiting_for(game) == {0} and scores(game) == [16, 4, 20]


def test_when_nobody_can_bid_the_opener_plays_free() -> None:
    game = new_state(3, "auction", 0)
    for player in game.players:
        player.score = 0
    begin(game)
    assert game.phase == PHASE_PICK and ENGINE.waiting_for(game) == {0}
    assert scores(game) == [0, 0, 0]


def test_the_opener_plays_free_when_everyone_passes() -> None:
    game = auction_game(3)
    act(game, 0, "pass")
    act(game, 1, "pass")
    act(game, 2, "pass")
    assert game.phase == PHASE_PICK and ENGINE.waiting_for(game) == {0}
    assert scores(game) == [20, 20, 20]


def test_a_volcano_bought_at_auction_scores_everyone_then_the_picker_plays() -> None:
    game = auction_game(3, ["A-1", "B-5", "A-3", "C-1", "C-2", "C-3"])
    act(game, 0, "bid 1")
    act(game, 1, "pass")
    act(game, 2, "pass")
    play_turn(game, 0)  # seat 0 has played this round
    assert bidder(game) == 1
    act(game, 1, "bid 2")
    act(game, 2, "pass")
    keys = act(game, 1, "pick 1")  # B-5: the volcano
    assert keys[:2] == ["tikal.event.picked", "tikal.event.volcano"]
    assert scores(game) == [19, 18, 20]
    assert game.scoring is not None and game.scoring.order == [1, 2, 0]
    order = []
    while game.turn is not None and game.turn.kind == TURN_SCORING:
        order.append(game.turn.seat)
        act(game, game.turn.seat, "end")
    assert order == [1, 2, 0]  # everyone, seat 0 included although it has played
    assert game.played == [0]  # scoring turns are not turns of the round
    assert game.turn is not None and (game.turn.seat, game.turn.kind) == (1, TURN_VOLCANO)
    assert game.in_hand == "B-5" and game.phase == PHASE_PLACE
    play_turn(game, 1, slot=None)
    assert game.played == [0, 1]
    # seat 2 is the last of the round and takes the last hex free
    assert game.turn is not None and game.turn.seat == 2 and game.in_hand == "A-3"


def test_the_last_player_of_a_round_takes_the_last_hex_even_a_volcano() -> None:
    game = auction_game(2, ["A-1", "B-5", "C-1", "C-2"])
    act(game, 0, "bid 1")
    act(game, 1, "pass")
    play_turn(game, 0, slot=1)
    assert game.turn is not None and game.turn.kind == TURN_SCORING and game.turn.seat == 1
    assert game.scoring is not None and game.scoring.order == [1, 0]


def test_final_scoring_lowest_score_first_ties_clockwise_after_the_last_placer() -> None:
    game = auction_game(4, ["A-1", "A-3", "A-4", "A-5"])
    for seat in (0, 1, 2, 3):
        act(game, seat, "pass")  # everyone passes: seat 0 plays free
    play_turn(game, 0)
    for seat in (1, 2, 3):
        act(game, seat, "pass")
    play_turn(game, 1)
    for seat in (2, 3):
        act(game, seat, "pass")
    play_turn(game, 2)
    # seat 3 lays the last hex; scores before final scoring: 20, 12, 12, 9
    game.players[1].score = 12
    game.players[2].score = 12
    game.players[3].score = 9
    play_turn(game, 3, slot=None)
    assert game.last_placer == 3
    assert game.scoring is not None and game.scoring.kind == "final"
    # 9 (seat 3) first; 12 and 12: clockwise from seat 0 (after the last placer) -> 1, 2
    assert game.scoring.order == [3, 1, 2, 0]
    assert game.turn is not None and (game.turn.seat, game.turn.kind) == (3, TURN_FINAL)


def test_the_last_placer_ranks_last_among_tied_players() -> None:
    game = auction_game(3, ["A-1", "A-3", "A-4"])
    for seat in (0, 1, 2):
        act(game, seat, "pass")
    play_turn(game, 0)
    for seat in (1, 2):
        act(game, seat, "pass")
    play_turn(game, 1)
    play_turn(game, 2, slot=None)  # seat 2 lays the last hex; all at 20
    assert game.scoring is not None and game.scoring.order == [0, 1, 2]
    while game.phase != PHASE_OVER:
        assert game.turn is not None
        act(game, game.turn.seat, "end")
    assert ENGINE.result(game) is not None


def test_mini_tikal_first_player_is_random_from_the_seed() -> None:
    firsts = {ENGINE.new_game(2, {"mode": "mini"}, seed).first_seat for seed in range(20)}
    assert firsts == {0, 1}
    for seed in range(5):
        game = ENGINE.new_game(2, {"mode": "mini"}, seed)
        again = ENGINE.new_game(2, {"mode": "mini"}, seed)
        assert game.first_seat == again.first_seat
        assert bidder(game) == game.first_seat
        assert len(game.revealed) == 2 and len(game.stack) == 10
        assert scores(game) == [20, 20]
        assert sorted(set(game.pool)) == ["idol", "jade", "mask", "vase"]
        assert len(game.pool) == 12


def test_mini_tikal_is_for_two_players() -> None:
    assert ENGINE.player_range({"mode": "mini"}) == (2, 2)
    assert ENGINE.player_range({"mode": "auction"}) == (2, 4)
    with pytest.raises(RuleError) as caught:
        ENGINE.new_game(3, {"mode": "mini"}, 0)
    assert caught.value.key == "tikal.error.player_count"
    with pytest.raises(RuleError):
        ENGINE.new_game(2, {"mode": "chess"}, 0)


def test_pick_refusals() -> None:
    game = auction_game(3)
    act(game, 0, "bid 1")
    act(game, 1, "pass")
    act(game, 2, "pass")
    assert refused(game, 0, "pick 4").key == "tikal.error.no_such_slot"
    assert refused(game, 0, "enter A7").key == "tikal.error.phase.pick"
    assert game.turn is not None and game.turn.kind == TURN_NORMAL
    act(game, 0, "pick 3")
    assert game.phase == PHASE_PLACE and len(game.revealed) == 2


def test_actions_phase_refuses_bids() -> None:
    game = auction_game(2)
    act(game, 0, "bid 1")
    act(game, 1, "pass")
    act(game, 0, "pick 1")
    ENGINE.apply(game, 0, legal.actions_for(game, 0, "place")[0])
    assert game.phase == PHASE_ACTIONS
    assert refused(game, 0, "bid 3").key == "tikal.error.phase.actions"
    assert refused(game, 0, "pass").key == "tikal.error.phase.actions"


def test_the_opener_who_bid_highest_pays_when_the_others_pass() -> None:
    game = auction_game(3)
    act(game, 0, "bid 6")
    act(game, 1, "pass")
    act(game, 2, "pass")
    assert game.phase == PHASE_PICK and ENGINE.waiting_for(game) == {0}
    assert scores(game) == [14, 20, 20] and game.players[0].paid == 6


def test_the_last_bidder_left_may_still_bid_before_the_opener_plays_free() -> None:
    game = auction_game(3)
    act(game, 0, "pass")
    act(game, 1, "pass")
    assert bidder(game) == 2  # nobody has bid: seat 2 may take the turn for 1
    act(game, 2, "bid 1")
    assert ENGINE.waiting_for(game) == {2} and scores(game) == [20, 20, 19]


def test_mini_tikal_rounds_alternate_openers() -> None:
    game = ENGINE.new_game(2, {"mode": "mini"}, 3)
    first = game.first_seat
    other = 1 - first
    act(game, first, "bid 2")
    act(game, other, "pass")
    play_turn(game, first)
    # the other player is the last of the round and takes the last hex for free
    assert game.turn is not None and game.turn.seat == other and game.phase == PHASE_PLACE
    play_turn(game, other, slot=None)
    # the next round is opened by the clockwise neighbour of the round's last player
    assert game.round_number == 2 and bidder(game) == first
    assert scores(game)[first] == 18 and scores(game)[other] == 20


def test_ties_in_the_final_order_start_after_the_last_placer_not_with_seat_0() -> None:
    game = auction_game(3, ["A-1", "A-3", "A-4"])
    for seat in (0, 1, 2):
        act(game, seat, "pass")
    play_turn(game, 0)
    assert bidder(game) == 1
    act(game, 1, "pass")
    act(game, 2, "bid 1")
    play_turn(game, 2)
    assert game.turn is not None and game.turn.seat == 1  # the last hex, free
    game.players[2].score = 20
    play_turn(game, 1, slot=None)  # seat 1 lays the last hex; all at 20
    assert game.last_placer == 1
    assert game.scoring is not None and game.scoring.order == [2, 0, 1]
    game.players[0].score = 7  # (the order was fixed before; it does not move now)
    act(game, 2, "end")
    assert game.turn is not None and game.turn.seat == 0


def test_the_next_round_opens_with_the_neighbour_of_the_rounds_last_player() -> None:
    game = auction_game(3, ["A-1", "A-3", "A-4", "C-1", "C-2", "C-3"])
    for seat in (0, 1, 2):
        act(game, seat, "pass")
    play_turn(game, 0)
    act(game, 1, "pass")
    act(game, 2, "bid 1")
    play_turn(game, 2)
    play_turn(game, 1, slot=None)  # seat 1 is the round's last player
    assert game.round_number == 2 and bidder(game) == 2
    assert game.auction is not None and game.auction.order == [2, 0, 1]
