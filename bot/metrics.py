"""Prometheus metrics, served over HTTP when ``ZIGGURAT_METRICS_PORT`` is set; else nothing.

The bot records what it does through the module functions (:func:`command`,
:func:`step`, :func:`image`, :func:`drawing_queued`, :func:`timer`); they
do nothing until :func:`serve` started the endpoint (``GET /metrics`` on
that port), so the code that records never asks whether metrics are on.

Metrics (``ziggurat_`` prefix):

* ``commands_total{verb, outcome}``: every handled command, button or menu
  click; ``outcome`` is ``ok``, ``refused``, ``conflict``, ``error`` or
  ``expired`` (not acknowledged within Discord's 3 seconds, so not run);
  ``verb`` is the command (``game.new``, ``play``) or the button kind
  (``button.act``), never what a button plays;
* ``refusals_total{reason}``: refused commands by their catalog key;
* ``command_seconds{outcome}``: a command's whole answer, delivery included;
* ``step_seconds``: the service's work for a command that played a step
  (load, rules, commit, images), without the delivery to Discord;
* ``image_seconds{pool}``: one image, from its request to its PNG, waiting
  for a drawing process included (``pool``: ``process``, or ``thread`` for
  the fallback of :mod:`bot.service.drawing`);
* ``drawing_queue``: images submitted to the drawing pool and not yet drawn;
* ``timers_fired_total{kind, outcome}`` and ``timer_lateness_seconds``: fired
  timers and how long after their due time; ``timers_overdue_total{kind}``
  counts those fired more than :data:`OVERDUE_AFTER` seconds late (a
  blocked timer task, a bot that was down);
* ``open_games{game_type, status}``: lobbies and running games, counted from
  the store when scraped (:class:`OpenGames`).

Decisions:

* One registry per :func:`serve` (not prometheus-client's global one), so a
  process can stop and start the endpoint (tests do) without duplicate
  metrics; counters start at zero with the process, as Prometheus expects.
* Disabled is the default: the record functions then cost one attribute
  look-up. Metrics never carry a game id, a user or anything a move holds:
  labels are bounded sets (verbs, outcomes, catalog keys, timer kinds, game
  types).
* Open games are counted on demand: the HTTP thread asks the bot's event
  loop to count them (at most :data:`COUNT_TIMEOUT` seconds, else the gauge
  is left out of that scrape and a warning logged). Ids are listed by
  status, and each new id's game type is read once and remembered (a game's
  type never changes), so a scrape costs two queries once the ids are known.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

    from prometheus_client import CollectorRegistry

    from bot.store import Store

log = logging.getLogger(__name__)

PREFIX = "ziggurat"
#: a timer fired later than this after its due time counts as overdue
OVERDUE_AFTER = 60.0
#: seconds the HTTP thread waits for the event loop to count the open games
COUNT_TIMEOUT = 5.0
#: buckets (seconds) for command, step and image latencies
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: buckets (seconds) for a timer's lateness
LATENESS_BUCKETS = (0.1, 1.0, 5.0, 30.0, 60.0, 300.0, 3600.0)
#: the statuses of an open game
OPEN_STATUSES = ("lobby", "running")


class Recorder:
    """The metrics, when served; every method is a no-op on the base class."""

    def command(self, verb: str, outcome: str, seconds: float, reason: str | None) -> None:
        pass

    def step(self, seconds: float) -> None:
        pass

    def image(self, pool: str, seconds: float) -> None:
        pass

    def drawing_queued(self, change: int) -> None:
        pass

    def timer(self, kind: str, outcome: str, lateness: float) -> None:
        pass


class Prometheus(Recorder):
    """The metrics in their own registry (see the module docstring)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry: CollectorRegistry = CollectorRegistry()
        r = self.registry
        self.commands = Counter(
            f"{PREFIX}_commands", "Handled commands and clicks", ["verb", "outcome"], registry=r
        )
        self.refusals = Counter(
            f"{PREFIX}_refusals", "Refused commands by reason", ["reason"], registry=r
        )
        self.command_seconds = Histogram(
            f"{PREFIX}_command_seconds",
            "A command's whole answer, delivery included",
            ["outcome"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.step_seconds = Histogram(
            f"{PREFIX}_step_seconds",
            "The service's work for a command that played a step",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.image_seconds = Histogram(
            f"{PREFIX}_image_seconds",
            "One image, queueing included",
            ["pool"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.queue = Gauge(
            f"{PREFIX}_drawing_queue", "Images submitted and not yet drawn", registry=r
        )
        self.timers = Counter(
            f"{PREFIX}_timers_fired", "Fired timers", ["kind", "outcome"], registry=r
        )
        self.lateness = Histogram(
            f"{PREFIX}_timer_lateness_seconds",
            "How long after its due time a timer fired",
            buckets=LATENESS_BUCKETS,
            registry=r,
        )
        self.overdue = Counter(
            f"{PREFIX}_timers_overdue",
            f"Timers fired more than {OVERDUE_AFTER:g} s after their due time",
            ["kind"],
            registry=r,
        )

    def command(self, verb: str, outcome: str, seconds: float, reason: str | None) -> None:
        self.commands.labels(verb, outcome).inc()
        self.command_seconds.labels(outcome).observe(seconds)
        if reason is not None:
            self.refusals.labels(reason).inc()

    def step(self, seconds: float) -> None:
        self.step_seconds.observe(seconds)

    def image(self, pool: str, seconds: float) -> None:
        self.image_seconds.labels(pool).observe(seconds)

    def drawing_queued(self, change: int) -> None:
        self.queue.inc(change)

    def timer(self, kind: str, outcome: str, lateness: float) -> None:
        self.timers.labels(kind, outcome).inc()
        self.lateness.observe(max(0.0, lateness))
        if lateness > OVERDUE_AFTER:
            self.overdue.labels(kind).inc()


class OpenGames:
    """A collector of ``open_games{game_type, status}``, counted on the bot's loop."""

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop
        self.types: dict[int, str] = {}

    async def count(self) -> dict[tuple[str, str], int]:
        counts: dict[tuple[str, str], int] = {}
        seen: set[int] = set()
        for status in OPEN_STATUSES:
            for game_id in await self.store.game_ids((status,)):
                game_type = self.types.get(game_id)
                if game_type is None:
                    row = await self.store.get_game(game_id)
                    if row is None:
                        continue
                    game_type = self.types[game_id] = row.game_type
                seen.add(game_id)
                counts[game_type, status] = counts.get((game_type, status), 0) + 1
        for gone in set(self.types) - seen:
            del self.types[gone]
        return counts

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        try:
            future = asyncio.run_coroutine_threadsafe(self.count(), self.loop)
            counts = future.result(COUNT_TIMEOUT)
        except Exception as exc:  # a closed loop, a timeout, a store error: skip this scrape
            log.warning("could not count the open games for the metrics: %r", exc)
            return
        family = GaugeMetricFamily(
            f"{PREFIX}_open_games", "Lobbies and running games", labels=["game_type", "status"]
        )
        for (game_type, status), value in sorted(counts.items()):
            family.add_metric([game_type, status], value)
        yield family


_DISABLED = Recorder()
_current: Recorder = _DISABLED
_server: WSGIServer | None = None
_open_games: OpenGames | None = None


def recorder() -> Recorder:
    """The metrics being recorded now (the no-op :class:`Recorder` when not served)."""
    return _current


def registry() -> CollectorRegistry | None:
    """The served registry, or None."""
    return _current.registry if isinstance(_current, Prometheus) else None


def serve(port: int | None, address: str = "0.0.0.0") -> bool:
    """Serve the metrics on ``port`` (nothing when None); True when serving.

    Idempotent while serving. Raises OSError when the port cannot be bound.
    """
    global _current, _server
    if port is None:
        return False
    if _server is not None:
        return True
    from prometheus_client import start_http_server

    metrics = Prometheus()
    server, _ = start_http_server(port, address, registry=metrics.registry)
    _current, _server = metrics, server
    log.info("serving Prometheus metrics on port %s", server.server_port)
    return True


def stop() -> None:
    """Stop serving and recording (the next :func:`serve` starts from zero)."""
    global _current, _server, _open_games
    server, _server = _server, None
    _current, _open_games = _DISABLED, None
    if server is not None:
        server.shutdown()
        server.server_close()


def watch_open_games(store: Store, loop: asyncio.AbstractEventLoop) -> None:
    """Count ``store``'s open games (on ``loop``) at each scrape; replaces an earlier store."""
    global _open_games
    served = registry()
    if served is None:
        return
    if _open_games is not None:
        served.unregister(_open_games)
    _open_games = OpenGames(store, loop)
    served.register(_open_games)


# -- recording (no-ops unless served) ---------------------------------------------------


def command(verb: str, outcome: str, seconds: float, reason: str | None = None) -> None:
    _current.command(verb, outcome, seconds, reason)


def step(seconds: float) -> None:
    _current.step(seconds)


def image(pool: str, seconds: float) -> None:
    _current.image(pool, seconds)


def drawing_queued(change: int) -> None:
    _current.drawing_queued(change)


def timer(kind: str, outcome: str, lateness: float) -> None:
    _current.timer(kind, outcome, lateness)
