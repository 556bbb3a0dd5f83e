"""The offline demo's tapping players, and what their taps cost.

Decisions:

* A tap is one choice in a menu (an option, a control); a touch counts what
  the finger does: a button is one, a select two (open it, pick). The Play
  button that opens a picker is counted apart (``plays``): a seat taps it
  when it has no menu open for the game now — at the start of its turn, or
  when the menu its last answer carried went out of date.
* ``random`` taps a random option of each menu; ``sensible`` taps towards the
  step the game's easy computer player names for the seat (its plan, one step
  at a time, decided again when the plan is spent or no longer fits), through
  the computer player's public API (:func:`bot.games.computer.decide`).
* A turn is a seat's steps until the game hands over (or another seat acts).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import GameEngine
from bot.games.computer import decide
from bot.i18n import t
from bot.service import GameService, Outcome, Player, Refusal
from bot.service.menus import RESTART, UNDO, Menu, Option, Widget
from bot.service.pick_token import ITEM_SEP
from bot.service.picker import param_words

#: the tapping players
PLAYERS = ("random", "sensible")


@dataclass
class TapCount:
    """Taps and touches per step played, and per turn (see the module docstring)."""

    simultaneous: bool = False
    steps: list[int] = field(default_factory=list)
    #: each turn's taps and touches, by (seat, turn): a list so the order is kept
    turns: dict[tuple[int, Any], list[int]] = field(default_factory=dict)
    #: the turns that count: the seat's own (it ended the turn, or a round)
    own: set[tuple[int, Any]] = field(default_factory=set)
    _runs: int = 0
    _seat: int | None = None

    def step(self, seat: int, turn: int | None, taps: int, touches: int, *, ended: bool) -> None:
        """A step of ``seat`` taken in turn ``turn`` (the engine's turn number, None
        when it has none); ``ended``: it ended the turn (or handed over, without a
        turn number)."""
        if turn is None:
            if seat != self._seat:
                self._runs += 1
            key: tuple[int, Any] = (seat, ("run", self._runs))
        else:
            key = (seat, turn)
        self._seat = None if ended and turn is None else seat
        self.steps.append(taps)
        counts = self.turns.setdefault(key, [0, 0])
        counts[0] += taps
        counts[1] += touches
        if ended or self.simultaneous or turn is None:
            self.own.add(key)

    def line(self, lang: str = "en") -> str:
        turns = [self.turns[key] for key in self.turns if key in self.own]
        return t(
            lang,
            "demo.taps",
            turn=median([taps for taps, _ in turns]),
            max=max((taps for taps, _ in turns), default=0),
            touches=median([touches for _, touches in turns]),
            step=median(self.steps),
        )


def median(values: Sequence[int]) -> int | float:
    if not values:
        return 0
    middle = statistics.median(values)
    return int(middle) if float(middle).is_integer() else middle


class RefusedPick(Exception):
    """A pick the rules refused, after ``taps`` taps."""

    def __init__(self, refusal: Refusal, taps: int) -> None:
        super().__init__(refusal.text.key)
        self.refusal = refusal
        self.taps = taps


@dataclass
class Tapped:
    """One step played by taps: its outcome, taps and touches."""

    outcome: Outcome
    taps: int
    touches: int


class TapPlayers:
    """The demo's seats playing by taps (see the module docstring)."""

    def __init__(
        self, service: GameService, channel: int, kind: str, chooser: random.Random
    ) -> None:
        self.service = service
        self.channel = channel
        self.kind = kind
        self.chooser = chooser
        #: each seat's open menu (its last answer's)
        self.open: dict[int, Menu] = {}
        #: each seat's plan left to play (sensible)
        self.plans: dict[int, list[Any]] = {}
        #: how often a seat tapped Play
        self.plays = 0

    async def step(
        self, player: Player, seat: int, row: Any, engine: GameEngine[Any, Any]
    ) -> Tapped:
        """Play one step of ``seat`` by taps; :class:`RefusedPick` when refused."""
        taps = touches = 0
        state = engine.load_state(row.state)
        target = self._target(engine, state, seat) if self.kind == "sensible" else None
        menu = self.open.pop(seat, None)
        try:
            if menu is None:
                self.plays += 1
                menu = (await self.service.tapping.tap(self.channel, player)).menu
            while True:
                if menu is None:
                    raise Refusal("picker.nothing")
                picked, select = self._choose(menu, target)
                taps += 1
                touches += 2 if select else 1
                answer = await self.service.tapping.tap(self.channel, player, menu.token, picked)
                if answer.outcome is not None:
                    break
                menu = answer.menu
        except Refusal as refusal:
            self.plans.pop(seat, None)
            raise RefusedPick(refusal, taps) from None
        if self.plans.get(seat):
            self.plans[seat].pop(0)
        if answer.outcome.has_public:  # a hand-off: everyone opens a fresh picker
            self.open.clear()
        elif answer.menu is not None:
            self.open[seat] = answer.menu
        return Tapped(answer.outcome, taps, touches)

    def forget(self) -> None:
        """Every open menu is out of date (a timeout played for some seats)."""
        self.open.clear()

    # -- choosing -------------------------------------------------------------------

    def _target(self, engine: GameEngine[Any, Any], state: Any, seat: int) -> Any:
        """The step the easy computer player names for ``seat`` now (its plan's next)."""
        plan = self.plans.get(seat) or []
        legal = {str(a) for a in engine.legal_actions(state, seat)}
        if not plan or str(plan[0]) not in legal:
            brain = engine.computer()
            if brain is None:
                return None
            plan = list(decide(brain, state, seat, "easy", self.chooser.randrange(2**31)))
            self.plans[seat] = plan
        if not plan:
            return None
        return engine.representative(state, plan[0])

    def _choose(self, menu: Menu, target: Any) -> tuple[list[str], bool]:
        """The option tokens to send, and whether they were chosen in a select."""
        if target is not None:
            found = toward(menu, target)
            if found is not None:
                return found
        playable = [
            (o, s.widget is Widget.SELECT, s)
            for s in menu.sections
            for o in s.options
            if not o.layout
        ] + [(o, False, None) for o in menu.controls if o.token not in (RESTART, UNDO)]
        if not playable:
            playable = [(o, s.widget is Widget.SELECT, s) for s in menu.sections for o in s.options]
        option, select, section = self.chooser.choice(playable)
        if section is not None and section.max_values > 1:
            count = self.chooser.randint(section.min_values, section.max_values)
            chosen = self.chooser.sample(list(section.options), count)
            return [o.token for o in chosen], True
        return [option.token], select


