"""A child process for the kill test: games with computer seats, played through the service.

Three channels at a time, each a game of one member and computer seats (Robot
Oracle, Robot Relay, Temple Rush and Mini-Tikal): the member plays random legal
moves (Relay takes one back now and then, a seat is given back or resigned
now and then), and the due computer timers are fired between commands as the
bot's timer task would, the computers deciding in the real deciding
processes. After each acknowledged command it prints ``ACK <game_id> <seq>
<action>`` (the last move then stored) and flushes. The parent kills it with
SIGKILL at a random moment: mid-decision, mid-commit, between a seat's change
and the next step.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.games.base import GameType
from bot.service import GameService, Outcome, Player, Refusal
from bot.store import Store

MEMBER = Player(1, "A")
#: the games played, each with its options and computer levels
GAMES: tuple[tuple[str, dict[str, str], tuple[str, ...]], ...] = (
    ("robot_oracle", {}, ("easy", "strong")),
    ("robot_relay", {}, ("easy",)),
    ("temple", {"deadline": "1h"}, ("easy",)),
    ("tikal", {"mode": "mini"}, ("easy",)),
)


def registry() -> dict[str, GameType]:
    """The product games and the robot test games (their computer players)."""
    from bot import games, plugins
    from tests.conftest import ORACLE, RELAY, register_oracle
    from tests.support import robots

    register_oracle()
    return {
        **games.REGISTRY,
        **plugins.load_builtin_games(),
        "robot_oracle": GameType(robots.ORACLE, ORACLE.render_public),
        "robot_relay": GameType(robots.RELAY, RELAY.render_public),
    }


async def ack(store: Store, channel: int) -> None:
    game = await store.latest_game_in(channel)
    if game is None:
        return
    moves = await store.moves(game.id, last=1)
    if moves:
        print(f"ACK {game.id} {moves[-1].seq} {moves[-1].action}", flush=True)


async def open_game(service: GameService, channel: int, rng: random.Random) -> None:
    name, options, levels = GAMES[channel % len(GAMES)]
    await service.lobby.new_game(
        guild_id=1,
        channel_id=channel,
        user=MEMBER,
        game_type_name=name,
        options=options,
        seed=rng.randrange(1000),
    )
    for level in levels:
        await service.lobby.add_computer(channel, MEMBER, level)
    await service.lobby.start(channel, MEMBER)


async def member_step(service: GameService, channel: int, rng: random.Random) -> Outcome | None:
    """One command of the member's: mostly a legal move."""
    game = await service.store.latest_game_in(channel)
    assert game is not None
    roll = rng.random()
    with contextlib.suppress(Refusal):
        if roll < 0.05:
            return await service.play.undo(channel, MEMBER)
        if roll < 0.07:
            return await service.seats.back(channel, MEMBER)
        if roll < 0.075:  # the member leaves: the computers alone wait for a member
            await service.seats.resign(channel, MEMBER, confirmed=True)
            return await service.lobby.abandon(
                channel, MEMBER, can_manage_channel=True, confirmed=True
            )
        legal = await service.reading.legal_actions(channel, MEMBER)
        if legal:
            return await service.play.act(channel, MEMBER, str(rng.choice(legal)))
    return None


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    now = [1_000_000.0]
    service = GameService(store, registry(), render=False, computer_pause=0.0, clock=lambda: now[0])
    rng = random.Random(seed)
    channels = [1, 2, 3]
    next_channel = 4
    for channel in channels:
        await open_game(service, channel, rng)
    while True:
        channel = rng.choice(channels)
        game = await store.latest_game_in(channel)
        if game is None or game.status != "running":
            channels.remove(channel)
            channels.append(next_channel)
            await open_game(service, next_channel, rng)
            next_channel += 1
            continue
        if await member_step(service, channel, rng) is not None:
            await ack(store, channel)
        if rng.random() < 0.1:  # a deadline or a turn clock runs out
            timers = await store.timers()
            if timers:
                now[0] = max(now[0], min(t.due_at for t in timers))
        for outcome in await service.timers.fire_due_timers():
            if outcome.channel_id is not None:
                await ack(store, outcome.channel_id)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
