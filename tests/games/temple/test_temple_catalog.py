"""Every user-facing string of Temple Rush is in the catalogs, in three languages."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from bot.games.temple import ENGINE
from bot.games.temple.actions import PARTS
from bot.games.temple.cards import lightning_card, temple_cards
from bot.games.temple.components import TOKENS
from bot.games.temple.flow import END_REASONS
from bot.i18n import LOCALES_DIR, catalog
from renderer import temple as temple_renderer
from tests.support.catalog_files import family
from tests.support.temple_play import play

ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
KEY = re.compile(r"^(temple|cmd|choice)\.[a-z0-9_.]+$")


def literal_keys(*folders: Path) -> set[str]:
    """Every string constant in the code that looks like a catalog key."""
    found: set[str] = set()
    for folder in folders:
        paths = [folder] if folder.is_file() else sorted(folder.rglob("*.py"))
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                text = node.value if isinstance(node, ast.Constant) else None
                if isinstance(text, str) and KEY.match(text) and not text.endswith("."):
                    found.add(text)
    return found


def dynamic_keys() -> set[str]:
    """Keys built at run time: names of cards, parts, tokens, options, game ends."""
    keys = {f"temple.card.{c.id}" for c in (*temple_cards(), lightning_card())}
    keys |= {f"temple.part.{p}" for p in PARTS}
    keys |= {f"temple.token.{t}" for t in TOKENS}
    keys |= {f"temple.event.end.{reason}" for reason in END_REASONS}
    for option in ENGINE.options:
        keys.add(option.description_key)
        keys |= {f"{option.description_key}.{value}" for value in option.choices}
    keys |= {ENGINE.title_key, ENGINE.help_key, "cmd.temple.description"}
    for verb in ENGINE.verbs:
        keys.add(f"cmd.temple.{verb.name}.description")
        keys |= {f"cmd.temple.param.{p.name}" for p in verb.params}
    return keys


def test_every_key_the_code_uses_is_in_the_english_catalog() -> None:
    used = literal_keys(ROOT / "bot" / "games" / "temple", ROOT / "renderer" / "temple.py")
    used |= dynamic_keys()
    used |= set(temple_renderer.TEXT_KEYS)
    used -= {"choice.words", "choice.verb"}  # the core catalog's
    assert len(used) > 150
    missing = sorted(k for k in used if k not in catalog("en"))
    assert missing == []


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "ko"])
def test_translations_cover_every_key_and_keep_the_placeholders(lang: str) -> None:
    english = family("en", "temple", "cmd.temple")
    own = family(lang, "temple", "cmd.temple")
    assert set(own) == set(english)
    for key, text in own.items():
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), key
        if key.startswith("cmd."):
            assert len(text) <= 100, key


def test_keys_are_prefixed_and_collide_with_no_other_file() -> None:
    for lang in ("en", "zh", "zh-TW", "ko"):
        mine = json.loads((LOCALES_DIR / lang / "temple.json").read_text("utf-8"))
        assert all(k.startswith("temple.") for k in mine)
        for other in (LOCALES_DIR / lang).glob("*.json"):
            if other.name != "temple.json":
                assert not set(mine) & set(json.loads(other.read_text("utf-8"))), other
        catalog.cache_clear()
        assert catalog(lang)  # loading merges every file and raises on a duplicate


def test_event_params_fill_every_placeholder() -> None:
    """Events seen in real games carry the params their English text names."""
    english = catalog("en")
    seen: set[str] = set()
    for seed, seats in ((4, 2), (5, 3), (6, 4)):
        options = {"joint": "on"} if seats > 2 else {}
        _, log = play(seats, seed, options)
        replay = ENGINE.new_game(seats, options, seed)
        for seat, action in log:
            for event in ENGINE.apply(replay, seat, action):
                assert event.key in english, event.key
                wanted = set(PLACEHOLDER.findall(english[event.key]))
                assert wanted <= set(event.params), (event.key, event.params)
                seen.add(event.key)
    assert len(seen) >= 12
