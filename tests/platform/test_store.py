"""The store on both backends (a SQLite file, a PostgreSQL server): schema, constraints,
version checks, restarts. Tests named for SQLite run on SQLite only."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from dataclasses import FrozenInstanceError, fields
from pathlib import Path

import asyncpg
import pytest

from bot.store import (
    KEEP,
    MIGRATIONS,
    ChannelBusy,
    GameRow,
    KeptMessage,
    NewMove,
    SeatRow,
    StepWrite,
    Store,
    StoreError,
    TimerGone,
    VersionConflict,
)
from bot.store import postgres as pg
from tests.conftest import BOTH_BACKENDS
from tests.support import frozen_schema, raw_sql
from tests.support.stored import running_oracle


async def _move(store: Store, game, seat: int, action: str, state) -> None:
    """One step as the service commits it: a move row and the state it produced."""
    await store.commit_step(
        game, StepWrite(state=state, status="running", moves=[NewMove(seat, action)])
    )


async def test_a_fresh_sqlite_database_is_migrated_in_wal_mode(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "z.db")
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "z.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "seats", "moves", "timers", "closed_dms"} <= tables


@BOTH_BACKENDS
async def test_one_unfinished_game_per_channel_is_enforced_by_the_database(store: Store) -> None:
    await store.create_game(
        guild_id=1,
        channel_id=7,
        game_type="oracle",
        creator_id=1,
        creator_name="A",
        options={},
        seed=1,
    )
    with pytest.raises(ChannelBusy):
        await store.create_game(
            guild_id=1,
            channel_id=7,
            game_type="oracle",
            creator_id=2,
            creator_name="B",
            options={},
            seed=2,
        )
    # a different channel is fine
    await store.create_game(
        guild_id=1,
        channel_id=8,
        game_type="oracle",
        creator_id=2,
        creator_name="B",
        options={},
        seed=2,
    )


@BOTH_BACKENDS
async def test_a_finished_game_frees_its_channel(store: Store) -> None:
    game = await running_oracle(store, channel=3)
    await store.set_status(game, "abandoned")
    again = await store.create_game(
        guild_id=1,
        channel_id=3,
        game_type="oracle",
        creator_id=1,
        creator_name="A",
        options={},
        seed=1,
    )
    assert again.status == "lobby"
    latest = await store.latest_game_in(3)
    assert latest is not None and latest.id == again.id


@BOTH_BACKENDS
async def test_start_reorders_seats_and_assigns_colours(store: Store) -> None:
    game = await running_oracle(store)
    assert [(s.seat, s.user_id, s.colour) for s in game.seats] == [
        (0, 11, "#111111"),
        (1, 10, "#222222"),
    ]
    assert game.status == "running" and game.state == {"n": 0}


@BOTH_BACKENDS
async def test_stale_version_writes_nothing(store: Store) -> None:
    game = await running_oracle(store)
    await _move(store, game, 0, "a", {"n": 1})
    before = await store.raw_game(game.id)
    with pytest.raises(VersionConflict):
        await _move(store, game, 1, "b", {"n": 99})
    assert await store.raw_game(game.id) == before


@BOTH_BACKENDS
async def test_moves_are_append_only(store: Store) -> None:
    game = await running_oracle(store)
    await _move(store, game, 0, "a", {"n": 1})
    with pytest.raises(Exception, match="append-only"):
        await raw_sql.execute(store, "UPDATE moves SET action = 'forged'")
    assert [m.action for m in await store.moves(game.id)] == ["a"]


@BOTH_BACKENDS
async def test_restart_keeps_every_committed_move(database_url: str) -> None:
    path = database_url
    store = await Store.open(path)
    game = await running_oracle(store)
    for n in range(1, 31):
        await _move(store, game, n % 2, f"move {n}", {"n": n})
        game = await store.get_game(game.id)
    await store.close()

    reopened = await Store.open(path)
    try:
        again = await reopened.get_game(game.id)
        assert again is not None and again.state == {"n": 30} and again.version == game.version
        moves = await reopened.moves(game.id)
        assert [m.action for m in moves] == [f"move {n}" for n in range(1, 31)]
        assert [m.seq for m in moves] == list(range(1, 31))
        assert [m.action for m in await reopened.moves(game.id, last=3)] == [
            "move 28",
            "move 29",
            "move 30",
        ]
    finally:
        await reopened.close()


@BOTH_BACKENDS
async def test_lobby_leave_renumbers_seats(store: Store) -> None:
    game = await store.create_game(
        guild_id=1,
        channel_id=4,
        game_type="oracle",
        creator_id=1,
        creator_name="A",
        options={},
        seed=1,
    )
    for user in (2, 3, 4):
        await store.add_seat(game, user, f"U{user}")
        game = await store.get_game(game.id)
    await store.remove_seat(game, 2)
    game = await store.get_game(game.id)
    assert [(s.seat, s.user_id) for s in game.seats] == [(0, 1), (1, 3), (2, 4)]


@BOTH_BACKENDS
async def test_timers_come_back_in_due_order(store: Store) -> None:
    game = await running_oracle(store)
    await store.replace_timers(game.id, "reminder", 200.0)
    await store.replace_timers(game.id, "deadline", 100.0)
    await store.replace_timers(game.id, "reminder", 300.0)  # replaces the first
    first = await store.next_timer()
    assert first is not None and (first.kind, first.due_at) == ("deadline", 100.0)
    assert [(t.kind, t.due_at) for t in await store.timers(game.id)] == [
        ("deadline", 100.0),
        ("reminder", 300.0),
    ]
    assert await store.delete_timer(first.id)
    assert not await store.delete_timer(first.id)


@BOTH_BACKENDS
async def test_closed_dms_are_remembered_and_announced_once_per_game(store: Store) -> None:
    assert not await store.dms_closed(5)
    await store.mark_dms_closed(5)
    assert await store.dms_closed(5)
    await store.mark_dms_closed(6)
    assert await store.dms_closed_among([4, 5, 6, 7]) == {5, 6}
    assert await store.dms_closed_among([]) == set()
    assert await store.note_dm_announcement(5, 1)
    assert not await store.note_dm_announcement(5, 1)
    assert await store.note_dm_announcement(5, 2)
    await store.mark_dms_open(5)
    assert not await store.dms_closed(5)
    assert await store.dms_closed_among([5, 6]) == {6}


@BOTH_BACKENDS
async def test_what_posting_a_message_reads_is_read_in_one_statement(store: Store) -> None:
    game = await running_oracle(store)
    other = await running_oracle(store, channel=2)
    await store.set_message(game.id, "live", 7, 71)
    await store.set_message(game.id, "tally", 7, 71, '["head", "tail"]')
    await store.set_message(other.id, "live", 8, 81)
    await store.set_notify(10, "dm")
    await store.set_notify(12, "both")
    await store.mark_dms_closed(11)
    await store.mark_dms_closed(13)
    sent: list[str] = []
    await store.trace(sent.append)
    reads = await store.message_reads(game.id, [10, 11, 12])
    await asyncio.sleep(0)  # a statement reaches the trace on the loop's next turn
    await store.trace(None)
    # (asyncpg's own introspection of a new statement's types aside)
    assert len([sql for sql in sent if "FROM game_messages" in sql]) == 1
    assert len([sql for sql in sent if "FROM" in sql and "pg_" not in sql]) == 1
    assert reads.kept == await store.messages(game.id)
    assert reads.kept == {
        "live": KeptMessage(7, 71, None),
        "tally": KeptMessage(7, 71, '["head", "tail"]'),
    }
    assert reads.notify == await store.notify_choices([10, 11, 12]) == {10: "dm", 12: "both"}
    assert reads.dms_closed == await store.dms_closed_among([10, 11, 12]) == {11}
    # no game: only the users'; nobody: only the game's
    assert await store.message_reads(None, [13]) == ({}, {}, {13})
    assert await store.message_reads(other.id, []) == (
        {"live": KeptMessage(8, 81, None)},
        {},
        set(),
    )


@BOTH_BACKENDS
async def test_a_dm_refusal_expires_for_retries_but_is_still_known(store: Store) -> None:
    await store.mark_dms_closed(8)
    assert await store.dms_closed(8, retry_after=3600)
    assert await store.note_dm_announcement(8, 1)
    # an old refusal: a retry is due, but the user is still known to be closed
    await raw_sql.execute(store, "UPDATE closed_dms SET since = since - 7200 WHERE user_id = 8")
    assert not await store.dms_closed(8, retry_after=3600)
    assert await store.dms_closed(8)
    await store.mark_dms_closed(8)  # refused again: the clock restarts, the notice stays given
    assert await store.dms_closed(8, retry_after=3600)
    assert not await store.note_dm_announcement(8, 1)


async def test_version_one_sqlite_databases_are_migrated_forward(tmp_path: Path) -> None:
    """A database made by migration 1 alone gains the language column, data kept."""
    from bot.store import sqlite as store_module

    path = tmp_path / "old.db"
    first = store_module.MIGRATIONS
    store_module.MIGRATIONS = first[:1]
    try:
        old = await Store.open(path)
        assert await old.schema_version() == 1
        await old.close()
        with sqlite3.connect(path) as raw:
            raw.execute(
                "INSERT INTO games (channel_id, game_type, status, creator_id, seed, created_at,"
                " updated_at) VALUES (1, 'oracle', 'lobby', 5, 1, 0, 0)"
            )
    finally:
        store_module.MIGRATIONS = first
    new = await Store.open(path)
    try:
        assert await new.schema_version() == len(first)
        game = await new.open_game_in(1)
        assert game is not None and game.language == "en" and game.creator_id == 5
    finally:
        await new.close()


@BOTH_BACKENDS
async def test_two_processes_on_one_database_commit_a_step_once(database_url: str) -> None:
    """Two stores on one database (two bot processes): the same step from the same
    version commits once; the other gets VersionConflict and writes nothing."""
    first, second = await Store.open(database_url), await Store.open(database_url)
    try:
        game = await running_oracle(first)
        results = await asyncio.gather(
            _move(first, game, 0, "from first", {"n": 1}),
            _move(second, game, 0, "from second", {"n": 2}),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        assert sum(isinstance(r, VersionConflict) for r in results) == 1
        moves = await second.moves(game.id)
        assert len(moves) == 1
        stored = await first.get_game(game.id)
        assert stored is not None and stored.version == game.version + 1
        assert stored.state == {"n": 1 if moves[0].action == "from first" else 2}
    finally:
        await first.close()
        await second.close()


@BOTH_BACKENDS
async def test_a_timer_is_fired_by_one_step_only(store: Store) -> None:
    game = await running_oracle(store)
    timer = await store.add_timer(50.0, "clock", game.id, name="turn")
    step = StepWrite(
        state={"n": 1}, status="running", moves=[NewMove(0, "t", kind="timeout")], fired=timer
    )
    await store.commit_step(game, step)
    again = await store.get_game(game.id)
    assert again is not None
    before = await store.raw_game(game.id)
    with pytest.raises(TimerGone):
        await store.commit_step(again, step)
    assert await store.raw_game(game.id) == before


@BOTH_BACKENDS
async def test_a_seat_cannot_go_to_someone_already_seated(store: Store) -> None:
    game = await running_oracle(store)
    with pytest.raises(StoreError):
        await store.replace_player(game, 0, 10, "Ann again")
    assert await store.get_game(game.id) == game


@BOTH_BACKENDS
async def test_computer_seats_their_move_timer_and_their_statistics(store: Store) -> None:
    game = await store.open_seated_lobby(
        guild_id=1,
        channel_id=3,
        game_type="oracle",
        creator_id=10,
        seats=[(10, "Ann"), (-1, "Robot", "easy")],
        options={},
        seed=5,
    )
    await store.add_seat(game, -2, "Robot 2", computer="strong")
    game = await store.get_game(game.id)
    assert [(s.user_id, s.computer) for s in game.seats] == [
        (10, None),
        (-1, "easy"),
        (-2, "strong"),
    ]
    await store.start_game(game, {"n": 0}, [10, -1, -2], ["#1", "#2", "#3"])
    game = await store.get_game(game.id)

    async def step(due) -> list[float]:
        nonlocal game
        await store.commit_step(game, StepWrite({"n": 1}, "running", [], computer=due))
        game = await store.get_game(game.id)
        return [t.due_at for t in await store.timers(game.id) if t.kind == "computer"]

    assert await step(50.0) == [50.0]
    assert await step(80.0) == [50.0]  # one already set keeps its due time
    assert await step(KEEP) == [50.0]
    assert await step(None) == []
    await store.replace_player(game, 2, 12, "Cid")  # back to a member
    game = await store.get_game(game.id)
    assert (game.seats[2].user_id, game.seats[2].computer) == (12, None)
    await store.commit_step(
        game,
        StepWrite({"n": 2}, "finished", [], results={0: (1, 9), 1: (2, 5), 2: (3, 1)}),
    )
    results = await store.guild_results(1)
    assert results.games == {} and results.computer_games == {"oracle": 1}
    assert sorted((p.user_id, p.computers) for p in results.players) == [(10, True), (12, True)]
    (mine,) = await store.member_results(1, 10)
    assert (mine.played, mine.wins, mine.computers) == (1, 1, True)


@BOTH_BACKENDS
async def test_a_loaded_row_is_its_dataclass_with_every_field_of_its_type(store: Store) -> None:
    # decode_game builds the rows without their __init__: each field set, of its type,
    # equal to the row its __init__ builds from the same values (a seat hashing as it)
    game = await store.open_seated_lobby(
        guild_id=None,
        channel_id=4,
        game_type="oracle",
        creator_id=10,
        seats=[(10, "Ann"), (-1, "Robot", "easy")],
        options={"deadline": "1h"},
        seed=5,
    )
    await store.start_game(game, {"n": 0}, [10, -1], ["#1", "#2"], told={0: {"hand": [1]}})
    game = await store.get_game(game.id)
    await store.commit_step(
        game,
        StepWrite(
            {"n": 1},
            "running",
            [NewMove(0, "play 1")],
            deadlines={"round:1": 7.5},
            seats={1: {"auto": 1, "timeouts": 2}},
        ),
    )
    game = await store.get_game(game.id)
    assert game is not None
    for row in (game, await store.open_game_in(4)):
        assert row is not None
        _every_field_of_its_type(row)
        assert [(s.user_id, s.auto, s.timeouts, s.computer) for s in row.seats] == [
            (10, False, 0, None),
            (-1, True, 2, "easy"),
        ]
        assert row.seats[1].secret is not None and "secret" not in repr(row)
        assert (row.guild_id, row.options, row.state) == (None, {"deadline": "1h"}, {"n": 1})
        assert row.deadlines == {"round:1": 7.5} and row.told_views() == {0: {"hand": [1]}}
        assert row.paused is None
    await store.pause(game, [["deadline", "round:1", 60.0]])
    paused = await store.get_game(game.id)
    assert paused is not None and paused.paused == [["deadline", "round:1", 60.0]]
    _every_field_of_its_type(paused)


def _every_field_of_its_type(row: GameRow) -> None:
    assert set(vars(row)) == {f.name for f in fields(GameRow)}
    built = GameRow(**{f.name: getattr(row, f.name) for f in fields(GameRow)})
    assert built == row and repr(built) == repr(row)
    for seat in row.seats:
        assert set(vars(seat)) == {f.name for f in fields(SeatRow)}
        again = SeatRow(**{f.name: getattr(seat, f.name) for f in fields(SeatRow)})
        assert again == seat and hash(again) == hash(seat)
        assert type(seat.auto) is bool and type(seat.seat) is int
    assert type(row.created_at) is float and type(row.version) is int
    with pytest.raises(FrozenInstanceError):
        row.version = 99  # type: ignore[misc]


async def test_a_fresh_postgres_database_is_migrated(postgres_server) -> None:
    name = postgres_server.create_database(migrated=False)
    try:
        store = await Store.open(postgres_server.url(name))
        try:
            assert await store.schema_version() == len(MIGRATIONS)  # numbered as SQLite
            tables = {
                r[0]
                for r in await raw_sql.execute(
                    store, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                )
            }
            assert set(pg.TABLES) <= tables
        finally:
            await store.close()
        again = await Store.open(postgres_server.url(name))  # a second open migrates nothing
        assert await again.schema_version() == len(MIGRATIONS)
        await again.close()
    finally:
        postgres_server.drop_database(name)


def _sqlite_schema(path: Path) -> list[tuple[str, str, str]]:
    """Every table, index and trigger of a SQLite file: (type, name, its SQL, spaces folded)."""
    with contextlib.closing(sqlite3.connect(path)) as raw:
        found = raw.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        ).fetchall()
    return [(kind, name, " ".join(sql.split())) for kind, name, sql in found]


async def _postgres_schema(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every column, index, constraint, trigger and function (spaces folded) and each
    table's storage parameters of a PostgreSQL database."""
    queries = {
        "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable,"
        " column_default, is_identity FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY 1, 3",
        "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
        " ORDER BY 1",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
        " FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
        "triggers": "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger"
        " WHERE NOT tgisinternal ORDER BY 1",
        "functions": "SELECT proname, prosrc FROM pg_proc"
        " WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
        "storage": "SELECT relname, reloptions FROM pg_class"
        " WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1",
    }
    found = {part: await raw_sql.execute(store, sql) for part, sql in queries.items()}
    found["functions"] = [(name, " ".join(body.split())) for name, body in found["functions"]]
    return found


