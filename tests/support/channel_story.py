"""What a whole game puts in the channel and the DMs, played by taps through the fake Discord.

:class:`StoryTable` plays one game with the real discord.py client against the fake
Discord (:mod:`tests.e2e.fake_discord`): people tap Play on the newest public message
and then random options of the ephemeral move picker it opens, computer seats play
when their timer fires (the harness runs them without a pause). After every
interaction (and the computer moves it set off) an optional ``check`` is called, so
tests can assert the channel's invariants at every point of a game;
:class:`StoryCounts` is what the game left: public messages, boards, hand-offs
between people, Play buttons on messages that wait only for computers, DMs per
player. ``scripts/channel_story.py`` prints the counts of every game and mode; the
tests of ``tests/e2e/test_bot_channel.py`` use the same table.

A *hand-off between people* is counted at each commit after which the game
awaits a member it did not await before that commit, or awaits members in a new
turn or round (seen by wrapping the store's ``start_step``): a member's turn
handed to the next member is one; a run of computer turns (or a computer
defending a conflict) that ends with a member awaited again is one; a sealed
submission, a bid to a computer, a step in a turn that goes on are none.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from tests.e2e.bot_harness import WAIT, BotHarness
from tests.e2e.fake_discord import FakeUser, InteractionResult, RecordedMessage, walk_components

#: the public board's file name (bot.discord.delivery.BOARD_FILE)
BOARD = "board.png"
#: generous caps that turn a game that never ends into a failure
MAX_TAPS = 20000
MAX_SETTLE = 400

JSON = Any
#: called after every interaction, once the computer moves it set off are played
Check = Callable[["StoryTable", InteractionResult], Awaitable[None]]


@dataclass
class StoryCounts:
    """What one game left in the channel and the DMs."""

    game: str
    mode: str
    seats: str
    #: public messages posted in the channel for the game (those deleted later included)
    posted: int = 0
    #: public messages still in the channel at the end
    kept: int = 0
    #: public messages posted with a board image
    boards: int = 0
    #: hand-offs between people (see the module docstring)
    handoffs: int = 0
    #: Play buttons on public messages posted while the game awaited only computer seats
    play_for_computers: int = 0
    #: DMs per player (by name)
    dms: dict[str, int] = field(default_factory=dict)
    #: DMs that carried no words but the generic "your private view has changed"
    dms_without_news: int = 0
    #: taps (clicks and selects) the people made
    taps: int = 0

    def row(self) -> list[str]:
        dms = " ".join(f"{n}:{c}" for n, c in self.dms.items())
        return [
            self.game,
            self.mode,
            self.seats,
            str(self.posted),
            str(self.kept),
            str(self.boards),
            str(self.handoffs),
            str(self.play_for_computers),
            dms,
            str(self.dms_without_news),
            str(self.taps),
        ]

    HEADER = (
        "game",
        "mode",
        "seats",
        "posted",
        "kept",
        "boards",
        "hand-offs",
        "Play→CPU",
        "DMs per player",
        "DMs no news",
        "taps",
    )


def selects_of(message: RecordedMessage) -> list[JSON]:
    return [
        comp
        for comp in message.walk_components()
        if comp.get("type") == 3 and str(comp.get("custom_id", "")).startswith("zg:pick:")
    ]


def option_buttons(message: RecordedMessage) -> list[JSON]:
    """A picker message's option buttons (End turn among them: it plays a step too)."""
    found = []
    for comp in message.walk_components():
        cid = str(comp.get("custom_id", ""))
        what = cid.rsplit(":", 1)[-1]
        if cid.startswith("zg:pick:") and comp.get("type") == 2 and (what.isdigit() or what == "e"):
            found.append(comp)
    return found


def has_menu(message: RecordedMessage) -> bool:
    return bool(selects_of(message) or option_buttons(message))


def play_ids(message: RecordedMessage) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith("zg:play:")]


def live_buttons(message: RecordedMessage) -> list[str]:
    """The game buttons a public message carries (Play, decisions)."""
    return [c for c in message.custom_ids() if c.startswith(("zg:play:", "zg:act:", "zg:undo:"))]


def first_attachments(message: RecordedMessage) -> list[str]:
    """The files a message was posted with (before any edit)."""
    if message.history:
        return list(message.history[0]["attachments"])
    return [a.filename for a in message.attachments]


