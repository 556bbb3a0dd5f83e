"""Verb tables: one declaration per action gives its notation, parser and commands.

An engine's actions are frozen dataclasses decorated with :func:`verb`, which
names the verb and its parameters as data (:class:`Param`: a name and a
:class:`ValueKind` such as a square, a colour or a count). From that one
declaration come:

* ``str(action)``: the notation (``tile red F5``), which the move log stores;
* :meth:`VerbTable.parse`: notation back to the action, refusing anything
  else with a :class:`~bot.games.base.RuleError` — never another exception;
* the generated slash commands (``/tigris tile colour:red square:F5``), one
  subcommand per verb and one option per parameter;
* their autocomplete, which matches each parameter's words against the
  words of the legal actions (:meth:`VerbTable.words`).

Decisions:

* Words are separated by any whitespace; the verb is matched without regard
  to case, and each kind decides how strict its own words are.
* Digits are ASCII only: ``str.isdigit`` also accepts superscripts and other
  scripts' digits, which ``int`` then rejects (or reads as another number).
  :func:`ascii_int` is the one reader of a number a user typed or a token
  carried: the engines' notation, and the service's and the adapter's
  decoders of picker tokens and custom_ids.
* A parameter with ``rest=True`` is last and takes every remaining word, as
  a tuple of values (``swap red red blue``); ``optional=True`` lets a last
  parameter be left out (its field is then ``None``).
* A notation longer than :data:`MAX_NOTATION` characters is refused before
  it is split, so arbitrary input costs nothing.
* A table remembers the actions it parsed, by their text (at most
  :data:`PARSED_MEMORY`, forgotten all at once when full): an action is a
  frozen value of its text alone, so the same object serves every reader (a
  step's command, an undo's replay of the steps since the checkpoint, the log).
  A refused text is not remembered. An action spells its notation once
  (``str(action)``, kept with the action).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.games.errors import RuleError

V = TypeVar("V")
T = TypeVar("T")

#: the longest notation parsed; longer text is refused unread
MAX_NOTATION = 200
#: the most actions a verb table remembers by their text (:meth:`VerbTable.parse`)
PARSED_MEMORY = 4096
#: where an action keeps its notation once spelled (``str(action)``)
_SPELLED = "_notation"

Label = tuple[str, Mapping[str, Any]]


def _rule_error(key: str, **params: Any) -> RuleError:
    return RuleError(key, **params)


#: the most digits :func:`ascii_int` reads by default (a count, a row, an option index)
MAX_DIGITS = 9


def ascii_int(
    word: str, low: int | None = None, high: int | None = None, *, digits: int = MAX_DIGITS
) -> int:
    """The integer written with ASCII digits in ``word``; :class:`ValueError` otherwise.

    The one reader of a number a user typed or a token carried (notation,
    picker tokens, custom_ids, settings). ``low``/``high`` bound it
    (inclusive); at most ``digits`` digits are read (an id: 19). A sign,
    whitespace, ``_`` or any other character, superscripts, circled,
    full-width and non-Latin digits included, is refused.
    """
    if (
        not isinstance(word, str)
        or not 0 < len(word) <= digits
        or not all("0" <= ch <= "9" for ch in word)
    ):
        raise ValueError(word)
    value = int(word)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(word)
    return value


class ValueKind(Generic[V]):
    """How the values of one kind of parameter are read and written.

    ``name`` is the kind's name (``square``, ``hex``, ``colour``, ``count``,
    ``rotation``...). :meth:`parse` raises :class:`ValueError` (or a
    :class:`~bot.games.base.RuleError` with a more precise catalog key) for
    a word it does not accept; :meth:`format` is its inverse on the values it
    returns. :meth:`label` names a value in words (a catalog key and its
    params) for autocomplete and buttons, or returns None to show the word.
    """

    name: str = "word"

    def parse(self, word: str) -> V:
        raise NotImplementedError

    def format(self, value: V) -> str:
        return str(value)

    def label(self, value: V) -> Label | None:
        return None


class Count(ValueKind[int]):
    """A whole number from ``low`` to ``high``, in ASCII digits."""

    name = "count"

    def __init__(self, low: int = 0, high: int = 99) -> None:
        self.low = low
        self.high = high

    def parse(self, word: str) -> int:
        return ascii_int(word, self.low, self.high)


class Words(ValueKind[str]):
    """One of a fixed set of words (``red``, ``king``); aliases map to a canonical word.

    ``label_prefix`` names a catalog key per value (``tigris.colour.`` +
    ``red``); without it values are shown as typed.
    """

    def __init__(
        self,
        name: str,
        words: Iterable[str],
        *,
        aliases: Mapping[str, str] | None = None,
        label_prefix: str | None = None,
    ) -> None:
        self.name = name
        self.words = tuple(words)
        self._lookup = {w.lower(): w for w in self.words}
        for alias, word in (aliases or {}).items():
            self._lookup[alias.lower()] = word
        self.label_prefix = label_prefix

    def parse(self, word: str) -> str:
        return self._lookup[word.strip().lower()]

    def label(self, value: str) -> Label | None:
        return (self.label_prefix + value, {}) if self.label_prefix else None


@dataclass(frozen=True)
class Param:
    """One parameter of a verb: its name (the dataclass field and the slash option)
    and its kind. ``rest``: the last parameter takes every remaining word (a tuple,
    ``min_items`` to ``max_items`` of them). ``optional``: a last parameter that may
    be left out."""

    name: str
    kind: ValueKind[Any]
    rest: bool = False
    min_items: int = 1
    max_items: int = 1
    optional: bool = False

    def format(self, value: Any) -> str:
        if self.rest:
            return " ".join(self.kind.format(item) for item in value)
        return self.kind.format(value)


@dataclass(frozen=True)
class Verb:
    """A verb of the notation: its word, the action class it builds and its parameters."""

    name: str
    action: type
    params: tuple[Param, ...] = ()

    def words(self, action: Any) -> dict[str, str]:
        """Each parameter's written value (a ``rest`` parameter's words joined)."""
        shown: dict[str, str] = {}
        for param in self.params:
            value = getattr(action, param.name)
            if value is not None:
                shown[param.name] = param.format(value)
        return shown

    def notation(self, action: Any) -> str:
        return self.spell(self.words(action).values())

    def spell(self, written: Iterable[str | None]) -> str:
        """The notation this verb spells with its parameters' written values, in order
        (a rest parameter's items joined by spaces; one that is None left out).

        The one place words become notation: an action's ``str``, a slash command's
        options (:mod:`bot.discord.cogs.games`) and the move picker's taps
        (:mod:`bot.service.picker`) all spell through it."""
        return " ".join([self.name, *[word for word in written if word is not None]])

    def build(self, args: Sequence[str]) -> Any:
        """The action from the words after the verb; :class:`ValueError` if they do not fit."""
        values: dict[str, Any] = {}
        index = 0
        for position, param in enumerate(self.params):
            last = position == len(self.params) - 1
            if param.rest:
                if not last:
                    raise ValueError("a rest parameter must be last")
                items = args[index:]
                if not param.min_items <= len(items) <= param.max_items:
                    raise ValueError("wrong number of items")
                values[param.name] = tuple(param.kind.parse(word) for word in items)
                index = len(args)
            elif index < len(args):
                values[param.name] = param.kind.parse(args[index])
                index += 1
            elif param.optional and last:
                values[param.name] = None
            else:
                raise ValueError("missing parameter")
        if index != len(args):
            raise ValueError("too many words")
        return self.action(**values)


class Notated(Protocol):
    """An action class made by :func:`verb`."""

    VERB: ClassVar[Verb]


def verb(name: str, *params: Param) -> Callable[[type[T]], type[T]]:
    """Declare a frozen dataclass an action: its verb word and its parameters.

    The parameters must be the dataclass's fields, in order; ``str(action)``
    becomes the notation.
    """

    def declare(cls: type[T]) -> type[T]:
        fields = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        if fields != [p.name for p in params]:
            raise TypeError(f"{cls.__name__}: fields {fields} do not match the verb's parameters")
        declared = Verb(name, cls, tuple(params))

        def spelled(action: Any) -> str:
            """The action's notation, spelled once per action (kept in its ``__dict__``:
            a frozen value, and no field, so equality, hashing and ``repr`` ignore it)."""
            known: dict[str, Any] = action.__dict__
            text: str | None = known.get(_SPELLED)
            if text is None:
                text = known[_SPELLED] = declared.notation(action)
            return text

        cls.VERB = declared  # type: ignore[attr-defined]
        cls.__str__ = spelled  # type: ignore[method-assign]
        return cls

    return declare


class VerbTable:
    """An engine's verbs, in the order its commands are listed.

    ``error_key`` is the catalog key of the refusal for text that is not an
    action (with the param ``text``); a kind's own :class:`RuleError` is
    turned into that refusal too, so the player sees what they typed.
    """

    def __init__(self, actions: Iterable[type], *, error_key: str) -> None:
        self.verbs: dict[str, Verb] = {}
        for cls in actions:
            declared: Verb = cls.VERB  # type: ignore[attr-defined]
            if declared.name in self.verbs:
                raise ValueError(f"verb {declared.name!r} declared twice")
            self.verbs[declared.name] = declared
        self.error_key = error_key
        #: the actions parsed, by their text (see the module docstring)
        self._parsed: dict[str, Any] = {}

    def __iter__(self) -> Iterator[Verb]:
        return iter(self.verbs.values())

    def __contains__(self, name: object) -> bool:
        return name in self.verbs

    def __getitem__(self, name: str) -> Verb:
        return self.verbs[name]

    def of(self, action: Any) -> Verb:
        """The verb of an action value."""
        declared: Verb = type(action).VERB
        return declared

    def parse(self, text: str) -> Any:
        """The action written as ``text``; a RuleError (``error_key``) for anything else."""
        known = self._parsed.get(text) if type(text) is str else None
        if known is not None:
            return known
        if not isinstance(text, str) or len(text) > MAX_NOTATION:
            raise _rule_error(self.error_key, text=str(text)[:MAX_NOTATION])
        words = text.split()
        if not words or words[0].lower() not in self.verbs:
            raise _rule_error(self.error_key, text=text)
        try:
            action = self.verbs[words[0].lower()].build(words[1:])
        except (ValueError, KeyError, TypeError, IndexError, RuleError):
            raise _rule_error(self.error_key, text=text) from None
        if len(self._parsed) >= PARSED_MEMORY:
            self._parsed.clear()
        self._parsed[text] = action
        return action

    def words(self, action: Any) -> tuple[str, dict[str, str]]:
        """An action's verb and each parameter's written value."""
        declared = self.of(action)
        return declared.name, declared.words(action)
