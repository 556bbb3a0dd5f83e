"""Turn an :class:`~bot.service.Outcome` into Discord messages.

Decisions:

* Commands are answered first (:func:`~bot.discord.messages.answering`): the
  first answer is the interaction's ephemeral response when ready in time,
  else it *edits the original response* of the "thinking" acknowledgement
  (``edit_original_response``, as Discord documents; a follow-up there is
  deprecated); either way it is sent by
  :func:`~bot.discord.messages.original_response`, and is always the invoker's
  private answer: the reply lines with the step's preview image and its buttons
  (Undo, End turn, the player's own decisions), their private view for
  ``/game hand``, or a short acknowledgement. Later parts are follow-ups.
  The public message is a follow-up sent with ``ephemeral=False``: a
  follow-up needs no channel permission, so a move is announced even where
  the bot may not post on its own; timer messages (no interaction) are
  posted in the channel.
* **The game's story.** A hand-off message (``Outcome.story``) is the game's
  newest message, and only the newest carries live buttons: the one before
  is edited to drop its buttons (Play, decisions already taken) once the new
  one is posted. An interim message (``News.interim``) is edited in place
  by the next interim one when that pings nobody new, else posted anew; the
  next message of the game (interim or hand-off) that is posted deletes it,
  since it tells its lines again. The newest message (:data:`LIVE`) and the
  interim one (:data:`INTERIM`) are remembered through the service (the
  store), so a restart or another process of a cluster finds them. An interim
  message is one message: when its lines do not fit, it shows the latest
  that do, after "…" (the hand-off message tells them all). Side notes (a
  reminder, a pause) carry no buttons and leave the story's messages alone.
* A simultaneous round's tally (who has submitted, who is awaited, the
  deadline) ends the round's hand-off message, which is edited on each
  submission from its own text kept in the store with it (:data:`TALLY`), so
  one message per round tells it all; when the round is revealed (the next
  hand-off message) or the game ends, the tally becomes a line saying so,
  and the buttons go. A tally whose message is gone, or that has no hand-off
  message, is posted on its own in the channel.
* **Tallies nobody would see.** A submission's tally edit is not sent when a
  newer outcome of the same game that tells its story (a later submission's
  tally, which counts this one too, or the round's hand-off message, which
  closes it) is being delivered (:meth:`Stories.come`, from the outcome's
  arrival at the adapter) and holds the game's story first: several
  submissions told together edit the tally once, the newest's. Before its
  turn it also waits, up to :data:`ARRIVING_WAIT`, for the interactions in
  its channel whose outcome is still being made (game commands and buttons,
  :meth:`Stories.arrive`, by the responder): the benchmark's two plays of a
  round at once, the first one's tally then closed by the second's reveal.
  A tally waits for those, not for the lock, and is sent after all when none
  turns out newer, or a newer one's delivery ends without telling the story
  (it failed first) or takes longer than :data:`TALLY_WAIT` to, in its turn
  all the same: the newest tally is never lost, and never followed by an
  older one (the lock and the newest version told, as before). A lone
  submission's tally goes at once.
* After a step that hands nothing over, the invoker's changed private view
  comes with their answer (ephemeral), not by DM: in the answer's own message
  (its lines after the reply's, its image as ``hand.png`` beside the preview),
  one request where a follow-up would make two.
* One public message per outcome: the public lines, then a last line
  ``game.your_turn`` mentioning exactly ``News.ping``, the board as
  ``board.png`` and a button per :class:`~bot.service.Choice`. Only those users
  may be pinged (``AllowedMentions`` with users only); text over Discord's
  2000 characters is split by lines, the image and buttons on the last part.
* **A hand-off answered by its public message.** Where the invoker's answer
  would tell nothing the public message does not (a hand-off's reply without
  image, zoom, buttons or menu, its lines :attr:`~bot.service.Reply.told`), to a
  command or a button in the game's channel (not a click in a DM, nor a game
  opened in a new thread) answered first, the public message is the
  interaction's response itself (:func:`~bot.discord.messages.public_response`,
  its id read from the callback's answer, ``with_response``): one request fewer,
  and the channel sees it one round trip sooner, under "<user> used /play" or
  as the answer to the tapped button. It waits for its board only until
  :data:`PUBLIC_WITHIN` after Discord made the interaction; a board later than
  that, an interaction acknowledged meanwhile, a public message edited in place
  or refused: the invoker is answered and the message follows up, as below. A
  reply that tells something private keeps that order too: the public message
  first and the private answer as a follow-up would cost as many requests, and
  the answer would wait for the board instead of coming as soon as the step is
  stored. Parts of a message over 2000 characters after the first follow up.
* **Order of a hand-off's parts.** The invoker's answer first (a follow-up
  needs it), sent while the hand-off's images are still being drawn
  (:func:`bot.service.announce.answered_early`, by the responder), then the
  public message once its board is (what it needs from the store, below, is
  read meanwhile); once that is posted, the DMs go while the story's earlier
  messages are tidied (the new one kept in the store at the same time as the
  one before is stripped of its buttons or the interim one deleted, and as the
  round's tally before it is closed: which tally that is was read with the
  rest, so the write does not wait for the edit): none waits for another, and
  no DM comes before the public message it follows (nor before its own image
  is drawn). A timer's outcome (a computer seat's
  step, a deadline; no invoker) is told in the same order from its public
  message on, the round's tally edited alongside its DMs.
* Public text is in the guild's language, ephemeral text in the invoker's, DMs
  in the invoker's language for the invoker and the guild's for the others.
* Private messages go by DM. A DM refused with code 50007 marks the user's DMs
  closed (:meth:`~bot.store.Store.mark_dms_closed`); the invoker then gets it as
  an ephemeral follow-up, anyone else is told once per game in the channel
  (``dm.closed_notice``, no private content) and sees their private view as an
  ephemeral follow-up whenever they next use a game command (see
  :mod:`bot.discord.interactions`). Users known to have closed DMs are not
  DMed again for :data:`DM_RETRY_SECONDS` (each refused DM counts against
  Discord's invalid-request limit); after that one DM is tried, and a
  delivered DM forgets the refusal.
* The "your turn" DM (for players who chose DM notifications) leads the same
  user's private message of that outcome, in one DM (one request, not two; the
  note first, so a notification shows it), and carries the public message's move
  buttons
  (:data:`bot.discord.handover.DM_KINDS`); a click there runs in the game's
  channel, by the process owning its guild (:mod:`bot.discord.handover`), and
  the step's public message goes to the game's channel.
* Buttons carry the game's version, so a button from an earlier decision is
  refused as stale instead of replaying its action on a later one.
* What one public message needs from the store is read in one statement
  (:meth:`~bot.service.memory.Memory.message_reads`: the game's kept messages
  with the tally's text when it tells the story, how the users it pings chose
  to be told, and whose DMs are closed among the outcome's DM recipients known
  by then, the pinged and the invoker) and written once
  (:meth:`~bot.service.memory.Memory.keep_messages`: the new message as live,
  tally or interim, and what it replaces forgotten, in one transaction); the
  DMs that follow it read again only about recipients it did not ask about (a
  private view drawn after it), in one read.
* Every message, edit and answer goes through :mod:`bot.discord.rest`
  (discord.py's payloads and errors): of Discord's answers only a posted
  message's id and channel are read (:class:`~bot.discord.rest.Sent`, kept
  as the story's newest or the tally's message), nothing is parsed into
  discord.py's objects.
* A failure to send is logged and, where someone is waiting for an answer,
  reported to them; it never hides the fact that the move itself was recorded.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import rest
from bot.discord.components import Components
from bot.discord.handover import DM_KINDS
from bot.discord.items import button_for
from bot.discord.lobby_buttons import lobby_view
from bot.discord.menu_view import menu_view
from bot.discord.messages import (
    HAND_FILE,
    MAX_CONTENT,
    ZOOM_FILE,
    age_of,
    answering_first,
    locale_language,
    original_response,
    png,
    public_response,
    render,
    split_content,
)
from bot.i18n import Text, t
from bot.service import Choice, News, Outcome, PrivateMessage, StepKind
from bot.store import KeptMessage

if TYPE_CHECKING:
    from bot.service import GameService

log = logging.getLogger(__name__)

#: Discord's error code for "Cannot send messages to this user"
CANNOT_DM = 50007
#: a user whose DMs were closed is tried again by DM after this long
DM_RETRY_SECONDS = 6 * 3600.0
BOARD_FILE = "board.png"
#: how many answered interactions are remembered (one lives 15 minutes at most)
ANSWERED_MEMORY = 4096
#: how long after Discord made an interaction a hand-off waits for its board to be the
#: interaction's response itself (:meth:`Delivery.to_interaction`); past it the invoker
#: is answered and the public message follows up, as when the reply tells something
#: private. Under ANSWER_WITHIN (1.5 s, where an unanswered interaction is acknowledged,
#: well inside Discord's 3 s), so that then the invoker's own answer, not a "thinking"
#: acknowledgement and its edit, is the response
PUBLIC_WITHIN = 1.0
#: how many games' story order is remembered (a forgotten one starts afresh)
STORIES_MEMORY = 4096
#: how long a sealed submission's tally waits, at most, for the interactions in its channel
#: whose outcome is still being made (:meth:`Stories.superseded`: a newer submission's tally,
#: or the round's reveal, would make it one nobody sees)
ARRIVING_WAIT = 1.0
#: how long a sealed submission's tally waits, at most, for newer outcomes of its game on
#: their way (:meth:`Stories.superseded`) before it is sent anyway (in its turn: never after
#: a newer one)
TALLY_WAIT = 5.0
#: the kind under which a round's tally message is remembered
TALLY = "tally"
#: the kind under which a lobby's message is remembered (bot.discord.lobby_buttons)
LOBBY = "lobby"
#: the kind under which a game's newest hand-off message, the one with live buttons, is
#: remembered (also the link of ``/game mine``)
LIVE = "live"
#: the kind under which a game's interim message (replaced by the next) is remembered
INTERIM = "interim"
#: what an interim message too long for one message starts with (its latest lines follow)
ELLIPSIS = "…"
#: where a hand-off message's tally goes in its text as it is built (never sent, never kept:
#: the text kept to edit it is the two sides of it, :func:`around_tally`)
TALLY_SLOT = "\x00"


def around_tally(text: str) -> str:
    """The text kept with a hand-off message to edit its tally: the two sides of
    :data:`TALLY_SLOT`, as JSON (a database keeps no NUL character)."""
    head, _, tail = text.partition(TALLY_SLOT)
    return json.dumps([head, tail], ensure_ascii=False)


def with_tally(kept: str, tally: str) -> str:
    """A hand-off message's text kept by :func:`around_tally`, with ``tally`` in its place."""
    head, tail = json.loads(kept)
    return f"{head}{tally}{tail}"


