"""Actions and their notation: one verb table gives the parser, ``str(action)``
and the ``/temple`` slash commands.

Areas are ``1``..``3``, cells a column letter and a row number (``C2``: third
column, second row from the ground), lengths ``1``..``4``, players their seat
number ``1``..``4``, and a brick in a layout is ``length:cell`` of its left
end (``4:A1``). Words are read in any case; digits are ASCII only.

Decisions:

* A brick already laid is named by any cell it covers; the canonical
  notation (what ``legal_actions`` lists) names its left end.
* ``swap`` puts the new brick where its last word says (``to_cell``), by
  default at the old brick's left end.
* Bricks of a ``lightning`` or ``relay`` layout keep the order they were
  typed in, so a refusal can name "brick 3" as the player wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import RuleError
from bot.games.notation import MAX_NOTATION, Label, Param, ValueKind, VerbTable, ascii_int, verb
from bot.games.temple.components import (
    BRICKS_PER_PLAYER,
    COLUMN_LETTERS,
    LENGTHS,
    MAX_AREAS,
    MAX_HEIGHT,
    MAX_PLAYERS,
    cell_name,
)
from bot.games.temple.geometry import Brick, Cell
from bot.games.temple.naming import brick_name

PARTS = ("brick", "swap", "hammer", "bag", "mortar", "relay", "joint")


def parse_cell(word: str) -> Cell:
    """``"C2"`` (any case) -> ``(2, 1)``; :class:`ValueError` otherwise."""
    word = word.strip()
    if len(word) < 2:
        raise ValueError(word)
    column = COLUMN_LETTERS.find(word[0].upper())
    if column < 0 or not word[0].isascii():
        raise ValueError(word)
    return column, ascii_int(word[1:], 1, MAX_HEIGHT) - 1


def parse_brick(word: str) -> Brick:
    """``"4:A1"`` -> ``Brick(4, 0, 0)``; :class:`ValueError` otherwise."""
    length, sep, cell = word.strip().partition(":")
    if not sep:
        raise ValueError(word)
    x, y = parse_cell(cell)
    return Brick(ascii_int(length, min(LENGTHS), max(LENGTHS)), x, y)


class AreaKind(ValueKind[int]):
    """A build area, ``1``..``3`` (0-based inside)."""

    name = "area"

    def parse(self, word: str) -> int:
        return ascii_int(word.strip(), 1, MAX_AREAS) - 1

    def format(self, value: int) -> str:
        return str(value + 1)

    def label(self, value: int) -> Label:
        return "temple.label.area", {"area": value + 1}


class CellKind(ValueKind[Cell]):
    """A cell of a card's grid, ``A1``..``H6``."""

    name = "cell"

    def parse(self, word: str) -> Cell:
        return parse_cell(word)

    def format(self, value: Cell) -> str:
        return cell_name(*value)


class LengthKind(ValueKind[int]):
    """A brick length, ``1``..``4``."""

    name = "length"

    def parse(self, word: str) -> int:
        return ascii_int(word.strip(), min(LENGTHS), max(LENGTHS))

    def label(self, value: int) -> Label:
        return "temple.label.length", {"length": value}


class SeatKind(ValueKind[int]):
    """A player by seat number ``1``..``4`` (0-based inside); labelled by name."""

    name = "player"

    def parse(self, word: str) -> int:
        return ascii_int(word.strip(), 1, MAX_PLAYERS) - 1

    def format(self, value: int) -> str:
        return str(value + 1)

    def label(self, value: int) -> Label:
        return "temple.label.player", {"seat": value}


class BrickKind(ValueKind[Brick]):
    """One brick of a layout: ``length:cell`` of its left end (``4:A1``)."""

    name = "brick"

    def parse(self, word: str) -> Brick:
        return parse_brick(word)

    def format(self, value: Brick) -> str:
        return value.notation()

    def label(self, value: Brick) -> Label:
        """The brick by the cells it covers (``A1–D1``), as the board prints them."""
        named = brick_name(value)
        return named.key, dict(named.params)


class PartKind(ValueKind[str]):
    """A part of one's sealed submission, to cancel."""

    name = "part"

    def parse(self, word: str) -> str:
        part = word.strip().lower()
        if part not in PARTS:
            raise ValueError(word)
        return part

    def label(self, value: str) -> Label:
        return f"temple.part.{value}", {}


AREA = AreaKind()
CELL = CellKind()
LENGTH = LengthKind()
SEAT = SeatKind()
BRICK = BrickKind()
PART = PartKind()


@verb("place", Param("area", AREA), Param("cell", CELL), Param("length", LENGTH, optional=True))
@dataclass(frozen=True)
class Place:
    """Lay a supply brick with its left end on ``cell`` (length: the die, or any on a star)."""

    area: int
    cell: Cell
    length: int | None = None


@verb(
    "move",
    Param("from_area", AREA),
    Param("from_cell", CELL),
    Param("area", AREA),
    Param("cell", CELL),
)
@dataclass(frozen=True)
class Move:
    """Take the rolled length from another of one's builds (the supply has none)."""

    from_area: int
    from_cell: Cell
    area: int
    cell: Cell


