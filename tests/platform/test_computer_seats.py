"""Computer seats through the service: seating, playing, handing over, after the game.

The test games' computer players (:mod:`tests.support.robots`) decide in the
real deciding processes; the clock is a fake one and the pause before a
computer move is zero, so a test fires the due timers itself. Every test runs
on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

import pytest

from bot import games
from bot.games.base import GameType
from bot.service import GameService, News, Outcome, Player, Refusal
from bot.service.computer import MARKER
from bot.service.context import COMPUTER_TIMER
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL, GUILD, ORACLE, RELAY
from tests.support import raw_sql, robots
from tests.support.seated import channel_row

pytestmark = BOTH_BACKENDS

#: a Robot Oracle seed whose first round, both seats playing their lowest card, the
#: computer seat wins (so it, not the member, takes the winner's choice)
SEED_COMPUTER_WINS_ROUND_1 = 3
#: a Robot Relay computer seat's secret whose first decision (seed 11) is a turn of
#: several steps, not a lone "end"
RELAY_SECRET = 1
#: the test games with their computer players (not registered globally: other tests
#: read the registry)
ROBOTS = {
    robots.ORACLE.name: GameType(engine=robots.ORACLE, render_public=ORACLE.render_public),
    robots.RELAY.name: GameType(engine=robots.RELAY, render_public=RELAY.render_public),
}


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
    registry = {**games.REGISTRY, **ROBOTS}
    return GameService(store, registry, clock=clock, render=False, computer_pause=0.0)


async def lobby(table: GameService, game: str, *levels: str, seed: int = 7) -> None:
    await table.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name=game, seed=seed
    )
    for level in levels:
        await table.lobby.add_computer(CHANNEL, ALICE, level)


def no_computer_reached(outcomes: list[Outcome]) -> None:
    """Nothing is sent to, or pings, a computer seat (negative user ids)."""
    for outcome in outcomes:
        assert all(m.user_id > 0 for m in outcome.private), outcome.private
        news = outcome.news or News()
        assert all(user > 0 for user in news.ping), news.ping
        assert news.heads_up is None or news.heads_up > 0


async def play_to_end(table: GameService, human: Player, seed: int) -> list[Outcome]:
    """The human plays random legal moves; computer timers fire between them."""
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    for _ in range(400):
        outcomes += await table.timers.fire_due_timers()
        row = await channel_row(table.store)
        if row.status != "running":
            return outcomes
        try:
            legal = await table.reading.legal_actions(CHANNEL, human)
        except Refusal:
            legal = []
        if legal:
            outcomes.append(await table.play.act(CHANNEL, human, str(rng.choice(legal))))
    raise AssertionError("the game did not end")


async def test_the_host_seats_and_removes_computer_players(table: GameService) -> None:
    await lobby(table, "robot_relay")
    with pytest.raises(Refusal) as refused:
        await table.lobby.add_computer(CHANNEL, BOB, "easy")
    assert refused.value.text.key == "computer.error.host_only"
    with pytest.raises(Refusal) as refused:
        await table.lobby.add_computer(CHANNEL, ALICE, "genius")
    assert refused.value.text.key == "computer.error.level"
    added = await table.lobby.add_computer(CHANNEL, ALICE, "strong")
    assert added.lobby is not None and added.lobby.computers
    row = await channel_row(table.store)
    computer = row.seats[1]
    assert computer.computer == "strong" and computer.user_id < 0
    assert computer.display_name == f"{MARKER} CPU 1 (strong)"
    await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    with pytest.raises(Refusal) as refused:  # Relay seats at most 4
        await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    assert refused.value.text.key == "error.game_full"
    await table.lobby.remove_computer(CHANNEL, ALICE)
    row = await channel_row(table.store)
    assert [s.computer for s in row.seats] == [None, "strong", "easy"]
    assert len({s.user_id for s in row.seats}) == 3
    await table.lobby.add_computer(CHANNEL, ALICE, "easy")  # a fresh id, no collision
    row = await channel_row(table.store)
    assert len({s.user_id for s in row.seats}) == 4


async def test_a_game_without_a_computer_player_refuses_one(table: GameService) -> None:
    await lobby(table, "relay")
    with pytest.raises(Refusal) as refused:
        await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    assert refused.value.text.key == "computer.error.none"
    with pytest.raises(Refusal):
        await table.lobby.remove_computer(CHANNEL, ALICE)
    with pytest.raises(Refusal):
        await table.lobby.computer_menu(CHANNEL, ALICE)
    row = await channel_row(table.store)
    assert not row.seats[1:]


async def test_a_game_of_computer_players_alone_is_refused(table: GameService) -> None:
    await table.store.open_seated_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_type="robot_relay",
        creator_id=ALICE.id,
        seats=[(-1, "c1", "easy"), (-2, "c2", "strong")],
        options={},
        seed=3,
    )
    with pytest.raises(Refusal) as refused:
        await table.lobby.start(CHANNEL, ALICE)
    assert refused.value.text.key == "computer.error.alone"


async def test_a_computer_turn_is_one_commit_with_its_timer(
    table: GameService, store: Store
) -> None:
    await lobby(table, "robot_relay", "easy", seed=11)
    # the seat's secret fixed (the store draws one at random): the decision it seeds is
    # then always the same whole turn of several steps, where a random one was a lone
    # "end" in about 1 run of 8, which this test cannot tell from a lost step
    await raw_sql.execute(
        store, "UPDATE seats SET secret = ? WHERE computer IS NOT NULL", RELAY_SECRET
    )
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    assert [s.secret for s in row.seats if s.computer is not None] == [RELAY_SECRET]
    waiting = robots.RELAY.waiting_for(robots.RELAY.load_state(row.state))
    if row.seats[next(iter(waiting))].computer is None:  # Alice first: end her turn
        await table.play.act(CHANNEL, ALICE, "end")
        row = await channel_row(store)
    timers = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    assert len(timers) == 1
    before = row
    outcomes = await table.timers.fire_due_timers()
    after = await channel_row(store)
    moves = await store.moves(row.id, after=before.last_seq)
    assert len(moves) >= 2 and {m.kind for m in moves} == {"computer"}  # a whole turn
    assert all(m.checkpoint for m in moves)
    # the computer's turn (its plan's steps, up to Alice's hand-off) is one commit,
    # which took the timer that fired it
    assert after.version == before.version + 1
    assert len({m.created_at for m in moves}) == 1
    assert timers[0].id not in {t.id for t in await store.timers(row.id)}
    assert [o.kind.value for o in outcomes if o.has_public] == ["handoff"]
    assert outcomes[-1].news.ping == [ALICE.id]
    no_computer_reached(outcomes)


async def test_a_game_with_computer_players_is_played_to_the_end(
    table: GameService, store: Store
) -> None:
    await lobby(table, "robot_oracle", "easy", "strong", seed=5)
    outcomes = [await table.lobby.start(CHANNEL, ALICE)]
    outcomes += await play_to_end(table, ALICE, seed=5)
    row = await channel_row(store)
    assert row.status == "finished"
    no_computer_reached(outcomes)
    kinds = {m.kind for m in await store.moves(row.id)}
    assert "computer" in kinds and "move" in kinds
    assert not await store.timers(row.id)


async def test_a_lost_computer_timer_is_repaired(table: GameService, store: Store) -> None:
    await lobby(table, "robot_oracle", "easy", seed=2)
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    (timer,) = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    await store.delete_timer(timer.id)  # lost while it fired, by an older version
    assert await table.timers.repair_timers() == 1
    assert [t.kind for t in await store.timers(row.id)].count(COMPUTER_TIMER) == 1
    await table.timers.fire_due_timers()
    row = await channel_row(store)
    state = robots.ORACLE.load_state(row.state)
    (computer,) = [s.seat for s in row.seats if s.computer is not None]
    assert list(state.played) == [computer]  # the computer sealed its card


async def test_a_resigned_seat_goes_to_a_computer_and_back(
    table: GameService, store: Store
) -> None:
    await table.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="robot_oracle", seed=4
    )
    await table.lobby.join(CHANNEL, BOB)
    await table.lobby.start(CHANNEL, ALICE)
    with pytest.raises(Refusal) as refused:  # Bob still plays
        await table.seats.replace(
            CHANNEL, ALICE, BOB.id, None, can_manage_channel=False, computer="easy"
        )
    assert refused.value.text.key == "computer.error.replace_playing"
    await table.seats.resign(CHANNEL, BOB, confirmed=True)
    handed = await table.seats.replace(
        CHANNEL, ALICE, BOB.id, None, can_manage_channel=False, computer="strong"
    )
    no_computer_reached([handed])
    row = await channel_row(store)
    seat = next(s for s in row.seats if s.computer is not None)
    assert seat.computer == "strong" and seat.status == "playing"
    no_computer_reached(await table.timers.fire_due_timers())
    back = await table.seats.replace(
        CHANNEL, ALICE, None, CAROL, can_manage_channel=False, seat_number=seat.seat + 1
    )
    row = await channel_row(store)
    assert row.seats[seat.seat].user_id == CAROL.id and row.seats[seat.seat].computer is None
    assert [m.user_id for m in back.private] == [CAROL.id]  # her hand, by DM
    with pytest.raises(Refusal) as refused:
        await table.seats.replace(CHANNEL, ALICE, None, None, can_manage_channel=False)
    assert refused.value.text.key == "computer.error.replace_which"


async def test_rematch_keeps_computer_seats_and_stats_count_them_apart(
    table: GameService, store: Store
) -> None:
    await lobby(table, "robot_oracle", "easy", seed=9)
    await table.lobby.start(CHANNEL, ALICE)
    await play_to_end(table, ALICE, seed=9)
    old = await channel_row(store)
    stats = await table.after.stats(GUILD)
    keys = [line.key for line in stats.reply.lines]
    assert "after.stats.game_computers" in keys and "after.stats.game" not in keys
    players = [
        line.params["player"] for line in stats.reply.lines if line.key == "after.stats.player"
    ]
    assert players == [ALICE.name]  # a computer seat is no player
    mine = await table.after.stats(GUILD, ALICE)
    assert [line.key for line in mine.reply.lines][1:] == ["after.stats.member_game_computers"]
    await table.after.rematch(CHANNEL, ALICE, old.id)
    new = await channel_row(store)
    assert new.id != old.id and new.status == "running"
    assert sorted((s.user_id, s.computer) for s in new.seats) == sorted(
        (s.user_id, s.computer) for s in old.seats
    )
    fresh = {s.secret for s in new.seats if s.computer is not None}
    assert None not in fresh and not fresh & {s.secret for s in old.seats}  # drawn anew


async def test_every_computer_seat_has_a_secret_of_its_own_that_nothing_shows(
    table: GameService, store: Store
) -> None:
    """A secret is drawn when a computer takes a seat (lobby, handed a seat); a member's
    seat has none; it is in no repr, public view or record."""
    await lobby(table, "robot_oracle", "easy", "strong", seed=4)
    await table.lobby.join(CHANNEL, BOB)
    row = await channel_row(store)
    secrets = [s.secret for s in row.seats if s.computer is not None]
    assert len(set(secrets)) == 2 and None not in secrets
    assert [s.secret for s in row.seats if s.computer is None] == [None, None]
    await table.lobby.start(CHANNEL, ALICE)
    bob = next(s.seat for s in (await channel_row(store)).seats if s.user_id == BOB.id)
    await table.seats.resign(CHANNEL, BOB, confirmed=True)
    await table.seats.replace(
        CHANNEL, ALICE, BOB.id, None, can_manage_channel=False, computer="easy"
    )
    row = await channel_row(store)
    handed = row.seats[bob]
    assert handed.computer == "easy" and handed.secret not in (None, *secrets)
    assert row.seats == (await channel_row(store)).seats  # kept with the seat
    shown = repr(row) + str(robots.ORACLE.public_view(robots.ORACLE.load_state(row.state)))
    assert all(str(s.secret) not in shown for s in row.seats if s.secret is not None)
    await table.seats.replace(
        CHANNEL, ALICE, None, CAROL, can_manage_channel=False, seat_number=handed.seat + 1
    )
    row = await channel_row(store)
    assert row.seats[handed.seat].secret is None  # a member's seat again


async def test_the_answer_delay_comes_from_the_secret_and_survives_a_restart(
    table: GameService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delay is drawn from the seat's secret and the position, not from the game's
    id and version (which every button carries): a computer timer recomputed after a
    restart (``computer_due`` from when the game began waiting) is due when the lost one
    was, and a seat with another secret waits another time."""

    def answer_delay(self: object, state: object, seat: int, level: str, rng: Any) -> float:
        return float(rng.uniform(30.0, 90.0))

    monkeypatch.setattr(robots.OracleBrain, "answer_delay", answer_delay)
    await lobby(table, "robot_oracle", "strong", seed=6)
    started = clock.now
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    (timer,) = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    assert 30.0 <= timer.due_at - started <= 90.0
    clock.now += 7.0  # the bot restarts later: the timer is due when it was
    game = table.ctx.loaded(await store.get_game(row.id) or row)
    assert table.ctx.computer_due(game, since=started) == timer.due_at
    seat = next(s.seat for s in row.seats if s.computer is not None)
    other = dataclasses.replace(row.seats[seat], secret=(row.seats[seat].secret or 0) + 1)
    seats = tuple(other if s.seat == seat else s for s in row.seats)
    moved = table.ctx.loaded(dataclasses.replace(row, seats=seats))
    assert table.ctx.computer_due(moved, since=started) != timer.due_at
    old = random.Random(legacy_seed(row.id, row.version, seat)).uniform(30.0, 90.0)
    assert timer.due_at - started != old  # what the buttons' ids gave before


