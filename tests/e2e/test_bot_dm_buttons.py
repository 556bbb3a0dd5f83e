"""The "your turn" DM carries the game's buttons, and a click there plays in the game.

One process (it owns every game): a player who asked for DM notifications gets
"It is your turn in #channel" with the decision's buttons; clicking one plays
the move in the game's channel, answers in the DM and announces the step in the
channel, never in the DM. A second click on the same (now stale) button changes
nothing. (The hand-over to another process is ``test_bot_cluster.py``.)
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t

from .bot_harness import action_buttons, move, open_harness, said, start_oracle
from .fake_discord import FakeDiscord


async def test_a_decision_clicked_in_the_your_turn_dm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with open_harness(fake_discord, tmp_path) as h:
        players = [h.alice, h.bob]
        for user in players:
            await h.slash(user, "game notify", how="dm")
        await start_oracle(h, *players)
        for user in await h.waiting(players):
            dms = {u.id: len(fake_discord.dms_to(u)) for u in players}
            await move(h, user, (await h.legal(user))[-1])
        [winner] = await h.waiting(players)
        # the reveal: one DM each (their private view), the winner's led by "your turn"
        news = t("en", "hand.news", game=t("en", "oracle.title"))
        turn = t("en", "notify.your_turn_dm", channel=f"<#{h.channel.id}>")
        for user in players:
            [dm] = fake_discord.dms_to(user)[dms[user.id] :]
            assert news in dm.text and [a.filename for a in dm.attachments] == ["hand.png"]
            assert dm.text.startswith(turn) == (user is winner) == bool(action_buttons(dm))
        assert h.store is not None
        before = await h.store.latest_game_in(h.channel.id)
        assert before is not None
        note = [m for m in fake_discord.dms_to(winner) if m.text.startswith(turn)][-1]
        buttons = action_buttons(note)
        assert sorted(buttons) == ["claim", "gift"]
        public_before = len(h.public_messages())

        itx = await h.click(winner, note, buttons["claim"])
        assert itx.response is not None and itx.response.ephemeral
        assert said("oracle", "claim") in itx.response.text
        after = await h.store.latest_game_in(h.channel.id)
        assert after is not None and after.version > before.version
        moves = [m.action for m in await h.store.moves(after.id)]
        assert moves.count("claim") == 1
        announced = h.public_messages()[public_before:]
        assert any("scores a point" in m.text for m in announced)
        assert not any(
            m.is_dm and not m.ephemeral and m.interaction is itx for m in h.fake.messages
        )

        again = await h.click(winner, note, buttons["claim"])  # the same button, now stale
        assert again.response is not None
        assert t("en", "error.stale_button") in again.response.text
        final = await h.store.latest_game_in(h.channel.id)
        assert final is not None and final.version == after.version
