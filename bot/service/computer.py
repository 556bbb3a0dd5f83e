"""Computer seats in a game: their names, their decisions off the event loop, their moves.

A game's computer player is its :class:`~bot.games.computer.Brain`
(:meth:`~bot.games.base.GameEngine.computer`); this module seats it and plays it.

Decisions:

* **A seat row says it is a computer** (``SeatRow.computer``: its level, one
  of :data:`~bot.games.computer.LEVELS`) with a synthetic negative user id,
  so every lookup by user still works and no Discord user can ever hold it.
  Its name is drawn from the catalog in the game's language with its number
  and level, headed by :data:`MARKER` (a glyph the bundled fonts draw), so it
  reads apart on the board and in every message.
* **Durable and once.** While the game awaits a computer seat it holds one
  ``computer`` timer, due :attr:`Context.computer_pause` seconds after the
  step that handed over (so the table can follow), plus the brain's
  ``answer_delay`` (Temple Rush's lightning race, so a human can win it;
  computer seats awaited together answer together, after the shortest of
  their delays, the one a member has to beat), drawn from the seats' secrets
  (:func:`bot.service.seeds.answer_delay`). A step writes it in its own
  commit (``StepWrite.computer``); a start, a seat handed over or a resume
  adds it just after theirs, and
  :meth:`~bot.service.clock.Timers.repair_timers` recreates one lost between
  the two. A restart or a SIGKILL loses nothing.
* **Off the event loop, outside the lock.** When the timer fires, each
  awaited computer seat's plan is decided in a process pool of its own
  (:data:`WORKERS` processes, a :class:`~bot.service.workers.WorkerPool` apart
  from the drawing processes, so a long decision never delays an image), given only the
  engine, the dumped state, the seat, the level and a seed derived from (game,
  version, seat): a retried decision is the same. No lock is held meanwhile:
  a human answered in between is never kept waiting. The bot starts them
  when it starts (:func:`warm_up`), when a game has a computer player.
* **Below the bot's priority.** The deciding processes run niced
  (:data:`NICENESS`): when the cores are busy, a member's answer, its image
  and the event loop go first. A decision's budget is counted in work
  (worlds and plans), not in time, so a niced decision is the same, only
  later when the machine is busy.
* **One transaction.** Then, under the channel's lock, if the game is still
  at the version decided on, the plans' steps are applied while the game
  waits for their seats, the table's own moves after a hand-off follow
  (:mod:`bot.service.autoplay`), and everything is committed in one
  version-checked transaction that also deletes the fired timer; on a
  version conflict (a human acted meanwhile) the seats decide again. The
  plans' steps and the table's moves are applied on the engine threads
  (:func:`bot.service.play.off_loop`), as a member's step is: a rule's
  search (Temple Rush's round end) never holds up the event loop. A
  decision that fails (logged) or a plan whose first step is refused (it
  should not be) falls back to the engine's timeout action, so the game
  goes on. A computer's steps are checkpoints, as the table's moves.
* **Announced like a player's.** A hand-off to a member gets its one public
  message (lines, board, question, pings); a hand-off to computer seats only
  is told by the game's interim message, which the next one replaces, so a
  run of computer turns is one message with one board when a member is
  awaited again (:func:`bot.service.announce.interim`); a sealed submission
  updates the round's tally. Its board and the members' changed private
  views are asked of the drawing pool as soon as the plans are applied, and
  drawn while the step is committed (:func:`bot.service.announce.handoff_ahead`);
  a refused commit drops them unshown, and the seats decide again. Nothing
  is ever sent to a computer seat: no DM, no ping, no private image
  (:meth:`~bot.service.loaded.LoadedGame.users_of`,
  :func:`~bot.service.announce.private_updates`).
* A computer seat never plays on while no member of the game is playing
  (all absent or resigned): the game waits for a member, as the table does.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from bot.games.base import Event, GameEngine, RuleError, TurnShape
from bot.games.computer import LEVELS, decide
from bot.i18n import Text, t
from bot.service import announce
from bot.service.autoplay import play_for_seats
from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import Outcome, Refusal, Step, StepKind, classify
from bot.service.play import Play, final_results, off_loop
from bot.service.seeds import decision_seed
from bot.service.workers import WorkerPool
from bot.store import KEEP, GameRow, NewMove, StepWrite, TimerGone, TimerRow, VersionConflict

log = logging.getLogger(__name__)

#: what heads a computer seat's name (a glyph every bundled font draws)
MARKER = "•"
#: processes deciding computer moves: one core is left to the bot and its images
WORKERS = max(1, (os.cpu_count() or 1) - 1)
#: how often a decision is taken again after the game moved on under it
MAX_TRIES = 4
#: the move-log kind of a computer seat's step
KIND = "computer"
#: how much lower than the bot's the deciding processes' CPU priority is
NICENESS = 10


# -- seats ----------------------------------------------------------------------------


def computer_name(language: str, number: int, level: str) -> str:
    """A computer seat's name in ``language``: marker, number, level."""
    return t(
        language,
        "computer.name",
        marker=MARKER,
        number=number,
        level=Text(f"computer.level.{level}"),
    )


