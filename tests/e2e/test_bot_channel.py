"""The channel tells each game's story once, in order, and nothing else.

Through the real discord.py client and the fake Discord:

* whole games of every game and mode, by taps only, by people alone and by one
  person against computer seats (:class:`tests.support.channel_story.StoryTable`);
  after every interaction (and the computer moves it set off):

  - every public line of every step that can no longer be taken back is in the
    channel's messages (the published log, and what an interim message tells
    until the next hand-off message);
  - no message but the game's newest carries a live button, and when the game
    awaits a member that message has Play; never Play on a message that awaits
    only computer seats;
  - the boards posted are at most the hand-offs between people plus one;
  - each player gets at most one DM per hand-off, and every DM says what
    changed in words;
* a Tigris & Euphrates conflict that its defender decides posts its result at
  once, whether the defender then chooses treasures in the same turn or the
  turn passes to them, and the message whose Commit buttons asked for it loses
  them;
* ``/game mine`` from two servers.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import REGISTRY
from bot.i18n import t
from bot.service import Player
from bot.service.loaded import seat_text
from bot.service.replay import standing
from bot.store import GameRow, MoveRow
from tests.support.channel_story import (
    BOARD,
    StoryTable,
    first_attachments,
    live_buttons,
    news_in,
    play_ids,
)

from .bot_harness import BotHarness, action_buttons, open_harness, registry
from .fake_discord import FakeDiscord, FakeUser, InteractionResult, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


# -- what the channel shows ----------------------------------------------------------------


def story_messages(h: BotHarness) -> list[RecordedMessage]:
    """The bot's live public messages in the game's channel, in order."""
    return [m for m in h.public_messages() if m.author is h.fake.bot_user]


class ToldLines:
    """The public lines (English) of every standing step that can no longer be taken back
    (up to the game's checkpoint; in a game of sealed rounds, only those published: a
    sealed move is told by the tally until its round is revealed).

    The log is append-only, so its rows are read once each (only those past the last
    read) and each step's lines rendered once; which steps stand is worked out from
    all of them every time, as :func:`~bot.service.replay.standing` does."""

    def __init__(self) -> None:
        self.rows: list[MoveRow] = []
        self.lines: dict[int, list[str]] = {}

    async def __call__(self, table: StoryTable, row: GameRow) -> list[str]:
        h = table.h
        assert h.store is not None
        engine = REGISTRY[row.game_type].engine
        last = row.published_seq
        if engine.turns.value == "sequential":
            last = max(last, row.checkpoint_seq)
        after = self.rows[-1].seq if self.rows else 0
        self.rows += await h.store.moves(row.id, after=after)
        told: list[str] = []
        for move in standing(self.rows):
            if move.seq > last:
                break
            if move.seq not in self.lines:
                self.lines[move.seq] = [
                    seat_text(row, line[0], _params(line[1])).render("en") for line in move.events
                ]
            told += self.lines[move.seq]
        return told


def _params(params: Any) -> dict[str, Any]:
    from bot.i18n import Text

    def decoded(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {"$text"}:
            return Text.from_json(value["$text"])
        return value

    return {k: decoded(v) for k, v in params.items()}


class Checks:
    """The channel's invariants, checked after every interaction of a whole game."""

    def __init__(self, table: StoryTable) -> None:
        self.table = table
        #: how many of the fake's messages were read, and the channel's boards among them
        self.read = 0
        self.boards = 0
        self.handoffs = table.handoffs
        self.checked = 0
        self.told_lines = ToldLines()
        #: the story's messages (id, text) and how many told lines were in them at the last check
        self.shown: list[tuple[int, str]] = []
        self.found = 0

    async def __call__(self, table: StoryTable, itx: InteractionResult) -> None:
        h = table.h
        self.checked += 1
        messages = story_messages(h)
        text = "\n".join(m.text for m in messages)
        row = await table.row()
        # every public line of every step that cannot be taken back is in the channel;
        # while the channel only grew (no message edited or deleted since the last check)
        # the lines found then are still there, and only the newer ones are looked for
        shown = [(m.id, m.text) for m in messages]
        lines = await self.told_lines(table, row)
        grew = shown[: len(self.shown)] == self.shown
        for line in lines[self.found if grew else 0 :]:
            assert line in text, (line, messages[-1].text if messages else "")
        self.shown, self.found = shown, len(lines)
        # one message with live buttons at most: the game's newest; Play when it awaits a
        # member, never on a message posted while it awaited only computer seats
        live = [m for m in messages if live_buttons(m)]
        assert len(live) <= 1, [m.text[:80] for m in live]
        members, _ = await table.members_awaited()
        if row.status == "running" and members:
            assert len(live) == 1 and play_ids(live[0]), messages[-1].text
            assert table.for_members.get(live[0].id, True)
        for message in live:
            assert not play_ids(message) or table.for_members.get(message.id, True)
        # the messages the fake recorded since the last check: its list only grows, and
        # whether a message is ephemeral, its channel and the files it was posted with
        # never change, so the counts below are the whole list's, read once a message
        new = h.fake.messages[self.read :]
        self.read += len(new)
        # boards: at most the hand-offs between people, plus one
        self.boards += sum(
            BOARD in first_attachments(m) for m in new if m.channel is h.channel and not m.ephemeral
        )
        assert self.boards <= table.handoffs + 1, (self.boards, table.handoffs)
        # DMs: at most one per player per hand-off (and one more for the game's end),
        # each saying what changed in words
        new_handoffs = table.handoffs - self.handoffs
        ended = row.status != "running"
        for user in table.people:
            fresh = [m for m in new if m.dm_recipient is user]
            assert len(fresh) <= new_handoffs + (1 if ended else 0), [m.text for m in fresh]
            assert all(news_in(m.content) for m in fresh), [m.text for m in fresh]
        self.handoffs = table.handoffs


