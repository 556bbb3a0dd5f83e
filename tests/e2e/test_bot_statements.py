"""What a tapped interaction sends to the database, through the real bot against the fake
Discord, on both backends: a step reads nothing its game's load carried (the moves since
the last public message, a sealed round's deadline), and what the players are told is
still what was stored, a closed-DM player's view included."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, start_oracle
from .fake_discord import FakeDiscord, FakeUser
from .test_bot_shapes import start_relay

#: a read of the moves since a seq (:meth:`bot.store.Store.moves`), of a game's timers
#: (:meth:`bot.store.Store.timers`) and a game's load, as traced
MOVES_READ = "SELECT seq, seat, action,"
TIMERS_READ = "SELECT * FROM timers"
GAME_LOAD = "SELECT id, guild_id, channel_id,"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Both databases (the store's ``database_url`` reads it)."""
    return str(request.param)


@pytest.fixture
async def harness(fake_discord: FakeDiscord, database_url: str) -> AsyncIterator[BotHarness]:
    opened = BotHarness(fake_discord, database_url)
    await opened.start()
    try:
        yield opened
    finally:
        await opened.stop()


async def traced(h: BotHarness, user: FakeUser, command: str, **options: str) -> Counter[str]:
    """Run ``user``'s slash command; the statements it sent, by their first words."""
    assert h.store is not None
    sent: list[str] = []
    await h.store.trace(sent.append)
    itx = await h.slash(user, command, **options)
    await h.store.trace(None)
    assert not itx.rejected, h.ephemeral_text(itx)
    return Counter(" ".join(part.split()[:4]) for text in sent for part in text.split(";\n"))


async def test_a_sealed_round_reads_what_its_load_carried_only_once(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]  # carol's DMs are closed
    await start_oracle(h, *players)
    for user in players:
        card = (await h.legal(user))[-1]
        about = await traced(h, user, "play", action=card)
        assert about[GAME_LOAD] <= 1, about  # none when this process keeps the game
        assert about[MOVES_READ] == 0, about
        assert about[TIMERS_READ] == 0, about
    reveal = h.public_messages()[-1]
    # the round's hidden plays, read with the last one's load, are told in the reveal;
    # what each played stays its own
    for user in players:
        assert t("en", "oracle.event.played", seat=user.name) in reveal.text
    assert "You played your" not in reveal.text
    # carol's hand reaches her as an ephemeral follow-up, not a DM
    assert not h.fake.dms_to(h.carol)
    for user in (h.alice, h.bob):
        assert h.fake.dms_to(user)


async def test_a_hand_off_lists_the_turns_steps_without_reading_them_again(
    harness: BotHarness,
) -> None:
    h = harness
    await start_relay(h, [h.alice, h.bob])
    [mover] = await h.waiting([h.alice, h.bob])
    steps = 0
    for _ in range(8):  # steps of 1 until the turn is handed off
        before = len(h.public_messages())
        about = await traced(h, mover, "relay step", count="1")
        # one load at most: none when this process keeps the game (bot.store.kept)
        assert about[GAME_LOAD] <= 1 and about[MOVES_READ] == 0, about
        steps += 1
        if len(h.public_messages()) > before:
            break
    handoff = h.public_messages()[-1]
    stepped = t("en", "relay.event.stepped", seat=mover.name, count=1)
    assert handoff.text.count(stepped) == steps, handoff.text
