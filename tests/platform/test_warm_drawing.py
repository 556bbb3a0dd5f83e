"""A drawing process's warm-up: made-up games only, bounded, giving way to real work,
and changing no pixel (the same bytes drawn by a warmed and an unwarmed process);
then its heap frozen, what it makes afterwards still collectable."""

from __future__ import annotations

import functools
import gc
import os
import random
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import plugins
from bot.games.base import GameType, PlayerLabel
from bot.i18n import LANGUAGES
from bot.service import GameService, drawing, warm_drawing, workers
from bot.service.colours import seat_colours
from bot.service.warm_drawing import WarmGame, made_up_positions, warm

BUILTIN = ("tigris", "tikal", "temple")


@pytest.fixture(scope="module")
def game_types() -> dict[str, GameType]:
    return {name: plugins.load_builtin_games()[name] for name in BUILTIN}


@pytest.fixture(scope="module")
def warm_games(game_types: dict[str, GameType]) -> list[WarmGame]:
    games = [drawing._warm_game(game_type) for game_type in game_types.values()]
    assert all(game is not None for game in games)
    return [game for game in games if game is not None]


def _everything(
    games: Sequence[WarmGame], languages: Sequence[str], counted: str, _: Callable[[], bool]
) -> None:
    """A warm-up that draws every sample whatever waits (so the test knows it ran whole),
    and writes how many it drew to ``counted``."""
    drawn = warm(games, languages, 600.0, lambda: False)
    Path(counted).write_text(str(drawn), encoding="utf-8")


def _giving_way(games: Sequence[WarmGame], counted: str, waiting: Callable[[], bool]) -> None:
    """The real warm-up, as the bot runs it, writing how many images it drew."""
    drawn = warm(games, LANGUAGES, 600.0, waiting)
    Path(counted).write_text(str(drawn), encoding="utf-8")


def _failing(_: Callable[[], bool]) -> None:
    raise RuntimeError("no warm-up today")


def _pid(_: int) -> bytes:
    return os.getpid().to_bytes(4, "big")


@pytest.fixture
def pools() -> Iterator[list[workers.WorkerPool]]:
    made: list[workers.WorkerPool] = []
    yield made
    for pool in made:
        running = pool._running
        if running is not None:
            running.close()
        pool.threads.shutdown(wait=False)


def _other_game(game_type: GameType, seed: int, steps: int) -> Any:
    """A game the warm-up never drew: another seed, played ``steps`` random steps."""
    engine = game_type.engine
    rng = random.Random(seed)
    state = engine.new_game(3, {}, seed)
    for _ in range(steps):
        waiting = sorted(engine.waiting_for(state))
        if engine.result(state) is not None or not waiting:
            break
        seat = rng.choice(waiting)
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def _images(game_types: dict[str, GameType], warm_games: list[WarmGame]) -> list[tuple[Any, ...]]:
    """Jobs for both pools: positions the warm-up drew and positions it never saw, each
    game's board and private views, in English and Korean."""
    jobs: list[tuple[Any, ...]] = []
    for game in warm_games:
        game_type = game_types[game.engine.name]
        engine = game.engine
        labels = [
            PlayerLabel(seat, name, colour)
            for seat, (name, (colour, _)) in enumerate(
                zip(("Ann", "Bo", "Cy"), seat_colours(game_type, 3), strict=True)
            )
        ]
        states = [*made_up_positions(game, 2), _other_game(game_type, 7, 60)]
        for lang in ("en", "ko"):
            for state in states:
                jobs.append((game.render_public, engine.public_view(state), labels, lang))
                if game.render_private is not None:
                    view = engine.private_view(state, 1)
                    jobs.append((game.render_private, view, labels[1], lang))
    return jobs


async def test_a_warmed_process_draws_the_same_bytes_as_a_cold_one(
    game_types: dict[str, GameType],
    warm_games: list[WarmGame],
    pools: list[workers.WorkerPool],
    tmp_path: Path,
) -> None:
    counted = tmp_path / "warmed"
    warmed = workers.WorkerPool(1, "ziggurat-test-warmed")
    warmed.warm = functools.partial(_everything, warm_games, LANGUAGES, str(counted))
    cold = workers.WorkerPool(1, "ziggurat-test-cold")
    pools += [warmed, cold]
    jobs = _images(game_types, warm_games)
    from_warm = [await warmed.run(*job) for job in jobs]
    from_cold = [await cold.run(*job) for job in jobs]
    assert int(counted.read_text(encoding="utf-8")) > len(jobs)  # it ran, whole, first
    assert all(where == "process" for _, where in from_warm + from_cold)
    assert [image for image, _ in from_warm] == [image for image, _ in from_cold]
    assert all(image.startswith(b"\x89PNG") for image, _ in from_warm)


