"""What the PostgreSQL server spends on a move's write and load, under each way of storing a state.

Prints figures, each beside its floor measured in the same run; asserts nothing.
A throwaway server (the tests' server, ``fsync`` on, ``pg_stat_statements``
loaded) holds one fresh database per *way* (:data:`WAYS`: the table as the
migrations leave it, or with a setting of the state's columns changed on top);
each gets ``--games`` Tigris games through the service (``bench_scale.py``'s),
then ``--moves`` single moves, one after another, are timed as
``bench_scale.py`` times them (a move's wall time, its reads, its write, the
loop's CPU), and the server is asked what those moves cost it:

* per statement (``pg_stat_statements``, reset before the moves): calls, mean
  execution time, plannings and their mean, WAL bytes, buffers dirtied and
  touched a call, for the step's write and the game's load;
* the WAL a move wrote (``pg_current_wal_insert_lsn`` before and after);
* HOT updates against all updates of ``games`` and ``timers``
  (``pg_stat_user_tables``, read once the store's connections ended: a
  backend flushes its table statistics at most once a second while it lives);
* how the state is stored: its text's bytes, its stored size
  (``pg_column_size``), its compression (``pg_column_compression``), the
  TOAST table's size;
* one step's statement under ``EXPLAIN (ANALYZE, BUFFERS, WAL)``, in a
  transaction rolled back before the step runs as always (before the counting).

The ways run in rounds, the order reversed every other round (the first way
first and last), so a machine's drift reaches them alike; the floor (a bare
``INSERT`` committed, a bare read by key, through asyncpg) is measured on the
same database right after each way's moves.

Then, with ``--temple N``, N sealed steps of Temple Rush (:func:`temple_steps`): the
statements each step writes, those that change timers, and the step's server time.

Usage: ``python scripts/bench_pg_server.py [--games 1000] [--moves 300] [--rounds 2]
[--ways base,lz4,...] [--temple 400]`` (``--ways ""``: the Temple Rush part alone)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_floors import floor_commit_postgres, floor_read_postgres
from bench_scale import Split, create_games, load, pct, single_moves
from loops import add_loop_argument, run

from bot import plugins
from bot.games.base import RuleError
from bot.service import GameService, Player
from bot.store import Store

#: the game's JSON columns that grow with the game (the state, its checkpoint copy, told)
STATE_COLUMNS = ("state", "checkpoint_state", "told")
#: each way: statements run after the migrations, before any game is stored (base: the
#: table as migrated; main/external: the columns' storage; lz4: their compression;
#: fillfactor: the share of a page inserts fill; inline: no compression under 8 KB)
WAYS: dict[str, tuple[str, ...]] = {
    "base": (),
    "main": tuple(f"ALTER TABLE games ALTER COLUMN {c} SET STORAGE MAIN" for c in STATE_COLUMNS),
    "lz4": tuple(f"ALTER TABLE games ALTER COLUMN {c} SET COMPRESSION lz4" for c in STATE_COLUMNS),
    "lz4-main": tuple(
        f"ALTER TABLE games ALTER COLUMN {c} SET COMPRESSION lz4, ALTER COLUMN {c} SET STORAGE MAIN"
        for c in STATE_COLUMNS
    ),
    "external": tuple(
        f"ALTER TABLE games ALTER COLUMN {c} SET STORAGE EXTERNAL" for c in STATE_COLUMNS
    ),
    "fillfactor50": ("ALTER TABLE games SET (fillfactor = 50)",),
    "fillfactor70": ("ALTER TABLE games SET (fillfactor = 70)",),
    "fillfactor85": ("ALTER TABLE games SET (fillfactor = 85)",),
    "inline": ("ALTER TABLE games SET (toast_tuple_target = 8160)",),
    "inline-ff70": ("ALTER TABLE games SET (toast_tuple_target = 8160, fillfactor = 70)",),
    "inline-ff50": ("ALTER TABLE games SET (toast_tuple_target = 8160, fillfactor = 50)",),
    "lz4-ff70": (
        "ALTER TABLE games SET (fillfactor = 70)",
        *(f"ALTER TABLE games ALTER COLUMN {c} SET COMPRESSION lz4" for c in STATE_COLUMNS),
    ),
}
#: the statements reported: the step's write (one statement) and the game's load
STATEMENTS = {"the step's write": "ziggurat plan", "the game's load": "SELECT id, guild_id"}
SETTINGS = {
    "shared_preload_libraries": "pg_stat_statements",
    "pg_stat_statements.track": "all",
    "pg_stat_statements.track_planning": "on",
}


async def server_figures(db: Any, before: Any, moves: int) -> list[str]:
    """What ``moves`` moves cost the server since ``before`` (see the module docstring)."""
    lines = []
    await asyncio.sleep(1.0)  # the ended connections' statistics flushed
    wal = await db.fetchval("SELECT pg_current_wal_insert_lsn() - $1::pg_lsn", before["lsn"])
    lines.append(f"WAL a move: {int(wal) / moves:,.0f} bytes")
    for label, mark in STATEMENTS.items():
        row = await db.fetchrow(
            "SELECT sum(calls) AS calls, sum(total_exec_time) / sum(calls) AS mean,"
            " sum(plans) AS plans, sum(total_plan_time) / greatest(sum(plans), 1) AS plan,"
            " sum(wal_bytes) / sum(calls) AS wal, sum(shared_blks_dirtied)::float / sum(calls)"
            " AS dirtied, sum(shared_blks_hit + shared_blks_read)::float / sum(calls) AS blocks"
            " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
            " WHERE datname = current_database()) AND query LIKE $1",
            f"%{mark}%",
        )
        if row is None or not row["calls"]:
            lines.append(f"{label}: not seen")
            continue
        lines.append(
            f"{label}: {row['calls']} calls, server mean {row['mean']:.3f} ms,"
            f" {row['plans']} planned (mean {row['plan']:.3f} ms),"
            f" WAL {float(row['wal']):,.0f} bytes, {row['dirtied']:.1f} buffers dirtied,"
            f" {row['blocks']:.1f} touched a call"
        )
    for table in ("games", "timers"):
        row = await db.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = $1", table
        )
        upd = row["n_tup_upd"] - before[table][0]
        hot = row["n_tup_hot_upd"] - before[table][1]
        lines.append(f"{table}: {upd} updates, {hot} HOT ({hot / max(upd, 1):.0%})")
    stored = await db.fetchrow(
        "SELECT avg(octet_length(state)) AS text, avg(pg_column_size(state)) AS stored,"
        " mode() WITHIN GROUP (ORDER BY pg_column_compression(state)) AS how,"
        " avg(pg_column_size(checkpoint_state)) AS checkpoint,"
        " count(checkpoint_state)::float / count(*) AS with_checkpoint,"
        " avg(octet_length(told)) AS told"
        " FROM games WHERE status = 'running'"
    )
    games_size = await db.fetchval("SELECT pg_relation_size('games')")
    toast = await db.fetchval(
        "SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'games'"
    )
    lines.append(
        f"a state: {stored['text']:,.0f} bytes of text, {stored['stored']:,.0f} stored"
        f" ({stored['how'] or 'not compressed'}); a checkpoint state in"
        f" {stored['with_checkpoint']:.0%} of games ({stored['checkpoint'] or 0:,.0f} stored);"
        f" told {stored['told'] or 0:,.0f} bytes; TOAST table {toast / 1024:,.0f} KiB,"
        f" games {games_size / 1024:,.0f} KiB"
    )
    return lines


async def explained_step(store: Any, service: GameService, db: Any, games: int) -> list[str]:
    """Three more moves, each step's statement first run under ``EXPLAIN (ANALYZE,
    BUFFERS, WAL)`` in a transaction rolled back, then as always: the last plan's lines
    that say what the server did (its nodes' rows, buffers and WAL; its triggers; its
    time), the connection's own caches warm by then (a foreign key's check plan)."""
    shown: list[str] = []
    run_script = store._run_script

    async def explained(script: str, sent: Any = None, args: Any = ()) -> None:
        if args:  # the one statement of a disjoint step (not a script)
            transaction = db.transaction()
            await transaction.start()
            try:
                rows = await db.fetch("EXPLAIN (ANALYZE, BUFFERS, WAL) " + script, *args)
            finally:
                await transaction.rollback()
            keep = ("->", "Buffers", "WAL", "Execution", "Planning", "Result", "CTE", "Trigger")
            shown[:] = [str(r[0]) for r in rows if any(k in r[0] for k in keep)]
        await run_script(script, sent, args)

    store._run_script = explained
    try:
        await single_moves(service, range(1, games + 1), 3)
    finally:
        del store._run_script
    return ["EXPLAIN (ANALYZE, BUFFERS, WAL) of one step's statement:", *shown]


async def counters(db: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"lsn": await db.fetchval("SELECT pg_current_wal_insert_lsn()")}
    for table in ("games", "timers"):
        row = await db.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = $1", table
        )
        found[table] = (row["n_tup_upd"], row["n_tup_hot_upd"])
    return found


async def one_way(url: str, way: str, games: int, moves: int) -> dict[str, float]:
    import asyncpg

    registry = plugins.load_builtin_games()
    db = await asyncpg.connect(url)
    try:
        store = await Store.open(url)
        try:
            await db.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            for statement in WAYS[way]:
                await db.execute(statement)
            service = GameService(store, registry, render=False)
            await create_games(service, range(1, games + 1))
            await single_moves(service, range(1, games + 1), min(moves, games) // 2)  # warm
            plan = await explained_step(store, service, db, games)  # before the counting
        finally:
            await store.close()  # its connections' table statistics flushed as they end
        await asyncio.sleep(1.0)
        before = await counters(db)
        await db.execute("SELECT pg_stat_statements_reset()")
        store = await Store.open(url)
        try:
            split = Split(store)
            service = GameService(store, registry, render=False)
            times = await single_moves(service, range(1, games + 1), moves, split)
            split.close()
        finally:
            await store.close()
        lines = await server_figures(db, before, moves)
        lines += plan
    finally:
        await db.close()
    commit = pct(await floor_commit_postgres(url), 0.5)
    read = pct(await floor_read_postgres(url), 0.5)
    move = pct(times, 0.5)
    print(f"== {way} ({load()})", flush=True)
    print(
        f"one move, no render, {games:,} games stored: p50 {move:.3f} ms; floor: bare commit"
        f" p50 {commit:.3f} ms, p50/floor {move / commit:.2f}"
    )
    print("where a move's time goes: " + split.line(times, commit, read))
    for line in lines:
        print("  " + line, flush=True)
    return {
        "move": move,
        "write": pct(split.writes, 0.5),
        "read": pct(split.reads, 0.5),
        "commit": commit,
        "bare read": read,
    }


#: Temple Rush's players (three: a round is two submissions and its last play)
TEMPLE_PLAYERS = tuple(Player(100 + n, f"Player {n}") for n in range(3))
#: the statements a step's trace lists that change timers
TIMER_WRITES = ("INSERT INTO timers", "DELETE FROM timers")


async def temple_steps(url: str, games: int, steps: int) -> None:
    """Sealed steps of Temple Rush (every step of a round names the round's deadline):
    each step's statements as sent (the trace: a plan's script or one statement lists
    its statements), those that change timers among them, and the step's write's mean
    time on the server (``pg_stat_statements``), beside a bare commit's."""
    import asyncpg

    registry = plugins.load_builtin_games()
    rng = random.Random(9)
    db = await asyncpg.connect(url)
    await db.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    store = await Store.open(url)
    try:
        service = GameService(store, registry, render=False)
        channels = range(10_001, 10_001 + games)
        for channel in channels:
            first, *others = TEMPLE_PLAYERS
            await service.lobby.new_game(
                guild_id=1, channel_id=channel, user=first, game_type_name="temple", seed=channel
            )
            for player in others:
                await service.lobby.join(channel, player)
            await service.lobby.start(channel, first)
        await db.execute("SELECT pg_stat_statements_reset()")
        sent: list[str] = []
        parts: list[int] = []
        timer_parts: list[int] = []
        played = 0
        while played < steps:
            channel = rng.choice(channels)
            row = await store.latest_game_in(channel)
            if row is None or row.status != "running":
                continue
            engine = registry[row.game_type].engine
            seat = rng.choice(sorted(engine.waiting_for(engine.load_state(row.state))))
            player = next(p for p in TEMPLE_PLAYERS if p.id == row.seats[seat].user_id)
            actions = await service.reading.legal_actions(channel, player)
            sent.clear()
            await store.trace(sent.append)
            try:
                await service.play.act(channel, player, str(rng.choice(actions)))
            except RuleError:
                continue
            finally:
                await store.trace(None)
            statements = [p.strip() for text in sent for p in text.split(";\n")]
            writes = [p for p in statements if not p.startswith("SELECT")]
            parts.append(len(writes))
            timer_parts.append(sum(p.startswith(TIMER_WRITES) for p in writes))
            played += 1
        mean = await db.fetchval(
            "SELECT sum(total_exec_time) / sum(calls) FROM pg_stat_statements"
            " WHERE query LIKE '%ziggurat plan%' AND query LIKE '%UPDATE games SET%'"
        )
    finally:
        await store.close()
        await db.close()
    commit = pct(await floor_commit_postgres(url), 0.5)
    print(f"== Temple Rush, {steps} steps in {games} games of 3 players ({load()})")
    print(
        f"  statements written a step: mean {statistics.mean(parts):.2f};"
        f" of them changing timers: mean {statistics.mean(timer_parts):.2f},"
        f" steps with none {sum(not n for n in timer_parts) / len(timer_parts):.0%};"
        f" the step's write on the server: mean {mean or 0:.3f} ms;"
        f" bare commit p50 {commit:.3f} ms",
        flush=True,
    )


