"""A lightning race layout entered by tapping, brick by brick, through the service.

The race is reached by seeded play; then the picker opens on the layout at
once, "Give up the race" beside it, and each menu of the layout is the
engine's (:meth:`TempleEngine.layout_step`, from :func:`race.layout_next`):
one select per brick length holding the cells where such a brick may go (one
tap a brick), "Remove last brick", and "Submit" once the layout is
complete and valid.
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
from bot.games.temple.naming import bricks_name
from bot.games.temple.race import check_layout, layout_next, suggested_layout
from bot.games.temple.state import PHASE_RACE, GameState
from bot.service import GameService, Player, Refusal
from bot.service.menus import Menu, Option, Widget
from bot.service.pick_token import MAX_TOKEN, Pending
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.support.picking import check_menu, spelled
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
        legal = await service.reading.legal_actions(CHANNEL, player)
        try:
            await service.play.act(CHANNEL, player, str(chooser.choice(legal)))
        except Refusal:
            continue
    raise AssertionError(f"seed {seed}: no race in {STEPS} steps")


async def _player(store: Store, seat: int) -> Player:
    row = await channel_row(store)
    return next(p for p in PLAYERS if p.id == row.seats[seat].user_id)


def _items(option: Option) -> list[str]:
    """The layout an option of a layout menu leads to (its path's items)."""
    return option.path[1].split(",") if len(option.path) > 1 else []


def _adding(menu: Menu, laid: list[str]) -> dict[str, Option]:
    """The options of ``menu`` that add one item to ``laid``, by the item."""
    found = {}
    for option in menu.options:
        items = _items(option)
        if items[:-1] == laid and len(items) == len(laid) + 1:
            found[items[-1]] = option
    return found


def _bricks(submit: Option) -> tuple[Brick, ...]:
    """The bricks of the layout a Submit option plays."""
    return tuple(TEMPLE.parse_action(spelled(TEMPLE.verbs, submit.path)).bricks)


def _control(menu: Menu, label: str) -> Option | None:
    return next((o for o in menu.controls if o.label.render("en") == label), None)


async def test_a_layout_tapped_brick_by_brick_wins_the_race(store: Store) -> None:
    service, state = await _racing(store, 1)
    seat = min(TEMPLE.waiting_for(state))
    player = await _player(store, seat)
    layout = suggested_layout(state, seat)
    assert layout is not None
    answer = await service.tapping.tap(CHANNEL, player)
    menu = answer.menu
    assert menu is not None
    # the layout opens at once, one select per brick length, "Give up the race" beside it
    assert [o.label.render("en") for o in menu.controls] == ["Give up the race"]
    assert all(s.widget is Widget.SELECT for s in menu.sections)
    assert [s.header.render("en")[:9] for s in menu.sections if s.header] == ["Brick of "] * len(
        menu.sections
    )
    taps = 0
    laid: list[str] = []
    for number, brick in enumerate(layout):
        assert menu is not None
        check_menu(menu)
        title = menu.title.render("en")
        so_far = bricks_name(layout[:number]).render("en") if number else "—"
        assert title.startswith("Lightning temple so far: " + so_far), title
        option = _adding(menu, laid)[brick.notation()]
        answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
        taps += 1
        assert answer.outcome is None
        menu = answer.menu
        laid.append(brick.notation())
    assert menu is not None
    assert "holds together" in menu.title.render("en")
    labels = [o.label.render("en") for o in menu.controls]
    assert labels[:3] == ["Give up the race", "Remove last brick", "Submit"], labels
    submit = _control(menu, "Submit")
    assert submit is not None and submit.plays
    for lang in ("zh", "zh-TW", "ko"):
        assert submit.label.render(lang) != "Submit"
    answer = await service.tapping.tap(CHANNEL, player, menu.token, [submit.token])
    taps += 1
    assert answer.outcome is not None
    after = TEMPLE.load_state((await channel_row(store)).state)
    assert after.players[seat].won[-1] == "lightning" and after.race_card is None
    assert taps == len(layout) + 1  # one tap per brick, and Submit


async def test_a_race_won_meanwhile_refuses_the_tapped_layout(store: Store) -> None:
    service, state = await _racing(store, 1)
    first, second = sorted(TEMPLE.waiting_for(state))
    late = await _player(store, second)
    opened = await service.tapping.tap(CHANNEL, late)
    assert opened.menu is not None
    winning = suggested_layout(state, first)
    assert winning is not None
    await service.play.act(
        CHANNEL, await _player(store, first), "lightning " + " ".join(b.notation() for b in winning)
    )
    before = await channel_row(store)
    option = opened.menu.options[0]
    try:
        answer = await service.tapping.tap(CHANNEL, late, opened.menu.token, [option.token])
    except Refusal as refused:
        assert refused.text.key == "error.not_your_turn"
    else:
        assert [t.key for t in answer.lines] == ["picker.stale_fresh"] and answer.outcome is None
    assert (await channel_row(store)).version == before.version


async def test_remove_the_last_brick_and_a_skipped_seat(store: Store) -> None:
    service, state = await _racing(store, 1)
    seat, other = sorted(TEMPLE.waiting_for(state))
    player = await _player(store, seat)
    first = (await service.tapping.tap(CHANNEL, player)).menu
    assert first is not None
    option = first.options[0]
    one = (await service.tapping.tap(CHANNEL, player, first.token, [option.token])).menu
    assert one is not None and len(_items(option)) == 1
    remove = _control(one, "Remove last brick")
    assert remove is not None and _items(remove) == []
    assert _control(one, "Submit") is None
    back = (await service.tapping.tap(CHANNEL, player, one.token, [remove.token])).menu
    assert back is not None and back.title == first.title
    await service.play.act(CHANNEL, await _player(store, other), "skip")
    # another seat giving up leaves this seat's choices as they were
    again = (await service.tapping.tap(CHANNEL, player, back.token, [option.token])).menu
    assert again is not None and _control(again, "Remove last brick") is not None


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
    """Random walks by taps through the layout menus of every racing seat (never
    submitting): every brick offered is legal so far (inside, on free cells,
    available) and the cells offered for a length are exactly those; Submit is
    offered exactly when the layout wins; the suggested layout is one tap a brick."""
    service, state = await _racing(store, seed, count)
    rng = random.Random(seed)
    for seat in sorted(TEMPLE.waiting_for(state)):
        player = await _player(store, seat)
        legal_so_far = _legal_so_far(state, seat)
        menu = (await service.tapping.tap(CHANNEL, player)).menu
        laid: list[str] = []
        for _ in range(30):
            assert menu is not None
            check_menu(menu)
            adding = _adding(menu, laid)
            for item in adding:
                legal_so_far([*laid, item])
            submit = _control(menu, "Submit")
            if submit is not None:
                check_layout(
                    state, seat, TEMPLE.parse_action(spelled(TEMPLE.verbs, submit.path)).bricks
                )
            remove = _control(menu, "Remove last brick")
            groups = [o for o in menu.options if o.within]
            if adding and (remove is None or rng.random() < 0.8):
                option = rng.choice(list(adding.values()))
            elif groups and (remove is None or rng.random() < 0.8):
                option = rng.choice(groups)
            elif remove is not None:
                option = remove
            else:
                break
            answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
            assert answer.outcome is None
            menu = answer.menu
            laid = _items(option) if not option.within else laid
        layout = suggested_layout(state, seat)
        if layout is not None:
            final, taps = await tap_layout(service, player, [b.notation() for b in layout])
            assert taps == len(layout)
            submit = _control(final, "Submit")
            assert submit is not None
            check_layout(
                state, seat, TEMPLE.parse_action(spelled(TEMPLE.verbs, submit.path)).bricks
            )


async def tap_layout(service: GameService, player: Player, items: list[str]) -> tuple[Menu, int]:
    """Tap ``items`` into the seat's layout from its first menu: the last menu, and taps."""
    menu = (await service.tapping.tap(CHANNEL, player)).menu
    taps = 0
    laid: list[str] = []
    for item in items:
        assert menu is not None
        option = _adding(menu, laid)[item]
        menu = (await service.tapping.tap(CHANNEL, player, menu.token, [option.token])).menu
        taps += 1
        laid.append(item)
    assert menu is not None
    return menu, taps


def test_a_full_layout_fits_in_the_token() -> None:
    """The longest layout (every cell of the lightning card a brick of 1) with a
    six-digit version and a length chosen fits in :data:`MAX_TOKEN`: the plain
    ``length:cell`` words need no more compact encoding."""
    cells = sorted(card("lightning").cells)
    words = ",".join(Brick(1, x, y).notation() for x, y in cells)
    token = Pending("999999", "lightning", (words,), "4").encode(TEMPLE.verbs)
    assert len(token) + 3 <= MAX_TOKEN, (len(token), token)
    assert Pending.decode(token, TEMPLE.verbs).values == (words,)
