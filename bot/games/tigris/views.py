"""Public and private views (the schema is in ``docs/tigris_views.md``).

The public view is the only input of the public board image: it holds the
board and what every player could see at a physical table (leaders in
supply, catastrophes left, hand sizes, tiles left in the bag, committed
support once revealed). Hands, the bag order and points are never in it,
except points and treasures when the game uses ``scoring: open``.
"""

from __future__ import annotations

from typing import Any

from bot.games.tigris import actions
from bot.games.tigris.board import COLS, CORNER_TREASURES, RIVER, ROWS, block_squares, square_name
from bot.games.tigris.components import COLOURS, DYNASTIES, LEADER_ORDER, MONUMENTS
from bot.games.tigris.events import colour_text
from bot.games.tigris.rules import waiting_for
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_REVOLT,
    PHASE_TREASURE,
    PHASE_WAR,
    GameState,
)
from bot.games.tigris.treasures import pending_claim


def _names(squares: Any) -> list[str]:
    return [square_name(sq) for sq in sorted(squares)]


def public_view(state: GameState) -> dict[str, Any]:
    board = state.board
    open_scoring = state.scoring == "open"
    conflict = state.conflict
    built = set(board.monuments.values())
    last = state.last_action
    return {
        "game": "tigris",
        "cols": COLS,
        "rows": ROWS,
        "river": _names(RIVER),
        "tiles": [
            {"sq": square_name(sq), "colour": board.tiles[sq], "flipped": sq in board.flipped}
            for sq in sorted(board.tiles)
        ],
        "leaders": [
            {"sq": square_name(sq), "colour": leader.colour, "seat": leader.seat}
            for sq, leader in sorted(board.leaders.items())
        ],
        "catastrophes": _names(board.catastrophes),
        "treasures": [
            {"sq": square_name(sq), "corner": sq in CORNER_TREASURES}
            for sq in sorted(board.treasures)
        ],
        "monuments": [
            {
                "sq": square_name(sq),
                "colours": list(board.monuments[sq]),
                "squares": [square_name(s) for s in block_squares(sq)],
            }
            for sq in sorted(board.monuments)
        ],
        "monuments_left": [list(pair) for pair in MONUMENTS if pair not in built],
        "unification": None if board.unification is None else square_name(board.unification),
        "last_action": None
        if last is None
        else {
            "seat": last.seat,
            "squares": [square_name(sq) for sq in last.squares],
            "notation": last.notation,
        },
        "bag": len(state.bag),
        "treasures_left": len(board.treasures),
        "turn": {
            "active_seat": state.active,
            "actions_left": state.actions_left,
            "phase": state.phase,
            "waiting_for": sorted(waiting_for(state)),
            "number": state.turn_number,
        },
        "conflict": None
        if conflict is None
        else {
            "kind": conflict.kind,
            "colour": conflict.colour,
            "attacker_seat": conflict.attacker,
            "defender_seat": conflict.defender,
            "attacker_sq": square_name(conflict.attacker_sq),
            "defender_sq": square_name(conflict.defender_sq),
            "attacker_base": conflict.attacker_base,
            "defender_base": conflict.defender_base,
            "attacker_committed": conflict.attacker_committed,
            "defender_committed": conflict.defender_committed,
            "support_colour": conflict.support_colour,
        },
        "wars_pending": list(state.wars),
        "players": [
            {
                "seat": seat,
                "dynasty": DYNASTIES[seat],
                "leaders_in_supply": [
                    colour for colour in LEADER_ORDER if board.leader_square(seat, colour) is None
                ],
                "catastrophes": player.catastrophes,
                "hand_size": len(player.hand),
                "points": {c: player.points[c] for c in COLOURS} if open_scoring else None,
                "treasures": player.treasures if open_scoring else None,
            }
            for seat, player in enumerate(state.players)
        ],
        "scoring": state.scoring,
    }


def private_view(state: GameState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "game": "tigris",
        "seat": seat,
        "dynasty": DYNASTIES[seat],
        "hand": list(player.hand),
        "points": {c: player.points[c] for c in COLOURS},
        "treasures": player.treasures,
        "catastrophes": player.catastrophes,
    }


def prompt(state: GameState) -> tuple[str, dict[str, Any]] | None:
    """What the game asks of the seat it waits for: an i18n key and params.

    None once the game is over. The service shows it publicly, so it holds
    public information only: a support question names the colour but not how
    many such tiles the seat holds.
    """
    seats = waiting_for(state)
    if not seats:
        return None
    (seat,) = seats
    phase = state.phase
    params: dict[str, Any] = {"seat": seat}
    if phase == PHASE_ACTION:
        params["count"] = state.actions_left
    elif phase in (PHASE_REVOLT, PHASE_WAR):
        assert state.conflict is not None
        params["colour"] = colour_text(state.conflict.support_colour)
    elif phase == PHASE_TREASURE:
        claim = pending_claim(state.board)
        assert claim is not None
        params["count"] = len(claim.treasures) - 1
    return f"tigris.prompt.{phase}", params


def choice_label(action: actions.Action) -> tuple[str, dict[str, Any]]:
    """The words on a decision button (support, war order, treasures, monument)."""
    if isinstance(action, actions.Support):
        return "tigris.choice.support", {"count": action.count}
    if isinstance(action, actions.ChooseWar):
        return "tigris.choice.war", {"colour": colour_text(action.colour)}
    if isinstance(action, actions.TakeTreasures):
        return "tigris.choice.treasure", {"squares": ", ".join(map(square_name, action.squares))}
    if isinstance(action, actions.BuildMonument):
        first, second = action.colours
        return "tigris.choice.monument", {
            "first": colour_text(first),
            "second": colour_text(second),
            "square": square_name(action.square),
        }
    if isinstance(action, actions.Decline):
        return "tigris.choice.decline", {}
    return "choice.notation", {"action": str(action)}
