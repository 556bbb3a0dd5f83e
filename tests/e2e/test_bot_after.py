"""After the game, through the real bot and the fake Discord: the final message's Rematch
button, ``/game export`` (its files replay to the very boards posted) and ``/stats``."""

from __future__ import annotations

import io
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.__main__ import main
from bot.i18n import t
from bot.service.after import EXPORT_BUDGET

from .bot_harness import BotHarness, decode_png, open_harness, play_to_end, start_oracle
from .fake_discord import FakeDiscord, RecordedMessage


@pytest.fixture
async def harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with open_harness(fake_discord, tmp_path) as opened:
        yield opened


def posted_boards(h: BotHarness) -> list[bytes]:
    """Every board the bot posted in the channel, in order."""
    return [a.data for m in h.public_messages() for a in m.attachments if a.filename == "board.png"]


def rematch_message(h: BotHarness, game_id: int) -> RecordedMessage:
    return next(m for m in h.public_messages() if f"zg:rematch:{game_id}" in m.custom_ids())


async def test_a_finished_game_exports_rematches_and_counts(
    harness: BotHarness, tmp_path: Path
) -> None:
    h = harness
    assert h.store is not None
    await start_oracle(h, h.alice, h.bob, h.carol)
    await play_to_end(h, [h.alice, h.bob, h.carol], random.Random(4), stop_after=3)
    running = await h.slash(h.mallory, "game export")
    assert t("en", "after.error.export_running") in h.ephemeral_text(running)
    await play_to_end(h, [h.alice, h.bob, h.carol], random.Random(5))
    game_id = await h.game_id()
    old = await h.store.get_game(game_id)
    assert old is not None and old.status == "finished"

    # the final message: the ranking, explained, and one Rematch button
    final = rematch_message(h, game_id)
    assert t("en", "game.over") in final.text
    for seat in old.seats:
        assert f"{seat.place}. {seat.display_name} — {seat.score} (" in final.text
    assert final.custom_ids() == [f"zg:rematch:{game_id}"]
    assert final.attachments and final.attachments[0].filename == "board.png"
    boards = posted_boards(h)
    assert boards[-1] == final.attachments[0].data

    # /game export: ephemeral, both files, under Discord's limit; anyone may ask
    exported = await h.slash(h.mallory, "game export")
    assert exported.deferred and exported.ephemeral and h.public_of(exported) == []
    [answer] = [m for m in exported.messages if m.attachments]
    assert answer.ephemeral_for is h.mallory
    record, gif = answer.attachments
    assert record.filename == f"ziggurat-oracle-{game_id}.json"
    assert gif.filename == f"ziggurat-oracle-{game_id}.gif"
    assert record.size + gif.size <= EXPORT_BUDGET
    doc = json.loads(record.data)
    assert doc["game"] == "oracle" and doc["seed"] == old.seed
    assert [s["name"] for s in doc["seats"]] == [s.display_name for s in old.seats]
    assert str(h.alice.id) not in record.data.decode()  # names, never user ids
    # the record replays offline to exactly the boards the bot posted
    path = tmp_path / record.filename
    path.write_bytes(record.data)
    out = tmp_path / "replayed"
    assert main(["replay", str(path), "--out", str(out)]) == 0
    assert [p.read_bytes() for p in sorted(out.glob("board-*.png"))] == boards
    # the animation shows them: the first and the last, pixel for pixel
    animation = Image.open(io.BytesIO(gif.data))
    for index, board in ((0, boards[0]), (animation.n_frames - 1, boards[-1])):  # type: ignore[attr-defined]
        animation.seek(index)
        expected = decode_png(board).convert("RGB")
        frame = animation.convert("RGB").crop((0, 0, *expected.size))
        assert ImageChops.difference(frame, expected).getbbox() is None

    # Rematch: not for outsiders
    refused = await h.click(h.mallory, final, f"zg:rematch:{game_id}")
    assert t("en", "after.error.rematch_not_player") in h.ephemeral_text(refused)
    assert await h.store.open_game_in(h.channel.id) is None
    # a player's click opens and starts it at once: same players, seats moved round by one
    started = await h.click(h.bob, final, f"zg:rematch:{game_id}")
    public = h.public_of(started)[0]  # (then the notice that carol's DMs are closed)
    assert t("en", "after.rematch_started", player="bob") in public.text
    assert t("en", "lobby.started", game=t("en", "oracle.title")) in public.text
    assert {u.id for u in public.mentions} == {h.alice.id, h.bob.id, h.carol.id}
    new = await h.store.open_game_in(h.channel.id)
    assert new is not None and new.status == "running"
    assert [s.user_id for s in new.seats] == [s.user_id for s in old.seats[1:] + old.seats[:1]]
    assert new.options == old.options and new.seed != old.seed
    again = await h.click(h.carol, final, f"zg:rematch:{game_id}")
    assert t("en", "after.error.rematch_busy") in h.ephemeral_text(again)
    # while the rematch runs, the finished game is still the one exported
    during = await h.slash(h.alice, "game export")
    [answer] = [m for m in during.messages if m.attachments]
    assert answer.attachments[0].data == record.data

    # /stats: the finished game once; the abandoned rematch never
    asked = await h.slash(h.bob, "game abandon")  # who asked for the rematch created it
    [confirm] = [m for m in asked.messages if m.custom_ids()]
    await h.click(h.bob, confirm, confirm.custom_ids()[0])
    assert (await h.store.latest_game_in(h.channel.id)).status == "abandoned"  # type: ignore[union-attr]
    stats = await h.slash(h.mallory, "stats")
    text = h.ephemeral_text(stats)
    assert t("en", "after.stats.game", game=t("en", "oracle.title"), count=1) in text
    for seat in old.seats:
        assert f"{seat.display_name}: 1 played, {int(seat.place == 1)} won" in text
    assert stats.ephemeral and h.public_of(stats) == []
    bob = h.ephemeral_text(await h.slash(h.alice, "stats", member=h.bob))
    assert t("en", "after.stats.member_header", player="bob") in bob
    place = float(next(s.place for s in old.seats if s.user_id == h.bob.id) or 0)
    assert f"1 played, {int(place == 1)} won, average place {place:.1f}" in bob
    nobody = h.ephemeral_text(await h.slash(h.alice, "stats", member=h.mallory))
    assert t("en", "after.stats.member_none", player="mallory") in nobody

    # after a restart: the same numbers, and the old button still works
    await h.restart()
    assert h.ephemeral_text(await h.slash(h.mallory, "stats")) == text
    restarted = await h.click(h.alice, final, f"zg:rematch:{game_id}")
    assert t("en", "after.rematch_started", player="alice") in h.public_of(restarted)[0].text


async def test_export_and_stats_are_registered_within_discord_limits(harness: BotHarness) -> None:
    fake = harness.fake
    registered = {c["name"]: c for c in fake.guild_commands[harness.guild.id]}
    stats = registered["stats"]
    assert stats["description"] == t("en", "cmd.stats.description")
    [member] = stats["options"]
    assert (member["name"], member["type"], member.get("required", False)) == ("member", 6, False)
    game = {o["name"]: o for o in registered["game"]["options"]}
    assert game["export"]["description"] == t("en", "cmd.game.export.description")
    localized = game["export"].get("description_localizations") or {}
    assert localized.get("zh-CN") == t("zh", "cmd.game.export.description")
    assert localized.get("ko") == t("ko", "cmd.game.export.description")
    for text in (stats["description"], member["description"], game["export"]["description"]):
        assert 0 < len(text) <= 100
    # nothing to export yet
    itx = await harness.slash(harness.alice, "game export")
    assert t("en", "error.no_game") in harness.ephemeral_text(itx)
    assert t("en", "after.stats.none") in harness.ephemeral_text(
        await harness.slash(harness.alice, "stats")
    )
