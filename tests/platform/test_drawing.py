"""The drawing processes: images come back from other processes, each to its caller when
there are more than processes, a renderer's error as itself, and drawing survives a
renderer that cannot be sent and a worker that dies."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from typing import Any

import pytest

from bot.games.base import PlayerLabel
from bot.service import drawing, workers
from tests.support.oracle_render import render_relay

VIEW = {"deck": 9, "ap": 4, "cards": [[], [2]], "active": 0, "positions": [0, 3]}
PLAYERS = [PlayerLabel(0, "Ann", "#aa3333"), PlayerLabel(1, "Ben", "#3333aa")]


def _drawn_here(view: Any, players: Any, lang: str = "en") -> bytes:
    return render_relay(view, players, lang) + os.getpid().to_bytes(4, "big")


async def test_a_module_renderer_is_drawn_in_another_process() -> None:
    here = lambda view, players, lang="en": _drawn_here(view, players, lang)  # noqa: E731
    assert not drawing._sendable(here)
    image = await drawing.drawn(here, VIEW, PLAYERS, "en")
    assert image.startswith(b"\x89PNG") and image[-4:] == os.getpid().to_bytes(4, "big")

    elsewhere = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")
    assert elsewhere.startswith(b"\x89PNG")
    pid = int.from_bytes(elsewhere[-4:], "big")
    assert pid != os.getpid() and pid in drawing.worker_pids()


async def test_a_killed_drawing_process_costs_no_image() -> None:
    await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")
    for pid in drawing.worker_pids():
        os.kill(pid, signal.SIGKILL)
    image = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # broken pool: a thread
    assert image.startswith(b"\x89PNG")
    again = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # a new pool
    assert int.from_bytes(again[-4:], "big") in drawing.worker_pids()


def _refused(view: Any, players: Any, lang: str = "en") -> bytes:
    raise ValueError(f"no image for {lang}")


def _counted(view: Any, players: Any, lang: str = "en") -> bytes:
    return view["n"].to_bytes(4, "big") + os.getpid().to_bytes(4, "big")


async def test_more_images_than_processes_each_come_back_to_their_caller() -> None:
    asked = 5 * drawing.RENDER_WORKERS + 3
    images = await asyncio.gather(
        *(drawing.drawn(_counted, {"n": n}, PLAYERS, "en") for n in range(asked))
    )
    assert [int.from_bytes(image[:4], "big") for image in images] == list(range(asked))
    pids = {int.from_bytes(image[4:], "big") for image in images}
    assert os.getpid() not in pids and pids <= set(drawing.worker_pids())


async def test_a_renderers_error_comes_back_as_itself() -> None:
    with pytest.raises(ValueError, match="no image for ko"):
        await drawing.drawn(_refused, VIEW, PLAYERS, "ko")
    image = await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")  # the process goes on
    assert int.from_bytes(image[-4:], "big") in drawing.worker_pids()


def _large(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


def _large_value(size: int) -> dict[str, bytes]:
    return {"image": _large(size)}


async def test_an_image_larger_than_the_pipe_comes_back_whole() -> None:
    size = 8 * 1024 * 1024  # far more than a socket's buffer: read over many wake-ups
    images = await asyncio.gather(*(drawing.drawn(_large, size) for _ in range(3)))
    assert all(image == _large(size) for image in images)
    (value, where) = await drawing.POOL.run(_large_value, size)
    assert where == "process" and value == {"image": _large(size)}


def test_an_answer_read_in_pieces_is_kept_until_it_is_whole() -> None:
    """The loop reads what has arrived and returns: a frame or body cut anywhere waits
    for the rest, and answers that arrive together are all read."""
    mine, theirs = multiprocessing.Pipe()
    worker = workers._Worker(multiprocessing.current_process(), mine)
    try:
        first, second = b"\x89PNG" + bytes(range(200)), b"second"
        sent = workers._FRAME.pack(workers._BYTES, len(first)) + first
        sent += workers._FRAME.pack(workers._BYTES, len(second)) + second
        read: list[tuple[bytes, bytes]] = []
        fd = theirs.fileno()
        previous = 0
        # inside the first frame, at its end, inside its body, then the rest at once
        for cut in (3, workers._FRAME.size, 10, 150, len(sent)):
            os.write(fd, sent[previous:cut])
            previous = cut
            read += worker.read()
            if cut < len(first) + workers._FRAME.size:
                assert read == []
        assert read == [(workers._BYTES, first), (workers._BYTES, second)]
        theirs.close()
        with pytest.raises(EOFError):
            worker.read()
    finally:
        worker.close()


def _logged(path: str, n: int) -> bytes:
    with open(path, "a", encoding="utf-8") as log:
        log.write(f"{n}\n")
    return n.to_bytes(4, "big")


async def test_a_job_cancelled_while_it_waits_is_never_sent(tmp_path: Any) -> None:
    """An image dropped before a process took it (a step refused at its commit) costs
    no drawing; the ones sent before it and after it are drawn."""
    log = str(tmp_path / "drawn.txt")
    pool = workers.WorkerPool(1, "ziggurat-test-cancel")
    try:
        asked = [asyncio.ensure_future(pool.run(_logged, log, n)) for n in range(4)]
        await asyncio.sleep(0)  # each asked: two in flight on the one process, two waiting
        assert len(pool._on(asyncio.get_running_loop()).waiting) == 2
        asked[2].cancel()
        done = await asyncio.gather(*asked, return_exceptions=True)
        assert isinstance(done[2], asyncio.CancelledError)
        assert [value for value, _ in (done[0], done[1], done[3])] == [
            n.to_bytes(4, "big") for n in (0, 1, 3)
        ]
        with open(log, encoding="utf-8") as drawn:
            assert drawn.read().split() == ["0", "1", "3"]
    finally:
        running = pool._running
        if running is not None:
            running.close()
        pool.threads.shutdown(wait=False)


def _big(flag: str) -> bytes:
    """A long image: it ends once ``flag`` exists (or after 20 s, so nothing hangs)."""
    for _ in range(2000):
        if os.path.exists(flag):
            break
        time.sleep(0.01)
    return os.getpid().to_bytes(4, "big")


def _small(n: int) -> bytes:
    return os.getpid().to_bytes(4, "big")


async def test_small_images_are_not_queued_behind_a_long_one(tmp_path: Any) -> None:
    """A hand-off asks for its board first, then its private views: with the board
    still drawing on one process, the views all go to the other as it frees, none
    sent ahead to wait behind the board."""
    flag = str(tmp_path / "the board may end")
    pool = workers.WorkerPool(2, "ziggurat-test-order")
    try:
        board = asyncio.ensure_future(pool.run(_big, flag))
        views = await asyncio.gather(*(pool.run(_small, n) for n in range(3)))
        with open(flag, "w", encoding="utf-8"):
            pass
        (drawn, _) = await board
        assert drawn not in {image for image, _ in views}  # none waited behind the board
        assert all(where == "process" for _, where in views)
    finally:
        running = pool._running
        if running is not None:
            running.close()
        pool.threads.shutdown(wait=False)


async def test_the_drawing_processes_run_below_the_bots_priority() -> None:
    await drawing.drawn(_drawn_here, VIEW, PLAYERS, "en")
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    pids = drawing.worker_pids()
    assert pids
    for pid in pids:
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + drawing.NICENESS)


async def test_a_stopped_pool_runs_a_job_in_flight_on_a_thread_and_starts_anew(
    tmp_path: Any,
) -> None:
    """Stopping the processes (a benchmark's fresh ones) loses no image: one being drawn
    runs on a thread instead, and the next job starts new processes."""
    flag = str(tmp_path / "never")
    pool = workers.WorkerPool(1, "ziggurat-test-stop")
    try:
        (first, _) = await pool.run(_small, 0)
        held = asyncio.ensure_future(pool.run(_big, flag))
        await asyncio.sleep(0)  # sent to the process
        assert pool.pids() == [int.from_bytes(first, "big")]
        pool.stop()
        assert pool.pids() == []
        with open(flag, "w", encoding="utf-8"):
            pass
        (drawn, where) = await held
        assert where == "thread" and drawn == os.getpid().to_bytes(4, "big")
        (again, where) = await pool.run(_small, 1)
        assert where == "process" and again not in (first, os.getpid().to_bytes(4, "big"))
        assert pool.pids() == [int.from_bytes(again, "big")]
    finally:
        pool.stop()
        pool.threads.shutdown(wait=False)