async def test_the_warm_up_gives_way_to_a_job(
    warm_games: list[WarmGame], pools: list[workers.WorkerPool], tmp_path: Path
) -> None:
    counted = tmp_path / "warmed"
    every = warm(warm_games, LANGUAGES[:1], 600.0, lambda: False)  # in English alone
    pool = workers.WorkerPool(1, "ziggurat-test-giving-way")
    pool.warm = functools.partial(_giving_way, warm_games, str(counted))
    pools.append(pool)
    (_, where) = await pool.run(_pid, 0)
    assert where == "process"
    assert int(counted.read_text(encoding="utf-8")) < every


async def test_a_process_whose_warm_up_fails_still_draws(
    pools: list[workers.WorkerPool],
) -> None:
    pool = workers.WorkerPool(1, "ziggurat-test-failing-warm-up")
    pool.warm = _failing
    pools.append(pool)
    (image, where) = await pool.run(_pid, 0)
    assert where == "process" and int.from_bytes(image, "big") in pool.pids()


def test_the_warm_up_is_bounded(warm_games: list[WarmGame]) -> None:
    """No time: nothing drawn; a job waiting once an image is drawn: that one only."""
    seen: list[tuple[str, Any, Any]] = []
    recorded = _recorded(warm_games, seen)
    assert warm(recorded, LANGUAGES, 0.0, lambda: False) == 0 and seen == []
    assert warm(recorded, LANGUAGES, 600.0, lambda: len(seen) >= 1) == 1 and len(seen) == 1
    assert warm_drawing.WARM_SECONDS <= 5.0


def _recorder(seen: list[tuple[str, Any, Any]], kind: str) -> Callable[[Any, Any, str], bytes]:
    def render(view: Any, players: Any, lang: str = "en") -> bytes:
        seen.append((kind, view, players))
        return b""

    return render


def _recorded(games: list[WarmGame], seen: list[tuple[str, Any, Any]]) -> list[WarmGame]:
    """``games`` with renderers that record what they are asked to draw."""
    return [
        WarmGame(
            engine=game.engine,
            render_public=_recorder(seen, "public"),
            render_private=_recorder(seen, "private") if game.render_private else None,
            colours=game.colours,
        )
        for game in games
    ]


def test_the_warm_up_draws_made_up_games_only(warm_games: list[WarmGame]) -> None:
    """No real game's state, name or private view: each image drawn is a position of
    the seeded made-up game, its seats named ``Player N``."""
    seen: list[tuple[str, Any, Any]] = []
    recorded = _recorded(warm_games, seen)
    drawn = warm(recorded, LANGUAGES, 600.0, lambda: False)
    assert drawn == len(seen) > 0
    made_up: list[Any] = []
    for game in warm_games:
        for state in made_up_positions(game, warm_drawing.POSITIONS):
            made_up.append(game.engine.public_view(state))
            if game.engine.has_private_view:
                made_up += [game.engine.private_view(state, s) for s in range(len(game.colours))]
    for kind, view, players in seen:
        assert view in made_up
        names = [p.name for p in players] if kind == "public" else [players.name]
        assert all(name.startswith("Player ") for name in names)
    assert {kind for kind, _, _ in seen} == {"public", "private"}


def test_the_bot_warms_its_processes_on_its_registered_games(
    game_types: dict[str, GameType],
) -> None:
    """What the bot hands its drawing processes: the games' engines and renderers and
    the seats' colours, nothing of a stored game."""
    before = drawing.POOL.warm
    started = drawing.POOL._running
    try:
        drawing.POOL._running = None
        drawing.warm_up(game_types.values())  # no running loop: nothing started
        handed = drawing.POOL.warm
        assert isinstance(handed, functools.partial) and handed.func is warm
        games, languages, seconds = handed.args
        assert [g.engine.name for g in games] == list(BUILTIN)
        assert tuple(languages) == LANGUAGES and seconds == warm_drawing.WARM_SECONDS
        for game in games:
            assert set(vars(game)) == {"engine", "render_public", "render_private", "colours"}
    finally:
        drawing.POOL.warm = before
        drawing.POOL._running = started


def test_no_warm_up_when_asked_for_none(game_types: dict[str, GameType]) -> None:
    before = drawing.POOL.warm
    started = drawing.POOL._running
    try:
        drawing.POOL._running = None
        drawing.POOL.warm = None
        drawing.warm_up(game_types.values(), seconds=0)
        assert drawing.POOL.warm is None
    finally:
        drawing.POOL.warm = before
        drawing.POOL._running = started


