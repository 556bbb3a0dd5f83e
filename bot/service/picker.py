"""The move picker: a seat's next choice as a small menu, for tapping instead of typing.

Transport-agnostic: a :class:`Menu` is data (a title, options with a stable
token and a label, its kind), the Discord adapter renders it as components
and sends back the chosen option's token; the offline demo and the tests
drive the same picker. The engine's verb table gives the grammar (verbs,
then each parameter in order) and the engine judges what is legal.

Decisions:

* The options are the seat's own legal actions, narrowed by the words
  already chosen (``suggested_actions``: a move the player must find
  themselves, a lightning layout, is never offered whole: it is entered
  item by item, below); their labels come
  from the engine's ``legal_values`` (costs, consequences), else from the
  value kind's label, else the word. So the picker never offers an illegal
  value, offers only what that seat may see, and reaches every action it
  may take.
* First the verb, then each parameter, then a confirmation showing the step
  in words. A choice with one option left is taken without asking, except
  the confirmation. When few enough, the next parameters are offered
  together in one menu (``dig A6`` in the verb menu, a destination with
  its figure), so a step takes as few taps as the limits allow.
* A quick decision (the engine's one-tap buttons: ``end_turn_action``,
  ``public_choices``, ``private_choices``, e.g. end the turn, a bid, a
  conflict's support, a bonus brick) is played by the tap that chooses it:
  its label already says the step in words, as its button does.
* Discord's limits: a select holds at most :data:`MAX_SELECT_OPTIONS`
  options and a message five rows, so a one-choice menu may hold
  :data:`MAX_OPTIONS` options, shown as up to :data:`MAX_SELECTS` selects
  (the fifth row keeps Start over, Undo and End turn): a board square among
  up to a hundred is one tap. The verb menu and a multiple-choice menu stay
  within one select. More values are grouped, by their leading letters
  when they are board squares (column, then row) and otherwise in ranges of
  the ordered values; a menu of at most :data:`MAX_BUTTONS` options is a
  row of buttons, else a select.
  A ``rest`` parameter whose legal values are every selection from a pool
  (the tiles of a swap) is one multiple-choice select.
* A layout entered item by item (a lightning race layout, brick by brick:
  the engine's ``layout_step``) is offered in the verb menu after the other
  verbs, labelled by the engine ("Lay out the lightning temple"). Then each
  menu's title is the layout so far in words; its options are the engine's
  groups (a brick's length), then "Remove the last brick", then "Submit"
  when the engine calls the layout complete; a group opens the menu of its
  items (the cells where such a brick may go). Everything offered comes from
  the engine, never re-derived here. The pick so far is the verb with one
  word, the items joined by ``,``; the group chosen is the token's group.
  Submitting plays the layout like a typed move: the engine judges it.
* An option's token is its index in the menu: the menu is recomputed from
  the pick's token when the choice comes back, so nothing chosen is
  trusted, and a pick whose words are no longer legal is refused
  (:class:`StalePick`).
"""

from __future__ import annotations

import enum
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games.base import GameEngine, LayoutStep, RuleError, Seat, Suggestion
from bot.games.notation import Param, Verb, ascii_int
from bot.i18n import Text
from bot.service.pick_token import ITEM_SEP, NONE_WORD, BadToken, Pending

#: Discord's most options in one select
MAX_SELECT_OPTIONS = 25
#: the most selects one menu is shown as (a message has five rows; one is the controls')
MAX_SELECTS = 4
#: the most options of a one-choice menu
MAX_OPTIONS = MAX_SELECT_OPTIONS * MAX_SELECTS
MAX_BUTTONS = 5
#: Discord's longest option label / button label
MAX_LABEL = 100
#: a group of board squares: the leading letters (the column)
_COLUMN = re.compile(r"^([A-Za-z]+)[0-9]+$")

TextOf = Callable[[str, Mapping[str, Any]], Text]


class MenuKind(enum.Enum):
    """How a menu is shown."""

    #: a row of buttons (at most :data:`MAX_BUTTONS`)
    BUTTONS = "buttons"
    #: a select menu: one-choice menus of more than :data:`MAX_SELECT_OPTIONS` options
    #: are shown as several selects of at most that many each
    SELECT = "select"


@dataclass(frozen=True)
class Option:
    """One choice of a menu: the token sent back, and its label in words."""

    token: str
    label: Text
    #: it starts a layout entered item by item (a lightning layout: a long pick)
    layout: bool = False


