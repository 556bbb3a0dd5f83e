"""Walking the move picker through the service, for the property tests.

Every menu is reached by taps (:meth:`bot.service.tapping.Tapping.tap`): an option
that only narrows the pick is tapped; one that completes a step is read, not
tapped (tapping it would play it): its ``path`` spells the step. The tests
tap some of those too and check the step played is the one the path said.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from bot.games.notation import VerbTable
from bot.i18n import LANGUAGES
from bot.service import GameService, Player
from bot.service.menus import (
    BUTTONS_PER_ROW,
    DISTINCT_PREFIX,
    END,
    MAX_BUTTON_LABEL,
    MAX_DETAIL,
    MAX_OPTION_LABEL,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Menu,
    Option,
    Section,
    Widget,
    prefix,
    width,
)
from bot.service.pick_token import ITEM_SEP, MAX_TOKEN
from bot.service.picker import written

#: the longest game id the picker's custom_ids are sized for
GAME_ID_DIGITS = 7
#: Discord's limits on a select's placeholder
MAX_PLACEHOLDER = 150


def check_menu(menu: Menu) -> None:
    """A menu Discord can show, with the picker's own limits in every language: rows,
    options per select and row, labels (a wide character counting two), no two
    options alike in their first characters, descriptions, custom_ids."""
    assert menu.sections or menu.controls, menu
    assert menu.rows <= MAX_ROWS, menu
    assert len(menu.token) <= MAX_TOKEN, menu.token
    assert len(menu.controls) <= BUTTONS_PER_ROW
    options = [*menu.options, *menu.controls]
    assert len({o.token for o in options}) == len(options)
    for option in options:
        custom_id = f"zg:pick:{'9' * GAME_ID_DIGITS}:{menu.token}:{option.token}"
        assert len(custom_id) <= 100, custom_id
    for section in menu.sections:
        check_section(section)
    for lang in LANGUAGES:
        for option in menu.controls:
            assert width(option.label.render(lang)) <= MAX_BUTTON_LABEL, (lang, option)
        heads = [prefix(o.label.render(lang), DISTINCT_PREFIX) for o in options]
        alike = [h for h in heads if heads.count(h) > 1]
        assert not alike, (lang, alike, menu.title.render("en"))


def check_section(section: Section) -> None:
    assert section.options
    if section.widget is Widget.SELECT:
        assert len(section.options) <= MAX_SELECT_OPTIONS
        assert 1 <= section.min_values <= section.max_values <= len(section.options)
        limit = MAX_OPTION_LABEL
    else:
        assert section.min_values == section.max_values == 1
        limit = MAX_BUTTON_LABEL
    for lang in LANGUAGES:
        if section.header is not None and section.widget is Widget.SELECT:
            assert len(section.header.render(lang)) <= MAX_PLACEHOLDER, section.header
        for option in section.options:
            label = option.label.render(lang)
            assert 1 <= width(label) <= limit, (lang, label, section.widget)
            if option.detail is not None:
                assert len(option.detail.render(lang)) <= MAX_DETAIL, (lang, option.detail)


def complete(table: VerbTable, path: Sequence[str]) -> bool:
    """Whether ``path`` (a verb and its words) spells a whole step."""
    return bool(path) and len(path) == 1 + len(table[path[0]].params)


def spelled(table: VerbTable, path: Sequence[str]) -> str:
    return table[path[0]].spell(written(path[1:]))


def canonical(engine: Any, text: str) -> str:
    return str(engine.parse_action(text))


def selections(section: Section) -> Iterator[list[Option]]:
    """Every choice a player can make in a multiple-choice select."""
    for size in range(section.min_values, section.max_values + 1):
        yield from (list(c) for c in combinations(section.options, size))


def finals(table: VerbTable, menu: Menu) -> dict[str, Option | None]:
    """The steps ``menu``'s options complete (their notation), by the option (None for
    a selection of a multiple-choice select); End turn among them."""
    found: dict[str, Option | None] = {}
    for section in menu.sections:
        if section.max_values > 1:
            path = section.options[0].path
            for chosen in selections(section):
                items = ITEM_SEP.join(next(iter(o.within)) for o in chosen)
                found[spelled(table, (*path, items))] = None
            continue
        for option in section.options:
            if complete(table, option.path) and not option.layout:
                found[spelled(table, option.path)] = option
    for option in menu.controls:
        if option.token == END or (option.plays and complete(table, option.path)):
            found[spelled(table, option.path)] = option
    return found


async def walk(
    service: GameService, channel: int, player: Player, table: VerbTable, *, limit: int = 4000
) -> tuple[set[str], list[Menu]]:
    """Every step the player's picker offers now (notations), reached by tapping every
    option that only narrows the pick (never one that plays), and every menu seen;
    layouts entered item by item are left out (:func:`layout_menus`)."""
    first = await service.tapping.tap(channel, player)
    assert first.menu is not None and first.outcome is None
    seen: list[Menu] = []
    found: set[str] = set()
    stack = [first.menu]
    taps = 0
    while stack:
        menu = stack.pop()
        check_menu(menu)
        seen.append(menu)
        found |= set(finals(table, menu))
        for section in menu.sections:
            if section.max_values > 1:
                continue
            for option in section.options:
                if option.layout or complete(table, option.path) or option.plays:
                    continue
                taps += 1
                assert taps < limit, "picker tree too large to walk"
                answer = await service.tapping.tap(channel, player, menu.token, [option.token])
                assert answer.outcome is None and answer.menu is not None, option
                assert not answer.lines, [t.render("en") for t in answer.lines]
                stack.append(answer.menu)
    return found, seen


async def layout(
    service: GameService, channel: int, player: Player, verb: str, items: Sequence[str]
) -> tuple[Menu, int]:
    """Tap the layout ``items`` of ``verb`` item by item (never submitting it): the
    menu then shown, whose Submit plays it, and the taps it took (the start unless the
    layout opens at once, one per item, or two where an item sits behind its
    group's button)."""
    answer = await service.tapping.tap(channel, player)
    assert answer.menu is not None
    starts = [o for o in answer.menu.options if o.layout and o.path == (verb,)]
    taps = 0
    if starts:  # else the layout is all there is, and the first menu already
        answer = await service.tapping.tap(channel, player, answer.menu.token, [starts[0].token])
        taps = 1
    laid: list[str] = []
    for item in items:
        goal = ITEM_SEP.join([*laid, item])
        menu = answer.menu
        assert menu is not None
        check_menu(menu)
        direct = [o for o in menu.options if tuple(o.path) == (verb, goal)]
        if not direct:
            [group] = [o for o in menu.options if goal in o.within]  # a group's button
            answer = await service.tapping.tap(channel, player, menu.token, [group.token])
            taps += 1
            menu = answer.menu
            assert menu is not None
            direct = [o for o in menu.options if tuple(o.path) == (verb, goal)]
        [option] = direct
        answer = await service.tapping.tap(channel, player, menu.token, [option.token])
        assert answer.outcome is None
        taps += 1
        laid.append(item)
    assert answer.menu is not None
    check_menu(answer.menu)
    return answer.menu, taps