#: (game, lobby options, seats)
GAMES = [
    ("tikal", {"mode": "base"}, 4),
    ("tikal", {"mode": "auction"}, 3),
    ("tikal", {"mode": "mini"}, 2),
    ("tigris", {}, 3),
    ("temple", {}, 3),
]
CASES = [(g, o, n, c) for g, o, n in GAMES for c in (0, n - 1)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "options", "seats", "computers"),
    CASES,
    ids=[f"{g}-{o.get('mode', '-')}-{'cpu' if c else 'people'}" for g, o, _, c in CASES],
)
async def test_a_whole_game_tells_the_channel_its_story_once(
    harness: BotHarness, game: str, options: dict[str, str], seats: int, computers: int
) -> None:
    h = harness
    people = [h.alice, h.bob, h.mallory, h.fake.add_user("dave")][: seats - computers]
    table = StoryTable(h, people, random.Random(seats + computers))
    checks = Checks(table)
    table.check = checks
    await table.start(game, 11, computers, **options)
    checks.handoffs = table.handoffs
    # the start's private views
    assert all(sum(m.dm_recipient is u for m in h.fake.messages) <= 1 for u in people)
    # the boards posted so far count; the DMs so far are the start's, checked just now
    checks.read = len(h.fake.messages)
    checks.boards = sum(
        BOARD in first_attachments(m)
        for m in h.fake.messages
        if m.channel is h.channel and not m.ephemeral
    )
    await table.play()
    assert (await table.row()).status == "finished"
    assert checks.checked > 10
    counts = table.counts(game, options.get("mode", "-"), f"{len(people)}+{computers}")
    assert counts.boards <= counts.handoffs + 1
    assert counts.play_for_computers == 0
    assert counts.dms_without_news == 0
    # the final post: its first message says the game is over; a ranking explained past
    # Discord's 2,000 characters goes on in the messages after it (the last of them
    # carrying the post's buttons); none of them offers a game button (Play, a
    # decision, Undo)
    told = story_messages(h)
    over = [i for i, m in enumerate(told) if "The game is over. Final ranking:" in m.text]
    assert over, "the game's end was never told"
    assert not [live_buttons(m) for m in told[over[-1] :] if live_buttons(m)]
    assert all(len(m.content) <= 2000 for m in told[over[-1] :])


# -- a conflict its defender decides ---------------------------------------------------------

#: a 2-player Tigris & Euphrates game (hidden scoring) played by :func:`random_steps`:
#: the defender of a war wins it with step 156 and chooses treasures next (same turn);
#: the defender of a revolt wins it with step 164 and the turn passes to them
SEED = 1
WAR, REVOLT = 156, 164


