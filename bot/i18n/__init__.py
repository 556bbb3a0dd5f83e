"""Message catalogs: every user-facing string goes through :func:`t`.

Catalogs are JSON files ``locales/<lang>/<prefix>.json`` mapping a dotted key
to a ``str.format`` template with named fields. A key lives in the file named
by its first segment (``cmd.tikal.move`` in ``cmd.json``, ``tikal.render.ap``
in ``tikal.json``; a game's image labels are ``<game>.render.*``), with the
same files in every language. A file holds a family of keys, never one key
alone: a key that would be the only one of its prefix is named in the family
it belongs to (the undo's answer is ``move.undone``, the reminder with a
deadline ``reminder.deadline``, an unnamed member ``seat.unnamed``). All files
of a language are merged and a key found twice is an error. English is
complete; another language falls back to English key by key. Discord locales
(``zh-CN``, ``ko``, ``en-US``...) map to a catalog language with
:func:`language_of`.

Decisions:

* Catalog languages are named like Discord locales where one language has
  two scripts: ``zh`` is Simplified Chinese (Discord's ``zh-CN``) and
  ``zh-TW`` Traditional Chinese (Discord's ``zh-TW``; ``zh-HK``, ``zh-MO`` and
  ``zh-Hant`` are read the same way, although Discord does not send them).
  Every other locale maps by its first part (``en-GB`` → ``en``), so the
  stored language of existing games (``en``, ``zh``, ``ko``) keeps its meaning.
* ``language_of`` accepts its own answers (``language_of("zh-TW") == "zh-TW"``):
  callers pass either a Discord locale or a stored catalog language.
* Korean particles: a catalog string writes a particle after a name as
  ``{seat}이(가)`` (and 을(를), 은(는), 과(와), (으)로, (이)나...); :func:`t`
  picks the one form that fits the word before it — by the final consonant
  of its last Hangul syllable ((code − 0xAC00) % 28 ≠ 0; ㄹ counts as none
  for (으)로), by how a final digit or Latin letter is read aloud otherwise —
  so a reader never sees "김민준이(가)". After anything else (Hanzi, symbols)
  the double form stays: no reading is safe to guess.
* Plurals: ``{count} {count:|tile|tiles}`` — an int param formatted with
  ``|one|other`` gives the word for 1 or for any other number, so no string
  says "tile(s)"; languages without plural forms just leave it out.
* Lists of texts of any length (:func:`join_texts`) nest ``list.*`` catalog
  strings, so each language has its own separator; alternatives
  (:func:`either`, "a, b or c") end on ``list.or``.
* A text is rendered once per value and language: :meth:`Text.render`
  remembers what :func:`t` made of it by :attr:`Text.value_key` (equal texts
  render equally: the catalog, the Korean particles and the plural forms
  read nothing else), at most :data:`RENDERED_MEMORY` of them, forgotten all
  at once when full (and when a catalog is registered), which no thread
  drawing an image can disturb. A text whose value cannot be told (a
  parameter neither a text, a str nor an int) is rendered each time; a
  missing key is logged when its text is first rendered.
* ``glossary.json`` (next to this file, not shipped) names the recurring game
  terms in each language; ``tests/platform/test_i18n_terms.py`` checks every
  catalog against it and against the English placeholders.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LANG = "en"
LANGUAGES = ("en", "zh", "zh-TW", "ko")
#: Chinese locale parts (region or script) that mean Traditional characters
_TRADITIONAL = frozenset({"tw", "hk", "mo", "hant"})

V = TypeVar("V")


class _Once(Generic[V]):
    """An attribute worked out on its first read and kept in the instance's ``__dict__``
    (read from there ever after, this descriptor no longer asked): what
    ``functools.cached_property`` does, without the lock Python 3.11's takes at every
    first read (two more calls, and a rendered text's value is read first once per text).
    Two threads reading it first at once both work it out, to equal values."""

    def __init__(self, work: Callable[[Any], V]) -> None:
        self.work = work
        self.name = work.__name__
        self.__doc__ = work.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> _Once[V]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...
    def __get__(self, instance: object, owner: type | None = None) -> V | _Once[V]:
        if instance is None:  # read on the class: the descriptor itself
            return self
        value = self.work(instance)
        instance.__dict__[self.name] = value
        return value


@dataclass(frozen=True)
class Text:
    """A catalog key with its parameters, translated late (per recipient)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str | None = None) -> str:
        """This text in the language of ``lang`` (:func:`t`); remembered by its value
        (:attr:`value_key`) and language, so equal texts are translated once."""
        value = self.value_key
        if value is None:
            return t(lang, self.key, **self.params)
        language = language_of(lang)
        remembered = _RENDERED.get((value, language))
        if remembered is None:
            remembered = t(language, self.key, **self.params)
            if len(_RENDERED) >= RENDERED_MEMORY:
                _RENDERED.clear()
            _RENDERED[(value, language)] = remembered
        return remembered

    @_Once
    def value_key(self) -> tuple[Any, ...] | None:
        """This text as a hashable value: its key, then each parameter's name and value
        (a nested text's value), so equal texts give equal values; None when a
        parameter is neither a text, a str nor an int. Worked out once per object
        (what measures a text by value, :func:`bot.service.menus.widest`, reads)."""
        parts: list[Any] = [self.key]
        for name, value in self.params.items():
            kind = type(value)
            if kind is str or kind is int:
                parts += (name, value)
            elif isinstance(value, Text):
                inner = value.value_key
                if inner is None:
                    return None
                parts += (name, inner)
            else:
                return None
        return tuple(parts)

    def to_json(self) -> list[Any]:
        """``[key, params]`` with nested texts as ``{"$text": [key, params]}``, for storage."""
        return [self.key, {name: _encode(value) for name, value in self.params.items()}]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Text:
        key, params = data
        return cls(str(key), {name: _decode(value) for name, value in dict(params).items()})


