"""``python -m bot replay FILE --out DIR``: every board of an exported game, drawn again.

Decisions:

* It reads a record written by ``/game export`` (:mod:`bot.service.record`),
  checks all of it, replays it with the game's engine, offline, and writes
  each public board as a PNG — ``board-000.png`` is the start, then one per
  publication point, in the record's language — with ``replay.gif`` (every
  board at full size: there is no upload limit here) and ``index.txt``
  saying which move each board follows (in public notation).
* Like the demo it never overwrites: the files go to ``--out`` itself when
  it does not exist or is empty, else to a new ``replay-N`` folder inside
  it (default ``replay-boards``).
* A file that cannot be read, is not a record, or does not replay (a field
  missing, a move the rules refuse) gets one line on stderr naming the
  problem, and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot import games, plugins
from bot.i18n import t
from bot.service.animation import animate
from bot.service.record import RecordError, boards, parse_record

DEFAULT_OUT = "replay-boards"
ANIMATION = "replay.gif"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record written by /game export (.json)")
    parser.add_argument(
        "--out", default=DEFAULT_OUT, help=f"folder for the boards (default: {DEFAULT_OUT})"
    )


def fresh_folder(out: Path) -> Path:
    """``out`` if it is new or empty, else a new ``out/replay-N``; created, never emptied."""
    try:
        if out.exists() and not out.is_dir():
            raise RecordError("after.replay.not_a_folder", path=out)
        if out.is_dir() and any(out.iterdir()):
            number = 1
            while (out / f"replay-{number}").exists():
                number += 1
            out = out / f"replay-{number}"
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or error
        raise RecordError("after.replay.cannot_write", path=out, reason=reason) from None
    return out


def replay_file(path: Path, out: Path) -> int:
    """Rebuild every board of the record at ``path`` into a fresh folder under ``out``."""
    registry = games.REGISTRY or plugins.load_builtin_games()
    try:
        data = path.read_bytes()
    except OSError as error:
        reason = error.strerror or error
        raise RecordError("after.replay.cannot_read", path=path, reason=reason) from None
    record = parse_record(data, registry)
    game_type = registry[record.game]
    engine = game_type.engine
    shown, _ = boards(engine, len(record.seats), record.options, record.seed, record.moves)
    labels = record.labels()
    pngs = [game_type.render_public(b.view, labels, record.language) for b in shown]
    animation = animate(pngs)
    folder = fresh_folder(out)
    moves = {m.seq: m for m in record.moves}
    index: list[str] = []
    try:
        for number, (board, png) in enumerate(zip(shown, pngs, strict=True)):
            name = f"board-{number:03d}.png"
            (folder / name).write_bytes(png)
            move = moves.get(board.seq)
            if move is None:
                line = t("en", "after.replay.start")
            else:
                action = engine.public_notation(engine.parse_action(move.action))
                player = record.seats[move.seat].name
                line = t(
                    "en", "after.replay.after_move", seq=move.seq, player=player, action=action
                )
            index.append(f"{name}\t{line}")
        if animation is not None:
            (folder / ANIMATION).write_bytes(animation.data)
        (folder / "index.txt").write_text("\n".join(index) + "\n", encoding="utf-8")
    except OSError as error:
        reason = error.strerror or error
        raise RecordError("after.replay.cannot_write", path=folder, reason=reason) from None
    print(t("en", "after.replay.done", count=len(pngs), game=record.game, path=folder))
    return 0


def main(args: argparse.Namespace) -> int:
    try:
        return replay_file(Path(args.file), Path(args.out))
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 2
