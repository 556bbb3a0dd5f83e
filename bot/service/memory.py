"""The adapter's memory: whose DMs are closed, and the messages it keeps per game.

Decisions:

* The service keeps nothing of this itself: each call is the store's, behind
  the service's gate (:func:`~bot.service.context.admitted`), so an id the
  store cannot hold is refused as a stale button here too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.service.context import Context, admitted
from bot.store import KeptMessage, MessageReads


class Memory:
    """Closed DMs and kept messages, read and written for the adapter."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @admitted
    async def dms_closed(self, user_id: int, retry_after: float | None = None) -> bool:
        """Whether the user's DMs are known to be closed (see the store's ``dms_closed``)."""
        return await self.ctx.store.dms_closed(user_id, retry_after)

    @admitted
    async def dms_closed_among(self, user_ids: Sequence[int]) -> set[int]:
        """Those of ``user_ids`` whose DMs are known to be closed, in one read (an outcome's
        DMs asked at once)."""
        return await self.ctx.store.dms_closed_among(user_ids)

    @admitted
    async def mark_dms_closed(self, user_id: int) -> None:
        await self.ctx.store.mark_dms_closed(user_id)

    @admitted
    async def mark_dms_open(self, user_id: int) -> None:
        await self.ctx.store.mark_dms_open(user_id)

    @admitted
    async def note_dm_announcement(self, user_id: int, game_id: int) -> bool:
        """True the first time the channel of ``game_id`` is told this user's DMs are closed."""
        return await self.ctx.store.note_dm_announcement(user_id, game_id)

    @admitted
    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, content: str | None = None
    ) -> None:
        """Keep a game's message of this kind (one per kind), with the text it is edited from."""
        await self.ctx.store.set_message(game_id, kind, channel_id, message_id, content)

    @admitted
    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """The (channel id, message id) of a game's kept message, if one was posted."""
        return await self.ctx.store.message(game_id, kind)

    @admitted
    async def message_reads(self, game_id: int | None, user_ids: Sequence[int]) -> MessageReads:
        """What posting one of a game's messages reads, in one statement: the game's
        kept messages (none for ``None``), and of ``user_ids`` how each chose to be told
        it is their turn (only those who chose) and whose DMs are closed."""
        return await self.ctx.store.message_reads(game_id, user_ids)

    @admitted
    async def messages(self, game_id: int) -> dict[str, KeptMessage]:
        """Every kept message of a game, by kind, with its text: one read where a
        message's story needs several of them."""
        return await self.ctx.store.messages(game_id)

    @admitted
    async def forget_message(self, game_id: int, kind: str) -> None:
        await self.ctx.store.forget_message(game_id, kind)

    @admitted
    async def keep_messages(
        self, game_id: int, kept: Mapping[str, KeptMessage], forgotten: Collection[str] = ()
    ) -> None:
        """Keep a game's messages of these kinds and forget the ``forgotten`` kinds, in one
        write: a hand-off message is remembered with its tally at once, or not at all."""
        await self.ctx.store.keep_messages(game_id, kept, forgotten)
