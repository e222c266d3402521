"""What this machine offers a job: its cores, its memory, a folder for compiled code, and when compiling pays.

The one place where a thread count left unsaid becomes a number, where the
memory a job may plan to use is measured, and where the work a job may do in
plain Python before compiled code pays for its compiling is set;
:mod:`chesstours.policy` builds its plans on it, and the algorithm families
fall back on it when a caller gives no count.

>>> worker_count(3), worker_count() >= 1
(3, True)
>>> memory_limit() > 0
True
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import hashlib
import importlib
import multiprocessing
import os
import pickle
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .errors import InvalidArgument

__all__ = ["cores", "worker_count", "memory_limit", "MEMORY_SHARE", "compile_cache_dir", "PlainAllowance",
           "advance_in_turn", "plain_allowance", "PLAIN_SEARCH_SQUARES", "PLAIN_SEARCH_POSITIONS", "use_compiled_only", "compiled_below", "kernels_loaded",
           "compile_in_background", "compile_unless_cached", "compiled_beside", "compiling", "await_compiled",
           "stop_compiling", "ready_numba", "lowest_priority", "forks", "Forked", "Beside", "Talk", "run_beside", "interrupts_deferred",
           "COMPILE_WAIT"]

#: The share of this machine's memory that one job may plan to use.
MEMORY_SHARE = 0.75
#: Searches on boards of at most this many free squares start in plain Python, which needs no compiling ...
PLAIN_SEARCH_SQUARES = 256
#: ... and take at most this many positions there for the whole query (a few tenths of a second at the
#: 200,000 to 300,000 positions a second of plain Python), then go on in compiled code, some fifty times faster.
PLAIN_SEARCH_POSITIONS = 50_000
#: Positions a query takes in plain Python at a time while its kernels compile in another process (a tenth
#: of a second or so), between looks at whether they are ready.
WHILE_COMPILING = 20_000


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(workers: int | None = None) -> int:
    """Threads (or processes) for a job: ``workers`` when given, else one a core.

    :raises InvalidArgument: if ``workers`` is below one.
    """
    if workers is None:
        return cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgument(f"The number of workers must be a whole number of at least 1, not {workers!r}.")
    return workers


def memory_limit() -> int:
    """Bytes a job may plan to use: :data:`MEMORY_SHARE` of this machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        total = 8 << 30
    return int(MEMORY_SHARE * total)


