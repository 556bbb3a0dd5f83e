"""A started game straight in the store, below the service: the store tests' fixture position."""

from __future__ import annotations

from bot.store import GameRow, Store


async def running_oracle(store: Store, channel: int = 1) -> GameRow:
    """An Oracle game in ``channel``, Ann (10) and Ben (11) seated and started, as stored."""
    game = await store.create_game(
        guild_id=1,
        channel_id=channel,
        game_type="oracle",
        creator_id=10,
        creator_name="Ann",
        options={},
        seed=5,
    )
    await store.add_seat(game, 11, "Ben")
    game = await store.get_game(game.id)
    await store.start_game(game, {"n": 0}, [11, 10], ["#111111", "#222222"])
    started = await store.get_game(game.id)
    assert started is not None
    return started
