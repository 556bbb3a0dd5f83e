"""Game state: plain dataclasses, their JSON form and the set-up.

Everything that decides the future of a game lives here, including the
hidden parts: the hex stack in draw order (``stack``, top first), the
treasure token pool in draw order (``pool``) and the face-down tokens on
each treasure hex (``Hex.tokens``, top last). Set-up shuffles them once
with ``random.Random(seed)``; nothing random happens later, so a seed plus
a move log replays exactly. Only :mod:`bot.games.tikal.views` decides what
the public sees.

Phases (``GameState.phase``):

``place``   the active player lays the hex in hand (drawn, bought, or the
            volcano set aside);
``actions`` the active player spends action points (``turn.kind`` says
            whether it is a normal turn or a scoring turn);
``bid``     auction: ``auction.current`` bids or passes;
``pick``    auction: the winner picks one of the revealed hexes;
``over``    the game has ended.

Decisions:

* Set-up order of the shuffles: the stack groups top first, then the
  token pool, then (Mini-Tikal) the first player.
* Treasure tokens are dealt from the pool when a treasure hex is laid, as
  at the table; the pool could only run short with a different tile set,
  and the hex then gets what is left.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.games.tikal.board import Space, Stones, parse_space, rotate, space_name
from bot.games.tikal.components import (
    AP_PER_TURN,
    MODES,
    TEMPLE_TILES,
    TILE_SET,
    TILES,
    TREASURE,
    TileSpec,
)

STATE_VERSION = 1

PHASE_PLACE = "place"
PHASE_ACTIONS = "actions"
PHASE_BID = "bid"
PHASE_PICK = "pick"
PHASE_OVER = "over"
PHASES = (PHASE_PLACE, PHASE_ACTIONS, PHASE_BID, PHASE_PICK, PHASE_OVER)

#: a normal turn: lay a hex (drawn or bought), then 10 AP
TURN_NORMAL = "normal"
#: a volcano scoring turn: 10 AP, then this player scores
TURN_SCORING = "scoring"
#: the volcano drawer's own turn after the round: lay the volcano, then 10 AP
TURN_VOLCANO = "volcano"
#: a final scoring turn: 10 AP, then this player scores
TURN_FINAL = "final"
SCORING_TURNS = (TURN_SCORING, TURN_FINAL)
TURN_KINDS = (TURN_NORMAL, TURN_SCORING, TURN_VOLCANO, TURN_FINAL)

BASE_CAMP: Space = parse_space(next(s.space for s in TILE_SET.start if s.tile.kind == "base"))


@dataclass
class Figures:
    """One seat's figures on one hex."""

    workers: int = 0
    leader: bool = False

    @property
    def count(self) -> int:
        """Figures, the leader counting 1 (the dig/recover requirement)."""
        return self.workers + (1 if self.leader else 0)

    @property
    def strength(self) -> int:
        """Majority strength, the leader counting 3."""
        return self.workers + (3 if self.leader else 0)