def random_steps(count: int) -> list[tuple[int, str]]:
    """The first ``count`` steps of the seeded random game: (seat, notation)."""
    engine = REGISTRY["tigris"].engine
    rng = random.Random(SEED)
    state = engine.new_game(2, {"scoring": "hidden"}, SEED)
    steps = []
    for _ in range(count):
        seat = rng.choice(sorted(engine.waiting_for(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        engine.apply(state, seat, action)
        steps.append((seat, str(action)))
    return steps


async def decided_by_the_defender(
    h: BotHarness,
    users: dict[int, FakeUser],
    steps: list[tuple[int, str]],
    step: int,
    *,
    quiet: bool = True,
) -> tuple[RecordedMessage, InteractionResult]:
    """Play up to the defender's support of ``step``: the steps before the attacker's through
    the service (``quiet``: no message) or with ``/play``, the attacker's with ``/play``
    (the hand-off that asks the defender), then the defender's with its Commit button.
    The asking message and the click."""
    service = h.running.service
    done = len(await h.store.moves(await h.game_id())) if h.store else 0
    for seat, action in steps[done : step - 1]:
        user = users[seat]
        if quiet:
            await service.play.act(h.channel.id, Player(user.id, user.name), action)
        else:
            assert not (await h.slash(user, "play", action=action)).rejected
    attacker, committed = steps[step - 1]
    assert committed.startswith("support"), committed
    asked = await h.slash(users[attacker], "play", action=committed)
    [asking] = h.public_of(asked)
    defender, support = steps[step]
    assert support.startswith("support") and defender != attacker
    buttons = action_buttons(asking)
    assert support in buttons, buttons  # the Commit buttons ask the defender
    return asking, await h.click(users[defender], asking, buttons[support])


@pytest.mark.slow
async def test_a_conflict_its_defender_decides_is_told_at_once(harness: BotHarness) -> None:
    h = harness
    assert h.store is not None
    opened = await h.slash(h.alice, "game new tigris", scoring="hidden")
    assert h.public_of(opened)
    await h.slash(h.bob, "game join")
    with sqlite3.connect(h.store.path) as raw:
        raw.execute("UPDATE games SET seed = ? WHERE id = ?", (SEED, await h.game_id()))
    await h.slash(h.alice, "game start")
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    by_id = {u.id: u for u in (h.alice, h.bob)}
    users = {s.seat: by_id[s.user_id] for s in row.seats}
    steps = random_steps(REVOLT + 1)

    # the defender wins a war and goes on choosing treasures in the attacker's turn
    asking, clicked = await decided_by_the_defender(h, users, steps, WAR)
    [told] = h.public_of(clicked)  # at once, not after the defender's next decision
    assert "wins the war" in told.text, told.text
    assert told.attachments == []  # the board comes with the next hand-off
    assert not action_buttons(h.fake.message(asking.id))  # the Commit buttons are gone
    assert play_ids(told)  # the defender's next decision: Play on the newest message
    assert [m for m in story_messages(h) if live_buttons(m)] == [told]

    # the defender wins a revolt, which ends the attacker's turn: the turn is theirs
    asking, clicked = await decided_by_the_defender(h, users, steps, REVOLT, quiet=False)
    [told] = h.public_of(clicked)
    assert "wins the revolt" in told.text and "turn" in told.text, told.text
    assert [a.filename for a in told.attachments] == [BOARD]  # a hand-off: the board
    assert not action_buttons(h.fake.message(asking.id))
    assert [m for m in story_messages(h) if live_buttons(m)] == [told]
    # the interim message of the war, replaced, is gone; its lines are in the channel
    text = "\n".join(m.text for m in story_messages(h))
    assert text.count("wins the war") == 1


# -- /game mine --------------------------------------------------------------------------------


async def test_game_mine_lists_the_games_of_every_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    h = BotHarness(fake, tmp_path / "ziggurat.db", global_commands=True)
    other = fake.add_guild("Another Server")
    lounge = fake.add_channel(other, "tables")
    for user in (h.alice, h.bob, h.mallory):
        fake.add_member(other, user)
    await h.start()
    try:
        # a Tigris game here (alice and bob), then a Tikal game in the other server
        await h.slash(h.alice, "game new tigris")
        await h.slash(h.bob, "game join")
        await h.slash(h.alice, "game start")
        await h.slash(h.bob, "game new tikal", channel=lounge)
        await h.slash(h.alice, "game join", channel=lounge)
        await h.slash(h.bob, "game start", channel=lounge)
        assert h.store is not None
        first = await h.store.latest_game_in(h.channel.id)
        second = await h.store.latest_game_in(lounge.id)
        assert first is not None and second is not None
        waiting = {
            row.id: {
                row.seats[s].user_id
                for s in registry()[row.game_type].engine.waiting_for(
                    registry()[row.game_type].engine.load_state(row.state)
                )
            }
            for row in (first, second)
        }
        before = (await h.raw_game(), await h.raw_game(lounge))
        for user in (h.alice, h.bob):
            for where in (h.channel, lounge):  # the same answer from either server
                itx = await h.slash(user, "game mine", channel=where)
                assert all(m.ephemeral for m in itx.messages) and itx.messages
                text = h.ephemeral_text(itx)
                yours, _, _ = text.partition(t("en", "mine.others"))
                for row, title in ((first, "Tigris & Euphrates"), (second, "Tikal")):
                    line = next(x for x in text.splitlines() if f"**{title}**" in x)
                    assert f"<#{row.channel_id}>" in line
                    link = await h.store.message(row.id, "live")
                    assert link is not None
                    guild = h.guild.id if row is first else other.id
                    assert f"https://discord.com/channels/{guild}/{link[0]}/{link[1]}" in line
                    assert (line in yours) == (user.id in waiting[row.id]), (user.name, text)
                # the oldest first, when both wait for this user
                if all(user.id in waiting[row.id] for row in (first, second)):
                    assert yours.index("Tigris") < yours.index("Tikal")
                # nothing private: no hand, no tiles
                assert "hand" not in text.lower()
        nobody = await h.slash(h.mallory, "game mine")
        assert h.ephemeral_text(nobody) == t("en", "mine.none")
        assert (await h.raw_game(), await h.raw_game(lounge)) == before  # it reads only
    finally:
        await h.stop()


# -- the picker: the player's own view, and when their part is played ---------------------------


async def test_the_picker_opens_with_the_players_private_view(harness: BotHarness) -> None:
    h = harness
    table = StoryTable(h, [h.alice, h.bob], random.Random(1))
    await table.start("tigris", 3)
    [user] = [u for u in (h.alice, h.bob) if u.id in (await table.members_awaited())[0]]
    picker = await table.open(user)
    files = [a.filename for a in picker.attachments]
    assert "hand.png" in files, files
    assert "Your hand (6): " in picker.text and "Your points: " in picker.text
    assert "Catastrophe tiles left: 2." in picker.text
    # only its owner sees it
    assert picker.ephemeral and picker.ephemeral_for is user


async def tap_pass(table: StoryTable, user: FakeUser, picker: RecordedMessage) -> None:
    """Tap Temple Rush's "Pass this round" in the picker: a button, or a select's option."""
    label = t("en", "temple.choice.pass")
    for component in picker.walk_components():
        if component.get("type") == 2 and component.get("label") == label:
            await table.click(user, picker, component["custom_id"])
            return
        for option in component.get("options") or []:
            if option.get("label") == label:
                await table.select(user, picker, component["custom_id"], [option["value"]])
                return
    raise AssertionError(picker.text)


async def test_a_sealed_move_closes_the_picker_and_the_reveal_says_the_game_moved_on(
    harness: BotHarness,
) -> None:
    h = harness
    table = StoryTable(h, [h.alice, h.bob], random.Random(2))
    await table.start("temple", 9)
    first, second = (h.alice, h.bob)
    round_message = table.newest_play()[0]
    for user, said in ((first, "picker.sealed"), (second, "picker.moved_on")):
        picker = await table.open(user)
        await tap_pass(table, user, picker)  # one tap seals a whole move
        assert t("en", said) in picker.text, picker.text
        assert t("en", "picker.title.verb") not in picker.text  # no whole menu again
        assert not [c for c in picker.custom_ids() if c.startswith("zg:pick:")]
    # the round's message: its tally closed, its buttons gone; the reveal is below it
    closed = h.fake.message(round_message.id)
    assert t("en", "tally.closed") in closed.text and not live_buttons(closed)
    assert story_messages(h)[-1].id != round_message.id
