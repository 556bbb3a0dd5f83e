"""Every query a command makes uses an index: lookups stay flat as games accumulate.

The statements are not listed by hand: a whole game (lobby, moves, undo, a
deadline's timeout batch, reminders, reads, abandon, then a finished game's
statistics, export and rematch) runs through the service
with the store's trace on, and ``EXPLAIN QUERY PLAN`` of every distinct
statement it ran must not scan ``games``, ``moves`` or ``timers`` in full.
"""

from __future__ import annotations

import contextlib
import random
import re

from bot import games
from bot.service import GameService, Refusal
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL

FULL_SCAN = re.compile(r"^SCAN (games|moves|timers)\b(?! USING (COVERING )?INDEX)")
NOT_QUERIES = ("PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


async def _play_everything(service: GameService, now: list[float]) -> None:
    players = (ALICE, BOB, CAROL)
    rng = random.Random(3)
    for channel, game, options in ((11, "relay", {}), (12, "oracle", {"deadline": "1h"})):
        await service.new_game(
            guild_id=1, channel_id=channel, user=ALICE, game_type_name=game, options=options
        )
        await service.join(channel, BOB)
        await service.leave(channel, BOB)
        await service.join(channel, BOB)
        await service.join(channel, CAROL)
        await service.start(channel, ALICE)
        for _ in range(12):
            for player in players:
                legal = await service.legal_actions(channel, player)
                if legal:
                    await service.act(channel, player, str(rng.choice(legal)))
                    with contextlib.suppress(Refusal):
                        await service.undo(channel, player)
                    break
        await service.status(channel)
        await service.board(channel)
        await service.log_lines(channel, 10)
        await service.suggestions(channel, ALICE)
        await service.legal_values(channel, ALICE, "step", "count", {})
        with contextlib.suppress(Refusal):
            await service.hand(channel, ALICE)
    now[0] += 3600 * 30  # every deadline and reminder falls due
    await service.fire_due_timers()
    await service.mark_dms_closed(ALICE.id)
    await service.note_dm_announcement(ALICE.id, 1)
    await service.dms_closed(ALICE.id, 60)
    await service.mark_dms_open(ALICE.id)
    await service.remember_message(2, "tally", 12, 99)
    await service.message(2, "tally")
    await service.abandon(11, ALICE, can_manage_channel=False, confirmed=True)
    await service.status(11)
    # after the game: a finished game, its statistics, its export and its rematch
    await service.new_game(guild_id=1, channel_id=13, user=ALICE, game_type_name="relay")
    await service.join(13, BOB)
    outcome = await service.start(13, ALICE)
    while not outcome.finished:
        for player in (ALICE, BOB):
            legal = await service.legal_actions(13, player)
            if legal:
                outcome = await service.act(13, player, str(rng.choice(legal)))
                break
    await service.stats(1)
    await service.stats(1, BOB)
    await service.export(11)
    finished = await service.store.latest_game_in(13)
    assert finished is not None
    await service.rematch(13, BOB, finished.id)
    await service.export(13)


async def test_no_command_scans_a_whole_table(store: Store) -> None:
    now = [1_000_000.0]
    service = GameService(store, games.REGISTRY, render=False, clock=lambda: now[0])
    seen: set[str] = set()
    await store.trace(seen.add)
    await _play_everything(service, now)
    await store.trace(None)
    queries = sorted(s for s in seen if not s.lstrip().upper().startswith(NOT_QUERIES))
    assert len(queries) > 30
    tables = {"games": 0, "moves": 0, "timers": 0}
    for sql in queries:
        plan = await store.query_plan(sql)
        for step in plan:
            assert not FULL_SCAN.match(step), (sql, plan)
        for table in tables:
            if re.search(rf"\b{table}\b", sql):
                tables[table] += 1
    assert all(count > 0 for count in tables.values()), tables  # each table was exercised
