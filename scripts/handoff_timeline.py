"""Where the time of one hand-off goes: a timeline from INTERACTION_CREATE to fully answered.

Usage: ``python scripts/handoff_timeline.py [--game tigris,tikal,temple] [--moves 40]
[--seed 1] [--show 1] [--db sqlite,postgres] [--computer] [--latency 0]``

Plays random legal moves with ``/play`` as :mod:`bench_latency` does (the real bot,
a real SQLite file or a throwaway PostgreSQL server, the fake Discord on loopback)
and records, for each move, when
each part of its answer started and ended, in milliseconds after the fake sent
INTERACTION_CREATE:

* ``bot got it``: the bot's handler starts (the gateway hop before it);
* ``load``: the game read from the store (``Context.running``);
* ``engine:<function>``: the engine's work on its threads (``off_loop``);
* ``commit``: the step handed to the store until it is committed; ``commit sent``
  marks when only the commit itself remained (the answer is prepared from there);
* ``draw:<renderer>``: each image, from its request to its PNG (queueing for a
  drawing process included);
* ``answer``: the service's answer prepared (``announce.handoff``; images included
  unless the invoker is answered while they are drawn, ``announce.answered_early``);
* ``REST <method> <route>``: each request discord.py made, from its call to its
  response (callback, follow-ups, message edits, DMs);
* ``store:<read>``: the adapter's reads and writes of what it remembers (``Memory``);
* ``fully answered``: the bot reports the interaction done.

It prints the median timeline of the hand-offs (each part by its order of
occurrence: the second image drawn is ``draw:…#2``), the first ``--show``
hand-offs in full, and the share of the time between the commit and fully
answered that no drawing, request or store call covered (the loop's own Python,
the fake's included with ``--fake loop``), and the critical path: when the
board (the first image) was asked after the commit began, how long it took beside
the same board drawn again alone, and what followed the last image; then where the
board's time went in its drawing process, in the hand-off and drawn again alone
(``/proc/PID/schedstat``: on a core, waiting for one, and not runnable: its job on
the way or its answer not read yet by the loop). Measurement only: the wrapping is
done here, the bot is unchanged.

``--fake thread`` (the default) runs the fake Discord on its own thread and event
loop (:mod:`tests.e2e.fake_thread`), so its handling of each request is not the
bot's loop's, as real Discord's is not; ``--fake loop`` runs it on the bot's loop,
as the tests do. The bot idles ``--settle`` seconds after it starts (6 by default),
so its drawing processes are warm, as in :mod:`bench_latency`.

With ``--computer``, Alice plays against computer seats (Tigris and Tikal's mini
game one, Temple Rush two, level easy; no pause before their moves, but for
:data:`SIMULTANEOUS_PAUSE` in a game whose rounds are played at once) and each hand-off
a computer seat's step makes back to her is timed instead, in milliseconds after its
timer fired (``timer fired``: ``Computers.fire`` began): the decision in the deciding
processes, ``plans applied`` (``Computers._play`` began, under the channel's lock),
the commit, each image, the public message (``deliver: public``: its POST, then the
interim message it replaces deleted) and Alice's DM (``deliver: private``). Its
summary gives, per hand-off, the time from the plans applied to the board posted
(the public POST done) and to the DM posted, beside the floor of the same run: that
hand-off's commit plus the same board drawn again alone; and, for the hand-offs with
private images, the board posted after the board drawn and after the last private
image drawn (negative: posted before it was drawn).

``--latency MS`` makes the fake answer each REST request MS milliseconds late, as a
round trip to Discord would (the loopback fake answers in about a millisecond, so
requests sent one after another cost little more than sent at once).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import discord.http  # noqa: E402
import discord.webhook.async_  # noqa: E402
from bench_latency import new_game, schedstat, settled, with_latency  # noqa: E402
from loops import add_loop_argument  # noqa: E402
from loops import run as run_on_loop  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.discord import delivery as delivery_module  # noqa: E402
from bot.discord.interactions import Responder  # noqa: E402
from bot.games.base import TurnShape  # noqa: E402
from bot.service import announce, computer, context, drawing, memory, play  # noqa: E402
from tests.e2e import bot_harness  # noqa: E402
from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_thread import add_fake_argument, serving, where  # noqa: E402

#: one part of a timeline: its label, start and end (ms after INTERACTION_CREATE)
Part = tuple[str, float, float]
#: one hand-off's parts and when it was fully answered (ms)
Timeline = tuple[list[Part], float]


@dataclass
class Span:
    label: str
    start: float
    end: float | None = None


@dataclass
class Recorder:
    """The spans of the interaction being measured (one at a time)."""

    on: bool = False
    spans: list[Span] = field(default_factory=list)

    def mark(self, label: str) -> None:
        if self.on:
            now = time.monotonic()
            self.spans.append(Span(label, now, now))

    @contextmanager
    def span(self, label: str) -> Iterator[Span]:
        item = Span(label, time.monotonic())
        if self.on:
            self.spans.append(item)
        try:
            yield item
        finally:
            item.end = time.monotonic()


REC = Recorder()


@dataclass(frozen=True)
class Use:
    """How a drawing process spent one board's time (ms): on a core, waiting for one
    (runnable, in the run queue), and the rest of the board's wall time, not runnable:
    waiting for the job to reach it, or for the loop to read its answer."""

    run: float
    queued: float
    wall: float

    @property
    def idle(self) -> float:
        return max(0.0, self.wall - self.run - self.queued)


#: the boards drawn since last cleared, each with its drawing process's use
BOARDS: list[Use] = []


def watch_boards() -> None:
    """Record each board's :class:`Use` in :data:`BOARDS`: the process it goes to is
    the one with the fewest jobs (:mod:`bot.service.workers`), read from
    ``/proc/PID/schedstat`` before it is sent and after its answer is read."""
    original = drawing.POOL.run

    async def run(function: Any, *args: Any) -> Any:
        running = drawing.POOL._running
        if function is not drawing.public_board or running is None or not running.workers:
            return await original(function, *args)
        pid = min(running.workers, key=lambda w: len(w.jobs)).process.pid
        assert pid is not None
        (run0, queued0), began = schedstat(pid), time.monotonic()
        try:
            return await original(function, *args)
        finally:
            wall = (time.monotonic() - began) * 1000
            run1, queued1 = schedstat(pid)
            BOARDS.append(Use((run1 - run0) / 1e6, (queued1 - queued0) / 1e6, wall))

    drawing.POOL.run = run  # type: ignore[method-assign]


def _wrap_async(owner: Any, name: str, label: Callable[..., str]) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        with REC.span(label(*args, **kwargs)):
            return await original(*args, **kwargs)

    setattr(owner, name, wrapped)


def _route(route: Any, *_: Any, **__: Any) -> str:
    path = getattr(route, "path", "?")
    if "/interactions/" in path and "callback" in path:
        path = "/interactions/…/callback"
    elif path.startswith("/webhooks/"):
        path = "/webhooks/… (follow-up)" + (" edit" if "messages" in path else "")
    return f"REST {getattr(route, 'method', '?')} {path}"


def instrument() -> None:
    """Wrap the parts a hand-off goes through (see the module docstring)."""
    _wrap_async(discord.http.HTTPClient, "request", lambda self, route, *a, **k: _route(route))
    _wrap_async(
        discord.webhook.async_.AsyncWebhookAdapter,
        "request",
        lambda self, route, *a, **k: _route(route),
    )
    _wrap_async(context.Context, "running", lambda *a, **k: "load")
    _wrap_async(computer.Computers, "fire", lambda *a, **k: "timer fired")
    _wrap_async(computer.Computers, "_play", lambda *a, **k: "plans applied")
    _wrap_async(Responder, "run", lambda *a, **k: "handler")
    _wrap_async(announce, "handoff", lambda *a, **k: "answer")
    _wrap_async(announce, "preview", lambda *a, **k: "answer (preview)")
    _wrap_async(announce, "tally", lambda *a, **k: "tally read")
    _wrap_async(delivery_module.Delivery, "post_public", lambda *a, **k: "deliver: public")
    _wrap_async(delivery_module.Delivery, "send_private", lambda *a, **k: "deliver: private")
    _wrap_async(delivery_module.Delivery, "_retell", lambda *a, **k: "deliver: retell")
    for name in (
        "dms_closed",
        "dms_closed_among",
        "remember_message",
        "message",
        "messages",
        "keep_messages",
        "forget_message",
        "note_dm_announcement",
    ):
        if hasattr(memory.Memory, name):
            _wrap_async(memory.Memory, name, lambda *a, _n=name, **k: f"store:{_n}")
    watch_boards()
    _wrap_async(
        drawing.POOL,
        "run",
        lambda render, *a, **k: f"draw:{getattr(render, '__name__', render)}",
    )

    original_off = play.off_loop

    async def off_loop(function: Any, *args: Any) -> Any:
        name = getattr(function, "__qualname__", getattr(function, "__name__", "?"))
        with REC.span(f"engine:{name}"):
            return await original_off(function, *args)

    play.off_loop = off_loop  # type: ignore[assignment]
    import bot.service.tapping as tapping

    setattr(tapping, "off_loop", off_loop)  # noqa: B010

    def start_step(self: Any, game: Any, step: Any, *, sent: Any = None) -> Any:
        span = Span("commit", time.monotonic())
        if REC.on:
            REC.spans.append(span)

        def on_sent(*args: Any) -> None:
            REC.mark("commit sent")
            if sent is not None:
                sent(*args)

        future = start_step.original(self, game, step, sent=on_sent)  # type: ignore[attr-defined]
        future.add_done_callback(lambda _: setattr(span, "end", time.monotonic()))
        return future

    from bot.store.sql import SqlStore

    start_step.original = SqlStore.start_step  # type: ignore[attr-defined]
    SqlStore.start_step = start_step  # type: ignore[method-assign]


def numbered(spans: list[Span], sent: float) -> list[Part]:
    """``(label#n, start, end)`` in ms after ``sent``, the nth of a label numbered."""
    seen: dict[str, int] = defaultdict(int)
    out = []
    for s in sorted(spans, key=lambda s: s.start):
        seen[s.label] += 1
        label = s.label if seen[s.label] == 1 else f"{s.label}#{seen[s.label]}"
        end = s.end if s.end is not None else s.start
        out.append((label, (s.start - sent) * 1000, (end - sent) * 1000))
    return out


def uncovered(spans: list[Part], begin: float, end: float) -> float:
    """Milliseconds of ``[begin, end]`` that no drawing, request or store call covers."""
    parts = sorted(
        (a, b)
        for label, a, b in spans
        if label.startswith(("draw:", "REST", "store:", "commit")) and b > a and "sent" not in label
    )
    covered = 0.0
    at = begin
    for a, b in parts:
        a, b = max(a, at), min(b, end)
        if b > a:
            covered += b - a
            at = b
    return max(0.0, end - begin - covered)


@dataclass
class Run:
    """How a game is measured: the seed, where the fake runs, how long the bot idles
    after it starts (its drawing processes warm up meanwhile, as in :mod:`bench_latency`)."""

    seed: int = 1
    on_thread: bool = True
    settle: float = 6.0


async def measure(
    game: str, moves: int, how: Run, url: str | None = None
) -> tuple[list[Timeline], list[tuple[Use, Use]]]:
    """The hand-offs' timelines on SQLite, or on the empty PostgreSQL database at ``url``,
    and each hand-off's board's :class:`Use` beside the same board drawn again alone."""
    rng = random.Random(how.seed)
    timelines = []
    uses: list[tuple[Use, Use]] = []
    async with serving(on_thread=how.on_thread) as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = BotHarness(fake, url or Path(tmp) / "timeline.db")  # type: ignore[arg-type]
            await h.start()
            await settled(how.settle)
            try:
                players = [h.alice, h.bob, h.carol]
                played = 0
                while played < moves:
                    waiting = await h.waiting(players)
                    if not waiting:
                        await new_game(h, game, players)
                        continue
                    user = rng.choice(waiting)
                    action = rng.choice(await h.legal(user))
                    REC.spans = []
                    BOARDS.clear()
                    REC.on = True
                    itx = await h.slash(user, "play", action=action)
                    done = time.monotonic()
                    REC.on = False
                    played += 1
                    if not h.public_of(itx):
                        continue
                    spans = numbered(REC.spans, itx.sent_at)
                    assert h.store is not None
                    row = await h.store.latest_game_in(h.channel.id)
                    assert row is not None
                    inside = BOARDS[:1]
                    BOARDS.clear()
                    again = time.monotonic()
                    await h.running.service.ctx.board(h.running.service.ctx.loaded(row))
                    redrawn = (time.monotonic() - again) * 1000
                    if inside and BOARDS:
                        uses.append((inside[0], BOARDS[0]))
                    spans.append(("(after: the same board drawn again)", -redrawn, 0.0))
                    callback = ((itx.callback_at or itx.sent_at) - itx.sent_at) * 1000
                    total = (done - itx.sent_at) * 1000
                    spans.append(("callback received by the fake", callback, callback))
                    spans.append(("fully answered", total, total))
                    timelines.append((sorted(spans, key=lambda s: s[1]), total))
            finally:
                await h.stop()
    return timelines, uses


#: each game's options and computer seats' levels for ``--computer`` (as the e2e tests)
COMPUTER_GAMES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "tigris": ({}, ("easy",)),
    "tikal": ({"mode": "mini"}, ("easy",)),
    "temple": ({}, ("easy", "easy")),
}
#: the longest a computer's timer is waited for (Temple Rush's answer delay in a race)
COMPUTER_WAIT = 30.0
#: the pause before the computer seats move in a game whose rounds are played at once:
#: Alice, answering at once, would else always be the round's last and hand it off herself
SIMULTANEOUS_PAUSE = 0.3


