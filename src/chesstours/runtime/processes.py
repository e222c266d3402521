"""A call run in a forked copy of this process, and processes started with the interrupts held back.

A copy starts in milliseconds with everything this process has loaded; the
counts that run half their work in plain Python beside the other half use it
(:func:`run_beside`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .resources import cores

__all__ = ["forks", "run_beside", "Beside", "Talk", "interrupts_deferred"]


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
        for sig in _STOPS:
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


def forks(processes: int) -> bool:
    """Whether a job that may use ``processes`` cores can run a part of its work in a copy of this process
    (:func:`run_beside`): on Linux, with two cores or more for it, from the main thread of a process that may
    have children. A copy starts in a few milliseconds with everything this process has loaded, where a new
    interpreter would import numpy again (a tenth of a second or more); not from another thread (a server's, a
    pool's), whose locks the copy could inherit held."""
    return processes >= 2 and cores() >= 2 and may_fork()


def may_fork() -> bool:
    """Whether this process may fork a copy of itself (:func:`forks`): on Linux, from
    the main thread (signals reach it alone), in a process that may have children."""
    return (sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread()
            and not multiprocessing.current_process().daemon)


class Talk:
    """The copy's end of a pipe to the process that made it (:func:`run_beside` with ``talk``): it reads what
    the process sends (:meth:`Beside.send`), and tells it things before its answer (:meth:`Beside.next`)."""

    def __init__(self, conn: Any):
        self._conn = conn

    def asked(self) -> bool:
        """Whether the process has sent something not read yet."""
        return self._conn.poll()

    def read(self) -> Any:
        """The next thing the process sent (waits for it)."""
        return self._conn.recv()

    def tell(self, note: Any) -> None:
        """Send ``note`` to the process (pickled); it reads it from :meth:`Beside.next`."""
        self._conn.send(("note", note))


def _beside(conn: Any, call: Callable[..., Any], talk: bool) -> None:
    """The copy's side of :func:`run_beside`: send what ``call`` returns, or what it raised, and end at once
    (no exit handler of this process, no flush of its output buffers, which the copy shares)."""
    try:
        try:
            answer: tuple[str, Any] = ("value", call(Talk(conn)) if talk else call())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it
            try:
                pickle.loads(pickle.dumps(exc))  # an exception that pickles may still not unpickle
                answer = ("raise", exc)
            except Exception:  # noqa: BLE001
                answer = ("raise", RuntimeError(f"{type(exc).__name__}: {exc}"))
        conn.send(answer)
    except BaseException:  # noqa: BLE001, S110 - the caller stopped waiting (interrupted, or it ended)
        pass
    finally:
        os._exit(0)


def _kill(process: Any) -> None:
    process.kill()
    process.join()


class Beside:
    """A call running in a copy of this process (:func:`run_beside`): :meth:`result` waits for its answer,
    :meth:`stop` kills it; a ``with`` block stops it on the way out, however the block ends."""

    def __init__(self, call: Callable[..., Any], talk: bool = False):
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe(duplex=talk)
        self._process = context.Process(target=_beside, args=(theirs, call, talk), daemon=True)
        with interrupts_deferred(_kill) as started:
            self._process.start()
            started.append(self._process)
        theirs.close()  # the copy holds the only sending end: its end is our end of file

    def result(self) -> Any:
        """What the call returned; what it raised is raised here. A note it told before is an error."""
        done, value = self.next()
        if not done:
            self.stop()
            raise RuntimeError("A process counting beside this one told something where its answer was awaited.")
        return value

    def next(self) -> tuple[bool, Any]:
        """The copy's next word: ``(False, note)`` for a note it told (:meth:`Talk.tell`), ``(True, value)``
        for what the call returned (the copy is then stopped); what it raised is raised here."""
        try:
            kind, value = self._conn.recv()
        except EOFError:
            self.stop()
            code = self._process.exitcode
            raise RuntimeError(f"A process counting beside this one ended without an answer (exit status {code}).") \
                from None
        except BaseException:
            self.stop()
            raise
        if kind == "note":
            return False, value
        self.stop()
        if kind == "raise":
            raise value
        return True, value

    def send(self, message: Any) -> bool:
        """Send ``message`` to the copy (made with ``talk``: it reads it from :meth:`Talk.read`); False where
        the copy has ended."""
        try:
            self._conn.send(message)
            return True
        except (OSError, ValueError):  # the copy ended (its end of the pipe closed), or this end was closed
            return False

    def ready(self) -> bool:
        """Whether :meth:`next` would return (or raise) at once: the copy has told a note or answered, or
        ended."""
        return self._conn.poll()

    def stop(self) -> None:
        """Kill the copy if it still runs, and reap it."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._conn.close()

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run_beside(call: Callable[..., Any], talk: bool = False) -> Beside:
    """Start ``call()`` in a copy of this process, made by forking it (see :func:`forks`): it returns through
    a pipe (pickled), or what it raised is raised by :meth:`Beside.result`. It sees this process as it was
    when the copy was made and changes nothing here; it shares the terminal and its signals (Ctrl-C stops
    both), and it is killed if this process stops waiting for it. With ``talk``, ``call(talk)`` is given a
    :class:`Talk`, and the two may send each other things on the way (:meth:`Beside.send`,
    :meth:`Beside.next`); each sends a large thing only where the other waits to read it."""
    return Beside(call, talk)


# -- workers that end with the process that started them ---------------------------------------------------

__all__ += ["die_with_parent"]

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
    import os

    if not any_thread and _kill_on_parent_death():
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return
    threading.Thread(target=_watch_parent, args=(parent,), name="chesstours-parent", daemon=True).start()


def _kill_on_parent_death() -> bool:
    """Ask the kernel to send this process SIGKILL when its parent ends; False where it cannot (not Linux)."""
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or one without prctl
        return False


def _watch_parent(parent: int) -> None:
    import os
    import time

    while os.getppid() == parent:
        time.sleep(_PARENT_POLL)
    os._exit(1)


# -- waits with the interrupts held back --------------------------------------------------------------------

__all__ += ["interrupts_held"]

#: The signals that stop a program: Ctrl-C, SIGTERM, and SIGHUP where there is one.
_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


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
