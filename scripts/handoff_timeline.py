"""Where the time of one hand-off goes: a timeline from INTERACTION_CREATE to fully answered.

Usage: ``python scripts/handoff_timeline.py [--game tigris,tikal,temple] [--moves 40]
[--seed 1] [--show 1] [--db sqlite,postgres]``

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
the fake's included, since it shares the loop), and the critical path: when the
board (the first image) was asked after the commit began, how long it took beside
the same board drawn again alone, and what followed the last image. Measurement
only: the wrapping is done here, the bot is unchanged.
"""

from __future__ import annotations

import argparse
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
from bench_latency import new_game  # noqa: E402
from loops import add_loop_argument, run  # noqa: E402

from bot.discord import delivery as delivery_module  # noqa: E402
from bot.discord.interactions import Responder  # noqa: E402
from bot.service import announce, context, drawing, memory, play  # noqa: E402
from tests.e2e.bot_harness import BotHarness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402

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


async def measure(game: str, moves: int, seed: int, url: str | None = None) -> list[Timeline]:
    """The hand-offs' timelines on SQLite, or on the empty PostgreSQL database at ``url``."""
    rng = random.Random(seed)
    timelines = []
    async with FakeDiscord() as fake:
        with fake.patched(), tempfile.TemporaryDirectory() as tmp:
            h = BotHarness(fake, url or Path(tmp) / "timeline.db")  # type: ignore[arg-type]
            await h.start()
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
                    again = time.monotonic()
                    await h.running.service.ctx.board(h.running.service.ctx.loaded(row))
                    redrawn = (time.monotonic() - again) * 1000
                    spans.append(("(after: the same board drawn again)", -redrawn, 0.0))
                    callback = ((itx.callback_at or itx.sent_at) - itx.sent_at) * 1000
                    total = (done - itx.sent_at) * 1000
                    spans.append(("callback received by the fake", callback, callback))
                    spans.append(("fully answered", total, total))
                    timelines.append((sorted(spans, key=lambda s: s[1]), total))
            finally:
                await h.stop()
    return timelines


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


def report(game: str, timelines: list[Timeline], show: int, db: str = "sqlite") -> None:
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tigris,tikal,temple")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=1)
    parser.add_argument("--db", default="sqlite", help="comma-separated: sqlite,postgres")
    add_loop_argument(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    instrument()
    print(f"load average at start: {Path('/proc/loadavg').read_text().split()[0]}")
    for db in args.db.split(","):
        if db == "sqlite":
            for game in args.game.split(","):
                report(game, run(measure(game, args.moves, args.seed), args.loop), args.show)
            continue
        if db != "postgres":
            parser.error(f"unknown database {db!r}")
        from tests.support.postgres import benchmark_server

        with benchmark_server() as server:  # before any event loop
            for game in args.game.split(","):
                url = server.url(server.create_database(migrated=False))
                timelines = run(measure(game, args.moves, args.seed, url), args.loop)
                report(game, timelines, args.show, db)
    print(f"load average at end: {Path('/proc/loadavg').read_text().split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
