"""A step with no read (:mod:`bot.store.kept`), on both backends: the game as this process
last read or committed it is kept, a step starts from it, and its version check is the
guard; another writer (a second ``Store`` on the same database: another process of a
cluster) makes the step run again from the game read afresh, so the player is answered
as a fresh load would answer; every write of a game drops or updates its kept row; at
most ``size`` games are kept."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest

from bot import games
from bot.service import GameService, Outcome, Player, Refusal
from bot.store import KEEP, GameRow, NewMove, StepWrite, Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CHANNEL
from tests.support import relay
from tests.support.seated import open_game
from tests.support.stored import running_oracle

pytestmark = BOTH_BACKENDS

PLAYERS = (ALICE, BOB)


def _same(kept: GameRow | None, fresh: GameRow | None) -> None:
    """``kept`` is the row a load reads: every field, and the moves since the last public
    message as :meth:`~bot.store.GameRow.pending_moves` reads them (the JSON text itself
    is each database's own)."""
    assert kept is not None and fresh is not None
    assert kept.pending_moves() == fresh.pending_moves()
    assert replace(kept, pending_json=None) == replace(fresh, pending_json=None)
    assert [s.secret for s in kept.seats] == [s.secret for s in fresh.seats]


def _mover(row: GameRow) -> Player:
    (seat,) = relay.ENGINE.waiting_for(relay.ENGINE.load_state(row.state))
    return next(p for p in PLAYERS if p.id == row.seats[seat].user_id)


async def _stored(store: Store) -> GameRow:
    row = await store.open_game_in(CHANNEL)
    assert row is not None
    return row


async def _traced(store: Store, work: Awaitable[Any]) -> tuple[Any, list[str]]:
    sent: list[str] = []
    await store.trace(sent.append)
    try:
        return await work, sent
    finally:
        await store.trace(None)


def _reads(sent: list[str]) -> list[str]:
    return [s for s in sent if s.lstrip().upper().startswith("SELECT")]


@pytest.fixture
async def second(database_url: str) -> AsyncIterator[Store]:
    """Another process's store on the same database."""
    other = await Store.open(database_url)
    yield other
    await other.close()


async def test_a_step_from_a_kept_row_reads_nothing_and_keeps_what_a_load_reads(
    service: GameService, store: Store, backend: str
) -> None:
    await open_game(service, "relay", *PLAYERS, seed=5)
    rng = random.Random(11)
    from_kept = played = 0
    for _ in range(40):
        kept = store.kept_game_in(CHANNEL)
        row = kept or await store.last_game_in(CHANNEL)
        assert row is not None
        if row.status != "running":
            break
        action = "end" if rng.random() < 0.3 else "step 1"
        outcome, sent = await _traced(store, service.play.act(CHANNEL, _mover(row), action))
        assert isinstance(outcome, Outcome)
        assert outcome.version == row.version + 1
        played += 1
        if kept is not None:  # it started from the kept row: no read, one statement
            from_kept += 1
            assert _reads(sent) == [], sent
            if backend == "postgres":
                assert len(sent) == 1, sent
        fresh = await store.get_game(row.id)
        assert fresh is not None
        if fresh.status == "running":  # the row the step left is kept: what a load reads
            _same(store.kept_game_in(CHANNEL), fresh)
        else:
            assert store.kept_game_in(CHANNEL) is None
    assert from_kept == played - 1 and played > 10  # only the first step read its game


async def test_the_same_moves_from_kept_rows_replay_to_the_same_game(store: Store) -> None:
    """The game a sequence of moves leaves is the same whether each step starts from a
    kept row or from a load (every load a read, in another channel)."""
    service = GameService(store, games.REGISTRY, render=False)
    await open_game(service, "relay", *PLAYERS, seed=9)
    rng = random.Random(3)
    actions: list[tuple[Player, str]] = []
    for _ in range(30):
        row = store.kept_game_in(CHANNEL) or await store.last_game_in(CHANNEL)
        assert row is not None
        if row.status != "running":
            break
        mover, action = _mover(row), "end" if rng.random() < 0.3 else "step 1"
        actions.append((mover, action))
        await service.play.act(CHANNEL, mover, action)
    kept_game = await store.last_game_in(CHANNEL)
    assert kept_game is not None
    # the same moves again from fresh loads, in another channel of the same database
    store.keep_games(0)
    await service.lobby.new_game(
        guild_id=1, channel_id=CHANNEL + 1, user=PLAYERS[0], game_type_name="relay", seed=9
    )
    await service.lobby.join(CHANNEL + 1, PLAYERS[1])
    await service.lobby.start(CHANNEL + 1, PLAYERS[0])
    for mover, action in actions:
        await service.play.act(CHANNEL + 1, mover, action)
    fresh_game = await store.last_game_in(CHANNEL + 1)
    assert fresh_game is not None
    assert fresh_game.state == kept_game.state
    assert (fresh_game.version, fresh_game.last_seq) == (kept_game.version, kept_game.last_seq)
    assert [(m.seat, m.action, m.kind) for m in await store.moves(fresh_game.id)] == [
        (m.seat, m.action, m.kind) for m in await store.moves(kept_game.id)
    ]


async def _kept_relay(service: GameService) -> GameRow:
    """A Relay game in the test channel, one step played: its row kept."""
    await open_game(service, "relay", *PLAYERS, seed=5)
    row = await _stored(service.store)
    await service.play.act(CHANNEL, _mover(row), "step 1")
    kept = service.store.kept_game_in(CHANNEL)
    assert kept is not None and kept.version == row.version + 1
    return kept


async def _answer(work: Awaitable[Outcome]) -> str:
    try:
        outcome = await work
    except Refusal as refusal:
        return refusal.text.key
    return outcome.kind.name


@pytest.mark.parametrize(
    "other_step",
    ["step 1", "end"],
    ids=["the same player steps", "the turn passes"],
)
async def test_a_step_after_another_writers_is_run_again_from_the_stored_game(
    service: GameService, store: Store, second: Store, other_step: str
) -> None:
    """Another process commits a step of the game; this process's next step (from its
    stale kept row) is accepted or refused exactly as a fresh load decides it."""
    stale = await _kept_relay(service)
    mover = _mover(stale)
    other = GameService(second, games.REGISTRY, render=False)
    await other.play.act(CHANNEL, mover, other_step)  # reads the game afresh, commits
    after_other = await _stored(second)
    assert after_other.version == stale.version + 1
    assert store.kept_game_in(CHANNEL) is stale  # this process cannot know
    # what a fresh load answers (refused: nothing written), else accepted on the fresh game
    fresh_answer = await _answer(
        GameService(second, games.REGISTRY, render=False).play.act(
            CHANNEL, mover, "step 1", expected_version=after_other.version + 99
        )
    )
    assert fresh_answer == "error.stale_button"
    answer = await _answer(service.play.act(CHANNEL, mover, "step 1"))
    stored = await _stored(store)
    if other_step == "end":  # no longer their turn: refused as a fresh load refuses it
        assert answer == "error.not_your_turn"
        assert stored.version == after_other.version
    else:  # their turn goes on: accepted on top of the other's step
        assert answer == "CONTINUE"
        assert stored.version == after_other.version + 1
    moves = await store.moves(stored.id)
    assert [m.seq for m in moves] == list(range(1, stored.last_seq + 1))  # none lost or doubled
    _same(store.kept_game_in(CHANNEL), stored)


async def test_a_refusal_from_a_stale_kept_row_is_not_given(
    service: GameService, store: Store, second: Store
) -> None:
    """The kept row says it is not the player's turn; another process has since passed the
    turn to them: their step is played, not refused."""
    stale = await _kept_relay(service)
    mover = _mover(stale)
    waiting = next(p for p in PLAYERS if p != mover)
    await GameService(second, games.REGISTRY, render=False).play.act(CHANNEL, mover, "end")
    assert await _answer(service.play.act(CHANNEL, waiting, "step 1")) == "CONTINUE"
    stored = await _stored(store)
    assert stored.version == stale.version + 2


async def test_a_refusal_from_a_current_kept_row_stands_and_keeps_nothing_stale(
    service: GameService, store: Store
) -> None:
    stale = await _kept_relay(service)
    waiting = next(p for p in PLAYERS if p != _mover(stale))
    answer, sent = await _traced(store, _answer(service.play.act(CHANNEL, waiting, "step 1")))
    assert answer == "error.not_your_turn"
    assert len(_reads(sent)) == 1  # checked against the stored game once
    _same(store.kept_game_in(CHANNEL), await _stored(store))


async def _abandon(store: Store, row: GameRow) -> None:
    await store.set_status(row, "abandoned")


async def _pause(store: Store, row: GameRow) -> None:
    await store.pause(row, [])


async def test_a_game_another_writer_pauses_or_ends_is_not_resurrected(
    service: GameService, store: Store, second: Store
) -> None:
    stale = await _kept_relay(service)
    mover = _mover(stale)
    # paused under it: the step runs on the paused game (a step is played while paused),
    # and the pause stands
    paused = await _stored(second)
    await _pause(second, paused)
    assert store.kept_game_in(CHANNEL) is not None  # stale: this process cannot know
    assert await _answer(service.play.act(CHANNEL, mover, "step 1")) == "CONTINUE"
    now = await _stored(store)
    assert now.paused is not None and now.version == paused.version + 2
    _same(store.kept_game_in(CHANNEL), now)
    # ended under it: refused as a fresh load refuses it, nothing written
    await _abandon(second, now)
    assert store.kept_game_in(CHANNEL) is not None
    assert await _answer(service.play.act(CHANNEL, mover, "step 1")) == "error.no_game"
    ended = await store.get_game(stale.id)
    assert ended is not None
    assert (ended.status, ended.version, ended.last_seq) == (
        "abandoned",
        now.version + 1,
        now.last_seq,
    )
    assert store.kept_game_in(CHANNEL) is None


async def test_a_game_another_writer_replaces_gets_the_step(
    service: GameService, store: Store, second: Store
) -> None:
    stale = await _kept_relay(service)
    await second.set_status(await _stored(second), "abandoned")
    await open_game(GameService(second, games.REGISTRY, render=False), "relay", *PLAYERS, seed=7)
    new = await _stored(second)
    assert new.id != stale.id
    assert await _answer(service.play.act(CHANNEL, _mover(new), "step 1")) == "CONTINUE"
    old = await store.get_game(stale.id)
    assert old is not None and old.last_seq == stale.last_seq and old.status == "abandoned"
    played = await _stored(store)
    assert (played.id, played.last_seq) == (new.id, 1)
    _same(store.kept_game_in(CHANNEL), played)


# -- every write of a game drops or updates its kept row --------------------------------

Write = Callable[[Store, GameRow], Awaitable[object]]


async def _step(store: Store, row: GameRow) -> None:
    await store.commit_step(
        row, StepWrite(state={"n": 1}, status="running", moves=[NewMove(0, "x")])
    )


async def _step_published(store: Store, row: GameRow) -> None:
    await store.commit_step(
        row,
        StepWrite(
            state={"n": 2},
            status="running",
            moves=[NewMove(1, "y", events=[["e", {}]])],
            published=True,
            waiting_changed=True,
            deadlines={"round:1": 2e9},
            told={0: {"hand": [1]}},
            seats={1: {"status": "absent", "timeouts": 2, "auto": 1}},
        ),
    )


async def _step_firing(store: Store, row: GameRow) -> None:
    timer = await store.add_timer(2e9, "deadline", row.id, name="round:1")
    fresh = await store.get_game(row.id)
    assert fresh is not None
    await store.open_game_in(row.channel_id)  # kept again
    await store.commit_step(
        fresh, StepWrite(state={"n": 3}, status="running", moves=[], fired=timer, deadlines=KEEP)
    )


async def _step_ending(store: Store, row: GameRow) -> None:
    await store.commit_step(
        row,
        StepWrite(state={"n": 4}, status="finished", moves=[], results={0: (1, 5), 1: (2, 3)}),
    )


async def _delete_deadline(store: Store, row: GameRow) -> None:
    timer = await store.add_timer(2e9, "deadline", row.id, name="round:9")
    await store.open_game_in(row.channel_id)  # kept with the deadline
    assert await store.delete_timer(timer)


WRITES: dict[str, Write] = {
    "step": _step,
    "step published": _step_published,
    "step firing a timer": _step_firing,
    "step ending the game": _step_ending,
    "end (set_status)": lambda s, r: s.set_status(r, "abandoned"),
    "pause": lambda s, r: s.pause(r, []),
    "resume": lambda s, r: s.resume(r, reminder=None, deadlines={"d": 2e9}, clock={}),
    "seat (set_seat)": lambda s, r: s.set_seat(r, 1, {"status": "absent"}),
    "seat handed over (replace_player)": lambda s, r: s.replace_player(r, 1, 55, "Cy"),
    "extend": lambda s, r: s.extend(r, 60.0),
    "timer added": lambda s, r: s.add_timer(2e9, "deadline", r.id, name="round:2"),
    "timers restored": lambda s, r: s.add_missing_timers(r.id, [("deadline", "x", 2e9)]),
    "timers replaced": lambda s, r: s.replace_timers(r.id, "deadline", 2e9),
    "deadline deleted": _delete_deadline,
}


@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
async def test_every_write_of_a_game_drops_or_updates_its_kept_row(
    store: Store, write: Write
) -> None:
    row = await running_oracle(store, channel=CHANNEL)
    await store.open_game_in(CHANNEL)  # read: kept
    assert store.kept_game_in(CHANNEL) == row
    await write(store, row)
    kept = store.kept_game_in(CHANNEL)
    fresh = await store.get_game(row.id)
    assert fresh is not None
    if kept is not None:  # updated: exactly what a load reads now
        _same(kept, fresh)
    assert fresh.version > row.version or kept is None or kept.deadlines == fresh.deadlines


async def test_a_lobby_and_a_new_game_in_the_channel_are_not_kept(
    service: GameService, store: Store
) -> None:
    await service.lobby.new_game(
        guild_id=1, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=3
    )
    assert await store.open_game_in(CHANNEL) is not None
    assert store.kept_game_in(CHANNEL) is None  # a lobby is never kept
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.start(CHANNEL, ALICE)
    old = await _stored(store)
    assert store.kept_game_in(CHANNEL) == old
    await store.set_status(old, "finished")
    assert store.kept_game_in(CHANNEL) is None
    await service.lobby.new_game(
        guild_id=1, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=4
    )
    assert store.kept_game_in(CHANNEL) is None


async def test_at_most_size_games_are_kept(store: Store) -> None:
    size, extra = 5, 3
    store.keep_games(size)
    rows = [await running_oracle(store, channel=CHANNEL + n) for n in range(size + extra)]
    for row in rows:
        await _step(store, row)
    kept = [store.kept_game_in(row.channel_id) for row in rows]
    assert kept[:extra] == [None] * extra  # the least recently used went first
    assert all(k is not None for k in kept[extra:])
    store.keep_games(2)
    assert sum(store.kept_game_in(row.channel_id) is not None for row in rows) == 2
    store.keep_games(0)
    await store.open_game_in(CHANNEL)
    assert all(store.kept_game_in(row.channel_id) is None for row in rows)


async def test_a_public_decision_button_starts_from_the_kept_row_and_its_version(
    service: GameService, store: Store, second: Store
) -> None:
    """A public decision button (``Tapping.press``) of the kept game at its version reads
    nothing; pressed again once another process has stepped the game (the button at the
    version now stored, this process's kept row older), it is run again on the game read
    afresh and accepted; a button older than the kept row is refused as stale after one
    read, nothing written."""
    kept = await _kept_relay(service)
    mover = _mover(kept)
    press = service.tapping.press
    outcome, sent = await _traced(
        store, press(CHANNEL, mover, "step 1", game_id=kept.id, version=kept.version)
    )
    assert isinstance(outcome, Outcome) and outcome.version == kept.version + 1
    assert _reads(sent) == [], sent
    stale = store.kept_game_in(CHANNEL)
    assert stale is not None and stale.version == kept.version + 1
    await GameService(second, games.REGISTRY, render=False).play.act(CHANNEL, mover, "step 1")
    now = await _stored(second)
    assert store.kept_game_in(CHANNEL) is stale and now.version == stale.version + 1
    answer, sent = await _traced(
        store, _answer(press(CHANNEL, mover, "step 1", game_id=now.id, version=now.version))
    )
    assert not answer.startswith("error."), answer  # played (its turn goes on or ends)
    assert len(_reads(sent)) == 1
    stored = await _stored(store)
    assert stored.version == now.version + 1
    _same(store.kept_game_in(CHANNEL), stored)
    answer, sent = await _traced(
        store, _answer(press(CHANNEL, mover, "step 1", game_id=now.id, version=now.version))
    )
    assert answer == "error.stale_button" and len(_reads(sent)) == 1
    assert (await _stored(store)).version == stored.version  # nothing written
    moves = await store.moves(stored.id)
    assert [m.seq for m in moves] == list(range(1, stored.last_seq + 1))
