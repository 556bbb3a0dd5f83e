"""One hostile digit set through every decoder of a number a user typed or a token carried.

``str.isdigit`` accepts ``²``, ``①`` and every script's digits, which ``int``
then rejects (an internal error) or reads as another number (``١`` is 1).
Every decoder reads numbers with :func:`bot.games.notation.ascii_int` and
refuses these the way it refuses any bad input: the notation parsers with a
rule error, the picker as a stale or bad pick, a custom_id by matching no
button but the stale one, a lobby option as a bad value, a setting as invalid.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import plugins
from bot.admin import parse_guild
from bot.config import parse_guild_id, parse_metrics_port, parse_shards
from bot.discord.buttons import StaleButton
from bot.discord.interactions import game_of
from bot.discord.items import DYNAMIC_ITEMS
from bot.games.base import RuleError
from bot.games.notation import ascii_int
from bot.service import GameService, Refusal
from bot.service.pick_token import BadToken, Pending
from bot.service.turn_clock import absent_after
from bot.store import Store
from tests.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.support.seated import open_game

REGISTRY = plugins.load_builtin_games()

#: numbers no decoder may read: other scripts' digits, superscripts, circled and
#: full-width digits, signs, whitespace, separators, fractions and numerals
HOSTILE = (
    "²",
    "①",
    "١",
    "١٢",
    "٣",
    "߁",
    "１",
    "𝟙",
    "¹²",
    "½",
    "Ⅻ",
    "+1",
    "-1",
    " 1",
    "1 ",
    "1\n",
    "1_0",
    "0x1",
    "1.0",
    "1e3",
    "",
    "9" * 40,
)


@pytest.mark.parametrize("word", HOSTILE)
def test_the_helper_refuses_every_hostile_number(word: str) -> None:
    with pytest.raises(ValueError):
        ascii_int(word)
    with pytest.raises(ValueError):
        ascii_int(word, 0, 2**63 - 1, digits=19)


def test_the_helper_reads_ascii_digits_within_bounds() -> None:
    assert ascii_int("0") == 0 and ascii_int("007") == 7 and ascii_int("12", 1, 12) == 12
    assert ascii_int("9" * 19, digits=19) == int("9" * 19)
    for word, low, high in (("13", 1, 12), ("0", 1, 12), ("1234567890", None, None)):
        with pytest.raises(ValueError):
            ascii_int(word, low, high)


#: a notation with ``{n}`` where each engine reads a number
NOTATIONS = {
    "tigris": ("tile red A{n}", "leader king A{n}", "swap red red", "support {n}"),
    "tikal": ("place A{n} 0", "place A2 {n}", "bid {n}", "dig A{n}"),
    "temple": ("place {n} A1 3", "place 1 A{n} 3", "place 1 A1 {n}", "joint {n}"),
}


@pytest.mark.parametrize("game", sorted(NOTATIONS))
@pytest.mark.parametrize("word", [w for w in HOSTILE if w.strip() == w and w])
def test_every_notation_refuses_hostile_numbers(game: str, word: str) -> None:
    engine = REGISTRY[game].engine
    for notation in NOTATIONS[game]:
        if "{n}" not in notation:
            continue
        with pytest.raises(RuleError):
            engine.parse_action(notation.format(n=word))


def _custom_ids(number: str) -> list[str]:
    """Every kind of custom_id the bot reads, with ``number`` in each numeric place (a
    picker token's own parts are read by the service: the taps' test below)."""
    tokens = (
        [] if "." in number or "~" in number else [f"zg:pick:1:{number}:0", f"zg:pick:1:{number}:s"]
    )
    return [
        *tokens,
        f"zg:act:{number}:1:pass",
        f"zg:act:1:{number}:pass",
        f"zg:undo:{number}:1",
        f"zg:undo:1:{number}",
        f"zg:mine:{number}",
        f"zg:abandon:{number}",
        f"zg:resign:{number}",
        f"zg:rematch:{number}",
        f"zg:rules:tikal:{number}",
        f"zg:play:{number}",
        f"zg:pick:{number}:1:0",
        f"zg:pick:1:1:{number}",
        f"zg:lobby:{number}:join",
        f"zg:lopt:{number}:clock",
    ]


@pytest.mark.parametrize("word", [w for w in HOSTILE if w])
def test_no_button_reads_a_hostile_number_in_its_custom_id(word: str) -> None:
    items: list[Any] = [*DYNAMIC_ITEMS]
    for custom_id in _custom_ids(word):
        matched = [
            item.__name__
            for item in items
            if re.fullmatch(item.__discord_ui_compiled_template__, custom_id)
        ]
        assert matched in ([], [StaleButton.__name__]), (custom_id, matched)


class _Interaction:
    """What :func:`game_of` reads of a component interaction."""

    command = None

    def __init__(self, custom_id: str) -> None:
        self.data = {"custom_id": custom_id, "component_type": 2}


@pytest.mark.parametrize("word", HOSTILE)
def test_the_logged_game_of_a_custom_id_refuses_hostile_numbers(word: str) -> None:
    assert game_of(_Interaction(f"zg:mine:{word}")) is None  # type: ignore[arg-type]
    assert game_of(_Interaction("zg:mine:42")) == 42  # type: ignore[arg-type]
    assert game_of(_Interaction(f"zg:mine:{2**63}")) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("word", HOSTILE)
def test_settings_refuse_hostile_numbers(word: str) -> None:
    for parse in (parse_guild_id, parse_shards, parse_metrics_port):
        with pytest.raises(ValueError):
            parse(word)
    if word.strip() != "1":  # the command line's argument may come with spaces around it
        assert parse_guild(word) is None


@pytest.mark.parametrize("word", [w for w in HOSTILE if "." not in w])  # "1.0": two parts
def test_a_picker_token_with_hostile_numbers_reads_as_no_pick(word: str) -> None:
    table = REGISTRY["tigris"].engine.verbs
    for token in (word, f"3.{word}", f"3.0.red~{word}-3", f"{word}.0"):
        try:
            pending = Pending.decode(token, table)
        except BadToken:
            continue
        # a group is only a word here: the picker checks it against its own groups
        assert pending.group is not None and pending.stamp == "3", token


@pytest.fixture
async def picking(store: Store) -> GameService:
    service = GameService(store, REGISTRY, render=False)
    await open_game(service, "tigris", ALICE, BOB, seed=3)
    return service


async def _mover(service: GameService) -> Any:
    for player in (ALICE, BOB):
        try:
            await service.tapping.tap(CHANNEL, player)
        except Refusal:
            continue
        return player
    raise AssertionError("nobody may act")


async def test_every_tap_with_a_hostile_number_is_refused(picking: GameService) -> None:
    """A chosen option, a group, a verb and a version that are not ASCII numbers are
    answered as a stale or bad pick with a fresh menu, nothing played; ``١`` is not
    read as option 1."""
    player = await _mover(picking)
    menu = (await picking.tapping.tap(CHANNEL, player)).menu
    assert menu is not None
    deeper = menu
    while "." not in deeper.token:  # a menu of a verb's parameter, nothing played yet
        leads = [o for o in deeper.options if not o.plays]
        assert leads, deeper
        answer = await picking.tapping.tap(CHANNEL, player, deeper.token, [leads[0].token])
        assert answer.outcome is None and answer.menu is not None
        deeper = answer.menu
    before = await picking.store.latest_game_in(CHANNEL)
    first = menu.options[0].token
    for word in HOSTILE:
        taps: list[tuple[str, list[str]]] = [
            (menu.token, [word]),
            (deeper.token, [word]),
            (f"{deeper.token}~{word}-3", [first]),
            (f"{deeper.token}~0-{word}", [first]),
            (f"{deeper.token}~{word}", [first]),
        ]
        if "." not in word:  # "1.0" is two parts of a token, not one number
            taps += [(f"{menu.token}.{word}", ["0"]), (f"{word}.0", ["0"])]
        for token, picked in taps:
            answer = await picking.tapping.tap(CHANNEL, player, token, picked)
            assert answer.outcome is None, (token, picked)
            assert [line.key for line in answer.lines] in (
                ["picker.stale_fresh"],
                ["picker.bad_token"],
                ["picker.bad_choice"],
            ), (token, picked, answer.lines)
    after = await picking.store.latest_game_in(CHANNEL)
    assert after == before


async def test_lobby_options_refuse_hostile_numbers(store: Store) -> None:
    service = GameService(store, REGISTRY, render=False)
    for word in ("²", "١", "２", "3 "):
        with pytest.raises(Refusal) as refused:
            await service.lobby.new_game(
                guild_id=GUILD,
                channel_id=CHANNEL,
                user=ALICE,
                game_type_name="tikal",
                options={"absent": word},
            )
        assert refused.value.text.key == "error.bad_option_value"
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="tikal", seed=1
    )
    for word in ("²", "١", "２"):
        with pytest.raises(Refusal) as refused:
            await service.lobby.set_option(CHANNEL, ALICE, "absent", word)
        assert refused.value.text.key == "error.bad_option_value"
    with pytest.raises(ValueError):
        absent_after({"absent": "²"})
    assert absent_after({"absent": "5"}) == 5