class PlainAllowance:
    """Positions that the searches of one query may still take in plain Python before they move to compiled code.

    Numba compiles a kernel the first time it is called, which takes a second
    or more when its cache folder is empty, while Python runs the same search
    some fifty times slower but at once. One allowance is shared by every
    search of a query (the tasks of a count, the first moves of a search for
    one tour), so that the query as a whole, not each search, stops paying
    Python's pace once it is spent.

    When the positions run out on an empty compile cache, an allowance that
    names the kernels its query goes on in (``compiles``: the module whose
    ``warm()`` compiles them, or the call of it given, ``call``; ``kernel``: the file
    of the kernel it loads first, and that kernel's name) has them compiled in another process
    (:func:`compile_in_background`), and its query goes on in Python, some
    :data:`WHILE_COMPILING` positions at a time, until they are in the cache:
    a search that ends before that never waits for the compiler.

    >>> allowance = PlainAllowance(100); allowance.take(30); allowance.positions
    70
    """

    def __init__(self, positions: int, compiles: str | None = None, kernel: tuple[str, str] | None = None,
                 call: str = "warm()"):
        self.positions = max(0, int(positions))
        self.compiles = compiles
        self.call = call
        self.kernel = kernel
        self.compiling: Compiling | None = None
        self._asked = False
        self._compiling_until = 0.0  # a time (perf_counter) before which the kernels are taken as still compiling
        #: Set by a query whose kernels are in the compile cache: once an estimate of its search foresees more
        #: positions than are left here, the search would load them anyway, and the estimate's last probes run
        #: in them (:func:`chesstours.backtrack.tasks.estimate_nodes`).
        self.cached = False

    def take(self, positions: int) -> None:
        """Record ``positions`` searched in plain Python."""
        self.positions = max(0, self.positions - int(positions))

    def spend(self) -> None:
        """Give up what is left: the query's kernels are at hand, and its searches run in them from now on
        (their set-ups stay in Python, as any allowance has them)."""
        self.positions = 0

    def lasts(self) -> bool:
        """Whether the query goes on in plain Python now: positions are left, or its kernels are compiling in
        another process (started here when the positions first run out and the kernels are not cached; one
        process a module at a time, however many queries wait for it). That process and the cache folder are
        looked at once every :data:`COMPILE_POLL` seconds at most: a listing asks after every tour it finds,
        and a look at the folder takes some fifty microseconds."""
        if self.positions > 0 or time.perf_counter() < self._compiling_until:
            return True
        with _COMPILING_LOCK:
            if not self._asked:
                self._asked = True
                if self.compiles is not None and self.kernel is not None and not in_cache_folder(*self.kernel):
                    running = _COMPILING.get(self.compiles)
                    if running is None or running.poll() is not None:
                        running = compile_in_background(self.compiles, self.call)
                        if running is not None:
                            _COMPILING[self.compiles] = running
                    self.compiling = running
        if compiling(self.compiling, self.kernel):
            self._compiling_until = time.perf_counter() + COMPILE_POLL
            return True
        return False

    def compile_with(self, process: Compiling) -> None:
        """Go on in Python while ``process`` (:func:`compile_in_background` of this allowance's module, started
        by the query before its searches: :func:`compiled_beside`) compiles, as if the allowance had started it
        when its positions ran out: the process is the allowance's from now on, stopped at exit if it still
        runs, however the ``with`` that started it ends."""
        with _COMPILING_LOCK:
            self._asked = True
            self.compiling = process
            _COMPILING[self.compiles or ""] = process

    def in_python(self, positions: int) -> None:
        """Go on in plain Python for ``positions`` more (at least), and stop the process compiling this
        allowance's kernels, if one runs (a query that ends in Python sooner than they would compile leaves
        the cores to its own processes: :func:`chesstours.backtrack.run_tasks_beside`); past those positions
        they compile in another process, as when the positions of a new allowance run out."""
        with _COMPILING_LOCK:
            stop_compiling(self.compiling)
            if self.compiling is not None and _COMPILING.get(self.compiles or "") is self.compiling:
                del _COMPILING[self.compiles or ""]
            self.compiling = None
            self._asked = False
            self._compiling_until = 0.0
        self.positions = max(self.positions, int(positions))

    def __repr__(self) -> str:
        return f"PlainAllowance({self.positions})"


def advance_in_turn(plain: PlainAllowance | None, budget: int, python: Any, engine: Callable[[], Any],
                    advance: Callable[[Any, int], int], nodes: Callable[[], int], going_on: int) -> int:
    """Run a resumable search for ``budget`` positions, in plain Python while ``plain`` lasts, then compiled.

    ``engine()`` gives the module of kernels to run now (``python``, the plain-Python twins, or the compiled
    ones); ``advance(engine, positions)`` runs one call of it and returns its status code; ``nodes()`` counts
    the positions searched so far. The positions searched in Python are taken from ``plain``; a search still
    ``going_on`` when the allowance ends goes on in the compiled kernel, from where Python left it, within the
    same budget. Returns the last status code.
    """
    while True:
        kernels = engine()
        in_python = kernels is python
        step = min(budget, plain.positions or WHILE_COMPILING) if in_python and plain is not None else budget
        before = nodes()
        status = advance(kernels, step)
        done = nodes() - before
        if in_python and plain is not None:
            plain.take(done)
        budget -= done
        if status != going_on or budget <= 0:
            return status


def plain_allowance(free_squares: int, kernels: str | None = None, compiles: str | None = None,
                    kernel: tuple[str, str] | None = None, call: str = "warm()") -> PlainAllowance | None:
    """The plain-Python allowance of a query on a board of ``free_squares`` squares: :data:`PLAIN_SEARCH_POSITIONS`
    positions up to :data:`PLAIN_SEARCH_SQUARES` squares; None (compiled code from the start) above, after
    :func:`use_compiled_only`, or once the module ``kernels`` (the family's compiled kernels) is loaded in
    this process: there is no compiling left to save, and plain Python is fifty times slower. ``compiles``,
    ``kernel`` and ``call``: as :class:`PlainAllowance`'s."""
    if compiled_below(free_squares, PLAIN_SEARCH_SQUARES, kernels):
        return None
    return PlainAllowance(PLAIN_SEARCH_POSITIONS, compiles, kernel, call)