@dataclass(frozen=True)
class Menu:
    """A seat's next choice.

    ``token`` is the pick so far (send it back with the chosen option
    tokens); ``restart`` the token of a fresh pick at the same version, or
    None on the first menu. A select lets ``min_values`` to ``max_values``
    options be chosen at once (a swap's tiles); otherwise exactly one.
    ``confirm`` marks the last menu, whose one option plays the step.
    """

    token: str
    title: Text
    kind: MenuKind
    options: tuple[Option, ...]
    min_values: int = 1
    max_values: int = 1
    confirm: bool = False
    restart: str | None = None


@dataclass(frozen=True)
class Picked:
    """A finished pick: the notation to play, for the game at ``version``."""

    notation: str
    version: int


class StalePick(Exception):
    """A pick that no longer fits the position (or never did): a catalog key."""

    def __init__(self, key: str = "picker.stale") -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class _Row:
    """A legal action with each parameter's word (``_`` for one left out)."""

    action: Any
    words: tuple[str, ...]


@dataclass
class _Choice:
    label: Text
    then: Pending | Picked
    layout: bool = False


@dataclass
class _Built:
    menu: Menu
    choices: list[_Choice] = field(default_factory=list)
    #: a multiple-choice select: each option's item word, and the pick it completes
    items: list[str] = field(default_factory=list)
    prefix: Pending | None = None


def param_words(verb: Verb, action: Any) -> tuple[str, ...]:
    """Each parameter's word in the picker (a rest parameter's items joined by ``,``)."""
    words: list[str] = []
    for param in verb.params:
        value = getattr(action, param.name)
        if value is None:
            words.append(NONE_WORD)
        elif param.rest:
            words.append(ITEM_SEP.join(param.kind.format(item) for item in value))
        else:
            words.append(param.format(value))
    return tuple(words)


def notation(verb: Verb, words: Sequence[str]) -> str:
    """The notation spelled by a verb and its parameters' words."""
    spelled = [verb.name]
    for word in words:
        if word != NONE_WORD:
            spelled.extend(word.split(ITEM_SEP))
    return " ".join(spelled)