def legacy_seed(game_id: int, version: int, seat: int) -> int:
    """The seed decisions had before seats held secrets: ids every button carries."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


async def test_a_member_acting_while_a_computer_decides_is_not_kept_waiting(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice seals her card while the computer's decision runs (no lock is held then):
    her step is answered at once, and the computer, finding the game moved on, decides
    again on the new version and commits once."""
    from bot.service import computer

    await lobby(table, "robot_oracle", "easy", seed=8)
    await table.lobby.start(CHANNEL, ALICE)
    real = computer.decided
    seeds: list[object] = []
    answered: list[Outcome] = []

    async def deciding(*args: object) -> list[str]:
        seeds.append(args[-1])
        if len(seeds) == 1:  # Alice acts in the middle of the first decision
            legal = await table.reading.legal_actions(CHANNEL, ALICE)
            answered.append(await table.play.act(CHANNEL, ALICE, str(legal[0])))
        return await real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(computer, "decided", deciding)
    before = await channel_row(store)
    await table.timers.fire_due_timers()
    after = await channel_row(store)
    assert [o.kind.value for o in answered if o.kind is not None] == ["submission"]
    # decided again on the version after Alice's step (another seed), then committed
    assert len(seeds) >= 2 and seeds[0] != seeds[1]
    moves = await store.moves(after.id, after=before.last_seq)
    assert [m.kind for m in moves][:2] == ["move", "computer"]
    assert moves[1].seq == moves[0].seq + 1  # nothing of the stale decision was written


