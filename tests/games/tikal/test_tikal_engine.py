"""The engine's declared shape and hooks: checkpoints, end turn, buttons,
prompts, summaries, timeouts and the autocomplete."""

from __future__ import annotations

import keyword
import random
import re

import pytest
from tikal_positions import S, act, blank, put, seed_example

from bot.games.base import GameEngine, TurnShape
from bot.games.tikal import ENGINE, Bid, End, Pass, Pick, legal
from bot.games.tikal.selfplay import choose, random_game
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_BID, PHASE_PICK, PHASE_PLACE, copy_state
from bot.i18n import Text, has_key


def test_declared_shape() -> None:
    assert ENGINE.name == "tikal"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    assert ENGINE.turns is TurnShape.SEQUENTIAL and ENGINE.has_private_view is False
    assert [o.name for o in ENGINE.options] == ["mode"]
    assert ENGINE.options[0].choices == ("base", "auction", "mini")
    assert len(ENGINE.seat_colours) == 4
    for colour in ENGINE.seat_colours:
        assert re.fullmatch(r"#[0-9a-f]{6}", colour.hex) and has_key(colour.name_key)
    assert has_key(ENGINE.title_key) and has_key(ENGINE.help_key)
    assert "digital edition layout" in __import__("bot.i18n").i18n.t("en", ENGINE.help_key)


def test_verb_parameters_are_valid_discord_option_names() -> None:
    for verb in ENGINE.verbs:
        assert has_key(f"cmd.tikal.{verb.name}.description")
        for param in verb.params:
            assert re.fullmatch(r"[a-z][a-z_]{0,31}", param.name)
            assert not keyword.iskeyword(param.name)
            assert has_key(f"cmd.tikal.param.{param.name}")


def test_checkpoints() -> None:
    game = blank()
    put(game, "A6", 0, workers=2)
    for text, checkpoint in [
        ("enter A7", False),
        ("move A7 B6", False),
        ("dig A6", False),
        ("camp B6", False),
    ]:
        action = ENGINE.parse_action(text)
        events = ENGINE.apply(game, 0, action)
        assert ENGINE.is_checkpoint(game, 0, action, events) is checkpoint, text
    for text in ("recover A5", "end", "bid 3", "pass"):
        assert ENGINE.is_checkpoint(game, 0, ENGINE.parse_action(text), []) is True
    assert ENGINE.is_checkpoint(game, 0, ENGINE.parse_action("place A5 0"), []) is False
    assert ENGINE.is_checkpoint(game, 0, ENGINE.parse_action("pick 1"), []) is False


def test_end_turn_action_only_while_spending_ap() -> None:
    game = blank()
    assert ENGINE.end_turn_action(game, 0) == End()
    assert ENGINE.end_turn_action(game, 1) is None
    fresh = ENGINE.new_game(2, {"mode": "base"}, 0)
    assert fresh.phase == PHASE_PLACE and ENGINE.end_turn_action(fresh, 0) is None


def test_bid_buttons_for_the_bidder_only() -> None:
    game = ENGINE.new_game(3, {"mode": "auction"}, 0)
    assert ENGINE.private_choices(game, 0) == [Pass(), Bid(1), Bid(2), Bid(3), Bid(4)]
    assert ENGINE.private_choices(game, 1) == []
    act(game, 0, "bid 18")
    assert ENGINE.private_choices(game, 1) == [Pass(), Bid(19), Bid(20)]
    for action in ENGINE.private_choices(game, 1):
        key, _ = ENGINE.choice_label(action)
        assert has_key(key)
    assert ENGINE.choice_label(Bid(19)) == ("tikal.choice.bid", {"amount": 19})
    assert ENGINE.public_choices(game, 1) == []


def test_pick_buttons_are_public() -> None:
    game = ENGINE.new_game(3, {"mode": "auction"}, 0)
    for seat in (0, 1, 2):
        act(game, seat, "pass")
    assert game.phase == PHASE_PICK
    assert ENGINE.public_choices(game, 0) == [Pick(1), Pick(2), Pick(3)]
    assert ENGINE.choice_label(Pick(2)) == ("tikal.choice.pick", {"slot": 2})


def test_prompts_and_summaries() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 0)
    key, params = ENGINE.prompt(game) or ("", {})
    assert key == "tikal.prompt.place" and params["seat"] == 0
    ENGINE.apply(game, 0, legal.actions_for(game, 0, "place")[0])
    act(game, 0, "enter A7")
    key, params = ENGINE.prompt(game) or ("", {})
    assert key == "tikal.prompt.normal" and params["seat"] == 0 and params["ap"] == 9
    # words, with the picker's buttons named, not notation
    assert Text(key, {**params, "seat": "Ann"}).render("en") == (
        "Ann: 9 AP left — tap **Play**: **Enter**, **Move**, **Dig**, **Recover**, **Trade**,"
        " **Camp**, **Guard** or **End turn**."
    )
    assert ENGINE.step_summary(game, 0) == (
        "tikal.summary.ap",
        {"ap": 9, "entered": 1, "limit": 10},
    )
    assert ENGINE.step_summary(game, 1) is None
    auction = ENGINE.new_game(2, {"mode": "auction"}, 0)
    key, params = ENGINE.prompt(auction) or ("", {})
    assert key == "tikal.prompt.bid"
    assert (params["seat"], params["minimum"], params["score"]) == (0, 1, 20)
    for key in ("tikal.prompt.scoring", "tikal.prompt.final", "tikal.prompt.volcano"):
        assert has_key(key)