@verb(
    "swap",
    Param("area", AREA),
    Param("cell", CELL),
    Param("length", LENGTH),
    Param("to_cell", CELL, optional=True),
)
@dataclass(frozen=True)
class Swap:
    """Return the brick on ``cell`` to supply; a supply brick of another
    ``length`` goes into the same build with its left end on ``to_cell``
    (by default the old brick's left end)."""

    area: int
    cell: Cell
    length: int
    to_cell: Cell | None = None


@verb("pass")
@dataclass(frozen=True)
class Pass:
    """Lay no brick this round."""


@verb("hammer")
@dataclass(frozen=True)
class Hammer:
    """Play Hammer & Chisel: any length this round, or a swap and a brick of the
    rolled length (one or the other)."""


@verb("mortar", Param("area", AREA))
@dataclass(frozen=True)
class Mortar:
    """Play the Mortar on an area (one empty cell, two pieces allowed there)."""

    area: int


@verb(
    "bag",
    Param("player", SEAT),
    Param("from_area", AREA),
    Param("area", AREA),
    Param("top_cell", CELL),
    Param("next_cell", CELL),
)
@dataclass(frozen=True)
class Bag:
    """Play the Bag: borrow the top two bricks of ``player``'s build in
    ``from_area``; the top one goes to ``top_cell``, the next to ``next_cell``."""

    player: int
    from_area: int
    area: int
    top_cell: Cell
    next_cell: Cell


@verb(
    "relay",
    Param("area", AREA),
    Param("bricks", BRICK, rest=True, min_items=0, max_items=BRICKS_PER_PLAYER, optional=True),
)
@dataclass(frozen=True)
class Relay:
    """Re-lay an area's bricks to fit its new card (none: all back to supply).

    An empty layout is kept as ``None`` so that its notation is ``relay 2``."""

    area: int
    bricks: tuple[Brick, ...] | None = None

    def __post_init__(self) -> None:
        if not self.bricks:
            object.__setattr__(self, "bricks", None)

    @property
    def layout(self) -> tuple[Brick, ...]:
        return self.bricks or ()


@verb("cancel", Param("part", PART))
@dataclass(frozen=True)
class Cancel:
    """Take a part back out of one's sealed submission."""

    part: str


@verb("bonus", Param("area", AREA), Param("length", LENGTH))
@dataclass(frozen=True)
class Bonus:
    """Keep a brick of this length from the completed temple in the bonus area."""

    area: int
    length: int


@verb("lightning", Param("bricks", BRICK, rest=True, max_items=BRICKS_PER_PLAYER))
@dataclass(frozen=True)
class Lightning:
    """A full layout for the lightning temple."""

    bricks: tuple[Brick, ...]


@verb("skip")
@dataclass(frozen=True)
class Skip:
    """Give up the current lightning race."""


@verb("joint", Param("player", SEAT))
@dataclass(frozen=True)
class Joint:
    """Offer (or accept) to build the last card together with ``player``."""

    player: int


Action = (
    Place
    | Move
    | Swap
    | Pass
    | Hammer
    | Mortar
    | Bag
    | Relay
    | Cancel
    | Bonus
    | Lightning
    | Skip
    | Joint
)

#: the parts of a sealed round submission (announced only at the reveal)
SEALED = (Place, Move, Swap, Pass, Hammer, Mortar, Bag, Relay, Cancel)

#: the notation's verbs, in the order ``/temple`` lists them
VERBS = VerbTable(
    (Place, Move, Swap, Pass, Hammer, Mortar, Bag, Relay, Cancel, Bonus, Lightning, Skip, Joint),
    error_key="temple.error.bad_notation",
)

_LAYOUT_VERBS = {"lightning": 1, "relay": 2}


def parse_action(text: str) -> Action:
    """Read an action from its notation, or raise a :class:`RuleError`.

    A layout (``lightning``, ``relay``) with a malformed brick is refused
    naming that brick (``temple.error.bad_brick``); anything else malformed
    is ``temple.error.bad_notation`` quoting the text.
    """
    try:
        action: Action = VERBS.parse(text)
    except RuleError:
        raise _explain(text) from None
    return action


def _explain(text: object) -> RuleError:
    """The most precise refusal for text the verb table did not accept."""
    general = RuleError("temple.error.bad_notation", text=str(text)[:MAX_NOTATION])
    if not isinstance(text, str) or len(text) > MAX_NOTATION:
        return general
    words = text.split()
    first = _LAYOUT_VERBS.get(words[0].lower()) if words else None
    if first is None or len(words) < first:
        return general
    bricks = words[first:]
    for index, word in enumerate(bricks):
        try:
            parse_brick(word)
        except ValueError:
            return RuleError("temple.error.bad_brick", index=index + 1, brick=word)
    if len(bricks) > BRICKS_PER_PLAYER:
        return RuleError("temple.error.too_many_bricks", most=BRICKS_PER_PLAYER)
    return general
