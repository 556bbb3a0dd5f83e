"""Renderer tests for Tikal: the PNGs decode, have sane sizes, what the view
describes appears where it should, and hidden data never changes the image.
No timing assertions."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.games.base import PlayerLabel
from bot.games.tikal import ENGINE
from bot.games.tikal.components import MODES, TILES
from bot.games.tikal.selfplay import choose, random_game
from bot.games.tikal.state import PHASE_ACTIONS, GameState, copy_state
from renderer import tikal

PLAYERS = [
    PlayerLabel(seat, name, colour.hex)
    for seat, (name, colour) in enumerate(
        zip(("Alice", "Bob", "Carol", "Dave"), ENGINE.seat_colours, strict=True)
    )
]


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def png_of(game: GameState, lang: str = "en") -> bytes:
    return tikal.render_public(ENGINE.public_view(game), PLAYERS[: game.seats], lang)


def differs(a: Image.Image, b: Image.Image) -> bool:
    return a.size != b.size or ImageChops.difference(a, b).getbbox() is not None


def late(mode: str, seats: int, seed: int, fraction: float = 0.85) -> GameState:
    full = random_game(mode, seats, seed)
    return random_game(mode, seats, seed, stop_after=int(len(full.log) * fraction)).state


def centre_px(view: dict[str, Any], space: str) -> tuple[float, float]:
    geo = tikal.view_geometry(view)
    item = next(s for s in view["spaces"] if s["space"] == space)
    return geo.px(item["x"], item["y"])


@pytest.mark.parametrize(("mode", "seats"), [("base", 4), ("auction", 4), ("mini", 2)])
def test_late_boards_are_valid_pngs_of_sane_size(mode: str, seats: int) -> None:
    png = png_of(late(mode, seats, 3))
    image = decode(png)
    assert image.width >= 1200
    assert 1200 <= image.height <= 2600
    assert len(png) <= 250 * 1024


def test_every_phase_renders() -> None:
    seen = set()
    rng = random.Random(2)
    for mode, seats in (("base", 3), ("auction", 3), ("mini", 2)):
        game = ENGINE.new_game(seats, {"mode": mode}, 2)
        steps = 0
        while ENGINE.result(game) is None:
            key = (game.phase, game.turn.kind if game.turn else None)
            if key not in seen or steps % 97 == 0:
                seen.add(key)
                decode(png_of(game))
            (seat,) = ENGINE.waiting_for(game)
            ENGINE.apply(game, seat, choose(game, seat, rng))
            steps += 1
        decode(png_of(game))  # game over
    phases = {phase for phase, _ in seen}
    kinds = {kind for _, kind in seen}
    assert {"place", "actions", "bid", "pick"} <= phases
    assert {"normal", "scoring", "volcano", "final"} <= kinds


def test_the_image_ignores_hidden_data() -> None:
    game = late("base", 4, 5, 0.5)
    other = copy_state(game)
    rng = random.Random(1)
    for group in MODES["base"].stacks:
        part = [t for t in other.stack if TILES[t].letter in group]
        rest = [t for t in other.stack if TILES[t].letter not in group]
        rng.shuffle(part)
        other.stack = sorted(rest + part, key=lambda t: TILES[t].letter or "")
    tokens = [t for h in other.hexes.values() for t in h.tokens] + other.pool
    rng.shuffle(tokens)
    for hex_ in other.hexes.values():
        n = len(hex_.tokens)
        hex_.tokens, tokens = tokens[:n], tokens[n:]
    other.pool = tokens
    assert other.stack != game.stack or other.pool != game.pool
    assert png_of(other) == png_of(game)


def test_different_views_give_different_images() -> None:
    game = late("base", 4, 7, 0.4)
    before = decode(png_of(game))
    changed = copy_state(game)
    while changed.phase != PHASE_ACTIONS:
        (seat,) = ENGINE.waiting_for(changed)
        ENGINE.apply(changed, seat, choose(changed, seat, random.Random(0)))
    (seat,) = ENGINE.waiting_for(changed)
    ENGINE.apply(changed, seat, ENGINE.parse_action("enter A7"))
    assert differs(before, decode(png_of(changed)))


def test_a_figure_chip_appears_on_its_hex_in_the_players_colour() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 0)
    ENGINE.apply(game, 0, ENGINE.parse_action("place A5 3"))
    view = ENGINE.public_view(game)
    empty = decode(tikal.render_public(view, PLAYERS[:2]))
    ENGINE.apply(game, 0, ENGINE.parse_action("enter A7"))
    view = ENGINE.public_view(game)
    image = decode(tikal.render_public(view, PLAYERS[:2]))
    x, y = centre_px(view, "A7")
    radius = tikal.view_geometry(view).radius
    box = (int(x - 40), int(y + 0.31 * radius - 12), int(x + 40), int(y + 0.31 * radius + 12))
    red = tikal.parse_hex_colour(PLAYERS[0].colour, (0, 0, 0))
    colours = image.crop(box).getcolors(10000) or []
    assert any(_close(c, red) for _, c in colours)
    assert not any(_close(c, red) for _, c in empty.crop(box).getcolors(10000) or [])


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def test_mini_shows_only_its_area_bigger_every_space_named() -> None:
    """No unlabelled out-of-play ring: only the mode's spaces are drawn, so every
    column shown has its letter and every row its number (issue 17)."""
    base_view = ENGINE.public_view(ENGINE.new_game(2, {"mode": "base"}, 0))
    mini_view = ENGINE.public_view(ENGINE.new_game(2, {"mode": "mini"}, 0))
    assert tikal.view_geometry(mini_view).radius > tikal.view_geometry(base_view).radius
    shown = {name for name, *_ in tikal.view_geometry(mini_view).spaces}
    usable = {s["space"] for s in mini_view["spaces"] if s["usable"]}
    assert shown == usable
    assert "F4" not in shown and "A2" not in shown and "E4" in shown
    image = decode(tikal.render_public(mini_view, PLAYERS[:2]))
    x, y = centre_px(mini_view, "E4")
    assert _close(image.getpixel((int(x) + 20, int(y) + 20)), tikal.EMPTY, 4)


def test_a_volcano_and_a_temple_value_are_drawn() -> None:
    game = ENGINE.new_game(2, {"mode": "base"}, 0)
    game.in_hand = "B-5"
    ENGINE.apply(game, 0, ENGINE.parse_action("place A5 0"))
    view = ENGINE.public_view(game)
    image = decode(tikal.render_public(view, PLAYERS[:2]))
    x, y = centre_px(view, "A5")
    colours = [
        c
        for _, c in image.crop((int(x) - 40, int(y) - 40, int(x) + 40, int(y))).getcolors(20000)
        or []
    ]
    assert any(_close(c, tikal.LAVA, 20) for c in colours)
    x, y = centre_px(view, "A6")
    plate = image.crop((int(x) - 10, int(y) - 30, int(x) + 10, int(y) - 10))
    assert any(_close(c, tikal.PLATE, 8) for _, c in plate.getcolors(5000) or [])


def test_every_catalog_language_renders_in_itself() -> None:
    """The shipped CJK subset draws every catalog language; others get English."""
    game = late("auction", 3, 1, 0.3)
    english = png_of(game, "en")
    images = {}
    for lang, drawn in (("zh", "zh"), ("zh-TW", "zh-TW"), ("ko", "ko"), ("zh-CN", "zh")):
        assert tikal.image_language(lang) == drawn
        images[lang] = png_of(game, lang)
        decode(images[lang])
        assert images[lang] != english
    assert images["zh-CN"] == images["zh"] != images["zh-TW"]
    assert tikal.image_language("fr") == "en"
    assert png_of(game, "fr") == english


def test_odd_names_and_missing_labels_do_not_break_the_image() -> None:
    game = late("base", 4, 2, 0.3)
    view = ENGINE.public_view(game)
    players = [
        PlayerLabel(0, "x" * 200, "#123456"),
        PlayerLabel(1, "🦜🦜 名前", "not a colour"),
        PlayerLabel(2, "", "#fff"),
    ]
    image = decode(tikal.render_public(view, players))
    assert image.width >= 1200


def test_the_start_hexes_show_the_stones_the_engine_gives() -> None:
    """The printed start stones (tikal.md) come from the view: a stone is drawn on
    each start hex's edge exactly where the engine puts one (base camp N NE SE, the
    northern temple N NE S, the jungle N NE SE, the south-eastern temple NE NW)."""
    view = ENGINE.public_view(ENGINE.new_game(2, {"mode": "base"}, 0))
    image = decode(tikal.render_public(view, PLAYERS[:2]))
    radius = tikal.view_geometry(view).radius
    hexes = {h["space"]: h for h in view["hexes"]}
    drawn = {}
    for space in ("A7", "A6", "B6", "B7"):
        x, y = centre_px(view, space)
        edges = []
        for direction in range(6):
            ((ox, oy),) = tikal.stone_offsets(direction, 1, radius)
            box = (int(x + ox) - 3, int(y + oy) - 3, int(x + ox) + 4, int(y + oy) + 4)
            colours = image.crop(box).getcolors(1000) or []
            edges.append(int(any(_close(c, tikal.STONE, 10) for _, c in colours)))
        drawn[space] = edges
        assert edges == [min(n, 1) for n in hexes[space]["stones"]], space
    assert drawn == {
        "A7": [1, 1, 1, 0, 0, 0],
        "A6": [1, 1, 0, 1, 0, 0],
        "B6": [1, 1, 1, 0, 0, 0],
        "B7": [0, 1, 0, 0, 0, 1],
    }
