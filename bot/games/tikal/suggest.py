"""Autocomplete: the legal values of one parameter, with labels in words.

Each answer is generated for the parameter asked, narrowed by the values
already chosen: a move's destinations come from one cheapest-path search
from the chosen start, each labelled with its cost and the AP that would be
left; a rotation is labelled with the edges its stones would face and the
laid hexes it would link to.

Decisions:

* A chosen value that does not read as a value of its kind (a half-typed
  space) narrows nothing.
* Every legal value is returned, in a useful order (move destinations
  cheapest first, bids from the minimum up): the service filters them by
  what the player has typed and cuts them to Discord's 25.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Suggestion
from bot.games.tikal import legal, placement, rotations
from bot.games.tikal.actions import (
    FIGURE,
    PLAYER,
    SEAT_COLOURS,
    SPACE,
    TREASURE,
    VERBS,
    Bid,
    Camp,
    Dig,
    Enter,
    Exchange,
    Guard,
    Recover,
)
from bot.games.tikal.board import (
    Space,
    rotate,
    space_name,
)
from bot.games.tikal.components import (
    COST_CAMP,
    COST_DIG,
    COST_GUARD,
    COST_RECOVER,
    TILES,
    VOLCANO,
)
from bot.games.tikal.state import GameState
from bot.games.tikal.texts import figure_text, hex_text, stones_text, treasure_text

Label = tuple[str, Mapping[str, Any]]


def _read(kind: Any, word: str | None) -> Any:
    if not word or not word.strip():
        return None
    try:
        return kind.parse(word.strip())
    except (ValueError, KeyError, IndexError):
        return None


def legal_values(
    state: GameState, seat: int, verb: str, param: str, chosen: Mapping[str, str]
) -> list[Suggestion]:
    """The suggestions for ``param`` of ``verb``; empty when the verb does not apply now."""
    if verb not in VERBS or verb not in legal.verbs_now(state, seat):
        return []
    answer = _ANSWERS.get((verb, param))
    if answer is None:
        return []
    return answer(state, seat, {k: v for k, v in chosen.items() if k != param})


def _space(space: Space, key: str, short: Label | None = None, **params: Any) -> Suggestion:
    """A space's suggestion: its long label, and its short one for the move picker
    (the space alone by default)."""
    name = space_name(space)
    shown = short if short is not None else ("tikal.short.space", {"space": name})
    return Suggestion(name, (key, {"space": name, **params}), shown)


def _costed(space: Space, cost: int) -> Label:
    """``C5 · 2 AP``: a space and what acting there costs."""
    return "tikal.short.costed", {"space": space_name(space), "cost": cost}


# -- place -------------------------------------------------------------------------


def _place_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    assert state.in_hand is not None
    by_space: dict[Space, list[int]] = {}
    for space, rotation in placement.placements(state, state.in_hand):
        by_space.setdefault(space, []).append(rotation)
    wanted = _read(legal_rotation_kind(), chosen.get("rotation"))
    return [
        _space(space, "tikal.label.place_space", rotations=", ".join(map(str, rotations)))
        for space, rotations in sorted(by_space.items())
        if wanted is None or wanted in rotations
    ]


def legal_rotation_kind() -> Any:
    return VERBS["place"].params[1].kind


def _place_rotations(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    assert state.in_hand is not None
    space = _read(SPACE, chosen.get("space"))
    spec = TILES[state.in_hand]
    found: list[Suggestion] = []
    options = placement.placements(state, state.in_hand)
    legal_rotations = sorted({r for s, r in options if space is None or s == space})
    for rotation in legal_rotations:
        stones = rotate(spec.stones, rotation)
        linked: list[str] = []
        if spec.kind == VOLCANO:
            label: Label = ("tikal.label.rotation_volcano", {"rotation": rotation})
        elif space is None:
            label = ("tikal.label.rotation", {"rotation": rotation, "stones": stones_text(stones)})
        else:
            linked = rotations.links(state, space, stones)
            label = (
                "tikal.label.rotation_links",
                {
                    "rotation": rotation,
                    "stones": stones_text(stones),
                    "links": ", ".join(linked) or "-",
                },
            )
        short: Label = (
            ("tikal.short.rotation", {"rotation": rotation, "links": " ".join(linked)})
            if space is not None and spec.kind != VOLCANO and linked
            else ("tikal.short.rotation_alone", {"rotation": rotation})
        )
        found.append(Suggestion(str(rotation), label, short))
    return found


# -- auction -----------------------------------------------------------------------


def _pick_slots(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    return [
        Suggestion(
            str(slot),
            ("tikal.label.slot", {"slot": slot, "hex": hex_text(tile_id)}),
            ("tikal.choice.pick", {"slot": slot}),
        )
        for slot, tile_id in enumerate(state.revealed, start=1)
    ]


def _bid_amounts(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    return [
        Suggestion(
            str(a.amount),
            ("tikal.choice.bid", {"amount": a.amount}),
            ("tikal.short.amount", {"amount": a.amount}),
        )
        for a in legal.actions_for(state, seat, "bid")
        if isinstance(a, Bid)
    ]


# -- figures -----------------------------------------------------------------------


def _figure_label(state: GameState, seat: int, space: Space) -> dict[str, Any]:
    figs = state.hexes[space].of(seat)
    return {"workers": figs.workers, "leader": "+L" if figs.leader else ""}


def _enter_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    kind = _read(FIGURE, chosen.get("figure"))
    spaces = sorted(
        {
            a.space
            for a in legal.actions_for(state, seat, "enter")
            if isinstance(a, Enter) and (kind is None or a.kind == kind)
        }
    )
    return [_space(s, "tikal.label.enter_space", hex=_hex_words(state, s)) for s in spaces]


def _enter_figures(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    kinds = sorted(
        {a.kind for a in legal.actions_for(state, seat, "enter") if isinstance(a, Enter)}
    )
    return [_figure(k) for k in kinds]


def _figure(kind: str) -> Suggestion:
    return Suggestion(
        kind, ("tikal.label.figure", {"figure": figure_text(kind)}), (f"tikal.short.{kind}", {})
    )


def _move_origins(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    kind = _read(FIGURE, chosen.get("figure"))
    target = _read(SPACE, chosen.get("target"))
    found = []
    for space in legal.figure_spaces(state, seat):
        kinds = legal.kinds_at(state, seat, space)
        if kind is not None and kind not in kinds:
            continue
        reach = legal.destinations(state, seat, space)
        if not reach or (target is not None and target not in reach):
            continue
        found.append(
            _space(
                space,
                "tikal.label.origin",
                ("tikal.short.origin", {"space": space_name(space)}),
                **_figure_label(state, seat, space),
            )
        )
    return found


def _move_targets(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    turn = state.turn
    assert turn is not None
    origin = _read(SPACE, chosen.get("origin"))
    kind = _read(FIGURE, chosen.get("figure"))
    origins = [origin] if origin is not None else legal.figure_spaces(state, seat)
    best: dict[Space, int] = {}
    for start in origins:
        if kind is not None and kind not in legal.kinds_at(state, seat, start):
            continue
        if not legal.kinds_at(state, seat, start):
            continue
        for target, cost in legal.destinations(state, seat, start).items():
            if cost < best.get(target, cost + 1):
                best[target] = cost
    return [
        _space(
            target,
            "tikal.label.target",
            ("tikal.short.target", {"space": space_name(target), "cost": cost}),
            hex=_hex_words(state, target),
            cost=cost,
            left=turn.ap - cost,
        )
        for target, cost in sorted(best.items(), key=lambda item: (item[1], item[0]))
    ]


def _move_figures(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    origin = _read(SPACE, chosen.get("origin"))
    spaces = [origin] if origin is not None else legal.figure_spaces(state, seat)
    kinds = sorted({k for s in spaces for k in legal.kinds_at(state, seat, s)})
    return [_figure(k) for k in kinds]


# -- digging, treasures, camps, guards ---------------------------------------------------


def _hex_words(state: GameState, space: Space) -> Any:
    hex_ = state.hexes[space]
    return hex_text(hex_.tile, hex_.value or None)


def _dig_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    found = []
    for action in legal.actions_for(state, seat, "dig"):
        assert isinstance(action, Dig)
        value = state.hexes[action.space].value
        found.append(
            _space(
                action.space,
                "tikal.label.dig",
                _costed(action.space, COST_DIG),
                value=value,
                next=value + 1,
                cost=COST_DIG,
            )
        )
    return found


def _recover_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    found = []
    for action in legal.actions_for(state, seat, "recover"):
        assert isinstance(action, Recover)
        tokens = len(state.hexes[action.space].tokens)
        found.append(
            _space(
                action.space,
                "tikal.label.recover",
                _costed(action.space, COST_RECOVER),
                tokens=tokens,
                cost=COST_RECOVER,
            )
        )
    return found


def _exchanges(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Exchange]:
    give = _read(TREASURE, chosen.get("give"))
    player = _read(PLAYER, chosen.get("player"))
    take = _read(TREASURE, chosen.get("take"))
    return [
        a
        for a in legal.actions_for(state, seat, "exchange")
        if isinstance(a, Exchange)
        and (give is None or a.give == give)
        and (player is None or a.player == player)
        and (take is None or a.take == take)
    ]


def _exchange_gives(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    kinds = sorted({a.give for a in _exchanges(state, seat, chosen)})
    return [
        Suggestion(
            k, ("tikal.label.treasure", {"treasure": treasure_text(k)}), (f"tikal.treasure.{k}", {})
        )
        for k in kinds
    ]


def _exchange_players(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    seats = sorted({a.player for a in _exchanges(state, seat, chosen)})
    return [
        Suggestion(SEAT_COLOURS[s], PLAYER.label(s), (f"tikal.colour.{SEAT_COLOURS[s]}", {}))
        for s in seats
    ]


def _exchange_takes(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    found: dict[str, list[int]] = {}
    for a in _exchanges(state, seat, chosen):
        found.setdefault(a.take, []).append(a.player)
    return [
        Suggestion(
            kind,
            (
                "tikal.label.take",
                {"treasure": treasure_text(kind), "holder_seat": sorted(set(s))[0]},
            ),
            (f"tikal.treasure.{kind}", {}),
        )
        for kind, s in sorted(found.items())
    ]


def _camp_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    return [
        _space(
            a.space, "tikal.label.camp", _costed(a.space, COST_CAMP), hex=_hex_words(state, a.space)
        )
        for a in legal.actions_for(state, seat, "camp")
        if isinstance(a, Camp)
    ]


def _guards(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Guard]:
    kind = _read(FIGURE, chosen.get("figure"))
    space = _read(SPACE, chosen.get("space"))
    return [
        a
        for a in legal.actions_for(state, seat, "guard")
        if isinstance(a, Guard)
        and (kind is None or a.kind == kind)
        and (space is None or a.space == space)
    ]


def _guard_spaces(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    spaces = sorted({a.space for a in _guards(state, seat, chosen)})
    return [
        _space(
            s,
            "tikal.label.guard",
            _costed(s, COST_GUARD),
            value=state.hexes[s].value,
            **_figure_label(state, seat, s),
        )
        for s in spaces
    ]


def _guard_figures(state: GameState, seat: int, chosen: Mapping[str, str]) -> list[Suggestion]:
    kinds = sorted({a.kind for a in _guards(state, seat, chosen)})
    return [_figure(k) for k in kinds]


_ANSWERS = {
    ("place", "space"): _place_spaces,
    ("place", "rotation"): _place_rotations,
    ("pick", "slot"): _pick_slots,
    ("bid", "amount"): _bid_amounts,
    ("enter", "space"): _enter_spaces,
    ("enter", "figure"): _enter_figures,
    ("move", "origin"): _move_origins,
    ("move", "target"): _move_targets,
    ("move", "figure"): _move_figures,
    ("dig", "space"): _dig_spaces,
    ("recover", "space"): _recover_spaces,
    ("exchange", "give"): _exchange_gives,
    ("exchange", "player"): _exchange_players,
    ("exchange", "take"): _exchange_takes,
    ("camp", "space"): _camp_spaces,
    ("guard", "space"): _guard_spaces,
    ("guard", "figure"): _guard_figures,
}
