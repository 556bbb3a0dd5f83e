"""Public and private views (the schema is in ``docs/temple_views.md``), prompts
and button labels.

The public view is the only input of the public round image: the face-up
cards, the deck (its count and its visible top card), every player's board
(silhouettes, bricks with their lengths and positions, the bricks laid at
the last reveal, supply, bonus bricks, tokens, winnings, the score so far),
the dice, the roller, who has submitted (seats only) and the race. Sealed
submissions are never in it: the public view is identical whatever a seat
has sealed. The private view adds one seat's sealed submission and its
board as the submission would leave it (the preview image).

Decisions:

* Scores are public (everything that scores lies on the table) and given
  already summed, so the renderer never adds points itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.games.base import PLAY_BUTTON, LayoutGroup, LayoutStep, RuleError, in_words
from bot.games.notation import Label
from bot.games.temple.actions import VERBS, Action, Bonus, Joint, Pass, Skip
from bot.games.temple.building import try_submission
from bot.games.temple.cards import Card, card
from bot.games.temple.components import LENGTHS, TOKENS, cell_name
from bot.games.temple.flow import AGE_LIMIT
from bot.games.temple.geometry import Brick, covered, matches, sort_bricks
from bot.games.temple.naming import brick_name, bricks_name
from bot.games.temple.race import LayoutNext
from bot.games.temple.scoring import best_card, breakdown, ranking
from bot.games.temple.state import (
    PHASE_BONUS,
    PHASE_OVER,
    PHASE_RACE,
    PHASE_ROUND,
    GameState,
    Laid,
    Player,
)
from bot.games.temple.words import dice_text, parts_text, round_verbs
from bot.i18n import Text, join_texts


def deadline_name(state: GameState) -> str | None:
    """The named deadline of the current situation (a new name per round/race)."""
    if state.phase == PHASE_ROUND:
        return f"round:{state.round}"
    if state.phase == PHASE_BONUS:
        return f"bonus:{state.revealed}"
    if state.phase == PHASE_RACE:
        return f"race:{state.race}"
    return None


def _card(card_id: str | None) -> dict[str, Any] | None:
    return None if card_id is None else card(card_id).view()


def _brick(brick: Brick, **flags: bool) -> dict[str, Any]:
    return {
        "length": brick.length,
        "x": brick.x,
        "y": brick.y,
        "cell": cell_name(brick.x, brick.y),
        **flags,
    }


def _area(
    state: GameState,
    seat: int,
    area: int,
    player: Player,
    laid: list[Laid],
    extra: Mapping[Brick, Mapping[str, bool]] | None = None,
) -> dict[str, Any]:
    found: Card | None = state.card_at(area)
    bricks = sort_bricks(item.brick for item in laid)
    fresh = {item.brick for item in laid if state.revealed and item.round == state.revealed}
    silhouette = found.cells if found is not None else frozenset()
    cells = covered(bricks) or set()
    return {
        "area": area,
        "card": None if found is None else found.id,
        "value": None if found is None else found.value,
        "width": 0 if found is None else found.width,
        "height": 0 if found is None else found.height,
        "cells": [] if found is None else [list(c) for c in found.ground_first],
        "bricks": [_brick(b, new=b in fresh, **(extra or {}).get(b, {})) for b in bricks],
        "missing": len(silhouette - cells),
        "matches": bool(silhouette) and matches(bricks, silhouette, player.mortar_area == area),
        "mortar": player.mortar_area == area,
        "joint": state.joint_area() == area
        and state.joint_pair is not None
        and seat in state.joint_pair,
        "relay": area in player.relay_pools,
    }


def _supply(supply: Mapping[int, int]) -> dict[str, int]:
    return {str(k): supply.get(k, 0) for k in LENGTHS}


def player_view(state: GameState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "die": state.dice[seat] if state.phase == PHASE_ROUND else None,
        "supply": _supply(player.supply),
        "bonus": sorted(player.bonus, reverse=True),
        "tokens": {token: token in player.tokens for token in TOKENS},
        "mortar_area": player.mortar_area,
        "won": [{"id": c, "value": card(c).value} for c in player.won],
        "score_tokens": list(player.score_tokens),
        "score": breakdown(player),
        "areas": [_area(state, seat, a, player, player.builds[a]) for a in range(len(state.slots))],
        "pending_bonus": [
            {"area": a, "lengths": list(v)} for a, v in sorted(player.pending_bonus.items())
        ],
        "last_moves": list(state.last_moves.get(seat, [])),
    }


def public_view(state: GameState) -> dict[str, Any]:
    waiting = state.awaited()
    top = state.deck[0] if state.deck else None
    return {
        "game": "temple",
        "phase": state.phase,
        "end_reason": state.end_reason,
        "round": state.round,
        "roller": state.roller,
        "order": state.order(),
        "dice": [{"seat": s, "face": f} for s, f in enumerate(state.dice)]
        if state.phase == PHASE_ROUND
        else [],
        "submitted": sorted(set(range(state.seats)) - waiting)
        if state.phase == PHASE_ROUND
        else [],
        "waiting_for": sorted(waiting),
        "slots": [
            {"area": a, "card": _card(c), "rounds_left": None if c is None else AGE_LIMIT - age}
            for a, (c, age) in enumerate(zip(state.slots, state.ages, strict=True))
        ],
        "deck": {"count": len(state.deck), "top": _card(top)},
        "discarded": len(state.discarded),
        "revealed": state.revealed,
        "race": None
        if state.race_card is None
        else {
            "number": state.race,
            "card": _card(state.race_card),
            "skipped": sorted(state.race_skipped),
        },
        "joint": {
            "rule": state.joint_rule,
            "open": state.joint_rule and state.last_card(),
            "offers": [[a, b] for a, b in sorted(state.joint_offers.items())],
            "pair": None if state.joint_pair is None else list(state.joint_pair),
        },
        "players": [player_view(state, s) for s in range(state.seats)],
        "result": _result(state),
        "caption": _caption(state),
    }


#: the first word of a revealed part's notation -> its short caption key
_CAPTION_VERBS = ("place", "move", "swap", "pass", "hammer", "mortar", "bag", "relay")


def _caption(state: GameState) -> dict[str, Any] | None:
    """The last revealed round in a few words per seat ("laid a brick, Mortar"), for
    the board's caption line; None before the first reveal."""
    if not state.revealed or not state.last_moves:
        return None
    moves = []
    for seat in state.order():
        verbs = [str(part).split(" ", 1)[0] for part in state.last_moves.get(seat, [])]
        words = [Text(f"temple.caption.{verb}") for verb in verbs if verb in _CAPTION_VERBS]
        if words:
            moves.append({"seat": seat, "words": join_texts(words).to_json()})
    return {"round": state.revealed, "moves": moves}


