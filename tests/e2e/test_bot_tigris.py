"""Tigris & Euphrates through the bot: one complete game, and the ``/tigris`` commands."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import BotHarness, decode_png, open_harness, play_to_end, said
from .fake_discord import FakeDiscord, FakeUser


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


async def start_tigris(h: BotHarness, players: list[FakeUser], scoring: str = "open") -> None:
    creator, *others = players
    itx = await h.slash(creator, "game new tigris", scoring=scoring)
    assert "Tigris & Euphrates" in h.public_of(itx)[0].text
    for user in others:
        await h.slash(user, "game join")
    itx = await h.slash(creator, "game start")
    assert "The game of Tigris & Euphrates has started." in h.public_of(itx)[0].text


@pytest.mark.slow
async def test_one_complete_game_with_random_legal_moves(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]
    await start_tigris(h, players)
    moves = await play_to_end(h, players, random.Random(2024), prefer_buttons=False)
    assert await h.waiting(players) == []
    final = h.public_messages()[-1]
    assert "The game is over. Final ranking:" in final.text
    ranked = [line.split(" — ")[0] for line in final.text.splitlines() if line[:1].isdigit()]
    assert sorted(name.split(". ", 1)[1] for name in ranked) == sorted(u.name for u in players)
    decode_png(final.attachments[0].data)
    assert h.store is not None
    row = await h.store.latest_game_in(h.channel.id)
    assert row is not None and row.status == "finished"
    assert len(await h.store.moves(row.id)) == moves
    for message in h.public_messages():
        assert all(a.filename == "board.png" for a in message.attachments)
        assert len(message.content) <= 2000


async def test_tigris_commands_offer_only_legal_choices(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_tigris(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    legal = await h.legal(mover)
    tiles = [a.split() for a in legal if a.startswith("tile ")]
    colours = await h.autocomplete(mover, "tigris tile", "colour")
    assert colours and set(colours) == {words[1] for words in tiles}
    colour = colours[0]
    squares = await h.autocomplete(mover, "tigris tile", "square", colour=colour)
    legal_squares = [w[2] for w in tiles if w[1] == colour]
    assert squares == legal_squares[:25]
    narrowed = await h.autocomplete(mover, "tigris tile", "square", squares[0], colour=colour)
    assert squares[0] in narrowed and set(narrowed) <= set(legal_squares)
    # the player who is not to move is offered nothing
    assert await h.autocomplete(other, "tigris tile", "colour") == []
    assert await h.autocomplete(other, "play", "action") == []
    # /play suggests the same moves
    suggested = await h.autocomplete(mover, "play", "action", f"tile {colour}")
    assert suggested and all(s in legal for s in suggested)

    before = await h.raw_game()
    wrong = await h.slash(other, "tigris tile", colour=colour, square=squares[0])
    assert "It is not your turn" in h.ephemeral_text(wrong)
    assert await h.raw_game() == before

    played = await h.slash(mover, "tigris tile", colour=colour, square=squares[0])
    action = f"tile {colour} {squares[0]}"
    assert t("en", "move.accepted", action=said("tigris", action)) in h.ephemeral_text(played)
    # the first action of a turn: a preview for the mover alone, with Undo; nothing public
    assert h.public_of(played) == []
    files = {a.filename: m for m in played.messages if m.ephemeral for a in m.attachments}
    assert set(files) == {"board.png", "hand.png"}  # the preview, and the mover's new hand
    assert any(cid.startswith("zg:undo:") for cid in files["board.png"].custom_ids())
    # in one message, the interaction's own response: no follow-up for the hand
    assert files["board.png"] is files["hand.png"] is played.response
    assert played.followups == []
    assert "Your hand (" in played.response.text
    assert (await h.store.moves(await h.game_id()))[-1].action == action  # type: ignore[union-attr]

    leaders = await h.autocomplete(mover, "tigris leader", "leader")
    assert leaders and all(w in ("king", "priest", "farmer", "trader") for w in leaders)
    assert await h.autocomplete(mover, "tigris withdraw", "leader") == []  # none on the board
    swaps = await h.autocomplete(mover, "tigris swap", "tiles")
    legal = await h.legal(mover)
    assert swaps and all(f"swap {s}" in legal for s in swaps)
