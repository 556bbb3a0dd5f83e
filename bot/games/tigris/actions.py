"""Actions and their text notation.

Every action is a frozen dataclass; ``str(action)`` is its notation and
:func:`parse_action` reads it back (``parse_action(str(a)) == a``). Notation
is lowercase words, squares in capitals when written (parsed in any case):

=============================  ==================================================
``leader king F5``             place a leader from supply, or move it there if it
                               is already on the board (withdraw + place, one
                               action)
``withdraw king``              take a leader back to supply
``tile red F5``                place a tile from hand
``catastrophe F5``             place a catastrophe tile
``swap red red blue``          discard these 1–6 hand tiles and draw as many
``pass``                       end the turn, giving up the remaining actions
``support 2``                  commit 2 tiles to the current revolt (red) or war
                               (the war's colour)
``war red``                    resolve the red war next
``treasure B2 K1``             take these treasures (all the trader must take)
``monument red-blue G5``       build this monument on the 2×2 whose top-left
                               square is G5
``decline``                    build no monument
=============================  ==================================================

Leaders may be named by title (king, priest, farmer, trader) or colour
(black, red, blue, green), tiles by colour or tile name (temple, farm,
market, settlement); the canonical notation uses titles for leaders and
colours for tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.notation import Count, Label, Param, ValueKind, VerbTable, verb
from bot.games.tigris.board import Square, parse_square, square_name
from bot.games.tigris.components import (
    HAND_SIZE,
    LEADER_NAMES,
    TREASURE_COUNT,
    Colour,
    monument_name,
    parse_colour,
    parse_monument,
    sort_colours,
)


class SquareKind(ValueKind[Square]):
    """A board square, ``F5`` (any case)."""

    name = "square"

    def parse(self, word: str) -> Square:
        return parse_square(word)

    def format(self, value: Square) -> str:
        return square_name(value)


class ColourKind(ValueKind[Colour]):
    """A tile colour; leader and tile words are accepted (``priest``, ``temple``)."""

    name = "colour"

    def parse(self, word: str) -> Colour:
        return parse_colour(word)

    def label(self, value: Colour) -> Label:
        return f"tigris.colour.{value}", {}


class LeaderKind(ValueKind[Colour]):
    """A leader by title (``king``) or colour (``black``); written by title."""

    name = "leader"

    def parse(self, word: str) -> Colour:
        return parse_colour(word)

    def format(self, value: Colour) -> str:
        return LEADER_NAMES[value]

    def label(self, value: Colour) -> Label:
        return f"tigris.leader.{value}", {}


class MonumentKind(ValueKind[tuple[Colour, Colour]]):
    """A monument by its two colours, ``red-blue`` (either order)."""

    name = "monument"

    def parse(self, word: str) -> tuple[Colour, Colour]:
        return parse_monument(word)

    def format(self, value: tuple[Colour, Colour]) -> str:
        return monument_name(value)


SQUARE = SquareKind()
COLOUR = ColourKind()
LEADER = LeaderKind()
MONUMENT = MonumentKind()


@verb("leader", Param("leader", LEADER), Param("square", SQUARE))
@dataclass(frozen=True)
class PlaceLeader:
    """Place a leader from supply, or move it if it is on the board."""

    leader: Colour
    square: Square

    @property
    def colour(self) -> Colour:
        return self.leader


@verb("withdraw", Param("leader", LEADER))
@dataclass(frozen=True)
class WithdrawLeader:
    """Take a leader back to supply."""

    leader: Colour

    @property
    def colour(self) -> Colour:
        return self.leader


@verb("tile", Param("colour", COLOUR), Param("square", SQUARE))
@dataclass(frozen=True)
class PlaceTile:
    """Place a tile from hand."""

    colour: Colour
    square: Square


@verb("catastrophe", Param("square", SQUARE))
@dataclass(frozen=True)
class PlaceCatastrophe:
    """Place a catastrophe tile."""

    square: Square


@verb("swap", Param("tiles", COLOUR, rest=True, max_items=HAND_SIZE))
@dataclass(frozen=True)
class Swap:
    """Discard ``tiles`` (kept in canonical colour order) and draw as many."""

    tiles: tuple[Colour, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sort_colours(list(self.tiles))))


@verb("pass")
@dataclass(frozen=True)
class Pass:
    """Give up the remaining actions of the turn."""


@verb("support", Param("count", Count(0, 99)))
@dataclass(frozen=True)
class Support:
    """Commit ``count`` tiles from hand to the current conflict."""

    count: int


@verb("war", Param("colour", COLOUR))
@dataclass(frozen=True)
class ChooseWar:
    """Resolve the war of this colour next."""

    colour: Colour


@verb("treasure", Param("squares", SQUARE, rest=True, max_items=TREASURE_COUNT))
@dataclass(frozen=True)
class TakeTreasures:
    """Take these treasures (kept sorted by square; each named once)."""

    squares: tuple[Square, ...]

    def __post_init__(self) -> None:
        if len(set(self.squares)) != len(self.squares):
            raise ValueError("a treasure named twice")
        object.__setattr__(self, "squares", tuple(sorted(self.squares)))


@verb("monument", Param("monument", MONUMENT), Param("square", SQUARE))
@dataclass(frozen=True)
class BuildMonument:
    """Build the monument of ``colours`` on the 2×2 whose top-left is ``square``."""

    monument: tuple[Colour, Colour]
    square: Square

    @property
    def colours(self) -> tuple[Colour, Colour]:
        return self.monument


@verb("decline")
@dataclass(frozen=True)
class Decline:
    """Build no monument."""


Action = (
    PlaceLeader
    | WithdrawLeader
    | PlaceTile
    | PlaceCatastrophe
    | Swap
    | Pass
    | Support
    | ChooseWar
    | TakeTreasures
    | BuildMonument
    | Decline
)

#: the notation's verbs, in the order ``/tigris`` lists them
VERBS = VerbTable(
    (
        PlaceLeader,
        WithdrawLeader,
        PlaceTile,
        PlaceCatastrophe,
        Swap,
        Pass,
        Support,
        ChooseWar,
        TakeTreasures,
        BuildMonument,
        Decline,
    ),
    error_key="tigris.error.bad_notation",
)


def parse_action(text: str) -> Action:
    """Read an action from its notation.

    Raises ``RuleError('tigris.error.bad_notation', text=...)`` for anything
    malformed (a bad square or colour word is reported the same way, with the
    whole text, so the player sees what they typed).
    """
    action: Action = VERBS.parse(text)
    return action


def action_squares(action: Action) -> list[Square]:
    """The squares an action names (for highlighting the last action)."""
    if isinstance(action, PlaceLeader | PlaceTile | PlaceCatastrophe | BuildMonument):
        return [action.square]
    if isinstance(action, TakeTreasures):
        return list(action.squares)
    return []


def public_notation(action: Action) -> str:
    """The notation others may see: a swap hides which tiles were discarded."""
    if isinstance(action, Swap):
        return f"swap {len(action.tiles)}"
    return str(action)