def _result(state: GameState) -> dict[str, Any] | None:
    """At the end: the ranking, each seat's place (ties share a place) and score,
    and for seats tied on score with another, the tie-break (the best card's value)."""
    if state.phase != PHASE_OVER:
        return None
    result = ranking(state)
    scores = result.scores
    tied = {s for s in scores if any(o != s and scores[o] == scores[s] for o in scores)}
    return {
        "ranking": list(result.ranking),
        "places": {str(seat): place for seat, place in sorted(result.places.items())},
        "scores": {str(seat): score for seat, score in sorted(scores.items())},
        "tiebreak": {str(s): best_card(state.players[s]) for s in sorted(tied)},
    }


def private_view(state: GameState, seat: int) -> dict[str, Any]:
    """``seat``'s sealed submission and its board as the submission leaves it."""
    if not 0 <= seat < state.seats:
        return {}
    player = state.players[seat]
    sub = state.submission(seat)
    board = player_view(state, seat)
    if state.phase == PHASE_ROUND and not sub.empty():
        try:
            bench, _ = try_submission(state, seat, sub)
        except RuleError:  # a stored submission is always legal; stay safe anyway
            bench = None
        if bench is not None:
            preview = Player(**{**player.__dict__})
            preview.supply, preview.builds = bench.supply, bench.builds
            preview.mortar_area, preview.tokens = bench.mortar_area, bench.tokens
            areas = []
            for a in range(len(state.slots)):
                before = set(player.bricks(a))
                after = {laid.brick for laid in bench.builds[a]}
                flags = {b: {"pending": True} for b in after - before}
                view = _area(state, seat, a, preview, bench.builds[a], flags)
                view["removed"] = [_brick(b) for b in sort_bricks(before - after)]
                areas.append(view)
            board["areas"] = areas
            board["supply"] = _supply(bench.supply)
            board["tokens"] = {token: token in bench.tokens for token in TOKENS}
            board["mortar_area"] = bench.mortar_area
    return {
        "game": "temple",
        "seat": seat,
        "phase": state.phase,
        "round": state.round,
        "die": state.dice[seat] if state.phase == PHASE_ROUND else None,
        "submission": {
            "parts": [str(part) for part in sub.parts()],
            "words": parts_text(sub.parts()).to_json() if sub.parts() else None,
            "complete": sub.complete(),
        },
        "relay_pools": {str(a): list(v) for a, v in sorted(player.relay_pools.items())},
        "slots": [{"area": a, "card": _card(c)} for a, c in enumerate(state.slots)],
        "race": None
        if state.race_card is None
        else {"number": state.race, "card": _card(state.race_card)},
        "board": board,
    }


