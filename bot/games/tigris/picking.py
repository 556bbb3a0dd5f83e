"""Short labels for the move picker: the value first (``Red ×2``, ``King``, ``F5``).

Decisions:

* The engine's suggestions (read off the legal actions) keep their long
  labels for autocomplete; each gets a short one for the picker: a tile
  colour with how many of it the seat holds (its own hand: the picker is
  the seat's own), a leader by title, a war by colour, a count as a number.
* Squares that fill more than one select are grouped by the kingdom they act
  on (:func:`grouped`): the kingdoms holding the seat's own leaders first
  ("Next to your priest (kingdom of 6)"), then the others by size ("Kingdom
  at F5"), then squares that would unite kingdoms, then open land by columns
  ("Open land, columns A–F"). A kingdom is named by its first leader's square
  or the seat's own leader: nothing hidden, no player's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.base import Suggestion
from bot.games.tigris.board import parse_square, square_name
from bot.games.tigris.components import LEADER_NAMES
from bot.games.tigris.kingdoms import Regions
from bot.games.tigris.state import GameState
from bot.i18n import Text

#: a group's header: a catalog key and its params
Header = tuple[str, dict[str, object]]
#: the most squares of one open-land group (one select)
OPEN_LAND = 25


def shortened(
    state: GameState, seat: int, verb: str, param: str, found: Sequence[Suggestion]
) -> list[Suggestion]:
    """``found`` with the picker's short labels."""
    hand = state.players[seat].hand if 0 <= seat < len(state.players) else []
    shown = []
    for suggestion in found:
        word = suggestion.value
        short: tuple[str, dict[str, object]] | None = None
        if param == "leader":
            short = (f"tigris.short.leader.{word}", {})
        elif param == "colour" and verb == "tile":
            colour = Text(f"tigris.short.colour.{word}")
            short = ("tigris.short.tile", {"colour": colour, "count": hand.count(word)})
        elif param == "colour":
            short = (f"tigris.short.colour.{word}", {})
        if short is not None:
            suggestion = replace(suggestion, short=short)
        shown.append(suggestion)
    return shown


def grouped(
    state: GameState, seat: int, param: str, words: Sequence[str]
) -> list[tuple[Header, list[str]]] | None:
    """Board squares (``words``, in board order) grouped by the kingdom they act on;
    None when ``param`` is not a square (see the module docstring)."""
    if param != "square":
        return None
    board = state.board
    regions = Regions(board)
    by_kingdom: dict[tuple[int, ...], list[str]] = {}
    for word in words:
        sq = parse_square(word)
        inside = regions.region_of(sq)
        key = (inside,) if inside >= 0 else tuple(sorted(regions.kingdoms_around(sq)))
        if len(key) > 1:  # every square uniting kingdoms in one group
            key = (-1, -1)
        by_kingdom.setdefault(key, []).append(word)

    def own(kingdom: int) -> list[str]:
        return [
            LEADER_NAMES[board.leaders[sq].colour]
            for sq in regions.leaders[kingdom]
            if board.leaders[sq].seat == seat
        ]

    def rank(key: tuple[int, ...]) -> tuple[int, int]:
        if len(key) == 1:
            return (0 if own(key[0]) else 1, -len(regions.squares[key[0]]))
        return (2, 0) if key else (3, 0)

    groups: list[tuple[Header, list[str]]] = []
    for key in sorted(by_kingdom, key=rank):
        members = by_kingdom[key]
        if len(key) == 1:
            (kingdom,) = key
            size = len(regions.squares[kingdom])
            mine = own(kingdom)
            if mine:
                leader = Text(f"tigris.short.leader.{mine[0]}")
                header: Header = ("tigris.group.own", {"leader": leader, "size": size})
            else:
                first = square_name(regions.leaders[kingdom][0])
                header = ("tigris.group.kingdom", {"square": first, "size": size})
            groups.append((header, members))
        elif key:
            groups.append((("tigris.group.unites", {}), members))
        else:
            for part in _by_columns(members):
                first, last = _column(part[0]), _column(part[-1])
                named = "tigris.group.open" if first != last else "tigris.group.open_column"
                groups.append(((named, {"first": first, "last": last}), part))
    return groups


def _by_columns(words: Sequence[str]) -> list[list[str]]:
    """``words`` (board order) in bands of whole columns of at most :data:`OPEN_LAND`
    (a column longer than that alone, cut)."""
    bands: list[list[str]] = []
    column: list[str] = []
    for word in [*words, ""]:
        if column and (not word or _column(word) != _column(column[0])):
            if bands and len(bands[-1]) + len(column) <= OPEN_LAND:
                bands[-1].extend(column)
            else:
                bands.extend(column[i : i + OPEN_LAND] for i in range(0, len(column), OPEN_LAND))
            column = []
        if word:
            column.append(word)
    return bands


def _column(word: str) -> str:
    return word.rstrip("0123456789").upper()
