"""Rounds: dice and the roller, sealed submissions, the reveal order, clocks."""

from __future__ import annotations

from temple_helpers import act, bricks, build, game, keys, named, refused

from bot.games.base import Deadline
from bot.games.temple import ENGINE, Pass
from bot.games.temple.state import PHASE_BONUS, PHASE_ROUND


def test_the_roller_starts_with_the_first_seat_and_turns_clockwise() -> None:
    state = ENGINE.new_game(3, {}, 5)
    while state.phase != PHASE_ROUND:  # a race may come first
        for seat in sorted(ENGINE.waiting_for(state)):
            act(state, seat, "skip")
    seen = []
    for _ in range(5):
        seen.append((state.round, state.roller, state.order()))
        assert len(state.dice) == 3 and set(state.dice) <= {"1", "2", "3", "4", "star"}
        for seat in range(3):
            act(state, seat, "pass")
        while state.phase not in (PHASE_ROUND, "over"):
            for seat in sorted(ENGINE.waiting_for(state)):
                act(state, seat, "skip")
    rounds = [r for r, _, _ in seen]
    assert [roller for _, roller, _ in seen] == [(r - 1) % 3 for r in rounds]
    assert seen[0][2] == [seen[0][1], (seen[0][1] + 1) % 3, (seen[0][1] + 2) % 3]


def test_everyone_is_awaited_and_a_sealed_seat_may_still_change_its_move() -> None:
    state = game(3, slots=("hut", "gate"))
    assert ENGINE.waiting_for(state) == {0, 1, 2}
    events = act(state, 1, "place 1 A1 4")
    assert ENGINE.waiting_for(state) == {0, 2}
    assert all(ENGINE.may_act(state, s) for s in range(3))
    public = [e for e in events if e.private_to is None]
    assert [e.key for e in public] == ["temple.event.sealed"]
    assert "A1" not in repr(public)  # nothing of the move is public
    private = [e for e in events if e.private_to == 1]
    assert private and private[0].params["parts"].render("en") == "lay a brick of 4 at A1 in area 1"
    act(state, 1, "place 2 A2 4")  # a new brick replaces the old one
    assert [str(p) for p in state.submission(1).parts()] == ["place 2 A2 4"]
    assert bricks(state, 1, 0) == bricks(state, 1, 1) == []  # nothing laid before the reveal


def test_the_round_is_revealed_when_the_last_seat_submits() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["4", "2"])
    act(state, 0, "place 1 A1")
    events = act(state, 1, "place 1 C1")
    assert "temple.event.reveal" in keys(events)
    revealed = [e.params["moves"].render("en") for e in events if e.key == "temple.event.revealed"]
    # lengths resolved from the dice, in words
    assert revealed == ["lay a brick of 4 at A1 in area 1", "lay a brick of 2 at C1 in area 1"]
    assert bricks(state, 0, 0) == ["4:A1"] and bricks(state, 1, 0) == ["2:C1"]
    assert state.round == 2 and state.roller == 1
    view = ENGINE.public_view(state)
    assert [b["new"] for b in view["players"][0]["areas"][0]["bricks"]] == [True]
    assert view["players"][0]["last_moves"] == ["place 1 A1 4"]


def test_moves_are_applied_in_seat_order_from_the_roller() -> None:
    # both complete the hut in the same round: the first from the roller takes the card
    for roller, winner in ((0, 0), (1, 1)):
        state = game(2, slots=("hut", "gate"), deck=("mastaba", "dais"))
        state.roller = roller
        build(state, 0, 0, "4:A1")
        build(state, 1, 0, "4:A1")
        act(state, 0, "place 1 B2 2")
        events = act(state, 1, "place 1 B2 2")
        other = 1 - winner
        assert state.players[winner].won == ["hut"]
        assert state.players[other].won == [] and state.players[other].score_tokens == [1]
        assert keys(events).index("temple.event.card_won") < keys(events).index(
            "temple.event.score_token"
        )
        order = [e.params["seat"] for e in events if e.key == "temple.event.revealed"]
        assert order == [roller, 1 - roller]


def test_a_sealed_move_is_never_in_the_public_view_before_the_reveal() -> None:
    base = game(2, slots=("mastaba", "gate"))
    build(base, 0, 0, "4:A1")
    blank = ENGINE.public_view(base)
    for text in ("place 1 A2 3", "swap 1 A1 2", "hammer", "mortar 2", "pass", "place 2 A2 4"):
        state = ENGINE.load_state(ENGINE.dump_state(base))
        act(state, 0, text)
        view = ENGINE.public_view(state)
        assert view["submitted"] in ([], [0])
        view["submitted"] = blank["submitted"]
        view["waiting_for"] = blank["waiting_for"]
        assert view == blank, text


def test_deadlines_are_named_per_round_and_late_seats_pass() -> None:
    state = game(2, slots=("mastaba", "gate"))
    assert ENGINE.deadlines(state) == [Deadline("round:1", 86400.0)]
    act(state, 0, "place 1 A1 4")
    late = ENGINE.timeout_actions(state, "round:1")
    assert late == [(1, Pass())]
    assert ENGINE.timeout_actions(state, "round:0") == []  # a stale name plays nothing
    for seat, action in late:
        ENGINE.apply(state, seat, action)
    assert state.round == 2
    assert ENGINE.deadlines(state) == [Deadline("round:2", 86400.0)]


