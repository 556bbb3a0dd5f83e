"""Admin commands on real SQLite files: backup of a live database, forget-guild, the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.admin import backup, backup_name, forget_guild, required_permissions
from bot.i18n import t
from bot.store import GameRow, NewMove, StepWrite, Store

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1111
OTHER_GUILD = 2222
MARKER = "Forget-Me-Marker-Name"


async def running_game(
    store: Store, *, guild: int, channel: int, names: tuple[str, str]
) -> GameRow:
    game = await store.create_game(
        guild_id=guild,
        channel_id=channel,
        game_type="oracle",
        creator_id=channel * 10,
        creator_name=names[0],
        options={},
        seed=5,
    )
    await store.add_seat(game, channel * 10 + 1, names[1])
    lobby = await store.get_game(game.id)
    assert lobby is not None
    await store.start_game(lobby, {"n": 0}, [channel * 10 + 1, channel * 10], ["#111", "#222"])
    started = await store.get_game(game.id)
    assert started is not None
    return started


async def play(store: Store, game: GameRow, moves: int) -> GameRow:
    """``moves`` moves, each committed with a state counting them (``{"n": k}``)."""
    for _ in range(moves):
        n = game.state["n"] + 1
        await store.commit_step(
            game,
            StepWrite(
                state={"n": n},
                status="running",
                moves=[NewMove(0, f"move {n}")],
                waiting_changed=True,
                reminder=1e12,
            ),
        )
        reloaded = await store.get_game(game.id)
        assert reloaded is not None
        game = reloaded
    return game


def read(path: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(sql, params).fetchall()


# -- backup ---------------------------------------------------------------------------------


async def test_backup_while_another_connection_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy is a consistent snapshot: every game's state matches its move log."""
    database = tmp_path / "live.db"
    store = await Store.open(database)
    stop = asyncio.Event()
    written = 0
    progress = asyncio.Event()

    async def writer() -> None:
        nonlocal written
        game = await running_game(store, guild=GUILD, channel=1, names=("Ann", "Ben"))
        while not stop.is_set():
            game = await play(store, game, 1)
            written += 1
            if written % 10 == 0:
                # a fresh game now and then, with its seats, in its own transactions
                await running_game(store, guild=GUILD, channel=100 + written, names=("C", "D"))
            progress.set()

    async def written_at_least(count: int) -> None:
        while written < count:
            progress.clear()
            await progress.wait()

    task = asyncio.create_task(writer())
    try:
        await asyncio.wait_for(written_at_least(30), 30)
        at_start = written
        code = await backup(database, tmp_path / "backups" / "copy.db")
        at_end = written
        await asyncio.wait_for(written_at_least(at_end + 5), 30)  # the writer was not blocked
    finally:
        stop.set()
        await task
        await store.close()
    assert code == 0
    copy = tmp_path / "backups" / "copy.db"
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"Backed up {database} to {copy}: ")
    assert read(copy, "PRAGMA integrity_check") == [("ok",)]
    states = read(copy, "SELECT id, state FROM games WHERE state IS NOT NULL")
    for game_id, state in states:
        [(moves,)] = read(copy, "SELECT count(*) FROM moves WHERE game_id = ?", game_id)
        assert json.loads(state)["n"] == moves  # no move without its state, nor the reverse
        [(seats,)] = read(copy, "SELECT count(*) FROM seats WHERE game_id = ?", game_id)
        assert seats == 2
    [(copied,)] = read(copy, "SELECT count(*) FROM moves")
    assert at_start <= copied <= at_end  # taken during the writes
    [(total,)] = read(database, "SELECT count(*) FROM moves")
    assert total > copied
    assert not list((tmp_path / "backups").glob(".*"))  # no partial file left


async def test_backup_refuses_to_overwrite_and_names_files_in_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "z.db"
    store = await Store.open(database)
    await store.close()
    existing = tmp_path / "old.db"
    existing.write_text("precious")
    assert await backup(database, existing) == 2
    assert capsys.readouterr().err.splitlines() == [t("en", "app.backup_exists", dest=existing)]
    assert existing.read_text() == "precious"

    folder = tmp_path / "nightly"
    folder.mkdir()
    moment = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    assert await backup(database, folder, now=lambda: moment) == 0
    assert [p.name for p in folder.iterdir()] == [backup_name(moment)]
    assert backup_name(moment) == "ziggurat-20260304-050607.db"

    later = datetime(2026, 3, 4, 5, 6, 8, tzinfo=UTC)
    assert await backup(database, f"{tmp_path}/new/folder/", now=lambda: later) == 0
    assert [p.name for p in (tmp_path / "new" / "folder").iterdir()] == [backup_name(later)]

    assert await backup(tmp_path / "missing.db", tmp_path / "x.db") == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()


