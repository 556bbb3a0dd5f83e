"""Delivery details the fake Discord cannot observe: what may be pinged, message splitting."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import rest
from bot.discord.delivery import Delivery
from bot.discord.messages import MAX_CONTENT, split_content
from bot.i18n import Text
from bot.service import News, Outcome


class Sent:
    """A ``send`` callable (:class:`~bot.discord.delivery.Send`) recording its arguments."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def __call__(
        self, content: str, allowed_mentions: discord.AllowedMentions, **kwargs: Any
    ) -> rest.Sent:
        self.calls.append({"content": content, "allowed_mentions": allowed_mentions, **kwargs})
        return rest.Sent(len(self.calls), 1)


async def post(outcome: Outcome) -> list[dict[str, Any]]:
    sent = Sent()
    delivery = Delivery(client=None, service=None)  # type: ignore[arg-type]
    assert await delivery.post_public(sent, outcome, "en")
    return sent.calls


async def test_only_the_pinged_users_may_be_mentioned() -> None:
    outcome = Outcome(
        news=News(
            [Text("move.played", {"seat": "@everyone <@&42> <@999>", "action": "x"})],
            ping=[101, 102],
            board=b"\x89PNG fake",
        )
    )
    [call] = await post(outcome)
    mentions = call["allowed_mentions"].to_dict()
    assert mentions["parse"] == []  # no @everyone, no roles, no users by parsing
    assert sorted(int(u) for u in mentions["users"]) == [101, 102]
    assert call["content"].splitlines()[-1] == "Your turn: <@101> <@102>"
    assert call["file"].filename == "board.png"


async def test_no_ping_line_without_pings() -> None:
    [call] = await post(Outcome(news=News([Text("game.over")])))
    assert call["content"] == "The game is over. Final ranking:"
    assert call["allowed_mentions"].to_dict()["parse"] == []
    assert not call["allowed_mentions"].to_dict().get("users")
    assert "file" not in call and "view" not in call


async def test_long_public_text_is_split_with_the_image_last() -> None:
    lines = [Text("move.played", {"seat": "p" * 90, "action": str(i)}) for i in range(60)]
    calls = await post(Outcome(news=News(lines, ping=[7], board=b"\x89PNG fake")))
    assert len(calls) > 1
    assert all(len(c["content"]) <= MAX_CONTENT for c in calls)
    assert [("file" in c) for c in calls] == [False] * (len(calls) - 1) + [True]
    assert calls[-1]["content"].endswith("<@7>")
    joined = "\n".join(c["content"] for c in calls)
    assert joined.count("played") == 60


def test_split_content() -> None:
    assert split_content("") == [""]
    assert split_content("a\nb", limit=3) == ["a\nb"]
    assert split_content("a\nb\nc", limit=3) == ["a\nb", "c"]
    assert split_content("x" * 7, limit=3) == ["xxx", "xxx", "x"]
    assert all(len(p) <= 5 for p in split_content("ab\n" + "y" * 12 + "\ncd", limit=5))