@dataclass(eq=False)
class PausedHarness(BotHarness):
    """The harness with the computer seats moving ``pause`` seconds after a hand-off."""

    pause: float = 0.0

    def settings(self) -> Settings:
        return dataclasses.replace(super().settings(), computer_pause=self.pause)


async def computer_game(h: BotHarness, game: str) -> None:
    """A new game of Alice against the computer seats of :data:`COMPUTER_GAMES`."""
    options, levels = COMPUTER_GAMES[game]
    await h.slash(h.alice, f"game new {game}", **options)
    for level in levels:
        await h.slash(h.alice, "game add-computer", level=level)
    await h.slash(h.alice, "game start")


async def computers_move(h: BotHarness) -> None:
    """Fire and deliver the computer seats' timers until the game awaits Alice or ends."""
    assert h.store is not None
    waited = 0.0
    while True:
        await h.running.timers.sync()
        row = await h.store.latest_game_in(h.channel.id)
        assert row is not None
        if row.status != "running":
            return
        game = h.running.service.ctx.loaded(row)
        if any(row.seats[s].user_id == h.alice.id for s in game.waiting()):
            return
        due = [t.due_at for t in await h.store.timers(row.id) if t.kind == context.COMPUTER_TIMER]
        pause = max(0.0, min(due, default=0.0) - time.time()) + 0.01
        waited += pause
        if waited > COMPUTER_WAIT:
            raise RuntimeError("the computer seats did not move")
        await asyncio.sleep(pause)


