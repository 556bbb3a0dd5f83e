"""The move picker: a seat's next choice as a small menu, built from the engine.

The engine's verb table gives the grammar (verbs, then each parameter in
order), its legal actions what may be offered, its ``legal_values`` the
labels (costs, consequences) and its hooks the words (``verb_label``, the
``<game>.tag.<verb>`` catalog strings) and pictures. The picker answers a
:class:`~bot.service.menus.Menu` for a pick in progress and reads a choice
back as the next pick, a step (an action object) or a control. It never
plays anything: :mod:`bot.service.tapping` does.

Decisions:

* The options are the seat's own legal actions (``suggested_actions``; a
  move the player must find, a lightning layout, is entered item by item,
  below), one per step: actions the engine calls the same step
  (``representative``: a Tikal hex turned to the same stones) are one
  option. So the picker never offers an illegal action, offers only what
  the seat may see, and reaches every step it may take.
* Fewest taps first. The first menu offers the quick decisions (the
  engine's ``public_choices`` and ``private_choices``: bids, a conflict's
  support, a bonus brick) as buttons that play, and every verb opened as
  deep as the menu can hold (:func:`_deepen`): a verb merged with its
  values (``Dig A6 · 2 AP``), a Tikal move's destinations when its origin
  is forced. Rows left over are spread (:meth:`Picker._spread`): a verb's
  option whose next choice fits one select becomes that select, under a
  header naming it (``Move A5 — To which space``, its options
  ``→ C5 · 2 AP``), taking the row of a verb opened to fewer options (which
  goes back to fewer levels). A choice with one way on is taken without asking. A ``rest``
  parameter (a swap's tiles) is one multiple-choice select of its own, and a
  parameter the engine pictures (a Tikal hex's rotation) its own menu of
  buttons beside the picture.
* Buttons when the choices fit (one touch), else selects (two), at most
  five rows with the controls: Start over, Undo (the token's hint) and End
  turn (the engine's ``end_turn_action``, a button that plays it).
* Labels: the value first and only what tells the options apart (a value
  shared by every option of its block is left out); the verb in the
  section's header, or in the label (``<game>.tag.<verb>``) when a section
  mixes verbs; the engine's long label in the option's detail.
* Many values are grouped: by what they act on when the engine groups them
  (``value_groups``: Tigris squares by kingdom), else board squares by column
  band (a header says which columns), other values in ranges, each section a
  select.
* A step that cannot be taken back is never played unawares: an option
  whose step the service's ``judge`` finds irreversible (played on a copy)
  is marked ``final``, the title saying why, and plays at once; any other
  option leads to the step, which the service plays when it can be undone
  and otherwise confirms with one button saying the step
  (:meth:`Picker.confirmation`). A block of more than :data:`MAX_JUDGED`
  steps is judged on its first (a Temple Rush round's last seal resolves
  the round): when that one cannot be taken back, all are marked.
* A layout entered item by item (a lightning race, brick by brick: the
  engine's ``layout_step``) is one tap per item: each group (a brick's
  length) is a select of its items (the cells where it may go), with
  "Remove the last brick" and "Submit" (once the engine calls it
  complete) among the controls. Everything offered comes from the engine.
* An option's token is its index in the menu: the menu is rebuilt from the
  pick's token when the choice comes back (or taken from the menus the
  service built at the same position, :class:`Built`), so nothing chosen is
  trusted; a token of another stamp, unreadable, or naming no option is
  refused (:class:`StalePick`).
"""

from __future__ import annotations

import enum
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games.base import GameEngine, LayoutStep, RuleError, Seat, Suggestion, TurnShape
from bot.games.notation import Param, Verb, ascii_int
from bot.i18n import Text, catalog
from bot.service.menus import (
    BUTTONS_PER_ROW,
    END,
    FINAL_MARK,
    MAX_BUTTON_LABEL,
    MAX_DETAIL,
    MAX_HEADER,
    MAX_OPTION_LABEL,
    MAX_REMEMBERED,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    RESTART,
    UNDO,
    Menu,
    Option,
    Section,
    Style,
    Widget,
    distinct,
    fits,
    label_limit,
    names_seat,
    seats_named,
    spelled_out,
)
from bot.service.pick_token import ITEM_SEP, NONE_WORD, BadToken, Pending, seat_stamp

#: a group of board squares: the leading letters (the column) and the row
_SQUARE = re.compile(r"^([A-Za-z]+)([0-9]+)$")
#: a block of at most this many steps is judged step by step (else by its first)
MAX_JUDGED = 30
#: the most options a menu offers at once (every row a select of the most options)
MAX_OPTIONS = (MAX_ROWS - 1) * MAX_SELECT_OPTIONS
#: a pick's group that is the engine's (``value_groups``): this, then its number
ENGINE_GROUP = "k"

TextOf = Callable[[str, Mapping[str, Any]], Text]
#: options opened a level further in the first menu, by verb: their words, and whether
#: their labels say them (:meth:`Picker._spread`)
Spread = Mapping[str, tuple[tuple[tuple[str, ...], ...], bool]]
#: the service's judgement of a step: None when it can be taken back, else why not
Judge = Callable[[Any], Text | None]


class StalePick(Exception):
    """A pick that no longer fits the position (or never did): a catalog key."""

    def __init__(self, key: str = "picker.stale") -> None:
        super().__init__(key)
        self.key = key


class Control(enum.Enum):
    """A control chosen: take the last step back."""

    UNDO = "undo"


@dataclass(frozen=True)
class Picked:
    """A finished pick: the step to play; ``confirmed`` when the player chose it
    knowing it cannot be taken back (or it plays on the tap anyway)."""

    action: Any
    confirmed: bool = False
    #: the next step's pick it opens once played (its verb and first words): a public
    #: decision merged with the same seat's next choice (see :meth:`Picker._chained`)
    follow: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Row:
    """A legal action with each parameter's word (``_`` for one left out)."""

    action: Any
    words: tuple[str, ...]


@dataclass
class _Entry:
    """An option being built: its label and where it leads."""

    label: Text
    then: Pending | Picked
    detail: Text | None = None
    path: tuple[str, ...] = ()
    within: frozenset[str] = frozenset()
    style: Style = Style.PRIMARY
    layout: bool = False
    #: the label with its verb, for a section that mixes verbs
    tagged: Text | None = None
    #: why its step, played on the tap, cannot be taken back (the menu says so)
    why: Text | None = None

    @property
    def plays(self) -> bool:
        return isinstance(self.then, Picked) and self.then.confirmed


@dataclass
class _Block:
    """Options that belong together (one verb's, one group's), under a header."""

    header: Text
    entries: list[_Entry]
    #: a multiple-choice select: how many may be chosen
    min_values: int = 1
    max_values: int = 1
    #: keep it a select even when its options would fit buttons
    select: bool = False
    #: it holds several verbs' options: their labels carry their verb
    mixed: bool = False
    #: a short name of what it holds (a verb's), for a header shared with others
    name: Text | None = None
    #: options opened a level further (:meth:`Picker._spread`): a select shared only
    #: with others opened so
    opened: bool = False

    def labelled(self, widget: Widget, *, alone: bool = True) -> list[tuple[_Entry, Text]]:
        """The entries' labels: with their verb when the block mixes verbs, or when it
        is one row of buttons among others (a button row shows no header)."""
        tagged = self.mixed or (widget is Widget.BUTTONS and not alone)
        if tagged:
            return [(e, _mixed_label(e, widget)) for e in self.entries]
        return [(e, e.label) for e in self.entries]


@dataclass
class _Built:
    menu: Menu
    #: where each option token leads
    leads: dict[str, Pending | Picked] = field(default_factory=dict)
    #: a multiple-choice select's item words by option token, and the pick it completes
    items: dict[str, str] = field(default_factory=dict)
    prefix: Pending | None = None


@dataclass
class _Seen:
    """What a picker works out of its position before any menu: the seat's options by
    verb, its layouts, End turn, the quick decisions and the stamp; and its legal
    actions when they are what it offers (the engine's default ``suggested_actions``)."""

    rows: dict[str, list[_Row]]
    layouts: dict[str, LayoutStep]
    end: Any
    quick: dict[str, Any]
    stamp: str
    legal: list[Any] | None


