"""The offline demo: one complete game through the service, random legal moves.

It uses the same :class:`~bot.service.GameService` as the Discord adapter, on
a real SQLite file in the output folder, so what it shows is what a channel
would see: every public message (in English), every board image written as
``DIR/NNNN.png``, and as its last line the final ranking.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

from bot import games, plugins
from bot.i18n import Text, t
from bot.service import GameService, Outcome, Player
from bot.store import Store

DEMO_CHANNEL = 1
DEMO_GUILD = 1
#: an upper bound on moves; a game that has not ended by then is reported as stuck
MAX_MOVES = 20_000


def _say(lines: Sequence[Text]) -> None:
    for line in lines:
        print(t("en", line.key, **line.params))


async def run_demo(game: str, players: int, seed: int, out: Path) -> int:
    """Play one game; return a process exit code."""
    registry = games.REGISTRY or plugins.load_builtin_games()
    if game not in registry:
        print(t("en", "app.demo_unknown_game", game=game, games=", ".join(sorted(registry))))
        return 2
    engine = registry[game].engine
    if not engine.min_players <= players <= engine.max_players:
        print(
            t(
                "en",
                "app.demo_bad_players",
                game=game,
                min=engine.min_players,
                max=engine.max_players,
            )
        )
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    database = out / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    store = await Store.open(database)
    try:
        service = GameService(store, registry)
        chooser = random.Random(seed)
        seated = [Player(1000 + n, t("en", "demo.player", number=n + 1)) for n in range(players)]
        print(t("en", "demo.header", game=game, players=players, seed=seed))
        boards = 0

        def show(outcome: Outcome) -> None:
            nonlocal boards
            _say(outcome.public)
            if outcome.board is not None:
                boards += 1
                (out / f"{boards:04d}.png").write_bytes(outcome.board)

        show(
            await service.new_game(
                guild_id=DEMO_GUILD,
                channel_id=DEMO_CHANNEL,
                user=seated[0],
                game_type_name=game,
                seed=seed,
            )
        )
        for player in seated[1:]:
            show(await service.join(DEMO_CHANNEL, player))
        outcome = await service.start(DEMO_CHANNEL, seated[0])
        show(outcome)
        by_id = {p.id: p for p in seated}
        for _ in range(MAX_MOVES):
            if outcome.finished:
                break
            player = by_id[chooser.choice(sorted(outcome.ping))]
            actions = await service.legal_actions(DEMO_CHANNEL, player)
            outcome = await service.act(DEMO_CHANNEL, player, str(chooser.choice(actions)))
            show(outcome)
        else:
            print(t("en", "app.demo_stuck", moves=MAX_MOVES))
            return 1
        row = await store.latest_game_in(DEMO_CHANNEL)
        assert row is not None
        result = engine.result(engine.load_state(row.state))
        assert result is not None
        print(t("en", "app.demo_board_written", path=out))
        _say([service.ranking_text(row, result)])
        return 0
    finally:
        await store.close()


def main(game: str, players: int, seed: int, out: str) -> int:
    return asyncio.run(run_demo(game, players, seed, Path(out)))
