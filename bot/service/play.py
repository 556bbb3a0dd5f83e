"""Play: a step, an undo, and a batch of timeout actions, each committed once.

Decisions:

* A step: under the channel's lock, load the game (a member's move from the
  game kept in memory when it is: :meth:`~bot.service.context.Context.kept_or_fresh`),
  check the seat may act
  (``engine.may_act``) and is not cooling down, parse, ``engine.apply``
  (which refuses with nothing changed, or applies all), then commit the
  move row, the new state, the undo checkpoint, the publication mark and
  the game's timers in one transaction (version-checked), and only then
  answer. The answer is prepared while the commit runs, once only the
  commit itself remains (SQLite's fsync; PostgreSQL's round trip), from the
  state being stored and the version it will have, and returned only once
  the commit is done; a commit refused drops it (``error.conflict``), and
  what it reads back from the store (a round's tally) waits for the commit.
  Its board, and a hand-off's private images, are asked of the drawing pool
  as soon as the engine has applied the step, before the commit is written
  (:func:`bot.service.announce.drawn_ahead`), and a refused commit drops them.
  So are a timeout batch's and a play-out's (:func:`bot.service.announce.handoff_ahead`).
  A refused command raises :class:`Refusal` before anything is written.
* A step is a checkpoint — never undone, nor anything before it — when it
  hands the game over or ends it, when the engine says it drew or revealed
  something, or when the table played a decision after it (for an absent,
  resigned or auto-answering seat): a step played by the table, and
  everything before it, is a checkpoint, even when the turn comes back to
  the same player. Every row of one commit carries the same checkpoint
  flag (:class:`~bot.store.StepWrite` refuses a mix), so the live undo and
  a replay of the stored log always agree on what may be taken back.
* A resigned seat never acts: its player's steps and undos are refused
  (:meth:`~bot.service.loaded.LoadedGame.acting_seat`).
* Undo takes back the invoker's own last step still standing after the
  last checkpoint: it is appended to the log as an ``undo`` row and the
  state is rebuilt from the checkpoint by re-applying the steps that stand
  (:mod:`bot.service.replay`), so a game still replays exactly from its
  seed and log.
* Timers: a hand-off starts the new decision's turn clock when the game has
  one (:mod:`bot.service.turn_clock`), else arms the reminder one interval from
  now; a sealed submission or a step in the same turn leaves them alone;
  nothing is armed while the host has paused the game. The engine's named
  deadlines are written with every step: a name seen for the first time
  gets its due time, a name still wanted keeps it (a round's deadline never
  slides), a name no longer wanted is dropped.
* At a deadline (or the end of a turn clock) the late seats' timeout actions
  are applied as one batch, committed once, with one public message; a seat
  that times out too often in a row becomes absent (never a computer
  seat: it is only late when its pause is longer than the deadline). After
  a hand-off the table plays the decisions of absent and resigned seats
  and the opted-in automatic answers (:mod:`bot.service.autoplay`) in the same commit.
* A step that leaves the game awaiting a computer seat writes its computer
  timer in the same commit (one already set keeps its due time unless the
  new one is earlier: a member who skipped a lightning race no longer makes
  the computers wait for him); one that leaves it awaiting none drops it
  (:mod:`bot.service.computer`). The commit decides it, once for every kind
  of step, from the state and the seats as the step leaves them: a seat the
  step brings back from absent counts as playing (see "Whatever a game
  awaits" in :mod:`bot.service.context`).
* A seat whose try was refused may have to wait (``engine.retry_cooldown``)
  before the next; it is told how long.
* The engine's work for a command — ``apply``, the table's decisions
  (:func:`~bot.service.autoplay.play_for_seats`), an undo's rebuild — runs
  on the engine threads (:func:`off_loop`), not on the event loop, unless
  the engine declares it calm (:meth:`~bot.games.base.GameEngine.calm`: it
  can never search, bounded by the board): a rule may search (Temple Rush
  checks at a round's end whether each card can still be built, up to
  ~110 ms with its caches cold), and the loop must go on serving every
  other channel meanwhile; a calm step is applied on the loop
  (:func:`applied`), which costs it less than the hop to a thread and back.
  The table's decisions hop only when it has one to take
  (:func:`~bot.service.autoplay.table_decides`); an undo's rebuild applies
  each step as :func:`applied` does. The channel's lock is held
  throughout, so nothing else touches that game's state; engines keep no
  other mutable state than their caches. A thread, not a process: under the
  GIL the loop still waits for the thread's switch interval now and then,
  so a process frees it further, but the state would have to be sent both
  ways and loaded again; ``scripts/bench_loop.py`` measures the three (the
  figures are in ``docs/scaling-rounds.md``).
* A hand-off's answer tells its player nothing the public message does not
  (:attr:`~bot.service.outcome.Reply.told`: the adapter may answer with that
  message alone) when no event of the step is private to them and their move
  reads the same in public, or is hidden there but revealed by the step's own
  public events (:meth:`~bot.games.base.GameEngine.reveals`: a sealed round's
  last submission, named by the round's reveal with every seat's).
* What a step tells from the store comes with the game's load: a hand-off's
  lines of the steps since the last public message
  (:meth:`~bot.store.GameRow.pending_moves`) and a sealed round's deadline in
  its tally (:attr:`~bot.store.GameRow.deadlines`, as the step leaves them:
  :meth:`~bot.store.StepWrite.deadlines_after`); a row that lacks them (or a
  step that fires a timer) reads them as before.
* A played step's time in the service (waiting for the channel's lock
  included, the delivery to the players not) is recorded in the metrics
  (``step_seconds``, :mod:`bot.metrics`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from bot import metrics
from bot.games.base import Event, GameEngine, Result, RuleError, TurnShape
from bot.i18n import Text
from bot.service import announce
from bot.service.autoplay import Played, play_for_seats, table_decides
from bot.service.context import Context, admitted
from bot.service.loaded import LoadedGame, seated
from bot.service.outcome import News, Outcome, Player, Refusal, StepKind, classify
from bot.service.replay import UNDO, restored, standing
from bot.service.turn_clock import (
    ABSENT_SEAT,
    PLAYING,
    absent_after,
    clock_seconds,
    clock_timers,
)
from bot.store import (
    KEEP,
    Committed,
    GameRow,
    Keep,
    MoveRow,
    NewMove,
    StepWrite,
    VersionConflict,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: threads running the engines' work (see the module docstring)
ENGINE_THREADS = 4
_ENGINES = ThreadPoolExecutor(max_workers=ENGINE_THREADS, thread_name_prefix="ziggurat-engine")


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on an engine thread, the event loop free meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(_ENGINES, work, *args)


async def applied(engine: GameEngine[Any, Any], state: Any, seat: int, action: Any) -> list[Event]:
    """``engine.apply(state, seat, action)``: on the event loop when the engine declares
    the step calm (:meth:`~bot.games.base.GameEngine.calm`), else on an engine thread."""
    if engine.calm(state, seat, action):
        return engine.apply(state, seat, action)
    return await off_loop(engine.apply, state, seat, action)


async def rebuilt(engine: GameEngine[Any, Any], checkpoint: Any, steps: Sequence[MoveRow]) -> Any:
    """The state after re-applying ``steps`` to the stored ``checkpoint`` state, as
    :func:`~bot.service.replay.rebuild` gives it, each step applied as :func:`applied` does."""
    state = restored(engine, checkpoint)
    for step in steps:
        await applied(engine, state, step.seat, engine.parse_action(step.action))
    return state


class Unconfirmed(Exception):
    """A step that cannot be taken back, not played: it needs a confirmation (``why``)."""

    def __init__(self, why: Text) -> None:
        super().__init__(why.key)
        self.why = why


def irreversible(kind: StepKind, checkpoint: bool, *, ended: bool = False) -> Text | None:
    """Why a step of ``kind`` cannot be taken back, or None when it can: a step in the
    same turn that is no checkpoint can be undone, and a sealed submission replaced
    until its round is revealed. ``ended``: the turn ended after it (nothing else
    was left to do)."""
    if kind is StepKind.SUBMISSION or (kind is StepKind.CONTINUE and not checkpoint):
        return None
    if kind is StepKind.CONTINUE:
        return Text("picker.why.reveal")
    if kind is StepKind.FINAL:
        return Text("picker.why.final")
    return Text("picker.why.ends" if ended else "picker.why.handoff")


def step_kind(engine: Any, state: Any, seat: int, before: set[int], turn: int | None) -> StepKind:
    """The kind of the step ``seat`` just took (``state`` is after it), from the seats
    awaited and the turn number before it."""
    return classify(
        seat,
        before,
        engine.waiting_for(state),
        finished=engine.result(state) is not None,
        simultaneous=engine.turns is TurnShape.SIMULTANEOUS,
        new_turn=engine.turn_number(state) != turn,
    )


def forced_end(engine: Any, state: Any, seat: int) -> Any:
    """The action ending ``seat``'s turn when it is all the seat may still do, else None
    (the engine's :meth:`~bot.games.base.GameEngine.only_end_turn`)."""
    return engine.only_end_turn(state, seat)


def judged(engine: Any, state: Any, seat: int, action: Any) -> Text | None:
    """Why ``action`` by ``seat`` could not be taken back, found by playing it on
    ``state`` (a copy, spoilt by it) as the move picker plays it (ending a turn that
    can only end); None when it could, or the rules refuse it."""
    before = engine.waiting_for(state)
    turn = engine.turn_number(state)
    try:
        events = engine.apply(state, seat, action)
        checkpoint = engine.is_checkpoint(state, seat, action, events)
        now = step_kind(engine, state, seat, before, turn)
        end = forced_end(engine, state, seat) if now is StepKind.CONTINUE else None
        if end is not None:
            engine.apply(state, seat, end)
            now = step_kind(engine, state, seat, before, turn)
    except RuleError:
        return None
    return irreversible(now, checkpoint, ended=end is not None)


def armed(write: StepWrite) -> float | None:
    """The earliest due time ``write`` gives a timer, or None when it arms none (it
    keeps or drops them: the timer task then wakes no sooner than it planned)."""
    if write.status != "running":
        return None
    dues = [due for due in (write.reminder, write.computer) if isinstance(due, float | int)]
    for named in (write.deadlines, write.clock):
        if not isinstance(named, Keep):
            dues += named.values()
    return min(dues, default=None)


def final_results(result: Result | None) -> dict[int, tuple[int, int]]:
    """Each seat's (place, score) at the end, stored with the seat for statistics."""
    if result is None:
        return {}
    return {seat: (result.places[seat], result.scores[seat]) for seat in result.ranking}


class Play:
    """Steps, undos and timeout batches; see the module docstring."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @admitted
    async def act(
        self,
        channel_id: int,
        user: Player,
        action_text: str,
        *,
        expected_game: int | None = None,
        expected_version: int | None = None,
    ) -> Outcome:
        """Play ``action_text`` for ``user`` in the channel's game.

        Raises :class:`Refusal` with nothing written if the user is not in
        the game, may not act now, or the rules forbid it. A button passes
        the game and version it was posted for; if the game has moved on
        since, ended, or given way to a new lobby, the click is refused as
        stale (checked under the lock).
        """
        started = time.perf_counter()

        async def attempt(row: GameRow | None) -> Outcome:
            game = self.ctx.checked(
                row, expected_game=expected_game, expected_version=expected_version
            )
            seat = game.acting_seat(user.id)
            try:
                action = game.engine.parse_action(action_text)
            except RuleError as error:
                if not game.engine.may_act(game.state, seat.seat):
                    raise Refusal(
                        "error.not_your_turn", players=game.names_of(game.waiting())
                    ) from None
                raise game.refusal(error) from None
            return await self.step(game, seat.seat, action)

        async with self.ctx.locks.hold(channel_id):
            outcome = await self.ctx.kept_or_fresh(channel_id, attempt)
        metrics.step(time.perf_counter() - started)
        return outcome

    @admitted
    async def undo(
        self,
        channel_id: int,
        user: Player,
        *,
        expected_game: int | None = None,
        expected_version: int | None = None,
    ) -> Outcome:
        """Take back the user's own last step since the last checkpoint."""
        async with self.ctx.locks.hold(channel_id):
            game = await self.ctx.running(
                channel_id, expected_game=expected_game, expected_version=expected_version
            )
            return await self.undo_step(game, game.acting_seat(user.id).seat)

    async def undo_step(self, game: LoadedGame, seat: int) -> Outcome:
        """Take back ``seat``'s own last step of ``game`` (loaded under its channel's
        lock); ``game.state`` is then the state after the undo."""
        base = await self.ctx.store.undo_base(game.row)
        steps = standing(base.moves)
        if not steps:
            raise Refusal("error.nothing_to_undo")
        last = steps[-1]
        if last.seat != seat:
            raise Refusal("error.undo_not_yours", seat=game.row.seats[last.seat].display_name)
        engine = game.engine
        before = announce.private_views(game)
        game.state = await rebuilt(engine, base.state, steps[:-1])
        write = StepWrite(
            state=engine.dump_state(game.state),
            status="running",
            moves=[NewMove(seat, UNDO, kind=UNDO, checkpoint=False)],
            deadlines=self._deadlines(game),
        )
        committed = await self._commit(game, write)
        # only the seat's own view can change: the others hear of theirs at the hand-off
        private = announce.private_updates(self.ctx, game, {seat: before.get(seat)}, [])
        taken = announce.described(game, engine.parse_action(last.action), public=False)
        reply = [game.text("move.undone", {"action": taken})]
        return await announce.preview(
            self.ctx,
            game,
            seat,
            kind=StepKind.CONTINUE,
            reply=reply,
            version=committed,
            can_undo=len(steps) > 1,
            private=private,
        )

    # -- one step ---------------------------------------------------------------

    async def step(
        self,
        game: LoadedGame,
        seat: int,
        action: Any,
        *,
        confirmed: bool = True,
        end_forced: bool = False,
    ) -> Outcome:
        """Play ``action`` for ``seat`` in ``game`` (loaded under its channel's lock) and
        commit it. Unless ``confirmed``, a step that could not be taken back is not
        committed: :class:`Unconfirmed` says why (``game.state`` is then spoilt: read it
        again from ``game.row``). With ``end_forced`` (the move picker), a step after
        which the seat could only end its turn ends it too, in the same commit."""
        engine, state = game.engine, game.state
        if not engine.may_act(state, seat):
            raise Refusal("error.not_your_turn", players=game.names_of(game.waiting()))
        now = self.ctx.clock()
        verb = engine.verbs.of(action).name
        wait = self.ctx.cooldowns.remaining(game.id, seat, verb, now)
        if wait > 0:
            raise Refusal("error.cooldown", seconds=math.ceil(wait))
        before = engine.waiting_for(state)
        turn = engine.turn_number(state)
        had_deadlines = bool(engine.deadlines(state))
        before_private = announce.private_views(game)
        try:
            events = await applied(engine, state, seat, action)
        except RuleError as error:
            cooldown = engine.retry_cooldown(state, seat, action, error)
            if cooldown > 0:
                self.ctx.cooldowns.start(game.id, seat, verb, now + cooldown)
            raise game.refusal(error) from None
        lines = announce.step_lines(game, seat, action, events)
        statuses = {s.seat: s.status for s in game.row.seats}
        seats: dict[int, dict[str, Any]] = {}
        own = game.row.seats[seat]
        if own.status == ABSENT_SEAT or own.timeouts:
            seats[seat] = {"status": PLAYING, "timeouts": 0}
            if own.status == ABSENT_SEAT:
                statuses[seat] = PLAYING
                lines.append(Text("table.back", {"seat": seat}))
        kind = self._kind(game, seat, before, turn)
        checked = engine.is_checkpoint(state, seat, action, events)
        ended: tuple[Any, list[Event]] | None = None
        end = forced_end(engine, state, seat) if end_forced and kind is StepKind.CONTINUE else None
        if end is not None:
            ended = (end, await applied(engine, state, seat, end))
            kind = self._kind(game, seat, before, turn)
        if not confirmed:
            why = irreversible(kind, checked, ended=ended is not None)
            if why is not None:
                raise Unconfirmed(why)
        end_lines = [] if ended is None else announce.step_lines(game, seat, *ended)
        played = Played()
        if kind is StepKind.HANDOFF:  # the table may play the next decisions itself
            played = await self._table(game, statuses)
            kind = self._kind(game, seat, before, turn)
        result = engine.result(state)
        after = engine.waiting_for(state)
        new_turn = engine.turn_number(state) != turn
        checkpoint = kind is not StepKind.CONTINUE or bool(played.moves) or checked
        interim = announce.interim(game, kind, checkpoint=checkpoint, new_turn=new_turn)
        published = kind in (StepKind.HANDOFF, StepKind.FINAL) and not interim
        handing = kind is not StepKind.CONTINUE and (published or interim)
        # its images are drawn while the step is committed, shown only once it is stored
        ahead = await announce.drawn_ahead(self.ctx, game, kind, told=handing, interim=interim)
        told_events = events if ended is None else [*events, *ended[1]]
        all_events = [*told_events, *played.events]
        try:
            pending = await self._pending_lines(game) if published or interim else []
            told = await self._told(game, before_private) if published else None
        except BaseException:
            await ahead.dropped()
            raise
        # a hand-off's views now: told in its DMs and stored as told (drawn up once)
        views_now = announce.private_views(game) if published else {}
        if handing and not interim:
            ahead.private = announce.private_ahead(
                announce.private_updates(
                    self.ctx, game, told or {}, all_events, now=views_now or None
                )
            )
        write = StepWrite(
            state=engine.dump_state(state),
            status="finished" if result is not None else "running",
            results=final_results(result),
            moves=[
                NewMove(
                    seat, str(action), events=[t.to_json() for t in lines], checkpoint=checkpoint
                ),
                *(
                    []
                    if ended is None
                    else [
                        NewMove(
                            seat,
                            str(ended[0]),
                            events=[t.to_json() for t in end_lines],
                            checkpoint=checkpoint,
                        )
                    ]
                ),
                *played.moves,
            ],
            waiting_changed=after != before,
            published=published,
            seats=seats,
            told=views_now if views_now else KEEP,
            **self._timers(game, kind, had_deadlines),
        )

        async def answer(version: int, stored: Awaitable[object]) -> Outcome:
            """What the player and the table are told, prepared while the commit runs
            (``stored``: the commit, awaited before anything is read back)."""
            shown_action = announce.described(game, action, public=False)
            reply = [game.text("move.accepted", {"action": shown_action})]
            if ended is not None:
                reply.append(Text("picker.ended"))
            if handing:
                told_lines = announce.shown(game, pending + lines + end_lines + played.lines)
                own_events = announce.event_texts(game, told_events, seat)
                reply += own_events
                handed = await announce.handoff(
                    self.ctx,
                    game,
                    lines=told_lines,
                    newly=after
                    if kind is StepKind.FINAL or new_turn
                    else after - (before - {seat}),
                    version=version,
                    reply=reply,
                    private=[] if ahead.private is None else ahead.private,
                    interim=interim,
                    stored=stored,
                    board=ahead.board,
                )
                # the public message tells it all: the move reads the same there, or
                # its events reveal it (a sealed round's last submission)
                handed.reply.told = not own_events and (
                    shown_action == announce.described(game, action)
                    or engine.reveals(state, seat, action, events)
                )
                return handed
            reply += announce.shown(game, lines) + announce.event_texts(game, told_events, seat)
            # the others hear of their own changes with the next hand-off message
            private: announce.Private = []
            if kind is StepKind.CONTINUE:
                private = announce.private_updates(
                    self.ctx, game, {seat: before_private.get(seat)}, []
                )
            outcome = await announce.preview(
                self.ctx,
                game,
                seat,
                kind=kind,
                reply=reply,
                version=version,
                can_undo=not checkpoint,
                private=private,
                stored=stored,
                board=ahead.board,
            )
            if interim:  # cannot be taken back: the channel hears of it now
                told_lines = announce.shown(game, pending + lines + end_lines + played.lines)
                if told_lines:
                    outcome.news = News(
                        told_lines + game.waiting_line(),
                        choices=announce.public_buttons(game, after),
                        interim=True,
                    )
            return outcome

        try:
            return await self._committed(game, write, answer)
        except BaseException:
            await ahead.dropped()  # refused (or failed): what was drawn ahead is never shown
            raise

    @staticmethod
    def _kind(game: LoadedGame, seat: int, before: set[int], turn: int | None) -> StepKind:
        return step_kind(game.engine, game.state, seat, before, turn)

    # -- timeouts -----------------------------------------------------------------

    async def timeouts(
        self, game: LoadedGame, deadline: str, *, fired: int | None = None
    ) -> Outcome | None:
        """Apply the timeout actions of ``deadline`` as one batch (lock held).

        ``deadline`` is one of the engine's named deadlines, or ``clock`` for the
        turn clock. Each late seat counts a timeout in a row; at the table's
        limit it becomes absent, and the table is told. ``fired`` is the timer
        that expired: it is deleted in the batch's own commit, and the batch is
        refused with nothing written if another pass fired it first. None when
        nothing was late (the caller then drops the timer).
        """
        engine, state = game.engine, game.state
        planned = engine.timeout_actions(state, deadline)
        if not planned:
            return None
        before = engine.waiting_for(state)
        turn = engine.turn_number(state)
        had_deadlines = bool(engine.deadlines(state))
        before_private = announce.private_views(game)
        moves: list[NewMove] = []
        lines: list[Text] = []
        events: list[Event] = []
        acted: set[int] = set()
        ends: dict[int, int] = {}  # where each seat's timeout lines end, for its absent line
        for seat, action in planned:
            try:
                done = await applied(engine, state, seat, action)
            except RuleError as error:
                log.warning(
                    "timeout action %s of seat %s refused in game %s: %s",
                    engine.public_notation(action),
                    seat,
                    game.id,
                    error.key,
                )
                continue
            acted.add(seat)
            shown = announce.described(game, action)
            step = [Text("move.timeout", {"seat": seat, "action": shown})]
            step += [Text(e.key, e.params) for e in done if e.private_to is None and not e.receipt]
            lines += step
            ends[seat] = len(lines)
            events += [e for e in done if not e.receipt]  # the timeout line says it
            moves.append(
                NewMove(seat, str(action), kind="timeout", events=[t.to_json() for t in step])
            )
        if not moves:
            return None
        statuses = {s.seat: s.status for s in game.row.seats}
        seats: dict[int, dict[str, Any]] = {}
        limit = absent_after(game.row.options)
        for seat in sorted(acted):
            row = game.row.seats[seat]
            count = row.timeouts + 1
            seats[seat] = {"timeouts": count}
            if (
                row.status == PLAYING
                and row.computer is None
                and limit is not None
                and count >= limit
            ):
                seats[seat]["status"] = ABSENT_SEAT
                statuses[seat] = ABSENT_SEAT
                absent = Text("table.absent", {"seat": seat, "count": count})
                lines.insert(ends[seat], absent)
                ends = {s: end + (end >= ends[seat]) for s, end in ends.items()}
        played = await self._table(game, statuses)
        result = engine.result(state)
        after = engine.waiting_for(state)
        interim = self._interim(game, turn)
        # its images are drawn while the batch is committed, shown only once it is stored
        ahead = await announce.handoff_ahead(self.ctx, game, told=True, interim=interim)
        async with ahead.until_stored():
            pending = await self._pending_lines(game)
            told = None if interim else await self._told(game, before_private)
            ahead.tell(self.ctx, game, told, [*events, *played.events])
            write = StepWrite(
                state=engine.dump_state(state),
                status="finished" if result is not None else "running",
                results=final_results(result),
                moves=[*moves, *played.moves],
                waiting_changed=after != before,
                published=not interim,
                seats=seats,
                fired=fired,
                told=KEEP if interim else self._told_now(game),
                **self._timers(game, StepKind.HANDOFF, had_deadlines),
            )
            version = await self._commit(game, write)
        return await announce.handoff(
            self.ctx,
            game,
            lines=announce.shown(game, pending + lines + played.lines),
            newly=after - (before - acted),
            version=version,
            reply=[],
            private=[] if ahead.private is None else ahead.private,
            interim=interim,
            board=ahead.board,
        )

    async def play_out(self, game: LoadedGame, lines: list[Text]) -> Outcome | None:
        """Let the table play the decisions it takes now (a seat just resigned); one
        commit and one public message headed by ``lines``, or None if there were none."""
        engine, state = game.engine, game.state
        before = engine.waiting_for(state)
        turn = engine.turn_number(state)
        had_deadlines = bool(engine.deadlines(state))
        before_private = announce.private_views(game)
        played = await self._table(game, {s.seat: s.status for s in game.row.seats})
        if not played.moves:
            return None
        result = engine.result(state)
        after = engine.waiting_for(state)
        interim = self._interim(game, turn)
        ahead = await announce.handoff_ahead(self.ctx, game, told=True, interim=interim)
        async with ahead.until_stored():
            pending = await self._pending_lines(game)
            told = None if interim else await self._told(game, before_private)
            ahead.tell(self.ctx, game, told, played.events)
            write = StepWrite(
                state=engine.dump_state(state),
                status="finished" if result is not None else "running",
                results=final_results(result),
                moves=played.moves,
                waiting_changed=after != before,
                published=not interim,
                told=KEEP if interim else self._told_now(game),
                **self._timers(game, StepKind.HANDOFF, had_deadlines),
            )
            version = await self._commit(game, write)
        return await announce.handoff(
            self.ctx,
            game,
            lines=announce.shown(game, pending + lines + played.lines),
            newly=after - (before - played.seats),
            version=version,
            reply=[],
            private=[] if ahead.private is None else ahead.private,
            interim=interim,
            board=ahead.board,
        )

    # -- helpers ------------------------------------------------------------------

    @staticmethod
    async def _table(game: LoadedGame, statuses: dict[int, str]) -> Played:
        """The decisions the table takes now (:func:`~bot.service.autoplay.play_for_seats`),
        on an engine thread when it has any to take; none, and no hop, otherwise."""
        if not table_decides(game, statuses):
            return Played()
        return await off_loop(play_for_seats, game, statuses)

    def _timers(self, game: LoadedGame, kind: StepKind, had_deadlines: bool) -> dict[str, Any]:
        """The members' timers a step writes (see the module docstring); nothing while
        paused. The computer timer is the commit's (:meth:`_commit`)."""
        if game.row.paused is not None:
            return {"reminder": KEEP, "deadlines": KEEP, "clock": KEEP}
        deadlines = self._deadlines(game, had_deadlines)
        if kind is not StepKind.HANDOFF:
            return {"reminder": KEEP, "deadlines": deadlines, "clock": KEEP}
        now = self.ctx.clock()
        seconds = clock_seconds(game.row.options)
        if seconds is not None and game.engine.turns is TurnShape.SEQUENTIAL:
            clock = clock_timers(now, seconds)
            return {"reminder": None, "deadlines": deadlines, "clock": clock}
        reminder = now + self.ctx.reminder_seconds
        return {"reminder": reminder, "deadlines": deadlines, "clock": KEEP}

    def _deadlines(self, game: LoadedGame, had: bool = True) -> dict[str, float] | Keep:
        """The deadlines to write: the engine's now (new ones due from now); nothing to
        write when the game wants none now and wanted none before the step."""
        now = self.ctx.clock()
        wanted = {d.name: now + d.seconds for d in game.engine.deadlines(game.state)}
        return wanted if wanted or had else KEEP

    async def _told(self, game: LoadedGame, before: dict[int, Any]) -> dict[int, Any]:
        """Each seat's private view as its player was last told of it (the DMs of a
        hand-off say what changed since), else as ``before`` the step."""
        return await announce.told_views(self.ctx, game, before)

    @staticmethod
    def _interim(game: LoadedGame, turn: int | None) -> bool:
        """Whether a batch the table played (timeouts, a resigned seat's decisions) is
        told by an interim message (:func:`bot.service.announce.interim`)."""
        engine = game.engine
        kind = StepKind.FINAL if engine.result(game.state) is not None else StepKind.HANDOFF
        new_turn = engine.turn_number(game.state) != turn
        return announce.interim(game, kind, checkpoint=True, new_turn=new_turn)

    @staticmethod
    def _told_now(game: LoadedGame) -> dict[int, Any] | Keep:
        """The private views a hand-off's DMs tell (stored with it), for a game with any."""
        views = announce.private_views(game)
        return views if views else KEEP

    async def _pending_lines(self, game: LoadedGame) -> list[Text]:
        """The public lines of the steps since the last public message that still stand."""
        if game.row.published_seq >= game.row.last_seq:
            return []
        moves = game.row.pending_moves()  # read with the game, else now
        if moves is None:
            moves = await self.ctx.store.moves(game.id, after=game.row.published_seq)
        return [Text.from_json(line) for move in standing(moves) for line in move.events]

    def _final(self, game: LoadedGame, write: StepWrite) -> StepWrite:
        """The write as it is committed: ``game.row`` becomes the row as written, and a
        running game gets the computer timer it needs after the step (see :meth:`_commit`)."""
        row = seated(game.row, write.seats)
        deadlines = write.deadlines_after(row.deadlines)
        game.row = row if deadlines == row.deadlines else replace(row, deadlines=deadlines)
        if write.status != "running":
            return write
        due = self.ctx.computer_due(game)
        if due is None and all(s.computer is None for s in game.row.seats):
            return write  # no computer seat, so no computer timer to drop: nothing to write
        return replace(write, computer=due)

    def _armed(self, write: StepWrite) -> None:
        """Tell the timer task of what a committed write armed."""
        due = armed(write)
        if due is not None:
            self.ctx.timers_changed(due)

    async def _commit(self, game: LoadedGame, write: StepWrite) -> int:
        """Commit a step; the new version. A lost race is refused with nothing written.

        Every step passes here or through :meth:`_committed` — a member's, an undo, a
        timeout batch, the table's moves, the computer seats' own — and there, once, it
        gets the computer timer the game needs after it
        (:meth:`~bot.service.context.Context.computer_due`), computed from the game as
        the step leaves it: its new state and its seats' new statuses (``game.row``
        becomes the row as written)."""
        loaded, write = game.row, self._final(game, write)  # the store's: the row as loaded
        try:
            committed = await self.ctx.store.commit_step(loaded, write)
        except VersionConflict:
            raise Refusal("error.conflict") from None
        self._armed(write)
        return committed.version

    async def _committed(
        self,
        game: LoadedGame,
        write: StepWrite,
        answer: Callable[[int, Awaitable[object]], Awaitable[Outcome]],
    ) -> Outcome:
        """Commit a step as :meth:`_commit` does, and return ``answer(version, stored)``:
        prepared while the commit runs, once only the commit remains (the store's
        ``sent``), and returned only once it is committed, so nothing is told before
        it is stored; a lost race is refused and the answer dropped. ``stored`` is the
        commit, for an answer that reads what it stored."""
        loaded, write = game.row, self._final(game, write)  # the store's: the row as loaded
        ready = asyncio.get_running_loop().create_future()

        def sent(*_: object) -> None:
            if not ready.done():
                ready.set_result(None)

        commit = self.ctx.store.start_step(loaded, write, sent=sent)
        commit.add_done_callback(sent)  # failed before its commit: nothing to wait for
        await ready
        if commit.done() and commit.exception() is not None:  # refused: nothing to prepare
            await self._stored(commit)
        try:
            outcome = await answer(game.row.version + 1, commit)
        except BaseException:
            await self._stored(commit)  # a lost race says so; else the answer's own error
            raise
        outcome.version = await self._stored(commit)
        self._armed(write)
        return outcome

    @staticmethod
    async def _stored(commit: Awaitable[Committed]) -> int:
        try:
            return (await commit).version
        except VersionConflict:
            raise Refusal("error.conflict") from None