class StoryTable:
    """People who only tap, and computer seats, playing one game to its end."""

    def __init__(
        self,
        h: BotHarness,
        people: list[FakeUser],
        rng: random.Random,
        *,
        check: Check | None = None,
    ) -> None:
        self.h = h
        self.people = people
        self.rng = rng
        self.check = check
        self.taps = 0
        self.handoffs = 0
        self.game_id: int | None = None
        #: each public message of the channel: whether the game awaited a member when
        #: it was posted (read from the database file as the fake records it)
        self.for_members: dict[int, bool] = {}
        record = h.fake._record

        def recorded(message: RecordedMessage) -> RecordedMessage:
            if message.channel is h.channel and not message.ephemeral:
                self.for_members[message.id] = self._members_now()
            return record(message)

        h.fake._record = recorded  # type: ignore[method-assign]
        assert h.store is not None
        commit = h.store.start_step  # every step's commit starts here (commit_step too)

        def committed(game: Any, step: Any, **kwargs: Any) -> Any:
            done = commit(game, step, **kwargs)

            def count(future: Any) -> None:
                stored = not future.cancelled() and future.exception() is None
                if stored and game.id == self.game_id:
                    self._count_handoff(game, step.state)

            done.add_done_callback(count)
            return done

        h.store.start_step = committed  # type: ignore[method-assign]
        start = h.store.start_game

        async def started(game: Any, state: Any, order: Any, *args: Any, **kwargs: Any) -> Any:
            done = await start(game, state, order, *args, **kwargs)
            engine = self.h.running.service.registry[game.game_type].engine
            awaited = engine.waiting_for(engine.load_state(state))
            if any(order[seat] > 0 for seat in awaited):  # a member's first decision
                self.handoffs += 1
            return done

        h.store.start_game = started  # type: ignore[method-assign]

    def _count_handoff(self, game: Any, state: Any) -> None:
        """Count a hand-off between people when the commit of ``state`` makes the game
        await a member it did not await before, or members in a new turn."""
        engine = self.h.running.service.registry[game.game_type].engine
        before = engine.load_state(game.state)
        after = engine.load_state(state)
        members = {s.seat for s in game.seats if s.computer is None and s.status == "playing"}
        now = engine.waiting_for(after) & members if engine.result(after) is None else set()
        if now and (
            now - engine.waiting_for(before)
            or engine.turn_number(after) != engine.turn_number(before)
        ):
            self.handoffs += 1

    def _members_now(self) -> bool:
        """Whether the game awaits a member now, read straight from the database file."""
        if self.h.store is None or self.game_id is None:
            return True
        with sqlite3.connect(self.h.store.path) as raw:
            found = raw.execute(
                "SELECT game_type, state, status FROM games WHERE id = ?", (self.game_id,)
            ).fetchone()
            seats = raw.execute(
                "SELECT seat, computer FROM seats WHERE game_id = ?", (self.game_id,)
            ).fetchall()
        if found is None or found[2] != "running" or found[1] is None:
            return True
        engine = self.h.running.service.registry[found[0]].engine
        computers = {seat for seat, level in seats if level is not None}
        return bool(engine.waiting_for(engine.load_state(json.loads(found[1]))) - computers)

    # -- setting up -----------------------------------------------------------------

    async def start(self, game: str, seed: int, computers: int = 0, **options: str) -> None:
        """Open the game with ``options``, seat the people and ``computers`` easy
        computer players, fix the seed, start it."""
        h = self.h
        creator, *others = self.people
        opened = await h.slash(creator, f"game new {game}", **options)
        assert not opened.rejected and h.public_of(opened), h.ephemeral_text(opened)
        for user in others:
            joined = await h.slash(user, "game join")
            assert h.public_of(joined) or "joined" in h.ephemeral_text(joined).lower(), (
                h.ephemeral_text(joined)
            )
        for _ in range(computers):
            added = await h.slash(creator, "game add-computer", level="easy")
            assert "CPU" in h.ephemeral_text(added), h.ephemeral_text(added)
        assert h.store is not None
        self.game_id = await h.game_id()
        with sqlite3.connect(h.store.path) as raw:
            raw.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, self.game_id))
        started = await h.slash(creator, "game start")
        assert not started.rejected, h.ephemeral_text(started)
        await self.settle()

    # -- reading the game -------------------------------------------------------------

    async def row(self) -> Any:
        assert self.h.store is not None and self.game_id is not None
        row = await self.h.store.get_game(self.game_id)
        assert row is not None
        return row

    async def members_awaited(self) -> tuple[set[int], Any]:
        """The user ids of the members the game awaits now, and its turn number."""
        row = await self.row()
        if row.status != "running":
            return set(), None
        engine = self.h.running.service.registry[row.game_type].engine
        state = engine.load_state(row.state)
        awaited = {
            row.seats[s].user_id
            for s in engine.waiting_for(state)
            if row.seats[s].computer is None and row.seats[s].status == "playing"
        }
        return awaited, engine.turn_number(state)

    async def settle(self) -> None:
        """Let the computer seats play until the game awaits a member or is over, and
        the timer task has delivered what they did (a pass that started after the one
        that committed their last move has completed)."""
        for _ in range(MAX_SETTLE):
            row = await self.row()
            members, _ = await self.members_awaited()
            if row.status != "running" or members:
                await self.h.running.timers.sync()
                return
            await self.h.running.timers.sync()
        raise AssertionError("the computer seats do not hand back")

    # -- playing ----------------------------------------------------------------------

    def newest_play(self) -> tuple[RecordedMessage, str]:
        """The newest public message with a Play button, and the button's custom_id."""
        for message in reversed(self.h.public_messages()):
            ids = play_ids(message)
            if ids:
                return message, ids[0]
        raise AssertionError("no public message with a Play button")

    async def _interact(self, sent: Awaitable[InteractionResult]) -> InteractionResult:
        self.taps += 1
        assert self.taps < MAX_TAPS, "the game does not end"
        itx = await sent
        assert not itx.rejected, [str(r) for r in itx.rejected]
        for message in itx.messages:
            assert t("en", "error.internal") not in message.text, message.text
        await self.settle()
        if self.check is not None:
            await self.check(self, itx)
        return itx

    async def click(self, user: FakeUser, message: RecordedMessage, custom_id: str) -> Any:
        async def sent() -> InteractionResult:
            return await self.h.click(user, message, custom_id)

        return await self._interact(sent())

    async def select(
        self, user: FakeUser, message: RecordedMessage, custom_id: str, values: list[str]
    ) -> InteractionResult:
        async def sent() -> InteractionResult:
            itx = await self.h.fake.select(user, message, custom_id, values)
            await self.h.running.wait_interaction_done(itx.id, WAIT)
            return itx

        return await self._interact(sent())

    async def open(self, user: FakeUser) -> RecordedMessage:
        """Tap Play on the newest message that has one: the user's picker message."""
        message, custom_id = self.newest_play()
        itx = await self.click(user, message, custom_id)
        [picker] = [m for m in itx.messages if m.ephemeral]
        assert picker.ephemeral_for is user
        return picker

    async def choose(self, user: FakeUser, picker: RecordedMessage) -> None:
        """One random tap in the picker's menu (now and then Start over)."""
        restart = [c for c in picker.custom_ids() if c.startswith("zg:pick:") and c.endswith(":r")]
        if restart and self.rng.random() < 0.05:
            await self.click(user, picker, restart[0])
            return
        selects = selects_of(picker)
        choices: list[tuple[JSON, Any]] = [(s, o["value"]) for s in selects for o in s["options"]]
        choices += [(b, None) for b in option_buttons(picker)]
        assert choices, picker.text
        component, _ = self.rng.choice(choices)
        if component.get("type") == 3:
            options = [o["value"] for o in component["options"]]
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            values = self.rng.sample(options, self.rng.randint(low, high))
            await self.select(user, picker, component["custom_id"], values)
        else:
            await self.click(user, picker, component["custom_id"])

    async def play(self) -> None:
        """Tap until the game is over."""
        pickers: dict[int, RecordedMessage] = {}
        while True:
            members, _ = await self.members_awaited()
            if not members:
                assert (await self.row()).status != "running", "nobody awaited"
                return
            user = self.rng.choice([u for u in self.people if u.id in members])
            picker = pickers.pop(user.id, None)
            if picker is None or not has_menu(picker):
                picker = await self.open(user)
            version = (await self.row()).version
            while (await self.row()).version == version and has_menu(picker):
                await self.choose(user, picker)
            if has_menu(picker):
                pickers[user.id] = picker

    # -- what it left ---------------------------------------------------------------------

    def counts(self, game: str, mode: str, seats: str) -> StoryCounts:
        h = self.h
        public = [
            m
            for m in h.fake.messages
            if m.channel is h.channel and not m.ephemeral and m.author is h.fake.bot_user
        ]
        found = StoryCounts(game, mode, seats, taps=self.taps, handoffs=self.handoffs)
        found.posted = len(public)
        found.kept = sum(not m.deleted for m in public)
        found.boards = sum(BOARD in first_attachments(m) for m in public)
        found.play_for_computers = sum(
            1 for m in public if play_ids_at_first(m) and not self.for_members.get(m.id, True)
        )
        for user in self.people:
            dms = [m for m in h.fake.messages if m.dm_recipient is user]
            found.dms[user.name] = len(dms)
            found.dms_without_news += sum(1 for m in dms if not news_in(m.content))
        return found


#: a DM's lines that say nothing in particular: its header, the generic words, and the
#: one line the bot sent before private news had words
GENERIC_DM = re.compile(
    "|".join(
        [
            re.escape(t("en", "hand.news", game="GAME")).replace("GAME", ".*"),
            re.escape(t("en", "hand.changed")),
            re.escape(t("en", "hand.view")),
            r"Your private view in .* has changed\.",
        ]
    )
)


def news_in(content: str) -> bool:
    """Whether a DM says anything in particular (see :data:`GENERIC_DM`)."""
    return any(line and not GENERIC_DM.fullmatch(line) for line in content.split("\n"))


def play_ids_at_first(message: RecordedMessage) -> list[str]:
    """The Play buttons a message was posted with."""
    components = message.history[0]["components"] if message.history else message.components
    return [
        str(c.get("custom_id"))
        for c in walk_components(components)
        if str(c.get("custom_id", "")).startswith("zg:play:")
    ]
