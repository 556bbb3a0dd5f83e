"""A loaded game names its seats in every text it says: the names are read once per row,
and follow the row when it changes (a replaced player); nested texts are renamed at any
depth, and one without a seat is kept as it is."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from bot import games, plugins
from bot.games.base import verbs_text
from bot.i18n import Text
from bot.service import GameService, Player
from bot.service.loaded import _named, seat_text
from bot.store import Store

ANN, BO = Player(4201, "Ann"), Player(4202, "Bo")
CHANNEL, GUILD = 7201, 9001


async def tigris_for_two(tmp_path: Path) -> tuple[Store, GameService]:
    """A Tigris & Euphrates game of Ann and Bo, started, in a new store."""
    plugins.load_builtin_games()
    store = await Store.open(tmp_path / "ziggurat.db")
    service = GameService(store, games.REGISTRY, render=False)
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ANN, game_type_name="tigris", seed=3
    )
    await service.lobby.join(CHANNEL, BO)
    await service.lobby.start(CHANNEL, ANN)
    return store, service


async def test_a_games_texts_name_its_seats_as_its_row_does_now(tmp_path: Path) -> None:
    store, service = await tigris_for_two(tmp_path)
    try:
        game = await service.ctx.running(CHANNEL)
        names = {s.seat: s.display_name for s in game.row.seats}
        deep = {"tiles": Text("list.comma", {"head": Text("x", {"seat": 1}), "tail": Text("y")})}
        for key, params in (("move.played", {"seat": 0, "action": Text("a")}), ("z", deep)):
            assert game.text(key, params) == seat_text(game.row, key, params)
        said = game.text("z", deep)
        assert said.params["tiles"].params["head"].params["seat"] == names[1]
        assert said.params["tiles"].params["tail"] is deep["tiles"].params["tail"]
        untouched = {"verbs": verbs_text("tigris", ("tile", "pass"))}
        assert game.text("q", untouched).params["verbs"] is untouched["verbs"]
        assert game.text("plain") == Text("plain", {})
        # a new row (a replaced player): its names, not the ones read before
        seats = list(game.row.seats)
        seats[1] = replace(seats[1], display_name="Cy")
        game.row = replace(game.row, seats=tuple(seats))
        assert game.text("move.played", {"seat": 1}).params["seat"] == "Cy"
        assert game.text("move.played", {"seat": 0}).params["seat"] == names[0]
    finally:
        await store.close()


def test_verbs_text_is_the_same_text_each_time_and_unchanged_by_its_users() -> None:
    first = verbs_text("tigris", ["tile", "leader", "pass"])
    again = verbs_text("tigris", ("tile", "leader", "pass"))
    assert first is again and first.render("en") == again.render("en")
    assert verbs_text("tigris", ("pass", "tile")) != first


def _reference(names: dict[int, str], params: dict[str, object]) -> dict[str, object]:
    """Seat params as names at any depth, written plainly: what a text must say."""
    shown: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, Text):
            shown[name] = Text(value.key, _reference(names, dict(value.params)))
        elif (name == "seat" or name.endswith("_seat")) and isinstance(value, int):
            shown[name] = names.get(value, str(value))
        else:
            shown[name] = value
    return shown


def _random_params(rng: random.Random, depth: int) -> dict[str, object]:
    params: dict[str, object] = {}
    for index in range(rng.randint(0, 3)):
        roll = rng.random()
        if roll < 0.2:
            params["seat"] = rng.randint(0, 3)  # seat 3 has no player: its number
        elif roll < 0.3:
            params[f"by_seat{index}"] = rng.randint(0, 2)  # not a seat param: kept
        elif roll < 0.4:
            params[f"{index}_seat"] = rng.choice([1, "1", True])
        elif roll < 0.75 and depth < 5:
            params[f"t{index}"] = Text(f"k{index}", _random_params(rng, depth + 1))
        else:
            params[f"n{index}"] = rng.choice([0, 7, "x", None])
    return params


def test_renaming_equals_the_plain_rename_at_any_depth() -> None:
    rng = random.Random(30)
    names = {0: "Ann", 1: "Bo", 2: "Cy"}
    for _ in range(3000):
        params = _random_params(rng, 0)
        said = _named(names, "key", params)
        assert said == Text("key", _reference(names, params))
        for name, value in params.items():  # a nested text with no seat is the same object
            if isinstance(value, Text) and _reference(names, {name: value})[name] == value:
                assert said.params[name] is value


def test_no_class_extends_text() -> None:
    """Renaming tells a nested text by its class alone (``_renamed``): a subclass of
    :class:`Text` would pass unrenamed, so there is none once every game is loaded."""
    plugins.load_builtin_games()
    assert Text.__subclasses__() == []


async def test_a_loaded_games_engine_is_its_game_types_and_follows_a_replaced_one(
    tmp_path: Path,
) -> None:
    """``LoadedGame.engine`` is read once from the game type: it is that type's engine,
    and a game rebuilt with another type (``dataclasses.replace``) has the other's."""
    store, service = await tigris_for_two(tmp_path)
    try:
        game = await service.ctx.running(CHANNEL)
        assert game.engine is games.REGISTRY["tigris"].engine is game.game_type.engine
        other = games.REGISTRY["tikal"]
        assert replace(game, game_type=other).engine is other.engine
    finally:
        await store.close()
