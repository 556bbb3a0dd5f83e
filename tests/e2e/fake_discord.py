"""A fake Discord (REST API + gateway) on loopback, for end-to-end tests of discord.py bots.

The unmodified discord.py 2.7 client talks to :class:`FakeDiscord` exactly as it talks to
Discord: REST over HTTP and the gateway over a websocket, both served by one aiohttp app on
``127.0.0.1`` and a random port. Tests build a small world (guilds, channels, users), let the bot
log in, then drive it like users would (slash commands, button clicks, selects, autocomplete,
modals) and assert on everything the bot sent, as recorded by the fake.

Protocol facts this module relies on (checked against discord.py 2.7.1's source):

* discord.py builds every REST URL, webhook and interaction routes included, from
  ``discord.http.Route.BASE`` (``webhook/async_.py`` imports the same ``Route``), and opens the
  gateway at ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a ``yarl.URL``; a plain
  ``Client`` never asks ``GET /gateway/bot``). :meth:`FakeDiscord.patch_discord` patches both.
* Login is ``GET /users/@me`` then ``GET /oauth2/applications/@me``; a 401 becomes
  ``LoginFailure``. Bot routes carry ``Authorization: Bot <token>``; webhook and interaction
  callback routes carry no auth (the token is in the path).
* JSON answers must have ``Content-Type`` exactly ``application/json``:
  ``discord.http.json_or_text`` compares the whole header, so ``; charset=utf-8`` would hand the
  library a ``str``.
* The client decompresses only BINARY frames (it asks for ``compress=zlib-stream``); TEXT frames
  are parsed as plain JSON, so the fake sends uncompressed TEXT frames.
* Gateway: the server speaks first with HELLO (op 10, ``heartbeat_interval`` in ms); the client
  heartbeats at once and every interval, and each HEARTBEAT (op 1) is answered by HEARTBEAT_ACK
  (op 11). After IDENTIFY (op 2) comes READY (``session_id``, ``resume_gateway_url``, ``user``,
  ``guilds`` as unavailable stubs, ``application``) and one GUILD_CREATE per guild with
  ``unavailable: false`` (which makes discord.py fire ``guild_available``). ``on_ready`` fires
  only after ``guild_ready_timeout`` (default 2 s) without a GUILD_CREATE, so test clients should
  pass ``guild_ready_timeout=0.05`` or so. A guild whose ``member_count`` equals the number of
  members sent counts as chunked, so no REQUEST_GUILD_MEMBERS is needed (op 8 is answered anyway).
* On a close code other than 1000/4004/4010-4014 the client reconnects to ``resume_gateway_url``
  and sends RESUME (op 6); the fake replays the frames after the client's ``seq`` and sends
  RESUMED, or INVALID_SESSION (op 9, ``d: false``) for an unknown session.
* Interaction callbacks are ``POST /interactions/{id}/{token}/callback``: with
  ``with_response=1`` (discord.py's) the fake answers 200 with the callback object
  ``{"interaction": {...}, "resource": {"type", "message"?}}`` that discord.py parses, without it
  204 and no body, as Discord's OpenAPI spec documents. Follow-ups are webhook executions
  ``POST /webhooks/{application_id}/{token}?wait=1``; the original response is
  ``/webhooks/{application_id}/{token}/messages/@original``.
* As documented by Discord: the first follow-up after a DEFERRED_CHANNEL_MESSAGE (type 5) edits
  the loading message instead of creating one, and keeps the defer's ephemeral flag; a callback
  later than 3 s fails with 404 Unknown interaction (10062); a second callback fails with 400
  Interaction has already been acknowledged (40060); messages to a user whose DMs are closed fail
  with 403 code 50007.
* Files go as ``multipart/form-data``: a ``payload_json`` part plus ``files[n]`` parts, with
  ``attachments: [{"id": n, "filename": ...}]`` in the payload tying file ``n`` to its metadata.
* Snowflakes are ``(ms since 2015-01-01) << 22 | worker << 17 | process << 12 | increment``.
* Sharding: an ``AutoShardedClient`` without a fixed ``shard_count`` asks ``GET /gateway/bot``
  for ``shards`` (here :attr:`FakeDiscord.shard_count`) and the gateway URL; each shard opens its
  own websocket and IDENTIFYs with ``shard: [shard_id, shard_count]``. Each shard is a separate
  session: READY lists only its guilds, and every guild event goes to the shard
  ``(guild_id >> 22) % shard_count``; DMs (no guild) go to shard 0.
* Shard clusters: several bot processes may connect, each IDENTIFYing only its own shards
  (``shard_ids``); each shard's events go to the connection that identified it, whichever
  process that is, so a guild's interactions reach the process running its shard and DMs reach
  shard 0's. Every shard must give the same ``shard_count`` as the shards already connected
  and an id below it, else the connection is closed with 4010 (Invalid shard), as Discord does.
  A shard whose process died has no connection until it identifies again: an interaction
  routed to it fails to send (:meth:`FakeDiscord.wait_shards` waits for the shards).
  :attr:`InteractionResult.shard` records where each interaction was routed.

Usage (see ``conftest.py`` for the ``fake_discord`` fixture)::

    guild = fake.add_guild("Ziggurat")
    games = fake.add_channel(guild, "games")
    alice = fake.add_user("alice")
    async with running_client(fake, MyBot(...)):
        res = await fake.slash(alice, games, "game new", type="tigris")
        await res.wait()
        assert res.response.content == "..."
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import json
import logging
import mimetypes
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, TypeVar

import yarl
from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    import discord
    import pytest

__all__ = [
    "CallbackType",
    "ChannelType",
    "ErrorCode",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "Intent",
    "InteractionResult",
    "InteractionType",
    "MessageFlag",
    "RecordedAttachment",
    "RecordedMessage",
    "RequestRecord",
    "running_client",
    "snowflake_time",
    "walk_components",
]

_log = logging.getLogger(__name__)

JSON = dict[str, Any]
ClientT = TypeVar("ClientT", bound="discord.Client")

API_PREFIX: Final = "/api/v10"
DISCORD_EPOCH_MS: Final = 1_420_070_400_000
CALLBACK_DEADLINE_S: Final = 3.0
MAX_CONTENT: Final = 2000
MAX_EMBEDS: Final = 10
MAX_ACTION_ROWS: Final = 5
#: Discord's limit on the components of one message, nested ones counted
MAX_COMPONENTS: Final = 40
MAX_CHOICES: Final = 25
MAX_OPTIONS: Final = 25
#: Discord's limit on a command's names, descriptions and values added up
MAX_COMMAND_SIZE: Final = 8000
POLL_INTERVAL_S: Final = 0.01


# --------------------------------------------------------------------------- protocol numbers


class Op(enum.IntEnum):
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class InteractionType(enum.IntEnum):
    """``type`` of an INTERACTION_CREATE payload."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    """``type`` of an interaction callback (the bot's answer)."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    PREMIUM_REQUIRED = 10
    LAUNCH_ACTIVITY = 12


_ALLOWED_CALLBACKS: Final[dict[int, frozenset[int]]] = {
    InteractionType.APPLICATION_COMMAND: frozenset({4, 5, 9, 10, 12}),
    InteractionType.MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9, 10}),
    InteractionType.AUTOCOMPLETE: frozenset({8}),
    InteractionType.MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


class ChannelType(enum.IntEnum):
    """Channel types the fake knows."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_CATEGORY = 4
    GUILD_ANNOUNCEMENT = 5
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class MessageFlag(enum.IntFlag):
    """Message flags the fake interprets."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


#: the two flags every scan of the messages reads, as plain ints (an IntFlag's ``&`` is
#: enum arithmetic, some 20 times slower, and whole-game tests read them millions of times)
_EPHEMERAL: Final = int(MessageFlag.EPHEMERAL)
_LOADING: Final = int(MessageFlag.LOADING)


class Intent(enum.IntFlag):
    """Gateway intents that change what the fake dispatches."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


class ErrorCode(enum.IntEnum):
    """JSON error codes Discord uses in error bodies."""

    GENERAL = 0
    UNKNOWN_CHANNEL = 10003
    UNKNOWN_GUILD = 10004
    UNKNOWN_MEMBER = 10007
    UNKNOWN_MESSAGE = 10008
    UNKNOWN_USER = 10013
    UNKNOWN_WEBHOOK = 10015
    UNKNOWN_INTERACTION = 10062
    UNKNOWN_APPLICATION_COMMAND = 10063
    ALREADY_ACKNOWLEDGED = 40060
    CANNOT_SEND_EMPTY_MESSAGE = 50006
    CANNOT_SEND_MESSAGES_TO_USER = 50007
    INVALID_RECIPIENT = 50033
    INVALID_FORM_BODY = 50035


# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR: Final = 1 << 3
_EVERYONE_PERMS: Final = (
    (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 18)  # USE_EXTERNAL_EMOJIS
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | (1 << 35)  # CREATE_PUBLIC_THREADS
    | (1 << 38)  # SEND_MESSAGES_IN_THREADS
)
_BOT_ROLE_PERMS: Final = (
    _EVERYONE_PERMS
    | (1 << 13)  # MANAGE_MESSAGES
    | (1 << 34)  # MANAGE_THREADS
    | (1 << 36)  # CREATE_PRIVATE_THREADS
)
ALL_PERMISSIONS: Final = (1 << 53) - 1


# --------------------------------------------------------------------------- snowflakes & time


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def snowflake_time(snowflake: int) -> datetime:
    """The creation time encoded in a snowflake."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


class SnowflakeFactory:
    """Makes increasing snowflakes from the wall clock, the way Discord does.

    Layout: ``(ms since 2015-01-01) << 22 | worker << 17 | process << 12 | increment``.
    """

    def __init__(self, worker: int = 1, process: int = 1) -> None:
        self._prefix = ((worker & 0x1F) << 17) | ((process & 0x1F) << 12)
        self._increment = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | self._prefix | (next(self._increment) & 0xFFF)
        if value <= self._last:  # same millisecond and increment wrapped, or clock went back
            value = self._last + 1
        self._last = value
        return value


