"""Quick decisions as buttons (Oracle's claim/gift), across a bot restart."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import (
    BotHarness,
    action_buttons,
    click_as_posted,
    labelled,
    last_buttons,
    move,
    open_harness,
    start_oracle,
)
from .fake_discord import FakeDiscord, FakeUser, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def to_decision(h: BotHarness, players: list[FakeUser]) -> tuple[FakeUser, RecordedMessage]:
    """Everyone plays a card; return the round's winner and the message with the buttons."""
    for user in players:
        legal = await h.legal(user)
        await move(h, user, legal[0])
    [chooser] = await h.waiting(players)
    message = last_buttons(h)
    assert message is not None
    return chooser, message


async def test_claim_and_gift_are_buttons_that_play(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    chooser, message = await to_decision(h, players)
    buttons = action_buttons(message)
    assert set(buttons) == {"claim", "gift"}
    assert all(len(cid) <= 100 for cid in buttons.values())
    labels = {
        c.get("custom_id"): c["label"] for c in message.walk_components() if c.get("type") == 2
    }
    for action, custom_id in buttons.items():  # each decision labelled in the game's words
        assert labels.pop(custom_id) == labelled("oracle", action)
    assert list(labels.values()) == [t("en", "picker.play_button")]  # and the picker
    assert {u.id for u in message.mentions} == {chooser.id}  # only the chooser is pinged

    other = next(u for u in players if u is not chooser)
    before = await h.raw_game()
    refused = await h.click(other, message, buttons["claim"])
    assert refused.ephemeral and h.public_of(refused) == []
    assert "It is not your turn" in h.ephemeral_text(refused)
    outsider = await h.click(h.mallory, message, buttons["claim"])
    assert t("en", "error.not_in_game") in h.ephemeral_text(outsider)
    assert await h.raw_game() == before

    clicked = await h.click(chooser, message, buttons["claim"])
    [public] = h.public_of(clicked)
    # the decision reads the same in public: its message answers the click
    assert h.answered_publicly(clicked) is public and h.ephemeral_text(clicked) == ""
    assert f"{chooser.name} scores a point." in public.text

    # the decision is over: its buttons are gone from the message, and a client that
    # still shows them is answered that they no longer apply, changing nothing
    after = await h.raw_game()
    assert not action_buttons(h.fake.message(message.id))
    stale = await click_as_posted(h, chooser, message, buttons["gift"])
    assert t("en", "error.stale_button") in h.ephemeral_text(stale)
    assert await h.raw_game() == after


async def test_buttons_survive_a_restart(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_oracle(h, *players)
    chooser, message = await to_decision(h, players)
    first_bot = h.running
    await h.restart()
    assert h.running is not first_bot and h.starts == 2

    clicked = await h.click(chooser, message, action_buttons(message)["gift"])
    [public] = h.public_of(clicked)
    assert h.answered_publicly(clicked) is public
    receiver = next(u for u in players if u is not chooser)
    assert f"{receiver.name} scores a point." in public.text


async def test_unknown_button_is_answered(harness: BotHarness) -> None:
    """A ``zg:`` button of an unknown layout gets an answer, not silence."""
    h = harness
    await start_oracle(h, h.alice, h.bob)
    chooser, message = await to_decision(h, [h.alice, h.bob])
    # an older layout of the same button: no version field
    legacy = message.components[0]["components"][0]
    legacy["custom_id"] = f"zg:act:{await h.game_id()}:claim"
    itx = await h.click(chooser, message, legacy["custom_id"])
    assert t("en", "error.stale_button") in h.ephemeral_text(itx)


#: past SQLite's signed 64-bit range (2**63), at its very end, and far past it
FORGED_NUMBERS = ("9223372036854775808", "9223372036854775807", "1" + "0" * 40)


@pytest.mark.parametrize("number", FORGED_NUMBERS)
async def test_forged_ids_are_stale_buttons_for_every_kind(
    harness: BotHarness, number: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Every button kind with a game id or version out of the store's integer range is
    answered as a stale button: no "something went wrong", no traceback, nothing stored."""
    h = harness
    await start_oracle(h, h.alice, h.bob)
    chooser, message = await to_decision(h, [h.alice, h.bob])
    game = await h.game_id()
    before = await h.raw_game()
    forged = [
        *(f"zg:{verb}:{number}" for verb in ("rematch", "mine", "abandon", "resign")),
        f"zg:act:{number}:1:claim",
        f"zg:act:{game}:{number}:claim",
        f"zg:undo:{number}:1",
        f"zg:undo:{game}:{number}",
    ]
    button = message.components[0]["components"][0]  # a forged copy of a real button
    for custom_id in forged:
        button["custom_id"] = custom_id
        caplog.clear()
        itx = await h.click(chooser, message, custom_id)
        assert h.ephemeral_text(itx) == t("en", "error.stale_button"), custom_id
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], custom_id
    assert await h.raw_game() == before
