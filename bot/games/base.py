"""The engine contract every game implements.

A game is a pure rules engine: no I/O, no Discord, no asyncio. It subclasses
:class:`GameEngine`, *declares* its shape as class attributes and implements
a few functions; every optional hook has a default here, so the service
calls methods and never probes with ``getattr``.

Declared (class attributes):

* ``name``, ``title_key``, ``help_key``, ``min_players``/``max_players``;
* ``turns``: :class:`TurnShape` — sequential (one seat at a time, possibly
  many steps per turn) or simultaneous (sealed submissions from several
  seats per round);
* ``has_private_view``: whether a seat has anything only it may see;
* ``seat_colours``: the seats' colours when the game gives seats a colour
  (Tikal's pieces); empty means the service's palette;
* ``options``: the lobby options (:class:`OptionSpec`);
* ``verbs``: the :class:`~bot.games.notation.VerbTable` from which the
  parser, the notation, the slash commands and their autocomplete derive.

Decisions recorded here:

* Seats are ints ``0..n-1`` in turn order. Engines never see Discord users.
* All randomness comes from a seeded RNG whose state lives in the game
  state, so ``new_game`` with the same seed followed by the same move log
  rebuilds the same state (replays, undo and tests rely on it).
* ``apply`` is atomic: it raises :class:`RuleError` and leaves the state
  untouched, or applies the whole action and returns its events.
* ``public_view`` is the only input of the public board image, so it must
  not contain hidden data (hands, bag order, hidden scores, sealed moves).
* States are stored as JSON through ``dump_state``/``load_state``.
* Words, not notation: what the hooks say (``prompt``, ``describe``,
  ``step_summary``, ``choice_label``) is read by players who tap, in their
  language. A sentence that names what a player may do names the picker's
  buttons by their labels (:func:`verbs_text`, ``<game>.verb.<verb>``) and
  points to the Play button (:data:`PLAY_BUTTON`); notation (``place C4 2``)
  is only for where a player types. The defaults say an action with its
  verb's label and its values' labels (:func:`in_words`).
* A step is **calm** when working it out can never search: no search over
  layouts or moves, no cache filled over the whole card set, nothing but
  work bounded by the board's size (a few milliseconds at most, with every
  cache cold). The engine says which steps are (:meth:`GameEngine.calm`);
  the service applies exactly those on the event loop and runs everything
  else on its engine threads (:func:`bot.service.play.off_loop`). The
  default is that nothing is calm, so an engine opts in, step by step,
  where it knows. The move picker's work is no step: a menu's build (legal
  values, labels, each option judged on a copy) takes milliseconds, so it
  stays on the engine threads whatever the steps are.
* A hidden action is **revealed** by its own step when that step's public
  events name it (the last sealed submission of a round, whose reveal names
  every seat's): the engine says so (:meth:`GameEngine.reveals`), since only
  it knows what its events tell; the service then answers the step's player
  with its public message alone when they hold no private event of the step
  (:mod:`bot.service.play`). An engine that reveals drops its player's private
  receipt at the reveal (it would only repeat the public line). The default
  is that nothing is revealed, so the player is answered privately first.
* A step is a **checkpoint** (it cannot be undone, nor anything before it)
  when :meth:`GameEngine.is_checkpoint` says so — it drew or revealed
  something — or when it handed the game to other seats (the service
  decides that part). The default is that every step is a checkpoint, so an
  engine opts in to undo.
"""

from __future__ import annotations

import enum
import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from bot.games.errors import RuleError as RuleError
from bot.games.errors import Seat as Seat
from bot.games.notation import Label, VerbTable
from bot.i18n import Text, either, join_texts

if TYPE_CHECKING:
    from bot.games.computer import Brain

JSON = Any
S = TypeVar("S")  # an engine's state
A = TypeVar("A")  # an engine's action


def verb_key(game: str, verb: str) -> str:
    """The catalog key of a verb's label on the picker's buttons (``Move``)."""
    return f"{game}.verb.{verb}"


def button_text(label: Text) -> Text:
    """A button named in a sentence ("tap **Play**")."""
    return Text("game.button_named", {"label": label})


#: the Play button (it opens the move picker), named in a sentence
PLAY_BUTTON = button_text(Text("picker.play_button"))


def verbs_text(game: str, verbs: Sequence[str]) -> Text:
    """The picker's buttons for ``verbs``, named as alternatives ("**Move**, **Dig**
    or **End turn**"): a sentence listing what a player may do. Built once per game
    and verbs (a prompt names them at every step; a text is never changed)."""
    return _verbs_text(game, tuple(verbs))


