"""The record of a game that is over: what `/game export` sends, `python -m bot replay` reads.

A record is one JSON document: the game type, seed, lobby options, language,
the seats in order (name, colour, place, score) and the move rows (seq,
seat, action, its public notation, kind, checkpoint, created_at and whether
a board was published after it). From it the engine rebuilds every state,
so every public board of the game can be drawn again, offline.

Decisions:

* **Only games that are over.** The seed makes every draw of the game
  derivable (the tile bag, every hand), so the record of a running game
  would give hidden information away; once a game is finished or
  abandoned nothing can be gained from it any more. ``/game export``
  therefore exports the channel's last game that is over and refuses while
  the only game there is still running.
* **Only published rows.** A record holds the steps that stand and were
  published (``seq <= published_seq``): steps taken back — and their undo
  rows — were only ever previewed to their player, and an abandoned game's
  steps after its last public message (a turn in progress, the sealed
  submissions of a round never revealed) never became public. Replaying
  the standing steps gives the same states as replaying the whole log: an
  undo never crosses a checkpoint, and nothing after a checkpoint draws at
  random (:mod:`bot.service.replay`).
* **Publication points, the rule.** The boards of a record are the public
  board at the start and after every row where the live game posted its
  public message: a row of kind ``move`` whose step handed the game over or
  ended it — decided by :func:`~bot.service.outcome.classify` on the states
  before and after it, exactly as :mod:`bot.service.play` decides it — and
  the last row of each batch of rows of another kind (a deadline's
  ``timeout`` actions are committed together, so they share their
  ``created_at``). The e2e tests check that these boards are byte for byte
  the boards the bot posted.
* Boards are drawn from ``public_view`` alone, with the seats' names and
  colours and the game's language, as the live game draws them.
* Reading a record checks everything before replaying: a bad file is
  refused with one line (:class:`RecordError`) naming the first problem —
  a field, or the move the rules refuse — never a traceback.
* User ids are not exported: the seats' names are what the record needs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import GameEngine, GameType, PlayerLabel, RuleError, TurnShape
from bot.i18n import Text, language_of
from bot.service.lobby import parse_options
from bot.service.outcome import Refusal, StepKind, classify
from bot.service.replay import standing
from bot.store import GameRow, MoveRow

FORMAT = "ziggurat-game"
VERSION = 1
#: the statuses of a game that is over
OVER = ("finished", "abandoned")
#: a record file larger than this is refused unread (a long game is well under 1 MiB)
MAX_RECORD_BYTES = 32 * 1024 * 1024
MAX_NAME = 100
MAX_ACTION = 1000
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
#: the row kind whose publication the engine's step shape decides
MOVE = "move"


class RecordError(Exception):
    """A record that cannot be read or replayed: one line, from the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.text = Text(key, params)

    def __str__(self) -> str:
        return self.text.render("en")


@dataclass(frozen=True)
class RecordSeat:
    seat: int
    name: str
    colour: str
    place: int | None = None
    score: int | None = None


@dataclass(frozen=True)
class Record:
    """A record read back: what is needed to replay and draw the game."""

    game: str
    seed: int
    options: dict[str, str]
    language: str
    seats: tuple[RecordSeat, ...]
    moves: tuple[MoveRow, ...]
    status: str = "finished"

    def labels(self) -> list[PlayerLabel]:
        return [PlayerLabel(s.seat, s.name, s.colour) for s in self.seats]


@dataclass(frozen=True)
class Board:
    """The public view at a publication point: after row ``seq`` (0: the start)."""

    seq: int
    view: Any


def exported_moves(row: GameRow, moves: Sequence[MoveRow]) -> list[MoveRow]:
    """The rows a record holds: those that stand, up to the last publication."""
    return standing(m for m in moves if m.seq <= row.published_seq)


def boards(
    engine: GameEngine[Any, Any],
    seat_count: int,
    options: Mapping[str, str],
    seed: int,
    moves: Sequence[MoveRow],
) -> tuple[list[Board], Any]:
    """The public view at the start and after each publication point; and the last state.

    ``moves`` may hold undo rows: the steps they take back are skipped. Raises
    :class:`RecordError` for a row the engine cannot read or the rules refuse.
    """
    state = engine.new_game(seat_count, options, seed)
    shown = [Board(0, engine.public_view(state))]
    steps = standing(moves)
    simultaneous = engine.turns is TurnShape.SIMULTANEOUS
    for index, move in enumerate(steps):
        before = engine.waiting_for(state)
        turn = engine.turn_number(state)
        try:
            engine.apply(state, move.seat, engine.parse_action(move.action))
        except RuleError as error:
            reason = Text(error.key, error.params)
            raise RecordError("after.replay.bad_move", seq=move.seq, reason=reason) from None
        except Exception as error:  # a crafted row the engine chokes on
            raise RecordError("after.replay.bad_move", seq=move.seq, reason=repr(error)) from None
        if move.kind == MOVE:
            kind = classify(
                move.seat,
                before,
                engine.waiting_for(state),
                finished=engine.result(state) is not None,
                simultaneous=simultaneous,
                new_turn=engine.turn_number(state) != turn,
            )
            published = kind in (StepKind.HANDOFF, StepKind.FINAL)
        else:
            following = steps[index + 1] if index + 1 < len(steps) else None
            published = (
                following is None
                or following.kind != move.kind
                or following.created_at != move.created_at
            )
        if published:
            shown.append(Board(move.seq, engine.public_view(state)))
    return shown, state