@pytest.mark.parametrize("seconds", [0.0, 2.5])
def test_the_service_warms_its_processes_as_long_as_set(
    game_types: dict[str, GameType], seconds: float
) -> None:
    """``ZIGGURAT_DRAW_WARMUP_SECONDS`` (``Settings.draw_warmup``) reaches the processes:
    0 hands them no warm-up at all."""
    before = drawing.POOL.warm
    started = drawing.POOL._running
    try:
        drawing.POOL._running = None
        drawing.POOL.warm = None
        unused: Any = None  # starting the drawing processes reads no game
        service = GameService(unused, game_types, render=False, draw_warmup=seconds)
        service.start_drawing()  # no running loop: nothing started
        handed = drawing.POOL.warm
        if seconds == 0:
            assert handed is None
        else:
            assert isinstance(handed, functools.partial) and handed.func is warm
            assert handed.args[2] == seconds
    finally:
        drawing.POOL.warm = before
        drawing.POOL._running = started


def test_made_up_positions_are_the_same_every_time(warm_games: list[WarmGame]) -> None:
    for game in warm_games:
        first = [game.engine.public_view(s) for s in made_up_positions(game, 3)]
        again = [game.engine.public_view(s) for s in made_up_positions(game, 3)]
        assert first == again and len(first) == 3


async def test_a_board_drawn_from_its_state_in_a_process_is_the_one_drawn_from_its_view(
    game_types: dict[str, GameType], warm_games: list[WarmGame]
) -> None:
    """``drawing.board`` sends the state and the drawing process builds the public view
    (in a process of its own hash seed, from an unpickled copy): the same bytes as the
    public view built here and drawn here, position after position of each game."""
    for game in warm_games:
        game_type = game_types[game.engine.name]
        assert drawing._sendable(game_type.render_public) and drawing._sendable(game.engine)
        labels = [PlayerLabel(i, f"P{i}", c) for i, c in enumerate(game.colours)]
        states = [*made_up_positions(game, 6), _other_game(game_type, 11, 80)]
        for state in states:
            for lang in ("en", "zh-TW"):
                sent = await drawing.board(
                    game_type.render_public, game.engine, state, labels, lang
                )
                here = game_type.render_public(game.engine.public_view(state), labels, lang)
                assert sent == here, (game.engine.name, lang)
    assert drawing.POOL.started  # drawn in the drawing processes, not on a thread


# -- a worker's heap, frozen once it is ready ------------------------------------


class Node:
    """A container object the collector tracks."""

    other: Node | None = None


#: what a worker's warm-up filled (a renderer's cache, in small)
WARMED: list[Node] = []


def _fill(_: Callable[[], bool]) -> None:
    WARMED.extend(Node() for _ in range(1000))


def _tracked_ids() -> set[int]:
    return {id(o) for o in gc.get_objects()}


def _heap(_: int) -> tuple[int, bool, int, bool]:
    """In the worker: objects frozen, whether the warm-up's cache is among the objects
    a collection walks, how many of its nodes are, and whether a garbage cycle made
    now is collected."""
    tracked = _tracked_ids()
    walked = sum(id(node) in tracked for node in WARMED)
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    return gc.get_freeze_count(), id(WARMED) in tracked, walked, gone() is None


def _frozen(_: int) -> int:
    return gc.get_freeze_count()


async def test_what_the_warm_up_filled_is_frozen_and_later_garbage_collected(
    pools: list[workers.WorkerPool],
) -> None:
    pool = workers.WorkerPool(1, "ziggurat-test-frozen")
    pool.warm = _fill
    pools.append(pool)
    (frozen, cache_walked, nodes_walked, cycle_collected), where = await pool.run(_heap, 0)
    assert where == "process"
    assert frozen > 1000  # the modules and the warm-up's 1,000 nodes
    assert not cache_walked and nodes_walked == 0
    assert cycle_collected
    assert gc.get_freeze_count() == 0  # the test process itself froze nothing


async def test_a_worker_without_a_warm_up_freezes_once_too(
    pools: list[workers.WorkerPool],
) -> None:
    pool = workers.WorkerPool(1, "ziggurat-test-frozen-cold")
    pools.append(pool)
    (first, where), (again, _) = [await pool.run(_frozen, 0) for _ in range(2)]
    assert where == "process" and first > 0
    assert again == first  # once: what its jobs make is never frozen
