"""The table over days, through the service: the turn clock, absent and resigned seats,
the host's pause, resume, extend and replace, automatic answers, notification choices."""

from __future__ import annotations

from functools import partial

import pytest

from bot import games
from bot.service import GameService, Refusal, StepKind
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MALLORY
from tests.support import oracle, relay
from tests.support.seated import channel_row, open_game, relay_mover

RELAY = relay.ENGINE
DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(store: Store, clock: Clock) -> GameService:
    return GameService(store, games.REGISTRY, render=False, clock=clock)


_open = partial(open_game, seed=4)


async def _clock_timers(store: Store) -> dict[str, float]:
    row = await channel_row(store)
    return {t.name: t.due_at for t in await store.timers(row.id) if t.kind == "clock"}


async def test_the_turn_clock_reminds_then_plays_the_timeout(
    table: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB)
    await _open(table, "relay", *players, clock="1d")
    start = clock.now
    assert await _clock_timers(store) == {
        "turn": start + DAY,
        "half": start + DAY / 2,
        "soon": start + DAY - 3 * 3600,  # an eighth of a day before the end
    }
    assert [t.kind for t in await store.timers((await channel_row(store)).id)] == ["clock"] * 3
    late = await relay_mover(table, players)
    clock.now = start + DAY / 2
    [reminder] = await table.timers.fire_due_timers()
    assert reminder.news.lines[0].key == "reminder.deadline" and reminder.news.ping == [late.id]
    assert reminder.news.lines[0].params["when"] == int(start + DAY)
    clock.now = start + DAY
    fired = await table.timers.fire_due_timers()
    assert [o.news.lines[0].key for o in fired] == ["reminder.deadline", "move.timeout"]
    timeout = fired[-1]
    assert timeout.news.lines[0].params["seat"] == late.name
    assert timeout.news.lines[0].params["action"].render("en") == "End turn"  # in words
    nxt = await relay_mover(table, players)
    assert nxt is not late and timeout.news.ping == [nxt.id]
    assert await _clock_timers(store) == {  # the next decision's own, full clock
        "turn": clock.now + DAY,
        "half": clock.now + DAY / 2,
        "soon": clock.now + DAY - 3 * 3600,
    }
    row = await channel_row(store)
    assert row.seat_of(late.id).timeouts == 1


async def test_a_step_in_the_same_turn_keeps_the_clock(
    table: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB)
    await _open(table, "relay", *players, clock="3d")
    before = await _clock_timers(store)
    clock.now += 3600
    mover = await relay_mover(table, players)
    outcome = await table.play.act(CHANNEL, mover, "step 1")
    assert outcome.kind is StepKind.CONTINUE
    assert await _clock_timers(store) == before
    clock.now += 3600
    await table.play.act(CHANNEL, mover, "end")
    assert (await _clock_timers(store))["turn"] == clock.now + 3 * DAY


async def test_a_seat_timing_out_too_often_becomes_absent_and_comes_back(
    table: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB)
    await _open(table, "relay", *players, clock="1d", absent="2")
    missing = await relay_mover(table, players)
    present = next(p for p in players if p is not missing)
    clock.now += DAY
    await table.timers.fire_due_timers()  # missing's first timeout
    await table.play.act(CHANNEL, present, "end")  # back to missing: waits for its clock
    assert await relay_mover(table, players) is missing
    clock.now += DAY
    [*_, second] = await table.timers.fire_due_timers()
    keys = [line.key for line in second.news.lines]
    assert "table.absent" in keys  # two in a row: absent, and the table is told
    row = await channel_row(store)
    assert row.seat_of(missing.id).status == "absent"
    # from now on its turns are played at once, with the step that hands it over
    assert await relay_mover(table, players) is present
    handed = await table.play.act(CHANNEL, present, "end")
    assert "table.played_for" in [line.key for line in handed.news.lines]
    assert await relay_mover(table, players) is present
    assert handed.news.ping == [present.id]
    assert (await store.moves(row.id))[-1].kind == "auto"
    # ...until its player says they are back: its next decision waits for them
    with pytest.raises(Refusal) as refused:
        await table.seats.back(CHANNEL, present)
    assert refused.value.text.key == "error.not_absent"
    back = await table.seats.back(CHANNEL, missing)
    assert back.news.lines[0].key == "table.back"
    row = await channel_row(store)
    assert (row.seat_of(missing.id).status, row.seat_of(missing.id).timeouts) == ("playing", 0)
    await table.play.act(CHANNEL, present, "end")
    assert await relay_mover(table, players) is missing


