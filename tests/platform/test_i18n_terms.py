"""Every catalog keeps the English placeholders and words the recurring game terms
the way its glossary (``bot/i18n/glossary.json``) says.

Decisions:

* The placeholder check compares the *multiset* of ``{names}`` key by key, in
  every language and every domain, and also requires every English key to be
  translated (a missing key would show English inside a Chinese message).
* A glossary term applies to a string when its English, without ``code`` spans
  (typed notation such as ``tile red F5`` stays English in every language) and
  without ``{placeholders}``, contains the term between word boundaries.
* Typed notation outside backticks (``Examples: leader king F5, ...``, the
  ``/game board`` command) is recognised the same way: a translation that keeps
  the very English word the term matched has kept notation, not skipped a term.
* Real exceptions are listed in the glossary with a reason, never in this file;
  an exception that no longer applies fails too, so the list stays honest.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import DEFAULT_LANG, LANGUAGES, LOCALES_DIR

GLOSSARY = LOCALES_DIR.parent / "glossary.json"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
CODE_SPAN = re.compile(r"`[^`]*`")
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT_LANG]


@dataclass(frozen=True)
class Term:
    keys: tuple[str, ...]
    english: re.Pattern[str]
    forms: dict[str, tuple[str, ...]]
    exceptions: dict[str, frozenset[str]]

    def matches(self, key: str, english: str) -> list[str]:
        """The English words of this term in ``english`` (none outside its keys)."""
        if not key.startswith(self.keys):
            return []
        bare = PLACEHOLDER.sub(" ", CODE_SPAN.sub(" ", english))
        return [m.group(0) for m in self.english.finditer(bare)]

    def applies(self, key: str, english: str) -> bool:
        return bool(self.matches(key, english))

    def used(self, lang: str, key: str, english: str, text: str) -> bool:
        """Whether ``text`` words the term as the glossary says, or keeps every
        English occurrence verbatim as typed notation."""
        if any(form in text for form in self.forms[lang]):
            return True
        kept = [re.search(rf"\b{re.escape(word)}\b", text) for word in self.matches(key, english)]
        return all(kept)


def load_terms(path: Path = GLOSSARY) -> list[Term]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    terms = []
    for entry in data["terms"]:
        terms.append(
            Term(
                keys=tuple(entry["keys"]),
                english=re.compile(rf"\b(?:{entry['en']})\b", re.IGNORECASE),
                forms={lang: tuple(entry[lang]) for lang in TRANSLATED},
                exceptions={
                    lang: frozenset(keys) for lang, keys in entry.get("except", {}).items()
                },
            )
        )
    return terms


@cache
def domain_files(lang: str) -> dict[str, dict[str, str]]:
    """``{domain: {key: text}}`` read straight from the files (no merging)."""
    folder = LOCALES_DIR / lang
    return {p.stem: json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))}


def merged(lang: str) -> dict[str, str]:
    return {k: v for entries in domain_files(lang).values() for k, v in entries.items()}


def mismatches(
    terms: list[Term], lang: str, english: dict[str, str], other: dict[str, str]
) -> Iterator[str]:
    """One line per string that misses its glossary term (or a stale exception)."""
    for number, term in enumerate(terms):
        excepted = term.exceptions.get(lang, frozenset())
        for key in sorted(english):
            if key not in other or not term.applies(key, english[key]):
                continue
            uses = term.used(lang, key, english[key], other[key])
            if key in excepted:
                if uses:
                    yield f"term {number} ({term.english.pattern}): {key} needs no exception"
            elif not uses:
                yield (
                    f"term {number} ({term.english.pattern}): {lang} {key} lacks "
                    f"{' / '.join(term.forms[lang])}: {other[key]!r}"
                )
        for key in excepted - english.keys():
            yield f"term {number}: exception {key} is not a key"


# --------------------------------------------------------------------------- placeholders


def test_the_catalog_languages_have_their_folders() -> None:
    assert TRANSLATED == ["zh", "zh-TW", "ko"]
    for lang in LANGUAGES:
        assert sorted(domain_files(lang)) == sorted(domain_files(DEFAULT_LANG)), lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_key_is_translated_with_the_english_placeholders(lang: str) -> None:
    problems = []
    for domain, english in domain_files(DEFAULT_LANG).items():
        other = domain_files(lang)[domain]
        problems += [f"{domain}: {key} is missing" for key in english.keys() - other.keys()]
        problems += [f"{domain}: {key} is not English" for key in other.keys() - english.keys()]
        for key in english.keys() & other.keys():
            want = Counter(PLACEHOLDER.findall(english[key]))
            got = Counter(PLACEHOLDER.findall(other[key]))
            if want != got:
                problems.append(f"{domain}: {key} has {dict(got)}, English {dict(want)}")
            if not other[key].strip():
                problems.append(f"{domain}: {key} is empty")
    assert problems == []


def test_traditional_chinese_is_not_simplified_chinese() -> None:
    """The zh-TW catalog is written in Traditional characters (no Simplified-only
    form) and in Taiwan usage (no mainland word where Taiwan says another)."""
    simplified_only = set(
        "们这说时为对发来国门东马车书见问间长开关动"
        "让进还没变钱点过个图该选择从队员戏赢级营区块积库设请将"
    )
    mainland = (
        "默認",
        "信息",
        "文件",
        "服務器",
        "用戶",
        "設置",
        "登錄",
        "創建",
        "令牌",
        "演示",
        "命令",
        "棋盤",
        "財寶",
        "牌片",
        "視圖",
        "私信",
        "許可權",
        "全域性",
        "頻道里",
        "平局",
    )
    texts = merged("zh-TW")
    found = sorted({ch for text in texts.values() for ch in text if ch in simplified_only})
    assert found == []
    assert sorted(f"{k}: {w}" for k, text in texts.items() for w in mainland if w in text) == []


# --------------------------------------------------------------------------- terms


def test_the_glossary_is_well_formed() -> None:
    data = json.loads(GLOSSARY.read_text("utf-8"))
    terms = load_terms()
    assert len(terms) >= 40
    for entry in data["terms"]:
        for lang in TRANSLATED:
            assert entry[lang] and all(isinstance(f, str) and f for f in entry[lang]), entry
        for lang, keys in entry.get("except", {}).items():
            assert lang in TRANSLATED and keys, entry
            assert entry.get("why"), f"exception without a reason: {entry['en']}"
    english = merged(DEFAULT_LANG)
    for term in terms:  # every term is used somewhere, so it checks something
        assert any(term.applies(k, v) for k, v in english.items()), term.english.pattern


@pytest.mark.parametrize("lang", TRANSLATED)
def test_game_terms_are_translated_consistently(lang: str) -> None:
    problems = list(mismatches(load_terms(), lang, merged(DEFAULT_LANG), merged(lang)))
    assert problems == []


def test_a_wrong_term_is_caught() -> None:
    """The check fails on a real mismatch: 寶藏 replaced by 財寶 in one string,
    and on an exception that is not needed any more."""
    english, traditional = merged(DEFAULT_LANG), dict(merged("zh-TW"))
    key = "tikal.error.no_tokens"
    assert "寶藏" in traditional[key]
    traditional[key] = traditional[key].replace("寶藏", "財寶")
    found = list(mismatches(load_terms(), "zh-TW", english, traditional))
    assert len(found) == 1 and key in found[0]
    pattern = re.compile(r"\btreasure\b", re.IGNORECASE)
    stale = Term(("tikal.",), pattern, {"zh-TW": ("寶藏",)}, {"zh-TW": frozenset({key})})
    found = list(mismatches([stale], "zh-TW", english, merged("zh-TW")))
    assert found == [f"term 0 ({pattern.pattern}): {key} needs no exception"]
