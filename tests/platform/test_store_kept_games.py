"""Kept rows (:mod:`bot.store.kept`) with the real games: a random game of each, with a
player's reads (their legal actions, as the picker reads them) between the steps, keeps
after every step and every read exactly the row a fresh load reads, so neither a step nor
a read's engine work, nor a tap's, changes a kept row's state behind the version check."""

from __future__ import annotations

import random

import pytest

from bot import plugins
from bot.service import GameService, Outcome
from bot.service.menus import RESTART
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL
from tests.platform.test_store_kept import _same
from tests.support.seated import open_game

pytestmark = BOTH_BACKENDS

PLAYERS = (ALICE, BOB, CAROL)
REGISTRY = plugins.load_builtin_games()
STEPS = 40
TAPS = 120


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


@pytest.mark.parametrize(
    ("game", "options"),
    [("tigris", {}), ("tikal", {"mode": "mini"}), ("temple", {"joint": "on"})],
    ids=["tigris", "tikal-mini", "temple-joint"],
)
async def test_taps_leave_the_kept_row_as_stored(
    store: Store, game: str, options: dict[str, str]
) -> None:
    """Random taps of the move picker (its trials of a step that asks to be confirmed, its
    refusals and its steps included) read the game and keep what they read: after every
    tap the kept row is the stored one, so the engine work on a tap's loaded state never
    reaches the row a later move starts from."""
    service = GameService(store, REGISTRY, render=False)
    players = PLAYERS[:2] if game == "tikal" else PLAYERS
    await open_game(service, game, *players, seed=6, **options)
    row = await store.last_game_in(CHANNEL)
    assert row is not None
    game_id, engine = row.id, REGISTRY[game].engine
    chooser = random.Random(game)
    menu, player, checked = None, players[0], 0
    for _ in range(TAPS):
        if await _check_kept(store, game_id) != "running":
            break
        checked += store.kept_game_in(CHANNEL) is not None
        if menu is None:
            row = await store.get_game(game_id)
            assert row is not None
            seat = chooser.choice(sorted(engine.waiting_for(engine.load_state(row.state))))
            player = next(p for p in players if p.id == row.seats[seat].user_id)
            menu = (await service.tapping.tap(CHANNEL, player)).menu
            continue
        choices = [o for o in (*menu.options, *menu.controls) if o.token != RESTART]
        option = chooser.choice(choices)
        answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
        menu = None if answer.outcome is not None or answer.lines else answer.menu
    assert checked >= TAPS // 2