def _encode(value: Any) -> Any:
    return {"$text": value.to_json()} if isinstance(value, Text) else value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"$text"}:
        return Text.from_json(value["$text"])
    return value


_EXTRA: dict[str, dict[str, str]] = {}

#: how many rendered texts are remembered (:meth:`Text.render`); all are forgotten
#: at once when full
RENDERED_MEMORY = 8192
#: each rendered text by its value and language
_RENDERED: dict[tuple[tuple[Any, ...], str], str] = {}


def register_catalog(lang: str, entries: Mapping[str, str]) -> None:
    """Add messages from outside ``locales/`` (a test game's catalog)."""
    _EXTRA.setdefault(lang, {}).update(entries)
    catalog.cache_clear()
    _RENDERED.clear()


@cache
def catalog(lang: str) -> dict[str, str]:
    """All messages of one language, every domain file merged."""
    merged: dict[str, str] = dict(_EXTRA.get(lang, {}))
    folder = LOCALES_DIR / lang
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            entries = json.loads(path.read_text(encoding="utf-8"))
            duplicated = merged.keys() & entries.keys()
            if duplicated:
                raise ValueError(f"{path}: keys already defined: {sorted(duplicated)}")
            merged.update(entries)
    return merged


@lru_cache(maxsize=256)  # Discord has a few dozen locales; every text rendered asks
def language_of(locale: str | None) -> str:
    """Map a Discord locale such as ``zh-CN`` or ``en-GB`` to a catalog language."""
    if not locale:
        return DEFAULT_LANG
    parts = str(locale).replace("_", "-").lower().split("-")
    if parts[0] == "zh":
        return "zh-TW" if _TRADITIONAL & set(parts[1:]) else "zh"
    return parts[0] if parts[0] in LANGUAGES else DEFAULT_LANG


_PLURAL_SPEC = re.compile(r"\{(\w+):\|[^}]*\}")


class _Number(int):
    """An int param; ``{count:|tile|tiles}`` in a template picks the word for one
    or for any other number (the catalog's plural: no "tile(s)")."""

    def __format__(self, spec: str) -> str:
        if spec.startswith("|"):
            one, _, other = spec[1:].partition("|")
            return one if self == 1 else other
        return int(self).__format__(spec)


