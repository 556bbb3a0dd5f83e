"""A sealed round's tally when several submissions are told close together, counted in
REST requests against the fake Discord: a tally edit still waiting its turn when a newer
submission of the same game is on its way is not sent (the newer one counts both), an
older tally never follows a newer one, and the last one is always sent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.delivery import Send
from bot.i18n import t
from bot.service import Outcome
from bot.store.sqlite import SqliteStore

from .bot_harness import WAIT, BotHarness, open_harness, start_oracle
from .fake_discord import FakeDiscord, FakeUser, InteractionResult, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


class Gate:
    """Holds each sealed submission's tally (:meth:`~bot.discord.delivery.Delivery.tally`)
    until the test lets it go, by the game's version the submission left; ``fail``: the
    versions whose delivery fails there instead (an error before it told anything)."""

    def __init__(self, h: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.held: dict[int, asyncio.Event] = {}
        self.fail: set[int] = set()
        delivery = h.running.delivery
        tally: Callable[[Outcome, str, Send], Awaitable[None]] = delivery.tally

        async def gated(outcome: Outcome, lang: str, fallback: Send) -> None:
            version = outcome.version
            assert version is not None
            opened = self.held.setdefault(version, asyncio.Event())
            await opened.wait()
            if version in self.fail:
                raise RuntimeError("a delivery that fails before its tally")
            await tally(outcome, lang, fallback)

        monkeypatch.setattr(delivery, "tally", gated)

    def release(self, version: int) -> None:
        self.held[version].set()

    def open(self) -> None:
        """Every tally held, and every one to come, goes at once."""
        for opened in self.held.values():
            opened.set()
        self.held = _Open()

    async def next(self, h: BotHarness, itx: InteractionResult) -> int:
        """The version of ``itx``'s submission, once answered and its tally held."""
        known = set(self.held)
        await answered(h, itx)
        await h.fake.wait_for(lambda: len(self.held) > len(known), timeout=WAIT, what="its tally")
        [version] = set(self.held) - known
        return version


class _Open(dict[int, asyncio.Event]):
    """A gate left open: every tally that comes goes at once."""

    def setdefault(self, key: int, default: asyncio.Event | None = None) -> asyncio.Event:
        opened = asyncio.Event()
        opened.set()
        return super().setdefault(key, opened)


async def played(h: BotHarness, user: FakeUser) -> InteractionResult:
    """``user`` plays their highest card, not waiting for the bot's answer."""
    card = (await h.legal(user))[-1]
    return await h.fake.slash(user, h.channel, "play", action=card)


async def answered(h: BotHarness, itx: InteractionResult) -> None:
    """Until ``itx``'s answer is in (its delivery may still be telling the tally)."""
    await h.fake.wait_for(lambda: bool(itx.messages), timeout=WAIT, what=itx.label)


def edits_of(h: BotHarness, message: RecordedMessage, since: int) -> int:
    return sum(
        r.method == "PATCH" and r.path.endswith(f"/messages/{message.id}")
        for r in h.fake.requests[since:]
    )


async def tally_tells_the_stored_round(
    h: BotHarness, message: RecordedMessage, players: list[FakeUser]
) -> None:
    """The tally in ``message`` names as submitted and awaited exactly what the store holds."""
    awaited = await h.waiting(players)
    text = h.fake.message(message.id).text
    lines = text.splitlines()
    submitted, waiting = (
        t("en", "tally.submitted", players=""),
        t("en", "tally.awaited", players=""),
    )
    [done] = [x[len(submitted) :] for x in lines if x.startswith(submitted)]
    [owed] = [x[len(waiting) :] for x in lines if x.startswith(waiting)]
    assert sorted(done.split(", ")) == sorted(u.name for u in players if u not in awaited)
    assert sorted(owed.split(", ")) == sorted(u.name for u in awaited)


async def round_message(h: BotHarness, players: list[FakeUser]) -> RecordedMessage:
    await start_oracle(h, *players)
    [story] = h.public_messages()[-1:]
    assert t("en", "tally.awaited", players="").strip() in story.text
    return story