async def measure(server: Any, ways: list[str], games: int, moves: int, rounds: int) -> None:
    figures: dict[str, list[dict[str, float]]] = {way: [] for way in ways}
    for number in range(rounds):
        order = ways if number % 2 == 0 else list(reversed(ways))
        for way in order:
            url = server.url(server.create_database(migrated=False))
            figures[way].append(await one_way(url, way, games, moves))
    print()
    print("| way | move p50 | write p50 | reads p50 | bare commit | move/commit | write/commit |")
    print("|---|---|---|---|---|---|---|")
    for way, runs in figures.items():
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(
            f"| {way} | {med['move']:.3f} ms | {med['write']:.3f} ms | {med['read']:.3f} ms |"
            f" {med['commit']:.3f} ms | {med['move'] / med['commit']:.2f} |"
            f" {med['write'] / med['commit']:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated names of WAYS")
    parser.add_argument(
        "--temple", type=int, default=0, help="then this many Temple Rush steps (temple_steps)"
    )
    add_loop_argument(parser)
    args = parser.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        parser.error(f"unknown ways: {unknown}; known: {list(WAYS)}")
    from tests.support.postgres import benchmark_server

    with benchmark_server(SETTINGS) as server:
        if args.ways:
            run(measure(server, ways, args.games, args.moves, args.rounds), args.loop)
        if args.temple:
            url = server.url(server.create_database())
            run(temple_steps(url, max(args.temple // 20, 1), args.temple), args.loop)


if __name__ == "__main__":
    main()
