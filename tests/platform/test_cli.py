"""The command line: the token message and the offline demo."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

from PIL import Image

from bot.demo import run_demo

ROOT = Path(__file__).resolve().parents[2]


def _run_bot_without_token(folder: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``folder`` with no DISCORD_TOKEN in the environment."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_the_bot_explains_and_exits_non_zero(tmp_path: Path) -> None:
    done = _run_bot_without_token(tmp_path)
    assert done.returncode != 0
    assert "DISCORD_TOKEN" in done.stderr
    assert "python -m bot demo" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_empty_token_in_dotenv_is_no_token(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nZIGGURAT_DB=elsewhere.db\n")
    done = _run_bot_without_token(tmp_path)
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr


async def test_demo_plays_a_whole_game_and_ends_with_the_ranking(tmp_path: Path) -> None:
    printed = io.StringIO()
    with redirect_stdout(printed):
        code = await run_demo("oracle", 3, 5, tmp_path / "boards")
    lines = printed.getvalue().strip().splitlines()
    assert code == 0
    assert lines[-1].startswith("Final ranking: 1. ")
    folder = tmp_path / "boards"
    images = sorted(folder.glob("*.png"))
    index = (folder / "index.txt").read_text("utf-8").splitlines()
    assert [line.split("\t")[0] for line in index] == [p.name for p in images]
    boards = [p for p in images if p.name.endswith("-board.png")]
    # one public board per hand-off: the start, three reveals and three choices
    assert len(boards) == 7
    assert any(p.name.endswith("-private.png") for p in images)  # the hands, by DM
    assert any(p.name.endswith("-preview.png") for p in images)  # sealed-card previews
    for image in images:
        assert Image.open(image).format == "PNG"


async def test_demo_never_touches_what_it_did_not_create(tmp_path: Path) -> None:
    keep = tmp_path / "board.png"
    keep.write_bytes(b"the README's image")
    with redirect_stdout(io.StringIO()):
        assert await run_demo("ORACLE", "2", "7", tmp_path) == 0
        assert await run_demo("oracle", "2", "7", tmp_path) == 0
    assert keep.read_bytes() == b"the README's image"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png", "demo-1", "demo-2"]
    first = sorted(p.name for p in (tmp_path / "demo-1").iterdir())
    assert first == sorted(p.name for p in (tmp_path / "demo-2").iterdir())  # same seed


async def test_demo_refuses_bad_arguments_in_one_line(tmp_path: Path, capsys) -> None:
    cases = [
        (("chess", 3, 1, tmp_path / "a"), "Unknown game chess"),
        (("oracle", 9, 1, tmp_path / "b"), "Oracle (test game) is played by 2 to 4 players"),
        (("oracle", 3, "-1", tmp_path / "c"), "--seed must be a whole number from 0"),
        (("oracle", 3, "99999999999999999999", tmp_path / "d"), "--seed"),
        (("oracle", "²", 1, tmp_path / "e"), "--players"),
        (("oracle", 3, 1, tmp_path / "f", ("style=loud",)), "not a valid value for style"),
        (("oracle", 3, 1, tmp_path / "g", ("style",)), "--option takes NAME=VALUE"),
    ]
    for args, expected in cases:
        assert await run_demo(*args) == 2
        err = capsys.readouterr().err.strip()
        assert expected in err and len(err.splitlines()) == 1, err
    file = tmp_path / "file"
    file.write_text("x")
    assert await run_demo("oracle", 3, 1, file) == 2
    assert "is a file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing was created


def test_bad_command_line_arguments_get_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--nonsense"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "--nonsense" in done.stderr