async def test_a_decision_is_seeded_by_the_seats_secret_not_by_the_buttons_ids(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed the deciding process gets is the seat's secret mixed with the version:
    a retry at the same version is the same decision, and the game's id and version
    (which every button carries) alone do not give it."""
    from bot.service import computer
    from bot.service.seeds import seat_seed

    await lobby(table, "robot_oracle", "strong", seed=8)
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    real = computer.decided
    seeds: list[int] = []

    async def deciding(*args: Any) -> list[str]:
        seeds.append(args[-1])
        return await real(*args)

    monkeypatch.setattr(computer, "decided", deciding)
    await table.timers.fire_due_timers()
    seat = next(s for s in row.seats if s.computer is not None)
    assert seeds == [seat_seed(seat.secret, "decide", str(row.version))]
    assert seeds[0] != legacy_seed(row.id, row.version, seat.seat)


async def test_a_failed_decision_plays_the_timeout_action(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service import computer

    async def broken(*args: object) -> list[str]:
        raise RuntimeError("a brain bug")

    monkeypatch.setattr(computer, "decided", broken)
    await lobby(table, "robot_oracle", "easy", seed=2)
    await table.lobby.start(CHANNEL, ALICE)
    await table.timers.fire_due_timers()
    row = await channel_row(store)
    state = robots.ORACLE.load_state(row.state)
    (seat,) = [s.seat for s in row.seats if s.computer is not None]
    assert state.played[seat] == min(state.hands[seat] + [state.played[seat]])  # the lowest
    assert not [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]


async def test_a_late_computer_seat_is_never_marked_absent(store: Store, clock: Clock) -> None:
    """Rounds' deadlines pass before the computer's (long) pause: the table plays its
    timeouts like anyone's, but only the member becomes absent."""
    slow = GameService(
        store, {**games.REGISTRY, **ROBOTS}, clock=clock, render=False, computer_pause=86_400.0
    )
    await slow.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=ALICE,
        game_type_name="robot_oracle",
        options={"deadline": "1h", "absent": "2"},
        seed=SEED_COMPUTER_WINS_ROUND_1,
    )
    await slow.lobby.add_computer(CHANNEL, ALICE, "easy")
    await slow.lobby.start(CHANNEL, ALICE)
    clock.now += 3601  # round 1: both late
    await slow.timers.fire_due_timers()
    row = await channel_row(store)
    state = robots.ORACLE.load_state(row.state)
    assert state.chooser is not None and row.seats[state.chooser].computer is not None
    clock.now += 86_401  # the computer chooses; round 2 opens
    await slow.timers.fire_due_timers()
    clock.now += 3601  # round 2: both late again
    await slow.timers.fire_due_timers()
    row = await channel_row(store)
    statuses = {s.computer is not None: (s.status, s.timeouts) for s in row.seats}
    assert statuses[False] == ("absent", 2)
    assert statuses[True] == ("playing", 2)


