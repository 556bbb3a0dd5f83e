"""The process's heap once it has started: kept out of the garbage collector's full passes.

Decisions:

* Once the bot is ready for the first time (its modules, catalogs, fonts,
  command tree, cogs and discord.py's caches built), :func:`settle` runs one
  full collection and then :func:`gc.freeze`: everything alive at that moment
  moves to the permanent generation, which no later collection walks. A full
  collection otherwise walks every container object of the process, most of
  them these start-up objects that live as long as it does, and it runs on
  the event loop, where every channel waits for it (a picker tap's slowest
  taps were full collections: ``docs/scaling-rounds.md``, "a picker tap's garbage").
* Only once per process: a reconnect's ``on_ready`` freezes nothing more, so
  the games, pickers and messages made while serving stay collectable.
  Objects frozen are still freed by reference counting; only a cycle among
  them that becomes garbage later is kept, and start-up objects do not become
  garbage.
* :func:`settle` measures what it changes: a full collection of the heap
  alive (after one that clears start-up's garbage) before the freeze and one
  after it, and the bot logs both with the count frozen, one
  INFO line (:mod:`bot.discord.lifecycle`).
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass

__all__ = ["Settled", "settle"]


@dataclass(frozen=True)
class Settled:
    """What settling did: the objects frozen, and a full collection's pause before
    and after (ms)."""

    frozen: int
    full_before_ms: float
    full_after_ms: float


def _full_collection_ms() -> float:
    started = time.perf_counter()
    gc.collect()
    return (time.perf_counter() - started) * 1000


def settle() -> Settled | None:
    """Freeze the heap alive now, once per process (None when it was already done)."""
    if gc.get_freeze_count():
        return None
    gc.collect()  # start-up's garbage, so that the pause timed next is the heap's own
    before = _full_collection_ms()
    gc.freeze()
    frozen = gc.get_freeze_count()
    return Settled(frozen, before, _full_collection_ms())
