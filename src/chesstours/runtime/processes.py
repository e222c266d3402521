"""The process helpers of the pools: processes started, and waits made, with the interrupts held back
(:func:`interrupts_deferred`, :func:`interrupts_held`), and workers that end with the process that started
them (:func:`die_with_parent`)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..stops import STOPS

__all__ = ["interrupts_deferred", "interrupts_held", "die_with_parent"]


@contextlib.contextmanager
def interrupts_deferred(stop: Callable[[Any], None]) -> Iterator[list[Any]]:
    """Start processes (appended to the list given) with Ctrl-C, SIGTERM and SIGHUP held back until they are started:
    an interrupt raised while ``subprocess`` or ``multiprocessing`` waits for a new process to start would leave
    it running, its caller never told of it. An interrupt that came meanwhile stops what was started
    (``stop(process)``), then is raised as it would have been. Only the main thread receives signals; elsewhere,
    and for a signal whose action is not a Python handler, nothing is held back."""
    started: list[Any] = []
    held: list[tuple[int, Any]] = []
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in STOPS:
            handler = signal.getsignal(sig)
            if callable(handler):
                previous[sig] = signal.signal(sig, lambda signum, frame: held.append((signum, frame)))
    try:
        yield started
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            for process in started:
                stop(process)
            first, frame = held[0]
            previous[first](first, frame)  # raises, as the signal would have


# -- workers that end with the process that started them ---------------------------------------------------

#: prctl's option that has the kernel signal this process when its parent ends (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: How often a worker without prctl looks whether its parent is still there (seconds).
_PARENT_POLL = 1.0


def die_with_parent(parent: int, *, any_thread: bool = False) -> None:
    """End this process as soon as ``parent`` (the pid of the process that started it) ends, however it ends:
    a worker of a pool would otherwise go on computing for nobody, and hold the pool's semaphores, after its
    parent was killed by SIGKILL, which leaves the parent no time to stop it. A pool's worker calls it first
    (the pool's ``initializer``).

    On Linux the kernel sends this process SIGKILL when its parent ends (``prctl(PR_SET_PDEATHSIG)``), and a
    parent that ended before the call is seen at once: the parent pid is no longer ``parent``. The kernel
    watches the parent's thread that started this process, not the whole process: a pool's processes are
    started by the thread that submits to it, or by the pool's own thread. ``any_thread`` is for a pool that
    threads which end before it submit to (a server's worker threads), and for a system without prctl: a
    daemon thread of this process looks every second whether the parent is still there."""

    if not any_thread and _kill_on_parent_death():
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return
    threading.Thread(target=_watch_parent, args=(parent,), name="chesstours-parent", daemon=True).start()


def _kill_on_parent_death() -> bool:
    """Ask the kernel to send this process SIGKILL when its parent ends; False where it cannot (not Linux)."""

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or one without prctl
        return False


def _watch_parent(parent: int) -> None:

    while os.getppid() == parent:
        time.sleep(_PARENT_POLL)
    os._exit(1)


# -- waits with the interrupts held back --------------------------------------------------------------------


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Run the body with Ctrl-C, SIGTERM and SIGHUP held back, then raise the first that came as it would have
    been (:func:`interrupts_deferred`, which starts nothing here).

    For a short wait on a pool (its futures, its queues, a submit): the interrupt is raised wherever Python
    is when the signal comes, and inside the pool's code it may be raised with one of its locks just taken
    and never given back; the pool's threads, which take it to hand over their results, and its shutdown
    would then wait for it for ever."""
    with interrupts_deferred(_start_nothing):
        yield


def _start_nothing(process: Any) -> None:
    pass
