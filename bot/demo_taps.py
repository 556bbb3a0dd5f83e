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

from bot.games.base import GameEngine, RuleError
from bot.games.computer import decide
from bot.i18n import t
from bot.service import GameService, Outcome, Player, Refusal
from bot.service.pick_token import ITEM_SEP, Pending
from bot.service.picker import Menu, MenuKind, Picked, Picker, param_words

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

    def step(
        self, seat: int, turn: int | None, taps: int, touches: int, *, ended: bool
    ) -> None:
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

    def line(self) -> str:
        turns = [self.turns[key] for key in self.turns if key in self.own]
        return t(
            "en",
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
        #: each seat's open menu, and the game version it was shown at
        self.open: dict[int, tuple[Menu, int]] = {}
        #: each seat's plan left to play (sensible)
        self.plans: dict[int, list[Any]] = {}
        #: how often a seat tapped Play
        self.plays = 0

    async def step(self, player: Player, seat: int, row: Any, engine: GameEngine[Any, Any]) -> Tapped:
        """Play one step of ``seat`` by taps; :class:`RefusedPick` when refused."""
        taps = touches = 0
        state = engine.load_state(row.state)
        target = self._target(engine, state, seat, row) if self.kind == "sensible" else None
        opened = self.open.pop(seat, None)
        try:
            if opened is not None and opened[1] == row.version:
                menu: Menu | None = opened[0]
            else:
                self.plays += 1  # Play (or a stale picker answered with a fresh one)
                menu = (await self.service.pick(self.channel, player)).menu
            answer = None
            while menu is not None:
                picked = await self._choose(player, menu, target)
                taps += 1
                touches += 2 if menu.kind is MenuKind.SELECT else 1
                answer = await self.service.pick(self.channel, player, menu.token, picked)
                menu = answer.menu
        except Refusal as refusal:
            self.plans.pop(seat, None)
            raise RefusedPick(refusal, taps) from None
        assert answer is not None and answer.outcome is not None
        outcome = answer.outcome
        if outcome.version is not None and self.plans.get(seat):
            self.plans[seat].pop(0)
        try:
            _, picker = await self.service.tapping.picker(self.channel, player)
            self.open[seat] = (picker.menu(), picker.version)
        except (Refusal, Exception):
            pass
        return Tapped(outcome, taps, touches)

    # -- sensible --------------------------------------------------------------------

    def _target(self, engine: GameEngine[Any, Any], state: Any, seat: int, row: Any) -> Any:
        plan = self.plans.get(seat) or []
        legal = {str(a) for a in engine.legal_actions(state, seat)}
        if not plan or str(plan[0]) not in legal:
            brain = engine.computer()
            if brain is None:
                return None
            seed = self.chooser.randrange(2**31)
            plan = list(decide(brain, state, seat, "easy", seed))
            self.plans[seat] = plan
        return plan[0] if plan else None

    async def _choose(self, player: Player, menu: Menu, target: Any) -> list[str]:
        if target is not None:
            _, picker = await self.service.tapping.picker(self.channel, player)
            picked = _old_toward(picker, menu, target)
            if picked is not None:
                return picked
        options = [o for o in menu.options if not o.layout] or list(menu.options)
        count = self.chooser.randint(menu.min_values, min(menu.max_values, len(options)))
        return [o.token for o in self.chooser.sample(options, count)]


def _old_toward(picker: Picker, menu: Menu, target: Any) -> list[str] | None:
    """The option tokens of ``menu`` that lead towards ``target`` (the picker's own
    look at where each option leads), or None."""
    verb = picker.table.of(target)
    words = param_words(verb, target)
    try:
        pending = picker.decode(menu.token)
        built = picker._build(pending)
    except Exception:
        return None
    if built.items:
        wanted = words[len(built.prefix.values)].split(ITEM_SEP) if built.prefix else []
        chosen: list[str] = []
        used: set[int] = set()
        for item in wanted:
            index = next(
                (i for i, w in enumerate(built.items) if w == item and i not in used), None
            )
            if index is None:
                return None
            used.add(index)
            chosen.append(str(index))
        return chosen
    best: tuple[float, str] | None = None
    for index, choice in enumerate(built.choices):
        score = _old_score(picker, choice.then, verb.name, words, target)
        if score is not None and (best is None or score > best[0]):
            best = (score, str(index))
    return None if best is None else [best[1]]


def _old_score(
    picker: Picker, then: Pending | Picked, verb: str, words: tuple[str, ...], target: Any
) -> float | None:
    if isinstance(then, Picked):
        try:
            return 1000.0 if picker.table.parse(then.notation) == target else None
        except RuleError:
            return None
    if then.verb != verb:
        return None
    if verb in picker.layouts:
        items = then.values[0].split(ITEM_SEP) if then.values else []
        goal = words[0].split(ITEM_SEP) if words else []
        if items != goal[: len(items)]:
            return None
        if then.group is not None:
            if len(items) >= len(goal) or not goal[len(items)].startswith(then.group + ":"):
                return None
            return len(items) + 0.5
        return float(len(items))
    if tuple(then.values) != words[: len(then.values)]:
        return None
    if then.group is not None:
        try:
            inner = picker._build(then)
        except Exception:
            return None
        if not any(
            _old_score(picker, c.then, verb, words, target) is not None for c in inner.choices
        ) and not inner.items:
            return None
        return len(then.values) + 0.5
    return float(len(then.values))
