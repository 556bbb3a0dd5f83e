"""The store's JSON codec (:mod:`bot.store.codec`): orjson, the stored text unchanged.

What the store writes is the text the standard library wrote before
(``json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)``),
byte for byte: over every game's random play (all modes), over every JSON
column a fuzzed service fills on both backends, and for the values orjson
refuses. Rows written by the old code (any spacing, ``\\u`` escapes,
``NaN``) read as the standard library reads them, on both backends. And
discord.py runs on orjson too (``HAS_ORJSON``), in the tests' bot and in a
fresh interpreter as the bot starts.
"""

from __future__ import annotations

import datetime
import json
import random
import subprocess
import sys
from importlib import metadata
from typing import Any

import discord.utils
import pytest

from bot import plugins
from bot.games.base import GameEngine
from bot.service import GameService
from bot.store import Store, dumps, loads
from bot.store.codec import dumps as codec_dumps
from tests.conftest import BOTH_BACKENDS
from tests.support.fuzz import FakeClock, Fuzzer
from tests.support.modes import EVERY_MODE
from tests.support.raw_sql import execute
from tests.support.stored import started_game

GAMES = plugins.load_builtin_games()
#: (game, players, options): every game and mode
MODES = EVERY_MODE
#: every JSON column the store writes with its codec: (table, column)
JSON_COLUMNS = [
    ("games", "options"),
    ("games", "state"),
    ("games", "checkpoint_state"),
    ("games", "paused"),
    ("games", "told"),
    ("moves", "events"),
    ("timers", "payload"),
    ("closed_dms", "announced_in"),
    ("handovers", "payload"),
]


def standard(value: Any) -> str:
    """The text the store wrote before orjson."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def states(engine: GameEngine[Any, Any], seats: int, options: dict[str, str], seed: int) -> Any:
    """Every state along one game of random legal steps."""
    rng = random.Random(seed)
    state = engine.new_game(seats, options, seed)
    for _ in range(2000):
        yield state
        awaited = sorted(engine.waiting_for(state))
        if engine.result(state) is not None or not awaited:
            return
        seat = rng.choice(awaited)
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


def plain(value: Any) -> bool:
    """Whether ``value`` is made of what orjson writes as the standard library does: str
    keys, 64-bit integers, strings, lists, true/false/null (no float, no tuple)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(item) for item in value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return type(value) in (bool, str) or value is None
    return type(value) is int and -(2**63) <= value < 2**63


@pytest.mark.parametrize(("game", "seats", "options"), MODES)
def test_every_state_of_random_play_is_stored_as_before_and_reads_back(
    game: str, seats: int, options: dict[str, str]
) -> None:
    engine = GAMES[game].engine
    seen = 0
    for seed in (1, 2):
        for state in states(engine, seats, options, seed):
            data = engine.dump_state(state)
            assert plain(data), "a state holds a float, a tuple or a non-str key"
            text = dumps(data)
            assert text == standard(data)
            assert loads(text) == data
            assert engine.dump_state(engine.load_state(loads(text))) == data
            seen += 1
    assert seen > 40


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [True, False, None], "é": "中文 😀", "B": {"z": [], "y": {}}},
        '\x00\x01\x1f\x7f\u2028 "\\/\b\f\n\r\t',
        [2**63 - 1, -(2**63), 2**64 - 1, 0, -1],
        [0.1, 1.0, -0.0, 1e16, 1e22, 1764300000.123456, 5e-324],
        {"": "", "\uffff": 1, "𝔸": 2, "z": 3},
    ],
    ids=["nested", "escapes", "integers", "floats", "key-order"],
)
def test_the_canonical_text_is_the_standard_librarys(value: Any) -> None:
    assert dumps(value) == standard(value)
    assert loads(dumps(value)) == value


def test_what_orjson_refuses_is_written_as_before_or_refused() -> None:
    # int keys: sorted as integers, then written as strings
    keyed = {10: "a", 9: "b", 1: "c"}
    assert dumps(keyed) == standard(keyed) == '{"1":"c","9":"b","10":"a"}'
    deep: Any = []
    for _ in range(300):  # past orjson's nesting limit
        deep = [deep]
    assert dumps(deep) == standard(deep)
    # what the standard library refuses stays refused
    with pytest.raises(TypeError):
        dumps({"when": datetime.date(2026, 11, 28)})
    # an integer that orjson would read back as a float is not stored
    with pytest.raises(ValueError, match="64 bits"):
        dumps({"seed": 2**64})
    with pytest.raises(ValueError, match="64 bits"):
        dumps({2**70: 1})
    assert dumps is codec_dumps  # the store's one codec