#: a running game with a seat and a move, in the columns every shipped schema has
OLD_GAME = (
    "INSERT INTO games (channel_id, game_type, status, creator_id, seed, state, created_at,"
    " updated_at) VALUES (1, 'oracle', 'running', 5, 1, '{}', 0, 0)",
    "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at)"
    " VALUES (1, 0, 5, 'Ann', 0)",
    "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (1, 1, 0, 'a', 0)",
)


async def _the_old_game_reads_back_and_a_new_one_starts(store: Store) -> None:
    game = await store.open_game_in(1)
    assert game is not None and game.id == 1 and game.creator_id == 5
    assert game.language == "en" and game.state == {}
    assert [(s.display_name, s.computer, s.status) for s in game.seats] == [
        ("Ann", None, "playing")
    ]
    assert [m.action for m in await store.moves(game.id)] == ["a"]
    await running_oracle(store, channel=2)  # the new columns and ids work for new rows
    assert [m.seq for m in await store.moves(game.id)] == [1]


@pytest.mark.parametrize("version", range(1, len(frozen_schema.SQLITE_MIGRATIONS) + 1))
async def test_a_sqlite_database_made_by_a_shipped_schema_migrates_to_the_fresh_one(
    tmp_path: Path, version: int
) -> None:
    """A file made by the scripts SQLite shipped, up to any of their numbers, is brought to
    exactly the schema a fresh file gets from the one list, its rows kept."""
    old, fresh = tmp_path / "old.db", tmp_path / "fresh.db"
    with contextlib.closing(sqlite3.connect(old, isolation_level=None)) as raw:
        for script in frozen_schema.SQLITE_MIGRATIONS[:version]:
            raw.executescript(script)
        raw.execute(f"PRAGMA user_version = {version}")
        for statement in OLD_GAME:
            raw.execute(statement)
    store = await Store.open(old)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        await _the_old_game_reads_back_and_a_new_one_starts(store)
    finally:
        await store.close()
    await (await Store.open(fresh)).close()
    assert _sqlite_schema(old) == _sqlite_schema(fresh)


