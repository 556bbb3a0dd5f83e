"""Settings are checked at start: a bad value is one line on stderr and exit code 2.

The command line is run in-process (``bot.__main__.main``) for the many
value cases, and as a real ``python -m bot`` process for the end-to-end
cases (a ``.env`` file, the database checks before connecting).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from bot.__main__ import main
from bot.cluster import ShardRange, shard_of
from bot.config import (
    MAX_DEADLINE_HOURS,
    MAX_DRAW_WARMUP,
    MAX_PORT,
    MIN_DEADLINE_HOURS,
    MIN_METRICS_PORT,
    ConfigError,
    Settings,
    database_problem,
    demo_dir,
)
from bot.discord.lifecycle import serve
from bot.i18n import t
from bot.service import warm_drawing
from bot.store.kept import DEFAULT_KEPT_GAMES

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
VARIABLES = (
    "DISCORD_TOKEN",
    "ZIGGURAT_DB",
    "ZIGGURAT_DEV_GUILD_ID",
    "ZIGGURAT_LOG_LEVEL",
    "ZIGGURAT_TURN_DEADLINE_HOURS",
    "ZIGGURAT_SHARDS",
    "ZIGGURAT_METRICS_PORT",
    "ZIGGURAT_SHARD_IDS",
    "ZIGGURAT_DEMO_DIR",
    "ZIGGURAT_COMPUTER_PAUSE_SECONDS",
    "ZIGGURAT_DRAW_WARMUP_SECONDS",
    "ZIGGURAT_KEPT_GAMES",
    "ZIGGURAT_EVENT_LOOP",
)
#: a syntactically valid token that no Discord will ever accept
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No Ziggurat variable set, and a working folder without ``.env``."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def run_main(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main([])
    err = capsys.readouterr().err
    return code, err.splitlines()


BAD_VALUES = [
    ("ZIGGURAT_DEV_GUILD_ID", "my server"),
    ("ZIGGURAT_DEV_GUILD_ID", "-5"),
    ("ZIGGURAT_DEV_GUILD_ID", "0"),
    ("ZIGGURAT_DEV_GUILD_ID", "12e3"),
    ("ZIGGURAT_DEV_GUILD_ID", str(2**64)),
    ("ZIGGURAT_LOG_LEVEL", "verbose"),
    ("ZIGGURAT_LOG_LEVEL", "10"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "a day"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "0"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "-3"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "nan"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "inf"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "0.5"),
    ("ZIGGURAT_TURN_DEADLINE_HOURS", "721"),
    ("ZIGGURAT_SHARDS", "many"),
    ("ZIGGURAT_SHARDS", "0"),
    ("ZIGGURAT_SHARDS", "-1"),
    ("ZIGGURAT_SHARDS", "1000"),
    ("ZIGGURAT_METRICS_PORT", "prometheus"),
    ("ZIGGURAT_METRICS_PORT", "80"),
    ("ZIGGURAT_METRICS_PORT", "0"),
    ("ZIGGURAT_METRICS_PORT", "65536"),
    ("ZIGGURAT_METRICS_PORT", "9464.5"),
    ("ZIGGURAT_SHARD_IDS", "0-1"),  # a range needs ZIGGURAT_SHARDS=total
    ("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "soon"),
    ("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "-1"),
    ("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "nan"),
    ("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "601"),
    ("ZIGGURAT_DRAW_WARMUP_SECONDS", "a while"),
    ("ZIGGURAT_DRAW_WARMUP_SECONDS", "-1"),
    ("ZIGGURAT_DRAW_WARMUP_SECONDS", "nan"),
    ("ZIGGURAT_DRAW_WARMUP_SECONDS", "inf"),
    ("ZIGGURAT_DRAW_WARMUP_SECONDS", "61"),
    ("ZIGGURAT_KEPT_GAMES", "many"),
    ("ZIGGURAT_KEPT_GAMES", "-1"),
    ("ZIGGURAT_KEPT_GAMES", "1.5"),
    ("ZIGGURAT_KEPT_GAMES", "00"),
    ("ZIGGURAT_KEPT_GAMES", "1000001"),
    ("ZIGGURAT_EVENT_LOOP", "libuv"),
    ("ZIGGURAT_EVENT_LOOP", "trio"),
]


@pytest.mark.parametrize(("variable", "value"), BAD_VALUES)
def test_a_bad_value_is_one_line_naming_variable_value_and_what_is_allowed(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], variable: str, value: str
) -> None:
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv(variable, value)
    code, lines = run_main(capsys)
    assert code == 2
    assert len(lines) == 1, lines
    [line] = lines
    assert line.startswith("Configuration error: ")
    assert f"{variable}={value!r}" in line
    assert "expected" in line
    assert "Traceback" not in line


def test_the_metrics_port_limits_are_in_the_message(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("ZIGGURAT_METRICS_PORT", "80")
    _, [line] = run_main(capsys)
    assert f"from {MIN_METRICS_PORT} to {MAX_PORT}" in line


def test_the_deadline_limits_are_in_the_message(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("ZIGGURAT_TURN_DEADLINE_HOURS", "0")
    _, [line] = run_main(capsys)
    assert f"from {MIN_DEADLINE_HOURS:g} to {MAX_DEADLINE_HOURS:g}" in line


@pytest.mark.parametrize("token", [f"Bot {TOKEN}", f'"{TOKEN}"', f"{TOKEN} extra", "tökén"])
def test_a_malformed_token_is_refused_without_being_echoed(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str
) -> None:
    clean_env.setenv("DISCORD_TOKEN", token)
    code, lines = run_main(capsys)
    assert code == 2
    [line] = lines
    assert "DISCORD_TOKEN=" in line
    assert t("en", "config.token_hidden", length=len(token)) in line
    assert TOKEN not in line and "tökén" not in line


def test_every_bad_variable_gets_its_own_line(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("ZIGGURAT_LOG_LEVEL", "loud")
    clean_env.setenv("ZIGGURAT_SHARDS", "lots")
    code, lines = run_main(capsys)
    assert code == 2
    assert [line.split("=")[0].split()[-1] for line in lines] == [
        "ZIGGURAT_LOG_LEVEL",
        "ZIGGURAT_SHARDS",
    ]


def test_good_values_and_defaults(clean_env: pytest.MonkeyPatch) -> None:
    default = Settings.from_env()
    assert default == Settings(
        token=None,
        database=Path("./ziggurat.db"),
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24.0,
        shards=None,
    )
    clean_env.setenv("DISCORD_TOKEN", f"  {TOKEN} ")
    clean_env.setenv("ZIGGURAT_DB", "/data/z.db")
    clean_env.setenv("ZIGGURAT_DEV_GUILD_ID", " 123456789012345678 ")
    clean_env.setenv("ZIGGURAT_LOG_LEVEL", "debug")
    clean_env.setenv("ZIGGURAT_TURN_DEADLINE_HOURS", "1.5")
    clean_env.setenv("ZIGGURAT_SHARDS", "AUTO")
    assert Settings.from_env() == Settings(
        token=TOKEN,
        database=Path("/data/z.db"),
        dev_guild_id=123456789012345678,
        log_level="DEBUG",
        turn_deadline_hours=1.5,
        shards="auto",
    )
    clean_env.setenv("ZIGGURAT_SHARDS", "3")
    assert Settings.from_env().shards == 3
    assert Settings.from_env().metrics_port is None
    clean_env.setenv("ZIGGURAT_METRICS_PORT", " 9464 ")
    assert Settings.from_env().metrics_port == 9464
    assert Settings.from_env().computer_pause == 3.0
    clean_env.setenv("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "0")
    assert Settings.from_env().computer_pause == 0.0
    clean_env.setenv("ZIGGURAT_COMPUTER_PAUSE_SECONDS", "1.5")
    assert Settings.from_env().computer_pause == 1.5
    assert Settings.from_env().draw_warmup == warm_drawing.WARM_SECONDS == 5.0
    clean_env.setenv("ZIGGURAT_DRAW_WARMUP_SECONDS", " 0 ")
    assert Settings.from_env().draw_warmup == 0.0
    clean_env.setenv("ZIGGURAT_DRAW_WARMUP_SECONDS", "2.5")
    assert Settings.from_env().draw_warmup == 2.5
    clean_env.setenv("ZIGGURAT_DRAW_WARMUP_SECONDS", "60")
    assert Settings.from_env().draw_warmup == 60.0
    assert Settings.from_env().kept_games == DEFAULT_KEPT_GAMES == 512
    clean_env.setenv("ZIGGURAT_KEPT_GAMES", " 0 ")
    assert Settings.from_env().kept_games == 0
    clean_env.setenv("ZIGGURAT_KEPT_GAMES", "1000000")
    assert Settings.from_env().kept_games == 1_000_000


def test_the_draw_warmup_limit_is_in_the_message(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("ZIGGURAT_DRAW_WARMUP_SECONDS", "90")
    _, [line] = run_main(capsys)
    assert "ZIGGURAT_DRAW_WARMUP_SECONDS='90'" in line
    assert f"from 0 to {MAX_DRAW_WARMUP:g}" in line


def test_empty_values_mean_the_defaults(clean_env: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        clean_env.setenv(name, "")
    assert Settings.from_env() == Settings(
        token=None,
        database=Path("./ziggurat.db"),
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24.0,
    )
    assert demo_dir() == "demo-boards"
    clean_env.setenv("ZIGGURAT_DEMO_DIR", "/data/demo")
    assert demo_dir() == "/data/demo"


def test_a_postgresql_url_is_kept_as_it_is_and_a_bad_one_named_without_its_password(
    clean_env: pytest.MonkeyPatch,
) -> None:
    url = "postgresql://ziggurat:s3cret@db.example:5432/ziggurat"
    clean_env.setenv("ZIGGURAT_DB", url)
    assert Settings.from_env().database == url  # not a Path: "//" would collapse
    assert database_problem(url) is None  # no file to check: the server is asked at start
    for bad in (
        "postgresql://ziggurat:s3cret@db.example",  # no database name
        "postgresql://ziggurat:s3cret@db.example:port/z",  # a port that is no number
        "mysql://ziggurat:s3cret@db.example/z",  # not a database the store knows
    ):
        clean_env.setenv("ZIGGURAT_DB", bad)
        with pytest.raises(ConfigError) as caught:
            Settings.from_env()
        [line] = caught.value.lines
        assert "ZIGGURAT_DB=" in line and "s3cret" not in line
        assert "ziggurat:***@db.example" in line


def test_config_error_carries_the_lines(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ZIGGURAT_TURN_DEADLINE_HOURS", "soon")
    with pytest.raises(ConfigError) as caught:
        Settings.from_env()
    assert len(caught.value.lines) == 1
    assert "ZIGGURAT_TURN_DEADLINE_HOURS='soon'" in str(caught.value)


# -- as a real process ------------------------------------------------------------------


def run_bot_process(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_bad_value_in_dotenv_stops_the_process_with_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nZIGGURAT_TURN_DEADLINE_HOURS=0\n")
    done = run_bot_process(tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        t(
            "en",
            "config.invalid",
            variable="ZIGGURAT_TURN_DEADLINE_HOURS",
            value="'0'",
            allowed=t(
                "en",
                "config.allowed.deadline",
                min=f"{MIN_DEADLINE_HOURS:g}",
                max=f"{MAX_DEADLINE_HOURS:g}",
            ),
        )
    ]


def test_an_unusable_database_path_stops_the_process_before_connecting(tmp_path: Path) -> None:
    """With a token set, the database is checked first: one line, nothing created."""
    (tmp_path / "a-file").write_text("not a folder")
    database = tmp_path / "a-file" / "ziggurat.db"
    done = run_bot_process(tmp_path, DISCORD_TOKEN=TOKEN, ZIGGURAT_DB=str(database))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        t("en", "config.db_folder_blocked", path=database, blocker=tmp_path / "a-file")
    ]


# -- the database checks -----------------------------------------------------------------


def test_database_problems_are_named(tmp_path: Path) -> None:
    assert database_problem(tmp_path / "new" / "deeper" / "ziggurat.db") is None
    assert database_problem(tmp_path / "ziggurat.db") is None
    assert database_problem(":memory:") is None
    assert database_problem(tmp_path) == t("en", "config.db_is_folder", path=tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert database_problem(blocker / "sub" / "z.db") == t(
        "en", "config.db_folder_blocked", path=blocker / "sub" / "z.db", blocker=blocker
    )
    (tmp_path / "z.db-wal").mkdir()
    problem = database_problem(tmp_path / "z.db")
    assert problem is not None and "z.db-wal" in problem


def _as_other_user(check: Callable[[], T]) -> T:
    """Run ``check()`` in a forked child as ``nobody`` (when root) and return its result."""
    import pickle

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop privileges, answer through the pipe, never return
        try:
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            payload = pickle.dumps(("ok", check()))
        except BaseException as exc:
            payload = pickle.dumps(("error", repr(exc)))
        os.write(write, payload)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    status, result = pickle.loads(data)
    assert status == "ok", result
    return result  # type: ignore[no-any-return]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork() to change user")
def test_an_unwritable_folder_is_named_with_the_user() -> None:
    """A folder the bot's user may not write: the check says so, and SQLite agrees."""
    import pwd  # noqa: F401  (imported before the fork: the child may not read the stdlib)
    import shutil
    import tempfile

    from bot.config import current_user

    # not under tmp_path: pytest's base folder is 0700, so "nobody" could not even look
    base = Path(tempfile.mkdtemp(prefix="ziggurat-perm-"))
    try:
        base.chmod(0o755)
        folder = base / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        database = folder / "ziggurat.db"
        _check_unwritable(database, folder, current_user)
    finally:
        shutil.rmtree(base)


