"""Run the real Ziggurat bot against :class:`~.fake_discord.FakeDiscord`.

:class:`BotHarness` builds a small world — one guild with two text channels,
players ``alice``, ``bob``, ``carol`` (her DMs are closed) and ``mallory``
(never seated) — and runs :class:`~bot.discord.client.ZigguratBot` on a real
SQLite file, with the Oracle test game registered next to the built-in games.
:meth:`BotHarness.restart` stops the bot process-equivalent (client closed,
store closed) and starts a fresh one on the same database file.

Waiting is event-driven: after sending an interaction the harness waits for
the bot's own "interaction fully answered" signal
(:meth:`~bot.discord.client.ZigguratBot.wait_interaction_done`), so every
message the bot sends for it has been recorded by the fake when the call
returns. The timeouts below only turn a hang into a failure; no assertion
depends on timing. :func:`unhurried` also takes Discord's and the bot's answer
clocks out of a test about which messages are sent.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import games, plugins
from bot.config import Settings
from bot.discord import interactions, messages
from bot.discord.client import ZigguratBot, create_bot
from bot.service import Player, Refusal
from bot.store import Store
from tests.conftest import register_oracle

from .fake_discord import (
    CallbackType,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionResult,
    MessageFlag,
    RecordedMessage,
    running_client,
)

#: generous: a hang fails the test instead of blocking the suite
WAIT = 15.0
#: Discord's and the bot's answer clocks in a test of what is sent, not when (:func:`unhurried`)
UNHURRIED = 600.0


def registry() -> dict[str, Any]:
    """The built-in games plus the Oracle test game."""
    plugins.load_builtin_games()
    register_oracle()
    return games.REGISTRY


def decode_png(data: bytes) -> Image.Image:
    """Decode and verify a PNG (raises if it is not one)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


@dataclass(eq=False)
class BotHarness:
    """The fake world plus one running bot (restartable) on a SQLite file (or a PostgreSQL
    database)."""

    fake: FakeDiscord
    db_path: Path | str  # a SQLite file, or a postgresql:// URL
    deadline_hours: float = 24.0
    global_commands: bool = False
    guild: FakeGuild = field(init=False)
    channel: FakeChannel = field(init=False)
    other_channel: FakeChannel = field(init=False)
    alice: FakeUser = field(init=False)
    bob: FakeUser = field(init=False)
    carol: FakeUser = field(init=False)
    mallory: FakeUser = field(init=False)
    bot: ZigguratBot | None = field(init=False, default=None)
    store: Store | None = field(init=False, default=None)
    starts: int = field(init=False, default=0)
    _stack: contextlib.AsyncExitStack | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        fake = self.fake
        self.guild = fake.add_guild("Ziggurat Test Server")
        self.channel = fake.add_channel(self.guild, "games")
        self.other_channel = fake.add_channel(self.guild, "lounge")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.carol = fake.add_user("carol", dms_open=False)
        self.mallory = fake.add_user("mallory")

    # -- lifecycle ------------------------------------------------------------

    def settings(self) -> Settings:
        return Settings(
            token=self.fake.token,
            database=self.db_path,
            dev_guild_id=None if self.global_commands else self.guild.id,
            log_level="INFO",
            turn_deadline_hours=self.deadline_hours,
            computer_pause=0.0,  # computer seats move as soon as the timer task wakes
        )

    async def start(self) -> ZigguratBot:
        assert self.bot is None, "already running"
        stack = contextlib.AsyncExitStack()
        store = await Store.open(self.db_path)
        stack.push_async_callback(store.close)
        bot = await create_bot(self.settings(), store, registry(), guild_ready_timeout=0.05)
        await stack.enter_async_context(running_client(self.fake, bot, timeout=WAIT))
        self._stack, self.store, self.bot = stack, store, bot
        self.starts += 1
        return bot

    async def stop(self) -> None:
        """Close the client and the database, as a stopped process would."""
        stack, self._stack = self._stack, None
        self.bot = None
        self.store = None
        if stack is not None:
            await stack.aclose()

    async def restart(self) -> ZigguratBot:
        await self.stop()
        return await self.start()

    @property
    def running(self) -> ZigguratBot:
        assert self.bot is not None, "the bot is not running"
        return self.bot

    # -- driving --------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Run a slash command and wait until the bot has fully answered it."""
        itx = await self.fake.slash(user, channel or self.channel, command, **options)
        await self.running.wait_interaction_done(itx.id, WAIT)
        return itx

    async def click(
        self, user: FakeUser, message: RecordedMessage, custom_id: str
    ) -> InteractionResult:
        itx = await self.fake.click(user, message, custom_id)
        await self.running.wait_interaction_done(itx.id, WAIT)
        return itx

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        option: str,
        partial: str = "",
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> list[str]:
        """The values the bot suggests for ``option`` of ``command``."""
        choices = await self.fake.autocomplete(
            user, channel or self.channel, command, option, partial, **options
        )
        return [str(c["value"]) for c in choices]

    # -- reading --------------------------------------------------------------

    def player(self, user: FakeUser) -> Player:
        return Player(user.id, user.name)

    async def game_id(self, channel: FakeChannel | None = None) -> int:
        assert self.store is not None
        row = await self.store.latest_game_in((channel or self.channel).id)
        assert row is not None, "no game in the channel"
        return row.id

    async def raw_game(self, channel: FakeChannel | None = None) -> tuple[Any, ...]:
        assert self.store is not None
        return await self.store.raw_game(await self.game_id(channel))

    async def legal(self, user: FakeUser, channel: FakeChannel | None = None) -> list[str]:
        """The user's legal action notations now (none once the game is over)."""
        try:
            actions = await self.running.service.reading.legal_actions(
                (channel or self.channel).id, self.player(user)
            )
        except Refusal:
            return []
        return [str(a) for a in actions]

    async def waiting(self, users: Iterable[FakeUser]) -> list[FakeUser]:
        """Those of ``users`` the game is waiting for now."""
        assert self.store is not None
        row = await self.store.latest_game_in(self.channel.id)
        if row is None or row.status != "running":
            return []
        engine = self.running.service.registry[row.game_type].engine
        awaited = engine.waiting_for(engine.load_state(row.state))
        ids = {row.seats[s].user_id for s in awaited}
        return [u for u in users if u.id in ids]

    def public_messages(self, channel: FakeChannel | None = None) -> list[RecordedMessage]:
        return self.fake.messages_in(channel or self.channel)

    @staticmethod
    def ephemeral_text(itx: InteractionResult) -> str:
        return "\n".join(m.text for m in itx.messages if m.ephemeral)

    @staticmethod
    def public_of(itx: InteractionResult) -> list[RecordedMessage]:
        return [m for m in itx.messages if not m.ephemeral]

    @staticmethod
    def answered_publicly(itx: InteractionResult) -> RecordedMessage | None:
        """The public message that is ``itx``'s response (a hand-off whose reply tells
        nothing private, :mod:`bot.discord.delivery`), else None: an ephemeral answer."""
        if itx.callback_type is not CallbackType.CHANNEL_MESSAGE or itx.ephemeral:
            return None
        assert itx.response is not None and not itx.response.ephemeral
        return itx.response

    def told_move(self, itx: InteractionResult, accepted: str) -> None:
        """The invoker was told their move was taken: ``accepted`` in their ephemeral
        answer, or the step's public message as the interaction's response (its first
        part: the one with the board and buttons follows when it is split)."""
        public = self.answered_publicly(itx)
        if public is None:
            assert accepted in self.ephemeral_text(itx), self.ephemeral_text(itx)
        else:
            assert public is self.public_of(itx)[0]
            assert accepted not in self.ephemeral_text(itx)  # said once, in public