class Picker:
    """One seat's picker at one moment of one game; see the module docstring."""

    def __init__(
        self,
        engine: GameEngine[Any, Any],
        state: Any,
        seat: Seat,
        version: int,
        text: TextOf = Text,
    ) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.version = version
        self.text = text
        self.table = engine.verbs
        self.rows: dict[str, list[_Row]] = {}
        for action in engine.suggested_actions(state, seat):
            verb = self.table.of(action)
            self.rows.setdefault(verb.name, []).append(_Row(action, param_words(verb, action)))
        self.rows = {v.name: self.rows[v.name] for v in self.table if v.name in self.rows}
        #: verbs the seat may enter item by item now, and what they allow first
        self.layouts: dict[str, LayoutStep] = {}
        for verb in self.table:
            if len(verb.params) != 1 or not verb.params[0].rest:
                continue
            try:
                step = engine.layout_step(state, seat, verb.name, ())
            except RuleError:
                continue
            if step is not None and step.groups:
                self.layouts[verb.name] = step
                self.rows.pop(verb.name, None)
        quick = [
            *engine.public_choices(state, seat),
            *engine.private_choices(state, seat),
            engine.end_turn_action(state, seat),
        ]
        self.quick = {str(a) for a in quick if a is not None}
        self._labels: dict[tuple[str, str, tuple[str, ...]], dict[str, Suggestion]] = {}

    # -- the public API -------------------------------------------------------------

    def start(self) -> Pending:
        return Pending(self.version)

    def menu(self, pending: Pending | None = None) -> Menu:
        """The menu for ``pending`` (a fresh pick when None)."""
        return self._build(pending or self.start()).menu

    def decode(self, token: str) -> Pending:
        """The pick a token names; :class:`StalePick` if unreadable or of another version."""
        try:
            pending = Pending.decode(token, self.table)
        except BadToken:
            raise StalePick("picker.bad_token") from None
        if pending.version != self.version:
            raise StalePick()
        return pending

    def choose(self, pending: Pending, picked: Sequence[str]) -> Pending | Picked:
        """The pick after choosing the options ``picked`` (tokens) of ``pending``'s menu."""
        built = self._build(pending)
        menu = built.menu
        tokens = list(picked)
        if not menu.min_values <= len(tokens) <= menu.max_values or len(set(tokens)) != len(tokens):
            raise StalePick("picker.bad_choice")
        indexes = []
        for token in tokens:
            try:
                indexes.append(ascii_int(token, 0, len(menu.options) - 1))
            except ValueError:
                raise StalePick("picker.bad_choice") from None
        if built.items:
            assert built.prefix is not None and built.prefix.verb is not None
            return self._multi(built.prefix, [built.items[i] for i in indexes])
        return built.choices[indexes[0]].then

    # -- building a menu ----------------------------------------------------------------

    def _matching(self, pending: Pending) -> list[_Row]:
        assert pending.verb is not None
        n = len(pending.values)
        return [row for row in self.rows.get(pending.verb, []) if row.words[:n] == pending.values]

    def _build(self, pending: Pending) -> _Built:
        if pending.version != self.version:
            raise StalePick()
        if pending.verb is None:
            return self._verb_menu(pending)
        if pending.verb in self.layouts:
            return self._layout_menu(pending)
        rows = self._matching(pending)
        if not rows:
            raise StalePick()
        verb = self.table[pending.verb]
        # a parameter with one value left is chosen without asking
        while pending.group is None and len(pending.values) < len(verb.params):
            words = {row.words[len(pending.values)] for row in rows}
            if len(words) != 1:
                break
            pending = pending.then(words.pop())
        if len(pending.values) == len(verb.params):
            return self._confirmation(pending, rows[0])
        return self._param_menu(pending, rows)

    def _restart(self) -> str:
        return self.start().encode(self.table)

    def _verb_menu(self, pending: Pending) -> _Built:
        """The verbs, each opened as deep as the limit allows (``dig A6``, ``support 2``)."""
        if not self.rows and not self.layouts:
            raise StalePick("picker.nothing")
        depth = dict.fromkeys(self.rows, 0)

        def options_at(verb: str, k: int) -> int:
            return len(self._prefixes(self.rows[verb], 0, k))

        total = len(self.rows) + len(self.layouts)
        while True:
            best: tuple[int, str] | None = None
            for verb, k in depth.items():
                if k >= len(self.table[verb].params):
                    continue
                grow = options_at(verb, k + 1) - options_at(verb, k)
                if total + grow <= MAX_SELECT_OPTIONS and (best is None or grow < best[0]):
                    best = (grow, verb)
            if best is None:
                break
            total += best[0]
            depth[best[1]] += 1
        choices: list[_Choice] = []
        for verb, rows in self.rows.items():
            for words in self._prefixes(rows, 0, depth[verb]):
                start = Pending(self.version, verb)
                choices.append(self._choice(start, words, rows, with_verb=True))
        for verb, step in self.layouts.items():
            choices.append(_Choice(self.text(*step.start), Pending(self.version, verb), True))
        if len(choices) == 1 and isinstance(choices[0].then, Pending):
            return self._build(choices[0].then)  # one way on: taken without asking
        return self._finish(pending, Text("picker.title.verb"), choices)

    def _prefixes(self, rows: list[_Row], start: int, k: int) -> list[tuple[str, ...]]:
        """The distinct words of parameters ``start`` to ``start + k``, in legal order."""
        return list(dict.fromkeys(row.words[start : start + k] for row in rows))

    def _param_menu(self, pending: Pending, rows: list[_Row]) -> _Built:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        index = len(pending.values)
        param = verb.params[index]
        title = Text(f"cmd.{self.engine.name}.param.{param.name}")
        values = self._ordered_values(pending, rows, index)
        if pending.group is not None:
            values = self._in_group(values, pending.group)
            if not values:
                raise StalePick()
            rows = [row for row in rows if row.words[index] in set(values)]
        if len(values) > MAX_SELECT_OPTIONS and param.rest and pending.group is None:
            multi = self._multi_menu(pending, param, rows, title)
            if multi is not None:
                return multi
        if len(values) > MAX_OPTIONS:
            return self._group_menu(pending, values, title)
        depth = 1
        while index + depth < len(verb.params):
            if len(self._prefixes(rows, index, depth + 1)) > MAX_SELECT_OPTIONS:
                break
            depth += 1
        ordered = sorted(
            self._prefixes(rows, index, depth), key=lambda words: values.index(words[0])
        )
        choices = [self._choice(pending, words, rows) for words in ordered]
        return self._finish(pending, title, choices)

    def _choice(
        self, pending: Pending, words: tuple[str, ...], rows: list[_Row], *, with_verb: bool = False
    ) -> _Choice:
        """The option choosing ``words`` next: its label and where it leads."""
        assert pending.verb is not None
        verb = self.table[pending.verb]
        then = pending.then(*words)
        parts: list[Text] = []
        chosen = pending
        for word in words:
            parts.append(self._label(chosen, word, rows))
            chosen = chosen.then(word)
        label = self._step_text(verb, parts) if with_verb else _joined(parts)
        if len(then.values) == len(verb.params):
            spelled = notation(verb, then.values)
            if spelled in self.quick:
                row = next(r for r in rows if r.words == then.values)
                return _Choice(self._action_text(verb, row, parts), Picked(spelled, self.version))
        return _Choice(label, then)

    def _finish(self, pending: Pending, title: Text, choices: list[_Choice]) -> _Built:
        kind = MenuKind.BUTTONS if len(choices) <= MAX_BUTTONS else MenuKind.SELECT
        menu = Menu(
            token=pending.encode(self.table),
            title=title,
            kind=kind,
            options=tuple(Option(str(i), c.label, c.layout) for i, c in enumerate(choices)),
            restart=None if pending.verb is None else self._restart(),
        )
        return _Built(menu, choices)

    def _confirmation(self, pending: Pending, row: _Row) -> _Built:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        parts = []
        chosen = Pending(self.version, pending.verb)
        for word in pending.values:
            label = self._label(chosen, word, [row])
            if label.key != "picker.none":
                parts.append(label)
            chosen = chosen.then(word)
        step = self._action_text(verb, row, parts)
        picked = Picked(notation(verb, pending.values), self.version)
        menu = Menu(
            token=pending.encode(self.table),
            title=Text("picker.title.confirm", {"step": step}),
            kind=MenuKind.BUTTONS,
            options=(Option("0", Text("picker.confirm")),),
            confirm=True,
            restart=self._restart(),
        )
        return _Built(menu, [_Choice(Text("picker.confirm"), picked)])

    # -- a layout, item by item -----------------------------------------------------------

    def _layout_menu(self, pending: Pending) -> _Built:
        """The next menu of a layout entered item by item: see the module docstring."""
        assert pending.verb is not None
        verb = pending.verb
        if len(pending.values) > 1:
            raise StalePick("picker.bad_token")
        items = pending.values[0].split(ITEM_SEP) if pending.values else []
        try:
            step = self.engine.layout_step(self.state, self.seat, verb, items)
        except RuleError:
            raise StalePick() from None
        if step is None:
            raise StalePick()

        def at(chosen: list[str]) -> Pending:
            return Pending(self.version, verb, (ITEM_SEP.join(chosen),) if chosen else ())

        choices: list[_Choice] = []
        if pending.group is not None:
            group = next((g for g in step.groups if g.word == pending.group), None)
            if group is None:
                raise StalePick()
            for word, label in group.items:
                choices.append(_Choice(self.text(*label), at([*items, word])))
            return self._finish(pending, self.text(*group.title), choices)
        for group in step.groups:
            choices.append(_Choice(self.text(*group.label), replace(pending, group=group.word)))
        if items:
            choices.append(_Choice(self.text(*step.remove), at(items[:-1])))
        if step.complete:
            spelled = notation(self.table[verb], pending.values)
            choices.append(_Choice(Text("picker.layout.submit"), Picked(spelled, self.version)))
        if not choices:
            raise StalePick("picker.nothing")
        return self._finish(pending, self.text(*step.title), choices)

    # -- groups ------------------------------------------------------------------------

    def _ordered_values(self, pending: Pending, rows: list[_Row], index: int) -> list[str]:
        """The next parameter's distinct words: in ``legal_values``' order (cheapest
        first, say), then in legal-action order."""
        words = list(dict.fromkeys(row.words[index] for row in rows))
        known = list(self._suggestions(pending, rows))
        rank = {word: n for n, word in enumerate(known)}
        return sorted(words, key=lambda w: rank.get(w.lower(), len(rank)))

    def _groups(self, values: list[str]) -> list[tuple[str, list[str]]]:
        """``values`` in at most :data:`MAX_SELECT_OPTIONS` groups of at most
        :data:`MAX_OPTIONS`: by column when they are board squares, else in ranges
        (``i-j`` of the ordered values)."""
        columns: dict[str, list[str]] = {}
        for word in values:
            match = _COLUMN.match(word)
            if match is None:
                break
            columns.setdefault(match.group(1).upper(), []).append(word)
        else:
            fits = all(len(v) <= MAX_OPTIONS for v in columns.values())
            if len(columns) <= MAX_SELECT_OPTIONS and fits:
                return sorted(columns.items())
        size = max(MAX_OPTIONS, math.ceil(len(values) / MAX_SELECT_OPTIONS))
        return [
            (f"{start}-{min(start + size, len(values))}", values[start : start + size])
            for start in range(0, len(values), size)
        ]

    def _in_group(self, values: list[str], group: str) -> list[str]:
        for key, members in self._groups(values):
            if key == group:
                return members
        # a range inside a range: keys are offsets into the values they split
        span = _span(group)
        return values[span[0] : span[1]] if span is not None else []

    def _group_menu(self, pending: Pending, values: list[str], title: Text) -> _Built:
        choices: list[_Choice] = []
        rows = self._matching(pending)
        span = None if pending.group is None else _span(pending.group)
        offset = span[0] if span is not None else 0
        for key, members in self._groups(values):
            if len(members) == 1:
                choices.append(self._choice(pending, (members[0],), rows))
                continue
            inner = _span(key)
            if inner is not None:
                key = f"{inner[0] + offset}-{inner[1] + offset}"
                label = Text(
                    "picker.group.range",
                    {"first": members[0], "last": members[-1], "count": len(members)},
                )
            else:
                label = Text("picker.group.column", {"column": key, "count": len(members)})
            choices.append(
                _Choice(label, Pending(pending.version, pending.verb, pending.values, key))
            )
        return self._finish(pending, title, choices)

    def _multi_menu(
        self, pending: Pending, param: Param, rows: list[_Row], title: Text
    ) -> _Built | None:
        """One multiple-choice select when the legal values are every selection of
        ``min_items`` to ``max_items`` items from a pool (a swap's tiles); else None."""
        index = len(pending.values)
        chosen = {row.words[index] for row in rows}
        pool: Counter[str] = Counter()
        for word in chosen:
            pool |= Counter(word.split(ITEM_SEP)) if word != NONE_WORD else Counter()
        sizes = range(param.min_items, param.max_items + 1)
        if len(pool) > MAX_SELECT_OPTIONS or sum(pool.values()) > MAX_SELECT_OPTIONS:
            return None
        if len(chosen) != _selections(pool, sizes) or NONE_WORD in chosen:
            return None
        items: list[str] = [word for word, count in sorted(pool.items()) for _ in range(count)]
        options = []
        seen: Counter[str] = Counter()
        kind_label = _kind_labeller(param, self.text)
        for n, word in enumerate(items):
            seen[word] += 1
            options.append(
                Option(str(n), Text("picker.item", {"item": kind_label(word), "n": seen[word]}))
            )
        menu = Menu(
            token=pending.encode(self.table),
            title=title,
            kind=MenuKind.SELECT,
            options=tuple(options),
            min_values=max(1, param.min_items),
            max_values=min(param.max_items, len(items)),
            restart=self._restart(),
        )
        return _Built(menu, [], items, pending)

    def _multi(self, pending: Pending, items: list[str]) -> Pending:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        # the action's own canonical order (a swap sorts its tiles)
        words = [w for w in pending.values if w != NONE_WORD]
        try:
            action = verb.build([*(x for w in words for x in w.split(ITEM_SEP)), *items])
        except (ValueError, KeyError, TypeError):
            raise StalePick("picker.bad_choice") from None
        word = param_words(verb, action)[len(pending.values)]
        then = pending.then(word)
        if not self._matching(then):
            raise StalePick("picker.bad_choice")
        return then

    # -- labels ------------------------------------------------------------------------

    def _suggestions(self, pending: Pending, rows: list[_Row]) -> dict[str, Suggestion]:
        """The engine's ``legal_values`` for the next parameter, by lower-case word."""
        assert pending.verb is not None
        verb = self.table[pending.verb]
        index = len(pending.values)
        key = (pending.verb, verb.params[index].name, pending.values)
        if key not in self._labels:
            chosen = {
                p.name: w.replace(ITEM_SEP, " ")
                for p, w in zip(verb.params, pending.values, strict=False)
                if w != NONE_WORD
            }
            found = self.engine.legal_values(
                self.state, self.seat, pending.verb, verb.params[index].name, chosen
            )
            self._labels[key] = {s.value.lower().replace(" ", ITEM_SEP): s for s in found}
        return self._labels[key]

    def _label(self, pending: Pending, word: str, rows: list[_Row]) -> Text:
        """A value's label in words: the engine's, else its kind's, else the word."""
        assert pending.verb is not None
        verb = self.table[pending.verb]
        index = len(pending.values)
        param = verb.params[index]
        known = self._suggestions(pending, rows)
        found = known.get(word.lower())
        if found is None and word == NONE_WORD:
            found = self._default_suggestion(pending, known, rows)
        if found is not None and found.label is not None:
            return self.text(*found.label)
        if word == NONE_WORD:
            return Text("picker.none")
        return _kind_labeller(param, self.text)(word)

    def _default_suggestion(
        self, pending: Pending, known: Mapping[str, Suggestion], rows: list[_Row]
    ) -> Suggestion | None:
        """The engine's word for a parameter left out (``worker`` for no figure)."""
        assert pending.verb is not None
        verb = self.table[pending.verb]
        index = len(pending.values)
        sample = next(
            (r for r in rows if r.words[: index + 1] == (*pending.values, NONE_WORD)), None
        )
        if sample is None:
            return None
        for suggestion in known.values():
            words = list(sample.words)
            words[index] = suggestion.value.replace(" ", ITEM_SEP)
            try:
                built = self.table.parse(notation(verb, words))
            except RuleError:  # not this word
                continue
            if built == sample.action:
                return suggestion
        return None

    def _step_text(self, verb: Verb, parts: Sequence[Text]) -> Text:
        what = Text(f"cmd.{self.engine.name}.{verb.name}.description")
        if not parts:
            return what
        return Text("picker.step", {"verb": what, "values": _joined(parts)})

    def _action_text(self, verb: Verb, row: _Row, parts: Sequence[Text]) -> Text:
        """The step in words: the engine's button label when it has one, else the
        verb's description and the values' labels."""
        key, params = self.engine.choice_label(row.action)
        if key != "choice.notation":
            return self.text(key, params)
        return self._step_text(verb, parts)


