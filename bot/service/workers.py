"""Worker processes fed by the event loop itself: the drawing processes and the
computer seats' deciding processes are two pools of this one kind.

Decisions:

* **The loop talks to the processes directly.** Each process has a pipe of
  its own (a socket pair); the event loop pickles a job (a module-level
  function, by reference, and its arguments) and writes it to the process
  with the fewest jobs, and reads the answer when the pipe turns readable
  (``add_reader``), handing the next waiting job to that process. No thread
  of the bot's process takes part: ``concurrent.futures``' process pool moved
  each job through a queue-feeding thread and a result thread, both
  contending with the loop for the interpreter, and pickled an image on the
  way back; an answer that is ``bytes`` (a PNG) comes back raw. Jobs go out
  in the order they are asked for.
* **The loop never waits on a pipe.** An answer is framed (its kind and
  length, then its body, written at once) and the loop reads what has
  arrived without blocking, keeping a partly read answer for the next
  wake-up: reading it whole at the first byte (``Connection.recv_bytes``)
  held the loop until the worker had written the rest, which on busy cores
  is the next time the worker is scheduled (measured on 2 cores: 0.37 ms of
  the loop an image, a third of what a move costs it). A body that arrives
  whole is the answer itself, with no copy.
* A job goes to an idle process; when none is idle it waits in the pool's
  queue for the first process to answer. A busy process is sent one job more,
  to start as soon as it answers (two in flight at most), only while more
  jobs wait than there are processes: then every process stays busy anyway,
  and without it a process idles from its answer until the loop has read it
  and written the next job. With fewer waiting, a job sent ahead would sit
  behind whatever its process is drawing while another process frees first:
  a hand-off's small private views queued behind its board (Tigris: the
  images at once took the board plus a hand, about 1.4× the board alone).
* The processes come from a fork server: forking the bot itself would copy
  its threads' locks (aiosqlite's, the logger's) in whatever state they
  were. A pool starts on first use, from whichever event loop asks (it
  follows the loop), and again after a failure or after it was stopped
  (:meth:`WorkerPool.stop`: a benchmark's fresh processes).
* A worker exits as soon as the bot's process is gone, even when the bot was
  killed (SIGKILL, an OOM kill): otherwise the processes, and the fork server
  that waits for them, would outlive it holding its output. Its pipe closing
  ends it too. A pool may give its workers a ``setup`` run first (the
  deciding processes lower their priority), and a ``warm`` run after it,
  before the first job is read: told whether a job is waiting on the pipe, it
  stops then (the drawing processes draw made-up games' images,
  :mod:`bot.service.warm_drawing`).
* **A worker's heap is frozen once it is ready** (after its setup and
  warm-up, before its first job): one full collection, then
  :func:`gc.freeze`, as the bot's process does once started
  (:mod:`bot.heap`). Everything alive then (the modules, the fonts, the
  renderers' caches the warm-up filled) lives as long as the process, and
  no later full collection walks it: in a warmed drawing process a full
  collection took 20–23 ms of CPU walking 42–45 thousand objects, and
  takes under 0.1 ms after; in one whose warm-up gave way at once and which
  then drew every game, 20–22 ms (40 thousand objects) before and 1–2 ms
  (6 thousand made since) after (``scripts/bench_scale.py``'s
  drawing-process lines). What is made
  afterwards stays collectable; a job waiting when the warm-up gives way
  waits for that one collection too.
* A job's error comes back as the same exception (its text when it cannot be
  pickled). A function that cannot be sent to another process (a closure, as
  tests make), or a job whose process failed (a worker killed, no room for a
  new process), runs on the pool's threads instead: late is better than never.
  A job whose process failed runs there on what was sent (its arguments
  unpickled from the job), as they were when it was asked for.
* A job cancelled while it waits for a process (a step refused at its commit
  drops the images asked ahead) is never sent; one already sent runs to its
  end and its answer is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import multiprocessing
import os
import pickle
import select
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

#: what an answer's body is: raw bytes, a pickled value, a pickled error
_BYTES, _VALUE, _ERROR = b"i", b"v", b"e"
#: an answer's frame: its kind, then its body's length in bytes
_FRAME = struct.Struct("!cQ")
#: the socket buffer a worker asks for, so that an image is written in one go
_SEND_BUFFER = 1 << 20
#: jobs a process holds at most: the one it runs and the next
IN_FLIGHT = 2


class PoolBroken(Exception):
    """A worker died or its pipe failed; the job runs on a thread."""


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
    """Make this (worker) process end when the bot's process ``pid`` ends."""
    threading.Thread(target=_exit_with, args=(pid,), name="bot-watch", daemon=True).start()


