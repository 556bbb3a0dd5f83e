"""What the adapter must remember about reaching people: closed DMs, kept messages.

Decisions:

* A user whose DMs refused a message is remembered (the adapter then shows
  their private view ephemerally); the refusal ages, so a DM is tried again
  later — people do reopen their DMs — and a delivered DM forgets it.
* Each game's channel is told once that a player's DMs are closed.
* A message the adapter keeps up to date (a round's tally, the game's newest
  hand-off message with its buttons, an interim message to replace) is
  remembered by game and kind in the store, so an edit finds it after a
  restart and in every process of a cluster.
"""

from __future__ import annotations

from bot.service.context import Context


class Reach:
    """DM reachability and kept messages; the adapter's memory, through the service."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        """Whether the user's DMs are known closed (a refusal older than ``retry_after``
        seconds no longer counts, so a DM is tried again)."""
        return await self.ctx.store.dms_closed(user_id, retry_after)

    async def mark_dms_closed(self, user_id: int) -> None:
        await self.ctx.store.mark_dms_closed(user_id)

    async def mark_dms_open(self, user_id: int) -> None:
        await self.ctx.store.mark_dms_open(user_id)

    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:
        """True the first time the game's channel is to be told about closed DMs."""
        return await self.ctx.store.note_dm_announcement(user_id, game_id)

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, content: str | None = None
    ) -> None:
        """Keep a game's message of this kind, with the text it is edited from."""
        await self.ctx.store.set_message(game_id, kind, channel_id, message_id, content)

    async def message_content(self, game_id: int, kind: str) -> str | None:
        """The text kept with a game's kept message of this kind (see above)."""
        return await self.ctx.store.message_content(game_id, kind)

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """The (channel id, message id) of a game's kept message of this kind."""
        return await self.ctx.store.message(game_id, kind)

    async def forget_message(self, game_id: int, kind: str) -> None:
        """Forget a game's kept message of this kind (the adapter deleted it)."""
        await self.ctx.store.forget_message(game_id, kind)