def own_part(view: Mapping[str, Any]) -> dict[str, Any]:
    """What of a private view only its seat knows: its sealed move (and the
    board it previews; a bare pass previews nothing) and the bricks it may
    re-lay; empty parts left out. The
    rest — its bricks, supply, tokens, the round, the dice, the cards — is on
    the public board for everyone, so a change there sends no private image."""
    mine: dict[str, Any] = {}
    submission = view.get("submission") or {}
    if submission.get("parts") and submission.get("parts") != ["pass"]:  # a pass shows nothing
        mine["submission"] = submission
        mine["board"] = view.get("board")
    if view.get("relay_pools"):
        mine["relay_pools"] = view.get("relay_pools")
    return mine


def prompt(state: GameState) -> tuple[str, dict[str, Any]] | None:
    """What the game asks the seats it waits for, in words, pointing to the Play button."""
    if state.phase == PHASE_ROUND:
        return "temple.prompt.round", {
            "round": state.round,
            "dice": dice_text(state.dice),
            "play": PLAY_BUTTON,
            "verbs": round_verbs(),
        }
    if state.phase == PHASE_BONUS:
        return "temple.prompt.bonus", {}
    if state.phase == PHASE_RACE:
        return "temple.prompt.race", {"race": state.race, "play": PLAY_BUTTON}
    return None


def layout_step(
    state: GameState, seat: int, bricks: tuple[Brick, ...], next_: LayoutNext
) -> LayoutStep:
    """A partial lightning layout for the picker: the layout so far in words (the
    cells still to cover, or why a covering layout is not valid), the bricks that
    may follow by length (each labelled by the cells it covers)."""
    so_far: Text | str = bricks_name(bricks) if bricks else "—"
    if next_.complete:
        title: Label = ("temple.picker.layout.complete", {"bricks": so_far})
    elif next_.problem is not None and next_.problem.key == "temple.error.layout.loose":
        title = (
            "temple.picker.layout.loose",
            {"bricks": so_far, "brick": next_.problem.params.get("brick", "")},
        )
    elif next_.problem is not None:
        title = (next_.problem.key, dict(next_.problem.params))
    else:
        empty = ", ".join(cell_name(*c) for c in next_.empty)
        title = ("temple.picker.layout.title", {"bricks": so_far, "cells": empty})
    used = Counter(b.length for b in bricks)
    owned = state.players[seat].owned()
    groups = []
    for length, cells in next_.bricks:
        items: list[tuple[str, Label]] = []
        for x, y in cells:
            brick = Brick(length, x, y)
            named = brick_name(brick)
            items.append((brick.notation(), (named.key, named.params)))
        left = owned.get(length, 0) - used[length]
        groups.append(
            LayoutGroup(
                str(length),
                ("temple.picker.length", {"length": length, "left": left}),
                ("temple.picker.where", {"length": length, "bricks": so_far}),
                tuple(items),
            )
        )
    return LayoutStep(
        title,
        tuple(groups),
        next_.complete,
        ("temple.picker.lightning", {}),
        ("temple.picker.remove", {}),
    )


def choice_label(action: Action) -> tuple[str, dict[str, Any]]:
    if isinstance(action, Bonus):
        return "temple.choice.bonus", {"length": action.length, "area": action.area + 1}
    if isinstance(action, Pass):
        return "temple.choice.pass", {}
    if isinstance(action, Skip):
        return "temple.choice.skip", {}
    if isinstance(action, Joint):
        return "temple.choice.joint", {"seat": action.player}
    return in_words("temple", VERBS, action)
