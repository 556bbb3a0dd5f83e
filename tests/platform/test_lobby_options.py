"""Changing a lobby's options after ``/game new``, through the service: the host only,
the lobby only, a value the option has; a refusal changes nothing. Option names and
values in words in every language, in their natural order, defaults kept."""

from __future__ import annotations

import pytest

from bot import plugins
from bot.games.base import OptionSpec
from bot.i18n import LANGUAGES, has_key
from bot.service import GameService, Player, Refusal
from bot.service.lobby import options_text, parse_options
from bot.service.turn_clock import all_options
from bot.store import Store
from tests.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

REGISTRY = plugins.load_builtin_games()


@pytest.fixture
async def tikal(store: Store) -> GameService:
    service = GameService(store, REGISTRY, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="tikal", seed=7
    )
    await service.lobby.join(CHANNEL, BOB)
    return service


async def _raw(service: GameService) -> tuple:
    row = await service.store.latest_game_in(CHANNEL)
    assert row is not None
    return await service.store.raw_game(row.id)


async def _refused(service: GameService, key: str, *args: object, **kwargs: object) -> None:
    before = await _raw(service)
    with pytest.raises(Refusal) as refused:
        await service.lobby.set_option(CHANNEL, *args, **kwargs)  # type: ignore[arg-type]
    assert refused.value.text.key == key
    assert await _raw(service) == before


async def test_the_host_changes_an_option_and_the_panel_follows(tikal: GameService) -> None:
    outcome = await tikal.lobby.set_option(CHANNEL, ALICE, "mode", "auction")
    row = await tikal.store.latest_game_in(CHANNEL)
    assert row is not None and row.options["mode"] == "auction"
    assert outcome.lobby is not None and outcome.lobby.open and not outcome.lobby.post
    mode = next(m for m in outcome.lobby.menus if m.name == "mode")
    assert mode.current == "auction"
    lines = [line.render("ko") for line in outcome.lobby.lines]
    assert "· 변형: 경매" in lines
    assert [line.render("en") for line in outcome.news.lines] == [
        f"{ALICE.name} set Variant to auction."
    ]
    status = await tikal.reading.status(CHANNEL)
    assert "· 변형: 경매" in [line.render("ko") for line in status.reply.lines]
    # the same value again: said, nothing stored
    again = await tikal.lobby.set_option(CHANNEL, ALICE, "mode", "auction")
    assert again.lobby is None and again.reply.lines[0].key == "lobby.option_kept_reply"


async def test_others_bad_values_and_started_games_are_refused(tikal: GameService) -> None:
    await _refused(tikal, "error.only_creator_options", BOB, "mode", "auction")
    await _refused(tikal, "error.only_creator_options", CAROL, "mode", "auction")
    await _refused(tikal, "error.bad_option_value", ALICE, "mode", "chess")
    await _refused(tikal, "error.bad_option_value", ALICE, "mode", "")
    await _refused(tikal, "error.unknown_option", ALICE, "colour", "red")
    row = await tikal.store.latest_game_in(CHANNEL)
    assert row is not None
    await _refused(tikal, "error.stale_button", ALICE, "mode", "auction", expected_game=row.id + 1)
    await tikal.lobby.start(CHANNEL, ALICE)
    await _refused(tikal, "error.options_started", ALICE, "mode", "auction")


async def test_player_limits_of_the_options_are_enforced_at_the_start(store: Store) -> None:
    service = GameService(store, REGISTRY, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="tikal", seed=7
    )
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.join(CHANNEL, CAROL)
    await service.lobby.set_option(CHANNEL, ALICE, "mode", "mini")  # Mini-Tikal: exactly 2
    with pytest.raises(Refusal) as refused:
        await service.lobby.start(CHANNEL, ALICE)
    assert refused.value.text.key == "error.too_many_players"
    await service.lobby.leave(CHANNEL, CAROL)
    started = await service.lobby.start(CHANNEL, ALICE)
    assert started.lobby is not None and not started.lobby.open


async def test_lobby_taps_name_their_game(tikal: GameService) -> None:
    row = await tikal.store.latest_game_in(CHANNEL)
    assert row is not None
    for call in (tikal.lobby.join, tikal.lobby.leave, tikal.lobby.start):
        with pytest.raises(Refusal) as refused:
            await call(CHANNEL, Player(99, "zed"), expected_game=row.id + 1)
        assert refused.value.text.key == "error.stale_button"


def test_every_option_name_and_value_is_in_every_catalog() -> None:
    for game_type in REGISTRY.values():
        for spec in all_options(game_type):
            keys = [f"{spec.description_key}.name"] + [
                f"{spec.description_key}.{v}" for v in spec.choices
            ]
            for lang in LANGUAGES:
                assert [k for k in keys if not has_key(k, lang)] == [], lang
        shown = options_text(game_type, parse_options(game_type, {}))
        for lang in ("zh-TW", "ko"):
            for line in shown:
                text = line.render(lang)
                assert not any(spec.name in text for spec in all_options(game_type)), text


def test_choices_are_in_a_natural_order_and_defaults_stay() -> None:
    temple = {s.name: s for s in all_options(REGISTRY["temple"])}
    assert temple["deadline"].choices == ("1h", "4h", "12h", "24h", "48h")
    assert temple["deadline"].default == "24h"
    assert temple["absent"].choices == ("2", "3", "5", "never")
    assert temple["absent"].default == "3"
    assert parse_options(REGISTRY["temple"], {})["deadline"] == "24h"
    with pytest.raises(ValueError):
        OptionSpec("x", ("a", "b"), "k", "c")


@pytest.mark.parametrize(("mode", "said"), [("mini", "2 players"), ("base", "2–4 players")])
async def test_the_lobby_says_how_many_players_without_a_range_of_one(
    store: Store, mode: str, said: str
) -> None:
    service = GameService(store, REGISTRY, render=False)
    opened = await service.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=ALICE,
        game_type_name="tikal",
        options={"mode": mode},
        seed=7,
    )
    text = "\n".join(line.render("en") for line in opened.news.lines)
    assert f" for {said}." in text and "2–2" not in text, text
