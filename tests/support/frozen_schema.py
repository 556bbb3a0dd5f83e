"""The schema scripts as they shipped while each database had its own list (frozen).

SQLite's migrations 1-6 and PostgreSQL's 4-6 (PostgreSQL's first script made
SQLite's schema as of its migration 4), verbatim: databases made by them exist
and must migrate forward under the one list of :mod:`bot.store.schema`
(``tests/platform/test_store.py``). Never edit these.
"""

SQLITE_MIGRATIONS: tuple[str, ...] = (
    # 1: the initial schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        creator_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        waiting_since REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        display_name TEXT NOT NULL,
        colour TEXT NOT NULL DEFAULT '',
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        due_at REAL NOT NULL,
        kind TEXT NOT NULL,
        game_id INTEGER REFERENCES games (id) ON DELETE CASCADE,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_due ON timers (due_at);
    CREATE TABLE closed_dms (
        user_id INTEGER PRIMARY KEY,
        since REAL NOT NULL,
        announced_in TEXT NOT NULL DEFAULT '[]'
    );
    """,
    # 2: the language a game's images are drawn in (the server's, at creation)
    """
    ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
    """,
    # 3: indexes for every command's lookups; steps, undo, publication, named timers
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
    UPDATE games SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = games.id);
    UPDATE games SET checkpoint_seq = last_seq, published_seq = last_seq;
    CREATE TABLE game_messages (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    """,
    # 4: seats that drop out, results per seat, a paused clock, notification choices
    """
    ALTER TABLE seats ADD COLUMN status TEXT NOT NULL DEFAULT 'playing';
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN place INTEGER;
    ALTER TABLE seats ADD COLUMN score INTEGER;
    ALTER TABLE games ADD COLUMN paused TEXT;
    ALTER TABLE games ADD COLUMN finished_at REAL;
    CREATE INDEX games_by_guild ON games (guild_id, status, game_type);
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        notify TEXT NOT NULL DEFAULT 'channel'
    );
    """,
    # 5: computer seats: the level a computer plays at, NULL for a member's seat
    """
    ALTER TABLE seats ADD COLUMN computer TEXT;
    """,
    # 6: shard clusters: a timer's claim by the process firing it; interactions handed
    # over from the process that received them to the one owning the game's guild
    """
    ALTER TABLE timers ADD COLUMN claimed_by TEXT;
    ALTER TABLE timers ADD COLUMN claimed_at REAL;
    CREATE TABLE handovers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        shard INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX timers_claimed ON timers (claimed_by) WHERE claimed_by IS NOT NULL;
    CREATE INDEX handovers_by_shard ON handovers (shard, id);
    """,
)

#: the number of PostgreSQL's first script
POSTGRES_FIRST = 4
POSTGRES_MIGRATIONS: tuple[str, ...] = (
    # 4: the schema of SQLite's migrations 1-4
    """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        creator_id BIGINT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        waiting_since DOUBLE PRECISION,
        language TEXT NOT NULL DEFAULT 'en',
        checkpoint_seq INTEGER NOT NULL DEFAULT 0,
        checkpoint_state TEXT,
        published_seq INTEGER NOT NULL DEFAULT 0,
        last_seq INTEGER NOT NULL DEFAULT 0,
        paused TEXT,
        finished_at DOUBLE PRECISION
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE INDEX games_by_guild ON games (guild_id, status, game_type);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id BIGINT NOT NULL,
        display_name TEXT NOT NULL,
        colour TEXT NOT NULL DEFAULT '',
        joined_at DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',
        timeouts INTEGER NOT NULL DEFAULT 0,
        auto INTEGER NOT NULL DEFAULT 0,
        place INTEGER,
        score INTEGER,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL DEFAULT 'move',
        events TEXT NOT NULL DEFAULT '[]',
        checkpoint INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, seq)
    );
    CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'moves are append-only'; END; $$;
    CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
        FOR EACH ROW EXECUTE FUNCTION moves_append_only();
    CREATE TABLE timers (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        due_at DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL,
        game_id BIGINT REFERENCES games (id) ON DELETE CASCADE,
        payload TEXT NOT NULL DEFAULT '{}',
        name TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX timers_by_due ON timers (due_at);
    CREATE UNIQUE INDEX timers_by_game ON timers (game_id, kind, name);
    CREATE TABLE closed_dms (
        user_id BIGINT PRIMARY KEY,
        since DOUBLE PRECISION NOT NULL,
        announced_in TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE game_messages (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    CREATE TABLE user_prefs (
        user_id BIGINT PRIMARY KEY,
        notify TEXT NOT NULL DEFAULT 'channel'
    );
    """,
    # 5: computer seats: the level a computer plays at, NULL for a member's seat
    """
    ALTER TABLE seats ADD COLUMN computer TEXT;
    """,
    # 6: shard clusters: a timer's claim by the process firing it; interactions handed
    # over from the process that received them to the one owning the game's guild
    """
    ALTER TABLE timers ADD COLUMN claimed_by TEXT, ADD COLUMN claimed_at DOUBLE PRECISION;
    CREATE TABLE handovers (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        shard INTEGER NOT NULL,
        game_id BIGINT NOT NULL,
        payload TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX timers_claimed ON timers (claimed_by) WHERE claimed_by IS NOT NULL;
    CREATE INDEX handovers_by_shard ON handovers (shard, id);
    """,
)
