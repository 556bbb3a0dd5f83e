"""Logging for a long-running bot: one line per record, no secrets, no hidden game data.

:func:`configure_logging` is called once at start by the command line. It
logs to stderr (journald, ``docker logs`` and systemd collect it there).

Decisions:

* One line per record, always: ``time level logger: message``. A traceback
  becomes a compact chain of ``file:line in function`` frames after the
  message, on the same line; line breaks inside messages are written as
  ``\\n``. So an outage, a reconnect or a crash is one greppable line, and a
  user-supplied text cannot forge extra log lines.
* Libraries that log payloads at DEBUG never go below INFO, whatever
  ``ZIGGURAT_LOG_LEVEL`` says (:data:`PAYLOAD_LOGGERS`): ``aiosqlite`` logs
  every statement with its parameters (whole game states: hands, the bag in
  draw order); ``discord.http`` logs request bodies and responses;
  ``discord.gateway`` logs every gateway event (interaction tokens, the
  IDENTIFY exchange); ``discord.webhook.async_``/``sync`` log follow-up URLs
  (they contain the interaction token); ``discord.state`` logs raw event
  fields. DEBUG stays useful for Ziggurat's own loggers.
* A :class:`RedactingFilter` on the root handler is the second line of
  defence, for whatever a library logs at INFO or above (a rate-limit warning
  names the URL, an exception may quote it): interaction and webhook tokens
  in URLs, ``"token": ...`` fields, ``Bot``/``Bearer`` authorization values,
  anything shaped like a Discord bot token, and the configured token itself
  are replaced by ``***``. The filter rewrites the record itself, so every
  other handler (a test's capture, say) sees the redacted text too, and the
  formatter redacts its final line once more (exception texts included).
* Python warnings are routed through logging (one line each as well).
* :class:`ConnectionLogMixin` logs a lost gateway connection once (one
  warning) and its recovery once (one info line with the outage's length),
  per shard, instead of relying on discord.py's debug-level messages.
* What the bot does is one INFO line per handled command, click and fired
  timer, on the ``bot.activity`` logger (:func:`activity`):
  ``command game=12 channel=345 verb=tigris.place outcome=ok ms=38.1``. The
  fields are the only ones ever written there: the game id (``-`` when
  none), the channel, the verb (the command's name or the button's kind,
  never a button's action nor a command's options: a sealed move or a hand
  would show), the outcome (``ok``, ``refused:<catalog key>``, ``conflict``,
  ``error``, ``expired``) and the latency in milliseconds.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import PurePath
from types import TracebackType
from typing import IO, Any

log = logging.getLogger(__name__)
#: the logger of the one line per handled command and fired timer (:func:`activity`)
ACTIVITY = logging.getLogger("bot.activity")

#: loggers that print payloads (SQL parameters, HTTP bodies, gateway events) at DEBUG
PAYLOAD_LOGGERS: tuple[str, ...] = (
    "aiosqlite",
    "discord.http",
    "discord.gateway",
    "discord.webhook.async_",
    "discord.webhook.sync",
    "discord.state",
)
MASK = "***"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: set on the handler :func:`configure_logging` installs, so a second call replaces it
HANDLER_MARK = "_ziggurat_handler"
#: a configured secret shorter than this is not masked literally (it would mask ordinary text)
MIN_SECRET_LENGTH = 6

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # interaction callbacks and webhook (follow-up) routes carry the token in the path
    (re.compile(r"(/interactions/\d+/)[^/?#\s'\"]+"), rf"\1{MASK}"),
    (re.compile(r"(/webhooks/\d+/)[^/?#\s'\"]+"), rf"\1{MASK}"),
    # "token": "..." in JSON or a dict's repr, any *token key
    (
        re.compile(r"""(["'][\w-]*token["']\s*:\s*["'])[^"']*(["'])""", re.IGNORECASE),
        rf"\1{MASK}\2",
    ),
    # Authorization header values
    (re.compile(r"\b(Bot|Bearer)\s+[\w.\-]{20,}"), rf"\1 {MASK}"),
    # anything shaped like a Discord bot token: base64(id).timestamp.hmac
    (re.compile(r"\b[\w-]{23,28}\.[\w-]{6,7}\.[\w-]{27,}"), MASK),
)


class Redactor:
    """Masks tokens and configured secrets in text."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self._secrets: list[str] = []
        for secret in secrets:
            self.add_secret(secret)

    def add_secret(self, secret: str | None) -> None:
        if secret and len(secret) >= MIN_SECRET_LENGTH and secret not in self._secrets:
            self._secrets.append(secret)
            self._secrets.sort(key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        for pattern, replacement in _PATTERNS:
            text = pattern.sub(replacement, text)
        return text


class RedactingFilter(logging.Filter):
    """Rewrites each record's message with secrets masked (never drops a record)."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: let the handler report it as usual
            return True
        clean = self.redactor(message)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_text:
            record.exc_text = self.redactor(record.exc_text)
        return True