def computer_timelines(spans: list[Span]) -> list[tuple[list[Span], Span, Span]]:
    """Each computer hand-off among ``spans`` that posted a board: its own spans (from
    its timer firing to its last delivery, before the next timer fired), its
    ``timer fired`` span and its ``plans applied`` span."""
    ordered = sorted(spans, key=lambda s: s.start)
    fires = [s for s in ordered if s.label == "timer fired"]
    found = []
    for index, fire in enumerate(fires):
        until = fires[index + 1].start if index + 1 < len(fires) else float("inf")
        own = [s for s in ordered if fire.start <= s.start < until]
        plays = [s for s in own if s.label == "plans applied"]
        boards = [s for s in own if s.label == "draw:render_public"]
        public = [s for s in own if s.label == "deliver: public"]
        if plays and boards and public:
            found.append((own, fire, plays[-1]))
    return found


async def measure_computers(
    game: str, moves: int, how: Run, url: str | None = None
) -> tuple[list[Timeline], list[tuple[Use, Use]]]:
    """The computer seats' hand-offs' timelines (ms after each one's timer fired), with
    the floor's parts: the commit, and the same board drawn again alone."""
    rng = random.Random(how.seed)
    timelines: list[Timeline] = []
    async with serving(on_thread=how.on_thread) as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = PausedHarness(fake, url or Path(tmp) / "timeline.db")  # type: ignore[arg-type]
            if bot_harness.registry()[game].engine.turns is TurnShape.SIMULTANEOUS:
                h.pause = SIMULTANEOUS_PAUSE
            await h.start()
            await settled(how.settle)
            try:
                assert h.store is not None
                played = 0
                await computer_game(h, game)
                while len(timelines) < moves and played < moves * 20:
                    row = await h.store.latest_game_in(h.channel.id)
                    assert row is not None
                    if row.status != "running":
                        await computer_game(h, game)
                        continue
                    REC.spans = []
                    REC.on = True
                    await computers_move(h)
                    legal = await h.legal(h.alice)
                    REC.on = False
                    for own, fire, _ in computer_timelines(REC.spans):
                        parts = numbered(own, fire.start)
                        after = await h.store.latest_game_in(h.channel.id)
                        assert after is not None
                        ctx = h.running.service.ctx
                        again = time.monotonic()
                        await ctx.board(ctx.loaded(after))  # the position Alice now sees
                        redrawn = (time.monotonic() - again) * 1000
                        parts.append(("(after: the same board drawn again)", -redrawn, 0.0))
                        posted = max(b for label, _, b in parts if label.startswith("deliver"))
                        timelines.append((sorted(parts, key=lambda p: p[1]), posted))
                    if legal:
                        await bot_harness.move(h, h.alice, rng.choice(legal), prefer_buttons=False)
                        played += 1
            finally:
                await h.stop()
    return timelines, []