@pytest.mark.parametrize(
    "version",
    range(
        frozen_schema.POSTGRES_FIRST,
        frozen_schema.POSTGRES_FIRST + len(frozen_schema.POSTGRES_MIGRATIONS),
    ),
)
async def test_a_postgres_database_made_by_a_shipped_schema_migrates_to_the_fresh_one(
    postgres_server, version: int
) -> None:
    """A database made by the scripts PostgreSQL shipped (numbered from 4: SQLite's schema
    as of its migration 4), up to any of their numbers, is brought to exactly the schema a
    fresh database gets from the one list, its rows kept; a member's seat plays no computer."""
    import asyncpg

    old, fresh = (postgres_server.create_database(migrated=False) for _ in range(2))
    try:
        raw = await asyncpg.connect(postgres_server.url(old))
        try:
            shipped = version - frozen_schema.POSTGRES_FIRST + 1
            for script in frozen_schema.POSTGRES_MIGRATIONS[:shipped]:
                await raw.execute(script)
            await raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await raw.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
            for statement in OLD_GAME:
                await raw.execute(statement)
        finally:
            await raw.close()
        store = await Store.open(postgres_server.url(old))
        fresh_store = await Store.open(postgres_server.url(fresh))
        try:
            assert await store.schema_version() == len(MIGRATIONS)
            await _the_old_game_reads_back_and_a_new_one_starts(store)
            assert await _postgres_schema(store) == await _postgres_schema(fresh_store)
        finally:
            await store.close()
            await fresh_store.close()
    finally:
        postgres_server.drop_database(old)
        postgres_server.drop_database(fresh)