def kernels_loaded(module: str) -> bool:
    """Whether the module of compiled kernels ``module`` has been loaded in this process."""
    return module in sys.modules


_compiled_only = False


def use_compiled_only(on: bool = True) -> None:
    """From now on, run every search and walk of this process in compiled code, whatever its size.

    The plain-Python twins exist for a process that has not loaded its
    kernels yet. A long-lived process that has (the web server, once warmed
    up) gains nothing from them, and loses: plain Python holds the
    interpreter lock that its other threads, and its event loop, need.
    """
    global _compiled_only
    _compiled_only = bool(on)


def compiled_below(squares: int, plain_up_to: int, kernels: str | None = None) -> bool:
    """Whether work on ``squares`` squares runs compiled: above ``plain_up_to``; or always after
    :func:`use_compiled_only`, or once the module ``kernels`` (the compiled loops) is loaded in this process."""
    return _compiled_only or squares > plain_up_to or (kernels is not None and kernels_loaded(kernels))


def _own_folder(folder: Path, top: Path) -> bool:
    """Whether ``folder`` is a folder this user may keep compiled code in: it and every folder between it and
    ``top`` (made here with mode 0700 where missing) are real folders (no links), owned by this user and
    writable by no one else. numba unpickles what its cache folder holds, so a folder that another user made
    or may write could make this process run their code."""
    try:
        top.parent.mkdir(parents=True, exist_ok=True)
        for part in (top, *reversed(folder.relative_to(top).parents[:-1]), folder):
            part.mkdir(mode=0o700, exist_ok=True)
        uid = os.getuid() if hasattr(os, "getuid") else None
        for part in (folder, *folder.parents):
            info = os.lstat(part)
            if not stat.S_ISDIR(info.st_mode) or (uid is not None and (info.st_uid != uid or info.st_mode & 0o022)):
                return False
            if part == top:
                break
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-")
        probe.close()
        return True
    except OSError:
        return False


