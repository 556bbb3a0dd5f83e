"""The positions of the visual regression test and how they are drawn.

``tests/renderer/test_reference_images.py`` draws every case of :data:`CASES`
again and compares it with ``tests/renderer/references/<name>.png``;
``scripts/regenerate_references.py`` rewrites those files on purpose (after a
deliberate visual change, or after a merge that changes the engines' games).

Decisions:

* Positions come from the engines, never from hand-edited pixels: seeded random
  games (Tikal's ``selfplay`` player, Tigris' random legal player below, Temple
  Rush's seeded player of ``tests/support/temple_play.py`` through
  ``temple_sample_views``) stopped at a fixed step or situation, plus the
  hand-written Tigris sample views (a dense board with a war, a private view).
  The same seeds give the same views, so the images only change when a
  renderer or an engine does.
* Per game and mode: an early board, a crowded one, the end board, a private
  view where the game has one (Tikal has none), and one board in a CJK language;
  Tikal's close-up at the start of a turn (the hex to lay, then the action
  points). Every game's boards carry a name with an emoji (Tikal's fourth
  player, the samples' 김민준 🦁). The ``/rules`` pictures: each game's annotated
  board and worked scoring example (the engines' ``rules_examples``).
* Fonts: the references must come out the same on CI (which installs a system
  CJK font) and on a bare developer machine (which may have neither DejaVu nor
  a CJK font). :func:`bundled_fonts` therefore draws with Pillow's own font and
  the CJK subset shipped in ``renderer/fonts/`` only, as the bare machine of
  ``test_cjk_glyphs.py`` does, whatever the machine has installed.
* Files are written with maximal zlib compression (the renderers' own encode
  uses level 3 for speed); the comparison is on decoded pixels, so that does
  not matter to the test.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import temple_sample_views as temple_samples
import tigris_sample_views as tigris_samples
from PIL import Image

from bot import plugins
from bot.games.base import PlayerLabel
from bot.games.tigris import ENGINE as TIGRIS
from bot.games.tikal import ENGINE as TIKAL
from bot.games.tikal import flow as tikal_flow
from bot.games.tikal import rules as tikal_rules
from bot.games.tikal.selfplay import MAX_STEPS, choose
from bot.games.tikal.state import PHASE_ACTIONS, PHASE_BID, PHASE_OVER, PHASE_PLACE
from bot.service.reading import rules_players
from renderer import annotate, common, lettering, temple, tigris, tikal, tikal_hex

REFERENCES_DIR = Path(__file__).resolve().parent / "references"
RULES_GAMES = plugins.load_builtin_games()
RENDERERS = (common, lettering, annotate, tigris, tikal, temple, tikal_hex)

#: the fourth name carries emoji (drawn by the shipped emoji face, never as a box)
TIKAL_NAMES = ("Alice", "Bartholomew the Magnificent", "王小明", "김민준 🐉🔥")


# --------------------------------------------------------------------------- fonts


def clear_font_caches() -> None:
    """Forget every font, stack, coverage answer and cached sprite of the renderers."""
    for module in RENDERERS:
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", "").startswith("renderer"):
                clear()


@contextmanager
def bundled_fonts() -> Iterator[None]:
    """Draw with Pillow's font and the shipped CJK subset only (no DejaVu, no
    fontconfig, no known CJK path), then restore the machine's fonts."""
    saved = (common._fc_list, common._KNOWN_CJK_FONTS, common.DEJAVU_DIR)
    common._fc_list = lambda lang: []  # type: ignore[assignment]
    common._KNOWN_CJK_FONTS = ()
    common.DEJAVU_DIR = REFERENCES_DIR / "no-such-font-dir"
    clear_font_caches()
    try:
        yield
    finally:
        common._fc_list, common._KNOWN_CJK_FONTS, common.DEJAVU_DIR = saved
        clear_font_caches()


# --------------------------------------------------------------------------- positions


