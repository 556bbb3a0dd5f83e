"""Components are built as Discord's payload, and it is the payload discord.py built.

Decisions (:mod:`bot.discord.components`): a message's components are dicts, laid out
as discord.py's ``View`` laid them out, and equal to what ``View.to_components`` gave
for the same message. Here each builder's payload is compared with the payload of the
same message built the old way, with ``discord.ui`` objects (the reference below,
discord.py's own classes): every menu of real positions of every game, in every
language; every kind of choice's button; the lobby's buttons and menus; and the rows'
layout at and past Discord's limits.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import plugins
from bot.discord.components import MAX_LABEL, SECONDARY, Components, button
from bot.discord.custom_ids import (
    act_id,
    game_button_id,
    lobby_id,
    lobby_option_id,
    pick_id,
    rules_id,
    undo_id,
)
from bot.discord.items import button_for
from bot.discord.lobby_buttons import lobby_view
from bot.discord.menu_view import FINAL, _shown, menu_view
from bot.i18n import LANGUAGES, Text
from bot.service import Choice, ChoiceKind, LobbyPanel
from bot.service.menus import BUTTONS_PER_ROW, MAX_ROWS, Menu, Style, Widget
from bot.service.outcome import OptionMenu
from tests.support.menu_walk import menus_along_a_game

GAMES = plugins.load_builtin_games()
STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}


def _reference_menu(game_id: int, menu: Menu, lang: str) -> list[dict[str, Any]]:
    """A menu's components as ``discord.ui`` objects laid them out (the old builder)."""
    view = discord.ui.View(timeout=None)
    row = 0
    selects = 0

    def add_button(o: Any, at: int) -> None:
        view.add_item(
            discord.ui.Button(
                label=_shown(o.label, lang, 80, "button label"),
                custom_id=pick_id(game_id, menu.token, o.token),
                style=STYLES[o.style],
                emoji=FINAL if o.final else None,
                row=at,
            )
        )

    for section in menu.sections:
        if section.widget is Widget.SELECT:
            placeholder = section.header if section.header is not None else menu.title
            view.add_item(
                discord.ui.Select(
                    custom_id=pick_id(game_id, menu.token, f"s{selects or ''}"),
                    placeholder=_shown(placeholder, lang, 150, "placeholder"),
                    min_values=section.min_values,
                    max_values=min(section.max_values, len(section.options)),
                    options=[
                        discord.SelectOption(
                            label=_shown(o.label, lang, 100, "option label"),
                            value=o.token,
                            description=(
                                None if o.detail is None else _shown(o.detail, lang, 100, "d")
                            ),
                            emoji=FINAL if o.final else None,
                        )
                        for o in section.options
                    ],
                    row=row,
                )
            )
            selects += 1
            row += 1
            continue
        for start in range(0, len(section.options), BUTTONS_PER_ROW):
            for o in section.options[start : start + BUTTONS_PER_ROW]:
                add_button(o, row)
            row += 1
    for o in menu.controls:
        add_button(o, min(row, MAX_ROWS - 1))
    return view.to_components()


def _menus(game: str, count: int, options: dict[str, str], seed: int) -> list[Menu]:
    return menus_along_a_game(game, count, options, seed, steps=80, every=8, opened=3)


@pytest.mark.parametrize(
    ("game", "count", "options", "seed"),
    [
        ("tikal", 2, {"mode": "base"}, 51),
        ("tikal", 2, {"mode": "mini"}, 52),
        ("tigris", 3, {}, 53),
        ("temple", 3, {"joint": "on"}, 54),
    ],
)
def test_a_menu_s_payload_is_the_one_discord_ui_objects_gave(
    game: str, count: int, options: dict[str, str], seed: int
) -> None:
    menus = _menus(game, count, options, seed)
    assert len(menus) >= 5
    kinds: set[str] = set()
    for menu in menus:
        for lang in LANGUAGES:
            ours = menu_view(4321, menu, lang).to_components()
            assert ours == _reference_menu(4321, menu, lang)
            kinds |= {
                "select" if c["type"] == 3 else "button" for r in ours for c in r["components"]
            }
    assert kinds == {"button", "select"}


def _reference_button(custom_id: str, label: str, style: discord.ButtonStyle) -> dict[str, Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id).to_component_dict()