@dataclass
class Built:
    """What the pickers of one position (the same game, version, seat, undo hint and
    player names) share instead of working it out again: the menus built, by pick
    (the menu a tap chooses from is the one the tap before answered with), what the
    picker saw of the position (:class:`_Seen`), and the answers it asked for that
    depend on the position alone (the engine's values and labels, its legal actions,
    each step's judgement)."""

    menus: dict[Pending, _Built] = field(default_factory=dict)
    seen: _Seen | None = None
    legal: list[Any] | None = None
    labels: dict[tuple[str, str, tuple[str, ...]], dict[str, Suggestion]] = field(
        default_factory=dict
    )
    judged: dict[str, Text | None] = field(default_factory=dict)


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


def written(words: Sequence[str]) -> list[str | None]:
    """The picker's words as the notation writes them (a rest parameter's items
    separated by spaces, a parameter left out as None), for :meth:`Verb.spell`."""
    return [None if word == NONE_WORD else word.replace(ITEM_SEP, " ") for word in words]


def _path(verb: str, words: Sequence[str]) -> tuple[str, ...]:
    return (verb, *words)


class Picker:
    """One seat's picker at one moment of one game; see the module docstring."""

    def __init__(
        self,
        engine: GameEngine[Any, Any],
        state: Any,
        seat: Seat,
        *,
        version: int,
        text: TextOf = Text,
        undo: bool = False,
        judge: Judge | None = None,
        built: Built | None = None,
    ) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.text = text
        self.table = engine.verbs
        self.judge = judge
        #: what pickers of this position share (see :class:`Built`): ``built`` when given
        self._shared = Built() if built is None else built
        if self._shared.seen is None:
            self._shared.seen = self._see(version)
        seen = self._shared.seen
        self.rows = seen.rows
        self.layouts = seen.layouts
        self.end = seen.end
        self.quick = seen.quick
        self.stamp = seen.stamp
        if self._shared.legal is None:
            self._shared.legal = seen.legal
        self.undo = undo
        self._labels = self._shared.labels
        self._judged = self._shared.judged
        self._built = self._shared.menus
        #: each value's place and label, remembered by this picker alone: worked out from
        #: the rows it was asked with (the first menu's leave the quick decisions out)
        self._orders: dict[tuple[str | None, tuple[str, ...]], dict[str, int]] = {}
        self._named: dict[tuple[str, tuple[str, ...], str], tuple[Text, Text | None]] = {}
        #: how many of a list of rows begin with each prefix of words (by the list's id)
        self._prefix_counts: dict[int, tuple[list[_Row], Counter[tuple[str, ...]]]] = {}
        #: how a label joins the values it merges (``<game>.join``, else ``picker.join``)
        own = f"{engine.name}.join"
        self._join = own if own in catalog("en") else "picker.join"

    def _see(self, version: int) -> _Seen:
        """What the seat may do at this position (see :class:`_Seen`)."""
        engine, state, seat = self.engine, self.state, self.seat
        suggested = engine.suggested_actions(state, seat)
        same: dict[str, Any] = {}
        for action in suggested:
            chosen = engine.representative(state, action)
            same.setdefault(str(chosen), chosen)
        rows: dict[str, list[_Row]] = {}
        for action in same.values():
            verb = self.table.of(action)
            rows.setdefault(verb.name, []).append(_Row(action, param_words(verb, action)))
        rows = {v.name: rows[v.name] for v in self.table if v.name in rows}
        layouts: dict[str, LayoutStep] = {}
        for verb in self.table:
            if len(verb.params) != 1 or not verb.params[0].rest:
                continue
            try:
                step = engine.layout_step(state, seat, verb.name, ())
            except RuleError:
                continue
            if step is not None and step.groups:
                layouts[verb.name] = step
                rows.pop(verb.name, None)
        legal = set(same)
        end = engine.end_turn_action(state, seat)
        end = end if end is not None and str(end) in legal else None
        offered = [*engine.public_choices(state, seat), *engine.private_choices(state, seat)]
        quick = {
            str(a): a for a in offered if str(a) in legal and (end is None or str(a) != str(end))
        }
        if engine.turns is TurnShape.SIMULTANEOUS:
            stamp = seat_stamp(engine.turn_number(state), [*same, *layouts])
        else:
            stamp = str(version)
        default = type(engine).suggested_actions is GameEngine.suggested_actions
        return _Seen(rows, layouts, end, quick, stamp, suggested if default else None)

    # -- the public API -------------------------------------------------------------

    @property
    def has_choices(self) -> bool:
        return bool(self.rows or self.layouts or self.end is not None)

    def start(self) -> Pending:
        return Pending(self.stamp, undo=self.undo)

    def menu(self, pending: Pending | None = None) -> Menu:
        """The menu for ``pending`` (the first menu when None)."""
        return self._build(pending or self.start()).menu

    def read(self, token: str) -> Pending:
        """The pick a token names; :class:`StalePick` if unreadable or of another stamp."""
        try:
            pending = Pending.decode(token, self.table)
        except BadToken:
            raise StalePick("picker.bad_token") from None
        if pending.stamp != self.stamp:
            raise StalePick()
        return pending

    def choose(self, pending: Pending, picked: Sequence[str]) -> Pending | Picked | Control:
        """What choosing the options ``picked`` (tokens) of ``pending``'s menu leads to."""
        tokens = [str(t) for t in picked]
        if tokens == [RESTART]:
            return self.start()
        if tokens == [UNDO] and pending.undo:
            return Control.UNDO
        if tokens == [END] and self.end is not None:
            return Picked(self.end, confirmed=True)
        built = self._build(pending)
        if len(set(tokens)) != len(tokens) or not tokens:
            raise StalePick("picker.bad_choice")
        if built.items and all(t in built.items for t in tokens):
            section = next(s for s in built.menu.sections if s.max_values > 1)
            if not section.min_values <= len(tokens) <= section.max_values:
                raise StalePick("picker.bad_choice")
            assert built.prefix is not None
            return self._multi(built.prefix, [built.items[t] for t in tokens])
        if len(tokens) != 1 or tokens[0] not in built.leads:
            raise StalePick("picker.bad_choice")
        return built.leads[tokens[0]]

    def follow(self, words: Sequence[str]) -> Menu:
        """The menu of the pick ``words`` open (a verb and its first words: where a
        merged decision leads, :attr:`Picked.follow`); :class:`StalePick` when it no
        longer fits."""
        if not words or words[0] not in self.rows:
            raise StalePick()
        return self.menu(replace(self.start(), verb=words[0], values=tuple(words[1:])))

    def confirmation(self, action: Any, why: Text) -> Menu:
        """The menu confirming a step that cannot be taken back: ``why`` and the step in
        words, and one button, saying the step, that plays it."""
        verb = self.table.of(action)
        pending = replace(self.start(), verb=verb.name, values=param_words(verb, action))
        built = self._confirmation(pending, self._row(pending))
        menu = built.menu
        return replace(menu, title=Text("picker.title.confirm", {"why": why, "step": menu.title}))

    # -- building a menu ----------------------------------------------------------------

    def _matching(self, pending: Pending) -> list[_Row]:
        assert pending.verb is not None
        n = len(pending.values)
        return [row for row in self.rows.get(pending.verb, []) if row.words[:n] == pending.values]

    def _row(self, pending: Pending) -> _Row:
        rows = self._matching(pending)
        if not rows or len(pending.values) != len(rows[0].words):
            raise StalePick()
        return rows[0]

    def _build(self, pending: Pending) -> _Built:
        if pending not in self._built:
            self._built[pending] = self._make(pending)
        return self._built[pending]

    def _make(self, pending: Pending) -> _Built:
        if pending.stamp != self.stamp:
            raise StalePick()
        if pending.verb is None:
            return self._first(pending)
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

    def _controls(self, pending: Pending, *, first: bool) -> list[Option]:
        controls: list[Option] = []
        if not first:
            controls.append(
                Option(RESTART, Text("picker.start_over"), style=Style.SECONDARY, path=())
            )
        if pending.undo:
            controls.append(Option(UNDO, Text("choice.undo"), style=Style.SECONDARY))
        if self.end is not None:
            end_verb = self.table.of(self.end)
            controls.append(
                Option(
                    END,
                    Text("choice.end_turn"),
                    path=_path(end_verb.name, param_words(end_verb, self.end)),
                    plays=True,
                    style=Style.DANGER,
                )
            )
        return controls

    def _finish(
        self,
        pending: Pending,
        title: Text,
        blocks: list[_Block],
        *,
        first: bool = False,
        extra: Sequence[_Entry] = (),
    ) -> _Built:
        """The menu of ``blocks`` (arranged by :func:`_arrange`), with the controls and
        ``extra`` entries shown among them (a layout's Remove and Submit)."""
        controls = self._controls(pending, first=first)
        rows = MAX_ROWS - (1 if controls or extra else 0)
        laid = _arrange(blocks, rows)
        warned: dict[str, Text] = {}
        for block in blocks:
            for entry in block.entries:
                if entry.why is not None:
                    warned.setdefault(entry.why.key, entry.why)
        if warned:
            notes = [
                Text("picker.warn", {"mark": FINAL_MARK, "why": why}) for why in warned.values()
            ]
            title = Text("picker.lines", {"first": title, "rest": _joined(notes, "picker.lines")})
        if laid is None:
            # labels that read alike however deep the picker went (two players whose
            # names share their first characters): numbered, so each still reads apart
            blocks = _numbered(blocks)
            laid = _arrange(blocks, rows)
        if laid is None:
            raise AssertionError("a menu that does not fit")  # _deepen and _group keep it
        leads: dict[str, Pending | Picked] = {}
        sections: list[Section] = []
        tokens = iter(range(MAX_OPTIONS + MAX_ROWS * BUTTONS_PER_ROW))
        for part in laid:
            options = []
            for entry, label in part.entries:
                token = str(next(tokens))
                leads[token] = entry.then
                options.append(_option(token, entry, label))
            header = None if part.header is None else spelled_out(part.header)
            sections.append(Section(part.widget, tuple(options), header))
        added = []
        for entry in extra:
            token = str(next(tokens))
            leads[token] = entry.then
            added.append(_option(token, entry, entry.label))
        named: dict[str, Text] = {}
        for option in (*(o for section in sections for o in section.options), *added):
            for seat in seats_named(option.label):
                named.setdefault(str(seat.params["name"]), seat)
        title = spelled_out(title)
        if named:  # who each colour is, for a button's label, which has no second line
            legend = [
                Text("picker.seat_legend", {"short": seat.params["short"], "name": name})
                for name, seat in named.items()
            ]
            title = Text("picker.lines", {"first": title, "rest": _joined(legend, "picker.list")})
        menu = Menu(
            token=pending.encode(self.table),
            title=title,
            sections=tuple(sections),
            controls=(*added, *controls),
        )
        return _Built(menu, leads)

    # -- the first menu -------------------------------------------------------------------

    def _first(self, pending: Pending) -> _Built:
        """The quick decisions, then every verb opened as deep as fits (see the module
        docstring)."""
        if not self.has_choices:
            raise StalePick("picker.nothing")
        quick = self._quick_entries()
        starts = [
            _Entry(
                self.text(*step.start),
                replace(pending, verb=verb),
                path=(verb,),
                layout=True,
            )
            for verb, step in self.layouts.items()
        ]
        verbs = {
            verb: [row for row in rows if str(row.action) not in self.quick]
            for verb, rows in self.rows.items()
        }
        verbs = {verb: rows for verb, rows in verbs.items() if rows}
        if self.end is not None:  # End turn is a control
            end_verb = self.table.of(self.end).name
            verbs[end_verb] = [r for r in verbs.get(end_verb, []) if r.action != self.end]
            verbs = {verb: rows for verb, rows in verbs.items() if rows}
        lone = [*quick, *starts]
        if quick and not starts and not verbs:
            chained = self._chained(pending)
            if chained is not None:
                return chained
        if len(self.layouts) == 1 and not verbs:  # a layout is all there is: it opens at once
            (verb,) = self.layouts
            return self._layout_menu(replace(pending, verb=verb))
        rows_left = MAX_ROWS - (1 if self._controls(pending, first=True) else 0)

        made: dict[tuple[str, int, frozenset[tuple[str, ...]]], _Block] = {}
        opened_made: dict[tuple[str, tuple[str, ...], bool], _Block] = {}

        def block_of(
            verb: str, depth: int, without: frozenset[tuple[str, ...]] = frozenset()
        ) -> _Block:
            key = (verb, depth, without)
            if key not in made:
                made[key] = self._verb_block(pending, verb, verbs[verb], depth, without)
            return made[key]

        def opened_of(verb: str, words: tuple[str, ...], long: bool) -> _Block:
            key = (verb, words, long)
            if key not in opened_made:
                opened_made[key] = self._opened_block(pending, verb, verbs[verb], words, long)
            return opened_made[key]

        def blocks_at(depths: Mapping[str, int], spread: Spread | None = None) -> list[_Block]:
            found: list[_Block] = []
            singles: list[_Entry] = []
            further: list[_Block] = []  # last, so the blocks before share selects
            for verb in verbs:
                opened, long = (spread or {}).get(verb, ((), False))
                block = block_of(verb, depths[verb], frozenset(opened))
                if len(block.entries) == 1 and not block.select:
                    singles.append(block.entries[0])
                elif block.entries:
                    found.append(block)
                further.extend(opened_of(verb, words, long) for words in opened)
            found.extend(further)
            if singles:
                found.insert(0, _Block(Text("picker.title.verb"), singles, mixed=True))
            if lone:  # the quick decisions first, as buttons
                found.insert(0, _Block(Text("picker.title.verb"), list(lone), mixed=True))
            return found

        def size_at(verb: str, depth: int) -> int:
            return len({row.words[:depth] for row in verbs[verb]})

        depths = _deepen(
            {verb: self._depth_limit(verb) for verb in verbs},
            blocks_at,
            rows_left,
            size_at,
        )
        depths, spread = self._spread(
            pending,
            verbs,
            depths,
            blocks_at,
            size_at,
            lambda verb, words: len(opened_of(verb, words, False).entries),
            rows_left,
        )
        blocks = blocks_at(depths, spread)
        opened = [b for b in blocks if b.opened]
        steps = sum(isinstance(e.then, Picked) for b in opened for e in b.entries)
        for block in opened:  # judged as one block: by each one's first when many
            self._judge_entries(block.entries, first_only=steps > MAX_JUDGED)
        entries = [e for b in blocks for e in b.entries]
        if len(entries) == 1 and isinstance(entries[0].then, Pending):
            return self._build(entries[0].then)  # one way on: taken without asking
        if not entries:
            return self._finish(pending, Text("picker.title.only_end"), [], first=True)
        return self._finish(pending, Text("picker.title.verb"), blocks, first=True)

    def _spread(
        self,
        pending: Pending,
        verbs: Mapping[str, list[_Row]],
        depths: Mapping[str, int],
        blocks_at: Callable[[Mapping[str, int], Spread | None], list[_Block]],
        size_at: Callable[[str, int], int],
        opened_size: Callable[[str, tuple[str, ...]], int],
        rows: int,
    ) -> tuple[dict[str, int], Spread]:
        """The options opened a level further (see the module docstring), and each
        verb's depth after: each verb's options, in menu order, whose next choice fits
        one select become that select (a Tikal move's origin, its destinations) while
        the menu fits — taking the row of a verb opened to fewer options than it
        offers (that verb shallower: ``Trade`` instead of its 12 exchanges), never a
        quick decision's button (Pass); labels without the option's own words
        (``→ C5 · 2 AP``), or with them when the menu's labels would read alike."""
        depths = dict(depths)
        spread: Spread = {}
        taken = 0  # rows given to opened options
        # the quick decisions shown as buttons stay buttons
        laid = _arrange(blocks_at(depths, None), rows)
        quick = 0 if laid is None else _buttons(laid, self.quick)
        for verb in verbs:
            depth = depths[verb]
            rows_of = verbs[verb]
            if depth == 0 or depth >= self._depth_limit(verb):
                continue
            start = replace(pending, verb=verb, values=(), group=None)
            opened: list[tuple[str, ...]] = []
            long = False
            param = self.table[verb].params[depth].name
            ranked = (verb, param) in self.engine.ranked
            for words in self._prefixes(start, rows_of, 0, depth):
                if taken >= rows - 1:  # a row stays for everything else
                    break
                count = len({row.words[depth] for row in rows_of if row.words[:depth] == words})
                if count < 2 or (count > MAX_SELECT_OPTIONS and not ranked):
                    continue
                size = opened_size(verb, words)
                fewer = [
                    {**depths, other: 0}
                    for other in sorted(verbs, key=lambda v: size_at(v, depths[v]))
                    if other not in (verb, *spread)
                    and depths[other] > 0
                    and size_at(other, depths[other]) < size
                ]
                found = None
                for trial_depths in (depths, *fewer):
                    for wide in (False, True) if not long else (True,):
                        trial: Spread = {**spread, verb: ((*opened, words), wide)}
                        laid = _arrange(blocks_at(trial_depths, trial), rows)
                        if laid is not None and _buttons(laid, self.quick) >= quick:
                            found = (trial_depths, trial, wide)
                            break
                    if found is not None:
                        break
                if found is None:  # no row for it: none for the next either
                    break
                depths, spread, long = found
                opened.append(words)
                taken += 1
        return depths, spread

    def _opened_block(
        self, pending: Pending, verb: str, rows: list[_Row], words: tuple[str, ...], long: bool
    ) -> _Block:
        """The options of ``verb`` that begin with ``words``, one level (or more, while
        they fit one select) further: one select under a header naming ``words``
        (``Move A5 — To which space``); each label the values that follow, or — when
        ``long`` — every value (``A5 → C5 · 2 AP``). Values the engine ranks (a move's
        destinations, cheapest first) too many for one select: the first 24, and a
        last option for the rest (``+6 more from A5``), leading to all of them."""
        start = replace(pending, verb=verb, values=(), group=None)
        at = start.then(*words)
        inside = [row for row in rows if row.words[: len(words)] == words]
        index, limit = len(words), self._depth_limit(verb)
        depth = 1
        while index + depth < limit:
            if len(self._prefixes(at, inside, index, depth + 1)) > MAX_SELECT_OPTIONS:
                break
            depth += 1
        following = self._prefixes(at, inside, index, depth)
        param = self.table[verb].params[index]
        farther: list[tuple[str, ...]] = []
        if len(following) > MAX_SELECT_OPTIONS:  # ranked: the first ones, then the rest
            assert (verb, param.name) in self.engine.ranked
            following, farther = (
                following[: MAX_SELECT_OPTIONS - 1],
                following[MAX_SELECT_OPTIONS - 1 :],
            )
        shown = [(*words, *more) for more in following]
        entries = [self._entry(start, chosen, rows, tag=True, shown=shown) for chosen in shown]
        if long:
            named = self._chosen_text(at)
            for entry in entries:
                entry.label = _joined([named, entry.label], self._join)
        if farther:
            entries.append(
                _Entry(
                    Text("picker.more", {"count": len(farther), "what": self._chosen_text(at)}),
                    at,
                    self._param_title(at, param),
                    path=_path(verb, words),
                    within=frozenset(more[0] for more in farther),
                    tagged=Text(
                        "picker.more_of",
                        {"what": self._tagged(verb, self._chosen_text(at)), "count": len(farther)},
                    ),
                )
            )
        block = _Block(self._param_title(at, param), entries)  # judged once chosen
        block.select = block.opened = True
        block.name = self._tagged(verb, self._chosen_text(at))
        return block

    def _chained(self, pending: Pending) -> _Built | None:
        """The quick decisions, each merged with the same seat's next choice when the
        engine asks (``chains``): one select per decision, of the first values of the
        one verb the seat must play after it (an auction's hex, by the space it is laid
        on: ``C6 · Take hex 2``); a decision that leaves no single verb stays a button.
        None when a decision cannot be taken back or the merged menu does not fit."""
        if not self.engine.chains:
            return None
        blocks: list[_Block] = []
        alone: list[_Entry] = []
        for action, entry in zip(self.quick.values(), self._quick_entries(), strict=True):
            if entry.why is not None:
                return None
            block = self._chain_block(action)
            if block is None:
                alone.append(entry)
            else:
                blocks.append(block)
        if not blocks:
            return None
        if alone:  # a decision that leaves no single choice (a volcano, laid at once)
            blocks.insert(0, _Block(Text("picker.title.verb"), alone, mixed=True))
        rows_left = MAX_ROWS - (1 if self._controls(pending, first=True) else 0)
        if _arrange(blocks, rows_left) is None:
            return None
        return self._finish(pending, Text("picker.title.verb"), blocks, first=True)

    def _chain_block(self, action: Any) -> _Block | None:
        """``action``'s options merged with the first values of the seat's next verb."""
        after = self.engine.load_state(self.engine.dump_state(self.state))
        try:
            self.engine.apply(after, self.seat, action)
        except RuleError:
            return None
        if self.engine.result(after) is not None or not self.engine.may_act(after, self.seat):
            return None
        then = Picker(self.engine, after, self.seat, version=0, text=self.text)
        if then.quick or then.layouts or len(then.rows) != 1 or then.end is not None:
            return None
        ((verb, rows),) = then.rows.items()
        if then._depth_limit(verb) < 1:
            return None
        start = replace(then.start(), verb=verb)
        words = then._ordered_values(start, rows, 0)
        if len(words) > MAX_SELECT_OPTIONS:
            return None
        choice = self.text(*self.engine.choice_label(action))
        chosen = self.table.of(action)
        path = _path(chosen.name, param_words(chosen, action))
        entries = []
        for word in words:
            label, long = then._label(start, word, rows)
            entries.append(
                _Entry(
                    Text("picker.chain.option", {"value": label, "choice": choice}),
                    Picked(action, confirmed=True, follow=(verb, word)),
                    long,
                    path,
                )
            )
        asked = then._param_title(start, self.table[verb].params[0])
        header = Text("picker.chain.header", {"choice": choice, "what": asked})
        return _Block(header, entries, select=True)

    def _quick_entries(self) -> list[_Entry]:
        """The quick decisions, each a button that plays it."""
        quick: list[_Entry] = []
        for action in self.quick.values():
            verb = self.table.of(action)
            quick.append(
                _Entry(
                    self.text(*self.engine.choice_label(action)),
                    Picked(action, confirmed=True),
                    path=_path(verb.name, param_words(verb, action)),
                    why=self._judge(action) if self.judge is not None else None,
                )
            )
        return quick

    def _depth_limit(self, verb: str) -> int:
        """How many of a verb's parameters may be merged into one option: none past a
        ``rest`` parameter (its own select) or a pictured one (its own menu)."""
        for index, param in enumerate(self.table[verb].params):
            if param.rest or (verb, param.name) in self.engine.pictured:
                return index
        return len(self.table[verb].params)

    def _verb_block(
        self,
        pending: Pending,
        verb: str,
        rows: list[_Row],
        depth: int,
        without: frozenset[tuple[str, ...]] = frozenset(),
    ) -> _Block:
        """A verb's options with its first ``depth`` parameters chosen (but those
        ``without``: opened in selects of their own)."""
        start = replace(pending, verb=verb, values=(), group=None)
        header = self._verb_header(verb)
        if depth == 0:
            entry = self._entry(start, (), rows, tag=True)
            if isinstance(entry.then, Pending):
                entry.detail = header
            return self._judged_block(header, [entry])
        prefixes = self._prefixes(start, rows, 0, depth)
        if without:
            prefixes = [words for words in prefixes if words not in without]
        entries = [self._entry(start, words, rows, tag=True, shown=prefixes) for words in prefixes]
        block = self._judged_block(self._shared_header(start, prefixes, rows, header), entries)
        block.name = self.text(*self.engine.verb_label(verb))
        return block

    def _shared_header(
        self, pending: Pending, prefixes: list[tuple[str, ...]], rows: list[_Row], header: Text
    ) -> Text:
        """A block's header, with the values every one of its options shares (left out
        of their labels): ``Swap Area 1 · C2 — …``."""
        assert pending.verb is not None
        if len(prefixes) < 2:
            return header
        shared: list[Text] = []
        chosen = pending
        for position, word in enumerate(prefixes[0]):
            if any(other[position] != word for other in prefixes):
                break
            label, _ = self._label(chosen, word, rows)
            if label.key != "picker.none":
                shared.append(label)
            chosen = chosen.then(word)
        if not shared:
            return header
        tagged = self._tagged(pending.verb, _joined(shared, self._join))
        return Text("picker.header.shared", {"shared": tagged, "what": header})

    def _verb_header(self, verb: str) -> Text:
        return self.text(*self.engine.verb_title(verb))

    def _prefixes(
        self, pending: Pending, rows: list[_Row], start: int, k: int
    ) -> list[tuple[str, ...]]:
        """The distinct words of parameters ``start`` to ``start + k``, each in its
        parameter's order (:meth:`_ordered_values`: board order, or cheapest first)."""
        found = list(dict.fromkeys(row.words[start : start + k] for row in rows))
        base = replace(pending, values=pending.values[:start], group=None)

        def rank(words: tuple[str, ...]) -> list[int]:
            ranks = []
            values = base.values
            for word in words:
                order = self._orders.get((base.verb, values))
                if order is None:
                    order = self._order(replace(base, values=values), rows)
                ranks.append(order.get(word, len(order)))
                values = (*values, word)
            return ranks

        return sorted(found, key=rank)

    def _order(self, pending: Pending, rows: list[_Row]) -> dict[str, int]:
        """Each value's place among the next parameter's values (remembered)."""
        key = (pending.verb, pending.values)
        if key not in self._orders:
            index = len(pending.values)
            matching = [r for r in rows if r.words[:index] == pending.values]
            ordered = self._ordered_values(pending, matching, index)
            self._orders[key] = {word: n for n, word in enumerate(ordered)}
        return self._orders[key]

    def _entry(
        self,
        pending: Pending,
        words: tuple[str, ...],
        rows: list[_Row],
        *,
        tag: bool = False,
        shown: Sequence[tuple[str, ...]] = (),
    ) -> _Entry:
        """The option choosing ``words`` next: its label (the words that differ
        between ``shown`` options), its detail and where it leads."""
        assert pending.verb is not None
        verb = self.table[pending.verb]
        then = pending.then(*words)
        parts: list[Text] = []
        every: list[Text] = []  # the shared values too: a label standing alone says them
        detail: Text | None = None
        values = pending.values
        for position, word in enumerate(words):
            named = self._named.get((verb.name, values, word))
            if named is None:  # the pick so far, built only to work the label out
                named = self._label(replace(pending, values=values, group=None), word, rows)
            label, long = named
            same = len(shown) > 1 and all(other[position] == word for other in shown)
            if not (word == NONE_WORD and label.key == "picker.none"):
                every.append(label)
                if not same:
                    parts.append(label)
                    detail = long if long is not None else detail
            values = (*values, word)
        if parts:
            label = _joined(parts, self._join)
        else:
            label = self.text(*self.engine.verb_label(verb.name))
        tagged = self._tagged(verb.name, _joined(every, self._join)) if tag and every else None
        if self._count(rows, then.values) == 1:  # one way on: the step itself
            then = replace(then, values=self._only(rows, then.values).words)
        path = _path(verb.name, then.values)
        if len(then.values) == len(verb.params):
            action = self._action(verb.name, then.values, rows)
            if str(action) in self.quick:
                return _Entry(
                    self.text(*self.engine.choice_label(action)),
                    Picked(action, confirmed=True),
                    path=path,
                    why=self._judge(action) if self.judge is not None else None,
                )
            return _Entry(label, Picked(action), detail, path, tagged=tagged)
        return _Entry(label, then, detail, path, tagged=tagged)

    def _count(self, rows: list[_Row], words: tuple[str, ...]) -> int:
        """How many of ``rows`` begin with ``words`` (counted once per list of rows)."""
        held = self._prefix_counts.get(id(rows))
        if held is None or held[0] is not rows:
            counts: Counter[tuple[str, ...]] = Counter()
            for row in rows:
                for n in range(len(row.words) + 1):
                    counts[row.words[:n]] += 1
            held = self._prefix_counts[id(rows)] = (rows, counts)
        return held[1][words]

    @staticmethod
    def _only(rows: list[_Row], words: tuple[str, ...]) -> _Row:
        return next(r for r in rows if r.words[: len(words)] == words)

    def _tagged(self, verb: str, value: Text) -> Text:
        key = f"{self.engine.name}.tag.{verb}"
        if key in catalog("en"):
            return Text(key, {"value": value})
        return Text(
            "picker.tagged", {"verb": self.text(*self.engine.verb_label(verb)), "value": value}
        )

    def _action(self, verb: str, words: Sequence[str], rows: list[_Row]) -> Any:
        found = next((r.action for r in rows if r.words == tuple(words)), None)
        if found is None:
            raise StalePick()
        return found

    def _judged_block(self, header: Text, entries: list[_Entry]) -> _Block:
        """Each step its options lead to, judged by the service: one that cannot be
        taken back is marked (why) and plays at once. A block of many options is judged
        on its first step alone."""
        steps = [e for e in entries if isinstance(e.then, Picked) and not e.then.confirmed]
        self._judge_entries(entries, first_only=len(steps) > MAX_JUDGED)
        return _Block(header, entries)

    def _judge_entries(self, entries: list[_Entry], *, first_only: bool) -> None:
        """Mark the entries whose step cannot be taken back (see :meth:`_judged_block`);
        ``first_only``: all as their first step is."""
        steps = [e for e in entries if isinstance(e.then, Picked) and not e.then.confirmed]
        if not steps or self.judge is None:
            return
        if first_only:
            first = steps[0].then
            assert isinstance(first, Picked)
            whys = [self._judge(first.action)] * len(steps)
        else:
            whys = [self._judge(e.then.action) for e in steps]  # type: ignore[union-attr]
        for entry, why in zip(steps, whys, strict=True):
            if why is None:
                continue
            assert isinstance(entry.then, Picked)
            entry.then = Picked(entry.then.action, confirmed=True)
            entry.style = Style.SUCCESS
            entry.why = why

    def _judge(self, action: Any) -> Text | None:
        key = str(action)
        if key not in self._judged:
            assert self.judge is not None
            self._judged[key] = self.judge(action)
        return self._judged[key]

    # -- a parameter's menu ---------------------------------------------------------------

    def _param_menu(self, pending: Pending, rows: list[_Row]) -> _Built:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        index = len(pending.values)
        param = verb.params[index]
        title = self._param_title(pending, param)
        values = self._ordered_values(pending, rows, index)
        if pending.group is not None:
            values = self._in_group(pending, values, pending.group)
            if not values:
                raise StalePick()
            named = self._group_header(pending, values)
            if named is not None:  # the engine's group: its header says what is inside
                title = Text("picker.header.shared", {"shared": named, "what": title})
            rows = [row for row in rows if row.words[index] in set(values)]
        if param.rest and pending.group is None:
            multi = self._multi_menu(pending, param, rows, title)
            if multi is not None:
                return multi
        pictured = (verb.name, param.name) in self.engine.pictured
        rows_left = MAX_ROWS - (1 if self._controls(pending, first=False) else 0)
        depth_limit = self._depth_limit(verb.name) if not pictured else index + 1
        depth = 1
        while index + depth < min(len(verb.params), depth_limit):
            if len(self._prefixes(pending, rows, index, depth + 1)) > MAX_SELECT_OPTIONS:
                break
            depth += 1
        prefixes = self._prefixes(pending, rows, index, depth)
        blocks = self._value_blocks(pending, rows, prefixes, title, rows_left)
        while depth > 1 and blocks is not None and _arrange(blocks, rows_left) is None:
            depth -= 1  # merged labels alike at their start: one parameter at a time
            prefixes = self._prefixes(pending, rows, index, depth)
            blocks = self._value_blocks(pending, rows, prefixes, title, rows_left)
        if blocks is None:
            return self._group_menu(pending, values, title, rows)
        built = self._finish(pending, title, blocks)
        if pictured:
            chosen = {
                p.name: w.replace(ITEM_SEP, " ")
                for p, w in zip(verb.params, pending.values, strict=False)
                if w != NONE_WORD
            }
            picture = self.engine.picture(self.state, self.seat, verb.name, chosen)
            built.menu = replace(built.menu, picture=picture)
        return built

    def _param_title(self, pending: Pending, param: Param) -> Text:
        assert pending.verb is not None
        what = self._verb_header(pending.verb)
        if pending.values:
            what = self._tagged(pending.verb, self._chosen_text(pending))
        asked = self.text(*self.engine.param_title(pending.verb, param.name))
        return Text("picker.title.param", {"verb": what, "param": asked})

    def _chosen_text(self, pending: Pending) -> Text:
        assert pending.verb is not None
        parts = []
        chosen = replace(pending, values=(), group=None)
        rows = self._matching(chosen)
        for word in pending.values:
            label, _ = self._label(chosen, word, rows)
            if label.key != "picker.none":
                parts.append(label)
            chosen = chosen.then(word)
        return _joined(parts, self._join)

    def _value_blocks(
        self,
        pending: Pending,
        rows: list[_Row],
        prefixes: list[tuple[str, ...]],
        title: Text,
        rows_left: int,
    ) -> list[_Block] | None:
        """The values as blocks: one when they fit a select, else board squares by band
        of columns, else ranges, each a select; None when they do not fit one menu
        (then they are grouped first)."""
        entries = [self._entry(pending, words, rows, shown=prefixes) for words in prefixes]
        if len(entries) <= MAX_SELECT_OPTIONS:
            return [self._judged_block(title, entries)]
        if len(entries) > rows_left * MAX_SELECT_OPTIONS:
            return None
        grouped = self._engine_groups(pending, prefixes, entries, rows_left)
        if grouped is not None:
            return grouped
        bands = _bands([words[0] for words in prefixes])
        parts: list[tuple[Text, list[_Entry]]] = []
        if bands is not None and len(bands) <= rows_left:
            for first, last, members in bands:
                part = [
                    e for words, e in zip(prefixes, entries, strict=True) if words[0] in members
                ]
                header = Text(
                    "picker.group.columns",
                    {"what": title, "first": first, "last": last, "count": len(part)},
                )
                parts.append((header, part))
        else:
            for start in range(0, len(entries), MAX_SELECT_OPTIONS):
                part = entries[start : start + MAX_SELECT_OPTIONS]
                header = Text(
                    "picker.group.range",
                    {"first": part[0].label, "last": part[-1].label, "count": len(part)},
                )
                parts.append((header, part))
        blocks = [self._judged_block(header, part) for header, part in parts]
        for block in blocks:
            block.select = True
        return blocks

    def _engine_groups(
        self,
        pending: Pending,
        prefixes: list[tuple[str, ...]],
        entries: list[_Entry],
        rows_left: int,
    ) -> list[_Block] | None:
        """The values in the engine's groups (``value_groups``: by what they act on),
        each a select under the engine's header; None when the engine has none or
        they do not fit the menu."""
        firsts = list(dict.fromkeys(words[0] for words in prefixes))
        found = self._value_groups(pending, firsts)
        if found is None:
            return None
        blocks = []
        for header, members in found:
            inside = set(members)
            part = [e for words, e in zip(prefixes, entries, strict=True) if words[0] in inside]
            named = self.text(*header)
            block = self._judged_block(named, part)
            block.select = True
            block.name = named
            blocks.append(block)
        laid = _arrange(blocks, rows_left)
        if laid is None or any(
            part.header is not None and not fits(part.header, MAX_HEADER) for part in laid
        ):  # too many groups for the rows (their headers merged past a header's length)
            return None
        return blocks

    # -- groups --------------------------------------------------------------------

    def _ordered_values(self, pending: Pending, rows: list[_Row], index: int) -> list[str]:
        """The parameter's distinct words: board squares by column then row, others in
        ``legal_values``' order (cheapest first), then in legal-action order."""
        base = replace(pending, values=pending.values[:index], group=None)
        words = list(dict.fromkeys(row.words[index] for row in rows))
        if all(_SQUARE.match(w) for w in words) and self._sorted_squares(base):
            return sorted(words, key=_square_key)
        known = list(self._suggestions(base, rows))
        rank = {word: n for n, word in enumerate(known)}
        return sorted(words, key=lambda w: rank.get(w.lower(), len(rank)))

    def _sorted_squares(self, pending: Pending) -> bool:
        """Board squares are listed in board order unless the engine ranks them (a
        Tikal move's destinations, cheapest first)."""
        assert pending.verb is not None
        param = self.table[pending.verb].params[len(pending.values)]
        return (pending.verb, param.name) not in self.engine.ranked

    def _group_header(self, pending: Pending, values: list[str]) -> Text | None:
        """The header of the engine's group ``pending`` looks into, if it is one."""
        group = pending.group or ""
        if not group.startswith(ENGINE_GROUP) or not group[1:].isdigit():
            return None
        everything = self._ordered_values(pending, self._matching(pending), len(pending.values))
        found = self._value_groups(pending, everything) or []
        number = int(group[1:])
        return self.text(*found[number][0]) if number < len(found) else None

    def _in_group(self, pending: Pending, values: list[str], group: str) -> list[str]:
        if group.startswith(ENGINE_GROUP) and group[1:].isdigit():
            found = self._value_groups(pending, values) or []
            number = int(group[1:])
            return list(found[number][1]) if number < len(found) else []
        first, sep, last = group.partition("-")
        if not sep:
            return []
        if _SQUARE.match(first + "1") and _SQUARE.match(last + "1"):
            return [v for v in values if first <= _column(v) <= last]
        try:
            low, high = ascii_int(first), ascii_int(last)
        except ValueError:
            return []
        return values[low:high]

    def _value_groups(
        self, pending: Pending, values: Sequence[str]
    ) -> list[tuple[tuple[str, Mapping[str, Any]], list[str]]] | None:
        """The engine's groups of the next parameter's ``values`` (``value_groups``), or
        None when it has none or they do not hold every value exactly once."""
        assert pending.verb is not None
        param = self.table[pending.verb].params[len(pending.values)]
        found = self.engine.value_groups(self.state, self.seat, pending.verb, param.name, values)
        if not found:
            return None
        placed = [word for _, members in found for word in members]
        if sorted(placed) != sorted(values):
            return None
        return found

    def _group_menu(
        self, pending: Pending, values: list[str], title: Text, rows: list[_Row]
    ) -> _Built:
        """Too many values for one menu: groups first (the engine's, by what they act
        on, each labelled by its header; else column bands of board squares, else
        ranges of the ordered values)."""
        assert pending.verb is not None
        if pending.group is None:
            engine_groups = self._engine_group_menu(pending, values, title)
            if engine_groups is not None:
                return engine_groups
        entries: list[_Entry] = []
        columns = _bands(values, size=MAX_OPTIONS)
        if columns is not None and len(columns) <= MAX_SELECT_OPTIONS:
            for first, last, members in columns:
                entries.append(
                    _Entry(
                        Text(
                            "picker.group.band",
                            {"first": first, "last": last, "count": len(members)},
                        ),
                        replace(pending, group=f"{first}-{last}"),
                        path=_path(pending.verb, pending.values),
                        within=frozenset(members),
                    )
                )
        else:
            size = max(MAX_OPTIONS, math.ceil(len(values) / MAX_SELECT_OPTIONS))
            offset = 0
            if pending.group is not None and "-" in pending.group:
                offset = ascii_int(pending.group.partition("-")[0])
            for start in range(0, len(values), size):
                part = values[start : start + size]
                key = f"{offset + start}-{offset + start + len(part)}"
                label = Text(
                    "picker.group.range",
                    {
                        "first": self._label(pending, part[0], rows)[0],
                        "last": self._label(pending, part[-1], rows)[0],
                        "count": len(part),
                    },
                )
                entries.append(
                    _Entry(
                        label,
                        replace(pending, group=key),
                        path=_path(pending.verb, pending.values),
                        within=frozenset(part),
                    )
                )
        return self._finish(pending, title, [_Block(title, entries)])

    def _engine_group_menu(self, pending: Pending, values: list[str], title: Text) -> _Built | None:
        """The engine's groups of ``values`` as the first level (each option its group's
        header, how many values it holds on its second line, and leads to them); None
        when the engine has none or they do not fit one menu."""
        assert pending.verb is not None
        found = self._value_groups(pending, values)
        if found is None or len(found) > MAX_OPTIONS:
            return None
        entries = [
            _Entry(
                self.text(*header),
                replace(pending, group=f"{ENGINE_GROUP}{number}"),
                Text("picker.group.count", {"count": len(members)}),
                path=_path(pending.verb, pending.values),
                within=frozenset(members),
            )
            for number, (header, members) in enumerate(found)
        ]
        block = _Block(title, entries)
        controls = self._controls(pending, first=False)
        if _arrange([block], MAX_ROWS - (1 if controls else 0)) is None:
            return None
        return self._finish(pending, title, [block])

    # -- a multiple choice (a swap's tiles) ------------------------------------------------

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
        if len(chosen) < 2 or sum(pool.values()) > MAX_SELECT_OPTIONS:
            return None
        if len(chosen) != _selections(pool, sizes) or NONE_WORD in chosen:
            return None
        items: list[str] = [word for word, count in sorted(pool.items()) for _ in range(count)]
        options = []
        seen: Counter[str] = Counter()
        kind_label = _kind_labeller(param, self.text)
        words: dict[str, str] = {}
        assert pending.verb is not None
        for n, word in enumerate(items):
            seen[word] += 1
            token = str(n)
            words[token] = word
            options.append(
                Option(
                    token,
                    Text("picker.item", {"item": kind_label(word), "n": seen[word]}),
                    path=_path(pending.verb, pending.values),
                    within=frozenset({word}),
                )
            )
        title = spelled_out(title)
        section = Section(
            Widget.SELECT,
            tuple(options),
            title,
            max(1, param.min_items),
            min(param.max_items, len(items)),
        )
        menu = Menu(
            token=pending.encode(self.table),
            title=title,
            sections=(section,),
            controls=tuple(self._controls(pending, first=False)),
        )
        return _Built(menu, {}, words, pending)

    def _multi(self, pending: Pending, items: list[str]) -> Pending | Picked:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        # the action's own canonical order (a swap sorts its tiles)
        words = [w for w in pending.values if w != NONE_WORD]
        try:
            action = verb.build([*(x for w in words for x in w.split(ITEM_SEP)), *items])
        except (ValueError, KeyError, TypeError, RuleError):
            raise StalePick("picker.bad_choice") from None
        word = param_words(verb, action)[len(pending.values)]
        then = pending.then(word)
        rows = self._matching(then)
        if not rows:
            raise StalePick("picker.bad_choice")
        if len(then.values) == len(verb.params):
            return Picked(rows[0].action)
        return then

    # -- the confirmation -----------------------------------------------------------------

    def _confirmation(self, pending: Pending, row: _Row) -> _Built:
        """The step in words, and one button that plays it (see :meth:`confirmation`)."""
        assert pending.verb is not None
        key, params = self.engine.describe(row.action, public=False)
        step = self.text(key, params)
        verb = self.table[pending.verb]
        label = self._tagged(verb.name, self._chosen_text(pending)) if verb.params else None
        if label is None or not fits(label, label_limit(Widget.BUTTONS)):
            label = Text("picker.confirm")
        entry = _Entry(
            label,
            Picked(row.action, confirmed=True),
            path=_path(verb.name, pending.values),
            style=Style.SUCCESS,
        )
        entry.why = self._judge(row.action) if self.judge is not None else None
        return self._finish(pending, step, [_Block(step, [entry])])

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
            return replace(pending, values=(ITEM_SEP.join(chosen),) if chosen else (), group=None)

        def item_entry(word: str, label: Any) -> _Entry:
            then = at([*items, word])
            return _Entry(self.text(*label), then, path=_path(verb, then.values), layout=True)

        if pending.group is not None:
            group = next((g for g in step.groups if g.word == pending.group), None)
            if group is None:
                raise StalePick()
            entries = [item_entry(word, label) for word, label in group.items]
            return self._finish(
                pending, self.text(*group.title), [_Block(self.text(*group.title), entries)]
            )
        extra = self._quick_entries()
        if items:
            back = at(items[:-1])
            extra.append(
                _Entry(
                    self.text(*step.remove),
                    back,
                    path=_path(verb, back.values),
                    style=Style.SECONDARY,
                    layout=True,
                )
            )
        if step.complete:
            action = self.table.parse(self.table[verb].spell(written(pending.values)))
            extra.append(
                _Entry(
                    Text("picker.layout.submit"),
                    Picked(action, confirmed=True),
                    path=_path(verb, pending.values),
                    style=Style.SUCCESS,
                )
            )
        rows_left = MAX_ROWS - 1
        blocks: list[_Block] = []
        pooled: list[_Entry] = []
        fitting = [g for g in step.groups if len(g.items) <= MAX_SELECT_OPTIONS]
        for group in step.groups:
            if group in fitting and len(blocks) < rows_left - (
                1 if len(fitting) < len(step.groups) else 0
            ):
                entries = [item_entry(word, label) for word, label in group.items]
                blocks.append(_Block(self.text(*group.label), entries, select=True))
            else:
                pooled.append(
                    _Entry(
                        self.text(*group.label),
                        replace(pending, group=group.word),
                        path=_path(verb, pending.values),
                        within=frozenset(ITEM_SEP.join([*items, word]) for word, _ in group.items),
                        layout=True,
                    )
                )
        if pooled:
            blocks.append(_Block(self.text(*step.title), pooled))
        if not blocks and not extra:
            raise StalePick("picker.nothing")
        alone = len(self.layouts) == 1 and not any(
            str(r.action) not in self.quick for rows in self.rows.values() for r in rows
        )
        return self._finish(
            pending, self.text(*step.title), blocks, extra=extra, first=alone and not items
        )

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
                self.state,
                self.seat,
                pending.verb,
                verb.params[index].name,
                chosen,
                legal=self._legal_actions(),
            )
            self._labels[key] = {s.value.lower().replace(" ", ITEM_SEP): s for s in found}
        return self._labels[key]

    def _legal_actions(self) -> list[Any]:
        """The seat's legal actions, worked out once (every ``legal_values`` reads them)."""
        if self._shared.legal is None:
            self._shared.legal = self.engine.legal_actions(self.state, self.seat)
        return self._shared.legal

    def _label(self, pending: Pending, word: str, rows: list[_Row]) -> tuple[Text, Text | None]:
        """A value's short label and its detail: the engine's, else its kind's, else the
        word (each worked out once)."""
        assert pending.verb is not None
        key = (pending.verb, pending.values, word)
        if key not in self._named:
            self._named[key] = self._name(pending, word, rows)
        return self._named[key]

    def _name(self, pending: Pending, word: str, rows: list[_Row]) -> tuple[Text, Text | None]:
        assert pending.verb is not None
        verb = self.table[pending.verb]
        param = verb.params[len(pending.values)]
        known = self._suggestions(pending, rows)
        found = known.get(word.lower())
        if found is None and word == NONE_WORD:
            found = self._default_suggestion(pending, known, rows)
        if found is not None:
            long = self.text(*found.label) if found.label is not None else None
            if found.short is not None:
                short = self.text(*found.short)
                if long is not None and _same_words(long, short):
                    long = None
                return short, long
            if long is not None and fits(long, label_limit(Widget.SELECT)):
                return long, None
        if word == NONE_WORD:
            return Text("picker.none"), None
        return _kind_labeller(param, self.text)(word), None

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
                built = self.table.parse(verb.spell(written(words)))
            except RuleError:  # not this word
                continue
            if built == sample.action:
                return suggestion
        return None