def test_the_deadline_option_sets_the_seconds() -> None:
    state = ENGINE.new_game(2, {"deadline": "1h"}, 3)
    names = ENGINE.deadlines(state)
    assert names and names[0].seconds == 3600.0
    assert [o.name for o in ENGINE.options] == ["deadline", "joint"]
    assert ENGINE.options[0].default == "24h" and ENGINE.options[1].default == "off"


def test_a_timeout_pass_keeps_the_rest_of_a_late_submission() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["1", "1"])
    build(state, 0, 0, "3:A1")
    act(state, 0, "hammer")
    act(state, 0, "swap 1 A1 4")
    assert 0 in ENGINE.waiting_for(state)  # with the hammer, a swap still waits for a brick
    act(state, 1, "pass")
    for seat, action in ENGINE.timeout_actions(state, "round:1"):
        ENGINE.apply(state, seat, action)
    assert bricks(state, 0, 0) == ["4:A1"]
    assert "hammer" not in state.players[0].tokens


def test_bonus_deadline_keeps_the_longest_brick() -> None:
    state = game(2, slots=("hut", "gate"))
    build(state, 0, 0, "4:A1")
    act(state, 0, "place 1 B2 2")
    act(state, 1, "pass")
    assert state.phase == PHASE_BONUS
    assert ENGINE.waiting_for(state) == {0}
    assert ENGINE.deadlines(state) == [Deadline("bonus:1", 86400.0)]
    assert ENGINE.private_choices(state, 0) == [
        ENGINE.parse_action("bonus 1 2"),
        ENGINE.parse_action("bonus 1 4"),
    ]
    assert ENGINE.choice_label(ENGINE.parse_action("bonus 1 4")) == (
        "temple.choice.bonus",
        {"length": 4, "area": 1},
    )
    late = ENGINE.timeout_actions(state, "bonus:1")
    assert [(s, str(a)) for s, a in late] == [(0, "bonus 1 4")]
    for seat, action in late:
        ENGINE.apply(state, seat, action)
    assert state.players[0].bonus == [4] and state.phase == PHASE_ROUND


def test_refusals_in_a_round() -> None:
    state = game(2, slots=("hut", "gate"), dice=["2", "star"])
    refused(state, 0, "place 1 A1 4", "temple.error.wrong_length", length=4, die="2")
    refused(state, 1, "place 1 A1", "temple.error.length_needed")
    refused(state, 0, "place 3 A1", "temple.error.area_unused", area=3)
    refused(state, 0, "place 1 A2", "temple.error.outside", brick=named("2:A2"), area=1)
    refused(state, 0, "bonus 1 2", "temple.error.phase.round")
    refused(state, 0, "lightning 4:A1", "temple.error.phase.round")
    refused(state, 0, "skip", "temple.error.phase.round")
    refused(state, 0, "cancel hammer", "temple.error.nothing_to_cancel")
    refused(state, 5, "pass", "temple.error.no_seat")
    act(state, 0, "place 1 A1")
    build(state, 1, 0, "4:A1")
    act(state, 1, "place 1 B2 1")  # touches 4:A1
    assert state.phase == PHASE_ROUND and state.round == 2


def test_a_brick_must_touch_the_build_and_lie_on_free_cells() -> None:
    state = game(2, slots=("mastaba", "gate"), dice=["2", "2"])
    build(state, 0, 0, "2:A1")
    refused(state, 0, "place 1 B1", "temple.error.overlap", brick=named("2:B1"), area=1)
    refused(state, 0, "place 1 D1", "temple.error.not_connected", brick=named("2:D1"), area=1)
    refused(state, 0, "place 1 C2", "temple.error.not_connected", brick=named("2:C2"), area=1)
    act(state, 0, "place 1 B2")  # shares column B with 2:A1
    act(state, 0, "place 2 A2")  # the first brick of an area goes anywhere inside
    assert str(state.submission(0).brick) == "place 2 A2 2"


def test_others_see_a_round_part_only_as_sealed() -> None:
    for text in (
        "place 1 A1 4",
        "swap 1 A1 2 B2",
        "hammer",
        "mortar 1",
        "relay 1",
        "bag 2 1 1 A1 B1",
        "cancel brick",
        "move 1 A1 2 A1",
        "pass",  # a sealed move too: a round published early must not tell who passed
    ):
        assert ENGINE.public_notation(ENGINE.parse_action(text)) == "sealed"
        assert ENGINE.describe(ENGINE.parse_action(text))[0] == "temple.do.sealed"
    for text in ("bonus 1 4", "lightning 4:A1", "skip", "joint 2", "cancel joint"):
        assert ENGINE.public_notation(ENGINE.parse_action(text)) == text
    assert ENGINE.is_checkpoint(game(), 0, Pass(), [])


def test_a_draft_is_not_announced_as_sealed_and_the_seat_stays_awaited() -> None:
    state = game(3, slots=("hut", "gate"))
    events = act(state, 2, "hammer")  # a power token alone is not a move yet
    assert ENGINE.waiting_for(state) == {0, 1, 2}
    public = [e.key for e in events if e.private_to is None]
    assert public == []  # a draft is not announced at all (it was "has not completed")
    assert [e.key for e in events if e.private_to == 2] == ["temple.event.your_draft"]
    events = act(state, 2, "pass")
    assert [e.key for e in events if e.private_to is None] == ["temple.event.sealed"]
    assert ENGINE.waiting_for(state) == {0, 1}
