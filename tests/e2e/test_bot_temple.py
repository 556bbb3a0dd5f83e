"""Temple Rush through the bot: sealed rounds, their tally, deadlines and the lightning race.

A round is a set of sealed submissions: each is confirmed to its author
alone (with their own preview), the round's tally message is edited in
place, and only the round's resolution reaches the channel, once, with the
board. The tests play with the seeded player of ``tests/support/temple_play.py``
and drive time with a frozen clock handed to the running service: a
deadline passes when the test moves that clock and wakes the bot's timer task.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games.base import PlayerLabel
from bot.games.temple import ENGINE, GameState, Lightning, Move, Pass, Place, Skip, Swap
from bot.games.temple.actions import Action
from bot.i18n import t
from bot.store import TimerRow
from tests.support.temple_play import Player

from .bot_harness import BotHarness, decode_png, open_harness, said, tap_in_picker
from .fake_discord import FakeDiscord, FakeUser, InteractionResult, RecordedMessage
from .test_bot_requests import routes

#: the full game's seed: its round 3 is closed by the deadline, and it has a lightning race
SEED = 3
#: a seed whose game opens with a lightning race
RACE_SEED = 7
DEADLINE = 3600.0  # the lobby option "1h"
#: every tally's second line starts so (its first line is the game's question)
SUBMITTED = t("en", "tally.submitted", players="")
#: the round the full game leaves to its deadline
LATE_ROUND = 3


@dataclass
class Clock:
    """The running service's clock, frozen until the test moves it."""

    now: float = field(default_factory=time.time)

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def freeze_clock(h: BotHarness) -> Clock:
    clock = Clock()
    h.running.service.ctx.clock = clock
    return clock


async def start_temple(h: BotHarness, players: list[FakeUser], seed: int) -> InteractionResult:
    creator, *others = players
    opened = await h.slash(creator, "game new temple", deadline="1h")
    assert h.public_of(opened), h.ephemeral_text(opened)
    assert h.store is not None
    with sqlite3.connect(h.store.path) as raw:  # the lobby draws a random seed: fix it
        raw.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, await h.game_id()))
    for user in others:
        await h.slash(user, "game join")
    started = await h.slash(creator, "game start")
    assert "The game of Temple Rush has started." in h.public_of(started)[0].text
    return started


async def loaded(h: BotHarness) -> tuple[Any, GameState]:
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    return row, ENGINE.load_state(row.state)


async def deadline_timer(h: BotHarness) -> TimerRow:
    assert h.store is not None
    [timer] = [t for t in await h.store.timers(await h.game_id()) if t.kind == "deadline"]
    return timer


def tallies(h: BotHarness) -> list[RecordedMessage]:
    """The public messages that carry a round's tally (a round's hand-off message)."""
    return [
        m for m in h.public_messages() if any(x.startswith(SUBMITTED) for x in m.text.split("\n"))
    ]


def tally_part(text: str) -> tuple[str, str]:
    """A round's message's question (the line before its tally) and its tally's lines."""
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith(SUBMITTED))
    return lines[start - 1], "\n".join(lines[start : start + 3])


def tally_lines(submitted: list[str], awaited: list[str], due: float) -> str:
    """The tally message's text after its first line (the round's question)."""
    return "\n".join(
        [
            t("en", "tally.submitted", players=", ".join(submitted) or "—"),
            t("en", "tally.awaited", players=", ".join(awaited) or "—"),
            t("en", "tally.deadline", when=int(due)),
        ]
    )


async def private_png(h: BotHarness, user: FakeUser) -> bytes:
    """The user's private view drawn now, straight from the stored state."""
    row, state = await loaded(h)
    seat = row.seat_of(user.id)
    assert seat is not None
    view = ENGINE.private_view(state, seat.seat)
    render = games.REGISTRY["temple"].render_private
    assert render is not None
    return render(view, PlayerLabel(seat.seat, seat.display_name, seat.colour), "en")


def public_text_since(h: BotHarness, first: RecordedMessage) -> str:
    """Every public text from ``first`` on, as it is and as it was before each edit;
    of ``first`` (a round's message, which also tells the round before), its tally."""
    messages = h.public_messages()
    parts = []
    for message in messages[messages.index(first) :]:
        texts = [message.text, *(str(old.get("content", "")) for old in message.history)]
        if message is first:
            texts = [from_tally(text) for text in texts]
        parts += texts
    return "\n".join(parts)


