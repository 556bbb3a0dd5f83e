"""The move picker through the service: both ways exact, its limits, what plays on a tap.

For random positions of every game and mode, the picker each seat that may
act reaches by taps (:meth:`~bot.service.tapping.Tapping.tap`) offers exactly that seat's
legal actions, one per step (actions the engine calls the same step, a Tikal
hex turned to the same stones, count once): every step it offers is legal,
and every legal action can be picked — a lightning layout (never suggested:
finding it is the race) is tapped brick by brick. Every menu on the way fits
Discord's limits and the picker's own in every language (labels value-first
and short, no two alike in their first 20 characters). Tapping a step plays
it when it can be taken back, and asks for a confirmation only when it cannot.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot import plugins
from bot.demo import run_demo
from bot.service import GameService, Player, Refusal
from bot.service.menus import END, Menu
from bot.service.play import judged
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, MALLORY
from tests.support.picking import canonical, finals, layout, spelled, walk
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


async def _state(service: GameService, game: str) -> tuple[Any, Any, Any]:
    row = await channel_row(service.store)
    engine = service.registry[game].engine
    return row, engine, engine.load_state(row.state)


async def _picker_matches_legal_actions(
    service: GameService, game: str, seated: tuple[Player, ...]
) -> int:
    """Walk the picker of every seat that may act now; how many were walked."""
    walked = 0
    row, engine, state = await _state(service, game)
    for player in seated:
        seat_row = row.seat_of(player.id)
        assert seat_row is not None
        seat = seat_row.seat
        if not engine.may_act(state, seat):
            with pytest.raises(Refusal):
                await service.tapping.tap(CHANNEL, player)
            continue
        legal = {str(a) for a in engine.legal_actions(state, seat)}
        if not legal:
            continue
        steps = {str(engine.representative(state, a)) for a in engine.legal_actions(state, seat)}
        suggested = {str(a) for a in engine.suggested_actions(state, seat)}
        hidden = legal - suggested  # to be found by the player (a lightning layout)
        assert all(a.startswith("lightning ") for a in hidden), hidden
        found, _ = await walk(service, CHANNEL, player, engine.verbs)
        picked = {canonical(engine, n) for n in found}
        for hide in hidden:  # tapped brick by brick: its Submit plays exactly it
            verb, *items = hide.split()
            menu, _ = await layout(service, CHANNEL, player, verb, items)
            picked |= {canonical(engine, n) for n in finals(engine.verbs, menu)}
        assert picked <= legal, f"{game}: not legal {sorted(picked - legal)[:5]}"
        assert steps - hidden <= picked, f"{game}: not reached {sorted(steps - picked)[:5]}"
        assert not hidden - picked, f"{game}: layout not reached {sorted(hidden - picked)[:3]}"
        walked += 1
    assert (await channel_row(service.store)).version == row.version  # nothing was played
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
            walked += await _picker_matches_legal_actions(service, game, seated)
        engine = service.registry[game].engine
        awaited = sorted(engine.waiting_for(engine.load_state(row.state)))
        seat_row = row.seats[chooser.choice(awaited)]
        player = next((p for p in seated if p.id == seat_row.user_id), None)
        assert player is not None, (seat_row, awaited, row.status)
        legal = await service.reading.legal_actions(CHANNEL, player)
        try:
            await service.play.act(CHANNEL, player, str(chooser.choice(legal)))
        except Refusal:
            continue
    assert walked >= 1


#: game, players, options, seed: whole games played by taps, checking every tap
TAPPED = [
    ("tigris", 3, {}, 21),
    ("tikal", 4, {"mode": "base"}, 22),
    ("tikal", 3, {"mode": "auction"}, 23),
    ("tikal", 2, {"mode": "mini"}, 24),
    ("temple", 3, {}, 25),
    ("temple", 3, {"joint": "on"}, 26),
]
#: taps at most per game (the property is checked on every one)
MAX_TAPS = 500


def _menu_options(menu: Menu) -> list[Any]:
    return [o for o in (*menu.options, *menu.controls) if o.token not in ("r", "u")]


@pytest.mark.parametrize(("game", "count", "options", "seed"), TAPPED)
async def test_a_step_that_can_be_undone_plays_on_the_tap_and_no_other_unawares(
    store: Store, game: str, count: int, options: dict[str, str], seed: int
) -> None:
    """Random taps through a game: an option that completes a step plays it at once
    when the step can be taken back (the service's own judgement, played on a copy,
    agrees), or is marked (it plays at once, the menu saying why); any other tap on a
    step that cannot be taken back is answered with a confirmation whose one button,
    saying the step, plays it. The step played is the one the option's path spells."""
    service = GameService(store, render=False)
    seated = PLAYERS[:count]
    await open_game(service, game, *seated, seed=seed, **options)
    rng = random.Random(seed)
    confirmations = played = 0
    for _ in range(MAX_TAPS):
        row, engine, state = await _state(service, game)
        if row.status != "running":
            break
        awaited = sorted(engine.waiting_for(state))
        seat = rng.choice(awaited)
        player = next(p for p in seated if p.id == row.seats[seat].user_id)
        answer = await service.tapping.tap(CHANNEL, player)
        menu = answer.menu
        while menu is not None:
            table = engine.verbs
            steps = finals(table, menu)
            options = [o for o in _menu_options(menu) if not o.layout]
            options = [o for o in options if o.path] or options
            option = rng.choice(options)
            if len(option.path) != 1 + len(table[option.path[0]].params) and option.token != END:
                answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
                assert answer.outcome is None
                menu = answer.menu
                continue
            action = engine.parse_action(next(n for n, o in steps.items() if o is option))
            why = judged(engine, engine.load_state(row.state), seat, action)
            answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
            if answer.outcome is None:  # a confirmation
                assert not option.plays and why is not None, (option, why)
                assert answer.menu is not None
                [confirm] = answer.menu.options
                assert confirm.plays and canonical(engine, spelled(table, confirm.path)) == str(
                    action
                )
                confirmations += 1
                answer = await service.tapping.tap(
                    CHANNEL, player, answer.menu.token, [confirm.token]
                )
                assert answer.outcome is not None
            else:  # played on the tap: it could be taken back, or its option said not
                assert option.plays or why is None, (option, why)
                assert option.final or why is None or option.token == END, option
            played += 1
            after = await channel_row(store)
            moves = await store.moves(after.id, after=row.last_seq)
            assert moves and moves[0].action == str(action), (moves, action)
            break
    assert played > 20
    if game != "temple":
        assert confirmations + played > 0


