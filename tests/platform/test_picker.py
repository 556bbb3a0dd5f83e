"""The move picker through the service: both ways exact, Discord's limits, stale picks.

For random positions of every game and mode, the picker the service builds
for each seat that may act reaches exactly that seat's legal actions: every
step it can play is legal, and every legal action can be picked: a lightning
layout (never suggested: the player must find it, that is the race) is tapped
brick by brick through the layout menus. Every menu on the way fits
Discord's limits.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot import plugins
from bot.demo import run_demo
from bot.service import GameService, Player, Refusal
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, MALLORY
from tests.support.picking import canonical, reachable, tap_layout
from tests.support.seated import channel_row, open_game

plugins.load_builtin_games()

PLAYERS = (ALICE, BOB, CAROL, DAVE)

#: game, players, options, seed, steps played, positions walked
CASES = [
    ("tigris", 2, {}, 3, 90, 4),
    ("tigris", 3, {}, 4, 90, 4),
    ("tigris", 4, {}, 5, 110, 4),
    ("tikal", 4, {"mode": "base"}, 6, 140, 4),
    ("tikal", 4, {"mode": "auction"}, 7, 140, 4),
    ("tikal", 2, {"mode": "mini"}, 8, 110, 4),
    ("temple", 2, {}, 9, 90, 3),
    ("temple", 3, {"joint": "on"}, 10, 90, 3),
    ("temple", 4, {}, 11, 90, 3),
]


async def _picker_matches_legal_actions(service: GameService, seated: tuple[Player, ...]) -> int:
    """Walk the picker of every seat that may act now; how many were walked."""
    walked = 0
    for player in seated:
        try:
            game, picker = await service.tapping.picker(CHANNEL, player)
        except Refusal:
            continue
        engine = game.engine
        seat = picker.seat
        legal = {str(a) for a in engine.legal_actions(game.state, seat)}
        found = {str(a) for a in engine.suggested_actions(game.state, seat)}
        hidden = legal - found  # to be found by the player (a lightning layout)
        assert all(a.startswith("lightning ") for a in hidden), hidden
        if not legal:
            continue
        picked = {canonical(engine, n) for n in reachable(picker)}
        for layout in hidden:  # tapped brick by brick
            verb, *items = layout.split()
            played, _ = tap_layout(picker, verb, items)
            picked.add(canonical(engine, played))
        assert picked <= legal, f"{engine.name}: not legal {sorted(picked - legal)[:5]}"
        assert legal <= picked, f"{engine.name}: not reached {sorted(legal - picked)[:5]}"
        walked += 1
    return walked


@pytest.mark.slow_except("tikal-2-options5-8-110-4", "temple-2-options6-9-90-3")
@pytest.mark.parametrize(("game", "count", "options", "seed", "steps", "checks"), CASES)
async def test_the_picker_reaches_exactly_the_legal_actions(
    store: Store, game: str, count: int, options: dict[str, str], seed: int, steps: int, checks: int
) -> None:
    service = GameService(store, render=False)
    seated = PLAYERS[:count]
    await open_game(service, game, *seated, seed=seed, **options)
    chooser = random.Random(seed)
    check_at = set(chooser.sample(range(steps), checks)) | {0}
    walked = 0
    for step in range(steps):
        row = await channel_row(store)
        if row.status != "running":
            break
        if step in check_at:
            walked += await _picker_matches_legal_actions(service, seated)
        engine = service.registry[game].engine
        awaited = sorted(engine.waiting_for(engine.load_state(row.state)))
        seat_row = row.seats[chooser.choice(awaited)]
        player = next((p for p in seated if p.id == seat_row.user_id), None)
        assert player is not None, (seat_row, awaited, row.status)
        legal = await service.legal_actions(CHANNEL, player)
        try:
            await service.act(CHANNEL, player, str(chooser.choice(legal)))
        except Refusal:
            continue
    assert walked >= 1


async def test_a_pick_plays_through_act_and_a_stale_one_is_refused(store: Store) -> None:
    service = GameService(store, render=False)
    await open_game(service, "tikal", ALICE, BOB, seed=3, mode="mini")
    row = await channel_row(store)
    engine = service.registry["tikal"].engine
    (seat,) = engine.waiting_for(engine.load_state(row.state))
    mover, other = (ALICE, BOB) if row.seats[seat].user_id == ALICE.id else (BOB, ALICE)
    with pytest.raises(Refusal) as refused:
        await service.pick(CHANNEL, other)
    assert refused.value.text.key == "error.not_your_turn"
    with pytest.raises(Refusal) as refused:
        await service.pick(CHANNEL, MALLORY)
    assert refused.value.text.key == "error.not_in_game"
    answer = await service.pick(CHANNEL, mover)
    first = answer.menu
    assert first is not None
    taps = 0
    while answer.menu is not None:
        taps += 1
        answer = await service.pick(
            CHANNEL, mover, answer.menu.token, [answer.menu.options[0].token]
        )
    assert answer.outcome is not None and 1 <= taps <= 6
    after = await channel_row(store)
    assert after.version > row.version
    with pytest.raises(Refusal) as refused:  # the game moved on: a fresh picker is needed
        await service.pick(CHANNEL, mover, first.token, [first.options[0].token])
    assert refused.value.text.key in ("picker.stale", "error.not_your_turn")
    with pytest.raises(Refusal) as refused:
        await service.pick(CHANNEL, mover, "not a token", ["0"])
    assert refused.value.text.key in ("picker.bad_token", "error.not_your_turn")


TAPS_LINE = re.compile(r"^taps per step: median \d+(\.5)?, max \d+; per turn: median \d+(\.5)?$")


@pytest.mark.slow_except("tikal-2-options1")
@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("tigris", 2, ()), ("tikal", 2, ("mode=mini",)), ("temple", 2, ())],
)
async def test_the_demo_plays_a_whole_game_by_taps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: int, options: tuple
) -> None:
    code = await run_demo(game, players, 1, tmp_path / "out", options, by_taps=True, images=False)
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert TAPS_LINE.match(lines[-1]), lines[-1]
    assert lines[-2].startswith("Final ranking:")


def test_labels_are_cut_to_discords_limit() -> None:
    from bot.i18n import Text
    from bot.service.picker import MAX_LABEL, shown

    long = Text("picker.word", {"word": "x" * 300})
    assert len(shown(long, "ko")) == MAX_LABEL
    assert shown(Text("picker.confirm"), "zh") == "确认"