async def test_an_unknown_postgres_database_fails_to_open_as_an_oserror(postgres_server) -> None:
    """What the start-up reports as one line (an OSError), the password not in it."""
    url = postgres_server.url("no_such_database").replace("postgres@", "postgres:s3cret@")
    with pytest.raises(OSError) as caught:
        await Store.open(url)
    assert "no_such_database" in str(caught.value) and "s3cret" not in str(caught.value)


@BOTH_BACKENDS
async def test_kept_messages_told_views_and_a_players_running_games(store: Store) -> None:
    first = await running_oracle(store, channel=7)  # seats: 11 (Ben), 10 (Ann)
    second = await running_oracle(store, channel=8)
    # the private views told: written with a hand-off, kept by a step that says nothing
    assert await store.told(first.id) is None
    await store.commit_step(
        first,
        StepWrite(state={"n": 1}, status="running", moves=[NewMove(0, "a")], told={0: {"h": [1]}}),
    )
    first = await store.get_game(first.id)
    assert first is not None
    await _move(store, first, 1, "b", {"n": 2})
    assert await store.told(first.id) == {0: {"h": [1]}}
    # a kept message and the text it is edited from; forgotten when deleted
    await store.set_message(first.id, "live", 7, 71, '["head", "tail"]')
    assert await store.message(first.id, "live") == (7, 71)
    await store.set_message(first.id, "tally", 7, 73, "[]")
    assert await store.messages(first.id) == {
        "live": KeptMessage(7, 71, '["head", "tail"]'),
        "tally": KeptMessage(7, 73, "[]"),
    }
    await store.set_message(first.id, "live", 7, 72)
    assert (await store.messages(first.id))["live"] == KeptMessage(7, 72, None)
    assert await store.messages(second.id) == {}
    # several kept and forgotten in one write: all of them, or none (a refused id)
    await store.keep_messages(
        first.id, {"live": KeptMessage(7, 74, None), "interim": KeptMessage(7, 74, None)}, ["tally"]
    )
    kept = {"live": KeptMessage(7, 74, None), "interim": KeptMessage(7, 74, None)}
    assert await store.messages(first.id) == kept
    with pytest.raises((OverflowError, asyncpg.DataError)):  # the service refuses it first
        await store.keep_messages(
            first.id, {"tally": KeptMessage(7, 75, "[]"), "x": KeptMessage(7, 2**70, None)}
        )
    assert await store.messages(first.id) == kept
    await store.keep_messages(first.id, {"live": KeptMessage(7, 72, None)}, ["interim", "none"])
    assert await store.messages(first.id) == {"live": KeptMessage(7, 72, None)}
    await store.set_message(second.id, "interim", 8, 81)
    await store.forget_message(second.id, "interim")
    assert await store.message(second.id, "interim") is None
    # a player's running games: the longest waiting first, with the newest message and
    # the turn clock's end; a finished game is not among them
    await store.add_timer(500.0, "clock", second.id, name="turn")
    await store.add_timer(300.0, "clock", second.id, name="half")
    mine = await store.player_games(10, 10, "live")
    assert [g.row.id for g in mine] == [first.id, second.id]
    assert [g.message for g in mine] == [(7, 72), None]
    assert [g.clock_ends for g in mine] == [None, 500.0]
    assert await store.player_games(99, 10, "live") == []
    assert [g.row.id for g in await store.player_games(10, 1, "live")] == [first.id]
    first = await store.get_game(first.id)
    assert first is not None
    await store.set_status(first, "abandoned")
    assert [g.row.id for g in await store.player_games(11, 10, "live")] == [second.id]
