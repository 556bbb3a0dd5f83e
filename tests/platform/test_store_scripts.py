"""A step on PostgreSQL in one round trip: a plan sent as one script of literals.

The script path (:mod:`bot.store.postgres`) writes values as SQL literals and
lets the server check the expected counts; these tests hold it to the
statement-by-statement path it replaces: every value comes back as it went
in, a step is one round trip carrying the same statements, and whatever the
script cannot do (a lost version check, a fired timer already gone, a unique
index, a server without ``standard_conforming_strings``) ends as it always did.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import NewMove, StepWrite, Store, TimerGone, VersionConflict
from bot.store.plan import count, many, run, speculate
from bot.store.postgres import PostgresStore, literal
from tests.support.postgres import PostgresServer
from tests.support.stored import running_oracle

TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)))


async def _opened(postgres_server: PostgresServer) -> tuple[PostgresStore, str]:
    name = postgres_server.create_database()
    store = await Store.open(postgres_server.url(name))
    assert isinstance(store, PostgresStore)
    return store, name


def test_a_literal_is_refused_where_it_would_not_mean_the_value() -> None:
    assert literal(None) == "NULL"
    assert literal(True) == "1" and literal(False) == "0"
    assert literal(-3) == "(-3)" and literal(-0.5) == "(-0.5)"
    assert literal("it's") == "'it''s'"
    assert literal([]) == "'{}'"
    for unwritten in (math.inf, math.nan, "a\x00b", b"bytes", {"a": 1}, [[1]], [object()]):
        assert literal(unwritten) is None, unwritten


def test_a_plan_is_stepped_ahead_only_when_it_reads_nothing_but_expected_counts() -> None:
    def blind() -> Any:
        changed = yield count("UPDATE games SET version = 2 WHERE id = :id", id=1).expecting(1)
        assert changed == 1
        yield run("DELETE FROM timers WHERE game_id = :id", id=1)
        yield many("INSERT INTO moves (game_id) VALUES (:id)", [{"id": 1}, {"id": 2}])
        return "done"

    def reading() -> Any:
        changed = yield count("DELETE FROM timers WHERE id = :id", id=1)
        return changed

    ahead = speculate(blind)
    assert ahead is not None
    ops, result = ahead
    assert [op.kind for op in ops] == ["count", "run", "many"] and result == "done"
    assert speculate(reading) is None
    with pytest.raises(ValueError):
        run("DELETE FROM timers").expecting(1)


async def test_every_literal_reads_back_as_the_value(postgres_server: PostgresServer) -> None:
    store, name = await _opened(postgres_server)

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        text=TEXT,
        number=st.integers(-(2**63), 2**63 - 1),
        real=st.floats(allow_nan=False, allow_infinity=False),
        names=st.lists(TEXT, max_size=4),
    )
    def check(text: str, number: int, real: float, names: list[str]) -> None:
        checked.append((text, number, real, names))

    checked: list[tuple[str, int, float, list[str]]] = []
    check()
    try:
        for text, number, real, names in checked:
            query = (
                f"SELECT {literal(text)}::text, {literal(number)}::bigint,"
                f" {literal(real)}::float8, {literal(names)}::text[]"
            )
            row = await store.write(lambda db, query=query: db.fetchrow(query))
            assert tuple(row) == (text, number, real, names), query
    finally:
        await store.close()
        postgres_server.drop_database(name)


async def test_a_step_is_one_round_trip_with_the_same_statements(
    postgres_server: PostgresServer,
) -> None:
    store, name = await _opened(postgres_server)
    try:
        game = await running_oracle(store)
        sent: list[str] = []
        await store.trace(sent.append)
        step = StepWrite(
            state={"n": 1, "said": 'l\'été \\ "quoted"'},
            status="running",
            moves=[NewMove(0, "a 'b'", events=[{"key": "x"}]), NewMove(0, "c")],
            deadlines={"round": 1e9, "it's": 2e9},
            reminder=3e9,
        )
        await store.commit_step(game, step)
        await store.trace(None)
        assert len(sent) == 1, sent  # one round trip
        statements = sent[0].split(";\n")
        assert statements[0].startswith("UPDATE games SET version = version + 1")
        assert sum(s.startswith("INSERT INTO moves") for s in statements) == 2
        after = await store.get_game(game.id)
        assert after is not None and after.version == game.version + 1
        assert after.state == step.state and after.last_seq == game.last_seq + 2
        moves = await store.moves(game.id)
        assert [m.action for m in moves[-2:]] == ["a 'b'", "c"]
        timers = {(t.kind, t.name): t.due_at for t in await store.timers(game.id)}
        assert timers == {
            ("deadline", "round"): 1e9,
            ("deadline", "it's"): 2e9,
            ("reminder", ""): 3e9,
        }
    finally:
        await store.close()
        postgres_server.drop_database(name)


async def test_what_a_script_cannot_do_ends_as_one_statement_at_a_time_would(
    postgres_server: PostgresServer,
) -> None:
    store, name = await _opened(postgres_server)
    try:
        game = await running_oracle(store)
        step = StepWrite(state={"n": 1}, status="running", moves=[NewMove(0, "a")])
        await store.commit_step(game, step)
        before = await store.raw_game(game.id)
        with pytest.raises(VersionConflict):  # the same version again: the check fails
            await store.commit_step(game, step)
        assert await store.raw_game(game.id) == before
        game = await store.get_game(game.id)
        timer = await store.add_timer(1.0, "deadline", game.id, name="round")
        await store.delete_timer(timer)
        before = await store.raw_game(game.id)
        with pytest.raises(TimerGone):  # the fired timer is gone: its check fails
            await store.commit_step(
                game, StepWrite(state={"n": 2}, status="running", moves=[], fired=timer)
            )
        assert await store.raw_game(game.id) == before
    finally:
        await store.close()
        postgres_server.drop_database(name)


async def test_without_standard_conforming_strings_a_step_goes_statement_by_statement(
    postgres_server: PostgresServer,
) -> None:
    """A step that is not disjoint (a turn clock replaced) needs the script's literals:
    without ``standard_conforming_strings`` it goes statement by statement; a disjoint
    one binds its values, so it is still one statement."""
    name = postgres_server.create_database()
    postgres_server.sql(f"ALTER DATABASE {name} SET standard_conforming_strings = off")
    store = await Store.open(postgres_server.url(name))
    try:
        assert isinstance(store, PostgresStore) and not store.scripts
        game = await running_oracle(store)
        sent: list[str] = []
        await store.trace(sent.append)
        await store.commit_step(
            game,
            StepWrite(
                state={"said": "a\\'b"},
                status="running",
                moves=[NewMove(0, "a")],
                clock={"turn": 5e9},
            ),
        )
        await store.trace(None)
        assert len(sent) > 3 and not any(";\n" in s for s in sent)
        after = await store.get_game(game.id)
        assert after is not None and after.state == {"said": "a\\'b"}
        sent.clear()
        await store.trace(sent.append)
        await store.commit_step(
            after, StepWrite(state={"said": "b\\'c"}, status="running", moves=[NewMove(1, "b")])
        )
        await store.trace(None)
        assert len(sent) == 1, sent
        after = await store.get_game(game.id)
        assert after is not None and after.state == {"said": "b\\'c"}
    finally:
        await store.close()
        postgres_server.drop_database(name)
