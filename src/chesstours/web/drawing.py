"""Pictures for the server, drawn in a process of their own.

Drawing a picture is Python and Pillow work that holds the interpreter lock
for seconds and memory for hundreds of megabytes; in the server's process it
would slow every other request down and leave its memory behind. Here a
single worker process draws (:data:`WORKERS`), started when the first picture
is asked for and replaced after :data:`TASKS_PER_PROCESS` pictures, so the
memory a large picture took goes back to the system. The server's threads
only wait for it, and the picture lane (:mod:`chesstours.web.limits`) bounds
how many wait.

A picture past its time limit is abandoned: the worker is stopped and a new
one is started for the next picture; a worker that dies (out of memory) is
replaced the same way. The drawing process runs at a lower scheduling
priority (:data:`DRAWING_NICE`), so on a busy machine a cheap search is
answered before a picture is finished.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import ChessToursError, LimitReached
from ..runtime.processes import die_with_parent

__all__ = ["draw", "shutdown", "WORKERS", "TASKS_PER_PROCESS"]

#: Processes that draw at once.
WORKERS = 1
#: Pictures one process draws before it is replaced (and its memory returned).
TASKS_PER_PROCESS = 32
#: How much lower the drawing process is scheduled than the server (``nice``): a cheap search comes first.
DRAWING_NICE = 5

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _draw(tour: dict[str, Any], picture: dict[str, Any], seconds: float) -> bytes:
    """In the worker: the tour from its JSON, drawn within ``seconds``."""
    from ..render.picture import draw_tour
    from ..tour import Tour

    deadline = time.perf_counter() + seconds
    return draw_tour(Tour.from_dict(tour).validated(), picture["fmt"], numbers=picture.get("numbers", False),
                     size=picture.get("size"), fps=picture.get("fps"), animate=picture.get("animate", False),
                     memory=picture.get("memory"), deadline=deadline)


def _start_worker(server: int) -> None:
    """In the worker: end with the server (``server``: its pid), and draw at a lower priority than the server's
    searches (``nice`` as the slow lane's). The server's threads that submit pictures, which start the worker,
    end when they have been idle a while, before the worker: it watches the server's process instead."""
    die_with_parent(server, any_thread=True)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(DRAWING_NICE)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                        max_tasks_per_child=TASKS_PER_PROCESS, initializer=_start_worker,
                                        initargs=(os.getpid(),))
        return _pool


def shutdown() -> None:
    """Stop the drawing process now (what it was drawing is abandoned)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        processes = dict(getattr(pool, "_processes", None) or {})  # shutdown() empties the table
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            if process.is_alive():
                process.terminate()


def draw(tour: dict[str, Any], picture: dict[str, Any], seconds: float) -> bytes:
    """The picture of ``tour`` (its JSON) that ``picture`` asks for, drawn in the worker within ``seconds``.

    :raises LimitReached: past ``seconds``; the errors of
        :func:`~chesstours.render.picture.draw_tour` as they are.
    """
    future = _executor().submit(_draw, tour, picture, seconds)
    try:
        return future.result(timeout=seconds + 1.0)
    except FutureTimeout:
        shutdown()
        raise LimitReached("The time limit ran out while the picture was drawn.") from None
    except BrokenProcessPool:
        shutdown()
        raise ChessToursError("The picture could not be drawn: its process stopped (out of memory?); "
                              "ask for a smaller size.") from None