def _check_unwritable(database: Path, folder: Path, current_user: Callable[[], str]) -> None:

    def check() -> tuple[str | None, str, str]:
        problem = database_problem(database)
        try:
            sqlite3.connect(database).execute("CREATE TABLE t (x)").close()
            sqlite_says = "wrote"
        except sqlite3.Error as exc:
            sqlite_says = str(exc)
        return problem, current_user(), sqlite_says

    problem, user, sqlite_says = _as_other_user(check)
    assert sqlite_says != "wrote"
    assert problem == t(
        "en", "config.db_folder_unwritable", path=database, folder=folder, user=user
    )
    assert "uid" in user


async def test_serve_reports_an_unusable_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked before connecting, and a file SQLite cannot open is reported the same way."""
    settings = Settings(
        token=TOKEN,
        database=tmp_path,
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )
    assert await serve(settings) == 2
    assert capsys.readouterr().err.splitlines() == [t("en", "config.db_is_folder", path=tmp_path)]

    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a SQLite database, just some bytes" * 100)
    settings = Settings(
        token=TOKEN,
        database=garbage,
        dev_guild_id=None,
        log_level="INFO",
        turn_deadline_hours=24,
    )
    assert await serve(settings) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("Database error: cannot open ")
    assert str(garbage) in line and "uid" in line


def test_the_readme_example_is_what_the_bot_prints(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    [example] = [line for line in readme.splitlines() if line.startswith("Configuration error:")]
    clean_env.setenv("ZIGGURAT_TURN_DEADLINE_HOURS", "a day")
    assert run_main(capsys) == (2, [example])


@pytest.mark.parametrize(
    ("shards", "ids"),
    [
        ("2", "2-2"),
        ("2", "1-0"),
        ("2", "a-b"),
        ("2", "-1"),
        ("2", "0-1-2"),
        ("auto", "0-0"),
        ("4", "0-4"),
    ],
)
def test_a_bad_shard_range_is_one_line_naming_it(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shards: str, ids: str
) -> None:
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv("ZIGGURAT_SHARDS", shards)
    clean_env.setenv("ZIGGURAT_SHARD_IDS", ids)
    code, lines = run_main(capsys)
    assert code == 2
    [line] = lines
    assert f"ZIGGURAT_SHARD_IDS={ids!r}" in line and "expected first-last" in line


def test_a_shard_range_is_this_process_part_of_the_cluster(clean_env: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().shard_range == ShardRange(1, 0, 0)  # unset: every shard
    assert Settings.from_env().shard_range.everything
    clean_env.setenv("ZIGGURAT_SHARDS", "4")
    clean_env.setenv("ZIGGURAT_SHARD_IDS", " 1 - 2 ")
    settings = Settings.from_env()
    assert settings.shard_ids == ShardRange(4, 1, 2)
    assert settings.shard_range.ids == [1, 2] and not settings.shard_range.everything
    clean_env.setenv("ZIGGURAT_SHARD_IDS", "3")
    assert Settings.from_env().shard_ids == ShardRange(4, 3, 3)
    clean_env.setenv("ZIGGURAT_SHARD_IDS", "0-3")
    assert Settings.from_env().shard_range.everything


def test_a_guild_belongs_to_the_process_running_its_shard() -> None:
    guilds = [(n << 22) | 12345 for n in range(8)]  # on shards 0..3, twice
    ranges = [ShardRange(4, 0, 1), ShardRange(4, 2, 3)]
    for guild in guilds:
        owners = [r for r in ranges if r.owns(guild)]
        assert len(owners) == 1
        assert owners[0].first <= shard_of(guild, 4) <= owners[0].last
    assert ShardRange(4, 0, 0).owns(None)  # no guild: shard 0, like a DM
    assert not ShardRange(4, 1, 3).owns(None)
    with pytest.raises(ValueError):
        ShardRange(2, 1, 2)
