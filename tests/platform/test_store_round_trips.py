"""What an interaction sends to the database, counted through the store's trace on both
backends: a game row carries its told views (a hand-off reads no ``told`` of its own),
and a lone statement is sent alone on PostgreSQL (no ``BEGIN``/``COMMIT`` around it),
with its refusals and the version check as they were."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService, Player
from bot.store import KEEP, GameRow, StepWrite, Store, StoreError, VersionConflict
from bot.store import postgres as pg
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CHANNEL, GUILD

pytestmark = BOTH_BACKENDS

#: how a game load starts (:data:`bot.store.sql.SELECT_GAME`), on either backend's trace
GAME_LOAD = "SELECT id, guild_id, channel_id, game_type"


def _statements(sent: list[str]) -> list[str]:
    """Each statement sent (a PostgreSQL plan's script is traced as its statements)."""
    return [part.strip() for text in sent for part in text.split(";\n")]


async def _lobby(store: Store) -> GameRow:
    return await store.create_game(
        guild_id=1,
        channel_id=1,
        game_type="oracle",
        creator_id=10,
        creator_name="Ann",
        options={},
        seed=5,
    )


async def _oracle(service: GameService) -> None:
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="oracle", seed=3
    )
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.start(CHANNEL, ALICE)


async def _card(service: GameService, player: Player) -> str:
    return str((await service.reading.legal_actions(CHANNEL, player))[0])


async def test_a_hand_off_loads_the_game_once_and_reads_no_told_of_its_own(
    service: GameService, store: Store
) -> None:
    await _oracle(service)
    await service.play.act(CHANNEL, ALICE, await _card(service, ALICE))  # sealed: no hand-off
    before = await store.latest_game_in(CHANNEL)
    assert before is not None and before.told_views() == await store.told(before.id)
    card = await _card(service, BOB)
    # the load reads the game, unless this process keeps it (bot.store.kept): then none
    loads = 0 if store.kept_game_in(CHANNEL) == before else 1
    sent: list[str] = []
    await store.trace(sent.append)
    outcome = await service.play.act(CHANNEL, BOB, card)  # the round revealed: a hand-off
    await store.trace(None)
    statements = _statements(sent)
    assert sum(s.startswith(GAME_LOAD) for s in statements) == loads, statements
    assert not [s for s in statements if s.startswith("SELECT told")], statements
    assert sum(s.startswith("UPDATE games SET version = version + 1") for s in statements) == 1
    # the private views it told were read from the loaded row, and what it stored is
    # what the next load carries
    assert outcome.private, "the reveal tells each seat its new hand"
    after = await store.latest_game_in(CHANNEL)
    assert after is not None and after.version == before.version + 1
    told = await store.told(after.id)
    assert told is not None and after.told_views() == told
    assert told != before.told_views()


async def test_a_row_carries_the_told_views_of_its_version(store: Store) -> None:
    game = await _lobby(store)
    assert game.told_views() is None
    await store.add_seat(game, 11, "Ben")
    lobby = await store.get_game(game.id)
    assert lobby is not None
    await store.start_game(
        lobby, {"n": 0}, [11, 10], ["#111111", "#222222"], told={0: {"h": [1]}, 1: {"h": [2]}}
    )
    started = await store.get_game(game.id)
    assert started is not None
    assert started.told_views() == {0: {"h": [1]}, 1: {"h": [2]}} == await store.told(game.id)
    assert "told" not in repr(started)  # private views stay out of logs
    await store.commit_step(
        started, StepWrite(state={"n": 1}, status="running", moves=[], told=KEEP)
    )
    kept = await store.get_game(game.id)
    assert kept is not None and kept.told_views() == started.told_views()
    await store.commit_step(
        kept,
        StepWrite(state={"n": 2}, status="running", moves=[], told={0: {"h": []}, 1: {"h": [2]}}),
    )
    told = await store.get_game(game.id)
    assert told is not None and told.told_views() == {0: {"h": []}, 1: {"h": [2]}}
    # a row read before that step carries the old views, and a write from it is refused
    with pytest.raises(VersionConflict):
        await store.commit_step(
            kept, StepWrite(state={"n": 9}, status="running", moves=[], told={0: {"h": [9]}})
        )
    assert await store.told(game.id) == {0: {"h": []}, 1: {"h": [2]}}
    last = await store.get_game(game.id)
    assert last is not None and last.version == told.version and last.state == {"n": 2}


