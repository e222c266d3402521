"""The slow lane's work, done in worker processes.

Python work -- the parts of a search that run in plain Python, a trace built
event by event, a large answer encoded as JSON -- holds the interpreter lock of
the process it runs in. In the server's process it would hold the lock that the
event loop and the quick lane's threads need, and every cheap request would
wait for it. The slow lane's jobs (:mod:`chesstours.web.limits`) therefore run
here, in a few processes of their own (:class:`Workers`), one job a process at
a time. A job is a function and its arguments, sent pickled; its answer comes
back pickled as well, already encoded where it was made
(:func:`~chesstours.web.limits.json_answer`): the server's process only moves
the bytes on.

A job whose client goes away, or that outlives its time limit by
:data:`GRACE` seconds, is abandoned: its process is killed and another one
started in its place. A process is also replaced after
:data:`JOBS_PER_PROCESS` jobs, or once a job has left it larger than
:data:`MEMORY_PER_PROCESS`, so that the memory a large job took goes back to
the system. Every process ends with the server, however the server ends
(:func:`~chesstours.runtime.processes.die_with_parent`), and runs at a lower
scheduling priority (:data:`WORKER_NICE`): on a busy machine a cheap request
is answered first. The processes talk to the server over a socket pair; they
create no file, in ``/dev/shm`` or elsewhere.

A worker process runs :func:`main` with ``FD PARENT``: ``FD`` its end of the
socket pair, ``PARENT`` the server's pid. Its first two messages are the
server's module search path and how to prepare itself (load the compiled
kernels) before its first job.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from ..errors import ChessToursError, LimitReached, ResourceError
from ..runtime.processes import die_with_parent

__all__ = ["ClientGone", "Workers", "GRACE", "JOBS_PER_PROCESS", "MEMORY_PER_PROCESS", "WORKER_NICE"]

#: Jobs one process runs before it is replaced (and its memory returned).
JOBS_PER_PROCESS = 64
#: Resident bytes past which a process is replaced once its job is done.
MEMORY_PER_PROCESS = 1 << 30
#: How much lower the worker processes are scheduled than the server (``nice``): a cheap search comes first.
WORKER_NICE = 5
#: Seconds a job may run past its time limit before its process is killed: a search stops itself at its
#: limit and answers with what it found, which takes a moment.
GRACE = 2.0

#: A worker process's program.
_MAIN = "import sys; from chesstours.web.workers import main; main(sys.argv[1:])"
#: What a worker process sends once it is ready for its first job.
_READY = b"ready"


class ClientGone(ChessToursError):
    """The client went away before its answer was ready; the work for it was stopped."""


class _Late(Exception):
    """A job outlived its time limit and the grace after it."""


class _Process:
    """One worker process and the server's end of its socket."""

    def __init__(self, prepare: bytes):
        ours, theirs = socket.socketpair()
        with ours, theirs:
            self.popen = subprocess.Popen(
                [sys.executable, "-c", _MAIN, str(theirs.fileno()), str(os.getpid())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, env=_environment())
            self.connection = Connection(ours.detach())
        # A few hundred bytes: the socket's buffer takes them at once.
        self.connection.send_bytes(pickle.dumps(sys.path))
        self.connection.send_bytes(prepare)
        self.ready = False
        self.jobs = 0
        self.resident = 0

    @property
    def pid(self) -> int:
        return self.popen.pid

    def wait_ready(self) -> None:
        """Wait until the process has started and prepared itself; :raises EOFError: when it ended first."""
        if not self.ready:
            if self.connection.recv_bytes() != _READY:
                raise EOFError("The worker process did not start.")
            self.ready = True

    def call(self, job: bytes, seconds: float | None) -> tuple[bool, Any]:
        """Run ``job`` (a function and its arguments, pickled) in the process, which is ready:
        ``(True, its value)`` or ``(False, the error it raised)``.

        :raises _Late: past ``seconds`` and :data:`GRACE` (the process is still at work);
        :raises EOFError, OSError: when the process stopped (killed, or out of memory).
        """
        self.connection.send_bytes(job)
        self.jobs += 1
        if seconds is not None and not self.connection.poll(max(0.0, seconds) + GRACE):
            raise _Late
        ok, value, self.resident = pickle.loads(self.connection.recv_bytes())
        return ok, value

    def worn(self) -> bool:
        """Whether the process has done its share of jobs, or grown too large: to be replaced."""
        return self.jobs >= JOBS_PER_PROCESS or self.resident > MEMORY_PER_PROCESS

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.popen.kill()

    def close(self) -> None:
        """Kill the process and wait for it to end (it holds nothing that needs a gentler end)."""
        self.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)
        self.connection.close()


