"""A service-level fuzzer: random and hostile commands through :class:`GameService`.

It drives several channels at once with every game and mode, lobby options
(hostile values among them), computer seats, typed moves (legal ones and
garbage), buttons (fresh and stale), picker taps (real option tokens and
hostile ones: ``²``, ``①``, ``~²-3``...), undo, back, resign, replace, automatic
answers, the host's clock, timeouts (a fake clock moved to the next timer),
restarts (a new service on the same store, repairing timers),
rematches (ids past the store's range among them), names with control
characters, and the read-only commands. After every command it checks:

* **no internal error**: a command either answers or raises a
  :class:`~bot.service.Refusal` (whose text renders);
* **the log replays**: the channel's game, replayed from its seed through its
  stored log (:class:`~bot.service.replay.Replayer`, fed as rows are written),
  is its stored state;
* **whatever a game awaits has what will move it**: :meth:`~bot.service.clock.Timers.audit`
  is empty (and a restart, now and then, finds nothing to repair);
* **nothing hidden in public words**: for a member's step and another step the
  same seat could have taken instead, at least one of which the engine hides
  (tells others less of than its author), whenever the engine announces the
  two alike in public (the same public lines), their public words and
  notation (what ``/game log`` and a timeout line show) and the public view
  after them are alike too.

``scripts/fuzz_service.py`` runs it long on either backend;
``tests/platform/test_fuzz.py`` runs a bounded version on both. The picker is
reached through one small method, :meth:`Fuzzer.tap`.
"""

from __future__ import annotations

import json
import random
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import GameType, OptionSpec, RuleError
from bot.service import ChoiceKind, GameService, News, Outcome, Player, Refusal, announce
from bot.service.loaded import LoadedGame
from bot.service.menus import Menu
from bot.service.replay import Replayer
from bot.service.turn_clock import all_options
from bot.store import GameRow

#: the members who play (one with a name full of control characters)
MEMBERS = (
    Player(701, "Ann"),
    Player(702, "Bo"),
    Player(703, "Cy\x00\x1b[2J"),
    Player(704, "Di"),
    Player(705, "\x00\x07"),
)
#: someone who never sits
STRANGER = Player(799, "Stranger")
#: digits and words no decoder may read as a number
HOSTILE_NUMBERS = ("²", "①", "١", "１", "-1", "+1", " 1", "1_0", "9" * 30, "", "½")
#: hostile pieces of text
HOSTILE_WORDS = (
    "\x00",
    "pass\x00",
    "tile red A²",
    "place ① A1 2",
    "bid ١",
    "swap 2 B4 3 B1",
    "x" * 5000,
    "undo",
    "🙂",
    "lightning 4:A1",
    "joint 2",
    " ",
)
#: levels a host may name (two that are not levels)
LEVELS = ("easy", "easy", "strong", "genius", "")
#: ids past what the store holds
FAR = (2**63, 2**64 + 1, -(2**63) - 1)

#: a command of the fuzzer: (channel, the channel's latest game row or None)
Handler = Callable[[int, Any], Awaitable[Any]]