async def test_an_absent_player_who_submits_is_back(
    table: GameService, store: Store, clock: Clock
) -> None:
    """In a round of sealed moves, an absent player's submission brings them back."""
    await _open(table, "oracle", ALICE, BOB, CAROL, absent="2", deadline="1h")
    row = await channel_row(store)
    seats = {p.id: row.seat_of(p.id).seat for p in (ALICE, BOB, CAROL)}
    hand = oracle.ENGINE.load_state(row.state).hands
    await table.play.act(CHANNEL, BOB, f"play {hand[seats[BOB.id]][0]}")
    # alice has already timed out once (as if an earlier round had passed her by)
    await store.set_seat(await channel_row(store), seats[ALICE.id], {"timeouts": 1})
    clock.now += 3601
    [timed_out] = await table.timers.fire_due_timers()
    absent = [line for line in timed_out.news.lines if line.key == "table.absent"]
    assert [line.params["seat"] for line in absent] == ["Alice"]  # carol: only her first
    row = await channel_row(store)
    assert row.seat_of(ALICE.id).status == "absent" and row.seat_of(CAROL.id).timeouts == 1
    state = oracle.ENGINE.load_state(row.state)
    chooser = next(p for p in (ALICE, BOB, CAROL) if row.seats[state.chooser].user_id == p.id)
    await table.play.act(CHANNEL, chooser, "claim")
    state = oracle.ENGINE.load_state((await channel_row(store)).state)
    back = await table.play.act(CHANNEL, ALICE, f"play {state.hands[seats[ALICE.id]][0]}")
    assert back.kind is StepKind.SUBMISSION
    row = await channel_row(store)
    assert (row.seat_of(ALICE.id).status, row.seat_of(ALICE.id).timeouts) == ("playing", 0)


async def test_pause_stops_the_clock_and_resume_restores_what_was_left(
    table: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB)
    await _open(table, "relay", *players, clock="1d")
    before = await _clock_timers(store)
    with pytest.raises(Refusal) as refused:
        await table.seats.pause(CHANNEL, BOB, can_manage_channel=False)
    assert refused.value.text.key == "error.host_only"
    clock.now += 2 * 3600
    paused = await table.seats.pause(CHANNEL, MALLORY, can_manage_channel=True)  # a channel manager
    assert paused.news.lines[0].key == "host.paused"
    assert await store.timers((await channel_row(store)).id) == []
    clock.now += 5 * DAY
    assert await table.timers.fire_due_timers() == []  # nobody times out while paused
    with pytest.raises(Refusal):
        await table.seats.extend(CHANNEL, ALICE, can_manage_channel=False)
    resumed = await table.seats.resume(CHANNEL, ALICE, can_manage_channel=False)
    assert resumed.news.lines[0].key == "host.resumed"
    after = await _clock_timers(store)
    shift = 5 * DAY
    assert after == {name: due + shift for name, due in before.items()}
    extended = await table.seats.extend(CHANNEL, ALICE, can_manage_channel=False)
    assert extended.news.lines[0].params["when"] == int(after["turn"] + DAY)
    assert (await _clock_timers(store))["turn"] == after["turn"] + DAY


async def test_a_decision_handed_over_while_paused_gets_a_full_clock(
    table: GameService, store: Store, clock: Clock
) -> None:
    players = (ALICE, BOB)
    await _open(table, "relay", *players, clock="1d")
    await table.seats.pause(CHANNEL, ALICE, can_manage_channel=False)
    mover = await relay_mover(table, players)
    await table.play.act(CHANNEL, mover, "end")  # moves go on while paused
    assert await store.timers((await channel_row(store)).id) == []
    clock.now += 10 * DAY
    await table.seats.resume(CHANNEL, ALICE, can_manage_channel=False)
    assert (await _clock_timers(store))["turn"] == clock.now + DAY


