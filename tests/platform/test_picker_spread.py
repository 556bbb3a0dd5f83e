"""The first menu's rows spread over a verb's options, and many squares grouped by kingdom.

Decisions: when a verb's options with their next choice do not fit the first menu
together (a Tikal move: every origin with every destination), each origin whose
destinations fit one select becomes that select while the menu has rows for it,
under a header naming the origin, its options the destinations (value first,
``→ C5 · 2 AP``): a move is one tap. When a square parameter has more values than
one menu holds (a Tigris catastrophe on an open board), its first level is the
engine's groups (kingdoms first), each option saying what is inside.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.tigris import ENGINE as TIGRIS
from bot.games.tikal import ENGINE as TIKAL
from bot.games.tikal import flow, rules
from bot.games.tikal.selfplay import choose
from bot.i18n import LANGUAGES
from bot.service.menus import MAX_SELECT_OPTIONS, Widget
from bot.service.picker import MAX_OPTIONS, Picked, Picker
from tests.games.tigris.tigris_positions import legal, position
from tests.support.picking import check_menu, spelled

#: a two-player base game of the seeded self-play player, this many steps in: seat 0
#: spends its action points with figures on A6, A7 and B5 and more moves than fit
SEED, STEPS = 7, 62


def _tikal_position(seed: int = SEED, steps: int = STEPS) -> tuple[object, int]:
    game = TIKAL.new_game(2, {}, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        (seat,) = rules.waiting_for(game)
        flow.apply(game, seat, choose(game, seat, chooser))
    (seat,) = rules.waiting_for(game)
    return game, seat


def test_a_move_from_an_origin_with_a_select_of_its_own_is_one_tap() -> None:
    game, seat = _tikal_position()
    picker = Picker(TIKAL, game, seat, version=0)
    moves = {str(a) for a in TIKAL.legal_actions(game, seat) if str(a).startswith("move ")}
    assert len(moves) > MAX_OPTIONS - 2 * MAX_SELECT_OPTIONS  # too many for the merged list
    menu = picker.menu()
    check_menu(menu)
    origins = {}
    one_tap = 0
    for section in menu.sections:
        header = section.header.render("en") if section.header is not None else ""
        if not header.startswith("Move ") or section.widget is not Widget.SELECT:
            continue
        origin = header.split()[1]
        origins[origin] = section
        assert header == f"Move {origin} — To which space (the cost is shown)"
        # every option one whole move from that origin, its destination and cost first
        # (the origin too where two origins' options would read alike)
        for option in section.options:
            assert option.path[:2] == ("move", origin)
            if len(option.path) == 2:  # the farther destinations (another test)
                continue
            step = spelled(TIKAL.verbs, option.path)
            assert step in moves
            label = option.label.render("en")
            target = option.path[2]
            assert label.startswith((f"→ {target} · ", f"{origin} → {target} · ")), label
            assert label.endswith(" AP")
            chosen = picker.choose(picker.read(menu.token), [option.token])
            if isinstance(chosen, Picked):  # one tap
                assert str(chosen.action) == step
                one_tap += 1
                continue
            # an origin holding a worker and the leader: which one, next
            figures = picker.menu(chosen)
            assert {o.path[:3] for o in figures.options} == {option.path}
            assert {o.path[3] for o in figures.options} == {"leader", "_"}
        reached = {o.path[2] for o in section.options if len(o.path) > 2}
        assert reached == {m.split()[2] for m in moves if m.split()[1] == origin}
    assert len(origins) >= 2, [s.header for s in menu.sections]
    assert one_tap >= MAX_SELECT_OPTIONS
    # the origins not opened are still one option each, leading to their destinations
    rest = {o.path[1] for o in menu.options if o.path[:1] == ("move",) and len(o.path) == 2}
    assert rest and not rest & set(origins)
    assert {m.split()[1] for m in moves} == rest | set(origins)


def test_a_catastrophe_on_an_open_board_is_grouped_by_kingdom_first() -> None:
    """Over 100 squares: the first level is the kingdoms and open land, each option its
    group's header with how many squares it holds; a group's menu holds exactly its
    squares under that header."""
    state = position({"F2": "king:0", "I6": "priest:1"}, start=True)
    squares = sorted(a.split()[1] for a in legal(state) if a.startswith("catastrophe "))
    assert len(squares) > MAX_OPTIONS
    picker = Picker(TIGRIS, state, 0, version=0)
    menu = picker.menu(replace(picker.start(), verb="catastrophe"))
    check_menu(menu)
    groups = menu.options
    labels = [o.label.render("en") for o in groups]
    assert labels[0] == "Next to your King (kingdom of 2)"
    assert labels[1] == "Kingdom of 2 at I6"
    assert all(label.startswith("Open land, column") for label in labels[2:])
    for option in groups:
        assert option.detail is not None
        for lang in LANGUAGES:
            assert str(len(option.within)) in option.detail.render(lang)
    # every legal square in exactly one group
    held = [sq for option in groups for sq in option.within]
    assert sorted(held) == squares
    for option in groups:
        inside = picker.menu(picker.choose(picker.read(menu.token), [option.token]))  # type: ignore[arg-type]
        check_menu(inside)
        assert inside.title.render("en").startswith(option.label.render("en") + " — ")
        offered = {o.path[-1] for o in inside.options}
        assert offered == set(option.within)


def test_an_origin_with_more_destinations_than_a_select_offers_its_cheapest_first() -> None:
    """An origin reaching more spaces than one select holds: its select offers the 24
    cheapest, and a last option for the others, leading to every destination."""
    game, seat = _tikal_position(seed=1, steps=160)
    picker = Picker(TIKAL, game, seat, version=0)
    menu = picker.menu()
    check_menu(menu)
    moves = [str(a).split() for a in TIKAL.legal_actions(game, seat) if str(a).startswith("move ")]
    found = 0
    for section in menu.sections:
        more = [o for o in section.options if o.label.render("en").startswith("+")]
        if not more:
            continue
        found += 1
        (farther,) = more
        assert section.options[-1] is farther and len(section.options) == MAX_SELECT_OPTIONS
        origin = farther.path[1]
        assert farther.path == ("move", origin)
        assert farther.label.render("en") == f"+{len(farther.within)} more from {origin}"
        near = [o.path[2] for o in section.options[:-1]]
        targets = {m[2] for m in moves if m[1] == origin}
        assert set(near) | farther.within == targets and not set(near) & farther.within
        # cheapest first: no farther space costs less than a near one
        costs = {
            o.path[2]: int(o.label.render("en").split("· ")[1].split()[0])
            for o in section.options[:-1]
        }
        chosen = picker.choose(picker.read(menu.token), [farther.token])
        everything = picker.menu(chosen)  # type: ignore[arg-type]
        check_menu(everything)
        listed = {o.path[2]: o for o in everything.options if len(o.path) > 2}
        assert set(listed) == targets
        for target in farther.within:
            label = listed[target].label.render("en")
            assert int(label.split("· ")[1].split()[0]) >= max(costs.values())
    assert found
