"""A timer's hand-off (a computer seat's step, a round's deadline) through the real
discord.py client and the fake Discord: the requests in the order the fake receives them.

The public message is posted first, as soon as its board is drawn (not waiting for the
private images); the member's DM goes once it is, without waiting for the story before
it to be tidied (the interim message deleted or the old buttons stripped); a member whose
DMs are closed is named once in the channel, after it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.games.base import PlayerLabel
from bot.i18n import t
from bot.service import PrivateMessage
from tests.conftest import ORACLE
from tests.support import oracle_render

from .bot_harness import BotHarness, move, open_harness
from .fake_discord import FakeDiscord, _compile
from .test_bot_computers import alice_plays
from .test_bot_temple import freeze_clock

Handler = Callable[..., Awaitable[web.StreamResponse]]

#: the longest a held tidying request waits for the hand-off's DMs (a deadlock breaker:
#: DMs that wait for the tidying never come while it is held)
HOLD_LIMIT = 10.0
#: Alice's moves at most before the wanted hand-off is seen
MOVES = 60


@dataclass
class Handoff:
    """One timer's outcome delivered: the requests as the fake received them ("public"
    and "dm" message posts, "tidy" for a delete or an edit of a message, each followed
    by "… done" when answered), and whom its private messages were for."""

    #: the outcome being delivered
    outcome: Any = None
    arrivals: list[str] = field(default_factory=list)
    private_for: list[int] = field(default_factory=list)
    #: set once the outcome's private messages are being sent
    private_started: bool = False
    #: set once the outcome's private messages are sent (its DMs answered or refused)
    private_done: asyncio.Event = field(default_factory=asyncio.Event)
    #: per held tidying request: released by the DMs (True) or by the deadlock breaker
    held: list[bool] = field(default_factory=list)

    def first(self, label: str) -> int:
        return self.arrivals.index(label)


@dataclass
class Watch:
    """The timer outcomes delivered so far, the current one last."""

    handoffs: list[Handoff] = field(default_factory=list)
    current: Handoff | None = None
    hold: bool = True


def watch_timer_handoffs(
    h: BotHarness, monkeypatch: pytest.MonkeyPatch, *, hold: bool = True
) -> Watch:
    """Record each timer outcome's requests at the fake's edge; with ``hold``, a tidying
    request of a timer's outcome is answered only once its DMs are sent."""
    watch = Watch(hold=hold)
    fake = h.fake
    delivery = h.running.delivery
    original_to_channel, original_send_private = delivery.to_channel, delivery.send_private

    async def to_channel(outcome: Any) -> None:
        watch.current = Handoff(outcome)
        watch.handoffs.append(watch.current)
        try:
            await original_to_channel(outcome)
        finally:
            watch.current = None

    async def send_private(messages: Sequence[PrivateMessage], **kwargs: Any) -> None:
        handoff = watch.current
        if handoff is not None:
            handoff.private_started = True
        try:
            await original_send_private(messages, **kwargs)
        finally:
            if handoff is not None:
                handoff.private_for.extend(pm.user_id for pm in messages)
                handoff.private_done.set()

    def wrapped(method: str, handler: Handler) -> Handler:
        async def handle(request: web.Request, **parts: str) -> web.StreamResponse:
            handoff = watch.current
            if handoff is None:
                return await handler(request, **parts)
            if method == "POST":
                label = "dm" if fake.channels[int(parts["channel_id"])].is_dm else "public"
            else:
                label = "tidy"
            handoff.arrivals.append(label)
            # (an interim message edited in place is the public message itself)
            if label == "tidy" and watch.hold and "public done" in handoff.arrivals:
                try:
                    await asyncio.wait_for(handoff.private_done.wait(), HOLD_LIMIT)
                    handoff.held.append(True)
                except TimeoutError:
                    handoff.held.append(False)
            try:
                return await handler(request, **parts)
            finally:
                handoff.arrivals.append(f"{label} done")

        return handle

    message = "/channels/{channel_id}/messages"
    watched = {
        ("POST", _compile(message).pattern),
        ("DELETE", _compile(f"{message}/{{message_id}}").pattern),
        ("PATCH", _compile(f"{message}/{{message_id}}").pattern),
    }
    routes = [
        dataclasses.replace(route, handler=wrapped(route.method, route.handler))
        if (route.method, route.pattern.pattern) in watched
        else route
        for route in fake._routes
    ]
    assert len([r for r in routes if r not in fake._routes]) == len(watched)
    monkeypatch.setattr(fake, "_routes", routes)
    monkeypatch.setattr(delivery, "to_channel", to_channel)
    monkeypatch.setattr(delivery, "send_private", send_private)
    return watch