def computer_summary(timelines: list[Timeline]) -> list[str]:
    """Medians of the computer hand-offs: from the timer and from the plans applied to
    the board (the public renderer's image) asked, drawn and posted, and to the DM
    posted (a private delivery that made a request), beside the floor."""
    rows: dict[str, list[float]] = defaultdict(list)
    for parts, _ in timelines:
        first: dict[str, tuple[float, float]] = {}
        for label, a, b in parts:
            first.setdefault(label, (a, b))
        applied = first["plans applied"][0]
        board = first["draw:render_public"]
        commit = first["commit"]
        delivered = first["deliver: public"]
        public = next(  # the public message's request done (its retelling may follow)
            (b for label, a, b in parts if label.startswith("REST POST") and a >= delivered[0]),
            delivered[1],
        )
        private = first.get("deliver: private")
        again = first["(after: the same board drawn again)"][0] * -1
        floor = commit[1] - commit[0] + again
        rows["decided (timer fired -> plans applied)"].append(applied)
        rows["plans applied -> board asked"].append(board[0] - applied)
        rows["plans applied -> commit began"].append(commit[0] - applied)
        rows["plans applied -> commit done"].append(commit[1] - applied)
        rows["plans applied -> board drawn"].append(board[1] - applied)
        rows["plans applied -> board posted"].append(public - applied)
        rows["timer fired -> board posted"].append(public)
        if private is not None and any(
            label.startswith("REST") and private[0] <= a <= private[1] for label, a, _ in parts
        ):
            rows["plans applied -> DM posted"].append(private[1] - applied)
            rows["timer fired -> DM posted"].append(private[1])
            rows["board posted -> DM posted"].append(private[1] - public)
            rows["plans applied -> DM posted, / floor"].append((private[1] - applied) / floor)
        rows["floor: the commit + the same board alone"].append(floor)
        rows["plans applied -> board posted, / floor"].append((public - applied) / floor)
        # a hand-off with private images: whether its public message waited for them
        drawn_private = [
            b
            for label, _, b in parts
            if label.startswith("draw:") and not label.startswith("draw:render_public")
        ]
        if drawn_private:
            rows["with private images: board drawn -> board posted"].append(public - board[1])
            rows["with private images: last private image drawn -> board posted"].append(
                public - max(drawn_private)
            )
            if max(drawn_private) > board[1]:  # one drawn after the board: did it wait?
                rows["a private image drawn after the board: board drawn -> board posted"].append(
                    public - board[1]
                )
    m = statistics.median
    return [f"   {m(v):8.2f}  {label}  [{len(v)}]" for label, v in rows.items()]


