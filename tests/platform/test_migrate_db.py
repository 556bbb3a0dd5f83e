"""``python -m bot migrate-db``: a SQLite file copied into a real PostgreSQL server.

The source is made by the service itself (product games played with undos,
an abandoned game, a lobby, a game with a computer seat, timers, kept
messages, choices, closed DMs); the
command runs in-process as an admin types it; the copy is then read back
through the PostgreSQL store and must equal the file, row for row.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path

import pytest

from bot import plugins
from bot.__main__ import main
from bot.i18n import t
from bot.service import GameService, Player, Refusal
from bot.store import Store
from tests.support.postgres import PostgresServer

REGISTRY = plugins.load_builtin_games()
ANN, BO = Player(201, "Ann"), Player(202, "Bo")


async def _play(service: GameService, channel: int, game: str, steps: int, **options: str) -> None:
    rng = random.Random(channel)
    await service.lobby.new_game(
        guild_id=1, channel_id=channel, user=ANN, game_type_name=game, options=options, seed=7
    )
    await service.lobby.join(channel, BO)
    await service.lobby.start(channel, ANN)
    for _ in range(steps):
        for player in (ANN, BO):
            legal = await service.reading.legal_actions(channel, player)
            if legal:
                await service.play.act(channel, player, str(rng.choice(legal)))
                if rng.random() < 0.2:
                    with contextlib.suppress(Refusal):
                        await service.play.undo(channel, player)
                break


async def _make_source(path: Path) -> dict[int, tuple[object, ...]]:
    """A SQLite file with every kind of row; each game's stored rows."""
    store = await Store.open(path)
    try:
        service = GameService(store, REGISTRY, render=False)
        await _play(service, 1, "tigris", 25, clock="1d")
        await _play(service, 2, "tikal", 12, mode="mini")
        await service.lobby.abandon(2, ANN, can_manage_channel=True, confirmed=True)
        await service.lobby.new_game(guild_id=1, channel_id=3, user=BO, game_type_name="temple")
        await store.set_notify(ANN.id, "dm")
        await store.mark_dms_closed(BO.id)
        await store.note_dm_announcement(BO.id, 1)
        await store.set_message(1, "tally", 1, 99)
        await store.add_timer(5.0, "sweep", None, {"why": "a timer of no game"})
        # a game with a computer seat: its level, its moves in the log, its move timer
        table = GameService(store, REGISTRY, render=False, computer_pause=0.0)
        await table.lobby.new_game(
            guild_id=1, channel_id=5, user=ANN, game_type_name="tigris", seed=3
        )
        await table.lobby.add_computer(5, ANN, "easy")
        await table.lobby.start(5, ANN)
        rng = random.Random(5)
        for _ in range(6):
            await table.timers.fire_due_timers()
            with contextlib.suppress(Refusal):
                legal = await table.reading.legal_actions(5, ANN)
                if legal:
                    await table.play.act(5, ANN, str(rng.choice(legal)))
        computer = await store.get_game(4)
        assert computer is not None
        assert sorted(str(seat.computer) for seat in computer.seats) == ["None", "easy"]
        assert "computer" in {move.kind for move in await store.moves(4)}
        return {game_id: await store.raw_game(game_id) for game_id in (1, 2, 3, 4)}
    finally:
        await store.close()


def _migrate(target: str, source: Path) -> int:
    return main(["migrate-db", "--to", target, "--from", str(source)])


