"""Where images are drawn: a pool of processes, one per core.

Decisions:

* Drawing is mostly Python, so drawing threads would share the interpreter
  with the bot's own work: ``scripts/bench_scale.py`` measured 100
  simultaneous moves with images at 74% of what the cores allow on threads
  and 86–90% on processes. A bounded pool also bounds the memory drawing takes.
* The processes come from a fork server: forking the bot itself would copy
  its threads' locks (aiosqlite's, the logger's) in whatever state they
  were. The bot starts them when it starts (:func:`warm_up`), with the
  renderers' modules imported once in the fork server, so the first board
  is not late by the imports; elsewhere (the demo, tests) they start on
  first use.
* A drawing process exits as soon as the bot's process is gone, even when
  the bot was killed (SIGKILL, an OOM kill): otherwise the processes, and the
  fork server that waits for them, would outlive it holding its output.
* A renderer that cannot be sent to another process (a closure, as tests
  make) is drawn on a thread, and so is an image whose process failed (a
  worker killed, no room for a new process): an image late is better than
  no image. The next image starts new processes.
* Each image's time (queueing included) and the images waiting or being
  drawn are recorded in the metrics (:mod:`bot.metrics`: ``image_seconds``,
  ``drawing_queue``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import select
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import metrics

log = logging.getLogger(__name__)

#: processes drawing images: one per core (threads for a renderer that cannot be sent)
RENDER_WORKERS = os.cpu_count() or 1
_THREADS = ThreadPoolExecutor(max_workers=RENDER_WORKERS, thread_name_prefix="ziggurat-render")
_processes: ProcessPoolExecutor | None = None


def _exit_with(pid: int) -> None:
    """Wait until process ``pid`` is gone, then end this one."""
    try:
        handle = os.pidfd_open(pid)
    except (AttributeError, OSError):  # no pidfd (not Linux 5.3+): look every second
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(1.0)
    else:
        select.select([handle], [], [])
    os._exit(0)


def watch_bot(pid: int) -> None:
    """Initializer of a drawing (or deciding) process: it ends when the bot's process
    ``pid`` ends."""
    threading.Thread(target=_exit_with, args=(pid,), name="bot-watch", daemon=True).start()


def _process_pool() -> ProcessPoolExecutor:
    """The drawing processes, started on first use from a fork server."""
    global _processes
    if _processes is None:
        _processes = ProcessPoolExecutor(
            max_workers=RENDER_WORKERS,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=watch_bot,
            initargs=(os.getpid(),),
        )
    return _processes


def _ready() -> int:
    return os.getpid()


def warm_up(renderers: Iterable[Any]) -> None:
    """Start the drawing processes now, with the modules of ``renderers`` imported.

    Does not wait for them; a failure is logged and drawing starts them again later.
    """
    if _processes is not None:
        return
    modules = sorted({getattr(r, "__module__", "") for r in renderers if _sendable(r)} - {""})
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", *modules])
    try:
        pool = _process_pool()
        for _ in range(RENDER_WORKERS):
            pool.submit(_ready).add_done_callback(_log_failure)
    except (BrokenProcessPool, OSError, RuntimeError):
        log.warning("could not start the drawing processes", exc_info=True)


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a drawing process did not start: %s", future.exception())


def worker_pids() -> list[int]:
    """The drawing processes running now (the benchmark measures their memory)."""
    pool = _processes
    workers = getattr(pool, "_processes", None) or {}
    return sorted(workers)


def _sendable(render: Any) -> bool:
    """Whether ``render`` can be drawn in another process (a module-level function)."""
    try:
        pickle.dumps(render)
    except Exception:
        return False
    return True


async def drawn(render: Any, *args: Any) -> bytes:
    """``render(*args)`` in a drawing process (on a thread for a renderer that cannot be
    sent to one, or when the processes cannot be used)."""
    started = time.perf_counter()
    metrics.drawing_queued(1)
    try:
        image, where = await _drawn(render, *args)
    finally:
        metrics.drawing_queued(-1)
    metrics.image(where, time.perf_counter() - started)
    return image


async def _drawn(render: Any, *args: Any) -> tuple[bytes, str]:
    global _processes
    loop = asyncio.get_running_loop()
    if _sendable(render):
        pool = _process_pool()
        try:
            image: bytes = await loop.run_in_executor(pool, render, *args)
            return image, "process"
        except (BrokenProcessPool, OSError):
            log.warning("the drawing processes failed; drawing on a thread", exc_info=True)
            if _processes is pool:
                _processes = None
                pool.shutdown(wait=False, cancel_futures=True)
    image = await loop.run_in_executor(_THREADS, render, *args)
    return image, "thread"
