"""Run a function over many tasks in a local process pool or on a Dask cluster, results as they finish.

:func:`run_tasks_on` is a generator of ``(index, result)`` pairs. It stops,
and stops its workers, when the caller stops reading it (``break``, an
exception, Ctrl-C), when ``deadline`` passes, or when every task is done.

The local pool is :class:`concurrent.futures.ProcessPoolExecutor` with fresh
("spawn") processes: a worker shares no lock or thread with the process that
started it, and it ends when that process ends, even killed by SIGKILL
(:func:`~chesstours.runtime.processes.die_with_parent`). A worker that dies (killed, out of memory) breaks the pool; the
pool is started anew and the tasks that had not finished are sent again, up
to ``retries`` times each. On a cluster, :mod:`dask.distributed` does the
same itself: the scheduler reruns the tasks of a worker that is lost.

A task's error reaches the caller as what it means: a :class:`~chesstours.errors.ChessToursError`
as it was raised (a limit, a full disk); a worker out of memory, a system error, or a
worker that died each time its task was sent, as a
:class:`~chesstours.errors.ResourceError` (the machine's problem); anything else as
:class:`TaskFailed`, a bug.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..errors import ChessToursError, InvalidArgument, LimitReached, ResourceError, os_problem
from ..units import format_duration

__all__ = ["run_tasks_on", "TaskFailed", "LOCAL", "connect"]

T = TypeVar("T")
R = TypeVar("R")

#: How often the pool's futures are polled for the deadline and the caller's stop (seconds).
_POLL = 0.1
#: The name of the local pool in messages.
LOCAL = "the local pool"


class TaskFailed(RuntimeError):
    """A task raised an error that is neither the library's nor the machine's: a bug."""


def _task_error(i: int, exc: BaseException, where: str = "") -> Exception:
    """What a task's error means to the caller (see the module docstring)."""
    if isinstance(exc, ChessToursError):
        return exc
    if isinstance(exc, MemoryError):
        return ResourceError(f"A worker{where} ran out of memory on task {i}; give each worker more memory, "
                             "or run fewer workers at once.")
    if isinstance(exc, OSError):
        return os_problem(exc, f"A worker{where} failed on task {i}: {exc.strerror or exc}.")
    if type(exc).__name__ == "KilledWorker":  # dask.distributed gave up on a task that kept killing its worker
        return _died(i, where)
    return TaskFailed(f"Task {i} failed{where}: {type(exc).__name__}: {exc}")


def _died(i: int, where: str = "") -> ResourceError:
    return ResourceError(f"Task {i} killed its worker{where} each time it was sent (out of memory?); give each "
                         "worker more memory, or run fewer workers at once.")


def run_tasks_on(fn: Callable[[T], R], tasks: Sequence[T], *, jobs: int | None = None, cluster: str | None = None,
                 skip: Iterable[int] = (), retries: int = 2, deadline: float | None = None,
                 name: str = "chesstours") -> Iterator[tuple[int, R]]:
    """Apply ``fn`` to each of ``tasks`` in worker processes; yield ``(index, result)`` as each finishes.

    Parameters
    ----------
    fn : callable
        A function importable by name (a module's top-level function), so
        that a worker process or a Dask worker can find it.
    tasks : sequence
        Picklable arguments, one call each.
    jobs : int, optional
        Processes of the local pool (default: one a core). Ignored with ``cluster``.
    cluster : str, optional
        The address of a Dask scheduler (``tcp://HOST:PORT``).
    skip : indices
        Tasks already done (from a checkpoint): not run.
    retries : int
        Times a task may be sent again after its worker died.
    deadline : float, optional
        A :func:`time.perf_counter` value: past it, the workers are stopped and the generator ends.
    name : str, optional
        The start of the keys of the tasks sent to a Dask scheduler (its dashboard shows them).

    Raises
    ------
    ChessToursError
        A task raised it (a limit, a full disk).
    ResourceError
        A worker ran out of memory or hit a system error, or died more than ``retries`` times.
    TaskFailed
        A task raised any other error (a bug).
    InvalidArgument
        The cluster cannot be reached, or Dask is not installed.
    """
    todo = {i: t for i, t in enumerate(tasks) if i not in set(skip)}
    if not todo:
        return
    if cluster is not None:
        yield from _on_dask(fn, todo, cluster, retries, deadline, name)
    else:
        yield from _on_pool(fn, todo, jobs, retries, deadline)


# -- the local pool ----------------------------------------------------------------------


