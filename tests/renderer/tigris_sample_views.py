"""Hand-written Tigris & Euphrates views (docs/tigris_views.md) for the renderer.

The engine is written in parallel, so the tests and the benchmark build their
views here: an early board, a late 4-player board with a war in progress, a
2-player board, a revolt, and a private view. ``late_view`` is generated from a
fixed seed (tiles grown outwards from the starting temples, blue only on the
river, leaders next to temples), so it is dense and deterministic.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.base import PlayerLabel

COLS, ROWS = 16, 11
LETTERS = "ABCDEFGHIJKLMNOP"
RIVER = tuple(
    f"{col}{row}"
    for row, cols in {
        1: "EFGHIM",
        2: "EM",
        3: "DEMN",
        4: "ABCDNOP",
        5: "OP",
        6: "O",
        7: "ABCDMNO",
        8: "DEFGM",
        9: "GHIJKLM",
    }.items()
    for col in cols
)
STARTING_TEMPLES = ("K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11")
CORNERS = frozenset({"B2", "P2", "B8", "O9"})
DYNASTIES = ("archer", "bull", "pot", "lion")
ALL_MONUMENTS = (
    ("red", "blue"),
    ("red", "green"),
    ("red", "black"),
    ("blue", "green"),
    ("blue", "black"),
    ("green", "black"),
)

PLAYERS = (
    PlayerLabel(0, "Alice", "#e67e22"),
    PlayerLabel(1, "Bartholomew the Magnificent of Uruk", "#9b59b6"),
    PlayerLabel(2, "李小龙", "#1abc9c"),
    PlayerLabel(3, "김민준 🦁", "#f1c40f"),
)


def sq(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def pos(name: str) -> tuple[int, int]:
    return LETTERS.index(name[0]), int(name[1:]) - 1


def neighbours(name: str) -> list[str]:
    c, r = pos(name)
    out = []
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= c + dc < COLS and 0 <= r + dr < ROWS:
            out.append(sq(c + dc, r + dr))
    return out


def _player(seat: int, supply: list[str], catastrophes: int, hand: int = 6) -> dict[str, Any]:
    return {
        "seat": seat,
        "dynasty": DYNASTIES[seat],
        "leaders_in_supply": supply,
        "catastrophes": catastrophes,
        "hand_size": hand,
        "points": None,
        "treasures": None,
    }


def _turn(active: int, phase: str = "action", actions_left: int = 2, waiting=None) -> dict:
    return {
        "active_seat": active,
        "actions_left": actions_left,
        "phase": phase,
        "waiting_for": [active] if waiting is None else waiting,
    }


def base_view(n_players: int) -> dict[str, Any]:
    """The starting position: ten temples with their treasures, nothing else."""
    return {
        "game": "tigris",
        "cols": COLS,
        "rows": ROWS,
        "river": list(RIVER),
        "tiles": [{"sq": s, "colour": "red", "flipped": False} for s in STARTING_TEMPLES],
        "leaders": [],
        "catastrophes": [],
        "treasures": [{"sq": s, "corner": s in CORNERS} for s in STARTING_TEMPLES],
        "monuments": [],
        "monuments_left": [list(m) for m in ALL_MONUMENTS],
        "unification": None,
        "last_action": None,
        "bag": 153 - 10 - 6 * n_players,
        "treasures_left": 10,
        "turn": _turn(0),
        "conflict": None,
        "players": [_player(s, ["black", "red", "blue", "green"], 2) for s in range(n_players)],
        "scoring": "hidden",
    }


def early_view() -> dict[str, Any]:
    """Turn 2 of a 3-player game: a couple of leaders and tiles."""
    view = base_view(3)
    view["tiles"] += [
        {"sq": "G3", "colour": "green", "flipped": False},
        {"sq": "E1", "colour": "blue", "flipped": False},
    ]
    view["leaders"] = [
        {"sq": "G4", "colour": "black", "seat": 0},
        {"sq": "J7", "colour": "red", "seat": 1},
    ]
    view["players"][0]["leaders_in_supply"] = ["red", "blue", "green"]
    view["players"][1]["leaders_in_supply"] = ["black", "blue", "green"]
    view["last_action"] = {"seat": 1, "squares": ["J7"], "notation": "leader red J7"}
    view["turn"] = _turn(1, actions_left=1)
    view["bag"] -= 2
    return view


def late_view(
    n_players: int = 4, seed: int = 7, war: bool = True, n_tiles: int = 95
) -> dict[str, Any]:
    """A dense late-game board: ~95 tiles, all leaders out, 2 monuments,
    catastrophes, 5 treasures taken, and (by default) a war in progress."""
    rng = random.Random(seed)
    view = base_view(n_players)
    river = set(RIVER)
    tiles: dict[str, str] = {s: "red" for s in STARTING_TEMPLES}
    # two monuments on land 2x2 blocks
    monuments = [("C9", ("red", "green"), "red"), ("K3", ("black", "blue"), "black")]
    flipped: set[str] = set()
    for top_left, _pair, colour in monuments:
        c, r = pos(top_left)
        for dc in (0, 1):
            for dr in (0, 1):
                tiles[sq(c + dc, r + dr)] = colour
                flipped.add(sq(c + dc, r + dr))
    while len(tiles) < n_tiles:
        frontier = sorted({n for s in tiles for n in neighbours(s) if n not in tiles})
        choice = rng.choice(frontier)
        if choice in river:
            colour = "blue"
        else:
            colour = rng.choices(("red", "green", "black"), weights=(4, 3, 3))[0]
        tiles[choice] = colour
    catastrophes = []
    for s in ("H5", "C6", "L6", "N10"):
        tiles.pop(s, None)
        catastrophes.append(s)
    # leaders on empty land next to a face-up temple
    empty_land = [
        sq(c, r)
        for r in range(ROWS)
        for c in range(COLS)
        if sq(c, r) not in tiles and sq(c, r) not in river and sq(c, r) not in catastrophes
    ]
    taken_treasures = {"B2", "P2", "K1", "F10", "I7"}
    temples_ok = [
        s
        for s in empty_land
        if any(tiles.get(n) == "red" and n not in flipped for n in neighbours(s))
    ]
    rng.shuffle(temples_ok)
    leaders = []
    supply = {s: ["black", "red", "blue", "green"] for s in range(n_players)}
    for seat in range(n_players):
        for colour in ("black", "red", "blue", "green")[: 4 - (seat % 2)]:
            if not temples_ok:
                break
            leaders.append({"sq": temples_ok.pop(), "colour": colour, "seat": seat})
            supply[seat].remove(colour)
    # a tile joins two kingdoms: unification marker on it
    unification = "H7"
    tiles[unification] = "blue" if unification in river else "green"
    view["tiles"] = [
        {"sq": s, "colour": c, "flipped": s in flipped} for s, c in sorted(tiles.items())
    ]
    view["leaders"] = leaders
    view["catastrophes"] = catastrophes
    view["treasures"] = [
        {"sq": s, "corner": s in CORNERS} for s in STARTING_TEMPLES if s not in taken_treasures
    ]
    view["monuments"] = [{"sq": s, "colours": list(p)} for s, p, _ in monuments]
    built = {p for _, p, _ in monuments}
    view["monuments_left"] = [list(m) for m in ALL_MONUMENTS if m not in built]
    view["bag"] = 23
    view["treasures_left"] = 10 - len(taken_treasures)
    for seat, player in enumerate(view["players"]):
        player["leaders_in_supply"] = supply[seat]
        player["catastrophes"] = (seat + 1) % 3
        player["hand_size"] = 6
    active = min(2, n_players - 1)
    view["last_action"] = {
        "seat": active,
        "squares": [unification],
        "notation": f"tile green {unification}",
    }
    if war:
        attacker = next(ld for ld in leaders if ld["seat"] == 2 and ld["colour"] == "black")
        defender = next(ld for ld in leaders if ld["seat"] == 0 and ld["colour"] == "black")
        view["unification"] = unification
        view["conflict"] = {
            "kind": "war",
            "colour": "black",
            "attacker_seat": 2,
            "defender_seat": 0,
            "attacker_sq": attacker["sq"],
            "defender_sq": defender["sq"],
            "attacker_base": 4,
            "defender_base": 3,
            "attacker_committed": 2,
            "defender_committed": None,
        }
        view["turn"] = _turn(2, phase="war_support", actions_left=1, waiting=[0])
    else:
        view["turn"] = _turn(active, actions_left=1)
    return view


def open_scoring(view: dict[str, Any]) -> dict[str, Any]:
    """The same view with the lobby option ``scoring: open``."""
    view["scoring"] = "open"
    for i, player in enumerate(view["players"]):
        player["points"] = {"red": 3 + i, "blue": 2 * i, "green": 5, "black": 7 - i}
        player["treasures"] = i % 3
    return view


def two_player_view() -> dict[str, Any]:
    """A mid-game 2-player board (no conflict), scoring open."""
    return open_scoring(late_view(2, seed=3, war=False, n_tiles=60))


def revolt_view() -> dict[str, Any]:
    """A revolt between two priests, waiting for the attacker's support."""
    view = early_view()
    view["leaders"].append({"sq": "J8", "colour": "red", "seat": 2})
    view["players"][2]["leaders_in_supply"] = ["black", "blue", "green"]
    view["conflict"] = {
        "kind": "revolt",
        "colour": "red",
        "attacker_seat": 2,
        "defender_seat": 1,
        "attacker_sq": "J8",
        "defender_sq": "J7",
        "attacker_base": 1,
        "defender_base": 1,
        "attacker_committed": None,
        "defender_committed": None,
    }
    view["last_action"] = {"seat": 2, "squares": ["J8"], "notation": "leader red J8"}
    view["turn"] = _turn(2, phase="revolt_support", actions_left=1, waiting=[2])
    return view


def private_view(seat: int = 0) -> dict[str, Any]:
    return {
        "game": "tigris",
        "seat": seat,
        "dynasty": DYNASTIES[seat],
        "hand": ["red", "red", "blue", "green", "black", "black"],
        "points": {"red": 4, "blue": 2, "green": 6, "black": 3},
        "treasures": 1,
    }