@dataclass
class Hex:
    """A hex on the board.

    ``value`` is a temple's current value (printed value plus levels
    uncovered), 0 for other hexes. ``tokens`` are the face-down treasure
    tokens, the top one last (hidden). ``guard`` is the guarding seat and
    ``guard_figure`` which figure became the guard.
    """

    tile: str
    rotation: int
    value: int = 0
    tokens: list[str] = field(default_factory=list)
    camp: int | None = None
    guard: int | None = None
    guard_figure: str | None = None
    figures: dict[int, Figures] = field(default_factory=dict)
    stones: Stones = (0, 0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        self.stones = rotate(TILES[self.tile].stones, self.rotation)

    @property
    def spec(self) -> TileSpec:
        return TILES[self.tile]

    @property
    def kind(self) -> str:
        return TILES[self.tile].kind

    def of(self, seat: int) -> Figures:
        """``seat``'s figures here (an empty record when it has none)."""
        return self.figures.get(seat) or Figures()


@dataclass
class Player:
    """One seat's supply, removed figures, markers, treasures and score."""

    workers: int
    leader: bool = True
    removed_workers: int = 0
    removed_leader: bool = False
    camps: int = 2
    guards: int = 2
    treasures: dict[str, int] = field(default_factory=dict)
    score: int = 0
    temple_points: int = 0
    treasure_points: int = 0
    paid: int = 0


@dataclass
class Turn:
    """The turn in progress: its seat, kind, AP left and per-turn counts."""

    seat: int
    kind: str
    ap: int = AP_PER_TURN
    entered: int = 0
    dug: dict[Space, int] = field(default_factory=dict)
    recovered: dict[Space, int] = field(default_factory=dict)


@dataclass
class Auction:
    """An auction for one turn: the bidders clockwise from the opener."""

    opener: int
    order: list[int]
    current: int
    high: int = 0
    high_seat: int | None = None
    passed: list[int] = field(default_factory=list)


@dataclass
class Scoring:
    """A scoring round in progress: ``kind`` is ``volcano`` or ``final``.

    ``order`` lists the seats' scoring turns in order, ``done`` those that
    have scored; ``drawer`` is who drew (or bought) the volcano.
    """

    kind: str
    number: int
    order: list[int]
    done: list[int] = field(default_factory=list)
    drawer: int | None = None


@dataclass
class LastAction:
    """The last step, for the image: who, which spaces, its notation."""

    seat: int
    spaces: list[Space]
    notation: str
    #: a short caption in words: ``[key, params]`` of an i18n ``Text``
    caption: list[Any] | None = None


@dataclass
class GameState:
    """A whole game of Tikal."""

    mode: str
    seats: int
    seed: int
    stack: list[str]
    pool: list[str]
    hexes: dict[Space, Hex]
    tiles_left: dict[int, int]
    players: list[Player]
    phase: str = PHASE_PLACE
    turn: Turn | None = None
    in_hand: str | None = None
    aside: str | None = None
    queue: list[tuple[str, int]] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    auction: Auction | None = None
    played: list[int] = field(default_factory=list)
    first_seat: int = 0
    last_placer: int | None = None
    scoring: Scoring | None = None
    volcanoes: int = 0
    round_number: int = 0
    turn_number: int = 0
    turns_done: int = 0
    last_action: LastAction | None = None
    #: every step since the last hand-off, with or without spaces (for the image)
    steps: list[LastAction] = field(default_factory=list)

    @property
    def auction_mode(self) -> bool:
        return bool(MODES[self.mode].auction)

    def strengths(self, space: Space) -> dict[int, int]:
        """Each present seat's majority strength on ``space``."""
        return {
            seat: figs.strength
            for seat, figs in self.hexes[space].figures.items()
            if figs.strength > 0
        }


def new_state(seats: int, mode: str, seed: int) -> GameState:
    """The board with its start hexes; stacks and tokens shuffled from ``seed``.

    The first turn (or auction) is opened by :func:`bot.games.tikal.flow.begin`.
    """
    spec = MODES[mode]
    rng = random.Random(seed)
    stack: list[str] = []
    for group in spec.stacks:
        ids = [t for t in spec.tiles if TILES[t].letter in group]
        rng.shuffle(ids)
        stack.extend(ids)
    pool = [kind for kind in spec.treasure_kinds for _ in range(TILE_SET.treasure_copies)]
    rng.shuffle(pool)
    first = rng.randrange(seats) if spec.first_seat == "random" else 0
    hexes = {}
    for start in TILE_SET.start:
        hexes[parse_space(start.space)] = Hex(
            tile=start.tile.id, rotation=0, value=start.tile.value
        )
    players = [
        Player(workers=spec.workers, camps=spec.camps, guards=spec.guards, score=spec.start_score)
        for _ in range(seats)
    ]
    return GameState(
        mode=mode,
        seats=seats,
        seed=seed,
        stack=stack,
        pool=pool,
        hexes=hexes,
        tiles_left=dict(TEMPLE_TILES),
        players=players,
        first_seat=first,
    )


def deal_tokens(state: GameState, space: Space) -> None:
    """Put a newly laid treasure hex's tokens on it, face down, from the pool."""
    hex_ = state.hexes[space]
    if hex_.kind != TREASURE:
        return
    count = min(hex_.spec.masks, len(state.pool))
    hex_.tokens = state.pool[:count]
    del state.pool[:count]


# -- JSON ---------------------------------------------------------------------------


def _dump_hex(hex_: Hex) -> dict[str, Any]:
    return {
        "tile": hex_.tile,
        "rotation": hex_.rotation,
        "value": hex_.value,
        "tokens": list(hex_.tokens),
        "camp": hex_.camp,
        "guard": hex_.guard,
        "guard_figure": hex_.guard_figure,
        "figures": {
            str(seat): [figs.workers, figs.leader] for seat, figs in sorted(hex_.figures.items())
        },
    }


def _load_hex(data: dict[str, Any]) -> Hex:
    return Hex(
        tile=data["tile"],
        rotation=data["rotation"],
        value=data["value"],
        tokens=list(data["tokens"]),
        camp=data["camp"],
        guard=data["guard"],
        guard_figure=data["guard_figure"],
        figures={
            int(seat): Figures(workers, bool(leader))
            for seat, (workers, leader) in data["figures"].items()
        },
    )


def _spaces_dict(d: dict[Space, int]) -> dict[str, int]:
    return {space_name(space): n for space, n in sorted(d.items())}


def _load_spaces_dict(d: dict[str, int]) -> dict[Space, int]:
    return {parse_space(name): n for name, n in d.items()}


def dump_state(state: GameState) -> dict[str, Any]:
    """The state as JSON-able data (hidden parts included: this is storage)."""
    turn, auction, scoring, last = state.turn, state.auction, state.scoring, state.last_action
    return {
        "version": STATE_VERSION,
        "mode": state.mode,
        "seats": state.seats,
        "seed": state.seed,
        "stack": list(state.stack),
        "pool": list(state.pool),
        "hexes": {space_name(s): _dump_hex(h) for s, h in sorted(state.hexes.items())},
        "tiles_left": {str(v): n for v, n in sorted(state.tiles_left.items())},
        "players": [
            {
                **{k: v for k, v in p.__dict__.items() if k != "treasures"},
                "treasures": dict(sorted(p.treasures.items())),
            }
            for p in state.players
        ],
        "phase": state.phase,
        "turn": None
        if turn is None
        else {
            "seat": turn.seat,
            "kind": turn.kind,
            "ap": turn.ap,
            "entered": turn.entered,
            "dug": _spaces_dict(turn.dug),
            "recovered": _spaces_dict(turn.recovered),
        },
        "in_hand": state.in_hand,
        "aside": state.aside,
        "queue": [list(item) for item in state.queue],
        "revealed": list(state.revealed),
        "auction": None
        if auction is None
        else {**auction.__dict__, "order": list(auction.order), "passed": list(auction.passed)},
        "played": list(state.played),
        "first_seat": state.first_seat,
        "last_placer": state.last_placer,
        "scoring": None
        if scoring is None
        else {**scoring.__dict__, "order": list(scoring.order), "done": list(scoring.done)},
        "volcanoes": state.volcanoes,
        "round_number": state.round_number,
        "turn_number": state.turn_number,
        "turns_done": state.turns_done,
        "last_action": None
        if last is None
        else {
            "seat": last.seat,
            "spaces": [space_name(s) for s in last.spaces],
            "notation": last.notation,
        },
        "steps": [_dump_step(step) for step in state.steps],
    }


def _dump_step(step: LastAction) -> dict[str, Any]:
    spaces = [space_name(s) for s in step.spaces]
    return {"seat": step.seat, "spaces": spaces, "notation": step.notation, "caption": step.caption}


def _load_step(data: dict[str, Any]) -> LastAction:
    spaces = [parse_space(n) for n in data["spaces"]]
    return LastAction(data["seat"], spaces, data["notation"], data.get("caption"))


def load_state(data: dict[str, Any]) -> GameState:
    """Inverse of :func:`dump_state`."""
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"unknown tikal state version {data.get('version')!r}")
    t, a, s, last = data["turn"], data["auction"], data["scoring"], data["last_action"]
    return GameState(
        mode=data["mode"],
        seats=data["seats"],
        seed=data["seed"],
        stack=list(data["stack"]),
        pool=list(data["pool"]),
        hexes={parse_space(name): _load_hex(h) for name, h in data["hexes"].items()},
        tiles_left={int(v): n for v, n in data["tiles_left"].items()},
        players=[Player(**{**p, "treasures": dict(p["treasures"])}) for p in data["players"]],
        phase=data["phase"],
        turn=None
        if t is None
        else Turn(
            seat=t["seat"],
            kind=t["kind"],
            ap=t["ap"],
            entered=t["entered"],
            dug=_load_spaces_dict(t["dug"]),
            recovered=_load_spaces_dict(t["recovered"]),
        ),
        in_hand=data["in_hand"],
        aside=data["aside"],
        queue=[(kind, seat) for kind, seat in data["queue"]],
        revealed=list(data["revealed"]),
        auction=None
        if a is None
        else Auction(**{**a, "order": list(a["order"]), "passed": list(a["passed"])}),
        played=list(data["played"]),
        first_seat=data["first_seat"],
        last_placer=data["last_placer"],
        scoring=None
        if s is None
        else Scoring(**{**s, "order": list(s["order"]), "done": list(s["done"])}),
        volcanoes=data["volcanoes"],
        round_number=data["round_number"],
        turn_number=data["turn_number"],
        turns_done=data.get("turns_done", 0),
        last_action=None
        if last is None
        else LastAction(last["seat"], [parse_space(n) for n in last["spaces"]], last["notation"]),
        steps=[_load_step(step) for step in data.get("steps", [])],
    )


def copy_state(state: GameState) -> GameState:
    """A deep copy (through the JSON form, so it is exactly what a reload gives)."""
    return load_state(dump_state(state))
