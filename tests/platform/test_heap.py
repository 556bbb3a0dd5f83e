"""The heap alive once the bot is ready is frozen once, and what comes after stays collectable.

Run in a child interpreter: freezing the test process's own heap would keep
every later test's garbage cycles among its objects.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import gc, json, weakref
from bot import heap

class Node:
    pass

kept = [Node() for _ in range(1000)]       # alive at start-up: frozen
first = heap.settle()
second = heap.settle()                      # a reconnect's ready: nothing more
a, b = Node(), Node()                       # made while serving, a garbage cycle
a.other, b.other = b, a
gone = weakref.ref(a)
del a, b
collected = gc.collect()
print(json.dumps({
    "first": None if first is None else [first.frozen, first.full_before_ms, first.full_after_ms],
    "second": second,
    "frozen_now": gc.get_freeze_count(),
    "cycle_collected": gone() is None and collected >= 2,
}))
"""


def _run() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_the_heap_is_frozen_once_and_later_cycles_are_still_collected() -> None:
    answer = _run()
    first = answer["first"]
    assert isinstance(first, list)
    frozen, before_ms, after_ms = first
    assert frozen >= 1000 and frozen == answer["frozen_now"]
    assert before_ms >= 0 and after_ms >= 0
    assert answer["second"] is None
    assert answer["cycle_collected"] is True
