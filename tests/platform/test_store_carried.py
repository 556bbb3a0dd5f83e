"""What a game is read with, so a step needs no read of its own, on both backends: its
named deadlines (:attr:`~bot.store.GameRow.deadlines`), exact; a step's
:meth:`~bot.store.StepWrite.deadlines_after` is what the store then holds, and a sealed
round's tally tells the stored deadline without reading the timers again; and the moves
since its last public message (:meth:`~bot.store.GameRow.pending_moves`), which a
hand-off lists without reading them again."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot import games
from bot.service import GameService, StepKind
from bot.service.replay import standing
from bot.store import KEEP, GameRow, StepWrite, Store, VersionConflict
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL
from tests.support import oracle
from tests.support.seated import channel_row, open_game, relay_mover
from tests.support.stored import running_oracle

pytestmark = BOTH_BACKENDS

ORACLE = oracle.ENGINE
#: how the timers' read of a tally starts (:meth:`bot.store.Store.timers`)
TIMERS_READ = "SELECT * FROM timers"
#: how a read of the moves since a seq starts (:meth:`bot.store.Store.moves`)
MOVES_READ = "SELECT seq, seat, action"


async def _stored_deadlines(store: Store, game_id: int) -> dict[str, float]:
    return {t.name: t.due_at for t in await store.timers(game_id) if t.kind == "deadline"}


async def test_a_row_carries_its_deadlines_exactly_and_a_step_says_what_it_leaves(
    store: Store,
) -> None:
    row = await running_oracle(store)
    assert row.deadlines == {}
    rng = random.Random(30)
    names = ["round:1", "round:2", "race", "ein'er"]
    for n in range(1, 25):
        # due times with every digit a double has; names kept, added and dropped
        wanted = {
            name: 1_700_000_000 + rng.random() * 1e8
            for name in rng.sample(names, rng.randint(0, len(names)))
        }
        step = StepWrite(
            state={"n": n},
            status="running",
            moves=[],
            deadlines=KEEP if rng.random() < 0.25 else wanted,
        )
        expected = step.deadlines_after(row.deadlines)
        await store.commit_step(row, step)
        stored = await _stored_deadlines(store, row.id)
        loaded = await store.get_game(row.id)
        assert loaded is not None
        assert expected == stored == loaded.deadlines, n
        assert loaded.deadlines is not None
        assert all(type(due) is float for due in loaded.deadlines.values())
        row = loaded
    # a refused step changes nothing, and the row read before it is still the version's
    stale = row
    await store.commit_step(row, StepWrite(state={"n": 99}, status="running", moves=[]))
    with pytest.raises(VersionConflict):
        await store.commit_step(
            stale, StepWrite(state={"n": 100}, status="running", moves=[], deadlines={"x": 1.5})
        )
    assert await _stored_deadlines(store, row.id) == row.deadlines


def _timer_writes(sent: list[str]) -> list[str]:
    """The statements sent that change timers (a plan's script traced as its statements)."""
    parts = [part.strip() for text in sent for part in text.split(";\n")]
    return [p for p in parts if p.startswith(("INSERT INTO timers", "DELETE FROM timers"))]


async def test_a_step_keeping_its_deadline_names_writes_no_timer_and_a_change_writes_them(
    store: Store,
) -> None:
    row = await running_oracle(store)
    sent: list[str] = []

    async def step(row: GameRow, deadlines: dict[str, float], **more: Any) -> GameRow:
        sent.clear()
        await store.trace(sent.append)
        await store.commit_step(
            row, StepWrite(state={}, status="running", moves=[], deadlines=deadlines, **more)
        )
        await store.trace(None)
        loaded = await store.get_game(row.id)
        assert loaded is not None
        assert loaded.deadlines == await _stored_deadlines(store, row.id)
        return loaded

    row = await step(row, {"round:1": 100.5})  # new: written
    assert _timer_writes(sent) and row.deadlines == {"round:1": 100.5}
    row = await step(row, {"round:1": 200.5})  # the same name: nothing to write
    assert _timer_writes(sent) == [] and row.deadlines == {"round:1": 100.5}
    row = await step(row, {"round:1": 300.5, "race": 7.25})  # one more: written
    assert _timer_writes(sent) and row.deadlines == {"round:1": 100.5, "race": 7.25}
    row = await step(row, {"race": 8.0})  # one dropped: written
    assert _timer_writes(sent) and row.deadlines == {"race": 7.25}
    # a row whose deadlines are not known (not read from the store) writes them, which
    # restores one lost meanwhile
    for timer in await store.timers(row.id):
        await store.delete_timer(timer.id)
    row = await step(replace(row, deadlines=None), {"race": 9.0})
    assert _timer_writes(sent) and row.deadlines == {"race": 9.0}
    # a step firing a timer writes them too (the fired one may be among them)
    fired = await store.add_timer(50.0, "deadline", row.id, name="other")
    row = await step(replace(row, deadlines={"race": 9.0}), {"race": 10.0}, fired=fired)
    assert _timer_writes(sent) and row.deadlines == {"race": 9.0}


async def test_a_step_that_fires_a_timer_or_ends_the_game_leaves_its_deadlines_unknown(
    store: Store,
) -> None:
    del store  # no database: the rule alone (on each backend's run, as the file's)
    before = {"round:1": 1_700_000_000.25}
    running = StepWrite(state={}, status="running", moves=[], deadlines={"round:2": 5.0})
    assert running.deadlines_after(before) == {"round:2": 5.0}
    assert running.deadlines_after(None) is None
    fired = StepWrite(state={}, status="running", moves=[], deadlines={"round:1": 5.0}, fired=3)
    assert fired.deadlines_after(before) is None
    over = StepWrite(state={}, status="finished", moves=[])
    assert over.deadlines_after(before) is None


async def test_a_submissions_tally_tells_the_stored_deadline_without_reading_or_writing_the_timers(
    store: Store,
) -> None:
    now = [1_000_000.123456789]
    service = GameService(store, games.REGISTRY, render=False, clock=lambda: now[0])
    players = (ALICE, BOB, CAROL)
    await open_game(service, "oracle", *players, seed=5, deadline="1h")
    row = await channel_row(store)
    [due] = (await _stored_deadlines(store, row.id)).values()
    for player in (ALICE, BOB):
        now[0] += 600.5  # a submission keeps the round's deadline
        state = ORACLE.load_state((await channel_row(store)).state)
        hand = state.hands[row.seat_of(player.id).seat]
        sent: list[str] = []
        await store.trace(sent.append)
        outcome = await service.play.act(CHANNEL, player, f"play {hand[0]}")
        await store.trace(None)
        assert outcome.kind is StepKind.SUBMISSION
        tally = {line.key: line.params for line in outcome.tally or []}
        assert tally["tally.deadline"] == {"when": int(due)}
        assert not [s for s in sent if s.lstrip().startswith(TIMERS_READ)], sent
        assert _timer_writes(sent) == [], sent  # the round's deadline is left as it is
        assert await _stored_deadlines(store, row.id) == {"round:1": due}
    # the round's last: revealed, then the chooser's decision opens no round yet
    state = ORACLE.load_state((await channel_row(store)).state)
    sent = []
    await store.trace(sent.append)
    last = await service.play.act(
        CHANNEL, CAROL, f"play {state.hands[row.seat_of(CAROL.id).seat][0]}"
    )
    await store.trace(None)
    assert last.kind is StepKind.HANDOFF
    assert any(s.startswith("DELETE FROM timers") for s in _timer_writes(sent)), sent
    assert await _stored_deadlines(store, row.id) == {}


async def test_a_row_carries_the_moves_since_its_last_public_message(
    service: GameService, store: Store
) -> None:
    players = (ALICE, BOB)
    await open_game(service, "relay", *players, seed=5)
    rng = random.Random(30)
    handoffs = 0
    for _ in range(60):
        row = await channel_row(store)
        carried = row.pending_moves()
        assert carried == await store.moves(row.id, after=row.published_seq)
        assert (carried == []) == (row.published_seq >= row.last_seq)
        assert "pending" not in repr(row)
        if row.status != "running":
            break
        mover = await relay_mover(service, players)
        sent: list[str] = []
        await store.trace(sent.append)
        roll = rng.random()
        if roll < 0.2 and standing(carried or []):
            await service.play.undo(CHANNEL, mover)
            await store.trace(None)
            continue
        action = "end" if roll > 0.7 else "step 1"
        outcome = await service.play.act(CHANNEL, mover, action)
        await store.trace(None)
        if outcome.kind is StepKind.HANDOFF:
            handoffs += 1
            # every standing step of the turn is told, read with the game, not after it
            assert outcome.news is not None
            stepped = [line for line in outcome.news.lines if line.key == "relay.event.stepped"]
            told = [e for m in standing(carried or []) for e in m.events]
            own = action != "end"  # a step that used the turn's last points tells itself
            assert len(stepped) == sum(key == "relay.event.stepped" for key, _ in told) + own
            assert not [s for s in sent if s.lstrip().startswith(MOVES_READ)], sent
    assert handoffs >= 5
