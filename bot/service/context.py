"""What every part of the service shares: the store, the games, the clock, locks, images.

Decisions:

* Commands on one channel are serialized by a lock; the store's version
  check guards against a second process as well. A channel's lock exists
  only while someone holds or waits for it, so the lock table never grows
  with the channels ever seen.
* Retry cooldowns (an engine may make a seat wait after a refused try) are
  kept in memory, bounded: a restart forgets them, which only shortens a wait.
* Drawing an image happens after the move is committed, in a worker thread;
  a renderer that fails is logged and the move is announced without the
  image: failing the command would tell the player nothing changed when it
  did, and nobody would be pinged.
* Images are drawn off the event loop, in the drawing processes of
  :mod:`bot.service.drawing`.
* **Whatever a game awaits has what will move it.** A running game that is
  not paused and awaits a seat holds, for a member, its turn clock when it
  has one (else its reminder) and every deadline its engine wants; for a
  computer seat (while a member plays on), a ``computer`` timer
  (:meth:`Context.computer_due`). Every write that changes who is awaited or
  how a seat plays sets that computer timer in its own transaction, computed
  from the game as the write leaves it: a step's commit
  (:meth:`bot.service.play.Play._commit`, which also writes the members'
  clock), a seat's change or hand-over (:meth:`Context.change_seat`,
  :meth:`Context.hand_seat`), the start and a resume. The audit
  (:meth:`bot.service.clock.Timers.audit`) lists a game that breaks it, and
  the start-up repair restores what it lacks.
* **A step may start from the kept game** (:meth:`Context.kept_or_fresh`): a
  member's typed or button move (:meth:`bot.service.play.Play.act`) and a public
  decision button (:meth:`bot.service.tapping.Tapping.press`) load the
  channel's running game as this process last read or committed it, when the
  store keeps it (:mod:`bot.store.kept`), with no read; its commit's version
  check is the guard. A refusal from a kept row (a lost race included) stands
  only if the game read afresh is the same game at the same version; else the
  command runs again, once, from the fresh row (a button's version included:
  a kept row older than the button reads the game). A tap of the move picker
  (it shows menus), a timer, a computer seat, the reads that show a game (``/board``, a picker's
  menus) and the seats' and lobby's commands read the game: what they show is
  what is stored, and their read keeps it for the next step. A retry cooldown
  started by a rule refused from a stale kept row outlives the re-run (rare:
  another writer and a refused rule with a cooldown at once).
* **The gate** (:func:`admitted`): every command of the service passes it.
  An integer argument the store cannot hold (a game, message, channel or
  user id, a version, a seed outside the signed 64-bit range) is refused as
  a stale button — the answer the adapter gives a custom_id past that range
  — before anything is read; a :class:`~bot.service.outcome.Player`'s name is
  cleaned (:func:`~bot.service.names.clean_name`), so what the service shows
  and stores is the same on every backend.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, ParamSpec, TypeVar

from bot.games.base import GameType
from bot.service import drawing
from bot.service.loaded import LoadedGame, seated
from bot.service.names import clean_name
from bot.service.outcome import Player, Refusal
from bot.service.seeds import answer_delay
from bot.service.turn_clock import PLAYING
from bot.store import GameRow, Store, VersionConflict, storable
from bot.store.base import seat_secret

log = logging.getLogger(__name__)

#: the most (game, seat) cooldowns remembered at once
MAX_COOLDOWNS = 4096
#: the timer kind of a computer seat's next move (bot.service.computer)
COMPUTER_TIMER = "computer"
#: the default pause before a computer seat moves, in seconds
#: (``ZIGGURAT_COMPUTER_PAUSE_SECONDS``)
DEFAULT_COMPUTER_PAUSE = 3.0


P = ParamSpec("P")
R = TypeVar("R")


#: a name cleaned once (a player's name is the same at each of their commands)
_cleaned = functools.lru_cache(maxsize=4096)(clean_name)


#: the types whose values pass the gate as they are (none of the kinds it checks): the
#: commonest by identity, and each other type once it has been seen to be none of them
_UNCHECKED: set[type] = {type(None), str, bool, float}
#: the containers whose items pass the gate one by one
_CONTAINERS = (list, tuple, set, frozenset)


def _admitted_value(value: Any) -> Any:
    """``value`` as the service takes it (see :func:`admitted`); Refusal if refused."""
    kind = value.__class__
    if kind in _UNCHECKED:  # the commonest (None, a str, the service itself)
        return value
    if kind is int or isinstance(value, int):
        if not storable(value):
            raise Refusal("error.stale_button")
        return value
    if isinstance(value, Player):
        _admitted_value(value.id)
        name = _cleaned(value.name)
        return value if name == value.name else Player(value.id, name)
    if isinstance(value, _CONTAINERS):
        for item in value:
            _admitted_value(item)
        return value
    _UNCHECKED.add(kind)  # a class of the program's (the service): a bounded set
    return value


def admitted(
    command: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """``command`` behind the service's gate (see the module docstring)."""

    @functools.wraps(command)
    async def gated(*args: P.args, **kwargs: P.kwargs) -> R:
        checked = list(map(_admitted_value, args))
        for name, value in kwargs.items():
            kwargs[name] = _admitted_value(value)
        return await command(*checked, **kwargs)

    return gated


