"""Public and private views (the schema is in ``docs/tigris_views.md``).

The public view is the only input of the public board image: it holds the
board and what every player could see at a physical table (leaders in
supply, catastrophes left, hand sizes, tiles left in the bag, committed
support once revealed). Hands, the bag order and points are never in it,
except points and treasures when the game uses ``scoring: open``.

Decisions:

* ``steps`` lists every action since the last hand-off (the list restarts when
  another seat acts), each with its squares, public notation and a caption (an
  i18n :class:`~bot.i18n.Text` as JSON), so the board marks and words a whole
  turn, not only its last action; ``last_action`` stays for older readers.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import PLAY_BUTTON, in_words
from bot.games.tigris import actions
from bot.games.tigris.board import COLS, CORNER_TREASURES, RIVER, ROWS, block_squares, square_name
from bot.games.tigris.components import COLOURS, DYNASTIES, LEADER_ORDER, MONUMENTS
from bot.games.tigris.events import colour_text, leader_text
from bot.games.tigris.rules import waiting_for
from bot.games.tigris.scoring import final_points, ranking, score_vector
from bot.games.tigris.state import (
    PHASE_ACTION,
    PHASE_OVER,
    PHASE_REVOLT,
    PHASE_TREASURE,
    PHASE_WAR,
    GameState,
    LastAction,
)
from bot.games.tigris.treasures import pending_claim
from bot.games.tigris.words import action_verbs, describe
from bot.i18n import Text


def _names(squares: Any) -> list[str]:
    return [square_name(sq) for sq in sorted(squares)]


def _step(step: LastAction) -> dict[str, Any]:
    return {
        "seat": step.seat,
        "squares": [square_name(sq) for sq in step.squares],
        "notation": step.notation,
        "caption": step.caption,
    }


def _last(step: LastAction) -> dict[str, Any]:
    return {k: v for k, v in _step(step).items() if k != "caption"}


def public_view(state: GameState) -> dict[str, Any]:
    board = state.board
    over = state.phase == PHASE_OVER
    open_scoring = state.scoring == "open" or over
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
        "last_action": None if last is None else _last(last),
        "steps": [_step(step) for step in state.steps],
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
        "result": _result(state) if over else None,
    }


def _result(state: GameState) -> dict[str, Any]:
    """The final ranking, best first: each seat's place, score (its weakest colour
    after treasures), colour points after treasures, every colour weakest first,
    and ``tiebreak``: how many colours, weakest first, it took to part the seat
    from another with the same score (None when no tie had to be broken)."""
    result = ranking(state)
    vectors = {seat: score_vector(player) for seat, player in enumerate(state.players)}
    entries = []
    for seat in result.ranking:
        mine = vectors[seat]
        depth: int | None = None
        for other, theirs in vectors.items():
            if other == seat or theirs[0] != mine[0] or theirs == mine:
                continue
            parted = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b)
            depth = max(depth or 0, parted + 1)
        entries.append(
            {
                "seat": seat,
                "place": result.places[seat],
                "score": result.scores[seat],
                "final_points": final_points(state.players[seat]),
                "sorted": list(mine),
                "tiebreak": depth,
            }
        )
    return {"ranking": entries}


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


def step_caption(action: actions.Action) -> Text:
    """A few words for one action in the board's caption of a turn ("red tile on
    F5"); public: a swap says how many tiles, not which."""
    match action:
        case actions.PlaceLeader():
            params: dict[str, Any] = {"leader": leader_text(action.leader)}
            return Text("tigris.step.leader", {**params, "square": square_name(action.square)})
        case actions.WithdrawLeader():
            return Text("tigris.step.withdraw", {"leader": leader_text(action.leader)})
        case actions.PlaceTile():
            square = square_name(action.square)
            return Text(
                "tigris.step.tile", {"colour": colour_text(action.colour), "square": square}
            )
        case actions.PlaceCatastrophe():
            return Text("tigris.step.catastrophe", {"square": square_name(action.square)})
        case actions.Swap():
            return Text("tigris.step.swap", {"count": len(action.tiles)})
        case actions.Pass():
            return Text("tigris.step.pass")
        case actions.Support():
            return Text("tigris.step.support", {"count": action.count})
        case actions.ChooseWar():
            return Text("tigris.step.war", {"leader": leader_text(action.colour)})
        case actions.TakeTreasures():
            squares = " ".join(map(square_name, action.squares))
            return Text("tigris.step.treasure", {"squares": squares})
        case actions.BuildMonument():
            return Text("tigris.step.monument", {"square": square_name(action.square)})
        case actions.Decline():
            return Text("tigris.step.decline")
    return Text(*in_words("tigris", actions.VERBS, action))


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
    params: dict[str, Any] = {"seat": seat, "play": PLAY_BUTTON}
    if phase == PHASE_ACTION:
        params["count"] = state.actions_left
        params["verbs"] = action_verbs()
    elif phase in (PHASE_REVOLT, PHASE_WAR):
        assert state.conflict is not None
        params["colour"] = colour_text(state.conflict.support_colour)
    elif phase == PHASE_TREASURE:
        claim = pending_claim(state.board)
        assert claim is not None
        params["count"] = len(claim.treasures) - 1
    return f"tigris.prompt.{phase}", params


#: the decisions offered as buttons: each one's words on the button (``tigris.choice.*``)
#: take the same params as its sentence (``tigris.do.*``, :func:`~.words.describe`)
DECISIONS = (
    actions.Support,
    actions.ChooseWar,
    actions.TakeTreasures,
    actions.BuildMonument,
    actions.Decline,
)


def choice_label(action: actions.Action) -> tuple[str, dict[str, Any]]:
    """The words on a decision button (support, war order, treasures, monument)."""
    if not isinstance(action, DECISIONS):
        return in_words("tigris", actions.VERBS, action)
    key, params = describe(action)
    return key.replace("tigris.do.", "tigris.choice.", 1), params
