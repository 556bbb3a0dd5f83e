"""Admin commands: ``python -m bot backup|check|forget-guild|clear-dev-commands``.

``docs/admin.md`` explains when to use each. They read the same settings as
the bot (``ZIGGURAT_DB``, ``DISCORD_TOKEN``), print one line saying what they
did or why they could not, and exit 0 (done), 1 (Discord or the disk failed
on the way) or 2 (bad input: nothing was changed).

Decisions:

* ``backup DEST`` copies a live database with SQLite's ``VACUUM INTO``
  through aiosqlite: one read transaction gives a consistent snapshot even in
  WAL mode while the bot keeps writing (WAL readers do not block writers),
  and the copy is compact and has no ``-wal`` file to forget. The copy is
  written beside DEST under a temporary name, checked (``PRAGMA
  integrity_check`` and a count of games) and only then renamed to DEST, so a
  backup that exists is a good one. DEST may be a folder: the copy is named
  ``ziggurat-YYYYMMDD-HHMMSS.db`` (UTC) in it. An existing file is never
  overwritten.
* ``check`` reads the database and changes nothing: SQLite's ``PRAGMA
  integrity_check`` (on a file), then every running game that awaits a seat
  with nothing to move it (the service's audit: no clock, deadline or computer
  timer), one line each. It exits 1 when it found anything; the bot's start-up
  repair writes the missing timers. It works on both backends.
* ``forget-guild GUILD_ID`` deletes the server's games with raw SQL; seats,
  moves and timers go with them (``ON DELETE CASCADE`` with ``PRAGMA
  foreign_keys=ON``), and so do the closed-DM notes of users who no longer
  have a seat in any game. ``secure_delete`` zeroes the freed pages and a
  ``wal_checkpoint(TRUNCATE)`` empties the WAL, so the data is gone from the
  file, not merely unlinked (older backups still hold it). It runs in one
  ``BEGIN IMMEDIATE`` transaction, so it is safe while the bot runs, though
  stopping the bot first lets the checkpoint truncate the WAL fully.
* ``clear-dev-commands GUILD_ID`` logs in over REST only (no gateway) and
  syncs an empty command list to that server: the duplicates left behind
  after ``ZIGGURAT_DEV_GUILD_ID`` is unset. It refuses while
  ``ZIGGURAT_DEV_GUILD_ID`` still names that server (the bot would put the
  commands back at its next start). Global commands are untouched.
* :data:`REQUIRED_PERMISSIONS` is the bot's minimal permission set; the
  README's invite URL is checked against it by a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.config import MAX_SNOWFLAKE, Settings, current_user
from bot.games.notation import ascii_int
from bot.i18n import t
from bot.store.base import INTEGER_DIGITS

COMMANDS = ("backup", "check", "forget-guild", "clear-dev-commands")
#: seconds a statement waits for the bot's own transactions to finish
BUSY_TIMEOUT = 10.0

#: What the bot needs in a server. The rest of its work needs no permission:
#: answering interactions and their follow-ups, editing its own messages, DMs.
#: Not needed: Embed Links (it sends no embeds), Read Message History (it reads
#: no messages), Mention Everyone, Manage Messages.
REQUIRED_PERMISSIONS: tuple[str, ...] = (
    "view_channel",  # see the channels it posts reminders and notices in
    "send_messages",  # reminders and closed-DM notices (channel.send)
    "attach_files",  # the board image on those messages
    "create_public_threads",  # a thread for a game
    "send_messages_in_threads",  # posting in a game's thread
)


def required_permissions() -> int:
    """The permission integer for the invite URL (see :data:`REQUIRED_PERMISSIONS`)."""
    import discord

    return discord.Permissions(**dict.fromkeys(REQUIRED_PERMISSIONS, True)).value


# -- command line ------------------------------------------------------------------


def add_parsers(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the admin subcommands on the main parser."""
    backup_cmd = commands.add_parser("backup", help=t("en", "app.cli_backup"))
    backup_cmd.add_argument("dest", metavar="DEST", help=t("en", "app.cli_backup_dest"))
    commands.add_parser("check", help=t("en", "app.cli_check"))
    forget = commands.add_parser("forget-guild", help=t("en", "app.cli_forget_guild"))
    forget.add_argument("guild", metavar="GUILD_ID")
    clear = commands.add_parser("clear-dev-commands", help=t("en", "app.cli_clear_commands"))
    clear.add_argument("guild", metavar="GUILD_ID")