def from_tally(text: str) -> str:
    """A round's message from its tally on (what its edits change)."""
    lines = text.split("\n")
    starts = [i for i, x in enumerate(lines) if x.startswith(SUBMITTED)]
    return "\n".join(lines[starts[0] :]) if starts else text


async def send(
    h: BotHarness, user: FakeUser, action: Action, how: int
) -> tuple[str, InteractionResult]:
    """Play ``action`` by ``/play``, by its ``/temple`` subcommand, or (pass/skip) by the
    player's own button in their move picker (Play); returns which way, and the answer."""
    notation = str(action)
    verb = notation.split()[0]
    if how % 3 == 2 and isinstance(action, Pass | Skip):
        key, params = ENGINE.choice_label(action)
        label = t("en", key, **params)
        return "button", await tap_in_picker(h, user, label)
    if how % 3 == 1:
        words = ENGINE.verbs.verbs[verb].words(action)
        return "command", await h.slash(user, f"temple {verb}", **words)
    return "play", await h.slash(user, "play", action=notation)


def complete_submission(player: Player, state: GameState, seat: int) -> Action:
    """The seeded player's choice, kept to one part that completes a submission
    (a brick, a swap or a pass): tokens and re-lays would leave a draft open."""
    choice = player.choose(state, seat)
    if isinstance(choice, Place | Move | Swap | Pass):
        return choice
    bricks = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, Place | Move)]
    return player.rng.choice(bricks) if bricks else Pass()


def sealed_answer(h: BotHarness, itx: InteractionResult, user: FakeUser) -> None:
    """What every sealed submission's answer is: private to its author, pinging nobody."""
    assert h.public_of(itx) == []
    assert itx.messages
    assert all(m.ephemeral and m.ephemeral_for is user for m in itx.messages)
    assert all(m.mentions == [] for m in itx.messages)


def confirmed_parts(h: BotHarness, itx: InteractionResult) -> str:
    """The parts of the seat's sealed move, as its private confirmation lists them."""
    prefix = "Your sealed move: "
    [line] = [x for x in h.ephemeral_text(itx).splitlines() if x.startswith(prefix)]
    return line[len(prefix) :].split(". You can change it")[0]


# -- one complete game ------------------------------------------------------------------


@dataclass
class Table:
    """A game played by the seeded player through Discord, and what it has seen."""

    h: BotHarness
    clock: Clock
    player: Player
    players: list[FakeUser]
    steps: int = 0
    rounds: int = 0
    late_rounds: int = 0
    races_won: int = 0
    board_checked: bool = False
    ways: Counter[str] = field(default_factory=Counter)

    async def seats(self) -> tuple[GameState, dict[int, FakeUser]]:
        row, state = await loaded(self.h)
        by_id = {u.id: u for u in self.players}
        return state, {s.seat: by_id[s.user_id] for s in row.seats}

    async def play(self, user: FakeUser, action: Action) -> InteractionResult:
        way, itx = await send(self.h, user, action, self.steps)
        self.ways[way] += 1
        self.steps += 1
        self.h.told_move(itx, t("en", "move.accepted", action=said("temple", str(action))))
        return itx


