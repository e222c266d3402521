"""The one choice between a kernel's compiled engine and its plain-Python twin.

Searches on small boards start in plain Python, which needs no compiling, and
go on in the compiled kernel once they have taken :data:`PLAIN_SEARCH_POSITIONS`
positions; a process that has loaded a family's kernels, or that asked for
compiled code only (:func:`use_compiled_only`), runs compiled from the start.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from ..settings import PLAIN_SEARCH_POSITIONS, PLAIN_SEARCH_SQUARES, WHILE_COMPILING
from . import background, cache, kernels

__all__ = ["PlainAllowance", "advance_in_turn", "plain_allowance", "use_compiled_only", "compiled_below",
           "kernels_loaded", "PLAIN_SEARCH_SQUARES", "PLAIN_SEARCH_POSITIONS"]








class PlainAllowance:
    """Positions that the searches of one query may still take in plain Python before they move to compiled code.

    Numba compiles a kernel the first time it is called, which takes a second
    or more when its cache folder is empty, while Python runs the same search
    some fifty times slower but at once. One allowance is shared by every
    search of a query (the tasks of a count, the first moves of a search for
    one tour), so that the query as a whole, not each search, stops paying
    Python's pace once it is spent.

    When the positions run out on an empty compile cache, an allowance that
    names the kernels its query goes on in (``compiles``: the family's ``warm``, called
    with the words ``args``; ``kernel``: a function that gives the cache key of the kernel
    it loads first, :func:`~chesstours.runtime.cache_key`, called only then, since it
    imports the kernel's module and numba) has them compiled in another process
    (:func:`compile_in_background`), and its query goes on in Python, some
    :data:`WHILE_COMPILING` positions at a time, until they are in the cache:
    a search that ends before that never waits for the compiler.

    >>> allowance = PlainAllowance(100); allowance.take(30); allowance.positions
    70
    """

    def __init__(self, positions: int, compiles: background.Warm | None = None,
                 kernel: Callable[[], tuple[str, str]] | None = None, args: tuple[str, ...] = ()):
        self.positions = max(0, int(positions))
        self.compiles = compiles
        self.args = args
        self.kernel = kernel
        self.key: tuple[str, str] | None = None  # the cache key ``kernel`` gives, once asked
        self.compiling: background.Compiling | None = None
        self._asked = False
        self._asking = threading.Lock()
        self._compiling_until = 0.0  # a time (perf_counter) before which the kernels are taken as still compiling

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
        looked at once every :data:`background.COMPILE_POLL` seconds at most: a listing asks after every tour it finds,
        and a look at the folder takes some fifty microseconds."""
        if self.positions > 0 or time.perf_counter() < self._compiling_until:
            return True
        with self._asking:  # the threads of a query share its allowance: one asks, the others wait for its answer
            if not self._asked:
                if self.compiles is not None and self.kernel is not None:
                    self.key = self.kernel()
                    if not cache.in_cache_folder(*self.key):
                        self.compiling = background.compiling_for(self.compiles, *self.args)
                self._asked = True
        if background.compiling(self.compiling, self.key):
            self._compiling_until = time.perf_counter() + background.COMPILE_POLL
            return True
        return False

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


def plain_allowance(free_squares: int, kernels: str | None = None, compiles: background.Warm | None = None,
                    kernel: Callable[[], tuple[str, str]] | None = None,
                    args: tuple[str, ...] = ()) -> PlainAllowance | None:
    """The plain-Python allowance of a query on a board of ``free_squares`` squares: :data:`PLAIN_SEARCH_POSITIONS`
    positions up to :data:`PLAIN_SEARCH_SQUARES` squares; None (compiled code from the start) above, after
    :func:`use_compiled_only`, or once the module ``kernels`` (the family's compiled kernels) is loaded in
    this process: there is no compiling left to save, and plain Python is fifty times slower. ``compiles``,
    ``kernel`` and ``args``: as :class:`PlainAllowance`'s."""
    if compiled_below(free_squares, PLAIN_SEARCH_SQUARES, kernels):
        return None
    return PlainAllowance(PLAIN_SEARCH_POSITIONS, compiles, kernel, args)


def kernels_loaded(module: str) -> bool:
    """Whether the kernels of the module ``module`` have been loaded in this process: a kernel of it was
    compiled or loaded from the cache (:func:`chesstours.runtime.kernels.loaded`). A module imported only to
    read its kernels' cache keys has loaded none, and its queries still start in plain Python."""
    return module in sys.modules and kernels.loaded(module)


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