class _Params(dict[str, Any]):
    """Format mapping that keeps ``{unknown}`` fields visible instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(locale: str | None, key: str, **params: Any) -> str:
    """Translate ``key`` into the language of ``locale``.

    Nested :class:`Text` params are translated in the same language. A missing
    key is logged and shown as the key itself, never raised to a player.
    """
    lang = language_of(locale)
    template = catalog(lang).get(key)
    if template is None:
        template = catalog(DEFAULT_LANG).get(key)
    if template is None:
        log.warning("missing i18n key %s", key)
        return key
    rendered = {
        name: value.render(lang)
        if isinstance(value, Text)
        else _Number(value)
        if type(value) is int
        else value
        for name, value in params.items()
    }
    try:
        text = template.format_map(_Params(rendered))
    except ValueError:  # a plural spec on a param that is not an int: use the "other" form
        log.warning("i18n key %s: a plural form on a non-number param", key)
        text = _PLURAL_SPEC.sub(r"{\1}", template).format_map(_Params(rendered))
    return korean_particles(text) if lang == "ko" else text


#: the double particle forms catalog strings write, each as (with final consonant, without)
_PARTICLES: dict[str, tuple[str, str]] = {
    "이(가)": ("이", "가"),
    "가(이)": ("이", "가"),
    "을(를)": ("을", "를"),
    "를(을)": ("을", "를"),
    "은(는)": ("은", "는"),
    "는(은)": ("은", "는"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
    "(이)나": ("이나", "나"),
    "(이)다": ("이다", "다"),
    "(이)라": ("이라", "라"),
    "(아)야": ("아", "야"),
}
_PARTICLE_RE = re.compile(
    r"(?P<word>[^\s(”’\"'»」』)\]]?)(?P<close>[”’\"'»」』)\]]*)(?P<particle>"
    + "|".join(re.escape(p) for p in _PARTICLES)
    + ")"
)
#: how each digit is read in Sino-Korean: (ends in a consonant, that consonant is ㄹ)
_DIGITS = {
    "0": (True, False),  # 영
    "1": (True, True),  # 일
    "2": (False, False),  # 이
    "3": (True, False),  # 삼
    "4": (False, False),  # 사
    "5": (False, False),  # 오
    "6": (True, False),  # 육
    "7": (True, True),  # 칠
    "8": (True, True),  # 팔
    "9": (False, False),  # 구
}
#: Latin letters that end a word on a consonant as Korean writes it (Bob 밥, Tom 톰,
#: Jack 잭, Paul 폴); the others end on a vowel (Alice 앨리스, Max 맥스, Lee 리)
_LATIN_FINAL = set("bcdgklmnpt")


def final_consonant(word: str) -> tuple[bool, bool] | None:
    """Whether ``word`` (read in Korean) ends on a final consonant, and whether that
    consonant is ㄹ; None when its last character gives no safe reading."""
    if not word:
        return None
    last = word[-1]
    code = ord(last) - 0xAC00
    if 0 <= code < 11172:
        final = code % 28
        return final != 0, final == 8
    if last in _DIGITS:
        return _DIGITS[last]
    lower = last.lower()
    if "a" <= lower <= "z":
        if lower in _LATIN_FINAL:
            return True, lower == "l"
        return False, False
    return None


def korean_particles(text: str) -> str:
    """``text`` with each double particle form (이(가)...) reduced to the one that fits."""

    def pick(match: re.Match[str]) -> str:
        word, close, particle = match["word"], match["close"], match["particle"]
        reading = final_consonant(word)
        if reading is None:
            return match[0]
        has_final, is_rieul = reading
        with_final, without = _PARTICLES[particle]
        if particle == "(으)로" and is_rieul:
            chosen = without
        else:
            chosen = with_final if has_final else without
        return word + close + chosen

    return _PARTICLE_RE.sub(pick, text)


def join_texts(items: Sequence[Text], key: str = "list.comma") -> Text:
    """One text listing ``items`` with the language's separator (``list.comma``:
    "a, b, c"; ``list.semicolon``: "a; b")."""
    if not items:
        return Text("list.none")
    if len(items) == 1:
        return items[0]
    return Text(key, {"head": items[0], "tail": join_texts(items[1:], key)})


def either(items: Sequence[Text]) -> Text:
    """One text offering ``items`` as alternatives: "a, b or c" (``list.either``
    between the first ones, ``list.or`` before the last)."""
    if len(items) <= 1:
        return join_texts(items)
    if len(items) == 2:
        return Text("list.or", {"head": items[0], "tail": items[1]})
    return Text("list.either", {"head": items[0], "tail": either(items[1:])})


def has_key(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalog(lang)