#: a worker's warm-up: run before its first job, told whether a job is waiting
Warm = Callable[[Callable[[], bool]], object]


def _serve(
    conn: Connection, bot: int, setup: Callable[[], None] | None, warm: Warm | None = None
) -> None:
    """A worker: answer each job on ``conn`` until the pipe closes."""
    watch_bot(bot)
    if setup is not None:
        setup()
    fd = conn.fileno()
    if warm is not None:
        try:
            warm(functools.partial(_readable, fd))
        except Exception:  # a worker that could not warm up still works
            log.warning("a worker's warm-up failed", exc_info=True)
    freeze_heap()
    _ask_send_buffer(fd)
    while True:
        try:
            job = conn.recv_bytes()
        except (EOFError, OSError):
            return
        kind, body = _answer(job)
        try:
            _write_all(fd, _FRAME.pack(kind, len(body)), body)
        except OSError:
            return


def freeze_heap() -> None:
    """Keep what this process holds now out of every later collection: one full
    collection (what start-up left behind), then :func:`gc.freeze`; once per process."""
    if not gc.get_freeze_count():
        gc.collect()
        gc.freeze()


def _readable(fd: int) -> bool:
    """Whether something waits to be read on ``fd`` (a job, or the pipe closed)."""
    return bool(select.select([fd], [], [], 0)[0])


def _answer(job: bytes) -> tuple[bytes, bytes]:
    """The kind and body of the answer to ``job``."""
    try:
        function, args = pickle.loads(job)
        value = function(*args)
    except Exception as exc:
        try:
            return _ERROR, pickle.dumps(exc)
        except Exception:
            return _ERROR, pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
    if isinstance(value, bytes):
        return _BYTES, value
    return _VALUE, pickle.dumps(value)


def _ask_send_buffer(fd: int) -> None:
    """Ask for a send buffer that holds an image whole (the system may give less)."""
    with contextlib.suppress(OSError), socket.socket(fileno=os.dup(fd)) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _SEND_BUFFER)


def _write_all(fd: int, *parts: bytes | memoryview) -> None:
    """Write ``parts`` to ``fd`` in order, whatever the pipe takes at a time."""
    pending = [memoryview(part) for part in parts if len(part)]
    while pending:
        written = os.writev(fd, pending)
        while pending and written >= len(pending[0]):
            written -= len(pending.pop(0))
        if pending and written:
            pending[0] = pending[0][written:]


class _Worker:
    """One process, its end of the pipe, and the jobs sent to it (in order)."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        #: the same socket, read without blocking (``MSG_DONTWAIT``; writes still block)
        self.reader = socket.socket(fileno=os.dup(conn.fileno()))
        self.jobs: deque[asyncio.Future[Any]] = deque()
        #: the answer being read: its frame so far, then its kind, size and body so far
        self.frame = b""
        self.kind = b""
        self.size: int | None = None
        self.body: bytearray | None = None
        self.filled = 0

    def read(self) -> list[tuple[bytes, bytes]]:
        """The answers whole now (kind, body), reading what has arrived without waiting
        for the rest; raises EOFError once the worker's end is closed."""
        done: list[tuple[bytes, bytes]] = []
        try:
            while True:
                if self.size is None:
                    chunk = self.reader.recv(_FRAME.size - len(self.frame), socket.MSG_DONTWAIT)
                    if not chunk:
                        raise EOFError("the worker's pipe closed")
                    self.frame += chunk
                    if len(self.frame) == _FRAME.size:
                        self.kind, self.size = _FRAME.unpack(self.frame)
                        self.frame = b""
                elif self.body is None:
                    whole = self.reader.recv(self.size, socket.MSG_DONTWAIT) if self.size else b""
                    if self.size and not whole:
                        raise EOFError("the worker's pipe closed")
                    if len(whole) == self.size:  # the usual case: the body as it came
                        done.append((self.kind, whole))
                        self.size = None
                    else:
                        self.body = bytearray(self.size)
                        self.body[: len(whole)] = whole
                        self.filled = len(whole)
                else:
                    view = memoryview(self.body)[self.filled :]
                    got = self.reader.recv_into(view, len(view), socket.MSG_DONTWAIT)
                    if not got:
                        raise EOFError("the worker's pipe closed")
                    self.filled += got
                    if self.filled == len(self.body):
                        done.append((self.kind, bytes(self.body)))
                        self.size, self.body = None, None
        except BlockingIOError:
            return done

    def close(self) -> None:
        self.reader.close()
        self.conn.close()


