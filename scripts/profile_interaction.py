"""Where one interaction's time goes on the event loop: a profile, and what it costs.

Prints, for each kind of interaction, the event loop's own CPU time for it
(``time.thread_time`` of the loop's thread: the engine threads, the drawing
processes and the fake Discord are not counted), the statements it sent to
the database, how many times it loaded the game, the Python function calls
the loop made for it (``cProfile``'s count, which a busy machine does not
change as it changes times), and the profile's top
entries (``cProfile`` on the loop's thread, by own time); asserts nothing.

* ``service``: a move through :class:`~bot.service.GameService` with images
  off (``service.play.act``, as ``bench_scale.py`` drives it), Tigris &
  Euphrates games of two players, ``--games`` stored (1,000);
* ``adapter``: the real bot against the fake Discord on loopback (the
  fake runs in a thread of its own, with its own event loop, so the
  profile is the bot's alone), a 3-player Tigris & Euphrates game: ``/play``
  moves, and taps of the move picker (the Play button, then the picker's
  options until a step is played); then, in another channel, the shard cluster
  benchmark's sealed plays (the Oracle test game, two players; a round's first
  play and its last apart) and the round winners' decisions; ``/help`` beside
  them as the floor.

``--db``: ``sqlite`` (a file in a temporary folder) or ``postgres`` (a
throwaway server, :mod:`tests.support.postgres`, ``fsync`` on).

``--seed N`` deals the adapter part's games from one seeded generator (the bot
deals each game a random seed), so that two runs, of two versions of the code,
play the same games and their counts compare kind by kind.

Usage: ``python scripts/profile_interaction.py [--part service,adapter]
[--db sqlite] [--moves 200] [--sealed 100] [--top 25] [--dump DIR] [--seed N]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import logging
import pstats
import random
import re
import statistics
import sys
import sysconfig
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from loops import add_loop_argument, run  # noqa: E402

from bot import heap, plugins  # noqa: E402
from bot.service import GameService, Player  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.e2e.fake_thread import FakeThread  # noqa: E402

T = TypeVar("T")
#: where each kind's profiles are written together (``--dump``), else None
DUMP: Path | None = None
#: whether every other interaction is profiled (``--no-cprofile``: none, for a sampling
#: profiler such as py-spy attached from outside, which cProfile's hooks would distort)
PROFILE = True


class Meter:
    """The loop thread's CPU time, statements and game loads, per interaction kind, and
    each kind's profile."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: per interaction measured: its kind, and its loop CPU ms (None: profiled) or profile
        self.runs: list[tuple[str, float | None, cProfile.Profile | None, int, int]] = []
        self._statements = 0
        self._loads = 0
        self._turn = False
        self.texts: Counter[str] = Counter()
        self._sent: list[str] = []
        #: per interaction measured without the profiler: its kind, the loop thread's
        #: time in the cyclic garbage collector (ms) and its full (generation 2) collections
        self.collections: list[tuple[str, float, int]] = []
        self._gc = [0.0, 0]  # the loop's collector time (s) and full collections so far
        self._gc_began: float | None = None
        #: each full collection's pause on the loop's thread (ms), in order
        self.full_pauses: list[float] = []
        self._loop_thread = threading.get_ident()
        gc.callbacks.append(self._collecting)
        #: per interaction measured: its kind, and the statements it sent (first words)
        self.statements: list[tuple[str, list[str]]] = []
        #: per interaction measured: its kind, and the REST requests it sent (method and route)
        self.requests: list[tuple[str, list[str]]] = []
        for name in ("open_game_in", "get_game"):
            original = getattr(store, name)

            async def counted(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                self._loads += 1
                return await _original(*args, **kwargs)

            setattr(store, name, counted)

    def traced(self, sql: str) -> None:
        self._statements += 1
        self.texts[" ".join(sql.split()[:3])] += 1
        # a PostgreSQL plan's script is traced once, as its statements joined
        self._sent.append(" ".join(sql.split()[:3]) + (" (script)" if ";\n" in sql else ""))

    def _collecting(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` hook: the time the loop's thread spends collecting."""
        if threading.get_ident() != self._loop_thread:
            return
        if phase == "start":
            self._gc_began = time.thread_time()
        elif self._gc_began is not None:
            spent = time.thread_time() - self._gc_began
            self._gc[0] += spent
            if info.get("generation") == 2:
                self._gc[1] += 1
                self.full_pauses.append(spent * 1000)
            self._gc_began = None

    async def start(self) -> None:
        await self.store.trace(self.traced)

    async def measure(self, kind: str, work: Awaitable[T]) -> T:
        """Run ``work``; every other interaction is profiled, the others give the CPU
        figures (the profiler's own cost left out of them). A statement reaches the trace
        on the loop's turn after it ran (asyncpg's query logger): one turn before and
        after the work, so that each is counted with the interaction that sent it."""
        await asyncio.sleep(0)
        del self._sent[:]
        statements, loads, sent = self._statements, self._loads, len(self._sent)
        self._turn = profiled = not self._turn and PROFILE
        profile = cProfile.Profile(time.thread_time) if profiled else None
        gc_began, full_began = self._gc
        began = time.thread_time()
        if profile is not None:
            profile.enable()
        try:
            return await work
        finally:
            if profile is not None:
                profile.disable()
            cpu = None if profiled else (time.thread_time() - began) * 1000
            await asyncio.sleep(0)
            self.runs.append(
                (kind, cpu, profile, self._statements - statements, self._loads - loads)
            )
            self.statements.append((kind, self._sent[sent:]))
            del self._sent[:]
            if not profiled:
                gc_time, full = self._gc
                self.collections.append((kind, (gc_time - gc_began) * 1000, full - full_began))

    def requested(self, kind: str, routes: list[str]) -> None:
        """Note the REST requests the bot sent to the fake Discord for the last interaction."""
        self.requests.append((kind, routes))

    def relabel(self, new: str) -> None:
        """File the last interaction measured under kind ``new``."""
        _, *rest = self.runs[-1]
        self.runs[-1] = (new, *rest)  # type: ignore[assignment]
        self.statements[-1] = (new, self.statements[-1][1])
        if self.requests:
            self.requests[-1] = (new, self.requests[-1][1])

    def report(self, top: int) -> None:
        kinds = list(dict.fromkeys(kind for kind, *_ in self.runs))
        for kind in kinds:
            mine = [run for run in self.runs if run[0] == kind]
            times = [cpu for _, cpu, *_ in mine if cpu is not None] or [float("nan")]
            statements = [run[3] for run in mine]
            loads = [run[4] for run in mine]
            calls = [pstats.Stats(run[2]).total_calls for run in mine if run[2] is not None]  # type: ignore[attr-defined]
            print(
                f"{kind}: n={len(mine)}, the loop's CPU median {statistics.median(times):.2f} ms,"
                f" mean {statistics.mean(times):.2f} ms; statements median "
                f"{statistics.median(statements):.0f}; game loads median "
                f"{statistics.median(loads):.0f}, max {max(loads)}; Python calls on the loop"
                f" (profiled ones) median {statistics.median(calls or [0]):.0f}",
                flush=True,
            )
        for kind in kinds:
            mine_gc = [(ms, full) for k, ms, full in self.collections if k == kind]
            if mine_gc:
                print(
                    f"{kind}: the loop's time in the garbage collector median"
                    f" {statistics.median(ms for ms, _ in mine_gc):.2f} ms, mean"
                    f" {statistics.mean(ms for ms, _ in mine_gc):.2f} ms; full collections"
                    f" {sum(full for _, full in mine_gc)} in {len(mine_gc)} interactions",
                    flush=True,
                )
        shown = ", ".join(f"{ms:.1f}" for ms in self.full_pauses) or "none"
        print(f"full collections on the loop (ms each, set-up's included): {shown}", flush=True)
        for kind in kinds:
            sent = [routes for k, routes in self.requests if k == kind]
            if not sent:
                continue
            counts = [len(routes) for routes in sent]
            print(
                f"{kind}: REST requests median {statistics.median(counts):.0f},"
                f" mean {statistics.mean(counts):.2f}; the commonest sequences:",
                flush=True,
            )
            for sequence, n in Counter(" | ".join(r) for r in sent).most_common(5):
                print(f"  {n}x {sequence}", flush=True)
        for kind in kinds:
            sequences = Counter(" | ".join(sent) for k, sent in self.statements if k == kind)
            print(f"{kind}: the commonest statement sequences:", flush=True)
            for sequence, n in sequences.most_common(2):
                print(f"  {n}x {sequence or '(none)'}", flush=True)
        for kind in kinds:
            profiles = [p for k, _, p, *_ in self.runs if k == kind and p is not None]
            if not profiles or top <= 0:
                continue
            out = io.StringIO()
            stats = pstats.Stats(profiles[0], stream=out)
            for profile in profiles[1:]:
                stats.add(profile)
            if DUMP is not None:  # the kind's profiles together, for pstats to read
                stats.dump_stats(str(DUMP / f"{re.sub(r'[^a-z0-9]+', '_', kind.lower())}.prof"))
            shares = _calls_by_library(stats.stats, len(profiles))  # type: ignore[attr-defined]
            print(f"{kind}: a profiled interaction by library (own time, under cProfile): {shares}")
            stats.strip_dirs().sort_stats("tottime").print_stats(top)
            stats.sort_stats("cumulative").print_stats(top)
            print(f"-- the profile of {kind} ({len(profiles)} profiled; cProfile, loop thread)")
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip()))


#: the libraries a profile's calls are counted by, each a path part that marks its files
_LIBRARIES = ("discord", "aiohttp", "asyncpg", "asyncio", "bot", "tests")
#: the standard library's folder (its modules other than asyncio are counted as ``stdlib``)
_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()


def _library(path: str) -> str:
    """The library a profiled function belongs to: one of :data:`_LIBRARIES`, ``builtins``
    (C functions and methods: the time in them is the caller's CPU per call), ``stdlib``,
    else ``other``."""
    if path == "~":
        return "builtins"
    parts = Path(path).parts
    found = next((name for name in _LIBRARIES if name in parts), None)
    if found is not None:
        return found
    with contextlib.suppress(ValueError, OSError):
        Path(path).resolve().relative_to(_STDLIB)
        return "stdlib"
    return "other"


def _calls_by_library(entries: dict[Any, Any], runs: int) -> str:
    """Calls and own time (``tottime``, ms) a run, per library (:func:`_library`), most
    time first: where the CPU per call is, not only the calls."""
    counts: Counter[str] = Counter()
    own: Counter[str] = Counter()
    for (path, _line, _name), (_primitive, calls, tottime, *_rest) in entries.items():
        library = _library(path)
        counts[library] += calls
        own[library] += tottime
    return ", ".join(
        f"{name} {counts[name] / runs:.0f} calls {own[name] * 1000 / runs:.2f} ms"
        for name, _ in own.most_common()
    )


def _route(record: Any, fake: Any) -> str:
    """A request as its method and path, snowflakes and tokens replaced by placeholders
    (a DM channel's by ``{dm}``), its query and the status it was answered with."""
    path = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", record.path)
    found = re.search(r"/channels/(\d+)", path)
    channel = fake.channels.get(int(found[1])) if found else None
    if found is not None and channel is not None and channel.is_dm:
        path = path.replace(found[1], "{dm}")
    path = re.sub(r"/webhooks/\d+/[^/]+", "/webhooks/{app}/{token}", path)
    path = re.sub(r"/\d+", "/{id}", path)
    query = "&".join(f"{k}={v}" for k, v in sorted(record.query.items()))
    return f"{record.method} {path}{'?' if query else ''}{query} {record.status}"


# -- the service alone ----------------------------------------------------------------------


async def service_part(location: str, moves: int, top: int, games: int = 1000) -> None:
    from bench_scale import create_games, next_move

    registry = plugins.load_builtin_games()
    store = await Store.open(location)
    try:
        service = GameService(store, registry, render=False)
        await create_games(service, range(1, games + 1))
        meter = Meter(store)
        await meter.start()
        rng = random.Random(1)
        for channel in rng.sample(range(1, games + 1), moves):
            player, action = await next_move(service, channel, rng)
            await meter.measure(
                "a move (service.play.act, no image)", service.play.act(channel, player, action)
            )
        await store.trace(None)
        print(f"statements of {moves} moves: {dict(meter.texts.most_common(12))}")
        meter.report(top)
    finally:
        await store.close()


# -- the adapter, against the fake Discord in a thread of its own ---------------------------


@contextlib.contextmanager
def postgres_url() -> Iterator[str]:
    from tests.support.postgres import benchmark_server

    with benchmark_server() as server:
        yield server.url(server.create_database(migrated=False))


async def adapter_part(location: str, moves: int, top: int, sealed_moves: int) -> None:
    from bot.config import Settings
    from bot.discord.client import create_bot
    from tests.e2e.bot_harness import registry

    side = FakeThread()
    fake = await side.start()
    guild = fake.add_guild("Profile")
    channel = fake.add_channel(guild, "games")
    sealed = fake.add_channel(guild, "sealed")
    users = [fake.add_user(name) for name in ("alice", "bob", "dora")]
    store = await Store.open(location)
    bot: Any = None
    task: asyncio.Task[None] | None = None
    try:
        with fake.patched():
            settings = Settings(
                token=fake.token,
                database=Path(location) if "://" not in location else location,  # type: ignore[arg-type]
                dev_guild_id=guild.id,
                log_level="ERROR",
                turn_deadline_hours=24.0,
                computer_pause=0.0,
            )
            bot = await create_bot(settings, store, registry(), guild_ready_timeout=0.05)
            task = asyncio.create_task(bot.start(fake.token))
            await side.call(fake.wait_ready(15))
            await bot.wait_until_ready()
            heap.settle()  # as the bot process does once ready (bot.discord.lifecycle)
            await drive(
                side, fake, bot, store, (channel, sealed), users, (moves, sealed_moves), top
            )
    finally:
        if bot is not None:
            await bot.close()
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 10)
        await store.close()
        await side.stop()


async def drive(
    side: FakeThread,
    fake: Any,
    bot: Any,
    store: Store,
    channels: tuple[Any, Any],
    users: list[Any],
    counts: tuple[int, int],
    top: int,
) -> None:
    channel, sealed = channels
    moves, sealed_moves = counts
    logging.getLogger().setLevel(logging.ERROR)
    meter = Meter(store)
    await meter.start()
    rng = random.Random(1)

    async def run(kind: str, send: Coroutine[Any, Any, Any]) -> Any:
        async def one() -> Any:
            itx = await side.call(send)
            await bot.wait_interaction_done(itx.id, 15)
            return itx

        before = len(fake.requests)
        itx = await meter.measure(kind, one())
        meter.requested(kind, [_route(r, fake) for r in fake.requests[before:]])
        return itx

    async def slash(user: Any, command: str, **options: Any) -> Any:
        itx = await side.call(fake.slash(user, channel, command, **options))
        await bot.wait_interaction_done(itx.id, 15)
        return itx

    for _ in range(30):
        await run("/help (the floor)", fake.slash(users[0], channel, "help"))

    async def new_game() -> None:
        await slash(users[0], "game new tigris")
        for user in users[1:]:
            await slash(user, "game join")
        await slash(users[0], "game start")

    async def awaited() -> list[Any]:
        row = await store.latest_game_in(channel.id)
        if row is None or row.status != "running":
            return []
        engine = bot.service.registry[row.game_type].engine
        ids = {row.seats[s].user_id for s in engine.waiting_for(engine.load_state(row.state))}
        return [u for u in users if u.id in ids]

    played = 0
    while played < moves:  # /play
        waiting = await awaited()
        if not waiting:
            await new_game()
            continue
        user = rng.choice(waiting)
        legal = await bot.service.reading.legal_actions(channel.id, Player(user.id, user.name))
        action = str(rng.choice(legal))
        await run("/play", fake.slash(user, channel, "play", action=action))
        played += 1

    def newest_play() -> tuple[Any, str] | None:
        for message in reversed(fake.messages_in(channel)):
            ids = [c for c in message.custom_ids() if c.startswith("zg:play:")]
            if ids:
                return message, ids[0]
        return None

    taps = 0
    while taps < moves:  # the move picker: Play, then options until a step is played
        waiting = await awaited()
        found = newest_play()
        if not waiting or found is None:
            await new_game()
            continue
        user = rng.choice(waiting)
        message, play = found
        itx = await run("tap: Play (opens the picker)", fake.click(user, message, play))
        taps += 1
        pickers = [m for m in itx.messages if m.ephemeral]
        if not pickers:
            continue
        picker = pickers[0]
        for _ in range(12):
            choices = [
                c
                for c in picker.walk_components()
                if str(c.get("custom_id", "")).startswith("zg:pick:")
                and not str(c.get("custom_id")).endswith((":r", ":u"))
            ]
            if not choices:
                break
            comp = rng.choice(choices)
            if comp.get("type") == 3:
                values = [o["value"] for o in comp["options"]]
                low = comp.get("min_values", 1)
                chosen = rng.sample(values, low)
                send = fake.select(user, picker, comp["custom_id"], chosen)
            else:
                send = fake.click(user, picker, comp["custom_id"])
            now = (await store.latest_game_in(channel.id)).version  # type: ignore[union-attr]
            await run("tap: an option", send)
            taps += 1
            after = (await store.latest_game_in(channel.id)).version  # type: ignore[union-attr]
            if after != now:
                meter.relabel("tap: an option that plays a step")
                break

    async def slash_sealed(user: Any, command: str, **options: Any) -> Any:
        itx = await side.call(fake.slash(user, sealed, command, **options))
        await bot.wait_interaction_done(itx.id, 15)
        return itx

    await sealed_plays(run, slash_sealed, fake, bot, store, sealed, users, sealed_moves)
    print(f"statements of the run: {dict(meter.texts.most_common(12))}")
    meter.report(top)


async def sealed_plays(
    run: Callable[[str, Coroutine[Any, Any, Any]], Awaitable[Any]],
    slash: Callable[..., Awaitable[Any]],
    fake: Any,
    bot: Any,
    store: Store,
    channel: Any,
    users: list[Any],
    moves: int,
) -> None:
    """The shard cluster benchmark's interaction (``bench_cluster.py``): sealed plays
    of the Oracle test game, two players, "your turn" by DM, each playing their highest
    card; a round's first play is a submission (its tally edited), its last reveals the
    round (a hand-off); the round's winner's decision beside them."""
    first, second = users[0], users[1]
    for user in (first, second):
        await slash(user, "game notify", how="dm")
    played = 0
    while played < moves:
        row = await store.latest_game_in(channel.id)
        if row is None or row.status != "running":
            await slash(first, "game new oracle")
            await slash(second, "game join")
            await slash(first, "game start")
            continue
        engine = bot.service.registry[row.game_type].engine
        state = engine.load_state(row.state)
        waiting = sorted(engine.waiting_for(state))
        seat = waiting[0]
        user = first if row.seats[seat].user_id == first.id else second
        action = str(engine.legal_actions(state, seat)[-1])  # the highest card
        if not action.startswith("play"):
            await run("a decision (/play claim)", fake.slash(user, channel, "play", action=action))
            continue
        kind = "sealed play: the round's last" if len(waiting) == 1 else "sealed play: a submission"
        await run(kind, fake.slash(user, channel, "play", action=action))
        played += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--part", default="service,adapter")
    parser.add_argument("--db", default="sqlite", choices=("sqlite", "postgres"))
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--games", type=int, default=1000, help="games stored (service part)")
    parser.add_argument(
        "--sealed", type=int, default=None, help="sealed plays (adapter part; --moves / 2)"
    )
    parser.add_argument(
        "--dump", type=Path, default=None, help="a folder: each kind's profile as a .prof file"
    )
    parser.add_argument(
        "--no-cprofile",
        dest="cprofile",
        action="store_false",
        help="profile no interaction (every one gives CPU figures; for a sampling profiler)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="deal the adapter part's games from this seed (default: random, as the bot)",
    )
    add_loop_argument(parser)
    args = parser.parse_args()
    global DUMP, PROFILE
    DUMP, PROFILE = args.dump, args.cprofile
    if DUMP is not None:
        DUMP.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        if args.seed is not None:  # the lobby deals a game's seed from random.SystemRandom()
            dealer = random.Random(args.seed)
            stack.enter_context(mock.patch.object(random, "SystemRandom", lambda: dealer))
        for part in args.part.split(","):
            if args.db == "postgres":
                location = stack.enter_context(postgres_url())
            else:
                location = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "p.db")
            print(f"== {part} on {args.db}, {args.moves} moves", flush=True)
            if part == "service":
                run(service_part(location, args.moves, args.top, args.games), args.loop)
            else:
                sealed = args.moves // 2 if args.sealed is None else args.sealed
                run(adapter_part(location, args.moves, args.top, sealed), args.loop)


if __name__ == "__main__":
    main()
