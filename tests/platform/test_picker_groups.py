"""Tigris squares in the move picker, grouped by the kingdom they act on.

Decisions: when a square parameter's values fill more than one select, the
engine groups them (``value_groups``): the kingdoms holding the seat's own leaders
first, then the others, then open land by columns; each group one select (at most
25 options) under a header saying what is inside, every square in exactly one.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.tigris import ENGINE
from bot.i18n import LANGUAGES
from bot.service.menus import MAX_ROWS, MAX_SELECT_OPTIONS, Widget
from bot.service.picker import Picker
from tests.games.tigris.tigris_positions import legal, position
from tests.support.picking import check_menu


def _leader_menu(seat: int = 0) -> tuple[dict[str, list[str]], set[str]]:
    """The squares menu for seat 0's farmer on the starting board with seat 0's king on
    F2 (a kingdom with the F3 temple) and seat 1's priest on I6 (with I7): each
    section's header (en) and its squares; and the legal squares."""
    state = position({"F2": "king:0", "I6": "priest:1"}, start=True)
    picker = Picker(ENGINE, state, seat, version=0)
    menu = picker.menu(replace(picker.start(), verb="leader", values=("farmer",)))
    check_menu(menu)
    assert menu.rows <= MAX_ROWS
    shown: dict[str, list[str]] = {}
    for section in menu.sections:
        assert section.widget is Widget.SELECT and len(section.options) <= MAX_SELECT_OPTIONS
        assert section.header is not None
        for lang in LANGUAGES:
            assert section.header.render(lang)
        shown[section.header.render("en")] = [o.path[-1] for o in section.options]
    squares = {a.split()[-1] for a in legal(state) if a.startswith("leader farmer ")}
    return shown, squares


def test_a_leaders_squares_are_grouped_by_the_kingdom_they_join() -> None:
    shown, squares = _leader_menu()
    headers = list(shown)
    assert headers[0] == "Next to your King (kingdom of 2)"
    assert set(shown[headers[0]]) == {"G3", "F4"} & squares and shown[headers[0]]
    assert headers[1] == "Kingdom of 2 at I6"
    assert set(shown[headers[1]]) == {"H7", "J7", "I8"} & squares and shown[headers[1]]
    assert all(h.startswith("Open land, column") for h in headers[2:])
    # open land in bands of whole columns: no column in two of them
    columns = [{sq[0] for sq in shown[h]} for h in headers[2:]]
    assert all(not a & b for i, a in enumerate(columns) for b in columns[i + 1 :])
    # every legal square offered exactly once
    offered = [sq for members in shown.values() for sq in members]
    assert sorted(offered) == sorted(squares) and len(squares) > MAX_SELECT_OPTIONS
