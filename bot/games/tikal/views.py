"""The public view (schema in ``docs/tikal_views.md``), prompts and button labels.

The public view is the only input of the board image. It holds what every
player could see at the table, already computed for drawing: the hexes
with their centres in circumradius units, stones per board edge, temple
values and who holds each temple now, the open crossings with their cost,
tokens left per treasure hex (a count: tokens lie face down), figures per
seat, supplies, treasures, scores, the stacks by letter with their counts,
the revealed auction row and the bidding, the turn and the scoring round.
It never holds the stacks' order nor the identity of a face-down token.

Decisions:

* ``steps`` lists every step since the last hand-off (it restarts when another
  seat acts), spaces or not, each with a caption (an i18n ``Text`` as JSON): the
  board marks a hex laid and every move of a turn, and a bid replaces the
  previous turn's line; ``last_action`` (the last step with spaces) stays.
* Edge costs are in the view (``crossings``), so the image can print the AP
  cost of every open crossing; a player need not add stones up.
* Compass directions are written N, NE, SE, S, SW, NW in every language in
  the rotation labels of the autocomplete (the image draws the six
  rotations instead).
"""

from __future__ import annotations

import math
from typing import Any

from bot.games.base import PLAY_BUTTON, button_text, in_words, verb_key, verbs_text
from bot.games.tikal.actions import (
    SEAT_COLOURS,
    VERBS,
    Action,
    Bid,
    Camp,
    Dig,
    End,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Pick,
    Place,
    Recover,
)
from bot.games.tikal.board import (
    COLS,
    NEIGHBOURS,
    ROWS,
    SPACES,
    SQRT3,
    Space,
    centre,
    col_row,
    space_name,
)
from bot.games.tikal.components import (
    AP_PER_TURN,
    LETTERS,
    MAX_ENTERED_PER_TURN,
    MAX_LEVELS_PER_TEMPLE_PER_TURN,
    MAX_TOKENS_PER_HEX_PER_TURN,
    MODES,
    TEMPLE,
    TILES,
    TREASURE,
    WORKER,
)
from bot.games.tikal.legal import lay_spaces, reach
from bot.games.tikal.paths import crossing_cost
from bot.games.tikal.placement import usable
from bot.games.tikal.rules import next_level, strongest, waiting_for
from bot.games.tikal.scoring import treasure_points
from bot.games.tikal.state import (
    BASE_CAMP,
    PHASE_ACTIONS,
    PHASE_BID,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PLACE,
    GameState,
    Hex,
    LastAction,
)
from bot.games.tikal.texts import colour_text, figure_text, hex_text
from bot.i18n import Text

#: the map's size in circumradius units (for scaling ``x``/``y``)
MAP_WIDTH = 1.5 * (COLS - 1) + 2.0
MAP_HEIGHT = SQRT3 * (ROWS + 0.5)


def tile_view(tile_id: str) -> dict[str, Any]:
    """A hex off the board (in hand, set aside, revealed): as printed."""
    spec = TILES[tile_id]
    return {
        "kind": spec.kind,
        "letter": spec.letter,
        "value": spec.value if spec.kind == TEMPLE else None,
        "masks": spec.masks if spec.kind == TREASURE else None,
        "stones": list(spec.stones),
    }


def _hex_view(state: GameState, space: Space, hex_: Hex) -> dict[str, Any]:
    spec = hex_.spec
    x, y = centre(space)
    temple = hex_.kind == TEMPLE
    holder = None
    if temple:
        holder = hex_.guard if hex_.guard is not None else strongest(state, space)
    return {
        "space": space_name(space),
        "x": round(x, 4),
        "y": round(y, 4),
        "kind": hex_.kind,
        "letter": spec.letter,
        "start": spec.letter is None,
        "rotation": hex_.rotation,
        "stones": list(hex_.stones),
        "value": hex_.value if temple else None,
        "printed": spec.value if temple else None,
        "next_value": next_level(state, hex_) if temple and hex_.guard is None else None,
        "tokens": len(hex_.tokens) if hex_.kind == TREASURE else None,
        "masks": spec.masks if hex_.kind == TREASURE else None,
        "camp_seat": hex_.camp,
        "guard_seat": hex_.guard,
        "guard_figure": hex_.guard_figure,
        "holder_seat": holder,
        "figures": [
            {
                "seat": seat,
                "workers": figs.workers,
                "leader": figs.leader,
                "strength": figs.strength,
            }
            for seat, figs in sorted(hex_.figures.items())
        ],
    }


def _crossings(state: GameState) -> list[dict[str, Any]]:
    """Open crossings between laid hexes: both ends, the cost and the edge's midpoint."""
    found = []
    for space in sorted(state.hexes):
        x, y = centre(space)
        for d in range(3):  # N, NE, SE: each edge once
            nb = NEIGHBOURS[space][d]
            if nb is None:
                continue
            cost = crossing_cost(state, space, d, nb)
            if cost:
                angle = math.radians(-90 + 60 * d)
                found.append(
                    {
                        "a": space_name(space),
                        "b": space_name(nb),
                        "direction": d,
                        "cost": cost,
                        "x": round(x + SQRT3 / 2 * math.cos(angle), 4),
                        "y": round(y + SQRT3 / 2 * math.sin(angle), 4),
                    }
                )
    return found


