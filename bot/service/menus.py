"""What the move picker shows: a menu as data, and the limits it keeps.

A :class:`Menu` is transport-agnostic: a title, sections of options (a row
of buttons, or a select with a header), the controls (Start over, Undo, End
turn) and optionally a picture of the options. The Discord adapter draws
it as components; the offline demo and the tests read it as it is.

Decisions:

* Phone first. A label carries the value first and only what tells the
  options of its menu apart; the explanation goes in the menu's title, the
  section's header or the option's ``detail`` (Discord's second line).
  Labels are never cut: a player is named in a label by their seat's colour
  word (:func:`seat_in_label`; the option's description and the menu's title
  name them in full); a button label is at most :data:`MAX_BUTTON_LABEL`
  wide, a select option's at most :data:`MAX_OPTION_LABEL`, and no two
  options of one menu share their first :data:`DISTINCT_PREFIX` characters —
  in every catalog language, a wide (CJK) character counting as two
  (:func:`width`). The picker's tests check it over random positions. A
  text's widths and first columns are measured once per value of the text
  (:attr:`~bot.i18n.Text.value_key`), whichever object holds it, and
  remembered as values and strings only (bounded): laying a menu out tries
  many arrangements of the same labels, and the next menu repeats most of them.
* A menu fits one Discord message: at most :data:`MAX_ROWS` rows, the
  controls' row included; a select holds at most :data:`MAX_SELECT_OPTIONS`
  options, a row at most :data:`BUTTONS_PER_ROW` buttons.
* An option that ``plays`` is the button that plays its step (a quick
  decision, a confirmation): its label says the step.
* ``path`` is the notation an option fixes (the verb and the words chosen
  by it) and ``within`` the next words a group narrows to: what a player
  reading the menu knows of where an option leads (the demo's sensible
  tapper follows them; nothing sent back is trusted).
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import LANGUAGES, Text

#: Discord's most options in one select
MAX_SELECT_OPTIONS = 25
#: a message's most rows (Discord's action rows)
MAX_ROWS = 5
#: a row's most buttons
BUTTONS_PER_ROW = 5
#: the widest button label (a wide character counts two)
MAX_BUTTON_LABEL = 20
#: the widest select option label
MAX_OPTION_LABEL = 40
#: no two options of a menu share this many first characters
DISTINCT_PREFIX = 20
#: the widest option description (Discord's limit)
MAX_DETAIL = 100
#: the longest select placeholder, a select's header (Discord's limit)
MAX_HEADER = 150

#: the mark of an option whose step cannot be taken back (it plays at once), and of
#: the menu title's line saying why
FINAL_MARK = "🔒"
#: the controls' tokens: start over, undo, end the turn
RESTART, UNDO, END = "r", "u", "e"


class Widget(enum.Enum):
    """How a section is shown."""

    BUTTONS = "buttons"
    SELECT = "select"


class Style(enum.Enum):
    """A button's colour."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class Option:
    """One choice: the token sent back, its label, and where it leads."""

    token: str
    label: Text
    detail: Text | None = None
    path: tuple[str, ...] = ()
    within: frozenset[str] = frozenset()
    plays: bool = False
    style: Style = Style.PRIMARY
    #: it starts, adds to or takes from a layout entered item by item (a lightning
    #: layout): it leads to the layout's next menu, whatever its path spells
    layout: bool = False
    #: it plays a step that cannot be taken back (the title says why; drawn marked)
    final: bool = False
    #: the next step's pick it opens once its step is played (that verb and its first
    #: words): a decision merged with the seat's next choice
    follow: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A row of buttons, or one select (with a header saying what is inside)."""

    widget: Widget
    options: tuple[Option, ...]
    header: Text | None = None
    min_values: int = 1
    max_values: int = 1

    @property
    def rows(self) -> int:
        if self.widget is Widget.SELECT:
            return 1
        return -(-len(self.options) // BUTTONS_PER_ROW)


@dataclass(frozen=True)
class Menu:
    """A seat's next choice (see the module docstring).

    ``token`` is the pick so far (sent back with the chosen option tokens);
    ``picture`` the engine's view of the options when it has one (the
    service draws it), e.g. a Tikal hex in each distinct rotation.
    """

    token: str
    title: Text
    sections: tuple[Section, ...]
    controls: tuple[Option, ...] = ()
    picture: Mapping[str, Any] | None = None

    @property
    def options(self) -> tuple[Option, ...]:
        return tuple(o for section in self.sections for o in section.options)

    @property
    def rows(self) -> int:
        return sum(s.rows for s in self.sections) + (1 if self.controls else 0)

    def option(self, token: str) -> Option | None:
        return next((o for o in (*self.options, *self.controls) if o.token == token), None)


def width(text: str) -> int:
    """How wide ``text`` shows: a wide or full-width character (CJK) counts two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def prefix(text: str, wide: int = DISTINCT_PREFIX) -> str:
    """The first ``wide`` columns of ``text`` (a wide character counting two)."""
    if text.isascii():
        return text[:wide]
    shown = 0
    for index, ch in enumerate(text):
        shown += width(ch)
        if shown > wide:
            return text[:index]
    return text


