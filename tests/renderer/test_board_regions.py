"""A board drawn region by region (:func:`renderer.common.mapped_by_regions`: Tigris's
squares, Tikal's map, Temple Rush's whole round) gives the PNG of the whole image
mapped onto the palette, byte for byte, whatever the region cache holds.

Decisions:

* The reference is the plain pipeline: the renderer's ``draw_public`` (the whole
  image drawn) mapped by :func:`renderer.common.encode_png`, the bytes compared.
* Every case runs twice: the regions new to a board drawn one by one, and the whole
  image drawn with its regions remembered from it (``_WHOLE_WHEN_NEW``, the first
  board of a game), so both ways, and each after the other, are compared.
* Tikal's panel is drawn on an image of its own, moved up by an even number of
  pixels: a map of odd height (the mini mode's) is among the cases.
* Temple Rush records its texts and shapes (:class:`renderer.common.RecordingDraw`):
  the cases hold names in Chinese and Korean with an emoji (runs of other fonts,
  drawn bold with a stroke), every phase, and labels in each catalog language.
* A region remembered under one background, palette or set of sprites must not stand
  in for another: each case renders first what fills the cache with the neighbour's
  regions, then compares.
"""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest
import reference_images as refs
import temple_sample_views as temple_samples
import tigris_sample_views as samples
from PIL import Image

from bot.games.base import PlayerLabel
from renderer import common, temple, tigris, tikal
from renderer.common import encode_png

TIGRIS = refs.TIGRIS


@pytest.fixture(autouse=True, params=["by regions", "whole"])
def new_regions(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw the regions new to a board one by one, or the whole image."""
    monkeypatch.setattr(common, "_WHOLE_WHEN_NEW", 2.0 if request.param == "by regions" else -1.0)


def whole(view: dict[str, Any], players: Any, lang: str = "en") -> bytes:
    """The PNG of the whole image drawn, then mapped."""
    drawn = tigris.image_language(lang)
    seats = tigris._seats(view, players, tigris.font_stack(tigris.BIG, bold=True), drawn)
    palette = tigris.public_palette(tuple(sorted({s.colour for s in seats})))
    return encode_png(tigris.draw_public(view, players, lang), palette)


SAMPLES = {
    "early": samples.early_view,
    "late": samples.late_view,
    "scoring": lambda: samples.open_scoring(samples.late_view()),
    "two players": samples.two_player_view,
    "revolt": samples.revolt_view,
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SAMPLES))
def test_sample_boards_are_the_whole_image_mapped(name: str, lang: str) -> None:
    view = SAMPLES[name]()
    players = samples.PLAYERS[: len(view["players"])]
    assert tigris.render_public(view, players, lang) == whole(view, players, lang)


def test_a_whole_random_game_is_the_whole_image_mapped() -> None:
    """Every fifth step of a 3-player game: steps numbered on the board, conflicts,
    monuments, treasures taken, the end."""
    chooser = random.Random(11)
    state = TIGRIS.new_game(3, {}, 11)
    players = samples.PLAYERS[:3]
    checked = 0
    step = 0
    while TIGRIS.result(state) is None:
        seat = chooser.choice(sorted(TIGRIS.waiting_for(state)))
        TIGRIS.apply(state, seat, chooser.choice(TIGRIS.legal_actions(state, seat)))
        step += 1
        if step % 5 == 0 or TIGRIS.result(state) is not None:
            view = TIGRIS.public_view(state)
            assert tigris.render_public(view, players) == whole(view, players), step
            checked += 1
    assert checked > 20


def test_a_region_is_not_reused_under_other_colours() -> None:
    """The same squares with the same sprites, mapped onto another palette (other
    player colours) and with other leaders' colours."""
    view = samples.late_view()
    players = samples.PLAYERS[: len(view["players"])]
    tigris.render_public(view, players)
    others = [PlayerLabel(p.seat, p.name, "#20c0a0" if p.seat else "#c02040") for p in players]
    assert tigris.render_public(view, others) == whole(view, others)


def test_a_region_is_not_reused_on_another_river() -> None:
    """Every square of the board made river: the same pieces on another background."""
    view = samples.late_view()
    players = samples.PLAYERS[: len(view["players"])]
    tigris.render_public(view, players)
    flooded = {**view, "river": [f"{c}{r}" for c in tigris.COL_LETTERS for r in range(1, 12)]}
    assert tigris.render_public(flooded, players) == whole(flooded, players)


def test_a_mark_out_of_the_board_draws_the_whole_image(monkeypatch: pytest.MonkeyPatch) -> None:
    """An op reaching past the board (a disc said to reach further than the board is
    wide) is drawn on the whole image instead."""
    view = samples.late_view()
    view["steps"] = [
        {"seat": 0, "squares": ["C3"], "notation": "a"},
        {"seat": 0, "squares": ["D4"], "notation": "b"},
    ]
    players = samples.PLAYERS[: len(view["players"])]
    monkeypatch.setattr(tigris, "_DISC_REACH", tigris.BOARD_W)
    colours = {p.seat: tigris.parse_hex_colour(p.colour, (0, 0, 0)) for p in players}
    ops = tigris._board_ops(view, colours, {}, "en")
    background = tigris.board_background(frozenset(view.get("river") or ()))
    palette = tigris.public_palette(tuple(sorted(set(colours.values()))))
    assert tigris._mapped_board(ops, background, palette) is None
    assert tigris.render_public(view, players) == whole(view, players)


def test_the_region_cache_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "_REGIONS_BUDGET", 5 * 72 * 72)
    common.forget_regions()
    view = samples.late_view()
    players = samples.PLAYERS[: len(view["players"])]
    assert tigris.render_public(view, players) == whole(view, players)
    assert 0 < len(common._REGIONS) <= 5
    assert tigris.render_public(view, players) == whole(view, players)
    common.forget_regions()


