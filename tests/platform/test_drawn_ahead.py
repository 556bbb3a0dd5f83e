"""A step's board is asked of the drawing pool before its commit is written, and shown
only once the commit is stored; a step refused at its commit drops it unshown.

The round's last play of an Oracle game hands off (a board and private views): by a
member's ``/play``, by a computer seat when its timer fires, and by a deadline's
timeout action. The drawing pool is watched at its edge (``drawing.drawn``) and the
store's commit as :mod:`tests.platform.test_store_answer` watches it. On both backends.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import games
from bot.games.base import GameType, PlayerLabel
from bot.service import GameService, Outcome, Refusal, StepKind, drawing
from bot.service.context import COMPUTER_TIMER
from bot.store import Store
from tests.conftest import (
    ALICE,
    BOTH_BACKENDS,
    CAROL,
    CHANNEL,
    GUILD,
    ORACLE,
    oracle_before_its_rounds_last,
)
from tests.platform.test_store_answer import Watched
from tests.support import robots
from tests.support.seated import channel_row

pytestmark = BOTH_BACKENDS


class Drawings:
    """Records each image asked of the drawing pool in ``events`` (beside the store's),
    the boards' bytes, and a drawing dropped before it ended; with ``held``, no image
    is drawn until it is set."""

    def __init__(self, events: list[str], board: Any, held: asyncio.Event | None = None) -> None:
        self.events = events
        self.board = board
        self.held = held
        self.boards: list[bytes] = []
        #: each private image drawn: the seat whose view it shows, and its bytes
        self.views: list[tuple[int, bytes]] = []
        self.original = drawing.drawn

    async def drawn(self, render: Any, *args: Any) -> bytes:
        board = render is self.board or (render is drawing.public_board and args[0] is self.board)
        what = "board" if board else "image"
        self.events.append(f"{what} asked")
        try:
            if self.held is not None:
                await self.held.wait()
            image = await self.original(render, *args)
        except asyncio.CancelledError:
            self.events.append(f"{what} dropped")
            raise
        if what == "board":
            self.boards.append(image)
        elif isinstance(args[1], PlayerLabel):  # a private view: (view, its seat's label, …)
            self.views.append((args[1].seat, image))
        return image


async def test_a_handoffs_board_is_drawn_while_its_commit_is_written(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await oracle_before_its_rounds_last(service)
    watched = Watched(store)
    drawings = Drawings(watched.events, service.ctx.game_type("oracle").render_public)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    outcome = await service.play.act(CHANNEL, CAROL, last)
    watched.events.append("answered")
    assert outcome.kind is StepKind.HANDOFF
    events = watched.events
    # the board went to the pool before the step was handed to the store
    assert events.index("board asked") < events.index("sent") < events.index("committed")
    assert events.count("board asked") == 1  # asked once, not again by the answer
    assert events.index("committed") < events.index("answered")
    assert outcome.news is not None and outcome.news.board is not None
    assert outcome.news.board[:4] == b"\x89PNG"
    assert drawings.boards == [outcome.news.board]
    assert outcome.private and all(pm.image is not None for pm in outcome.private)
    row = await store.latest_game_in(CHANNEL)
    assert row is not None and outcome.version == row.version


async def test_a_step_refused_at_its_commit_drops_its_board_unshown(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await oracle_before_its_rounds_last(service)
    before = await store.latest_game_in(CHANNEL)
    assert before is not None
    watched = Watched(store, stale=True)  # the commit is refused: another process moved on
    held = asyncio.Event()  # never set: the board is still drawing when the commit is refused
    drawings = Drawings(watched.events, service.ctx.game_type("oracle").render_public, held)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    with pytest.raises(Refusal) as refused:
        await service.play.act(CHANNEL, CAROL, last)
    assert refused.value.text.key == "error.conflict"
    events = watched.events
    assert events.index("board asked") < events.index("committed")
    assert "board dropped" in events and drawings.boards == []
    # every image asked ahead was dropped by the time the refusal came back
    assert events.count("board asked") + events.count("image asked") == (
        events.count("board dropped") + events.count("image dropped")
    )
    after = await store.latest_game_in(CHANNEL)
    assert after is not None
    assert (after.version, after.state) == (before.version, before.state)


#: a Robot Oracle seed where Alice's highest card beats every card of the computer seat:
#: whatever the computer plays after it, the round's choice is hers (a hand-off to a member)
SEED_ALICE_WINS = 7
#: the Robot Oracle with the Oracle's images, private views included
ROBOT = GameType(
    engine=robots.ORACLE,
    render_public=ORACLE.render_public,
    render_private=ORACLE.render_private,
)


@pytest.fixture
def table(store: Store) -> GameService:
    """A service with the computer-playing Oracle, drawing its images."""
    registry = {**games.REGISTRY, robots.ORACLE.name: ROBOT}
    return GameService(store, registry, computer_pause=0.0)


async def computer_to_play_last(table: GameService) -> float:
    """Alice against one computer seat; Alice has played her highest card: the
    computer's timer is due, its card is the round's last and Alice wins the round
    whatever it plays (its hand-off has a board and her hand by DM). When it is due."""
    await table.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=ALICE,
        game_type_name=robots.ORACLE.name,
        seed=SEED_ALICE_WINS,
    )
    await table.lobby.add_computer(CHANNEL, ALICE, "easy")
    await table.lobby.start(CHANNEL, ALICE)
    row = await channel_row(table.store)
    hands = robots.ORACLE.load_state(row.state).hands
    alice = next(s.seat for s in row.seats if s.user_id == ALICE.id)
    card = max(hands[alice])
    assert card > max(hands[1 - alice])  # the seed's promise
    await table.play.act(CHANNEL, ALICE, f"play {card}")
    return await due_of(table, COMPUTER_TIMER)


async def deadline_due(table: GameService) -> float:
    """A 3-player Oracle game with a round deadline; Alice and Bob have played, Carol
    has not: when her deadline is due (her timeout action is the round's last)."""
    await oracle_before_its_rounds_last(table, {"deadline": "1h"})
    return await due_of(table, "deadline")


async def due_of(table: GameService, kind: str) -> float:
    """When the channel's game's one timer of ``kind`` is due (a second after)."""
    row = await channel_row(table.store)
    [timer] = [t for t in await table.store.timers(row.id) if t.kind == kind]
    return timer.due_at + 1


#: how each timer's position is reached, and the kind of timer that fires
FIRED = {
    "computer": (computer_to_play_last, COMPUTER_TIMER),
    "deadline": (deadline_due, "deadline"),
}


def told_only_their_owners(outcome: Outcome, drawings: Drawings, seats: Any) -> None:
    """Each private message carries the image of its addressee's own seat, and each
    private image drawn went to that seat's member and no one else."""
    owner = {s.user_id: s.seat for s in seats}
    sent = sorted((owner[m.user_id], m.image or b"") for m in outcome.private)
    assert sent and all(m.user_id > 0 for m in outcome.private)  # never a computer seat
    assert sent == sorted(drawings.views)


@pytest.mark.parametrize("fired", sorted(FIRED))
async def test_a_timers_board_is_drawn_while_its_commit_is_written(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch, fired: str
) -> None:
    """A computer seat's step when its timer fires, and a deadline's timeout action,
    ask their board (and the private images they change) before the store sees the
    step, once, and tell them only once it is stored."""
    reach, kind = FIRED[fired]
    due = await reach(table)
    before = await channel_row(store)
    [timer] = [t for t in await store.timers(before.id) if t.kind == kind]
    watched = Watched(store)
    drawings = Drawings(watched.events, ORACLE.render_public)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    [outcome] = await table.timers.fire_due_timers(due)
    watched.events.append("answered")
    assert outcome.kind is StepKind.HANDOFF and outcome.news is not None
    assert not outcome.news.interim
    events = watched.events
    # the board went to the pool before the step was handed to the store
    assert events.index("board asked") < events.index("sent") < events.index("committed")
    assert events.count("board asked") == 1  # asked once, not again by the answer
    assert events.index("image asked") < events.index("committed")  # drawn meanwhile too
    assert events.index("committed") < events.index("answered")
    assert outcome.news.board is not None and outcome.news.board[:4] == b"\x89PNG"
    assert drawings.boards == [outcome.news.board]
    told_only_their_owners(outcome, drawings, before.seats)
    row = await channel_row(store)
    assert outcome.version == row.version == before.version + 1
    moves = await store.moves(row.id, after=before.last_seq)
    assert {m.kind for m in moves} == {"computer" if fired == "computer" else "timeout"}
    assert timer.id not in {t.id for t in await store.timers(row.id)}  # left with the step


@pytest.mark.parametrize("fired", sorted(FIRED))
async def test_a_timers_step_refused_at_its_commit_drops_its_images_unshown(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch, fired: str
) -> None:
    """Another process moved the game on: each try's images, held at the pool's edge,
    are dropped unshown, nothing is written or told, and the timer stays."""
    reach, _ = FIRED[fired]
    due = await reach(table)
    before = await channel_row(store)
    timers = await store.timers(before.id)
    watched = Watched(store, stale=True)
    held = asyncio.Event()  # never set: the images are still drawing when it is refused
    drawings = Drawings(watched.events, ORACLE.render_public, held)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    assert await table.timers.fire_due_timers(due) == []
    events = watched.events
    assert events.index("board asked") < events.index("committed")
    assert "board dropped" in events and "image dropped" in events and drawings.boards == []
    # every image asked ahead was dropped by the time the timer pass came back
    assert events.count("board asked") + events.count("image asked") == (
        events.count("board dropped") + events.count("image dropped")
    )
    after = await channel_row(store)
    assert (after.version, after.state) == (before.version, before.state)
    assert await store.timers(before.id) == timers


async def test_a_play_out_after_a_resignation_draws_its_board_while_it_is_committed(
    table: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol resigns before playing the round's last card: the table plays it for her
    (``Play.play_out``), and that hand-off's board is asked before its commit, once."""
    await oracle_before_its_rounds_last(table)
    before = await channel_row(store)
    watched = Watched(store)
    drawings = Drawings(watched.events, ORACLE.render_public)
    monkeypatch.setattr(store, "start_step", watched.start_step)
    monkeypatch.setattr(drawing, "drawn", drawings.drawn)
    outcome = await table.seats.resign(CHANNEL, CAROL, confirmed=True)
    watched.events.append("answered")
    assert outcome.kind is StepKind.HANDOFF and outcome.news is not None
    events = watched.events
    assert events.index("board asked") < events.index("sent") < events.index("committed")
    assert events.count("board asked") == 1
    assert events.index("committed") < events.index("answered")
    assert outcome.news.board is not None and drawings.boards == [outcome.news.board]
    told_only_their_owners(outcome, drawings, before.seats)
    row = await channel_row(store)
    assert outcome.version == row.version
