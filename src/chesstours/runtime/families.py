"""Every compiled kernel, compiled ahead of the first run: ``chesstours compile``.

numba compiles a kernel the first time a process needs it and keeps it in the
compile cache (:func:`chesstours.runtime.compile_cache_dir`), so a first run
on an empty cache waits for the compiler where a later one does not (the
figures are in the documentation's benchmarks). Small queries never wait
(they run in the kernels' plain-Python twins), and the larger ones compile
in other processes while they start in Python, but the compiler itself takes
what it takes. :func:`compile_kernels` pays it all at once: each family of
kernels (:data:`FAMILIES`) is compiled in a process of its own, as many at a
time as there are cores, by small jobs of the kinds the commands run
(:func:`warm`), so that no later command compiles anything: once after
installing, or when building an image for a classroom. The tests run a
command of every family after it and find the cache as it was.

A family's kernels are the ones its modules register (:func:`~chesstours.runtime.kernel`):
no kernel is named here. Its jobs run the questions (``count_tours``,
``find_tour``), imported when they run, so this module sits above the runtime
it is part of: the runtime's ``__init__`` does not import it.

>>> [family.name for family in FAMILIES][:3]
['frontier join', 'frontier sweep', 'frontier sample']
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

from .background import Compiling, compile_in_background, stop_compiling
from .cache import in_cache_folder
from .engine import use_compiled_only
from .kernels import cache_key, declare_family, has_cache_files, registered
from .resources import worker_count

__all__ = ["Family", "FAMILIES", "family", "missing", "warm", "Compiled", "compile_kernels"]


def _backtracking() -> None:
    from ..backtrack.search import warm as warm_search
    from ..count import count_tours, estimate_count
    from ..find import find_tour, iter_tours

    warm_search()
    count_tours("5x5", start="a1", method="backtrack", workers=1)
    count_tours("5x6", closed=True, method="backtrack", workers=1)
    find_tour("6x6", closed=True, method="backtrack")
    list(islice(iter_tours("5x5", start="a1"), 2))
    estimate_count("5x5")


def _properties() -> None:
    from ..count import count_tours

    count_tours("5x5", start="a1", where="symmetric", workers=1)
    count_tours("5x5", start="a1", where="c3=13", workers=1)


def _sweep() -> None:
    from ..frontier.run import warm as warm_sweep

    warm_sweep()


def _join() -> None:
    from ..frontier.join.kernel import warm as warm_join

    warm_join()


def _sample() -> None:
    from ..sample import sample_tours, tour_statistics

    sample_tours("5x5", 2, start="a1", cache=False)
    sample_tours("5x6", 2, closed=True, cache=False)
    tour_statistics("5x5", start="a1")


def _bishop() -> None:
    from ..bishop import count_bishop_routes, solve_bishop
    from ..bishop.construct import load_kernels as load_construction
    from ..bishop.search import load_kernels as load_search

    load_search()
    load_construction()
    solve_bishop("8x8")
    count_bishop_routes("4x4")


def _warnsdorff() -> None:
    from ..find import find_tour

    find_tour("8x8", method="warnsdorff")


def _construction() -> None:
    from ..construct.end import rotate_to_end
    from ..find import find_tour

    tour = find_tour("12x12", method="construct")
    rotate_to_end(tour.path.copy(), 12, 12, int(tour.path[-1]) ^ 1, compiled=True)  # a tour made to end elsewhere


@dataclass(frozen=True)
class Family:
    """A family of kernels compiled together: its name, what it serves, the modules that define its kernels
    (import paths; each kernel registers itself with the family's name, :func:`~chesstours.runtime.kernel`), and
    the small jobs that compile them (:func:`warm`)."""

    name: str
    serves: str
    modules: tuple[str, ...]
    jobs: Callable[[], None]

    def __post_init__(self) -> None:
        declare_family(self.name, self.modules)

    @property
    def kernels(self) -> tuple[tuple[str, str], ...]:
        """The family's kernels that numba keeps cache files of (the ones not inlined into others), as
        :func:`~chesstours.runtime.cache_key` names them; reading them imports the family's modules, and numba."""
        return tuple(cache_key(k) for k in registered(self.name) if has_cache_files(k))


#: The kernel families, in the order they are compiled: the longest first, so that the processes end together,
#: and the tour properties last, after the search kernel their counts run (compiled by ``backtracking``).
FAMILIES: tuple[Family, ...] = (
    Family("frontier join", "exact counts by the meet in the middle (boards of five lines and more)",
           ("chesstours.frontier.join.kernel", "chesstours.frontier.shuffle_kernel"), _join),
    Family("frontier sweep", "exact counts by the frontier method, and strips",
           ("chesstours.frontier.kernel", "chesstours.frontier.table_kernel"), _sweep),
    Family("frontier sample", "uniformly random tours and exact statistics of all tours, from the frontier's tables",
           ("chesstours.frontier.sampling.kernel",), _sample),
    Family("bishop", "the bishop puzzle: routes, counts, estimates, the construction",
           ("chesstours.bishop.kernel", "chesstours.bishop.construct_kernel"), _bishop),
    Family("backtracking", "counting, listing and finding tours by search, its estimates",
           ("chesstours.backtrack.kernel", "chesstours.runtime.xorshift_kernel", "chesstours.runtime.index_kernel"), _backtracking),
    Family("warnsdorff", "Warnsdorff's rule on large boards", ("chesstours.warnsdorff.kernel",), _warnsdorff),
    Family("construction", "tours of huge boards by construction", ("chesstours.construct.kernel",), _construction),
    Family("tour properties", "counts and lists of the tours with a property (--where)",
           ("chesstours.backtrack.where_kernel",), _properties),
)


def family(name: str) -> Family:
    """The family called ``name``.

    :raises KeyError: for a name that is not one of :data:`FAMILIES`.
    """
    for f in FAMILIES:
        if f.name == name:
            return f
    raise KeyError(name)


def missing(f: Family) -> list[str]:
    """The kernels of ``f`` that the compile cache does not hold."""
    return [name for source, name in f.kernels if not in_cache_folder(source, name)]


def warm(name: str) -> None:
    """Compile the kernels of the family ``name`` (or load them from the cache) for every type the commands
    call them with, by small jobs of their kinds run in compiled code only; in the process that
    :func:`compile_kernels` starts for it."""
    use_compiled_only()
    family(name).jobs()


@dataclass
class Compiled:
    """How the compiling of one family went: ``state`` is ``cached`` (nothing to do), ``compiled`` or
    ``failed`` (its process ended with ``status``); ``seconds`` of its process."""

    family: Family
    state: str
    seconds: float = 0.0
    status: int = 0


def compile_kernels(jobs: int | None = None, report: Callable[[Compiled], None] | None = None) -> list[Compiled]:
    """Compile every family of kernels that the cache does not hold whole, ``jobs`` processes at a time (default:
    the cores), and report each as it ends (``report``); a family the cache holds is ``cached`` at once.

    :raises RuntimeError: where no process to compile in can be started (no compile cache folder, or a worker
        process, which compiles nothing ahead).
    :raises KeyboardInterrupt: on Ctrl-C, once the processes still compiling are stopped (a family compiled
        whole stays in the cache; numba writes each file whole).
    """
    done: list[Compiled] = []
    todo = []
    for f in FAMILIES:
        if missing(f):
            todo.append(f)
        else:
            done.append(Compiled(f, "cached"))
            if report is not None:
                report(done[-1])
    at_once = max(1, worker_count(jobs))
    running: dict[Compiling, tuple[Family, float]] = {}
    try:
        while todo or running:
            while todo and len(running) < at_once:
                f = todo.pop(0)
                process = compile_in_background(warm, f.name)
                if process is None:
                    raise RuntimeError("the kernels cannot be compiled ahead here: no compile cache folder can be "
                                       "written (see NUMBA_CACHE_DIR), or this process may not start one to "
                                       "compile in; each run compiles what it needs")
                running[process] = (f, time.perf_counter())
            for process, status in [(p, p.poll()) for p in running]:
                if status is None:
                    continue
                f, t0 = running.pop(process)
                result = Compiled(f, "compiled" if status == 0 and not missing(f) else "failed",
                                  time.perf_counter() - t0, status)
                done.append(result)
                if report is not None:
                    report(result)
            time.sleep(0.02)
    finally:  # stopped on the way out by an error or an interrupt: the processes still compiling go too
        for process in running:
            stop_compiling(process)
    order = {f.name: i for i, f in enumerate(FAMILIES)}
    return sorted(done, key=lambda c: order[c.family.name])
