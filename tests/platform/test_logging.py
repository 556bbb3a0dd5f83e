"""Logging: one line per record, payload loggers held at INFO, secrets masked."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import aiosqlite
import pytest

from bot.logs import (
    MASK,
    PAYLOAD_LOGGERS,
    OneLineFormatter,
    RedactingFilter,
    Redactor,
    configure_logging,
)

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5.Zm9vYmFyYmF6cXV4X2ludGVyYWN0aW9uX3Rva2Vu"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root logger and the payload loggers back as they were."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


# -- the redactor ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"POST https://discord.com/api/v10/interactions/123/{INTERACTION_TOKEN}/callback", ""),
        (f"POST /api/v10/webhooks/456/{INTERACTION_TOKEN}?wait=1 has returned 200", ""),
        (f"PATCH /webhooks/456/{INTERACTION_TOKEN}/messages/@original", ""),
        (f"event {{'id': '1', 'token': '{INTERACTION_TOKEN}', 'type': 2}}", ""),
        (f'frame {{"op": 2, "d": {{"token": "{BOT_TOKEN}", "intents": 1}}}}', ""),
        (f"headers {{'Authorization': 'Bot {BOT_TOKEN}'}}", ""),
        (f"Authorization: Bearer {INTERACTION_TOKEN}", ""),
        (f"someone pasted {BOT_TOKEN} in a message", ""),
        ("the configured token is fake-bot-token-12345, see", "fake-bot-token-12345"),
    ],
)
def test_tokens_are_masked(text: str, secret: str) -> None:
    redact = Redactor([secret])
    clean = redact(text)
    assert INTERACTION_TOKEN not in clean
    assert BOT_TOKEN not in clean
    if secret:
        assert secret not in clean
    assert MASK in clean


def test_ordinary_text_is_left_alone() -> None:
    redact = Redactor([None, "", "abc"])  # no secret, or too short to mask safely
    for text in (
        "Bot ready in 3 guild(s)",
        "synced 4 commands to guild 1234567890",
        "POST /api/v10/channels/1234/messages has returned 200",
        "token bucket for route GET /users/@me",
        "game 12 in channel 345: abc",
    ):
        assert redact(text) == text


def test_the_filter_rewrites_the_record_and_keeps_it() -> None:
    record = logging.LogRecord(
        "discord.http",
        logging.WARNING,
        __file__,
        1,
        "rate limited on %s",
        (f"/webhooks/1/{INTERACTION_TOKEN}",),
        None,
    )
    assert RedactingFilter(Redactor()).filter(record) is True
    assert record.getMessage() == f"rate limited on /webhooks/1/{MASK}"


def test_one_line_per_record_even_with_a_traceback() -> None:
    formatter = OneLineFormatter(Redactor([BOT_TOKEN]))
    try:
        try:
            raise KeyError("inner")
        except KeyError as exc:
            raise RuntimeError(f"outer, with {BOT_TOKEN}\nand a second line") from exc
    except RuntimeError:
        record = logging.LogRecord(
            "bot", logging.ERROR, __file__, 1, "failed:\n%s", ("two\nlines",), None
        )
        import sys

        record.exc_info = sys.exc_info()
    line = formatter.format(record)
    assert "\n" not in line
    assert "failed:\\ntwo\\nlines" in line
    assert "RuntimeError: outer, with ***\\nand a second line" in line
    assert "caused by KeyError: 'inner'" in line
    assert (
        "test_logging.py:" in line and "in test_one_line_per_record_even_with_a_traceback" in line
    )
    assert BOT_TOKEN not in line
    assert record.exc_text is None  # nothing multi-line cached on the shared record


# -- configure_logging -------------------------------------------------------------------


def test_configure_logging_holds_payload_loggers_at_info(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", secrets=[BOT_TOKEN], stream=stream)
    assert logging.getLogger().level == logging.DEBUG
    for name in PAYLOAD_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() == logging.INFO, name
    logging.getLogger("bot.test").debug("debug from %s", "ziggurat")
    logging.getLogger("discord.http").debug("PUT body with %s", BOT_TOKEN)
    logging.getLogger("discord.gateway").info("IDENTIFY token %s", BOT_TOKEN)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("DEBUG bot.test: debug from ziggurat")
    assert lines[1].endswith(f"INFO discord.gateway: IDENTIFY token {MASK}")

    configure_logging("WARNING", stream=stream)  # replaces the handler, does not add one
    ours = [h for h in logging.getLogger().handlers if getattr(h, "_ziggurat_handler", False)]
    assert len(ours) == 1
    for name in PAYLOAD_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() == logging.WARNING


async def test_aiosqlite_parameters_never_reach_the_log_at_debug(
    restore_logging: None, tmp_path: Path
) -> None:
    """A real SQLite write: aiosqlite would log its parameters at DEBUG; configured, it does not."""
    hidden = '{"hand":["red","red","blue"],"bag":["black","green"]}'
    stream = io.StringIO()
    configure_logging("DEBUG", stream=stream)
    async with aiosqlite.connect(tmp_path / "log.db") as db:
        await db.execute("CREATE TABLE games (state TEXT)")
        await db.execute("INSERT INTO games VALUES (?)", (hidden,))
        await db.commit()
    assert hidden not in stream.getvalue()

    # the control: the same write with aiosqlite let down to DEBUG does log it
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
    async with aiosqlite.connect(tmp_path / "log.db") as db:
        await db.execute("INSERT INTO games VALUES (?)", (hidden,))
        await db.commit()
    assert hidden in stream.getvalue()


def test_python_warnings_become_one_line_records(restore_logging: None) -> None:
    import warnings

    stream = io.StringIO()
    configure_logging("INFO", stream=stream)
    warnings.warn("something old\nis used", DeprecationWarning, stacklevel=1)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and "py.warnings" in lines[0] and "something old" in lines[0]