def _stacks(state: GameState) -> list[dict[str, Any]]:
    """Hexes left to draw, by letter (the backs are public), top letter first."""
    counts = {letter: 0 for letter in LETTERS}
    for tile_id in state.stack:
        letter = TILES[tile_id].letter
        if letter is not None:
            counts[letter] += 1
    return [{"letter": letter, "count": n} for letter, n in counts.items() if n]


def _players(state: GameState) -> list[dict[str, Any]]:
    on_board: dict[int, list[int]] = {seat: [0, 0] for seat in range(state.seats)}
    for hex_ in state.hexes.values():
        for seat, figs in hex_.figures.items():
            on_board[seat][0] += figs.workers
            on_board[seat][1] += 1 if figs.leader else 0
    return [
        {
            "seat": seat,
            "colour": SEAT_COLOURS[seat],
            "score": p.score,
            "workers": p.workers,
            "leader": p.leader,
            "workers_on_board": on_board[seat][0],
            "leader_on_board": bool(on_board[seat][1]),
            "removed": p.removed_workers + (1 if p.removed_leader else 0),
            "camps_left": p.camps,
            "guards_left": p.guards,
            "treasures": dict(sorted(p.treasures.items())),
            "treasure_points": treasure_points(p.treasures),
            "played": seat in state.played and state.phase != PHASE_OVER,  # not at the end
        }
        for seat, p in enumerate(state.players)
    ]


def step_caption(state: GameState, action: Action) -> Text:
    """A few words for one step in the board's caption of a turn ("worker B6 → C5"),
    taken after the step was applied."""
    match action:
        case Place():
            return Text("tikal.step.place", {"space": space_name(action.space)})
        case Pick():
            return Text("tikal.step.pick", {"slot": action.slot})
        case Bid():
            return Text("tikal.step.bid", {"amount": action.amount})
        case Pass():
            return Text("tikal.step.pass")
        case Enter():
            figure = figure_text(action.figure or WORKER)
            return Text("tikal.step.enter", {"figure": figure, "space": space_name(action.space)})
        case Move():
            return Text(
                "tikal.step.move",
                {
                    "figure": figure_text(action.figure or WORKER),
                    "origin": space_name(action.origin),
                    "target": space_name(action.target),
                },
            )
        case Dig():
            return Text("tikal.step.dig", {"space": space_name(action.space)})
        case Recover():
            return Text("tikal.step.recover", {"space": space_name(action.space)})
        case Camp():
            return Text("tikal.step.camp", {"space": space_name(action.space)})
        case Guard():
            return Text("tikal.step.guard", {"space": space_name(action.space)})
        case Exchange():
            return Text("tikal.step.exchange", {"colour": colour_text(SEAT_COLOURS[action.player])})
        case End():
            return Text("tikal.step.end")
    return Text(*in_words("tikal", VERBS, action))


def _step(step: LastAction) -> dict[str, Any]:
    return {
        "seat": step.seat,
        "spaces": [space_name(s) for s in step.spaces],
        "notation": step.notation,
        "caption": step.caption,
    }


