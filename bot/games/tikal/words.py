"""Actions in words (``tikal.do.*``), for the lines the game or the table says
for a seat (a timeout) and for the acting player's receipt. Nothing in Tikal is
hidden, so public and private descriptions are the same."""

from __future__ import annotations

from typing import Any

from bot.games.base import in_words
from bot.games.tikal import actions
from bot.games.tikal.board import space_name
from bot.games.tikal.texts import figure_text, treasure_text


def describe(action: actions.Action, public: bool = True) -> tuple[str, dict[str, Any]]:
    """``action`` in words."""
    if isinstance(action, actions.Place):
        return "tikal.do.place", {"space": space_name(action.space), "rotation": action.rotation}
    if isinstance(action, actions.Pick):
        return "tikal.do.pick", {"slot": action.slot}
    if isinstance(action, actions.Bid):
        return "tikal.do.bid", {"amount": action.amount}
    if isinstance(action, actions.Pass):
        return "tikal.do.pass", {}
    if isinstance(action, actions.Enter):
        return "tikal.do.enter", {
            "figure": figure_text(action.kind),
            "space": space_name(action.space),
        }
    if isinstance(action, actions.Move):
        return "tikal.do.move", {
            "figure": figure_text(action.kind),
            "origin": space_name(action.origin),
            "target": space_name(action.target),
        }
    if isinstance(action, actions.Dig):
        return "tikal.do.dig", {"space": space_name(action.space)}
    if isinstance(action, actions.Recover):
        return "tikal.do.recover", {"space": space_name(action.space)}
    if isinstance(action, actions.Exchange):
        return "tikal.do.exchange", {
            "give": treasure_text(action.give),
            "player_seat": action.player,
            "take": treasure_text(action.take),
        }
    if isinstance(action, actions.Camp):
        return "tikal.do.camp", {"space": space_name(action.space)}
    if isinstance(action, actions.Guard):
        return "tikal.do.guard", {
            "figure": figure_text(action.kind),
            "space": space_name(action.space),
        }
    if isinstance(action, actions.End):
        return "tikal.do.end", {}
    return in_words("tikal", actions.VERBS, action)