async def test_computer_seats_answer_after_the_shortest_answer_delay(
    table: GameService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The brain's answer delay (Temple Rush's lightning race) comes on top of the pause:
    the seats awaited together answer after the shortest delay, the one to beat."""

    def answer_delay(self: object, state: object, seat: int, level: str, rng: object) -> float:
        return {"easy": 30.0, "strong": 10.0}[level]

    monkeypatch.setattr(robots.OracleBrain, "answer_delay", answer_delay)
    await lobby(table, "robot_oracle", "easy", "strong", seed=6)
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    (timer,) = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    assert timer.due_at == clock.now + 10.0
    clock.now += 9.0
    assert await table.timers.fire_due_timers() == []
    clock.now += 1.0
    await table.timers.fire_due_timers()
    row = await channel_row(store)
    state = robots.ORACLE.load_state(row.state)
    assert {s.seat for s in row.seats if s.computer is not None} <= set(state.played)


async def test_computer_seats_answer_at_once_once_no_member_is_left_to_beat(
    table: GameService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer delay is there for a member to beat: once the member has answered
    (Temple Rush: entered a layout or skipped the race), the step brings the computer
    timer forward to the pause alone, and the computers answer then."""

    def answer_delay(self: object, state: object, seat: int, level: str, rng: object) -> float:
        return 30.0

    monkeypatch.setattr(robots.OracleBrain, "answer_delay", answer_delay)
    await lobby(table, "robot_oracle", "easy", "strong", seed=6)
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    (armed,) = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    assert armed.due_at == clock.now + 30.0
    clock.now += 5.0
    legal = await table.reading.legal_actions(CHANNEL, ALICE)
    await table.play.act(CHANNEL, ALICE, str(legal[0]))
    (timer,) = [t for t in await store.timers(row.id) if t.kind == COMPUTER_TIMER]
    assert (timer.id, timer.due_at) == (armed.id, clock.now)  # the same timer, earlier
    await table.timers.fire_due_timers()
    moves = await store.moves(row.id, after=row.last_seq)
    assert [m.kind for m in moves][:3] == ["move", "computer", "computer"]