async def test_a_resigned_seat_is_played_by_the_table(table: GameService, store: Store) -> None:
    players = (ALICE, BOB, CAROL)
    await _open(table, "relay", *players)
    mover = await relay_mover(table, players)
    ask = await table.seats.resign(CHANNEL, mover, confirmed=False)
    assert ask.reply.choices and ask.reply.choices[0].danger
    # asking changes nothing
    assert (await channel_row(store)).seat_of(mover.id).status == "playing"
    done = await table.seats.resign(CHANNEL, mover, confirmed=True)
    assert done.news.lines[0].key == "seat.resigned"
    assert "table.played_for" in [line.key for line in done.news.lines]
    assert await relay_mover(table, players) is not mover
    with pytest.raises(Refusal) as refused:
        await table.seats.resign(CHANNEL, mover, confirmed=True)
    assert refused.value.text.key == "error.already_resigned"


async def test_replace_hands_the_private_view_to_the_new_player_only(
    table: GameService, store: Store
) -> None:
    await _open(table, "oracle", ALICE, BOB)
    with pytest.raises(Refusal) as refused:
        await table.seats.replace(CHANNEL, BOB, ALICE.id, MALLORY, can_manage_channel=False)
    assert refused.value.text.key == "error.host_only"
    with pytest.raises(Refusal) as refused:
        await table.seats.replace(CHANNEL, ALICE, ALICE.id, BOB, can_manage_channel=False)
    assert refused.value.text.key == "error.replace_seated"
    done = await table.seats.replace(CHANNEL, ALICE, ALICE.id, MALLORY, can_manage_channel=False)
    assert [pm.user_id for pm in done.private] == [MALLORY.id]
    assert done.news.lines[0].params == {"old": "Alice", "new": "Mallory", "host": "Alice"}
    row = await channel_row(store)
    seat = row.seat_of(MALLORY.id)
    assert seat is not None and row.seat_of(ALICE.id) is None
    hand = oracle.ENGINE.load_state(row.state).hands[seat.seat]
    with pytest.raises(Refusal) as refused:
        await table.play.act(CHANNEL, ALICE, f"play {hand[0]}")
    assert refused.value.text.key == "error.not_in_game"
    played = await table.play.act(CHANNEL, MALLORY, f"play {hand[0]}")
    assert all(pm.user_id != ALICE.id for pm in played.private)


async def test_notification_choices_are_remembered_per_user(table: GameService) -> None:
    assert await table.seats.notify_choices([ALICE.id, BOB.id]) == {
        ALICE.id: "channel",
        BOB.id: "channel",
    }
    await table.seats.notify(BOB, "dm")
    await table.seats.notify(ALICE, "off")
    await table.seats.notify(ALICE, "both")
    assert await table.seats.notify_choices([ALICE.id, BOB.id]) == {ALICE.id: "both", BOB.id: "dm"}
    with pytest.raises(Refusal):
        await table.seats.notify(BOB, "pigeon")


async def test_the_next_player_gets_a_heads_up(table: GameService, store: Store) -> None:
    from bot import plugins

    plugins.load_builtin_games()
    players = (ALICE, BOB, CAROL)
    await table.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="tigris", seed=2
    )
    for player in players[1:]:
        await table.lobby.join(CHANNEL, player)
    started = await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    assert started.news.heads_up == row.seats[1].user_id  # seat 1 plays after seat 0
    assert any(line.key == "game.up_next" for line in started.news.lines)


async def test_automatic_answers_are_opt_in(table: GameService, store: Store) -> None:
    await _open(table, "relay", ALICE, BOB)
    await table.seats.auto(CHANNEL, BOB, on=True)
    assert (await channel_row(store)).seat_of(BOB.id).auto is True
    await table.seats.auto(CHANNEL, BOB, on=False)
    assert (await channel_row(store)).seat_of(BOB.id).auto is False
    with pytest.raises(Refusal):
        await table.seats.auto(CHANNEL, MALLORY, on=True)