#: a player named inside a label: by their seat's colour word (never cut)
SEAT_IN_LABEL = "picker.seat"
#: a seat without a known colour, by its number
SEAT_NUMBER = "picker.seat_number"


def seat_in_label(short: Text, name: str) -> Text:
    """A player inside a label: ``short`` (their colour's word) shows; ``name``, their
    whole display name, is kept for the option's description and the menu's title
    (:func:`spelled_out`)."""
    return Text(SEAT_IN_LABEL, {"short": short, "name": name})


def spelled_out(text: Text) -> Text:
    """``text`` with each player named in full instead of by their colour's word."""
    if text.key == SEAT_IN_LABEL:
        return Text("picker.word", {"word": text.params["name"]})
    if not any(isinstance(v, Text) for v in text.params.values()):
        return text
    return Text(
        text.key,
        {k: spelled_out(v) if isinstance(v, Text) else v for k, v in text.params.items()},
    )


def seats_named(text: Text) -> list[Text]:
    """The players ``text`` names by their colour's word (:func:`seat_in_label`)."""
    if text.key == SEAT_IN_LABEL:
        return [text]
    return [found for v in text.params.values() if isinstance(v, Text) for found in seats_named(v)]


def names_seat(text: Text) -> bool:
    """Whether ``text`` names a player by their colour's word (:func:`seat_in_label`)."""
    return text.key == SEAT_IN_LABEL or any(
        isinstance(v, Text) and names_seat(v) for v in text.params.values()
    )


def widest(text: Text) -> int:
    """How wide ``text`` shows in its widest catalog language (measured once per
    value, :func:`measured`)."""
    value = measured(text)
    if value is None:
        return max(width(text.render(lang)) for lang in LANGUAGES)
    found = _WIDEST.get(value)
    if found is None:
        if len(_WIDEST) >= MAX_REMEMBERED:
            _WIDEST.clear()
        found = _WIDEST[value] = max(width(shown) for shown in _rendered(text, value))
    return found


def fits(text: Text, limit: int) -> bool:
    """Whether ``text`` is at most ``limit`` wide in every catalog language."""
    return widest(text) <= limit


def measured(text: Text) -> tuple[Any, ...] | None:
    """What a text's measures are remembered by: its value (:attr:`Text.value_key`), so
    equal texts are measured once whichever objects hold them."""
    return text.value_key


def _rendered(text: Text, value: tuple[Any, ...]) -> tuple[str, ...]:
    """``text`` in each catalog language (remembered by value)."""
    found = _RENDERED.get(value)
    if found is None:
        if len(_RENDERED) >= MAX_REMEMBERED:
            _RENDERED.clear()
        found = _RENDERED[value] = tuple(text.render(lang) for lang in LANGUAGES)
    return found


#: measures remembered by a text's value (:func:`measured`), bounded: what a text shows
#: in each language, how wide its widest language is, its first columns in each language
#: (values and strings only: no text object is held)
_RENDERED: dict[tuple[Any, ...], tuple[str, ...]] = {}
_WIDEST: dict[tuple[Any, ...], int] = {}
_HEADS: dict[tuple[tuple[Any, ...], int], tuple[str, ...]] = {}
MAX_REMEMBERED = 20_000


def distinct(labels: Sequence[Text], wide: int = DISTINCT_PREFIX) -> bool:
    """Whether no two ``labels`` share their first ``wide`` columns, in any language."""
    heads = [_heads(label, wide) for label in labels]
    for lang in range(len(LANGUAGES)):
        starts = {head[lang] for head in heads}
        if len(starts) != len(heads):
            return False
    return True


def _heads(text: Text, wide: int) -> tuple[str, ...]:
    """The first ``wide`` columns of ``text`` in each catalog language."""
    value = measured(text)
    if value is None:
        return tuple(prefix(text.render(lang), wide) for lang in LANGUAGES)
    found = _HEADS.get((value, wide))
    if found is None:
        if len(_HEADS) >= MAX_REMEMBERED:
            _HEADS.clear()
        shown = _rendered(text, value)
        found = _HEADS[value, wide] = tuple(prefix(one, wide) for one in shown)
    return found


def label_limit(widget: Widget) -> int:
    return MAX_BUTTON_LABEL if widget is Widget.BUTTONS else MAX_OPTION_LABEL
