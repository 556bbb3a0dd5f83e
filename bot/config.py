"""Settings, read from the environment and an optional ``.env`` file, checked at start.

Every setting is documented in ``.env.example`` and in the README's
"Configuration" section.

Decisions:

* Every variable is checked by :meth:`Settings.from_env`, before anything
  connects or writes. A bad value raises :class:`ConfigError` carrying one
  line per bad variable (name, value, what is allowed), translated from the
  catalog; the command line prints those lines and exits with code 2. No
  traceback ever reaches the admin for a configuration mistake.
* An empty variable means "not set" (its default), as ``VAR=`` in a
  ``.env`` or ``docker run --env-file`` file reads naturally that way.
* The token's value is never echoed, not even in an error: only its length.
  A token pasted with a ``Bot`` prefix, quotes or spaces is refused, since
  Discord would reject it anyway with a less helpful message.
* The reminder interval (``ZIGGURAT_TURN_DEADLINE_HOURS``) must be a finite
  number of hours from :data:`MIN_DEADLINE_HOURS` (1: at most 24 reminders a
  day for a game) to :data:`MAX_DEADLINE_HOURS` (720, 30 days). Zero,
  negative, ``nan`` or ``inf`` would post reminders in a tight loop or never.
* ``ZIGGURAT_SHARDS`` unset runs one unsharded connection (Discord requires
  shards only from 2,500 servers); ``auto`` asks Discord for the count; a
  number from 1 to :data:`MAX_SHARDS` fixes it.
* ``ZIGGURAT_SHARD_IDS=first-last`` (or one number) makes this process one of
  a shard cluster: it connects only those shards of ``ZIGGURAT_SHARDS``
  (which must then be a number: a range of "auto" would change under the
  process's feet) and owns only their guilds' games
  (:class:`bot.cluster.ShardRange`). Unset: this process runs every shard.
  A range outside ``0..total-1``, reversed, or without a numeric
  ``ZIGGURAT_SHARDS`` is one line naming ``ZIGGURAT_SHARD_IDS``.
* ``ZIGGURAT_DB`` is a SQLite file path (default ``./ziggurat.db``) or a
  PostgreSQL URL (``postgresql://`` or ``postgres://``, with a host and a
  database name; :mod:`bot.store` then opens PostgreSQL). Another
  ``scheme://`` is refused rather than taken for a file name. A URL's
  password is never echoed: the error shows the URL with ``***`` for it.
* A SQLite location is checked separately by :func:`database_problem`
  (just before opening it, not when merely reading settings): the directory
  must exist or be creatable, and the directory and file must be writable by
  the user the bot runs as (SQLite's WAL mode creates ``-wal`` and ``-shm``
  files beside the database). The message names the path and the user (name
  and uid), which is what an admin needs to fix ownership in Docker. Then
  :func:`database_open_problem` opens it once with the standard library (a
  file that is not a database, a read-only file system), so the store's own
  open, on a background thread, does not meet those failures.
* ``ZIGGURAT_METRICS_PORT`` unset serves no metrics; a port from
  :data:`MIN_METRICS_PORT` (1024: the bot never runs as root) to 65535
  serves Prometheus metrics there (:mod:`bot.metrics`).
* ``ZIGGURAT_COMPUTER_PAUSE_SECONDS`` is the pause before a computer seat
  moves (so the table can follow), from 0 to :data:`MAX_COMPUTER_PAUSE`;
  default :data:`DEFAULT_COMPUTER_PAUSE`.
* ``ZIGGURAT_DRAW_WARMUP_SECONDS`` bounds how long each drawing process
  draws made-up games before it takes work (:mod:`bot.service.warm_drawing`),
  from 0 (no warm-up: each process starts at about 32 MB instead of about
  215 MB, and its first board of each game is late by its fonts and sprites)
  to :data:`MAX_DRAW_WARMUP`; default :data:`DEFAULT_DRAW_WARMUP`, the same as
  :data:`bot.service.warm_drawing.WARM_SECONDS`.
* ``ZIGGURAT_KEPT_GAMES`` is how many running games a process keeps in memory so
  a step need not read its game first (:mod:`bot.store.kept`), from 0 (none: every
  step reads) to :data:`~bot.store.kept.MAX_KEPT_GAMES`; default
  :data:`~bot.store.kept.DEFAULT_KEPT_GAMES`.
* ``ZIGGURAT_EVENT_LOOP`` picks the event loop the bot serves on:
  ``uvloop`` (the default) or ``asyncio`` (Python's own); the choice and
  its fallback live in :mod:`bot.event_loop`.
* ``ZIGGURAT_DEMO_DIR`` is the offline demo's default output folder
  (:func:`demo_dir`); the Docker image sets it under ``/data``.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar
from urllib.parse import urlsplit

from dotenv import load_dotenv

from bot.cluster import ALL, ShardRange
from bot.event_loop import DEFAULT_LOOP, LOOPS, LoopName
from bot.games.notation import ascii_int
from bot.i18n import t
from bot.store.base import INTEGER_DIGITS, POSTGRES_SCHEMES, redact_url
from bot.store.kept import DEFAULT_KEPT_GAMES, MAX_KEPT_GAMES

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_DATABASE = "./ziggurat.db"
DEFAULT_DEADLINE_HOURS = 24.0
MIN_DEADLINE_HOURS = 1.0
MAX_DEADLINE_HOURS = 720.0
MAX_SHARDS = 128
#: the pause before a computer seat moves, in seconds (default and most)
DEFAULT_COMPUTER_PAUSE = 3.0
MAX_COMPUTER_PAUSE = 600.0
#: how long each drawing process warms up at most, in seconds (default and most)
DEFAULT_DRAW_WARMUP = 5.0
MAX_DRAW_WARMUP = 60.0
#: the largest snowflake Discord issues fits in a signed 64-bit integer
MAX_SNOWFLAKE = 2**63 - 1
DEFAULT_DEMO_DIR = "demo-boards"
MIN_METRICS_PORT = 1024
MAX_PORT = 65535
EVENT_LOOP_VARIABLE = "ZIGGURAT_EVENT_LOOP"

Shards = int | Literal["auto"] | None
T = TypeVar("T")


class ConfigError(Exception):
    """Bad settings: :attr:`lines` holds one translated line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def _invalid(variable: str, value: str, allowed_key: str, **params: object) -> str:
    return t(
        "en",
        "config.invalid",
        variable=variable,
        value=value,
        allowed=t("en", allowed_key, **params),
    )


