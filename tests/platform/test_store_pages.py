"""Migration 9: PostgreSQL leaves room on each page of ``games`` for a step's new row version.

A step rewrites its game's row (the state, the version); with the room left by
``fillfactor = 70`` the new version goes on the old one's page, so the update
is a HOT one (no index touched). Checked from the catalog, by where a step's
row lands on a page that inserts filled, and by the rows stored before the
migration reading back byte for byte, on both databases (SQLite: the migration
changes nothing but its number).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.store import NewMove, StepWrite, Store, dumps
from bot.store.schema import MIGRATIONS
from tests.conftest import BOTH_BACKENDS
from tests.support import raw_sql
from tests.support.stored import started_game

#: the migration these tests are about, and the page share it sets
NUMBER = 9
FILLFACTOR = ["fillfactor=70"]


def big_state(size: int) -> dict[str, Any]:
    """A state whose JSON text is about ``size`` bytes, not all ASCII, hard to compress."""
    words = [f"{n * 7919 % 100003:05d}é{n}" for n in range(size // 12)]
    return {"board": words, "turn": 3, "note": "ziggurat 🏛"}


async def reloptions(store: Store) -> dict[str, Any]:
    found = await raw_sql.execute(
        store,
        "SELECT relname, reloptions FROM pg_class WHERE relnamespace = 'public'::regnamespace"
        " AND relkind = 'r'",
    )
    return {name: options for name, options in found}


@BOTH_BACKENDS
async def test_rows_stored_before_migration_9_read_back_byte_for_byte(
    backend: str, empty_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.store import postgres as pg
    from bot.store import sqlite as lite

    module: Any = lite if backend == "sqlite" else pg
    assert "fillfactor" in str(module.MIGRATIONS[NUMBER - 1])
    monkeypatch.setattr(module, "MIGRATIONS", module.MIGRATIONS[: NUMBER - 1])
    state, after = big_state(6000), big_state(7000)
    old = await Store.open(empty_url)
    try:
        assert await old.schema_version() == NUMBER - 1
        game = await started_game(old, "tigris", state)
        move = NewMove(0, "tile r F5", events=[["e", {}]], checkpoint=False)
        await old.commit_step(game, StepWrite(state=after, status="running", moves=[move]))
        before = await old.raw_game(game.id)
    finally:
        await old.close()
    monkeypatch.undo()
    new = await Store.open(empty_url)
    try:
        assert await new.schema_version() == len(MIGRATIONS) >= NUMBER
        assert await new.raw_game(game.id) == before
        loaded = await new.get_game(game.id)
        assert loaded is not None and loaded.state == after
        assert (await new.undo_base(loaded)).state == state
        if backend == "postgres":
            assert (await reloptions(new))["games"] == FILLFACTOR
    finally:
        await new.close()


async def test_a_fresh_postgres_database_leaves_room_on_the_pages_of_games_only(
    postgres_server: Any,
) -> None:
    name = postgres_server.create_database(migrated=False)
    try:
        store = await Store.open(postgres_server.url(name))
        try:
            found = await reloptions(store)
        finally:
            await store.close()
    finally:
        postgres_server.drop_database(name)
    assert found.pop("games") == FILLFACTOR
    assert set(found.values()) == {None}  # every other table as PostgreSQL makes it


async def _landing_page(store: Store, *, fillfactor: int | None) -> tuple[int, int]:
    """Fill the first page of ``games`` by inserts (``fillfactor`` set first, None: the
    migrations' own), then commit a step of a game on it: (its page before, after)."""
    if fillfactor is not None:
        await raw_sql.execute(store, f"ALTER TABLE games SET (fillfactor = {fillfactor})")
    state = big_state(1200)  # a row of about 1.3 KB: stored whole, not compressed
    pages: list[int] = []
    channel = 0
    while pages.count(0) == len(pages):  # until a row lands on the second page
        channel += 1
        ((ctid,),) = await raw_sql.execute(
            store,
            "INSERT INTO games (channel_id, game_type, status, creator_id, seed, state,"
            " created_at, updated_at) VALUES (?, 'tigris', 'running', 5, 1, ?, 0, 0)"
            " RETURNING ctid::text",
            channel,
            dumps(state),
        )
        pages.append(int(ctid.strip("()").split(",")[0]))
    game = await store.open_game_in(1)
    assert game is not None and pages[0] == 0
    step = StepWrite(state=big_state(1200), status="running", moves=[NewMove(0, "x")])
    await store.commit_step(game, step)
    ((ctid,),) = await raw_sql.execute(store, "SELECT ctid::text FROM games WHERE id = ?", game.id)
    return pages[0], int(ctid.strip("()").split(",")[0])


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_steps_new_row_stays_on_a_page_that_inserts_filled(store: Store) -> None:
    before, after = await _landing_page(store, fillfactor=None)
    assert (before, after) == (0, 0)  # beside the old version: a HOT update


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_full_page_sends_the_new_row_elsewhere_without_the_room(store: Store) -> None:
    """The same without migration 9's room (a page filled whole): the check above can fail."""
    before, after = await _landing_page(store, fillfactor=100)
    assert before == 0 and after != 0


def test_migration_9_is_postgres_only() -> None:
    from bot.store.schema import statements

    assert statements(MIGRATIONS[NUMBER - 1], "sqlite") == []
    assert statements(MIGRATIONS[NUMBER - 1], "postgres") == [
        "ALTER TABLE games SET (fillfactor = 70)"
    ]