@cache
def _tigris_game(seed: int, seats: int) -> list[Any]:
    """A whole random Tigris game: the state after every step (dumped)."""
    chooser = random.Random(seed)
    state = TIGRIS.new_game(seats, {}, seed)
    dumps = [TIGRIS.dump_state(state)]
    while TIGRIS.result(state) is None:
        seat = chooser.choice(sorted(TIGRIS.waiting_for(state)))
        TIGRIS.apply(state, seat, chooser.choice(TIGRIS.legal_actions(state, seat)))
        dumps.append(TIGRIS.dump_state(state))
    return dumps


def _tigris_state(seed: int, seats: int, fraction: float) -> Any:
    dumps = _tigris_game(seed, seats)
    return TIGRIS.load_state(dumps[round((len(dumps) - 1) * fraction)])


def _tikal_state(mode: str, seats: int, seed: int, stop: Callable[[Any, int], bool]) -> Any:
    """A random Tikal game (the selfplay player) until ``stop(state, steps)``."""
    state = TIKAL.new_game(seats, {"mode": mode}, seed)
    rng = random.Random(seed * 7919 + seats)
    steps = 0
    while state.phase != PHASE_OVER and steps < MAX_STEPS and not stop(state, steps):
        (seat,) = tikal_rules.waiting_for(state)
        tikal_flow.apply(state, seat, choose(state, seat, rng))
        steps += 1
    return state


def _tikal_players(seats: int) -> list[PlayerLabel]:
    return [
        PlayerLabel(seat, TIKAL_NAMES[seat], TIKAL.seat_colours[seat].hex) for seat in range(seats)
    ]


def _tikal(mode: str, seats: int, seed: int, stop: Callable[[Any, int], bool], lang: str = "en"):
    def draw() -> bytes:
        view = TIKAL.public_view(_tikal_state(mode, seats, seed, stop))
        return tikal.render_public(view, _tikal_players(seats), lang)

    return draw


def _tikal_close_up(phase: str) -> Callable[[], bytes]:
    """The close-up of the first turn after step 60 of the crowded base game that is
    in ``phase`` (the hex to lay; or the action points, right after laying it)."""

    def stop(state: Any, done: int) -> bool:
        if done < 60 or state.phase != phase:
            return False
        return phase == PHASE_PLACE or (state.turn.ap == 10 and len(state.steps) == 1)

    def draw() -> bytes:
        state = _tikal_state("base", 4, 1, stop)
        (seat,) = TIKAL.waiting_for(state)
        view = TIKAL.public_view(state)
        png = tikal.render_zoom(view, _tikal_players(4), "en", TIKAL.focus(state, seat))
        assert png is not None
        return png

    return draw


def _after(steps: int) -> Callable[[Any, int], bool]:
    return lambda state, done: done >= steps


def _never(state: Any, done: int) -> bool:
    return False


def _bidding_after(steps: int) -> Callable[[Any, int], bool]:
    return lambda state, done: done >= steps and state.phase == PHASE_BID


def _tigris_public(fraction: float, lang: str = "en") -> Callable[[], bytes]:
    def draw() -> bytes:
        view = TIGRIS.public_view(_tigris_state(3, 4, fraction))
        return tigris.render_public(view, tigris_samples.PLAYERS, lang)

    return draw


def _tigris_sample(lang: str = "en") -> bytes:
    view = tigris_samples.late_view()
    return tigris.render_public(view, tigris_samples.PLAYERS[: len(view["players"])], lang)


def _tigris_private() -> bytes:
    return tigris.render_private(tigris_samples.private_view(), tigris_samples.PLAYERS[0])


def _temple_public(name: str, lang: str = "en") -> Callable[[], bytes]:
    def draw() -> bytes:
        view = temple_samples.view(name)
        return temple.render_public(view, temple_samples.PLAYERS[: len(view["players"])], lang)

    return draw


def _temple_private() -> bytes:
    private, seat = temple_samples.private_view()
    return temple.render_private(private, temple_samples.PLAYERS[seat])