class Send(Protocol):
    """Posts one public message of a game (in its channel, or as an interaction's
    follow-up); the message posted."""

    async def __call__(
        self,
        content: str,
        allowed_mentions: discord.AllowedMentions,
        *,
        file: discord.File | None = None,
        view: Components | None = None,
    ) -> rest.Sent: ...


@dataclass(frozen=True)
class TurnNote:
    """A "your turn" (or "you are next") DM not sent yet: its lines, in ``lang``, and its
    buttons in a language (built once per language)."""

    user_id: int
    lines: tuple[Text, ...]
    lang: str
    view: Callable[[str], Components | None]


#: the "your turn" DMs of one outcome waiting to ride on their users' private messages
TurnNotes = dict[int, TurnNote]


@dataclass
class ClosedDms:
    """Whose DMs are known closed among the users asked, read with the public message's
    other reads (:meth:`Delivery._reads`) for the DMs that follow it: the outcome's DM
    recipients known by then, the users it pings, and ``likely`` (the invoker)."""

    likely: tuple[int, ...] = ()
    asked: frozenset[int] = frozenset()
    closed: frozenset[int] = frozenset()

    def unasked(self, user_ids: Sequence[int]) -> list[int]:
        """Those of ``user_ids`` not asked about (a private message drawn after the read)."""
        return [uid for uid in user_ids if uid not in self.asked]


