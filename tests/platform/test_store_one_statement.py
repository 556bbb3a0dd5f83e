"""A running step on PostgreSQL as one statement with its values bound.

A step that changes each row once (:meth:`bot.store.sql.SqlStore.start_step`'s
``disjoint``) is sent as one statement of data-modifying ``WITH`` parts, its
values bound as parameters (:func:`bot.store.postgres._one_statement`). These
tests hold it to the script of literals it replaces: the same rows stored, one
round trip, the same trace, a stale write refused with nothing written, and
two writes of one version at once: one stored, the other refused.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import KEEP, NewMove, StepWrite, Store, VersionConflict
from bot.store import postgres as pg
from tests.support.postgres import PostgresServer
from tests.support.stored import running_oracle

#: columns written from the clock at the commit (``time.time()``), compared by presence only
WALL_CLOCK = {"created_at", "updated_at", "waiting_since", "started_at", "joined_at"}


#: running steps covering what a disjoint step writes: moves and their events, the
#: checkpoint, publication and told marks, a seat's status, and each kind of timer set,
#: kept and dropped
STEPS = [
    StepWrite(
        state={"n": 1, "said": 'l\'été \\ "quoted" ☃'},
        status="running",
        moves=[NewMove(0, "a 'b'", events=[["move.x", {"seat": 0}]]), NewMove(0, "c")],
        deadlines={"round": 1e9, "it's": 2e9},
        reminder=3e9,
        computer=4e9,
    ),
    StepWrite(
        state={"n": 2},
        status="running",
        moves=[NewMove(1, "d", checkpoint=True)],
        waiting_changed=True,
        published=True,
        told={0: {"hand": [1, 2]}, 1: {"hand": []}},
        seats={1: {"status": "absent", "timeouts": 2, "auto": True}},
        deadlines={"round": 5e9},
        reminder=None,
        computer=None,
    ),
    StepWrite(
        state={"n": 3, "list": [1, 2.5, None]},
        status="running",
        moves=[NewMove(0, "undo", kind="undo")],
        told=KEEP,
        deadlines={},
        computer=6e9,
    ),
    # a due time as an int (a clock that ticks in whole seconds)
    StepWrite(
        state={"n": 4},
        status="running",
        moves=[NewMove(1, "e")],
        deadlines=KEEP,
        reminder=7 * 10**9,
    ),
]


async def _rows(store: pg.PostgresStore, game_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of the game in the tables a step writes, wall-clock columns by presence."""
    found: dict[str, list[dict[str, Any]]] = {}
    for table, order in (
        ("games", "id"),
        ("moves", "seq"),
        ("seats", "seat"),
        ("timers", "kind, name"),
    ):
        key = "id" if table == "games" else "game_id"
        rows = await store.write(
            lambda db, table=table, key=key, order=order: db.fetch(
                f"SELECT * FROM {table} WHERE {key} = $1 ORDER BY {order}", game_id
            )
        )
        found[table] = [
            {
                name: (value is not None) if name in WALL_CLOCK else value
                for name, value in dict(row).items()
                if name != "id" or table == "games"
            }
            for row in rows
        ]
    return found


