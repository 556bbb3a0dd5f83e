"""Menus met along a random game, built by the picker directly (no service), for the
tests that check how a menu is measured or drawn."""

from __future__ import annotations

import random

from bot import plugins
from bot.service.menus import Menu
from bot.service.pick_token import Pending
from bot.service.picker import Picker, StalePick

GAMES = plugins.load_builtin_games()


def menus_along_a_game(
    game: str,
    count: int,
    options: dict[str, str],
    seed: int,
    *,
    steps: int,
    every: int,
    opened: int,
) -> list[Menu]:
    """The first menu of a seat that may act, every ``every`` of ``steps`` random steps,
    and the menus its first ``opened`` options open (a stale pick is skipped)."""
    engine = GAMES[game].engine
    chooser = random.Random(seed)
    state = engine.new_game(count, options, seed)
    found: list[Menu] = []
    for step in range(steps):
        if engine.result(state) is not None:
            break
        seat = chooser.choice(sorted(engine.waiting_for(state)))
        if step % every == 0 and engine.may_act(state, seat):
            picker = Picker(engine, state, seat, version=step)
            try:
                first = picker.menu()
            except StalePick:
                first = None
            if first is not None:
                found.append(first)
                pending = picker.read(first.token)
                for option in first.options[:opened]:
                    after = picker.choose(pending, [option.token])
                    if not isinstance(after, Pending):
                        continue
                    try:
                        found.append(picker.menu(after))
                    except StalePick:
                        continue
        legal = engine.legal_actions(state, seat)
        if legal:
            engine.apply(state, seat, chooser.choice(legal))
    return found
