"""Whole games read in Chinese and Korean hold no English, and a tapping player
reads no notation in English either.

For every game and mode, a whole game is played through the service
(:mod:`tests.support.whole_game`: members tapping the move picker, computer
seats, deadlines let pass) in Simplified Chinese, Traditional Chinese and
Korean, and everything its players read — messages, buttons, menus, refusals,
the ranking, and every text drawn on an image — is searched for Latin-letter
words.

Decisions:

* Allowed: the members' names (a computer seat's name is the game's words,
  so it is checked), board coordinates and column or stack letters (``A1``,
  ``F``), Discord's markup (``<t:…:R>`` timestamps, ``<@…>`` mentions), and
  the symbols in :data:`SYMBOLS`.
* In English, what a tapping player reads names no notation: no typed example
  in backticks, no placeholder in capitals (``SPACE ROTATION``, ``SLOT``,
  ``support N``), no bare verb notation (``place C4 2``).
* A random game does not reach every line, so the games' catalogs are also
  read whole: every string of a game's domain (its renderer's too) and the
  picker's, translated, has no Latin-letter word outside typed notation
  (``code`` spans: the refusals of a typed move quote it), placeholders and
  the same allowances. Only the slash commands' own texts (``cmd.*``, where a
  player types) and the ``/help`` summaries (which give a game's original
  title beside its name) are left out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot import plugins
from bot.demo import run_demo
from bot.i18n import LOCALES_DIR
from tests.platform.test_words import bad_parts
from tests.support.whole_game import Read, play_whole_game

#: symbols a translated game may show as they are: Tikal's action points
SYMBOLS = frozenset({"AP"})
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]*")
COORDINATE = re.compile(r"[A-Z]\d{0,2}")
DISCORD_MARKUP = re.compile(r"<(?:t:\d+(?::[tTdDfFR])?|@!?\d+|#\d+)>")
#: notation placeholders: words in capitals (``SPACE``, ``SLOT``), a lone ``N`` (not a
#: column or a stack named by its letter: ``column N``, ``stack N``, ``columns N–P``)
PLACEHOLDER = re.compile(r"\b(?:[A-Z]{2,}|(?<![–-])(?<!column )(?<!stack )N(?![–-]))\b")
CODE_SPAN = re.compile(r"`[^`]*`")
#: a number counting a thing is words ("swap 3 tiles", "bid 4 points"), not notation
COUNTED = re.compile(r"\b\d+\s+(?:tiles?|points?)\b")
CATALOG_PLACEHOLDER = re.compile(r"\{[^}]*\}")
#: Discord's markup as a catalog writes it, around a placeholder (``<t:{when}:R>``)
CATALOG_MARKUP = re.compile(r"<(?:t:|@!?|#)\{\w+\}(?::[tTdDfFR])?>")
#: the catalog domains every string of which a player may read in a game
GAME_DOMAINS = ("tikal", "tigris", "temple", "picker")

#: (game, members, computers, options): every game and mode
CASES = [
    ("tikal", 1, 1, {}),
    ("tikal", 1, 1, {"mode": "auction"}),
    ("tikal", 1, 1, {"mode": "mini"}),
    ("tigris", 1, 1, {}),
    ("tigris", 1, 2, {"scoring": "open"}),
    ("temple", 1, 1, {}),
    ("temple", 1, 2, {"joint": "on"}),
]
CASE_IDS = [f"{game}-{'-'.join(options.values()) or 'base'}" for game, _, _, options in CASES]
LANGUAGES = ("zh", "zh-TW", "ko")


def as_shown(names: tuple[str, ...]) -> list[str]:
    """``names`` as a reader meets them (whole: a label names a player by their colour),
    the longest first."""
    return sorted(set(names), key=len, reverse=True)


def english_words(read: Read) -> dict[str, list[str]]:
    """Each Latin-letter word outside names, coordinates, markup and symbols, with up
    to three of the texts it was read in (and where)."""
    found: dict[str, list[str]] = {}
    for where, text in read.everything():
        bare = DISCORD_MARKUP.sub(" ", text)
        for name in as_shown(read.names):
            bare = bare.replace(name, " ")
        for match in LATIN_WORD.finditer(bare):
            word = match.group(0)
            if word in SYMBOLS or COORDINATE.fullmatch(word):
                continue
            examples = found.setdefault(word, [])
            if len(examples) < 3 and f"[{where}] {text}" not in examples:
                examples.append(f"[{where}] {text}")
    return found


def notation(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """What in an English text a tapping player reads is notation (``names``, the
    seats' names, are not)."""
    for name in as_shown(names):
        text = text.replace(name, " ")
    found = CODE_SPAN.findall(text)
    bare = DISCORD_MARKUP.sub(" ", CODE_SPAN.sub(" ", text))
    found += [w for w in PLACEHOLDER.findall(bare) if w not in SYMBOLS]
    return found + bad_parts(COUNTED.sub(" ", bare))


def catalog_words(text: str) -> list[str]:
    """The Latin-letter words of a catalog string outside typed notation (``code``),
    placeholders, markup, coordinates and the symbols."""
    bare = CATALOG_PLACEHOLDER.sub(" ", CODE_SPAN.sub(" ", CATALOG_MARKUP.sub(" ", text)))
    return [
        m.group(0)
        for m in LATIN_WORD.finditer(bare)
        if m.group(0) not in SYMBOLS and not COORDINATE.fullmatch(m.group(0))
    ]


def catalog_english(lang: str) -> dict[str, list[str]]:
    """The Latin-letter words of the game domains' strings in ``lang``, by key."""
    found: dict[str, list[str]] = {}
    for domain in GAME_DOMAINS:
        path = LOCALES_DIR / lang / f"{domain}.json"
        for key, text in json.loads(path.read_text("utf-8")).items():
            if key.startswith("cmd.") or key.endswith(".help"):
                continue
            words = catalog_words(text)
            if words:
                found[key] = words
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_game_string_keeps_english(lang: str) -> None:
    assert catalog_english(lang) == {}


def test_the_checks_catch_english_and_notation() -> None:
    read = Read("zh", names=("Ann",))
    read.texts = [
        ("public", "Ann：剩余 10 AP — enter、move 或 end。"),
        ("public", "• CPU 2 (strong) 的回合结束。"),
        ("menu", "0 — 石头 N1 NE1；连接 B6"),
        ("public", "截止时间：<t:1800086400:f>（<t:1800086400:R>）"),
        ("public", "Ann 把神庙 3（B 堆）放在 D4。"),
    ]
    read.drawn = [("image", "Last: Ann")]
    assert sorted(english_words(read)) == sorted(
        ["enter", "move", "end", "CPU", "strong", "NE1", "Last"]
    )
    assert notation("Bo: lay the temple 3 — place SPACE ROTATION.") == ["SPACE", "ROTATION"]
    assert notation("Ann: commit red tiles to the revolt (support N).") == ["N"]
    assert notation("Open land, column N") == []
    assert notation("Open land, columns N–P") == []
    assert notation("race — `lightning 4:A1 3:B2 …` (or `skip`).") == [
        "`lightning 4:A1 3:B2 …`",
        "`skip`",
    ]
    assert notation("Ann: 10 AP left — tap Play to choose.") == []
    assert notation("Ann: pick one of the 3 revealed hexes (pick 2).") == ["pick 2"]
    assert notation("• CPU 1 (easy) bids 3 points.", ("• CPU 1 (easy)",)) == []
    assert notation("Played: swap 3 tiles (red, red, blue).") == []
    assert notation("Played: swap red red blue.") == ["swap red"]
    assert catalog_words("{seat}：剩余 {ap} AP — enter、move 或 end。") == ["enter", "move", "end"]
    assert catalog_words("看不懂“{text}”。例如：`place C4 2`、`pass`。<t:{when}:R>") == []


#: each game and mode played in one of the languages, in turn: every language meets
#: every game (zh: Tikal base, Tigris, Temple Rush joint; zh-TW: the auction, Tigris open;
#: ko: Mini-Tikal, Temple Rush), and every game string of every language is read through
#: by :func:`test_no_game_string_keeps_english`; a whole game in each of the three
#: languages tripled the suite's longest tests for no string more
WHOLE_GAMES = [(*case, LANGUAGES[i % len(LANGUAGES)]) for i, case in enumerate(CASES)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "members", "computers", "options", "lang"),
    WHOLE_GAMES,
    ids=[f"{case}-{lang}" for case, (*_, lang) in zip(CASE_IDS, WHOLE_GAMES, strict=True)],
)
async def test_a_whole_game_in_chinese_or_korean_reads_no_english(
    tmp_path: Path,
    game: str,
    members: int,
    computers: int,
    options: dict[str, str],
    lang: str,
) -> None:
    read = await play_whole_game(
        tmp_path, game, lang, members=members, computers=computers, options=options, seed=11
    )
    assert len(read.texts) > 100 and read.drawn, (len(read.texts), read.images)
    found = english_words(read)
    assert not found, "\n".join(
        f"{word!r}: " + " | ".join(examples) for word, examples in sorted(found.items())
    )