def whole_tikal(view: dict[str, Any], players: Any, lang: str = "en") -> bytes:
    """The PNG of Tikal's whole image drawn, then mapped."""
    seats = tikal._seats(view, players, tikal.image_language(lang))
    palette = tikal.public_palette(tuple(s.colour for s in seats))
    return encode_png(tikal.draw_public(view, players, lang), palette)


@pytest.mark.parametrize(
    ("mode", "seats", "lang"),
    [("base", 4, "en"), ("base", 2, "zh-TW"), ("mini", 2, "en"), ("auction", 3, "en")],
)
def test_tikal_boards_are_the_whole_image_mapped(mode: str, seats: int, lang: str) -> None:
    players = refs._tikal_players(seats)
    heights = set()
    for steps in (0, 15, 60, 150, 400):
        state = refs._tikal_state(mode, seats, 4, lambda _s, n, steps=steps: n >= steps)
        view = refs.TIKAL.public_view(state)
        heights.add(tikal.view_geometry(view).height % 2)
        assert tikal.render_public(view, players, lang) == whole_tikal(view, players, lang), steps
    assert heights == ({1} if mode == "mini" else {0})


def whole_temple(view: dict[str, Any], players: Any, lang: str = "en") -> bytes:
    """The PNG of Temple Rush's whole image drawn, then mapped."""
    seats = temple._seats(view, players, temple.image_language(lang))
    palette = temple.public_palette(tuple(sorted({s.colour for s in seats})))
    return encode_png(temple.draw_public(view, players, lang), palette)


@pytest.mark.parametrize("lang", ["en", "zh", "zh-TW", "ko"])
@pytest.mark.parametrize("name", ["mid4", "late4", "two", "three", "race", "bonus", "over"])
def test_temple_rounds_are_the_whole_image_mapped(name: str, lang: str) -> None:
    view = temple_samples.view(name)
    players = temple_samples.PLAYERS[: len(view["players"])]
    assert temple.render_public(view, players, lang) == whole_temple(view, players, lang)


def test_regions_remembered_from_the_whole_image(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's first board drawn whole leaves its regions remembered; the next board
    pastes them."""
    tigris_view = samples.late_view()
    tigris_players = samples.PLAYERS[: len(tigris_view["players"])]
    tikal_view = refs.TIKAL.public_view(refs._tikal_state("base", 4, 4, lambda _s, n: n >= 150))
    tikal_players = refs._tikal_players(4)
    temple_view = temple_samples.view("late4")
    temple_players = temple_samples.PLAYERS[:4]
    common.forget_regions()
    monkeypatch.setattr(common, "_REGIONS_BUDGET", 64 * 2**20)  # none dropped
    monkeypatch.setattr(common, "_WHOLE_WHEN_NEW", -1.0)
    tigris.render_public(tigris_view, tigris_players)
    tikal.render_public(tikal_view, tikal_players)
    temple.render_public(temple_view, temple_players)
    remembered = len(common._REGIONS)
    monkeypatch.setattr(common, "_WHOLE_WHEN_NEW", 2.0)
    assert tigris.render_public(tigris_view, tigris_players) == whole(tigris_view, tigris_players)
    assert tikal.render_public(tikal_view, tikal_players) == whole_tikal(tikal_view, tikal_players)
    assert temple.render_public(temple_view, temple_players) == whole_temple(
        temple_view, temple_players
    )
    assert len(common._REGIONS) == remembered > 100
    common.forget_regions()


def test_a_background_is_not_kept_alive_by_its_regions() -> None:
    """A background dropped by its own cache is freed; a new one in its place (perhaps
    at the same id) is drawn anew."""
    view = samples.late_view()
    players = samples.PLAYERS[: len(view["players"])]
    colours = {p.seat: tigris.parse_hex_colour(p.colour, (0, 0, 0)) for p in players}
    ops = tigris._board_ops(view, colours, {}, "en")
    palette = tigris.public_palette(tuple(sorted(set(colours.values()))))
    first = tigris.board_background(frozenset()).copy()
    freed = weakref.ref(first)
    tigris._mapped_board(ops, first, palette)
    del first
    gc.collect()
    assert freed() is None
    for _ in range(3):  # a new background, filled otherwise, in its place
        other = Image.new("RGB", (tigris.BOARD_W, tigris.BOARD_H), (10, 60, 30))
        mapped = tigris._mapped_board(ops, other, palette)
        assert mapped is not None
        drawn = other.copy()
        common.draw_ops(drawn, ops)
        assert mapped.tobytes() == drawn.quantize(palette=palette, dither=0).tobytes()
