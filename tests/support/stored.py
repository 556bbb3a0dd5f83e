"""A started game straight in the store, below the service: the store tests' fixture position."""

from __future__ import annotations

from typing import Any

from bot.store import GameRow, Store


async def started_game(
    store: Store, game_type: str, state: Any, channel: int = 1, order: tuple[int, int] = (11, 10)
) -> GameRow:
    """A ``game_type`` game in ``channel`` with ``state``, Ann (10) and Ben (11) seated in
    ``order`` and started, as stored."""
    game = await store.create_game(
        guild_id=1,
        channel_id=channel,
        game_type=game_type,
        creator_id=10,
        creator_name="Ann",
        options={},
        seed=5,
    )
    await store.add_seat(game, 11, "Ben")
    game = await store.get_game(game.id)
    await store.start_game(game, state, list(order), ["#111111", "#222222"])
    started = await store.get_game(game.id)
    assert started is not None
    return started


async def running_oracle(store: Store, channel: int = 1) -> GameRow:
    """An Oracle game in ``channel``, Ann (10) and Ben (11) seated and started, as stored."""
    return await started_game(store, "oracle", {"n": 0}, channel)
