"""The reminder timer reaches the channel through Discord, pinging only who is awaited.

Rather than wait a real deadline, the test makes the stored reminder due now
(as if the deadline had passed) and wakes the bot's timer task.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.i18n import t

from .bot_harness import WAIT, move, open_harness, start_oracle
from .fake_discord import FakeDiscord


async def test_reminder_is_posted_with_pings(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with open_harness(fake_discord, tmp_path) as h:
        players = [h.alice, h.bob]
        await start_oracle(h, *players)
        first = (await h.waiting(players))[0]
        await move(h, first, (await h.legal(first))[0])
        [awaited] = await h.waiting(players)
        assert h.store is not None
        game_id = await h.game_id()
        [timer] = await h.store.timers(game_id)
        assert timer.kind == "reminder" and timer.due_at > time.time() + 3600

        def reminders() -> list:
            return [m for m in h.public_messages() if m.text.startswith("Reminder:")]

        assert reminders() == []
        await h.store.replace_timers(game_id, "reminder", time.time())
        await h.running.timers.sync()
        await fake_discord.wait_for(lambda: bool(reminders()), timeout=WAIT, what="a reminder")
        [reminder] = reminders()
        assert reminder.source == "channel"  # no interaction: posted by the timer task
        lines = reminder.text.splitlines()
        assert lines[0] == t("en", "reminder.public", players=awaited.name)
        assert lines[-1] == t("en", "game.your_turn", mentions=awaited.mention)
        assert [u.id for u in reminder.mentions] == [awaited.id]
        assert reminder.attachments == []
        [rearmed] = await h.store.timers(game_id)
        assert rearmed.due_at > time.time() + 3600
