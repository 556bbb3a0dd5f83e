"""Commands that read a game and change nothing: status, board, hand, log, suggestions.

Decisions:

* ``/game log`` shows only what has been published: steps of a turn in
  progress and sealed submissions stay out until their hand-off, and steps
  taken back are not shown. Each move is shown by its public notation.
* ``/game hand`` is refused for a game without private views.
* ``/game mine`` lists every running game the user has a seat in, in every
  server and thread, read from the store (so any process of a cluster answers
  it): first those that wait for them, then those that wait for others, each
  oldest first (by when the game started waiting), at most :data:`MAX_MINE`.
  A line names the game, links its newest message (else its channel), says
  what it waits for in the game's public words, since when, and when its turn
  clock runs out; nothing the user could not see in the channel.
* Suggestions (``/play`` and the generated commands' autocomplete) are the
  invoker's own legal moves, so they may name their hand; they are empty
  when the user may not act.
* ``/help`` opens with how to play by tapping (the Play button every message
  that waits for you carries), then lists every command grouped by what it is
  for (start a game, play, your seat, the host, after the game), in the
  reader's language. ``/help <game>`` says what the game's declared shape
  allows: ``/game hand`` only for a game with private views.
* ``/rules <game>`` teaches the game in :data:`RULES_PAGES` pages written for
  tapping: what a turn looks like here and the board with each kind of piece
  numbered and named; how scoring works, with a worked example; the digital
  edition's decisions. The pictures are drawn by the game's renderer
  (``render_rules``) from the engine's fixed example positions
  (``rules_examples``), in the reader's language, each once per process.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.games.base import GameType, PlayerLabel, Suggestion
from bot.i18n import Text, language_of, t
from bot.service import announce
from bot.service.context import Context, admitted
from bot.service.drawing import drawn
from bot.service.loaded import LoadedGame, seat_text
from bot.service.lobby import options_text, seat_colours
from bot.service.outcome import (
    Choice,
    ChoiceKind,
    News,
    Outcome,
    Player,
    PrivateMessage,
    Refusal,
    Reply,
)
from bot.service.replay import standing
from bot.service.turn_clock import RESIGNED

log = logging.getLogger(__name__)

MAX_LOG = 50
#: the most games ``/game mine`` lists
MAX_MINE = 25
#: the pages of ``/rules``, by the picture each shows (None: none)
RULES_PICTURES: tuple[str | None, ...] = ("board", "scoring", None)
RULES_PAGES = len(RULES_PICTURES)
#: the pictures drawn so far, by game, picture and language (bounded by them)
_PICTURES: dict[tuple[str, str, str], bytes | None] = {}


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

    @admitted
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
        lines += options_text(game.game_type, row.options)
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
        return Outcome(game_id=row.id, channel_id=channel_id, reply=Reply(lines))

    @admitted
    async def board(self, channel_id: int) -> Outcome:
        game = await self._latest(channel_id)
        if game.state is None:
            raise Refusal("error.no_board")
        return Outcome(
            game_id=game.id,
            channel_id=channel_id,
            news=News(
                [
                    Text("status.board_header", {"game": Text(game.engine.title_key)}),
                    *game.waiting_line(),
                ],
                board=await self.ctx.board(game),
            ),
        )

    @admitted
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

    @admitted
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
            return Outcome(game_id=row.id, channel_id=channel_id, reply=Reply([Text("log.empty")]))
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
        return Outcome(game_id=row.id, channel_id=channel_id, reply=Reply(lines))

    # -- a player's games ---------------------------------------------------------

    @admitted
    async def mine(self, user: Player, *, message_kind: str) -> Outcome:
        """``/game mine``: every running game the user has a seat in (not resigned),
        those that wait for them first, each list oldest first (see the module
        docstring); ``message_kind`` names the kept message its link goes to."""
        yours: list[Text] = []
        others: list[Text] = []
        for found in await self.ctx.store.player_games(user.id, MAX_MINE, message_kind):
            row = found.row
            seat = row.seat_of(user.id)
            if seat is None or seat.status == RESIGNED:
                continue
            try:
                game = self.ctx.loaded(row)
            except Refusal:  # a game type this process does not know
                continue
            awaited = game.waiting()
            where = Text("mine.where", {"channel": f"<#{row.channel_id}>"})
            if found.message is not None:
                channel_id, message_id = found.message
                guild = "@me" if row.guild_id is None else str(row.guild_id)
                url = f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"
                where = Text("mine.jump", {"channel": f"<#{channel_id}>", "url": url})
            params: dict[str, Any] = {
                "game": Text(game.engine.title_key),
                "where": where,
                "since": int(row.waiting_since or row.updated_at),
            }
            if seat.seat in awaited:
                what = game.waiting_line()
                params["what"] = what[0] if what else Text("mine.your_move")
                if found.clock_ends is not None:
                    params["when"] = int(found.clock_ends)
                    yours.append(Text("mine.line_clock", params))
                else:
                    yours.append(Text("mine.line", params))
            else:
                params["players"] = game.names_of(awaited) or "—"
                others.append(Text("mine.other_line", params))
        if not yours and not others:
            return Outcome(reply=Reply([Text("mine.none")]))
        lines = [Text("mine.yours" if yours else "mine.none_yours"), *yours]
        if others:
            lines += [Text("mine.others"), *others]
        return Outcome(reply=Reply(lines))

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

    @admitted
    async def suggestions(self, channel_id: int, user: Player, typed: str = "") -> list[str]:
        """Legal action notations for the user now, filtered by the words typed."""
        acting = await self._acting(channel_id, user)
        if acting is None:
            return []
        game, seat = acting
        wanted = typed.strip().lower().split()
        notations = [str(a) for a in game.engine.suggested_actions(game.state, seat)]
        return [n for n in notations if all(part in n.lower() for part in wanted)]

    @admitted
    async def legal_actions(self, channel_id: int, user: Player) -> list[Any]:
        """The user's legal action values now (empty when they may not act)."""
        acting = await self._acting(channel_id, user)
        if acting is None:
            return []
        game, seat = acting
        return game.engine.legal_actions(game.state, seat)

    @admitted
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

    @admitted
    async def rules(self, game: str, page: int = 0, *, language: str = "en") -> Outcome:
        """One page of ``/rules <game>`` in ``language``, with page buttons."""
        lines = rules_page(self.ctx.registry, game, page)
        kind = RULES_PICTURES[page]
        image = await self._picture(game, kind, language_of(language)) if kind else None
        choices = [
            Choice(Text(f"rules.page_{label}"), action=f"{game}:{to}", kind=ChoiceKind.PAGE)
            for label, to in (("previous", page - 1), ("next", page + 1))
            if 0 <= to < RULES_PAGES
        ]
        return Outcome(reply=Reply(lines, image=image, choices=choices))

    async def _picture(self, game: str, kind: str, lang: str) -> bytes | None:
        """A picture of ``/rules``, drawn once per game, picture and language."""
        if not self.ctx.render:
            return None
        if (game, kind, lang) in _PICTURES:
            return _PICTURES[game, kind, lang]
        game_type = self.ctx.registry[game]
        image: bytes | None = None
        if game_type.render_rules is not None:
            try:
                examples = game_type.engine.rules_examples()
                image = await drawn(
                    game_type.render_rules, examples, kind, rules_players(game_type, lang), lang
                )
            except Exception:
                log.exception("could not draw the rules picture %s of %s", kind, game)
        _PICTURES[game, kind, lang] = image
        return image


