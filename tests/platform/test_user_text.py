"""What a caller passes in: the same answer on both backends, never an internal error.

* A display name with NUL or other control characters is cleaned before it
  is shown or stored (PostgreSQL cannot hold NUL, SQLite can): both backends
  store exactly the same name, through ``/game new``, ``join``, ``replace``
  and a rematch; a name left empty gets the catalog's fallback.
* An id the store cannot hold (outside the signed 64-bit range) is refused as
  stale by every command, as the adapter refuses such a custom_id: never an
  ``OverflowError`` from the driver.

Every test of the service runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import GameService, Player, Refusal
from bot.service.context import _admitted_value
from bot.service.names import MAX_NAME, clean_name, seat_name
from bot.store import Store
from tests.conftest import ALICE, BOB, BOTH_BACKENDS, CAROL, CHANNEL, GUILD
from tests.support.seated import channel_row

HOSTILE_NAME = "Al\x00ice\x07\x1b[31m\x7f\x9b\t\n"
CLEAN = "Alice[31m"


def test_a_name_is_cleaned_the_same_way_everywhere() -> None:
    assert clean_name(HOSTILE_NAME) == CLEAN
    assert clean_name("  Bob \u200d🙂 ") == "Bob \u200d🙂"  # a format character stays
    assert clean_name("\ud800x") == "x"  # a lone surrogate is no text
    assert clean_name("x" * 500) == "x" * MAX_NAME
    assert seat_name("\x00\x01 \x02", 1234567, "en") == "Player 4567"
    assert seat_name("\x00", 5, "zh") == "玩家 0005"


async def _names(store: Store) -> list[str]:
    row = await channel_row(store)
    return sorted(s.display_name for s in row.seats)


@BOTH_BACKENDS
async def test_control_characters_in_names_are_stored_cleaned(
    service: GameService, store: Store
) -> None:
    nul_alice = Player(ALICE.id, HOSTILE_NAME)
    opened = await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=nul_alice, game_type_name="relay", seed=3
    )
    assert "\x00" not in opened.news.lines[0].render("en")
    await service.lobby.join(CHANNEL, Player(BOB.id, "B\x00ob"))
    assert await _names(store) == sorted([CLEAN, "Bob"])
    await service.lobby.start(CHANNEL, nul_alice)
    replaced = await service.seats.replace(
        CHANNEL, nul_alice, BOB.id, Player(CAROL.id, "\x00\x00"), can_manage_channel=False
    )
    assert "\x00" not in replaced.news.lines[0].render("en")
    assert await _names(store) == sorted([CLEAN, "Player 0103"])
    await service.lobby.abandon(CHANNEL, nul_alice, can_manage_channel=False, confirmed=True)


@BOTH_BACKENDS
async def test_a_rematch_stores_cleaned_names(service: GameService, store: Store) -> None:
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=3
    )
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.start(CHANNEL, ALICE)
    row = await channel_row(store)
    await store.set_status(row, "finished")  # over, as far as a rematch cares
    await service.after.rematch(CHANNEL, Player(ALICE.id, "\x00Ali\x00ce\x00"), row.id)
    assert await _names(store) == ["Alice", "Bob"]


#: an integer every backend refuses to hold, each side of the range
OUT_OF_RANGE = (2**63, -(2**63) - 1, 10**30)


def _calls(service: GameService, big: int) -> list[tuple[str, Callable[[], Awaitable[Any]]]]:
    """Every command, each with ``big`` where it takes an id (or a number it stores)."""
    far = Player(big, "Far")
    return [
        ("rematch", lambda: service.after.rematch(CHANNEL, ALICE, big)),
        ("rematch channel", lambda: service.after.rematch(big, ALICE, 1)),
        (
            "new channel",
            lambda: service.lobby.new_game(
                guild_id=GUILD, channel_id=big, user=ALICE, game_type_name="relay"
            ),
        ),
        (
            "new guild",
            lambda: service.lobby.new_game(
                guild_id=big, channel_id=CHANNEL, user=ALICE, game_type_name="relay"
            ),
        ),
        (
            "new user",
            lambda: service.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL, user=far, game_type_name="relay"
            ),
        ),
        (
            "new seed",
            lambda: service.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=big
            ),
        ),
        ("join", lambda: service.lobby.join(CHANNEL, far)),
        ("join game", lambda: service.lobby.join(CHANNEL, BOB, expected_game=big)),
        ("start game", lambda: service.lobby.start(CHANNEL, ALICE, expected_game=big)),
        ("act game", lambda: service.play.act(CHANNEL, ALICE, "end", expected_game=big)),
        ("act version", lambda: service.play.act(CHANNEL, ALICE, "end", expected_version=big)),
        ("act channel", lambda: service.play.act(big, ALICE, "end")),
        ("undo version", lambda: service.play.undo(CHANNEL, ALICE, expected_version=big)),
        ("tap user", lambda: service.tapping.tap(CHANNEL, far)),
        ("tap game", lambda: service.tapping.tap(CHANNEL, ALICE, game_id=big)),
        (
            "press version",
            lambda: service.tapping.press(CHANNEL, ALICE, "end", game_id=1, version=big),
        ),
        ("status", lambda: service.reading.status(big)),
        ("log", lambda: service.reading.log_lines(big)),
        ("hand", lambda: service.reading.hand(CHANNEL, far)),
        (
            "replace old",
            lambda: service.seats.replace(CHANNEL, ALICE, big, CAROL, can_manage_channel=True),
        ),
        (
            "replace new",
            lambda: service.seats.replace(CHANNEL, ALICE, BOB.id, far, can_manage_channel=True),
        ),
        (
            "replace seat",
            lambda: service.seats.replace(
                CHANNEL, ALICE, None, CAROL, can_manage_channel=True, seat_number=big
            ),
        ),
        (
            "resign game",
            lambda: service.seats.resign(CHANNEL, ALICE, confirmed=True, expected_game=big),
        ),
        (
            "abandon game",
            lambda: service.lobby.abandon(
                CHANNEL, ALICE, can_manage_channel=True, confirmed=True, expected_game=big
            ),
        ),
        ("message", lambda: service.memory.message(big, "lobby")),
        ("remember message", lambda: service.memory.remember_message(1, "lobby", CHANNEL, big)),
        ("dms closed", lambda: service.memory.dms_closed(big)),
        ("mark dms", lambda: service.memory.mark_dms_closed(big)),
        ("note dm", lambda: service.memory.note_dm_announcement(ALICE.id, big)),
        ("notify", lambda: service.seats.notify(far, "dm")),
        ("notify choices", lambda: service.seats.notify_choices([ALICE.id, big])),
        ("stats", lambda: service.after.stats(big)),
        ("stats member", lambda: service.after.stats(GUILD, far)),
        ("export", lambda: service.after.export(big)),
    ]


@BOTH_BACKENDS
@pytest.mark.parametrize("big", OUT_OF_RANGE)
async def test_ids_the_store_cannot_hold_are_stale_everywhere(
    service: GameService, store: Store, big: int
) -> None:
    await service.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user=ALICE, game_type_name="relay", seed=3
    )
    await service.lobby.join(CHANNEL, BOB)
    await service.lobby.start(CHANNEL, ALICE)
    before = await store.raw_game((await channel_row(store)).id)
    for name, call in _calls(service, big):
        with pytest.raises(Refusal) as refused:
            await call()
        assert refused.value.text.key == "error.stale_button", name
    assert await store.raw_game((await channel_row(store)).id) == before


def test_the_gate_checks_every_int_and_container_whatever_it_has_seen_before() -> None:
    """The gate passes a type it has seen hold nothing to check at once, and checks an
    int of any class (a subclass too) and a container's items each time."""

    class Numbered(int):
        pass

    class Plain:
        pass

    anything = Plain()
    for _ in range(2):  # the second time, with every type seen once
        assert _admitted_value(anything) is anything
        assert _admitted_value(Numbered(5)) == 5
        assert _admitted_value(True) is True
        for refused in (Numbered(2**63), [1, 2**63], (Numbered(-(2**63) - 1),), {10**30}):
            with pytest.raises(Refusal):
                _admitted_value(refused)
    assert _admitted_value(Player(5, "\x00Ann")) == Player(5, "Ann")
