"""The components: the tile set, the start hexes and each mode's equipment.

The facts live in ``data/tikal_tiles.json`` (the "digital edition layout");
this module only reads and types them, and holds the rule constants that are
not part of the tile set (action costs and per-turn limits).

Decisions (recorded in the data file, checked by ``test_tikal_tiles.py``):

* No public source gives the 36 terrain hexes' stones or the board's shape, so
  the digital edition ships its own set designed to every published count:
  15 temples (printed values 1×2, 2×3, 3×3, 4×3, 5×2, 6×2), 10 jungles,
  8 treasure hexes (2, 2, 3, 3, 3, 3, 4, 4 masks), 3 volcanoes (one each in
  B, D and F); every other drawn hex has exactly 3 stones grouped 3, 2+1 or
  1+1+1.
* Letters: A 5 hexes, B 5, C 5, D 5, E 5, F 5, G 6.
* The board: 9 columns (A–I) × 7 rows of hex spaces (63: the 40 hexes and
  23 spare), the start hexes in the bottom-left corner.
* The printed start hexes carry the printed board's stones, as two
  independent public implementations give them edge by edge (not the 3-stone
  rule of the drawn hexes): base camp A7 N1 NE1 SE1; the northern temple of
  value 1 on A6 N1 NE1 S1; the jungle B6 N1 NE1 SE1; the south-eastern temple
  of value 1 on B7 NE1 NW1. From the base camp a figure reaches the northern
  temple for 2 AP, the jungle for 1 and the south-eastern temple for 2;
  neither temple connects to the jungle.
* Treasure kinds are named ``mask jade idol vase crown dagger bowl shell``;
  Mini-Tikal uses the first four.
* Mini-Tikal: the 12 hexes A-1 A-3 B-2 B-4 C-3 | D-5 D-2 D-4 | E-3 F-4 G-3
  G-2 (5 temples, 3 jungles, 3 treasure hexes with 10 masks, the D volcano)
  on columns A–E, rows 3–7 (25 spaces; the rest of the board is unusable).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).parent / "data" / "tikal_tiles.json"

BASE = "base"
TEMPLE = "temple"
JUNGLE = "jungle"
TREASURE = "treasure"
VOLCANO = "volcano"
KINDS = (BASE, TEMPLE, JUNGLE, TREASURE, VOLCANO)

WORKER = "worker"
LEADER = "leader"
FIGURES = (WORKER, LEADER)
#: a figure's strength when a majority is counted
STRENGTH = {WORKER: 1, LEADER: 3}

# -- action costs and per-turn limits (docs/rules/tikal.md#action-points) -------

AP_PER_TURN = 10
COST_ENTER = 1
COST_PASSAGE = 1
COST_DIG = 2
COST_RECOVER = 3
COST_EXCHANGE = 3
COST_CAMP = 5
COST_GUARD = 5
MAX_ENTERED_PER_TURN = 10
MAX_LEVELS_PER_TEMPLE_PER_TURN = 2
MAX_TOKENS_PER_HEX_PER_TURN = 2
#: points for 1, 2 and 3 treasures of one kind
SET_POINTS = {0: 0, 1: 1, 2: 3, 3: 6}
TOP_TEMPLE_VALUE = 10


@dataclass(frozen=True)
class TileSpec:
    """One hex as printed: ``stones`` per edge clockwise from north, unrotated.

    ``letter`` is the back's letter (None for the printed start hexes),
    ``value`` a temple's printed value, ``masks`` a treasure hex's tokens.
    """

    id: str
    kind: str
    letter: str | None
    value: int
    masks: int
    stones: tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class StartHex:
    """A hex printed on the board: its tile and its space's name."""

    tile: TileSpec
    space: str


@dataclass(frozen=True)
class ModeSpec:
    """One lobby mode's equipment.

    ``stacks``: groups of letters shuffled together, top group first.
    ``area``: the usable spaces' names, or None for the whole board.
    ``first_seat``: ``"seat0"`` (the oldest player) or ``"random"``.
    """

    name: str
    tiles: tuple[str, ...]
    stacks: tuple[tuple[str, ...], ...]
    area: tuple[str, ...] | None
    workers: int
    camps: int
    guards: int
    treasure_kinds: tuple[str, ...]
    auction: bool
    start_score: int
    first_seat: str


@dataclass(frozen=True)
class TileSet:
    """Everything the data file holds, typed."""

    columns: int
    rows: int
    start: tuple[StartHex, ...]
    tiles: dict[str, TileSpec]
    temple_tiles: dict[int, int]
    treasure_kinds: tuple[str, ...]
    treasure_copies: int
    modes: dict[str, ModeSpec]


def _tile(raw: dict[str, Any], letter: str | None) -> TileSpec:
    stones = tuple(int(s) for s in raw["stones"])
    if len(stones) != 6:
        raise ValueError(f"tile {raw['id']}: six edges expected")
    return TileSpec(
        id=str(raw["id"]),
        kind=str(raw["kind"]),
        letter=letter,
        value=int(raw.get("value", 0)),
        masks=int(raw.get("masks", 0)),
        stones=(stones[0], stones[1], stones[2], stones[3], stones[4], stones[5]),
    )


@cache
def tile_set() -> TileSet:
    """The data file, read once."""
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    tiles = {t["id"]: _tile(t, t["letter"]) for t in raw["tiles"]}
    start = tuple(StartHex(_tile(s, None), s["space"]) for s in raw["board"]["start"])
    kinds = tuple(raw["treasure_kinds"])
    modes = {}
    for name, m in raw["modes"].items():
        ids = tuple(tiles) if m["tiles"] == "all" else tuple(m["tiles"])
        modes[name] = ModeSpec(
            name=name,
            tiles=ids,
            stacks=tuple(tuple(group) for group in m["stacks"]),
            area=None if m["area"] == "all" else tuple(m["area"]),
            workers=int(m["workers"]),
            camps=int(m["camps"]),
            guards=int(m["guards"]),
            treasure_kinds=kinds[: int(m["treasure_kinds"])],
            auction=bool(m["auction"]),
            start_score=int(m["start_score"]),
            first_seat=str(m["first_seat"]),
        )
    return TileSet(
        columns=int(raw["board"]["columns"]),
        rows=int(raw["board"]["rows"]),
        start=start,
        tiles=tiles,
        temple_tiles={int(v): int(n) for v, n in raw["temple_tiles"].items()},
        treasure_kinds=kinds,
        treasure_copies=int(raw["treasure_copies"]),
        modes=modes,
    )


TILE_SET = tile_set()
MODES = TILE_SET.modes
MODE_NAMES = tuple(MODES)
TREASURE_KINDS = TILE_SET.treasure_kinds
TEMPLE_TILES = TILE_SET.temple_tiles
TILES: dict[str, TileSpec] = {
    **TILE_SET.tiles,
    **{start.tile.id: start.tile for start in TILE_SET.start},
}
LETTERS = tuple(sorted({t.letter for t in TILE_SET.tiles.values() if t.letter}))