def compile_cache_dir() -> str | None:
    """Where numba keeps the compiled kernels: a per-user cache folder, never the installed package.

    ``NUMBA_CACHE_DIR`` when it is set; else ``chesstours/numba`` in the
    user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``~/Library/Caches``
    on macOS, ``%LOCALAPPDATA%`` on Windows), or in the temporary folder when
    that cannot be written. The first import of chesstours sets it for numba,
    so a read-only install or home compiles in memory at worst (None: no
    folder could be written), and uninstalling leaves nothing in site-packages.
    A folder that another user owns or may write is never taken (:func:`_own_folder`).
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    user = getattr(os, "getuid", lambda: "user")()
    private = Path(tempfile.gettempdir()) / f"chesstours-{user}"
    for folder, top in ((base / "chesstours" / "numba", base / "chesstours"), (private / "numba", private)):
        if _own_folder(folder, top):
            return str(folder)
    return None


def in_cache_folder(source: str, name: str) -> bool:
    """Whether numba's cache folder holds an index of compiled code of the kernel ``name`` (``module.function``,
    as numba names its files) of the file ``source``, without loading numba: its folder for the source's
    folder is named after that folder and the SHA-1 of its path. True when there is no cache folder or it
    cannot be read: the caller then takes the cache for warm and does nothing more."""
    folder = compile_cache_dir()
    if folder is None:
        return True
    where = os.path.dirname(os.path.abspath(source))
    sub = f"{os.path.basename(where)}_{hashlib.sha1(where.encode()).hexdigest()}"
    try:
        return any(Path(folder, sub).glob(f"{name}-*.nbi"))
    except OSError:  # pragma: no cover - an unreadable folder
        return True


#: Set in the environment of a process of :func:`compile_in_background`, which compiles what it needs itself.
_COMPILER = "CHESSTOURS_COMPILING"


def compile_in_background(module: str, call: str = "warm()") -> Compiling | None:
    """Start a process that compiles the kernels of ``module`` into numba's cache, by calling its ``warm()``
    (or the ``call`` given, such as ``warm('bishop')``).

    On an empty cache a job compiles its kernels one after the other on one core, and a count by the meet
    in the middle compiles some ten of them (seconds each); the process compiles the kernels a job needs
    last while the job compiles and runs the first, and the job then loads them from the cache. Only the
    main process starts one (not a worker of a pool or of a cluster, nor such a process itself), and only
    with a cache folder (:func:`compile_cache_dir`); None when it is not started. The caller waits for it
    before it needs the kernels (:func:`await_compiled`), and stops it if it stops first
    (:func:`stop_compiling`).

    Where this process may fork (:func:`_forks_to_compile`) the process is a copy of this one
    (:class:`Forked`), which has Python, numpy and chesstours loaded and compiles at once; else a new
    interpreter, which imports them first (0.15 s on the machine of the benchmarks).
    """
    if (multiprocessing.parent_process() is not None or os.environ.get(_COMPILER) or not sys.executable
            or not os.environ.get("NUMBA_CACHE_DIR")):
        return None  # a worker, or such a process; no interpreter to start; or no cache folder to hand them over in
    try:
        with interrupts_deferred(stop_compiling) as started:
            if _forks_to_compile():
                started.append(Forked(module, call))
            else:
                started.append(subprocess.Popen([sys.executable, "-c", f"import {module} as m; m.{call}"],
                                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL, env={**os.environ, _COMPILER: module}))
        return started[0]
    except OSError:  # pragma: no cover - no process to spare
        return None


def _forks_to_compile() -> bool:
    """Whether :func:`compile_in_background` may compile in a copy of this process: on Linux, from the main
    thread, where every other thread is a daemon of another library (a live display's, which writes to the
    terminal). A copy inherits every lock as it was at the fork, and none is freed there: a pool's thread, or
    one of chesstours' own (a server's, its warm-up), may be inside numba, holding its compiler's lock, which
    the copy would wait for forever. The copy writes to streams of its own (:class:`Forked`)."""
    here = threading.current_thread()
    return _may_fork() and all(t.daemon and not t.name.startswith("chesstours")
                               for t in threading.enumerate() if t is not here)


class Forked:
    """A process of :func:`compile_in_background` made by forking this one, as much of
    :class:`subprocess.Popen` as its callers use (``pid``, ``returncode``, ``poll``, ``wait``, ``kill``).

    The copy calls ``module``'s ``call`` with its signals at their defaults and its standard streams on the
    null device (new streams, whose locks no thread holds), and ends at once (``os._exit``: no exit handler of
    this process, no flush of the output buffers it shares): status 0 if the call returned, 1 if it raised.
    """

    def __init__(self, module: str, call: str):
        self.returncode: int | None = None
        self._reaping = threading.Lock()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the copy (its coverage is not collected)
            status = 1
            try:
                for sig in (signal.SIGINT, signal.SIGTERM):
                    signal.signal(sig, signal.SIG_DFL)
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                # streams of its own: a display's thread may have held the lock of this process's at the fork
                sys.stdin, sys.stdout, sys.stderr = (open(os.devnull, mode) for mode in "rww")  # noqa: SIM115
                os.environ[_COMPILER] = module
                _forget_compiling()
                name, _, args = call.partition("(")  # "warm()", "warm('bishop')"
                args = args.removesuffix(")")
                getattr(importlib.import_module(module), name)(*(ast.literal_eval(f"({args},)") if args else ()))
                status = 0
            finally:
                os._exit(status)

    def poll(self) -> int | None:
        """The exit status once the copy has ended (reaped), else None. The threads of a search ask it at
        once (their allowance's :meth:`PlainAllowance.lasts`): one reaps the copy, and a thread that asks
        meanwhile is told it runs, as :meth:`subprocess.Popen.poll` tells it (a second ``waitpid`` of the
        same process would fail: no such child)."""
        if self.returncode is None and self._reaping.acquire(blocking=False):
            try:
                if self.returncode is None:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            except ChildProcessError:  # reaped by something else of this process: its status is lost
                self.returncode = 0
            finally:
                self._reaping.release()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the copy to end, at most ``timeout`` seconds (then :class:`subprocess.TimeoutExpired`)."""
        until = None if timeout is None else time.perf_counter() + timeout
        while self.poll() is None:
            if until is not None and time.perf_counter() >= until:
                raise subprocess.TimeoutExpired(f"compile {self.pid}", timeout or 0.0)
            time.sleep(_FORKED_POLL if until is None else max(0.0, min(_FORKED_POLL, until - time.perf_counter())))
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """Kill the copy if it has not ended (it is reaped by :meth:`poll` or :meth:`wait`)."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def _forget_compiling() -> None:  # pragma: no cover - in a copy of :class:`Forked`
    """In a copy of :class:`Forked`: no process compiling for this one, and their lock free. An allowance
    starts its process holding that lock (:meth:`PlainAllowance.lasts`), and the copy, whose own searches ask
    their allowances, would wait for it forever."""
    global _COMPILING_LOCK
    _COMPILING_LOCK = threading.Lock()
    _COMPILING.clear()


#: Seconds between two looks at whether a copy of :class:`Forked` has ended, while waiting for it.
_FORKED_POLL = 0.005

#: A process of :func:`compile_in_background`.
Compiling = subprocess.Popen | Forked


@contextlib.contextmanager
def interrupts_deferred(stop: Callable[[Any], None]) -> Iterator[list[Any]]:
    """Start processes (appended to the list given) with Ctrl-C and SIGTERM held back until they are started:
    an interrupt raised while ``subprocess`` or ``multiprocessing`` waits for a new process to start would leave
    it running, its caller never told of it. An interrupt that came meanwhile stops what was started
    (``stop(process)``), then is raised as it would have been. Only the main thread receives signals; elsewhere,
    and for a signal whose action is not a Python handler, nothing is held back."""
    started: list[Any] = []
    held: list[tuple[int, Any]] = []
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
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


#: Seconds a job waits at most for the kernels compiling in another process (a few on an empty cache; ten
#: for the join's): past them, or past the job's deadline, it compiles them itself.
COMPILE_WAIT = 60.0


def compiling(process: Compiling | None, kernel: tuple[str, str] | None = None) -> bool:
    """Whether ``process`` (of :func:`compile_in_background`, or None) still compiles what the caller waits
    for: it runs, and ``kernel`` (the one the caller needs first, as :func:`in_cache_folder` takes it; None:
    every kernel of the process) is not in the compile cache yet. The process may go on to compile kernels
    that only later queries need."""
    return process is not None and process.poll() is None and (kernel is None or not in_cache_folder(*kernel))


#: Seconds between two looks at the compile cache while waiting for a kernel (:func:`await_compiled`).
COMPILE_POLL = 0.02


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
_COMPILING: dict[str, Compiling] = {}
_COMPILING_LOCK = threading.Lock()


@atexit.register
def _stop_background() -> None:
    """Stop the compiling processes that allowances started and that still run (the query ended in Python)."""
    for process in list(_COMPILING.values()):
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


def compile_unless_cached(module: str, kernel: tuple[str, str], call: str = "warm()") -> Compiling | None:
    """Start compiling the kernels of ``module`` in a second process (:func:`compile_in_background`, by ``call``)
    unless ``kernel`` (one of them: its source file and name, as :func:`in_cache_folder` takes them, which needs
    no numba) is in the compile cache; the process, or None."""
    return None if in_cache_folder(*kernel) else compile_in_background(module, call)


@contextlib.contextmanager
def compiled_beside(module: str, kernel: tuple[str, str] | None, call: str = "warm()") -> Iterator[Compiling | None]:
    """Compile the kernels of ``module`` in a second process (by ``call``) while the ``with`` body runs, unless
    ``kernel`` is in the compile cache (:func:`compile_unless_cached`); None: none is needed. Gives the process (or
    None) to :func:`await_compiled` before the body needs the kernels, and stops it on the way out, however
    the body ends, unless the body handed it to an allowance (:meth:`PlainAllowance.compile_with`)."""
    process = None if kernel is None else compile_unless_cached(module, kernel, call)
    try:
        yield process
    finally:
        if process is not None and _COMPILING.get(module) is not process:  # not handed to an allowance
            stop_compiling(process)


def forks(processes: int) -> bool:
    """Whether a job that may use ``processes`` cores can run a part of its work in a copy of this process
    (:func:`run_beside`): on Linux, with two cores or more for it, from the main thread of a process that may
    have children. A copy starts in a few milliseconds with everything this process has loaded, where a new
    interpreter would import numpy again (a tenth of a second or more); not from another thread (a server's, a
    pool's), whose locks the copy could inherit held."""
    return processes >= 2 and cores() >= 2 and _may_fork()


def _may_fork() -> bool:
    """Whether this process may fork a copy of itself (:func:`forks`, :func:`_forks_to_compile`): on Linux, from
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


def _use_compile_cache() -> None:
    folder = compile_cache_dir()
    if folder is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: tell it too
        numba_config.CACHE_DIR = folder  # type: ignore[attr-defined]


_use_compile_cache()