async def test_a_tap_plays_a_step_and_a_stale_one_gets_a_fresh_menu(store: Store) -> None:
    service = GameService(store, render=False)
    await open_game(service, "tikal", ALICE, BOB, seed=3, mode="base")
    row = await channel_row(store)
    engine = service.registry["tikal"].engine
    (seat,) = engine.waiting_for(engine.load_state(row.state))
    mover, other = (ALICE, BOB) if row.seats[seat].user_id == ALICE.id else (BOB, ALICE)
    with pytest.raises(Refusal) as refused:
        await service.tapping.tap(CHANNEL, other)
    assert refused.value.text.key == "error.not_your_turn"
    with pytest.raises(Refusal) as refused:
        await service.tapping.tap(CHANNEL, MALLORY)
    assert refused.value.text.key == "error.not_in_game"
    answer = await service.tapping.tap(CHANNEL, mover)
    first = answer.menu
    assert first is not None
    # an Undo with nothing of theirs to take back: said, with the menu again
    undone = await service.tapping.tap(CHANNEL, mover, f"{row.version}u", ["u"])
    assert [t.key for t in undone.lines] == ["error.nothing_to_undo"] and undone.menu is not None
    assert (await channel_row(store)).version == row.version
    taps = 0
    while answer.outcome is None:
        assert answer.menu is not None
        taps += 1
        option = answer.menu.options[0]
        answer = await service.tapping.tap(CHANNEL, mover, answer.menu.token, [option.token])
    assert 1 <= taps <= 3
    after = await channel_row(store)
    assert after.version > row.version
    # the game moved on: a fresh menu, with a word saying why
    answer = await service.tapping.tap(CHANNEL, mover, first.token, [first.options[0].token])
    assert answer.outcome is None
    assert [t.key for t in answer.lines] in (["picker.stale_fresh"],)
    assert (await channel_row(store)).version == after.version
    for token, picked, key in (
        ("not a token", ["0"], "picker.bad_token"),
        (answer.menu.token if answer.menu else "", ["99"], "picker.bad_choice"),
        (answer.menu.token if answer.menu else "", [], "picker.bad_choice"),
    ):
        fresh = await service.tapping.tap(CHANNEL, mover, token, picked)
        assert [t.key for t in fresh.lines] == [key] and fresh.menu is not None
    assert (await channel_row(store)).version == after.version


TAPS_LINE = re.compile(
    r"^taps per turn: median \d+(\.5)?, max \d+; touches per turn: median \d+(\.5)?;"
    r" taps per step: median \d+(\.5)?$"
)


@pytest.mark.slow_except("tikal-2-options1")
@pytest.mark.parametrize(
    ("game", "players", "options", "player"),
    [
        ("tigris", 2, (), "random"),
        ("tikal", 2, ("mode=mini",), "sensible"),
        ("temple", 2, (), "sensible"),
    ],
)
async def test_the_demo_plays_a_whole_game_by_taps(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: str,
    players: int,
    options: tuple[str, ...],
    player: str,
) -> None:
    code = await run_demo(
        game, players, 1, tmp_path / "out", options, by_taps=True, player=player, images=False
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert TAPS_LINE.match(lines[-1]), lines[-1]
    assert lines[-2].startswith("Play tapped ")
    assert lines[-3].startswith("Final ranking:")
