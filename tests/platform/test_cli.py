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
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert len(boards) == 13  # the start and 12 moves
    for board in boards:
        assert Image.open(board).format == "PNG"


async def test_demo_refuses_an_unknown_game_and_a_bad_player_count(tmp_path: Path) -> None:
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert await run_demo("chess", 3, 1, tmp_path) == 2
        assert await run_demo("oracle", 9, 1, tmp_path) == 2
    assert "Unknown game chess" in printed.getvalue()
    assert "2 to 4 players" in printed.getvalue()
