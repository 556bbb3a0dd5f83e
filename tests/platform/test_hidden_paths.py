"""Hidden stays hidden on every path through the service (issue 24's two findings).

* **A sealed pass never reaches the public log before the reveal.** A Temple
  Rush round can be published before every seat has sealed (a seat resigns
  and the table passes for it): ``/game log`` then lists the round's moves so
  far by their public description, and a seat's ``pass`` read as such while a
  ``place`` read as "a sealed move". Both now read as sealed, the table's
  pass for the seat that left too (the reveal says who passed); two games
  that differ only in that sealed choice show the same log and the same
  message.
* **A computer seat decides from what it may see.** Two games that differ only
  in what a computer seat cannot see (another seat's hand and the bag in
  Tigris & Euphrates, another seat's sealed move in Temple Rush) get the same
  computer move through the service — provided they are the same game id at
  the same version, as the decision's seed is drawn from those. (The finding
  compared two games of one database: different ids, different seeds, so an
  easy seat's random pick among its plans differed. That was no leak.)

Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import plugins
from bot.i18n import Text
from bot.service import GameService, Outcome, parse_options
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL, GUILD, fresh_database
from tests.support import raw_sql
from tests.support.seated import channel_row

pytestmark = BOTH_BACKENDS

REGISTRY = plugins.load_builtin_games()


def actions_of(lines: list[Text]) -> list[Any]:
    """The public words of each logged step (its time left out)."""
    return [
        line.params["action"].render("en") if isinstance(line.params.get("action"), Text) else None
        for line in lines
    ]


async def temple_round_published_early(service: GameService, channel: int, sealed: str) -> Outcome:
    """Alice seals ``sealed``; Carol resigns before the round is revealed (the table
    passes for her and the round so far is published)."""
    await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=channel,
        user=ALICE,
        game_type_name="temple",
        options={"joint": "on"},
        seed=3,
    )
    for player in (BOB, CAROL):
        await service.lobby.join(channel, player)
    await service.lobby.start(channel, ALICE, keep_order=True)
    await service.play.act(channel, ALICE, sealed)
    return await service.seats.resign(channel, CAROL, confirmed=True)


async def test_a_sealed_pass_stays_sealed_when_a_round_is_published_early(
    store: Store,
) -> None:
    game_type = REGISTRY["temple"]
    engine = game_type.engine
    service = GameService(store, REGISTRY, render=False)
    start = engine.new_game(3, parse_options(game_type, {"joint": "on"}), 3)
    place = next(str(a) for a in engine.legal_actions(start, 0) if str(a).startswith("place"))
    faces = []
    for channel, sealed in ((CHANNEL, "pass"), (CHANNEL + 1, place)):
        resigned = await temple_round_published_early(service, channel, sealed)
        row = await store.latest_game_in(channel)
        assert row is not None
        assert engine.load_state(row.state).round == 1  # not revealed yet
        assert row.published_seq == row.last_seq  # but published
        log = await service.reading.log_lines(channel, 50)
        faces.append(([t.render("en") for t in resigned.news.lines], actions_of(log.reply.lines)))
    assert faces[0] == faces[1]
    # Alice's pass is sealed, as is the table's for Carol (a timeout action is told by
    # its public words: Oracle's lowest card, say, is face down)
    assert faces[0][1] == [None, "a sealed move", "a sealed move"]


# -- computer seats -------------------------------------------------------------------


@pytest.fixture
def second_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A second database on the same backend (its first game also gets id 1)."""
    with fresh_database(backend, tmp_path, request, "second.db") as url:
        yield url


@pytest.fixture
async def second(second_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(second_url)
    yield opened
    await opened.close()


def table(store: Store) -> GameService:
    return GameService(store, REGISTRY, render=False, computer_pause=0.0, clock=lambda: 1_000_000.0)


async def with_computer(service: GameService, game: str, level: str, seed: int) -> None:
    """Alice in seat 0, a computer at ``level`` in seat 1."""
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name=game, seed=seed
    )
    await service.lobby.add_computer(CHANNEL, ALICE, level)
    await service.lobby.start(CHANNEL, ALICE, keep_order=True)


