"""The three turn shapes through the service: multi-step turns with undo, sealed rounds with
deadlines, and what each step tells whom."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from functools import partial

import pytest

from bot import games
from bot.service import ChoiceKind, GameService, Refusal, StepKind
from bot.service.replay import replay
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.support import oracle, relay
from tests.support.seated import channel_row, open_game, relay_mover

RELAY = relay.ENGINE
ORACLE = oracle.ENGINE


_open = partial(open_game, seed=5)


def _raw_state(store: Store, game_id: int) -> str:
    with sqlite3.connect(store.path) as raw:
        return str(raw.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()[0])


# -- a turn of many steps ------------------------------------------------------------


async def test_steps_preview_privately_and_the_hand_off_posts_them_all(
    service: GameService,
) -> None:
    players = (ALICE, BOB)
    await _open(service, "relay", *players)
    mover = await relay_mover(service, players)
    first = await service.play.act(CHANNEL, mover, "step 1")
    assert first.kind is StepKind.CONTINUE
    assert first.news is None
    assert first.reply.image is not None  # the preview board
    assert [line.key for line in first.reply.lines][:2] == ["move.accepted", "relay.event.stepped"]
    assert any(line.key == "relay.summary" and line.params["ap"] == 3 for line in first.reply.lines)
    kinds = [c.kind for c in first.reply.choices]
    assert ChoiceKind.UNDO in kinds and next(c.action for c in first.reply.choices) == "end"
    second = await service.play.act(CHANNEL, mover, "step 1")
    assert second.kind is StepKind.CONTINUE and second.news is None
    done = await service.play.act(CHANNEL, mover, "end")
    assert done.kind is StepKind.HANDOFF
    # one public message listing every step of the turn, with the board, pinging the next
    stepped = [line for line in done.news.lines if line.key == "relay.event.stepped"]
    assert [line.params["seat"] for line in stepped] == [mover.name, mover.name]
    assert done.news is not None and done.news.board is not None
    other = next(p for p in players if p is not mover)
    assert done.news.ping == [other.id]


async def test_undo_restores_the_exact_stored_state(service: GameService, store: Store) -> None:
    players = (ALICE, BOB)
    await _open(service, "relay", *players)
    mover = await relay_mover(service, players)
    row = await channel_row(store)
    before = _raw_state(store, row.id)
    await service.play.act(CHANNEL, mover, "step 2")
    middle = _raw_state(store, row.id)
    await service.play.act(CHANNEL, mover, "step 1")
    undone = await service.play.undo(CHANNEL, mover)
    assert undone.kind is StepKind.CONTINUE and undone.news is None
    assert (
        undone.reply.lines[0].key == "move.undone"
        and undone.reply.lines[0].params["action"].render("en") == "Step: 1"
    )
    assert _raw_state(store, row.id) == middle
    await service.play.undo(CHANNEL, mover)
    assert _raw_state(store, row.id) == before
    with pytest.raises(Refusal) as refused:
        await service.play.undo(CHANNEL, mover)
    assert refused.value.text.key == "error.nothing_to_undo"
    assert _raw_state(store, row.id) == before
    # the log is append-only: the steps and both undos are there
    assert [m.action for m in await store.moves(row.id)] == ["step 2", "step 1", "undo", "undo"]


async def test_undo_cannot_cross_a_reveal(service: GameService, store: Store) -> None:
    players = (ALICE, BOB)
    await _open(service, "relay", *players)
    mover = await relay_mover(service, players)
    await service.play.act(CHANNEL, mover, "step 1")
    drew = await service.play.act(CHANNEL, mover, "draw")  # reveals a hidden card: a checkpoint
    assert all(c.kind is not ChoiceKind.UNDO for c in drew.reply.choices)
    row = await channel_row(store)
    after_draw = _raw_state(store, row.id)
    with pytest.raises(Refusal) as refused:
        await service.play.undo(CHANNEL, mover)
    assert refused.value.text.key == "error.nothing_to_undo"
    assert _raw_state(store, row.id) == after_draw
    # a step after the reveal can be taken back, and only that one
    await service.play.act(CHANNEL, mover, "step 1")
    await service.play.undo(CHANNEL, mover)
    assert _raw_state(store, row.id) == after_draw


async def test_undo_cannot_cross_a_hand_off_or_touch_another_players_step(
    service: GameService, store: Store
) -> None:
    players = (ALICE, BOB)
    await _open(service, "relay", *players)
    mover = await relay_mover(service, players)
    other = next(p for p in players if p is not mover)
    await service.play.act(CHANNEL, mover, "step 1")
    await service.play.act(CHANNEL, mover, "end")  # hands over: a checkpoint
    row = await channel_row(store)
    snapshot = await store.raw_game(row.id)
    for user in (mover, other):
        with pytest.raises(Refusal) as refused:
            await service.play.undo(CHANNEL, user)
        assert refused.value.text.key == "error.nothing_to_undo"
    await service.play.act(CHANNEL, other, "step 1")
    before = await store.raw_game(row.id)
    with pytest.raises(Refusal) as refused:
        await service.play.undo(CHANNEL, mover)
    assert refused.value.text.key == "error.undo_not_yours"
    assert await store.raw_game(row.id) == before
    assert before[2][: len(snapshot[2])] == snapshot[2]  # the log only grew


async def test_an_undone_step_is_not_announced(service: GameService) -> None:
    players = (ALICE, BOB)
    await _open(service, "relay", *players)
    mover = await relay_mover(service, players)
    await service.play.act(CHANNEL, mover, "step 3")
    await service.play.undo(CHANNEL, mover)
    await service.play.act(CHANNEL, mover, "step 1")
    done = await service.play.act(CHANNEL, mover, "end")
    stepped = [
        line.params["count"] for line in done.news.lines if line.key == "relay.event.stepped"
    ]
    assert stepped == [1]
    log = await service.reading.log_lines(CHANNEL, 10)
    assert [line.params["action"].render("en") for line in log.reply.lines[1:]] == [
        "Step: 1",
        "End turn",
    ]


async def test_a_log_with_undos_replays_to_the_stored_state(
    service: GameService, store: Store
) -> None:
    players = (ALICE, BOB, CAROL)
    await _open(service, "relay", *players)
    rng = random.Random(12)
    undos = 0
    while True:
        row = await channel_row(store)
        if row.status == "finished":
            break
        mover = await relay_mover(service, players)
        if rng.random() < 0.3:
            try:
                await service.play.undo(CHANNEL, mover)
                undos += 1
            except Refusal:
                pass
            continue
        legal = [str(a) for a in await service.reading.legal_actions(CHANNEL, mover)]
        steps = [a for a in legal if a != "end"]
        action = rng.choice(steps if steps and rng.random() > 0.15 else legal)
        await service.play.act(CHANNEL, mover, action)
    row = await channel_row(store)
    log = await store.moves(row.id)
    assert undos >= 2 and sum(m.kind == "undo" for m in log) == undos
    state = replay(RELAY, len(row.seats), row.options, row.seed, log)
    assert RELAY.dump_state(state) == row.state


# -- a sealed simultaneous round -----------------------------------------------------


async def test_submissions_ping_nobody_and_update_the_tally(service: GameService) -> None:
    players = (ALICE, BOB, CAROL)
    await _open(service, "oracle", *players)
    row = await channel_row(service.store)
    state = ORACLE.load_state(row.state)
    hands = {p.id: state.hands[row.seat_of(p.id).seat] for p in players}
    first = await service.play.act(CHANNEL, ALICE, f"play {hands[ALICE.id][0]}")
    assert first.kind is StepKind.SUBMISSION
    assert first.news is None
    assert first.reply.image is not None  # the player's own view, with the sealed card
    tally = {line.key: line.params for line in first.tally or []}
    assert tally["tally.submitted"]["players"] == "Alice"
    assert sorted(tally["tally.awaited"]["players"].split(", ")) == ["Bob", "Carol"]
    # changing one's sealed card is a submission too, and still pings nobody
    again = await service.play.act(CHANNEL, ALICE, f"play {hands[ALICE.id][1]}")
    assert again.kind is StepKind.SUBMISSION and again.news is None
    await service.play.act(CHANNEL, BOB, f"play {hands[BOB.id][0]}")
    reveal = await service.play.act(CHANNEL, CAROL, f"play {hands[CAROL.id][0]}")
    assert reveal.kind is StepKind.HANDOFF
    row = await channel_row(service.store)
    chooser = row.seats[ORACLE.load_state(row.state).chooser].user_id
    assert reveal.news.ping == [chooser]  # only the newly awaited seat
    assert [c.action for c in reveal.news.choices if c.kind is ChoiceKind.ACT] == ["claim", "gift"]


async def test_the_round_deadline_does_not_move_when_players_submit(store: Store) -> None:
    now = [1_000_000.0]
    service = GameService(store, games.REGISTRY, render=False, clock=lambda: now[0])
    players = (ALICE, BOB, CAROL)
    await _open(service, "oracle", *players, deadline="1h")
    row = await channel_row(store)
    [deadline] = [t for t in await store.timers(row.id) if t.kind == "deadline"]
    assert deadline.due_at == now[0] + 3600 and deadline.name == "round:1"
    for player in (ALICE, BOB):
        now[0] += 600  # the clock moves on between submissions
        state = ORACLE.load_state((await channel_row(store)).state)
        hand = state.hands[row.seat_of(player.id).seat]
        await service.play.act(CHANNEL, player, f"play {hand[0]}")
        [same] = [t for t in await store.timers(row.id) if t.kind == "deadline"]
        assert (same.id, same.due_at) == (deadline.id, deadline.due_at)
    now[0] = deadline.due_at
    [late] = await service.timers.fire_due_timers()
    assert late.kind is StepKind.HANDOFF
    assert [line.params["seat"] for line in late.news.lines if line.key == "move.timeout"] == [
        "Carol"
    ]
    state = ORACLE.load_state((await channel_row(store)).state)
    assert state.chooser is not None  # the round resolved with Carol's lowest card
    assert [t for t in await store.timers(row.id) if t.kind == "deadline"] == []


async def test_late_seats_time_out_as_one_batch_with_one_message(store: Store) -> None:
    now = [1_000_000.0]
    service = GameService(store, games.REGISTRY, render=False, clock=lambda: now[0])
    await _open(service, "oracle", ALICE, BOB, CAROL, deadline="1h")
    row = await channel_row(store)
    moves = len(await store.moves(row.id))
    now[0] += 3601
    outcomes = await service.timers.fire_due_timers()
    assert len(outcomes) == 1
    timed_out = [line for line in outcomes[0].news.lines if line.key == "move.timeout"]
    assert len(timed_out) == 3
    log = await store.moves(row.id)
    assert len(log) == moves + 3 and {m.kind for m in log[moves:]} == {"timeout"}


async def test_a_game_without_private_views_refuses_hand(service: GameService) -> None:
    await _open(service, "relay", ALICE, BOB)
    with pytest.raises(Refusal) as refused:
        await service.reading.hand(CHANNEL, ALICE)
    assert refused.value.text.key == "error.no_private_view"


async def test_a_seat_colour_comes_from_the_engine(service: GameService) -> None:
    await _open(service, "relay", ALICE, BOB)
    row = await channel_row(service.store)
    assert [s.colour for s in row.seats] == ["#d04040", "#4060d0"]


async def test_a_refused_try_can_make_the_seat_wait(store: Store) -> None:
    now = [1_000_000.0]

    class Strict(oracle.OracleEngine):
        def retry_cooldown(self, state, seat, action, error):  # type: ignore[no-untyped-def]
            return 30.0

    registry = {"oracle": dataclasses.replace(games.REGISTRY["oracle"], engine=Strict())}
    service = GameService(store, registry, render=False, clock=lambda: now[0])
    await _open(service, "oracle", ALICE, BOB)
    with pytest.raises(Refusal) as refused:
        await service.play.act(CHANNEL, ALICE, "play 99")
    assert refused.value.text.key == "oracle.error.no_such_card"
    with pytest.raises(Refusal) as refused:
        await service.play.act(CHANNEL, ALICE, "play 1")
    assert refused.value.text.key == "error.cooldown" and refused.value.text.params["seconds"] == 30
    now[0] += 31
    hand = ORACLE.load_state((await channel_row(store)).state).hands[
        (await channel_row(store)).seat_of(ALICE.id).seat
    ]
    assert (await service.play.act(CHANNEL, ALICE, f"play {hand[0]}")).kind is StepKind.SUBMISSION