def _env(name: str) -> str | None:
    """The variable's value, stripped; ``None`` when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or None


def parse_token(raw: str | None) -> str | None:
    """The bot token, or ``None``; raises ``ValueError`` (without the value) if malformed."""
    if raw is None:
        return None
    if raw.lower().startswith("bot ") or re.search(r"[\s\"']", raw) or not raw.isascii():
        raise ValueError(raw)
    return raw


def parse_guild_id(raw: str | None) -> int | None:
    if raw is None:
        return None
    return ascii_int(raw, 1, MAX_SNOWFLAKE, digits=INTEGER_DIGITS)


def parse_log_level(raw: str | None) -> str:
    if raw is None:
        return "INFO"
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ValueError(raw)
    return level


def parse_deadline_hours(raw: str | None) -> float:
    if raw is None:
        return DEFAULT_DEADLINE_HOURS
    try:
        hours = float(raw)
    except ValueError:
        raise ValueError(raw) from None
    if not math.isfinite(hours) or not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
        raise ValueError(raw)
    return hours


def _seconds(raw: str | None, default: float, most: float) -> float:
    """A finite number of seconds from 0 to ``most``; ``default`` when unset."""
    if raw is None:
        return default
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError(raw) from None
    if not math.isfinite(seconds) or not 0 <= seconds <= most:
        raise ValueError(raw)
    return seconds


def parse_computer_pause(raw: str | None) -> float:
    return _seconds(raw, DEFAULT_COMPUTER_PAUSE, MAX_COMPUTER_PAUSE)


def parse_draw_warmup(raw: str | None) -> float:
    return _seconds(raw, DEFAULT_DRAW_WARMUP, MAX_DRAW_WARMUP)


def parse_kept_games(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_KEPT_GAMES
    if raw == "0":
        return 0
    return ascii_int(raw, 1, MAX_KEPT_GAMES)


def parse_shards(raw: str | None) -> Shards:
    if raw is None:
        return None
    if raw.lower() == "auto":
        return "auto"
    return ascii_int(raw, 1, MAX_SHARDS)


def parse_metrics_port(raw: str | None) -> int | None:
    if raw is None:
        return None
    return ascii_int(raw, MIN_METRICS_PORT, MAX_PORT)


def parse_event_loop(raw: str | None) -> LoopName:
    if raw is None:
        return DEFAULT_LOOP
    for name in LOOPS:
        if raw.lower() == name:
            return name
    raise ValueError(raw)


def parse_shard_ids(raw: str | None, shards: Shards) -> ShardRange | None:
    """``first-last`` (or ``n``) of ``shards`` shards; ``None`` when unset."""
    if raw is None:
        return None
    match = re.fullmatch(r"([0-9]{1,3})(?:\s*-\s*([0-9]{1,3}))?", raw)
    if match is None or not isinstance(shards, int):
        raise ValueError(raw)
    first = int(match[1])
    last = int(match[2]) if match[2] is not None else first
    if not 0 <= first <= last < shards:
        raise ValueError(raw)
    return ShardRange(shards, first, last)


def parse_database(raw: str | None) -> Path | str:
    """A SQLite file path, or a PostgreSQL URL (kept as text); ``ValueError`` if neither."""
    if raw is None:
        return Path(DEFAULT_DATABASE)
    if raw.startswith(POSTGRES_SCHEMES):
        parts = urlsplit(raw)
        try:
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
        except ValueError:
            raise ValueError(raw) from None
        if not parts.hostname or not parts.path.strip("/"):
            raise ValueError(raw)
        return raw
    if "://" in raw:
        raise ValueError(raw)
    return Path(raw)


@dataclass(frozen=True)
class Settings:
    token: str | None
    #: a SQLite file, or a PostgreSQL URL (``postgresql://…``)
    database: Path | str
    dev_guild_id: int | None
    log_level: str
    turn_deadline_hours: float
    #: ``None``: one unsharded connection; ``"auto"``: Discord's count; else a fixed count
    shards: Shards = None
    #: serve Prometheus metrics on this port (:mod:`bot.metrics`); ``None``: none
    metrics_port: int | None = None
    #: ``None``: every shard in this process; else this process's part of a cluster
    shard_ids: ShardRange | None = None
    #: seconds between the step that hands over to a computer seat and its move
    computer_pause: float = DEFAULT_COMPUTER_PAUSE
    #: the event loop the bot serves on (:mod:`bot.event_loop`)
    event_loop: LoopName = DEFAULT_LOOP
    #: seconds each drawing process warms up at most before it takes work (0: none)
    draw_warmup: float = DEFAULT_DRAW_WARMUP
    #: the most running games kept in memory for a step with no read (0: none)
    kept_games: int = DEFAULT_KEPT_GAMES

    @property
    def shard_range(self) -> ShardRange:
        """The shards whose games this process owns (:data:`bot.cluster.ALL`: every one)."""
        return self.shard_ids if self.shard_ids is not None else ALL

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Read and check settings; values already in the environment win over ``.env``.

        Raises :class:`ConfigError` (one line per bad variable) instead of starting
        with a value that would fail later.
        """
        problems: list[str] = []
        if env_file and Path(env_file).is_file():
            try:
                load_dotenv(env_file, override=False)
            except (OSError, UnicodeDecodeError) as exc:
                problems.append(t("en", "config.env_unreadable", path=env_file, error=exc))

        def check(
            variable: str, parse: Callable[[str | None], T], allowed_key: str, **params: object
        ) -> T | None:
            raw = _env(variable)
            try:
                return parse(raw)
            except ValueError:
                if variable == "DISCORD_TOKEN":
                    shown = t("en", "config.token_hidden", length=len(raw or ""))
                else:
                    shown = repr(redact_url(raw) if raw else raw)
                problems.append(_invalid(variable, shown, allowed_key, **params))
                return None

        token = check("DISCORD_TOKEN", parse_token, "config.allowed.token")
        database = check("ZIGGURAT_DB", parse_database, "config.allowed.database")
        guild = check("ZIGGURAT_DEV_GUILD_ID", parse_guild_id, "config.allowed.guild")
        level = check(
            "ZIGGURAT_LOG_LEVEL",
            parse_log_level,
            "config.allowed.log_level",
            levels=", ".join(LOG_LEVELS),
        )
        hours = check(
            "ZIGGURAT_TURN_DEADLINE_HOURS",
            parse_deadline_hours,
            "config.allowed.deadline",
            min=f"{MIN_DEADLINE_HOURS:g}",
            max=f"{MAX_DEADLINE_HOURS:g}",
        )
        shards = check("ZIGGURAT_SHARDS", parse_shards, "config.allowed.shards", max=MAX_SHARDS)
        metrics_port = check(
            "ZIGGURAT_METRICS_PORT",
            parse_metrics_port,
            "config.allowed.metrics_port",
            min=MIN_METRICS_PORT,
            max=MAX_PORT,
        )
        shard_ids = check(
            "ZIGGURAT_SHARD_IDS",
            lambda raw: parse_shard_ids(raw, shards),
            "config.allowed.shard_ids",
            last=f"{shards - 1}" if isinstance(shards, int) else "N-1",
        )
        pause = check(
            "ZIGGURAT_COMPUTER_PAUSE_SECONDS",
            parse_computer_pause,
            "config.allowed.computer_pause",
            max=f"{MAX_COMPUTER_PAUSE:g}",
        )
        loop = check(
            EVENT_LOOP_VARIABLE,
            parse_event_loop,
            "config.allowed.event_loop",
            loops=", ".join(LOOPS),
        )
        warmup = check(
            "ZIGGURAT_DRAW_WARMUP_SECONDS",
            parse_draw_warmup,
            "config.allowed.draw_warmup",
            max=f"{MAX_DRAW_WARMUP:g}",
        )
        kept = check(
            "ZIGGURAT_KEPT_GAMES",
            parse_kept_games,
            "config.allowed.kept_games",
            max=MAX_KEPT_GAMES,
        )
        if problems:
            raise ConfigError(problems)
        assert level is not None and hours is not None and database is not None
        assert pause is not None and loop is not None and warmup is not None
        assert kept is not None
        return cls(
            token=token,
            database=database,
            dev_guild_id=guild,
            log_level=level,
            turn_deadline_hours=hours,
            shards=shards,
            metrics_port=metrics_port,
            shard_ids=shard_ids,
            computer_pause=pause,
            event_loop=loop,
            draw_warmup=warmup,
            kept_games=kept,
        )