@functools.lru_cache(maxsize=256)
def _verbs_text(game: str, verbs: tuple[str, ...]) -> Text:
    return either([button_text(Text(verb_key(game, verb))) for verb in verbs])


def in_words(game: str, table: VerbTable, action: Any) -> tuple[str, dict[str, Any]]:
    """An action in words without a sentence of its own: its verb's label and each
    value's label (the word itself where its kind has none), ``Move: B6, A7``."""
    declared = table.of(action)
    values: list[Text] = []
    for param in declared.params:
        value = getattr(action, param.name)
        if value is None:
            continue
        for item in value if param.rest else (value,):
            label = param.kind.label(item)
            values.append(
                Text(*label) if label else Text("picker.word", {"word": param.kind.format(item)})
            )
    verb = Text(verb_key(game, declared.name))
    if not values:
        return "choice.verb", {"verb": verb}
    return "choice.words", {"verb": verb, "values": join_texts(values)}


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the public announcement.

    ``key`` is an i18n catalog key; ``params`` as for :class:`RuleError`.
    ``private_to`` marks an event only that seat may see (e.g. the tiles it
    drew); the service never shows it publicly. ``receipt`` marks an event
    that only acknowledges the step ("sealed a move").
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    private_to: Seat | None = None
    #: only acknowledges the step itself ("sealed a move"): left out when the
    #: game or the table played the step for the seat, whose line says it already
    receipt: bool = False


class TurnShape(enum.Enum):
    """How a game asks for input."""

    #: one seat at a time; a turn may be many steps by the same seat
    SEQUENTIAL = "sequential"
    #: sealed submissions from several seats, resolved together
    SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True)
class OptionSpec:
    """A lobby option: a name and the allowed values, in the order players read them.

    ``default`` is the value chosen when nobody picks one (when not given, the
    first choice). ``description_key`` describes the option;
    ``<description_key>.name`` names it and ``<description_key>.<value>`` names
    each value in every catalog language.
    """

    name: str
    choices: tuple[str, ...]
    description_key: str
    default_choice: str | None = None

    def __post_init__(self) -> None:
        if self.default_choice is not None and self.default_choice not in self.choices:
            raise ValueError(f"option {self.name}: default {self.default_choice!r} not a choice")

    @property
    def default(self) -> str:
        return self.choices[0] if self.default_choice is None else self.default_choice


@dataclass(frozen=True)
class SeatColour:
    """A seat's colour: ``#rrggbb`` for images and a catalog key naming it."""

    hex: str
    name_key: str


