"""``python -m bot migrate-db --to postgresql://… [--from path.sqlite]``: SQLite to PostgreSQL.

Copies everything the bot stored in a SQLite file — games, seats, moves,
timers, kept messages, notification choices, closed-DM notes — into an empty
PostgreSQL database, verifies the copy and prints one line (exit 0); a bad
argument or a database that is not empty gets one line and exit code 2, a
copy that does not verify (or a server that fails on the way) one line and
exit code 1.

Decisions:

* **Only into an empty database.** The target is migrated to the current
  schema first (as the bot would at start); if any of the store's tables
  then holds a row, nothing is copied: merging two histories would clash on
  ids and on the one open game per channel.
* **All or nothing.** The copy and its verification run in one PostgreSQL
  transaction; a failed verification rolls everything back, so the target is
  left empty and the command can be run again once the cause is fixed.
* **Verified twice.** Every table's row count must match the SQLite file's,
  and every game with a state must replay from its seed through its copied
  log (:func:`bot.service.replay.replay`, as ``tests/platform/
  test_replay_integrity.py`` does) to the copied state — which proves the
  moves, seats, options and seed all arrived.
* Values are copied as they are stored (the JSON texts byte for byte, ids
  kept, so a game's id and its buttons stay valid); the identity sequences
  of ``games`` and ``timers`` then continue after the largest id copied.
* **Except text PostgreSQL cannot hold.** A display name stored by an older
  version with NUL or other control characters is cleaned as the service
  now cleans every name before storing it (:func:`bot.service.names.seat_name`,
  the fallback name when nothing is left); any other text loses its NUL
  characters. The command says how many values it cleaned, in a second
  line; the replay check is unaffected (names play no part in a replay).
* The SQLite file is first brought to the current schema by opening it as
  the store does (stop the bot first: see ``docs/admin.md``), then read in
  one read transaction — one consistent snapshot.
* The target URL's password is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot import plugins
from bot.config import Settings, parse_database
from bot.i18n import t
from bot.service.names import seat_name
from bot.store import POSTGRES_SCHEMES, redact_url
from bot.store.base import decode_game, decode_move
from bot.store.postgres import GAME_COLUMNS, TABLES, PostgresStore
from bot.store.sqlite import SqliteStore

COMMAND = "migrate-db"
#: rows sent to the server per COPY
CHUNK = 5000
#: tables whose ``id`` is an identity column to continue after the copy
IDENTITIES = ("games", "timers")


class MigrationFailed(Exception):
    """The copy did not verify (or could not be made); rolled back. ``str`` is one line."""


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    parser = commands.add_parser(COMMAND, help=t("en", "app.cli_migrate_db"))
    parser.add_argument("--to", required=True, metavar="URL", help=t("en", "app.cli_migrate_to"))
    parser.add_argument(
        "--from", dest="source", metavar="FILE", help=t("en", "app.cli_migrate_from")
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Check the arguments, copy and verify; print one line; return the exit code."""
    target: str = args.to
    try:
        parsed = parse_database(target)
    except ValueError:
        parsed = None
    if not isinstance(parsed, str) or not parsed.startswith(POSTGRES_SCHEMES):
        return _fail(t("en", "app.migrate_bad_target", value=repr(redact_url(target))))
    if args.source is not None:
        source = Path(args.source)
    elif isinstance(settings.database, Path):
        source = settings.database
    else:
        return _fail(t("en", "app.migrate_no_source"))
    if not source.is_file():
        return _fail(t("en", "config.db_missing", path=source))
    return asyncio.run(migrate(source, target))


def _fail(line: str, code: int = 2) -> int:
    print(line, file=sys.stderr)
    return code


async def migrate(source: Path, target: str) -> int:
    """Copy ``source`` into the PostgreSQL database ``target`` and verify; the exit code."""
    shown = redact_url(target)
    try:
        store = await SqliteStore.open(source)  # brings an older file to the current schema
        await store.close()
        postgres = await PostgresStore.open(target)
    except (OSError, sqlite3.Error) as exc:
        return _fail(t("en", "app.migrate_failed", target=shown, problem=exc), 1)
    try:
        rows = await _rows_in(postgres)
        if rows:
            return _fail(
                t(
                    "en",
                    "app.migrate_not_empty",
                    target=shown,
                    rows=sum(rows.values()),
                    tables=", ".join(rows),
                )
            )
        registry = plugins.load_builtin_games()
        try:
            counts, replayed, cleaned = await postgres.write(
                lambda db: _copy_and_verify(db, source, registry)
            )
        except MigrationFailed as exc:
            return _fail(t("en", "app.migrate_failed", target=shown, problem=exc), 1)
    finally:
        await postgres.close()
    print(
        t(
            "en",
            "app.migrate_done",
            source=source,
            target=shown,
            games=counts["games"],
            seats=counts["seats"],
            moves=counts["moves"],
            timers=counts["timers"],
            messages=counts["game_messages"],
            prefs=counts["user_prefs"],
            dms=counts["closed_dms"],
            replayed=replayed,
        )
    )
    if cleaned:
        print(t("en", "app.migrate_cleaned", count=cleaned))
    return 0


