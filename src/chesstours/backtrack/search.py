"""The resumable depth-first search: :class:`Search` holds the arrays that the compiled kernel
(:mod:`chesstours.backtrack.kernel`) works on between calls.

The method and its pruning are explained in :mod:`chesstours.backtrack`. The same
search runs in plain Python (:mod:`chesstours.backtrack.plain`) while a
:class:`~chesstours.runtime.PlainAllowance` has positions left: a small search is over before numba
could load, let alone compile the kernel (seconds on a first run), and a large one
goes on in the kernel from where Python left it, on the same arrays.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..board import Board
from ..pieces import KNIGHT, move_table
from ..runtime import PlainAllowance, advance_in_turn, cache_key, lowest_priority
from ..runtime.xorshift import seeded
from ..status import Status
from . import plain as plain_kernels
from .layout import (
    CODE_BUDGET,
    CODE_EXHAUSTED,
    ORDERS,
    REG_BASE,
    REG_COUNT,
    REG_DEPTH,
    REG_FREE,
    REG_NODES,
    REG_PENDING,
    REGISTERS,
    STATUS_OF_CODE,
)

__all__ = ["Search", "load_kernels", "warm", "kernel_key", "FOUND", "EXHAUSTED", "BUDGET"]

FOUND, EXHAUSTED, BUDGET = Status.FOUND, Status.EXHAUSTED, Status.BUDGET


@cache
def load_kernels() -> None:
    """Compile the kernels, or load them from numba's cache, once per process: for a server, before its first
    visitor (small searches start in plain Python and would not load them)."""
    for kernel in _WARM.values():
        kernel(None)


def _count(plain: PlainAllowance | None) -> None:
    Search(move_table(Board(3, 4), KNIGHT), [0], plain=plain).run()  # the move tables' types: no other one


def _search(plain: PlainAllowance | None) -> None:
    Search(move_table(Board(3, 4), KNIGHT), [0], order="warnsdorff", plain=plain).run(stop_at_tour=True)


def _probes(plain: PlainAllowance | None) -> None:
    Search(move_table(Board(3, 4), KNIGHT), [0], plain=plain).estimate(probes=1)


#: How each kernel of the search is compiled (or loaded from the cache): by a small search that calls it.
_WARM = {"count": _count, "search": _search, "probes": _probes}


def warm(first: str = "search") -> None:
    """Compile the kernels of the search (or load them from the cache) for the types every search calls them
    with, ``first`` the one a query waits for (:func:`kernel_key`): ``search`` (which a listing or a search
    for one tour runs) or ``count``; then the probes' kernel and the other one.
    :func:`chesstours.runtime.compile_in_background` runs it while the query goes on in Python (a count's
    estimate probes the search there), and the query moves to its kernel as soon as that is in the cache; the
    others serve the queries that follow (a count's estimate runs compiled once the count's kernel and the
    probes' are cached). The set-up runs in Python (an allowance of no positions), as a query's does. The
    kernels after the first compile at the lowest priority (:func:`chesstours.runtime.lowest_priority`): by then
    the query that started the process searches in its kernel, on every core."""
    _WARM[first](PlainAllowance(0))
    lowest_priority()
    _WARM["probes"](PlainAllowance(0))
    _WARM["count" if first == "search" else "search"](PlainAllowance(0))


def kernel_key(first: str = "search") -> tuple[str, str]:
    """The cache key (:func:`~chesstours.runtime.cache_key`) of the kernel a query waits for first, by
    :func:`warm`'s word: ``search``, the search kernel (``advance``), or ``count``, the count's (``advance_count``:
    the fixed order, no stop at a tour). It imports the kernels' module, and numba, but loads no kernel."""
    kernel = _kernel()
    return cache_key(kernel.advance if first == "search" else kernel.advance_count)


def _kernel():
    """The compiled kernels, loaded when the first search is made: numba takes a few tenths of a second
    to start, which ``import chesstours`` and the walks of small boards never pay."""
    from . import kernel

    return kernel


class Search:
    """A resumable depth-first search for tours that extend a starting path.

    Parameters
    ----------
    table : int32[N, K]
        Move table (see :func:`chesstours.pieces.move_table`); rows of holes are all -1.
    prefix : sequence of int
        The path every tour must start with (at least the start square).
    end : int, optional
        Fixed last square; it is entered only as the last move.
    end_squares : sequence of int, optional
        Allowed last squares (closed tours: the start's neighbours).
    order : str, optional
        Move order: ``"fixed"`` (the leaper's own order) or ``"warnsdorff"``
        (fewest onward moves first).
    holes : bool[N], optional
        Squares that are not part of the board (they must have no moves).
    plain : PlainAllowance, optional
        Search in plain Python while it has positions left, then in the compiled
        kernel; without it, in the kernel from the start. The two leave the
        same arrays, counts and tours: only the time differs. With an
        allowance the search is set up in Python, spent or not.
    doubled : sequence of int, optional
        Squares of ``end_squares`` a tour ending on counts twice (the pairs of
        ends that :func:`~chesstours.backtrack.tasks.open_tasks` counts from
        one end only).

    Attributes
    ----------
    nodes : int
        Squares placed so far (the iteration counter of the Go knight's tour program).
    count : int
        Tours found so far (each weighted by its last square's ``end_ok``: see ``doubled``).
    """

    def __init__(self, table, prefix, end=None, end_squares=None, order="fixed", holes=None,
                 plain: PlainAllowance | None = None, doubled=()):
        self.table = np.ascontiguousarray(table, dtype=np.int32)
        n, k = self.table.shape
        prefix = np.asarray(prefix, dtype=np.int32)
        self.n = n
        # The kernel's arrays have one more square, n, that is always visited: the kernel's copy of
        # the table has n where the table has -1, so every row has K entries and no loop tests for -1;
        # unsigned, so that numba indexes with its entries without a test for negative indices.
        self._ktable = np.where(self.table >= 0, self.table, np.int32(n)).astype(np.uint32)
        self._visited = np.zeros(n + 1, dtype=np.uint8)
        self._visited[n] = 1
        self._degree = np.zeros(n + 1, dtype=np.int32)
        self._degree[:n] = (self.table >= 0).sum(axis=1)
        self._degree[n] = 1 << 30
        self.visited = self._visited[:n]
        self.degree = self._degree[:n]
        n_free = n
        if holes is not None and np.any(holes):
            self.degree[holes] = -1  # never a candidate: holes have no neighbours
            self.visited[holes] = 1
            n_free = n - int(np.count_nonzero(holes))
        self.end_ok = np.ones(n, dtype=np.uint8)
        fixed_end = -1 if end is None else int(end)
        if fixed_end >= 0:
            self.end_ok[:] = 0
            self.end_ok[fixed_end] = 1
        elif end_squares is not None:
            self.end_ok[:] = 0
            self.end_ok[np.asarray(end_squares, dtype=np.int64)] = 1
            self.end_ok[np.asarray(doubled, dtype=np.int64)] = 2
        self.fixed_end = fixed_end
        self.order = ORDERS.index(order)
        self.stack_square = np.zeros(n, dtype=np.int32)
        self.stack_next = np.zeros(n, dtype=np.int32)
        self.stack_count = np.zeros(n, dtype=np.int32)
        self.stack_cand = np.zeros((n, k), dtype=np.int32)
        self.stack_forced = np.full(n, -1, dtype=np.int32)
        self.plain = plain
        # Setting up costs O(N K^2) once per search: with an allowance (a small board) it is done in
        # Python even when the allowance is spent, so that only ``advance``, ``advance_count`` and ``probe`` are
        # ever compiled.
        # The first square's K candidates are ordered in Python always (the search kernel orders the others).
        kernel = plain_kernels if plain is not None else _kernel()
        self.near = kernel.neighbour_bits(self.table)
        self.regs = np.zeros(REGISTERS, dtype=np.int64)
        self.regs[REG_FREE] = n_free
        self.prefix = prefix
        self.done = False
        self._single = 0
        depth = prefix.size - 1
        self.stack_square[: prefix.size] = prefix
        self.regs[REG_DEPTH] = depth
        self.regs[REG_BASE] = depth
        if prefix.size == n_free:
            # The prefix is already a whole tour (a 1-square board, say).
            self._single = int(self.end_ok[prefix[-1]])
            self.done = True
            return
        forced = kernel.setup_prefix(self._ktable, self._visited, self._degree, prefix, self.end_ok, fixed_end)
        if forced == -2:
            self.done = True
            return
        self.stack_forced[depth] = forced
        remaining = n_free - prefix.size
        self.stack_count[depth] = plain_kernels.order_candidates(
            self._ktable, self._visited, self._degree, int(prefix[-1]), fixed_end, remaining == 1, self.order,
            self.stack_cand[depth],
        )

    def _engine(self):
        """The kernels to run now: plain Python while the allowance lasts, else the compiled ones."""
        if self.plain is not None and self.plain.lasts():
            return plain_kernels
        return _kernel()

    def estimate(self, probes: int = 2000, seed: int = 0) -> float:
        """Estimated number of nodes the whole search will visit (Knuth's random probes).

        Unbiased but heavy-tailed: good to an order of magnitude, which is what
        deciding whether a count is within reach needs. The probes draw from
        :mod:`chesstours.runtime.xorshift` seeded with ``seed``: the same estimate in Python and in the kernel.
        """
        if self.done:
            return 0.0
        depth = int(self.regs[REG_BASE])
        engine = self._engine()
        if engine is plain_kernels:
            self.plain.take(probes * (int(self.regs[REG_FREE]) - depth))  # type: ignore[union-attr]
        return float(engine.probe(self._ktable, self.near, self._visited, self._degree, self.prefix,
                                  int(self.stack_forced[depth]), self.end_ok, self.fixed_end,
                                  int(self.regs[REG_FREE]), probes, np.array([seeded(seed)], dtype=np.uint64)))

    @property
    def nodes(self) -> int:
        return int(self.regs[REG_NODES])

    @property
    def count(self) -> int:
        return int(self.regs[REG_COUNT]) + int(self._single)

    def path(self) -> np.ndarray:
        """The path on the stack (after ``run`` returned ``"found"``, a whole tour)."""
        return self.stack_square[: int(self.regs[REG_DEPTH]) + 1].copy()

    def untried(self, depth: int) -> list[int]:
        """The moves still to try at ``depth`` of the stack, in search order, as
        column indices into the move table's row of the square there."""
        c = int(self.stack_square[depth])
        nxt = int(self.stack_next[depth])
        if self.order != 0:
            return [int(j) for j in self.stack_cand[depth, nxt:self.stack_count[depth]]]
        last = int(self.regs[REG_FREE]) - depth - 2 == 0
        row = self.table[c]
        return [j for j in range(nxt, row.size)
                if row[j] >= 0 and not self.visited[row[j]] and (last or row[j] != self.fixed_end)]

    def run(self, budget: int = 1 << 62, stop_at_tour: bool = False) -> Status:
        """Search on for at most ``budget`` nodes.

        Returns ``"found"`` (a tour is on the stack: :meth:`path`; only with
        ``stop_at_tour``), ``"exhausted"`` (nothing is left to search) or
        ``"budget"`` (call again to go on).
        """
        if self.done:
            if self._single and stop_at_tour and not getattr(self, "_single_given", False):
                self._single_given = True
                return FOUND
            return EXHAUSTED

        # the fixed order, no stop at a tour and none left on the stack to step back from: the count's kernel
        counting = self.order == 0 and not stop_at_tour and not self.regs[REG_PENDING]

        def advance(engine, step: int) -> int:
            return (engine.advance_count if counting else engine.advance)(
                self._ktable, self.near, self._visited, self._degree, self.stack_square, self.stack_next,
                self.stack_count, self.stack_cand, self.stack_forced, self.end_ok, self.fixed_end, self.order,
                stop_at_tour, step, self.regs,
            )

        # in Python while the allowance lasts, then on in the kernel within the same budget
        status = advance_in_turn(self.plain, budget, plain_kernels, self._engine, advance, lambda: self.nodes,
                                 CODE_BUDGET)
        if status == CODE_EXHAUSTED:
            self.done = True
        return STATUS_OF_CODE[status]
