"""The tables, as one numbered list of migrations both databases apply.

Decisions:

* **One list, one numbering.** :data:`MIGRATIONS` is cumulative: number *n*
  is ``MIGRATIONS[n - 1]``, the same change on SQLite and on PostgreSQL, and
  a database records the last number it applied (SQLite: ``PRAGMA
  user_version``; PostgreSQL: the ``schema_version`` table). Opening a store
  applies the rest in order, each in one transaction, so a database of any
  earlier number is brought up to date. PostgreSQL databases made before the
  list was one (their numbering started at 4, SQLite's schema as of its
  migration 4) already hold the same numbers for the same schema.
* Written once with the dialect's macros (:mod:`bot.store.dialect`):
  ``{serial_key}`` for an id the database assigns, ``{bigint}`` for Discord's
  ids and seeds (``BIGINT`` on PostgreSQL, where ``INTEGER`` is 32 bits),
  ``{real}`` for times in seconds. A step the two spell too differently to
  share (the trigger that keeps the move log append-only) is a
  :class:`Spelled` pair.
* A migration's statements are separated by ``;`` at the end of a line.
* Never edit a migration that has shipped: add one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Spelled:
    """One step of a migration in each dialect's own words."""

    sqlite: str
    postgres: str

    def text(self, dialect: str) -> str:
        return self.sqlite if dialect == "sqlite" else self.postgres


#: a migration: its steps in order (a step: statements for both, or one per dialect)
Migration = tuple[str | Spelled, ...]

MIGRATIONS: tuple[Migration, ...] = (
    # 1: the initial schema
    (
        """
        CREATE TABLE games (
            id {serial_key},
            guild_id {bigint},
            channel_id {bigint} NOT NULL,
            game_type TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
            creator_id {bigint} NOT NULL,
            options TEXT NOT NULL DEFAULT '{{}}',
            seed {bigint} NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            created_at {real} NOT NULL,
            updated_at {real} NOT NULL,
            waiting_since {real}
        );
        CREATE UNIQUE INDEX games_one_open_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'running');
        CREATE TABLE seats (
            game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id {bigint} NOT NULL,
            display_name TEXT NOT NULL,
            colour TEXT NOT NULL DEFAULT '',
            joined_at {real} NOT NULL,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        );
        CREATE TABLE moves (
            game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            created_at {real} NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        """,
        Spelled(
            sqlite="""
            CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
                BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
            """,
            postgres="""
            CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'moves are append-only'; END; $$;
            CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
                FOR EACH ROW EXECUTE FUNCTION moves_append_only();
            """,
        ),
        """
        CREATE TABLE timers (
            id {serial_key},
            due_at {real} NOT NULL,
            kind TEXT NOT NULL,
            game_id {bigint} REFERENCES games (id) ON DELETE CASCADE,
            payload TEXT NOT NULL DEFAULT '{{}}'
        );
        CREATE INDEX timers_by_due ON timers (due_at);
        CREATE TABLE closed_dms (
            user_id {bigint} PRIMARY KEY,
            since {real} NOT NULL,
            announced_in TEXT NOT NULL DEFAULT '[]'
        );
        """,
    ),
    # 2: the language a game's images are drawn in (the server's, at creation)
    ("ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';",),
    # 3: indexes for every command's lookups; steps, undo, publication, named timers
    (
        """
        CREATE INDEX games_by_channel ON games (channel_id, id);
        ALTER TABLE timers ADD COLUMN name TEXT NOT NULL DEFAULT '';
        CREATE UNIQUE INDEX timers_by_game ON timers (game_id, kind, name);
        ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';
        ALTER TABLE moves ADD COLUMN events TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE moves ADD COLUMN checkpoint INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE games ADD COLUMN checkpoint_seq INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN checkpoint_state TEXT;
        ALTER TABLE games ADD COLUMN published_seq INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
        UPDATE games SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves
            WHERE game_id = games.id);
        UPDATE games SET checkpoint_seq = last_seq, published_seq = last_seq;
        CREATE TABLE game_messages (
            game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            channel_id {bigint} NOT NULL,
            message_id {bigint} NOT NULL,
            PRIMARY KEY (game_id, kind)
        );
        """,
    ),
    # 4: seats that drop out, results per seat, a paused clock, notification choices
    (
        """
        ALTER TABLE seats ADD COLUMN status TEXT NOT NULL DEFAULT 'playing';
        ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE seats ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE seats ADD COLUMN place INTEGER;
        ALTER TABLE seats ADD COLUMN score INTEGER;
        ALTER TABLE games ADD COLUMN paused TEXT;
        ALTER TABLE games ADD COLUMN finished_at {real};
        CREATE INDEX games_by_guild ON games (guild_id, status, game_type);
        CREATE INDEX seats_by_user ON seats (user_id);
        CREATE TABLE user_prefs (
            user_id {bigint} PRIMARY KEY,
            notify TEXT NOT NULL DEFAULT 'channel'
        );
        """,
    ),
    # 5: computer seats: the level a computer plays at, NULL for a member's seat
    ("ALTER TABLE seats ADD COLUMN computer TEXT;",),
    # 6: shard clusters: a timer's claim by the process firing it; interactions handed
    # over from the process that received them to the one owning the game's guild
    (
        """
        ALTER TABLE timers ADD COLUMN claimed_by TEXT;
        ALTER TABLE timers ADD COLUMN claimed_at {real};
        CREATE TABLE handovers (
            id {serial_key},
            shard INTEGER NOT NULL,
            game_id {bigint} NOT NULL,
            payload TEXT NOT NULL,
            created_at {real} NOT NULL
        );
        CREATE INDEX timers_claimed ON timers (claimed_by) WHERE claimed_by IS NOT NULL;
        CREATE INDEX handovers_by_shard ON handovers (shard, id);
        """,
    ),
    # 7: a computer seat's secret, which seeds its decisions (issue 28); the computer
    # seats stored before it get one here
    (
        "ALTER TABLE seats ADD COLUMN secret {bigint};",
        Spelled(
            "UPDATE seats SET secret = random() & 4611686018427387903 WHERE computer IS NOT NULL;",
            "UPDATE seats SET secret = floor(random() * 4611686018427387904)::bigint"
            " WHERE computer IS NOT NULL;",
        ),
    ),
    # 8: the private view each seat was last told of (by DM), to say what changed since;
    # a kept message's own text, to edit the part the adapter keeps up to date (a tally)
    (
        """
        ALTER TABLE games ADD COLUMN told TEXT;
        ALTER TABLE game_messages ADD COLUMN content TEXT;
        """,
    ),
    # 9: PostgreSQL fills a page of games to 70% only, leaving room for a step's new version
    # of a row beside the old one (a HOT update: no index touched; measured by
    # scripts/bench_pg_server.py); rows already stored move to such pages as they are
    # rewritten. SQLite rewrites a row in place: nothing to do there
    (Spelled(sqlite="", postgres="ALTER TABLE games SET (fillfactor = 70);"),),
)

#: where a migration's statement ends: ``;`` at the end of a line
END_OF_STATEMENT = re.compile(r";[ \t]*(?:\n|$)")

#: the tables a database copy carries, parents first (``handovers`` are in flight only)
TABLES = ("games", "seats", "moves", "timers", "game_messages", "closed_dms", "user_prefs")


def statements(migration: Migration, dialect: str) -> list[str]:
    """A migration's statements in one dialect, macros not yet filled in, in order."""
    found: list[str] = []
    for step in migration:
        text = step.text(dialect) if isinstance(step, Spelled) else step
        found += [s.strip() for s in END_OF_STATEMENT.split(text) if s.strip()]
    return found
