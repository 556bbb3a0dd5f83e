"""Actions in words (``tigris.do.*``), for the lines the game or the table says
for a seat (a timeout, an automatic answer) and for the acting player's receipt.

A swap is described by its count alone in public (the tiles stay hidden, as in
``public_notation``); the player's own receipt names them.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import in_words, verbs_text
from bot.games.tigris import actions
from bot.games.tigris.board import square_name
from bot.games.tigris.events import colour_text, leader_text
from bot.i18n import Text, join_texts

#: what a seat may do with one of its actions, as the picker's buttons name them
ACTION_VERBS = ("leader", "tile", "catastrophe", "swap", "pass")


def action_verbs() -> Text:
    """The buttons of an action, named as alternatives in a sentence."""
    return verbs_text("tigris", ACTION_VERBS)


def describe(action: actions.Action, public: bool = True) -> tuple[str, dict[str, Any]]:
    """``action`` in words; ``public`` hides a swap's tiles."""
    if isinstance(action, actions.PlaceLeader):
        return "tigris.do.leader", {
            "leader": leader_text(action.leader),
            "square": square_name(action.square),
        }
    if isinstance(action, actions.WithdrawLeader):
        return "tigris.do.withdraw", {"leader": leader_text(action.leader)}
    if isinstance(action, actions.PlaceTile):
        return "tigris.do.tile", {
            "colour": colour_text(action.colour),
            "square": square_name(action.square),
        }
    if isinstance(action, actions.PlaceCatastrophe):
        return "tigris.do.catastrophe", {"square": square_name(action.square)}
    if isinstance(action, actions.Swap):
        if public:
            return "tigris.do.swap", {"count": len(action.tiles)}
        tiles = join_texts([colour_text(c) for c in action.tiles])
        return "tigris.do.swap_tiles", {"count": len(action.tiles), "tiles": tiles}
    if isinstance(action, actions.Pass):
        return "tigris.do.pass", {}
    if isinstance(action, actions.Support):
        return "tigris.do.support", {"count": action.count}
    if isinstance(action, actions.ChooseWar):
        return "tigris.do.war", {"colour": colour_text(action.colour)}
    if isinstance(action, actions.TakeTreasures):
        squares = ", ".join(square_name(sq) for sq in action.squares)
        return "tigris.do.treasure", {"count": len(action.squares), "squares": squares}
    if isinstance(action, actions.BuildMonument):
        first, second = action.colours
        return "tigris.do.monument", {
            "first": colour_text(first),
            "second": colour_text(second),
            "square": square_name(action.square),
        }
    if isinstance(action, actions.Decline):
        return "tigris.do.decline", {}
    return in_words("tigris", actions.VERBS, action)
