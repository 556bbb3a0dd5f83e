"""Timers in a shard cluster: two processes on one database, each fires only its own.

Each "process" is a :class:`~bot.store.Store` of its own on the same database
(every test runs on a SQLite file and on a PostgreSQL server), a
:class:`~bot.service.GameService` and a :class:`~bot.timers.TimerRunner` with
its shard range (:class:`~bot.cluster.ShardRange`), as two bot processes of a
cluster are. A fake clock moves time; :meth:`TimerRunner.sync` waits for a
complete pass.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest

from bot import games
from bot.cluster import ShardRange, shard_of
from bot.service import GameService
from bot.store import Store
from bot.timers import CLAIM_LEASE, TimerRunner
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL
from tests.platform.test_store_plans import NOT_QUERIES, _leading_columns, _whole_index_searches
from tests.support import raw_sql

from .test_timers import HOUR, Clock, Delivered

pytestmark = BOTH_BACKENDS

TOTAL = 2
#: a guild on each shard: Discord's formula puts ``n << 22`` on shard ``n % 2``
GUILDS = {0: 4 << 22, 1: 5 << 22}


class Process:
    """One cluster member: its store, service and timer runner."""

    def __init__(self, store: Store, clock: Clock, shards: ShardRange) -> None:
        self.store = store
        self.service = GameService(
            store, games.REGISTRY, deadline_hours=1.0, clock=clock, render=False
        )
        self.delivered = Delivered()
        self.runner = TimerRunner(store, self.service, self.delivered, shards=shards)


@pytest.fixture
async def cluster(database_url: str) -> AsyncIterator[tuple[Clock, list[Process]]]:
    clock = Clock()
    processes = [
        Process(await Store.open(database_url), clock, ShardRange(TOTAL, n, n))
        for n in range(TOTAL)
    ]
    yield clock, processes
    for process in processes:
        await process.runner.stop()
        await process.store.close()


async def start_game(service: GameService, guild: int, channel: int) -> int:
    created = await service.lobby.new_game(
        guild_id=guild, channel_id=channel, user=ALICE, game_type_name="oracle"
    )
    await service.lobby.join(channel, BOB)
    await service.lobby.join(channel, CAROL)
    await service.lobby.start(channel, ALICE)
    assert created.game_id is not None
    return created.game_id


async def test_each_process_fires_only_its_guilds_timers_once(
    cluster: tuple[Clock, list[Process]],
) -> None:
    clock, processes = cluster
    assert [shard_of(g, TOTAL) for g in GUILDS.values()] == [0, 1]
    # three games per shard, started by either process (the lobby is not the point)
    game_shard: dict[int, int] = {}
    for n in range(6):
        shard = n % TOTAL
        game_id = await start_game(processes[n // 3].service, GUILDS[shard], 7000 + n)
        game_shard[game_id] = shard
    for process in processes:
        process.runner.start()
        await process.runner.sync()
    assert not any(p.delivered.outcomes for p in processes)  # nothing due yet

    clock.now += HOUR + 1
    for process in processes:
        await process.runner.sync()
    for shard, process in enumerate(processes):
        fired = sorted(o.game_id for o in process.delivered.outcomes if o.game_id is not None)
        assert fired == sorted(g for g, s in game_shard.items() if s == shard)
    # each reminder fired once and re-armed once, unclaimed
    timers = await processes[0].store.timers()
    assert sorted(t.game_id for t in timers if t.game_id is not None) == sorted(game_shard)
    assert all(t.due_at == clock.now + HOUR for t in timers)

    # the other process's timers are not its business: syncing again fires nothing more
    for process in processes:
        await process.runner.sync()
    assert sum(len(p.delivered.outcomes) for p in processes) == len(game_shard)


async def test_a_claim_keeps_other_ranges_off_until_it_lapses(
    cluster: tuple[Clock, list[Process]],
) -> None:
    clock, processes = cluster
    store = processes[0].store
    everything = ShardRange(1, 0, 0)
    game_id = await start_game(processes[0].service, GUILDS[0], 7100)
    [timer] = await store.timers(game_id)
    due = timer.due_at
    assert await store.claim_due_timers(due - 1, everything, "a", 60) == []  # not due yet
    [claimed] = await store.claim_due_timers(due, everything, "a", 60)
    assert claimed.id == timer.id
    # another claimant waits for the lease; the same claimant (a restart) takes it back
    assert await store.claim_due_timers(due + 59, everything, "b", 60) == []
    assert [t.id for t in await store.claim_due_timers(due + 1, everything, "a", 60)] == [timer.id]
    upcoming = await store.next_owned_timer(everything, "b", 60)
    assert upcoming is not None and upcoming.due_at == due + 1 + 60  # when "a"'s claim lapses
    assert [t.id for t in await store.claim_due_timers(due + 61, everything, "b", 60)] == [timer.id]
    # only games of the range's guilds
    assert await store.claim_due_timers(due + 1000, ShardRange(2, 1, 1), "c", 60) == []
    assert await store.next_owned_timer(ShardRange(2, 1, 1), "c", 60) is None
    del clock


async def test_a_restarted_process_takes_back_its_own_claims_at_once(
    cluster: tuple[Clock, list[Process]], database_url: str
) -> None:
    """A process killed after claiming (before firing) loses no timer: its successor
    with the same shard range claims it again at once and fires it once."""
    clock, processes = cluster
    first = processes[0]
    game_id = await start_game(first.service, GUILDS[0], 7200)
    clock.now += HOUR + 1
    shards = first.runner.shards
    # the dead predecessor: it claimed the reminder and never fired it
    [claimed] = await first.store.claim_due_timers(clock.now, shards, shards.label, CLAIM_LEASE)
    assert claimed.game_id == game_id
    # its successor (a new store on the database, same range) fires it at its first pass
    successor = Process(await Store.open(database_url), clock, shards)
    try:
        successor.runner.start()
        await successor.runner.sync()
        assert [o.game_id for o in successor.delivered.outcomes] == [game_id]
        await successor.runner.sync()
        assert len(successor.delivered.outcomes) == 1
    finally:
        await successor.runner.stop()
        await successor.store.close()


async def test_each_hand_over_is_taken_by_one_process_of_its_shard(database_url: str) -> None:
    stores = [await Store.open(database_url) for _ in range(3)]
    try:
        first, second, other = stores
        for n in range(60):
            await first.hand_over(n % 2, 1000 + n, {"id": str(n), "n": n})
        shard0 = ShardRange(2, 0, 0)
        assert await other.has_handovers(ShardRange(2, 1, 1))
        # two processes of shard 0 (say, an old and a new one) take at once: each once
        taken = await asyncio.gather(
            *(s.take_handovers(shard0, limit=7) for s in (first, second) for _ in range(5))
        )
        ids = [h.payload["n"] for batch in taken for h in batch]
        assert sorted(ids) == list(range(0, 60, 2))
        assert not await first.has_handovers(shard0)
        # shard 1's are still there, for shard 1 only, oldest first
        [*rest] = await other.take_handovers(ShardRange(2, 1, 1))
        assert [h.game_id for h in rest] == [1000 + n for n in range(1, 60, 2)]
        assert rest[0].payload == {"id": "1", "n": 1}
    finally:
        for store in stores:
            await store.close()


async def test_the_stores_shard_formula_is_discords(store: Store) -> None:
    """:meth:`ShardRange.sql` (in the store's queries) agrees with :func:`shard_of`."""
    guilds = [None, 0, 1 << 22, 5 << 22, 2**63 - 1, 1_234_567_890_123_456_789]
    for total in (1, 2, 3, 16):
        for first in range(total):
            shards = ShardRange(total, first, min(first + 1, total - 1))
            condition, params = shards.sql("CAST(? AS BIGINT)")
            for guild in guilds:
                [(owned,)] = await raw_sql.execute(store, f"SELECT {condition}", guild, *params)
                assert bool(owned) == shards.owns(guild), (total, first, guild)


async def test_the_cluster_statements_use_indexes(store: Store, backend: str) -> None:
    """The statements a cluster process polls with read no table in full, as the
    commands' do (``tests/platform/test_store_plans.py``), on both backends."""
    service = GameService(store, games.REGISTRY, render=False)
    game_id = await start_game(service, GUILDS[0], 7300)
    shards = ShardRange(TOTAL, 0, 0)
    seen: set[str] = set()
    await store.trace(seen.add)  # type: ignore[attr-defined]
    assert await store.claim_due_timers(0, shards, "a", 60) == []
    assert await store.next_owned_timer(shards, "b", 60) is not None
    await store.hand_over(0, game_id, {"id": "1"})
    assert await store.has_handovers(shards)
    assert len(await store.take_handovers(shards)) == 1
    await store.trace(None)  # type: ignore[attr-defined]
    queries = sorted(s for s in seen if not s.lstrip().upper().startswith(NOT_QUERIES))
    assert len(queries) == 5, queries
    full_scan = {
        "sqlite": re.compile(r"^SCAN (games|timers|handovers)\b(?! USING (COVERING )?INDEX)"),
        "postgres": re.compile(r"Seq Scan on (games|timers|handovers)\b"),
    }[backend]
    leading = await _leading_columns(store) if backend == "postgres" else {}
    for sql in queries:
        plan = await store.query_plan(sql)  # type: ignore[attr-defined]
        assert not [step for step in plan if full_scan.search(step)], (sql, plan)
        assert not _whole_index_searches(plan, leading), (sql, plan)


async def test_processes_claiming_at_once_each_take_a_due_timer_once(database_url: str) -> None:
    """Four claimants (ranges of a re-split cluster, say) claiming the same due timers at
    the same moment, on two stores: each timer goes to exactly one of them."""
    stores = [await Store.open(database_url) for _ in range(2)]
    try:
        service = GameService(stores[0], games.REGISTRY, render=False)
        game_id = await start_game(service, GUILDS[0], 7400)
        ids = [
            await stores[0].add_timer(1000.0 + n, "probe", game_id, name=f"n{n}") for n in range(40)
        ]
        everything = ShardRange(1, 0, 0)
        claims = await asyncio.gather(
            *(
                stores[n % 2].claim_due_timers(2000.0, everything, claimant, 60, limit=15)
                for n, claimant in enumerate("abcd")
            )
        )
        taken = [t.id for batch in claims for t in batch]
        assert sorted(taken) == sorted(ids)  # each once, none left (4 claims of up to 15)
        # and a claimant asking again gets back only its own, never another's
        again = await stores[1].claim_due_timers(2000.0, everything, "a", 60, limit=40)
        assert [t.id for t in again] == [t.id for t in claims[0]]
    finally:
        for store in stores:
            await store.close()
