"""The one guarded path every command and button click takes.

:func:`guard` is that path; :class:`Responder` (commands and buttons that
answer with an :class:`~bot.service.Outcome`), the move picker's
:class:`~bot.discord.picking.Tapper` and ``/game export`` all run through it.
``Responder.run(interaction, work)``:

1. outside a server: answer ``error.dm_only`` at once;
2. answer first: the answer, when ready within
   :data:`~bot.discord.messages.ANSWER_WITHIN` seconds of the interaction, is
   its response; else it is deferred ephemerally ("thinking") then, well inside
   Discord's 3 seconds — the service may render a board, which can take longer
   than that on a busy host — and the answer edits it. An interaction already
   that old when it arrives is deferred before its work, and not run if Discord
   refuses that;
3. ``work(player)`` calls the service and returns an Outcome (meanwhile the
   channel's story knows an outcome is being made there:
   :meth:`~bot.discord.delivery.Stories.arrive`, so a tally it would make
   old waits for it);
4. a :class:`~bot.service.Refusal` becomes an ephemeral follow-up with the
   translated reason (nothing was changed); any other exception is logged
   with its traceback and answered with ``error.internal`` — never the
   traceback itself;
5. success goes to :class:`~bot.discord.delivery.Delivery`;
6. a game command by a user whose DMs are closed ends with their current
   private view (``service.reading.hand``) as an ephemeral follow-up, unless this
   command already showed it (or just DMed it to them, or its public message's
   read found their DMs open: nothing is read again) — that is how they keep up
   with their hand;
7. the interaction is reported finished (``on_done``), which tests and the
   latency benchmark wait on instead of sleeping;
8. it is logged as one INFO line and counted in the metrics
   (:class:`Handled`: game, channel, verb, outcome, latency).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.discord import custom_ids, rest
from bot.discord.messages import (
    ANSWER_WITHIN,
    age_of,
    answer_ephemeral,
    answering,
    locale_language,
)
from bot.i18n import Text
from bot.logs import activity
from bot.service import GameService, Outcome, Player, Refusal
from bot.service.announce import answered_early

if TYPE_CHECKING:
    from bot.discord.delivery import Delivery

log = logging.getLogger(__name__)

Work = Callable[[Player], Awaitable[Outcome]]


def player_of(interaction: discord.Interaction) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


#: the key of the refusal that means "another command changed the game first"
CONFLICT = "error.conflict"


def verb_of(interaction: discord.Interaction) -> str:
    """The command (``game.new``) or the component's kind (``button.act``); never the
    options of a command nor what a button plays (they can name a hand or a sealed move)."""
    if interaction.command is not None:
        return interaction.command.qualified_name.replace(" ", ".")
    data: dict[str, Any] = dict(interaction.data or {})
    kind = "menu" if data.get("component_type") == discord.ComponentType.select.value else "button"
    return f"{kind}.{custom_ids.kind_of(str(data.get('custom_id', ''))) or 'other'}"


def game_of(interaction: discord.Interaction) -> int | None:
    """The game a component names (``zg:<kind>:<game>:...``), else None."""
    if interaction.command is not None:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    return custom_ids.game_of(str(data.get("custom_id", "")))


class Handled:
    """One interaction's INFO line and metrics: started when made, written by :meth:`done`.

    The outcome is ``ok`` unless :meth:`refused`, :meth:`failed` or :meth:`expired`
    says otherwise; the game is the outcome's (:meth:`answered`) or the one a
    button names.
    """

    def __init__(self, interaction: discord.Interaction, game: int | None = None) -> None:
        self.started = time.perf_counter()
        self.verb = verb_of(interaction)
        self.channel = interaction.channel_id
        self.game = game if game is not None else game_of(interaction)
        self.outcome = "ok"
        self.reason: str | None = None

    def answered(self, outcome: Outcome) -> None:
        if outcome.game_id is not None:
            self.game = outcome.game_id

    def refused(self, key: str) -> None:
        if key == CONFLICT:
            self.outcome, self.reason = "conflict", None
        else:
            self.outcome, self.reason = f"refused:{key}", key

    def failed(self) -> None:
        self.outcome, self.reason = "error", None

    def expired(self) -> None:
        self.outcome, self.reason = "expired", None

    def done(self) -> None:
        seconds = time.perf_counter() - self.started
        activity(
            "command",
            game=self.game,
            channel=self.channel,
            verb=self.verb,
            outcome=self.outcome,
            seconds=seconds,
        )
        metrics.command(self.verb, self.outcome.split(":")[0], seconds, self.reason)


#: how an interaction is acknowledged before its work runs
THINKING = "thinking"  # an ephemeral "thinking" answer, edited or followed up later
UPDATE = "update"  # DEFERRED_UPDATE_MESSAGE: the clicked message is edited later
ACKNOWLEDGED = "acknowledged"  # already deferred by another process (a hand-over)

#: the guarded work of one interaction: given the player and its :class:`Handled`
Guarded = Callable[[Player, Handled], Awaitable[None]]
#: how a refusal or a failure is said to the user
Say = Callable[[discord.Interaction, Text], Awaitable[None]]


async def guard(
    interaction: discord.Interaction,
    work: Guarded,
    *,
    say: Say,
    on_done: Callable[[int], None],
    defer: str = THINKING,
    guild_only: bool = True,
    game: int | None = None,
    after: Callable[[Player], Awaitable[None]] | None = None,
    answer_first: bool = False,
) -> None:
    """Run one interaction the one guarded way (the module docstring's steps 1–4, 7, 8).

    Outside a server (when ``guild_only``) it is answered ``error.dm_only`` at
    once; else acknowledged (``defer``: :data:`THINKING`, :data:`UPDATE` or
    :data:`ACKNOWLEDGED`) — an acknowledgement Discord refuses (too late) ends it,
    logged as expired —, then ``work`` runs; a :class:`~bot.service.Refusal` is
    said with its reason, any other exception logged and said as
    ``error.internal``; ``after`` runs then, whatever ``work`` did. Either way
    the interaction is logged and counted (:class:`Handled`) and reported done.

    ``answer_first``: a fresh interaction is not acknowledged before ``work`` but
    answered by it (:func:`~bot.discord.messages.answering`); it is acknowledged
    only if no answer is ready in time. Its answers must go through
    :func:`~bot.discord.messages.original_response` (the delivery's do).
    """
    handled = Handled(interaction, game)
    try:
        if guild_only and (interaction.guild_id is None or interaction.channel_id is None):
            handled.refused("error.dm_only")
            await answer_now(interaction, Text("error.dm_only"))
            return

        async def acknowledge() -> None:
            if defer == THINKING:
                await rest.defer(interaction, thinking=True, ephemeral=True)
            elif defer == UPDATE:
                await rest.defer(interaction, thinking=False, ephemeral=False)

        first = answer_first and defer != ACKNOWLEDGED and age_of(interaction) < ANSWER_WITHIN
        if not first:
            try:
                await acknowledge()
            except discord.HTTPException:
                handled.expired()
                log.warning(
                    "could not acknowledge interaction %s in time; it was not run",
                    interaction.id,
                    exc_info=True,
                )
                return
        player = player_of(interaction)
        async with (
            answering(interaction, acknowledge, update=defer == UPDATE, on_late=handled.expired)
            if first
            else contextlib.nullcontext()
        ):
            try:
                await work(player, handled)
            except Refusal as refusal:
                handled.refused(refusal.text.key)
                await _said(say, interaction, refusal.text)
            except Exception:
                handled.failed()
                log.exception("command failed: %s", _describe(interaction))
                await _said(say, interaction, Text("error.internal"))
            if after is not None:
                await after(player)
    except BaseException:
        handled.failed()
        raise
    finally:
        handled.done()
        on_done(interaction.id)


async def _said(say: Say, interaction: discord.Interaction, text: Text) -> None:
    try:
        await say(interaction, text)
    except Exception:
        log.exception("could not answer interaction %s", interaction.id)


async def answer_now(interaction: discord.Interaction, text: Text) -> None:
    """Answer ephemerally without deferring (or follow up if already answered)."""
    await answer_ephemeral(interaction, text.render(locale_language(interaction.locale)))


class Responder:
    """Runs interactions for the cogs and the buttons: :func:`guard`, then delivery."""

    def __init__(
        self, service: GameService, delivery: Delivery, on_done: Callable[[int], None]
    ) -> None:
        self.service = service
        self.delivery = delivery
        self.on_done = on_done

    async def run(
        self,
        interaction: discord.Interaction,
        work: Work,
        *,
        game_command: bool = True,
        guild_only: bool = True,
        private_inline: bool = False,
        acknowledged: bool = False,
    ) -> None:
        """Answer ``interaction`` with what ``work`` produces (see the module docstring).

        ``private_inline`` shows the invoker's private messages ephemerally
        instead of by DM (``/game hand``); only ``guild_only=False`` commands
        (``/help``) run in DMs. ``acknowledged``: another process of a shard
        cluster already deferred it and handed it over (:mod:`bot.discord.handover`).
        """
        shown: set[int] = set()

        async def answered(player: Player, handled: Handled) -> None:
            nonlocal shown
            # a hand-off's outcome comes back once stored, its images still drawing:
            # the invoker is answered meanwhile (bot.discord.delivery)
            # a newer step of the channel's game may be on its way (Stories.arrive)
            channel_id = interaction.channel_id if game_command and interaction.guild_id else None
            stories = self.delivery.stories
            if channel_id is not None:
                stories.arrive(channel_id)
            try:
                with answered_early():
                    outcome = await work(player)
            finally:
                if channel_id is not None:
                    stories.arrived(channel_id)
            handled.answered(outcome)
            try:
                shown = await self.delivery.to_interaction(
                    interaction, outcome, private_inline=private_inline
                )
            except Exception:
                handled.failed()
                log.exception("delivery failed after success: %s", _describe(interaction))
                await _said(self.say, interaction, Text("error.delivery"))

        async def after(player: Player) -> None:
            if game_command and interaction.guild_id is not None and player.id not in shown:
                await self._closed_dm_hand(interaction, player)

        await guard(
            interaction,
            answered,
            say=self.say,
            on_done=self.on_done,
            defer=ACKNOWLEDGED if acknowledged else THINKING,
            guild_only=guild_only,
            after=after,
            answer_first=True,
        )

    async def say(self, interaction: discord.Interaction, text: Text) -> None:
        """``text`` as an ephemeral follow-up, in the user's language."""
        await self.delivery.ephemeral(interaction, [text])

    async def _closed_dm_hand(self, interaction: discord.Interaction, player: Player) -> None:
        try:
            if not await self.service.memory.dms_closed(player.id):
                return
            try:
                outcome = await self.service.reading.hand(interaction.channel_id or 0, player)
            except Refusal:
                return  # no running game here, or not seated: there is no private view
            for pm in outcome.private:
                await self.delivery.ephemeral(
                    interaction, [Text("dm.fallback"), *pm.lines], image=pm.image
                )
        except Exception:
            log.exception("could not show the private view of %s", player.id)


def _describe(interaction: discord.Interaction) -> str:
    """An interaction for the log: its command or button kind, never what a button plays
    (a player's own choices can name their hand)."""
    command = interaction.command.qualified_name if interaction.command else None
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = custom_ids.head_of(str(data.get("custom_id", ""))) or None
    return (
        f"interaction {interaction.id} ({command or custom_id}) by user {interaction.user.id}"
        f" in channel {interaction.channel_id}"
    )
