"""After the game: a rematch, the game's record with its replay, and statistics.

Decisions:

* **Rematch.** The final message carries a Rematch button
  (:attr:`~bot.service.outcome.ChoiceKind.REMATCH`). Any player of that
  finished game may click it; anyone else is told only its players may, and
  a channel that already has an unfinished game is told to finish or
  abandon it first (that is also what a second click hears once the
  rematch is on). The new game has the same players, the same lobby
  options (checked again against the game's current ones), the same
  language and a fresh seed (never the old one); its seats are the old
  order moved round by one (the second player goes first, the first goes
  last), kept at the start instead of the seed's shuffle. The lobby is
  created with every seat in one transaction and started at once by the
  lobby's own start (``keep_order``), so the start is announced like any
  other, and the clicker is the new game's creator. Between the two, the
  channel holds an ordinary lobby: a ``/game join`` landing exactly then is
  seated last, an abandon ends it; nothing is left half-written. A player
  who resigned from the old game is not seated again (unless they ask for
  the rematch themselves), and the table is told who was left out; when too
  few players remain for the game, the rematch stays a lobby, the others
  join it and the clicker starts it.
* **Export** (``/game export``): the record (:mod:`bot.service.record`) of
  the channel's last game that is over, with a GIF of its public boards
  (:mod:`bot.service.animation`). Both files together stay under
  :data:`EXPORT_BUDGET` (Discord's 10 MiB upload limit of an unboosted
  server, less :data:`EXPORT_MARGIN` for the request around them): the
  record is always whole, the animation gets what is left and is scaled
  down, then thinned, to fit; the answer says so when it was. A running
  game is not exported (its seed would reveal every hand): the command
  says so, and exports the game before it if there is one. A finished
  game's replay is checked against its stored final state; a mismatch is
  logged (the engine changed since), and the record is still sent.
* **Statistics** (``/stats``) count the server's *finished* games from the
  place and score written on each seat when the game ended, in one indexed
  query; abandoned games never count. Counting from the stored rows, not
  from events, means a final step retried, refused or delivered twice, or
  a restart, can never count a game twice. A player's name is the one they
  last played under. Each game lists its best :data:`MAX_STATS_PLAYERS`
  players (most wins, then best average place, then most games). Games with
  a computer seat are counted apart, per game, and a computer seat is no
  player in them.
* A rematch keeps the computer seats at their levels.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import PlayerLabel
from bot.i18n import Text
from bot.service.animation import Animation, animate
from bot.service.context import Context, admitted
from bot.service.drawing import drawn
from bot.service.lobby import Lobby, parse_options
from bot.service.names import seat_name
from bot.service.outcome import News, Outcome, Player, Refusal, Reply
from bot.service.record import Board, RecordError, boards, document, dumps, exported_moves
from bot.service.turn_clock import RESIGNED
from bot.store import ChannelBusy, GameRow, PlayerResults

log = logging.getLogger(__name__)

#: Discord's upload limit for a message's files on a server without boosts
EXPORT_BUDGET = 10 * 1024 * 1024
#: room left for the multipart request around the files and the message text
EXPORT_MARGIN = 64 * 1024
#: players listed per game in ``/stats``
MAX_STATS_PLAYERS = 10
MAX_SEED = 2**31


@dataclass(frozen=True)
class Export:
    """What ``/game export`` sends: a few lines, the record and its animation."""

    game_id: int
    lines: list[Text]
    record: bytes
    record_name: str
    animation: bytes | None
    animation_name: str


def rotated(row: GameRow) -> list[tuple[int, str, str | None]]:
    """The seats' (user id, name, computer level) moved round by one: the second
    seat first. A computer seat stays a computer seat at its level."""
    seats = [(s.user_id, s.display_name, s.computer) for s in row.seats]
    return seats[1:] + seats[:1]


def resigned_users(row: GameRow) -> set[int]:
    """The users who resigned from ``row`` (and still held their seat when it ended)."""
    return {s.user_id for s in row.seats if s.status == RESIGNED}


class After:
    """Rematch, export and statistics; see the module docstring."""

    def __init__(self, ctx: Context, lobby: Lobby) -> None:
        self.ctx = ctx
        self.lobby = lobby

    # -- rematch ----------------------------------------------------------------

    @admitted
    async def rematch(self, channel_id: int, user: Player, game_id: int) -> Outcome:
        """Open and start a rematch of finished game ``game_id`` in its channel."""
        old = await self.ctx.store.get_game(game_id)
        if old is None or old.channel_id != channel_id or old.status != "finished":
            raise Refusal("error.stale_button")
        if old.seat_of(user.id) is None:
            raise Refusal("after.error.rematch_not_player")
        game_type = self.ctx.game_type(old.game_type)
        options = parse_options(game_type, old.options)
        seed = old.seed
        while seed == old.seed:
            seed = random.SystemRandom().randrange(MAX_SEED)
        left_out = resigned_users(old) - {user.id}
        seats = [
            (uid, seat_name(user.name if uid == user.id else name, uid, old.language), level)
            for uid, name, level in rotated(old)
            if uid not in left_out
        ]
        try:
            row = await self.ctx.store.open_seated_lobby(
                guild_id=old.guild_id,
                channel_id=channel_id,
                game_type=old.game_type,
                creator_id=user.id,
                seats=seats,
                options=options,
                seed=seed,
                language=old.language,
            )
        except ChannelBusy:
            raise Refusal("after.error.rematch_busy") from None
        names = [s.display_name for s in old.seats if s.user_id in left_out]
        without = [Text("after.rematch_without", {"players": ", ".join(names)})] if names else []
        low, _ = game_type.engine.player_range(options)
        if len(seats) < low or all(level is not None for _, _, level in seats):
            return Outcome(
                game_id=row.id,
                channel_id=channel_id,
                reply=Reply([Text("lobby.created_reply")]),
                news=News(
                    [
                        Text("after.rematch_lobby", {"player": user.name, "min": low}),
                        *without,
                    ]
                ),
            )
        outcome = await self.lobby.start(channel_id, user, keep_order=True)
        news = outcome.news if outcome.news is not None else News()
        news.lines[0:0] = [Text("after.rematch_started", {"player": user.name}), *without]
        outcome.news = news
        return outcome

    # -- export -----------------------------------------------------------------

    @admitted
    async def export(self, channel_id: int, *, budget: int = EXPORT_BUDGET) -> Export:
        """The record and animated replay of the channel's last game that is over."""
        store = self.ctx.store
        row = await store.last_game_over_in(channel_id)
        if row is None:
            current = await store.open_game_in(channel_id)
            raise Refusal("after.error.export_running" if current else "error.no_game")
        game_type = self.ctx.game_type(row.game_type)
        engine = game_type.engine
        moves = exported_moves(row, await store.moves(row.id))
        try:
            shown, final = await asyncio.to_thread(
                boards, engine, len(row.seats), row.options, row.seed, moves
            )
        except RecordError as error:
            # the reason is not logged: it may name what a hidden move held
            log.error("game %s no longer replays (move %s)", row.id, error.text.params.get("seq"))
            raise Refusal("after.error.export_replay", game=row.id) from None
        if row.status == "finished" and _json(engine.dump_state(final)) != _json(row.state):
            log.warning("the replay of game %s does not end in its stored state", row.id)
        record = dumps(document(row, engine, moves, {b.seq for b in shown}))
        room = budget - EXPORT_MARGIN - len(record)
        if room <= 0:
            raise Refusal("after.error.export_too_big")
        lines = [
            Text(
                "after.export_header",
                {
                    "game": Text(engine.title_key),
                    "number": row.id,
                    "status": Text(f"status.{row.status}"),
                    "moves": len(moves),
                    "boards": len(shown),
                },
            )
        ]
        if row.status != "finished":
            lines.append(Text("after.export_abandoned"))
        animation = await self._animation(row, shown, room) if self.ctx.render else None
        if animation is None:
            lines.append(Text("after.export_no_animation"))
        elif animation.frames < animation.boards or animation.scale < 1.0:
            lines.append(
                Text(
                    "after.export_reduced",
                    {
                        "frames": animation.frames,
                        "boards": animation.boards,
                        "percent": round(animation.scale * 100),
                    },
                )
            )
        name = f"ziggurat-{row.game_type}-{row.id}"
        return Export(
            game_id=row.id,
            lines=lines,
            record=record,
            record_name=f"{name}.json",
            animation=animation.data if animation is not None else None,
            animation_name=f"{name}.gif",
        )

    async def _animation(self, row: GameRow, shown: Sequence[Board], room: int) -> Animation | None:
        game_type = self.ctx.game_type(row.game_type)
        labels = [PlayerLabel(s.seat, s.display_name, s.colour) for s in row.seats]
        pngs = [
            await drawn(game_type.render_public, board.view, labels, row.language)
            for board in shown
        ]
        return await asyncio.to_thread(animate, pngs, room)

    # -- statistics ---------------------------------------------------------------

    @admitted
    async def stats(self, guild_id: int, member: Player | None = None) -> Outcome:
        """The server's results per game, or one member's."""
        if member is not None:
            return Outcome(reply=Reply(await self._member_lines(guild_id, member)))
        results = await self.ctx.store.guild_results(guild_id)
        if not results.games and not results.computer_games:
            return Outcome(reply=Reply([Text("after.stats.none")]))
        lines = [Text("after.stats.header")]
        counted = [(g, False, n) for g, n in results.games.items()]
        counted += [(g, True, n) for g, n in results.computer_games.items()]
        for game_type, computers, count in sorted(counted, key=lambda c: (-c[2], c[0], c[1])):
            players = _ranked(
                [
                    p
                    for p in results.players
                    if p.game_type == game_type and p.computers == computers
                ]
            )
            key = "after.stats.game_computers" if computers else "after.stats.game"
            lines.append(Text(key, {"game": self._title(game_type), "count": count}))
            for rank, player in enumerate(players[:MAX_STATS_PLAYERS], start=1):
                lines.append(
                    Text(
                        "after.stats.player",
                        {
                            "rank": rank,
                            "player": player.name,
                            "played": player.played,
                            "wins": player.wins,
                            "place": f"{player.average_place:.1f}",
                        },
                    )
                )
            if len(players) > MAX_STATS_PLAYERS:
                lines.append(Text("after.stats.more", {"count": len(players) - MAX_STATS_PLAYERS}))
        return Outcome(reply=Reply(lines))

    async def _member_lines(self, guild_id: int, member: Player) -> list[Text]:
        results = await self.ctx.store.member_results(guild_id, member.id)
        if not results:
            return [Text("after.stats.member_none", {"player": member.name})]
        lines = [Text("after.stats.member_header", {"player": member.name})]
        for result in sorted(results, key=lambda r: (-r.played, r.game_type, r.computers)):
            lines.append(
                Text(
                    "after.stats.member_game_computers"
                    if result.computers
                    else "after.stats.member_game",
                    {
                        "game": self._title(result.game_type),
                        "played": result.played,
                        "wins": result.wins,
                        "place": f"{result.average_place:.1f}",
                    },
                )
            )
        return lines

    def _title(self, game_type: str) -> Text | str:
        known = self.ctx.registry.get(game_type)
        return Text(known.engine.title_key) if known is not None else game_type


def _ranked(players: Sequence[PlayerResults]) -> list[PlayerResults]:
    return sorted(players, key=lambda p: (-p.wins, p.average_place, -p.played, p.name))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
