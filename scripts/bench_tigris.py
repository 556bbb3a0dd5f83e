"""Tigris & Euphrates benchmark: render, service action latency, random games per second.

Prints figures; asserts nothing (timings belong in benchmarks, not tests).

* render: ``render_public(public_view(state))`` for a late-game 4-player board,
  median of 50, with the PNG's size and pixel dimensions;
* service action: one ``service.play.act`` on a real SQLite file (WAL,
  ``synchronous=FULL``: each move is fsynced before the reply), rendering
  off, median over a whole 4-player game;
* random full games per second, engine only.

Usage: ``python scripts/bench_tigris.py [--games N]``
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loops import add_loop_argument, run

from bot import games, plugins
from bot.games.base import PlayerLabel
from bot.service import SEAT_COLOURS, GameService, Player
from bot.store import Store

NAMES = ("Ishtar", "Gilgamesh", "Enheduanna", "Hammurabi")


def random_game(engine, players: int, seed: int) -> list[tuple[int, str]]:
    """One complete game with random legal actions; returns the move log."""
    chooser = random.Random(seed)
    state = engine.new_game(players, {}, seed)
    log: list[tuple[int, str]] = []
    while engine.result(state) is None:
        seat = chooser.choice(sorted(engine.waiting_for(state)))
        action = chooser.choice(engine.legal_actions(state, seat))
        engine.apply(state, seat, action)
        log.append((seat, str(action)))
    return log


def late_state(engine, log: list[tuple[int, str]], seed: int, fraction: float = 0.85):
    state = engine.new_game(4, {}, seed)
    for seat, text in log[: int(len(log) * fraction)]:
        engine.apply(state, seat, engine.parse_action(text))
    return state


def bench_render(game_type, state) -> None:
    engine = game_type.engine
    labels = [PlayerLabel(s, NAMES[s], SEAT_COLOURS[s]) for s in range(4)]
    view = engine.public_view(state)
    game_type.render_public(view, labels)  # warm the caches, as a running bot has
    times, png = [], b""
    for _ in range(50):
        start = time.perf_counter()
        png = game_type.render_public(engine.public_view(state), labels)
        times.append((time.perf_counter() - start) * 1000)
    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"render (late 4-player board): median {statistics.median(times):.1f} ms, "
        f"p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, "
        f"PNG {len(png) / 1024:.0f} KB at {width}x{height}"
    )


async def bench_service(log: list[tuple[int, str]], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        try:
            service = GameService(store, games.REGISTRY, render=False)
            players = [Player(100 + n, NAMES[n]) for n in range(4)]
            await service.lobby.new_game(
                guild_id=1, channel_id=1, user=players[0], game_type_name="tigris", seed=seed
            )
            for player in players[1:]:
                await service.lobby.join(1, player)
            await service.lobby.start(1, players[0])
            row = await store.latest_game_in(1)
            by_seat = {s.seat: next(p for p in players if p.id == s.user_id) for s in row.seats}
            times = []
            for seat, text in log:
                start = time.perf_counter()
                await service.play.act(1, by_seat[seat], text)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"service action (no render, fsynced commit): median "
                f"{statistics.median(times):.2f} ms, p90 "
                f"{statistics.quantiles(times, n=10)[-1]:.2f} ms over {len(times)} actions"
            )
        finally:
            await store.close()


def bench_games(engine, count: int) -> None:
    start = time.perf_counter()
    actions = 0
    for n in range(count):
        actions += len(random_game(engine, 2 + n % 3, 1000 + n))
    elapsed = time.perf_counter() - start
    print(
        f"random full games: {count / elapsed:.2f} games/s "
        f"({actions / elapsed:.0f} actions/s, {count} games of 2-4 players)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    add_loop_argument(parser)
    args = parser.parse_args()
    registry = plugins.load_builtin_games()
    game_type = registry["tigris"]
    seed = 7
    log = random_game(game_type.engine, 4, seed)
    bench_render(game_type, late_state(game_type.engine, log, seed))
    run(bench_service(log, seed), args.loop)
    bench_games(game_type.engine, args.games)


if __name__ == "__main__":
    main()
