"""Commands that read a game and change nothing: status, board, hand, log, suggestions.

Decisions:

* ``/game log`` shows only what has been published: steps of a turn in
  progress and sealed submissions stay out until their hand-off, and steps
  taken back are not shown. Each move is shown by its public notation.
* ``/game hand`` is refused for a game without private views.
* Suggestions (``/play`` and the generated commands' autocomplete) are the
  invoker's own legal moves, so they may name their hand; they are empty
  when the user may not act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import GameType, Suggestion
from bot.i18n import Text
from bot.service import announce
from bot.service.context import Context
from bot.service.loaded import LoadedGame, seat_text
from bot.service.outcome import Outcome, Player, PrivateMessage, Refusal
from bot.service.replay import standing

MAX_LOG = 50


class Reading:
    """Read-only commands; see the module docstring."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def _latest(self, channel_id: int) -> LoadedGame:
        row = await self.ctx.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal("error.no_game")
        game_type = self.ctx.game_type(row.game_type)
        state = None if row.state is None else game_type.engine.load_state(row.state)
        return LoadedGame(row, game_type, state)

    async def status(self, channel_id: int) -> Outcome:
        game = await self._latest(channel_id)
        row, engine = game.row, game.engine
        lines = [
            Text(
                "status.header",
                {"game": Text(engine.title_key), "status": Text(f"status.{row.status}")},
            )
        ]
        lines += [
            Text("status.seat_line", {"seat": s.seat + 1, "player": s.display_name})
            for s in row.seats
        ]
        if row.status == "running":
            lines.append(
                Text(
                    "status.waiting",
                    {
                        "players": game.names_of(game.waiting()),
                        "since": int(row.waiting_since or row.updated_at),
                    },
                )
            )
        elif row.status == "finished":
            result = engine.result(game.state)
            if result is not None:
                lines.append(announce.ranking_text(game, result))
        return Outcome(game_id=row.id, channel_id=channel_id, reply=lines)

    async def board(self, channel_id: int) -> Outcome:
        game = await self._latest(channel_id)
        if game.state is None:
            raise Refusal("error.no_board")
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            public=[
                Text("board.header", {"game": Text(game.engine.title_key)}),
                *game.waiting_line(),
            ],
            board=await self.ctx.board(game),
        )

    async def hand(self, channel_id: int, user: Player) -> Outcome:
        game = self.ctx.loaded(await self.ctx.open_game(channel_id))
        if not game.engine.has_private_view:
            raise Refusal("error.no_private_view", game=Text(game.engine.title_key))
        seat = game.players_seat(user.id)
        view = game.engine.private_view(game.state, seat.seat)
        image = await self.ctx.private_image(game, view, seat.seat)
        header = Text("hand.header", {"game": Text(game.engine.title_key)})
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            private=[PrivateMessage(user.id, (header,), image)],
        )

    async def log_lines(self, channel_id: int, count: int = 10) -> Outcome:
        row = await self.ctx.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal("error.no_game")
        if not 1 <= count <= MAX_LOG:
            raise Refusal("error.bad_count", min=1, max=MAX_LOG)
        engine = self.ctx.game_type(row.game_type).engine
        moves = await self.ctx.store.moves(row.id, after=max(0, row.published_seq - 4 * MAX_LOG))
        shown = [m for m in standing(moves) if m.seq <= row.published_seq][-count:]
        if not shown:
            return Outcome(game_id=row.id, channel_id=channel_id, reply=[Text("log.empty")])
        lines = [Text("log.header", {"count": len(shown)})] + [
            Text(
                "log.line",
                {
                    "seq": m.seq,
                    "player": row.seats[m.seat].display_name,
                    "action": seat_text(row, *engine.describe(engine.parse_action(m.action))),
                    "when": int(m.created_at),
                },
            )
            for m in shown
        ]
        return Outcome(game_id=row.id, channel_id=channel_id, reply=lines)

    # -- suggestions ------------------------------------------------------------

    async def _acting(self, channel_id: int, user: Player) -> tuple[LoadedGame, int] | None:
        try:
            game = await self.ctx.running(channel_id)
        except Refusal:
            return None
        try:
            seat = game.acting_seat(user.id)
        except Refusal:  # not seated, or resigned: nothing to offer
            return None
        if not game.engine.may_act(game.state, seat.seat):
            return None
        return game, seat.seat

    async def suggestions(self, channel_id: int, user: Player, typed: str = "") -> list[str]:
        """Legal action notations for the user now, filtered by the words typed."""
        acting = await self._acting(channel_id, user)
        if acting is None:
            return []
        game, seat = acting
        wanted = typed.strip().lower().split()
        notations = [str(a) for a in game.engine.suggested_actions(game.state, seat)]
        return [n for n in notations if all(part in n.lower() for part in wanted)]

    async def legal_actions(self, channel_id: int, user: Player) -> list[Any]:
        """The user's legal action values now (empty when they may not act)."""
        acting = await self._acting(channel_id, user)
        if acting is None:
            return []
        game, seat = acting
        return game.engine.legal_actions(game.state, seat)

    async def legal_values(
        self, channel_id: int, user: Player, verb: str, param: str, chosen: Mapping[str, str]
    ) -> list[Suggestion]:
        """Autocomplete of one parameter of a generated command (empty when not acting).

        A label's ``seat``/``*_seat`` params become player names, as in events.
        """
        acting = await self._acting(channel_id, user)
        if acting is None:
            return []
        game, seat = acting
        return [
            s if s.label is None else Suggestion(s.value, (s.label[0], game.text(*s.label).params))
            for s in game.engine.legal_values(game.state, seat, verb, param, chosen)
        ]

    async def my_options(self, channel_id: int, user: Player, game_id: int) -> Outcome:
        """The clicker's own decisions now, as buttons only they see."""
        game = await self.ctx.running(channel_id, expected_game=game_id)
        seat = game.players_seat(user.id)
        if not game.engine.may_act(game.state, seat.seat):
            raise Refusal("error.not_your_turn", players=game.names_of(game.waiting()))
        buttons = announce.own_buttons(game, seat.seat, can_undo=False)
        if not buttons:
            raise Refusal("error.no_options")
        lines = [Text("choice.mine_header"), *game.waiting_line()]
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            reply=lines,
            reply_choices=buttons,
            version=game.row.version,
        )


def help_lines(registry: Mapping[str, GameType], game: str | None) -> list[Text]:
    """The /help answer: the command list, and a game's rules summary if named."""
    if game is None:
        names = ", ".join(sorted(registry))
        return [Text("help.general", {"games": names})]
    if game not in registry:
        raise Refusal("error.unknown_game", game=game)
    engine = registry[game].engine
    return [
        Text("help.game_header", {"game": Text(engine.title_key)}),
        Text(engine.help_key),
        Text("help.commands", {"game": engine.name}),
    ]
