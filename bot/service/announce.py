"""Turning a committed step into what people are told.

Decisions:

* **A board per hand-off.** The channel gets one public message each time
  the game hands over — it starts waiting for someone else, a round
  resolves, or the game ends. It lists, in words, every step since the last
  public message (kept with each move row until then), then the board, then
  the question the game now asks, and pings exactly the seats newly awaited.
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
  is awaited and it has 2 to :data:`MAX_PUBLIC_CHOICES` of them.
* A public message that waits for someone ends with a "Play" button: it
  opens the move picker (:mod:`bot.service.tapping`) of each awaited
  clicker, ephemerally — everything they may do now, their private
  decisions (bids, a bonus brick) included; anyone else is refused.
* **Images at once.** The images of one answer — a hand-off's board and every
  private view that changed, a preview's image and zoom — are drawn
  concurrently, each on its own drawing process (:mod:`bot.service.drawing`):
  a hand-off waits for its slowest image, not for their sum.
* Private updates go to each seat whose private view changed
  (``engine.private_view_changed``: not merely the round number or the
  dice everyone was told) or who got a private event — never to anyone
  else, never to a computer seat, and never with a receipt of a step the game played for the seat
  (its public line says it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any

from bot.games.base import Event, Result, TurnShape
from bot.i18n import Text
from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    Outcome,
    PrivateMessage,
    StepKind,
)
from bot.store import SeatRow, TimerRow

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


async def private_updates(
    ctx: Context,
    game: LoadedGame,
    before: Mapping[int, Any],
    events: Sequence[Event],
    *,
    skip: int | None = None,
) -> list[PrivateMessage]:
    """A message for each seat whose private view changed or that got a private event;
    their images are drawn at once, each on its own drawing process."""
    wanted: list[tuple[SeatRow, list[Text], Any]] = []
    has_view = game.engine.has_private_view
    for seat_row in game.row.seats:
        seat = seat_row.seat
        if seat == skip or seat_row.computer is not None:  # nobody to tell
            continue
        lines = event_texts(game, events, seat)
        view = game.engine.private_view(game.state, seat) if has_view else {}
        changed = (
            has_view
            and seat in before
            and game.engine.private_view_changed(before[seat] or {}, view)
        )
        if changed or lines:
            wanted.append((seat_row, lines, view))
    images = await asyncio.gather(
        *(
            ctx.private_image(game, view, seat_row.seat) if has_view else _none()
            for seat_row, _, view in wanted
        )
    )
    header = Text("hand.update", {"game": Text(game.engine.title_key)})
    return [
        PrivateMessage(seat_row.user_id, (header, *lines), image)
        for (seat_row, lines, _), image in zip(wanted, images, strict=True)
    ]


def choice_buttons(game: LoadedGame, actions: Sequence[Any]) -> list[Choice]:
    return [Choice(Text(*game.engine.choice_label(a)), str(a)) for a in actions]


def public_buttons(game: LoadedGame, awaited: set[int]) -> list[Choice]:
    """The public message's buttons (see the module docstring)."""
    engine, state = game.engine, game.state
    buttons: list[Choice] = []
    if len(awaited) == 1:
        (seat,) = awaited
        actions = engine.public_choices(state, seat)
        if 1 < len(actions) <= MAX_PUBLIC_CHOICES:
            buttons = choice_buttons(game, actions)
    if awaited:
        buttons.append(PLAY)
    return buttons


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


async def tally(ctx: Context, game: LoadedGame) -> list[Text] | None:
    """The round's tally for a simultaneous game: submitted, awaited, deadline."""
    if game.engine.turns is not TurnShape.SIMULTANEOUS or game.engine.result(game.state):
        return None
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
    deadlines: list[TimerRow] = [t for t in await ctx.store.timers(game.id) if t.kind == "deadline"]
    if deadlines:
        lines.append(Text("tally.deadline", {"when": int(min(t.due_at for t in deadlines))}))
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
) -> Outcome:
    """The one public message of a hand-off (or of the end), with its pings and buttons.

    ``private`` may still be drawing (:func:`private_updates` not awaited): the
    board is drawn at the same time as the private images."""
    result = game.engine.result(game.state)
    public = list(lines)
    public += result_lines(game, result) if result is not None else game.waiting_line()
    awaited = game.waiting() if result is None else set()
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
    board, messages, counted = await asyncio.gather(
        ctx.board(game), _private(private), tally(ctx, game)
    )
    return Outcome(
        game_id=game.id,
        channel_id=game.row.channel_id,
        reply=reply,
        public=public,
        board=board,
        private=messages,
        ping=game.users_of(newly & awaited),
        choices=public_buttons(game, awaited) if result is None else [REMATCH],
        tally=counted,
        finished=result is not None,
        heads_up=heads_up,
        version=version,
        step=StepKind.FINAL if result is not None else StepKind.HANDOFF,
    )


async def _none() -> None:
    return None


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
) -> Outcome:
    """The acting seat's own answer after a step that hands nothing over.

    Its images (the seat's own view or the board, the zoom, and ``private``'s
    when still drawing) are drawn at once, each on its own drawing process."""
    engine = game.engine
    lines = list(reply)
    summary = engine.step_summary(game.state, seat)
    if summary is not None:
        lines.append(game.text(*summary))
    own = kind is StepKind.SUBMISSION and engine.has_private_view
    if own:
        view = engine.private_view(game.state, seat)
        first = ctx.private_image(game, view, seat)
    else:
        lines += game.waiting_line()
        first = ctx.board(game)
    image, zoom, messages = await asyncio.gather(first, ctx.zoom(game, seat), _private(private))
    if image is None and own:  # no private image: the board instead
        image = await ctx.board(game)
    return Outcome(
        game_id=game.id,
        channel_id=game.row.channel_id,
        reply=lines,
        reply_image=image,
        reply_zoom=zoom,
        reply_choices=own_buttons(game, seat, can_undo=can_undo),
        private=messages,
        tally=await tally(ctx, game) if kind is StepKind.SUBMISSION else None,
        version=version,
        step=kind,
    )
