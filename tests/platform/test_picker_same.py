"""The picker's shortcuts change no menu: built both ways, compared.

The service keeps the menus built at a position (game, version, seat, undo
hint, names) and a later tap there reuses them: through random tap walks of
every game, each menu a tap answers with is the one a picker built afresh
from the stored game gives, and only the newest version of a game is kept. A
picker given what another picker of the same position worked out (its options,
the engine's values and labels, the judgements, some menus) builds the menus a
picker sharing nothing builds.

The picker works the seat's legal actions out once and hands them to every
``legal_values`` it asks (``legal=``). For random positions of every game and
mode, every menu a seat reaches (the first, and each one its options open,
breadth first) is built by a picker that does so and by one that lets the
engine work them out on each call: the menus (options, order, labels, tokens,
titles, controls) and where each option leads are the same. And each
``legal_values`` the picker asks answers the same with and without ``legal``.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from bot import plugins
from bot.games.base import GameEngine, GameType
from bot.i18n import Text
from bot.service import GameService, Player
from bot.service.loaded import label_text
from bot.service.menus import RESTART, Menu
from bot.service.pick_token import Pending
from bot.service.picker import Built, Picked, Picker, StalePick
from bot.service.play import judged
from bot.store import Store
from bot.store.base import GameRow
from tests.conftest import CHANNEL
from tests.support.seated import channel_row, open_game

GAMES = plugins.load_builtin_games()

#: game, players, options, seed, steps between the positions compared, positions
CASES = [
    ("tigris", 2, {}, 21, 9, 6),
    ("tigris", 4, {}, 22, 11, 6),
    ("tikal", 2, {"mode": "base"}, 23, 9, 6),
    ("tikal", 3, {"mode": "auction"}, 24, 9, 6),
    ("tikal", 2, {"mode": "mini"}, 25, 9, 6),
    ("temple", 2, {}, 26, 7, 5),
    ("temple", 3, {"joint": "on"}, 27, 7, 5),
]
#: menus built per seat and position (breadth first from the first menu)
MENUS = 25


class _EachCall(Picker):
    """The picker as it was: the engine works the legal actions out on every call."""

    def _legal_actions(self) -> Any:
        return None


def _picker(
    kind: type[Picker],
    engine: GameEngine[Any, Any],
    state: Any,
    seat: int,
    *,
    built: Built | None = None,
) -> Picker:
    dumped = engine.dump_state(state)
    return kind(
        engine,
        state,
        seat,
        version=7,
        undo=True,
        judge=lambda action: judged(engine, engine.load_state(dumped), seat, action),
        built=built,
    )


def _menus(
    picker: Picker, limit: int = MENUS
) -> list[tuple[Menu, dict[str, Pending | Picked | object]]]:
    """Up to ``limit`` menus the picker reaches, each with where its options lead."""
    found: list[tuple[Menu, dict[str, Pending | Picked | object]]] = []
    todo: deque[Pending] = deque([picker.start()])
    seen: set[Pending] = set()
    while todo and len(found) < limit:
        pending = todo.popleft()
        if pending in seen:
            continue
        seen.add(pending)
        try:
            menu = picker.menu(pending)
        except StalePick as stale:
            found.append((Menu("", Text(stale.key), ()), {}))
            continue
        current = picker.read(menu.token)
        leads: dict[str, Pending | Picked | object] = {}
        for section in menu.sections:
            for option in section.options:
                try:
                    leads[option.token] = picker.choose(current, [option.token])
                except StalePick as stale:  # a multiple-choice select's item alone
                    leads[option.token] = stale.key
                lead = leads[option.token]
                if isinstance(lead, Pending):
                    todo.append(lead)
        found.append((menu, leads))
    return found


def _positions(
    engine: GameEngine[Any, Any], count: int, options: dict[str, str], seed: int, steps: int
) -> list[Any]:
    chooser = random.Random(seed)
    state = engine.new_game(count, options, seed)
    kept = [engine.load_state(engine.dump_state(state))]
    for _ in range(steps * 40):
        if engine.result(state) is not None:
            break
        seats = sorted(engine.waiting_for(state))
        seat = chooser.choice(seats)
        legal = engine.legal_actions(state, seat)
        if not legal:
            continue
        engine.apply(state, seat, chooser.choice(legal))
        if chooser.randrange(steps) == 0:
            kept.append(engine.load_state(engine.dump_state(state)))
    return kept


@pytest.mark.parametrize(("game", "count", "options", "seed", "steps", "positions"), CASES)
def test_menus_are_the_same_built_both_ways(
    game: str, count: int, options: dict[str, str], seed: int, steps: int, positions: int
) -> None:
    engine = GAMES[game].engine
    states = _positions(engine, count, options, seed, steps)
    picked = random.Random(seed).sample(states, min(positions, len(states)))
    compared = 0
    for state in picked:
        for seat in range(count):
            if not engine.may_act(state, seat):
                continue
            once = _menus(_picker(Picker, engine, state, seat))
            each = _menus(_picker(_EachCall, engine, state, seat))
            assert once == each, f"{game} seat {seat}: a menu differs"
            compared += sum(1 for menu, _ in once if menu.sections)
    assert compared >= positions, f"{game}: only {compared} menus compared"


@pytest.mark.parametrize(("game", "count", "options", "seed", "steps", "positions"), CASES)
def test_a_picker_sharing_a_position_builds_the_menus_a_fresh_one_builds(
    game: str, count: int, options: dict[str, str], seed: int, steps: int, positions: int
) -> None:
    """Pickers of one position share what they worked out of it (:class:`Built`: the
    seat's options, its legal actions, the engine's values and labels, each step's
    judgement): a picker given what another worked out while building a few menus
    reaches the same menus, leading to the same places, as a picker that shares
    nothing. (The menus themselves are shared too, by the service's taps: the walk
    below compares those.)"""
    engine = GAMES[game].engine
    states = _positions(engine, count, options, seed, steps)
    picked = random.Random(seed + 1).sample(states, min(positions, len(states)))
    compared = asked = 0
    for state in picked:
        for seat in range(count):
            if not engine.may_act(state, seat):
                continue
            first = Built()
            _menus(_picker(Picker, engine, state, seat, built=first), limit=3)
            assert first.seen is not None
            asked += bool(first.labels and first.judged)
            shared = replace(first, menus={})
            again = engine.load_state(engine.dump_state(state))
            later = _menus(_picker(Picker, engine, again, seat, built=shared))
            fresh = _menus(_picker(Picker, engine, state, seat))
            assert later == fresh, f"{game} seat {seat}: a menu differs"
            compared += sum(1 for menu, _ in later if menu.sections)
    assert compared >= positions, f"{game}: only {compared} menus compared"
    assert asked > 0, f"{game}: no values or judgements shared"


@pytest.mark.parametrize(("game", "count", "options", "seed", "steps", "positions"), CASES)
def test_legal_values_answer_the_same_given_the_legal_actions(
    game: str, count: int, options: dict[str, str], seed: int, steps: int, positions: int
) -> None:
    engine = GAMES[game].engine
    asked = 0
    for state in _positions(engine, count, options, seed, steps)[:positions]:
        for seat in range(count):
            legal = engine.legal_actions(state, seat)
            for action in legal[:60]:
                verb = engine.verbs.of(action)
                words = verb.words(action)
                for index, param in enumerate(verb.params):
                    chosen = {p.name: words.get(p.name, "") for p in verb.params[:index]}
                    given = engine.legal_values(
                        state, seat, verb.name, param.name, chosen, legal=legal
                    )
                    assert given == engine.legal_values(
                        state, seat, verb.name, param.name, chosen
                    ), f"{game}: {verb.name} {param.name} {chosen}"
                    asked += 1
    assert asked > 0


#: game, players, options, seed, taps
WALKS = [
    ("tigris", 3, {}, 31, 160),
    ("tikal", 2, {"mode": "base"}, 32, 160),
    ("tikal", 3, {"mode": "auction"}, 33, 120),
    ("temple", 3, {}, 34, 160),
    ("temple", 3, {"joint": "on"}, 35, 160),
]


def _fresh(game_type: GameType, row: GameRow, seat: int, pending: Pending) -> Picker:
    """A picker built afresh from the stored game, remembering nothing."""
    engine = game_type.engine

    def text(key: str, params: Mapping[str, Any]) -> Text:
        return label_text(row, game_type, key, params)

    def judge(action: Any) -> Text | None:
        return judged(engine, engine.load_state(row.state), seat, action)

    state = engine.load_state(row.state)
    return Picker(
        engine, state, seat, version=row.version, text=text, undo=pending.undo, judge=judge
    )


@pytest.mark.parametrize(("game", "count", "options", "seed", "taps"), WALKS)
async def test_a_tap_answers_the_menu_a_fresh_picker_builds(
    store: Store, game: str, count: int, options: dict[str, str], seed: int, taps: int
) -> None:
    """Random taps through a game: every menu a tap answers with (the service keeps
    the menus built at a position and reuses them) is the menu a picker built afresh
    from the stored game at the token's pick gives."""
    service = GameService(store, render=False)
    players = [Player(9000 + n, f"Player {n + 1}") for n in range(count)]
    await open_game(service, game, *players, seed=seed, **options)
    game_type = GAMES[game]
    engine = game_type.engine
    chooser = random.Random(seed)
    compared = kept = 0
    for _ in range(taps):
        row = await channel_row(store)
        if row.status != "running":
            break
        state = engine.load_state(row.state)
        seat = chooser.choice(sorted(engine.waiting_for(state)))
        player = next(p for p in players if p.id == row.seats[seat].user_id)
        menu = (await service.tapping.tap(CHANNEL, player)).menu
        while menu is not None and menu.title.key != "picker.title.confirm":
            row = await channel_row(store)
            pending = Pending.decode(menu.token, engine.verbs)
            fresh = _fresh(game_type, row, seat, pending)
            assert fresh.menu(pending) == menu, f"{game}: the menu at {menu.token} differs"
            compared += 1
            options_ = [o for o in (*menu.options, *menu.controls) if o.token != RESTART]
            option = chooser.choice([o for o in options_ if not o.layout] or options_)
            before = set(service.tapping._kept)
            answer = await service.tapping.tap(CHANNEL, player, menu.token, [option.token])
            kept += set(service.tapping._kept) <= before  # only positions tapped before
            versions = {key[2] for key in service.tapping._kept if key[0] == answer.game_id}
            assert len(versions) <= 1, f"{game}: positions of older versions kept"
            if answer.outcome is not None or answer.lines:
                break
            menu = answer.menu
    assert compared >= taps // 2, f"{game}: only {compared} menus compared"
    assert kept > 0, f"{game}: no tap reused a position's menus"
