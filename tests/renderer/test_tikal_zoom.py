"""The zoomed map of Tikal: where a player can act, legible at a phone's width."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot import games, plugins
from bot.games.base import PlayerLabel
from renderer import tikal
from renderer.tikal import ZOOM_MIN_SIDE, render_public, render_zoom, view_geometry, zoom_box

plugins.load_builtin_games()
ENGINE = games.REGISTRY["tikal"].engine
LABELS = [
    PlayerLabel(n, name, colour)
    for n, (name, colour) in enumerate([("Ann", "#d33a2c"), ("Bo", "#2f6fd6"), ("Cy", "#e8c21e")])
]


def _position(steps: int, seed: int = 2):
    state = ENGINE.new_game(3, {"mode": "base"}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        [seat] = sorted(ENGINE.waiting_for(state))[:1]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    [seat] = sorted(ENGINE.waiting_for(state))[:1]
    return state, seat


def test_the_focus_is_where_the_seat_can_act() -> None:
    state, seat = _position(0)
    focus = ENGINE.focus(state, seat)  # the first hex: the spaces it may be laid on
    laid = {str(a).split()[1] for a in ENGINE.legal_actions(state, seat)}
    assert set(focus) == laid and len(focus) == len(set(focus))


def test_a_region_keeps_its_focus_and_a_minimum_size() -> None:
    state, _ = _position(60)
    view = ENGINE.public_view(state)
    geo = view_geometry(view)
    centres = {name: geo.px(x, y) for name, x, y, _ in geo.spaces}
    assert zoom_box(view, []) is None
    assert zoom_box(view, ["Z99"]) is None  # a name not on the map
    assert zoom_box(view, list(centres)) is None  # the whole map: the board is the zoom
    for name in ("A1", "E4", "I7"):
        left, top, right, bottom = zoom_box(view, [name]) or (0, 0, 0, 0)
        x, y = centres[name]
        assert left <= x <= right and top <= y <= bottom
        assert right - left >= min(geo.width, ZOOM_MIN_SIDE * geo.radius) - 1
        assert left >= 0 and right <= geo.width and top >= 0 and bottom <= geo.height


def test_the_zoom_is_the_boards_own_region_pixel_for_pixel() -> None:
    state, seat = _position(60)
    view = ENGINE.public_view(state)
    focus = ENGINE.focus(state, seat)
    box = zoom_box(view, focus)
    assert box is not None
    zoom = Image.open(io.BytesIO(render_zoom(view, LABELS, "en", focus) or b""))
    board = Image.open(io.BytesIO(render_public(view, LABELS, "en")))
    assert zoom.size == (box[2] - box[0], box[3] - box[1])
    assert zoom.convert("RGB").tobytes() == board.convert("RGB").crop(box).tobytes()
    # at a phone's 412 px the zoom is drawn at least half again as large as the board
    assert 412 / zoom.width >= 1.5 * 412 / board.width
    assert tikal.render_zoom(view, LABELS, "en", []) is None
