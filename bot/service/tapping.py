"""Tap to play: one service call per tap of the move picker (:mod:`bot.service.picker`).

``tap(channel, user)`` opens a seat's picker (the Play button);
``tap(channel, user, token, picked)`` answers a choice in the menu of
``token``. The answer (:class:`TapAnswer`) is the next menu, or the outcome
of the step the tap played together with the player's next menu.

Decisions:

* One tap, one load: under the channel's lock the game is loaded once, the
  token checked against it (its stamp: the game's version, or in a game of
  sealed rounds the seat's own choices, see :mod:`bot.service.pick_token`),
  the menu built and — when the pick is finished — the step applied and
  committed through :meth:`bot.service.play.Play.step` (the store's version
  check guards the commit), and the next menu built from the state it left.
  Moves stay action objects throughout. A tap reads its game (its menus show
  what is stored; the read keeps the game for the next step,
  :mod:`bot.store.kept`); a public decision button (:meth:`Tapping.press`), which
  shows no menu before its step, starts from the game kept in memory
  (:meth:`~bot.service.context.Context.kept_or_fresh`, the version check its guard).
* A stale, unreadable or mistaken choice changes nothing: the answer says
  so and carries a fresh menu at the position now (when the seat may act).
* A step that can be taken back (or a sealed move that can still be
  replaced) is played on the tap. One that cannot — a draw, a reveal, a
  hand-off — is played on the tap only when its menu said so (the
  picker's judged blocks, :func:`~bot.service.play.judged`); otherwise the
  answer is a confirmation whose one button says the step and plays it.
* Only a seat the game lets act now gets a picker (``engine.may_act``), and
  it is built from that seat's own legal actions: nothing another seat
  hides is offered or labelled. Labels whose params name a seat show the
  player's name, as in events.
* The engine's work (legal actions, labels, judging a step) runs on the
  engine threads, not on the event loop, in as few trips as the tap allows
  (each costs the loop a wake-up): the picker is built and its choice read
  and made, or its menu drawn up, in one; after a step, the next menu in one
  more. A menu is built once per position:
  the menus built for a seat at a version of a game (with the same undo hint
  and player names), and what its picker worked out there (the seat's
  options, the engine's values, each step's judgement: :class:`Built`), are
  kept, the last :data:`KEPT_POSITIONS` positions, and a later tap at that
  position reuses them (the menu a tap chooses from is the one the tap before
  answered with). The version changes with every commit, so a kept menu is
  never one of another state; and it only grows, so a game's positions of an
  older version are dropped as soon as a newer one is kept (no tap reaches
  them again). A position keeps 25–45 KiB (measured over random tap walks of
  Tigris, Tikal and Temple Rush), so the kept menus stay under about 12 MB
  however many games run.
* A fresh picker of a dense board comes with the map around where the seat
  can act (``Context.zoom``), and a menu with a picture (a Tikal hex's
  rotations) with that picture drawn (``render_picture``). In a game with
  private views it opens with the seat's own view too, its image and its
  words (``engine.private_news`` of the whole view): a player never has to
  look for their hand in their DMs.
* After a step the same message shows the player's next menu only while
  their part goes on: a sealed move that completes their part says it can be
  changed from Play until the reveal, and a step that handed the game on
  (the round revealed, the turn ended) says the game has moved on — the next
  decision is on the channel's new message, even when it is theirs again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot import metrics
from bot.games.base import RuleError, TurnShape
from bot.i18n import Text
from bot.service import announce
from bot.service.context import Context, admitted
from bot.service.drawing import drawn
from bot.service.loaded import LoadedGame
from bot.service.menus import Menu
from bot.service.outcome import ChoiceKind, Outcome, Player, Refusal, StepKind
from bot.service.pick_token import BadToken, Pending
from bot.service.picker import Built, Control, Picked, Picker, StalePick
from bot.service.play import Play, Unconfirmed, judged, off_loop
from bot.store import GameRow

log = logging.getLogger(__name__)

T = TypeVar("T")

#: a commit lost to another process's (the store's version check)
CONFLICT = "error.conflict"
#: what a stale, unreadable or mistaken choice is answered with, before a fresh menu
STALE_LINES = {
    "picker.stale": "picker.stale_fresh",
    "picker.bad_token": "picker.bad_token",
    "picker.bad_choice": "picker.bad_choice",
}
#: positions whose built menus are kept (see the module docstring)
KEPT_POSITIONS = 256
#: a position: the game, the seat, the version, the undo hint and the seats' names
Position = tuple[int, int, int, bool, tuple[tuple[int, str, str], ...]]


def _chosen(
    picker: Picker, token: str, picked: Sequence[str]
) -> tuple[Pending | None, Pending | Picked | Control | StalePick, Menu | None]:
    """A tap's choice read and made (:meth:`Picker.read`, :meth:`Picker.choose`), with the
    next menu when the pick goes on; a stale or mistaken choice as its :class:`StalePick`."""
    try:
        pending = picker.read(token)
        after = picker.choose(pending, picked)
    except StalePick as stale:
        return None, stale, None
    return pending, after, picker.menu(after) if isinstance(after, Pending) else None


def _nothing(picker: Picker) -> None:
    return None


@dataclass(frozen=True)
class TapAnswer:
    """What a tap gives: lines to say first, the step's outcome when it played one,
    and the player's next menu (None when they have nothing to choose now)."""

    game_id: int
    menu: Menu | None = None
    outcome: Outcome | None = None
    lines: tuple[Text, ...] = ()
    #: the menu's picture, drawn (a Tikal hex in each distinct rotation)
    picture: bytes | None = None
    #: the map around where the seat can act (a fresh picker of a dense board)
    zoom: bytes | None = None
    #: the seat's private view as the picker opens: its image and words
    hand: bytes | None = None
    hand_lines: tuple[Text, ...] = ()


