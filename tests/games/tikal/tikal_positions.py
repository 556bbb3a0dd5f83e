"""Small hand-made Tikal positions for scenario tests.

Figures put on the board come out of the seat's supply, so the figure count
stays conserved; hexes laid here take their tokens as given (or from the
pool), as in play.
"""

from __future__ import annotations

from bot.games.base import RuleError
from bot.games.tikal import ENGINE
from bot.games.tikal.board import parse_space, space_name
from bot.games.tikal.components import TILES
from bot.games.tikal.state import (
    PHASE_ACTIONS,
    TURN_NORMAL,
    Figures,
    GameState,
    Hex,
    Turn,
    dump_state,
    new_state,
)

S = parse_space


def blank(seats: int = 2, mode: str = "base", seed: int = 0) -> GameState:
    """The start hexes only, seat 0 in the action phase of a normal turn with 10 AP."""
    game = new_state(seats, mode, seed)
    game.phase = PHASE_ACTIONS
    game.turn = Turn(seat=0, kind=TURN_NORMAL)
    return game


def acting(game: GameState, seat: int, ap: int = 10, kind: str = TURN_NORMAL) -> GameState:
    game.phase = PHASE_ACTIONS
    game.turn = Turn(seat=seat, kind=kind, ap=ap)
    return game


def lay(
    game: GameState,
    space: str,
    tile_id: str,
    rotation: int = 0,
    *,
    value: int | None = None,
    tokens: list[str] | None = None,
) -> Hex:
    """Put ``tile_id`` on ``space`` (temples at their printed value unless given)."""
    spec = TILES[tile_id]
    hex_ = Hex(tile=tile_id, rotation=rotation, value=spec.value if value is None else value)
    if tokens is not None:
        hex_.tokens = list(tokens)
    elif spec.kind == "treasure":
        hex_.tokens = game.pool[: spec.masks]
        del game.pool[: spec.masks]
    if tile_id in game.stack:
        game.stack.remove(tile_id)
    game.hexes[S(space)] = hex_
    return hex_


def put(game: GameState, space: str, seat: int, workers: int = 0, leader: bool = False) -> None:
    """Move ``seat``'s figures from its supply onto ``space``."""
    player = game.players[seat]
    assert player.workers >= workers and (player.leader or not leader)
    player.workers -= workers
    if leader:
        player.leader = False
    figs = game.hexes[S(space)].figures.setdefault(seat, Figures())
    figs.workers += workers
    figs.leader = figs.leader or leader


def figures(game: GameState, space: str, seat: int) -> tuple[int, bool]:
    figs = game.hexes[S(space)].of(seat)
    return figs.workers, figs.leader


def act(game: GameState, seat: int, text: str) -> list[str]:
    """Apply the notation ``text``; the event keys."""
    events = ENGINE.apply(game, seat, ENGINE.parse_action(text))
    return [event.key for event in events]


def refused(game: GameState, seat: int, text: str) -> RuleError:
    """Apply ``text`` expecting a refusal; the state must not change."""
    before = dump_state(game)
    try:
        ENGINE.apply(game, seat, ENGINE.parse_action(text))
    except RuleError as error:
        assert dump_state(game) == before, "a refused action changed the state"
        return error
    raise AssertionError(f"{text!r} was accepted")


def seed_example(game: GameState) -> GameState:
    """Seed 002's movement example: temple "2" on A5 next to temple "1" (A6, 1 AP),
    a jungle on B4 (3 AP from the temple) and a treasure hex on A4 with no
    crossing from the temple (3 AP from the jungle)."""
    lay(game, "A5", "C-1", 1)  # temple 2: NE 2, SW 1
    lay(game, "B4", "C-4", 4)  # jungle: N 2, SW 1
    lay(game, "A4", "C-5", 2)  # treasure: SE 3
    return game


def names(spaces: list[int]) -> list[str]:
    return [space_name(s) for s in spaces]
