"""Completing temples, bonus bricks, new cards, the end, scoring and tie-breaks."""

from __future__ import annotations

from temple_helpers import act, bricks, build, game, keys, refused, supply

from bot.games.temple import ENGINE
from bot.games.temple.flow import AGE_LIMIT, END_REASONS, IDLE_LIMIT
from bot.games.temple.scoring import breakdown
from bot.games.temple.state import PHASE_BONUS, PHASE_OVER, PHASE_ROUND
from bot.i18n import LANGUAGES, t
from renderer import temple as temple_renderer


def test_completing_a_card_wins_it_and_the_completer_keeps_a_bonus_brick() -> None:
    state = game(2, slots=("hut", "gate"), deck=("mastaba", "dais"))
    build(state, 0, 0, "4:A1")
    act(state, 0, "place 1 B2 2")
    events = act(state, 1, "pass")
    assert "temple.event.card_won" in keys(events)
    assert state.players[0].won == ["hut"]
    assert state.phase == PHASE_BONUS and ENGINE.waiting_for(state) == {0}
    assert not ENGINE.may_act(state, 1)
    refused(state, 1, "bonus 1 4", "temple.error.no_bonus_here", area=1)
    refused(state, 0, "bonus 1 3", "temple.error.bonus_length", length=3, lengths="2, 4")
    refused(state, 0, "place 2 A1 4", "temple.error.phase.bonus")
    act(state, 0, "bonus 1 2")
    assert state.players[0].bonus == [2]
    assert supply(state, 0) == {4: 3, 3: 3, 2: 3, 1: 3}  # the 4 back, the 2 kept
    assert bricks(state, 0, 0) == []
    assert state.slots[0] == "mastaba" and state.deck == ["dais"]
    assert state.phase == PHASE_ROUND and state.round == 2


def test_the_bonus_is_kept_at_once_when_there_is_no_choice() -> None:
    state = game(2, slots=("hut", "gate"), deck=("mastaba",))
    build(state, 0, 0, "2:A1", "2:C1")
    events = act(state, 0, "place 1 B2 2")
    events += act(state, 1, "pass")
    assert state.players[0].won == ["hut"] and state.players[0].bonus == [2]
    assert "temple.event.bonus" in keys(events)
    assert state.phase == PHASE_ROUND and supply(state, 0)[2] == 3


def test_a_build_that_covers_the_card_in_two_pieces_does_not_complete() -> None:
    # (placing keeps builds in one piece, so this position is built by hand)
    state = game(2, slots=("mastaba", "gate"), dice=["1", "3"])
    build(state, 0, 0, "3:A1", "3:D1", "3:A2", "2:D2", "1:F2")  # two towers side by side
    act(state, 0, "mortar 2")  # a Mortar elsewhere does not help area 1
    refused(state, 0, "place 1 F2", "temple.error.overlap")
    act(state, 0, "pass")
    act(state, 1, "pass")
    assert state.players[0].won == []
    assert bricks(state, 0, 0) == ["1:F2", "2:D2", "3:A1", "3:A2", "3:D1"]
    view = ENGINE.public_view(state)["players"][0]["areas"][0]
    assert view["missing"] == 0 and view["matches"] is False


def test_score_tokens_for_later_completers_of_the_same_card() -> None:
    state = game(3, slots=("hut", "gate"), deck=("mastaba",), dice=["2", "2", "2"])
    for seat in range(3):
        build(state, seat, 0, "4:A1")
    state.roller = 2
    for seat in range(3):
        act(state, seat, "place 1 B2")
    assert state.players[2].won == ["hut"]
    assert state.players[0].score_tokens == [1] and state.players[1].score_tokens == [1]
    assert ENGINE.waiting_for(state) == {0, 1, 2}  # each chooses its bonus
    for seat in range(3):
        act(state, seat, "bonus 1 4")
    assert [p.bonus for p in state.players] == [[4], [4], [4]]
    assert state.slots[0] == "mastaba"


