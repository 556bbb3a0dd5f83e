"""Actions and their notation (one verb table: notation, parser, slash commands).

=================================  ================================================
``place C4 2``                     lay the hex in hand on C4, turned 2 × 60°
                                   clockwise (rotation 0–5)
``pick 2``                         auction: take the 2nd revealed hex
``bid 5`` / ``pass``               auction: bid 5 points / drop out of this auction
``enter A7`` / ``enter A7 leader`` put a worker (or the leader) from supply on the
                                   base camp or one of your camps (1 AP)
``move B6 C5`` / ``… leader``      move a worker (or the leader) from B6 to C5 by
                                   the cheapest way (stones crossed; 1 AP per
                                   secret passage between your camps)
``dig A6``                         uncover the temple on A6 one level (2 AP)
``recover D3``                     take the top treasure token of D3 (3 AP)
``exchange mask blue jade``        give your single mask to blue for their single
                                   jade (3 AP)
``camp C5``                        build a camp on C5 (5 AP)
``guard A6`` / ``guard A6 leader`` a worker (or the leader) on A6 becomes a guard
                                   (5 AP)
``end``                            end the turn (unused AP are lost)
=================================  ================================================

Decisions:

* The figure is the last, optional word of ``enter``, ``move`` and ``guard``
  and means a worker when left out; ``worker`` is accepted and written back
  without it, so ``parse_action(str(a)) == a`` holds.
* Another player is named by their colour (``red``, ``blue``, ``yellow``,
  ``white``), which is also the colour of their pieces on the board.
* A revealed auction hex is named by its slot, 1 to 4 from the left.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.notation import Count, Label, Param, ValueKind, VerbTable, Words, verb
from bot.games.tikal.board import Space, parse_space, space_name
from bot.games.tikal.components import FIGURES, LEADER, TREASURE_KINDS, WORKER
from bot.games.tikal.texts import colour_text

#: the seats' colours, in seat order; the word names the seat in the notation
SEAT_COLOURS = ("red", "blue", "yellow", "white")
MAX_SLOTS = 4
MAX_BID = 999


class SpaceKind(ValueKind[Space]):
    """A space of the map, ``C4`` (any case)."""

    name = "space"

    def parse(self, word: str) -> Space:
        return parse_space(word)

    def format(self, value: Space) -> str:
        return space_name(value)


class RotationKind(Count):
    """A rotation, 0 to 5 steps of 60° clockwise."""

    name = "rotation"

    def __init__(self) -> None:
        super().__init__(0, 5)

    def label(self, value: int) -> Label:
        return "tikal.label.rotation_plain", {"rotation": value, "degrees": value * 60}


class PlayerKind(ValueKind[int]):
    """Another player, by the colour of their pieces (``blue``)."""

    name = "player"

    def parse(self, word: str) -> int:
        return SEAT_COLOURS.index(word.strip().lower())

    def format(self, value: int) -> str:
        return SEAT_COLOURS[value]

    def label(self, value: int) -> Label:
        return "tikal.label.player", {"seat": value, "colour": colour_text(SEAT_COLOURS[value])}


SPACE = SpaceKind()
ROTATION = RotationKind()
FIGURE = Words("figure", FIGURES, aliases={"w": WORKER, "l": LEADER}, label_prefix="tikal.figure.")
TREASURE = Words("treasure", TREASURE_KINDS, label_prefix="tikal.treasure.")
PLAYER = PlayerKind()


def _normal_figure(figure: str | None) -> str | None:
    """A worker is written without the word: ``worker`` becomes None."""
    return None if figure in (None, WORKER) else figure


class _OneFigure:
    """An action with one of the player's figures: a worker unless ``figure`` names
    another (a worker is stored as None, so both spellings are one action)."""

    figure: str | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "figure", _normal_figure(self.figure))

    @property
    def kind(self) -> str:
        return self.figure or WORKER


@verb("place", Param("space", SPACE), Param("rotation", ROTATION))
@dataclass(frozen=True)
class Place:
    """Lay the hex in hand on ``space`` turned ``rotation`` × 60° clockwise."""

    space: Space
    rotation: int


@verb("pick", Param("slot", Count(1, MAX_SLOTS)))
@dataclass(frozen=True)
class Pick:
    """Auction: take the revealed hex in ``slot`` (1 = leftmost)."""

    slot: int


@verb("bid", Param("amount", Count(0, MAX_BID)))  # 0 parses, to be refused with the minimum
@dataclass(frozen=True)
class Bid:
    """Auction: offer ``amount`` points for this turn."""

    amount: int


@verb("pass")
@dataclass(frozen=True)
class Pass:
    """Auction: drop out of this auction."""


@verb("enter", Param("space", SPACE), Param("figure", FIGURE, optional=True))
@dataclass(frozen=True)
class Enter(_OneFigure):
    """Put a figure from supply on the base camp or one of your camps."""

    space: Space
    figure: str | None = None


@verb(
    "move",
    Param("origin", SPACE),
    Param("target", SPACE),
    Param("figure", FIGURE, optional=True),
)
@dataclass(frozen=True)
class Move(_OneFigure):
    """Move a figure from ``origin`` to ``target`` by the cheapest way."""

    origin: Space
    target: Space
    figure: str | None = None


@verb("dig", Param("space", SPACE))
@dataclass(frozen=True)
class Dig:
    """Uncover the next level of the temple on ``space``."""

    space: Space


@verb("recover", Param("space", SPACE))
@dataclass(frozen=True)
class Recover:
    """Take the top treasure token of ``space``."""

    space: Space


@verb("exchange", Param("give", TREASURE), Param("player", PLAYER), Param("take", TREASURE))
@dataclass(frozen=True)
class Exchange:
    """Give your single ``give`` to ``player`` for their single ``take``."""

    give: str
    player: int
    take: str


@verb("camp", Param("space", SPACE))
@dataclass(frozen=True)
class Camp:
    """Build a camp on ``space``."""

    space: Space


@verb("guard", Param("space", SPACE), Param("figure", FIGURE, optional=True))
@dataclass(frozen=True)
class Guard(_OneFigure):
    """One of your figures on ``space`` becomes its guard."""

    space: Space
    figure: str | None = None


@verb("end")
@dataclass(frozen=True)
class End:
    """End the turn; unused AP are lost."""


Action = Place | Pick | Bid | Pass | Enter | Move | Dig | Recover | Exchange | Camp | Guard | End

#: the verbs, in the order ``/tikal`` lists them
VERBS = VerbTable(
    (Place, Pick, Bid, Pass, Enter, Move, Dig, Recover, Exchange, Camp, Guard, End),
    error_key="tikal.error.bad_notation",
)
#: verbs that spend action points
AP_VERBS = ("enter", "move", "dig", "recover", "exchange", "camp", "guard")


def parse_action(text: str) -> Action:
    """Read an action from its notation; ``RuleError('tikal.error.bad_notation')`` otherwise."""
    action: Action = VERBS.parse(text)
    return action


def action_spaces(action: Action) -> list[Space]:
    """The spaces an action names (the image marks them as the last action)."""
    if isinstance(action, Move):
        return [action.origin, action.target]
    if isinstance(action, Place | Enter | Dig | Recover | Camp | Guard):
        return [action.space]
    return []
