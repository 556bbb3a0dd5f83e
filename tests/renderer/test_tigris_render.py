"""Renderer tests for Tigris & Euphrates: the PNGs decode, have sane sizes,
and the things the views describe actually appear. No timing assertions."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
import tigris_sample_views as samples
from PIL import Image, ImageChops, ImageStat

from bot.games.base import PlayerLabel
from renderer import tigris
from renderer.tigris import BOARD_H, BOARD_W, CELL, square_center, square_origin


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def public(view: dict[str, Any], players=samples.PLAYERS) -> Image.Image:
    return decode(tigris.render_public(view, players[: len(view["players"])]))


def cell(image: Image.Image, sq: str) -> Image.Image:
    x, y = square_origin(sq)
    return image.crop((x, y, x + CELL, y + CELL))


def mean(image: Image.Image) -> tuple[float, float, float]:
    return tuple(ImageStat.Stat(image).mean)


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def differs(a: Image.Image, b: Image.Image) -> bool:
    """Whether two images differ in any channel (alpha included)."""
    a, b = a.convert("RGBA"), b.convert("RGBA")
    return ImageChops.difference(a, b).getbbox(alpha_only=False) is not None


def panel(image: Image.Image) -> Image.Image:
    return image.crop((0, BOARD_H, image.width, image.height))


def board(image: Image.Image) -> Image.Image:
    return image.crop((0, 0, BOARD_W, BOARD_H))


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("early", samples.early_view),
        ("late", samples.late_view),
        ("two_player", samples.two_player_view),
        ("revolt", samples.revolt_view),
    ],
)
def test_public_renders_a_png_of_phone_friendly_size(name, make):
    image = public(make())
    assert image.width >= 1200
    assert 1000 <= image.height <= 1600
    assert len(tigris.render_public(make(), samples.PLAYERS)) < 400_000


def test_two_players_take_less_panel_than_four():
    assert public(samples.two_player_view()).height < public(samples.late_view()).height


def test_private_renders_a_png():
    image = decode(tigris.render_private(samples.private_view(), samples.PLAYERS[0]))
    assert 800 <= image.width <= 1400
    assert 300 <= image.height <= 700


def test_rendering_is_deterministic_and_leaves_the_view_alone():
    view = samples.late_view()
    before = copy.deepcopy(view)
    first = tigris.render_public(view, samples.PLAYERS)
    assert tigris.render_public(view, samples.PLAYERS) == first
    assert view == before


# --------------------------------------------------------------------------- board


def test_river_and_land_squares_have_their_colours():
    image = public(samples.early_view())
    assert close(image.getpixel(square_center("A4")), tigris.RIVER)
    assert close(image.getpixel(square_center("M2")), tigris.RIVER)
    assert close(image.getpixel(square_center("A1")), tigris.LAND)
    assert close(image.getpixel(square_center("H6")), tigris.LAND)


def test_tiles_show_their_colour():
    image = public(samples.early_view())
    r, g, b = mean(cell(image, "F3"))  # starting temple
    assert r > g + 40 and r > b + 40
    r, g, b = mean(cell(image, "G3"))  # market
    assert g > r + 20 and g > b + 20
    r, g, b = mean(cell(image, "E1"))  # farm on the river
    assert b > r + 40


def test_tile_symbols_differ_between_colours_in_grey():
    """The colour-blind cue: in greyscale the four tiles still look different."""
    grey = [tigris.tile_sprite(c).convert("LA").convert("RGBA") for c in tigris.TILE_ORDER]
    for i, a in enumerate(grey):
        for other in grey[i + 1 :]:
            assert differs(a, other)


def test_flipped_tiles_and_monuments_are_drawn():
    view = samples.late_view()
    image = public(view)
    bare = copy.deepcopy(view)
    bare["monuments"] = []
    without = public(bare)
    # C9 is the top-left of a monument: its 2x2 differs when the monument is drawn
    assert differs(cell(image, "C9"), cell(without, "C9"))
    flipped = next(t for t in view["tiles"] if t["flipped"])
    face_up = copy.deepcopy(bare)
    for t in face_up["tiles"]:
        t["flipped"] = False
    assert differs(cell(without, flipped["sq"]), cell(public(face_up), flipped["sq"]))


def test_a_leader_square_differs_from_an_empty_one():
    view = samples.early_view()
    with_leader = public(view)
    view["leaders"] = [ld for ld in view["leaders"] if ld["sq"] != "G4"]
    without = public(view)
    assert differs(cell(with_leader, "G4"), cell(without, "G4"))
    assert close(without.getpixel(square_center("G4")), tigris.LAND)


def test_leader_tokens_differ_by_kind_and_by_dynasty():
    player = (230, 126, 34)
    kinds = [tigris.leader_sprite(c, player, "archer") for c in tigris.LEADER_ORDER]
    dynasties = [tigris.leader_sprite("red", player, d) for d in tigris.DYNASTIES]
    for tokens in (kinds, dynasties):
        for i, a in enumerate(tokens):
            for other in tokens[i + 1 :]:
                assert differs(a, other)


def test_last_action_is_highlighted():
    view = samples.early_view()
    highlighted = public(view)
    view["last_action"] = None
    plain = public(view)
    assert differs(cell(highlighted, "J7"), cell(plain, "J7"))
    assert not differs(cell(highlighted, "C10"), cell(plain, "C10"))


def test_treasures_and_catastrophes_appear():
    view = samples.late_view()
    image = public(view)
    stripped = copy.deepcopy(view)
    stripped["treasures"] = []
    stripped["catastrophes"] = []
    bare = public(stripped)
    corner = next(t["sq"] for t in view["treasures"] if t["corner"])
    plain = next(t["sq"] for t in view["treasures"] if not t["corner"])
    for sq in (corner, plain, view["catastrophes"][0]):
        assert differs(cell(image, sq), cell(bare, sq))
    assert differs(tigris.treasure_sprite(True), tigris.treasure_sprite(False))


def test_war_shows_the_unification_marker_and_the_conflict():
    view = samples.late_view()
    marked = public(view)
    sq = view["unification"]
    calm = copy.deepcopy(view)
    calm["unification"] = None
    assert differs(cell(marked, sq), cell(public(calm), sq))
    calm["conflict"] = None
    calm["turn"]["phase"] = "action"
    no_conflict = public(calm)
    assert marked.height > no_conflict.height  # the conflict card
    attacker = view["conflict"]["attacker_sq"]
    assert differs(cell(marked, attacker), cell(no_conflict, attacker))


def test_revolt_renders_with_pending_support():
    image = public(samples.revolt_view())
    assert differs(cell(image, "J7"), cell(public(samples.early_view()), "J7"))


# --------------------------------------------------------------------------- panel


def test_hand_size_changes_the_panel_only():
    view = samples.late_view()
    before = public(view)
    view["players"][1]["hand_size"] = 3
    after = public(view)
    assert differs(panel(before), panel(after))
    assert not differs(board(before), board(after))


def test_panel_reflects_supply_catastrophes_bag_and_turn():
    view = samples.early_view()
    base = panel(public(view))
    for change in (
        lambda v: v["players"][0]["leaders_in_supply"].remove("red"),
        lambda v: v["players"][2].update(catastrophes=1),
        lambda v: v.update(bag=7),
        lambda v: v.update(treasures_left=3),
        lambda v: v["turn"].update(active_seat=2, waiting_for=[2]),
        lambda v: v["monuments_left"].pop(),
    ):
        changed = copy.deepcopy(view)
        change(changed)
        assert differs(base, panel(public(changed)))


def test_open_scoring_shows_points():
    view = samples.late_view(war=False)
    hidden = public(view)
    shown = public(samples.open_scoring(copy.deepcopy(view)))
    assert shown.height > hidden.height
    other = samples.open_scoring(copy.deepcopy(view))
    other["players"][0]["points"]["red"] += 5
    assert differs(panel(shown), panel(public(other)))


def test_game_over_renders():
    view = samples.late_view(war=False)
    view["turn"] = {"active_seat": 0, "actions_left": 0, "phase": "over", "waiting_for": []}
    assert public(view).width >= 1200


# --------------------------------------------------------------------------- private


def test_private_shows_the_hand_and_points():
    view = samples.private_view()
    image = decode(tigris.render_private(view, samples.PLAYERS[0]))
    changed = copy.deepcopy(view)
    changed["hand"] = ["green"] * 6
    other = decode(tigris.render_private(changed, samples.PLAYERS[0]))
    first_slot = (40, 110, 150, 230)
    r, g, _ = mean(image.crop(first_slot))
    assert r > g + 40  # a red tile first
    r, g, _ = mean(other.crop(first_slot))
    assert g > r + 20
    scored = copy.deepcopy(view)
    scored["points"]["blue"] = 9
    assert differs(image, decode(tigris.render_private(scored, samples.PLAYERS[0])))


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
@pytest.mark.parametrize("seat", range(4))
def test_private_is_8_bit_with_the_full_colour_drawings_pixels_nearly(seat: int, lang: str):
    view, player = samples.private_view(seat), samples.PLAYERS[seat]
    png = tigris.render_private(view, player, lang)
    assert Image.open(io.BytesIO(png)).mode == "P"
    drawn = tigris.draw_private(view, player, lang)
    difference = ImageChops.difference(decode(png), drawn)
    assert max(high for _, high in difference.getextrema()) <= 24  # antialiased edges only
    assert tigris.render_private(view, player, lang) == png


def test_private_with_a_short_hand():
    view = samples.private_view(2)
    view["hand"] = ["black"]
    image = decode(tigris.render_private(view, samples.PLAYERS[2]))
    assert image.width >= 800


def test_final_score_adds_treasures_to_the_weakest_colour():
    points = {"red": 4, "blue": 2, "green": 6, "black": 3}
    assert tigris.final_score(points, 0) == 2
    assert tigris.final_score(points, 1) == 3
    assert tigris.final_score(points, 3) == 4


# --------------------------------------------------------------------------- robustness


def test_bad_or_missing_data_does_not_crash():
    view = samples.early_view()
    view["tiles"].append({"sq": "Z99", "colour": "purple", "flipped": False})
    view["leaders"].append({"sq": "B5", "colour": "red", "seat": 7})
    view["unification"] = "Q1"
    players = [PlayerLabel(0, "", "not a colour"), PlayerLabel(1, "\x00\u200b", "#abc")]
    image = decode(tigris.render_public(view, players))
    assert image.width >= 1200


def test_long_and_non_latin_names_do_not_crash():
    players = [
        PlayerLabel(0, "W" * 200, "#ff0000"),
        PlayerLabel(1, "李小龙", "#00ff00"),
        PlayerLabel(2, "김민준", "#0000ff"),
        PlayerLabel(3, "مرحبا 🦁 Ωμέγα", "#ffffff"),
    ]
    assert decode(tigris.render_public(samples.late_view(), players)).width >= 1200
    assert decode(tigris.render_private(samples.private_view(1), players[1])).width >= 800


def test_square_geometry():
    assert tigris.parse_square("A1") == (0, 0)
    assert tigris.parse_square("P11") == (15, 10)
    assert tigris.parse_square("Q1") is None
    assert tigris.parse_square("A12") is None
    x, y = square_center("B2")
    assert (x, y) == (tigris.EDGE + CELL + CELL // 2, tigris.EDGE + CELL + CELL // 2)


# --------------------------------------------------------------------------- engine


def test_views_from_the_real_engine_render():
    """Contract check against the engine's own views (skipped until it lands)."""
    import random

    engine = pytest.importorskip("bot.games.tigris").ENGINE
    rng = random.Random(5)
    state = engine.new_game(3, {}, 5)
    for _ in range(60):
        if engine.result(state) is not None:
            break
        seat = min(engine.waiting_for(state))
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        image = decode(tigris.render_public(engine.public_view(state), samples.PLAYERS[:3]))
        assert image.width >= 1200
        decode(tigris.render_private(engine.private_view(state, seat), samples.PLAYERS[seat]))