@dataclass
class Round:
    """One sealed round as the channel shows it: its tally, its deadline, who sealed."""

    table: Table
    users: dict[int, FakeUser]
    awaited: list[int]
    tally: RecordedMessage
    timer: TimerRow
    done: list[int] = field(default_factory=list)
    confirmed: dict[int, str] = field(default_factory=dict)

    def name(self, seat: int) -> str:
        return self.users[seat].name

    async def seal(self, seat: int, action: Action) -> None:
        """A submission that leaves the round open: private, and the tally edited."""
        h, user = self.table.h, self.users[seat]
        dms_before = {u.id: len(h.fake.dms_to(u)) for u in self.table.players}
        public_before = len(h.public_messages())
        itx = await self.table.play(user, action)
        self.confirmed[seat] = confirmed_parts(h, itx)
        # confirmed privately with the author's own preview; nothing public, no ping
        sealed_answer(h, itx, user)
        [preview] = [m for m in itx.messages if m.attachments]
        assert preview.attachments[0].data == await private_png(h, user)
        decode_png(preview.attachments[0].data)
        assert len(h.public_messages()) == public_before
        for other in self.table.players:
            if other is not user:
                assert len(h.fake.dms_to(other)) == dms_before[other.id]
        # the tally: the same message, edited; the deadline where it was
        if seat not in self.done:
            self.done.append(seat)
        assert tallies(h)[-1].id == self.tally.id
        edited = h.fake.message(self.tally.id)
        waiting = [self.name(s) for s in self.awaited if s not in self.done]
        submitted = [self.name(s) for s in self.awaited if s in self.done]
        assert tally_part(edited.text)[1] == tally_lines(submitted, waiting, self.timer.due_at)
        # the tally is in the round's message, whose ping named the round's awaited seats;
        # an edit notifies nobody, and names nobody else
        assert {u.id for u in edited.mentions} <= {self.users[s].id for s in self.awaited}
        assert await deadline_timer(h) == self.timer
        # the sealed move is nowhere in public since the round opened
        if not isinstance(action, Pass):
            assert str(action) not in public_text_since(h, self.tally)
            assert self.confirmed[seat] not in public_text_since(h, self.tally)

    async def check_board_hides(self, seat: int, sealed: Action) -> None:
        """The public board shows that a move is sealed, never which one."""
        h = self.table.h
        shown = await h.slash(self.users[seat], "game board")
        first_board = h.public_of(shown)[0].attachments[0].data
        state, _ = await self.table.seats()
        other = next(
            a
            for a in ENGINE.legal_actions(state, seat)
            if isinstance(a, Place | Move) and str(a) != str(sealed)
        )
        await self.seal(seat, other)  # a new brick replaces the sealed one
        shown = await h.slash(self.users[seat], "game board")
        assert h.public_of(shown)[0].attachments[0].data == first_board
        assert str(sealed) not in public_text_since(h, self.tally)


async def play_round(table: Table, state: GameState, users: dict[int, FakeUser]) -> None:
    """Every awaited seat seals a move (in round :data:`LATE_ROUND` the last one is
    late and the deadline closes the round); check the round's messages."""
    h = table.h
    table.rounds += 1
    number = state.round
    awaited = sorted(ENGINE.waiting_for(state))
    timer = await deadline_timer(h)
    assert timer.name == f"round:{number}"
    [tally] = tallies(h)[-1:]
    names = [users[s].name for s in awaited]
    question, rest = tally_part(tally.text)
    assert question.startswith(f"Round {number}")  # the game's question, then the tally
    assert rest == tally_lines([], names, timer.due_at)
    current = Round(table, users, awaited, tally, timer)
    late = awaited[-1] if number == LATE_ROUND else None
    submitters = [s for s in awaited if s != late]
    for index, seat in enumerate(submitters):
        table.clock.now += 600  # time passes; the round's deadline must not move
        state, _ = await table.seats()
        action = complete_submission(table.player, state, seat)
        if index < len(submitters) - 1 or late is not None:
            await current.seal(seat, action)
            if not table.board_checked:
                await current.check_board_hides(seat, action)
                table.board_checked = True
            continue
        # the last submission reveals the round
        public_before = len(h.public_messages())
        itx = await table.play(users[seat], action)
        # the round is revealed at once: no "you can change it" line, the reveal says it
        assert "You can change it" not in h.ephemeral_text(itx)
        current.confirmed[seat] = said("temple", str(action))
        [resolution] = h.public_of(itx)
    if late is not None:
        # nobody else submits: the deadline closes the round, through the timer task
        table.late_rounds += 1
        assert await deadline_timer(h) == timer
        public_before = len(h.public_messages())
        table.clock.now = timer.due_at
        await h.running.timers.sync()
        resolution = h.public_messages()[public_before]
        assert resolution.source == "channel"  # no interaction: the timer task posted it
        sealed = t("en", "temple.do.sealed")  # a pass is a sealed move: the reveal tells it
        assert t("en", "move.timeout", seat=users[late].name, action=sealed) in resolution.text
        current.confirmed[late] = said("temple", "pass")
    # one public message with the board, what each seat did and the next round's tally
    posted = h.public_messages()[public_before:]
    assert posted == [resolution]
    assert [a.filename for a in resolution.attachments] == ["board.png"]
    assert t("en", "temple.event.reveal", round=number) in resolution.text
    for seat, parts in current.confirmed.items():
        assert f"\n{users[seat].name}: {parts}.\n" in resolution.text, (parts, resolution.text)
    row, state = await loaded(h)
    closed = h.fake.message(tally.id).text
    assert t("en", "tally.closed") in closed and SUBMITTED not in closed  # the round is over
    assert not tally.custom_ids()  # its buttons went with it
    if row.status == "running":
        assert tallies(h) == [resolution]
        now_awaited = {users[s].id for s in ENGINE.waiting_for(state)}
        assert {u.id for u in resolution.mentions} == now_awaited
    else:
        assert posted == [resolution]


