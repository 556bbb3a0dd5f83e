"""Where images are drawn: a pool of processes, one per core, fed by the event loop itself.

Decisions:

* Drawing is mostly Python, so drawing threads would share the interpreter
  with the bot's own work: ``scripts/bench_scale.py`` measured 100
  simultaneous moves with images at 74% of what the cores allow on threads
  and 86–90% on processes. A bounded pool also bounds the memory drawing takes.
* **The loop talks to the processes directly.** Each drawing process has a
  pipe of its own (a socket pair); the event loop pickles a job (the
  renderer, by reference, and its view) and writes it to the process with
  the fewest jobs, and reads the PNG back as raw bytes when the pipe turns
  readable (``add_reader``), handing the next waiting job to that process.
  No thread of the bot's process takes part: ``concurrent.futures``' process
  pool moved each job through a queue-feeding thread and a result thread,
  both contending with the loop for the interpreter, and pickled the image
  on the way back; measured with a 150 kB image, the bot's own CPU for an
  image fell from 0.23–0.39 ms to 0.09–0.11 ms (``scripts/bench_scale.py``'s
  throughput with images is bound by the bot's process, one core, once the
  cores draw fast enough). Jobs go out in the order they are asked for (a
  hand-off asks for its board, the longest, first).
* A busy process is sent one job more, to start as soon as it answers (two
  in flight at most): without it a process idles from its answer until the
  loop has read it and written the next job, which on a loaded 2-core
  machine cost a fifth of the throughput.
* The processes come from a fork server: forking the bot itself would copy
  its threads' locks (aiosqlite's, the logger's) in whatever state they
  were. The bot starts them when it starts (:func:`warm_up`), with the
  renderers' modules imported once in the fork server, so the first board
  is not late by the imports; elsewhere (the demo, tests) they start on
  first use, from whichever event loop asks (the pool follows the loop).
* A drawing process exits as soon as the bot's process is gone, even when
  the bot was killed (SIGKILL, an OOM kill): otherwise the processes, and the
  fork server that waits for them, would outlive it holding its output. Its
  pipe closing ends it too.
* A renderer that cannot be sent to another process (a closure, as tests
  make) is drawn on a thread, and so is an image whose process failed (a
  worker killed, no room for a new process): an image late is better than
  no image. The next image starts new processes.
* A renderer's error comes back as the same exception (its text when it
  cannot be pickled).
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
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bot import metrics

log = logging.getLogger(__name__)

#: processes drawing images: one per core (threads for a renderer that cannot be sent)
RENDER_WORKERS = os.cpu_count() or 1
_THREADS = ThreadPoolExecutor(max_workers=RENDER_WORKERS, thread_name_prefix="ziggurat-render")
#: how an answer from a drawing process starts: the image's bytes, a pickled value, an error
_IMAGE, _VALUE, _ERROR = b"i", b"v", b"e"
#: jobs a drawing process holds at most: the one it draws and the next
IN_FLIGHT = 2


class PoolBroken(Exception):
    """A drawing process died or its pipe failed; the image is drawn on a thread."""


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


def _serve(conn: Connection, bot: int) -> None:
    """A drawing process: answer each job on ``conn`` until the pipe closes."""
    watch_bot(bot)
    while True:
        try:
            job = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            render, args = pickle.loads(job)
            image = render(*args)
        except Exception as exc:
            try:
                answer = _ERROR + pickle.dumps(exc)
            except Exception:
                answer = _ERROR + pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
        else:
            is_bytes = isinstance(image, bytes)
            answer = _IMAGE + image if is_bytes else _VALUE + pickle.dumps(image)
        try:
            conn.send_bytes(answer)
        except OSError:
            return


class _Worker:
    """One drawing process, its end of the pipe, and the jobs sent to it (in order)."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.jobs: deque[asyncio.Future[Any]] = deque()


