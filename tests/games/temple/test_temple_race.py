"""The lightning race."""

from __future__ import annotations

from temple_helpers import act, bricks, build, game, keys, named, refused, supply

from bot.games.base import Deadline, RuleError
from bot.games.temple import ENGINE, Lightning, Skip
from bot.games.temple.race import start_race
from bot.games.temple.state import PHASE_RACE, PHASE_ROUND
from bot.i18n import t

WINNING = "lightning 4:A1 2:B2 3:C3 2:E4"


def racing(seats: int = 2, deck=("lightning", "dais", "shrine")):
    state = game(seats, slots=("mastaba", "hut"), deck=deck)
    state.phase = "race"
    start_race(state, [])
    return state


def test_the_lightning_card_on_top_of_the_deck_starts_a_race_at_once() -> None:
    state = game(2, slots=("hut", "gate"), deck=("lightning", "dais"))
    build(state, 0, 0, "2:A1", "2:C1")
    act(state, 0, "place 1 B2 2")
    events = act(state, 1, "pass")
    assert "temple.event.race_started" in keys(events)
    assert state.phase == PHASE_RACE and state.race_card == "lightning" and state.race == 1
    assert state.slots[0] is None  # refilled after the race
    assert ENGINE.waiting_for(state) == {0, 1}
    assert ENGINE.deadlines(state) == [Deadline("race:1", 86400.0)]
    view = ENGINE.public_view(state)
    assert view["race"]["card"]["id"] == "lightning" and view["deck"]["top"]["id"] == "dais"
    act(state, 1, WINNING)
    assert state.players[1].won == ["lightning"]
    assert state.slots[0] == "dais" and state.phase == PHASE_ROUND and state.round == 2


def test_the_first_valid_layout_wins_three_points_and_the_bricks_return() -> None:
    state = racing()
    events = act(state, 0, WINNING)
    assert "temple.event.race_won" in keys(events)
    assert state.players[0].won == ["lightning"]
    assert supply(state, 0) == {4: 3, 3: 3, 2: 4, 1: 3}  # all bricks back in supply
    assert state.race_card is None and state.phase == PHASE_ROUND
    assert ENGINE.result(state) is None
    refused(state, 1, WINNING, "temple.error.phase.round")


def test_a_wrong_layout_is_refused_naming_the_first_wrong_brick() -> None:
    state = racing()
    refused(
        state,
        0,
        "lightning 4:A1 2:B2 3:C3 2:D4",
        "temple.error.layout.outside",
        index=4,
        brick=named("2:D4"),
    )
    refused(state, 0, "lightning 4:A1 2:A1", "temple.error.layout.overlap", index=2, other=1)
    refused(
        state,
        0,
        "lightning 4:A1 2:B2 1:C3 2:D3 2:E4",
        "temple.error.layout.loose",
        index=4,
        brick=named("2:D3"),
    )
    refused(state, 0, "lightning 4:A1 2:B2 3:C3", "temple.error.layout.empty_cells", cells="E4, F4")
    refused(state, 0, "lightning 4:A1 2:B2 3:C3 2:E4 1:A2", "temple.error.layout.outside", index=5)
    state.players[0].supply[2] = 1
    state.players[0].bonus = [2, 2, 2]
    refused(state, 0, WINNING, "temple.error.layout.missing", index=4, length=2, have=1)
    with_error = refused(state, 0, "lightning 4:A1 2:B2 3:C3 2:D4", "temple.error.layout.outside")
    assert ENGINE.retry_cooldown(state, 0, ENGINE.parse_action(WINNING), with_error) > 0
    assert ENGINE.retry_cooldown(state, 0, Skip(), RuleError("x")) == 0


def test_a_malformed_brick_is_named_by_the_parser() -> None:
    for text, index, word in (
        ("lightning 4:A1 5:B2", 2, "5:B2"),
        ("lightning 4A1", 1, "4A1"),
        ("lightning 4:A1 3:B9 2:C3", 2, "3:B9"),
        ("relay 1 2:A1 x", 2, "x"),
    ):
        try:
            ENGINE.parse_action(text)
        except RuleError as error:
            assert error.key == "temple.error.bad_brick"
            assert error.params == {"index": index, "brick": word}
        else:
            raise AssertionError(text)


def test_bricks_missing_from_supply_are_pulled_out_of_builds() -> None:
    state = racing()
    build(state, 0, 0, "4:A1", "4:C2")  # mastaba
    build(state, 0, 1, "4:A1")  # hut: every 4 is on the board
    act(state, 0, WINNING)
    # all three 4s would leave their build connected: the lowest area, lowest brick goes
    assert bricks(state, 0, 0) == ["4:C2"] and bricks(state, 0, 1) == ["4:A1"]
    assert supply(state, 0)[4] == 1


