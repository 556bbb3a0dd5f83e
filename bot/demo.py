"""The offline demo: one complete game through the service, random legal moves.

It uses the same :class:`~bot.service.GameService` as the Discord adapter, on
a real SQLite file, so what it shows is what a channel would see: every
public message with its board, and what each player is told privately —
previews of their steps, their private view — with its image.

Decisions:

* It never deletes or overwrites anything it did not create: the images go
  into a fresh folder — ``--out`` itself when it does not exist or is empty,
  else a new numbered sub-folder ``demo-N`` inside it — and the folder's
  ``index.txt`` maps each image to the log line it belongs to.
* Bad arguments get one line on stderr and exit code 2; game names are
  case-insensitive; a seed is a whole number from 0 to 2**31 - 1 (Python's
  ``random`` would play ``-1`` and ``1`` alike); lobby options come as
  ``--option NAME=VALUE`` and are checked against the game's own.
* Random legal moves, from whichever awaited seat the seeded chooser picks.
  In a game with deadlines, now and then the awaited seats "go to sleep"
  and the demo's clock jumps to the next deadline, so the timeout path is
  shown too.
* ``--language`` (``en``, ``zh-CN``, ``zh-TW``, ``ko``; Discord's locale names)
  is the game's language, as a server's would be, and every seat's: every
  line the demo prints, every message and every image is in it (public lines
  follow the game's language, private ones the player's: here the same).
* The default folder is ``$ZIGGURAT_DEMO_DIR`` (the Docker image points it
  under ``/data``), else ``demo-boards``.
* ``--by-taps`` plays every step through the move picker
  (:meth:`GameService.pick`) as a player tapping: a random option of each
  menu (a random selection of a multiple-choice one), the confirmation
  included, never through notation. A tap is one choice in a menu. It ends
  with one line, ``taps per step: median M, max X; per turn: median T``,
  counting the steps played (a pick the rules then refuse is shown and its
  taps are not counted); a turn is a seat's steps until the game hands over.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import games, plugins
from bot.config import demo_dir
from bot.demo_taps import PLAYERS, RefusedPick, TapCount, TapPlayers
from bot.games.base import GameType, TurnShape
from bot.games.notation import ascii_int
from bot.i18n import Text, join_texts, language_of, t
from bot.service import GameService, Outcome, Player, Refusal, parse_options
from bot.service.lobby import option_name, value_name
from bot.service.turn_clock import all_options
from bot.store import Store

DEMO_CHANNEL = 1
DEMO_GUILD = 1
#: an upper bound on steps; a game that has not ended by then is reported as stuck
MAX_STEPS = 50_000
MAX_SEED = 2**31 - 1
#: how often awaited seats of a game with deadlines let the deadline pass
SLEEP_CHANCE = 0.05
#: seconds the demo's clock moves on after a refused pick (past any retry cooldown)
REFUSAL_WAIT = 60.0
#: the languages the demo plays in, by their Discord locale names
LOCALES = ("en", "zh-CN", "zh-TW", "ko")


class DemoError(Exception):
    """A bad argument: one line for stderr."""


def add_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--game", default=None, help="game type (default: the first registered)")
    demo.add_argument("--players", default="3", help="number of players")
    demo.add_argument("--seed", default="1", help="random seed, 0 to 2**31-1")
    demo.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a lobby option of the game (repeatable), e.g. mode=auction",
    )
    demo.add_argument(
        "--by-taps",
        action="store_true",
        help="play through the move picker, tapping options, and report the taps",
    )
    demo.add_argument(
        "--player",
        default="random",
        choices=PLAYERS,
        help="with --by-taps: tap random options, or towards the easy computer's move",
    )
    demo.add_argument(
        "--language",
        default="en",
        choices=LOCALES,
        help="the game's language: every message and image in it (default: en)",
    )
    demo.add_argument(
        "--out",
        default=None,
        help="folder for the images (default: $ZIGGURAT_DEMO_DIR, else demo-boards)",
    )


@dataclass
class DemoRequest:
    """The demo's arguments, checked."""

    game: str
    players: int
    seed: int
    options: dict[str, str]
    out: Path
    by_taps: bool = False
    #: how the seats tap (bot.demo_taps.PLAYERS)
    player: str = "random"
    #: draw the images (the tests play without them, to be quick)
    images: bool = True
    #: the catalog language of the game, its seats and the demo's own lines
    lang: str = "en"


def _whole(value: str, name: str, low: int, high: int, lang: str = "en") -> int:
    try:
        return ascii_int(str(value).strip(), low, high, digits=10)
    except ValueError:
        raise DemoError(
            t(lang, "app.demo_bad_number", name=name, value=value, min=low, max=high)
        ) from None


