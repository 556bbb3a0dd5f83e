"""A lightning race layout entered by tapping, brick by brick, through the service.

The race is reached by seeded play; then the picker offers "Lay out the
lightning temple" besides "Give up the race", and each menu of the layout is
the engine's (:meth:`TempleEngine.layout_step`): a brick's length, then its
cell, "Remove the last brick", and "Submit" once the layout is complete.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import plugins
from bot.games.temple import ENGINE as TEMPLE
from bot.games.temple.actions import Lightning
from bot.games.temple.building import check_layout_bricks
from bot.games.temple.cards import card
from bot.games.temple.geometry import Brick
from bot.games.temple.race import check_layout, suggested_layout
from bot.games.temple.state import PHASE_RACE
from bot.service import GameService, Player, Refusal
from bot.service.pick_token import MAX_TOKEN, Pending
from bot.service.picker import Menu, Picked, Picker, StalePick
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.support.picking import check_limits
from tests.support.seated import channel_row, open_game

plugins.load_builtin_games()

#: seeds whose games reach a lightning race within :data:`STEPS` random steps
SEEDS = (1, 2, 3)
STEPS = 400


async def _to_a_race(service: Store | Any, seated: tuple[Player, ...], seed: int) -> bool:
    """Play random legal steps (never a layout, never giving up) until a race is on."""
    chooser = random.Random(seed)
    for _ in range(STEPS):
        row = await channel_row(service.store)
        if row.status != "running":
            return False
        state = TEMPLE.load_state(row.state)
        if state.phase == PHASE_RACE:
            return True
        awaited = sorted(TEMPLE.waiting_for(state))
        seat_row = row.seats[chooser.choice(awaited)]
        player = next(p for p in seated if p.id == seat_row.user_id)
        legal = [a for a in await service.legal_actions(CHANNEL, player)]
        try:
            await service.act(CHANNEL, player, str(chooser.choice(legal)))
        except Refusal:
            continue
    return False


async def _racing(store: Store, seed: int, count: int = 2) -> tuple[GameService, tuple[Player, ...]]:
    service = GameService(store, render=False)
    seated = (ALICE, BOB, CAROL)[:count]
    await open_game(service, "temple", *seated, seed=seed)
    if not await _to_a_race(service, seated, seed):
        pytest.skip(f"seed {seed} reaches no race")
    return service, seated


def _option(picker: Picker, menu: Menu, then: str | None, group: str | None = None) -> str:
    """The token of the option of ``menu`` that leads to the layout ``then`` (items
    joined by ``,``; None: Submit) or opens ``group``."""
    built = picker._build(picker.decode(menu.token))
    for option, choice in zip(menu.options, built.choices, strict=True):
        after = choice.then
        if then is None and isinstance(after, Picked):
            return option.token
        if isinstance(after, Pending) and after.verb == "lightning":
            if group is not None and after.group == group:
                return option.token
            if group is None and after.group is None and after.values == ((then,) if then else ()):
                return option.token
    raise AssertionError((menu, then, group))


async def test_a_layout_tapped_brick_by_brick_wins_the_race(store: Store) -> None:
    service, seated = await _racing(store, SEEDS[0])
    row = await channel_row(store)
    state = TEMPLE.load_state(row.state)
    seat = min(TEMPLE.waiting_for(state))
    player = next(p for p in seated if p.id == row.seats[seat].user_id)
    layout = suggested_layout(state, seat)
    assert layout is not None
    _, picker = await service.tapping.picker(CHANNEL, player)

    answer = await service.pick(CHANNEL, player)
    menu = answer.menu
    assert menu is not None
    labels = [o.label.render("en") for o in menu.options]
    assert labels == ["Give up the race", "Lay out the lightning temple"], labels
    assert [o.layout for o in menu.options] == [False, True]
    answer = await service.pick(CHANNEL, player, menu.token, [menu.options[1].token])
    taps = 1
    laid: list[str] = []
    for brick in layout:
        menu = answer.menu
        assert menu is not None and not menu.confirm
        check_limits(menu)
        so_far = ", ".join(laid)
        assert (brick.notation() if not laid else laid[-1]) in menu.title.render("en") or not laid
        token = _option(picker, menu, None, group=str(brick.length))
        answer = await service.pick(CHANNEL, player, menu.token, [token])
        menu = answer.menu
        assert menu is not None
        check_limits(menu)
        laid.append(brick.notation())
        answer = await service.pick(
            CHANNEL, player, menu.token, [_option(picker, menu, ",".join(laid))]
        )
        taps += 2
        del so_far
    menu = answer.menu
    assert menu is not None
    assert "holds together" in menu.title.render("en")
    assert [o.label.render("en") for o in menu.options] == ["Remove the last brick", "Submit"]
    answer = await service.pick(CHANNEL, player, menu.token, [_option(picker, menu, None)])
    taps += 1
    assert answer.outcome is not None and answer.menu is None
    after = TEMPLE.load_state((await channel_row(store)).state)
    assert after.players[seat].won[-1] == "lightning"
    assert taps == 2 + 2 * len(layout)
