"""The table over days through the real discord.py client and the fake Discord: the turn
clock, absent seats, the host's pause/resume/extend/replace, resigning, notification
choices, automatic answers, games in threads, and a game that ends although one of its
players disappears.

Time is a frozen clock handed to the running service: a deadline passes when the test
moves that clock and wakes the bot's timer task (``timers.sync()``), which fires every
timer due by then and delivers what it posts before returning.

The fake records a message's ``mentions`` from its content whatever the bot allowed, so
the ``allowed`` fixture keeps each message's ``allowed_mentions`` and :func:`pinged` tells
who Discord would actually ping.
"""

from __future__ import annotations

import random
import time
import types
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games.base import PlayerLabel
from bot.i18n import t
from bot.service import lobby as lobby_module
from bot.store import GameRow
from tests.support import oracle, relay

from .bot_harness import BotHarness, decode_png, move, open_harness, said
from .fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionResult, RecordedMessage

DAY = 86_400.0
#: the "shortly before" reminder of a one-day clock: an eighth of a day before its end
SOON = DAY - 3 * 3600
#: Discord's Manage Channels permission bit
MANAGE_CHANNELS = 1 << 4
ORACLE = oracle.ENGINE


@dataclass
class Clock:
    """The running service's clock, frozen until the test moves it."""

    now: float = field(default_factory=lambda: float(int(time.time())))

    def __call__(self) -> float:
        return self.now


def freeze_clock(h: BotHarness) -> Clock:
    clock = Clock()
    h.running.service.ctx.clock = clock
    return clock


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