def test_the_game_ends_when_the_last_temple_card_is_won() -> None:
    state = game(2, slots=("hut", None), deck=())
    build(state, 0, 0, "2:A1", "2:C1")
    build(state, 1, 0, "4:A1")
    act(state, 0, "place 1 B2 2")
    events = act(state, 1, "pass")
    assert state.phase == PHASE_OVER and state.end_reason == "complete"
    assert "temple.event.end.complete" in keys(events)
    assert ENGINE.waiting_for(state) == set() and ENGINE.deadlines(state) == []
    assert bricks(state, 1, 0) == [] and supply(state, 1)[4] == 3  # the area emptied
    result = ENGINE.result(state)
    assert result is not None
    # seat 0: hut 1 + bonus 2 + 3 unused tokens = 6; seat 1: 3 unused tokens
    assert dict(result.scores) == {0: 6, 1: 3}
    assert result.ranking == (0, 1) and dict(result.places) == {0: 1, 1: 2}
    assert ENGINE.public_view(state)["result"] == {
        "ranking": [0, 1],
        "places": {"0": 1, "1": 2},
        "scores": {"0": 6, "1": 3},
        "tiebreak": {},
    }
    key, params = result.details[0]
    assert key == "temple.result.detail"
    assert params == {"cards": 1, "tokens": 0, "bonus": 2, "unused": 3, "total": 6}
    refused(state, 0, "pass", "temple.error.game_over")


def test_scoring_counts_cards_tokens_bonus_and_unused_power_tokens() -> None:
    state = game(2)
    player = state.players[0]
    player.won = ["cathedral", "lightning"]  # 6 + 3
    player.score_tokens = [2, 4]
    player.bonus = [4, 1]
    player.tokens = ["bag"]
    assert breakdown(player) == {"cards": 9, "tokens": 6, "bonus": 5, "unused": 1, "total": 21}


def test_ties_go_to_the_highest_single_card_then_are_shared() -> None:
    state = game(3)
    state.phase = PHASE_OVER
    for player in state.players:
        player.tokens = []
    state.players[0].won = ["gate", "gate"]  # 2 + 2, best card 2
    state.players[1].won = ["hut", "lantern"]  # 1 + 3, best card 3
    state.players[2].won = ["altar"]
    state.players[2].score_tokens = [2]  # 2 + 2 tokens, best card 2
    result = ENGINE.result(state)
    assert result is not None
    assert dict(result.scores) == {0: 4, 1: 4, 2: 4}
    assert result.ranking[0] == 1 and dict(result.places) == {1: 1, 0: 2, 2: 2}


def test_a_card_nobody_can_build_any_more_is_set_aside() -> None:
    state = game(2, slots=("obelisk", "mastaba"), deck=("hut", "dais"))
    for player in state.players:  # every 1 is in a bonus area: the obelisk needs two
        player.bonus, player.supply[1] = [1, 1, 1], 0
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert "temple.event.card_dead" in keys(events)
    assert state.discarded == ["obelisk"] and state.slots[0] == "hut"
    assert state.phase == PHASE_ROUND and state.round == 2


def test_a_card_up_for_too_long_is_set_aside_and_replaced() -> None:
    state = game(2, slots=("hut", "gate"), deck=("dais",))
    state.ages = [AGE_LIMIT - 1, 3]
    build(state, 1, 0, "4:A1")
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert "temple.event.card_expired" in keys(events)
    assert state.discarded == ["hut"] and state.slots[0] == "dais" and state.ages == [0, 4]
    assert bricks(state, 1, 0) == ["4:A1"]  # fitted to the dais
    assert ENGINE.public_view(state)["slots"][0]["rounds_left"] == AGE_LIMIT


