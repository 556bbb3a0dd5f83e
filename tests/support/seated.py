"""Service-level helpers shared by the table and turn-shape tests: a started game in
the test channel, its row, and the Relay seat to move."""

from __future__ import annotations

from bot.service import GameService, Player
from bot.store import GameRow, Store
from tests.conftest import CHANNEL, GUILD
from tests.support import relay


async def open_game(
    service: GameService, game: str, *players: Player, seed: int, **options: str
) -> None:
    """Open ``game`` in the test channel, seat ``players`` (the first creates it), start."""
    await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=players[0],
        game_type_name=game,
        options=options,
        seed=seed,
    )
    for player in players[1:]:
        await service.lobby.join(CHANNEL, player)
    await service.lobby.start(CHANNEL, players[0])


async def channel_row(store: Store) -> GameRow:
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    return row


async def relay_mover(service: GameService, players: tuple[Player, ...]) -> Player:
    """The player whose turn a Relay game in the test channel awaits."""
    row = await channel_row(service.store)
    (seat,) = relay.ENGINE.waiting_for(relay.ENGINE.load_state(row.state))
    return next(p for p in players if p.id == row.seats[seat].user_id)
