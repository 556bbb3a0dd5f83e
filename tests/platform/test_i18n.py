"""The catalogs: every key the code uses exists in English; translations keep placeholders."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, LOCALES_DIR, Text, catalog, language_of, t

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: call shapes whose first string argument is a catalog key
KEY_CALLS = {"Text", "Refusal", "RuleError", "Event", "t"}
KEY_PATTERN = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")


def _keys_used_in(folder: Path) -> set[str]:
    used: set[str] = set()
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in KEY_CALLS:
                continue
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if KEY_PATTERN.match(arg.value):
                        used.add(arg.value)
                    break
    return used


def test_every_literal_key_in_the_code_is_in_the_english_catalog() -> None:
    used = _keys_used_in(ROOT / "bot")
    assert used, "the scan found no keys at all"
    missing = sorted(k for k in used if k not in catalog("en"))
    assert missing == []


def test_each_file_holds_a_family_of_the_keys_of_its_prefix_in_every_language() -> None:
    """A file per first key segment, the same files in every language, and no file of
    one key: a lone key is named in the family it belongs to (see bot.i18n)."""
    layout = sorted(p.name for p in (LOCALES_DIR / "en").glob("*.json"))
    assert "cmd.json" in layout
    for lang in LANGUAGES:
        assert sorted(p.name for p in (LOCALES_DIR / lang).glob("*.json")) == layout, lang
        for name in layout:
            entries = json.loads((LOCALES_DIR / lang / name).read_text("utf-8"))
            prefix = name.removesuffix(".json") + "."
            strays = sorted(k for k in entries if not k.startswith(prefix))
            assert strays == [], f"{lang}/{name}: {strays}"
            assert len(entries) >= 2, f"{lang}/{name} holds one key: {sorted(entries)}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_keep_the_placeholders(lang: str) -> None:
    for path in (LOCALES_DIR / lang).glob("*.json"):
        english = json.loads((LOCALES_DIR / "en" / path.name).read_text("utf-8"))
        for key, text in json.loads(path.read_text("utf-8")).items():
            assert key in english, f"{lang}/{path.name}: {key} is not an English key"
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), (
                f"{lang}: {key}"
            )


def test_discord_locales_map_to_catalog_languages() -> None:
    assert language_of("zh-CN") == "zh"
    assert language_of("zh") == "zh"
    assert language_of("zh-SG") == "zh"
    assert language_of("zh-Hans") == "zh"
    assert language_of("zh-TW") == "zh-TW"  # Discord's Traditional Chinese
    assert language_of("zh-HK") == "zh-TW"  # not sent by Discord, but Traditional
    assert language_of("zh_tw") == "zh-TW"
    assert language_of("zh-Hant") == "zh-TW"
    assert language_of("zh-Hant-CN") == "zh-TW"
    for lang in LANGUAGES:  # a stored catalog language reads back as itself
        assert language_of(lang) == lang
    assert language_of("ko") == "ko"
    assert language_of("en-GB") == "en"
    assert language_of("pt-BR") == "en"
    assert language_of(None) == "en"


def test_a_locale_is_mapped_once_then_read_from_the_cache() -> None:
    language_of.cache_clear()
    texts = [t("ko", "error.internal") for _ in range(20)]
    assert len(set(texts)) == 1
    info = language_of.cache_info()
    assert info.misses == 1 and info.hits >= 19
    assert language_of("ko-KR") == "ko" and language_of.cache_info().misses == 2


def test_traditional_and_simplified_chinese_are_different_catalogs() -> None:
    assert "zh-TW" in LANGUAGES  # every key: tests/platform/test_i18n_terms.py
    assert t("zh-TW", "tikal.render.treasures") == "寶藏"
    assert t("zh-CN", "tikal.render.treasures") == "财宝"
    assert t("zh-HK", "error.game_full", max=4) == "人數已滿（4 名玩家）。"
    nested = Text("lobby.started", {"game": Text("tikal.title")})
    assert nested.render("zh-TW") == "提卡爾 開始了！座位順序："


def test_translation_falls_back_to_english_and_never_raises() -> None:
    assert t("en", "error.game_full", max=4) == "The game is full (4 players)."
    assert t("ko", "no.such.key") == "no.such.key"
    assert "{max}" in t("en", "error.game_full")  # a missing param stays visible
    nested = Text("lobby.started", {"game": Text("oracle.title")})
    assert "Oracle" in nested.render("en")


def test_a_text_is_rendered_once_per_value_and_language_and_as_t_renders_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:meth:`Text.render` remembers each text by its value and language: equal texts
    (other objects) are translated once, and read exactly what :func:`t` writes, the
    Korean particle and the plural form included; a text whose value cannot be told
    is translated each time."""
    import bot.i18n as i18n

    calls: list[str] = []

    def counted(locale: str | None, key: str, **params: object) -> str:
        calls.append(key)
        return t(locale, key, **params)

    def texts(name: str, count: int) -> list[Text]:
        return [
            Text("after.replay.cannot_read", {"path": name, "reason": Text("tikal.title")}),
            Text("after.stats.game", {"game": Text("tikal.title"), "count": count}),
        ]

    monkeypatch.setattr(i18n, "_RENDERED", {})
    monkeypatch.setattr(i18n, "t", counted)
    for name, count in (("Bob", 1), ("Alice", 2)):
        for lang in (*LANGUAGES, "ko-KR", None):
            first = [text.render(lang) for text in texts(name, count)]
            del calls[:]
            again = [text.render(lang) for text in texts(name, count)]
            assert calls == []  # equal texts, other objects: nothing translated again
            fresh = [t(lang, text.key, **text.params) for text in texts(name, count)]
            assert first == again == fresh
    monkeypatch.setattr(i18n, "t", t)
    assert Text("after.replay.cannot_read", {"path": "Bob", "reason": "x"}).render("ko") == (
        "Bob을 읽을 수 없습니다: x."
    )
    assert Text("after.replay.cannot_read", {"path": "앨리스", "reason": "x"}).render("ko") == (
        "앨리스를 읽을 수 없습니다: x."
    )
    assert (
        Text("after.stats.game", {"game": "g", "count": 1}).render("en").endswith("1 game finished")
    )
    assert (
        Text("after.stats.game", {"game": "g", "count": 3})
        .render("en")
        .endswith("3 games finished")
    )
    # a value that cannot be told is rendered each time; a full memory is emptied
    monkeypatch.setattr(i18n, "t", counted)
    del calls[:]
    odd = Text("error.game_full", {"max": 4.0})
    assert odd.value_key is None and odd.render("en") == odd.render("en") and len(calls) == 2
    monkeypatch.setattr(i18n, "RENDERED_MEMORY", 3)
    for n in range(10):
        Text("error.game_full", {"max": n}).render("en")
        assert len(i18n._RENDERED) <= 3


def test_a_texts_value_is_worked_out_once_and_kept_with_the_text() -> None:
    """``Text.value_key`` is worked out at its first read only (kept in the text's own
    ``__dict__``), a nested text's too, and is the same value at every read."""
    inner = Text("list.comma", {"head": "a", "tail": "b"})
    outer = Text("hand.news", {"game": inner, "count": 2})
    assert "value_key" not in outer.__dict__ and "value_key" not in inner.__dict__
    first = outer.value_key
    assert outer.__dict__["value_key"] is first and inner.__dict__["value_key"] == inner.value_key
    assert outer.value_key is first == ("hand.news", "game", inner.value_key, "count", 2)