def critical_path(timelines: list[Timeline]) -> str:
    """Medians of a hand-off's critical path: until its board is asked (the first image,
    asked first), the board, and from the board drawn to fully answered; beside it
    the floor's parts, the commit and the same board drawn again."""
    asked, board, after, commit, redrawn = [], [], [], [], []
    for spans, total in timelines:
        draws = [(a, b) for label, a, b in spans if label.startswith("draw:")]
        commits = [(a, b) for label, a, b in spans if label == "commit"]
        again = [a for label, a, _ in spans if label.startswith("(after:")]
        if not draws or not commits:
            continue
        start, end = draws[0]
        asked.append(start - commits[0][0])
        board.append(end - start)
        after.append(total - max(b for _, b in draws))
        commit.append(commits[0][1] - commits[0][0])
        redrawn.extend(-a for a in again)
    if not asked:
        return "no hand-off drew an image"
    m = statistics.median
    return (
        f"the board asked {m(asked):+.1f} ms after the commit began (its length "
        f"{m(commit):.1f} ms); the board {m(board):.1f} ms (the same board drawn again "
        f"alone {m(redrawn):.1f} ms); the last image drawn -> fully answered {m(after):.1f} ms"
    )


def board_use(uses: list[tuple[Use, Use]]) -> list[str]:
    """Medians of the hand-offs' boards beside the same boards drawn again alone: where
    each one's wall time went in its drawing process."""
    if not uses:
        return []
    m = statistics.median
    lines = []
    for name, picked in (("in the hand-off", 0), ("drawn again alone", 1)):
        chosen = [pair[picked] for pair in uses]
        lines.append(
            f"   {name:>17}: wall {m(u.wall for u in chosen):5.1f} = on a core "
            f"{m(u.run for u in chosen):5.1f} + waiting for a core "
            f"{m(u.queued for u in chosen):4.1f} + not runnable (the job on its way, "
            f"its answer unread) {m(u.idle for u in chosen):4.1f}"
        )
    lines.append(
        "   each hand-off's board minus its board alone, median: wall "
        f"{m(a.wall - b.wall for a, b in uses):+.1f}, "
        f"on a core {m(a.run - b.run for a, b in uses):+.1f}, "
        f"waiting for a core {m(a.queued - b.queued for a, b in uses):+.1f}, "
        f"not runnable {m(a.idle - b.idle for a, b in uses):+.1f}"
    )
    return lines


