"""The application: lobby, play, publication, undo, clocks, and who may act.

Transport-agnostic: the Discord adapter, the offline demo and the tests all
hold one :class:`GameService`, which composes one part per seam, and call the
part that owns a command (``service.lobby.join(...)``, ``service.play.act(...)``):

* ``lobby`` (:mod:`~bot.service.lobby`) — open, join, leave, start, abandon;
* ``play`` (:mod:`~bot.service.play`) — steps, undo, timeout batches (one
  commit each); :mod:`~bot.service.announce` — what a committed step tells whom;
* ``timers`` (:mod:`~bot.service.clock`) — reminders, deadlines, the audit;
* ``reading`` (:mod:`~bot.service.reading`) — status, board, hand, log,
  suggestions, rules;
* ``tapping`` (:mod:`~bot.service.tapping`) — the move picker
  (:mod:`~bot.service.picker`, :mod:`~bot.service.menus`): one call per tap,
  answering the seat's next menu or the step it played;
* ``memory`` (:mod:`~bot.service.memory`) — closed DMs and kept messages, the
  adapter's memory, kept by the store;
* ``seats`` (:mod:`~bot.service.seats`) — the host's clock controls, resigning, handing a
  seat over, automatic answers, notification choices;
* :mod:`~bot.service.turn_clock` and :mod:`~bot.service.autoplay` — the turn
  clock, absent seats, and the decisions the table takes for a seat;
* ``after`` (:mod:`~bot.service.after`) — rematch, export (:mod:`~bot.service.record`,
  :mod:`~bot.service.animation`) and statistics;
* :mod:`~bot.service.outcome` — the types it answers with;
* :mod:`~bot.service.loaded` and :mod:`~bot.service.context` — a loaded
  game, and what the parts share (store, registry, clock, locks, images),
  with the gate every command passes (:func:`~bot.service.context.admitted`:
  ids the store can hold, clean names).

Nothing here names a game: everything game-specific is read from the
engine's declared shape and hooks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from bot import games
from bot.games.base import GameType
from bot.service import computer, drawing
from bot.service.after import After
from bot.service.clock import Timers
from bot.service.context import DEFAULT_COMPUTER_PAUSE, Context
from bot.service.lobby import SEAT_COLOURS, Lobby, parse_options
from bot.service.memory import Memory
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    LobbyPanel,
    News,
    OptionMenu,
    Outcome,
    Player,
    PrivateMessage,
    Refusal,
    Reply,
    Step,
    StepKind,
)
from bot.service.play import Play
from bot.service.reading import Reading, help_lines, rules_page
from bot.service.seats import Seats
from bot.service.tapping import TapAnswer, Tapping
from bot.service.warm_drawing import WARM_SECONDS
from bot.store import Store

__all__ = [
    "DEFAULT_REMINDER_HOURS",
    "SEAT_COLOURS",
    "Choice",
    "ChoiceKind",
    "GameService",
    "LobbyPanel",
    "News",
    "OptionMenu",
    "Outcome",
    "Player",
    "PrivateMessage",
    "Refusal",
    "Reply",
    "Step",
    "StepKind",
    "TapAnswer",
    "help_lines",
    "parse_options",
    "rules_page",
]

DEFAULT_REMINDER_HOURS = 24.0


class GameService:
    """Lobby and play for every channel; one instance per bot process."""

    def __init__(
        self,
        store: Store,
        registry: Mapping[str, GameType] | None = None,
        *,
        deadline_hours: float = DEFAULT_REMINDER_HOURS,
        clock: Callable[[], float] = time.time,
        render: bool = True,
        computer_pause: float = DEFAULT_COMPUTER_PAUSE,
        draw_warmup: float = WARM_SECONDS,
    ) -> None:
        #: seconds each drawing process warms up at most when started (0: none)
        self.draw_warmup = draw_warmup
        self.ctx = Context(
            store=store,
            registry=registry if registry is not None else games.REGISTRY,
            clock=clock,
            reminder_seconds=deadline_hours * 3600.0,
            render=render,
            computer_pause=computer_pause,
        )
        # one part per seam; a caller calls the part that owns the command
        # (``service.lobby.join``), and every command passes the gate (admitted)
        self.lobby = Lobby(self.ctx)
        self.play = Play(self.ctx)
        self.timers = Timers(self.ctx, self.play)
        self.reading = Reading(self.ctx)
        self.seats = Seats(self.ctx, self.play)
        self.after = After(self.ctx, self.lobby)
        self.tapping = Tapping(self.ctx, self.play)
        self.memory = Memory(self.ctx)

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def registry(self) -> Mapping[str, GameType]:
        return self.ctx.registry

    @property
    def clock(self) -> Callable[[], float]:
        return self.ctx.clock

    def start_drawing(self) -> None:
        """Start the drawing processes now, with every registered renderer imported and
        warmed up on made-up games for at most :attr:`draw_warmup` seconds."""
        drawing.warm_up(self.registry.values(), self.draw_warmup)

    def start_computers(self) -> None:
        """Start the deciding processes now when a game has a computer player."""
        if any(g.engine.computer() is not None for g in self.registry.values()):
            computer.warm_up()

    @property
    def render(self) -> bool:
        return self.ctx.render

    @render.setter
    def render(self, value: bool) -> None:
        self.ctx.render = value

    @property
    def on_timer_change(self) -> Callable[[float | None], None] | None:
        return self.ctx.on_timer_change

    @on_timer_change.setter
    def on_timer_change(self, callback: Callable[[float | None], None] | None) -> None:
        self.ctx.on_timer_change = callback