def check_request(
    registry: dict[str, GameType],
    game: str | None,
    players: str | int,
    seed: str | int,
    options: Sequence[str],
    out: str | Path | None,
    lang: str = "en",
) -> DemoRequest:
    """Validate the demo's arguments; :class:`DemoError` names the first bad one (in
    ``lang``)."""
    if not registry:
        raise DemoError(t(lang, "app.no_games"))
    wanted = (game or sorted(registry)[0]).strip().lower()
    if wanted not in registry:
        raise DemoError(
            t(lang, "app.demo_unknown_game", game=game, games=", ".join(sorted(registry)))
        )
    game_type = registry[wanted]
    chosen: dict[str, str] = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise DemoError(t(lang, "app.demo_bad_option", option=item))
        chosen[name.strip().lower()] = value.strip().lower()
    try:
        chosen = parse_options(game_type, chosen)
    except Refusal as refusal:
        raise DemoError(refusal.text.render(lang)) from None
    low, high = game_type.engine.player_range(chosen)
    count = _whole(str(players), "--players", 1, 99, lang)
    if not low <= count <= high:
        raise DemoError(
            t(
                lang,
                "app.demo_bad_players",
                game=Text(game_type.engine.title_key),
                min=low,
                max=high,
            )
        )
    number = _whole(str(seed), "--seed", 0, MAX_SEED, lang)
    folder = out if out not in (None, "") else demo_dir()
    return DemoRequest(wanted, count, number, chosen, Path(str(folder)), lang=lang)


def fresh_folder(out: Path, lang: str = "en") -> Path:
    """``out`` if it is new or empty, else a new ``out/demo-N``; created, never emptied."""
    try:
        if out.exists() and not out.is_dir():
            raise DemoError(t(lang, "app.demo_not_a_folder", path=out))
        if out.is_dir() and any(out.iterdir()):
            number = 1
            while (out / f"demo-{number}").exists():
                number += 1
            out = out / f"demo-{number}"
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise DemoError(
            t(lang, "app.demo_cannot_write", path=out, reason=error.strerror or error)
        ) from None
    return out


@dataclass
class DemoClock:
    """The demo's time: real seconds plus jumps to the next deadline."""

    offset: float = 0.0

    def __call__(self) -> float:
        import time

        return time.time() + self.offset


@dataclass
class Recorder:
    """Prints what the channel and each player would see; writes their images."""

    out: Path
    names: dict[int, str]
    lang: str = "en"
    images: int = 0
    index: list[str] = field(default_factory=list)

    def _image(self, data: bytes | None, kind: str, line: str) -> None:
        if data is None:
            return
        self.images += 1
        name = f"{self.images:04d}-{kind}.png"
        (self.out / name).write_bytes(data)
        self.index.append(f"{name}\t{line}")

    def show(self, outcome: Outcome, actor: Player | None = None) -> None:
        if actor is not None and outcome.reply.lines:
            line = f"[{actor.name}] " + " / ".join(self._lines(outcome.reply.lines))
            print(line)
            self._image(outcome.reply.image, "preview", line)
            self._image(outcome.reply.zoom, "zoom", line)
        if outcome.news is not None and outcome.has_public:
            lines = self._lines(outcome.news.lines)
            if outcome.news.ping:
                mentions = " ".join(f"@{self.names[uid]}" for uid in outcome.news.ping)
                lines.append(t(self.lang, "game.your_turn", mentions=mentions))
            for line in lines:
                print(line)
            self._image(outcome.news.board, "board", lines[0] if lines else "")
        if outcome.tally:
            print(" | ".join(self._lines(outcome.tally)))
        for message in outcome.private:
            to = t(self.lang, "demo.dm", player=self.names[message.user_id])
            line = f"{to} " + " / ".join(self._lines(message.lines))
            self._image(message.image, "private", line)

    def _lines(self, lines: Sequence[Text]) -> list[str]:
        return [line.render(self.lang) for line in lines]

    def write_index(self) -> None:
        (self.out / "index.txt").write_text("\n".join(self.index) + "\n", encoding="utf-8")


def options_words(game_type: GameType, chosen: dict[str, str]) -> Text | str:
    """The chosen lobby options in words (``Variant: auction, …``), as the lobby
    names them; ``-`` when the game has none."""
    named = [
        Text(
            "lobby.option_choice",
            {"option": option_name(spec), "value": value_name(spec, chosen[spec.name])},
        )
        for spec in all_options(game_type)
        if spec.name in chosen
    ]
    return join_texts(named) if named else "-"


async def _awaited(service: GameService, game_type: GameType) -> tuple[set[int], Any]:
    row = await service.store.latest_game_in(DEMO_CHANNEL)
    assert row is not None and row.state is not None
    state = game_type.engine.load_state(row.state)
    return game_type.engine.waiting_for(state), row