def test_timeouts_pass_pick_lay_and_end() -> None:
    game = ENGINE.new_game(3, {"mode": "auction"}, 0)
    assert ENGINE.timeout_action(game, 0) == Pass()
    assert ENGINE.timeout_action(game, 1) is None
    late = ENGINE.timeout_actions(game, "turn")
    assert late == [(0, Pass())]
    for seat in (0, 1, 2):
        act(game, seat, "pass")
    assert game.phase == PHASE_PICK
    late = ENGINE.timeout_actions(game, "turn")
    assert [seat for seat, _ in late] == [0, 0, 0]
    assert late[0][1] == Pick(1) and late[-1][1] == End()
    before = ENGINE.dump_state(game)
    for seat, action in late:
        ENGINE.apply(game, seat, action)
    assert ENGINE.dump_state(game) != before and game.phase == PHASE_BID
    assert 0 in game.played


def test_timeout_in_the_place_phase_lays_on_the_first_legal_space() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 3)
    first = legal.actions_for(game, 0, "place")[0]
    assert ENGINE.timeout_action(game, 0) == first
    assert [a for _, a in ENGINE.timeout_actions(game, "t")] == [first, End()]


# -- autocomplete ------------------------------------------------------------------------


def test_move_destinations_carry_their_cost() -> None:
    game = seed_example(blank())
    put(game, "A5", 0, workers=1)
    values = ENGINE.legal_values(game, 0, "move", "target", {"origin": "A5"})
    costs = {v.value: v.label[1]["cost"] for v in values if v.label}
    assert costs["A6"] == 1 and costs["B4"] == 3 and costs["A4"] == 6
    assert values[0].value == "A6"  # cheapest first
    label = next(v.label for v in values if v.value == "A4")
    assert label is not None and label[0] == "tikal.label.target" and label[1]["left"] == 4


def test_rotation_labels_name_the_stones_and_links() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 0)
    game.in_hand = "B-3"
    values = ENGINE.legal_values(game, 0, "place", "rotation", {"space": "A5"})
    assert [v.value for v in values] == ["0", "1", "2", "3", "4", "5"]
    label = values[3].label
    assert label is not None
    assert label[0] == "tikal.label.rotation_links"
    assert label[1]["links"] == "A6"
    assert Text(*label).render("en") == "3 — stones 3 south; links to A6"
    assert Text(*label).render("zh") == "3 — 石头 南3；连接 A6"


def test_dig_and_recover_values() -> None:
    game = blank()
    put(game, "A6", 0, workers=1)
    values = ENGINE.legal_values(game, 0, "dig", "space", {})
    assert [(v.value, v.label[1]["next"]) for v in values if v.label] == [("A6", 2)]
    assert ENGINE.legal_values(game, 0, "recover", "space", {}) == []
    assert ENGINE.legal_values(game, 1, "dig", "space", {}) == []
    assert ENGINE.legal_values(game, 0, "bid", "amount", {}) == []


def test_exchange_values() -> None:
    game = blank(3)
    game.players[0].treasures = {"mask": 1, "jade": 2}
    game.players[1].treasures = {"idol": 1}
    game.players[2].treasures = {"vase": 1, "mask": 1}
    gives = ENGINE.legal_values(game, 0, "exchange", "give", {})
    assert [v.value for v in gives] == ["mask"]
    players = ENGINE.legal_values(game, 0, "exchange", "player", {"give": "mask"})
    assert [v.value for v in players] == ["blue", "yellow"]
    takes = ENGINE.legal_values(game, 0, "exchange", "take", {"player": "yellow"})
    assert [v.value for v in takes] == ["vase"]


@pytest.mark.parametrize(("mode", "seats"), [("base", 4), ("auction", 3), ("mini", 2)])
def test_autocomplete_matches_the_legal_actions(mode: str, seats: int) -> None:
    """For sampled states, each parameter's suggestions are exactly the words the
    legal actions use there (the contract's default), given the other words."""
    rng = random.Random(1)
    game = ENGINE.new_game(seats, {"mode": mode}, 1)
    for step in range(260):
        if ENGINE.result(game) is not None:
            break
        (seat,) = ENGINE.waiting_for(game)
        if step % 7 == 0:
            for action in ENGINE.legal_actions(game, seat)[:30]:
                verb = ENGINE.verbs.of(action)
                words = verb.words(action)
                for param in verb.params:
                    if param.optional:
                        continue
                    chosen = {k: v for k, v in words.items() if k != param.name}
                    mine = {
                        s.value
                        for s in ENGINE.legal_values(game, seat, verb.name, param.name, chosen)
                    }
                    default = {
                        s.value
                        for s in GameEngine.legal_values(
                            ENGINE, game, seat, verb.name, param.name, chosen
                        )
                    }
                    assert mine == default, (verb.name, param.name, chosen)
        game_action = choose(game, seat, rng)
        ENGINE.apply(game, seat, game_action)


def test_autocomplete_is_narrowed_and_labelled_on_a_late_board() -> None:
    game = copy_state(random_game("base", 4, 5, stop_after=200).state)
    while game.phase != PHASE_ACTIONS:
        (seat,) = ENGINE.waiting_for(game)
        ENGINE.apply(game, seat, choose(game, seat, random.Random(0)))
    (seat,) = ENGINE.waiting_for(game)
    for verb in ENGINE.verbs:
        for param in verb.params:
            for suggestion in ENGINE.legal_values(game, seat, verb.name, param.name, {}):
                assert suggestion.label is not None and has_key(suggestion.label[0])
    assert S("A7") is not None
