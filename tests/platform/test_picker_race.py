"""A lightning race layout entered by tapping, brick by brick, through the service.

The race is reached by seeded play; then the picker offers "Lay out the
lightning temple" besides "Give up the race", and each menu of the layout is
the engine's (:meth:`TempleEngine.layout_step`, from :func:`race.layout_next`):
a brick's length, then its cell, "Remove the last brick", and "Submit" once
the layout is complete and valid.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot import plugins
from bot.games.base import RuleError
from bot.games.temple import ENGINE as TEMPLE
from bot.games.temple.building import check_layout_bricks
from bot.games.temple.cards import card
from bot.games.temple.geometry import Brick
from bot.games.temple.race import check_layout, layout_next, suggested_layout
from bot.games.temple.state import PHASE_RACE, GameState
from bot.service import GameService, Player, Refusal
from bot.service.pick_token import MAX_TOKEN, Pending
from bot.service.picker import Menu, Picked, Picker
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.support.picking import check_limits, choices, tap_layout, walk_layout
from tests.support.seated import channel_row, open_game

plugins.load_builtin_games()

PLAYERS = (ALICE, BOB, CAROL)
#: random steps played at most to reach a race
STEPS = 400


async def _racing(store: Store, seed: int, count: int = 2) -> tuple[GameService, GameState]:
    """A game of ``count`` players, played at random (never a layout, never giving
    up a race) until a lightning race is on."""
    service = GameService(store, render=False)
    seated = PLAYERS[:count]
    await open_game(service, "temple", *seated, seed=seed)
    chooser = random.Random(seed)
    for _ in range(STEPS):
        row = await channel_row(store)
        assert row.status == "running"
        state = TEMPLE.load_state(row.state)
        if state.phase == PHASE_RACE:
            return service, state
        awaited = sorted(TEMPLE.waiting_for(state))
        seat_row = row.seats[chooser.choice(awaited)]
        player = next(p for p in seated if p.id == seat_row.user_id)
        legal = await service.legal_actions(CHANNEL, player)
        try:
            await service.act(CHANNEL, player, str(chooser.choice(legal)))
        except Refusal:
            continue
    raise AssertionError(f"seed {seed}: no race in {STEPS} steps")


async def _player(store: Store, seat: int) -> Player:
    row = await channel_row(store)
    return next(p for p in PLAYERS if p.id == row.seats[seat].user_id)


def _token(picker: Picker, menu: Menu, leads: object) -> str:
    """The token of the option of ``menu`` that leads to ``leads`` (a pick, or
    ``Picked`` for Submit)."""
    for option, then in choices(picker, picker.decode(menu.token)):
        if then == leads or (leads is Picked and isinstance(then, Picked)):
            return option.token
    raise AssertionError((menu, leads))


async def test_a_layout_tapped_brick_by_brick_wins_the_race(store: Store) -> None:
    service, state = await _racing(store, 1)
    seat = min(TEMPLE.waiting_for(state))
    player = await _player(store, seat)
    layout = suggested_layout(state, seat)
    assert layout is not None
    _, picker = await service.tapping.picker(CHANNEL, player)
    answer = await service.pick(CHANNEL, player)
    menu = answer.menu
    assert menu is not None
    labels = [o.label.render("en") for o in menu.options]
    assert labels == ["Give up the race", "Lay out the lightning temple"], labels
    answer = await service.pick(CHANNEL, player, menu.token, [menu.options[1].token])
    taps = 1
    laid: list[str] = []
    for brick in layout:
        menu = answer.menu
        assert menu is not None and not menu.confirm
        check_limits(menu)
        title = menu.title.render("en")
        assert title.startswith("Lightning temple so far: " + (" ".join(laid) or "—")), title
        pending = picker.decode(menu.token)
        by_length = Pending(pending.version, "lightning", pending.values, str(brick.length))
        assert menu.options[0].label.render("en").startswith("Brick of ")
        answer = await service.pick(CHANNEL, player, menu.token, [_token(picker, menu, by_length)])
        menu = answer.menu
        assert menu is not None
        check_limits(menu)
        assert menu.title.render("en").startswith(f"Where does the brick of {brick.length} go")
        laid.append(brick.notation())
        then = Pending(pending.version, "lightning", (",".join(laid),))
        answer = await service.pick(CHANNEL, player, menu.token, [_token(picker, menu, then)])
        taps += 2
    menu = answer.menu
    assert menu is not None
    assert "holds together" in menu.title.render("en")
    assert [o.label.render("en") for o in menu.options] == ["Remove the last brick", "Submit"]
    for lang in ("zh", "zh-TW", "ko"):
        assert menu.options[1].label.render(lang) != "Submit"
    answer = await service.pick(CHANNEL, player, menu.token, [_token(picker, menu, Picked)])
    taps += 1
    assert answer.outcome is not None and answer.menu is None
    after = TEMPLE.load_state((await channel_row(store)).state)
    assert after.players[seat].won[-1] == "lightning" and after.race_card is None
    assert taps == 2 + 2 * len(layout)


async def test_a_race_won_meanwhile_refuses_the_tapped_layout(store: Store) -> None:
    service, state = await _racing(store, 1)
    first, second = sorted(TEMPLE.waiting_for(state))
    late = await _player(store, second)
    opened = await service.pick(CHANNEL, late)
    assert opened.menu is not None
    winning = suggested_layout(state, first)
    assert winning is not None
    await service.act(
        CHANNEL, await _player(store, first), "lightning " + " ".join(b.notation() for b in winning)
    )
    with pytest.raises(Refusal) as refused:
        await service.pick(CHANNEL, late, opened.menu.token, [opened.menu.options[1].token])
    assert refused.value.text.key in ("picker.stale", "error.not_your_turn")


async def test_remove_the_last_brick_and_a_skipped_seat(store: Store) -> None:
    service, state = await _racing(store, 1)
    seat, other = sorted(TEMPLE.waiting_for(state))
    _, picker = await service.tapping.picker(CHANNEL, await _player(store, seat))
    [start] = [then for o, then in choices(picker, picker.start()) if o.layout]
    assert isinstance(start, Pending)
    group = next(t for _, t in choices(picker, start) if isinstance(t, Pending) and t.group)
    assert isinstance(group, Pending)
    _, one = choices(picker, group)[0]
    assert isinstance(one, Pending) and len(one.values) == 1
    labels = {o.label.render("en"): t for o, t in choices(picker, one)}
    assert labels["Remove the last brick"] == start
    assert "Submit" not in labels
    await service.act(CHANNEL, await _player(store, other), "skip")
    _, after = await service.tapping.picker(CHANNEL, await _player(store, seat))
    assert [o.label.render("en") for o in after.menu().options] == [
        "Give up the race",
        "Lay out the lightning temple",
    ]


def _legal_so_far(state: GameState, seat: int) -> Callable[[list[str]], None]:
    """A check of a layout a picker option leads to: its bricks are legal so far, and
    the cells offered for each length are exactly those where a brick is legal."""
    silhouette = card(state.race_card or "").cells
    owned = state.players[seat].owned()

    def fits(bricks: tuple[Brick, ...]) -> bool:
        try:
            check_layout_bricks(silhouette, bricks, owned, limit=len(bricks))
        except RuleError:
            return False
        return True

    def check(items: list[str]) -> None:
        bricks = tuple(TEMPLE.parse_action("lightning " + " ".join(items)).bricks)
        assert fits(bricks), items
        offered = dict(layout_next(state, seat, bricks[:-1]).bricks)
        for length in range(1, 5):
            for cell in silhouette:
                legal = fits((*bricks[:-1], Brick(length, *cell)))
                assert legal == (cell in offered.get(length, ())), (items, length, cell)
        try:
            check_layout(state, seat, bricks)
            wins = True
        except RuleError:
            wins = False
        assert layout_next(state, seat, bricks).complete == wins, items

    return check


@pytest.mark.slow_except("3-2")
@pytest.mark.parametrize(("seed", "count"), [(1, 2), (2, 3), (3, 2), (4, 3)])
async def test_every_offered_brick_keeps_the_layout_legal(
    store: Store, seed: int, count: int
) -> None:
    """Random walks through the layout menus of every racing seat: every brick offered
    is legal so far (inside, on free cells, available) and the cells offered for a
    length are exactly those; Submit is offered exactly when the layout wins."""
    service, state = await _racing(store, seed, count)
    rng = random.Random(seed)
    for seat in sorted(TEMPLE.waiting_for(state)):
        _, picker = await service.tapping.picker(CHANNEL, await _player(store, seat))

        legal_so_far = _legal_so_far(state, seat)
        submitted = 0
        for _ in range(6):
            played = walk_layout(picker, "lightning", rng, legal_so_far)
            if played is not None:
                submitted += 1
                bricks = TEMPLE.parse_action(played).bricks
                check_layout(state, seat, bricks)
        layout = suggested_layout(state, seat)
        if layout is not None:
            played, taps = tap_layout(picker, "lightning", [b.notation() for b in layout])
            check_layout(state, seat, TEMPLE.parse_action(played).bricks)
            assert taps == 2 + 2 * len(layout)


def test_a_full_layout_fits_in_the_token() -> None:
    """The longest layout (every cell of the lightning card a brick of 1) with a
    six-digit version and a length chosen fits in :data:`MAX_TOKEN`: the plain
    ``length:cell`` words need no more compact encoding."""
    cells = sorted(card("lightning").cells)
    words = ",".join(Brick(1, x, y).notation() for x, y in cells)
    token = Pending(999_999, "lightning", (words,), "4").encode(TEMPLE.verbs)
    assert len(token) + 3 <= MAX_TOKEN, (len(token), token)
    assert Pending.decode(token, TEMPLE.verbs).values == (words,)
