"""Kept rows (:mod:`bot.store.kept`) with the real games: a random game of each, with a
player's reads (their legal actions, as the picker reads them) between the steps, keeps
after every step and every read exactly the row a fresh load reads, so neither a step nor
a read's engine work changes a kept row's state behind the version check."""

from __future__ import annotations

import random

import pytest

from bot import plugins
from bot.service import GameService, Outcome
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL
from tests.platform.test_store_kept import _same
from tests.support.seated import open_game

pytestmark = BOTH_BACKENDS

PLAYERS = (ALICE, BOB, CAROL)
REGISTRY = plugins.load_builtin_games()
STEPS = 40


async def _check_kept(store: Store, game_id: int) -> str:
    """The kept row equals the stored one (or none is kept); the stored game's status."""
    fresh = await store.get_game(game_id)
    assert fresh is not None
    kept = store.kept_game_in(CHANNEL)
    if kept is not None:
        _same(kept, fresh)
    return fresh.status


@pytest.mark.parametrize(
    ("game", "options"),
    [("tigris", {}), ("tikal", {}), ("tikal", {"mode": "auction"}), ("temple", {})],
    ids=["tigris", "tikal", "tikal-auction", "temple"],
)
async def test_kept_rows_follow_a_random_game(
    store: Store, game: str, options: dict[str, str]
) -> None:
    service = GameService(store, REGISTRY, render=False)
    await open_game(service, game, *PLAYERS, seed=4, **options)
    row = await store.last_game_in(CHANNEL)
    assert row is not None
    game_id, engine = row.id, service.registry[row.game_type].engine
    rng = random.Random(game)
    from_kept = 0
    for _ in range(STEPS):
        row = await store.get_game(game_id)
        assert row is not None
        if row.status != "running":
            break
        awaited = sorted(engine.waiting_for(engine.load_state(row.state)))
        seat = rng.choice(awaited)
        player = next(p for p in PLAYERS if p.id == row.seats[seat].user_id)
        legal = await service.reading.legal_actions(CHANNEL, player)  # a read: it keeps its row
        assert legal
        assert await _check_kept(store, game_id) == "running"
        from_kept += store.kept_game_in(CHANNEL) is not None
        outcome = await service.play.act(CHANNEL, player, str(rng.choice(legal)))
        assert isinstance(outcome, Outcome)
        await _check_kept(store, game_id)
    assert from_kept >= STEPS // 2  # most steps started from a kept row
