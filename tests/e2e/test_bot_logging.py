"""At DEBUG and at INFO, games leave no secret and no hidden data in the log, and the
log says what the bot did: one line per handled command and fired timer.

Logging is configured as production does (:func:`bot.logs.configure_logging`
at ``DEBUG``, then ``INFO``), and every record any logger emits is captured,
as well as the lines the handler writes. A Tigris game is played through the
fake Discord (slash commands and buttons, DMs, a player whose DMs are
closed), and the captured log is scanned for the bot token, every
interaction token the fake issued, and the hidden game data as the store
holds it: each player's hand and the bag in draw order, at several points
of the game. An Oracle game (sealed simultaneous plays) is played to its end
with a reminder fired, and another against two computer seats; their sealed
cards and hands are never logged either.

Every interaction the fake sent gets exactly one ``bot.activity`` line, and
every such line has exactly the documented fields (:data:`ACTIVITY_LINE`),
so nothing else can ride along in it.

The commands are sent through :mod:`.bot_harness` helpers and
:data:`NEW_TIGRIS` (one place to change if the command layout changes).
"""

from __future__ import annotations

import io
import json
import logging
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.logs import PAYLOAD_LOGGERS, configure_logging

from .bot_harness import BotHarness, open_harness, play_to_end, start_oracle
from .fake_discord import FakeDiscord, InteractionType
from .test_bot_computers import with_robots  # noqa: F401  (a fixture, used by name)

#: the command that opens a Tigris game, and its options
NEW_TIGRIS: tuple[str, dict[str, Any]] = ("game new tigris", {"scoring": "hidden"})
#: moves played between two snapshots of the hidden data, and how many snapshots
MOVES_PER_SNAPSHOT = 12
SNAPSHOTS = 4
#: a whole line of the activity log, as the handler writes it
ACTIVITY_LINE = re.compile(
    r"\S+ \S+ INFO bot\.activity: (?P<what>command|timer) game=(?P<game>\d+|-)"
    r" channel=(?P<channel>\d+|-) verb=(?P<verb>[a-z][\w.-]*)"
    r" outcome=(?P<outcome>ok|dropped|conflict|error|expired|refused:[a-z_.]+) ms=\d+\.\d"
)


class Everything(logging.Handler):
    """Keeps every record that reaches the root logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(params=["DEBUG", "INFO"])
def debug_log(request: pytest.FixtureRequest) -> Iterator[tuple[io.StringIO, Everything]]:
    """Production logging at DEBUG (then INFO) into a buffer, plus a capture of every
    record."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    stream = io.StringIO()
    configure_logging(request.param, secrets=["fake-bot-token"], stream=stream)
    everything = Everything()
    root.addHandler(everything)  # after the redacting handler: sees what any handler would
    try:
        yield stream, everything
    finally:
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)
        logging.captureWarnings(False)


def hidden_strings(state: dict[str, Any]) -> set[str]:
    """Each hand and the bag's draw order, spelt as JSON (compact and spaced) and as reprs."""
    found: set[str] = set()
    sequences = [player["hand"] for player in state["players"] if len(player["hand"]) >= 3]
    if len(state["bag"]) >= 6:
        sequences.append(state["bag"][-12:])  # the next draws, in order
        sequences.append(state["bag"][:12])
    for seq in sequences:
        found.add(json.dumps(seq, separators=(",", ":"))[1:-1])
        found.add(json.dumps(seq)[1:-1])
        found.add(repr(list(seq))[1:-1])
    return found


def logged_text(stream: io.StringIO, everything: Everything) -> str:
    """The lines written and every record's message (and exception text)."""
    texts = [stream.getvalue()]
    for record in everything.records:
        texts.append(record.getMessage())
        if record.exc_text:
            texts.append(record.exc_text)
    return "\n".join(texts)


def activity_lines(stream: io.StringIO) -> list[re.Match[str]]:
    """The activity lines written, each checked whole against :data:`ACTIVITY_LINE`."""
    found = []
    for line in stream.getvalue().splitlines():
        if " bot.activity: " in line:
            match = ACTIVITY_LINE.fullmatch(line)
            assert match is not None, line
            found.append(match)
    return found


def check_activity(stream: io.StringIO, fake: FakeDiscord) -> list[re.Match[str]]:
    """One command line per interaction the fake sent (autocompletes answer with
    choices, not a command), in a known channel; the lines."""
    lines = activity_lines(stream)
    commands = [m for m in lines if m["what"] == "command"]
    sent = [itx for itx in fake.interactions if itx.type is not InteractionType.AUTOCOMPLETE]
    assert len(commands) == len(sent)
    channels = {str(itx.channel.id) for itx in sent}
    assert {m["channel"] for m in commands} <= channels
    return lines


