"""Walking the move picker: every path of its menus, for the property tests."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from bot.service.pick_token import MAX_TOKEN
from bot.service.picker import (
    MAX_BUTTONS,
    MAX_OPTIONS,
    MAX_SELECT_OPTIONS,
    Menu,
    MenuKind,
    Picked,
    Picker,
)


def check_limits(menu: Menu) -> None:
    """A menu that Discord can show."""
    assert 1 <= len(menu.options) <= MAX_OPTIONS, menu
    if menu.kind is MenuKind.BUTTONS:
        assert len(menu.options) <= MAX_BUTTONS
        assert menu.min_values == menu.max_values == 1
    if menu.max_values > 1:  # a multiple choice is one select
        assert len(menu.options) <= MAX_SELECT_OPTIONS
    assert len(menu.token) <= MAX_TOKEN, menu.token
    assert 1 <= menu.min_values <= menu.max_values <= len(menu.options)
    assert len({o.token for o in menu.options}) == len(menu.options)
    for option in menu.options:
        assert len(menu.token) + len(option.token) + 1 <= MAX_TOKEN + 4


def choices_of(menu: Menu) -> Iterator[list[str]]:
    """Every choice a player can make in ``menu`` (every selection of a multi-select)."""
    tokens = [o.token for o in menu.options]
    for size in range(menu.min_values, menu.max_values + 1):
        for chosen in combinations(tokens, size):
            yield list(chosen)


def reachable(picker: Picker, limit: int = 20_000) -> set[str]:
    """The notation of every step the picker can play, walking every menu."""
    found: set[str] = set()
    stack = [picker.start()]
    walked = 0
    while stack:
        pending = stack.pop()
        menu = picker.menu(pending)
        check_limits(menu)
        current = picker.decode(menu.token)
        for choice in choices_of(menu):
            walked += 1
            assert walked < limit, "picker tree too large to walk"
            after = picker.choose(current, choice)
            if isinstance(after, Picked):
                found.add(after.notation)
            else:
                stack.append(after)
    return found


def canonical(engine: Any, notation: str) -> str:
    return str(engine.parse_action(notation))
