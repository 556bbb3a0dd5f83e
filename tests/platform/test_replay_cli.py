"""``python -m bot replay FILE --out DIR``: an exported game's boards, drawn again offline."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

from bot import games
from bot.__main__ import main
from bot.i18n import t
from bot.service import GameService
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL
from tests.support.after_play import Clock, play_out, start_game

CHANNEL = 7101


@pytest.fixture
async def exported(store: Store, tmp_path: Path) -> tuple[Path, list[bytes]]:
    """A finished Oracle game's record file, and the boards its channel was shown."""
    clock = Clock()
    service = GameService(store, games.REGISTRY, clock=clock)
    players = (ALICE, BOB, CAROL)
    played = await start_game(service, CHANNEL, "oracle", players, seed=11)
    await play_out(service, CHANNEL, players, random.Random(11), clock, played)
    export = await service.after.export(CHANNEL)
    path = tmp_path / export.record_name
    path.write_bytes(export.record)
    return path, played.boards


def test_replay_writes_every_board_the_channel_saw(
    exported: tuple[Path, list[bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, posted = exported
    out = tmp_path / "boards"
    assert main(["replay", str(record), "--out", str(out)]) == 0
    written = sorted(out.glob("board-*.png"))
    assert [p.read_bytes() for p in written] == posted  # byte for byte
    index = (out / "index.txt").read_text("utf-8").splitlines()
    assert index[0] == f"board-000.png\t{t('en', 'after.replay.start')}"
    assert len(index) == len(posted)
    gif = Image.open(io.BytesIO((out / "replay.gif").read_bytes()))
    assert gif.format == "GIF"
    assert capsys.readouterr().out.strip() == t(
        "en", "after.replay.done", count=len(posted), game="oracle", path=out
    )
    # a second run never overwrites: it writes into a fresh folder inside
    assert main(["replay", str(record), "--out", str(out)]) == 0
    assert sorted(p.name for p in (out / "replay-1").glob("board-*.png")) == [
        p.name for p in written
    ]


def _bad(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / f"bad-{len(list(tmp_path.glob('bad-*')))}.json"
    path.write_bytes(data)
    return path


def test_bad_files_are_refused_in_one_line(
    exported: tuple[Path, list[bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, _ = exported
    doc = json.loads(record.read_bytes())
    refused_move = dict(doc, moves=[dict(doc["moves"][0], action="play 99")])
    cases = [
        (tmp_path / "missing.json", "after.replay.cannot_read"),
        (_bad(tmp_path, b"not json"), "after.replay.not_json"),
        (_bad(tmp_path, b'{"format": "something else"}'), "after.replay.not_a_record"),
        (_bad(tmp_path, json.dumps(refused_move).encode()), "after.replay.bad_move"),
    ]
    out = tmp_path / "never"
    for path, key in cases:
        assert main(["replay", str(path), "--out", str(out)]) == 2
        captured = capsys.readouterr()
        lines = captured.err.splitlines()
        assert len(lines) == 1, captured.err
        english = t("en", key).split("{")[0]
        assert lines[0].startswith(english), (lines[0], english)
        assert captured.out == ""
    assert not out.exists()  # nothing written for a bad file
    # a file where the folder should be
    (tmp_path / "taken").write_text("x")
    assert main(["replay", str(record), "--out", str(tmp_path / "taken")]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    # a missing argument: one line too
    with pytest.raises(SystemExit) as usage:
        main(["replay"])
    assert usage.value.code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