@dataclass(frozen=True)
class Result:
    """The end of a game.

    ``ranking`` lists seats best first; ``places`` gives each seat's place
    (1-based, tied seats share a place). ``scores`` is each seat's headline
    score and ``details`` an i18n key+params per seat explaining it.
    """

    ranking: tuple[Seat, ...]
    places: Mapping[Seat, int]
    scores: Mapping[Seat, int]
    details: Mapping[Seat, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Suggestion:
    """One autocomplete value: the word sent and, optionally, a label in words.

    ``short`` is the value's label in the move picker: the value first and only
    what tells it apart from the other values (``C5 · 2 AP``), at most 40 wide
    (20 where the values are buttons); ``label`` then goes on its second line.
    """

    value: str
    label: Label | None = None
    short: Label | None = None


@dataclass(frozen=True)
class LayoutGroup:
    """The next items of a layout entered item by item, of one kind (the bricks
    of one length): ``word`` names the group, ``label`` is its option, ``title``
    the menu of its items; ``items`` are each item's word and label."""

    word: str
    label: Label
    title: Label
    items: tuple[tuple[str, Label], ...]


@dataclass(frozen=True)
class LayoutStep:
    """What a layout entered item by item (a race layout, brick by brick)
    allows next: see :meth:`GameEngine.layout_step`.

    ``title`` says the layout so far in words; ``groups`` the items that may
    be added now; ``complete`` whether the items so far are a whole legal
    action (it may be submitted); ``start`` labels the option that starts
    such a layout, ``remove`` the one that takes the last item back.
    """

    title: Label
    groups: tuple[LayoutGroup, ...]
    complete: bool
    start: Label
    remove: Label


@dataclass(frozen=True)
class Deadline:
    """A named timer the game wants while it is in some situation.

    ``name`` identifies the situation (``round:3``, ``race:1``): the service
    arms a timer the first time it sees a name, ``seconds`` from then, and
    never moves it while the name stays wanted; it drops the timer when the
    engine stops listing the name. At expiry the service applies
    :meth:`GameEngine.timeout_actions` for that name as one batch.
    """

    name: str
    seconds: float


class GameEngine(ABC, Generic[S, A]):
    """One rules engine; subclasses declare their shape and implement the rules."""

    # -- declared shape --------------------------------------------------------

    name: ClassVar[str]
    title_key: ClassVar[str]
    #: the rules summary shown by ``/help <game>``
    help_key: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    turns: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_private_view: ClassVar[bool] = False
    seat_colours: ClassVar[tuple[SeatColour, ...]] = ()
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    verbs: ClassVar[VerbTable]
    #: (verb, parameter) pairs the move picker shows with a picture of the choices
    #: (:meth:`picture`), each in a menu of its own (a Tikal hex's rotation)
    pictured: ClassVar[frozenset[tuple[str, str]]] = frozenset()
    #: (verb, parameter) pairs of board squares the picker lists in ``legal_values``'
    #: order (a Tikal move's destinations, cheapest first) rather than board order
    ranked: ClassVar[frozenset[tuple[str, str]]] = frozenset()
    #: the move picker merges each public decision (``public_choices``) with the same
    #: seat's next choice when one verb follows it (an auction's hex with the space it is
    #: laid on), so the decision and where it leads are one tap
    chains: ClassVar[bool] = False

    # -- the rules (required) --------------------------------------------------

    @abstractmethod
    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> S:
        """The first state for ``seats`` players; ``options`` are validated values."""

    @abstractmethod
    def waiting_for(self, state: S) -> set[Seat]:
        """The seats whose input the game needs now (empty once it is over)."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Apply ``action`` for ``seat`` in place, or raise :class:`RuleError` untouched."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every action ``seat`` may take now (its own view: it may name its hand)."""

    @abstractmethod
    def public_view(self, state: S) -> dict[str, JSON]:
        """Everything everyone may see, JSON-able; the only input of the public image."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """None while the game runs; the final ranking once it is over."""

    @abstractmethod
    def dump_state(self, state: S) -> JSON:
        """The state as JSON-able data."""

    @abstractmethod
    def load_state(self, data: JSON) -> S:
        """The state from :meth:`dump_state`'s data."""

    # -- notation --------------------------------------------------------------

    def parse_action(self, text: str) -> A:
        """The action written as ``text``; a :class:`RuleError` for anything else."""
        action: A = self.verbs.parse(text)
        return action

    # -- optional hooks, with their defaults -----------------------------------

    def player_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """How many players these lobby options allow (Mini-Tikal: exactly 2)."""
        return self.min_players, self.max_players

    def private_view(self, state: S, seat: Seat) -> dict[str, JSON]:
        """What only ``seat`` may see (its hand); empty for games without secrets."""
        return {}

    def private_view_changed(self, before: Mapping[str, JSON], after: Mapping[str, JSON]) -> bool:
        """Whether a seat's private view changed enough to send it again (a DM with
        its image). Default: any difference. A game whose private view repeats
        what everyone is told each round (its number, the dice) compares the rest."""
        return before != after

    def private_news(
        self, before: Mapping[str, JSON] | None, after: Mapping[str, JSON]
    ) -> list[tuple[str, Mapping[str, Any]]]:
        """What changed in a seat's private view from ``before`` to ``after``, in words
        (catalog keys and params): the lines of its DM, which comes with the image.
        ``before`` None asks for the view itself in words (the move picker shows it
        as the seat's picker opens). Empty when nothing the seat can see changed: no
        DM then. Default: one generic line (``hand.view``; ``hand.changed`` when
        :meth:`private_view_changed`)."""
        if before is None:
            return [("hand.view", {})]
        if self.private_view_changed(before, after):
            return [("hand.changed", {})]
        return []

    def told_in_place(self, state: S) -> bool:
        """Whether the game is amid a run of small public steps told by one message
        that each step replaces, with the board posted when the run ends (an
        auction's bids: ``state`` is after a bid that did not end the auction).
        Default: never."""
        return False

    def may_act(self, state: S, seat: Seat) -> bool:
        """Whether ``seat`` may submit now. Default: the game waits for it.

        A simultaneous game may let a seat that has already submitted change
        its sealed move until the round resolves.
        """
        return seat in self.waiting_for(state)

    def turn_number(self, state: S) -> int | None:
        """A number that changes whenever a turn or a round ends.

        The service treats a change as a hand-over even when the same seat
        is awaited again (a round won by the last seat to submit). Default:
        None, and only the awaited seats tell.
        """
        return None

    def prompt(self, state: S) -> tuple[str, Mapping[str, Any]] | None:
        """The question the game asks the seats it waits for (catalog key, params)."""
        return None

    def step_summary(self, state: S, seat: Seat) -> tuple[str, Mapping[str, Any]] | None:
        """A line for the acting seat after a step it continues from (``AP left: 4``)."""
        return None

    def public_notation(self, action: A) -> str:
        """How everyone else sees an action (a swap that hides its tiles)."""
        return str(action)

    def describe(self, action: A, public: bool = True) -> tuple[str, Mapping[str, Any]]:
        """An action in words: a catalog key and its params.

        A short phrase that follows "the game played for them:" or "Played:"
        (``pass``, ``a bid of 3``). With ``public`` (what everyone reads) it
        must hide what :meth:`public_notation` hides; without, it is for the
        acting player alone and may name everything. Params follow
        :class:`Event`'s rules (``*_seat`` ints become names;
        :class:`~bot.i18n.Text` values are translated). Default: the verb's
        label alone in public (its values may be what :meth:`public_notation`
        hides), with its values' labels for the player (:func:`in_words`) — a
        game overrides it to speak in sentences.
        """
        if public and self.public_notation(action) != str(action):
            return "choice.verb", {"verb": Text(verb_key(self.name, self.verbs.of(action).name))}
        return in_words(self.name, self.verbs, action)

    def reveals(self, state: S, seat: Seat, action: A, events: Sequence[Event]) -> bool:
        """Whether the public ones of ``events`` (the events of ``seat``'s ``action``
        just applied; ``state`` is after it) tell everything :meth:`describe` says of the
        action for its player alone, though its public description hides it: a sealed
        round's reveal naming each seat's submission. The step's public message then
        tells its player all their own answer would, but for their private events (the
        module's "revealed"). Must be cheap and never raise. Default: False (nothing is
        revealed)."""
        return False

    def public_choices(self, state: S, seat: Seat) -> list[A]:
        """The quick decision ``seat`` faces, as buttons on the public message.

        Everyone sees their labels, so the list must follow from public
        information alone (``legal_actions`` often does not: it may name the
        cards a seat holds); a choice the rules then refuse is answered like
        any move.
        """
        return []

    def private_choices(self, state: S, seat: Seat) -> list[A]:
        """Buttons only ``seat`` sees (ephemeral): its bids, its own decisions."""
        return []

    def choice_label(self, action: A) -> tuple[str, Mapping[str, Any]]:
        """A button's label in words: a catalog key and its params. Default: the
        verb's label and its values' labels (:func:`in_words`)."""
        return in_words(self.name, self.verbs, action)

    def end_turn_action(self, state: S, seat: Seat) -> A | None:
        """The action that ends ``seat``'s turn early, offered as an End-turn button."""
        return None

    def only_end_turn(self, state: S, seat: Seat) -> A | None:
        """The end-turn action (:meth:`end_turn_action`) when it is the only action
        ``seat`` may take now, else None: the step that can only end a turn ends it.
        Default: ``seat``'s legal actions, all of them written as the end-turn action
        (and at least one). An engine overrides it with an exact test that is
        cheaper than working out every legal action (Tikal stops at the first
        legal action that is not End turn)."""
        end = self.end_turn_action(state, seat)
        if end is None:
            return None
        legal = self.legal_actions(state, seat)
        return end if legal and all(str(a) == str(end) for a in legal) else None

    def calm(self, state: S, seat: Seat, action: A) -> bool:
        """Whether applying ``action`` for ``seat`` in ``state`` is calm: whatever the
        rules answer (the step applied, or a :class:`RuleError`), working it out can
        never search (no search over layouts or moves, no cache filled over the whole
        card set) and is bounded by the board's size. The service then applies it on
        the event loop, saving the hop to an engine thread; any other step is applied
        off the loop. Asked before the step, so it must be cheap, read ``state``
        only and never raise. Default: False (nothing is calm)."""
        return False

    def is_checkpoint(self, state: S, seat: Seat, action: A, events: Sequence[Event]) -> bool:
        """Whether the step just applied (``state`` is after it) may never be undone.

        True when it drew or revealed anything (a tile, a token, a random
        choice). Steps that hand the game over are checkpoints whatever this
        says. Default: every step is a checkpoint (no undo).
        """
        return True

    def suggested_actions(self, state: S, seat: Seat) -> list[A]:
        """What ``/play`` suggests to ``seat``: its legal actions, unless some must be
        found by the player (a race won by the first right answer). Default: all."""
        return self.legal_actions(state, seat)

    def layout_step(
        self, state: S, seat: Seat, verb: str, items: Sequence[str]
    ) -> LayoutStep | None:
        """A verb whose one ``rest`` parameter ``seat`` may enter item by item now
        (a lightning layout, brick by brick): what ``items`` so far allow next.
        None when ``verb`` is not entered so now; :class:`RuleError` when
        ``items`` are not legal so far. The engine decides what may follow, so
        the picker never offers an item the rules refuse. Default: None."""
        return None

    def legal_values(
        self,
        state: S,
        seat: Seat,
        verb: str,
        param: str,
        chosen: Mapping[str, str],
        *,
        legal: Sequence[A] | None = None,
    ) -> list[Suggestion]:
        """Autocomplete: the values ``param`` of ``verb`` can take given those ``chosen``.

        Default: read off ``legal_actions`` — the words of this verb's legal
        actions at that parameter whose earlier parameters match ``chosen``
        (case-insensitively; an empty chosen value matches anything).
        ``legal``: ``seat``'s legal actions in ``state`` when the caller has them
        already (the move picker asks for many parameters of one position); the
        answer is the same. Engines with many actions override it to generate
        only what is asked.
        """
        if verb not in self.verbs:
            return []
        declared = self.verbs[verb]
        param_spec = next((p for p in declared.params if p.name == param), None)
        if param_spec is None:
            return []
        found: dict[str, Suggestion] = {}
        for action in self.legal_actions(state, seat) if legal is None else legal:
            if type(action) is not declared.action:
                continue
            words = declared.words(action)
            if any(
                value and words.get(name, "").lower() != value.strip().lower()
                for name, value in chosen.items()
                if name != param
            ):
                continue
            word = words.get(param)
            if word is None or word in found:
                continue
            label = None if param_spec.rest else param_spec.kind.label(getattr(action, param))
            found[word] = Suggestion(word, label)
        return list(found.values())

    def verb_label(self, verb: str) -> tuple[str, Mapping[str, Any]]:
        """A verb's short name on a button (``Move``): at most 20 wide in every
        language. Default: the catalog string ``<game>.verb.<verb>``."""
        return verb_key(self.name, verb), {}

    def param_title(self, verb: str, param: str) -> tuple[str, Mapping[str, Any]]:
        """What a parameter asks, in words, in the move picker's titles (``Which
        square``). Default: its slash option's description,
        ``cmd.<game>.param.<param>``; a game whose description spells what to type
        (``4:A1 3:B2``) says it in words here."""
        return f"cmd.{self.name}.param.{param}", {}

    def verb_title(self, verb: str) -> tuple[str, Mapping[str, Any]]:
        """What a verb does, in a sentence (a menu's title). Default: its slash
        command's description, ``cmd.<game>.<verb>.description``."""
        return f"cmd.{self.name}.{verb}.description", {}

    def representative(self, state: S, action: A) -> A:
        """The one action the move picker offers for every action with the same effect
        as ``action`` (a Tikal hex turned to the same stones). Default: itself."""
        return action

    def value_groups(
        self, state: S, seat: Seat, verb: str, param: str, words: Sequence[str]
    ) -> list[tuple[tuple[str, Mapping[str, Any]], list[str]]] | None:
        """The move picker's groups of a parameter's values (``words``, more than one
        select holds), by what a player looks for: each a header (a catalog key and
        params: what is inside) and its words, in order. None: the picker's own
        (board squares by column band). Default: None."""
        return None

    def picture(
        self, state: S, seat: Seat, verb: str, chosen: Mapping[str, str]
    ) -> dict[str, JSON] | None:
        """The view a picture of the next choice is drawn from (``pictured``), given
        the values ``chosen``; the game's ``render_picture`` draws it. Default: none."""
        return None

    def deadlines(self, state: S) -> list[Deadline]:
        """The named deadlines the game wants now (a sealed round, a race)."""
        return []

    def timeout_action(self, state: S, seat: Seat) -> A | None:
        """What a late seat plays when its time runs out; it must leak nothing."""
        return None

    def auto_action(self, state: S, seat: Seat) -> A | None:
        """An answer the service may give for ``seat`` when its player opted in: one
        that cannot change the outcome and leaks nothing (a conflict already decided
        on public information alone). Default: none."""
        return None

    def up_next(self, state: S) -> Seat | None:
        """The seat that will be awaited after the current one, when the game knows it
        (its player gets a heads-up). Default: unknown."""
        return None

    def rules_examples(self) -> dict[str, Any]:
        """Fixed positions for the pictures of ``/rules``, built through the rules and
        given as views, by the name the game's ``render_rules`` draws them under
        (an annotated board, a worked scoring example). Default: none."""
        return {}

    def focus(self, state: S, seat: Seat) -> list[str]:
        """The board spaces where ``seat`` can act now, named as in the public view: the
        region a zoomed image beside the seat's preview shows (a board too dense to read
        at a phone's width). Default: none, no zoomed image."""
        return []

    def timeout_actions(self, state: S, deadline: str) -> list[tuple[Seat, A]]:
        """The actions applied, as one batch, when ``deadline`` expires.

        Default: :meth:`timeout_action` for every seat the game waits for, in
        seat order.
        """
        late: list[tuple[Seat, A]] = []
        for seat in sorted(self.waiting_for(state)):
            action = self.timeout_action(state, seat)
            if action is not None:
                late.append((seat, action))
        return late

    def computer(self) -> Brain[S, A] | None:
        """The game's computer player: what a search needs to play a seat from the
        seat's own information (:mod:`bot.games.computer`). Default: None, the game
        offers no computer player."""
        return None

    def retry_cooldown(self, state: S, seat: Seat, action: A, error: RuleError) -> float:
        """Seconds ``seat`` must wait before trying again after ``action`` was refused.

        A race decided by the first valid answer limits guessing this way;
        the default is no wait.
        """
        return 0.0


@dataclass(frozen=True)
class PlayerLabel:
    """What a renderer may know about a seat: a display name and a colour."""

    seat: Seat
    name: str
    colour: str  # "#rrggbb"


class PublicRenderer(Protocol):
    """``renderer.<game>.render_public``: public view -> PNG bytes in language ``lang``."""

    def __call__(
        self, view: Mapping[str, JSON], players: Sequence[PlayerLabel], lang: str = "en"
    ) -> bytes: ...


class PrivateRenderer(Protocol):
    """``renderer.<game>.render_private``: one seat's private view -> PNG bytes."""

    def __call__(
        self, view: Mapping[str, JSON], player: PlayerLabel, lang: str = "en"
    ) -> bytes: ...


class ZoomRenderer(Protocol):
    """``renderer.<game>.render_zoom``: the public map around ``focus`` -> PNG bytes, or
    None when the focus is empty or covers most of the map."""

    def __call__(
        self,
        view: Mapping[str, JSON],
        players: Sequence[PlayerLabel],
        lang: str,
        focus: Sequence[str],
    ) -> bytes | None: ...


class RulesRenderer(Protocol):
    """``renderer.<game>.render_rules``: one picture of ``/rules`` (``kind``: a key of
    the engine's ``rules_examples``) -> PNG bytes, or None when there is none."""

    def __call__(
        self,
        examples: Mapping[str, JSON],
        kind: str,
        players: Sequence[PlayerLabel],
        lang: str,
    ) -> bytes | None: ...


class PictureRenderer(Protocol):
    """``renderer.<game>....render_picture``: the engine's :meth:`GameEngine.picture`
    view -> PNG bytes in language ``lang``."""

    def __call__(self, view: Mapping[str, JSON], lang: str = "en") -> bytes: ...


@dataclass(frozen=True)
class GameType:
    """A registry entry: the engine and its renderers.

    ``render_private`` is None for a game without hidden information;
    ``render_zoom`` None for a board legible at a phone's width as it is;
    ``render_picture`` None for a game whose picker shows no pictures;
    ``render_rules`` None for a game whose ``/rules`` has no pictures.
    """

    engine: GameEngine[Any, Any]
    render_public: PublicRenderer
    render_private: PrivateRenderer | None = None
    render_zoom: ZoomRenderer | None = None
    render_rules: RulesRenderer | None = None

    render_picture: PictureRenderer | None = None