class ChannelLocks:
    """One :class:`asyncio.Lock` per channel, dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(channel_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[channel_id]
            if users <= 1:
                del self._locks[channel_id]
            else:
                self._locks[channel_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Cooldowns:
    """Until when a (game, seat) must wait before trying a verb again; bounded, oldest
    dropped. Only the verb that was refused waits: giving up a race stays possible."""

    def __init__(self, limit: int = MAX_COOLDOWNS) -> None:
        self._until: OrderedDict[tuple[int, int, str], float] = OrderedDict()
        self.limit = limit

    def remaining(self, game_id: int, seat: int, verb: str, now: float) -> float:
        until = self._until.get((game_id, seat, verb))
        if until is None:
            return 0.0
        if until <= now:
            del self._until[(game_id, seat, verb)]
            return 0.0
        return until - now

    def start(self, game_id: int, seat: int, verb: str, until: float) -> None:
        self._until[(game_id, seat, verb)] = until
        self._until.move_to_end((game_id, seat, verb))
        while len(self._until) > self.limit:
            self._until.popitem(last=False)

    def __len__(self) -> int:
        return len(self._until)


@dataclass
class Context:
    """The service's shared parts; one per bot process."""

    store: Store
    registry: Mapping[str, GameType]
    clock: Callable[[], float]
    reminder_seconds: float
    render: bool = True
    #: seconds between the step that hands over to a computer seat and its move
    computer_pause: float = DEFAULT_COMPUTER_PAUSE
    locks: ChannelLocks = field(default_factory=ChannelLocks)
    cooldowns: Cooldowns = field(default_factory=Cooldowns)
    #: told the earliest due time a change armed (None: any timer may have moved)
    on_timer_change: Callable[[float | None], None] | None = None

    def game_type(self, name: str) -> GameType:
        try:
            return self.registry[name]
        except KeyError:
            raise Refusal("error.unknown_game", game=name) from None

    def timers_changed(self, due: float | None = None) -> None:
        """Tell the timer task that timers changed: ``due`` is the earliest due time
        the change armed, None when it may have moved any timer earlier."""
        if self.on_timer_change is not None:
            self.on_timer_change(due)

    def computer_due(self, game: LoadedGame, since: float | None = None) -> float | None:
        """When the computer seats ``game`` awaits now should move: the pause, plus their
        answer delay (:func:`bot.service.seeds.answer_delay`), after ``since`` (now
        when None); None when it awaits none.

        The delay comes from the seats' secrets and the position, so the start-up
        repair of a lost computer timer gets the same due time back by passing when
        the game began waiting (``since``: ``GameRow.waiting_since``)."""
        delay = answer_delay(game)
        if delay is None:
            return None
        return (self.clock() if since is None else since) + self.computer_pause + delay

    async def change_seat(self, game: LoadedGame, seat: int, fields: Mapping[str, Any]) -> int:
        """Change a seat's ``status``, ``timeouts`` or ``auto`` and, in the same commit,
        the computer timer the game then needs (see the module docstring); the new
        version. ``game.row`` becomes the row as written."""
        game.row = seated(game.row, {seat: fields})
        try:
            version: int = await self.store.set_seat(
                game.row, seat, fields, computer_timer=self.computer_due(game)
            )
        except VersionConflict:
            raise Refusal("error.conflict") from None
        self.timers_changed()
        return version

    async def hand_seat(
        self, game: LoadedGame, seat: int, user_id: int, name: str, level: str | None
    ) -> int:
        """Hand a seat to a member or a computer at ``level`` and, in the same commit,
        set the computer timer the game then needs; the new version (see
        :meth:`~bot.store.Store.replace_player` for what it raises)."""
        secret = seat_secret(level)  # the timer's answer delay reads it
        handed = replace(
            game.row.seats[seat],
            secret=secret,
            user_id=user_id,
            display_name=name,
            status=PLAYING,
            timeouts=0,
            auto=False,
            computer=level,
        )
        seats = tuple(handed if s.seat == seat else s for s in game.row.seats)
        game.row = replace(game.row, seats=seats)
        version: int = await self.store.replace_player(
            game.row,
            seat,
            user_id,
            name,
            computer=level,
            computer_timer=self.computer_due(game),
            secret=secret,
        )
        self.timers_changed()
        return version

    # -- loading ------------------------------------------------------------------

    async def open_game(self, channel_id: int) -> GameRow:
        row = await self.store.open_game_in(channel_id)
        if row is None:
            raise Refusal("error.no_game")
        return row

    def loaded(self, row: GameRow) -> LoadedGame:
        """A game row with its engine state; refused while it is a lobby."""
        if row.status == "lobby" or row.state is None:
            raise Refusal("error.not_started")
        game_type = self.game_type(row.game_type)
        return LoadedGame(row, game_type, game_type.engine.load_state(row.state))

    async def running(
        self,
        channel_id: int,
        *,
        expected_game: int | None = None,
        expected_version: int | None = None,
    ) -> LoadedGame:
        """The channel's running game; with ``expected_*`` (a button), refused as stale
        unless the running game is that game at that version."""
        return self.checked(
            await self.store.open_game_in(channel_id),
            expected_game=expected_game,
            expected_version=expected_version,
        )

    def checked(
        self,
        row: GameRow | None,
        *,
        expected_game: int | None = None,
        expected_version: int | None = None,
    ) -> LoadedGame:
        """``row``, the channel's game as loaded, as :meth:`running` answers it."""
        stale = expected_game is not None or expected_version is not None
        if row is None or (stale and row.status != "running"):
            raise Refusal("error.stale_button" if stale else "error.no_game")
        if (expected_game is not None and row.id != expected_game) or (
            expected_version is not None and row.version != expected_version
        ):
            raise Refusal("error.stale_button")
        return self.loaded(row)

    async def kept_or_fresh(
        self, channel_id: int, attempt: Callable[[GameRow | None], Awaitable[R]]
    ) -> R:
        """A step's command, ``attempt(row)`` (the channel's lock held; ``row`` its game
        as loaded, for :meth:`checked`), run from the game as this process last read or
        committed it when it is kept (:meth:`~bot.store.Store.kept_game_in`: no read).

        A refusal (a lost race included: the step's version check is the kept row's
        guard) from a kept row is checked against the game read afresh: it stands when
        that is the same game at the same version, else the command runs again, once,
        from the fresh row, so a player is refused only what a fresh load refuses. Any
        other failure drops the kept row (the engine may have worked on its state).
        ``attempt`` refuses only before its step is committed (a step's answer, prepared
        once it is, refuses nothing), so a command is never run again after a commit."""
        row = self.store.kept_game_in(channel_id)
        if row is None:
            return await attempt(await self.store.open_game_in(channel_id))
        try:
            return await attempt(row)
        except Refusal:
            self.store.forget_kept(row.id)
            fresh = await self.store.open_game_in(channel_id)
            if fresh is not None and (fresh.id, fresh.version) == (row.id, row.version):
                raise
        except BaseException:
            self.store.forget_kept(row.id)
            raise
        return await attempt(fresh)

    # -- images -------------------------------------------------------------------

    async def board(self, game: LoadedGame) -> bytes | None:
        """The public board image, or None (logged) if it cannot be drawn."""
        if not self.render:
            return None
        try:
            return await drawing.board(
                game.game_type.render_public,
                game.engine,
                game.state,
                game.labels(),
                game.row.language,
            )
        except Exception:
            log.exception("could not draw the board of game %s; posting without it", game.id)
            return None

    async def zoom(self, game: LoadedGame, seat: int) -> bytes | None:
        """The public map around where ``seat`` can act now (``engine.focus``), for a
        board too dense to read at a phone's width; None when the game has no zoom,
        the seat cannot act, or the region is most of the map (logged if it fails)."""
        render_zoom = game.game_type.render_zoom
        if not self.render or render_zoom is None or game.engine.result(game.state) is not None:
            return None
        if not game.engine.may_act(game.state, seat):
            return None
        focus = game.engine.focus(game.state, seat)
        if not focus:
            return None
        view = game.engine.public_view(game.state)
        try:
            image: bytes | None = await drawing.drawn(
                render_zoom, view, game.labels(), game.row.language, focus
            )
        except Exception:
            log.exception("could not draw the zoom of seat %s in game %s", seat, game.id)
            return None
        return image

    async def private_image(
        self, game: LoadedGame, view: Mapping[str, Any], seat: int
    ) -> bytes | None:
        """A seat's private image, or None (logged) if it cannot be drawn."""
        render_private = game.game_type.render_private
        if not self.render or render_private is None:
            return None
        label = game.labels()[seat]
        try:
            return await drawing.drawn(render_private, view, label, game.row.language)
        except Exception:
            log.exception("could not draw seat %s's view in game %s", seat, game.id)
            return None
