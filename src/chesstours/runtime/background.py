"""Kernels compiled in a second process while a query goes on in plain Python.

On an empty compile cache a kernel takes a second or more to compile; a
query that starts in plain Python (:mod:`chesstours.runtime.engine`) has the
kernels it goes on in compiled in another process meanwhile, and loads them
from the cache once they are there.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

from ..settings import COMPILE_POLL, COMPILE_WAIT
from . import cache
from .processes import die_with_parent, interrupts_deferred

__all__ = ["compile_in_background", "compile_unless_cached", "compiled_beside", "compiling", "await_compiled",
           "stop_compiling", "compiling_for", "end_with_starter", "Warm", "ready_numba", "lowest_priority",
           "Compiling", "COMPILE_WAIT"]


#: Set in the environment of a process of :func:`compile_in_background`, which compiles what it needs itself.
_COMPILER = "CHESSTOURS_COMPILING"
#: The pid of the process that started it, in the same environment (:func:`end_with_starter`).
_STARTER = "CHESSTOURS_STARTER"


#: A function of a module of kernels that compiles them (or loads them from the cache) by small jobs of the
#: kinds the queries run, given its arguments (words such as ``"count"``): each family's ``warm``.
Warm = Callable[..., None]


def compile_in_background(warm: Warm, *args: str) -> Compiling | None:
    """Start a process that compiles kernels into numba's cache by calling ``warm(*args)`` (a module-level
    function, such as :func:`chesstours.backtrack.search.warm`, and words for it).

    On an empty cache a job compiles its kernels one after the other on one core, and a count by the meet
    in the middle compiles some ten of them (seconds each); the process compiles the kernels a job needs
    last while the job compiles and runs the first, and the job then loads them from the cache. Only the
    main process starts one (not a worker of a pool or of a cluster, nor such a process itself), and only
    with a cache folder (:func:`compile_cache_dir`); None when it is not started. The caller waits for it
    before it needs the kernels (:func:`await_compiled`), and stops it if it stops first
    (:func:`stop_compiling`).

    The process is a new interpreter, ``python -m chesstours.runtime MODULE FUNCTION WORDS``
    (:mod:`chesstours.runtime.__main__`), with its standard streams on the null device; it ends when this
    process ends (:func:`end_with_starter`).
    """
    if (multiprocessing.parent_process() is not None or os.environ.get(_COMPILER) or not sys.executable
            or not os.environ.get("NUMBA_CACHE_DIR")):
        return None  # a worker, or such a process; no interpreter to start; or no cache folder to hand them over in
    try:
        with interrupts_deferred(stop_compiling) as started:
            started.append(subprocess.Popen(
                [sys.executable, "-m", "chesstours.runtime", warm.__module__, warm.__qualname__, *args],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env={**os.environ, _COMPILER: warm.__module__, _STARTER: str(os.getpid())}))
        return started[0]
    except OSError:  # pragma: no cover - no process to spare
        return None


def end_with_starter() -> None:
    """In a process of :func:`compile_in_background`: end when the process that started it ends, even killed
    by SIGKILL (:func:`~chesstours.runtime.processes.die_with_parent`). It is started by whichever thread asks
    first for the kernels, which may end before it (a server's): its parent process is watched, not the
    thread."""
    starter = os.environ.get(_STARTER, "")
    if starter.isdigit():
        die_with_parent(int(starter), any_thread=True)


#: A process of :func:`compile_in_background`.
Compiling = subprocess.Popen


def lowest_priority() -> None:
    """Run this process at the lowest priority from now on (where the system has priorities): a process of
    :func:`compile_in_background` calls it once the kernel its job waits for is compiled, before the kernels
    that serve later jobs, so that the job's own threads have the cores. Elsewhere (a ``warm()`` called in
    a program's own process) it does nothing."""
    if not os.environ.get(_COMPILER):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)
    except (AttributeError, OSError):  # pragma: no cover - no priorities here
        pass