def document(
    row: GameRow, engine: GameEngine[Any, Any], moves: Sequence[MoveRow], published: set[int]
) -> dict[str, Any]:
    """The JSON document of a game's record (``moves`` already the exported rows)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": row.game_type,
        "game_id": row.id,
        "status": row.status,
        "seed": row.seed,
        "options": dict(row.options),
        "language": row.language,
        "created_at": row.created_at,
        "finished_at": row.finished_at,
        "seats": [
            {
                "seat": s.seat,
                "name": s.display_name,
                "colour": s.colour,
                "place": s.place,
                "score": s.score,
            }
            for s in row.seats
        ],
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat,
                "action": m.action,
                "public": _public(engine, m.action),
                "kind": m.kind,
                "checkpoint": m.checkpoint,
                "published": m.seq in published,
                "created_at": m.created_at,
            }
            for m in moves
        ],
    }


def dumps(doc: Mapping[str, Any]) -> bytes:
    """The record file's bytes: UTF-8 JSON, one seat and one move per line."""
    fields = []
    for key, value in doc.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            text = f"[\n  {items}\n ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        fields.append(f" {json.dumps(key)}: {text}")
    return ("{\n" + ",\n".join(fields) + "\n}\n").encode()


def _public(engine: GameEngine[Any, Any], action: str) -> str:
    try:
        return engine.public_notation(engine.parse_action(action))
    except RuleError:
        return action


# -- reading a record back ---------------------------------------------------------


def parse_record(data: bytes, registry: Mapping[str, GameType]) -> Record:
    """Check a record file and read it; :class:`RecordError` names the first problem."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("after.replay.too_big", max=MAX_RECORD_BYTES // (1024 * 1024))
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RecordError("after.replay.not_json", reason=str(error)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError("after.replay.not_a_record")
    if doc.get("version") != VERSION:
        raise RecordError("after.replay.bad_version", version=doc.get("version"), known=VERSION)
    game = doc.get("game")
    if not isinstance(game, str) or game not in registry:
        raise RecordError("after.replay.unknown_game", game=game, games=", ".join(sorted(registry)))
    engine = registry[game].engine
    seed = _int(doc, "seed", "seed", low=0)
    raw_options = doc.get("options")
    if not isinstance(raw_options, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw_options.items()
    ):
        raise RecordError("after.replay.bad_field", field="options")
    try:
        options = parse_options(registry[game], raw_options)
    except Refusal as refusal:
        raise RecordError("after.replay.bad_options", reason=refusal.text) from None
    language = doc.get("language", "en")
    if not isinstance(language, str):
        raise RecordError("after.replay.bad_field", field="language")
    seats = _seats(doc.get("seats"))
    low, high = engine.player_range(options)
    if not low <= len(seats) <= high:
        raise RecordError("after.replay.bad_players", count=len(seats), min=low, max=high)
    moves = _moves(doc.get("moves"), len(seats))
    status = doc.get("status", "finished")
    return Record(
        game=game,
        seed=seed,
        options=options,
        language=language_of(language),
        seats=seats,
        moves=moves,
        status=status if isinstance(status, str) else "finished",
    )


def _int(
    item: Mapping[str, Any],
    name: str,
    where: str,
    *,
    low: int | None = None,
    optional: bool = False,
) -> Any:
    value = item.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        raise RecordError("after.replay.bad_field", field=where)
    return value


def _seats(raw: Any) -> tuple[RecordSeat, ...]:
    if not isinstance(raw, list) or not raw:
        raise RecordError("after.replay.bad_field", field="seats")
    seats: list[RecordSeat] = []
    for index, item in enumerate(raw):
        where = f"seats[{index}]"
        if not isinstance(item, dict):
            raise RecordError("after.replay.bad_field", field=where)
        if item.get("seat", index) != index:
            raise RecordError("after.replay.bad_field", field=f"{where}.seat")
        name, colour = item.get("name"), item.get("colour")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise RecordError("after.replay.bad_field", field=f"{where}.name")
        if not isinstance(colour, str) or not COLOUR.match(colour):
            raise RecordError("after.replay.bad_field", field=f"{where}.colour")
        place = _int(item, "place", f"{where}.place", low=1, optional=True)
        score = _int(item, "score", f"{where}.score", optional=True)
        seats.append(RecordSeat(index, name, colour, place, score))
    return tuple(seats)


def _moves(raw: Any, seat_count: int) -> tuple[MoveRow, ...]:
    if not isinstance(raw, list):
        raise RecordError("after.replay.bad_field", field="moves")
    moves: list[MoveRow] = []
    last = 0
    for index, item in enumerate(raw):
        where = f"moves[{index}]"
        if not isinstance(item, dict):
            raise RecordError("after.replay.bad_field", field=where)
        seq = _int(item, "seq", f"{where}.seq", low=last + 1)
        seat = _int(item, "seat", f"{where}.seat", low=0)
        if seat >= seat_count:
            raise RecordError("after.replay.bad_field", field=f"{where}.seat")
        action, kind = item.get("action"), item.get("kind", MOVE)
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
            raise RecordError("after.replay.bad_field", field=f"{where}.action")
        if not isinstance(kind, str) or not kind:
            raise RecordError("after.replay.bad_field", field=f"{where}.kind")
        checkpoint = item.get("checkpoint", True)
        if not isinstance(checkpoint, bool):
            raise RecordError("after.replay.bad_field", field=f"{where}.checkpoint")
        created = item.get("created_at", 0.0)
        if (
            not isinstance(created, int | float)
            or isinstance(created, bool)
            or not math.isfinite(created)
        ):
            raise RecordError("after.replay.bad_field", field=f"{where}.created_at")
        moves.append(MoveRow(seq, seat, action, float(created), kind, (), checkpoint))
        last = seq
    return tuple(moves)