async def _rows_in(store: PostgresStore) -> dict[str, int]:
    """The store's tables that hold rows, with their counts."""

    async def unit(db: Any) -> dict[str, int]:
        found = {}
        for table in TABLES:
            count = int(await db.fetchval(f"SELECT count(*) FROM {table}"))
            if count:
                found[table] = count
        return found

    return await store.write(unit)


async def _copy_and_verify(
    db: Any, source: Path, registry: Mapping[str, Any]
) -> tuple[dict[str, int], int, int]:
    """Copy every table and verify, inside the caller's transaction; (counts, games
    replayed, values cleaned)."""
    counts: dict[str, int] = {}
    cleaned = 0
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as raw:
        raw.execute("BEGIN")  # one read transaction: one snapshot of every table
        languages = {int(i): str(lang) for i, lang in raw.execute("SELECT id, language FROM games")}
        for table in TABLES:
            counts[table], changed = await _copy_table(db, raw, table, languages)
            cleaned += changed
        raw.execute("COMMIT")
    for table in IDENTITIES:
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )
    problems = []
    for table, expected in counts.items():
        copied = int(await db.fetchval(f"SELECT count(*) FROM {table}"))
        if copied != expected:
            problems.append(
                t("en", "app.migrate_count_differs", table=table, source=expected, copied=copied)
            )
    replayed = 0
    if not problems:
        replayed = await _replay_every_game(db, registry, problems)
    if problems:
        raise MigrationFailed("; ".join(problems))
    return counts, replayed, cleaned


async def _copy_table(
    db: Any, raw: sqlite3.Connection, table: str, languages: Mapping[int, str]
) -> tuple[int, int]:
    """COPY one table's rows as stored, text PostgreSQL cannot hold cleaned; (rows sent,
    values cleaned)."""
    types = {
        str(r["column_name"]): str(r["data_type"])
        for r in await db.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
    }
    columns = [str(r[1]) for r in raw.execute(f"PRAGMA table_info({table})")]
    missing = [c for c in columns if c not in types]
    if missing:
        raise MigrationFailed(
            t("en", "app.migrate_columns_differ", table=table, columns=", ".join(missing))
        )
    casts = [_caster(types[c]) for c in columns]
    cursor = raw.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid")
    sent = cleaned = 0
    while batch := cursor.fetchmany(CHUNK):
        records = []
        for row in batch:
            values = [None if v is None else cast(v) for cast, v in zip(casts, row, strict=True)]
            fixed = _cleaned(table, dict(zip(columns, values, strict=True)), languages)
            cleaned += sum(a != b for a, b in zip(values, fixed, strict=True))
            records.append(tuple(fixed))
        await db.copy_records_to_table(table, records=records, columns=columns)
        sent += len(records)
    return sent, cleaned


def _cleaned(table: str, row: Mapping[str, Any], languages: Mapping[int, str]) -> list[Any]:
    """A row's values as PostgreSQL can hold them: a seat's name cleaned as the service
    cleans names, NUL removed from any other text."""
    values = []
    for column, value in row.items():
        if table == "seats" and column == "display_name":
            language = languages.get(int(row["game_id"]), "en")
            value = seat_name(str(value), int(row["user_id"]), language)
        elif isinstance(value, str) and "\x00" in value:
            value = value.replace("\x00", "")
        values.append(value)
    return values


def _caster(data_type: str) -> Any:
    """How a SQLite value becomes the PostgreSQL column's (SQLite's types are loose)."""
    if data_type in ("bigint", "integer", "smallint"):
        return int
    if data_type in ("double precision", "real", "numeric"):
        return float
    return str


async def _replay_every_game(db: Any, registry: Mapping[str, Any], problems: list[str]) -> int:
    """Replay every copied game that has a state; note each that does not match. The count."""
    from bot.service.replay import replay

    replayed = 0
    ids = [int(r[0]) for r in await db.fetch("SELECT id FROM games WHERE state IS NOT NULL")]
    for game_id in ids:
        game = decode_game(
            await db.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        )
        moves = [
            decode_move(r)
            for r in await db.fetch(
                "SELECT seq, seat, action, created_at, kind, events, checkpoint FROM moves"
                " WHERE game_id = $1 ORDER BY seq",
                game_id,
            )
        ]
        game_type = registry.get(game.game_type)
        try:
            if game_type is None:
                raise LookupError(game.game_type)
            engine = game_type.engine
            state = replay(engine, len(game.seats), game.options, game.seed, moves)
            same = engine.dump_state(state) == game.state
            reason = "" if same else t("en", "app.migrate_states_differ")
        except Exception as exc:  # a log that no longer applies, an unknown game
            same, reason = False, f"{type(exc).__name__}: {exc}"
        if not same:
            problems.append(
                t(
                    "en",
                    "app.migrate_replay_differs",
                    game=game.id,
                    game_type=game.game_type,
                    reason=reason,
                )
            )
        replayed += 1
    return replayed
