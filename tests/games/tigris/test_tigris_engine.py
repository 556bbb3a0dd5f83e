"""The engine object, its options and its message catalogs."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from tigris_positions import play, position

from bot.games.base import GameEngine, RuleError
from bot.games.tigris import ENGINE
from bot.i18n import Text, t
from tests.support.catalog_files import family

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ROOT / "bot" / "games" / "tigris"


def catalog(lang: str) -> dict[str, str]:
    return family(lang, "tigris", "cmd.tigris")


def test_engine_contract():
    protocol = {name for name in vars(GameEngine) if not name.startswith("_")} | set(
        GameEngine.__annotations__
    )
    assert protocol >= {"new_game", "apply", "result", "load_state", "name"}
    assert all(hasattr(ENGINE, name) for name in protocol)
    assert ENGINE.name == "tigris"
    assert ENGINE.title_key == "tigris.title"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    (option,) = ENGINE.options
    assert option.name == "scoring" and option.choices == ("hidden", "open")
    assert option.default == "hidden"
    assert option.description_key == "tigris.option.scoring"


@pytest.mark.parametrize("seats", [1, 5])
def test_player_count(seats):
    with pytest.raises(RuleError) as caught:
        ENGINE.new_game(seats, {}, 1)
    assert caught.value.key == "tigris.error.player_count"


def test_bad_option():
    with pytest.raises(RuleError) as caught:
        ENGINE.new_game(2, {"scoring": "loud"}, 1)
    assert caught.value.key == "tigris.error.bad_option"


def test_result_is_none_while_running():
    assert ENGINE.result(ENGINE.new_game(2, {}, 1)) is None


def test_prompt_names_the_question():
    state = position(
        {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"},
        hands=[["red"], ["red", "red"]],
    )
    key, params = ENGINE.prompt(state)
    assert key == "tigris.prompt.action" and params["seat"] == 0 and params["count"] == 2
    assert Text(key, {**params, "seat": "Ann"}).render("en") == (
        "Ann: 2 actions left — tap **Play**: **Leader**, **Tile**, **Catastrophe**,"
        " **Swap tiles** or **Pass**."
    )
    play(state, "leader farmer I4", "support 1")
    key, params = ENGINE.prompt(state)
    assert key == "tigris.prompt.revolt_support"
    assert params["seat"] == 1 and "most" not in params  # how many red it holds is secret
    assert isinstance(params["colour"], Text)


def test_catalogs_have_the_same_keys_and_fields():
    english = catalog("en")
    fields = string.Formatter()
    for lang in ("zh", "zh-TW", "ko"):
        other = catalog(lang)
        assert other.keys() == english.keys(), lang
        for key, template in english.items():
            # a field named twice for its plural form ({count:|tile|tiles}) counts once
            # a field only there for its plural form ({count:|tile|tiles}) counts once,
            # and a language without plurals may leave it out
            plural = {
                f for _, f, spec, _ in fields.parse(template) if f and spec and spec[0] == "|"
            }
            want = sorted({f for _, f, _, _ in fields.parse(template) if f} - plural)
            got = sorted({f for _, f, _, _ in fields.parse(other[key]) if f} - plural)
            assert want == got, (lang, key)


def test_every_key_in_the_source_is_in_the_catalog():
    english = catalog("en")
    assert all(key.startswith(("tigris.", "cmd.tigris.")) for key in english)
    used: set[str] = set()
    for path in SOURCES.glob("*.py"):
        used.update(re.findall(r'"(tigris\.[a-z_.]+[a-z_])"', path.read_text()))
    # Keys built with f-strings.
    used.update(f"tigris.colour.{c}" for c in ("red", "blue", "green", "black"))
    used.update(f"tigris.leader.{c}" for c in ("red", "blue", "green", "black"))
    used.update(f"tigris.event.game_over.{r}" for r in ("bag", "treasures"))
    phases = ("action", "revolt_support", "war_support", "war_order", "treasure", "monument")
    used.update(f"tigris.error.phase.{p}" for p in phases)
    used.update(f"tigris.prompt.{p}" for p in phases)
    missing = sorted(key for key in used if key not in english)
    assert not missing


def test_messages_render_in_every_language():
    state = position(
        {"G5": "red", "H5": "red", "I5": "red", "G4": "farmer:1"},
        hands=[["red"], []],
    )
    events = play(state, "leader farmer I4", "support 1")
    for lang in ("en", "zh", "zh-TW", "ko"):
        for event in events:
            text = t(lang, event.key, **event.params)
            assert "{" not in text, (lang, event.key, text)
    assert "priest" not in t("en", "tigris.event.revolt", leader=Text("tigris.leader.blue"))