def parse_guild(raw: str) -> int | None:
    try:
        return ascii_int(raw.strip(), 1, MAX_SNOWFLAKE, digits=INTEGER_DIGITS)
    except ValueError:
        return None


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the admin subcommand ``args.command``; return the exit code."""
    database = settings.database
    if args.command == "check":
        return asyncio.run(check(database))
    if not isinstance(database, Path) and args.command != "clear-dev-commands":
        return _fail(t("en", "app.admin_sqlite_only", command=args.command))  # PostgreSQL
    if args.command == "backup" and isinstance(database, Path):
        return asyncio.run(backup(database, args.dest))
    guild = parse_guild(args.guild)
    if guild is None:
        print(t("en", "app.bad_guild_arg", value=repr(args.guild)), file=sys.stderr)
        return 2
    if args.command == "forget-guild" and isinstance(database, Path):
        return asyncio.run(forget_guild(database, guild))
    if args.command == "clear-dev-commands":
        if settings.dev_guild_id == guild:
            print(t("en", "app.clear_commands_still_dev", guild=guild), file=sys.stderr)
            return 2
        return asyncio.run(clear_dev_commands(settings.token, guild))
    raise ValueError(f"not an admin command: {args.command}")


async def _run(db: aiosqlite.Connection, sql: str, params: tuple[object, ...] = ()) -> int:
    """Execute one statement to the end (no cursor left open); its row count."""
    async with db.execute(sql, params) as cursor:
        await cursor.fetchall()
        return cursor.rowcount


def _fail(line: str, code: int = 2) -> int:
    print(line, file=sys.stderr)
    return code


# -- check -------------------------------------------------------------------------


async def check(database: str | Path) -> int:
    """Print what is wrong with the stored games (see the module docstring); 0 when
    nothing, 1 when something, 2 when there is no database to read."""
    from bot.plugins import load_builtin_games
    from bot.service import GameService
    from bot.store import open_store

    if isinstance(database, Path) and not database.exists():
        return _fail(t("en", "app.check_no_database", path=str(database)))
    store = await open_store(database)
    try:
        found = 0
        integrity = getattr(store, "integrity_check", None)
        if integrity is not None:
            answer = await integrity()
            if answer != "ok":
                found += 1
                print(t("en", "app.check_integrity", answer=answer))
        service = GameService(store, load_builtin_games(), render=False)
        for unmoved in await service.timers.audit():
            found += 1
            kinds = ", ".join(sorted({kind for kind, _, _ in unmoved.missing}))
            print(t("en", "app.check_unmoved", game=unmoved.game_id, timers=kinds))
        games = len(await store.running_games())
        print(t("en", "app.check_done", count=found, games=games))
        return 1 if found else 0
    finally:
        await store.close()


# -- backup ------------------------------------------------------------------------


def backup_name(now: datetime | None = None) -> str:
    moment = now or datetime.now(UTC)
    return f"ziggurat-{moment:%Y%m%d-%H%M%S}.db"


async def backup(
    source: Path, dest: Path | str, *, now: Callable[[], datetime] | None = None
) -> int:
    """Copy the database ``source`` to ``dest`` (a new file, or a folder); print one line.

    ``dest`` is a folder if it is one, or if it is written with a trailing slash
    (then it is created).
    """
    if not source.is_file():
        return _fail(t("en", "config.db_missing", path=source))
    folder = str(dest).endswith(("/", os.sep)) or Path(dest).is_dir()
    dest = Path(dest)
    if folder:
        dest = dest / backup_name(now() if now else None)
    if dest.exists():
        return _fail(t("en", "app.backup_exists", dest=dest))
    partial = dest.with_name(f".{dest.name}.partial")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        async with aiosqlite.connect(source, timeout=BUSY_TIMEOUT) as db:
            await _run(db, "VACUUM INTO ?", (str(partial),))
        async with aiosqlite.connect(partial) as copy:
            async with copy.execute("PRAGMA integrity_check") as cur:
                (integrity,) = await cur.fetchone() or ("no answer",)
            async with copy.execute("SELECT count(*) FROM games") as cur:
                (games,) = await cur.fetchone() or (0,)
        if integrity != "ok":
            raise sqlite3.DatabaseError(f"integrity_check of the copy: {integrity}")
        if dest.exists():  # created meanwhile: never overwrite
            return _fail(t("en", "app.backup_exists", dest=dest))
        os.replace(partial, dest)
    except (sqlite3.Error, OSError) as exc:
        return _fail(t("en", "app.backup_failed", dest=dest, error=exc), 1)
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
    print(
        t(
            "en",
            "app.backup_done",
            source=source,
            dest=dest,
            games=games,
            size=dest.stat().st_size,
        )
    )
    return 0


# -- forget-guild ------------------------------------------------------------------


async def forget_guild(database: Path, guild_id: int) -> int:
    """Delete every game of ``guild_id`` (and what hangs on them); print one line."""
    if not database.is_file():
        return _fail(t("en", "config.db_missing", path=database))
    try:
        async with aiosqlite.connect(database, isolation_level=None, timeout=BUSY_TIMEOUT) as db:
            for pragma in ("foreign_keys=ON", "secure_delete=ON"):
                await _run(db, f"PRAGMA {pragma}")
            await _run(db, "BEGIN IMMEDIATE")
            try:
                counts = {}
                for name, sql in (
                    ("seats", "SELECT count(*) FROM seats WHERE game_id IN {games}"),
                    ("moves", "SELECT count(*) FROM moves WHERE game_id IN {games}"),
                    ("timers", "SELECT count(*) FROM timers WHERE game_id IN {games}"),
                ):
                    query = sql.format(games="(SELECT id FROM games WHERE guild_id = ?)")
                    async with db.execute(query, (guild_id,)) as cur:
                        (counts[name],) = await cur.fetchone() or (0,)
                games = await _run(db, "DELETE FROM games WHERE guild_id = ?", (guild_id,))
                users = await _run(
                    db, "DELETE FROM closed_dms WHERE user_id NOT IN (SELECT user_id FROM seats)"
                )
                await _run(db, "COMMIT")
            except BaseException:
                await _run(db, "ROLLBACK")
                raise
            await _run(db, "PRAGMA wal_checkpoint(TRUNCATE)")
    except (sqlite3.Error, OSError) as exc:
        return _fail(
            t("en", "config.db_open_failed", path=database, user=current_user(), error=exc), 1
        )
    print(
        t(
            "en",
            "app.forget_guild_done",
            games=games,
            guild=guild_id,
            path=database,
            users=users,
            **counts,
        )
    )
    return 0


# -- clear-dev-commands --------------------------------------------------------------


async def clear_dev_commands(token: str | None, guild_id: int) -> int:
    """Sync an empty command list to ``guild_id``; print how many commands were removed."""
    import aiohttp
    import discord

    if token is None:
        return _fail(t("en", "app.admin_needs_token"))
    client = discord.Client(intents=discord.Intents.none())
    tree = discord.app_commands.CommandTree(client)
    guild = discord.Object(guild_id)
    try:
        async with client:
            await client.login(token)
            before = await tree.fetch_commands(guild=guild)
            await tree.sync(guild=guild)  # the tree has no commands for that guild
    except discord.LoginFailure:
        return _fail(t("en", "app.bad_token"))
    except (discord.Forbidden, discord.NotFound) as exc:
        return _fail(t("en", "app.clear_commands_refused", guild=guild_id, error=exc))
    except (OSError, aiohttp.ClientError, discord.HTTPException) as exc:
        return _fail(t("en", "app.network_failed", error=exc), 1)
    print(t("en", "app.clear_commands_done", count=len(before), guild=guild_id))
    return 0
