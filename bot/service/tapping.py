"""Tap to play: the service side of the move picker (:mod:`bot.service.picker`).

The adapter opens a picker for a user (``pick(channel, user)``), shows the
:class:`~bot.service.picker.Menu` it answers, and sends back the menu's
token with the chosen option tokens (``pick(channel, user, token, [option])``).
The answer is the next menu, or — when the pick is finished — the
:class:`~bot.service.outcome.Outcome` of playing it.

Decisions:

* A finished pick is played by the same call as a typed move
  (:meth:`bot.service.play.Play.act`), with the game and version the picker
  was opened at: a value that became illegal meanwhile is refused by the
  engine like any move, and a picker of a game that moved on is refused
  as stale (``picker.stale``); the adapter then offers a fresh one.
* Only a seat the game lets act now gets a picker (``engine.may_act``), and
  it is built from that seat's own legal actions: nothing another seat
  hides is offered or labelled.
* Labels whose params name a seat show the player's name, as in events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.context import Context
from bot.service.loaded import LoadedGame
from bot.service.outcome import Outcome, Player, Refusal
from bot.service.picker import Menu, Picked, Picker, StalePick
from bot.service.play import Play


@dataclass(frozen=True)
class PickAnswer:
    """What a tap gives: the next menu, or the outcome of the step it played."""

    game_id: int
    menu: Menu | None = None
    outcome: Outcome | None = None


class Tapping:
    """Opens pickers and follows their choices; see the module docstring."""

    def __init__(self, ctx: Context, play: Play) -> None:
        self.ctx = ctx
        self.play = play

    async def picker(self, channel_id: int, user: Player) -> tuple[LoadedGame, Picker]:
        """The user's picker in the channel's running game, now."""
        game = await self.ctx.running(channel_id)
        seat = game.acting_seat(user.id)
        if not game.engine.may_act(game.state, seat.seat):
            raise Refusal("error.not_your_turn", players=game.names_of(game.waiting()))
        picker = Picker(game.engine, game.state, seat.seat, game.row.version, game.text)
        return game, picker

    async def zoom(self, channel_id: int, user: Player) -> bytes | None:
        """The map around where the user can act now, to show beside a fresh picker (None
        when the game has no zoom); refused like :meth:`picker`."""
        game, picker = await self.picker(channel_id, user)
        return await self.ctx.zoom(game, picker.seat)

    async def pick(
        self,
        channel_id: int,
        user: Player,
        token: str | None = None,
        picked: Sequence[str] = (),
    ) -> PickAnswer:
        """Open a picker (no token), or choose ``picked`` in the menu of ``token``."""
        game, picker = await self.picker(channel_id, user)
        try:
            if token is None:
                return PickAnswer(game.id, menu=picker.menu())
            after = picker.choose(picker.decode(token), picked)
            if isinstance(after, Picked):
                outcome = await self.play.act(
                    channel_id,
                    user,
                    after.notation,
                    expected_game=game.id,
                    expected_version=after.version,
                )
                return PickAnswer(game.id, outcome=outcome)
            return PickAnswer(game.id, menu=picker.menu(after))
        except StalePick as stale:
            raise Refusal(stale.key) from None