def test_rounds_where_nobody_builds_end_an_abandoned_game() -> None:
    state = game(2, slots=("hut", "gate"))
    state.idle_rounds = IDLE_LIMIT - 1
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert state.phase == PHASE_OVER and state.end_reason == "idle"
    assert "temple.event.end.idle" in keys(events)
    state = game(2, slots=("hut", "gate"))
    state.idle_rounds = IDLE_LIMIT - 1
    act(state, 0, "place 1 A1 4")
    act(state, 1, "pass")
    assert state.phase == PHASE_ROUND and state.idle_rounds == 0


def test_a_slot_the_deck_cannot_refill_empties_its_area() -> None:
    state = game(2, slots=("hut", "gate"), deck=())
    build(state, 0, 0, "2:A1", "2:C1")
    build(state, 1, 0, "4:A1")
    act(state, 0, "place 1 B2 2")
    act(state, 1, "pass")
    assert state.slots == [None, "gate"] and bricks(state, 1, 0) == []
    assert supply(state, 1)[4] == 3
    refused(state, 1, "place 1 A1 4", "temple.error.area_unused", area=1)


def test_a_game_whose_last_card_is_set_aside_ends_saying_so_not_every_temple_is_built() -> None:
    """temple_rush.md, decisions that keep a game finite: the end says which happened."""
    state = game(2, slots=("obelisk", None), deck=())
    for player in state.players:  # every 1 is in a bonus area: the obelisk needs two
        player.bonus, player.supply[1] = [1, 1, 1], 0
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert state.phase == PHASE_OVER and state.end_reason == "dead"
    assert keys(events)[-2:] == ["temple.event.card_dead", "temple.event.end.dead"]
    assert "temple.event.end.complete" not in keys(events)
    assert ENGINE.result(state) is not None

    state = game(2, slots=("hut", None), deck=())
    state.ages = [AGE_LIMIT - 1, 0]
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert state.phase == PHASE_OVER and state.end_reason == "expired"
    assert keys(events)[-2:] == ["temple.event.card_expired", "temple.event.end.expired"]
    end = events[-1]
    assert str(AGE_LIMIT) in t("en", end.key, **end.params)


def test_each_end_reason_has_its_own_message_and_image_line_in_every_language() -> None:
    assert END_REASONS == ("complete", "dead", "expired", "idle")
    assert set(temple_renderer.END_KEYS) == set(END_REASONS)
    for lang in LANGUAGES:
        events = {t(lang, f"temple.event.end.{r}", rounds=5) for r in END_REASONS}
        lines = {t(lang, temple_renderer.END_KEYS[r]) for r in END_REASONS}
        assert len(events) == len(lines) == len(END_REASONS), lang
    built = t("en", temple_renderer.END_KEYS["complete"])
    assert all(t("en", temple_renderer.END_KEYS[r]) != built for r in ("dead", "expired", "idle"))


def test_an_ended_game_is_stored_with_its_reason() -> None:
    state = game(2, slots=("hut", None), deck=())
    state.ages = [AGE_LIMIT - 1, 0]
    act(state, 0, "pass")
    act(state, 1, "pass")
    loaded = ENGINE.load_state(ENGINE.dump_state(state))
    assert loaded.end_reason == "expired" and loaded.last_exit == "expired"
    assert ENGINE.public_view(loaded)["end_reason"] == "expired"


def test_a_swap_is_announced_with_where_its_new_brick_went() -> None:
    state = game(2, slots=("mastaba", "gate"))
    build(state, 0, 0, "4:A1", "2:A2")
    act(state, 0, "swap 1 A2 3 C2")
    events = act(state, 1, "pass")
    # the reveal says the swap in words; the brick went where asked, so no extra line
    (revealed,) = [e for e in events if e.key == "temple.event.revealed" and e.params["seat"] == 0]
    text = t("en", revealed.key, **{**revealed.params, "seat": "Ann"})
    assert text == "Ann: swap the brick at A2 in area 1 for a brick of 3 at C2."
    assert not [e for e in events if e.key == "temple.event.swapped"]