def next_computer_id(row: GameRow) -> int:
    """A synthetic user id no seat of ``row`` holds (negative: no Discord user has it)."""
    return min([s.user_id for s in row.seats if s.user_id < 0], default=0) - 1


def parse_level(level: str | None) -> str:
    """A level a player chose (``easy`` when none); refused when it is not one."""
    chosen = (level or LEVELS[0]).strip().lower()
    if chosen not in LEVELS:
        raise Refusal("computer.error.level", level=level or "", levels=", ".join(LEVELS))
    return chosen


# -- the deciding processes -------------------------------------------------------------


def _lower_priority() -> None:
    """Setup of a deciding process: it yields the cores to the bot and its drawing
    processes (:data:`NICENESS`)."""
    try:
        os.nice(NICENESS)
    except OSError:  # not allowed here: it decides at the bot's priority
        log.warning("could not lower a deciding process's priority", exc_info=True)


#: the deciding processes
POOL = WorkerPool(WORKERS, "ziggurat-decide", setup=_lower_priority)


def _ready() -> int:
    return os.getpid()


def _niceness() -> int:
    return os.nice(0)


def warm_up() -> None:
    """Start the deciding processes now (the bot's start, on its event loop); a failure
    is logged and the first decision starts them again."""
    if POOL.started:
        return
    try:
        POOL.start(asyncio.get_running_loop())
    except (OSError, RuntimeError):
        log.warning("could not start the deciding processes", exc_info=True)


def decide_text(
    engine: GameEngine[Any, Any], state: Any, seat: int, level: str, seed: int
) -> list[str]:
    """The plan of ``seat`` (each step in its text form), decided from the dumped state."""
    brain = engine.computer()
    if brain is None:
        return []
    plan = decide(brain, engine.load_state(state), seat, level, seed)
    return [str(action) for action in plan]


async def decided(
    engine: GameEngine[Any, Any], state: Any, seat: int, level: str, seed: int
) -> list[str]:
    """:func:`decide_text` in a deciding process (on a thread when the engine cannot be
    sent, or the processes failed)."""
    plan, _ = await POOL.run(decide_text, engine, state, seat, level, seed)
    steps: list[str] = plan
    return steps


# -- playing them ------------------------------------------------------------------------


def _applied(game: LoadedGame, seat: int, plan: list[str]) -> list[tuple[Any, list[Event]]]:
    """Apply ``seat``'s plan in place while the game waits for it: each step and its
    events. A plan that cannot start (empty, unreadable, or its first step refused)
    falls back to the engine's timeout action, else the first legal action."""
    engine, state = game.engine, game.state
    done: list[tuple[Any, list[Event]]] = []
    for text in plan:
        if engine.result(state) is not None or seat not in engine.waiting_for(state):
            return done
        try:
            action = engine.parse_action(text)
            done.append((action, engine.apply(state, seat, action)))
        except RuleError as error:
            log.warning("computer seat %s of game %s: step refused (%s)", seat, game.id, error.key)
            break
    if done or engine.result(state) is not None or seat not in engine.waiting_for(state):
        return done
    legal = engine.legal_actions(state, seat)
    for action in (engine.timeout_action(state, seat), *legal[:1]):
        if action is None:
            continue
        try:
            return [(action, engine.apply(state, seat, action))]
        except RuleError:
            continue
    return done


