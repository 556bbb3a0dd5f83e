"""What a hand-off draws and sends beyond its board, counted, in each game.

A hand-off draws its board and the private view of each seat whose view changed
since its player was last told (``bot.service.announce.private_updates``), and sends
each of those views once, to its owner alone (here players whose DMs are open): not
every seat's view. The images are counted where the bot asks its drawing pool for
them (:mod:`.images_drawn`), what is sent from the fake Discord's records.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from .bot_harness import BotHarness, open_harness
from .fake_discord import FakeDiscord, FakeUser, InteractionResult
from .images_drawn import ImagesDrawn, counting_images, private_images_sent
from .test_bot_temple import start_temple
from .test_bot_tikal import start_tikal

#: the seed of the scripted Tigris & Euphrates game
TIGRIS_SEED = 11


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def start_tigris(h: BotHarness, players: list[FakeUser]) -> None:
    """``players[0]`` opens a Tigris & Euphrates game with a fixed seed, the others join."""
    creator, *others = players
    opened = await h.slash(creator, "game new tigris")
    assert h.public_of(opened), h.ephemeral_text(opened)
    assert h.store is not None
    with sqlite3.connect(h.store.path) as raw:  # the lobby draws a random seed: fix it
        raw.execute("UPDATE games SET seed = ? WHERE id = ?", (TIGRIS_SEED, await h.game_id()))
    for user in others:
        await h.slash(user, "game join")
    started = await h.slash(creator, "game start")
    assert h.public_of(started), h.ephemeral_text(started)


async def played(
    h: BotHarness, drawn: ImagesDrawn, user: FakeUser, action: str
) -> tuple[InteractionResult, ImagesDrawn, list[FakeUser | None]]:
    """``user`` plays ``action``: the interaction, the images it drew (a copy), and
    who got a private image, in order."""
    drawn.clear()
    mark = len(h.fake.messages)
    itx = await h.slash(user, "play", action=action)
    counted = ImagesDrawn()
    counted.jobs = list(drawn.jobs)
    told = [m.dm_recipient or m.ephemeral_for for m in private_images_sent(h.fake, mark)]
    return itx, counted, told


async def test_a_tigris_hand_off_draws_and_sends_the_acting_seats_refilled_hand_only(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tigris(h, players)
    [mover] = await h.waiting(players)
    other = h.bob if mover is h.alice else h.alice
    with counting_images() as drawn:
        first = next(a for a in await h.legal(mover) if a.startswith("tile "))
        step, images, told = await played(h, drawn, mover, first)
        assert h.public_of(step) == []  # the turn goes on
        # the preview's board and the hand with one tile fewer, in the mover's answer
        assert images.by_renderer() == {"render_public": 1, "render_private": 1}
        assert told == [mover]
        assert step.response is not None and step.response.ephemeral
        second = next(a for a in await h.legal(mover) if a.startswith("tile "))
        dms = {user: len(h.fake.dms_to(user)) for user in players}  # their starting hands
        handoff, images, told = await played(h, drawn, mover, second)
    assert h.public_of(handoff)  # the turn ended: the public message
    assert await h.waiting(players) == [other]
    # the board, and the mover's hand refilled; the other seat's view did not change
    assert images.by_renderer() == {"render_public": 1, "render_private": 1}
    assert told == [mover]
    [dm] = h.fake.dms_to(mover)[dms[mover] :]
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    assert h.fake.dms_to(other)[dms[other] :] == []


async def test_a_tikal_hand_off_draws_its_board_only(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tikal(h, players)
    [mover] = await h.waiting(players)
    with counting_images() as drawn:
        for _ in range(40):  # a turn's steps, then its end
            legal = await h.legal(mover)
            action = "end" if "end" in legal else legal[0]
            itx, images, told = await played(h, drawn, mover, action)
            if h.public_of(itx):
                break
        else:
            pytest.fail("no hand-off in 40 steps")
    assert images.by_renderer() == {"render_public": 1}
    assert told == []
    assert all(h.fake.dms_to(user) == [] for user in players)  # Tikal has no private view


async def test_a_temple_rush_reveal_draws_its_board_only(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_temple(h, players, seed=3)
    first, last = await h.waiting(players)
    dms = {user: len(h.fake.dms_to(user)) for user in players}
    with counting_images() as drawn:
        sealed, images, told = await played(h, drawn, first, "pass")
        assert h.public_of(sealed) == []  # the round waits for the other seat
        # a sealed submission's answer shows its author's own view
        assert images.by_renderer() == {"render_private": 1}
        assert told == [first]
        reveal, images, told = await played(h, drawn, last, "pass")
    assert h.public_of(reveal)  # the round revealed
    # no seat's private view changed with the reveal: its board alone, no DM
    assert images.by_renderer() == {"render_public": 1}
    assert told == []
    assert all(h.fake.dms_to(user)[dms[user] :] == [] for user in players)
