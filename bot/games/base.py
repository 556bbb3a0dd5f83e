"""The engine contract every game implements.

A game is a pure rules engine: no I/O, no Discord, no asyncio. The service
drives it through :class:`GameEngine`; the registry (:mod:`bot.games`) maps a
game type name to one engine instance.

Decisions recorded here:

* Seats are ints ``0..n-1`` in turn order. Engines never see Discord users;
  the service maps seats to players.
* All randomness comes from a seeded RNG whose state lives in the game state,
  so ``new_game`` with the same seed followed by the same move log rebuilds
  the same state (the service relies on this for replays and tests).
* ``apply`` is atomic: it raises :class:`RuleError` and leaves the state
  untouched, or applies the whole action and returns its events.
* Actions are values with a short text notation; ``engine.parse_action(str(a))
  == a`` for every action ``a`` an engine produces. The move log stores the
  text.
* ``public_view`` is the only input of the public board image, so it must not
  contain hidden data (hands, bag order, hidden scores).
* States are stored as JSON through ``dump_state``/``load_state``.

Optional hooks the service uses when an engine defines them:

* ``public_notation(action) -> str``: how everyone else sees an action
  (a swap that hides its tiles, a card played face down); default ``str``.
* ``prompt(state) -> (key, params) | None``: the question the game is asking
  the seats it waits for, shown under "Waiting for".
* ``choice_label(action) -> (key, params)``: a button's label in words, for
  the actions ``public_choices`` offers; default: the notation.
* ``deadline_seconds(state) -> float | None`` and ``timeout_action(state,
  seat)``: a game with timed rounds plays the timeout action for late seats.
* ``public_choices(state, seat) -> list[action]``: the quick decision
  ``seat`` faces now, offered as buttons on the public board message. Their
  labels are seen by everyone, so the list must follow from public
  information alone (``legal_actions`` often does not: it lists the cards a
  seat holds); a choice the rules then refuse is answered like any move.
  Without the hook the service offers no buttons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Seat = int
JSON = Any


class RuleError(Exception):
    """An action the rules forbid. ``key`` is an i18n catalog key.

    ``params`` fill the catalog string. A param named ``seat`` or ending in
    ``_seat`` holding an int is shown as that seat's player name.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, {self.params!r})"


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the public announcement.

    ``key`` is an i18n catalog key; ``params`` as for :class:`RuleError`.
    ``private_to`` marks an event only that seat may see (e.g. the tiles it
    drew); the service never shows it publicly.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    private_to: Seat | None = None


@dataclass(frozen=True)
class OptionSpec:
    """A lobby option: a name, the allowed values (first is the default)."""

    name: str
    choices: tuple[str, ...]
    description_key: str

    @property
    def default(self) -> str:
        return self.choices[0]


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


@runtime_checkable
class Action(Protocol):
    """An action value; ``str(action)`` is its notation."""

    def __str__(self) -> str: ...


class GameEngine(Protocol):
    """One rules engine. Module-level functions wrapped in an object."""

    name: str  # registry key, e.g. "tigris"
    title_key: str  # i18n key of the display name
    min_players: int
    max_players: int
    options: Sequence[OptionSpec]

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> Any: ...

    def waiting_for(self, state: Any) -> set[Seat]: ...

    def apply(self, state: Any, seat: Seat, action: Any) -> list[Event]: ...

    def legal_actions(self, state: Any, seat: Seat) -> list[Any]: ...

    def parse_action(self, text: str) -> Any:
        """Parse notation; raises ``RuleError('error.bad_notation', text=...)``."""
        ...

    def public_view(self, state: Any) -> dict[str, JSON]: ...

    def private_view(self, state: Any, seat: Seat) -> dict[str, JSON]: ...

    def result(self, state: Any) -> Result | None: ...

    def dump_state(self, state: Any) -> JSON: ...

    def load_state(self, data: JSON) -> Any: ...


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


@dataclass(frozen=True)
class GameType:
    """A registry entry: the engine and its two renderers.

    ``render_private`` is None for a game without hidden information.
    """

    engine: GameEngine
    render_public: PublicRenderer
    render_private: PrivateRenderer | None = None
