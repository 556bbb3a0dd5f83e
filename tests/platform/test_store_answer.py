"""A step's answer is prepared while its commit runs, and told only once it is stored.

The service hands a step to the store (``Store.start_step``) and prepares the
answer once only the commit remains (the store's ``sent``); what it returns
must still come after the commit, say the version stored, and be dropped when
the commit is refused. On both backends, with the real database.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from bot.service import GameService, Outcome, Player, Refusal
from bot.store import Committed, GameRow, StepWrite, Store
from tests.conftest import BOTH_BACKENDS
from tests.support import relay

pytestmark = BOTH_BACKENDS

PLAYERS = (Player(301, "Ann"), Player(302, "Ben"))


async def _started(service: GameService, channel: int) -> Player:
    """A running relay game in ``channel``; the player it awaits."""
    await service.lobby.new_game(
        guild_id=1, channel_id=channel, user=PLAYERS[0], game_type_name="relay", seed=channel
    )
    await service.lobby.join(channel, PLAYERS[1])
    await service.lobby.start(channel, PLAYERS[0])
    row = await service.store.latest_game_in(channel)
    assert row is not None
    (seat,) = relay.ENGINE.waiting_for(relay.ENGINE.load_state(row.state))
    return next(p for p in PLAYERS if p.id == row.seats[seat].user_id)


class Watched:
    """Records, in order, when the store said only the commit remains, when the commit
    was done and when the service answered.

    A commit is recorded when its done-callback runs, or at :meth:`answered` if it is done
    by then and its callback is still only scheduled (a service that awaits a commit
    already done goes on without a turn of the loop): what is checked is whether the
    commit was done before the answer, not the order of the loop's callbacks."""

    def __init__(self, store: Store, stale: bool = False) -> None:
        self.store = store
        self.stale = stale
        self.events: list[str] = []
        self.original = store.start_step
        self.commits: list[asyncio.Future[Committed]] = []
        self.recorded: set[int] = set()

    def _committed(self, commit: asyncio.Future[Committed]) -> None:
        if id(commit) not in self.recorded:
            self.recorded.add(id(commit))
            self.events.append("committed")

    def answered(self) -> None:
        """The service answered: record the commits done by now, then the answer."""
        for commit in self.commits:
            if commit.done():
                self._committed(commit)
        self.events.append("answered")

    def start_step(
        self, game: GameRow, step: StepWrite, *, sent: Any = None
    ) -> asyncio.Future[Committed]:
        def told() -> None:
            self.events.append("sent")
            if sent is not None:
                sent()

        if self.stale:  # as if another process moved the game since it was loaded
            game = replace(game, version=game.version - 1)
        commit = self.original(game, step, sent=told)
        self.commits.append(commit)
        commit.add_done_callback(self._committed)
        return commit


async def test_a_step_is_answered_only_once_its_commit_is_stored(
    service: GameService, store: Store
) -> None:
    player = await _started(service, 8100)
    watched = Watched(store)
    store.start_step = watched.start_step  # type: ignore[method-assign]
    outcome = await service.play.act(8100, player, "step 1")
    watched.answered()
    assert isinstance(outcome, Outcome)
    # the answer was begun once only the commit remained, and told after it
    assert watched.events == ["sent", "committed", "answered"]
    row = await store.latest_game_in(8100)
    assert row is not None
    assert outcome.version == row.version  # the buttons carry the version stored
    assert [m.action for m in await store.moves(row.id)] == ["step 1"]
    assert outcome.reply.lines[0].params["action"].render("en") == "Step: 1"


async def test_a_step_refused_at_its_commit_is_told_so_and_its_answer_dropped(
    service: GameService, store: Store
) -> None:
    player = await _started(service, 8101)
    before = await store.latest_game_in(8101)
    assert before is not None
    watched = Watched(store, stale=True)
    store.start_step = watched.start_step  # type: ignore[method-assign]
    with pytest.raises(Refusal) as refused:
        await service.play.act(8101, player, "step 1")
    assert refused.value.text.key == "error.conflict"
    assert "committed" in watched.events
    after = await store.latest_game_in(8101)
    assert after is not None
    assert (after.version, after.state) == (before.version, before.state)  # nothing written
    assert await store.moves(after.id) == []


async def test_steps_in_many_channels_at_once_are_each_answered_as_stored(
    service: GameService, store: Store
) -> None:
    channels = range(8200, 8216)
    players = {c: await _started(service, c) for c in channels}
    results = await asyncio.gather(*(service.play.act(c, players[c], "step 1") for c in channels))
    for channel, outcome in zip(channels, results, strict=True):
        row = await store.latest_game_in(channel)
        assert row is not None
        assert outcome.version == row.version
        assert [m.action for m in await store.moves(row.id)] == ["step 1"]
