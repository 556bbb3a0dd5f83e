"""A worker process's heap is frozen once it is ready (after its warm-up, before its
first job), and what it makes afterwards stays collectable."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from bot.service import workers


class Node:
    """A container object the collector tracks."""

    other: Node | None = None


#: what a worker's warm-up filled (a renderer's cache, in small)
WARMED: list[Node] = []


def _fill(_: Callable[[], bool]) -> None:
    WARMED.extend(Node() for _ in range(1000))


def _tracked_ids() -> set[int]:
    return {id(o) for o in gc.get_objects()}


def _heap(_: int) -> tuple[int, bool, int, bool]:
    """In the worker: objects frozen, whether the warm-up's cache is among the objects
    a collection walks, how many of its nodes are, and whether a garbage cycle made
    now is collected."""
    tracked = _tracked_ids()
    walked = sum(id(node) in tracked for node in WARMED)
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    return gc.get_freeze_count(), id(WARMED) in tracked, walked, gone() is None


def _frozen(_: int) -> int:
    return gc.get_freeze_count()


@pytest.fixture
def pools() -> Iterator[list[workers.WorkerPool]]:
    made: list[workers.WorkerPool] = []
    yield made
    for pool in made:
        running = pool._running
        if running is not None:
            running.close()
        pool.threads.shutdown(wait=False)


async def test_what_the_warm_up_filled_is_frozen_and_later_garbage_collected(
    pools: list[workers.WorkerPool],
) -> None:
    pool = workers.WorkerPool(1, "ziggurat-test-frozen")
    pool.warm = _fill
    pools.append(pool)
    (frozen, cache_walked, nodes_walked, cycle_collected), where = await pool.run(_heap, 0)
    assert where == "process"
    assert frozen > 1000  # the modules and the warm-up's 1,000 nodes
    assert not cache_walked and nodes_walked == 0
    assert cycle_collected
    assert gc.get_freeze_count() == 0  # the test process itself froze nothing


async def test_a_worker_without_a_warm_up_freezes_once_too(
    pools: list[workers.WorkerPool],
) -> None:
    pool = workers.WorkerPool(1, "ziggurat-test-frozen-cold")
    pools.append(pool)
    (first, where), (again, _) = [await pool.run(_frozen, 0) for _ in range(2)]
    assert where == "process" and first > 0
    assert again == first  # once: what its jobs make is never frozen
