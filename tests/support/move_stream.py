"""A child process for the kill test: plays Oracle and Relay games through the service forever.

Relay games take steps back now and then (``undo``), so the log holds undo rows.

After each acknowledged move it prints ``ACK <game_id> <seq>`` and flushes,
exactly as the Discord adapter would answer a player only after
``service.play.act`` returned. The parent kills it with SIGKILL at a random
moment and checks that every acknowledged move is in the database.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.service import GameService, Player, Refusal
from bot.store import Store
from tests.conftest import register_oracle


async def main(path: str, seed: int) -> None:
    register_oracle()
    store = await Store.open(path)
    from bot import games

    service = GameService(store, games.REGISTRY, render=False)
    chooser = random.Random(seed)
    players = [Player(1, "A"), Player(2, "B"), Player(3, "C")]
    channel = 0
    while True:
        channel += 1
        game_type = "relay" if channel % 2 == 0 else "oracle"
        engine = games.REGISTRY[game_type].engine
        await service.lobby.new_game(
            guild_id=1,
            channel_id=channel,
            user=players[0],
            game_type_name=game_type,
            seed=chooser.randrange(1000),
        )
        for player in players[1:]:
            await service.lobby.join(channel, player)
        outcome = await service.lobby.start(channel, players[0])
        while not outcome.finished:
            game = await store.latest_game_in(channel)
            awaited = sorted(engine.waiting_for(engine.load_state(game.state)))
            user_id = game.seats[chooser.choice(awaited)].user_id
            user = next(p for p in players if p.id == user_id)
            if game_type == "relay" and chooser.random() < 0.2:
                try:
                    outcome = await service.play.undo(channel, user)
                except Refusal:
                    continue
            else:
                action = chooser.choice(await service.reading.legal_actions(channel, user))
                outcome = await service.play.act(channel, user, str(action))
            game = await store.latest_game_in(channel)
            moves = await store.moves(game.id, last=1)
            print(f"ACK {game.id} {moves[-1].seq} {moves[-1].action}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