class Tapping:
    """The move picker's taps; see the module docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play
        #: the menus built at the last positions tapped (see the module docstring)
        self._kept: OrderedDict[Position, Built] = OrderedDict()

    @admitted
    async def tap(
        self,
        channel_id: int,
        user: Player,
        token: str | None = None,
        picked: Sequence[str] = (),
        *,
        game_id: int | None = None,
    ) -> TapAnswer:
        """Open the user's picker (no token), or choose ``picked`` in the menu of
        ``token``; ``game_id`` (a component's) must be the channel's running game."""
        started = time.perf_counter()
        async with self.ctx.locks.hold(channel_id):
            game = await self.ctx.running(channel_id, expected_game=game_id)
            seat = game.acting_seat(user.id).seat
            if not game.engine.may_act(game.state, seat):
                raise Refusal("error.not_your_turn", players=game.names_of(game.waiting()))
            try:
                hint = Pending.decode(token, game.engine.verbs).undo if token else None
            except BadToken:
                hint = None
            if hint is None:  # a fresh picker: Undo when a step since the last checkpoint stands
                hint = token is None and game.row.last_seq > game.row.checkpoint_seq
            if token is None:
                _, menu = await self._picker(game, seat, undo=hint, then=Picker.menu)
                zoom, (hand, words) = await asyncio.gather(
                    self.ctx.zoom(game, seat), self._hand(game, seat)
                )
                answer = await self._answer(game, menu, zoom=zoom)
                return replace(answer, hand=hand, hand_lines=words)
            picker, (pending, after, next_menu) = await self._picker(
                game, seat, undo=hint, then=lambda picker: _chosen(picker, token, picked)
            )
            if isinstance(after, StalePick):
                undo = game.row.last_seq > game.row.checkpoint_seq
                if undo != picker.undo:
                    picker, _ = await self._picker(game, seat, undo=undo, then=_nothing)
                return await self._fresh(game, picker, Text(STALE_LINES[after.key]))
            assert pending is not None
            if next_menu is not None:
                return await self._answer(game, next_menu)
            if after is Control.UNDO:
                try:
                    outcome = await self.play.undo_step(game, seat)
                except Refusal as refusal:  # nothing of theirs to take back: nothing changed
                    if refusal.text.key == CONFLICT:
                        raise
                    return await self._fresh(game, picker, refusal.text)
                return await self._after(game, seat, outcome)
            assert isinstance(after, Picked)
            try:
                outcome = await self.play.step(
                    game, seat, after.action, confirmed=after.confirmed, end_forced=True
                )
            except Unconfirmed as unconfirmed:
                game.state = game.engine.load_state(game.row.state)  # as before the trial
                action, why = after.action, unconfirmed.why
                _, menu = await self._picker(
                    game,
                    seat,
                    undo=pending.undo,
                    then=lambda picker: picker.confirmation(action, why),
                )
                return await self._answer(game, menu)
            except Refusal as refusal:  # the rules refused it after all: nothing was written
                if refusal.text.key in (CONFLICT, "error.not_your_turn"):
                    raise
                game.state = game.engine.load_state(game.row.state)
                return await self._fresh(game, picker, refusal.text)
            metrics.step(time.perf_counter() - started)
            return await self._after(game, seat, outcome, follow=after.follow)

    @admitted
    async def press(
        self, channel_id: int, user: Player, action_text: str, *, game_id: int, version: int
    ) -> Outcome:
        """A public decision button (``action_text``, the notation in its custom_id) of
        ``game_id`` at ``version``: its outcome, carrying the clicker's next menu when
        they still act (:attr:`Reply.menu`)."""
        started = time.perf_counter()

        async def attempt(row: GameRow | None) -> tuple[LoadedGame, int, Outcome]:
            game = self.ctx.checked(row, expected_game=game_id, expected_version=version)
            seat = game.acting_seat(user.id).seat
            try:
                action = game.engine.parse_action(action_text)
            except RuleError as error:
                raise game.refusal(error) from None
            return game, seat, await self.play.step(game, seat, action, end_forced=True)

        async with self.ctx.locks.hold(channel_id):
            game, seat, outcome = await self.ctx.kept_or_fresh(channel_id, attempt)
            metrics.step(time.perf_counter() - started)
            answer = await self._after(game, seat, outcome)
            outcome.reply.menu = answer.menu
            return outcome

    # -- helpers ------------------------------------------------------------------

    def _built(self, game: LoadedGame, seat: int, version: int, undo: bool) -> Built:
        """The menus built at this position so far (kept, see the module docstring)."""
        names = tuple([(s.seat, s.display_name, s.colour) for s in game.row.seats])
        key = (game.id, seat, version, undo, names)
        built = self._kept.get(key)
        if built is None:
            # an older version of the game is never tapped again: its menus go
            older = [k for k in self._kept if k[0] == game.id and k[2] < version]
            for old in older:
                del self._kept[old]
            built = self._kept[key] = Built()
            if len(self._kept) > KEPT_POSITIONS:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return built

    async def _picker(
        self, game: LoadedGame, seat: int, *, undo: bool, then: Callable[[Picker], T]
    ) -> tuple[Picker, T]:
        """The seat's picker at the loaded position, and ``then(picker)``: built and
        worked on in one trip to an engine thread (each trip costs the loop a wake-up)."""
        engine = game.engine
        row_state = game.row.state
        undo = undo and engine.turns is TurnShape.SEQUENTIAL
        built = self._built(game, seat, game.row.version, undo)

        def judge(action: object) -> Text | None:
            return judged(engine, engine.load_state(row_state), seat, action)

        def build() -> tuple[Picker, T]:
            picker = Picker(
                engine,
                game.state,
                seat,
                version=game.row.version,
                text=game.label_text,
                undo=undo,
                judge=judge,
                built=built,
            )
            return picker, then(picker)

        return await off_loop(build)

    async def _fresh(self, game: LoadedGame, picker: Picker, lead: Text) -> TapAnswer:
        """``lead``, then the seat's first menu now."""
        try:
            menu = await off_loop(picker.menu)
        except StalePick as stale:
            return TapAnswer(game.id, lines=(lead, Text(stale.key)))
        return await self._answer(game, menu, lines=(lead,))

    async def _hand(self, game: LoadedGame, seat: int) -> tuple[bytes | None, tuple[Text, ...]]:
        """The seat's private view as its picker opens: image and words (none without)."""
        if not game.engine.has_private_view:
            return None, ()
        view = game.engine.private_view(game.state, seat)
        image = await self.ctx.private_image(game, view, seat)
        return image, tuple(announce.news(game, None, view))

    async def _after(
        self, game: LoadedGame, seat: int, outcome: Outcome, *, follow: Sequence[str] = ()
    ) -> TapAnswer:
        """A played step (or undo): its outcome, and the seat's next menu from the state
        the step left while its part goes on (see the module docstring): the pick
        ``follow`` opens when the tap chose it too (a decision merged with the next
        choice), else the first menu."""
        engine, state = game.engine, game.state
        if engine.result(state) is not None or not engine.may_act(state, seat):
            return TapAnswer(game.id, outcome=outcome)
        if outcome.kind is StepKind.SUBMISSION and seat not in engine.waiting_for(state):
            return TapAnswer(game.id, outcome=outcome, lines=(Text("picker.sealed"),))
        interim = outcome.news is not None and outcome.news.interim
        if outcome.kind in (StepKind.HANDOFF, StepKind.FINAL) and not interim:
            return TapAnswer(game.id, outcome=outcome, lines=(Text("picker.moved_on"),))
        version = outcome.version if outcome.version is not None else game.row.version
        undo = any(choice.kind is ChoiceKind.UNDO for choice in outcome.reply.choices)
        built = self._built(game, seat, version, undo)
        dumped: list[dict[str, Any]] = []

        def judge(action: object) -> Text | None:
            """As :func:`judged` on a copy of the state the step left (dumped once, at the
            first step judged: on the engine thread, and only when a menu asks)."""
            if not dumped:
                dumped.append(engine.dump_state(state))
            return judged(engine, engine.load_state(dumped[0]), seat, action)

        def menu_now() -> Menu:
            """The next menu: built with its picker in one trip to an engine thread."""
            picker = Picker(
                engine,
                state,
                seat,
                version=version,
                text=game.label_text,
                undo=undo,
                judge=judge,
                built=built,
            )
            if follow:
                try:
                    return picker.follow(follow)
                except StalePick:  # it no longer fits: the first menu
                    pass
            return picker.menu()

        try:
            menu = await off_loop(menu_now)
        except StalePick:
            return TapAnswer(game.id, outcome=outcome)
        return await self._answer(game, menu, outcome=outcome)

    async def _answer(
        self,
        game: LoadedGame,
        menu: Menu,
        *,
        outcome: Outcome | None = None,
        lines: tuple[Text, ...] = (),
        zoom: bytes | None = None,
    ) -> TapAnswer:
        picture = None
        render = game.game_type.render_picture
        if menu.picture is not None and render is not None and self.ctx.render:
            try:
                picture = await drawn(render, menu.picture, game.row.language)
            except Exception:
                log.exception("could not draw a picker picture of game %s", game.id)
        return TapAnswer(game.id, menu, outcome, lines, picture, zoom)
