"""The games this process last read or committed, kept in memory so a step need not read.

A step's load (:meth:`~bot.store.Store.kept_game_in`) may start from the row this
process last read of the channel's running game or last committed to it; the step's
own version check (``UPDATE games … WHERE id AND version AND status``) is the guard
that the row is still the stored one.

Decisions:

* **Kept in the store's write path, in one place.** Every write of a game by this
  store (:meth:`KeptGames.writing`, called by each of the store's game writes before
  its statements are sent) drops the game's kept row; only a step's commit puts one
  back (the row as the step leaves it, :func:`stepped`), and only when no other write
  of that game started while it was in flight. A write that changes what a load reads
  without raising the version (a timer added, restored or deleted: the game's named
  deadlines) drops it as well, so no write can leave a kept row behind.
* **A read keeps what it read** (:meth:`KeptGames.reading`, :meth:`KeptGames.read`):
  the channel's running game read by :meth:`~bot.store.Store.open_game_in`, unless a
  write of any game started while the read ran (it may be older than that write).
* **Another writer is caught by the guard**: another process of a cluster, the admin
  command line, a restart's recovery. A step from a kept row that such a writer has
  made stale fails its version check (dropped, :class:`~bot.store.VersionConflict`)
  and the service reads the game afresh and runs the command again, once
  (:meth:`bot.service.context.Context.kept_or_fresh`); a refusal computed from a kept
  row is checked the same way. A write that changes what a load reads without
  raising the version is made only by the process owning the game's shard (its
  timers are claimed by their owner, :meth:`~bot.store.Store.claim_due_timers`), so
  another process never leaves a kept row silently stale.
* **Bounded**: at most :attr:`KeptGames.size` rows (``ZIGGURAT_KEPT_GAMES``, default
  :data:`DEFAULT_KEPT_GAMES`; 0 keeps none), the least recently used dropped first.
  Only running games are kept; a game ended, paused or replaced in its channel by
  this process is dropped by its write.
* A kept row is never handed to two commands at once: a step holds its channel's
  lock from its load to its commit, and only a step's load reads kept rows (the
  display reads read the store: what they show is what is stored). A command that
  fails, or is refused, after starting from a kept row drops it
  (:meth:`KeptGames.drop`), since the engine may have worked on its state.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.store.base import SEAT_FIELDS, GameRow, Keep, SeatRow, StepWrite
from bot.store.codec import dumps, loads

#: how many games a process keeps by default (a Tigris game takes about 15 KB in memory,
#: as ``scripts/bench_kept.py`` measures it)
DEFAULT_KEPT_GAMES = 512
#: the most a setting may ask for
MAX_KEPT_GAMES = 1_000_000


class KeptGames:
    """An LRU of running games' rows by game id, with each channel's kept game."""

    def __init__(self, size: int = DEFAULT_KEPT_GAMES) -> None:
        self._size = size
        self._rows: OrderedDict[int, GameRow] = OrderedDict()
        #: channel id -> the game id kept for it
        self._in: dict[int, int] = {}
        #: game id -> [writes in flight, writes started while any was in flight]
        self._writing: dict[int, list[int]] = {}
        #: game writes started, ever: a read keeps its row only if none started meanwhile
        self._writes = 0
        #: steps' loads answered from memory and not, for the benchmarks
        self.hits = 0
        self.misses = 0

    @property
    def size(self) -> int:
        return self._size

    @size.setter
    def size(self, size: int) -> None:
        self._size = max(0, size)
        while len(self._rows) > self._size:
            self.drop(next(iter(self._rows)))

    def __len__(self) -> int:
        return len(self._rows)

    def in_channel(self, channel_id: int) -> GameRow | None:
        """The running game kept for ``channel_id``, if any (now the most recently used)."""
        game_id = self._in.get(channel_id)
        if game_id is None:
            self.misses += 1
            return None
        self.hits += 1
        self._rows.move_to_end(game_id)
        return self._rows[game_id]

    def peek(self, channel_id: int) -> GameRow | None:
        """The game kept for ``channel_id``, as :meth:`in_channel` but neither counted nor
        made the most recently used (for the benchmarks' own planning)."""
        game_id = self._in.get(channel_id)
        return None if game_id is None else self._rows[game_id]

    def drop(self, game_id: int) -> None:
        row = self._rows.pop(game_id, None)
        if row is not None and self._in.get(row.channel_id) == game_id:
            del self._in[row.channel_id]

    def _put(self, row: GameRow) -> None:
        if row.status != "running" or self._size <= 0:
            self.drop(row.id)
            return
        other = self._in.get(row.channel_id)
        if other is not None and other != row.id:
            self.drop(other)  # the channel's game was replaced
        self._rows[row.id] = row
        self._rows.move_to_end(row.id)
        self._in[row.channel_id] = row.id
        while len(self._rows) > self._size:
            self.drop(next(iter(self._rows)))

    def replaced(self, channel_id: int) -> None:
        """A new game was opened in ``channel_id``: the game kept for it is dropped."""
        game_id = self._in.get(channel_id)
        if game_id is not None:
            self.drop(game_id)

    # -- reads --------------------------------------------------------------------

    def reading(self) -> int:
        """A read starts: its ticket for :meth:`read`."""
        return self._writes

    def read(self, row: GameRow, ticket: int) -> None:
        """Keep ``row``, read since :meth:`reading` gave ``ticket``, unless a write
        started since."""
        if ticket == self._writes and row.id not in self._writing:
            self._put(row)

    # -- writes -------------------------------------------------------------------

    def writing(self, game_id: int) -> int:
        """A write of ``game_id`` starts: its kept row is dropped; the ticket for
        :meth:`written`."""
        self._writes += 1
        entry = self._writing.setdefault(game_id, [0, 0])
        entry[0] += 1
        entry[1] += 1
        self.drop(game_id)
        return entry[1]

    def written(self, game_id: int, ticket: int, row: GameRow | None = None) -> None:
        """The write of :meth:`writing`'s ``ticket`` is over: ``row`` (the game as it left
        it, None when not known or not committed) is kept if no other write of the game
        started meanwhile."""
        entry = self._writing[game_id]
        if row is not None and entry[1] == ticket:
            self._put(row)
        entry[0] -= 1
        if not entry[0]:
            del self._writing[game_id]

    def touched(self, game_id: int) -> None:
        """A write of ``game_id`` that is over already (its game known only once done)."""
        self.written(game_id, self.writing(game_id))


def stepped(
    game: GameRow, step: StepWrite, *, version: int, last_seq: int, now: float, state: str
) -> GameRow | None:
    """The row a load would read once ``step`` is committed on ``game`` at ``now`` (its
    state written as ``state``), or None when it does not follow from ``game`` alone:
    the game ends, a timer is fired (the deadlines are then the store's to say), or
    ``game`` lacks its deadlines or the moves since its last public message."""
    if step.status != "running" or step.fired is not None:
        return None
    deadlines = step.deadlines_after(game.deadlines)
    if deadlines is None:
        return None
    pending_json: str | None = None
    if not step.published:
        pending: list[Any] = []
        if game.published_seq < game.last_seq:
            if game.pending_json is None:
                return None
            pending = loads(game.pending_json)
        pending.extend(
            [seq, move.seat, move.action, now, move.kind, list(move.events), move.checkpoint]
            for seq, move in enumerate(step.moves, start=game.last_seq + 1)
        )
        pending_json = dumps(pending) if pending else None
    seats = game.seats
    if step.seats:
        seats = tuple(_seat_changed(s, step.seats.get(s.seat)) for s in seats)
    row = GameRow.__new__(GameRow)
    fields = row.__dict__
    fields.update(game.__dict__)
    fields.update(
        state=loads(state),
        status=step.status,
        version=version,
        updated_at=now,
        last_seq=last_seq,
        seats=seats,
        deadlines=deadlines,
        pending_json=pending_json,
    )
    if step.waiting_changed:
        fields["waiting_since"] = now
    if step.checkpoint:
        fields["checkpoint_seq"] = last_seq
    if step.published:
        fields["published_seq"] = last_seq
    if not isinstance(step.told, Keep):
        fields["told_json"] = told_text(step.told)
    return row


def told_text(told: Any) -> str:
    """The ``told`` column's text for views by seat (:attr:`StepWrite.told`)."""
    return dumps({str(seat): view for seat, view in told.items()})


def _seat_changed(seat: SeatRow, fields: Any) -> SeatRow:
    if not fields:
        return seat
    changed = SeatRow.__new__(SeatRow)
    values = changed.__dict__
    values.update(seat.__dict__)
    for name in SEAT_FIELDS:
        if name in fields:
            value = fields[name]
            values[name] = bool(value) if name == "auto" else value
    return changed