async def test_a_burst_of_submissions_edits_the_tally_once(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    dave = h.fake.add_user("dave")
    players = [h.alice, h.bob, h.mallory, dave]
    story = await round_message(h, players)
    gate = Gate(h, monkeypatch)
    since = len(h.fake.requests)
    statements: list[str] = []
    assert isinstance(h.store, SqliteStore)
    await h.store.trace(statements.append)
    burst = players[:3]
    sent = await asyncio.gather(*(played(h, u) for u in burst))
    for itx in sent:
        await answered(h, itx)
    await h.fake.wait_for(lambda: len(gate.held) == 3, timeout=WAIT, what="three tallies")
    gate.open()  # every tally at once, as when they are told together
    for itx in sent:
        await h.running.wait_interaction_done(itx.id, WAIT)
    # three answers, and the round's tally edited once: the newest, which counts all three
    assert sum(r.path.endswith("/callback") for r in h.fake.requests[since:]) == 3
    assert edits_of(h, story, since) == 1
    await tally_tells_the_stored_round(h, story, players)
    assert await h.waiting(players) == [dave]
    # the tally's kept message read once, for the tally sent
    await h.store.trace(None)
    reads = [sql for sql in statements if sql.startswith("SELECT kind, channel_id, message_id,")]
    assert len(reads) == 1
    # one submission alone, afterwards: its tally edited at once
    itx = await played(h, dave)
    await h.running.wait_interaction_done(itx.id, WAIT)
    assert t("en", "tally.closed") in h.fake.message(story.id).text  # the round's last: revealed


async def test_a_lone_submission_still_edits_the_tally(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    players = [h.alice, h.bob, h.mallory]
    story = await round_message(h, players)
    gate = Gate(h, monkeypatch)
    gate.open()
    for user in players[:2]:
        since = len(h.fake.requests)
        itx = await played(h, user)
        await h.running.wait_interaction_done(itx.id, WAIT)
        assert edits_of(h, story, since) == 1
        await tally_tells_the_stored_round(h, story, players)


async def two_held(
    h: BotHarness, gate: Gate
) -> tuple[InteractionResult, int, InteractionResult, int]:
    """Alice's then Bob's submission, each tally held at ``gate``: their interactions and
    the versions of the game their tallies were made at (Bob's stored after Alice's: a
    newer version)."""
    first = await played(h, h.alice)
    older = await gate.next(h, first)
    second = await played(h, h.bob)
    newer = await gate.next(h, second)
    return first, older, second, newer


async def test_an_older_tally_never_overwrites_a_newer_one(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    players = [h.alice, h.bob, h.mallory]
    story = await round_message(h, players)
    gate = Gate(h, monkeypatch)
    since = len(h.fake.requests)
    first, older, second, newer = await two_held(h, gate)
    assert newer > older
    gate.release(newer)  # the newer tally first
    await h.running.wait_interaction_done(second.id, WAIT)
    assert edits_of(h, story, since) == 1
    await tally_tells_the_stored_round(h, story, players)
    gate.release(older)  # then the older one: it counts less, and is not sent
    await h.running.wait_interaction_done(first.id, WAIT)
    assert edits_of(h, story, since) == 1
    await tally_tells_the_stored_round(h, story, players)


async def test_a_tally_waiting_on_a_newer_one_that_fails_is_sent(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    players = [h.alice, h.bob, h.mallory]
    story = await round_message(h, players)
    gate = Gate(h, monkeypatch)
    since = len(h.fake.requests)
    first, older, second, newer = await two_held(h, gate)
    gate.release(older)  # waits for bob's, which is on its way...
    await asyncio.sleep(0.05)
    assert edits_of(h, story, since) == 0
    gate.fail.add(newer)
    gate.release(newer)  # ...and fails before telling anything: alice's is sent after all
    for itx in (first, second):
        await h.running.wait_interaction_done(itx.id, WAIT)
    assert edits_of(h, story, since) == 1
    text = h.fake.message(story.id).text
    assert t("en", "tally.submitted", players="alice") in text


class Held:
    """Holds one user's ``/play`` in the service (its interaction arrived, its step not
    made yet) until the test lets it go."""

    def __init__(self, h: BotHarness, monkeypatch: pytest.MonkeyPatch, user: FakeUser) -> None:
        self.entered = asyncio.Event()
        self.go = asyncio.Event()
        play = h.running.service.play
        act = play.act

        async def held(channel_id: int, player: Any, action: str) -> Outcome:
            if player.id == user.id:
                self.entered.set()
                await self.go.wait()
            return await act(channel_id, player, action)

        monkeypatch.setattr(play, "act", held)


async def test_a_tally_waits_for_a_play_still_being_made_in_its_channel(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    players = [h.alice, h.bob]
    story = await round_message(h, players)
    gate = Gate(h, monkeypatch)
    held = Held(h, monkeypatch, h.bob)
    since = len(h.fake.requests)
    first = await played(h, h.alice)
    older = await gate.next(h, first)
    second = await played(h, h.bob)  # the round's last play, not made yet
    await asyncio.wait_for(held.entered.wait(), WAIT)
    gate.release(older)  # alice's tally waits for bob's play...
    await asyncio.sleep(0.05)
    assert edits_of(h, story, since) == 0
    gate.open()
    held.go.set()  # ...which reveals the round: alice's tally is not sent
    for itx in (first, second):
        await h.running.wait_interaction_done(itx.id, WAIT)
    # alice's answer; bob's: the reveal as its answer, the tally closed, each hand by DM
    assert [r for r in h.fake.requests[since:] if r.method == "PATCH"] == [
        r for r in h.fake.requests[since:] if r.path.endswith(f"/messages/{story.id}")
    ]
    assert edits_of(h, story, since) == 1
    assert len(h.fake.requests[since:]) == 5
    assert t("en", "tally.closed") in h.fake.message(story.id).text


async def test_submissions_at_once_leave_the_stored_round_in_the_tally(
    harness: BotHarness,
) -> None:
    h = harness
    dave = h.fake.add_user("dave")
    players = [h.alice, h.bob, h.mallory, dave]
    story = await round_message(h, players)
    since = len(h.fake.requests)
    sent = await asyncio.gather(*(played(h, u) for u in players[:3]))
    for itx in sent:
        await h.running.wait_interaction_done(itx.id, WAIT)
    # however they were told, the newest is: at most one edit each, at least one in all
    assert 1 <= edits_of(h, story, since) <= 3
    await tally_tells_the_stored_round(h, story, players)