class _Pool:
    """The drawing processes and the jobs waiting for one (see the module docstring)."""

    def __init__(self, size: int) -> None:
        context = multiprocessing.get_context("forkserver")
        self.workers: list[_Worker] = []
        self.waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self.broken = False
        self.loop: asyncio.AbstractEventLoop | None = None
        try:
            for _ in range(size):
                mine, theirs = multiprocessing.Pipe()
                process = context.Process(
                    target=_serve, args=(theirs, os.getpid()), name="ziggurat-draw", daemon=True
                )
                process.start()
                theirs.close()
                self.workers.append(_Worker(process, mine))
        except BaseException:
            self.close()
            raise

    def follow(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the pipes on ``loop`` (the one asking now; a test runs several in turn)."""
        if self.loop is loop:
            return
        old, self.loop = self.loop, loop
        for worker in self.workers:
            if old is not None and not old.is_closed():
                old.remove_reader(worker.conn.fileno())
            loop.add_reader(worker.conn.fileno(), self._answered, worker)

    def submit(self, job: bytes) -> asyncio.Future[Any]:
        assert self.loop is not None
        future = self.loop.create_future()
        worker = min(self.workers, key=lambda w: len(w.jobs), default=None)
        if worker is not None and len(worker.jobs) < IN_FLIGHT:
            self._send(worker, job, future)
        else:
            self.waiting.append((job, future))
        return future

    def _send(self, worker: _Worker, job: bytes, future: asyncio.Future[Any]) -> None:
        worker.jobs.append(future)
        try:
            worker.conn.send_bytes(job)
        except OSError as exc:  # the process is gone
            self._break(exc)

    def _answered(self, worker: _Worker) -> None:
        try:
            answer = worker.conn.recv_bytes()
        except (EOFError, OSError) as exc:
            self._break(exc)
            return
        future = worker.jobs.popleft() if worker.jobs else None
        if future is not None and not future.done() and not future.get_loop().is_closed():
            kind, body = answer[:1], answer[1:]
            if kind == _IMAGE:
                future.set_result(body)
            elif kind == _VALUE:
                future.set_result(pickle.loads(body))
            else:
                future.set_exception(pickle.loads(body))
        if self.waiting:
            job, waiting = self.waiting.popleft()
            self._send(worker, job, waiting)

    def _break(self, cause: BaseException) -> None:
        """A process died: every job in flight or waiting is drawn on a thread instead."""
        if self.broken:
            return
        self.broken = True
        jobs = [job for w in self.workers for job in w.jobs]
        jobs += [future for _, future in self.waiting]
        self.waiting.clear()
        for future in jobs:
            if future is not None and not future.done() and not future.get_loop().is_closed():
                future.set_exception(PoolBroken(str(cause)))
        self.close()

    def close(self) -> None:
        loop = self.loop
        for worker in self.workers:
            if loop is not None and not loop.is_closed():
                loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
            if worker.process.is_alive():
                worker.process.kill()
        self.workers = []


_pool: _Pool | None = None


def _current_pool(loop: asyncio.AbstractEventLoop) -> _Pool:
    """The drawing processes, started on first use (and again after a failure)."""
    global _pool
    if _pool is None or _pool.broken:
        _pool = _Pool(RENDER_WORKERS)
    _pool.follow(loop)
    return _pool


def warm_up(renderers: Iterable[Any]) -> None:
    """Start the drawing processes now, with the modules of ``renderers`` imported in
    the fork server they come from; a failure is logged and drawing starts them again
    later. Called from the event loop that draws."""
    if _pool is not None and not _pool.broken:
        return
    modules = sorted({getattr(r, "__module__", "") for r in renderers if _sendable(r)} - {""})
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", *modules])
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no event loop yet: they start with the first image
    try:
        _current_pool(loop)
    except (OSError, RuntimeError):
        log.warning("could not start the drawing processes", exc_info=True)


def worker_pids() -> list[int]:
    """The drawing processes running now (the benchmark measures their memory)."""
    pool = _pool
    if pool is None or pool.broken:
        return []
    return sorted(w.process.pid for w in pool.workers if w.process.pid is not None)


_SENDABLE: dict[Callable[..., Any], bool] = {}


def _sendable(render: Any) -> bool:
    """Whether ``render`` can be drawn in another process (a module-level function),
    remembered for the renderers (a closure is not remembered: it is made anew)."""
    known = _SENDABLE.get(render)
    if known is not None:
        return known
    try:
        pickle.dumps(render)
    except Exception:
        return False
    if len(_SENDABLE) < 256:
        _SENDABLE[render] = True
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
    loop = asyncio.get_running_loop()
    if _sendable(render):
        try:
            job = pickle.dumps((render, args), protocol=pickle.HIGHEST_PROTOCOL)
            image: bytes = await _current_pool(loop).submit(job)
            return image, "process"
        except (PoolBroken, OSError):
            log.warning("the drawing processes failed; drawing on a thread", exc_info=True)
    image = await loop.run_in_executor(_THREADS, render, *args)
    return image, "thread"