def tail_fitted(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` when it fits one message, else its latest lines that fit after
    :data:`ELLIPSIS` (an interim message; the hand-off message tells them all)."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = len(ELLIPSIS)
    for line in reversed(text.split("\n")):
        if size + 1 + len(line) > limit:
            break
        kept.insert(0, line)
        size += 1 + len(line)
    if not kept:  # one overlong last line: its end
        return ELLIPSIS + text[-(limit - len(ELLIPSIS)) :]
    return "\n".join([ELLIPSIS, *kept])


def mention_only(user_ids: Sequence[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(uid) for uid in user_ids],
    )


class Pending:
    """What a game's (or a channel's) waiting tallies wait on (:class:`Stories`): the
    versions on their way with whether each told the story (a game's), or how many
    interactions are being made (a channel's); :meth:`change` wakes at each settling."""

    __slots__ = ("changed", "count", "told")

    def __init__(self) -> None:
        self.told: dict[int, bool] = {}
        self.count = 0
        #: what those waiting for a change wait on (None: nobody waits)
        self.changed: asyncio.Future[None] | None = None

    def settle(self) -> None:
        """Wake those waiting for a change (called only when :attr:`changed` is set)."""
        changed, self.changed = self.changed, None
        if changed is not None and not changed.done():
            changed.set_result(None)

    async def change(self, timeout: float | None = None) -> None:
        """Until the next :meth:`settle` (or ``timeout`` seconds)."""
        if self.changed is None:
            self.changed = asyncio.get_running_loop().create_future()
        await asyncio.wait({self.changed}, timeout=timeout)


class Stories:
    """Per game, a lock that tells its story one message at a time, the newest version
    of the game told, and the outcomes on their way to telling it (:meth:`come`);
    bounded (:data:`STORIES_MEMORY`, the games least recently told and not being told
    are forgotten; an outcome on its way is forgotten once delivered)."""

    def __init__(self, limit: int = STORIES_MEMORY) -> None:
        self.limit = limit
        self._games: OrderedDict[int, tuple[asyncio.Lock, int | None]] = OrderedDict()
        #: per game, the versions of the outcomes being delivered that will tell its story
        #: (a hand-off message or a tally), each with whether it did (holds the game's lock)
        self._coming: dict[int, Pending] = {}
        #: per channel, how many interactions' outcomes are still being made
        self._arriving: dict[int, Pending] = {}

    def arrive(self, channel_id: int) -> None:
        """An interaction in ``channel_id`` is being made into an outcome, which may be a
        newer step of the channel's game (:meth:`superseded` waits for it, up to
        :data:`ARRIVING_WAIT`), until :meth:`arrived`. Its outcome's delivery is
        :meth:`come`'s."""
        pending = self._arriving.get(channel_id)
        if pending is None:
            pending = self._arriving[channel_id] = Pending()
        pending.count += 1

    def arrived(self, channel_id: int) -> None:
        pending = self._arriving[channel_id]
        pending.count -= 1
        if pending.changed is not None:
            pending.settle()
        if not pending.count:
            del self._arriving[channel_id]

    def come(self, game_id: int, version: int) -> bool:
        """An outcome of ``game_id`` at ``version`` that will tell the game's story is being
        delivered, until :meth:`went`: an older tally waiting to be sent meanwhile need not
        be (:meth:`superseded`). False (nothing to end) when that version is already."""
        pending = self._coming.get(game_id)
        if pending is None:
            pending = self._coming[game_id] = Pending()
        elif version in pending.told:  # the same version delivered twice: the first counts
            return False
        pending.told[version] = False
        return True

    def went(self, game_id: int, version: int) -> None:
        pending = self._coming[game_id]
        del pending.told[version]
        if pending.changed is not None:
            pending.settle()
        if not pending.told:
            del self._coming[game_id]

    async def superseded(self, game_id: int, version: int, channel_id: int) -> bool:
        """Whether a tally made at ``version`` need not be sent: True once a newer outcome on
        its way (:meth:`come`) holds the game's lock to tell its story (its tally counts
        this one's submission, or its hand-off message closes the round); False when none
        is on its way, or each ended without telling it. Waits meanwhile, without the lock,
        and for the interactions in ``channel_id`` whose outcome is still being made
        (:meth:`arrive`: each may be a newer step), up to :data:`ARRIVING_WAIT`; in all up to
        :data:`TALLY_WAIT`. (A newer one told and gone before this looks leaves it to
        :meth:`telling`: late.)"""
        loop = asyncio.get_running_loop()
        limit: float | None = None  # TALLY_WAIT after the first wait
        arrivals: float | None = None  # ARRIVING_WAIT after the first wait for an arrival
        while True:
            now = loop.time()
            limit = now + TALLY_WAIT if limit is None else limit
            coming = self._coming.get(game_id)
            newer = [v for v in coming.told if v > version] if coming is not None else []
            if coming is not None and newer:
                if coming.told[max(newer)]:
                    return True
                if now >= limit:
                    return False
                await coming.change(limit - now)
                continue
            arriving = self._arriving.get(channel_id)
            if arriving is None:
                return False
            arrivals = min(now + ARRIVING_WAIT, limit) if arrivals is None else arrivals
            if now >= arrivals:
                return False
            await arriving.change(arrivals - now)

    @asynccontextmanager
    async def telling(self, game_id: int, version: int | None) -> AsyncIterator[bool]:
        """Hold the game's lock; yields whether ``version`` is older than the newest told
        (late), and records it as told when it is not."""
        entry = self._games.get(game_id)
        lock = asyncio.Lock() if entry is None else entry[0]
        self._games[game_id] = (lock, None if entry is None else entry[1])
        self._games.move_to_end(game_id)
        self._forget()
        async with lock:
            newest = self._games.get(game_id, (lock, None))[1]
            late = version is not None and newest is not None and version < newest
            if not late and version is not None:
                self._games[game_id] = (lock, version)
            coming = self._coming.get(game_id)
            if coming is not None and version is not None and coming.told.get(version) is False:
                coming.told[version] = True
                if coming.changed is not None:
                    coming.settle()
            yield late

    def _forget(self) -> None:
        while len(self._games) > self.limit:
            game_id, (lock, _) = next(iter(self._games.items()))
            if lock.locked():
                break
            del self._games[game_id]

    def __len__(self) -> int:
        return len(self._games)


class Delivery:
    """Sends outcomes: to an interaction (commands, buttons) or to a channel (timers)."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        #: interactions whose original response was already edited (bounded)
        self._edited: OrderedDict[int, None] = OrderedDict()
        #: each game's story, told one message at a time in the game's order
        self.stories = Stories()
        #: how long a hand-off's board is waited for to answer with it (:data:`PUBLIC_WITHIN`)
        self.public_within = PUBLIC_WITHIN

    async def _send(
        self,
        channel_id: int,
        content: str,
        allowed_mentions: discord.AllowedMentions,
        *,
        file: discord.File | None = None,
        view: Components | None = None,
    ) -> rest.Sent:
        """A message the bot posts in a channel itself (not an interaction's follow-up)."""
        mentions = allowed_mentions
        sent = await rest.send(
            self.client, channel_id, content, allowed_mentions=mentions, view=view, file=file
        )
        return rest.Sent(sent, channel_id)

    # -- answering an interaction -----------------------------------------------

    async def ephemeral(
        self,
        interaction: discord.Interaction,
        lines: Sequence[Text],
        *,
        image: bytes | None = None,
        view: Components | None = None,
        image_name: str = HAND_FILE,
        replace: bool = False,
        zoom: bytes | None = None,
        hand: bytes | None = None,
    ) -> None:
        """Messages only the invoker sees; the image (and the zoom of where the
        invoker can act, :data:`ZOOM_FILE`, and their private view beside a step's
        preview, :data:`HAND_FILE`) and view ride on the last part.

        The first answer to the deferred interaction edits its original
        response; every later part is a follow-up. ``replace`` (the move
        picker's message) drops its earlier image and components.
        """
        lang = locale_language(interaction.locale)
        parts = split_content(render(lines, lang))
        for index, part in enumerate(parts):
            extra: dict[str, Any] = {}
            last = index == len(parts) - 1
            files = [
                png(data, name)
                for data, name in ((image, image_name), (zoom, ZOOM_FILE), (hand, HAND_FILE))
                if last and data is not None
            ]
            if files:
                extra["files"] = files
            if last and view is not None:
                extra["view"] = view
            if not self._answered(interaction):
                self._mark_answered(interaction)
                if "files" in extra:
                    extra["attachments"] = extra.pop("files")
                elif replace:
                    extra["attachments"] = []
                if replace:
                    extra.setdefault("view", None)
                await original_response(
                    interaction,
                    content=part,
                    allowed_mentions=discord.AllowedMentions.none(),
                    **extra,
                )
                continue
            await rest.followup(
                interaction,
                part,
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                view=extra.get("view"),
                files=extra.get("files"),
            )

    def _answered(self, interaction: discord.Interaction) -> bool:
        return interaction.id in self._edited

    def _mark_answered(self, interaction: discord.Interaction) -> None:
        self._edited[interaction.id] = None
        while len(self._edited) > ANSWERED_MEMORY:
            self._edited.popitem(last=False)

    def reply_view(
        self, outcome: Outcome, choices: Sequence[Choice], lang: str
    ) -> Components | None:
        """The buttons of a list of choices (a private answer's or the public message's)."""
        if not choices:
            return None
        view = Components()
        for choice in choices:
            try:
                view.add(button_for(choice, outcome.game_id or 0, outcome.version, lang))
            except ValueError:  # a custom_id over 100 characters, or more than 25 buttons
                log.warning("a %s button of game %s was not made", choice.kind, outcome.game_id)
        return None if view.empty else view

    def _come(self, outcome: Outcome) -> bool:
        """:meth:`Stories.come` for ``outcome`` when it will tell its game's story (a
        hand-off message, or a sealed submission's tally); whether it did."""
        game_id, version = outcome.game_id, outcome.version
        if game_id is None or version is None or outcome.channel_id is None:
            return False
        if (outcome.story and outcome.news is not None) or (
            outcome.tally is not None and outcome.kind is StepKind.SUBMISSION
        ):
            return self.stories.come(game_id, version)
        return False

    def _went(self, outcome: Outcome) -> None:
        assert outcome.game_id is not None and outcome.version is not None
        self.stories.went(outcome.game_id, outcome.version)

    async def to_interaction(
        self,
        interaction: discord.Interaction,
        outcome: Outcome,
        *,
        private_inline: bool = False,
        picker_lines: Sequence[Text] | None = None,
        picker_view: Components | None = None,
    ) -> set[int]:
        """Deliver a successful command's outcome; return whose private view the
        invoker was shown, ephemerally or by a DM just delivered, or whose DMs the
        public message's read found open (so it is not shown twice, nor asked again).

        A step played through the move picker (:mod:`bot.discord.picking`)
        passes ``picker_lines`` and ``picker_view``: the answer replaces the
        picker message (acknowledged as an update), its lines followed by the
        next menu's and its buttons replaced by the menu's."""
        came = self._come(outcome)
        try:
            return await self._to_interaction(
                interaction,
                outcome,
                private_inline=private_inline,
                picker_lines=picker_lines,
                picker_view=picker_view,
            )
        finally:
            if came:
                self._went(outcome)

    async def _to_interaction(
        self,
        interaction: discord.Interaction,
        outcome: Outcome,
        *,
        private_inline: bool,
        picker_lines: Sequence[Text] | None,
        picker_view: Components | None,
    ) -> set[int]:
        """:meth:`to_interaction`'s work."""
        me = interaction.user.id
        own_lang = locale_language(interaction.locale)
        public_lang = locale_language(interaction.guild_locale)
        shown: set[int] = set()
        inline_all = private_inline or outcome.kind in (StepKind.CONTINUE, StepKind.SUBMISSION)
        if inline_all:  # the answer itself shows a private image: it waits for them
            await outcome.drawn()
        inline = [pm for pm in outcome.private if inline_all and pm.user_id == me]
        reply = outcome.reply
        if picker_lines is None and reply.menu is not None and interaction.guild_id is not None:
            # a public decision's answer: the clicker's next menu, as the picker shows it
            picker_lines = [reply.menu.title]
            picker_view = menu_view(outcome.game_id or 0, reply.menu, own_lang)
        picked = picker_lines is not None
        view = picker_view if picked else self.reply_view(outcome, reply.choices, own_lang)
        # a hand-off whose reply tells nothing private is answered by its public message
        public_first = (
            not picked
            and not inline_all
            and self._answers_publicly(interaction, outcome)
            and await self._board_in_time(interaction, outcome)
        )
        answered_invoker = False

        async def answer_invoker() -> None:
            """The invoker's private answer (once): first, unless the public message
            is the response."""
            nonlocal answered_invoker
            if answered_invoker:
                return
            answered_invoker = True
            await self._answer_invoker(
                interaction, outcome, own_lang, inline, view, picker_lines, shown
            )

        if not public_first:
            await answer_invoker()
        responded = False  # the public message is the interaction's response

        async def send_public(
            content: str,
            allowed_mentions: discord.AllowedMentions,
            *,
            file: discord.File | None = None,
            view: Components | None = None,
        ) -> rest.Sent:
            nonlocal responded
            from_dm = interaction.guild_id is None  # a click in a "your turn" DM
            in_channel = outcome.news is not None and outcome.news.in_channel
            if (in_channel or from_dm) and outcome.channel_id is not None:
                return await self._send(
                    outcome.channel_id, content, allowed_mentions, file=file, view=view
                )
            files = None if file is None else [file]
            if public_first and not responded and not answered_invoker:
                sent = await public_response(
                    interaction, content, allowed_mentions=allowed_mentions, view=view, files=files
                )
                if sent is not None:
                    responded = True
                    self._mark_answered(interaction)  # what follows is a follow-up
                    return sent
                await answer_invoker()  # acknowledged meanwhile: its answer first
            return await rest.followup(
                interaction,
                content,
                ephemeral=False,
                allowed_mentions=allowed_mentions,
                view=view,
                files=files,
            )

        notes: TurnNotes = {}
        closed_dms = ClosedDms(likely=(me,))  # whose private view may be drawn later
        posted = asyncio.Event()

        async def public() -> None:
            try:
                told = not outcome.has_public or await self.post_public(
                    send_public,
                    outcome,
                    public_lang,
                    notes=notes,
                    posted=posted,
                    closed_dms=closed_dms,
                )
                if not responded:  # not the public message (edited in place, or refused)
                    await answer_invoker()
                if not told:
                    await self.ephemeral(interaction, [Text("delivery.public_failed")])
            finally:
                posted.set()
            await outcome.drawn(private=False)  # the tally (in place already when posted)
            if outcome.tally is not None or outcome.finished:
                await self.tally(outcome, public_lang, send_public)
            await self.edit_lobby(outcome, public_lang)

        async def fallback(pm: PrivateMessage) -> None:
            await self.ephemeral(interaction, [Text("dm.fallback"), *pm.lines], image=pm.image)
            shown.add(me)

        async def dms() -> None:
            await posted.wait()  # the public message first, then what is private
            await outcome.drawn()
            private = [pm for pm in outcome.private if not (inline_all and pm.user_id == me)]
            await self.send_private(
                private,
                game_id=outcome.game_id,
                actor=me,
                actor_lang=own_lang,
                public_lang=public_lang,
                send_public=send_public,
                actor_fallback=fallback,
                notes=notes,
                delivered_to=shown,  # a DM just delivered: their DMs are open, nothing to show
                closed_dms=closed_dms,
            )

        await asyncio.gather(public(), dms())
        if me in closed_dms.asked and me not in closed_dms.closed:
            shown.add(me)  # their DMs are open (read with the public message): nothing to show
        return shown

    def _answers_publicly(self, interaction: discord.Interaction, outcome: Outcome) -> bool:
        """Whether ``outcome``'s public message may be ``interaction``'s response: a
        hand-off's, posted as the interaction's answer (not in a DM, nor in a new
        thread), whose reply tells nothing private (no image, zoom, buttons nor menu,
        and lines the public message tells, :attr:`~bot.service.Reply.told`), to an
        interaction answered first and not answered yet."""
        news, reply = outcome.news, outcome.reply
        return (
            news is not None
            and outcome.story
            and outcome.kind in (StepKind.HANDOFF, StepKind.FINAL)
            and not news.in_channel
            and interaction.guild_id is not None
            and reply.image is None
            and reply.zoom is None
            and not reply.choices
            and reply.menu is None
            and (reply.told or not reply.lines)
            and answering_first(interaction)
        )

    async def _board_in_time(self, interaction: discord.Interaction, outcome: Outcome) -> bool:
        """Whether the hand-off's board (and tally) is in place within
        :attr:`public_within` of Discord making ``interaction``, drawn without error."""
        drawing = outcome.drawing
        if drawing is None:
            return True
        if not drawing.done():
            wait = self.public_within - age_of(interaction)
            if wait <= 0:
                return False
            await asyncio.wait({drawing}, timeout=wait)
        return drawing.done() and not drawing.cancelled() and drawing.exception() is None

    async def _answer_invoker(
        self,
        interaction: discord.Interaction,
        outcome: Outcome,
        own_lang: str,
        inline: list[PrivateMessage],
        view: Components | None,
        picker_lines: Sequence[Text] | None,
        shown: set[int],
    ) -> None:
        """The invoker's private answer: the reply's lines with its images and buttons (and
        their changed private view riding on it), their private messages shown inline, or a
        short acknowledgement; ``inline`` is consumed."""
        me = interaction.user.id
        reply = outcome.reply
        picked = picker_lines is not None
        if reply.lines:
            private_preview = outcome.kind is StepKind.SUBMISSION
            # the invoker's changed private view rides on the answer (one message, not two)
            hand: PrivateMessage | None = None
            if inline and not (private_preview and inline[0].image is not None):
                hand = inline.pop(0)
                shown.add(me)
            await self.ephemeral(
                interaction,
                [*reply.lines, *(hand.lines if hand else ()), *(picker_lines or ())],
                image=reply.image,
                zoom=reply.zoom,
                hand=None if hand is None else hand.image,
                view=view,
                image_name=HAND_FILE if private_preview else BOARD_FILE,
                replace=picked,
            )
            if outcome.kind is StepKind.SUBMISSION:
                shown.add(me)  # a sealed move's preview is the player's own view
        elif inline:
            first = inline.pop(0)
            await self.ephemeral(interaction, first.lines, image=first.image, view=view)
            shown.add(me)
        else:
            ack = Text("delivery.posted" if outcome.has_public else "delivery.done")
            await self.ephemeral(interaction, [ack], view=view)
        for pm in inline:
            await self.ephemeral(interaction, pm.lines, image=pm.image)
            shown.add(me)

    # -- messages without an interaction (timers) ---------------------------------

    async def to_channel(self, outcome: Outcome) -> None:
        """Post a timer's outcome in its channel and DM its private messages: the DMs go
        once the public message is posted, while the story before it is tidied and the
        round's tally edited (the module docstring's order of a hand-off's parts). An
        outcome still drawing (:attr:`bot.timers.TimerRunner.drawn_early`) is posted once
        its board is drawn, its DMs once their images are."""
        came = self._come(outcome)
        try:
            await self._to_channel(outcome)
        finally:
            if came:
                self._went(outcome)

    async def _to_channel(self, outcome: Outcome) -> None:
        """:meth:`to_channel`'s work."""
        if outcome.channel_id is None:
            log.error("outcome of game %s has no channel; nothing posted", outcome.game_id)
            return
        channel = self.client.get_channel(outcome.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(outcome.channel_id)
            except discord.HTTPException:
                log.warning(
                    "channel %s of game %s is gone or hidden; timer message not posted",
                    outcome.channel_id,
                    outcome.game_id,
                    exc_info=True,
                )
                return
        if not isinstance(channel, discord.abc.Messageable):
            log.error("channel %s cannot take messages", outcome.channel_id)
            return
        guild = getattr(channel, "guild", None)
        lang = locale_language(guild.preferred_locale if guild is not None else None)
        channel_id = channel.id

        async def send(
            content: str,
            allowed_mentions: discord.AllowedMentions,
            *,
            file: discord.File | None = None,
            view: Components | None = None,
        ) -> rest.Sent:
            return await self._send(channel_id, content, allowed_mentions, file=file, view=view)

        notes: TurnNotes = {}
        closed_dms = ClosedDms()
        posted = asyncio.Event()

        async def public() -> None:
            try:
                if outcome.has_public:
                    await self.post_public(
                        send, outcome, lang, notes=notes, posted=posted, closed_dms=closed_dms
                    )
            finally:
                posted.set()
            await outcome.drawn(private=False)  # the tally (in place already when posted)
            if outcome.tally is not None or outcome.finished:
                await self.tally(outcome, lang, send)

        async def dms() -> None:
            await posted.wait()  # the public message first; its story tidied meanwhile
            await outcome.drawn()
            await self.send_private(
                outcome.private,
                game_id=outcome.game_id,
                actor=None,
                actor_lang=lang,
                public_lang=lang,
                send_public=send,
                actor_fallback=None,
                notes=notes,
                closed_dms=closed_dms,
            )

        await asyncio.gather(public(), dms())

    # -- the pieces ---------------------------------------------------------------

    async def post_public(
        self,
        send: Send,
        outcome: Outcome,
        lang: str,
        *,
        notes: TurnNotes | None = None,
        posted: asyncio.Event | None = None,
        closed_dms: ClosedDms | None = None,
    ) -> bool:
        """The one public message of an outcome; False (logged) if Discord refused it.

        Each awaited player is named, but only those who chose to be told in the
        channel (the default) are pinged there; those who chose DMs get one. A
        hand-off message keeps the game's story as the module docstring says: one
        at a time per game, and one made at an older version of the game than the
        newest told (a member's step and the computers' answer to it delivered at
        once) stands aside — an interim one is not posted (the newer message tells
        its lines), a hand-off one is posted without buttons and changes nothing.

        ``notes``: the "your turn" DMs are left there for :meth:`send_private` (each
        rides on its user's private message, if any), else sent here. ``posted`` is set
        once the message is posted and ``notes`` filled, before the messages of the
        game's story before it are tidied (:meth:`_retell`): what is private may go
        meanwhile. ``closed_dms`` is filled with whose DMs are closed among the outcome's
        DM recipients, read with the message's other reads, for :meth:`send_private`.
        """
        news = outcome.news
        if news is None:
            await outcome.drawn(private=False)
            return True
        if not outcome.story or outcome.game_id is None:
            return await self._post(
                send, outcome, news, lang, notes=notes, posted=posted, closed_dms=closed_dms
            )
        async with self.stories.telling(outcome.game_id, outcome.version) as late:
            if late and news.interim:
                return True
            return await self._post(
                send,
                outcome,
                news,
                lang,
                late=late,
                notes=notes,
                posted=posted,
                closed_dms=closed_dms,
            )

    async def _post(
        self,
        send: Send,
        outcome: Outcome,
        news: News,
        lang: str,
        *,
        late: bool = False,
        notes: TurnNotes | None = None,
        posted: asyncio.Event | None = None,
        closed_dms: ClosedDms | None = None,
    ) -> bool:
        """:meth:`post_public`'s work: ``outcome``'s ``news`` (``late``: a hand-off message
        that stands aside)."""
        lines = [line.render(lang) for line in news.lines]
        story = outcome.story and outcome.game_id is not None and not late
        # what the message needs from the store, read at once
        # (while a hand-off answered early still draws its board: Outcome.drawn)
        (choices, known), _ = await asyncio.gather(
            self._reads(outcome, news, story, closed_dms),
            outcome.drawn(private=False),
        )
        kept, live = _where(known.get(INTERIM)), _where(known.get(LIVE))
        pinged = [uid for uid in news.ping if choices.get(uid) in ("channel", "both")]
        ping = ""
        if news.ping:
            mentions = " ".join(f"<@{uid}>" for uid in news.ping)
            ping = t(lang, "game.your_turn", mentions=mentions)
        tally = render(outcome.tally[1:], lang) if story and outcome.tally else ""
        # the last part's text around its tally (kept, to edit the tally in place)
        around = "\n".join([TALLY_SLOT, *([ping] if ping else [])])
        if story and news.interim:
            parts = [tail_fitted("\n".join([*lines, *([ping] if ping else [])]))]
        elif tally:  # the tally and the ping end the last part: leave them room
            room = len(around) - len(TALLY_SLOT) + len(tally) + 1
            parts = split_content("\n".join(lines), MAX_CONTENT - room)
            parts[-1] = f"{parts[-1]}\n{around}" if parts[-1] else around
        else:
            parts = split_content("\n".join([*lines, *([ping] if ping else [])]))
        base = around_tally(parts[-1]) if tally else None
        parts = [part.replace(TALLY_SLOT, tally) for part in parts]
        view = None if late else self.reply_view(outcome, news.choices, lang)
        buttons = view  # the choices' buttons, which the "your turn" DMs may carry too
        posting_lobby = outcome.lobby is not None and outcome.lobby.post
        if posting_lobby and outcome.lobby is not None and outcome.game_id is not None:
            view = lobby_view(outcome.lobby, outcome.game_id, lang)
            buttons = None
        if (  # an interim message pinging nobody new: the one before, edited
            story
            and news.interim
            and kept is not None
            and not news.ping
            and await self._edit(kept, parts[0], mention_only([]), view=view)
        ):
            return True
        sent: rest.Sent | None = None
        try:
            for index, part in enumerate(parts):
                extra: dict[str, Any] = {}
                if index == len(parts) - 1:
                    if news.board is not None:
                        extra["file"] = png(news.board, BOARD_FILE)
                    if view is not None:
                        extra["view"] = view
                sent = await send(part, mention_only(pinged), **extra)
        except discord.HTTPException:
            log.exception("could not post the public message of game %s", outcome.game_id)
            return False
        await self._turn_dms(outcome, news, choices, lang, notes, buttons=buttons)
        if posted is not None:
            posted.set()
        if posting_lobby and sent is not None:
            await self.remember_lobby(outcome, sent)
        if story and sent is not None:
            await self._retell(outcome, news, sent, kept, live, lang, base=base, known=known)
        return True

    async def _reads(
        self, outcome: Outcome, news: News, story: bool, closed_dms: ClosedDms | None
    ) -> tuple[dict[int, str], Mapping[str, KeptMessage]]:
        """What a public message needs from the store, in one statement: how each user it
        names as awaited (or next) chose to be told, and the game's kept messages when it
        tells the story; whose DMs are closed among the outcome's DM recipients goes into
        ``closed_dms``. Should that read fail, the reads are made apart as before it."""
        wanted = list(news.ping) + ([news.heads_up] if news.heads_up else [])
        recipients = (
            [*(pm.user_id for pm in outcome.private), *closed_dms.likely]
            if closed_dms is not None
            else []
        )
        users = list(dict.fromkeys([*wanted, *recipients]))
        game_id = outcome.game_id if story else None
        if not users and game_id is None:
            return {}, {}
        try:
            reads = await self.service.memory.message_reads(game_id, users)
        except Exception:
            log.exception("could not read what the message of game %s needs", outcome.game_id)
            return await asyncio.gather(
                self._notify_choices(news), self._known(outcome.game_id, story)
            )
        if closed_dms is not None:
            closed_dms.asked = frozenset(users)
            closed_dms.closed = frozenset(reads.dms_closed)
        return {uid: reads.notify.get(uid, "channel") for uid in wanted}, reads.kept

    async def _known(self, game_id: int | None, story: bool) -> dict[str, KeptMessage]:
        """The game's kept messages when the message tells its story (else none)."""
        if not story or game_id is None:
            return {}
        return await self.service.memory.messages(game_id)

    async def _retell(
        self,
        outcome: Outcome,
        news: News,
        sent: rest.Sent,
        kept: tuple[int, int] | None,
        live: tuple[int, int] | None,
        lang: str,
        *,
        base: str | None,
        known: Mapping[str, KeptMessage],
    ) -> None:
        """After a hand-off message ``sent``, at once: close the round's tally before it,
        remember it (with ``base``, its text without its tally, when it ends with one),
        and delete the interim message it replaces (``kept``) or drop the buttons of the
        game's newest message before (``live``); ``known``: the game's kept messages,
        read before it was sent (they say which tally closes, so the write that forgets
        or replaces it need not wait for its edit)."""
        game_id = outcome.game_id
        if game_id is None:
            return
        where = (sent.channel_id, sent.id)
        # the closed tally is forgotten, or replaced by a new round's, in the one write below
        closed = _where(known.get(TALLY))
        remembered = {LIVE: KeptMessage(*where, None)}
        if base is not None:
            remembered[TALLY] = KeptMessage(*where, base)
        if news.interim:
            remembered[INTERIM] = KeptMessage(*where, None)
        forgotten = [TALLY] if closed is not None and base is None else []
        if not news.interim and kept is not None:
            forgotten.append(INTERIM)

        async def remember() -> None:
            try:
                await self.service.memory.keep_messages(game_id, remembered, forgotten)
            except Exception:
                log.exception("could not remember the messages of game %s", game_id)
                if closed is not None:  # a closed tally is never edited again
                    await self._forget_tally(game_id)

        async def tidy() -> None:
            if kept is not None and kept != where:
                await self._delete(kept)
            elif live is not None and live not in (where, closed):
                await self._edit(live, None, None, view=None)

        await asyncio.gather(
            self._close_tally(game_id, lang, forget=False, known=known), remember(), tidy()
        )

    async def _close_tally(
        self,
        game_id: int,
        lang: str,
        *,
        why: str = "tally.closed",
        forget: bool = True,
        known: Mapping[str, KeptMessage] | None = None,
    ) -> tuple[int, int] | None:
        """Say the kept tally's round is over (``why``: revealed below, or the game
        ended), without its buttons, and forget it (unless not ``forget``: the caller
        keeps the next round's in its place); the message it was in, if any.
        ``known``: the game's kept messages, when already read."""
        if known is None:
            known = await self.service.memory.messages(game_id)
        tally = known.get(TALLY)
        kept = _where(tally)
        if tally is None or kept is None:
            return None
        base = tally.content
        closed = render([Text(why)], lang)
        content = closed if base is None else with_tally(base, closed)
        await self._edit(kept, content, discord.AllowedMentions.none(), view=None)
        if forget:
            await self._forget_tally(game_id)
        return kept

    async def _forget_tally(self, game_id: int) -> None:
        try:
            await self.service.memory.forget_message(game_id, TALLY)
        except Exception:
            log.exception("could not forget the tally of game %s", game_id)

    async def _delete(self, kept: tuple[int, int]) -> None:
        """Delete a message the bot posted (logged if it is gone already)."""
        channel_id, message_id = kept
        try:
            await (
                self.client.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .delete()
            )
        except discord.HTTPException:
            log.info("message %s in channel %s could not be deleted", message_id, channel_id)

    async def _notify_choices(self, news: News) -> dict[int, str]:
        wanted = list(news.ping) + ([news.heads_up] if news.heads_up else [])
        if not wanted:
            return {}
        try:
            return await self.service.seats.notify_choices(wanted)
        except Exception:
            log.exception("could not read notification choices; pinging in the channel")
            return dict.fromkeys(wanted, "channel")

    async def _turn_dms(
        self,
        outcome: Outcome,
        news: News,
        choices: dict[int, str],
        lang: str,
        pending: TurnNotes | None = None,
        *,
        buttons: Components | None = None,
    ) -> None:
        """ "Your turn" and "you are next" by DM, for those who asked for DMs: sent now,
        or left in ``pending`` for :meth:`send_private`. ``buttons``: the public message's
        view of ``news.choices`` in ``lang``, reused when they all go by DM too."""
        where = f"<#{outcome.channel_id}>"
        notes = [
            (uid, Text("notify.your_turn_dm", {"channel": where}))
            for uid in news.ping
            if choices.get(uid) in ("dm", "both")
        ]
        if news.heads_up is not None and choices.get(news.heads_up) in ("dm", "both"):
            notes.append((news.heads_up, Text("notify.next_dm", {"channel": where})))
        if not notes:
            return
        dm_choices = [c for c in news.choices if c.kind in DM_KINDS]
        views: dict[str, Components | None] = {}
        if buttons is not None and len(dm_choices) == len(news.choices):
            views[lang] = buttons  # the same buttons: built once

        def view_in(language: str) -> Components | None:
            if language not in views:
                views[language] = (
                    self.reply_view(outcome, dm_choices, language) if dm_choices else None
                )
            return views[language]

        for uid, text in notes:  # with where to see every game that waits for them
            note = TurnNote(uid, (text, Text("notify.mine")), lang, view_in)
            if pending is not None and uid not in pending:
                pending[uid] = note
            else:
                await self._send_note(note)

    async def _send_note(self, note: TurnNote, *, closed: bool | None = None) -> None:
        await self.dm(
            PrivateMessage(note.user_id, note.lines),
            note.lang,
            view=note.view(note.lang),
            closed=closed,
        )

    async def tally(self, outcome: Outcome, lang: str, fallback: Send) -> None:
        """Keep the round's tally: edit it on a submission; when the game ends (abandoned),
        say its round is over and drop the buttons of its newest message. A hand-off
        message carries its own (:meth:`post_public`)."""
        if outcome.game_id is None or outcome.channel_id is None:
            return
        if outcome.story:
            return
        if outcome.tally is None or outcome.kind is not StepKind.SUBMISSION:
            why = "tally.ended" if outcome.finished else "tally.closed"
            known = await self.service.memory.messages(outcome.game_id)
            closed = await self._close_tally(outcome.game_id, lang, why=why, known=known)
            live = _where(known.get(LIVE))
            if outcome.finished and live is not None and live != closed:  # abandoned
                await self._edit(live, None, None, view=None)
            return
        if outcome.version is not None and await self.stories.superseded(
            outcome.game_id, outcome.version, outcome.channel_id
        ):
            return  # a newer submission's tally counts this one, or the round is revealed
        async with self.stories.telling(outcome.game_id, outcome.version) as late:
            if not late:  # a seal told after the round's reveal counts nothing any more
                await self._count(outcome, outcome.game_id, outcome.channel_id, lang, fallback)

    async def _count(
        self, outcome: Outcome, game_id: int, channel_id: int, lang: str, fallback: Send
    ) -> None:
        """Edit the tally of a sealed submission's round (see :meth:`tally`)."""
        assert outcome.tally is not None
        none = discord.AllowedMentions.none()
        tally = (await self.service.memory.messages(game_id)).get(TALLY)
        kept, base = _where(tally), None if tally is None else tally.content
        counted = render(outcome.tally[1:] if base is not None else outcome.tally, lang)
        content = split_content(counted if base is None else with_tally(base, counted))[0]
        if kept is not None and await self._edit(kept, content, none):
            return
        if kept is not None:
            log.info("tally of game %s is gone; posting it again", game_id)
        content = split_content(render(outcome.tally, lang))[0]
        try:
            message = await self._send(channel_id, content, none)
        except discord.HTTPException:
            try:
                message = await fallback(content, none)
            except discord.HTTPException:
                log.exception("could not post the tally of game %s", game_id)
                return
        await self.service.memory.remember_message(game_id, TALLY, message.channel_id, message.id)

    async def remember_lobby(self, outcome: Outcome, message: rest.Sent) -> None:
        """Remember the lobby message just posted, to edit it as the lobby changes."""
        if outcome.game_id is None or outcome.channel_id is None:
            return
        try:
            await self.service.memory.remember_message(
                outcome.game_id, LOBBY, message.channel_id, message.id
            )
        except Exception:
            log.exception("could not remember the lobby message of game %s", outcome.game_id)

    async def edit_lobby(self, outcome: Outcome, lang: str) -> None:
        """Edit the kept lobby message in place: who sits, the options, its components
        (none once the lobby started or was abandoned). A lost message is left be."""
        panel = outcome.lobby
        if panel is None or panel.post or outcome.game_id is None:
            return
        kept = await self.service.memory.message(outcome.game_id, LOBBY)
        if kept is None:
            return
        channel_id, message_id = kept
        content = split_content(render(panel.lines, lang))[0]
        view = lobby_view(panel, outcome.game_id, lang)
        try:
            await rest.edit(
                self.client,
                channel_id,
                message_id,
                content=content,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("the lobby message of game %s could not be edited", outcome.game_id)

    async def _edit(
        self,
        kept: tuple[int, int],
        content: str | None,
        mentions: discord.AllowedMentions | None,
        **view: Components | None,
    ) -> bool:
        """Edit a message the bot posted: its content (None: kept), and its buttons when
        ``view`` is given (``view=None``: none); False (logged) if it is gone or not
        editable."""
        channel_id, message_id = kept
        changes: dict[str, Any] = dict(view)
        if content is not None:
            changes["content"] = content
        try:
            await rest.edit(
                self.client, channel_id, message_id, allowed_mentions=mentions, **changes
            )
        except discord.HTTPException:
            log.info("message %s in channel %s could not be edited", message_id, channel_id)
            return False
        return True

    async def send_private(
        self,
        messages: Sequence[PrivateMessage],
        *,
        game_id: int | None,
        actor: int | None,
        actor_lang: str,
        public_lang: str,
        send_public: Send,
        actor_fallback: Callable[[PrivateMessage], Awaitable[None]] | None,
        notes: TurnNotes | None = None,
        delivered_to: set[int] | None = None,
        closed_dms: ClosedDms | None = None,
    ) -> None:
        """DM each private message; handle closed DMs as the module docstring says.
        The actor, when their own was delivered, is added to ``delivered_to``.

        ``notes`` (the outcome's "your turn" DMs not sent yet): a user's note leads
        their private message, in one DM with the note's buttons; the others follow
        on their own. ``closed_dms``: whose DMs are closed, when already read with the
        public message (:meth:`_reads`)."""
        pending = notes if notes is not None else {}
        recipients = list(dict.fromkeys([*(pm.user_id for pm in messages), *pending]))
        # known already (read with the public message), else one read for several DMs;
        # one DM reads its own
        asked = closed_dms if closed_dms is not None else ClosedDms()
        unasked = asked.unasked(recipients)
        closed: set[int] | None = None
        if len(unasked) > 1 or (unasked and len(recipients) > 1):
            closed = await self.service.memory.dms_closed_among(unasked)

        def known(user_id: int) -> bool | None:
            if user_id in asked.asked:
                return user_id in asked.closed
            return None if closed is None else user_id in closed

        async def one(pm: PrivateMessage) -> None:
            lang = actor_lang if pm.user_id == actor else public_lang
            note = pending.pop(pm.user_id, None)
            if note is None:
                delivered = await self.dm(pm, lang, closed=known(pm.user_id))
            else:
                merged = PrivateMessage(pm.user_id, (*note.lines, *pm.lines), pm.image)
                delivered = await self.dm(
                    merged, lang, view=note.view(lang), closed=known(pm.user_id)
                )
            if delivered:
                if pm.user_id == actor and delivered_to is not None:
                    delivered_to.add(actor)
                return
            if pm.user_id == actor and actor_fallback is not None:
                await actor_fallback(pm)
                return
            if game_id is not None and await self.service.memory.note_dm_announcement(
                pm.user_id, game_id
            ):
                notice = t(public_lang, "dm.closed_notice", player=f"<@{pm.user_id}>")
                try:
                    await send_public(notice, mention_only([pm.user_id]))
                except discord.HTTPException:
                    log.exception("could not post the closed-DM notice for %s", pm.user_id)

        await asyncio.gather(*(one(pm) for pm in messages))
        for note in list(pending.values()):
            await self._send_note(note, closed=known(note.user_id))
        pending.clear()

    async def dm(
        self,
        message: PrivateMessage,
        lang: str,
        *,
        view: Components | None = None,
        closed: bool | None = None,
    ) -> bool:
        """DM one private message; False if the user cannot be reached that way.
        ``closed``: whether their DMs are known closed, when already read."""
        user_id = message.user_id
        # one read for the usual user, whose DMs were never refused
        refused = await self.service.memory.dms_closed(user_id) if closed is None else closed
        if refused and await self.service.memory.dms_closed(user_id, retry_after=DM_RETRY_SECONDS):
            return False
        parts = split_content(render(message.lines, lang))
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                await rest.send(
                    self.client,
                    channel.id,
                    part,
                    allowed_mentions=discord.AllowedMentions.none(),
                    file=png(message.image, HAND_FILE)
                    if last and message.image is not None
                    else None,
                    view=view if last else None,
                )
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                log.info("user %s does not accept DMs; using the fallback", user_id)
                await self.service.memory.mark_dms_closed(user_id)
            else:
                log.warning("DM to %s refused (code %s)", user_id, exc.code)
            return False
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)
            return False
        if refused:
            await self.service.memory.mark_dms_open(user_id)  # they reopened their DMs
        return True


def _where(kept: KeptMessage | None) -> tuple[int, int] | None:
    """A kept message's (channel id, message id)."""
    return None if kept is None else (kept.channel_id, kept.message_id)