#: the private images a timer pass draws are held (see :func:`hold_timer_private_images`)
TIMER_PASS: ContextVar[list[bool] | None] = ContextVar("timer_pass", default=None)


def hold_timer_private_images(
    h: BotHarness, monkeypatch: pytest.MonkeyPatch, watch: Watch
) -> list[bool]:
    """Each private image drawn for a timer's outcome is held, once drawn, until the
    hand-off being delivered has its public message posted (True) or the deadlock breaker
    gives up (False: the public message waited for the image); one entry per image."""
    released: list[bool] = []
    service = h.running.service
    original_fire, original_image = service.timers.fire_due_timers, service.ctx.private_image

    async def fire_due_timers(*args: Any, **kwargs: Any) -> Any:
        token = TIMER_PASS.set(released)  # copied into the tasks the pass spawns
        try:
            return await original_fire(*args, **kwargs)
        finally:
            TIMER_PASS.reset(token)

    def public_posted() -> bool:
        return watch.current is not None and "public done" in watch.current.arrivals

    async def posted() -> None:
        while not public_posted():
            await asyncio.sleep(0.01)

    async def private_image(game: Any, view: Mapping[str, Any], seat: int) -> bytes | None:
        image = await original_image(game, view, seat)
        holds = TIMER_PASS.get()
        if holds is not None:
            try:
                await asyncio.wait_for(posted(), HOLD_LIMIT)
                holds.append(True)
            except TimeoutError:
                holds.append(False)
        return image

    monkeypatch.setattr(service.timers, "fire_due_timers", fire_due_timers)
    monkeypatch.setattr(service.ctx, "private_image", private_image)
    return released


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def tigris_against_a_computer(h: BotHarness) -> None:
    await h.slash(h.alice, "game new tigris")
    added = await h.slash(h.alice, "game add-computer", level="easy")
    assert "CPU" in h.ephemeral_text(added)
    started = await h.slash(h.alice, "game start")
    assert not started.rejected


async def play_until(h: BotHarness, watch: Watch, wanted: Any) -> Handoff:
    """Alice plays random legal moves, the computer answering each hand-off, until a
    timer's outcome delivered is ``wanted``; that one."""
    assert h.store is not None
    rng = random.Random(11)
    for _ in range(MOVES):
        await h.running.timers.sync()
        found = [handoff for handoff in watch.handoffs if wanted(handoff)]
        if found:
            return found[0]
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None and row.status == "running"
        await alice_plays(h, "tigris", rng, None)
    raise AssertionError(f"no such hand-off in {MOVES} moves: {watch.handoffs}")