def public_view(state: GameState) -> dict[str, Any]:
    turn, auction, scoring, last = state.turn, state.auction, state.scoring, state.last_action
    mode = MODES[state.mode]
    return {
        "game": "tikal",
        "mode": state.mode,
        "cols": COLS,
        "rows": ROWS,
        "map": {"width": round(MAP_WIDTH, 4), "height": round(MAP_HEIGHT, 4)},
        "spaces": [
            {
                "space": space_name(space),
                "col": col_row(space)[0],
                "row": col_row(space)[1],
                "x": round(centre(space)[0], 4),
                "y": round(centre(space)[1], 4),
                "usable": usable(state, space),
            }
            for space in SPACES
        ],
        "base_camp": space_name(BASE_CAMP),
        "hexes": [_hex_view(state, s, h) for s, h in sorted(state.hexes.items())],
        "crossings": _crossings(state),
        "temple_tiles_left": {str(v): n for v, n in sorted(state.tiles_left.items())},
        "stacks": _stacks(state),
        "stack_total": len(state.stack),
        "in_hand": None if state.in_hand is None else tile_view(state.in_hand),
        "aside": None if state.aside is None else tile_view(state.aside),
        "revealed": [
            {"slot": slot, **tile_view(tile_id)}
            for slot, tile_id in enumerate(state.revealed, start=1)
        ],
        "auction": None
        if auction is None
        else {
            "opener_seat": auction.opener,
            "current_seat": auction.current,
            "high": auction.high,
            "high_seat": auction.high_seat,
            "bidders": list(auction.order),
            "passed": list(auction.passed),
        },
        "round": state.round_number,
        "phase": state.phase,
        "waiting_for": sorted(waiting_for(state)),
        "turn": None
        if turn is None
        else {
            "seat": turn.seat,
            "kind": turn.kind,
            "ap": turn.ap,
            "entered": turn.entered,
            "dug": {space_name(s): n for s, n in sorted(turn.dug.items())},
            "recovered": {space_name(s): n for s, n in sorted(turn.recovered.items())},
        },
        "scoring": None
        if scoring is None
        else {
            "kind": scoring.kind,
            "number": scoring.number,
            "order": list(scoring.order),
            "done": list(scoring.done),
            "drawer_seat": scoring.drawer,
        },
        "volcanoes": state.volcanoes,
        "limits": {
            "camps": mode.camps,
            "guards": mode.guards,
            "workers": mode.workers,
            "treasure_kinds": list(mode.treasure_kinds),
            "ap": AP_PER_TURN,
            "entered_per_turn": MAX_ENTERED_PER_TURN,
            "levels_per_temple": MAX_LEVELS_PER_TEMPLE_PER_TURN,
            "tokens_per_hex": MAX_TOKENS_PER_HEX_PER_TURN,
        },
        "players": _players(state),
        "last_action": None
        if last is None
        else {
            "seat": last.seat,
            "spaces": [space_name(s) for s in last.spaces],
            "notation": last.notation,
        },
        "steps": [_step(step) for step in state.steps],
        "turn_options": _turn_options(state),
        "over": state.phase == PHASE_OVER,
    }


def _turn_options(state: GameState) -> dict[str, Any] | None:
    """Where the seat on its turn may act now, for the close-up: the spaces the hex
    in hand may be laid on, and the hexes it can bring a figure to with the least
    AP each (public: both follow from the board, the hex in hand and the AP left)."""
    turn = state.turn
    if turn is None or state.phase not in (PHASE_PLACE, PHASE_ACTIONS):
        return None
    return {
        "seat": turn.seat,
        "lay": [space_name(s) for s in lay_spaces(state)],
        "reach": [{"space": space_name(s), "ap": ap} for s, ap in reach(state, turn.seat).items()],
    }


# -- prompts, summaries and labels --------------------------------------------------


#: what a seat may do with its action points, as the picker's buttons name them
ACTION_VERBS = ("enter", "move", "dig", "recover", "exchange", "camp", "guard", "end")


def prompt(state: GameState) -> tuple[str, dict[str, Any]] | None:
    """The public question to the seat the game waits for, in words: what to do,
    and the Play button that opens the choices (no notation)."""
    seats = waiting_for(state)
    if not seats:
        return None
    (seat,) = seats
    asked: dict[str, Any] = {"seat": seat, "play": PLAY_BUTTON}
    if state.phase == PHASE_BID:
        assert state.auction is not None
        return "tikal.prompt.bid", {
            **asked,
            "minimum": state.auction.high + 1,
            "score": state.players[seat].score,
        }
    if state.phase == PHASE_PICK:
        return "tikal.prompt.pick", {**asked, "count": len(state.revealed)}
    if state.phase == PHASE_PLACE:
        assert state.in_hand is not None
        return "tikal.prompt.place", {**asked, "hex": hex_text(state.in_hand)}
    turn = state.turn
    assert turn is not None
    if turn.ap == 0 and turn.kind in ("normal", "volcano"):  # nothing but end is left
        return "tikal.prompt.no_ap", {**asked, "ap": 0}
    return f"tikal.prompt.{turn.kind}", {
        **asked,
        "ap": turn.ap,
        "verbs": verbs_text("tikal", ACTION_VERBS),
        "end": button_text(Text(verb_key("tikal", "end"))),
    }


def step_summary(state: GameState, seat: int) -> tuple[str, dict[str, Any]] | None:
    """What is left of ``seat``'s turn after a step it continues from."""
    turn = state.turn
    if turn is None or turn.seat != seat:
        return None
    if state.phase == PHASE_ACTIONS:
        return "tikal.summary.ap", {
            "ap": turn.ap,
            "entered": turn.entered,
            "limit": MAX_ENTERED_PER_TURN,
        }
    if state.phase == PHASE_PLACE and state.in_hand is not None:
        return "tikal.summary.place", {"hex": hex_text(state.in_hand)}
    if state.phase == PHASE_PICK:
        return "tikal.summary.pick", {"count": len(state.revealed)}
    return None


def choice_label(action: Action) -> tuple[str, dict[str, Any]]:
    """A button's words."""
    if isinstance(action, Bid):
        return "tikal.choice.bid", {"amount": action.amount}
    if isinstance(action, Pass):
        return "tikal.choice.pass", {}
    if isinstance(action, End):
        return "tikal.choice.end", {}
    if isinstance(action, Pick):
        return "tikal.choice.pick", {"slot": action.slot}
    return in_words("tikal", VERBS, action)
