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

from bot.games.base import RuleError
from bot.games.tigris.board import Square, parse_square, square_name
from bot.games.tigris.components import (
    LEADER_NAMES,
    Colour,
    monument_name,
    parse_colour,
    parse_monument,
    sort_colours,
)


@dataclass(frozen=True)
class PlaceLeader:
    """Place a leader from supply, or move it if it is on the board."""

    colour: Colour
    square: Square

    def __str__(self) -> str:
        return f"leader {LEADER_NAMES[self.colour]} {square_name(self.square)}"


@dataclass(frozen=True)
class WithdrawLeader:
    colour: Colour

    def __str__(self) -> str:
        return f"withdraw {LEADER_NAMES[self.colour]}"


@dataclass(frozen=True)
class PlaceTile:
    colour: Colour
    square: Square

    def __str__(self) -> str:
        return f"tile {self.colour} {square_name(self.square)}"


@dataclass(frozen=True)
class PlaceCatastrophe:
    square: Square

    def __str__(self) -> str:
        return f"catastrophe {square_name(self.square)}"


@dataclass(frozen=True)
class Swap:
    """Discard ``tiles`` (kept in canonical colour order) and draw as many."""

    tiles: tuple[Colour, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sort_colours(list(self.tiles))))

    def __str__(self) -> str:
        return "swap " + " ".join(self.tiles)


@dataclass(frozen=True)
class Pass:
    """Give up the remaining actions of the turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Support:
    """Commit ``count`` tiles from hand to the current conflict."""

    count: int

    def __str__(self) -> str:
        return f"support {self.count}"


@dataclass(frozen=True)
class ChooseWar:
    """Resolve the war of this colour next."""

    colour: Colour

    def __str__(self) -> str:
        return f"war {self.colour}"


@dataclass(frozen=True)
class TakeTreasures:
    """Take these treasures (kept sorted by square)."""

    squares: tuple[Square, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "squares", tuple(sorted(self.squares)))

    def __str__(self) -> str:
        return "treasure " + " ".join(square_name(sq) for sq in self.squares)


@dataclass(frozen=True)
class BuildMonument:
    """Build the monument of ``colours`` on the 2×2 whose top-left is ``square``."""

    colours: tuple[Colour, Colour]
    square: Square

    def __str__(self) -> str:
        return f"monument {monument_name(self.colours)} {square_name(self.square)}"


@dataclass(frozen=True)
class Decline:
    """Build no monument."""

    def __str__(self) -> str:
        return "decline"


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


def parse_action(text: str) -> Action:
    """Read an action from its notation.

    Raises ``RuleError('tigris.error.bad_notation', text=...)`` for anything
    malformed (a bad square or colour word is reported the same way, with the
    whole text, so the player sees what they typed).
    """
    try:
        return _parse(text)
    except RuleError as exc:
        if exc.key == "tigris.error.bad_notation":
            raise
        raise RuleError("tigris.error.bad_notation", text=text) from exc


def _parse(text: str) -> Action:
    words = text.strip().lower().split()
    bad = RuleError("tigris.error.bad_notation", text=text)
    if not words:
        raise bad
    verb, args = words[0], words[1:]
    if verb == "leader" and len(args) == 2:
        return PlaceLeader(parse_colour(args[0]), parse_square(args[1]))
    if verb == "withdraw" and len(args) == 1:
        return WithdrawLeader(parse_colour(args[0]))
    if verb == "tile" and len(args) == 2:
        return PlaceTile(parse_colour(args[0]), parse_square(args[1]))
    if verb == "catastrophe" and len(args) == 1:
        return PlaceCatastrophe(parse_square(args[0]))
    if verb == "swap" and 1 <= len(args) <= 6:
        return Swap(tuple(parse_colour(word) for word in args))
    if verb == "pass" and not args:
        return Pass()
    if verb == "support" and len(args) == 1 and args[0].isdigit() and len(args[0]) <= 2:
        return Support(int(args[0]))
    if verb == "war" and len(args) == 1:
        return ChooseWar(parse_colour(args[0]))
    if verb == "treasure" and 1 <= len(args) <= 10:
        squares = tuple(parse_square(word) for word in args)
        if len(set(squares)) != len(squares):
            raise bad
        return TakeTreasures(squares)
    if verb == "monument" and len(args) == 2:
        colours = parse_monument(args[0])
        return BuildMonument(colours, parse_square(args[1]))
    if verb == "decline" and not args:
        return Decline()
    raise bad


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
