"""The turn shapes through the real discord.py client and the fake Discord: a board per
hand-off with private previews in between, Undo, generated commands of a plugin game, and a
sealed round's tally kept in one message."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t

from .bot_harness import (
    BotHarness,
    action_buttons,
    decode_png,
    labelled,
    open_harness,
    open_picker,
    picker_buttons,
    said,
    start_oracle,
)
from .fake_discord import FakeDiscord, FakeUser, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def ids(message: RecordedMessage, prefix: str) -> list[str]:
    return [cid for cid in message.custom_ids() if cid.startswith(prefix)]


async def start_relay(h: BotHarness, players: list[FakeUser]) -> None:
    creator, *others = players
    await h.slash(creator, "game new relay")
    for user in others:
        await h.slash(user, "game join")
    await h.slash(creator, "game start")


async def test_a_plugin_game_gets_its_generated_command_group(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_relay(h, players)
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    # the test game's verbs are /relay subcommands, with legal-only suggestions
    assert await h.autocomplete(mover, "relay step", "count") == ["1", "2", "3"]
    assert await h.autocomplete(other, "relay step", "count") == []
    stepped = await h.slash(mover, "relay step", count="2")
    assert t("en", "move.accepted", action=said("relay", "step 2")) in h.ephemeral_text(stepped)
    assert await h.autocomplete(mover, "relay step", "count") == ["1", "2"]  # 2 AP left


async def test_a_turn_posts_one_board_at_its_hand_off_and_previews_in_between(
    harness: BotHarness,
) -> None:
    h = harness
    players = [h.alice, h.bob]
    await start_relay(h, players)
    public_at_start = len(h.public_messages())
    [mover] = await h.waiting(players)
    other = next(u for u in players if u is not mover)
    previews = []
    for count in ("1", "1"):
        itx = await h.slash(mover, "relay step", count=count)
        assert h.public_of(itx) == []  # nothing public while the turn goes on
        [preview] = [m for m in itx.messages if m.attachments]
        assert preview.ephemeral and preview.ephemeral_for is mover
        assert preview.attachments[0].filename == "board.png"
        decode_png(preview.attachments[0].data)
        assert t("en", "relay.summary", ap=4 - len(previews) - 1) in preview.text
        previews.append(preview)
    assert len(h.public_messages()) == public_at_start
    # Undo on the last preview takes the step back
    [undo] = ids(previews[-1], "zg:undo:")
    undone = await h.click(mover, previews[-1], undo)
    assert t("en", "move.undone", action=said("relay", "step 1")) in h.ephemeral_text(undone)
    assert h.public_of(undone) == []
    # an outdated Undo button (the game moved on) is refused, and changes nothing
    before = await h.raw_game()
    stale = await h.click(mover, previews[0], ids(previews[0], "zg:undo:")[0])
    assert t("en", "error.stale_button") in h.ephemeral_text(stale)
    assert await h.raw_game() == before
    # End turn (a button on the preview): one public message with every step and the board
    [latest] = [m for m in undone.messages if action_buttons(m)]
    ended = await h.click(mover, latest, action_buttons(latest)["end"])
    [public] = h.public_of(ended)
    stepped = t("en", "relay.event.stepped", seat=mover.name, count=1)
    assert public.text.count(stepped) == 1  # the step taken back is not listed
    assert public.attachments[0].filename == "board.png"
    assert {u.id for u in public.mentions} == {other.id}  # only the newly awaited player
    assert len(h.public_messages()) == public_at_start + 1
    # /game undo after the hand-off is refused, nothing changes
    before = await h.raw_game()
    refused = await h.slash(mover, "game undo")
    assert t("en", "error.nothing_to_undo") in h.ephemeral_text(refused)
    assert await h.raw_game() == before


async def test_a_tigris_turn_posts_one_board_per_hand_off(harness: BotHarness) -> None:
    from .test_bot_tigris import start_tigris

    h = harness
    players = [h.alice, h.bob]
    await start_tigris(h, players)
    rng = random.Random(5)
    public_before = len(h.public_messages())
    for _ in range(3):  # three whole turns
        [mover] = await h.waiting(players)
        for action_number in (1, 2):
            legal = [a for a in await h.legal(mover) if a.startswith(("tile", "leader"))]
            itx = await h.slash(mover, "play", action=rng.choice(legal))
            [now] = await h.waiting(players)
            if now is mover and action_number == 1:
                assert h.public_of(itx) == []  # the first action: a private preview
                assert [a.filename for m in itx.messages for a in m.attachments].count(
                    "board.png"
                ) == 1
        while (await h.waiting(players)) == [mover]:  # a decision left in the turn
            itx = await h.slash(mover, "play", action=(await h.legal(mover))[0])
    public = h.public_messages()[public_before:]
    boards = [m for m in public if any(a.filename == "board.png" for a in m.attachments)]
    assert len(boards) >= 3  # at least one per turn...
    assert len(boards) <= 3 + sum("conflict" in m.text.lower() for m in public)  # ...not per action


async def test_a_sealed_round_keeps_one_tally_message(harness: BotHarness) -> None:
    h = harness
    players = [h.alice, h.bob, h.carol]
    started = await start_oracle(h, *players)
    channel_messages = h.fake.messages_in(h.channel)
    [tally] = [m for m in channel_messages if t("en", "tally.submitted", players="—") in m.text]
    assert not tally.ephemeral
    # Play on the start message opens a player's own picker: their cards, privately
    [start_message] = h.public_of(started)[:1]
    assert not ids(start_message, "zg:mine:")  # no "Your options": Play holds them
    _, picker = await open_picker(h, h.alice, start_message)
    legal = await h.legal(h.alice)
    cards = picker_buttons(picker)
    # the cards as buttons that play, labelled in words
    assert sorted(cards) == sorted(labelled("oracle", card) for card in legal)
    played = await h.click(h.alice, picker, cards[labelled("oracle", legal[0])])
    assert h.public_of(played) == []
    assert t("en", "tally.submitted", players="alice") in h.fake.message(tally.id).text
    await h.slash(h.bob, "play", action=(await h.legal(h.bob))[0])
    updated = h.fake.message(tally.id)
    submitted = t("en", "tally.submitted", players="")
    [line] = [x for x in updated.text.splitlines() if x.startswith(submitted)]
    assert sorted(line[len(submitted) :].split(", ")) == ["alice", "bob"]
    assert t("en", "tally.awaited", players="carol") in updated.text
    # still one tally for the round, in the round's message: edited, never reposted
    counted = t("en", "tally.awaited", players="")
    assert [m.id for m in h.fake.messages_in(h.channel) if counted in m.text] == [tally.id]
    assert tally.id == start_message.id  # the round's message carries its tally