async def _played(
    postgres_server: PostgresServer, *, one_statement: bool
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    name = postgres_server.create_database()
    store = await Store.open(postgres_server.url(name))
    assert isinstance(store, pg.PostgresStore)
    try:
        store.one_statement = one_statement  # off: the script of literals, as before
        game = await running_oracle(store)
        sent: list[str] = []
        run: list[str] = []
        run_script = store._run_script

        async def recorded(script: str, sent_: Any = None, args: Any = ()) -> None:
            run.append(script)
            await run_script(script, sent_, args)

        store._run_script = recorded  # type: ignore[method-assign]
        await store.trace(sent.append)
        for step in STEPS:
            await store.commit_step(game, step)
            game = await store.get_game(game.id)
        await store.trace(None)
        assert len(run) == len(STEPS)  # each step in one round trip, none run again
        bound = [script.startswith(pg.SCRIPT_MARK + "WITH w0 AS") for script in run]
        assert bound == [one_statement] * len(STEPS), run
        return await _rows(store, game.id), sent
    finally:
        await store.close()
        postgres_server.drop_database(name)


async def test_a_disjoint_step_stores_exactly_what_the_script_stored(
    postgres_server: PostgresServer,
) -> None:
    scripted, scripted_sent = await _played(postgres_server, one_statement=False)
    bound, bound_sent = await _played(postgres_server, one_statement=True)
    for table in scripted:
        assert bound[table] == scripted[table], (table, bound[table], scripted[table])
    # one round trip a step (and the load after it), traced as the same statements
    assert bound_sent == scripted_sent and len(bound_sent) == 2 * len(STEPS)
    writes = [s for s in bound_sent if s.startswith("UPDATE games SET version = version + 1")]
    assert len(writes) == len(STEPS) and all("INSERT INTO moves" in s for s in writes)
    assert {(t["kind"], t["name"], t["due_at"]) for t in bound["timers"]} == {
        ("computer", "", 6e9),
        ("reminder", "", 7e9),
    }
    assert [m["action"] for m in bound["moves"]] == ["a 'b'", "c", "d", "undo", "e"]
    assert bound["games"][0]["version"] == 1 + 1 + len(STEPS)  # created, started, the steps
    assert [(s["status"], s["timeouts"], s["auto"]) for s in bound["seats"]][1] == (
        "absent",
        2,
        1,
    )


async def test_a_disjoint_step_is_one_statement_with_its_values_bound(
    postgres_server: PostgresServer,
) -> None:
    name = postgres_server.create_database()
    store = await Store.open(postgres_server.url(name))
    assert isinstance(store, pg.PostgresStore)
    try:
        game = await running_oracle(store)
        sent: list[str] = []
        calls: list[tuple[str, tuple[Any, ...]]] = []
        run_script = store._run_script

        async def recorded(script: str, sent_: Any = None, args: Any = ()) -> None:
            calls.append((script, tuple(args)))
            await run_script(script, sent_, args)

        store._run_script = recorded  # type: ignore[method-assign]
        await store.trace(sent.append)
        await store.commit_step(game, STEPS[0])
        await store.trace(None)
        ((statement, args),) = calls
        assert statement.startswith(pg.SCRIPT_MARK + "WITH ") and ";" not in statement
        assert "l'été" not in statement and STEPS[0].moves[0].action not in statement
        assert any(isinstance(a, str) and "l'été" in a for a in args)
        assert len(sent) == 1 and not sent[0].startswith(pg.SCRIPT_MARK)
    finally:
        await store.close()
        postgres_server.drop_database(name)


async def test_a_stale_disjoint_step_is_refused_with_nothing_written(
    postgres_server: PostgresServer,
) -> None:
    name = postgres_server.create_database()
    store = await Store.open(postgres_server.url(name))
    try:
        game = await running_oracle(store)
        await store.commit_step(game, STEPS[0])
        before = await store.raw_game(game.id)
        moves = await store.moves(game.id)
        with pytest.raises(VersionConflict):  # the row it was computed from is stale
            await store.commit_step(game, STEPS[3])
        assert await store.raw_game(game.id) == before
        assert await store.moves(game.id) == moves
        # two writes of one version at the same instant: one is stored, the other refused
        game = await store.get_game(game.id)
        first, second = await asyncio.gather(
            store.commit_step(game, StepWrite(state={"n": 10}, status="running", moves=[])),
            store.commit_step(game, StepWrite(state={"n": 11}, status="running", moves=[])),
            return_exceptions=True,
        )
        refused = [r for r in (first, second) if isinstance(r, VersionConflict)]
        stored = [r for r in (first, second) if not isinstance(r, BaseException)]
        assert len(refused) == 1 and len(stored) == 1, (first, second)
        after = await store.get_game(game.id)
        assert after is not None and after.version == game.version + 1
        assert after.state == ({"n": 10} if first is stored[0] else {"n": 11})
    finally:
        await store.close()
        postgres_server.drop_database(name)


def test_a_steps_statement_is_made_once_per_shape_its_values_bound_each_time() -> None:
    """Two steps of one shape share the statement's text (made once, then cached), each
    with its own values; another count of moves is another shape, numbered on."""
    from bot.store.plan import many, run

    insert = "INSERT INTO moves (game_id, seq, seat, action) VALUES (:g, :s, 0, :a)"
    bump = "UPDATE games SET state = :state WHERE id = :g"

    def ops(state: str, actions: list[str]) -> list[Any]:
        rows = [{"g": 7, "s": n, "a": a} for n, a in enumerate(actions, start=1)]
        return [run(bump, state=state, g=7), many(insert, rows)]

    first, first_args = pg._one_statement(ops("{}", ["a"]))
    again, again_args = pg._one_statement(ops('{"n":1}', ["b"]))
    longer, longer_args = pg._one_statement(ops("{}", ["a", "b"]))
    assert first is again and first_args != again_args
    assert again_args == ['{"n":1}', 7, 7, 1, "b"]
    assert first is not None and longer is not None and "$8" not in first
    assert longer.count("INSERT INTO moves") == 2 and "($6, $7, 0, $8)" in longer
    assert longer_args == ["{}", 7, 7, 1, "a", 7, 2, "b"]
    assert pg._one_statement([many(insert, [])]) == (None, [])