def _frames(tb: TracebackType | None) -> str:
    """``package/file.py:line in function`` for each frame, outermost first."""
    return " > ".join(
        f"{'/'.join(PurePath(frame.filename).parts[-2:])}:{frame.lineno} in {frame.name}"
        for frame in traceback.extract_tb(tb)
    )


def compact_exception(exc: BaseException) -> str:
    """``Type: message [frames]``, then ``caused by``/``during`` for chained exceptions."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    link = ""
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        name = type(current).__qualname__
        text = str(current)
        where = _frames(current.__traceback__)
        parts.append(
            f"{link}{name}{': ' + text if text else ''}{' [' + where + ']' if where else ''}"
        )
        if current.__cause__ is not None:
            current, link = current.__cause__, "caused by "
        elif current.__context__ is not None and not current.__suppress_context__:
            current, link = current.__context__, "while handling "
        else:
            current = None
    return " | ".join(parts)


def one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\\r").replace("\n", "\\n")


class OneLineFormatter(logging.Formatter):
    """``FORMAT`` on a single line; exceptions compacted onto it; the result redacted."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__(FORMAT)
        self.redactor = redactor or Redactor()

    def format(self, record: logging.LogRecord) -> str:
        # Not super().format(): it caches a multi-line exc_text on the shared record.
        record.message = record.getMessage()
        record.asctime = self.formatTime(record, self.datefmt)
        line = self.formatMessage(record)
        if record.exc_info and record.exc_info[1] is not None:
            line += " | " + compact_exception(record.exc_info[1])
        elif record.exc_text:
            line += " | " + record.exc_text
        if record.stack_info:
            line += " | stack: " + record.stack_info.strip().splitlines()[-1]
        return self.redactor(one_line(line))


def configure_logging(
    level: str | int,
    *,
    secrets: Iterable[str | None] = (),
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Log to ``stream`` (stderr) at ``level``, one line per record, secrets masked.

    Replaces the handler an earlier call installed; returns the new one.
    """
    numeric = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level {level!r}")
    redactor = Redactor(secrets)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(OneLineFormatter(redactor))
    handler.addFilter(RedactingFilter(redactor))
    setattr(handler, HANDLER_MARK, True)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, HANDLER_MARK, False)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(numeric, logging.INFO))
    logging.captureWarnings(True)
    return handler


def activity(
    what: str,
    *,
    game: int | None,
    channel: int | None,
    verb: str,
    outcome: str,
    seconds: float,
) -> None:
    """One INFO line for a handled command or click (``what="command"``) or a fired
    timer (``"timer"``); see the module docstring for the fields."""
    ACTIVITY.info(
        "%s game=%s channel=%s verb=%s outcome=%s ms=%.1f",
        what,
        "-" if game is None else game,
        "-" if channel is None else channel,
        verb,
        outcome,
        seconds * 1000.0,
    )


class ConnectionLog:
    """Turns gateway events into one warning when a connection is lost, one line when back.

    Fed synchronously from the client's ``dispatch`` (see
    :class:`ConnectionLogMixin`): ``disconnect`` / ``connect`` / ``resumed``
    for an unsharded client, their ``shard_*`` forms (with the shard id) for a
    sharded one. A disconnect while the client is closing is not an outage.
    """

    LOST = frozenset({"disconnect", "shard_disconnect"})
    BACK = frozenset({"connect", "resumed", "shard_connect", "shard_resumed"})

    def __init__(self, sharded: bool) -> None:
        self.sharded = sharded
        self.lost: dict[int | None, float] = {}

    def event(self, name: str, args: tuple[Any, ...], *, closing: bool) -> None:
        if name.startswith("shard_") != self.sharded:
            return  # a sharded client dispatches both forms: count each outage once
        shard: int | None = args[0] if self.sharded and args else None
        where = "" if shard is None else f" (shard {shard})"
        if name in self.LOST:
            if closing or shard in self.lost:
                return
            self.lost[shard] = time.monotonic()
            log.warning("lost the connection to Discord%s; reconnecting", where)
        elif name in self.BACK:
            since = self.lost.pop(shard, None)
            if since is not None:
                log.info(
                    "connection to Discord%s is back after %.1f s", where, time.monotonic() - since
                )


class ConnectionLogMixin:
    """For a discord.py client class: log lost and restored gateway connections.

    Decisions: the events are watched in ``dispatch`` itself rather than with
    ``on_disconnect`` listeners, because discord.py dispatches ``disconnect``
    after ``close()`` has dropped its event loop, and a listener scheduled
    then crashes the client's shutdown.
    """

    _connection_log: ConnectionLog | None = None

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        import discord

        watcher = self._connection_log
        if watcher is None:
            watcher = self._connection_log = ConnectionLog(
                isinstance(self, discord.AutoShardedClient)
            )
        closed = getattr(self, "is_closed", None)
        watcher.event(event_name, args, closing=bool(closed and closed()))
        super().dispatch(event_name, *args, **kwargs)  # type: ignore[misc]