async def play_decision(table: Table, state: GameState, users: dict[int, FakeUser]) -> None:
    """A bonus choice or a lightning race: one seat decides."""
    h = table.h
    awaited = sorted(ENGINE.waiting_for(state))
    [tally] = tallies(h)[-1:]
    public_before = len(h.public_messages())
    seat = awaited[0]
    choice = table.player.choose(state, seat)
    if state.phase == "race" and not isinstance(choice, Lightning):
        choice = Skip()
    itx = await table.play(users[seat], choice)
    if isinstance(choice, Lightning):
        [public] = h.public_of(itx)
        first = choice.bricks[0]
        won = f"{users[seat].name} wins the lightning race with a brick of {first.length} at "
        assert won in public.text  # the layout in words
        assert [a.filename for a in public.attachments] == ["board.png"]
        table.races_won += 1
    elif len(awaited) > 1:  # others still to decide: private, and the tally edited
        sealed_answer(h, itx, users[seat])
        assert len(h.public_messages()) == public_before
        assert tallies(h)[-1].id == tally.id
        edited = h.fake.message(tally.id).text
        assert t("en", "tally.submitted", players=users[seat].name) in edited


@pytest.mark.slow
async def test_one_complete_game_of_sealed_rounds(harness: BotHarness) -> None:
    h = harness
    assert h.store is not None
    players = [h.alice, h.bob]
    table = Table(h, freeze_clock(h), Player(random.Random(SEED)), players)
    await start_temple(h, players, SEED)
    while True:
        row, state = await loaded(h)
        if row.status == "finished":
            break
        assert table.steps < 600, "the game does not end"
        _, users = await table.seats()
        if state.phase == "round":
            await play_round(table, state, users)
        else:
            await play_decision(table, state, users)

    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [line.split(" — ")[0] for line in final.text.splitlines() if line[:1].isdigit()]
    assert sorted(r.split(". ", 1)[1] for r in ranked) == ["alice", "bob"]
    assert final.mentions == []
    decode_png(final.attachments[0].data)
    assert table.late_rounds == 1 and table.races_won >= 1 and table.rounds >= 10
    assert set(table.ways) == {"play", "command", "button"}
    moves = await h.store.moves(row.id)
    assert len([m for m in moves if m.kind != "timeout"]) == table.steps
    assert [m.kind for m in moves].count("timeout") == 1
    for message in h.public_messages():
        assert all(a.filename == "board.png" for a in message.attachments)


# -- the round's deadline -----------------------------------------------------------------


async def test_a_rounds_deadline_does_not_move_when_players_submit(harness: BotHarness) -> None:
    h = harness
    clock = freeze_clock(h)
    opened_at = clock.now
    players = [h.alice, h.bob]
    await start_temple(h, players, SEED)
    first = await deadline_timer(h)
    assert (first.name, first.due_at) == ("round:1", opened_at + DEADLINE)
    [tally] = tallies(h)
    deadline_line = t("en", "tally.deadline", when=int(first.due_at))
    assert deadline_line in tally.text and f"<t:{int(first.due_at)}:" in tally.text

    row, state = await loaded(h)
    seats = {s.user_id: s.seat for s in row.seats}
    legal = ENGINE.legal_actions(state, seats[h.alice.id])
    for action in [a for a in legal if isinstance(a, Place)][
        :2
    ]:  # a submission, then a new one replacing it
        clock.now += 1200
        itx = await h.slash(h.alice, "play", action=str(action))
        assert t("en", "move.accepted", action=said("temple", str(action))) in h.ephemeral_text(itx)
        assert await deadline_timer(h) == first
        assert tallies(h) == [tally]
        assert deadline_line in h.fake.message(tally.id).text
    # the last seat submits: the round resolves, and the next round gets its own deadline
    clock.now += 1200
    await h.slash(h.bob, "play", action="pass")
    second = await deadline_timer(h)
    assert (second.name, second.due_at) == ("round:2", clock.now + DEADLINE)
    [new_tally] = tallies(h)
    assert t("en", "tally.deadline", when=int(second.due_at)) in new_tally.text
    closed = h.fake.message(tally.id).text  # the old one is closed
    assert t("en", "tally.closed") in closed and SUBMITTED not in closed


# -- the lightning race ---------------------------------------------------------------------


