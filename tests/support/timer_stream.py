"""A child process for the timer kill test: fires due timers of real games, one at a time.

``setup PATH N`` opens N games (Temple Rush rounds with a deadline, Tikal turns on a
clock, Oracle rounds with a deadline against a computer seat) in their own channels
and prints ``READY``. ``fire PATH`` fires every due
timer through the service (``fire_due_timers``, as the timer task does), with a
clock 30 days ahead so every deadline and turn clock is due, and prints ``DONE``.
The parent watches the timeout rows appear and kills it with SIGKILL in the
middle of that stream.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot import plugins
from bot.games.base import GameType
from bot.service import GameService, Player
from bot.store import Store
from tests.support import oracle_render, robots

AHEAD = 30 * 86_400.0
PLAYERS = (Player(1, "Ann"), Player(2, "Bo"))
#: (game, options) of the games, in turn
KINDS = (
    ("temple", {"deadline": "1h"}),
    ("tikal", {"mode": "mini", "clock": "1d"}),
    ("robot_oracle", {"deadline": "1h"}),
)
#: the game whose second seat is a computer player
COMPUTER_GAME = "robot_oracle"


def registry() -> dict[str, GameType]:
    """The product games and the Oracle with a computer player (not registered
    globally: the other tests' registry stays as it is)."""
    return {
        **plugins.load_builtin_games(),
        robots.ORACLE.name: GameType(robots.ORACLE, oracle_render.render_public),
    }


async def setup(path: str, count: int) -> None:
    store = await Store.open(path)
    service = GameService(store, registry(), render=False)
    for channel in range(1, count + 1):
        game, options = KINDS[channel % len(KINDS)]
        await service.lobby.new_game(
            guild_id=1,
            channel_id=channel,
            user=PLAYERS[0],
            game_type_name=game,
            options=options,
            seed=channel,
        )
        if game == COMPUTER_GAME:
            await service.lobby.add_computer(channel, PLAYERS[0], "easy")
        else:
            await service.lobby.join(channel, PLAYERS[1])
        await service.lobby.start(channel, PLAYERS[0])
    await store.close()
    print("READY", flush=True)


async def fire(path: str) -> None:
    store = await Store.open(path)
    service = GameService(
        store,
        registry(),
        render=False,
        clock=lambda: time.time() + AHEAD,
        computer_pause=0.0,
    )
    await service.timers.fire_due_timers()
    await store.close()
    print("DONE", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        asyncio.run(setup(sys.argv[2], int(sys.argv[3])))
    else:
        asyncio.run(fire(sys.argv[2]))
