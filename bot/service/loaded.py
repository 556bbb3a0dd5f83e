"""A running game as one command sees it: its stored row, its engine and its state.

Decisions:

* A command loads the game once, under its channel's lock, and works on a
  private state built from the row it loaded (rebuilding a state from JSON is
  cheaper than copying a cached one). A step's load may be the row this process
  last read or committed, kept by the store (:mod:`bot.store.kept`, bounded):
  in a shard cluster another process (a hand-over's owner, the timers'
  claimant) and the admin commands write games too, so a kept row can be
  stale; a step from it is refused by its version check, and a refusal or lost
  race from a kept row is checked against the game read afresh and the command
  run again from it (:meth:`bot.service.context.Context.kept_or_fresh`), so the
  player is answered as a fresh load answers. Every other load reads.
* What a hand-off tells each seat is compared with what the seat was told
  before (``GameRow.told_views``): read with the row, in the same statement,
  so it is the told of the version the step is checked against.
* A resigned seat is the table's for good: its player can neither step nor
  undo (:meth:`LoadedGame.acting_seat`); only the table plays it.
* A computer seat (``SeatRow.computer``) has no member: nobody is pinged or
  sent anything for it (:meth:`LoadedGame.users_of`).
* Seat params: an event or refusal param named ``seat`` or ending in
  ``_seat`` holding an int is shown as that seat's player name (in a
  picker's label, as their seat's colour word).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games.base import GameEngine, GameType, PlayerLabel, RuleError
from bot.i18n import Text
from bot.service.colours import colour_key
from bot.service.menus import SEAT_NUMBER, seat_in_label
from bot.service.outcome import Refusal
from bot.service.turn_clock import PLAYING, RESIGNED
from bot.store import SEAT_FIELDS, GameRow, SeatRow


def seat_text(row: GameRow, key: str, params: Mapping[str, Any]) -> Text:
    """A catalog text whose ``seat``/``*_seat`` params become player names, in
    nested texts too (a list of dice by player)."""
    names = {s.seat: s.display_name for s in row.seats}
    return _named(names, key, params)


def label_text(row: GameRow, game_type: GameType, key: str, params: Mapping[str, Any]) -> Text:
    """As :func:`seat_text`, for a button or option label: each player named by their
    seat's colour word (or number), short and never cut, whatever they are called
    (:func:`~bot.service.menus.seat_in_label`: the option's description and the menu's
    title name them in full)."""
    names: dict[int, Text] = {}
    for s in row.seats:
        colour = colour_key(game_type, s.colour)
        short = Text(colour) if colour is not None else Text(SEAT_NUMBER, {"number": s.seat + 1})
        names[s.seat] = seat_in_label(short, s.display_name)
    return _named(names, key, params)


def _named(names: Mapping[int, str | Text], key: str, params: Mapping[str, Any]) -> Text:
    renamed = _renamed(names, params)
    return Text(key, dict(params) if renamed is None else renamed)


def _renamed(names: Mapping[int, str | Text], params: Mapping[str, Any]) -> dict[str, Any] | None:
    """``params`` with their seat params as names, in nested texts too, or None when
    they hold none: one pass, a nested text without one kept as it is, not rebuilt (a
    prompt's alternatives and a hand's list nest a text per item, and every message
    names them; most hold no seat). Types are told by identity, not ``isinstance``: an
    int param is a plain int (or a bool), and nothing subclasses :class:`Text`."""
    shown: dict[str, Any] | None = None
    for name, value in params.items():
        kind = value.__class__
        if kind is Text:
            if value.params:
                inner = _renamed(names, value.params)
                if inner is not None:
                    if shown is None:
                        shown = dict(params)
                    shown[name] = Text(value.key, inner)
        elif (kind is int or kind is bool) and (name == "seat" or name.endswith("_seat")):
            if shown is None:
                shown = dict(params)
            shown[name] = names.get(value, str(value))
    return shown


def seated(row: GameRow, changes: Mapping[int, Mapping[str, Any]]) -> GameRow:
    """``row`` with its seats' ``status``, ``timeouts`` and ``auto`` changed as a write
    stores them (:data:`~bot.store.SEAT_FIELDS`), so what the write computes from the
    seats (the computer timer) sees them as they will be."""
    if not changes:
        return row
    seats = list(row.seats)
    for seat, fields in changes.items():
        known = {name: value for name, value in fields.items() if name in SEAT_FIELDS}
        if "auto" in known:
            known["auto"] = bool(known["auto"])
        seats[seat] = replace(seats[seat], **known)
    return replace(row, seats=tuple(seats))


@dataclass
class LoadedGame:
    """A game row with its game type and (when running) its engine state."""

    row: GameRow
    game_type: GameType
    state: Any = None
    #: the seats' names of :attr:`row` (:meth:`text`), with the row they were read from
    _names: tuple[GameRow, dict[int, str]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    #: ``game_type.engine`` (a plain attribute: a step reads it a score of times)
    engine: GameEngine[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.engine = self.game_type.engine

    @property
    def id(self) -> int:
        return self.row.id

    def text(self, key: str, params: Mapping[str, Any] | None = None) -> Text:
        """As :func:`seat_text`; the names read once per row (a step's answer names
        the seats in every line it says)."""
        if not params:
            return Text(key, {})
        if self._names is None or self._names[0] is not self.row:
            self._names = (self.row, {s.seat: s.display_name for s in self.row.seats})
        return _named(self._names[1], key, params)

    def label_text(self, key: str, params: Mapping[str, Any] | None = None) -> Text:
        return label_text(self.row, self.game_type, key, params or {})

    def refusal(self, error: RuleError) -> Refusal:
        return Refusal.of(self.text(error.key, error.params))

    def labels(self) -> list[PlayerLabel]:
        return [PlayerLabel(s.seat, s.display_name, s.colour) for s in self.row.seats]

    def seat_of(self, user_id: int) -> SeatRow | None:
        return self.row.seat_of(user_id)

    def players_seat(self, user_id: int) -> SeatRow:
        """The user's seat; :class:`Refusal` ``error.not_in_game`` when they have none."""
        seat = self.row.seat_of(user_id)
        if seat is None:
            raise Refusal("error.not_in_game")
        return seat

    def acting_seat(self, user_id: int) -> SeatRow:
        """The user's seat for a step or an undo; refused when they have none, or resigned."""
        seat = self.players_seat(user_id)
        if seat.status == RESIGNED:
            raise Refusal("error.resigned_seat")
        return seat

    def user_of(self, seat: int) -> int:
        return self.row.seats[seat].user_id

    def users_of(self, seats: Sequence[int] | set[int]) -> list[int]:
        """The members holding ``seats`` (a computer seat has nobody to ping)."""
        return [self.user_of(s) for s in sorted(seats) if self.row.seats[s].computer is None]

    def computers_awaited(self) -> list[int]:
        """The computer seats the game waits for now; none when it is over or paused,
        or while no member plays on (all absent or resigned: it waits for one)."""
        engine, state, seats = self.engine, self.state, self.row.seats
        if engine.result(state) is not None or self.row.paused is not None:
            return []
        if not any(s.status == PLAYING and s.computer is None for s in seats):
            return []
        return [s for s in sorted(engine.waiting_for(state)) if seats[s].computer is not None]

    def members_awaited(self) -> list[int]:
        """The seats the game waits for now that a member plays (not a computer, not
        absent or resigned: the table plays those)."""
        seats = self.row.seats
        return [
            s
            for s in sorted(self.engine.waiting_for(self.state))
            if seats[s].computer is None and seats[s].status == PLAYING
        ]

    def names_of(self, seats: Sequence[int] | set[int]) -> str:
        return ", ".join([self.row.seats[s].display_name for s in sorted(seats)])

    def waiting(self) -> set[int]:
        return self.engine.waiting_for(self.state)

    def waiting_line(self) -> list[Text]:
        """The question the game asks now, or whom it waits for."""
        waiting = self.waiting()
        if not waiting:
            return []
        question = self.engine.prompt(self.state)
        if question is not None:  # the engine's question names whom it asks
            return [self.text(*question)]
        return [Text("game.waiting_for", {"players": self.names_of(waiting)})]