def demo_dir() -> str:
    """The offline demo's default output folder: ``ZIGGURAT_DEMO_DIR``, else ``demo-boards``."""
    return _env("ZIGGURAT_DEMO_DIR") or DEFAULT_DEMO_DIR


# -- the database location -------------------------------------------------------


def current_user() -> str:
    """``name (uid N)`` of the effective user; just the uid when it has no passwd entry."""
    uid = os.geteuid() if hasattr(os, "geteuid") else -1
    try:
        import pwd

        name = pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return t("en", "config.user_uid_only", uid=uid)
    return t("en", "config.user", name=name, uid=uid)


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path("/")


def database_problem(path: Path | str) -> str | None:
    """Why the bot could not write its database at ``path``, as one line; ``None`` if it can.

    Checked without creating anything: the folder must exist or be creatable,
    be a folder, and be writable (SQLite puts ``-wal``/``-shm`` files beside the
    database); an existing database file (and its ``-wal``/``-shm``) must be a
    readable, writable file.
    """
    if str(path) == ":memory:" or str(path).startswith(POSTGRES_SCHEMES):
        return None
    path = Path(path).expanduser().absolute()
    user = current_user()
    if path.is_dir():
        return t("en", "config.db_is_folder", path=path)
    folder = path.parent
    if not folder.exists():
        base = _nearest_existing(folder)
        if not base.is_dir():
            return t("en", "config.db_folder_blocked", path=path, blocker=base)
        if not os.access(base, os.W_OK | os.X_OK):
            return t("en", "config.db_folder_unwritable", path=path, folder=base, user=user)
        return None
    if not folder.is_dir():
        return t("en", "config.db_folder_blocked", path=path, blocker=folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        return t("en", "config.db_folder_unwritable", path=path, folder=folder, user=user)
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if file.exists() and (not file.is_file() or not os.access(file, os.R_OK | os.W_OK)):
            return t("en", "config.db_file_unwritable", path=file, user=user)
    return None


def database_open_problem(path: Path | str) -> str | None:
    """Open the database once with the standard library, as the store will; a line if it fails.

    Catches what :func:`database_problem` cannot see (a file that is not a
    SQLite database, a locked or read-only file system) before the store opens
    it on a background thread.
    """
    if str(path) == ":memory:" or str(path).startswith(POSTGRES_SCHEMES):
        return None
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=10)
        try:
            connection.execute("PRAGMA journal_mode=WAL").fetchone()
            connection.execute("PRAGMA user_version").fetchone()
        finally:
            connection.close()
    except (sqlite3.Error, OSError) as exc:
        return t("en", "config.db_open_failed", path=path, user=current_user(), error=exc)
    return None
