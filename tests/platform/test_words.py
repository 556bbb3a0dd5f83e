"""Words, not notation: every public line of every game and mode, as a channel
reads it in English, says what happened in sentences with player names — no
action notation, no seat numbers, no "(s)" — and a seat is sent its private
view only when what it alone sees changed.

Decisions:

* Random games of every game and mode are driven through the service (images
  off, so it is quick), with players whose names are not "Player N", and with
  deadlines now and then let pass, so timeout and table lines are seen too.
* Typed examples are allowed inside `code` spans (a prompt may show what to
  type); everything else is checked.
* The notation checks are the games' verbs followed by what the notation puts
  after them (a number, a square, a colour word, a brick ``3:B2``), so words
  such as "lay a brick of 3 at C2" or "moves a worker from B6 to A7" pass and
  "place 2 C2 3", "tile red F5", "move B6 A7" fail.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import games, plugins
from bot.i18n import Text
from bot.service import GameService, Outcome, Player, Refusal
from bot.store import Store

NAMES = ("Ann", "Bartholomew", "Chen", "Dara")
CHANNEL = 7001
GUILD = 9001
CODE_SPAN = re.compile(r"`[^`]*`")
SEAT = r"(?:red|blue|green|black|king|priest|farmer|trader|leader|worker)"
NOTATION = [
    # Temple Rush: place 2 C2 3, swap 2 C2 2 C3, move 1 A1 2 B2, bag 2 ..., bricks 3:B2
    re.compile(r"\b(?:place|move|swap|bag|relay|mortar|bonus|joint)\s+\d"),
    re.compile(r"\b\d:[A-H]\d\b"),
    re.compile(r"(?:—|·)\s*\d:\s*(?:[1-4]|star)\b"),  # dice by seat number: "— 1: 4 · 2: star"
    # Tigris: leader king F5, tile red F5, catastrophe F5, support 2, war red, treasure B2
    re.compile(rf"\b(?:leader|tile|withdraw|war|swap)\s+{SEAT}\b"),
    re.compile(r"\b(?:catastrophe|treasure|monument)\s+[A-P]\d"),
    re.compile(r"\bsupport\s+\d"),
    # Tikal: place C7 0, enter B6 leader, move B6 A7, dig A6, camp B6, bid 3, pick 1
    re.compile(r"\b(?:place|enter|move|dig|recover|camp|guard)\s+[A-M]\d"),
    re.compile(r"\b(?:bid|pick)\s+\d"),
    re.compile(r"\bexchange\s+\w+\s+" + SEAT),
    # a move shown as its bare notation
    re.compile(r"\bplayed\s+(?:sealed|pass|end)\b"),
]
SEAT_NUMBER = re.compile(r"\b(?:Player|Seat|seat)\s+\d")
PLURAL_HACK = re.compile(r"\w\(s\)")


def bad_parts(line: str) -> list[str]:
    """What in a public line is notation, a seat number or a "(s)"."""
    text = CODE_SPAN.sub("", line)
    found = [m.group(0) for pattern in NOTATION for m in pattern.finditer(text)]
    found += [m.group(0) for m in SEAT_NUMBER.finditer(text)]
    found += [m.group(0) for m in PLURAL_HACK.finditer(text)]
    return found


def test_the_checks_catch_the_old_wordings() -> None:
    for old in (
        "Player 4: swap 2 C2 2 C3",
        "Player 3 ran out of time; the game played pass for them.",
        "Round 2: Ann rolls the dice — 1: 4 · 2: 1 · 3: 3 · 4: 3.",
        "Ann swapped 3:B1 in area 2 for 1:F1.",
        "Ann: 2 action(s) left — leader, tile, catastrophe, swap or pass.",
        "The table played support 0 for Ann.",
        "Ann ran out of time; the game played place C7 0 for them.",
        "Ann ran out of time; the game played tile red F5 for them.",
    ):
        assert bad_parts(old), old
    for new in (
        "Ann: swap the brick at C2 in area 2 for a brick of 2 at C3.",
        "Ann ran out of time; the game played for them: pass this round.",
        "Ann moves a worker from B6 to A7 (2 AP).",
        "Ann places a red tile on F5.",
        "Ann: 1 action left — leader, tile, catastrophe, swap or pass.",
        "⚡ Lightning race 1: the first valid layout wins — type `lightning 4:A1 3:B2 …`.",
    ):
        assert not bad_parts(new), new


@dataclass
class Seen:
    public: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.public += [line.render("en") for line in (outcome.news.lines if outcome.news else [])]
        self.public += [line.render("en") for line in outcome.tally or []]
        self.private += [line.render("en") for line in outcome.reply.lines]
        for message in outcome.private:
            self.private += [line.render("en") for line in message.lines]


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def play_through(
    tmp_path: Path, game: str, players: int, seed: int, options: dict[str, str]
) -> Seen:
    plugins.load_builtin_games()
    game_type = games.REGISTRY[game]
    engine = game_type.engine
    store = await Store.open(tmp_path / f"{game}-{seed}.db")
    clock = Clock()
    seen = Seen()
    try:
        service = GameService(store, games.REGISTRY, clock=clock, render=False)
        seated = [Player(3000 + n, NAMES[n]) for n in range(players)]
        seen.add(
            await service.lobby.new_game(
                guild_id=GUILD,
                channel_id=CHANNEL,
                user=seated[0],
                game_type_name=game,
                options=options,
                seed=seed,
            )
        )
        for player in seated[1:]:
            seen.add(await service.lobby.join(CHANNEL, player))
        outcome = await service.lobby.start(CHANNEL, seated[0])
        seen.add(outcome)
        chooser = random.Random(seed)
        finished = outcome.finished
        for _ in range(3000):
            if finished:
                break
            row = await store.latest_game_in(CHANNEL)
            assert row is not None and row.state is not None
            timers = [t for t in await store.timers(row.id) if t.kind == "deadline"]
            if timers and chooser.random() < 0.15:
                clock.now = max(clock.now, min(t.due_at for t in timers)) + 1
                for fired in await service.timers.fire_due_timers():
                    seen.add(fired)
                    finished = finished or fired.finished
                continue
            awaited = engine.waiting_for(engine.load_state(row.state))
            seat = chooser.choice(sorted(awaited))
            player = next(p for p in seated if p.id == row.seats[seat].user_id)
            actions = await service.reading.legal_actions(CHANNEL, player)
            try:
                outcome = await service.play.act(CHANNEL, player, str(chooser.choice(actions)))
            except Refusal:
                clock.now += 120
                continue
            seen.add(outcome)
            finished = outcome.finished
        assert finished, f"{game} did not finish"
    finally:
        await store.close()
    return seen


GAMES = [
    ("temple", 4, {}),
    ("temple", 2, {}),
    ("tigris", 3, {}),
    ("tikal", 3, {}),
    ("tikal", 2, {"mode": "auction"}),
    ("tikal", 2, {"mode": "mini"}),
]


@pytest.mark.slow_except(
    "tikal-2-options5",
    "tigris-3-options2",
    "tikal-3-options3",
    "tikal-2-options4",
    "temple-2-options1",
)
@pytest.mark.parametrize(("game", "players", "options"), GAMES)
async def test_no_public_line_has_notation_seat_numbers_or_plural_hacks(
    tmp_path: Path, game: str, players: int, options: dict[str, str]
) -> None:
    seen = await play_through(tmp_path, game, players, 5, options)
    assert len(seen.public) > 20
    bad = {line: bad_parts(line) for line in seen.public if bad_parts(line)}
    assert not bad, "\n".join(f"{parts}: {line}" for line, parts in list(bad.items())[:20])
    hacks = [line for line in seen.private if PLURAL_HACK.search(line)]
    assert not hacks, hacks[:10]
    # nothing private or premature in public
    assert not [line for line in seen.public if "has not completed a move" in line]


def test_described_actions_hide_what_public_notation_hides() -> None:
    plugins.load_builtin_games()
    temple = games.REGISTRY["temple"].engine
    sealed = temple.parse_action("place 2 C2 3")
    assert Text(*temple.describe(sealed)).render("en") == "a sealed move"
    assert Text(*temple.describe(sealed, False)).render("en") == "lay a brick of 3 at C2 in area 2"
    tigris = games.REGISTRY["tigris"].engine
    swap = tigris.parse_action("swap red red blue")
    assert Text(*tigris.describe(swap)).render("en") == "swap 3 tiles"
    assert "blue" in Text(*tigris.describe(swap, False)).render("en")
    assert Text(*tigris.describe(tigris.parse_action("support 1"))).render("en") == (
        "commit 1 tile"
    )
    tikal = games.REGISTRY["tikal"].engine
    assert Text(*tikal.describe(tikal.parse_action("move B6 A7 leader"))).render("en") == (
        "move a leader from B6 to A7"
    )