# --------------------------------------------------------------------------- the world


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a person, or the bot itself)."""

    id: int
    name: str
    dms_open: bool = True
    bot: bool = False
    locale: str = "en-US"
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role. The ``@everyone`` role has the guild's id."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild."""

    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime = field(default_factory=_now)


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, category, thread, or a DM channel (``recipient`` set)."""

    id: int
    name: str
    type: ChannelType = ChannelType.GUILD_TEXT
    guild: FakeGuild | None = None
    recipient: FakeUser | None = None
    parent: FakeChannel | None = None
    topic: str | None = None
    position: int = 0
    owner_id: int | None = None
    thread_members: set[int] = field(default_factory=set)

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> JSON:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "recipients": [self.recipient.to_payload()],
                "last_message_id": None,
                "flags": 0,
            }
        assert self.guild is not None
        payload: JSON = {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": str(self.parent.id) if self.parent else None,
            "topic": self.topic,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if self.is_thread:
            payload.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=len(self.thread_members),
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _iso(_now()),
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": _iso(snowflake_time(self.id)),
                },
            )
        return payload


@dataclass(eq=False)
class FakeGuild:
    """A guild with its channels, roles and members."""

    id: int
    name: str
    owner: FakeUser
    channels: list[FakeChannel] = field(default_factory=list)
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def member(self, user: FakeUser) -> FakeMember | None:
        return self.members.get(user.id)

    def permissions_for(self, user: FakeUser) -> int:
        """Guild-level permissions: owner and administrators get everything."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        if member is None:
            return 0
        value = self.everyone.permissions
        for role in member.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def member_payload(self, member: FakeMember, *, with_user: bool = True) -> JSON:
        payload: JSON = {
            "roles": [str(r.id) for r in member.roles],
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "joined_at": _iso(member.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = member.user.to_payload()
        return payload

    def to_payload(self, *, only_member: FakeUser | None = None) -> JSON:
        """The GUILD_CREATE payload.

        Discord sends every member only to bots with the GUILD_MEMBERS or GUILD_PRESENCES
        intent; otherwise just the bot's own member (pass it as ``only_member``), with
        ``member_count`` still the real count.
        """
        members = [m for m in self.members.values() if only_member is None or m.user is only_member]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),  # the real count, whatever members are sent
            "members": [self.member_payload(m) for m in members],
            "channels": [c.to_payload() for c in self.channels if not c.is_thread],
            "threads": [c.to_payload() for c in self.channels if c.is_thread],
            "roles": [r.to_payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": self.locale,
            "joined_at": _iso(snowflake_time(self.id)),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "vanity_url_code": None,
            "max_members": 500000,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# --------------------------------------------------------------------------- recordings


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Every component of a message or modal, depth first.

    Covers action rows and containers (``components``), labels (``component``) and sections
    (``accessory``).
    """
    for item in components:
        yield item
        yield from walk_components(item.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(item.get(key), dict):
                yield from walk_components([item[key]])


@dataclass(eq=False)
class RecordedAttachment:
    """A file the bot uploaded (or a test attached), with its decoded bytes."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        return payload


@dataclass(eq=False)
class RecordedMessage:
    """A message as the fake stores it, with what the bot sent and how.

    ``source`` is ``"channel"`` (``POST /channels/{id}/messages``), ``"callback"`` (an interaction
    callback), ``"followup"`` (a webhook follow-up) or ``"user"`` (a test's
    :meth:`FakeDiscord.user_says`). ``interaction`` is the interaction the message answered.
    ``ephemeral_for`` is the only user who can see an ephemeral message. ``history`` holds the
    snapshots from before each edit.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[RecordedAttachment] = field(default_factory=list)
    flags: int = 0
    source: str = "channel"
    interaction: InteractionResult | None = None
    ephemeral_for: FakeUser | None = None
    message_reference: JSON | None = None
    tts: bool = False
    type: int = 0
    deleted: bool = False
    edited_at: datetime | None = None
    history: list[JSON] = field(default_factory=list)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    mentions: list[FakeUser] = field(default_factory=list)

    @property
    def created_at(self) -> datetime:
        return snowflake_time(self.id)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.flags) & _EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Still the "Bot is thinking..." placeholder of a deferred interaction."""
        return bool(int(self.flags) & _LOADING)

    @property
    def is_dm(self) -> bool:
        return self.channel.is_dm

    @property
    def dm_recipient(self) -> FakeUser | None:
        return self.channel.recipient if self.channel.is_dm else None

    @property
    def text(self) -> str:
        """Content plus embed and text-display texts, one per line: handy for ``in`` asserts."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        parts.extend(str(c["content"]) for c in self.walk_components() if c.get("type") == 10)
        return "\n".join(parts)

    def walk_components(self) -> Iterator[JSON]:
        """Every component, depth first (see :func:`walk_components`)."""
        return walk_components(self.components)

    def find_component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def snapshot(self) -> JSON:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def to_payload(self, application_id: int | None = None) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [u.to_payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        guild = self.channel.guild
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            member = guild.member(self.author)
            if member is not None and self.source == "user":
                payload["member"] = guild.member_payload(member, with_user=False)
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        if self.reactions:
            payload["reactions"] = [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "me": False,
                    "count_details": {"burst": 0, "normal": len(users)},
                    "burst_colors": [],
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for name, users in self.reactions.items()
            ]
        if self.interaction is not None and self.source in ("callback", "followup"):
            itx = self.interaction
            payload["webhook_id"] = str(itx.application_id)
            payload["application_id"] = str(itx.application_id)
            payload["interaction_metadata"] = {
                "id": str(itx.id),
                "type": int(itx.type),
                "user": itx.user.to_payload(),
                "authorizing_integration_owners": itx.payload["authorizing_integration_owners"],
            }
        elif application_id is not None and self.author.bot:
            payload["application_id"] = str(application_id)
        return payload


@dataclass(eq=False)
class RequestRecord:
    """One REST request the bot made, and how the fake answered it."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    code: int | None = None
    #: the body as the fake read it: ``(payload, [(filename, bytes), ...])``, or None
    body: Any = None
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        code = f" code={self.code}" if self.code is not None else ""
        return f"{self.method} {self.path} -> {self.status}{code}"


@dataclass(eq=False)
class InteractionResult:
    """A handle on one interaction a test sent, filled in as the bot answers it.

    ``callback_type`` / ``callback_data`` are the bot's callback, ``response`` the message the
    callback created or targeted (the clicked message for types 6 and 7), ``followups`` the
    follow-up messages, ``choices`` the autocomplete answer, ``modal`` the modal the bot opened,
    ``rejected`` the bot's requests the fake refused for this interaction (late or double
    callbacks, follow-ups before the callback).
    """

    id: int
    token: str
    type: InteractionType
    user: FakeUser
    channel: FakeChannel
    application_id: int
    payload: JSON
    label: str
    source_message: RecordedMessage | None = None
    sent_at: float = 0.0
    callback_at: float | None = None
    callback_type: CallbackType | None = None
    callback_data: JSON | None = None
    response: RecordedMessage | None = None
    followups: list[RecordedMessage] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    rejected: list[RequestRecord] = field(default_factory=list)
    #: the gateway shard the interaction was sent to (``None``: an unsharded bot)
    shard: int | None = None
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from sending INTERACTION_CREATE to receiving the callback."""
        return None if self.callback_at is None else self.callback_at - self.sent_at

    @property
    def deferred(self) -> bool:
        return self.callback_type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def ephemeral(self) -> bool:
        """Whether the callback's message (or defer) is ephemeral."""
        if self.response is not None:
            return self.response.ephemeral
        return bool((self.callback_data or {}).get("flags", 0) & MessageFlag.EPHEMERAL)

    @property
    def messages(self) -> list[RecordedMessage]:
        """The response message (if any) then the follow-ups, without duplicates."""
        out: list[RecordedMessage] = []
        for msg in [self.response, *self.followups]:
            if msg is not None and msg not in out:
                out.append(msg)
        return out

    async def wait(
        self,
        *,
        timeout: float | None = None,
        followups: int = 0,
        messages: int = 0,
        quiet: float | None = None,
    ) -> InteractionResult:
        """Wait until the bot answered, then for ``followups``/``messages`` more, then quiet.

        ``quiet`` waits until the bot made no REST request for that many seconds. Raises
        ``TimeoutError`` (with the recent requests in the message) after ``timeout`` seconds
        (default :attr:`FakeDiscord.default_timeout`). Returns ``self``.
        """
        fake = self._fake
        assert fake is not None
        timeout = fake.default_timeout if timeout is None else timeout
        deadline = asyncio.get_running_loop().time() + timeout
        await fake.wait_for(
            lambda: (
                self.acknowledged
                and len(self.followups) >= followups
                and len(self.messages) >= messages
            ),
            timeout=timeout,
            what=(
                f"{self.label}: callback + {followups} follow-up(s) + {messages} message(s); "
                f"got callback={self.callback_type!r} followups={len(self.followups)} "
                f"rejected={[str(r) for r in self.rejected]}"
            ),
        )
        if quiet is not None:
            await fake.wait_quiet(
                quiet, timeout=max(0.0, deadline - asyncio.get_running_loop().time())
            )
        return self


def _longest(obj: JSON, key: str) -> int:
    """A field's length as Discord counts it: the longest of its value and localizations."""
    values = [str(obj.get(key, ""))] + [
        str(v) for v in (obj.get(f"{key}_localizations") or {}).values()
    ]
    return max(len(v) for v in values)


def _command_size(obj: JSON) -> int:
    """Discord's size of a command: names, descriptions and values, options and choices."""
    total = _longest(obj, "name") + _longest(obj, "description")
    for choice in obj.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(_command_size(o) for o in obj.get("options") or [])


def _check_options(options: list[JSON], path: str, depth: int) -> None:
    """The option tree of a slash command, as Discord's API schema and docs limit it.

    At most 25 options and 25 choices; names 1-32 lowercase word characters,
    unique; descriptions and choice names 1-100 characters (localizations too);
    subcommand groups hold subcommands only, subcommands hold no groups or
    subcommands; required options come before optional ones; an option has
    choices or autocomplete, not both.
    """
    if len(options) > MAX_OPTIONS:
        raise _invalid_form(f"/{path}: more than {MAX_OPTIONS} options", "options")
    names = [str(o.get("name", "")) for o in options]
    if len(set(names)) != len(names):
        raise _invalid_form(f"/{path}: option names repeat: {names}", "options")
    seen_optional = False
    for option in options:
        name, otype = str(option.get("name", "")), int(option.get("type", 0))
        where = f"{path} {name}"
        if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
            raise _invalid_form(f"/{where}: invalid option name", "options")
        for key in ("name", "description"):
            localized = (option.get(f"{key}_localizations") or {}).values()
            for text in [option.get(key, ""), *localized]:
                limit = 32 if key == "name" else 100
                if not 1 <= len(str(text)) <= limit:
                    raise _invalid_form(f"/{where}: {key} {text!r} must be 1 to {limit}", key)
        sub = option.get("options") or []
        if otype == 2:  # a subcommand group: subcommands only, one level down
            if depth > 0 or not sub or any(int(o.get("type", 0)) != 1 for o in sub):
                raise _invalid_form(f"/{where}: a group holds subcommands only", "options")
            _check_options(sub, where, depth + 1)
            continue
        if otype == 1:
            if any(int(o.get("type", 0)) in (1, 2) for o in sub):
                raise _invalid_form(f"/{where}: a subcommand cannot nest commands", "options")
            _check_options(sub, where, depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                raise _invalid_form(f"/{where}: required after optional", "options")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            raise _invalid_form(f"/{where}: more than {MAX_CHOICES} choices", "choices")
        if choices and option.get("autocomplete"):
            raise _invalid_form(f"/{where}: choices and autocomplete together", "choices")
        for choice in choices:
            localized = (choice.get("name_localizations") or {}).values()
            for text in [choice.get("name", ""), *localized]:
                if not 1 <= len(str(text)) <= 100:
                    raise _invalid_form(
                        f"/{where}: choice name {text!r} must be 1 to 100", "choices"
                    )


class _ApiError(Exception):
    """Raised by route handlers; becomes a Discord-shaped JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def _invalid_form(message: str, path: str = "") -> _ApiError:
    errors = {path or "_errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}}
    return _ApiError(400, ErrorCode.INVALID_FORM_BODY, f"Invalid Form Body ({message})", errors)


def _json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py does not parse "application/json; charset=utf-8".
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )


# --------------------------------------------------------------------------- gateway plumbing


class _GatewayConnection:
    """One websocket from the bot."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self.session: _GatewaySession | None = None

    async def send(self, frame: JSON) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(frame))  # TEXT frame, uncompressed


@dataclass(eq=False)
class _GatewaySession:
    session_id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    frames: list[JSON] = field(default_factory=list)
    connection: _GatewayConnection | None = None


_Handler = Callable[..., Awaitable[web.StreamResponse]]
_INTERACTION_KEY: Final = web.RequestKey("interaction", object)
#: a request's body as read (its JSON payload and its files), for :attr:`RequestRecord.body`
_BODY_KEY: Final = web.RequestKey("body", object)


@dataclass(frozen=True)
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: _Handler
    auth: bool


def _compile(template: str) -> re.Pattern[str]:
    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "message_ref":
            return r"(?P<message_ref>@original|\d+)"
        if name.endswith("_id"):
            return rf"(?P<{name}>\d+)"
        return rf"(?P<{name}>[^/]+)"

    return re.compile(re.sub(r"\{(\w+)\}", repl, template))


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    """Discord's REST API and gateway, faked on ``127.0.0.1`` for one test.

    Build the world with :meth:`add_guild`, :meth:`add_channel`, :meth:`add_user` (before or
    after the bot connects), point discord.py at it with :meth:`patch_discord`, run the bot with
    :func:`running_client`, drive it with :meth:`slash`, :meth:`click`, :meth:`select`,
    :meth:`autocomplete`, :meth:`submit_modal`, :meth:`user_says`, and read what it did from
    :attr:`messages`, :meth:`messages_in`, :meth:`dms_to`, :meth:`ephemerals_for`,
    :meth:`visible_to`, :attr:`interactions`, :attr:`registered_commands`, :attr:`requests`.

    Unknown routes are logged at ERROR level, answered with a 404 JSON body and kept in
    :attr:`unknown_requests`; bugs of the fake itself land in :attr:`errors`.
    :meth:`assert_clean` (called by the ``fake_discord`` fixture) fails the test on either.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Ziggurat",
        heartbeat_interval_ms: int = 41_250,
        callback_deadline: float = CALLBACK_DEADLINE_S,
        attachment_size_limit: int = 10 * 1024 * 1024,
        default_timeout: float = 5.0,
    ) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.callback_deadline = callback_deadline
        self.attachment_size_limit = attachment_size_limit
        self.default_timeout = default_timeout
        self.snowflake = SnowflakeFactory()

        self.application_id = self.snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(self.snowflake(), f"{bot_name.lower()}-owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}

        self.messages: list[RecordedMessage] = []
        self._messages_by_id: dict[int, RecordedMessage] = {}
        #: ``messages`` by channel id, in order (what :meth:`messages_in` reads)
        self._messages_by_channel: dict[int, list[RecordedMessage]] = {}
        self.attachments: dict[int, RecordedAttachment] = {}
        self.interactions: list[InteractionResult] = []
        self._interactions_by_token: dict[str, InteractionResult] = {}

        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs: list[tuple[int | None, list[str]]] = []

        self.requests: list[RequestRecord] = []
        self.unknown_requests: list[RequestRecord] = []
        self.errors: list[str] = []

        self.identify_payloads: list[JSON] = []
        self.presence_updates: list[JSON] = []
        self.heartbeats = 0
        self.gateway_close_codes: list[int | None] = []
        self.resume_count = 0
        self.invalid_sessions = 0
        self._sessions: dict[str, _GatewaySession] = {}
        self._session: _GatewaySession | None = None
        #: the live session of each shard (key 0 for an unsharded bot)
        self._shard_sessions: dict[int, _GatewaySession] = {}
        #: the shard count ``GET /gateway/bot`` recommends
        self.shard_count = 1
        self._connections: set[_GatewayConnection] = set()
        self._ready = asyncio.Event()

        self._changed = asyncio.Event()
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        """Serve on ``127.0.0.1`` and a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self._port = int(self._runner.addresses[0][1])  # the port the OS picked
        _log.info("fake Discord listening on %s", self.url)
        return self

    async def stop(self) -> None:
        """Close the gateway connections (code 1001) and the server. Idempotent."""
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"fake Discord stopping")
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeDiscord.start() has not been awaited")
        return self._port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/resume/"

    def patch_discord(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Point discord.py's REST (``Route.BASE``) and gateway at this fake, until teardown."""
        import discord.gateway
        import discord.http

        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url)
        )

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """Like :meth:`patch_discord` without pytest: patch inside the ``with`` block only."""
        import discord.gateway
        import discord.http

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield self
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    def assert_clean(self) -> None:
        """Fail if the bot hit a route the fake does not know, or the fake itself broke."""
        problems = [f"unknown route: {r}" for r in self.unknown_requests]
        problems += [f"fake Discord error: {e}" for e in self.errors]
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # ------------------------------------------------------------------ world building

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        locale: str = "en-US",
        guilds: Iterable[FakeGuild] | None = None,
        bot: bool = False,
    ) -> FakeUser:
        """Create a user and make them a member of ``guilds`` (default: every guild so far).

        After READY, joining a guild is announced with GUILD_MEMBER_ADD if the bot has the
        members intent.
        """
        user = FakeUser(self.snowflake(), name, dms_open=dms_open, locale=locale, bot=bot)
        self.users[user.id] = user
        for guild in self.guilds.values() if guilds is None else guilds:
            self.add_member(guild, user)
        return user

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member of ``guild`` (idempotent)."""
        member = guild.members.get(user.id)
        if member is not None:
            return member
        member = FakeMember(user, list(roles), nick)
        guild.members[user.id] = member
        if self._wants(Intent.GUILD_MEMBERS):
            payload = guild.member_payload(member) | {"guild_id": str(guild.id)}
            self._dispatch_soon("GUILD_MEMBER_ADD", payload)
        return member

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild (with ``@everyone``, the bot's managed role, and the bot as member).

        ``shard=(shard_id, shard_count)`` picks an id that Discord would route to that shard.
        """
        gid = self.snowflake() if shard is None else self._snowflake_on_shard(*shard)
        owner = owner or self.owner
        guild = FakeGuild(gid, name, owner, locale=locale)
        guild.roles.append(FakeRole(gid, "@everyone", _EVERYONE_PERMS))
        bot_role = FakeRole(self.snowflake(), self.bot_user.name, _BOT_ROLE_PERMS, 1, managed=True)
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role])
        guild.members.setdefault(owner.id, FakeMember(owner))
        self.guilds[gid] = guild
        if self._session is not None:
            self._dispatch_soon("GUILD_CREATE", self._guild_create(guild))
        return guild

    def _snowflake_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh snowflake whose ``(id >> 22) % shard_count`` is ``shard_id``."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not in 0..{shard_count - 1}")
        value = self.snowflake()
        ms = value >> 22
        ms += (shard_id - ms) % shard_count  # a few milliseconds ahead at most
        value = (ms << 22) | (value & ((1 << 22) - 1))
        self.snowflake._last = max(self.snowflake._last, value)  # later ids stay larger
        return value

    @staticmethod
    def shard_of(guild_id: int, shard_count: int) -> int:
        """The shard Discord routes a guild's events to."""
        return (guild_id >> 22) % shard_count

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> FakeRole:
        role = FakeRole(self.snowflake(), name, permissions, len(guild.roles))
        guild.roles.append(role)
        if self._session is not None:
            self._dispatch_soon(
                "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_payload()}
            )
        return role

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        type: ChannelType = ChannelType.GUILD_TEXT,
        topic: str | None = None,
        parent: FakeChannel | None = None,
    ) -> FakeChannel:
        """Create a guild channel; announced with CHANNEL_CREATE after READY."""
        channel = FakeChannel(
            self.snowflake(),
            name,
            type,
            guild=guild,
            topic=topic,
            parent=parent,
            position=len(guild.channels),
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if self._session is not None:
            self._dispatch_soon("CHANNEL_CREATE", channel.to_payload())
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use, as Discord does)."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = FakeChannel(self.snowflake(), "", ChannelType.DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def _member_or_raise(self, channel: FakeChannel, user: FakeUser) -> FakeMember | None:
        if channel.guild is None:
            return None
        member = channel.guild.member(user)
        if member is None:
            raise ValueError(f"{user.name} is not a member of guild {channel.guild.name!r}")
        return member

    # ------------------------------------------------------------------ waiting

    def _touch(self) -> None:
        self._last_activity = time.monotonic()
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float | None = None, what: str = ""
    ) -> None:
        """Wait until ``predicate()`` is true; raise ``TimeoutError`` with diagnostics if not.

        The predicate is re-checked on every change the fake records and at least every
        ``POLL_INTERVAL_S``, so it may also look at the bot's own state.
        """
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(self._diagnose(f"timed out after {timeout}s waiting for {what}"))
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL_INTERVAL_S))

    async def wait_quiet(self, quiet: float = 0.05, *, timeout: float | None = None) -> None:
        """Wait until the bot sent nothing (REST or gateway) for ``quiet`` seconds."""
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle = time.monotonic() - self._last_activity
            if idle >= quiet:
                return
            if loop.time() + (quiet - idle) > deadline:
                raise TimeoutError(self._diagnose(f"bot still busy after {timeout}s"))
            await asyncio.sleep(quiet - idle)

    def shard_connected(self, shard: int) -> bool:
        """Whether a live gateway connection has identified as ``shard``."""
        session = self._shard_sessions.get(shard)
        return session is not None and session.connection is not None

    async def wait_shards(self, shards: Iterable[int], timeout: float | None = None) -> None:
        """Wait until each of ``shards`` has a live, identified connection (any process)."""
        wanted = list(shards)
        await self.wait_for(
            lambda: all(self.shard_connected(s) for s in wanted),
            timeout=timeout,
            what=f"shards {wanted} to connect",
        )

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Wait until the bot identified and was sent READY and every GUILD_CREATE.

        A sharded bot is ready once every shard of its ``shard_count`` has identified.
        """
        timeout = self.default_timeout if timeout is None else timeout
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(self._diagnose(f"bot did not IDENTIFY within {timeout}s")) from None

    def _diagnose(self, headline: str) -> str:
        lines = [headline, "last requests:"]
        lines += [f"  {r}" for r in self.requests[-10:]] or ["  (none)"]
        if self.unknown_requests:
            lines.append("unknown routes: " + ", ".join(str(r) for r in self.unknown_requests))
        if self.errors:
            lines.append("fake errors: " + "; ".join(self.errors))
        return "\n".join(lines)

    # ------------------------------------------------------------------ queries

    @property
    def registered_commands(self) -> dict[int | None, list[JSON]]:
        """Commands as registered by the bot: key ``None`` = global, else the guild id."""
        return {None: self.global_commands, **self.guild_commands}

    def command(self, name: str, guild: FakeGuild | None = None) -> JSON | None:
        """A registered top-level command by name (guild commands first, then global)."""
        pools = ([self.guild_commands.get(guild.id, [])] if guild else []) + [self.global_commands]
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def message(self, message_id: int) -> RecordedMessage:
        return self._messages_by_id[message_id]

    def _live(self) -> list[RecordedMessage]:
        return [m for m in self.messages if not m.deleted]

    def messages_in(
        self, channel: FakeChannel, *, include_ephemeral: bool = False
    ) -> list[RecordedMessage]:
        """Live messages in ``channel`` in order (ephemerals only if asked)."""
        return [
            m
            for m in self._messages_by_channel.get(channel.id, ())
            if m.channel is channel and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def dms_to(self, user: FakeUser) -> list[RecordedMessage]:
        """Live messages the bot sent to ``user``'s DM channel."""
        return [m for m in self._live() if m.dm_recipient is user and m.author is self.bot_user]

    def ephemerals_for(self, user: FakeUser) -> list[RecordedMessage]:
        return [m for m in self._live() if m.ephemeral and m.ephemeral_for is user]

    def visible_to(self, user: FakeUser) -> list[RecordedMessage]:
        """What ``user`` sees: public messages of their guilds, their ephemerals, their DMs."""
        return [m for m in self._live() if self.sees(user, m)]

    @staticmethod
    def sees(user: FakeUser, m: RecordedMessage) -> bool:
        """Whether ``user`` sees ``m`` (live or not): :meth:`visible_to`'s rule for one message."""
        if m.ephemeral:
            return m.ephemeral_for is user
        if m.channel.is_dm:
            return m.channel.recipient is user
        guild = m.channel.guild
        visible = guild is not None and user.id in guild.members
        if m.channel.type == ChannelType.PRIVATE_THREAD:
            visible = visible and user.id in m.channel.thread_members
        return visible

    @property
    def latencies(self) -> list[float]:
        """Callback latency (seconds) of every acknowledged interaction, in sending order."""
        return [i.latency for i in self.interactions if i.latency is not None]

    # ------------------------------------------------------------------ gateway

    def _wants(self, intent: Intent) -> bool:
        return self._session is not None and bool(self._session.intents & intent)

    def _guild_create(self, guild: FakeGuild) -> JSON:
        full = self._wants(Intent.GUILD_MEMBERS) or self._wants(Intent.GUILD_PRESENCES)
        return guild.to_payload(only_member=None if full else self.bot_user)

    @property
    def connected(self) -> bool:
        session = self._session
        return session is not None and session.connection is not None

    @staticmethod
    def _shard_key(session: _GatewaySession) -> int:
        return 0 if session.shard is None else int(session.shard[0])

    def _session_for(self, guild_id: int | None) -> _GatewaySession | None:
        """The session that gets events of ``guild_id`` (``None``: DMs, shard 0)."""
        session = self._session
        if session is None or session.shard is None or int(session.shard[1]) <= 1:
            return session
        shard = 0 if guild_id is None else self.shard_of(guild_id, int(session.shard[1]))
        return self._shard_sessions.get(shard)

    @staticmethod
    def _event_guild(event: str, data: JSON) -> int | None:
        if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            return int(data["id"])
        guild_id = data.get("guild_id")
        return None if guild_id is None else int(guild_id)

    async def dispatch(
        self, event: str, data: JSON, *, session: _GatewaySession | None = None
    ) -> None:
        """Send a DISPATCH frame (op 0) to the bot; kept for replay on RESUME.

        The frame goes to ``session``, else to the shard that owns the event's guild.
        """
        if session is None:
            session = self._session_for(self._event_guild(event, data))
        if session is None:
            raise RuntimeError("the bot has not identified yet (await fake.wait_ready())")
        session.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data}
        session.frames.append(frame)
        if session.connection is not None:
            await session.connection.send(frame)

    def _dispatch_soon(self, event: str, data: JSON) -> None:
        """Dispatch from sync code (world building after READY)."""
        if self._session is None:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data))
        task.add_done_callback(self._log_task_error)

    def _log_task_error(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(f"background dispatch failed: {task.exception()!r}")

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the bot's websocket as a network blip would; discord.py RESUMEs."""
        session = self._session
        if session is None or session.connection is None:
            raise RuntimeError("the bot is not connected")
        await session.connection.ws.close(code=code, message=b"fake disconnect")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py closes and RESUMEs."""
        session = self._session
        if session is None or session.connection is None:
            raise RuntimeError("the bot is not connected")
        await session.connection.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _GatewayConnection(ws)
        self._connections.add(conn)
        try:
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]}
            await conn.send({"op": Op.HELLO, "d": hello, "s": None, "t": None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        await self._on_gateway_frame(conn, json.loads(msg.data))
                    except Exception as exc:
                        _log.exception("fake gateway failed on %s", msg.data)
                        self.errors.append(f"gateway frame {msg.data[:200]!r}: {exc!r}")
                elif msg.type == WSMsgType.BINARY:
                    self.errors.append("bot sent a BINARY gateway frame (ETF is not supported)")
        finally:
            self.gateway_close_codes.append(ws.close_code)
            self._connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self._notify()
        return ws

    async def _on_gateway_frame(self, conn: _GatewayConnection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == Op.HEARTBEAT:
            self.heartbeats += 1
            await conn.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return
        self._touch()
        if op == Op.IDENTIFY:
            await self._identify(conn, data)
        elif op == Op.RESUME:
            await self._resume(conn, data)
        elif op == Op.PRESENCE_UPDATE:
            self.presence_updates.append(data)
        elif op == Op.REQUEST_GUILD_MEMBERS:
            await self._request_members(conn, data)
        else:
            _log.warning("fake gateway ignores op %s: %s", op, frame)

    async def _identify(self, conn: _GatewayConnection, data: JSON) -> None:
        self.identify_payloads.append(data)
        if data.get("token") != self.token:
            _log.error("fake gateway: IDENTIFY with wrong token")
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = _GatewaySession(
            session_id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            shard=data.get("shard"),
        )
        self._sessions[session.session_id] = session
        shard_key = self._shard_key(session)
        if session.shard is not None:
            count = int(session.shard[1])
            counts = {
                int(s.shard[1])
                for s in self._shard_sessions.values()
                if s.shard is not None and s.connection is not None and s.connection is not conn
            }
            if not 0 <= shard_key < count or counts - {count}:
                _log.error("fake gateway: IDENTIFY with invalid shard %s", session.shard)
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
        old = self._shard_sessions.get(shard_key)
        self._shard_sessions[shard_key] = session
        if shard_key == 0 or self._session is None:  # shard 0 is the primary session
            self._session = session
        if old is not None and old.connection is not None and old.connection is not conn:
            await old.connection.ws.close(code=4000)
        session.connection = conn
        conn.session = session
        if session.shard is None or int(session.shard[1]) <= 1:
            mine = list(self.guilds.values())
        else:
            count = int(session.shard[1])
            mine = [g for g in self.guilds.values() if self.shard_of(g.id, count) == shard_key]
        ready: JSON = {
            "v": 10,
            "user": self.bot_user.to_payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self.dispatch("READY", ready, session=session)
        for guild in mine:
            await self.dispatch("GUILD_CREATE", self._guild_create(guild), session=session)
        expected = 1 if session.shard is None else int(session.shard[1])
        if all(k in self._shard_sessions for k in range(expected)):
            self._ready.set()
        self._notify()

    async def _resume(self, conn: _GatewayConnection, data: JSON) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if (
            session is None
            or data.get("token") != self.token
            or session is not self._shard_sessions.get(self._shard_key(session))
        ):
            self.invalid_sessions += 1
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = conn
        conn.session = session
        seq = data.get("seq") or 0
        for frame in session.frames:
            if frame["s"] > seq:
                await conn.send(frame)
        self.resume_count += 1
        await self.dispatch("RESUMED", {"_trace": ["fake-discord"]}, session=session)
        self._notify()

    async def _request_members(self, conn: _GatewayConnection, data: JSON) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            ids = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in ids]
        elif data.get("query"):
            members = [m for m in members if m.user.name.lower().startswith(data["query"].lower())]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [guild.member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ HTTP entry point

    def _build_routes(self) -> list[_Route]:
        table: list[tuple[str, str, _Handler, bool]] = [
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("POST", "/users/@me/channels", self._create_dm, True),
            ("GET", "/applications/{app_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/commands", self._put_commands, True),
            ("POST", "/applications/{app_id}/commands", self._post_command, True),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self._delete_command, True),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands, True),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._post_command, True),
            (
                "DELETE",
                "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
                self._delete_command,
                True,
            ),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, False),
            ("POST", "/webhooks/{app_id}/{token}", self._followup, False),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_ref}", self._webhook_get, False),
            (
                "PATCH",
                "/webhooks/{app_id}/{token}/messages/{message_ref}",
                self._webhook_edit,
                False,
            ),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_ref}",
                self._webhook_delete,
                False,
            ),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("GET", "/channels/{channel_id}/messages", self._get_messages, True),
            ("POST", "/channels/{channel_id}/messages", self._post_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
            ("POST", "/channels/{channel_id}/threads", self._create_thread, True),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._create_thread,
                True,
            ),
            ("PUT", "/channels/{channel_id}/thread-members/{member}", self._thread_member, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{member}", self._thread_member, True),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._add_reaction,
                True,
            ),
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
        ]
        return [_Route(m, _compile(t), h, auth) for m, t, h, auth in table]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._gateway(request)
        self._touch()
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            return self._serve_attachment(path)
        response: web.StreamResponse | None = None
        code: int | None = None
        if path.startswith(API_PREFIX + "/"):
            sub = path[len(API_PREFIX) :]
            for route in self._routes:
                match = route.pattern.fullmatch(sub)
                if route.method != request.method or match is None:
                    continue
                if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    response, code = (
                        _json_response({"message": "401: Unauthorized", "code": 0}, 401),
                        0,
                    )
                    break
                try:
                    response = await route.handler(request, **match.groupdict())
                except _ApiError as exc:
                    code = exc.code
                    body: JSON = {"message": exc.message, "code": exc.code}
                    if exc.errors:
                        body["errors"] = exc.errors
                    response = _json_response(body, exc.status)
                except Exception as exc:
                    _log.exception("fake Discord failed on %s %s", request.method, path)
                    self.errors.append(f"{request.method} {path}: {exc!r}")
                    code = 0
                    response = _json_response(
                        {"message": f"fake Discord bug: {exc!r}", "code": 0}, 400
                    )
                break
        record = RequestRecord(
            request.method, path, dict(request.query), 0, code, request.get(_BODY_KEY)
        )
        if response is None:
            _log.error(
                "FAKE DISCORD: UNKNOWN ROUTE %s %s (query %s) -> 404; add it to %s",
                request.method,
                path,
                dict(request.query),
                __file__,
            )
            record.status = 404
            self.unknown_requests.append(record)
            response = _json_response(
                {
                    "message": f"404: Not Found (no fake route {request.method} {path})",
                    "code": 0,
                },
                404,
            )
        record.status = response.status
        self.requests.append(record)
        itx = request.get(_INTERACTION_KEY)
        if isinstance(itx, InteractionResult) and response.status >= 400:
            itx.rejected.append(record)
        self._touch()
        return response

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        try:
            attachment = self.attachments[int(parts[3])]
        except (IndexError, ValueError, KeyError):
            return web.Response(status=404, text="no such attachment")
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    # ------------------------------------------------------------------ request bodies

    async def _read_body(self, request: web.Request) -> tuple[JSON, list[tuple[str, bytes]]]:
        """A JSON body, or a multipart one (``payload_json`` + ``files[n]``): (payload, files)."""
        if request.content_type == "multipart/form-data":
            payload: JSON = {}
            files: dict[int, tuple[str, bytes]] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = part.name or ""
                data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(data)
                elif (m := re.fullmatch(r"files\[(\d+)\]", name)) is not None:
                    files[int(m.group(1))] = (part.filename or f"file{m.group(1)}", data)  # type: ignore[union-attr]
                else:
                    raise _invalid_form(f"unexpected multipart field {name!r}")
            read = payload, [files[i] for i in sorted(files)]
        elif not request.can_read_body:
            read = {}, []
        else:
            body = await request.json()
            read = (body if isinstance(body, dict) else {"_list": body}), []
        request[_BODY_KEY] = read
        return read

    def _make_attachments(
        self,
        channel: FakeChannel,
        entries: list[JSON] | None,
        files: list[tuple[str, bytes]],
        existing: Iterable[RecordedAttachment] = (),
    ) -> list[RecordedAttachment]:
        """Match ``attachments`` entries to uploaded files (by index) or kept attachments (id)."""
        by_id = {a.id: a for a in existing}
        out: list[RecordedAttachment] = []
        used: set[int] = set()
        for entry in entries if entries is not None else []:
            ident = int(entry["id"])
            if ident in by_id:
                out.append(by_id[ident])
            elif 0 <= ident < len(files):
                used.add(ident)
                out.append(self._store_file(channel, *files[ident], entry.get("description")))
            else:
                raise _invalid_form(f"attachment id {ident} matches no file", "attachments")
        for index, (filename, data) in enumerate(files):
            if index not in used:  # files without metadata are attached in order
                out.append(self._store_file(channel, filename, data, None))
        return out

    def _store_file(
        self, channel: FakeChannel, filename: str, data: bytes, description: str | None
    ) -> RecordedAttachment:
        if len(data) > self.attachment_size_limit:
            raise _ApiError(413, 40005, "Request entity too large")
        ident = self.snowflake()
        attachment = RecordedAttachment(
            id=ident,
            filename=filename,
            data=data,
            url=f"{self.url}/attachments/{channel.id}/{ident}/{filename}",
            content_type=mimetypes.guess_type(filename)[0],
            description=description,
        )
        self.attachments[ident] = attachment
        return attachment

    # ------------------------------------------------------------------ validation

    def _validate_message(
        self, payload: JSON, files: list[tuple[str, bytes]], *, create: bool
    ) -> None:
        content = payload.get("content")
        if content is not None and len(str(content)) > MAX_CONTENT:
            raise _invalid_form(f"content must be {MAX_CONTENT} or fewer in length", "content")
        embeds = payload.get("embeds") or []
        if len(embeds) > MAX_EMBEDS:
            raise _invalid_form(f"at most {MAX_EMBEDS} embeds", "embeds")
        total = 0
        for embed in embeds:
            total += sum(len(str(embed.get(k) or "")) for k in ("title", "description"))
            total += sum(
                len(str(f.get("name", ""))) + len(str(f.get("value", "")))
                for f in embed.get("fields", [])
            )
            if len(embed.get("fields", [])) > 25:
                raise _invalid_form("at most 25 fields per embed", "embeds")
            if len(str(embed.get("description") or "")) > 4096:
                raise _invalid_form("embed description must be 4096 or fewer in length", "embeds")
        if total > 6000:
            raise _invalid_form("embeds exceed 6000 characters in total", "embeds")
        components = payload.get("components") or []
        v2 = bool(int(payload.get("flags") or 0) & MessageFlag.IS_COMPONENTS_V2)
        self._validate_components(components, v2=v2)
        if v2 and (content or embeds):
            raise _invalid_form("content and embeds cannot be set with IS_COMPONENTS_V2", "content")
        if create and not (
            content
            or embeds
            or files
            or components
            or payload.get("sticker_ids")
            or payload.get("poll")
        ):
            raise _ApiError(
                400, ErrorCode.CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message"
            )

    def _validate_components(self, components: list[JSON], *, v2: bool) -> None:
        if not v2:
            if len(components) > MAX_ACTION_ROWS:
                raise _invalid_form(f"at most {MAX_ACTION_ROWS} action rows", "components")
            if any(c.get("type") != 1 for c in components):
                raise _invalid_form(
                    "top-level components must be action rows without IS_COMPONENTS_V2",
                    "components",
                )
        seen: set[str] = set()
        for comp in walk_components(components):
            ctype = comp.get("type")
            if ctype == 1:
                children = comp.get("components", [])
                if not 1 <= len(children) <= 5:
                    raise _invalid_form("an action row holds 1 to 5 components", "components")
                if any(c.get("type") in (3, 5, 6, 7, 8) for c in children) and len(children) > 1:
                    raise _invalid_form(
                        "a select menu must be alone in its action row", "components"
                    )
            custom_id = comp.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise _invalid_form("custom_id must be 1 to 100 characters", "components")
                if custom_id in seen:
                    raise _invalid_form(f"duplicate custom_id {custom_id!r}", "components")
                seen.add(custom_id)
            if ctype == 2:
                if len(comp.get("label") or "") > 80:
                    raise _invalid_form("button label must be 80 or fewer in length", "components")
                if comp.get("style") == 5:
                    if not comp.get("url") or custom_id is not None:
                        raise _invalid_form(
                            "link buttons need a url and no custom_id", "components"
                        )
                elif comp.get("style") != 6 and custom_id is None:
                    raise _invalid_form("non-link buttons need a custom_id", "components")
            if ctype == 3:
                self._validate_string_select(comp)
        if not v2 and sum(1 for _ in walk_components(components)) > MAX_COMPONENTS:
            raise _invalid_form(f"at most {MAX_COMPONENTS} components in total", "components")

    @staticmethod
    def _validate_string_select(comp: JSON) -> None:
        """A string select as Discord's API schema limits it (a string select request:
        1-25 options, label/value/description up to 100 characters, placeholder up to 150,
        0 <= min_values <= max_values <= 25 and no more than its options)."""
        options = comp.get("options", [])
        if not 1 <= len(options) <= 25:
            raise _invalid_form("a string select has 1 to 25 options", "components")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            raise _invalid_form("select option values must be unique", "components")
        for option in options:
            for key in ("label", "value"):
                if not 1 <= len(str(option.get(key) or "")) <= 100:
                    raise _invalid_form(f"select option {key} must be 1 to 100", "components")
            if len(str(option.get("description") or "")) > 100:
                raise _invalid_form("select option description over 100", "components")
        if len(str(comp.get("placeholder") or "")) > 150:
            raise _invalid_form("select placeholder must be 150 or fewer", "components")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= low <= high <= min(25, len(options)) or high < 1:
            raise _invalid_form("select min_values/max_values out of range", "components")

    # ------------------------------------------------------------------ message creation

    def _record(self, msg: RecordedMessage) -> RecordedMessage:
        self.messages.append(msg)
        self._messages_by_id[msg.id] = msg
        self._messages_by_channel.setdefault(msg.channel.id, []).append(msg)
        self._notify()
        return msg

    def _mentions(self, content: str) -> list[FakeUser]:
        ids = [int(i) for i in re.findall(r"<@!?(\d+)>", content)]
        return [self.users[i] for i in dict.fromkeys(ids) if i in self.users]

    def _new_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: JSON,
        files: list[tuple[str, bytes]],
        *,
        source: str,
        interaction: InteractionResult | None = None,
        message_type: int = 0,
    ) -> RecordedMessage:
        self._validate_message(payload, files, create=True)
        flags = int(payload.get("flags") or 0)
        ephemeral_for = None
        if interaction is not None and flags & MessageFlag.EPHEMERAL:
            ephemeral_for = interaction.user
        else:
            flags &= ~MessageFlag.EPHEMERAL  # only interaction responses can be ephemeral
        content = str(payload.get("content") or "")
        msg = RecordedMessage(
            id=self.snowflake(),
            channel=channel,
            author=author,
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=self._make_attachments(channel, payload.get("attachments"), files),
            flags=flags,
            source=source,
            interaction=interaction,
            ephemeral_for=ephemeral_for,
            message_reference=payload.get("message_reference"),
            tts=bool(payload.get("tts")),
            type=message_type,
            mentions=self._mentions(content),
        )
        return self._record(msg)

    def _apply_edit(
        self, msg: RecordedMessage, payload: JSON, files: list[tuple[str, bytes]]
    ) -> None:
        """PATCH semantics: given fields replace; ``attachments`` lists what to keep + add."""
        if msg.deleted:
            raise _ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        self._validate_message(payload, files, create=False)
        msg.history.append(msg.snapshot())
        if "content" in payload:
            msg.content = str(payload["content"] or "")
            msg.mentions = self._mentions(msg.content)
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "attachments" in payload:
            msg.attachments = self._make_attachments(
                msg.channel, payload["attachments"] or [], files, msg.attachments
            )
        elif files:
            msg.attachments += self._make_attachments(msg.channel, None, files)
        if "flags" in payload and payload["flags"] is not None:
            keep = MessageFlag.EPHEMERAL | MessageFlag.LOADING
            msg.flags = (msg.flags & keep) | (int(payload["flags"]) & ~keep)
        msg.flags &= ~MessageFlag.LOADING
        msg.edited_at = _now()
        self._notify()

    def _announce(self, event: str, msg: RecordedMessage) -> None:
        """MESSAGE_CREATE/UPDATE for non-ephemeral messages, if the bot's intents ask for it."""
        if msg.ephemeral:
            return
        intent = Intent.DIRECT_MESSAGES if msg.is_dm else Intent.GUILD_MESSAGES
        if self._wants(intent):
            self._dispatch_soon(event, msg.to_payload(self.application_id))

    def _announce_delete(self, msg: RecordedMessage) -> None:
        intent = Intent.DIRECT_MESSAGES if msg.is_dm else Intent.GUILD_MESSAGES
        if not msg.ephemeral and self._wants(intent):
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.guild is not None:
                data["guild_id"] = str(msg.guild.id)
            self._dispatch_soon("MESSAGE_DELETE", data)

    # ------------------------------------------------------------------ REST: login & users

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json_response({"url": self.gateway_url.rstrip("/")})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json_response(self.bot_user.to_payload() | {"verified": True, "mfa_enabled": False})

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user.to_payload(),
                "owner": self.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
                "approximate_user_install_count": 0,
                "integration_types_config": {"0": {}},
            }
        )

    async def _get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            raise _ApiError(404, ErrorCode.UNKNOWN_USER, "Unknown User")
        return _json_response(user.to_payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._read_body(request)
        user = self.users.get(int(payload.get("recipient_id", 0)))
        if user is None or user is self.bot_user:
            raise _ApiError(400, ErrorCode.INVALID_RECIPIENT, "Invalid Recipient(s)")
        return _json_response(self.dm_channel(user).to_payload())

    # ------------------------------------------------------------------ REST: commands

    def _command_pool(self, app_id: str, guild_id: str | None) -> list[JSON]:
        if int(app_id) != self.application_id:
            raise _ApiError(403, 50001, "Missing Access")
        if guild_id is None:
            return self.global_commands
        if int(guild_id) not in self.guilds:
            raise _ApiError(403, 50001, "Missing Access")
        return self.guild_commands.setdefault(int(guild_id), [])

    def _register(self, body: JSON, guild_id: str | None, previous: list[JSON]) -> JSON:
        if not re.fullmatch(r"[-_\w]{1,32}", str(body.get("name", ""))):
            raise _invalid_form(f"invalid command name {body.get('name')!r}", "name")
        ctype = int(body.get("type", 1))
        if ctype == 1 and not 1 <= len(str(body.get("description", ""))) <= 100:
            raise _invalid_form("description must be 1 to 100 characters", "description")
        if ctype == 1:
            _check_options(body.get("options") or [], str(body["name"]), depth=0)
            if _command_size(body) > MAX_COMMAND_SIZE:
                raise _invalid_form(
                    f"/{body['name']} is over {MAX_COMMAND_SIZE} characters", "options"
                )
        old = next(
            (c for c in previous if c["name"] == body["name"] and c.get("type", 1) == ctype), None
        )
        cmd = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
        } | body
        cmd.update(
            id=old["id"] if old else str(self.snowflake()),  # Discord keeps ids on overwrite
            application_id=str(self.application_id),
            version=str(self.snowflake()),
        )
        if guild_id is not None:
            cmd["guild_id"] = guild_id
        return cmd

    async def _get_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        return _json_response(self._command_pool(app_id, guild_id))

    async def _put_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        pool = self._command_pool(app_id, guild_id)
        payload, _ = await self._read_body(request)
        bodies = payload.get("_list", [])
        if len(bodies) > 100:
            raise _invalid_form("at most 100 commands per scope")
        names = [(b.get("name"), b.get("type", 1)) for b in bodies]
        if len(set(names)) != len(names):
            raise _invalid_form("duplicate command name", "name")
        new = [self._register(b, guild_id, pool) for b in bodies]
        pool[:] = new
        self.command_syncs.append(
            (None if guild_id is None else int(guild_id), [c["name"] for c in new])
        )
        self._notify()
        return _json_response(new)

    async def _post_command(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        pool = self._command_pool(app_id, guild_id)
        payload, _ = await self._read_body(request)
        cmd = self._register(payload, guild_id, pool)
        existed = any(c["id"] == cmd["id"] for c in pool)
        pool[:] = [c for c in pool if c["id"] != cmd["id"]] + [cmd]
        self._notify()
        return _json_response(cmd, 200 if existed else 201)

    async def _delete_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        pool = self._command_pool(app_id, guild_id)
        if not any(c["id"] == command_id for c in pool):
            raise _ApiError(
                404, ErrorCode.UNKNOWN_APPLICATION_COMMAND, "Unknown application command"
            )
        pool[:] = [c for c in pool if c["id"] != command_id]
        self._notify()
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_for(self, request: web.Request, token: str) -> InteractionResult | None:
        itx = self._interactions_by_token.get(token)
        if itx is not None:
            request[_INTERACTION_KEY] = itx  # lets _handle file refusals under itx.rejected
        return itx

    async def _callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> web.Response:
        itx = self._interaction_for(request, token)
        if itx is None or itx.id != int(interaction_id):
            raise _ApiError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        body, files = await self._read_body(request)
        if itx.acknowledged:
            raise _ApiError(
                400, ErrorCode.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if time.monotonic() - itx.sent_at > self.callback_deadline:
            raise _ApiError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        ctype = int(body.get("type", 0))
        if ctype not in _ALLOWED_CALLBACKS.get(itx.type, frozenset()):
            raise _invalid_form(
                f"callback type {ctype} is invalid for interaction type {itx.type}", "type"
            )
        if ctype in (6, 7) and itx.source_message is None:
            raise _invalid_form(f"callback type {ctype} needs a message", "type")
        data: JSON = body.get("data") or {}
        resource: JSON = {"type": ctype}
        message: RecordedMessage | None = None
        if ctype == CallbackType.CHANNEL_MESSAGE:
            mtype = 20 if itx.type == InteractionType.APPLICATION_COMMAND else 0
            message = self._new_message(
                itx.channel,
                self.bot_user,
                data,
                files,
                source="callback",
                interaction=itx,
                message_type=mtype,
            )
            self._announce("MESSAGE_CREATE", message)
        elif ctype == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = MessageFlag.LOADING | (int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            message = RecordedMessage(
                self.snowflake(),
                itx.channel,
                self.bot_user,
                flags=int(flags),
                source="callback",
                interaction=itx,
                ephemeral_for=itx.user if flags & MessageFlag.EPHEMERAL else None,
                type=20 if itx.type == InteractionType.APPLICATION_COMMAND else 0,
            )
            self._record(message)
            self._announce("MESSAGE_CREATE", message)
        elif ctype == CallbackType.DEFERRED_UPDATE_MESSAGE:
            message = itx.source_message
        elif ctype == CallbackType.UPDATE_MESSAGE:
            assert itx.source_message is not None
            message = itx.source_message
            self._apply_edit(message, data, files)
            self._announce("MESSAGE_UPDATE", message)
        elif ctype == CallbackType.AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > MAX_CHOICES:
                raise _invalid_form(f"at most {MAX_CHOICES} choices", "data.choices")
            if any(not 1 <= len(str(c.get("name", ""))) <= 100 for c in choices):
                raise _invalid_form("choice names must be 1 to 100 characters", "data.choices")
            itx.choices = choices
        elif ctype == CallbackType.MODAL:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise _invalid_form("a modal needs custom_id, title and components", "data")
            itx.modal = data
        itx.callback_type = CallbackType(ctype)
        itx.callback_data = data
        itx.callback_at = time.monotonic()
        itx.response = message
        if message is not None and ctype in (4, 5, 7):
            resource["message"] = message.to_payload(self.application_id)
        self._notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        return _json_response(
            {
                "interaction": {
                    "id": str(itx.id),
                    "type": int(itx.type),
                    "activity_instance_id": None,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": ctype == CallbackType.DEFERRED_CHANNEL_MESSAGE,
                    "response_message_ephemeral": bool(message and message.ephemeral),
                },
                "resource": resource,
            }
        )

    def _webhook_interaction(
        self, request: web.Request, app_id: str, token: str
    ) -> InteractionResult:
        itx = self._interaction_for(request, token)
        if itx is None or int(app_id) != self.application_id:
            raise _ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        if not itx.acknowledged:
            # The interaction webhook exists only once the interaction was acknowledged.
            raise _ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        return itx

    def _webhook_message(self, itx: InteractionResult, message_ref: str) -> RecordedMessage:
        if message_ref == "@original":
            msg = itx.response
        else:
            msg = self._messages_by_id.get(int(message_ref))
            if msg is not None and msg.interaction is not itx and msg is not itx.response:
                msg = None
        if msg is None or msg.deleted:
            raise _ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        itx = self._webhook_interaction(request, app_id, token)
        payload, files = await self._read_body(request)
        original = itx.response
        if (
            itx.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a type-5 defer edits the loading message, and
            # the defer's ephemeral flag wins over the follow-up's.
            self._validate_message(payload, files, create=True)
            self._apply_edit(original, {k: v for k, v in payload.items() if k != "flags"}, files)
            msg = original
            self._announce("MESSAGE_UPDATE", msg)
        else:
            msg = self._new_message(
                itx.channel, self.bot_user, payload, files, source="followup", interaction=itx
            )
            self._announce("MESSAGE_CREATE", msg)
        itx.followups.append(msg)
        self._notify()
        if request.query.get("wait", "false").lower() in ("1", "true"):
            return _json_response(msg.to_payload(self.application_id))
        return web.Response(status=204)

    async def _webhook_get(
        self, request: web.Request, app_id: str, token: str, message_ref: str
    ) -> web.Response:
        itx = self._webhook_interaction(request, app_id, token)
        return _json_response(
            self._webhook_message(itx, message_ref).to_payload(self.application_id)
        )

    async def _webhook_edit(
        self, request: web.Request, app_id: str, token: str, message_ref: str
    ) -> web.Response:
        itx = self._webhook_interaction(request, app_id, token)
        msg = self._webhook_message(itx, message_ref)
        payload, files = await self._read_body(request)
        self._apply_edit(msg, payload, files)
        self._announce("MESSAGE_UPDATE", msg)
        return _json_response(msg.to_payload(self.application_id))

    async def _webhook_delete(
        self, request: web.Request, app_id: str, token: str, message_ref: str
    ) -> web.Response:
        itx = self._webhook_interaction(request, app_id, token)
        msg = self._webhook_message(itx, message_ref)
        msg.deleted = True
        self._announce_delete(msg)
        self._notify()
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: channels & messages

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _ApiError(404, ErrorCode.UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def _channel_message(self, channel: FakeChannel, message_id: str) -> RecordedMessage:
        msg = self._messages_by_id.get(int(message_id))
        if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
            raise _ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return msg

    async def _get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        return _json_response(self._channel(channel_id).to_payload())

    async def _get_messages(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        msgs = self.messages_in(channel)
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        newest_first = list(reversed(msgs))
        if "after" in q:
            newest_first = newest_first[-limit:]
        return _json_response([m.to_payload(self.application_id) for m in newest_first[:limit]])

    async def _post_message(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        payload, files = await self._read_body(request)
        if (
            channel.is_dm
            and channel.recipient is not None
            and (not channel.recipient.dms_open or channel.recipient.bot)
        ):
            raise _ApiError(
                403, ErrorCode.CANNOT_SEND_MESSAGES_TO_USER, "Cannot send messages to this user"
            )
        if channel.type == ChannelType.GUILD_CATEGORY:
            raise _ApiError(400, 50008, "Cannot send messages in a non-text channel")
        msg = self._new_message(
            channel,
            self.bot_user,
            payload,
            files,
            source="channel",
            message_type=19 if payload.get("message_reference") else 0,
        )
        self._announce("MESSAGE_CREATE", msg)
        return _json_response(msg.to_payload(self.application_id))

    async def _get_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        msg = self._channel_message(self._channel(channel_id), message_id)
        return _json_response(msg.to_payload(self.application_id))

    async def _edit_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        msg = self._channel_message(self._channel(channel_id), message_id)
        if msg.author is not self.bot_user:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        self._apply_edit(msg, payload, files)
        self._announce("MESSAGE_UPDATE", msg)
        return _json_response(msg.to_payload(self.application_id))

    async def _delete_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        msg = self._channel_message(self._channel(channel_id), message_id)
        msg.deleted = True
        self._announce_delete(msg)
        self._notify()
        return web.Response(status=204)

    async def _typing(self, request: web.Request, channel_id: str) -> web.Response:
        self._channel(channel_id)
        return web.Response(status=204)

    async def _create_thread(
        self, request: web.Request, channel_id: str, message_id: str | None = None
    ) -> web.Response:
        parent = self._channel(channel_id)
        if parent.guild is None or parent.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        payload, _ = await self._read_body(request)
        start = self._channel_message(parent, message_id) if message_id else None
        ttype = ChannelType.PUBLIC_THREAD if start else ChannelType(int(payload.get("type", 12)))
        thread = FakeChannel(
            start.id if start else self.snowflake(),
            str(payload.get("name", "thread"))[:100],
            ttype,
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
            thread_members={self.bot_user.id},
        )
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self._dispatch_soon("THREAD_CREATE", thread.to_payload() | {"newly_created": True})
        return _json_response(thread.to_payload(), 201)

    async def _thread_member(
        self, request: web.Request, channel_id: str, member: str
    ) -> web.Response:
        thread = self._channel(channel_id)
        if not thread.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        uid = self.bot_user.id if member == "@me" else int(member)
        if request.method == "PUT":
            thread.thread_members.add(uid)
        else:
            thread.thread_members.discard(uid)
        self._notify()
        return web.Response(status=204)

    async def _add_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        msg = self._channel_message(self._channel(channel_id), message_id)
        msg.reactions.setdefault(emoji, set()).add(self.bot_user.id)  # path is already decoded
        self._notify()
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: guilds

    def _guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise _ApiError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request, guild_id: str) -> web.Response:
        payload = self._guild(guild_id).to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return _json_response(payload)

    async def _get_guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return _json_response([c.to_payload() for c in guild.channels if not c.is_thread])

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        guild = self._guild(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise _ApiError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member")
        return _json_response(guild.member_payload(member))

    # ------------------------------------------------------------------ driving: interactions

    async def _send_interaction(
        self,
        *,
        user: FakeUser,
        channel: FakeChannel,
        itype: InteractionType,
        data: JSON,
        label: str,
        message: RecordedMessage | None = None,
    ) -> InteractionResult:
        owner = self._session_for(channel.guild.id if channel.guild else None)
        if owner is None or owner.connection is None:
            raise RuntimeError("the bot is not connected (await fake.wait_ready() first)")
        member = self._member_or_raise(channel, user)
        shard = None if owner.shard is None else self._shard_key(owner)
        iid = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}.{secrets.token_urlsafe(48)}"
        guild = channel.guild
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": int(itype),
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.to_payload(),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            assert member is not None
            payload["channel"]["permissions"] = str(guild.permissions_for(user))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=guild.member_payload(member)
                | {"permissions": str(guild.permissions_for(user))},
                app_permissions=str(guild.permissions_for(self.bot_user)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.to_payload(),
                app_permissions=str(_BOT_ROLE_PERMS),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if message is not None:
            payload["message"] = message.to_payload(self.application_id)
        itx = InteractionResult(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            application_id=self.application_id,
            payload=payload,
            label=label,
            source_message=message,
            shard=shard,
            _fake=self,
        )
        self.interactions.append(itx)
        self._interactions_by_token[token] = itx
        itx.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)
        return itx

    def _resolve_command(
        self, channel: FakeChannel, command: str
    ) -> tuple[JSON, JSON, list[JSON], list[JSON]]:
        """(registered command, data skeleton, leaf option list in data, leaf option specs)."""
        parts = command.split()
        if not parts:
            raise ValueError("empty command path")
        cmd = self.command(parts[0], channel.guild)
        if cmd is None:
            known = sorted({c["name"] for pool in self.registered_commands.values() for c in pool})
            where = f"guild {channel.guild.name!r}" if channel.guild else "DMs"
            raise LookupError(f"/{parts[0]} is not registered for {where}; registered: {known}")
        if channel.is_dm:
            if "guild_id" in cmd:
                raise ValueError(f"/{parts[0]} is a guild command; it does not exist in DMs")
            contexts = cmd.get("contexts")
            if (contexts is not None and 1 not in contexts) or (
                contexts is None and cmd.get("dm_permission") is False
            ):
                raise ValueError(f"/{parts[0]} is not allowed in DMs (contexts={contexts})")
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        target: list[JSON] = []
        data["options"] = target
        specs: list[JSON] = cmd.get("options") or []
        for part in parts[1:]:
            sub = next((o for o in specs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in specs if o["type"] in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {part!r}; choices: {subs}")
            entry: JSON = {"name": part, "type": sub["type"], "options": []}
            target.append(entry)
            target = entry["options"]
            specs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in specs):
            subs = [o["name"] for o in specs if o["type"] in (1, 2)]
            raise ValueError(f"/{command} is a group; pick a subcommand: {subs}")
        return cmd, data, target, specs

    def _encode_option(self, spec: JSON, value: Any, resolved: JSON, channel: FakeChannel) -> JSON:
        """Encode one option value as Discord sends it, validating it like Discord's UI would."""
        otype, name = spec["type"], spec["name"]
        guild = channel.guild

        def check_choice(v: Any) -> None:
            choices = spec.get("choices")
            if choices and v not in [c["value"] for c in choices]:
                raise ValueError(
                    f"option {name}={v!r} is not one of {[c['value'] for c in choices]}"
                )

        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name} is a string, got {value!r}")
            check_choice(value)
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise ValueError(f"option {name}={value!r} has a bad length")
            encoded: Any = value
        elif otype in (4, 10):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (otype == 4 and not isinstance(value, int))
            ):
                raise TypeError(
                    f"option {name} is {'an integer' if otype == 4 else 'a number'}, got {value!r}"
                )
            check_choice(value)
            if value < spec.get("min_value", value) or value > spec.get("max_value", value):
                raise ValueError(f"option {name}={value!r} is out of range")
            encoded = value
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name} is a boolean, got {value!r}")
            encoded = value
        elif otype in (6, 9) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
            member = guild.member(value) if guild else None
            if member is not None:
                member_payload = guild.member_payload(member, with_user=False)  # type: ignore[union-attr]
                member_payload["permissions"] = str(guild.permissions_for(value))  # type: ignore[union-attr]
                resolved.setdefault("members", {})[str(value.id)] = member_payload
            encoded = str(value.id)
        elif otype in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            encoded = str(value.id)
        elif otype == 7 and isinstance(value, FakeChannel):
            types = spec.get("channel_types")
            if types and int(value.type) not in types:
                raise ValueError(f"option {name}: channel type {value.type} not in {types}")
            ch = value.to_payload()
            ch["permissions"] = str(
                value.guild.permissions_for(self.bot_user) if value.guild else 0
            )
            resolved.setdefault("channels", {})[str(value.id)] = ch
            encoded = str(value.id)
        elif otype == 11 and isinstance(value, tuple) and len(value) == 2:
            filename, blob = value
            att = self._store_file(channel, str(filename), bytes(blob), None)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload() | {
                "ephemeral": True
            }
            encoded = str(att.id)
        else:
            raise TypeError(f"option {name} (type {otype}) cannot take {value!r}")
        return {"name": name, "type": otype, "value": encoded}

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        options: Mapping[str, Any] | None = None,
        **kwoptions: Any,
    ) -> InteractionResult:
        """Run ``/command`` as ``user`` in ``channel``, built from the REGISTERED command tree.

        ``command`` is the path (``"game new"``); options go as keywords (``type="tigris"``) or
        in ``options`` (for option names that clash with Python). Values: ``str``/``int``/
        ``float``/``bool``, :class:`FakeUser`, :class:`FakeRole`, :class:`FakeChannel`, or a
        ``(filename, bytes)`` tuple for attachment options. Raises ``LookupError``/``ValueError``
        /``TypeError`` for what Discord's UI would not let a user send.
        """
        _cmd, data, target, specs = self._resolve_command(channel, command)
        values = {**(options or {}), **kwoptions}
        resolved: JSON = {}
        for name, value in values.items():
            spec = next((o for o in specs if o["name"] == name), None)
            if spec is None:
                raise TypeError(
                    f"/{command} has no option {name!r}; options: {[o['name'] for o in specs]}"
                )
            target.append(self._encode_option(spec, value, resolved, channel))
        missing = [o["name"] for o in specs if o.get("required") and o["name"] not in values]
        if missing:
            raise ValueError(f"/{command} is missing required option(s) {missing}")
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(
            user=user,
            channel=channel,
            itype=InteractionType.APPLICATION_COMMAND,
            data=data,
            label=f"/{command}",
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        option: str,
        partial: str,
        /,
        options: Mapping[str, Any] | None = None,
        **kwoptions: Any,
    ) -> list[JSON]:
        """Type ``partial`` into ``option`` of ``/command``; returns the bot's choices.

        The focused option is sent as a string with ``focused: true`` (as Discord does, whatever
        the option's type); the other options are encoded as in :meth:`slash`.
        """
        _cmd, data, target, specs = self._resolve_command(channel, command)
        spec = next((o for o in specs if o["name"] == option), None)
        if spec is None or not spec.get("autocomplete"):
            raise ValueError(f"/{command} option {option!r} does not have autocomplete")
        resolved: JSON = {}
        for name, value in {**(options or {}), **kwoptions}.items():
            other = next((o for o in specs if o["name"] == name), None)
            if other is None:
                raise TypeError(f"/{command} has no option {name!r}")
            target.append(self._encode_option(other, value, resolved, channel))
        target.append({"name": option, "type": spec["type"], "value": partial, "focused": True})
        if resolved:
            data["resolved"] = resolved
        itx = await self._send_interaction(
            user=user,
            channel=channel,
            itype=InteractionType.AUTOCOMPLETE,
            data=data,
            label=f"/{command} autocomplete {option}={partial!r}",
        )
        await itx.wait()
        return list(itx.choices or [])

    def _component_target(
        self, user: FakeUser, message: RecordedMessage | int, custom_id: str
    ) -> tuple[RecordedMessage, JSON]:
        msg = message if isinstance(message, RecordedMessage) else self.message(message)
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        if not self.sees(user, msg):  # as ``msg in self.visible_to(user)``, without the scan
            raise ValueError(f"{user.name} cannot see message {msg.id}")
        comp = msg.find_component(custom_id)
        if comp is None:
            raise LookupError(
                f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}"
            )
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return msg, comp

    async def click(
        self, user: FakeUser, message: RecordedMessage | int, custom_id: str, /
    ) -> InteractionResult:
        """Click the button ``custom_id`` on ``message`` as ``user``."""
        msg, comp = self._component_target(user, message, custom_id)
        if comp.get("type") != 2:
            raise TypeError(f"{custom_id!r} is not a button (type {comp.get('type')})")
        return await self._send_interaction(
            user=user,
            channel=msg.channel,
            itype=InteractionType.MESSAGE_COMPONENT,
            data={"custom_id": custom_id, "component_type": 2},
            message=msg,
            label=f"click {custom_id}",
        )

    async def select(
        self,
        user: FakeUser,
        message: RecordedMessage | int,
        custom_id: str,
        values: Iterable[Any],
        /,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id`` on ``message`` as ``user``.

        String selects take option values; user/role/channel selects take the fake objects.
        """
        msg, comp = self._component_target(user, message, custom_id)
        ctype = comp.get("type")
        values = list(values)
        if ctype not in (3, 5, 6, 7, 8):
            raise TypeError(f"{custom_id!r} is not a select menu (type {ctype})")
        if not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise ValueError(
                f"{custom_id!r} takes {comp.get('min_values', 1)} to "
                f"{comp.get('max_values', 1)} values"
            )
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} not among the options {allowed}")
            data["values"] = values
        else:
            resolved: JSON = {}
            spec_type = {5: 6, 6: 8, 7: 7, 8: 9}[ctype]
            data["values"] = [
                self._encode_option(
                    {"type": spec_type, "name": custom_id}, v, resolved, msg.channel
                )["value"]
                for v in values
            ]
            data["resolved"] = resolved
        return await self._send_interaction(
            user=user,
            channel=msg.channel,
            itype=InteractionType.MESSAGE_COMPONENT,
            data=data,
            message=msg,
            label=f"select {custom_id}={values}",
        )

    async def submit_modal(
        self, user: FakeUser, opened_by: InteractionResult, values: Mapping[str, str | list[str]], /
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps a text input's (or select's) custom_id to its value(s). Required text
        inputs left out, and lengths outside min/max, raise ``ValueError``.
        """
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by.label} did not open a modal")
        if user is not opened_by.user:
            raise ValueError("only the user the modal was shown to can submit it")

        def answer(comp: JSON) -> JSON | None:
            ctype, cid = comp.get("type"), comp.get("custom_id")
            if ctype == 4:
                value = values.get(cid, "")
                if not isinstance(value, str):
                    raise TypeError(f"text input {cid!r} takes a string")
                if comp.get("required", True) and not value:
                    raise ValueError(f"text input {cid!r} is required")
                if value and not comp.get("min_length", 0) <= len(value) <= comp.get(
                    "max_length", 4000
                ):
                    raise ValueError(f"text input {cid!r} has a bad length")
                return {"type": 4, "id": comp.get("id", 0), "custom_id": cid, "value": value}
            if ctype in (3, 5, 6, 7, 8):
                picked = values.get(cid, [])
                return {
                    "type": ctype,
                    "id": comp.get("id", 0),
                    "custom_id": cid,
                    "values": list(picked),
                }
            return None

        components: list[JSON] = []
        for comp in modal["components"]:
            if comp.get("type") == 1:
                inner = [a for c in comp.get("components", []) if (a := answer(c)) is not None]
                components.append({"type": 1, "components": inner})
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                inner_answer = answer(comp["component"])
                if inner_answer is not None:
                    components.append(
                        {"type": 18, "id": comp.get("id", 0), "component": inner_answer}
                    )
        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal["components"])}
        if unknown:
            raise LookupError(f"modal {modal['custom_id']!r} has no input(s) {sorted(unknown)}")
        return await self._send_interaction(
            user=user,
            channel=opened_by.channel,
            itype=InteractionType.MODAL_SUBMIT,
            data={"custom_id": modal["custom_id"], "components": components},
            message=opened_by.source_message,
            label=f"modal {modal['custom_id']}",
        )

    async def user_says(
        self, user: FakeUser, channel: FakeChannel, content: str
    ) -> RecordedMessage:
        """A user posts ``content`` in ``channel`` (a guild channel or their DM with the bot).

        Dispatched as MESSAGE_CREATE if the bot's intents ask for it; without MESSAGE_CONTENT
        the bot gets an empty ``content`` unless the message is a DM or mentions it.
        """
        self._member_or_raise(channel, user)
        if channel.is_dm and channel.recipient is not user:
            raise ValueError(f"{user.name} is not in this DM")
        msg = RecordedMessage(
            self.snowflake(),
            channel,
            user,
            content=content,
            source="user",
            mentions=self._mentions(content),
        )
        self._record(msg)
        intent = Intent.DIRECT_MESSAGES if channel.is_dm else Intent.GUILD_MESSAGES
        if self._wants(intent):
            payload = msg.to_payload()
            privileged = channel.is_dm or self.bot_user in msg.mentions
            if not self._wants(Intent.MESSAGE_CONTENT) and not privileged:
                payload.update(content="", embeds=[], attachments=[], components=[])
            await self.dispatch("MESSAGE_CREATE", payload)
        return msg


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord, client: ClientT, *, timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """Run ``client.start(fake.token)`` until the client is ready; close it on exit.

    Readiness means the fake sent READY + GUILD_CREATEs and ``client.wait_until_ready()``
    returned (which takes the client's ``guild_ready_timeout``: pass a small one). If the client
    dies while starting, its exception is raised here. On exit the client is closed and its
    task awaited, so no task outlives the block.
    """
    task = asyncio.create_task(client.start(fake.token), name="fake-discord-client")

    async def ready() -> None:
        await fake.wait_ready(timeout)
        await client.wait_until_ready()

    waiter = asyncio.create_task(ready(), name="fake-discord-client-ready")
    try:
        done, _ = await asyncio.wait(
            {task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            waiter.cancel()
            task.result()  # raises the client's error, if any
            raise RuntimeError("the client stopped before it was ready")
        if waiter not in done:
            waiter.cancel()
            raise TimeoutError(fake._diagnose(f"client not ready within {timeout}s"))
        waiter.result()
        yield client
    finally:
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        await client.close()
        await asyncio.wait_for(task, timeout)  # re-raises if the client crashed meanwhile