async def test_computer_seats_stored_before_secrets_get_one_when_migrated(
    backend: str, empty_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 7 gives every computer seat already stored a secret of its own (a
    member's seat none)."""
    from bot.store import postgres as pg
    from bot.store import sqlite as lite

    module: Any = lite if backend == "sqlite" else pg
    before = module.MIGRATIONS[:6]  # the store as it was before migration 7
    assert "secret" in str(module.MIGRATIONS[6]) and "secret" not in str(before)
    monkeypatch.setattr(module, "MIGRATIONS", before)
    old = await Store.open(empty_url)
    ((game_id,),) = await raw_sql.execute(
        old,
        "INSERT INTO games (channel_id, game_type, status, creator_id, seed, created_at,"
        " updated_at) VALUES (1, 'oracle', 'lobby', 5, 1, 0, 0) RETURNING id",
    )
    for seat, user, level in ((0, 5, None), (1, -1, "easy"), (2, -2, "strong")):
        await raw_sql.execute(
            old,
            "INSERT INTO seats (game_id, seat, user_id, display_name, joined_at, computer)"
            " VALUES (?, ?, ?, 'x', 0, ?)",
            game_id,
            seat,
            user,
            level,
        )
    await old.close()
    monkeypatch.undo()
    new = await Store.open(empty_url)
    try:
        game = await new.open_game_in(1)
        assert game is not None
        member, *computers = [s.secret for s in game.seats]
        assert member is None and None not in computers and len(set(computers)) == 2
    finally:
        await new.close()