async def test_a_refused_lightning_layout_is_answered_then_rate_limited(
    harness: BotHarness,
) -> None:
    h = harness
    clock = freeze_clock(h)
    players = [h.alice, h.bob]
    started = await start_temple(h, players, RACE_SEED)
    assert "Lightning race 1" in h.public_of(started)[0].text
    row, state = await loaded(h)
    assert state.phase == "race"
    seats = {s.user_id: s.seat for s in row.seats}
    # the layout to type is never suggested by the race's own command
    assert await h.autocomplete(h.alice, "temple lightning", "bricks") == []
    [layout] = [
        a for a in ENGINE.legal_actions(state, seats[h.alice.id]) if isinstance(a, Lightning)
    ]
    bricks = str(layout).split(" ", 1)[1]
    wrong = bricks.split()[0]  # one brick: the rest of the temple stays empty

    before = await h.raw_game()
    public_before = len(h.public_messages())
    refused = await h.slash(h.alice, "temple lightning", bricks=wrong)
    reason = h.ephemeral_text(refused)
    assert reason.startswith("These cells stay empty: ")
    assert all(m.ephemeral and m.ephemeral_for is h.alice for m in refused.messages)
    assert await h.raw_game() == before
    # an immediate retry, even a right one, waits out the cooldown; nothing changes
    for retry in (f"lightning {bricks}", "lightning " + wrong):
        again = await h.slash(h.alice, "play", action=retry)
        assert h.ephemeral_text(again) == t("en", "error.cooldown", seconds=5)
        assert await h.raw_game() == before
    again = await h.slash(h.alice, "temple lightning", bricks=bricks)
    assert h.ephemeral_text(again) == t("en", "error.cooldown", seconds=5)
    # the cooldown is alice's alone: bob's wrong layout gets its reason
    other = await h.slash(h.bob, "temple lightning", bricks="1:A1")
    assert h.ephemeral_text(other).startswith("These cells stay empty: B1, ")
    assert await h.raw_game() == before
    assert len(h.public_messages()) == public_before

    clock.now += 3  # still waiting: the rest is told
    again = await h.slash(h.alice, "play", action=f"lightning {bricks}")
    assert h.ephemeral_text(again) == t("en", "error.cooldown", seconds=2)
    assert await h.raw_game() == before
    clock.now += 2  # the cooldown is over: the layout wins the race
    won = await h.slash(h.alice, "temple lightning", bricks=bricks)
    h.told_move(won, t("en", "move.accepted", action=said("temple", f"lightning {bricks}")))
    [public] = h.public_of(won)
    assert "alice wins the lightning race with a brick of " in public.text  # in words
    assert [a.filename for a in public.attachments] == ["board.png"]


# -- the round's last submission ------------------------------------------------------------


async def test_a_rounds_last_submission_is_answered_by_the_reveal(harness: BotHarness) -> None:
    """The round's last sealed part is named by the reveal with every seat's submission
    (``GameEngine.reveals``), and its author holds no receipt there: the reveal, with the
    board and the next round's tally, is the interaction's response; nothing ephemeral.
    It tells its author what their private answer did: their move in words, the round
    revealed, and every other seat's move."""
    h = harness
    players = [h.alice, h.bob]
    await start_temple(h, players, SEED)
    player = Player(random.Random(SEED))
    row, state = await loaded(h)
    users = {s.seat: u for s in row.seats for u in players if u.id == s.user_id}
    first, last = sorted(ENGINE.waiting_for(state))
    sealed = Pass()  # told apart from the closing move in the reveal
    sealed_answer(h, await h.slash(users[first], "play", action=str(sealed)), users[first])
    [story] = tallies(h)
    _, state = await loaded(h)
    closing = complete_submission(player, state, last)
    since = len(h.fake.requests)
    itx = await h.slash(users[last], "play", action=str(closing))
    reveal = h.answered_publicly(itx)
    assert reveal is not None and h.public_of(itx) == [reveal]
    assert h.ephemeral_text(itx) == ""
    assert t("en", "temple.event.reveal", round=state.round) in reveal.text
    for seat, action in ((first, sealed), (last, closing)):
        assert f"\n{users[seat].name}: {said('temple', str(action))}.\n" in reveal.text
    assert [a.filename for a in reveal.attachments] == ["board.png"]
    assert tallies(h) == [reveal]
    assert {u.id for u in reveal.mentions} == {u.id for u in players}
    # the response itself (no follow-up), the round's message closed
    assert routes(h, since)[:2] == ["POST callback", "PATCH message"]
    assert h.fake.requests[since].query == {"with_response": "1"}
    assert t("en", "tally.closed") in h.fake.message(story.id).text