# -- arranging blocks into sections ---------------------------------------------------


@dataclass
class _Laid:
    """A section being laid out: its widget, header and entries with their labels."""

    widget: Widget
    header: Text | None
    entries: list[tuple[_Entry, Text]]

    @property
    def rows(self) -> int:
        if self.widget is Widget.SELECT:
            return 1
        return -(-len(self.entries) // BUTTONS_PER_ROW)


def _arrange(blocks: list[_Block], rows: int) -> list[_Laid] | None:
    """``blocks`` as sections within ``rows`` rows, or None.

    All buttons when every label fits a button and the rows allow (each block on
    rows of its own, else all together with their verbs); otherwise blocks of
    options that play or start a layout stay buttons and every other block is a
    select (split in parts of 25; neighbouring small parts share one when there
    are more parts than rows, their labels then carrying their verb)."""
    if not blocks:
        return []
    everything = [e for b in blocks for e in b.entries]
    alone = len(blocks) == 1
    apart = [
        _Laid(Widget.BUTTONS, b.header, b.labelled(Widget.BUTTONS, alone=alone)) for b in blocks
    ]
    if not any(b.select for b in blocks) and all(
        fits(label, MAX_BUTTON_LABEL) for part in apart for _, label in part.entries
    ):
        if sum(s.rows for s in apart) <= rows and _distinct(apart):
            return apart
        mixed = [(e, _mixed_label(e, Widget.BUTTONS)) for e in everything]
        together = _Laid(Widget.BUTTONS, None, mixed)
        fitting = all(fits(label, MAX_BUTTON_LABEL) for _, label in mixed)
        if together.rows <= rows and fitting and _distinct([together]):
            return [together]
    buttons = [
        block
        for block in blocks
        if not block.select
        and len(block.entries) <= 2 * BUTTONS_PER_ROW
        and all(
            fits(label, MAX_BUTTON_LABEL)
            for _, label in block.labelled(Widget.BUTTONS, alone=alone)
        )
    ]
    while True:
        laid = _laid(blocks, buttons, rows, alone=alone)
        if laid is not None and not _distinct(laid):
            return None
        if laid is not None or not buttons:
            return laid
        # the block of most options (quick decisions last) becomes a select
        buttons.remove(max(buttons, key=lambda b: (not _quick(b), len(b.entries))))


def _numbered(blocks: list[_Block]) -> list[_Block]:
    """``blocks`` with every label led by its place in the menu (``1.``, ``2.``, …)."""
    count = 0

    def led(entry: _Entry) -> _Entry:
        nonlocal count
        count += 1
        tagged = entry.tagged
        return replace(
            entry,
            label=Text("picker.numbered", {"number": count, "label": entry.label}),
            tagged=None
            if tagged is None
            else Text("picker.numbered", {"number": count, "label": tagged}),
        )

    return [replace(block, entries=[led(e) for e in block.entries]) for block in blocks]


def _quick(block: _Block) -> bool:
    return all(e.plays or e.layout for e in block.entries)


def _laid(
    blocks: list[_Block], buttons: list[_Block], rows: int, *, alone: bool
) -> list[_Laid] | None:
    """``buttons`` as rows of buttons and the other blocks as selects, within ``rows``."""
    laid: list[_Laid] = []
    parts: list[_Part] = []
    for block in blocks:
        if block in buttons:
            labelled = block.labelled(Widget.BUTTONS, alone=alone)
            laid.append(_Laid(Widget.BUTTONS, block.header, labelled))
            continue
        chunks = [
            block.entries[i : i + MAX_SELECT_OPTIONS]
            for i in range(0, len(block.entries), MAX_SELECT_OPTIONS)
        ]
        for n, chunk in enumerate(chunks):
            header, name = block.header, block.name or block.header
            if len(chunks) > 1:
                counted = {"n": n + 1, "of": len(chunks)}
                header = Text("picker.group.part", {"what": header, **counted})
                name = Text("picker.group.part", {"what": name, **counted})
            parts.append(_Part(header, name, chunk, block.mixed, block.opened))
    left = rows - sum(s.rows for s in laid)
    if left < 0:
        return None
    while len(parts) > left:
        merged = _merge_smallest(parts)
        if merged is None:
            return None
        parts = merged
    for part in parts:
        labelled = [
            (e, _mixed_label(e, Widget.SELECT) if part.mixed else e.label) for e in part.entries
        ]
        if not all(fits(label, MAX_OPTION_LABEL) for _, label in labelled):
            return None
        laid.append(_Laid(Widget.SELECT, part.header, labelled))
    return laid


def _buttons(laid: Sequence[_Laid], quick: Mapping[str, Any]) -> int:
    """How many of the ``quick`` decisions ``laid`` shows as buttons."""
    return sum(
        1
        for part in laid
        if part.widget is Widget.BUTTONS
        for entry, _ in part.entries
        if isinstance(entry.then, Picked) and str(entry.then.action) in quick
    )


def _distinct(laid: Sequence[_Laid]) -> bool:
    """Whether no two labels of a menu read alike in their first characters (in any
    language)."""
    labels = [label for part in laid for _, label in part.entries]
    return distinct(labels)


def _mixed_label(entry: _Entry, widget: Widget) -> Text:
    """An entry's label where no header says its verb (a section of several verbs, a
    row of buttons among others): with its verb and every value, even the shared
    ones. Whether it fits is the caller's to check (a block whose labels do not fit
    buttons is a select, whose header says them)."""
    return entry.tagged if entry.tagged is not None else entry.label


@dataclass
class _Part:
    """A select being laid out: its header, a short name, its entries, whether they mix
    verbs."""

    header: Text | None
    name: Text | None
    entries: list[_Entry]
    mixed: bool
    opened: bool = False


def _merge_smallest(parts: list[_Part]) -> list[_Part] | None:
    """Two neighbouring parts that fit one select, merged (the pair of fewest
    options whose labels, with their verbs, still read apart; the header names both
    shortly); None when no two fit."""
    best: tuple[int, int] | None = None
    for i in range(len(parts) - 1):
        size = len(parts[i].entries) + len(parts[i + 1].entries)
        if size > MAX_SELECT_OPTIONS or (best is not None and size >= best[0]):
            continue
        if parts[i].opened != parts[i + 1].opened:
            continue
        entries = [*parts[i].entries, *parts[i + 1].entries]
        if distinct([_mixed_label(e, Widget.SELECT) for e in entries]):
            best = (size, i)
    if best is None:
        return None
    i = best[1]
    first, second = parts[i], parts[i + 1]
    if first.name is None or second.name is None:
        name = first.name or second.name
    else:
        name = Text("picker.headers", {"first": first.name, "rest": second.name})
    merged = _Part(name, name, [*first.entries, *second.entries], True, first.opened)
    return [*parts[:i], merged, *parts[i + 2 :]]


def _deepen(
    limits: Mapping[str, int],
    blocks_at: Callable[[Mapping[str, int]], list[_Block]],
    rows: int,
    size_at: Callable[[str, int], int],
) -> dict[str, int]:
    """Each verb's depth: deepened one at a time, the verb adding fewest options
    first, while the menu still fits (``size_at``: a verb's options at a depth,
    counted before any is built)."""
    depths = dict.fromkeys(limits, 0)
    current = sum(len(b.entries) for b in blocks_at(depths))
    while True:
        best: tuple[int, str] | None = None
        for verb, depth in depths.items():
            if depth >= limits[verb]:
                continue
            if current - size_at(verb, depth) + size_at(verb, depth + 1) > MAX_OPTIONS:
                continue
            blocks = blocks_at({**depths, verb: depth + 1})
            if _arrange(blocks, rows) is None:
                continue
            grow = sum(len(b.entries) for b in blocks) - current
            if best is None or grow < best[0]:
                best = (grow, verb)
        if best is None:
            return depths
        depths[best[1]] += 1
        current += best[0]


# -- helpers -------------------------------------------------------------------------


def _option(token: str, entry: _Entry, label: Text) -> Option:
    return Option(
        token,
        label,
        _described(entry.detail, label) if entry.why is None else entry.why,
        entry.path,
        entry.within,
        entry.plays,
        entry.style,
        entry.layout,
        final=entry.why is not None,
        follow=entry.then.follow if isinstance(entry.then, Picked) else (),
    )


def _described(detail: Text | None, label: Text) -> Text | None:
    """An option's description naming its players in full: its own, else — when its
    label names a player by their colour — the label spelled out (a description that
    would not fit keeps the colour words)."""
    if detail is None and names_seat(label):
        detail = label
    if detail is None or not names_seat(detail):
        return detail
    full = spelled_out(detail)
    return full if fits(full, MAX_DETAIL) else detail


def _column(word: str) -> str:
    match = _SQUARE.match(word)
    return match.group(1).upper() if match else ""


def _square_key(word: str) -> tuple[int, str, int]:
    match = _SQUARE.match(word)
    assert match is not None
    return (len(match.group(1)), match.group(1).upper(), int(match.group(2)))


def _bands(
    values: Sequence[str], size: int = MAX_SELECT_OPTIONS
) -> list[tuple[str, str, list[str]]] | None:
    """Board squares in bands of whole columns of at most ``size`` each (first column,
    last column, squares), or None when they are not board squares or a column alone
    is too long."""
    columns: dict[str, list[str]] = {}
    for word in values:
        if not _SQUARE.match(word):
            return None
        columns.setdefault(_column(word), []).append(word)
    bands: list[tuple[str, str, list[str]]] = []
    for column in sorted(columns, key=lambda c: (len(c), c)):
        members = columns[column]
        if len(members) > size:
            return None
        if bands and len(bands[-1][2]) + len(members) <= size:
            first, _, held = bands[-1]
            bands[-1] = (first, column, [*held, *members])
        else:
            bands.append((column, column, list(members)))
    return bands


def _same_words(first: Text, second: Text) -> bool:
    """Whether two labels read the same (but for case and punctuation): a detail would
    repeat it."""
    return _letters(first) == _letters(second)


def _letters(text: Text) -> str:
    """``text``'s English letters and digits, lower case (remembered by its value, as
    :mod:`bot.service.menus` remembers its measures)."""
    value = text.value_key
    found = None if value is None else _LETTERS.get(value)
    if found is None:
        found = "".join(ch for ch in text.render("en").casefold() if ch.isalnum())
        if value is not None:
            if len(_LETTERS) >= MAX_REMEMBERED:
                _LETTERS.clear()
            _LETTERS[value] = found
    return found


#: :func:`_letters` remembered by a text's value, bounded
_LETTERS: dict[tuple[Any, ...], str] = {}


def _joined(parts: Sequence[Text], key: str = "picker.join") -> Text:
    """``a · b · c`` as one text (each part translated in the reader's language)."""
    if not parts:
        return Text("picker.none")
    if len(parts) == 1:
        return parts[0]
    return Text(key, {"first": parts[0], "rest": _joined(parts[1:], key)})


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
            return _joined([one(item) for item in word.split(ITEM_SEP)], "picker.list")
        return one(word)

    return label


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