async def test_a_computers_handoff_dms_the_member_once_its_public_message_is_posted(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fake holds each deletion or edit of a message after the public message (the
    interim message replaced, the buttons of the message before) until the hand-off's
    DMs are sent: a DM that waited for it would come only once the hold gave up."""
    h = harness
    watch = watch_timer_handoffs(h, monkeypatch)
    await tigris_against_a_computer(h)

    def dm_and_tidy(handoff: Handoff) -> bool:
        return "dm" in handoff.arrivals and "tidy" in handoff.arrivals

    handoff = await play_until(h, watch, dm_and_tidy)
    arrivals = handoff.arrivals
    assert arrivals[:2] == ["public", "public done"], arrivals  # the public message first
    assert h.alice.id in handoff.private_for
    assert handoff.held, arrivals
    # no tidying waited in vain, in any hand-off
    assert all(all(each.held) for each in watch.handoffs), watch.handoffs
    # the DM was received and answered while the tidying was still held
    assert arrivals.index("dm done") < arrivals.index("tidy done"), arrivals
    assert arrivals.index("tidy") < arrivals.index("dm"), arrivals
    # every hand-off: nothing private before its public message
    for each in watch.handoffs:
        if "dm" in each.arrivals:
            assert each.arrivals.index("public done") < each.arrivals.index("dm"), each
    # what reached her is her private view
    assert all([a.filename for a in m.attachments] == ["hand.png"] for m in h.fake.dms_to(h.alice))


async def test_a_computers_handoff_names_a_member_with_closed_dms_in_the_channel_after_it(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's DMs are closed: her start's view is her answer; the first computer's
    hand-off with a private message for her posts no DM and names her once in the
    channel, after its public message, with none of her private content."""
    h = harness
    assert h.store is not None
    h.alice.dms_open = False
    watch = watch_timer_handoffs(h, monkeypatch, hold=False)
    await tigris_against_a_computer(h)

    def for_alice(handoff: Handoff) -> bool:
        return h.alice.id in handoff.private_for

    handoff = await play_until(h, watch, for_alice)
    assert "dm" not in handoff.arrivals, handoff.arrivals
    assert handoff.arrivals[:2] == ["public", "public done"], handoff.arrivals
    notice = t("en", "dm.closed_notice", player=h.alice.mention)
    public = h.public_messages()
    [named] = [m for m in public if m.text == notice]
    assert named.attachments == [] and named.components == []
    assert {u.id for u in named.mentions} == {h.alice.id}
    # it follows the computer's hand-off message it is about
    handoff_messages = [m for m in public if m.id < named.id and m.attachments]
    assert handoff_messages and "CPU" in handoff_messages[-1].text
    assert h.fake.dms_to(h.alice) == []
    assert await h.store.dms_closed(h.alice.id)
    # later hand-offs name her no more
    await play_until(h, watch, lambda _: len([x for x in watch.handoffs if for_alice(x)]) > 2)
    assert [m.text for m in h.public_messages()].count(notice) == 1


async def test_a_computers_handoff_posts_its_public_message_before_its_private_images_are_drawn(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each private image of a computer's hand-off is held, once drawn, until that
    hand-off's public message is posted: a public message that waited for the private
    images (the old order) would come only once the hold gave up. The member's DM, with
    her image, still comes after the public message."""
    h = harness
    watch = watch_timer_handoffs(h, monkeypatch, hold=False)
    released = hold_timer_private_images(h, monkeypatch, watch)
    await tigris_against_a_computer(h)

    def with_dm(handoff: Handoff) -> bool:
        return "dm" in handoff.arrivals

    handoff = await play_until(h, watch, with_dm)
    assert released and all(released), released  # no image held the public message back
    arrivals = handoff.arrivals
    assert arrivals[:2] == ["public", "public done"], arrivals
    assert arrivals.index("public done") < arrivals.index("dm"), arrivals
    [dm, *_] = [m for m in h.fake.dms_to(h.alice) if m.attachments]
    assert [a.filename for a in dm.attachments] == ["hand.png"]


# -- a deadline's hand-off --------------------------------------------------------------


def hold_timer_public_message(
    h: BotHarness, monkeypatch: pytest.MonkeyPatch, watch: Watch
) -> list[bool]:
    """A timer hand-off's public message is held, once received, until the outcome's
    private images are all drawn; DMs sent by then (they did not wait for the public
    message) reach the fake before it is let through. One entry per public message: True
    when let through, False when the deadlock breaker gave up."""
    held: list[bool] = []
    fake = h.fake

    async def drawn_and_dms_seen(handoff: Handoff) -> None:
        await handoff.outcome.drawn()
        await asyncio.sleep(0)  # a DM task woken by the same drawing has run by now
        while handoff.private_started and "dm" not in handoff.arrivals:
            await asyncio.sleep(0.01)

    def wrapped(handler: Handler) -> Handler:
        async def handle(request: web.Request, **parts: str) -> web.StreamResponse:
            handoff = watch.current
            if handoff is not None and not fake.channels[int(parts["channel_id"])].is_dm:
                try:
                    await asyncio.wait_for(drawn_and_dms_seen(handoff), HOLD_LIMIT)
                    held.append(True)
                except TimeoutError:
                    held.append(False)
            return await handler(request, **parts)

        return handle

    post = ("POST", _compile("/channels/{channel_id}/messages").pattern)
    routes = [
        dataclasses.replace(route, handler=wrapped(route.handler))
        if (route.method, route.pattern.pattern) == post
        else route
        for route in fake._routes
    ]
    monkeypatch.setattr(fake, "_routes", routes)
    return held


@pytest.mark.parametrize("held", ["private_images", "public_message"])
@pytest.mark.parametrize("late", [1, 2], ids=["one_late", "two_late"])
async def test_a_deadlines_handoff_posts_its_public_message_before_its_private_images_are_drawn(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch, late: int, held: str
) -> None:
    """An Oracle round with a deadline: Alice plays, the ``late`` others do not. When the
    deadline passes, the timer task applies the late seats' timeout actions (each one's
    lowest card) as one batch and the round is revealed in one public message, then the
    DMs, and what was told is what was stored. ``held``: each private image is held, once
    drawn, until that public message is posted (a public message that waited for the
    private images would come only once the hold gave up); or the public message is
    held, once received, until every private image is drawn and a DM then under way has
    reached the fake (a DM that did not wait for the public message would come first)."""
    h = harness
    assert h.store is not None
    clock = freeze_clock(h)
    watch = watch_timer_handoffs(h, monkeypatch, hold=False)
    released = hold_timer_private_images(h, monkeypatch, watch) if held == "private_images" else []
    players = [h.alice, h.bob, h.fake.add_user("dave")][: 1 + late]
    latecomers = players[1:]
    opened = await h.slash(h.alice, "game new oracle", deadline="1h")
    assert h.public_of(opened), h.ephemeral_text(opened)
    for user in latecomers:
        joined = await h.slash(user, "game join")
        assert h.public_of(joined), h.ephemeral_text(joined)
    started = await h.slash(h.alice, "game start")
    assert not started.rejected, h.ephemeral_text(started)
    game_id = await h.game_id()
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None
    seat = {s.user_id: s.seat for s in row.seats}
    hands = ORACLE.engine.load_state(row.state).hands
    await move(h, h.alice, (await h.legal(h.alice))[0])
    assert await h.waiting(players) == latecomers
    [deadline] = [x for x in await h.store.timers(game_id) if x.kind == "deadline"]
    assert deadline.name == "round:1"
    before = await h.store.latest_game_in(h.channel.id)
    assert before is not None
    public_before = len(h.public_messages())
    dms_before = {u.id: len(h.fake.dms_to(u)) for u in players}

    public_held: list[bool] = []
    if held == "public_message":
        public_held = hold_timer_public_message(h, monkeypatch, watch)
    clock.now = deadline.due_at  # the deadline passes; the timer task fires it
    await h.running.timers.sync()

    # one hand-off: its public message first, its DMs after it
    [handoff] = watch.handoffs
    arrivals = handoff.arrivals
    assert arrivals[:2] == ["public", "public done"], arrivals
    assert arrivals.count("dm") == len(players), arrivals
    assert all(i > arrivals.index("public done") for i, x in enumerate(arrivals) if x == "dm")
    assert sorted(handoff.private_for) == sorted(u.id for u in players)
    if held == "private_images":  # each held until the public message was posted
        assert released == [True] * len(players), released
    else:  # the public message held until the private images were drawn
        assert public_held == [True], public_held

    # what was stored: each late seat's lowest card played for it, in one commit
    after = await h.store.latest_game_in(h.channel.id)
    assert after is not None and after.version == before.version + 1
    timeouts = await h.store.moves(game_id, after=before.last_seq)
    assert [(m.kind, m.seat, m.action) for m in timeouts] == [
        ("timeout", s, f"play {min(hands[s])}") for s in sorted(seat[u.id] for u in latecomers)
    ]
    state = ORACLE.engine.load_state(after.state)
    assert state.played == {} and state.chooser is not None  # revealed; the winner chooses
    assert [x.kind for x in await h.store.timers(game_id)].count("deadline") == 0

    # what was told: one public message, posted by the timer task, with the stored board
    [told] = h.public_messages()[public_before:]
    assert told.source == "channel"
    hidden = t("en", "oracle.verb.play")  # the card stays hidden in the timeout line
    for user in latecomers:
        assert t("en", "move.timeout", seat=user.name, action=hidden) in told.text, told.text
        assert state.revealed[seat[user.id]] == min(hands[seat[user.id]])
    shown = ", ".join(f"{s + 1}:{c}" for s, c in sorted(state.revealed.items()))
    assert t("en", "oracle.event.revealed", cards=shown) in told.text, told.text
    labels = [PlayerLabel(s.seat, s.display_name, s.colour) for s in after.seats]
    board = oracle_render.render_public(ORACLE.engine.public_view(state), labels, "en")
    assert [(a.filename, a.data) for a in told.attachments] == [("board.png", board)]
    # and each member's DM carries their own hand as stored, and nothing else
    for user in players:
        [dm] = h.fake.dms_to(user)[dms_before[user.id] :]
        own = seat[user.id]
        hand = oracle_render.render_private(ORACLE.engine.private_view(state, own), labels[own])
        assert [(a.filename, a.data) for a in dm.attachments] == [("hand.png", hand)]