def shown(text: Text, lang: str | None) -> str:
    """A label or title in the reader's language, cut to Discord's :data:`MAX_LABEL`."""
    words = text.render(lang)
    return words if len(words) <= MAX_LABEL else words[: MAX_LABEL - 1] + "…"


def _joined(parts: Sequence[Text]) -> Text:
    """``a, b, c`` as one text (each part translated in the reader's language)."""
    if not parts:
        return Text("picker.none")
    if len(parts) == 1:
        return parts[0]
    return Text("picker.list", {"first": parts[0], "rest": _joined(parts[1:])})


def _kind_labeller(param: Param, text: TextOf = Text) -> Callable[[str], Text]:
    """A word's label from its kind (each item of a ``rest`` word), else the word."""

    def one(word: str) -> Text:
        try:
            named = param.kind.label(param.kind.parse(word))
        except (ValueError, KeyError, IndexError, RuleError):
            named = None
        if named is not None:
            return text(*named)
        return Text("picker.word", {"word": word})

    def label(word: str) -> Text:
        if param.rest:
            return _joined([one(item) for item in word.split(ITEM_SEP)])
        return one(word)

    return label


def _span(group: str) -> tuple[int, int] | None:
    """The offsets ``(first, last)`` of a range group ``first-last``; None for anything
    else (a column, a forged word: ASCII digits only, :func:`ascii_int`)."""
    first, sep, last = group.partition("-")
    try:
        return (ascii_int(first), ascii_int(last)) if sep else None
    except ValueError:
        return None


def _selections(pool: Counter[str], sizes: Iterable[int]) -> int:
    """How many sub-multisets of ``pool`` have a size in ``sizes``."""
    wanted = set(sizes)
    counts = [1]  # counts[k]: sub-multisets of size k so far
    for n in pool.values():
        grown = [0] * (len(counts) + n)
        for k, ways in enumerate(counts):
            for extra in range(n + 1):
                grown[k + extra] += ways
        counts = grown
    return sum(ways for k, ways in enumerate(counts) if k in wanted)
