"""Renderer tests for Temple Rush: PNGs decode, have phone-friendly sizes, show
what the views describe, and never show a sealed move. No timing assertions."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
import temple_sample_views as samples
from PIL import Image, ImageChops

from bot.games.base import PlayerLabel
from bot.games.temple import ENGINE, Place
from renderer import temple

NAMES = ("mid4", "late4", "two", "three", "race", "bonus", "over")


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def public(view: dict[str, Any], lang: str = "en") -> bytes:
    return temple.render_public(view, samples.PLAYERS[: len(view["players"])], lang)


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def has_colour(image: Image.Image, rgb: tuple[int, int, int], box=None, least: int = 20) -> bool:
    """At least ``least`` pixels of about ``rgb`` (the 8-bit PNG maps colours
    onto its palette a few units off)."""
    region = image.crop(box) if box else image
    found = sum(
        count
        for count, colour in region.getcolors(maxcolors=1 << 20) or []
        if all(abs(a - b) <= 8 for a, b in zip(colour, rgb, strict=True))
    )
    return found >= least


@pytest.mark.parametrize("name", NAMES)
def test_every_sample_renders_a_phone_friendly_png(name: str) -> None:
    png = public(samples.view(name))
    image = decode(png)
    assert image.width >= 1200
    assert 600 <= image.height <= 2 * image.width  # a phone scrolls it; no endless strip
    assert len(png) <= 250_000


def test_more_players_make_a_taller_image() -> None:
    heights = {n: decode(public(samples.view(n))).height for n in ("two", "three", "mid4")}
    assert heights["two"] < heights["three"] < heights["mid4"]


def test_the_public_image_is_identical_whatever_a_seat_sealed() -> None:
    game = samples.state("mid4")
    seat = min(s for s in range(game.seats) if not game.submission(s).complete())
    blank = public(ENGINE.public_view(game))
    legal = [a for a in ENGINE.legal_actions(game, seat)]
    tried = 0
    for action in legal[:: max(1, len(legal) // 12)]:
        other = ENGINE.load_state(ENGINE.dump_state(game))
        ENGINE.apply(other, seat, action)
        if other.round != game.round:
            continue  # that move completed the round: the reveal is public
        view = ENGINE.public_view(other)
        view["submitted"], view["waiting_for"] = (
            ENGINE.public_view(game)["submitted"],
            ENGINE.public_view(game)["waiting_for"],
        )
        assert public(view) == blank, action
        tried += 1
    assert tried >= 5


def test_who_has_sealed_shows_but_not_what() -> None:
    game = samples.state("mid4")
    seat = min(s for s in range(game.seats) if not game.submission(s).complete())
    before = decode(public(ENGINE.public_view(game)))
    ENGINE.apply(game, seat, ENGINE.parse_action("pass"))
    if game.phase == "round":
        after = decode(public(ENGINE.public_view(game)))
        assert differs(before, after)  # "thinking…" became "sealed"


def test_bricks_laid_at_the_last_reveal_are_framed() -> None:
    view = samples.view("mid4")
    assert any(b["new"] for p in view["players"] for a in p["areas"] for b in a["bricks"])
    plain = copy.deepcopy(view)
    for player in plain["players"]:
        for area in player["areas"]:
            for brick in area["bricks"]:
                brick["new"] = False
    framed, unframed = decode(public(view)), decode(public(plain))
    assert differs(framed, unframed)
    assert has_colour(framed, temple.NEW_FRAME)


def test_each_brick_length_has_its_own_colour() -> None:
    colours = set(temple.LENGTH_COLOURS.values())
    assert len(colours) == 4
    image = decode(public(samples.view("late4")))
    for rgb in colours:
        assert has_colour(image, rgb)


def test_a_race_shows_the_lightning_card_with_a_labelled_grid() -> None:
    race = decode(public(samples.view("race")))
    calm = samples.view("race")
    calm["race"] = None
    band = (0, temple.HEADER_H, race.width, temple.HEADER_H + temple.CARDS_H)
    assert has_colour(race, temple.LIGHTNING, band)
    assert not has_colour(decode(public(calm)), temple.LIGHTNING, band)


def test_the_private_preview_shows_the_sealed_move() -> None:
    view, seat = samples.private_view()
    assert view["submission"]["parts"]
    assert any(b.get("pending") for a in view["board"]["areas"] for b in a["bricks"])
    image = decode(temple.render_private(view, samples.PLAYERS[seat]))
    assert image.width >= 1200
    assert has_colour(image, temple.PENDING)  # the move's text, and its bricks' frames
    # the same board without the move is another image
    bare = copy.deepcopy(view)
    bare["submission"] = {"parts": [], "complete": False}
    for area in bare["board"]["areas"]:
        area["bricks"] = [b for b in area["bricks"] if not b.get("pending")]
        area["removed"] = []
    assert differs(image, decode(temple.render_private(bare, samples.PLAYERS[seat])))


def test_a_place_in_the_private_view_is_framed_in_cyan() -> None:
    game = samples.state("three")
    assert not any(game.submission(s).complete() for s in range(game.seats))
    place = next(a for a in ENGINE.legal_actions(game, 0) if isinstance(a, Place))
    ENGINE.apply(game, 0, place)
    assert game.phase == "round" and game.submission(0).brick is not None
    image = decode(temple.render_private(ENGINE.private_view(game, 0), samples.PLAYERS[0]))
    board = (0, temple.PRIVATE_TOP, image.width, image.height - 60)  # not the move's text
    assert has_colour(image, temple.PENDING, board)
    ENGINE.apply(game, 0, ENGINE.parse_action("pass"))
    bare = decode(temple.render_private(ENGINE.private_view(game, 0), samples.PLAYERS[0]))
    assert not has_colour(bare, temple.PENDING, board)


@pytest.mark.parametrize(
    ("lang", "drawn"),
    [("en", "en"), ("zh", "zh"), ("zh-TW", "zh-TW"), ("ko", "ko"), ("zh-CN", "zh"), ("fr", "en")],
)
def test_every_catalog_language_renders_in_itself(lang: str, drawn: str) -> None:
    """The shipped CJK subset draws every catalog language; others get English."""
    view = samples.view("mid4")
    png = public(view, lang)
    decode(png)
    assert temple.image_language(lang) == drawn
    assert (png == public(view, "en")) is (drawn == "en")


def test_odd_names_and_a_minimal_view_do_not_crash() -> None:
    odd = [
        PlayerLabel(0, "\u202e\u0000" + "x" * 300, "#zzzzzz"),
        PlayerLabel(1, "🦁🦁🦁", "#000"),
    ]
    view = samples.view("two")
    decode(temple.render_public(view, odd))
    decode(temple.render_public({"players": [{"seat": 0}], "slots": [], "deck": {}}, odd))
    decode(temple.render_private({"seat": 0, "board": {"seat": 0}}, odd[0]))


def test_the_end_shows_each_place_and_where_the_points_came_from() -> None:
    view = samples.view("over")
    assert view["phase"] == "over" and view["result"]["places"]
    places = view["result"]["places"]
    assert sorted(places) == [str(p["seat"]) for p in view["players"]]
    plain = copy.deepcopy(view)
    plain["result"] = None
    assert differs(decode(public(view)), decode(public(plain)))
