"""Notation: one verb table gives the parser, ``str(action)`` and the slash commands."""

from __future__ import annotations

import keyword
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import RuleError
from bot.games.temple import ENGINE, picking
from bot.games.temple.actions import BRICK, VERBS, parse_action, parse_brick
from bot.i18n import Text, catalog
from tests.support.temple_play import play

EXAMPLES = {
    "place 1 C1": "place 1 C1",
    "place 2 a1 3": "place 2 A1 3",
    "move 2 A1 1 C2": "move 2 A1 1 C2",
    "swap 1 B2 2": "swap 1 B2 2",
    "swap 1 B2 2 D3": "swap 1 B2 2 D3",
    "PASS": "pass",
    "hammer": "hammer",
    "mortar 2": "mortar 2",
    "bag 3 1 2 C3 A3": "bag 3 1 2 C3 A3",
    "relay 1": "relay 1",
    "relay 1   4:a1 3:B2": "relay 1 4:A1 3:B2",
    "cancel Hammer": "cancel hammer",
    "bonus 2 4": "bonus 2 4",
    "lightning 4:A1 3:B2 2:C3 2:E4": "lightning 4:A1 3:B2 2:C3 2:E4",
    "skip": "skip",
    "joint 3": "joint 3",
}


def test_examples_parse_to_their_canonical_notation() -> None:
    for text, canonical in EXAMPLES.items():
        action = parse_action(text)
        assert str(action) == canonical
        assert parse_action(canonical) == action


def test_malformed_text_is_refused_with_the_text() -> None:
    for text in (
        "",
        "place",
        "place 4 A1",
        "place 1 I1",
        "place 1 A7",
        "place 1 A1 5",
        "place 1 A1 3 4",
        "swap 1 A1",
        "bonus 1",
        "cancel everything",
        "joint 5",
        "place 1 A١",
        "place 1 A¹",
        "place ١ A1",
        "move 1 A1 2",
        "lightning",
    ):
        try:
            parse_action(text)
        except RuleError as error:
            assert error.key == "temple.error.bad_notation", text
            assert error.params["text"] == text
        else:
            raise AssertionError(text)


def test_verb_and_parameter_names_suit_slash_commands() -> None:
    english = catalog("en")
    assert "cmd.temple.description" in english
    for verb in VERBS:
        assert re.fullmatch(r"[a-z]{1,32}", verb.name)
        assert f"cmd.temple.{verb.name}.description" in english
        for param in verb.params:
            assert re.fullmatch(r"[a-z_]{1,32}", param.name) and not keyword.iskeyword(param.name)
            assert f"cmd.temple.param.{param.name}" in english
            assert param.kind.name
    for key, text in english.items():
        if key.startswith("cmd."):
            assert 1 <= len(text) <= 100, key


def test_every_legal_action_round_trips_through_its_notation() -> None:
    seen: set[str] = set()

    def check(state, seat, action) -> None:
        for other in range(state.seats):
            for legal in ENGINE.legal_actions(state, other):
                text = str(legal)
                assert ENGINE.parse_action(text) == legal, text
                seen.add(text.split()[0])

    for seed, seats, options in ((1, 2, {}), (2, 3, {"joint": "on"}), (3, 4, {})):
        play(seats, seed, options, each=check)
    assert {"place", "swap", "pass", "hammer", "mortar", "cancel", "bonus"} <= seen
    assert {"lightning", "skip", "relay"} <= seen


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_is_refused_never_crashes(text: str) -> None:
    try:
        action = ENGINE.parse_action(text)
    except RuleError as error:
        assert error.key.startswith("temple.error.")
    else:
        assert ENGINE.parse_action(str(action)) == action


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([v.name for v in VERBS] + ["Place", "LIGHTNING", "relay"]),
    st.lists(
        st.one_of(
            st.from_regex(r"[0-9]{1,2}", fullmatch=True),
            st.from_regex(r"[A-Ja-j][0-9]{1,2}", fullmatch=True),
            st.from_regex(r"[0-9]:[A-Ja-j][0-9]", fullmatch=True),
            st.sampled_from(["hammer", "x", "４", "A١", "1:", ":A1"]),
        ),
        max_size=8,
    ),
)
def test_near_miss_notation_parses_or_is_refused(verb: str, words: list[str]) -> None:
    text = " ".join([verb, *words])
    try:
        action = ENGINE.parse_action(text)
    except RuleError as error:
        assert error.key in (
            "temple.error.bad_notation",
            "temple.error.bad_brick",
            "temple.error.too_many_bricks",
        )
    else:
        assert ENGINE.parse_action(str(action)) == action


def test_a_layout_is_labelled_and_asked_for_in_words_not_notation() -> None:
    """The picker names a re-lay's bricks by the cells they cover and asks for
    them in words; the slash option (typed) keeps the ``4:A1`` notation."""
    assert Text(*picking.layout_label("3:A1 2:B2")).render("en") == "A1–C1, B2–C2"
    assert Text(*picking.layout_label("3:A1 2:B2")).render("zh") == "A1–C1，B2–C2"
    assert Text(*BRICK.label(parse_brick("4:a1"))).render("ko") == "A1–D1"
    assert ENGINE.param_title("relay", "bricks") == ("temple.param.bricks", {})
    assert ENGINE.param_title("relay", "area") == ("cmd.temple.param.area", {})
    for lang in ("en", "zh", "zh-TW", "ko"):
        asked = Text(*ENGINE.param_title("relay", "bricks")).render(lang)
        assert ":" not in asked and "4" not in asked
        assert "4:A1" in catalog(lang)["cmd.temple.param.bricks"]
