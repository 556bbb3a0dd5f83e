"""Shared fixtures: the Oracle test game registered, a real SQLite store, a service."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import games
from bot.games.base import GameType
from bot.i18n import register_catalog
from bot.service import GameService, Player
from bot.store import Store
from tests.support import oracle, oracle_render, relay

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


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "ziggurat.db")
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return GameService(store, games.REGISTRY)