def test_pulling_a_brick_that_holds_a_build_together_returns_the_smaller_piece() -> None:
    state = racing()
    state.players[0].bonus, state.players[0].supply[3] = [3, 3], 1
    build(state, 0, 0, "2:A1", "3:B2", "2:D1")  # the only 3 joins both 2s (mastaba)
    act(state, 0, WINNING)
    # 3:B2 is pulled; the two 2s are equal pieces: the lower-left one stays
    assert bricks(state, 0, 0) == ["2:A1"]
    assert supply(state, 0) == {4: 3, 3: 1, 2: 3, 1: 3}
    assert state.players[0].won == ["lightning"]


def test_when_everyone_skips_the_card_is_discarded() -> None:
    state = racing(3)
    act(state, 0, "skip")
    refused(state, 0, WINNING, "temple.error.race_skipped")
    assert ENGINE.waiting_for(state) == {1, 2}
    assert not ENGINE.may_act(state, 0)
    act(state, 1, "skip")
    events = act(state, 2, "skip")
    assert "temple.event.race_lost" in keys(events)
    assert state.discarded == ["lightning"] and state.phase == PHASE_ROUND


def test_the_race_deadline_discards_the_card() -> None:
    state = racing(2)
    act(state, 1, "skip")
    late = ENGINE.timeout_actions(state, "race:1")
    assert late == [(0, Skip())]
    assert ENGINE.timeout_actions(state, "race:2") == []
    for seat, action in late:
        ENGINE.apply(state, seat, action)
    assert state.discarded == ["lightning"] and not any(p.won for p in state.players)


def test_a_race_offers_skip_buttons_and_never_suggests_a_layout() -> None:
    state = racing(2)
    assert ENGINE.private_choices(state, 0) == [Skip()]
    legal = ENGINE.legal_actions(state, 0)
    assert Skip() in legal and any(isinstance(a, Lightning) for a in legal)
    for action in legal:  # the listed layouts win
        copy = ENGINE.load_state(ENGINE.dump_state(state))
        ENGINE.apply(copy, 0, action)
    assert ENGINE.legal_values(state, 0, "lightning", "bricks", {}) == []


def test_a_race_pull_in_an_area_without_a_card_judges_the_rest_against_its_last_card() -> None:
    """temple_rush.md: two cards won in one round, the first refill turns up the
    lightning card, so area 2 has no card during the race. Pulling a brick from a
    build there leaves what is still connected and inside the area's last card
    (the mastaba) standing; the race's message says what was taken from where."""
    state = game(2, slots=("hut", "mastaba"), deck=("dais", "lightning", "fan"))
    build(state, 0, 0, "2:A1", "2:C1")  # hut, completed this round
    build(state, 0, 1, "4:A1", "2:A2", "1:C2")  # mastaba, left standing
    state.players[0].bonus, state.players[0].supply[1] = [1], 1  # one 1 left in supply
    build(state, 1, 1, "4:A1", "2:E1", "2:A2")  # mastaba, completed this round
    act(state, 0, "place 1 B2 2")
    act(state, 1, "place 2 C2 4")
    assert state.players[0].won == ["hut"] and state.players[1].won == ["mastaba"]
    events = act(state, 1, "bonus 2 4")
    assert "temple.event.race_started" in keys(events)
    assert state.phase == PHASE_RACE and state.slots == ["dais", None]
    assert bricks(state, 0, 1) == ["1:C2", "2:A2", "4:A1"]

    events = act(state, 0, "lightning 4:A1 1:B2 1:C2 3:C3 2:E4")  # two 1s: one is pulled
    pulled = [e for e in events if e.key.startswith("temple.event.race_pulled")]
    assert [e.key for e in pulled] == ["temple.event.race_pulled"]
    text = t("en", pulled[0].key, **{**pulled[0].params, "seat": "Ann"})
    assert "a brick of 1 at C2" in text and "area 2" in text  # in words
    # the rest (4:A1 under 2:A2) is connected and inside the mastaba: it stays, and
    # then fits the fan drawn into area 2 after the race
    assert state.slots == ["dais", "fan"]
    assert bricks(state, 0, 1) == ["2:A2", "4:A1"]
    fitted = [e.params for e in events if e.key == "temple.event.fitted"]
    assert fitted == [{"seat": 0, "area": 2, "kept": 2, "returned": 0}]
    assert supply(state, 0) == {4: 2, 3: 3, 2: 2, 1: 2}  # the race bricks are back


def test_a_race_pull_says_which_bricks_no_longer_held_and_went_back() -> None:
    state = racing()
    state.players[0].bonus, state.players[0].supply[3] = [3, 3], 1
    build(state, 0, 0, "2:A1", "3:B2", "2:D1")  # the only 3 joins both 2s (mastaba)
    events = act(state, 0, WINNING)
    pulled = [
        (e.key, {k: v.render("en") if hasattr(v, "render") else v for k, v in e.params.items()})
        for e in events
        if e.key.startswith("temple.event.race_pulled")
    ]
    assert pulled == [
        (
            "temple.event.race_pulled_loose",
            {
                "seat": 0,
                "area": 1,
                "bricks": "a brick of 3 at B2",
                "returned": "a brick of 2 at D1",
            },
        )
    ]