def compiling(process: Compiling | None, kernel: tuple[str, str] | None = None) -> bool:
    """Whether ``process`` (of :func:`compile_in_background`, or None) still compiles what the caller waits
    for: it runs, and ``kernel`` (the one the caller needs first, as :func:`in_cache_folder` takes it; None:
    every kernel of the process) is not in the compile cache yet. The process may go on to compile kernels
    that only later queries need."""
    return process is not None and process.poll() is None and (kernel is None or not cache.in_cache_folder(*kernel))




def await_compiled(process: Compiling | None, deadline: float | None = None,
                   kernel: tuple[str, str] | None = None) -> None:
    """Wait for a process of :func:`compile_in_background` to end, or for ``kernel`` to be in the compile
    cache (:func:`compiling`), at most :data:`COMPILE_WAIT` seconds and until ``deadline`` (a
    :func:`time.perf_counter` time); if it has not ended, or it failed, the caller compiles what it needs
    itself. Meanwhile numba readies its compiler in this process, which the first kernel it loads would
    otherwise wait for (a quarter of a second)."""
    if process is not None:
        if process.poll() is None:
            ready_numba()
        seconds = COMPILE_WAIT if deadline is None else min(COMPILE_WAIT, deadline - time.perf_counter())
        until = time.perf_counter() + max(0.0, seconds)
        while compiling(process, kernel) and time.perf_counter() < until:
            try:
                process.wait(timeout=max(0.0, min(COMPILE_POLL, until - time.perf_counter())))
            except subprocess.TimeoutExpired:
                pass


#: The processes that allowances started, by the module they compile, and the lock that starts them.
COMPILING: dict[str, Compiling] = {}


COMPILING_LOCK = threading.Lock()


def compiling_for(warm: Warm, *args: str) -> Compiling | None:
    """The process that compiles kernels by ``warm(*args)`` for this process's queries: the one already
    running for that module, else one started now (:func:`compile_in_background`); one a module at a time,
    however many queries wait for it, stopped at exit if it still runs. None where none can be started."""
    with COMPILING_LOCK:
        running = COMPILING.get(warm.__module__)
        if running is None or running.poll() is not None:
            running = compile_in_background(warm, *args)
            if running is not None:
                COMPILING[warm.__module__] = running
        return running


@atexit.register
def _stop_background() -> None:
    """Stop the compiling processes that allowances started and that still run (the query ended in Python)."""
    for process in list(COMPILING.values()):
        stop_compiling(process)


def ready_numba() -> None:
    """Set up numba's compiler for this machine's processor now (its registries of typed operations), as the
    first kernel compiled or loaded from the cache would."""
    try:
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()
    except (ImportError, AttributeError):  # pragma: no cover - another numba: the first kernel does it
        pass


def stop_compiling(process: Compiling | None) -> None:
    """Kill a process of :func:`compile_in_background` that still runs (numba writes its cache files whole,
    under a temporary name, so none is left half-written), and reap it."""
    if process is not None and process.poll() is None:
        process.kill()
        process.wait()


def compile_unless_cached(warm: Warm, kernel: tuple[str, str], *args: str) -> Compiling | None:
    """Start compiling kernels in a second process (:func:`compile_in_background`, by ``warm(*args)``)
    unless ``kernel`` (one of them: its source file and name, as :func:`in_cache_folder` takes them, which needs
    no numba) is in the compile cache; the process, or None."""
    return None if cache.in_cache_folder(*kernel) else compile_in_background(warm, *args)


@contextlib.contextmanager
def compiled_beside(warm: Warm, kernel: tuple[str, str] | None, *args: str) -> Iterator[Compiling | None]:
    """Compile kernels in a second process (by ``warm(*args)``) while the ``with`` body runs, unless
    ``kernel`` is in the compile cache (:func:`compile_unless_cached`); None: none is needed. Gives the process (or
    None) to :func:`await_compiled` before the body needs the kernels, and stops it on the way out, however
    the body ends."""
    process = None if kernel is None else compile_unless_cached(warm, kernel, *args)
    try:
        yield process
    finally:
        stop_compiling(process)