def test_old_texts_read_as_the_standard_library_reads_them() -> None:
    for text in [
        '{"b": 1, "a": [1, 2.5, "\\u00e9\\u4e2d"]}',
        '[ {"x" : null} , true ]',
        '{"a": NaN, "b": Infinity, "c": -Infinity}',
        "12345678901234567890",
        '{"a": 1, "a": 2}',
    ]:
        expected = json.loads(text)
        got = loads(text)
        assert repr(got) == repr(expected), text
    assert loads(b'{"a":"\xc3\xa9"}') == {"a": "é"}
    with pytest.raises(json.JSONDecodeError):
        loads("{not json")


def test_discord_py_runs_on_orjson_in_the_tests_and_in_a_fresh_bot() -> None:
    assert discord.utils.HAS_ORJSON
    assert any(r.startswith("orjson") for r in metadata.requires("ziggurat") or [])
    fresh = subprocess.run(
        [
            sys.executable,
            "-c",
            "import bot.__main__, discord.utils; print(discord.utils.HAS_ORJSON)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fresh.stdout.strip() == "True"


@BOTH_BACKENDS
async def test_every_json_column_a_fuzzed_service_fills_holds_the_old_text(
    store: Store,
) -> None:
    registry = plugins.load_builtin_games()
    clock = FakeClock()
    service = GameService(store, registry, clock=clock, render=False, computer_pause=0.0)
    tally = await Fuzzer(service, clock, 5, levels=("easy",)).run(120)
    assert not tally.failures, (tally.line("test"), tally.examples)
    await store.hand_over(0, 1, {"kind": "tally", "names": ["王小明", "Ann"], "n": 3})
    filled = {}
    for table, column in JSON_COLUMNS:
        texts = [
            r[0] for r in await execute(store, f"SELECT {column} FROM {table}") if r[0] is not None
        ]
        for text in texts:
            assert text == standard(json.loads(text)), (table, column, text[:200])
            assert loads(text) == json.loads(text)
        filled[f"{table}.{column}"] = len(texts)
    # the run wrote what the check is for
    for name in ("games.options", "games.state", "games.told", "moves.events", "timers.payload"):
        assert filled[name] > 0, filled


@BOTH_BACKENDS
async def test_rows_written_by_the_old_code_load_unchanged(store: Store) -> None:
    state = {"n": 1, "name": "é中", "list": [1, 2.5, None]}
    game = await started_game(store, "oracle", {"n": 0})
    game_id = game.id
    events = [{"key": "log.moved", "params": {"name": "é", "points": 2}}]
    await execute(
        store,
        "INSERT INTO moves (game_id, seq, seat, action, created_at, kind, events, checkpoint)"
        " VALUES (?, 1, 0, 'go', 5.0, 'move', ?, 1)",
        game_id,
        json.dumps(events),
    )
    await execute(store, "UPDATE games SET last_seq = 1 WHERE id = ?", game_id)
    # what json.dumps wrote with its defaults: spaces, \u escapes
    await execute(
        store,
        "UPDATE games SET state = ?, options = ?, told = ?, paused = ? WHERE id = ?",
        json.dumps(state),
        json.dumps({"mode": "base", "名": "x"}),
        json.dumps({"0": {"hand": ["a", "é"]}, "1": {"hand": []}}),
        json.dumps([["deadline", "turn", 60.5]]),
        game_id,
    )
    row = await store.get_game(game_id)
    assert row is not None
    assert row.state == state
    assert row.options == {"mode": "base", "名": "x"}
    assert row.told_views() == {0: {"hand": ["a", "é"]}, 1: {"hand": []}}
    assert row.paused == [["deadline", "turn", 60.5]]
    pending = row.pending_moves()
    assert pending is not None and [m.events for m in pending] == [tuple(events)]
    assert [m.events for m in await store.moves(game_id)] == [tuple(events)]
