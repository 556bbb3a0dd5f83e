"""Which gateway shards a bot process runs, and so which games it owns.

Several bot processes can share one database, each running a range of the
gateway shards (``ZIGGURAT_SHARDS=total``, ``ZIGGURAT_SHARD_IDS=first-last``).
:class:`ShardRange` is that range; :meth:`ShardRange.owns` says whether a
guild's events (and so its games) belong to this process.

Decisions:

* A guild is on shard ``(guild_id >> 22) % total``, Discord's own formula; a
  game belongs to the process running its guild's shard. A game without a
  guild (none are created today) counts as guild 0, so shard 0's process
  owns it, as Discord sends DMs to shard 0.
* One formula, in two places that must agree: :func:`shard_of` here, for the
  adapter, and :func:`_owned` for the store's queries (:meth:`ShardRange.sql`,
  :meth:`ShardRange.condition`; the same integer arithmetic in SQLite and
  PostgreSQL; guild ids fit a signed 64-bit integer, so ``>>`` never sees a
  negative number).
* :data:`ALL` (``total`` 1, shard 0) is the range of a process that runs every
  shard, sharded in one process or not sharded at all: it owns every game.
* :attr:`ShardRange.label` (``"0-3/8"``) names the range in logs and in the
  claims a process puts on timers and hand-overs (:mod:`bot.timers`,
  :mod:`bot.discord.handover`).
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int | None, total: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (``None``: a DM, shard 0)."""
    return ((guild_id or 0) >> 22) % total


@dataclass(frozen=True)
class ShardRange:
    """Shards ``first`` to ``last`` (inclusive) of ``total``."""

    total: int = 1
    first: int = 0
    last: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.first <= self.last < self.total:
            raise ValueError(f"shards {self.first}-{self.last} are not within 0..{self.total - 1}")

    @property
    def everything(self) -> bool:
        """True when this process runs every shard (it owns every game)."""
        return self.first == 0 and self.last == self.total - 1

    @property
    def ids(self) -> list[int]:
        """The shard ids this process connects (discord.py's ``shard_ids``)."""
        return list(range(self.first, self.last + 1))

    @property
    def label(self) -> str:
        return f"{self.first}-{self.last}/{self.total}"

    def owns(self, guild_id: int | None) -> bool:
        """Whether ``guild_id``'s games belong to this process."""
        return self.first <= shard_of(guild_id, self.total) <= self.last

    def sql(self, guild_column: str, first_param: int | None = None) -> tuple[str, tuple[int, ...]]:
        """A SQL condition true for the rows of owned guilds, and its parameters.

        Placeholders are ``?`` (SQLite), or ``$first_param`` onwards (PostgreSQL).
        """
        marks = (
            ("?", "?", "?")
            if first_param is None
            else tuple(f"${n}" for n in range(first_param, first_param + 3))
        )
        return _owned(guild_column, *marks), (self.total, self.first, self.last)

    def condition(self, guild_column: str) -> tuple[str, dict[str, int]]:
        """:meth:`sql`'s condition with named parameters (``:shard_total``,
        ``:shard_first``, ``:shard_last``), as the store writes its statements."""
        text = _owned(guild_column, ":shard_total", ":shard_first", ":shard_last")
        return text, {"shard_total": self.total, "shard_first": self.first, "shard_last": self.last}


def _owned(guild_column: str, total: str, first: str, last: str) -> str:
    """Discord's shard formula in SQL: the guild's shard is within ``first``-``last``."""
    return f"((COALESCE({guild_column}, 0) >> 22) % {total}) BETWEEN {first} AND {last}"


#: the range of a process that runs every shard
ALL = ShardRange()