#: the groups of ``/help``, in the order a player meets them
HELP_GROUPS = ("start", "play", "seat", "host", "computer", "after")


def help_lines(registry: Mapping[str, GameType], game: str | None) -> list[Text]:
    """The /help answer: how to play by tapping, then every command grouped by what it
    is for; or a game's summary if named, with what its declared shape allows."""
    if game is None:
        names = ", ".join(sorted(registry))
        commands = " · ".join(f"/{name} …" for name in sorted(registry))
        return [Text("help.intro", {"games": names, "play": Text("picker.play_button")})] + [
            Text(f"help.group.{group}", {"game_commands": commands}) for group in HELP_GROUPS
        ]
    if game not in registry:
        raise Refusal("error.unknown_game", game=game)
    engine = registry[game].engine
    hand = Text("help.hand") if engine.has_private_view else Text("help.no_hand")
    return [
        Text("help.game_header", {"game": Text(engine.title_key)}),
        Text(engine.help_key),
        Text(
            "help.commands", {"game": engine.name, "play": Text("picker.play_button"), "hand": hand}
        ),
    ]


def rules_page(registry: Mapping[str, GameType], game: str, page: int) -> list[Text]:
    """The lines of one page of ``/rules <game>``."""
    if game not in registry:
        raise Refusal("error.unknown_game", game=game)
    if not 0 <= page < RULES_PAGES:
        raise Refusal("error.stale_button")
    engine = registry[game].engine
    header = Text(
        "rules.header", {"game": Text(engine.title_key), "page": page + 1, "pages": RULES_PAGES}
    )
    if page == 0:
        return [
            header,
            Text("rules.first_turn", {"play": Text("picker.play_button")}),
            Text(f"{engine.name}.rules.turn"),
            Text("rules.board_picture"),
        ]
    if page == 1:
        return [header, Text(f"{engine.name}.rules.scoring")]
    return [header, Text(f"{engine.name}.rules.decisions"), Text("rules.how_to_play")]


def rules_players(game_type: GameType, lang: str) -> list[PlayerLabel]:
    """The example players of the ``/rules`` pictures: "Player 1", ... in the seat colours."""
    engine = game_type.engine
    seats = min(max(3, engine.min_players), engine.max_players)
    return [
        PlayerLabel(i, t(lang, "demo.player", number=i + 1), colour)
        for i, (colour, _) in enumerate(seat_colours(game_type, seats))
    ]