@pytest.mark.slow
@pytest.mark.parametrize(("game", "members", "computers", "options"), CASES, ids=CASE_IDS)
async def test_a_tapping_player_reads_no_notation_in_english(
    tmp_path: Path, game: str, members: int, computers: int, options: dict[str, str]
) -> None:
    read = await play_whole_game(
        tmp_path,
        game,
        "en",
        members=members,
        computers=computers,
        options=options,
        seed=12,
        images=False,
    )
    names = read.seat_names
    bad = {text: notation(text, names) for _, text in read.texts if notation(text, names)}
    assert not bad, "\n".join(f"{parts}: {text}" for text, parts in list(bad.items())[:30])


@pytest.mark.slow
async def test_the_demo_prints_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugins.load_builtin_games()
    out = tmp_path / "demo"
    assert await run_demo("tigris", 2, 3, out, language="zh-TW", images=False) == 0
    # the folder and its index file are named as they are on disk
    printed = capsys.readouterr().out.replace(str(out), " ").replace("index.txt", " ")
    read = Read("zh-TW")  # the demo's players are named in the language too
    read.texts = [("demo", line) for line in printed.splitlines()]
    assert len(read.texts) > 50 and read.texts[0][1].startswith("離線示範：兩河流域")
    assert english_words(read) == {}