async def test_backup_of_a_file_that_is_not_a_database_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not sqlite" * 500)
    assert await backup(garbage, tmp_path / "copy.db") == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("Backup error: could not write ")
    assert not (tmp_path / "copy.db").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["garbage.db"]


# -- forget-guild ------------------------------------------------------------------------------


async def test_forget_guild_deletes_its_games_and_everything_hanging_on_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "z.db"
    store = await Store.open(database)
    try:
        forgotten = [
            await running_game(store, guild=GUILD, channel=1, names=(MARKER, "Ben")),
            await running_game(store, guild=GUILD, channel=2, names=("Ann", "Ben")),
        ]
        kept = await running_game(store, guild=OTHER_GUILD, channel=3, names=("Cat", "Dan"))
        for game in forgotten:
            await play(store, game, 3)  # each move arms the game's reminder
        await play(store, kept, 2)
        for user_id in (10, 31):  # Ann of guild 1 only; Dan of the other guild
            await store.mark_dms_closed(user_id)
    finally:
        await store.close()

    assert await forget_guild(database, GUILD) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert line == t(
        "en",
        "app.forget_guild_done",
        games=2,
        guild=GUILD,
        path=database,
        seats=4,
        moves=6,
        timers=2,
        users=1,
    )
    assert read(database, "SELECT id FROM games") == [(kept.id,)]
    assert read(database, "SELECT DISTINCT game_id FROM seats") == [(kept.id,)]
    assert read(database, "SELECT DISTINCT game_id FROM moves") == [(kept.id,)]
    assert read(database, "SELECT game_id FROM timers") == [(kept.id,)]
    assert read(database, "SELECT user_id FROM closed_dms") == [(31,)]
    assert read(database, "PRAGMA integrity_check") == [("ok",)]
    # gone from the file itself, not merely unlinked (secure_delete + WAL checkpoint)
    files = [p for p in tmp_path.iterdir() if p.name.startswith("z.db")]
    assert all(MARKER.encode() not in p.read_bytes() for p in files)

    assert await forget_guild(database, GUILD) == 0  # again: nothing left to delete
    assert capsys.readouterr().out.startswith("Deleted 0 games")
    assert read(database, "SELECT count(*) FROM games") == [(1,)]


# -- the command line --------------------------------------------------------------------------