def toward(menu: Menu, target: Any) -> tuple[list[str], bool] | None:
    """The option tokens of ``menu`` that lead towards ``target`` (by the options'
    paths, what a player reads on them), and whether in a select; None if none."""
    verb = type(target).VERB
    words = (verb.name, *param_words(verb, target))
    for section in menu.sections:
        if section.max_values > 1 and section.options:
            path = section.options[0].path
            if tuple(path) != words[: len(path)] or len(path) >= len(words):
                continue
            wanted = words[len(path)].split(ITEM_SEP)
            chosen: list[str] = []
            for item in wanted:
                option = next(
                    (o for o in section.options if item in o.within and o.token not in chosen),
                    None,
                )
                if option is None:
                    break
                chosen.append(option.token)
            else:
                return chosen, True
    best: tuple[float, str, bool] | None = None
    candidates = [(o, s.widget is Widget.SELECT) for s in menu.sections for o in s.options]
    candidates += [(o, False) for o in menu.controls if o.token not in (RESTART, UNDO)]
    for option, select in candidates:
        score = _progress(option, words)
        if score is not None and (best is None or score > best[0]):
            best = (score, option.token, select)
    return None if best is None else ([best[1]], best[2])


def _progress(option: Option, words: tuple[str, ...]) -> float | None:
    """How far towards ``words`` an option leads, or None when it leads elsewhere."""
    path = tuple(option.path)
    if not path or path[0] != words[0]:
        return None
    if path == words:
        return 1000.0
    if len(path) == len(words) and path[:-1] == words[:-1]:
        # the last word entered item by item (a layout): its items so far begin the target's
        items, goal = path[-1].split(ITEM_SEP), words[-1].split(ITEM_SEP)
        if items != goal[: len(items)]:
            return None
        score = len(path) - 1 + len(items)
        if option.within:
            inside = [w.split(ITEM_SEP) for w in option.within]
            return score + 0.5 if any(goal[: len(w)] == w for w in inside) else None
        return float(score)
    if len(path) > len(words) or path != words[: len(path)]:
        return None
    if option.within:
        if words[len(path)] not in option.within:
            inside = [w.split(ITEM_SEP) for w in option.within]
            goal = words[len(path)].split(ITEM_SEP)
            if not any(goal[: len(w)] == w for w in inside):
                return None
        return len(path) + 0.5
    return float(len(path))