async def same_secret(store: Store, secret: int = 12345) -> None:
    """The computer seat (seat 1) holds ``secret``: its decisions seed alike in two games."""
    row = await channel_row(store)
    await raw_sql.execute(
        store, "UPDATE seats SET secret = ? WHERE game_id = ? AND seat = 1", secret, row.id
    )


async def overwrite_state(store: Store, state: Any) -> None:
    """Store ``state`` as the running game's, one version later."""
    row = await channel_row(store)
    await raw_sql.execute(
        store,
        "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
        json.dumps(state),
        row.id,
    )


async def computer_moves(service: GameService) -> list[str]:
    row = await channel_row(service.store)
    before = row.last_seq
    await service.timers.fire_due_timers()
    return [m.action for m in await service.store.moves(row.id, after=before) if m.seat == 1]


@pytest.mark.parametrize("level", ["easy", "strong"])
async def test_a_tigris_computer_moves_alike_whatever_it_cannot_see(
    store: Store, second: Store, level: str
) -> None:
    engine = REGISTRY["tigris"].engine
    services = [table(store), table(second)]
    for service in services:
        await with_computer(service, "tigris", level, seed=6)
        await same_secret(service.store)
    rows = [await channel_row(s.store) for s in services]
    assert rows[0].id == rows[1].id  # the same game id: the same decision seeds
    # the second game: Alice holds other tiles, the bag another order, another seed
    state = engine.load_state(rows[1].state)
    pool = sorted(state.players[0].hand + state.bag)
    size = len(state.players[0].hand)
    assert len(set(pool)) > 1
    state.players[0].hand = sorted(pool[-size:])
    state.bag = pool[:-size]
    state.seed += 1
    await overwrite_state(second, engine.dump_state(state))
    await overwrite_state(store, rows[0].state)  # the same version
    loaded = [engine.load_state((await channel_row(s.store)).state) for s in services]
    assert engine.dump_state(loaded[0]) != engine.dump_state(loaded[1])
    assert engine.public_view(loaded[0]) == engine.public_view(loaded[1])
    assert engine.private_view(loaded[0], 1) == engine.private_view(loaded[1], 1)
    # Alice's turn: the same two leaders in both games (her tiles play no part)
    leaders = [str(a) for a in engine.legal_actions(loaded[0], 0) if str(a).startswith("leader")]
    for service in services:
        await service.play.act(CHANNEL, ALICE, leaders[0])
    now = engine.load_state((await channel_row(store)).state)
    second_leader = next(
        str(a) for a in engine.legal_actions(now, 0) if str(a).startswith("leader")
    )
    for service in services:
        await service.play.act(CHANNEL, ALICE, second_leader)
    moves = [await computer_moves(service) for service in services]
    assert moves[0] and moves[0] == moves[1]


async def test_a_temple_computer_seals_alike_whatever_a_member_sealed(
    store: Store, second: Store
) -> None:
    engine = REGISTRY["temple"].engine
    services = [table(store), table(second)]
    for service in services:
        await with_computer(service, "temple", "easy", seed=4)
        await same_secret(service.store)
    state = engine.load_state((await channel_row(store)).state)
    place = next(str(a) for a in engine.legal_actions(state, 0) if str(a).startswith("place"))
    await services[0].play.act(CHANNEL, ALICE, "pass")
    await services[1].play.act(CHANNEL, ALICE, place)
    rows = [await channel_row(s.store) for s in services]
    assert (rows[0].id, rows[0].version) == (rows[1].id, rows[1].version)
    loaded = [engine.load_state(row.state) for row in rows]
    assert engine.private_view(loaded[0], 1) == engine.private_view(loaded[1], 1)
    assert engine.public_view(loaded[0]) == engine.public_view(loaded[1])
    moves = [await computer_moves(service) for service in services]
    # its seal in this round; what it plays after the reveal follows a public
    # position that differs (Alice's pass or place is shown then)
    assert moves[0] and moves[1] and moves[0][0] == moves[1][0]