def report(
    game: str,
    timelines: list[Timeline],
    show: int,
    db: str = "sqlite",
    computer: bool = False,
    uses: list[tuple[Use, Use]] | None = None,
) -> None:
    if computer:
        print(f"\n== {game}: {len(timelines)} hand-offs by a computer seat's step ({db}) ==")
        if timelines:
            print("-- medians, ms:")
            print("\n".join(computer_summary(timelines)))
        for index, (spans, total) in enumerate(timelines[:show]):
            print(f"-- hand-off {index + 1}: delivered at {total:.1f} ms after its timer fired")
            for label, a, b in spans:
                bar = f"{a:7.1f} -> {b:7.1f} ({b - a:5.1f})" if b > a else f"{a:7.1f}"
                print(f"   {bar}  {label}")
        return
    print(f"\n== {game}: {len(timelines)} hand-offs by /play ({db}) ==")
    if not timelines:
        return
    for index, (spans, total) in enumerate(timelines[:show]):
        print(f"-- hand-off {index + 1}: fully answered at {total:.1f} ms")
        for label, a, b in spans:
            bar = f"{a:7.1f} -> {b:7.1f} ({b - a:5.1f})" if b > a else f"{a:7.1f}"
            print(f"   {bar}  {label}")
    starts: dict[str, list[float]] = defaultdict(list)
    ends: dict[str, list[float]] = defaultdict(list)
    for spans, _ in timelines:
        for label, a, b in spans:
            starts[label].append(a)
            ends[label].append(b)
    print(f"-- medians over the {len(timelines)} hand-offs (start -> end (length), in how many)")
    order = sorted(starts, key=lambda k: statistics.median(starts[k]))
    for label in order:
        a, b = statistics.median(starts[label]), statistics.median(ends[label])
        lengths = [e - s for s, e in zip(starts[label], ends[label], strict=True)]
        length = statistics.median(lengths)
        print(f"   {a:7.1f} -> {b:7.1f} ({length:5.1f})  {label}  [{len(starts[label])}]")
    drawn, tails = [], []
    for spans, total in timelines:
        ends = [b for label, _, b in spans if label.startswith("draw:")]
        if ends:
            drawn.append(max(ends))
            tails.append(total - max(ends))
    callbacks = [
        next(a for label, a, _ in spans if label == "callback received by the fake")
        for spans, _ in timelines
    ]
    print(
        f"-- INTERACTION_CREATE -> the invoker's answer received: median "
        f"{statistics.median(callbacks):.1f} ms; fully answered: median "
        f"{statistics.median(t for _, t in timelines):.1f} ms"
    )
    if tails:
        print(
            f"-- INTERACTION_CREATE -> the last image drawn: median "
            f"{statistics.median(drawn):.1f} ms; the last image drawn -> fully answered: "
            f"median {statistics.median(tails):.1f} ms"
        )
    gaps = []
    for spans, total in timelines:
        committed = next((b for label, _, b in spans if label == "commit"), None)
        if committed is not None:
            gaps.append(uncovered(spans, committed, total))
    if gaps:
        print(
            f"-- from the commit to fully answered, covered by no drawing, request or "
            f"store call: median {statistics.median(gaps):.1f} ms"
        )
    print(f"-- the critical path: {critical_path(timelines)}")
    if uses:
        print(f"-- the board's drawing process (/proc/PID/schedstat), ms, over {len(uses)}:")
        print("\n".join(board_use(uses)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tigris,tikal,temple")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=1)
    parser.add_argument("--db", default="sqlite", help="comma-separated: sqlite,postgres")
    add_fake_argument(parser)
    parser.add_argument(
        "--settle", type=float, default=6.0, help="seconds the bot idles after it starts"
    )
    parser.add_argument(
        "--computer",
        action="store_true",
        help="time the hand-offs of computer seats' steps (Alice plays against them)",
    )
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="ms the fake Discord waits before answering each REST request (a round trip "
        "to Discord, which the loopback fake lacks; 0: none)",
    )
    add_loop_argument(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    instrument()
    if args.latency > 0:
        with_latency(args.latency / 1000)
    timed = measure_computers if args.computer else measure
    how = Run(args.seed, args.fake == "thread", args.settle)
    print(f"load average at start: {Path('/proc/loadavg').read_text().split()[0]}")
    print(f"{where(how.on_thread)}; the bot idles {how.settle:g} s after it starts")
    for db in args.db.split(","):
        if db == "sqlite":
            for game in args.game.split(","):
                timelines, uses = run_on_loop(timed(game, args.moves, how), args.loop)
                report(game, timelines, args.show, db, args.computer, uses)
            continue
        if db != "postgres":
            parser.error(f"unknown database {db!r}")
        from tests.support.postgres import benchmark_server

        with benchmark_server() as server:  # before any event loop
            for game in args.game.split(","):
                url = server.url(server.create_database(migrated=False))
                timelines, uses = run_on_loop(timed(game, args.moves, how, url), args.loop)
                report(game, timelines, args.show, db, args.computer, uses)
    print(f"load average at end: {Path('/proc/loadavg').read_text().split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