def _environment() -> dict[str, str]:
    """The server's environment, where a worker finds this package where the server found it (the rest of
    the server's module search path is its first message)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


class _Job:
    """One job on its way: the process that runs it, once it has been sent there; whether it was abandoned."""

    def __init__(self) -> None:
        self.process: _Process | None = None
        self.abandoned = False
        self.lock = threading.Lock()

    def abandon(self) -> None:
        """Stop the job: kill the process it runs in, or see that it is never sent to one. A process that has
        not started the job yet is kept: killing it would only start another."""
        with self.lock:
            self.abandoned = True
            process = self.process
        if process is not None:
            process.kill()


class Workers:
    """Up to ``processes`` worker processes, each running one job at a time (see the module docstring).

    The caller bounds how many jobs run at once (the slow lane does, to ``processes``): a job that finds no
    idle process starts one. ``prepare()``, when given, is what a process runs before its first job (loading
    the compiled kernels); like the jobs, it must pickle.
    """

    def __init__(self, processes: int, prepare: Callable[[], object] | None = None):
        self.processes = processes
        self._prepare = pickle.dumps(prepare, protocol=pickle.HIGHEST_PROTOCOL)
        self._idle: list[_Process] = []
        self._alive: set[_Process] = set()
        self._lock = threading.Lock()
        self._closed = False
        # Threads that wait for the processes' answers (in reads that release the interpreter lock).
        self._waiters = ThreadPoolExecutor(processes, thread_name_prefix="chesstours-worker")
        self._finalizer = weakref.finalize(self, _close_all, self._alive, self._waiters)

    def pids(self) -> list[int]:
        """The process ids of the worker processes now running."""
        with self._lock:
            return sorted(process.pid for process in self._alive)

    def start(self) -> None:
        """Start the processes now, so that the first jobs do not wait for them."""
        with self._lock:
            while not self._closed and len(self._alive) < self.processes:
                process = _Process(self._prepare)
                self._alive.add(process)
                self._idle.append(process)

    async def run(self, fn: Callable[..., Any], *args: Any, seconds: float | None = None,
                  gone: Callable[[], Awaitable[object]] | None = None) -> Any:
        """``fn(*args)`` in a worker process; ``fn``, its arguments and its value must pickle.

        ``seconds``: the job's time limit; past it and :data:`GRACE`, its process is killed and
        :class:`LimitReached` raised. ``gone``: a coroutine function that returns when the client has gone
        away; the process is then killed and :class:`ClientGone` raised. So is it when the caller is
        cancelled. The errors ``fn`` raises are raised here; :raises ResourceError: when the process
        stopped (out of memory).
        """
        job = _Job()
        answer = asyncio.get_running_loop().run_in_executor(self._waiters, self._call, job, fn, args, seconds)
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            if watcher is None:
                return await answer
            done, _ = await asyncio.wait({answer, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if answer in done:
                return answer.result()
            job.abandon()
            raise ClientGone("The client went away before its answer was ready.")
        except asyncio.CancelledError:
            job.abandon()
            raise
        finally:
            if watcher is not None:
                watcher.cancel()

    def _call(self, job: _Job, fn: Callable[..., Any], args: tuple, seconds: float | None) -> Any:
        """In a waiting thread: take a process, run the job in it, and give the process back or replace it."""
        message = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)  # before a process is taken
        if job.abandoned:  # while it waited for a thread
            raise ClientGone("The client went away before its answer was ready.")
        process = self._take()
        healthy = False
        try:
            process.wait_ready()
            with job.lock:
                if job.abandoned:
                    healthy = True
                    raise ClientGone("The client went away before its answer was ready.")
                job.process = process
            ok, value = process.call(message, seconds)
            healthy = True
        except _Late:
            raise LimitReached("The time limit ran out; the search was stopped.") from None
        except (EOFError, OSError):
            if job.abandoned:
                raise ClientGone("The client went away before its answer was ready.") from None
            raise ResourceError("The search stopped before its answer: its process ended (out of memory?).") \
                from None
        finally:
            with job.lock:  # a job abandoned once it was sent has had its process killed
                killed = job.abandoned and job.process is not None
                job.process = None
            self._give_back(process, healthy=healthy and not killed)
        if not ok:
            raise value
        return value

    def _take(self) -> _Process:
        with self._lock:
            if self._closed:
                raise ResourceError("The server is stopping.")
            if self._idle:
                return self._idle.pop()
            process = _Process(self._prepare)
            self._alive.add(process)
            return process

    def _give_back(self, process: _Process, healthy: bool) -> None:
        """An idle process for the next job; one that was killed, or is worn, is replaced by a new one."""
        if healthy and not process.worn():
            with self._lock:
                if not self._closed:
                    self._idle.append(process)
                    return
        with self._lock:
            self._alive.discard(process)
        process.close()
        # The replacement starts (and warms up) now, while no job waits for it.
        with self._lock:
            if not self._closed and len(self._alive) < self.processes:
                fresh = _Process(self._prepare)
                self._alive.add(fresh)
                self._idle.append(fresh)

    def shutdown(self) -> None:
        """Kill every worker process now (what they were doing is abandoned)."""
        with self._lock:
            self._closed = True
            self._idle.clear()
        self._finalizer()


def _close_all(alive: set[_Process], waiters: ThreadPoolExecutor) -> None:
    for process in list(alive):
        process.kill()
    for process in list(alive):
        process.close()
    alive.clear()
    waiters.shutdown(wait=False, cancel_futures=True)


# -- in the worker process ----------------------------------------------------------------------------------


def _resident() -> int:
    """This process's resident memory in bytes (0 where ``/proc`` cannot tell)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def serve(connection: Connection) -> None:
    """Take the server's module search path (the first message) and prepare this process as the second
    says, then run the jobs that come on ``connection`` until the server closes it: each answer is
    ``(ok, value or error, resident bytes)``, pickled. With the server's path, a job's function is imported
    from where the server imported it."""
    sys.path[:] = pickle.loads(connection.recv_bytes())
    prepare = pickle.loads(connection.recv_bytes())
    if prepare is not None:
        prepare()
    connection.send_bytes(_READY)
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(message)
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:  # the server raises it where the job was asked for
            answer = (False, exc)
        try:
            data = pickle.dumps((*answer, _resident()), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer or an error that does not pickle
            data = pickle.dumps((False, RuntimeError(f"The answer could not be sent: {exc!r}"), _resident()))
        connection.send_bytes(data)


def main(argv: list[str]) -> None:
    """A worker process: ``argv`` is ``FD PARENT`` (see the module docstring)."""
    fd, parent = int(argv[0]), int(argv[1])
    die_with_parent(parent, any_thread=True)
    # Ctrl-C in the server's terminal reaches the whole process group: the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICE)
    serve(Connection(fd))
