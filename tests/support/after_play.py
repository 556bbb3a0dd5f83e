"""Playing whole games through the service for the after-the-game tests.

:func:`play_out` plays random legal moves (and now and then takes one back)
until the game ends, letting deadlines pass now and then, and records what
the channel was shown: after each public message, the public view of the
game's *stored* state — what an export must draw again.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service import GameService, Outcome, Player, Refusal, StepKind

#: how often an acting player takes the step back (when it can be)
UNDO_CHANCE = 0.15
#: how often the awaited players let a deadline pass
SLEEP_CHANCE = 0.05


@dataclass
class Clock:
    """A test clock the service reads; jumps to deadlines."""

    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Played:
    """What the channel saw: each public message's board view, and the last outcome."""

    views: list[Any] = field(default_factory=list)
    boards: list[bytes] = field(default_factory=list)
    final: Outcome | None = None
    undos: int = 0


async def _shown(service: GameService, channel: int, outcome: Outcome, played: Played) -> None:
    if outcome.kind not in (StepKind.HANDOFF, StepKind.FINAL):
        return
    row = await service.store.latest_game_in(channel)
    assert row is not None and row.state is not None
    engine = service.registry[row.game_type].engine
    played.views.append(engine.public_view(engine.load_state(row.state)))
    if outcome.news is not None and outcome.news.board is not None:
        played.boards.append(outcome.news.board)
    if outcome.finished:
        played.final = outcome


async def start_game(
    service: GameService,
    channel: int,
    game: str,
    players: Sequence[Player],
    *,
    guild: int = 1,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> Played:
    """Open, fill and start a game; the start's board is the first one shown."""
    await service.lobby.new_game(
        guild_id=guild,
        channel_id=channel,
        user=players[0],
        game_type_name=game,
        options=options or {},
        seed=seed,
    )
    for player in players[1:]:
        await service.lobby.join(channel, player)
    played = Played()
    await _shown(service, channel, await service.lobby.start(channel, players[0]), played)
    return played


async def play_out(
    service: GameService,
    channel: int,
    players: Sequence[Player],
    rng: random.Random,
    clock: Clock,
    played: Played,
    *,
    max_steps: int = 20_000,
    stop_after: int | None = None,
) -> Played:
    """Random legal moves until the game ends (or ``stop_after`` steps)."""
    people = {p.id: p for p in players}
    for step in range(max_steps):
        if played.final is not None or (stop_after is not None and step >= stop_after):
            return played
        row = await service.store.latest_game_in(channel)
        assert row is not None and row.status == "running"
        engine = service.registry[row.game_type].engine
        awaited = sorted(engine.waiting_for(engine.load_state(row.state)))
        deadlines = [t for t in await service.store.timers(row.id) if t.kind == "deadline"]
        if deadlines and (not awaited or rng.random() < SLEEP_CHANCE):
            clock.now = min(t.due_at for t in deadlines) + 1
            for outcome in await service.timers.fire_due_timers():
                await _shown(service, channel, outcome, played)
            continue
        player = people[row.seats[rng.choice(awaited)].user_id]
        actions = await service.reading.legal_actions(channel, player)
        try:
            outcome = await service.play.act(channel, player, str(rng.choice(actions)))
        except Refusal:
            continue
        await _shown(service, channel, outcome, played)
        if outcome.kind is StepKind.CONTINUE and rng.random() < UNDO_CHANCE:
            with contextlib.suppress(Refusal):
                await service.play.undo(channel, player)
                played.undos += 1
    raise AssertionError("the game did not end")