@pytest.fixture
def allowed(fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> dict[int, Any]:
    """Each new message's ``allowed_mentions`` as the bot sent it (None: not given)."""
    seen: dict[int, Any] = {}
    original = fake_discord._new_message

    def recording(*args: Any, **kwargs: Any) -> RecordedMessage:
        message = original(*args, **kwargs)
        payload = args[2] if len(args) > 2 else kwargs["payload"]
        seen[message.id] = payload.get("allowed_mentions")
        return message

    monkeypatch.setattr(fake_discord, "_new_message", recording)
    return seen


def pinged(allowed: dict[int, Any], message: RecordedMessage) -> set[int]:
    """The users Discord pings for ``message``: mentioned in it and allowed by the bot."""
    mentioned = {u.id for u in message.mentions}
    rules = allowed.get(message.id)
    if rules is None or "users" in rules.get("parse", []):
        return mentioned
    return mentioned & {int(uid) for uid in rules.get("users", [])}


# -- reading the game -----------------------------------------------------------------


async def game_row(h: BotHarness, channel: FakeChannel | None = None) -> GameRow:
    assert h.store is not None
    row = await h.store.latest_game_in((channel or h.channel).id)
    assert row is not None
    return row


async def seat_users(
    h: BotHarness, users: list[FakeUser], channel: FakeChannel | None = None
) -> list[FakeUser]:
    """The users in seat order."""
    row = await game_row(h, channel)
    by_id = {u.id: u for u in users}
    return [by_id[s.user_id] for s in row.seats]


async def awaited(
    h: BotHarness, users: list[FakeUser], channel: FakeChannel | None = None
) -> list[FakeUser]:
    """Those of ``users`` the game in ``channel`` waits for (none once it is over)."""
    row = await game_row(h, channel)
    if row.status != "running":
        return []
    engine = h.running.service.registry[row.game_type].engine
    ids = {row.seats[s].user_id for s in engine.waiting_for(engine.load_state(row.state))}
    return [u for u in users if u.id in ids]


async def clock_timers(h: BotHarness) -> dict[str, float]:
    assert h.store is not None
    timers = await h.store.timers(await h.game_id())
    return {timer.name: timer.due_at for timer in timers if timer.kind == "clock"}


def fresh_clock(now: float) -> dict[str, float]:
    return {"turn": now + DAY, "half": now + DAY / 2, "soon": now + SOON}


def new_public(h: BotHarness, before: int, channel: FakeChannel | None = None) -> list[Any]:
    return h.public_messages(channel)[before:]


async def open_game(
    h: BotHarness,
    game: str,
    players: list[FakeUser],
    channel: FakeChannel | None = None,
    **options: Any,
) -> InteractionResult:
    """``players[0]`` opens ``game`` with ``options``, the others join, the creator starts."""
    creator, *others = players
    opened = await h.slash(creator, f"game new {game}", channel, **options)
    assert h.public_of(opened), h.ephemeral_text(opened)
    for user in others:
        joined = await h.slash(user, "game join", channel)
        assert h.public_of(joined), h.ephemeral_text(joined)
    started = await h.slash(creator, "game start", channel)
    assert h.public_of(started), h.ephemeral_text(started)
    return started


async def pass_time(h: BotHarness, clock: Clock, to: float) -> None:
    """Move the frozen clock to ``to`` and fire every timer due by then."""
    clock.now = to
    await h.running.timers.sync()


def line(key: str, **params: Any) -> str:
    return t("en", key, **params)


def end_words() -> str:
    """Relay's ``end`` as everyone reads it when the table plays it for a seat."""
    return said("relay", "end", public=True)


# -- 1. the turn clock ------------------------------------------------------------------


async def test_the_turn_clock_reminds_the_awaited_player_then_plays_their_timeout(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    h = harness
    assert h.store is not None
    clock = freeze_clock(h)
    start = clock.now
    players = [h.alice, h.bob]
    await open_game(h, "relay", players, clock="1d")
    game_id = await h.game_id()
    timers = await h.store.timers(game_id)
    assert sorted((x.kind, x.name, x.due_at) for x in timers) == [
        ("clock", "half", start + DAY / 2),
        ("clock", "soon", start + SOON),
        ("clock", "turn", start + DAY),
    ]
    [late] = await awaited(h, players)
    [other] = [u for u in players if u is not late]

    # just before half time nothing is posted
    before = len(h.public_messages())
    await pass_time(h, clock, start + DAY / 2 - 1)
    assert new_public(h, before) == []
    # half time, then shortly before the end: a reminder pinging only the awaited player
    reminder_text = line("reminder.deadline", players=late.name, when=int(start + DAY))
    for due in (start + DAY / 2, start + SOON):
        await pass_time(h, clock, due + 1)
        [reminder] = new_public(h, before)
        before += 1
        assert reminder.source == "channel"  # posted by the timer task
        assert reminder.text.splitlines() == [
            reminder_text,
            line("game.your_turn", mentions=late.mention),
        ]
        assert f"<t:{int(start + DAY)}:R>" in reminder.text
        assert pinged(allowed, reminder) == {late.id}
        assert await awaited(h, players) == [late]
        assert (await clock_timers(h))["turn"] == start + DAY
    assert set(await clock_timers(h)) == {"turn"}  # both reminders were used up

    # the end of the clock: the late seat's timeout, one public message pinging the next
    dms_before = {u.id: len(h.fake.dms_to(u)) for u in players}
    await pass_time(h, clock, start + DAY + 1)
    [timeout] = new_public(h, before)
    assert timeout.source == "channel"
    assert timeout.text.splitlines()[:2] == [
        line("move.timeout", seat=late.name, action=end_words()),
        line("relay.event.turn_over", seat=late.name),
    ]
    assert timeout.text.splitlines()[-1] == line("game.your_turn", mentions=other.mention)
    assert pinged(allowed, timeout) == {other.id}
    assert [a.filename for a in timeout.attachments] == ["board.png"]
    assert await awaited(h, players) == [other]
    assert {u.id: len(h.fake.dms_to(u)) for u in players} == dms_before
    late_seat = (await game_row(h)).seat_of(late.id)
    assert late_seat is not None and late_seat.timeouts == 1
    moves = await h.store.moves(game_id)
    assert [(m.seat, m.action, m.kind) for m in moves] == [(late_seat.seat, "end", "timeout")]
    # the next decision has a fresh clock from the timeout on
    assert await clock_timers(h) == fresh_clock(clock.now)

    # a move hands over: a fresh clock again, and the late seat's clock is not the old one
    clock.now += 3600
    await move(h, other, "end")
    assert await awaited(h, players) == [late]
    assert await clock_timers(h) == fresh_clock(clock.now)


# -- 2. absent seats --------------------------------------------------------------------


async def test_a_seat_that_times_out_twice_is_absent_played_at_once_until_it_is_back(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    assert relay.TURNS_EACH >= 4, "the story below needs four turns each"
    h = harness
    assert h.store is not None
    clock = freeze_clock(h)
    players = [h.alice, h.bob]
    await open_game(h, "relay", players, clock="1d", absent="2")
    game_id = await h.game_id()
    late, other = await seat_users(h, players)
    assert await awaited(h, players) == [late]

    async def status() -> tuple[str, int]:
        seat = (await game_row(h)).seat_of(late.id)
        assert seat is not None
        return seat.status, seat.timeouts

    async def time_out() -> RecordedMessage:
        assert await awaited(h, players) == [late]
        before = len(h.public_messages())
        await pass_time(h, clock, (await clock_timers(h))["turn"])
        posted = new_public(h, before)
        # the two reminders, then the timeout, pinging the next player
        assert [m.text.startswith("Reminder:") for m in posted] == [True, True, False]
        assert line("move.timeout", seat=late.name, action=end_words()) in posted[-1].text
        assert pinged(allowed, posted[-1]) == {other.id}
        return posted[-1]

    absent = line("table.absent", seat=late.name, count=2)
    first = await time_out()  # turn 1
    assert absent not in first.text
    assert await status() == ("playing", 1)
    await move(h, other, "end")  # turn 2
    assert await status() == ("playing", 1)  # in a row: another seat's move changes nothing
    second = await time_out()  # turn 3: the second timeout in a row
    assert absent in second.text
    assert await status() == ("absent", 2)
    refused = await h.slash(other, "game back")  # only an absent seat comes back
    assert h.ephemeral_text(refused) == line("error.not_absent")

    # turn 4 hands over to the absent seat: its turn 5 is played at once, in the same
    # public message, and the game waits for the other player again (no clock ran out)
    clock.now += 600
    before = len(h.public_messages())
    ended = await move(h, other, "end")
    [public] = h.public_of(ended)
    assert new_public(h, before) == [public]
    assert public.text.splitlines()[:3] == [
        line("relay.event.turn_over", seat=other.name),
        line("table.played_for", seat=late.name, action=end_words()),
        line("relay.event.turn_over", seat=late.name),
    ]
    assert pinged(allowed, public) == {other.id}
    assert await awaited(h, players) == [other]
    assert await clock_timers(h) == fresh_clock(clock.now)
    moves = await h.store.moves(game_id)
    assert [m.kind for m in moves] == ["timeout", "move", "timeout", "move", "auto"]
    assert await status() == ("absent", 2)  # played for, not back

    # the player comes back: announced; their next decision waits for them, with a clock
    back = await h.slash(late, "game back")
    assert line("seat.back_reply") in h.ephemeral_text(back)
    assert [m.text for m in h.public_of(back)] == [line("table.back", seat=late.name)]
    assert await status() == ("playing", 0)
    clock.now += 600
    await move(h, other, "end")  # turn 6
    assert await awaited(h, players) == [late]
    assert await clock_timers(h) == fresh_clock(clock.now)
    assert (await h.store.moves(game_id))[-1].kind == "move"
    # and they play it themselves, to the end of the game
    while movers := await awaited(h, players):
        await move(h, movers[0], "end")
    assert "The game is over. Final ranking:" in h.public_messages()[-1].text
    kinds = [m.kind for m in await h.store.moves(game_id)]
    assert kinds.count("auto") == 1 and kinds.count("timeout") == 2
    assert len(kinds) == 2 * relay.TURNS_EACH


# -- 3. pause, resume, extend ---------------------------------------------------------


async def test_only_the_host_pauses_resumes_and_extends_the_clock(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    h = harness
    assert h.store is not None
    clock = freeze_clock(h)
    start = clock.now
    players = [h.alice, h.bob]  # alice created the game: she is its host
    await open_game(h, "relay", players, clock="1d")
    [mover] = await awaited(h, players)
    # a member who can manage the channel is a host too, seated or not
    mods = h.fake.add_role(h.guild, "mods", permissions=MANAGE_CHANNELS)
    member = h.guild.member(h.mallory)
    assert member is not None
    member.roles.append(mods)

    async def refused(user: FakeUser, command: str, reason: str) -> None:
        before_raw = await h.raw_game()
        before = len(h.public_messages())
        itx = await h.slash(user, command)
        assert h.ephemeral_text(itx) == line(reason), command
        assert all(m.ephemeral for m in itx.messages)
        assert await h.raw_game() == before_raw
        assert len(h.public_messages()) == before

    for command in ("game pause", "game resume", "game extend"):
        await refused(h.bob, command, "error.host_only")
    await refused(h.alice, "game resume", "error.not_paused")

    # pause (an hour in): the timers are gone, nothing fires past the old deadline
    clock.now = start + 3600
    paused = await h.slash(h.alice, "game pause")
    assert line("host.paused_reply") in h.ephemeral_text(paused)
    assert [m.text for m in h.public_of(paused)] == [line("host.paused", player="alice")]
    assert await h.store.timers(await h.game_id()) == []
    await refused(h.alice, "game pause", "error.already_paused")
    await refused(h.alice, "game extend", "error.paused_extend")
    raw = await h.raw_game()
    before = len(h.public_messages())
    await pass_time(h, clock, start + 3 * DAY)
    assert new_public(h, before) == []
    assert await h.raw_game() == raw
    assert await awaited(h, players) == [mover]

    # resume (by the manager): the same decision gets what was left of its clock
    resumed_at = clock.now
    resumed = await h.slash(h.mallory, "game resume")
    assert line("host.resumed_reply") in h.ephemeral_text(resumed)
    [public] = h.public_of(resumed)
    assert public.text.splitlines()[0] == line("host.resumed", player="mallory")
    assert pinged(allowed, public) == {mover.id}
    shift = resumed_at - (start + 3600)
    assert await clock_timers(h) == {name: due + shift for name, due in fresh_clock(start).items()}
    assert (await clock_timers(h))["turn"] == start + DAY + shift

    # extend: one clock period more, said with a Discord timestamp
    before_extend = await clock_timers(h)
    extended = await h.slash(h.alice, "game extend")
    assert line("host.extended_reply") in h.ephemeral_text(extended)
    when = int(before_extend["turn"] + DAY)
    [public] = h.public_of(extended)
    assert public.text == line("host.extended", player="alice", when=when)
    assert f"<t:{when}:f>" in public.text and f"<t:{when}:R>" in public.text
    assert pinged(allowed, public) == set()
    assert await clock_timers(h) == {name: due + DAY for name, due in before_extend.items()}
    # the old deadline passes: nothing; the new one: the timeout
    before = len(h.public_messages())
    await pass_time(h, clock, before_extend["turn"] + 1)
    assert new_public(h, before) == []
    assert await awaited(h, players) == [mover]
    await pass_time(h, clock, when + 1)
    assert line("move.timeout", seat=mover.name, action=end_words()) in h.public_messages()[-1].text
    assert await awaited(h, players) != [mover]


async def test_a_decision_handed_over_while_paused_gets_a_full_clock_on_resume(
    harness: BotHarness,
) -> None:
    h = harness
    clock = freeze_clock(h)
    players = [h.alice, h.bob]
    await open_game(h, "relay", players, clock="1d")
    [mover] = await awaited(h, players)
    clock.now += 3600
    await h.slash(h.alice, "game pause")
    clock.now += 3600
    await move(h, mover, "end")  # moves can still be played while paused
    assert await clock_timers(h) == {}
    clock.now += 3600
    await h.slash(h.alice, "game resume")
    assert await clock_timers(h) == fresh_clock(clock.now)


# -- 4. handing a seat over -------------------------------------------------------------


def oracle_private_png(row: GameRow, seat: int) -> bytes:
    """The seat's private view drawn now, labelled with its stored player."""
    seat_row = row.seats[seat]
    view = ORACLE.private_view(ORACLE.load_state(row.state), seat)
    render = games.REGISTRY["oracle"].render_private
    assert render is not None
    label = PlayerLabel(seat, seat_row.display_name, seat_row.colour)
    return render(view, label, row.language)


async def test_the_host_hands_a_seat_over_with_its_private_view(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    h = harness
    players = [h.bob, h.alice]  # bob hosts
    await open_game(h, "oracle", players)
    row = await game_row(h)
    seat = row.seat_of(h.alice.id)
    assert seat is not None
    # only the host; only a seated player is replaced; never by someone seated
    before_raw = await h.raw_game()
    for user, old, new, reason in [
        (h.alice, h.bob, h.mallory, line("error.host_only")),
        (h.bob, h.mallory, h.carol, line("error.replace_not_seated")),
        (h.bob, h.alice, h.bob, line("error.replace_seated", player="bob")),
    ]:
        itx = await h.slash(user, "game replace", old=old, new=new)
        assert h.ephemeral_text(itx) == reason
        assert await h.raw_game() == before_raw

    alice_dms = len(h.fake.dms_to(h.alice))
    mallory_dms = len(h.fake.dms_to(h.mallory))
    assert mallory_dms == 0
    replaced = await h.slash(h.bob, "game replace", old=h.alice, new=h.mallory)
    assert line("host.replaced_reply") in h.ephemeral_text(replaced)
    [public] = h.public_of(replaced)
    assert public.text.splitlines()[0] == line(
        "host.replaced", old="alice", new="mallory", host="bob"
    )
    # alice's seat was awaited (a sealed round): mallory is pinged, alice is not
    assert pinged(allowed, public) == {h.mallory.id}
    after = await game_row(h)
    assert after.seats[seat.seat].user_id == h.mallory.id
    assert after.seats[seat.seat].display_name == "mallory"
    [dm] = h.fake.dms_to(h.mallory)
    assert line("hand.header", game=line("oracle.title")) in dm.text
    # the seat's private view (not compared with the render: see the report, the
    # image is labelled with the old player's name)
    decode_png(dm.attachments[0].data)
    assert len(h.fake.dms_to(h.alice)) == alice_dms

    # alice is out: refused, nothing changes; mallory plays the seat
    before_raw = await h.raw_game()
    card = (await h.legal(h.mallory))[0]
    refused = await h.slash(h.alice, "play", action=card)
    assert h.ephemeral_text(refused) == line("error.not_in_game")
    assert await h.raw_game() == before_raw
    # a few rounds: the seat's private updates go to mallory, never to alice again
    for _ in range(2):
        for user in await awaited(h, [h.bob, h.mallory]):
            await move(h, user, (await h.legal(user))[0], prefer_buttons=False)
        for user in await awaited(h, [h.bob, h.mallory]):  # the round's winner decides
            await move(h, user, (await h.legal(user))[0], prefer_buttons=False)
    assert len(h.fake.dms_to(h.mallory)) > 1
    assert len(h.fake.dms_to(h.alice)) == alice_dms
    assert h.fake.dms_to(h.mallory)[-1].attachments[0].data == oracle_private_png(
        await game_row(h), seat.seat
    )


# -- 5. resigning -----------------------------------------------------------------------


def resign_button(itx: InteractionResult) -> tuple[RecordedMessage, str]:
    [message] = [m for m in itx.messages if m.custom_ids()]
    [custom_id] = message.custom_ids()
    return message, custom_id


async def test_a_resigned_seat_is_played_by_the_table_to_the_end(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    h = harness
    players = [h.alice, h.bob, h.mallory]
    await open_game(h, "relay", players)
    game_id = await h.game_id()
    s0, s1, s2 = await seat_users(h, players)
    assert await awaited(h, players) == [s0]

    # s1 asks to resign: an ephemeral danger button, nothing changed yet
    before_raw = await h.raw_game()
    asked = await h.slash(s1, "game resign")
    assert all(m.ephemeral and m.ephemeral_for is s1 for m in asked.messages)
    assert line("seat.resign_confirm") in h.ephemeral_text(asked)
    confirm, custom_id = resign_button(asked)
    assert custom_id == f"zg:resign:{game_id}"
    button = confirm.find_component(custom_id)
    assert button is not None and button["style"] == 4  # danger
    assert await h.raw_game() == before_raw

    # s1 confirms, off its turn: announced; nothing to play yet
    before = len(h.public_messages())
    resigned = await h.click(s1, confirm, custom_id)
    assert line("seat.resigned_reply") in h.ephemeral_text(resigned)
    assert [m.text for m in new_public(h, before)] == [line("seat.resigned", player=s1.name)]
    assert (await game_row(h)).seats[1].status == "resigned"
    # s0 ends its turn: s1's turn is played at once, in the same public message
    ended = await move(h, s0, "end")
    [public] = h.public_of(ended)
    assert public.text.splitlines()[:3] == [
        line("relay.event.turn_over", seat=s0.name),
        line("table.played_for", seat=s1.name, action=end_words()),
        line("relay.event.turn_over", seat=s1.name),
    ]
    assert pinged(allowed, public) == {s2.id}
    assert await awaited(h, players) == [s2]
    # the resigned player's commands are refused, nothing changes
    before_raw = await h.raw_game()
    for itx, reason in [
        (await h.slash(s1, "play", action="end"), "error.resigned_seat"),
        (await h.slash(s1, "game undo"), "error.resigned_seat"),
        (await h.slash(s1, "game resign"), "error.already_resigned"),
        (await h.click(s1, confirm, custom_id), "error.already_resigned"),
    ]:
        assert h.ephemeral_text(itx) == line(reason)
    assert await h.raw_game() == before_raw

    # s2 resigns on its turn: its decision is played in the resignation's public message
    asked = await h.slash(s2, "game resign")
    message, cid = resign_button(asked)
    resigned = await h.click(s2, message, cid)
    [public] = h.public_of(resigned)
    assert public.text.splitlines()[:3] == [
        line("seat.resigned", player=s2.name),
        line("table.played_for", seat=s2.name, action=end_words()),
        line("relay.event.turn_over", seat=s2.name),
    ]
    assert pinged(allowed, public) == {s0.id}
    # s0 plays alone: each of its turns is followed by the two played for the others
    while await awaited(h, players):
        assert await awaited(h, players) == [s0]
        await move(h, s0, "end")
    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    moves = await h.store.moves(game_id)  # type: ignore[union-attr]
    assert {m.kind for m in moves if m.seat != 0} == {"auto"}
    assert len(moves) == 3 * relay.TURNS_EACH

    # a new game: the old game's confirmation is stale
    await open_game(h, "relay", players)
    before_raw = await h.raw_game()
    stale = await h.click(s1, confirm, custom_id)
    assert h.ephemeral_text(stale) == line("error.stale_button")
    assert await h.raw_game() == before_raw
    assert all(s.status == "playing" for s in (await game_row(h)).seats)


# -- 6. notifications -------------------------------------------------------------------


def turn_dm(channel: FakeChannel) -> str:
    """A "your turn" DM: where, and where to see every game that waits for you."""
    return line("notify.your_turn_dm", channel=channel.mention) + "\n" + line("notify.mine")


async def test_how_a_player_is_told_it_is_their_turn(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    h = harness
    players = [h.alice, h.bob]
    itx = await h.slash(h.bob, "game notify", h.other_channel, how="dm")  # anywhere
    assert h.ephemeral_text(itx) == line("notify.dm")
    assert h.public_of(itx) == []
    # bob's choice each time the game hands over to him: he changes it after each
    # hand-off, the last time for the next game
    cycle = ["dm", "both", "off", "channel"] * relay.TURNS_EACH
    plan = [*cycle[: relay.TURNS_EACH], "dm"]
    seen: list[str] = []

    async def play_game() -> None:
        counts = {u.id: len(h.fake.dms_to(u)) for u in players}
        await open_game(h, "relay", players)
        handoff = h.public_messages()[-1]  # the start
        while movers := await awaited(h, players):
            [mover] = movers
            how = "channel"  # alice never chose
            if mover is h.bob:
                how = plan[len(seen)] if len(seen) < len(plan) else plan[-1]
                seen.append(how)
            # the message names the awaited player, and pings them only if they want it
            assert line("game.your_turn", mentions=mover.mention) in handoff.text
            assert pinged(allowed, handoff) == ({mover.id} if how in ("channel", "both") else set())
            got = {u.id: [m.text for m in h.fake.dms_to(u)[counts[u.id] :]] for u in players}
            want_dm = how in ("dm", "both")
            assert got == {
                u.id: [turn_dm(h.channel)] if u is mover and want_dm else [] for u in players
            }, how
            if mover is h.bob and len(seen) < len(plan):
                itx = await h.slash(h.bob, "game notify", how=plan[len(seen)])
                assert h.ephemeral_text(itx) == line(f"notify.{plan[len(seen)]}")
            counts = {u.id: len(h.fake.dms_to(u)) for u in players}
            handoff = h.public_of(await move(h, mover, "end"))[-1]

    await play_game()
    assert seen == plan[:-1]  # one hand-off to bob per turn of his
    await play_game()  # a new game: bob's last choice is remembered
    assert seen == plan + ["dm"] * (relay.TURNS_EACH - 1)
    assert h.fake.dms_to(h.alice) == []


async def test_a_heads_up_goes_to_the_next_player_who_asked_for_dms(
    harness: BotHarness, allowed: dict[int, Any]
) -> None:
    from .test_bot_tigris import start_tigris

    h = harness
    players = [h.alice, h.bob, h.mallory]
    await start_tigris(h, players)
    u0, u1, u2 = await seat_users(h, players)
    assert await awaited(h, players) == [u0]
    next_dm = line("notify.next_dm", channel=h.channel.mention) + "\n" + line("notify.mine")

    def notes(user: FakeUser) -> list[str]:
        """The turn notes a user got by DM (not their private views)."""
        return [m.text for m in h.fake.dms_to(user) if not m.attachments]

    assert notes(u0) == notes(u1) == notes(u2) == []  # nobody chose DMs yet
    await h.slash(u0, "game notify", how="both")
    await h.slash(u1, "game notify", how="dm")
    # u0 passes: u1 is told by DM (not pinged); u2 (in the channel) is next, no DM
    [public] = h.public_of(await move(h, u0, "pass", prefer_buttons=False))
    assert line("game.up_next", seat=u2.name) in public.text
    assert pinged(allowed, public) == set()
    assert notes(u1) == [turn_dm(h.channel)]
    assert notes(u2) == [] and notes(u0) == []
    # u2 now wants DMs; u1 passes: u2 is told by DM, and u0 (both) gets a heads-up
    await h.slash(u2, "game notify", how="dm")
    [public] = h.public_of(await move(h, u1, "pass", prefer_buttons=False))
    assert line("game.up_next", seat=u0.name) in public.text
    assert pinged(allowed, public) == set()
    assert notes(u2) == [turn_dm(h.channel)]
    assert notes(u0) == [next_dm]
    # u2 passes: u0 (both) is pinged and told by DM; u1 (dm) gets the heads-up
    [public] = h.public_of(await move(h, u2, "pass", prefer_buttons=False))
    assert pinged(allowed, public) == {u0.id}
    assert notes(u0) == [next_dm, turn_dm(h.channel)]
    assert notes(u1) == [turn_dm(h.channel), next_dm]


# -- 7. automatic answers -----------------------------------------------------------------


async def test_automatic_answers_are_a_seated_players_choice(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await open_game(h, "relay", players)
    seat = (await game_row(h)).seat_of(h.bob.id)
    assert seat is not None and seat.auto is False  # never the default
    on = await h.slash(h.bob, "game auto", answers="on")
    assert h.ephemeral_text(on) == line("seat.auto_on")
    assert h.public_of(on) == []
    row = await game_row(h)
    assert [s.auto for s in row.seats] == [s.user_id == h.bob.id for s in row.seats]
    off = await h.slash(h.bob, "game auto", answers="off")
    assert h.ephemeral_text(off) == line("seat.auto_off")
    assert not any(s.auto for s in (await game_row(h)).seats)
    before_raw = await h.raw_game()
    outsider = await h.slash(h.mallory, "game auto", answers="on")
    assert h.ephemeral_text(outsider) == line("error.not_in_game")
    assert await h.raw_game() == before_raw


# -- 8. a game in a thread ----------------------------------------------------------------


async def test_a_game_opened_in_a_thread_lives_there(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    opened = await h.slash(h.alice, "game new relay", thread=True)
    threads = [c for c in h.guild.channels if c.is_thread]
    assert len(threads) == 1
    [thread] = threads
    assert thread.parent is h.channel
    assert h.ephemeral_text(opened) == line("lobby.created_in_thread", thread=thread.mention)
    assert h.public_messages(h.channel) == []  # nothing public in the parent channel
    [lobby] = h.public_messages(thread)
    opened_line = line("lobby.created", player="alice", game=line("relay.title"), range="2–4")
    assert lobby.text.splitlines()[0] == opened_line
    assert (await game_row(h, thread)).channel_id == thread.id
    # a thread is not a place to open another thread
    refused = await h.slash(h.bob, "game new relay", thread, thread=True)
    assert h.ephemeral_text(refused) == line("error.thread_here")

    # everything works in the thread
    joined = await h.slash(h.bob, "game join", thread)
    assert [m.channel for m in h.public_of(joined)] == [thread]
    started = await h.slash(h.alice, "game start", thread)
    assert [m.channel for m in h.public_of(started)] == [thread]
    while movers := await awaited(h, players, thread):
        [mover] = movers
        assert await h.legal(mover, thread) == ["step 1", "step 2", "step 3", "draw", "end"]
        itx = await h.slash(mover, "play", thread, action="end")
        h.told_move(itx, line("move.accepted", action=said("relay", "end")))
        assert all(m.channel is thread for m in h.public_of(itx))
    final = h.public_messages(thread)[-1]
    assert "The game is over. Final ranking:" in final.text
    assert (await game_row(h, thread)).status == "finished"
    assert h.public_messages(h.channel) == []
    moves = await h.store.moves((await game_row(h, thread)).id)  # type: ignore[union-attr]
    assert len(moves) == 2 * relay.TURNS_EACH


# -- 9. a player disappears ------------------------------------------------------------------

#: the Tigris seed of the game below (the lobby's random draw, fixed for a stable test)
DISAPPEARS_SEED = 13
#: how often a player swaps its biggest set of tiles (the rest: random legal actions)
SWAP_SHARE = 0.1


def quick_tigris_move(rng: random.Random, legal: list[str]) -> str:
    """A random legal action, now and then the biggest swap (it drains the bag, so the game
    stays short); never a pass."""
    swaps = [a for a in legal if a.startswith("swap ")]
    if swaps and rng.random() < SWAP_SHARE:
        return max(swaps, key=len)
    others = [a for a in legal if not a.startswith(("swap ", "pass"))] or legal
    return rng.choice(others)


@pytest.mark.slow
async def test_a_four_player_game_ends_although_one_player_disappears(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A four-player game in which one player disappears after three turns still ends
    without anyone touching the database."""
    h = harness
    assert h.store is not None
    fixed = types.SimpleNamespace(randrange=lambda _: DISAPPEARS_SEED)
    monkeypatch.setattr(
        lobby_module,
        "random",
        types.SimpleNamespace(Random=random.Random, SystemRandom=lambda: fixed),
    )
    dave = h.fake.add_user("dave")
    clock = freeze_clock(h)
    players = [h.alice, h.bob, h.mallory, dave]
    await open_game(h, "tigris", players, scoring="open", clock="1d")
    row = await game_row(h)
    assert row.seed == DISAPPEARS_SEED and row.options["absent"] == "3"
    rng = random.Random(7)
    missing = dave
    missing_seat = row.seat_of(missing.id)
    assert missing_seat is not None
    engine = games.REGISTRY["tigris"].engine
    turns_seen: set[int] = set()  # the turns of the missing player's seat it played
    gone = False
    clock_ends = 0
    steps = 0
    while movers := await awaited(h, players):
        assert steps < 2000, "the game does not end"
        [mover] = movers
        if mover is missing and not gone:
            state = engine.load_state((await game_row(h)).state)
            starts = state.phase == "action" and state.active == missing_seat.seat
            if starts and state.turn_number not in turns_seen:
                gone = len(turns_seen) == 3  # its fourth turn: it never comes
                turns_seen.add(state.turn_number)
        if mover is missing and gone:
            # the game waits for the clock to run out
            turn_due = (await clock_timers(h))["turn"]
            assert turn_due > clock.now
            await pass_time(h, clock, turn_due)
            clock_ends += 1
            continue
        clock.now += 60
        await move(h, mover, quick_tigris_move(rng, await h.legal(mover)), prefer_buttons=False)
        steps += 1

    log = [m.text for m in h.public_messages()]
    print("\n---- public log ----")
    for index, text in enumerate(log, 1):
        print(f"[{index}] {text}")
    print("---- end of public log ----")
    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [x.split(" — ")[0] for x in final.text.splitlines() if x[:1].isdigit()]
    assert sorted(name.split(". ", 1)[1] for name in ranked) == sorted(u.name for u in players)
    row = await game_row(h)
    assert row.status == "finished"
    assert gone and len(turns_seen) == 4
    # three timeouts in a row made the seat absent; the table played it from then on
    absent = line("table.absent", seat=missing.name, count=3)
    assert sum(absent in text for text in log) == 1
    assert clock_ends == 3
    moves = await h.store.moves(row.id)
    kinds = [m.kind for m in moves if m.seat == missing_seat.seat]
    gone_at = kinds.index("timeout")
    assert set(kinds[:gone_at]) == {"move"}  # its first three turns (and its answers)
    assert kinds[gone_at : gone_at + 3] == ["timeout"] * 3  # then the clock, three times
    assert set(kinds[gone_at + 3 :]) == {"auto"}  # then the table, at once
    assert (await game_row(h)).seat_of(missing.id).status == "absent"  # type: ignore[union-attr]
    assert await h.store.timers(row.id) == []