class Computers:
    """Plays the computer seats when their timer fires; see the module docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def fire(self, timer: TimerRow) -> list[Outcome]:
        """Decide and play the awaited computer seats' moves; the timer leaves with them."""
        store = self.ctx.store
        for _ in range(MAX_TRIES):
            row = None if timer.game_id is None else await store.get_game(timer.game_id)
            if row is None or row.status != "running":
                await store.delete_timer(timer.id)
                return []
            game = self.ctx.loaded(row)
            seats = game.computers_awaited()
            if not seats:
                await store.delete_timer(timer.id)
                return []
            dumped = game.engine.dump_state(game.state)
            results = await asyncio.gather(
                *(
                    decided(
                        game.engine,
                        dumped,
                        seat,
                        row.seats[seat].computer or LEVELS[0],
                        decision_seed(game, seat),
                    )
                    for seat in seats
                ),
                return_exceptions=True,
            )
            plans: list[list[str]] = []
            for seat, result in zip(seats, results, strict=True):
                if isinstance(result, BaseException):  # the game goes on: a timeout action
                    log.error(
                        "computer seat %s of game %s could not decide",
                        seat,
                        row.id,
                        exc_info=result,
                    )
                    result = []
                plans.append(result)
            async with self.ctx.locks.hold(row.channel_id):
                if await store.timer(timer.id) is None:  # another pass played it
                    return []
                fresh = await store.get_game(row.id)
                if fresh is None or fresh.version != row.version:
                    continue  # a member acted meanwhile: decide again
                try:
                    outcome = await self._play(game, dict(zip(seats, plans, strict=True)), timer)
                except TimerGone:
                    return []
                except (VersionConflict, Refusal):
                    continue
            return [outcome] if outcome is not None else []
        log.warning("game %s moved on under %s decisions; trying later", timer.game_id, MAX_TRIES)
        return []

    async def _play(
        self, game: LoadedGame, plans: dict[int, list[str]], timer: TimerRow
    ) -> Outcome | None:
        """Apply the plans, commit them with the fired timer, and say what happened."""
        engine, state = game.engine, game.state
        before = engine.waiting_for(state)
        turn = engine.turn_number(state)
        had_deadlines = bool(engine.deadlines(state))
        before_private = announce.private_views(game)
        moves: list[NewMove] = []
        lines: list[Text] = []
        events: list[Event] = []
        acted: set[int] = set()
        for seat, plan in plans.items():
            for action, applied in await off_loop(_applied, game, seat, plan):
                step = announce.step_lines(game, seat, action, applied)
                lines += step
                events += applied
                acted.add(seat)
                moves.append(
                    NewMove(seat, str(action), kind=KIND, events=[t_.to_json() for t_ in step])
                )
        if not moves:  # nothing playable: logged, and the timer goes (no busy loop)
            log.error("computer seats %s of game %s found nothing to play", sorted(plans), game.id)
            await self.ctx.store.delete_timer(timer.id)
            return None
        after = engine.waiting_for(state)
        new_turn = engine.turn_number(state) != turn
        finished = engine.result(state) is not None
        kind = classify(
            acted,
            before,
            after,
            finished=finished,
            simultaneous=engine.turns is TurnShape.SIMULTANEOUS,
            new_turn=new_turn,
        )
        played_lines: list[Text] = []
        played_events: list[Event] = []
        if kind is StepKind.HANDOFF:
            played = await off_loop(
                play_for_seats, game, {s.seat: s.status for s in game.row.seats}
            )
            moves += played.moves
            played_lines, played_events = played.lines, played.events
            after = engine.waiting_for(state)
            finished = engine.result(state) is not None
            kind = StepKind.FINAL if finished else kind
        result = engine.result(state)
        # a run of computer turns is told by one interim message until a member is awaited
        interim = announce.interim(game, kind, checkpoint=True, new_turn=new_turn)
        published = kind in (StepKind.HANDOFF, StepKind.FINAL) and not interim
        # its images are drawn while the step is committed, shown only once it is stored
        ahead = await announce.handoff_ahead(
            self.ctx, game, told=published or interim, interim=interim
        )
        async with ahead.until_stored():
            pending = await self.play._pending_lines(game) if published or interim else []
            told = await self.play._told(game, before_private) if published else None
            ahead.tell(self.ctx, game, told, [*events, *played_events])
            write = StepWrite(
                state=engine.dump_state(state),
                status="finished" if result is not None else "running",
                results=final_results(result),
                moves=moves,
                waiting_changed=after != before,
                published=published,
                fired=timer.id,
                told=self.play._told_now(game) if published else KEEP,
                **self.play._timers(game, kind, had_deadlines),
            )
            version = await self.play._commit(game, write)
        if published or interim:
            newly = after if finished or new_turn else after - (before - acted)
            return await announce.handoff(
                self.ctx,
                game,
                lines=announce.shown(game, pending + lines + played_lines),
                newly=newly,
                version=version,
                reply=[],
                private=[] if ahead.private is None else ahead.private,
                interim=interim,
                board=ahead.board,
            )
        tally = await announce.tally(self.ctx, game) if kind is StepKind.SUBMISSION else None
        if tally is None:
            return None
        return Outcome(
            game_id=game.id,
            channel_id=game.row.channel_id,
            version=version,
            step=Step(kind, tally=tally),
        )