def _on_pool(fn: Callable[[T], R], todo: dict[int, T], jobs: int | None, retries: int,
             deadline: float | None) -> Iterator[tuple[int, R]]:
    from ..runtime import worker_count
    from ..runtime.processes import die_with_parent, interrupts_held

    workers = min(worker_count(jobs), len(todo))
    deaths: dict[int, int] = {}
    while todo:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=die_with_parent, initargs=(os.getpid(),))
        try:
            # an interrupt inside the pool's locks would leave them taken, and one while a submit starts a
            # worker would leave it out of the pool's table, from which _stop ends the workers
            with interrupts_held():
                running: dict[Future[R], int] = {pool.submit(fn, task): i for i, task in todo.items()}
            while running:
                if deadline is not None and time.perf_counter() > deadline:
                    return
                with interrupts_held():
                    done, _ = wait(running, timeout=_POLL, return_when=FIRST_COMPLETED)
                for future in done:
                    i = running.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        raise
                    except Exception as exc:
                        raise _task_error(i, exc) from exc
                    del todo[i]
                    yield i, result
        except BrokenProcessPool:
            # A worker died; which task it held is not known, so every unfinished task counts a death.
            for i in todo:
                deaths[i] = deaths.get(i, 0) + 1
                if deaths[i] > retries:
                    raise _died(i) from None
        finally:
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down now: cancel what has not started and end the workers that are running."""
    # ProcessPoolExecutor.terminate_workers() arrives in Python 3.14; before it, the workers are
    # reached through the executor's table of processes, which shutdown() empties: take it first.
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()
    end = time.monotonic() + 5
    for process in list(processes.values()):
        process.join(timeout=max(0.0, end - time.monotonic()))
        # A worker's pipe closes a moment before it can be reaped, and join() may return in between:
        # wait until it is gone, so that no worker outlives the pool.
        while process.is_alive() and time.monotonic() < end:
            time.sleep(0.005)
        if process.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            process.kill()
            process.join(timeout=1)


# -- a Dask cluster ----------------------------------------------------------------------


#: Seconds to wait for a scheduler to answer, unless a deadline comes sooner.
CONNECT_SECONDS = 10.0


def connect(address: str, deadline: float | None = None) -> Any:
    """A :class:`distributed.Client` connected to the scheduler at ``address``, waiting at most
    :data:`CONNECT_SECONDS`, or until ``deadline`` (a :func:`time.perf_counter` time) if that is sooner.

    :raises InvalidArgument: if Dask is not installed or the scheduler does not answer.
    :raises LimitReached: if the deadline comes first.
    """
    try:
        from distributed import Client
    except ImportError:
        raise InvalidArgument("Running on a cluster needs Dask: pip install 'chesstours[cluster]'.") from None
    started = time.perf_counter()
    until = started + CONNECT_SECONDS if deadline is None else min(started + CONNECT_SECONDS, deadline)
    try:
        _handshake(address, until - time.perf_counter())
        wait_for = until - time.perf_counter()
        if wait_for <= 0:
            raise TimeoutError
        return Client(address, timeout=wait_for, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        if deadline is not None and time.perf_counter() >= deadline:
            raise LimitReached(f"The time limit ran out before the Dask scheduler at {address} answered.") from None
        why = str(exc).strip() or f"no answer within {format_duration(until - started)}"
        raise InvalidArgument(f"No Dask scheduler answers at {address}: {why}.") from None


def _handshake(address: str, seconds: float) -> None:
    """Open a connection to ``address`` and finish Dask's handshake within ``seconds``, or raise TimeoutError:
    a peer that takes the connection and never answers holds a :class:`distributed.Client` past its own
    timeout."""
    if seconds <= 0:
        raise TimeoutError
    import asyncio

    from distributed.comm import connect as open_comm

    async def handshake() -> None:
        comm = await asyncio.wait_for(open_comm(address, timeout=seconds), seconds)
        await comm.close()

    asyncio.run(handshake())


#: The states of a Dask future that will not change: its result, its error, or its cancellation.
_SETTLED = frozenset({"finished", "error", "cancelled"})


def _on_dask(fn: Callable[[T], R], todo: dict[int, T], address: str, retries: int, deadline: float | None,
             name: str) -> Iterator[tuple[int, R]]:
    try:
        client = connect(address, deadline)
    except LimitReached:
        return  # nothing ran: the caller reports the time limit with what it has, as at any deadline
    running: dict[Any, int] = {}
    try:
        stamp = f"{name}-{time.time_ns()}"
        running = {client.submit(fn, task, key=f"{stamp}-{i}", pure=False, retries=retries): i
                   for i, task in todo.items()}
        while running:
            if deadline is not None and time.perf_counter() > deadline:
                return
            # a future reads done and then "lost" when the worker holding its result dies: it runs again
            done = [(future, status) for future in running if future.done()
                    and (status := future.status) in _SETTLED]
            if not done:
                time.sleep(_POLL)
            for future, status in done:
                i = running.pop(future)
                if status != "finished":
                    error = future.exception()
                    raise _task_error(i, error, " on the cluster") from error
                yield i, future.result()
    finally:
        if running:
            client.cancel(list(running))
        client.close()