class _Running:
    """A started pool's processes and the jobs waiting for one."""

    def __init__(
        self, size: int, name: str, setup: Callable[[], None] | None, warm: Warm | None = None
    ) -> None:
        context = multiprocessing.get_context("forkserver")
        self.workers: list[_Worker] = []
        self.waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self.broken = False
        self.loop: asyncio.AbstractEventLoop | None = None
        try:
            for _ in range(size):
                mine, theirs = multiprocessing.Pipe()
                process = context.Process(
                    target=_serve, args=(theirs, os.getpid(), setup, warm), name=name, daemon=True
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
        self.waiting.append((job, future))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        """Hand waiting jobs out, in order: to an idle process, or a second one to a
        busy process while more jobs wait than there are processes (see the module
        docstring). A job cancelled meanwhile is never sent."""
        while self.waiting and not self.broken and self.workers:
            worker = min(self.workers, key=lambda w: len(w.jobs))
            if worker.jobs and (
                len(worker.jobs) >= IN_FLIGHT or len(self.waiting) <= len(self.workers)
            ):
                return
            job, future = self.waiting.popleft()
            if not future.cancelled():  # nobody waits for it any more: never drawn
                self._send(worker, job, future)

    def _send(self, worker: _Worker, job: bytes, future: asyncio.Future[Any]) -> None:
        worker.jobs.append(future)
        try:
            worker.conn.send_bytes(job)
        except OSError as exc:  # the process is gone
            self._break(exc)

    def _answered(self, worker: _Worker) -> None:
        try:
            answers = worker.read()
        except (EOFError, OSError) as exc:
            self._break(exc)
            return
        for kind, body in answers:
            future = worker.jobs.popleft() if worker.jobs else None
            if future is not None and not future.done() and not future.get_loop().is_closed():
                if kind == _BYTES:
                    future.set_result(body)
                elif kind == _VALUE:
                    future.set_result(pickle.loads(body))
                else:
                    future.set_exception(pickle.loads(body))
        self._dispatch()

    def _break(self, cause: BaseException) -> None:
        """A process died: every job in flight or waiting runs on a thread instead."""
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
            worker.close()
            if worker.process.is_alive():
                worker.process.kill()
        self.workers = []


class WorkerPool:
    """``size`` worker processes named ``name``, started on first use (and again after
    a failure), with ``size`` threads for what cannot go to them. ``warm``, when set
    before they start, is run by each before its first job (see :data:`Warm`)."""

    def __init__(self, size: int, name: str, *, setup: Callable[[], None] | None = None) -> None:
        self.size = size
        self.name = name
        self.setup = setup
        self.warm: Warm | None = None
        self.threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix=name)
        self._running: _Running | None = None
        self._sendable: dict[Callable[..., Any], bool] = {}

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the processes now (or follow ``loop`` when they run)."""
        self._on(loop)

    @property
    def started(self) -> bool:
        return self._running is not None and not self._running.broken

    def pids(self) -> list[int]:
        """The processes running now."""
        running = self._running
        if running is None or running.broken:
            return []
        return sorted(w.process.pid for w in running.workers if w.process.pid is not None)

    def sendable(self, function: Any) -> bool:
        """Whether ``function`` can run in another process (a module-level function),
        remembered (a closure is not: it is made anew)."""
        known = self._sendable.get(function)
        if known is not None:
            return known
        try:
            pickle.dumps(function)
        except Exception:
            return False
        if len(self._sendable) < 256:
            self._sendable[function] = True
        return True

    async def run(self, function: Any, *args: Any) -> tuple[Any, str]:
        """``function(*args)`` in a process, or on a thread when it cannot be sent or the
        processes failed; with where it ran (``process`` or ``thread``)."""
        loop = asyncio.get_running_loop()
        if self.sendable(function):
            job = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
            try:
                value = await self._on(loop).submit(job)
                return value, "process"
            except (PoolBroken, OSError):
                log.warning(
                    "the %s processes failed; running on a thread", self.name, exc_info=True
                )
            function, args = pickle.loads(job)  # what was sent, as it was then
        value = await loop.run_in_executor(self.threads, function, *args)
        return value, "thread"

    def stop(self) -> None:
        """Stop the processes now (a job in flight or waiting runs on a thread instead, as
        after a failure); the next job starts new ones, with :attr:`warm` as set then."""
        running, self._running = self._running, None
        if running is not None:
            running._break(RuntimeError(f"the {self.name} processes were stopped"))
            running.close()

    def _on(self, loop: asyncio.AbstractEventLoop) -> _Running:
        if self._running is None or self._running.broken:
            self._running = _Running(self.size, self.name, self.setup, self.warm)
        self._running.follow(loop)
        return self._running