async def test_a_lone_statement_is_sent_alone_and_refused_as_before(
    store: Store, backend: str
) -> None:
    game = await _lobby(store)
    sent: list[str] = []
    await store.trace(sent.append)
    await store.set_message(game.id, "live", 7, 8, "text")
    timer = await store.add_timer(1e9, "reminder", game.id)
    await store.trace(None)
    if backend == "postgres":  # one round trip each: the statement, no BEGIN or COMMIT
        assert [s.split(" ", 3)[:3] for s in sent] == [
            ["INSERT", "INTO", "game_messages"],
            ["INSERT", "INTO", "timers"],
        ], sent
    else:  # SQLite's writer wraps its batch in a transaction of its own
        assert any(s.startswith("INSERT INTO game_messages") for s in sent), sent
    assert await store.message(game.id, "live") == (7, 8)
    assert (await store.messages(game.id))["live"].content == "text"
    # a unique index still refuses (one reminder a game), and nothing changes
    with pytest.raises(StoreError):
        await store.add_timer(2e9, "reminder", game.id)
    assert [(t.id, t.due_at) for t in await store.timers(game.id)] == [(timer, 1e9)]
    assert await store.delete_timer(timer) is True
    assert await store.delete_timer(timer) is False  # the count it changed, read back


async def test_a_trace_sees_every_connection_while_it_is_on_and_none_after(store: Store) -> None:
    game = await _lobby(store)
    await asyncio.gather(*(store.get_game(game.id) for _ in range(6)))  # the pool grows
    sent: list[str] = []
    await store.trace(sent.append)
    await asyncio.gather(*(store.get_game(game.id) for _ in range(6)))
    await asyncio.sleep(0)  # asyncpg hands a query to its loggers on the loop's next turn
    assert sum(s.startswith(GAME_LOAD) for s in sent) == 6, sent
    await store.trace(None)
    seen = len(sent)
    await asyncio.gather(*(store.get_game(game.id) for _ in range(6)))
    await asyncio.sleep(0)
    assert len(sent) == seen


async def test_more_units_at_once_than_connections_all_finish_and_a_cancelled_one_costs_none(
    store: Store, backend: str
) -> None:
    game = await _lobby(store)
    # three times the PostgreSQL pool's size at once: reads, lone writes and failing writes
    await asyncio.gather(
        *(store.get_game(game.id) for _ in range(3 * pg.POOL_SIZE)),
        *(store.set_message(game.id, f"k{n}", 1, n) for n in range(3 * pg.POOL_SIZE)),
    )
    refused = await asyncio.gather(
        *(store.add_timer(1e9, "reminder", game.id) for _ in range(pg.POOL_SIZE + 2)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StoreError) for r in refused) == pg.POOL_SIZE + 1
    found = await store.messages(game.id)
    assert sorted(found) == sorted(f"k{n}" for n in range(3 * pg.POOL_SIZE))
    if backend == "postgres":  # a unit cancelled mid-query hands its connection back
        sleeping = asyncio.ensure_future(store.write(lambda db: db.execute("SELECT pg_sleep(5)")))
        await asyncio.sleep(0.2)
        sleeping.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sleeping
        await asyncio.gather(*(store.get_game(game.id) for _ in range(2 * pg.POOL_SIZE)))
    row = await store.get_game(game.id)
    assert row is not None and row.id == game.id
