"""Walking the move picker: every path of its menus, for the property tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from bot.service.pick_token import ITEM_SEP, MAX_TOKEN, Pending
from bot.service.picker import (
    MAX_BUTTONS,
    MAX_OPTIONS,
    MAX_SELECT_OPTIONS,
    Menu,
    MenuKind,
    Option,
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
    """The notation of every step the picker can play, walking every menu but
    those of a layout entered item by item (:func:`tap_layout` taps one)."""
    found: set[str] = set()
    stack = [picker.start()]
    walked = 0
    while stack:
        pending = stack.pop()
        menu = picker.menu(pending)
        check_limits(menu)
        current = picker.decode(menu.token)
        for choice in choices_of(menu):
            if len(choice) == 1 and _option(menu, choice[0]).layout:
                continue
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


def _option(menu: Menu, token: str) -> Option:
    return next(o for o in menu.options if o.token == token)


def choices(picker: Picker, pending: Pending) -> list[tuple[Option, Pending | Picked]]:
    """Each option of ``pending``'s menu and where it leads (one-choice menus)."""
    built = picker._build(pending)
    check_limits(built.menu)
    return [(o, c.then) for o, c in zip(built.menu.options, built.choices, strict=True)]


def _items(pending: Pending) -> list[str]:
    return pending.values[0].split(ITEM_SEP) if pending.values else []


def tap_layout(picker: Picker, verb: str, items: Sequence[str]) -> tuple[str, int]:
    """Tap the layout ``items`` of ``verb`` item by item through the picker (each
    item through its group's menu, then Submit): the notation played and the taps."""
    [(_, pending)] = [
        (o, then)
        for o, then in choices(picker, picker.start())
        if o.layout and isinstance(then, Pending) and then.verb == verb
    ]
    taps = 1
    assert isinstance(pending, Pending)
    for item in items:
        found: Pending | None = None
        for _, group in choices(picker, pending):
            if not isinstance(group, Pending) or group.group is None:
                continue
            for _, then in choices(picker, group):
                if isinstance(then, Pending) and _items(then)[-1:] == [item]:
                    found = then
            if found is not None:
                break
        assert found is not None, f"{item} is not offered after {_items(pending)}"
        pending = found
        taps += 2
    [picked] = [then for _, then in choices(picker, pending) if isinstance(then, Picked)]
    return picked.notation, taps + 1


def walk_layout(
    picker: Picker,
    verb: str,
    rng: random.Random,
    check: Callable[[list[str]], None],
    steps: int = 40,
) -> str | None:
    """A random walk through the layout menus of ``verb`` (adding items, now and
    then removing the last), calling ``check`` on every layout an option leads
    to; the notation submitted, or None if the walk ended first."""
    [pending] = [
        then
        for o, then in choices(picker, picker.start())
        if o.layout and isinstance(then, Pending) and then.verb == verb
    ]
    assert isinstance(pending, Pending)
    for _ in range(steps):
        options = choices(picker, pending)
        submit = [then for _, then in options if isinstance(then, Picked)]
        if submit and rng.random() < 0.7:
            return submit[0].notation
        groups = [then for _, then in options if isinstance(then, Pending) and then.group]
        for group in groups:
            assert isinstance(group, Pending)
            for _, then in choices(picker, group):
                assert isinstance(then, Pending)
                assert _items(then)[:-1] == _items(pending)
                check(_items(then))
        removes = [then for _, then in options if isinstance(then, Pending) and not then.group]
        for then in removes:
            assert isinstance(then, Pending) and _items(then) == _items(pending)[:-1]
        if groups and (not removes or rng.random() < 0.85):
            group = rng.choice(groups)
            assert isinstance(group, Pending)
            nxt = rng.choice(choices(picker, group))[1]
        elif removes:
            nxt = removes[0]
        else:
            return None
        assert isinstance(nxt, Pending)
        pending = nxt
    return None
