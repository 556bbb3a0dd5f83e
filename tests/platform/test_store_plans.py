"""Every query a command makes uses an index: lookups stay flat as games accumulate.

The statements are not listed by hand: a whole game (lobby, moves, undo, a
deadline's timeout batch, reminders, reads, abandon, a game with a computer
seat, then a finished game's statistics, export and rematch) runs through the service
with the store's trace on, and the plan of every distinct statement it ran
must not scan ``games``, ``moves`` or ``timers`` in full: SQLite's ``EXPLAIN
QUERY PLAN``, and on PostgreSQL the generic plan (any parameter values) with
sequential scans disfavoured, so a ``Seq Scan`` means no index could serve;
there an index searched without its leading column (PostgreSQL then reads
the whole index) counts as a full scan too.
"""

from __future__ import annotations

import contextlib
import random
import re

from bot import games
from bot.games.base import GameType
from bot.service import GameService, Refusal
from bot.store import KeptMessage, Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, ORACLE
from tests.support import raw_sql, robots

pytestmark = BOTH_BACKENDS

FULL_SCAN = {
    "sqlite": re.compile(r"^SCAN (games|moves|timers)\b(?! USING (COVERING )?INDEX)"),
    "postgres": re.compile(r"Seq Scan on (games|moves|timers)\b"),
}
NOT_QUERIES = (
    *("PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SELECT PG_"),
    # asyncpg's own, the first time a connection meets a type (a list of ids)
    *("WITH RECURSIVE TYPEINFO_TREE", "SELECT CURRENT_SETTING", "SELECT SET_CONFIG"),
)


async def _play_everything(service: GameService, now: list[float]) -> None:
    players = (ALICE, BOB, CAROL)
    rng = random.Random(3)
    for channel, game, options in ((11, "relay", {}), (12, "oracle", {"deadline": "1h"})):
        await service.lobby.new_game(
            guild_id=1, channel_id=channel, user=ALICE, game_type_name=game, options=options
        )
        await service.lobby.join(channel, BOB)
        await service.lobby.leave(channel, BOB)
        await service.lobby.join(channel, BOB)
        await service.lobby.join(channel, CAROL)
        await service.lobby.start(channel, ALICE)
        for _ in range(12):
            for player in players:
                legal = await service.reading.legal_actions(channel, player)
                if legal:
                    await service.play.act(channel, player, str(rng.choice(legal)))
                    with contextlib.suppress(Refusal):
                        await service.play.undo(channel, player)
                    break
        await service.reading.status(channel)
        await service.reading.board(channel)
        await service.reading.log_lines(channel, 10)
        await service.reading.suggestions(channel, ALICE)
        await service.reading.legal_values(channel, ALICE, "step", "count", {})
        with contextlib.suppress(Refusal):
            await service.reading.hand(channel, ALICE)
    now[0] += 3600 * 30  # every deadline and reminder falls due
    await service.timers.fire_due_timers()
    await service.memory.mark_dms_closed(ALICE.id)
    await service.memory.note_dm_announcement(ALICE.id, 1)
    await service.memory.dms_closed(ALICE.id, 60)
    await service.memory.dms_closed_among([ALICE.id, BOB.id])
    await service.memory.mark_dms_open(ALICE.id)
    await service.memory.remember_message(2, "tally", 12, 99, '["a", "b"]')
    await service.memory.message(2, "tally")
    await service.memory.remember_message(2, "live", 12, 98)
    await service.memory.messages(2)
    await service.memory.message_reads(2, [ALICE.id, BOB.id])
    await service.memory.keep_messages(2, {"live": KeptMessage(12, 97, None)}, ["interim"])
    await service.reading.mine(ALICE, message_kind="live")  # /game mine: every game of a player
    await service.memory.forget_message(2, "tally")
    await service.lobby.abandon(11, ALICE, can_manage_channel=False, confirmed=True)
    await service.reading.status(11)
    # after the game: a finished game, its statistics, its export and its rematch
    await service.lobby.new_game(guild_id=1, channel_id=13, user=ALICE, game_type_name="relay")
    await service.lobby.join(13, BOB)
    outcome = await service.lobby.start(13, ALICE)
    while not outcome.finished:
        for player in (ALICE, BOB):
            legal = await service.reading.legal_actions(13, player)
            if legal:
                outcome = await service.play.act(13, player, str(rng.choice(legal)))
                break
    # a game with a computer seat: its move timer, a seat handed to it, statistics apart
    await service.lobby.new_game(
        guild_id=1, channel_id=14, user=ALICE, game_type_name=robots.ORACLE.name, seed=5
    )
    await service.lobby.add_computer(14, ALICE, "easy")
    await service.lobby.start(14, ALICE)
    for _ in range(400):
        await service.timers.fire_due_timers()
        if await service.store.open_game_in(14) is None:
            break
        with contextlib.suppress(Refusal):
            legal = await service.reading.legal_actions(14, ALICE)
            if legal:
                await service.play.act(14, ALICE, str(rng.choice(legal)))
    else:
        raise AssertionError("the computer game did not end")
    await service.after.stats(1)
    await service.after.stats(1, BOB)
    await service.after.export(11)
    finished = await service.store.latest_game_in(13)
    assert finished is not None
    await service.after.rematch(13, BOB, finished.id)
    await service.after.export(13)


async def _leading_columns(store: Store) -> dict[str, str]:
    """Each PostgreSQL index's first column."""
    rows = await raw_sql.execute(
        store, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
    )
    found = {str(name): re.search(r"\((\w+)", str(definition)) for name, definition in rows}
    return {name: match.group(1) for name, match in found.items() if match}


def _whole_index_searches(plan: list[str], leading: dict[str, str]) -> list[str]:
    """PostgreSQL plan lines searching an index by a condition without its leading column."""
    bad = []
    for line, following in zip(plan, [*plan[1:], ""], strict=False):
        used = re.search(r"Index (?:Only )?Scan using (\w+)", line) or re.search(
            r"Bitmap Index Scan on (\w+)", line
        )
        if used and "Index Cond:" in following:
            column = leading[used.group(1)]
            if not re.search(rf"\b{column}\b", following):
                bad.append(f"{line} / {following.strip()}")
    return bad


async def test_no_command_scans_a_whole_table(store: Store, backend: str) -> None:
    now = [1_000_000.0]
    registry = {
        **games.REGISTRY,
        robots.ORACLE.name: GameType(engine=robots.ORACLE, render_public=ORACLE.render_public),
    }
    service = GameService(store, registry, render=False, clock=lambda: now[0], computer_pause=0.0)
    seen: set[str] = set()
    await store.trace(seen.add)
    await _play_everything(service, now)
    await store.trace(None)
    leading = await _leading_columns(store) if backend == "postgres" else {}
    # a PostgreSQL plan sent as one script is traced as its statements, joined
    statements = {part for sql in seen for part in sql.split(";\n")}
    queries = sorted(s for s in statements if not s.lstrip().upper().startswith(NOT_QUERIES))
    assert len(queries) > 30
    # the computer seat's statements ran: its move timer, its seat, the statistics apart
    assert any("'computer'" in sql for sql in queries)
    assert any("computer IS NOT NULL" in sql for sql in queries)
    tables = {"games": 0, "moves": 0, "timers": 0}
    for sql in queries:
        plan = await store.query_plan(sql)
        for step in plan:
            assert not FULL_SCAN[backend].search(step), (sql, plan)
        assert not _whole_index_searches(plan, leading), (sql, plan)
        for table in tables:
            if re.search(rf"\b{table}\b", sql):
                tables[table] += 1
    assert all(count > 0 for count in tables.values()), tables  # each table was exercised