def _tikal_rotations(seed: int, steps: int, most: bool = True) -> Callable[[], bytes]:
    """The move picker's picture of the hex in hand (``renderer/tikal_hex.py``) in the
    first hex-laying phase after ``steps`` steps, on the space where it has the most
    (or the fewest, but two: one rotation is chosen without asking) distinct rotations."""

    def draw() -> bytes:
        state = _tikal_state("base", 4, seed, lambda s, done: done >= steps and s.phase == "place")
        (seat,) = tikal_rules.waiting_for(state)
        spaces = sorted({str(a).split()[1] for a in TIKAL.legal_actions(state, seat)})
        views = [TIKAL.picture(state, seat, "place", {"space": space}) for space in spaces]
        counted = [(len(v["rotations"]), n) for n, v in enumerate(views) if v is not None]
        several = [pair for pair in counted if pair[0] > 1] or counted
        _, index = max(counted) if most else min(several)
        view = views[index]
        assert view is not None
        return tikal_hex.render_picture(view)

    return draw


def _rules(game: str, kind: str, lang: str = "en") -> Callable[[], bytes]:
    """A picture of ``/rules``: the engine's example positions, drawn by the game's
    ``render_rules`` for the example players the service gives it."""

    def draw() -> bytes:
        game_type = RULES_GAMES[game]
        render = game_type.render_rules
        assert render is not None
        png = render(game_type.engine.rules_examples(), kind, rules_players(game_type, lang), lang)
        assert png is not None
        return png

    return draw


#: name -> the PNG bytes of that position, drawn by the renderer under test
CASES: dict[str, Callable[[], bytes]] = {
    "tigris-early": _tigris_public(0.05),
    "tigris-crowded": _tigris_sample,
    "tigris-end": _tigris_public(1.0),
    "tigris-private": _tigris_private,
    "tigris-crowded-zh": lambda: _tigris_sample("zh"),
    "tikal-base-early": _tikal("base", 4, 1, _after(12)),
    "tikal-base-crowded": _tikal("base", 4, 1, _after(200)),
    "tikal-base-end": _tikal("base", 4, 1, _never),
    "tikal-base-crowded-zh-TW": _tikal("base", 4, 1, _after(200), "zh-TW"),
    "tikal-auction-bidding": _tikal("auction", 3, 2, _bidding_after(150)),
    "tikal-auction-end": _tikal("auction", 3, 2, _never),
    "tikal-mini-mid": _tikal("mini", 2, 1, _after(50)),
    "tikal-mini-end": _tikal("mini", 2, 1, _never),
    "tikal-close-up-place": _tikal_close_up(PHASE_PLACE),
    "tikal-close-up-actions": _tikal_close_up(PHASE_ACTIONS),
    "temple-early": _temple_public("three"),
    "temple-crowded": _temple_public("late4"),
    "temple-end": _temple_public("over"),
    "temple-private": _temple_private,
    "temple-crowded-ko": _temple_public("mid4", "ko"),
    "rules-tigris-board": _rules("tigris", "board"),
    "rules-tigris-scoring": _rules("tigris", "scoring"),
    "rules-tikal-board": _rules("tikal", "board"),
    "rules-tikal-scoring": _rules("tikal", "scoring"),
    "rules-temple-board": _rules("temple", "board"),
    "rules-temple-scoring": _rules("temple", "scoring"),
    "rules-temple-scoring-zh-TW": _rules("temple", "scoring", "zh-TW"),
    "tikal-hex-rotations": _tikal_rotations(1, 12),
    "tikal-hex-crowded": _tikal_rotations(1, 180, most=False),
}


def reference_path(name: str) -> Path:
    return REFERENCES_DIR / f"{name}.png"


def draw(name: str) -> Image.Image:
    """The case's image as drawn now (RGB), with the bundled fonts only."""
    with bundled_fonts():
        png = CASES[name]()
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def save(image: Image.Image, path: Path) -> None:
    """Write a reference: an exact 256-colour palette when the image has at most
    256 colours (the renderers' images do), zlib level 9."""
    path.parent.mkdir(parents=True, exist_ok=True)
    out: Image.Image = image
    if image.getcolors(256):  # median cut keeps every colour of a <=256-colour image
        out = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        if out.convert("RGB").tobytes() != image.tobytes():
            out = image
    out.save(path, format="PNG", optimize=True, compress_level=9)
