"""Tikal benchmark: prints figures, asserts nothing.

* the late-game 4-player board: render + encode, median of 50 (target
  ≤ 40 ms), PNG size (≤ 250 KB) and width (≥ 1200 px);
* one autocomplete answer for a move's destination on that crowded board
  (target ≤ 50 ms), with and without the start chosen;
* random full games per second (target: a game ≤ 1 s);
* one engine step (``apply`` of a move), median;
* one step through the service on a real SQLite file (a 4-player game
  played by random legal steps): p50/p99 with no image and with the
  player's preview or the hand-off board drawn, beside the bare commit and
  the bare PNG encode of one board.

Run: ``.venv/bin/python scripts/bench_tikal.py``
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench_floors import floor_commit
from loops import add_loop_argument, run
from PIL import Image

from bot import plugins
from bot.games.base import PlayerLabel
from bot.games.tikal import ENGINE, legal
from bot.games.tikal.selfplay import choose, random_game
from bot.games.tikal.state import PHASE_ACTIONS, GameState, copy_state
from bot.service import GameService, Player
from bot.store import Store
from renderer import tikal as render
from renderer.common import encode_png

PLAYERS = [
    PlayerLabel(seat, name, colour.hex)
    for seat, (name, colour) in enumerate(
        zip(("Alice", "Bob", "Carol", "Dave"), ENGINE.seat_colours, strict=True)
    )
]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def timed(function, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def late_board(seed: int = 3) -> GameState:
    """A 4-player base game near its end, at the start of a turn's actions (10 AP),
    with figures everywhere."""
    full = random_game("base", 4, seed)
    game = random_game("base", 4, seed, stop_after=int(len(full.log) * 0.85)).state
    rng = random.Random(seed)
    while game.phase != PHASE_ACTIONS or game.turn is None or game.turn.ap < 10:
        (seat,) = ENGINE.waiting_for(game)
        ENGINE.apply(game, seat, choose(game, seat, rng))
    return game


def bench_render(game: GameState) -> None:
    view = ENGINE.public_view(game)
    start = time.perf_counter()
    png = render.render_public(view, PLAYERS)
    print(f"render, first (caches cold): {ms(time.perf_counter() - start)}")
    times = timed(lambda: render.render_public(view, PLAYERS), 50)
    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"render + encode, late 4-player board: median {ms(statistics.median(times))}, "
        f"p90 {ms(sorted(times)[44])} over 50; {len(png) / 1024:.0f} KB; {width}x{height} px"
    )


def bench_autocomplete(game: GameState) -> None:
    (seat,) = ENGINE.waiting_for(game)
    hexes = sum(1 for h in game.hexes.values() if h.figures)
    figures = sum(f.count for h in game.hexes.values() for f in h.figures.values())
    origins = legal.figure_spaces(game, seat)
    best = max(origins, key=lambda s: len(legal.destinations(game, seat, s)))
    from bot.games.tikal.board import space_name

    origin = space_name(best)
    chosen = {"origin": origin}
    times = timed(lambda: ENGINE.legal_values(game, seat, "move", "target", chosen), 50)
    count = len(ENGINE.legal_values(game, seat, "move", "target", chosen))
    print(
        f"autocomplete move target from {origin} ({len(game.hexes)} hexes, {figures} figures "
        f"on {hexes}): median {ms(statistics.median(times))}, max {ms(max(times))}, "
        f"{count} values"
    )
    times = timed(lambda: ENGINE.legal_values(game, seat, "move", "target", {}), 50)
    print(
        f"autocomplete move target, no start chosen ({len(origins)} starts): "
        f"median {ms(statistics.median(times))}, max {ms(max(times))}"
    )
    times = timed(lambda: ENGINE.legal_actions(game, seat), 20)
    print(f"legal_actions (all verbs): median {ms(statistics.median(times))}")


def bench_games() -> None:
    configs = [("base", 4), ("auction", 4), ("base", 2), ("mini", 2)]
    for mode, seats in configs:
        start = time.perf_counter()
        steps = 0
        games = 10
        for seed in range(games):
            steps += len(random_game(mode, seats, seed).log)
        elapsed = time.perf_counter() - start
        print(
            f"random full games, {mode} {seats}p: {games / elapsed:.1f} games/s "
            f"({elapsed / games * 1000:.0f} ms a game, {steps / games:.0f} steps)"
        )


def bench_step(game: GameState) -> None:
    (seat,) = ENGINE.waiting_for(game)
    moves = legal.actions_for(game, seat, "move") or legal.actions_for(game, seat, "end")
    action = moves[len(moves) // 2]
    copies = [copy_state(game) for _ in range(200)]
    times = []
    for copy in copies:
        start = time.perf_counter()
        ENGINE.apply(copy, seat, action)
        times.append(time.perf_counter() - start)
    print(f"engine step (apply `{action}`): median {ms(statistics.median(times))}")
    start = time.perf_counter()
    for copy in copies[:50]:
        ENGINE.public_view(copy)
    print(f"public_view: {ms((time.perf_counter() - start) / 50)} each")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def service_steps(service: GameService, channel: int, count: int) -> list[float]:
    """Milliseconds of ``count`` random legal steps of a new 4-player game in ``channel``."""
    users = [Player(100 + seat, label.name) for seat, label in enumerate(PLAYERS)]
    await service.lobby.new_game(
        guild_id=1, channel_id=channel, user=users[0], game_type_name="tikal"
    )
    for user in users[1:]:
        await service.lobby.join(channel, user)
    await service.lobby.start(channel, users[0], keep_order=True)
    rng = random.Random(channel)
    times = []
    for _ in range(count):
        row = await service.store.latest_game_in(channel)
        assert row is not None and row.state is not None
        game = ENGINE.load_state(row.state)
        waiting = sorted(ENGINE.waiting_for(game))
        if not waiting:
            break
        seat = waiting[0]
        action = str(choose(game, seat, rng))
        start = time.perf_counter()
        await service.play.act(channel, users[seat], action)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench_service(board: GameState) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        floor = await floor_commit(folder)
        image = Image.open(io.BytesIO(render.render_public(ENGINE.public_view(board), PLAYERS)))
        encode = timed(lambda: encode_png(image), 20)
        print(
            f"floors: bare INSERT+COMMIT p50 {pct(floor, 0.5):.2f} ms; "
            f"bare PNG encode of the late board {ms(statistics.median(encode))}"
        )
        store = await Store.open(folder / "bench.db")
        try:
            registry = plugins.load_builtin_games()
            for render_on, channel in ((False, 1), (True, 2)):
                service = GameService(store, registry, render=render_on)
                times = await service_steps(service, channel, 200)
                what = "with the preview or board drawn" if render_on else "no image"
                print(
                    f"a step through the service, {what}: p50 {pct(times, 0.5):.2f} ms, "
                    f"p99 {pct(times, 0.99):.2f} ms over {len(times)} steps"
                )
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_loop_argument(parser)
    args = parser.parse_args()
    game = late_board()
    bench_render(game)
    bench_autocomplete(game)
    bench_step(game)
    bench_games()
    run(bench_service(game), args.loop)


if __name__ == "__main__":
    main()