def unhurried(h: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer of ``h``'s running bot waits on its work, never on the clock: the
    fake's callback deadline, the bot's acknowledgement after ``ANSWER_WITHIN`` and a
    hand-off's wait for its board (``Delivery.public_within``) all :data:`UNHURRIED`.

    For a test of which messages a game sends (one per hand-off, the hand-off as the
    interaction's response) on a machine of any speed: on a loaded one a board can take
    longer than those clocks, and the answer then takes the late path, which is a
    different message shape, not a fault. The late paths have tests of their own
    (``test_bot_answer_first.py``, ``test_bot_public_answer.py``, ``test_rest.py``)."""
    h.fake.callback_deadline = UNHURRIED
    monkeypatch.setattr(interactions, "ANSWER_WITHIN", UNHURRIED)
    monkeypatch.setattr(messages, "ANSWER_WITHIN", UNHURRIED)
    h.running.delivery.public_within = UNHURRIED


@contextlib.asynccontextmanager
async def open_harness(
    fake: FakeDiscord, tmp_path: Path, **options: Any
) -> AsyncIterator[BotHarness]:
    """A started harness, stopped on exit (before the fake Discord stops)."""
    harness = BotHarness(fake, tmp_path / "ziggurat.db", **options)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def start_oracle(harness: BotHarness, *players: FakeUser) -> InteractionResult:
    """``players[0]`` opens an Oracle game, the others join, ``players[0]`` starts it."""
    creator, *others = players
    itx = await harness.slash(creator, "game new oracle")
    assert not itx.rejected and harness.public_of(itx), harness.ephemeral_text(itx)
    for user in others:
        itx = await harness.slash(user, "game join")
        assert harness.public_of(itx), harness.ephemeral_text(itx)
    return await harness.slash(creator, "game start")


def picker_buttons(message: RecordedMessage) -> dict[str, str]:
    """A picker message's buttons (options and controls), by label."""
    return {
        str(c["label"]): str(c["custom_id"])
        for c in message.walk_components()
        if c.get("type") == 2 and str(c.get("custom_id", "")).startswith("zg:pick:")
    }


def play_id(message: RecordedMessage) -> str:
    """The custom_id of a public message's Play button."""
    [found] = [c for c in message.custom_ids() if c.startswith("zg:play:")]
    return found


async def open_picker(
    harness: BotHarness, user: FakeUser, message: RecordedMessage
) -> tuple[InteractionResult, RecordedMessage]:
    """Click ``message``'s Play button as ``user``: the click and the picker message."""
    opened = await harness.click(user, message, play_id(message))
    [picker] = [m for m in opened.messages if m.ephemeral]
    assert picker.ephemeral_for is user, picker
    return opened, picker


async def tap_in_picker(harness: BotHarness, user: FakeUser, label: str) -> InteractionResult:
    """Open ``user``'s move picker with the Play button of the newest public message
    that has one, and tap its button labelled ``label`` (a bid, a pass, a bonus
    brick...): the tap's answer (the picker message, updated)."""
    for message in reversed(harness.public_messages()):
        plays = [c for c in message.custom_ids() if c.startswith("zg:play:")]
        if plays:
            break
    else:
        raise AssertionError("no public message with a Play button")
    opened = await harness.click(user, message, plays[0])
    [picker] = [m for m in opened.messages if m.ephemeral]
    assert picker.ephemeral_for is user, picker
    found = [
        c["custom_id"]
        for c in picker.walk_components()
        if c.get("type") == 2 and c.get("label") == label
    ]
    assert found, (label, [c.get("label") for c in picker.walk_components()])
    return await harness.click(user, picker, found[0])


def as_posted(message: RecordedMessage) -> list[Any]:
    """A message's components as it was posted (the bot drops the buttons of a game's
    older messages once a newer one is posted): its first version that is not the
    "thinking" placeholder of a deferred interaction."""
    for version in message.history:
        if not int(version["flags"]) & MessageFlag.LOADING:
            return list(version["components"])
    return message.components


async def click_as_posted(
    harness: BotHarness, user: FakeUser, message: RecordedMessage, custom_id: str
) -> InteractionResult:
    """Click ``custom_id`` of ``message`` as it was posted: a client that has not seen the
    edit that took the button away."""
    now, edits = message.components, len(message.history)
    message.components = as_posted(message)
    try:
        return await harness.click(user, message, custom_id)
    finally:
        if len(message.history) == edits:  # the click did not edit it: as it was
            message.components = now


def action_buttons(message: RecordedMessage) -> dict[str, str]:
    """A message's move buttons: action -> custom_id."""
    return {cid.split(":", 4)[4]: cid for cid in message.custom_ids() if cid.startswith("zg:act:")}


def last_buttons(harness: BotHarness, user: FakeUser | None = None) -> RecordedMessage | None:
    """The newest message with move buttons (public, or also ``user``'s own), if any."""
    messages = harness.public_messages() if user is None else harness.fake.visible_to(user)
    for message in reversed(messages):
        if action_buttons(message):
            return message
    return None


async def move(
    harness: BotHarness, user: FakeUser, action: str, *, prefer_buttons: bool = True
) -> InteractionResult:
    """Play ``action`` for ``user``: by its button when the newest buttons they see are
    for the game at its current version and offer it, else by ``/play``.

    Asserts the move was stored (a step of a turn answers only its player).
    """
    assert harness.store is not None
    row = await harness.store.latest_game_in(harness.channel.id)
    assert row is not None
    message = last_buttons(harness, user) if prefer_buttons else None
    buttons = action_buttons(message) if message is not None else {}
    custom_id = buttons.get(action)
    current = custom_id is not None and custom_id.split(":")[2:4] == [str(row.id), str(row.version)]
    if custom_id is not None and current:
        assert message is not None
        itx = await harness.click(user, message, custom_id)
    else:
        itx = await harness.slash(user, "play", action=action)
    assert not itx.rejected, itx.rejected
    after = await harness.store.latest_game_in(harness.channel.id)
    assert after is not None and after.last_seq > row.last_seq, (
        f"{action!r} by {user.name}: {harness.ephemeral_text(itx)}"
    )
    return itx


async def play_to_end(
    harness: BotHarness,
    players: list[FakeUser],
    rng: Any,
    *,
    max_moves: int = 5000,
    prefer_buttons: bool = True,
    stop_after: int | None = None,
) -> int:
    """Play random legal actions until the game ends (or ``stop_after`` moves); count them."""
    moves = 0
    while moves < max_moves and (stop_after is None or moves < stop_after):
        waiting = await harness.waiting(players)
        if not waiting:
            return moves
        user = rng.choice(waiting)
        action = rng.choice(await harness.legal(user))
        await move(harness, user, action, prefer_buttons=prefer_buttons)
        moves += 1
    return moves


def said(game: str, notation: str, *, public: bool = False) -> str:
    """How the bot tells a move in English: the engine's words, for the acting player
    (what it accepted or took back) or, with ``public``, for everyone (a move played
    for a seat, a log line)."""
    from bot.i18n import Text

    engine = registry()[game].engine
    return Text(*engine.describe(engine.parse_action(str(notation)), public)).render("en")


def labelled(game: str, notation: str) -> str:
    """A decision button's English label for ``notation``: the engine's words."""
    from bot.i18n import Text

    engine = registry()[game].engine
    return Text(*engine.choice_label(engine.parse_action(str(notation)))).render("en")