class FakeClock:
    """The service's clock, moved by the fuzzer."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Tally:
    """What a run did and what it found."""

    commands: int = 0
    games: int = 0
    refused: int = 0
    finished: int = 0
    computer_moves: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    #: the refusals met, by command and catalog key
    refusals: Counter[str] = field(default_factory=Counter)
    #: the commands carried out (not refused), by name
    done: Counter[str] = field(default_factory=Counter)
    #: how often a command left its game with an absent, resigned or computer seat, paused
    states: Counter[str] = field(default_factory=Counter)
    #: the first few examples of each kind of failure
    examples: dict[str, list[str]] = field(default_factory=dict)

    def fail(self, kind: str, detail: str) -> None:
        self.failures[kind] += 1
        shown = self.examples.setdefault(kind, [])
        if len(shown) < 3:
            shown.append(detail)

    def line(self, backend: str) -> str:
        """One summary line."""
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.failures.items())) or "none"
        return (
            f"fuzz {backend}: {self.commands} commands, {self.games} games"
            f" ({self.finished} finished), {self.refused} refused,"
            f" {self.computer_moves} computer moves; failures: {kinds}"
        )


@dataclass
class Seen:
    """What the fuzzer remembers of a channel: its last buttons, its last menu."""

    buttons: list[tuple[int | None, int | None, str]] = field(default_factory=list)
    menu: Menu | None = None
    menu_user: Player | None = None


class Fuzzer:
    """Random and hostile commands on ``channels`` channels; see the module docstring."""

    def __init__(
        self,
        service: GameService,
        clock: FakeClock,
        seed: int,
        *,
        channels: int = 6,
        games: tuple[str, ...] | None = None,
        levels: tuple[str, ...] = LEVELS,
        hidden_check: float = 0.3,
    ) -> None:
        self.service = service
        self.store = service.store
        self.clock = clock
        self.rng = random.Random(seed)
        self.channels = [9_000 + n for n in range(channels)]
        self.games = games or tuple(sorted(service.registry))
        self.levels = levels
        self.hidden_check = hidden_check
        self.tally = Tally()
        self.seen: dict[int, Seen] = {c: Seen() for c in self.channels}
        self._replayers: dict[int, tuple[Replayer, int]] = {}
        self._unmoved: set[tuple[int, int]] = set()
        self._counted_finished: set[int] = set()
        self._command = ""

    # -- running ---------------------------------------------------------------------

    async def run(self, commands: int) -> Tally:
        for _ in range(commands):
            await self.one()
        return self.tally

    async def one(self) -> None:
        """One random command on a random channel, then the checks."""
        channel = self.rng.choice(self.channels)
        row = await self.store.latest_game_in(channel)
        if row is None or row.status in ("finished", "abandoned"):
            handlers = self._after_handlers(row)
        elif row.status == "lobby":
            handlers = self._lobby_handlers(row)
        else:
            handlers = self._game_handlers(row)
        name, handler = self.rng.choices(
            [(n, h) for n, h, _ in handlers], weights=[w for _, _, w in handlers]
        )[0]
        self._command = f"{name} in channel {channel}"
        if row is not None:  # enough to find the position a failure met
            self._command += f" ({row.game_type} game {row.id} v{row.version} {row.options})"
        self.tally.commands += 1
        await self._guarded(name, handler(channel, row))
        if self.rng.random() < 0.6:  # the timer task, without moving the clock
            await self._fire(moved=False)
        await self.check(channel)

    async def _guarded(self, name: str, call: Awaitable[Any]) -> Any:
        try:
            result = await call
        except Refusal as refusal:
            self.tally.refused += 1
            self.tally.refusals[f"{name}: {refusal.text.key}"] += 1
            try:
                refusal.text.render("en")
            except Exception as error:
                self.tally.fail("refusal-text", f"{self._command}: {refusal.text}: {error!r}")
        except Exception as error:
            where = traceback.format_exception(error)[-3:]
            self.tally.fail(
                f"error:{type(error).__name__}", f"{self._command}: {error!r} {''.join(where)}"
            )
        else:
            self.tally.done[name] += 1
            return result
        return None

    async def _fire(self, *, moved: bool) -> None:
        """Fire the due timers (the clock moved to the next one first, when ``moved``)."""
        if moved:
            timers = await self.store.timers()
            if timers:
                due = min(t.due_at for t in timers)
                self.clock.now = max(self.clock.now, due + self.rng.choice((0.0, 1.0, 600.0)))
        outcomes = await self._guarded("timers", self.service.timers.fire_due_timers())
        for outcome in outcomes or []:
            self._remember(outcome)

    # -- who and what ------------------------------------------------------------------

    def _user(self, row: GameRow | None, *, awaited: bool = True) -> Player:
        """A member of the game (mostly one it lets act now), now and then anyone."""
        if row is None or self.rng.random() < 0.04:
            return self.rng.choice((*MEMBERS, STRANGER))
        seated = {m: row.seat_of(m.id) for m in MEMBERS}
        members = [m for m, s in seated.items() if s is not None]
        if awaited and row.state is not None and self.rng.random() < 0.9:
            engine = self.service.registry[row.game_type].engine
            state = engine.load_state(row.state)
            acting = [
                m
                for m, s in seated.items()
                if s is not None and s.status != "resigned" and engine.may_act(state, s.seat)
            ]
            if acting:
                return self.rng.choice(acting)
        return self.rng.choice(members or list(MEMBERS))

    def _host(self, row: GameRow) -> Player:
        return next((m for m in MEMBERS if m.id == row.creator_id), MEMBERS[0])

    def _options(self, game_type: GameType) -> dict[str, str]:
        chosen: dict[str, str] = {}
        for spec in all_options(game_type):
            roll = self.rng.random()
            if roll < 0.5:
                chosen[spec.name] = self.rng.choice(spec.choices)
            elif roll < 0.55:
                chosen[spec.name] = self.rng.choice((*HOSTILE_NUMBERS, "never\x00"))
        if self.rng.random() < 0.03:
            chosen["no_such_option"] = "1"
        return chosen

    def _remember(self, outcome: Outcome | None) -> None:
        if outcome is None or outcome.channel_id not in self.seen:
            return
        seen = self.seen[outcome.channel_id]
        for choice in [*(outcome.news or News()).choices, *outcome.reply.choices]:
            if choice.kind is ChoiceKind.ACT:
                seen.buttons.append((outcome.game_id, outcome.version, choice.action))
        del seen.buttons[:-12]

    # -- the picker: its one entry point --------------------------------------------------

    async def tap(
        self, channel: int, user: Player, token: str | None, picked: list[str], game_id: int
    ) -> tuple[Menu | None, Outcome | None, list[str]]:
        """One tap of ``user``'s move picker (``token`` None opens it): the next menu,
        the outcome of the step the tap played, if any, and the catalog keys of the
        lines said first (a stale or bad pick's). The only call to the picker's API."""
        answer = await self.service.tapping.tap(channel, user, token, picked, game_id=game_id)
        return answer.menu, answer.outcome, [line.key for line in answer.lines]

    async def _taps(self, channel: int, row: GameRow) -> None:
        seen = self.seen[channel]
        user = self._user(row)
        menu = seen.menu if seen.menu_user == user and self.rng.random() < 0.7 else None
        game_id = row.id if self.rng.random() < 0.97 else self.rng.choice(FAR)
        for _ in range(self.rng.randint(1, 6)):
            if menu is None:
                token, picked = None, list[str]()
            else:
                token, picked = self._tap_of(menu)
            menu, outcome, said = await self.tap(channel, user, token, picked, game_id)
            self._remember(outcome)
            for key in said:  # a pick answered with a fresh menu: a refusal all the same
                self.tally.refusals[f"tap: {key}"] += 1
            if menu is None:
                break
        seen.menu, seen.menu_user = menu, user

    def _tap_of(self, menu: Menu) -> tuple[str, list[str]]:
        """A tap in ``menu``: mostly one of its own options (a control now and then),
        now and then a hostile one."""
        tokens = [option.token for option in menu.options] or ["0"]
        roll = self.rng.random()
        if roll < 0.08:
            return menu.token, [self.rng.choice(HOSTILE_NUMBERS)]
        if roll < 0.12:
            hostile = self.rng.choice(("~²-3", "~0-١", "~①", ".①", ".99", "~" + "9" * 25))
            return menu.token + hostile, tokens[:1]
        if roll < 0.14:
            return self.rng.choice(HOSTILE_NUMBERS) + ".0", tokens[:1]
        if roll < 0.18 and menu.controls:
            return menu.token, [self.rng.choice(menu.controls).token]
        if not menu.sections:
            return menu.token, tokens[:1]
        section = self.rng.choice(menu.sections)
        own = [option.token for option in section.options]
        high = min(section.max_values, len(own))
        count = self.rng.randint(min(section.min_values, high), high)
        return menu.token, self.rng.sample(own, count)

    # -- the commands -----------------------------------------------------------------

    def _after_handlers(self, row: GameRow | None) -> list[tuple[str, Handler, float]]:
        handlers: list[tuple[str, Handler, float]] = [("new", self._new, 10.0)]
        if row is not None:
            handlers += [
                ("rematch", self._rematch, 8.0 if row.status == "finished" else 0.5),
                ("export", self._export, 0.3),
                ("read", self._read, 0.5),
            ]
        return handlers

    def _lobby_handlers(self, row: GameRow) -> list[tuple[str, Handler, float]]:
        return [
            ("join", self._join, 4.0),
            ("leave", self._leave, 0.5),
            ("computer", self._add_computer, 3.0),
            ("uncomputer", self._remove_computer, 0.5),
            ("option", self._option, 1.5),
            ("start", self._start, 4.0),
            ("abandon", self._abandon, 0.2),
            ("new", self._new, 0.3),
            ("read", self._read, 0.5),
        ]

    def _game_handlers(self, row: GameRow) -> list[tuple[str, Handler, float]]:
        paused = row.paused is not None
        absent = any(s.status == "absent" and s.computer is None for s in row.seats)
        return [
            ("act", self._act, 30.0),
            ("garbage", self._garbage, 2.0),
            ("button", self._button, 4.0),
            ("tap", self._taps, 8.0),
            ("undo", self._undo, 2.0),
            ("back", self._back, 3.0 if absent else 0.3),
            ("resign", self._resign, 0.15),
            ("replace", self._replace, 0.6),
            ("auto", self._auto, 0.5),
            ("pause", self._pause, 0.4),
            ("resume", self._resume, 4.0 if paused else 0.2),
            ("extend", self._extend, 0.3),
            ("timeout", self._timeout, 4.0),
            ("stall", self._stall, 1.5),
            ("read", self._read, 2.0),
            ("abandon", self._abandon, 0.05),
            ("stale", self._stale_ids, 0.5),
            ("restart", self._restart, 0.3),
        ]

    async def _new(self, channel: int, row: GameRow | None) -> None:
        name = self.rng.choice(self.games)
        game_type = self.service.registry[name]
        user = self.rng.choice(MEMBERS)
        outcome = await self.service.lobby.new_game(
            guild_id=1,
            channel_id=channel,
            user=user,
            game_type_name=name if self.rng.random() > 0.01 else "chess",
            options=self._options(game_type),
            seed=self.rng.randrange(2**31) if self.rng.random() > 0.01 else self.rng.choice(FAR),
            language=self.rng.choice(("en", "zh", "ko", "zh-TW", "xx")),
        )
        self.tally.games += 1
        self._remember(outcome)

    async def _join(self, channel: int, row: GameRow) -> None:
        await self.service.lobby.join(channel, self.rng.choice((*MEMBERS, STRANGER)))

    async def _leave(self, channel: int, row: GameRow) -> None:
        await self.service.lobby.leave(channel, self.rng.choice(MEMBERS))

    async def _add_computer(self, channel: int, row: GameRow) -> None:
        user = self._host(row) if self.rng.random() < 0.9 else self.rng.choice(MEMBERS)
        await self.service.lobby.add_computer(channel, user, self.rng.choice(self.levels))

    async def _remove_computer(self, channel: int, row: GameRow) -> None:
        await self.service.lobby.remove_computer(channel, self._host(row))

    async def _option(self, channel: int, row: GameRow) -> None:
        game_type = self.service.registry[row.game_type]
        specs: list[OptionSpec] = list(all_options(game_type))
        spec = self.rng.choice(specs)
        value = (
            self.rng.choice(spec.choices)
            if self.rng.random() < 0.8
            else self.rng.choice(HOSTILE_NUMBERS + HOSTILE_WORDS[:2])
        )
        await self.service.lobby.set_option(channel, self._host(row), spec.name, value)

    async def _start(self, channel: int, row: GameRow) -> None:
        user = self._host(row) if self.rng.random() < 0.9 else self.rng.choice(MEMBERS)
        self._remember(await self.service.lobby.start(channel, user))

    async def _abandon(self, channel: int, row: GameRow) -> None:
        await self.service.lobby.abandon(
            channel,
            self._host(row),
            can_manage_channel=self.rng.random() < 0.5,
            confirmed=self.rng.random() < 0.8,
        )

    async def _act(self, channel: int, row: GameRow) -> None:
        user = self._user(row)
        legal = await self.service.reading.legal_actions(channel, user)
        if not legal:  # nobody here may act: the computers or the clock will
            await self._fire(moved=self.rng.random() < 0.3)
            return
        action = self.rng.choice(legal)
        if self.rng.random() < self.hidden_check:
            await self._check_hidden(channel, user, action, legal)
        self._remember(await self.service.play.act(channel, user, str(action)))

    async def _garbage(self, channel: int, row: GameRow) -> None:
        text = self.rng.choice(HOSTILE_WORDS)
        if self.rng.random() < 0.5:
            legal = await self.service.reading.legal_actions(channel, self._user(row))
            if legal:  # a legal move with one number made hostile
                words = str(self.rng.choice(legal)).split()
                spot = self.rng.randrange(len(words))
                words[spot] = self.rng.choice(HOSTILE_NUMBERS) or "?"
                text = " ".join(words)
        await self.service.play.act(channel, self._user(row), text)

    async def _button(self, channel: int, row: GameRow) -> None:
        seen = self.seen[channel]
        if not seen.buttons:
            return
        game_id, version, action = self.rng.choice(seen.buttons)
        if self.rng.random() < 0.1:
            game_id = self.rng.choice(FAR)
        user = self._user(row)
        if self.rng.random() < 0.7 and game_id is not None and version is not None:
            outcome = await self.service.tapping.press(
                channel, user, action, game_id=game_id, version=version
            )
        else:
            outcome = await self.service.play.act(
                channel, user, action, expected_game=game_id, expected_version=version
            )
        self._remember(outcome)

    async def _undo(self, channel: int, row: GameRow) -> None:
        self._remember(await self.service.play.undo(channel, self._user(row, awaited=False)))

    async def _back(self, channel: int, row: GameRow) -> None:
        absent = [m for m in MEMBERS if (s := row.seat_of(m.id)) and s.status == "absent"]
        user = self.rng.choice(absent) if absent else self._user(row, awaited=False)
        await self.service.seats.back(channel, user)

    async def _resign(self, channel: int, row: GameRow) -> None:
        user = self._user(row, awaited=False)
        self._remember(
            await self.service.seats.resign(channel, user, confirmed=self.rng.random() < 0.8)
        )

    async def _replace(self, channel: int, row: GameRow) -> None:
        seats = row.seats
        seat = self.rng.choice(seats)
        free = [m for m in MEMBERS if row.seat_of(m.id) is None]
        to_computer = self.rng.random() < 0.5 or not free
        await self.service.seats.replace(
            channel,
            self._host(row),
            None if seat.computer is not None else seat.user_id,
            None if to_computer else self.rng.choice(free),
            can_manage_channel=self.rng.random() < 0.5,
            computer=self.rng.choice(self.levels) if to_computer else None,
            seat_number=seat.seat + 1 if seat.computer is not None else None,
        )

    async def _auto(self, channel: int, row: GameRow) -> None:
        await self.service.seats.auto(
            channel, self._user(row, awaited=False), on=self.rng.random() < 0.5
        )

    async def _pause(self, channel: int, row: GameRow) -> None:
        await self.service.seats.pause(channel, self._host(row), can_manage_channel=False)

    async def _resume(self, channel: int, row: GameRow) -> None:
        self._remember(
            await self.service.seats.resume(channel, self._host(row), can_manage_channel=False)
        )

    async def _extend(self, channel: int, row: GameRow) -> None:
        await self.service.seats.extend(channel, self._host(row), can_manage_channel=True)

    async def _timeout(self, channel: int, row: GameRow) -> None:
        await self._fire(moved=True)

    async def _restart(self, channel: int, row: GameRow | None) -> None:
        """The bot restarts: a new service on the same store repairs the timers, and
        finds nothing to repair (the audit was empty)."""
        ctx = self.service.ctx
        self.service = GameService(
            self.store,
            ctx.registry,
            clock=self.clock,
            render=False,
            computer_pause=ctx.computer_pause,
        )
        repaired = await self.service.timers.repair_timers()
        if repaired:
            self.tally.fail("repair", f"{self._command}: {repaired} games repaired at a restart")

    async def _stall(self, channel: int, row: GameRow) -> None:
        """Nobody answers for a while: the clock runs to the next timers, again and again
        (late seats time out, and in a row become absent)."""
        for _ in range(self.rng.randint(3, 8)):
            await self._fire(moved=True)

    async def _rematch(self, channel: int, row: GameRow) -> None:
        game_id = row.id if self.rng.random() < 0.85 else self.rng.choice((*FAR, row.id + 1))
        outcome = await self.service.after.rematch(channel, self._user(row, awaited=False), game_id)
        self.tally.games += 1
        self._remember(outcome)

    async def _export(self, channel: int, row: GameRow) -> None:
        await self.service.after.export(channel)

    async def _read(self, channel: int, row: GameRow | None) -> None:
        user = self._user(row, awaited=False)
        roll = self.rng.randrange(6)
        if roll == 0:
            await self.service.reading.status(channel)
        elif roll == 1:
            await self.service.reading.log_lines(channel, self.rng.choice((1, 10, 50, 0, 51)))
        elif roll == 2:
            await self.service.reading.hand(channel, user)
        elif roll == 3:
            await self.service.reading.suggestions(
                channel, user, self.rng.choice(("", "p", "²", "\x00"))
            )
        elif roll == 4:
            await self.service.reading.legal_values(
                channel, user, self.rng.choice(("place", "tile", "bid", "²")), "square", {}
            )
        else:
            await self.service.reading.board(channel)

    async def _stale_ids(self, channel: int, row: GameRow) -> None:
        far = self.rng.choice(FAR)
        roll = self.rng.randrange(4)
        if roll == 0:
            await self.service.play.act(channel, self._user(row), "pass", expected_version=far)
        elif roll == 1:
            await self.service.after.rematch(channel, self._user(row), far)
        elif roll == 2:
            await self.service.lobby.join(channel, Player(far, "Far"))
        else:
            await self.service.memory.message(far, "lobby")

    # -- the checks -----------------------------------------------------------------------

    async def check(self, channel: int) -> None:
        """The invariants after a command (see the module docstring)."""
        try:
            row = await self.store.latest_game_in(channel)
            if row is not None and row.state is not None:
                await self._check_replay(row)
                self.tally.states.update(
                    {s.status for s in row.seats if s.status != "playing"}
                    | ({"computer"} if any(s.computer for s in row.seats) else set())
                    | ({"paused"} if row.paused is not None else set())
                )
                if row.status == "finished":
                    self.tally.finished += row.id not in self._counted_finished
                    self._counted_finished.add(row.id)
            for unmoved in await self.service.timers.audit():
                key = (unmoved.game_id, len(unmoved.missing))
                if key not in self._unmoved:
                    self._unmoved.add(key)
                    self.tally.fail("unmoved", f"{self._command}: {unmoved}")
        except Exception as error:
            self.tally.fail(f"check:{type(error).__name__}", f"{self._command}: {error!r}")

    async def _check_replay(self, row: GameRow) -> None:
        engine = self.service.registry[row.game_type].engine
        replayer, seen = self._replayers.get(row.id, (None, 0))
        if replayer is None:
            replayer = Replayer(engine, len(row.seats), row.options, row.seed)
        moves = await self.store.moves(row.id, after=seen)
        self.tally.computer_moves += sum(m.kind == "computer" for m in moves)
        try:
            state = replayer.feed(moves)
        except RuleError as error:
            self.tally.fail("replay", f"game {row.id} ({row.game_type}): {error.key}")
            self._replayers.pop(row.id, None)
            return
        self._replayers[row.id] = (replayer, moves[-1].seq if moves else seen)
        if engine.dump_state(state) != row.state:
            self.tally.fail("replay", f"game {row.id} ({row.game_type}) at move {row.last_seq}")
            self._replayers.pop(row.id, None)

    async def _check_hidden(
        self, channel: int, user: Player, action: Any, legal: list[Any]
    ) -> None:
        """Two steps the seat could take now that the engine announces alike in public
        must read alike in public words and notation and leave the same public view."""
        row = await self.store.latest_game_in(channel)
        if row is None or row.state is None:
            return
        seat = row.seat_of(user.id)
        if seat is None:
            return
        game_type = self.service.registry[row.game_type]
        engine = game_type.engine
        others = [a for a in legal if str(a) != str(action)]
        mine = self._announced(row, game_type, seat.seat, action)
        if mine is None:
            return
        for other in self.rng.sample(others, min(3, len(others))):
            if not (_hidden(engine, action) or _hidden(engine, other)):
                continue  # both told in full (two alike face-up tiles, say): nothing hidden
            theirs = self._announced(row, game_type, seat.seat, other)
            if theirs is None or theirs[0] != mine[0]:
                continue  # announced differently: nothing to compare
            words = (engine.describe(action, True), engine.public_notation(action))
            other_words = (engine.describe(other, True), engine.public_notation(other))
            if words != other_words:
                self.tally.fail(
                    "hidden:words",
                    f"{row.game_type} seat {seat.seat}: {action} reads {words!r}"
                    f" but {other} reads {other_words!r}, announced alike",
                )
            elif mine[1] != theirs[1]:
                self.tally.fail(
                    "hidden:view",
                    f"{row.game_type} seat {seat.seat}: {action} and {other} leave"
                    " different public views, announced alike",
                )

    def _announced(
        self, row: GameRow, game_type: GameType, seat: int, action: Any
    ) -> tuple[str, str] | None:
        """The public lines of ``seat`` playing ``action`` now and the public view after,
        on a copy of the state (None when the engine refuses it)."""
        engine = game_type.engine
        state = engine.load_state(row.state)
        try:
            events = engine.apply(state, seat, action)
        except RuleError:
            return None
        game = LoadedGame(row, game_type, state)
        lines = [line.to_json() for line in announce.step_lines(game, seat, action, events)]
        return json.dumps(lines, sort_keys=True), json.dumps(
            engine.public_view(state), sort_keys=True
        )


def _hidden(engine: Any, action: Any) -> bool:
    """Whether the engine tells others less of ``action`` than its author."""
    return bool(
        engine.describe(action, True) != engine.describe(action, False)
        or engine.public_notation(action) != str(action)
    )