def test_each_choice_s_button_is_the_payload_its_class_gave() -> None:
    long = "x" * 90
    cases: list[tuple[Choice, dict[str, Any]]] = [
        (
            Choice(Text("choice.undo"), "", ChoiceKind.UNDO),
            _reference_button(undo_id(7, 3), "Undo", discord.ButtonStyle.secondary),
        ),
        (
            Choice(Text("picker.word", {"word": long}), "move a1", ChoiceKind.ACT),
            _reference_button(
                act_id(7, 3, "move a1"), long[:MAX_LABEL], discord.ButtonStyle.primary
            ),
        ),
        (
            Choice(Text("picker.word", {"word": "A"}), "", ChoiceKind.ABANDON),
            _reference_button(game_button_id("abandon", 7), "A", discord.ButtonStyle.danger),
        ),
        (
            Choice(Text("picker.word", {"word": "R"}), "", ChoiceKind.RESIGN),
            _reference_button(game_button_id("resign", 7), "R", discord.ButtonStyle.danger),
        ),
        (
            Choice(Text("picker.word", {"word": "M"}), "", ChoiceKind.REMATCH),
            _reference_button(game_button_id("rematch", 7), "M", discord.ButtonStyle.success),
        ),
        (
            Choice(Text("picker.word", {"word": "P"}), "", ChoiceKind.PLAY),
            _reference_button(game_button_id("play", 7), "P", discord.ButtonStyle.primary),
        ),
        (
            Choice(Text("picker.word", {"word": "2"}), "tikal:1", ChoiceKind.PAGE),
            _reference_button(rules_id("tikal", 1), "2", discord.ButtonStyle.secondary),
        ),
        (
            Choice(Text("picker.word", {"word": "J"}), "join", ChoiceKind.LOBBY),
            _reference_button(lobby_id(7, "join"), "J", discord.ButtonStyle.success),
        ),
    ]
    for choice, reference in cases:
        label = choice.label.render("en")
        if choice.kind is ChoiceKind.UNDO:
            reference["label"] = label[:MAX_LABEL]
        assert button_for(choice, 7, 3, "en") == reference, choice.kind
    with pytest.raises(ValueError):
        button_for(Choice(Text("choice.undo"), "", ChoiceKind.UNDO), 7, None, "en")


def test_the_lobby_s_payload_is_the_one_discord_ui_objects_gave() -> None:
    panel = LobbyPanel(
        lines=(),
        menus=(
            OptionMenu(
                "mode",
                "Mode",
                (
                    ("base", Text("picker.word", {"word": "Base"})),
                    ("mini", Text("picker.word", {"word": "Mini"})),
                ),
                "mini",
            ),
        ),
        computers=True,
    )
    view = discord.ui.View(timeout=None)
    for verb, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
        ("computer", discord.ButtonStyle.secondary),
    ):
        label = Text(f"lobby.button.{verb}").render("ko")
        view.add_item(discord.ui.Button(label=label, style=style, custom_id=lobby_id(9, verb)))
    view.add_item(
        discord.ui.Select(
            custom_id=lobby_option_id(9, "mode"),
            options=[
                discord.SelectOption(label="Base", value="base", default=False),
                discord.SelectOption(label="Mini", value="mini", default=True),
            ],
            min_values=1,
            max_values=1,
            row=1,
        )
    )
    ours = lobby_view(panel, 9, "ko")
    assert ours is not None and ours.to_components() == view.to_components()
    assert lobby_view(LobbyPanel(lines=(), open=False), 9, "ko") is None


def test_rows_fill_as_discord_py_filled_them_and_refuse_what_does_not_fit() -> None:
    ours, theirs = Components(), discord.ui.View(timeout=None)
    for n in range(MAX_ROWS * BUTTONS_PER_ROW):
        ours.add(button(f"b{n}", f"{n}", SECONDARY))
        theirs.add_item(discord.ui.Button(label=f"{n}", custom_id=f"b{n}"))
    assert ours.to_components() == theirs.to_components()
    assert [len(row["components"]) for row in ours.to_components()] == [5] * 5
    with pytest.raises(ValueError):
        ours.add(button("more", "more", SECONDARY))
    assert len(ours.to_components()) == MAX_ROWS  # nothing added
    # a row named: there or refused; an unnamed one fills the first row with room
    placed = Components()
    placed.add(button("a", "a", SECONDARY), 2)
    placed.add(button("b", "b", SECONDARY))
    with pytest.raises(ValueError):
        placed.add(button("c", "c", SECONDARY), MAX_ROWS)
    assert placed.empty is False and Components().empty
    assert [[c["custom_id"] for c in row["components"]] for row in placed.to_components()] == [
        ["b"],
        ["a"],
    ]
