"""With every logger at DEBUG, a Tigris game leaves no secret and no hidden data in the log.

Logging is configured as production does (:func:`bot.logs.configure_logging`
at ``DEBUG``), and every record any logger emits is captured, as well as the
lines the handler writes. A Tigris game is played through the fake Discord
(slash commands and buttons, DMs, a player whose DMs are closed), and the
captured log is scanned for the bot token, every interaction token the fake
issued, and the hidden game data as the store holds it: each player's hand
and the bag in draw order, at several points of the game.

The commands are sent through :mod:`.bot_harness` helpers and
:data:`NEW_TIGRIS` (one place to change if the command layout changes).
"""

from __future__ import annotations

import io
import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.logs import PAYLOAD_LOGGERS, configure_logging

from .bot_harness import BotHarness, open_harness, play_to_end
from .fake_discord import FakeDiscord

#: the command that opens a Tigris game, and its options
NEW_TIGRIS: tuple[str, dict[str, Any]] = ("game new tigris", {"scoring": "hidden"})
#: moves played between two snapshots of the hidden data, and how many snapshots
MOVES_PER_SNAPSHOT = 12
SNAPSHOTS = 4


class Everything(logging.Handler):
    """Keeps every record that reaches the root logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def debug_log() -> Iterator[tuple[io.StringIO, Everything]]:
    """Production logging at DEBUG into a buffer, plus a capture of every record."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    stream = io.StringIO()
    configure_logging("DEBUG", secrets=["fake-bot-token"], stream=stream)
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
    assert any(r.levelno == logging.DEBUG for r in records)  # DEBUG was really on
    assert len(written.splitlines()) == len(records)  # one line per record
    texts = [written]
    for record in records:
        texts.append(record.getMessage())
        if record.exc_text:
            texts.append(record.exc_text)
    log_text = "\n".join(texts)
    assert "fake-bot-token" not in log_text
    leaked_tokens = sorted(token for token in tokens if token in log_text)
    assert leaked_tokens == []
    leaked = sorted(text for text in hidden if text in log_text)
    assert leaked == []
    assert '"bag":' not in log_text and "'bag':" not in log_text
    assert '"hand":' not in log_text and "'hand':" not in log_text


async def stored_state(h: BotHarness) -> dict[str, Any]:
    """The game's state as the store holds it (JSON)."""
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and isinstance(row.state, dict)
    return row.state