def run_cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "ZIGGURAT_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
async def test_the_admin_commands_from_the_command_line(tmp_path: Path) -> None:
    database = tmp_path / "data" / "ziggurat.db"
    store = await Store.open(database)
    await running_game(store, guild=GUILD, channel=1, names=("Ann", "Ben"))
    await store.close()
    env = {"ZIGGURAT_DB": str(database)}

    done = run_cli(tmp_path, "backup", "backup.db", **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Backed up {database} to backup.db: 1 game, ")
    assert done.stderr == ""
    done = run_cli(tmp_path, "backup", "backup.db", **env)
    assert (done.returncode, done.stderr.strip()) == (
        2,
        t("en", "app.backup_exists", dest="backup.db"),
    )

    done = run_cli(tmp_path, "forget-guild", "not-a-number", **env)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [t("en", "app.bad_guild_arg", value="'not-a-number'")]
    done = run_cli(tmp_path, "forget-guild", str(GUILD), **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Deleted 1 game of server {GUILD} ")

    done = run_cli(tmp_path, "clear-dev-commands", "123", **env)
    assert (done.returncode, done.stderr.strip()) == (2, t("en", "app.admin_needs_token"))
    done = run_cli(
        tmp_path, "clear-dev-commands", "123", ZIGGURAT_DEV_GUILD_ID="123", DISCORD_TOKEN="x" * 30
    )
    assert (done.returncode, done.stderr.strip()) == (
        2,
        t("en", "app.clear_commands_still_dev", guild=123),
    )
    for done in (
        run_cli(tmp_path, "backup", "b2.db", ZIGGURAT_DB=str(tmp_path / "none.db")),
        run_cli(tmp_path, "backup", "b2.db", ZIGGURAT_TURN_DEADLINE_HOURS="0"),
    ):
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
        assert "Traceback" not in done.stderr


# -- permissions ---------------------------------------------------------------------------------


def test_the_readme_invite_url_asks_for_exactly_the_required_permissions() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    integers = set(re.findall(r"permissions=(\d+)", readme))
    integers |= set(re.findall(r"permission integer `(\d+)`", readme))
    assert integers == {str(required_permissions())}
    import discord

    asked = discord.Permissions(required_permissions())
    assert not asked.embed_links and not asked.read_message_history
    assert asked.send_messages and asked.attach_files and asked.create_public_threads


# -- the Docker image's inputs (no Docker engine needed) ------------------------------------


def dockerignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """``.dockerignore`` as (negated, regex) pairs, in order."""
    patterns: list[tuple[bool, re.Pattern[str]]] = []
    for raw in (ROOT / ".dockerignore").read_text("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        glob = line.lstrip("!").strip("/")
        regex = ""
        i = 0
        while i < len(glob):
            if glob.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif glob.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif glob[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif glob[i] == "?":
                regex, i = regex + "[^/]", i + 1
            elif glob[i] == "[":
                end = glob.index("]", i)
                regex, i = regex + glob[i : end + 1], end + 1
            else:
                regex, i = regex + re.escape(glob[i]), i + 1
        patterns.append((negated, re.compile(regex)))
    return patterns


def sent_to_docker(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    included = True
    for negated, pattern in patterns:
        if any(pattern.fullmatch(candidate) for candidate in candidates):
            included = negated
    return included


def test_dockerignore_sends_only_the_package_sources() -> None:
    patterns = dockerignore_patterns()
    for path in (
        "pyproject.toml",
        "README.md",
        "bot/__main__.py",
        "bot/discord/client.py",
        "bot/i18n/locales/en/cmd.json",
        "renderer/tigris.py",
    ):
        assert sent_to_docker(path, patterns), path
    for path in (
        ".git/HEAD",
        ".venv/bin/python",
        ".env",
        ".env.example",
        "tests/platform/test_admin.py",
        "tests/support/oracle.py",
        "docs/admin.md",
        "scripts/bench_tigris.py",
        "samples/game.json",
        "build/lib/bot/__init__.py",
        "dist/ziggurat-0.1.0.whl",
        "ziggurat.egg-info/PKG-INFO",
        "bot/__pycache__/config.cpython-311.pyc",
        "bot/discord/__pycache__/client.cpython-311.pyc",
        "renderer/build/x",
        "ziggurat.db",
        "ziggurat.db-wal",
        "demo-boards/0001.png",
        "Dockerfile",
        ".pytest_cache/v/cache",
    ):
        assert not sent_to_docker(path, patterns), path
    # every file of the package is sent (fonts and catalogs included)
    for folder in ("bot", "renderer"):
        for file in (ROOT / folder).rglob("*"):
            relative = file.relative_to(ROOT).as_posix()
            if file.is_file() and "__pycache__" not in relative:
                assert sent_to_docker(relative, patterns), relative


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of the Dockerfile, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text("utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, rest = line.partition(" ")
            out.append((instruction.upper(), " ".join(rest.split())))
    return out


def test_dockerfile_layers_user_and_data() -> None:
    steps = dockerfile()
    patterns = dockerignore_patterns()
    copies = [args.split()[:-1] for op, args in steps if op == "COPY"]
    for sources in copies:
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such path"
            assert sent_to_docker(source, patterns), f"COPY {source} is in .dockerignore"
    order = [f"{op} {args}" for op, args in steps]

    def index(prefix: str) -> int:
        return next(n for n, step in enumerate(order) if step.startswith(prefix))

    deps = index("RUN python -c")
    assert "pip install -r" in order[deps]
    assert index("COPY pyproject.toml") < deps < index("COPY bot")
    install = index("RUN pip install --no-deps .")
    assert index("COPY renderer") < install < index("USER")
    assert "rm -rf /src" in order[install]
    env = " ".join(args for op, args in steps if op == "ENV")
    assert "ZIGGURAT_DB=/data/ziggurat.db" in env
    assert "ZIGGURAT_DEMO_DIR=/data/" in env
    [user] = [args for op, args in steps if op == "USER"]
    assert user not in ("root", "0")
    assert "--uid 10001" in order[index("RUN groupadd")]
    assert ("VOLUME", '["/data"]') in steps
    assert steps[-3] == ("WORKDIR", "/data")
    # the uid the admin is told to give a bind-mounted /data
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "10001" in readme
    assert "10001" in t("en", "config.db_folder_unwritable", path="", folder="", user="")


def test_env_example_sets_only_the_token() -> None:
    """``docker run --env-file .env`` must not move what the image sets (the database)."""
    lines = (ROOT / ".env.example").read_text("utf-8").splitlines()
    assignments = [line for line in lines if line.strip() and not line.startswith("#")]
    assert assignments == ["DISCORD_TOKEN="]
    commented = {line[2:].split("=")[0] for line in lines if re.match(r"# [A-Z_]+=", line)}
    assert commented == {
        "ZIGGURAT_DB",
        "ZIGGURAT_DEV_GUILD_ID",
        "ZIGGURAT_LOG_LEVEL",
        "ZIGGURAT_TURN_DEADLINE_HOURS",
        "ZIGGURAT_SHARDS",
        "ZIGGURAT_METRICS_PORT",
        "ZIGGURAT_SHARD_IDS",
        "ZIGGURAT_COMPUTER_PAUSE_SECONDS",
        "ZIGGURAT_DRAW_WARMUP_SECONDS",
        "ZIGGURAT_KEPT_GAMES",
        "ZIGGURAT_EVENT_LOOP",
    }
    # each commented line shows the default
    for line in lines:
        if line.startswith("# ZIGGURAT_"):
            name, _, value = line[2:].partition("=")
            defaults = {
                "ZIGGURAT_DB": "./ziggurat.db",
                "ZIGGURAT_LOG_LEVEL": "INFO",
                "ZIGGURAT_TURN_DEADLINE_HOURS": "24",
                "ZIGGURAT_COMPUTER_PAUSE_SECONDS": "3",
                "ZIGGURAT_DRAW_WARMUP_SECONDS": "5",
                "ZIGGURAT_KEPT_GAMES": "512",
                "ZIGGURAT_EVENT_LOOP": "uvloop",
            }
            assert value == defaults.get(name, ""), line


@pytest.mark.slow
async def test_check_names_a_game_awaiting_a_seat_with_nothing_to_move_it(tmp_path: Path) -> None:
    """``python -m bot check`` reads the file and changes nothing: a well game passes
    (exit 0); one whose timers were lost is named (exit 1) until the start-up repair."""
    from bot.plugins import load_builtin_games
    from bot.service import GameService
    from tests.conftest import ALICE, CHANNEL, GUILD
    from tests.support import raw_sql

    database = tmp_path / "ziggurat.db"
    store = await Store.open(database)
    service = GameService(store, load_builtin_games(), render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="tigris", options={}, seed=3
    )
    await service.lobby.add_computer(CHANNEL, ALICE, "easy")
    await service.lobby.start(CHANNEL, ALICE)
    row = await store.latest_game_in(CHANNEL)
    assert row is not None
    await store.close()

    well = run_cli(tmp_path, "check", ZIGGURAT_DB=str(database))
    assert well.returncode == 0, well.stderr
    assert well.stdout.strip() == t("en", "app.check_done", count=0, games=1)

    store = await Store.open(database)
    await raw_sql.execute(store, "DELETE FROM timers WHERE game_id = ?", row.id)
    await store.close()
    lost = run_cli(tmp_path, "check", ZIGGURAT_DB=str(database))
    assert lost.returncode == 1, lost.stderr
    first, last = lost.stdout.strip().splitlines()[0], lost.stdout.strip().splitlines()[-1]
    assert first.startswith(t("en", "app.check_unmoved", game=row.id, timers="").split("(")[0])
    assert last == t("en", "app.check_done", count=1, games=1)

    store = await Store.open(database)
    service = GameService(store, load_builtin_games(), render=False)
    assert await service.timers.repair_timers() == 1
    await store.close()
    assert run_cli(tmp_path, "check", ZIGGURAT_DB=str(database)).returncode == 0

    missing = run_cli(tmp_path, "check", ZIGGURAT_DB=str(tmp_path / "none.db"))
    assert missing.returncode == 2 and "none.db" in missing.stderr