async def play(request: DemoRequest, out: Path) -> int:
    registry = games.REGISTRY
    game_type = registry[request.game]
    engine = game_type.engine
    lang = request.lang
    store = await Store.open(out / "demo.db")
    clock = DemoClock()
    try:
        service = GameService(store, registry, clock=clock, render=request.images)
        chooser = random.Random(request.seed)
        seated = [
            Player(1000 + n, t(lang, "demo.player", number=n + 1)) for n in range(request.players)
        ]
        recorder = Recorder(out, {p.id: p.name for p in seated}, lang)
        print(
            t(
                lang,
                "demo.header",
                game=Text(engine.title_key),
                players=request.players,
                seed=request.seed,
                options=options_words(game_type, request.options),
            )
        )
        recorder.show(
            await service.lobby.new_game(
                guild_id=DEMO_GUILD,
                channel_id=DEMO_CHANNEL,
                user=seated[0],
                game_type_name=request.game,
                options=request.options,
                seed=request.seed,
                language=lang,
            )
        )
        for player in seated[1:]:
            recorder.show(await service.lobby.join(DEMO_CHANNEL, player))
        outcome = await service.lobby.start(DEMO_CHANNEL, seated[0])
        recorder.show(outcome)
        finished = outcome.finished
        taps = TapCount(simultaneous=engine.turns is TurnShape.SIMULTANEOUS)
        tappers = TapPlayers(service, DEMO_CHANNEL, request.player, chooser)
        for _ in range(MAX_STEPS):
            if finished:
                break
            awaited, row = await _awaited(service, game_type)
            timers = [t for t in await store.timers(row.id) if t.kind == "deadline"]
            if timers and chooser.random() < SLEEP_CHANCE:
                clock.offset += max(0.0, min(t.due_at for t in timers) - clock()) + 1
                for fired in await service.timers.fire_due_timers():
                    recorder.show(fired)
                    finished = finished or fired.finished
                tappers.forget()
                continue
            seat = chooser.choice(sorted(awaited))
            player = next(p for p in seated if p.id == row.seats[seat].user_id)
            if request.by_taps:
                turn = engine.turn_number(engine.load_state(row.state))
                try:
                    tapped = await tappers.step(player, seat, row, engine)
                except RefusedPick as refused:
                    line = t(
                        lang,
                        "demo.tap_refused",
                        player=player.name,
                        taps=refused.taps,
                        reason=refused.refusal.text.render(lang),
                    )
                    print(line)
                    clock.offset += REFUSAL_WAIT  # past any retry cooldown
                    continue
                recorder.show(tapped.outcome, player)
                _, after = await _awaited(service, game_type)
                now = engine.turn_number(engine.load_state(after.state))
                ended = tapped.outcome.has_public if turn is None else now != turn
                taps.step(seat, turn, tapped.taps, tapped.touches, ended=ended)
                finished = tapped.outcome.finished
                continue
            actions = await service.reading.legal_actions(DEMO_CHANNEL, player)
            try:
                outcome = await service.play.act(DEMO_CHANNEL, player, str(chooser.choice(actions)))
            except Refusal as refusal:  # a legal move the rules then refuse: shown, not fatal
                print(f"[{player.name}] {refusal.text.render(lang)}")
                continue
            recorder.show(outcome, player)
            finished = outcome.finished
        else:
            print(t(lang, "app.demo_stuck", moves=MAX_STEPS), file=sys.stderr)
            return 1
        recorder.write_index()
        row = await store.latest_game_in(DEMO_CHANNEL)
        assert row is not None
        result = engine.result(engine.load_state(row.state))
        assert result is not None
        print(t(lang, "app.demo_board_written", path=out, count=recorder.images))
        status = await service.reading.status(DEMO_CHANNEL)
        print(status.reply.lines[-1].render(lang))
        if request.by_taps:
            print(t(lang, "demo.plays", plays=tappers.plays, turns=len(taps.own)))
            print(taps.line(lang))
        return 0
    finally:
        await store.close()


async def run_demo(
    game: str | None,
    players: str | int,
    seed: str | int,
    out: str | Path | None,
    options: Sequence[str] = (),
    *,
    by_taps: bool = False,
    player: str = "random",
    images: bool = True,
    language: str = "en",
) -> int:
    """Check the arguments, then play one game in ``language`` (a Discord locale or
    a catalog language); return a process exit code."""
    registry = games.REGISTRY or plugins.load_builtin_games()
    lang = language_of(language)
    try:
        request = check_request(registry, game, players, seed, options, out, lang)
        request.by_taps = by_taps
        request.player = player
        request.images = images
        folder = fresh_folder(request.out, lang)
    except DemoError as error:
        print(str(error), file=sys.stderr)
        return 2
    return await play(request, folder)


def main(args: argparse.Namespace) -> int:
    return asyncio.run(
        run_demo(
            args.game,
            args.players,
            args.seed,
            args.out,
            args.option,
            by_taps=getattr(args, "by_taps", False),
            player=getattr(args, "player", "random"),
            language=getattr(args, "language", "en"),
        )
    )