@pytest.mark.slow_except("DEBUG")
async def test_a_tigris_game_at_debug_logs_no_secret_and_no_hidden_data(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    debug_log: tuple[io.StringIO, Everything],
) -> None:
    stream, everything = debug_log
    assert fake_discord.token == "fake-bot-token"
    hidden: set[str] = set()
    async with open_harness(fake_discord, tmp_path) as h:
        players = [h.alice, h.bob, h.carol]  # carol's DMs are closed: the ephemeral fallback
        command, options = NEW_TIGRIS
        itx = await h.slash(h.alice, command, **options)
        assert h.public_of(itx), h.ephemeral_text(itx)
        for user in players[1:]:
            await h.slash(user, "game join")
        await h.slash(h.alice, "game start")
        await h.slash(h.bob, "game hand")
        rng = random.Random(7)
        for _ in range(SNAPSHOTS):
            hidden |= hidden_strings(await stored_state(h))
            await play_to_end(h, players, rng, stop_after=MOVES_PER_SNAPSHOT)
        hidden |= hidden_strings(await stored_state(h))
        resumed = fake_discord.resume_count
        await fake_discord.disconnect_bot()  # a reconnect logs too
        await fake_discord.wait_for(lambda: fake_discord.resume_count > resumed, timeout=15)
        await h.slash(h.carol, "game status")
    tokens = {itx.token for itx in fake_discord.interactions}
    assert len(tokens) > 2 * SNAPSHOTS and len(hidden) > 10  # the scan is not vacuous

    written = stream.getvalue()
    records = everything.records
    debug = logging.getLogger().level == logging.DEBUG
    assert any(r.levelno == logging.DEBUG for r in records) == debug  # the level was real
    assert len(written.splitlines()) == len(records)  # one line per record
    lines = check_activity(stream, fake_discord)
    verbs = {m["verb"] for m in lines}
    assert {"game.new.tigris", "game.join", "game.start", "game.hand", "game.status"} <= verbs
    assert {m["outcome"] for m in lines} >= {"ok"}
    log_text = logged_text(stream, everything)
    assert "fake-bot-token" not in log_text
    leaked_tokens = sorted(token for token in tokens if token in log_text)
    assert leaked_tokens == []
    leaked = sorted(text for text in hidden if text in log_text)
    assert leaked == []
    assert '"bag":' not in log_text and "'bag':" not in log_text
    assert '"hand":' not in log_text and "'hand':" not in log_text


async def test_a_whole_oracle_game_logs_each_command_and_timer_and_no_sealed_card(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    debug_log: tuple[io.StringIO, Everything],
) -> None:
    stream, everything = debug_log
    hands: set[str] = set()
    async with open_harness(fake_discord, tmp_path) as h:
        players = [h.alice, h.bob, h.carol]
        await start_oracle(h, *players)
        await h.slash(h.mallory, "play", action="play 1")  # refused: not seated
        assert h.store is not None
        game_id = await h.game_id()
        await h.store.replace_timers(game_id, "reminder", time.time())
        await h.running.timers.sync()
        rng = random.Random(11)
        while await h.waiting(players):
            state = await stored_state(h)
            hands |= {json.dumps(hand)[1:-1] for hand in state["hands"] if len(hand) >= 2}
            await play_to_end(h, players, rng, stop_after=1)
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None and row.status == "finished"
    lines = check_activity(stream, fake_discord)
    [timer] = [m for m in lines if m["what"] == "timer"]
    assert (timer["game"], timer["channel"], timer["verb"], timer["outcome"]) == (
        str(game_id),
        str(h.channel.id),
        "timer.reminder",
        "ok",
    )
    plays = [m for m in lines if m["verb"] in ("play", "button.act")]
    assert {m["game"] for m in plays if m["outcome"] == "ok"} == {str(game_id)}
    refused = [m for m in lines if m["outcome"].startswith("refused:")]
    assert [m["outcome"] for m in refused] == ["refused:error.not_in_game"]
    log_text = logged_text(stream, everything)
    assert hands and not [hand for hand in hands if hand in log_text]
    assert re.search(r"play \d", log_text) is None  # no card played, sealed or not


async def stored_state(h: BotHarness) -> dict[str, Any]:
    """The game's state as the store holds it (JSON)."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and isinstance(row.state, dict)
    return row.state


@pytest.mark.usefixtures("with_robots")
async def test_a_game_against_computer_players_logs_their_timers_and_no_hidden_card(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    debug_log: tuple[io.StringIO, Everything],
) -> None:
    """A member plays the Oracle against two computer seats to the end: each computer
    move is one ``timer.computer`` line of the game, and no hand (the computers'
    included) and no sealed card reaches the log."""
    stream, everything = debug_log
    hands: set[str] = set()
    async with open_harness(fake_discord, tmp_path) as h:
        assert h.store is not None
        await h.slash(h.alice, "game new robot_oracle")
        for level in ("easy", "strong"):
            added = await h.slash(h.alice, "game add-computer", level=level)
            assert "CPU" in h.ephemeral_text(added)
        await h.slash(h.alice, "game start")
        game_id = await h.game_id()
        rng = random.Random(5)
        for _ in range(200):
            await h.running.timers.sync()
            row = await h.store.latest_game_in(h.channel.id)
            assert row is not None
            if row.status != "running":
                break
            hands |= {json.dumps(hand)[1:-1] for hand in row.state["hands"] if len(hand) >= 2}
            legal = await h.legal(h.alice)
            if legal:
                assert not (await h.slash(h.alice, "play", action=rng.choice(legal))).rejected
        assert row.status == "finished"
        computer_moves = [m for m in await h.store.moves(game_id) if m.kind == "computer"]
    lines = check_activity(stream, fake_discord)
    timers = [m for m in lines if m["verb"] == "timer.computer"]
    assert computer_moves and timers
    assert {(m["what"], m["game"], m["channel"]) for m in timers} == {
        ("timer", str(game_id), str(h.channel.id))
    }
    assert {m["outcome"] for m in timers} <= {"ok", "dropped"} and "ok" in {
        m["outcome"] for m in timers
    }
    log_text = logged_text(stream, everything)
    assert len(hands) > 3 and not [hand for hand in hands if hand in log_text]
    assert re.search(r"play \d", log_text) is None  # no card played, sealed or not
