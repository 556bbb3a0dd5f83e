"""The Tikal catalogs: every key the code uses is in English, no key is dead,
Chinese and Korean have every key with the same placeholders, and the
slash-command strings fit Discord's 100 characters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.tikal import ENGINE
from bot.games.tikal.board import DIRECTIONS
from bot.games.tikal.components import FIGURES, KINDS, TREASURE_KINDS
from bot.games.tikal.state import PHASES, TURN_KINDS
from bot.i18n import t
from tests.support.catalog_files import family

ROOT = Path(__file__).resolve().parents[3]
SOURCES = [*(ROOT / "bot" / "games" / "tikal").glob("*.py"), ROOT / "renderer" / "tikal.py"]
LITERAL = re.compile(r"""["']((?:tikal|cmd\.tikal)\.[a-z0-9_.]+[a-z0-9_])["']""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, str]:
    return family(lang, "tikal", "cmd.tikal")


def literal_keys() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        found.update(LITERAL.findall(path.read_text("utf-8")))
    return found


def built_keys() -> set[str]:
    """Keys the code builds from names (f-strings and tables)."""
    keys = {f"tikal.error.phase.{phase}" for phase in PHASES}
    keys |= {f"tikal.prompt.{kind}" for kind in TURN_KINDS}
    keys |= {f"tikal.hex.{kind}" for kind in KINDS}
    keys |= {f"tikal.figure.{figure}" for figure in FIGURES}
    keys |= {f"tikal.treasure.{kind}" for kind in TREASURE_KINDS}
    keys |= {colour.name_key for colour in ENGINE.seat_colours}
    keys |= {f"tikal.option.mode.{mode}" for mode in ENGINE.options[0].choices}
    keys |= {"tikal.option.mode.name"}  # the lobby builds it
    keys |= {f"tikal.rules.{page}" for page in ("turn", "scoring", "decisions")}  # /rules
    keys |= {f"tikal.render.phase.{p}" for p in ("place", "actions", "bid", "pick")}
    keys |= {f"tikal.render.turn.{k}" for k in ("scoring", "final", "volcano")}
    keys |= {f"tikal.render.kind.{k}" for k in KINDS}
    keys |= {f"tikal.side.{side}" for side in DIRECTIONS}  # a hex's stones, by edge
    keys.add("cmd.tikal.description")
    # the move picker's words: a verb's name and a value with its verb, how merged
    # values join (bot/service/picker.py), a figure's short label (suggest.py)
    keys.add("tikal.join")
    keys |= {f"tikal.short.{figure}" for figure in FIGURES}
    for verb in ENGINE.verbs:
        keys.add(f"cmd.tikal.{verb.name}.description")
        keys.add(f"tikal.verb.{verb.name}")
        if verb.params:
            keys.add(f"tikal.tag.{verb.name}")
        keys |= {f"cmd.tikal.param.{param.name}" for param in verb.params}
    return keys


def test_every_key_the_code_uses_is_in_english() -> None:
    english = catalog("en")
    missing = sorted((literal_keys() | built_keys()) - set(english))
    assert missing == []


def test_no_dead_keys() -> None:
    used = literal_keys() | built_keys()
    dead = sorted(set(catalog("en")) - used)
    assert dead == []


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "ko"])
def test_translations_are_complete_and_keep_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert sorted(PLACEHOLDER.findall(other[key])) == sorted(PLACEHOLDER.findall(text)), key
        assert other[key].strip(), key


@pytest.mark.parametrize("lang", ["en", "zh", "zh-TW", "ko"])
def test_command_strings_fit_discord(lang: str) -> None:
    for key, text in catalog(lang).items():
        if key.startswith("cmd."):
            assert 1 <= len(text) <= 100, key


def test_all_keys_are_prefixed_and_the_help_names_the_layout() -> None:
    for key in catalog("en"):
        assert key.startswith(("tikal.", "cmd.tikal.")), key
    assert "digital edition layout" in t("en", "tikal.help")
    assert len(t("en", "tikal.help")) < 2000
    for lang in ("zh", "zh-TW", "ko"):
        assert len(t(lang, "tikal.help")) < 2000
