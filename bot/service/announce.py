"""Turning a committed step into what people are told.

Decisions:

* **One message per hand-off between people.** The channel gets one public
  message each time the game hands over to a member — it starts waiting for
  someone else, a round resolves, or the game ends. It lists, in words, every
  step since the last such message (kept with each move row until then), then
  the board, then the question the game now asks, and pings exactly the seats
  newly awaited.
* **An interim message for what cannot wait.** Some public steps are told at
  once without closing the story (:func:`interim`): a step that cannot be
  taken back in a turn that goes on (a conflict decided by its defender, who
  then chooses treasures; a dug treasure), a hand-off to computer seats only
  (their run of turns), and a bid that leaves the auction open
  (``engine.told_in_place``). Such an outcome (``News.interim``) tells the
  steps since the last hand-off message, the question and Play when a member
  is awaited — no board, no DM — and the game's next public message replaces
  it and tells them again; the steps stay unpublished (``published_seq``)
  until that hand-off message. So a run of computer turns is one message, with
  one board, when the game next waits for a member, and an auction's bids one
  message, the board coming with the won hex.
* **Previews for steps.** When the same seat goes on (a Tikal turn, the
  second action of a Tigris & Euphrates turn), only that player is
  answered: what the step did, the engine's summary (``AP left``), a
  preview drawn by the same renderer from the same public view, and
  buttons — Undo when the step can be taken back, End turn where the game
  has one, and the seat's own decisions. Their changed private view comes
  with that answer instead of a DM.
* **Sealed submissions** are confirmed to their author alone, with their
  own private image; the round's tally (who has submitted, who is awaited,
  the deadline) is updated instead of pinging anyone.
* Buttons on a public message are public, so they come only from
  ``public_choices`` (public information), and only when exactly one seat
  is awaited, a member holds it, and it has 2 to :data:`MAX_PUBLIC_CHOICES`
  of them.
* A public message that waits for a member ends with a "Play" button: it
  opens the move picker (:mod:`bot.service.tapping`) of each awaited
  clicker, ephemerally — everything they may do now, their private
  decisions (bids, a bonus brick) included; anyone else is refused. A message
  that waits only for computer seats has none.
* **Images at once.** The images of one answer — a hand-off's board and every
  private view that changed, a preview's image and zoom — are drawn
  concurrently, each on its own drawing process (:mod:`bot.service.drawing`):
  a hand-off waits for its slowest image, not for their sum.
* **Drawn while the step is committed.** A step's board, and a hand-off's
  private images, are asked of the drawing pool as soon as the engine has
  applied the step (:func:`drawn_ahead`), before its commit is written, so
  that the drawing overlaps the commit. Nothing is shown before the commit is
  stored (the answer is returned only then); a step refused at its commit
  drops them (:meth:`Ahead.dropped`: cancelled, never shown). So for every
  kind of step: a member's, and those no interaction waits on — a computer
  seat's when its timer fires, a deadline's timeout actions, the table's
  play-out after a resignation (:func:`handoff_ahead`) — whose player would
  otherwise wait for the board only once the commit is stored.
* **The invoker's answer does not wait for a hand-off's images.** An adapter
  that answers the invoker early wraps the service call in
  :func:`answered_early`; a hand-off's outcome then comes back as soon as the
  step is stored, its board, private images and round tally still being drawn
  and read (``Outcome.drawing``, ``Outcome.drawing_private``): it answers the
  invoker (words only) meanwhile, posts the public message once the board and
  the tally are in (``Outcome.drawn(private=False)``) and the DMs once their
  images are. Everyone else gets the outcome whole, as before. The request is
  scoped to the task that made it, inside the block: a task spawned there (it
  copies the context) is not that task and gets outcomes whole, so a timer's
  or a computer's outcome can never come back still drawing to a caller that
  does not wait for it.
* **DMs carry news, once per hand-off.** Private updates go with hand-off
  messages only: to each seat whose private view changed since its player was
  last told of it (the views are stored with the hand-off, ``told``), in words
  (``engine.private_news``: "you drew 2 red…; your hand: …") with the image;
  never to anyone else, never to a computer seat, never when nothing the seat
  can see changed. The seat's private events of the step are added when the
  engine's news has only generic words (or the game has no private view).
  The acting seat sees its own changes in its answer meanwhile.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.games.base import Event, Result, TurnShape
from bot.i18n import Text
from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    News,
    Outcome,
    PrivateMessage,
    Reply,
    Step,
    StepKind,
)
from bot.store import SeatRow

#: the final message's button (bot.service.after)
REMATCH = Choice(Text("after.rematch_button"), kind=ChoiceKind.REMATCH)
#: the button on every public message that waits for someone (the move picker)
PLAY = Choice(Text("picker.play_button"), kind=ChoiceKind.PLAY)
#: at most this many public buttons (two rows of five)
MAX_PUBLIC_CHOICES = 10
#: at most this many of a seat's own choices on its ephemeral answer (four rows)
MAX_PRIVATE_CHOICES = 20

#: private messages, or their drawing still under way (:func:`private_updates` not awaited)
Private = list[PrivateMessage] | Awaitable[list[PrivateMessage]]
#: the engine contract's generic private news (``GameEngine.private_news``'s default)
GENERIC_NEWS = frozenset({"hand.changed", "hand.view"})
#: the task that asked, in :func:`answered_early`, for a hand-off's outcome with its
#: images still drawing (a task spawned inside copies the value but is another task),
#: or :data:`_EVERY_TASK` (its spawned tasks too)
_EARLY: ContextVar[asyncio.Task[Any] | object | None] = ContextVar(
    "ziggurat_answered_early", default=None
)
_EVERY_TASK = object()


@contextmanager
def answered_early(*, spawned: bool = False) -> Iterator[None]:
    """Within this block, and in the task running it only, :func:`handoff` returns as
    soon as the step is stored, its images still drawing (``Outcome.drawing``): for an
    adapter that answers the invoker meanwhile and awaits ``Outcome.drawn()`` before
    posting the rest. A task spawned inside gets outcomes whole, unless ``spawned``:
    for a caller that collects every outcome its tasks return and awaits each one's
    ``drawn()`` (the timer task, which posts a public message once its board is drawn)."""
    token = _EARLY.set(_EVERY_TASK if spawned else asyncio.current_task())
    try:
        yield
    finally:
        _EARLY.reset(token)


def early() -> bool:
    """Whether the running task asked for outcomes still drawing (:func:`answered_early`)."""
    task = _EARLY.get()
    return task is _EVERY_TASK or (task is not None and task is asyncio.current_task())


@dataclass
class Ahead:
    """A step's images asked of the drawing pool before its commit is written
    (:func:`drawn_ahead`): the board, and a hand-off's private messages; None where
    not asked (its answer draws them itself, or none)."""

    board: asyncio.Future[bytes | None] | None = None
    private: asyncio.Future[list[PrivateMessage]] | None = None

    async def dropped(self) -> None:
        """Cancel what is still drawing (the commit was refused: nothing is shown) and
        wait until it has stopped."""
        parts = [part for part in (self.board, self.private) if part is not None]
        for part in parts:
            part.cancel()
        await asyncio.gather(*parts, return_exceptions=True)

    def tell(
        self,
        ctx: Context,
        game: LoadedGame,
        told: Mapping[int, Any] | None,
        events: Sequence[Event],
    ) -> None:
        """A hand-off's private messages asked now (:func:`private_updates` from the views
        as ``told``), drawing while the step is committed; nothing when ``told`` is None
        (an interim message tells no one privately)."""
        if told is not None:
            self.private = private_ahead(private_updates(ctx, game, told, events))

    @asynccontextmanager
    async def until_stored(self) -> AsyncIterator[Ahead]:
        """The step's reads and its commit run inside: if they fail (the commit is
        refused, the fired timer is gone), what was asked ahead is dropped unshown."""
        try:
            yield self
        except BaseException:
            await self.dropped()
            raise


def own_view_first(game: LoadedGame, kind: StepKind) -> bool:
    """Whether a step's own answer (:func:`preview`) shows the seat's private view
    rather than the board: a sealed submission in a game with private views."""
    return kind is StepKind.SUBMISSION and game.engine.has_private_view


def board_told(game: LoadedGame) -> bool:
    """Whether a hand-off message (not interim) shows the board: at the end, or when a
    member is awaited (a start awaiting only computers has none: their run's message will)."""
    return game.engine.result(game.state) is not None or bool(game.members_awaited())


async def drawn_ahead(
    ctx: Context, game: LoadedGame, kind: StepKind, *, told: bool, interim: bool
) -> Ahead:
    """The step's board asked of the drawing pool now (``game.state`` is after the
    step), when its answer will show one: a hand-off message (``told``) that is not
    ``interim`` and :func:`board_told`, or a step's own answer unless
    :func:`own_view_first`; it is with the pool when this returns. The answer passes
    it to :func:`handoff` or :func:`preview`, which use it only if they show a board."""
    if not ctx.render:
        return Ahead()
    wanted = (not interim and board_told(game)) if told else not own_view_first(game, kind)
    if not wanted:
        return Ahead()
    ahead = Ahead(board=asyncio.ensure_future(ctx.board(game)))
    try:
        await asyncio.sleep(0)  # its task runs until it waits for the pool: the job is sent
    except BaseException:
        await ahead.dropped()
        raise
    return ahead


def private_ahead(private: Awaitable[list[PrivateMessage]]) -> asyncio.Future[list[PrivateMessage]]:
    """:func:`private_updates` asked now, drawing while the step is committed."""
    return asyncio.ensure_future(private)


async def handoff_ahead(ctx: Context, game: LoadedGame, *, told: bool, interim: bool) -> Ahead:
    """:func:`drawn_ahead` for a step no interaction waits on — a computer seat's, a
    deadline's timeout actions, the table's play-out — whose only message is a
    hand-off's (``told``; ``interim`` as :func:`interim` says): its board asked now,
    nothing when it tells nothing (a sealed submission updates the tally only)."""
    if not told:
        return Ahead()
    return await drawn_ahead(ctx, game, StepKind.HANDOFF, told=True, interim=interim)


def event_texts(game: LoadedGame, events: Sequence[Event], seat: int | None = None) -> list[Text]:
    """The events everyone may see (``seat=None``), or those private to ``seat``."""
    return [game.text(e.key, e.params) for e in events if e.private_to == seat]


def step_lines(game: LoadedGame, seat: int, action: Any, events: Sequence[Event]) -> list[Text]:
    """A step's public lines, seats kept as ints (stored until the hand-off).

    Only when the step produced no event at all does it fall back to the
    action's public description, so a hidden choice is never announced; a
    step whose events are all private (a draft of a sealed move) says nothing.
    """
    public = [Text(e.key, e.params) for e in events if e.private_to is None]
    if public or events:  # a step told only its author (a draft) says nothing in public
        return public
    return [Text("move.played", {"seat": seat, "action": described(game, action)})]


def described(game: LoadedGame, action: Any, *, public: bool = True) -> Text:
    """The action in words (:meth:`~bot.games.base.GameEngine.describe`), its seat
    params kept as ints so that the line can be stored until the hand-off."""
    key, params = game.engine.describe(action, public)
    return Text(key, dict(params))


def shown(game: LoadedGame, lines: Sequence[Text]) -> list[Text]:
    """Stored lines with their seat params turned into player names."""
    return [game.text(line.key, line.params) for line in lines]


def result_lines(game: LoadedGame, result: Result) -> list[Text]:
    lines = [Text("game.over")]
    for seat in result.ranking:
        detail_key, detail_params = result.details.get(seat, ("game.score", {}))
        lines.append(
            Text(
                "game.ranking_line",
                {
                    "place": result.places[seat],
                    "player": game.row.seats[seat].display_name,
                    "score": result.scores[seat],
                    "detail": game.text(detail_key, detail_params),
                },
            )
        )
    return lines


def ranking_text(game: LoadedGame, result: Result) -> Text:
    """One line: the final ranking, best first."""
    parts = ", ".join(
        f"{result.places[s]}. {game.row.seats[s].display_name} ({result.scores[s]})"
        for s in result.ranking
    )
    return Text("game.final_ranking", {"ranking": parts})


def private_views(game: LoadedGame) -> dict[int, Any]:
    """Every seat's private view now (empty for a game without private views)."""
    if not game.engine.has_private_view:
        return {}
    return {s.seat: game.engine.private_view(game.state, s.seat) for s in game.row.seats}


def news(game: LoadedGame, before: Any, view: Any) -> list[Text]:
    """A seat's private news from ``before`` to ``view`` (``engine.private_news``), its
    seat params as names; ``before`` None: the view itself in words."""
    return [game.text(key, params) for key, params in game.engine.private_news(before, view)]


def generic(lines: Sequence[Text]) -> bool:
    """Whether private news has only the engine contract's generic words."""
    return all(line.key in GENERIC_NEWS for line in lines)


async def told_views(ctx: Context, game: LoadedGame, before: Mapping[int, Any]) -> dict[int, Any]:
    """Each seat's private view as its player was last told of it, else as ``before``."""
    if not game.engine.has_private_view:
        return dict(before)
    told = game.row.told_views() or {}  # read with the game: no round trip of its own
    return {seat: told.get(seat, view) for seat, view in before.items()}


async def private_updates(
    ctx: Context,
    game: LoadedGame,
    before: Mapping[int, Any],
    events: Sequence[Event],
    *,
    skip: int | None = None,
    now: Mapping[int, Any] | None = None,
) -> list[PrivateMessage]:
    """A message for each seat whose private view changed since ``before`` (a seat
    given as None: its whole view) or that got a private event, in words with the
    image; the images are drawn at once, each on its own drawing process. ``now``:
    the seats' views as the game stands, when the caller has them already
    (:func:`private_views`), else each is drawn up here."""
    wanted: list[tuple[SeatRow, list[Text], Any]] = []
    has_view = game.engine.has_private_view
    for seat_row in game.row.seats:
        seat = seat_row.seat
        if seat == skip or seat_row.computer is not None:  # nobody to tell
            continue
        if has_view and seat not in before:  # not asked for: its view is not even drawn up
            continue
        happened = event_texts(game, events, seat)
        if not has_view:
            view: Any = {}
        elif now is not None:
            view = now[seat]
        else:
            view = game.engine.private_view(game.state, seat)
        lines = news(game, before[seat], view) if has_view else []
        if (lines and generic(lines)) or not has_view:  # the step's own words say more
            lines += happened
        if lines:
            wanted.append((seat_row, lines, view))
    images = await at_once(
        ctx,
        *(
            ctx.private_image(game, view, seat_row.seat) if has_view else _none()
            for seat_row, _, view in wanted
        ),
    )
    header = Text("hand.news", {"game": Text(game.engine.title_key)})
    return [
        PrivateMessage(seat_row.user_id, (header, *lines), image)
        for (seat_row, lines, _), image in zip(wanted, images, strict=True)
    ]


def choice_buttons(game: LoadedGame, actions: Sequence[Any]) -> list[Choice]:
    return [Choice(Text(*game.engine.choice_label(a)), str(a)) for a in actions]


def public_buttons(game: LoadedGame, awaited: set[int]) -> list[Choice]:
    """The public message's buttons (see the module docstring): none when no member
    holds an awaited seat."""
    engine, state = game.engine, game.state
    people = {s for s in awaited if game.row.seats[s].computer is None}
    buttons: list[Choice] = []
    if len(awaited) == 1 and people:
        (seat,) = awaited
        actions = engine.public_choices(state, seat)
        if 1 < len(actions) <= MAX_PUBLIC_CHOICES:
            buttons = choice_buttons(game, actions)
    if people:
        buttons.append(PLAY)
    return buttons


def interim(game: LoadedGame, kind: StepKind, *, checkpoint: bool, new_turn: bool) -> bool:
    """Whether a committed step of ``kind`` (``game.state`` after it) is told by an
    interim message (see the module docstring): a hand-off that leaves no member
    awaited, or an auction's bid that leaves it open, or a step that cannot be taken
    back (``checkpoint``) after which the same seat goes on."""
    if kind is StepKind.HANDOFF:
        if not game.members_awaited():
            return True
        return not new_turn and game.engine.told_in_place(game.state)
    return kind is StepKind.CONTINUE and checkpoint


def own_buttons(game: LoadedGame, seat: int, *, can_undo: bool) -> list[Choice]:
    """The buttons on a seat's own ephemeral answer: its decisions, Undo, End turn."""
    engine, state = game.engine, game.state
    buttons: list[Choice] = []
    if engine.may_act(state, seat):
        decisions = list(engine.private_choices(state, seat)) + list(
            engine.public_choices(state, seat)
        )
        buttons += choice_buttons(game, decisions[:MAX_PRIVATE_CHOICES])
        end = engine.end_turn_action(state, seat)
        if end is not None:
            buttons.append(Choice(Text("choice.end_turn"), str(end)))
    if can_undo:
        buttons.append(Choice(Text("choice.undo"), kind=ChoiceKind.UNDO))
    return buttons


async def tally(
    ctx: Context, game: LoadedGame, stored: Awaitable[object] | None = None
) -> list[Text] | None:
    """The round's tally for a simultaneous game: submitted, awaited, deadline (read once
    ``stored``, the step's commit, is done)."""
    if game.engine.turns is not TurnShape.SIMULTANEOUS or game.engine.result(game.state):
        return None
    if stored is not None:
        await stored
    awaited = game.waiting()
    done = {s.seat for s in game.row.seats} - awaited
    question = game.engine.prompt(game.state)
    header = (
        game.text(*question)
        if question is not None
        else Text("tally.header", {"game": Text(game.engine.title_key)})
    )
    lines = [header]
    lines.append(Text("tally.submitted", {"players": game.names_of(done) or "—"}))
    lines.append(Text("tally.awaited", {"players": game.names_of(awaited) or "—"}))
    # the deadlines as the step stored them (its row's), else read
    dues = game.row.deadlines
    if dues is None:
        dues = {t.name: t.due_at for t in await ctx.store.timers(game.id) if t.kind == "deadline"}
    if dues:
        lines.append(Text("tally.deadline", {"when": int(min(dues.values()))}))
    return lines


async def handoff(
    ctx: Context,
    game: LoadedGame,
    *,
    lines: Sequence[Text],
    newly: set[int],
    version: int,
    reply: list[Text],
    private: Private,
    interim: bool = False,
    stored: Awaitable[object] | None = None,
    board: Awaitable[bytes | None] | None = None,
) -> Outcome:
    """The one public message of a hand-off (or of the end), with its pings and buttons;
    with ``interim``, the interim message that stands for it until then (no board,
    no tally, no private messages: ``private`` must be empty).

    ``private`` may still be drawing (:func:`private_updates` not awaited): the
    board is drawn at the same time as the private images. ``stored``: the step's
    commit when it is still under way (the answer is prepared meanwhile): what is
    read back from the store waits for it. ``board``: the board asked for ahead
    (:func:`drawn_ahead`), used if the message shows one."""
    result = game.engine.result(game.state)
    public = list(lines)
    public += result_lines(game, result) if result is not None else game.waiting_line()
    awaited = game.waiting() if result is None else set()
    if interim:
        return Outcome(
            game_id=game.id,
            channel_id=game.row.channel_id,
            version=version,
            reply=Reply(reply),
            news=News(
                public,
                ping=game.users_of(newly & awaited),
                choices=public_buttons(game, awaited),
                interim=True,
            ),
            step=Step(StepKind.HANDOFF),
        )
    following = game.engine.up_next(game.state) if result is None else None
    heads_up = None
    if (
        following is not None
        and following not in awaited
        and game.row.seats[following].status == "playing"  # the table plays the others
        and game.row.seats[following].computer is None
    ):
        public.append(game.text("game.up_next", {"seat": following}))
        heads_up = game.user_of(following)
    kind = StepKind.FINAL if result is not None else StepKind.HANDOFF
    news = News(
        public,
        ping=game.users_of(newly & awaited),
        choices=public_buttons(game, awaited) if result is None else [REMATCH],
        heads_up=heads_up,
    )
    outcome = Outcome(
        game_id=game.id,
        channel_id=game.row.channel_id,
        version=version,
        reply=Reply(reply),
        news=news,
        step=Step(kind),
        finished=result is not None,
    )
    if not board_told(game):
        if isinstance(board, asyncio.Future):
            board.cancel()  # asked for ahead, but this message shows none
        board = _none()
    elif board is None:
        board = ctx.board(game)
    if not early():
        news.board, outcome.private, counted = await at_once(
            ctx, board, _private(private), tally(ctx, game, stored)
        )
        outcome.step = Step(kind, tally=counted)
        return outcome

    async def public_part() -> None:
        news.board, counted = await at_once(ctx, board, tally(ctx, game, stored))
        outcome.step = Step(kind, tally=counted)

    async def private_part() -> None:
        outcome.private = await _private(private)

    # the board is asked for first (it starts first), the private images beside it
    outcome.drawing = _watched(asyncio.ensure_future(public_part()))
    outcome.drawing_private = _watched(asyncio.ensure_future(private_part()))
    return outcome


async def _none() -> None:
    return None


def _watched(task: asyncio.Future[None]) -> asyncio.Future[None]:
    """``task``, its error retrieved once done: one nobody awaits (a commit refused
    drops the outcome unread) is not reported as lost; one awaited raises all the same."""
    task.add_done_callback(lambda done: None if done.cancelled() else done.exception())
    return task


async def at_once(ctx: Context, *parts: Awaitable[Any]) -> list[Any]:
    """The parts' results: awaited at once, each image on its own drawing process; one
    after another when no image is drawn (``ctx.render`` off), since each then answers
    without waiting for a process, and a task apiece would only cost the loop."""
    if ctx.render:
        return list(await asyncio.gather(*parts))
    results: list[Any] = []
    try:
        for part in parts:
            results.append(await part)
    except BaseException:
        for left in parts[len(results) + 1 :]:  # never awaited: closed, as gather cancels
            if inspect.iscoroutine(left):
                left.close()
        raise
    return results


async def _private(private: Private) -> list[PrivateMessage]:
    return private if isinstance(private, list) else await private


async def with_own(private: Private, own: Private, user_id: int) -> list[PrivateMessage]:
    """``private`` and those of ``own`` addressed to ``user_id``, drawn at once."""
    first, second = await asyncio.gather(_private(private), _private(own))
    return first + [m for m in second if m.user_id == user_id]


async def preview(
    ctx: Context,
    game: LoadedGame,
    seat: int,
    *,
    kind: StepKind,
    reply: list[Text],
    version: int,
    can_undo: bool,
    private: Private,
    stored: Awaitable[object] | None = None,
    board: Awaitable[bytes | None] | None = None,
) -> Outcome:
    """The acting seat's own answer after a step that hands nothing over.

    Its images (the seat's own view or the board, the zoom, and ``private``'s
    when still drawing) are drawn at once, each on its own drawing process.
    ``stored``, ``board``: as for :func:`handoff`."""
    engine = game.engine
    lines = list(reply)
    summary = engine.step_summary(game.state, seat)
    if summary is not None:
        lines.append(game.text(*summary))
    own = own_view_first(game, kind)
    first: Awaitable[bytes | None]
    if own:
        view = engine.private_view(game.state, seat)
        first = ctx.private_image(game, view, seat)
    else:
        lines += game.waiting_line()
        first = board if board is not None else ctx.board(game)
    image, zoom, messages = await at_once(ctx, first, ctx.zoom(game, seat), _private(private))
    if image is None and own:  # no private image: the board instead
        image = await ctx.board(game)
    return Outcome(
        game_id=game.id,
        channel_id=game.row.channel_id,
        version=version,
        reply=Reply(
            lines, image=image, zoom=zoom, choices=own_buttons(game, seat, can_undo=can_undo)
        ),
        private=messages,
        step=Step(
            kind, tally=await tally(ctx, game, stored) if kind is StepKind.SUBMISSION else None
        ),
    )
