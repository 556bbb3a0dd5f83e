"""Actions and dice in words, for the announcements (``temple.do.*``, ``temple.die``).

Decisions:

* A sealed part is described in full only to its author and, once revealed,
  to everyone (the reveal lists each seat's parts in words); before that
  the public reads "a sealed move" (as :meth:`public_notation` shows
  ``sealed``). A pass is a sealed move like the others (the rules list it
  among them): whether a seat passed is told by the reveal. A round may be
  published before it is revealed (a seat resigns and the table passes for
  it), and ``/game log`` then lists the round's steps so far by their public
  words: a pass read as such would tell the seat's sealed choice.
* Cells keep their grid names (``C2``): the board prints them and a player
  types them; areas are numbered as on the board, bricks by their length.
* Dice are listed by player (seat params, shown as names) with the star
  spelled out, for round 1 too (the round's prompt carries them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import in_words, verbs_text
from bot.games.temple.actions import (
    SEALED,
    VERBS,
    Action,
    Bag,
    Bonus,
    Cancel,
    Hammer,
    Joint,
    Lightning,
    Mortar,
    Move,
    Pass,
    Place,
    Relay,
    Skip,
    Swap,
)
from bot.games.temple.components import cell_name
from bot.games.temple.geometry import Brick
from bot.games.temple.naming import part_name
from bot.i18n import Text, join_texts

Words = tuple[str, dict[str, Any]]


def _cell(cell: tuple[int, int]) -> str:
    return cell_name(*cell)


#: the moves of a round, as the picker's buttons name them (power tokens come with them)
ROUND_VERBS = ("place", "move", "swap", "pass")


def round_verbs() -> Text:
    """A round's moves, named as alternatives in a sentence."""
    return verbs_text("temple", ROUND_VERBS)


def describe(action: Action, public: bool = True) -> Words:
    """``action`` in words; ``public`` hides a sealed part (see the module docstring)."""
    if public and isinstance(action, SEALED):
        if isinstance(action, Cancel) and action.part == "joint":
            return "temple.do.cancel", {"part": part_name(action.part)}
        return "temple.do.sealed", {}
    if isinstance(action, Place):
        if action.length is None:
            return "temple.do.place_rolled", {"area": action.area + 1, "cell": _cell(action.cell)}
        return "temple.do.place", {
            "area": action.area + 1,
            "cell": _cell(action.cell),
            "length": action.length,
        }
    if isinstance(action, Move):
        return "temple.do.move", {
            "from_area": action.from_area + 1,
            "from_cell": _cell(action.from_cell),
            "area": action.area + 1,
            "cell": _cell(action.cell),
        }
    if isinstance(action, Swap):
        params: dict[str, Any] = {
            "area": action.area + 1,
            "cell": _cell(action.cell),
            "length": action.length,
        }
        if action.to_cell is None:
            return "temple.do.swap", params
        return "temple.do.swap_to", {**params, "to_cell": _cell(action.to_cell)}
    if isinstance(action, Pass):
        return "temple.do.pass", {}
    if isinstance(action, Hammer):
        return "temple.do.hammer", {}
    if isinstance(action, Mortar):
        return "temple.do.mortar", {"area": action.area + 1}
    if isinstance(action, Bag):
        return "temple.do.bag", {
            "lender_seat": action.player,
            "from_area": action.from_area + 1,
            "area": action.area + 1,
        }
    if isinstance(action, Relay):
        if not action.layout:
            return "temple.do.relay_none", {"area": action.area + 1}
        return "temple.do.relay", {"area": action.area + 1, "count": len(action.layout)}
    if isinstance(action, Cancel):
        return "temple.do.cancel", {"part": part_name(action.part)}
    if isinstance(action, Bonus):
        return "temple.do.bonus", {"area": action.area + 1, "length": action.length}
    if isinstance(action, Lightning):
        return "temple.do.lightning", {"count": len(action.bricks)}
    if isinstance(action, Skip):
        return "temple.do.skip", {}
    if isinstance(action, Joint):
        return "temple.do.joint", {"partner_seat": action.player}
    return in_words("temple", VERBS, action)


def parts_text(parts: list[Action]) -> Text:
    """A revealed submission's parts in words, in the order they were applied."""
    return join_texts([Text(*describe(part, public=False)) for part in parts], "list.semicolon")


def bricks_text(bricks: Sequence[Brick]) -> Text:
    """Bricks in words: "a brick of 4 at A1, a brick of 3 at B2"."""
    return join_texts(
        [Text("temple.brick", {"length": b.length, "cell": cell_name(b.x, b.y)}) for b in bricks]
    )


def face_text(face: Any) -> Text:
    """A die face in words: a length, or the star (any length)."""
    return Text("temple.face.star") if str(face) == "star" else Text("temple.face.n", {"n": face})


def dice_text(dice: list[Any]) -> Text:
    """Each player's die, by name (seat params)."""
    return join_texts(
        [
            Text("temple.die", {"seat": seat, "face": face_text(face)})
            for seat, face in enumerate(dice)
        ]
    )
