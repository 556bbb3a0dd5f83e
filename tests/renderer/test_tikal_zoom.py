"""The Tikal close-up: where the player on their turn may act, legible at a phone's
width, with marks that come from the engine and never cover a chip or a cost."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot import games, plugins
from bot.games.base import PlayerLabel
from bot.games.tikal import legal
from bot.games.tikal.actions import Enter, Move
from bot.games.tikal.board import space_name
from bot.games.tikal.components import COST_ENTER
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_PLACE
from renderer import lettering, tikal
from renderer.tikal import ZOOM_MIN_SIDE, render_public, render_zoom, view_geometry, zoom_box

plugins.load_builtin_games()
ENGINE = games.REGISTRY["tikal"].engine
LABELS = [
    PlayerLabel(n, name, colour)
    for n, (name, colour) in enumerate([("Ann", "#d33a2c"), ("Bo", "#2f6fd6"), ("Cy", "#e8c21e")])
]


def _position(steps: int, seed: int = 2) -> tuple[Any, int]:
    state = ENGINE.new_game(3, {"mode": "base"}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        [seat] = sorted(ENGINE.waiting_for(state))[:1]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    [seat] = sorted(ENGINE.waiting_for(state))[:1]
    return state, seat


def _start_of_turn(phase: str, after: int = 40) -> tuple[Any, int]:
    """The first position after ``after`` random steps where a turn starts in
    ``phase`` (a place phase, or the actions right after laying a hex)."""
    state = ENGINE.new_game(3, {"mode": "base"}, 5)
    rng = random.Random(5)
    for step in range(400):
        [seat] = sorted(ENGINE.waiting_for(state))
        fresh = state.turn is not None and state.turn.ap == 10 and not state.steps[1:]
        if step >= after and state.phase == phase and (phase == PHASE_PLACE or fresh):
            return state, seat
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    raise AssertionError(f"no {phase} turn found")


def test_the_focus_is_where_the_seat_can_act() -> None:
    state, seat = _position(0)
    focus = ENGINE.focus(state, seat)  # the first hex: the spaces it may be laid on
    laid = {str(a).split()[1] for a in ENGINE.legal_actions(state, seat)}
    assert set(focus) == laid and len(focus) == len(set(focus))


def test_a_region_keeps_its_focus_and_a_minimum_size() -> None:
    state, _ = _position(60)
    view = ENGINE.public_view(state)
    geo = view_geometry(view)
    centres = geo.centres
    assert zoom_box(view, []) is None
    assert zoom_box(view, ["Z99"]) is None  # a name not on the map
    left, top, right, bottom = zoom_box(view, list(centres)) or (0, 0, 0, 0)  # the whole map
    assert left <= min(x for x, _ in centres.values()) - geo.radius * 0.9
    assert right >= max(x for x, _ in centres.values()) + geo.radius * 0.9
    for name in ("A1", "E4", "I7"):
        left, top, right, bottom = zoom_box(view, [name]) or (0, 0, 0, 0)
        x, y = centres[name]
        assert left <= x <= right and top <= y <= bottom
        assert right - left >= min(geo.width, ZOOM_MIN_SIDE * geo.radius) - 1
        assert left >= 0 and right <= geo.width and top >= 0 and bottom <= geo.height


# --------------------------------------------------------------------------- the engine's marks


def test_the_lay_marks_are_the_legal_spaces_of_the_hex_in_hand() -> None:
    state, seat = _start_of_turn(PHASE_PLACE)
    options = ENGINE.public_view(state)["turn_options"]
    places = {str(a).split()[1] for a in ENGINE.legal_actions(state, seat)}
    assert options["seat"] == seat and set(options["lay"]) == places and options["reach"] == []


def test_the_reach_marks_are_the_cheapest_legal_way_to_bring_a_figure() -> None:
    state, seat = _start_of_turn(PHASE_ACTIONS)
    options = ENGINE.public_view(state)["turn_options"]
    reach = {r["space"]: r["ap"] for r in options["reach"]}
    assert reach and options["lay"] == []
    # each mark: a legal move there costs that much and none costs less, or a
    # legal entry then a move does
    best: dict[str, int] = {}
    for action in ENGINE.legal_actions(state, seat):
        if isinstance(action, Move):
            cost = legal.destinations(state, seat, action.origin)[action.target]
            name = space_name(action.target)
            best[name] = min(best.get(name, cost), cost)
        if isinstance(action, Enter):
            costs = legal.costs_from(state, seat, action.space, limit=state.turn.ap - COST_ENTER)
            for space, cost in costs.items():
                name = space_name(space)
                best[name] = min(best.get(name, COST_ENTER + cost), COST_ENTER + cost)
    mine = {space_name(s) for s in legal.figure_spaces(state, seat)}
    expected = {
        name: ap
        for name, ap in best.items()
        if name not in mine and ENGINE.public_view(state) and ap > 0
    }
    volcanoes = {h["space"] for h in ENGINE.public_view(state)["hexes"] if h["kind"] == "volcano"}
    assert reach == {n: ap for n, ap in expected.items() if n not in volcanoes}
    assert max(reach.values()) <= state.turn.ap


# --------------------------------------------------------------------------- the image


class Pasted:
    """Where the close-up pasted each chip, tag and cost badge (image boxes)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.kinds: dict[int, str] = {}
        self.boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        for name, kind in (
            ("chip_sprite", "chip"),
            ("step_tag", "tag"),
            ("reach_tag", "tag"),
            ("badge_sprite", "badge"),
            ("previous_sprite", "previous"),
            ("lay_sprite", "lay"),
        ):
            monkeypatch.setattr(tikal, name, self._spy(getattr(tikal, name), kind))
        original = tikal.paste

        def paste(canvas: Image.Image, image: Image.Image, xy: tuple[float, float]) -> None:
            kind = self.kinds.get(id(image))
            if kind is not None and canvas.width >= 600:
                box = (xy[0], xy[1], xy[0] + image.width, xy[1] + image.height)
                self.boxes.append((kind, box))
            original(canvas, image, xy)

        monkeypatch.setattr(tikal, "paste", paste)

    def _spy(self, function: Any, kind: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> Image.Image:
            image = function(*args, **kwargs)
            self.kinds[id(image)] = kind
            return image

        return make

    def of(self, kind: str) -> list[tuple[float, float, float, float]]:
        return [box for k, box in self.boxes if k == kind]


def _overlap(a: tuple[float, ...], b: tuple[float, ...], slack: float = 1.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


@pytest.mark.parametrize("phase", [PHASE_PLACE, PHASE_ACTIONS])
def test_the_close_up_marks_the_turn_and_covers_no_chip_or_cost(
    phase: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, seat = _start_of_turn(phase)
    view = ENGINE.public_view(state)
    focus = ENGINE.focus(state, seat)
    tikal.step_tag.cache_clear()
    tikal.reach_tag.cache_clear()
    tikal.chip_sprite.cache_clear()
    tikal.badge_sprite.cache_clear()
    render_public(view, LABELS, "en")  # the palette's sample board is drawn (and cached) first
    pasted = Pasted(monkeypatch)
    with lettering.recording() as texts:
        png = render_zoom(view, LABELS, "en", focus)
    assert png is not None
    image = Image.open(io.BytesIO(png))
    box = zoom_box(view, focus)
    assert box is not None and image.height > box[3] - box[1]  # a legend below the map
    words = " ".join(t.text for t in texts)
    if phase == PHASE_PLACE:
        assert pasted.of("lay") and "the hex in hand may go here" in words
    else:
        assert pasted.of("tag") and "AP to bring a figure here" in words
        previous = state.steps[0].seat if state.steps else None
        if previous is not None and previous != seat:
            assert pasted.of("previous")
            assert f"{LABELS[previous].name}'s last turn" in words
    items = pasted.of("chip") + pasted.of("tag")
    for i, a in enumerate(items):
        assert not [b for b in items[i + 1 :] if _overlap(a, b)], (a, pasted.boxes)
        assert not any(_overlap(a, b, slack=3) for b in pasted.of("badge")), a
    # the board itself carries none of the close-up's marks
    public = Image.open(io.BytesIO(render_public(view, LABELS, "en")))
    assert public.width == view_geometry(view).width


def test_the_close_up_is_legible_at_a_phones_width() -> None:
    state, seat = _start_of_turn(PHASE_ACTIONS)
    view = ENGINE.public_view(state)
    tikal.step_tag.cache_clear()
    tikal.reach_tag.cache_clear()
    with lettering.recording() as texts:
        png = render_zoom(view, LABELS, "en", ENGINE.focus(state, seat))
    width = Image.open(io.BytesIO(png or b"")).width
    sizes = [lettering.phone_size(t.size, width) for t in texts if not t.detail]
    assert sizes and min(sizes) >= lettering.GLANCE
    assert tikal.render_zoom(view, LABELS, "en", []) is None