def test_every_row_is_copied_verified_and_the_copy_plays_on(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "z.db"
    stored = asyncio.run(_make_source(source))
    name = postgres_server.create_database(migrated=False)
    target = postgres_server.url(name)
    try:
        assert _migrate(target, source) == 0
        out = capsys.readouterr().out.strip().splitlines()
        with sqlite3.connect(source) as raw:
            count = {
                table: raw.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("games", "seats", "moves", "timers")
            }
        assert count["moves"] > 20 and count["timers"] >= 2
        assert out == [
            t(
                "en",
                "app.migrate_done",
                source=source,
                target=target,
                games=4,
                seats=count["seats"],
                moves=count["moves"],
                timers=count["timers"],
                messages=1,
                prefs=1,
                dms=1,
                replayed=3,
            )
        ]

        async def check() -> None:
            store = await Store.open(target)
            try:
                for game_id, rows in stored.items():
                    assert await store.raw_game(game_id) == rows  # row for row, byte for byte
                assert await store.notify_choices([ANN.id]) == {ANN.id: "dm"}
                assert await store.dms_closed(BO.id)
                assert not await store.note_dm_announcement(BO.id, 1)  # already told
                assert await store.message(1, "tally") == (1, 99)
                service = GameService(store, REGISTRY, render=False)
                # the copied game plays on, and new rows continue after the copied ids
                legal = await service.reading.legal_actions(
                    1, ANN
                ) or await service.reading.legal_actions(1, BO)
                assert legal
                lobby = await store.create_game(
                    guild_id=1,
                    channel_id=6,
                    game_type="tigris",
                    creator_id=ANN.id,
                    creator_name="Ann",
                    options={},
                    seed=1,
                )
                assert lobby.id == 5
                timer_ids = [timer.id for timer in await store.timers()]
                assert await store.add_timer(9.0, "sweep", None) == max(timer_ids) + 1
            finally:
                await store.close()

        asyncio.run(check())
    finally:
        postgres_server.drop_database(name)


def test_a_database_that_is_not_empty_is_refused_with_one_line(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "z.db"
    asyncio.run(_make_source(source))
    name = postgres_server.create_database()
    target = postgres_server.url(name)
    try:
        assert _migrate(target, source) == 0
        capsys.readouterr()
        assert _migrate(target, source) == 2  # a second run: the target holds the first
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "migrate-db refused" in err[0] and name in err[0]
    finally:
        postgres_server.drop_database(name)


def test_a_copy_that_does_not_replay_is_rolled_back(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log that lost its last move no longer replays to the stored state: exit 1, and
    the target is left empty, so the command can run again once the file is mended."""
    source = tmp_path / "z.db"
    asyncio.run(_make_source(source))
    with sqlite3.connect(source) as raw:
        raw.execute("DELETE FROM moves WHERE game_id = 1 AND seq = (SELECT MAX(seq) FROM moves)")
    name = postgres_server.create_database()
    target = postgres_server.url(name)
    try:
        assert _migrate(target, source) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "game 1 (tigris)" in err[0]
        assert postgres_server.sql("SELECT count(*) FROM games", name).strip() == "0"
    finally:
        postgres_server.drop_database(name)


def test_a_target_that_is_not_postgresql_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "z.db"
    asyncio.run(_make_source(source))
    assert _migrate("sqlite:///copy.db", source) == 2
    assert _migrate("postgresql://ann:s3cret@db.example", source) == 2  # no database name
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all("--to" in line and "s3cret" not in line for line in err)


def test_names_postgresql_cannot_hold_are_cleaned_on_the_copy(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file written before names were cleaned holds NUL and other control characters
    in display names (SQLite keeps them, PostgreSQL refuses NUL): the copy cleans them
    as the bot now cleans every name, says so, and still verifies every replay."""
    source = tmp_path / "z.db"
    asyncio.run(_make_source(source))
    with sqlite3.connect(source) as raw:
        raw.execute(
            "UPDATE seats SET display_name = ? WHERE game_id = 1 AND user_id = ?",
            ("A\x00nn\x1b", ANN.id),
        )
        raw.execute(
            "UPDATE seats SET display_name = ? WHERE game_id = 1 AND user_id = ?",
            ("\x00\x07", BO.id),
        )
    name = postgres_server.create_database(migrated=False)
    target = postgres_server.url(name)
    try:
        assert _migrate(target, source) == 0
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) == 2 and out[0].endswith("to their stored state.")
        assert out[1] == t("en", "app.migrate_cleaned", count=2)

        async def names() -> list[str]:
            store = await Store.open(target)
            try:
                row = await store.get_game(1)
                assert row is not None
                return sorted(seat.display_name for seat in row.seats)
            finally:
                await store.close()

        assert asyncio.run(names()) == ["Ann", f"Player {BO.id:04d}"]
    finally:
        postgres_server.drop_database(name)
