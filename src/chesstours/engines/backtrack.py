"""Backtracking: find, list and count tours by exhaustive depth-first search.

The method of the TIPE dossier (seed 000, Algorithms 2-4), of the Prolog and
Go programs (seeds 002, 003) and of the decision problem of seed 004: extend
the path by one free square at a time; when no square is left, step back to
the last choice that still has an untried square (D. H. Lehmer's
"backtrack"). The search is complete: it finds every tour that extends the
starting path, so it proves that none exists when it finds none.

The kernel uses an explicit stack -- ``stack_square``, ``stack_next`` and a
candidate list per depth -- instead of recursion, and is resumable: it stops
after a budget of nodes, or at each tour found, and carries on from the same
place when called again. That is what makes lazy iteration, time limits,
progress reports and Ctrl-C possible around a compiled loop.

Pruning keeps the search complete while cutting dead branches early. Write
``a(u)`` for the number of ways an unvisited square ``u`` can still be joined
to the path: its unvisited neighbours, plus one if it is next to the current
square. The rest of the tour is a path that starts at the current square, so
every square on it needs two such links except its last square, which needs
one. Hence, after each move:

* a square with ``a(u) = 0`` can never be reached: dead end;
* a square with ``a(u) = 1`` must be the last square of the tour: there can be
  only one such square, it must be an allowed end, and if it is next to the
  current square it must be the very next and last move.

Only the neighbours of the old and the new current square change ``a``, so the
test costs O(K) per move. ``a`` never grows as the path grows, so the forced
last square, once found, is kept for the whole subtree.

Move order is ``fixed`` (the leaper's move order, as in the seeds) or
``warnsdorff`` (unvisited squares with fewest onward moves first, ties in move
order) -- the order decides how soon the first tour comes, not how many
nodes an exhaustive count visits.

Closed tours are found with the end restricted to the start's neighbours, and
counted without double counting by fixing both neighbours of the start that a
cycle uses (see :func:`closed_tasks`).

References
----------
.. [1] D. H. Lehmer, "Combinatorial problems with digital computers", 1958.
.. [2] R. J. Walker, "An enumerative technique for a class of combinatorial
   problems", 1960 (the name "backtrack").

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import move_table, KNIGHT
>>> table = move_table(Board(5, 5), KNIGHT)
>>> search = Search(table, [0])
>>> search.run(), search.count
('exhausted', 304)
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["Search", "ORDERS", "FOUND", "EXHAUSTED", "BUDGET"]

#: Move orders: the leaper's fixed order, or Warnsdorff's (fewest onward moves first).
ORDERS = ("fixed", "warnsdorff")

# Kernel status codes.
_FOUND, _EXHAUSTED, _BUDGET = 0, 1, 2
FOUND, EXHAUSTED, BUDGET = "found", "exhausted", "budget"
_STATUS = (FOUND, EXHAUSTED, BUDGET)

# Layout of the ``regs`` int64 register array shared with the kernel.
_DEPTH, _BASE, _NODES, _COUNT, _PENDING, _FREE = range(6)


@numba.njit(cache=True, nogil=True, inline="always")
def _visit(table, visited, degree, x):
    """Mark ``x`` visited; return True if an unvisited neighbour of x is left with none."""
    visited[x] = 1
    stranded = False
    for j in range(table.shape[1]):
        u = table[x, j]
        if u < 0:
            break
        degree[u] -= 1
        if degree[u] == 0 and visited[u] == 0:
            stranded = True
    return stranded


@numba.njit(cache=True, nogil=True, inline="always")
def _unvisit(table, visited, degree, x):
    visited[x] = 0
    for j in range(table.shape[1]):
        u = table[x, j]
        if u < 0:
            break
        degree[u] += 1


@numba.njit(cache=True, nogil=True, inline="always")
def _links(table, visited, degree, near, c, jx, forced, end_ok):
    """Test the neighbours of the old current square ``c`` after the move c -> x.

    ``x = table[c, jx]``; ``near[c, jx]`` has bit ``j`` set when ``table[c, j]``
    is a neighbour of x. A neighbour u of c that is not next to x has lost its
    link to the current square, so ``a(u) = degree[u]``. Returns the forced last
    square (``forced`` or a new one), -1 when none, or -2 for a dead end.
    """
    bits = near[c, jx]
    for j in range(table.shape[1]):
        u = table[c, j]
        if u < 0:
            break
        if visited[u] or (bits >> j) & 1:
            continue
        d = degree[u]
        if d == 0:
            return -2
        if d == 1 and u != forced:
            if forced >= 0 or end_ok[u] == 0:
                return -2  # a second forced end, or one that may not end the tour
            forced = u
    return forced


@numba.njit(cache=True, nogil=True, inline="always")
def _candidates(table, visited, degree, x, fixed_end, last, order, out):
    """Write the moves from ``x`` to unvisited squares to ``out`` (as indices
    into ``table[x]``), in search order; return how many."""
    n = 0
    for j in range(table.shape[1]):
        u = table[x, j]
        if u < 0:
            break
        if visited[u] or (u == fixed_end and not last):
            continue
        # Insertion by Warnsdorff weight (stable, so ties keep the move order).
        i = n
        if order == 1:
            while i > 0 and degree[table[x, out[i - 1]]] > degree[u]:
                out[i] = out[i - 1]
                i -= 1
        out[i] = j
        n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _advance(table, near, visited, degree, stack_square, stack_next, stack_count, stack_cand,
             stack_forced, end_ok, fixed_end, order, stop_at_tour, budget, regs):
    """Run the depth-first search for at most ``budget`` nodes.

    The stack holds, per depth ``d``: the square ``stack_square[d]``, its
    candidate squares ``stack_cand[d, :stack_count[d]]``, the index of the next
    one to try ``stack_next[d]``, and the forced last square ``stack_forced[d]``.
    ``regs`` holds depth, base depth, nodes, tours counted, a flag for a tour
    left on the stack by the last call, and the number of free squares.

    Returns 0 (a tour is on the stack), 1 (search exhausted) or 2 (budget spent).
    """
    depth = regs[_DEPTH]
    base = regs[_BASE]
    nodes = regs[_NODES]
    count = regs[_COUNT]
    n_free = regs[_FREE]
    k = table.shape[1]
    limit = nodes + budget
    if regs[_PENDING]:
        # The last call stopped on a complete tour: step back from it.
        regs[_PENDING] = 0
        _unvisit(table, visited, degree, stack_square[depth])
        depth -= 1
    while True:
        if depth < base:
            regs[_DEPTH] = base
            regs[_NODES] = nodes
            regs[_COUNT] = count
            return _EXHAUSTED
        i = stack_next[depth]
        c = stack_square[depth]
        remaining = n_free - depth - 2
        if order == 0:
            # Fixed order: walk the row of the move table, skipping squares already used.
            while i < k:
                x = table[c, i]
                if x < 0:
                    i = k
                elif visited[x] or (x == fixed_end and remaining > 0):
                    i += 1
                else:
                    break
            more = i < k
        else:
            more = i < stack_count[depth]
        if not more:
            # No square left here: step back.
            if depth == base:
                depth -= 1
                continue
            _unvisit(table, visited, degree, c)
            depth -= 1
            continue
        if nodes >= limit:
            regs[_DEPTH] = depth
            regs[_NODES] = nodes
            regs[_COUNT] = count
            return _BUDGET
        stack_next[depth] = i + 1
        jx = i if order == 0 else stack_cand[depth, i]
        x = table[c, jx]
        nodes += 1
        if remaining == 0:
            if end_ok[x]:
                count += 1
                if stop_at_tour:
                    _visit(table, visited, degree, x)
                    depth += 1
                    stack_square[depth] = x
                    stack_count[depth] = 0
                    stack_next[depth] = 0
                    regs[_DEPTH] = depth
                    regs[_NODES] = nodes
                    regs[_COUNT] = count
                    regs[_PENDING] = 1
                    return _FOUND
            continue
        stranded = _visit(table, visited, degree, x)
        # A neighbour of x with no other link must come next and last.
        forced = -2 if stranded and remaining > 1 else _links(
            table, visited, degree, near, c, jx, stack_forced[depth], end_ok)
        if forced == -2:
            _unvisit(table, visited, degree, x)
            continue
        depth += 1
        stack_square[depth] = x
        stack_forced[depth] = forced
        stack_next[depth] = 0
        if order != 0:
            stack_count[depth] = _candidates(table, visited, degree, x, fixed_end, remaining == 1, order,
                                             stack_cand[depth])


@numba.njit(cache=True, nogil=True)
def neighbour_bits(table):
    """``near[c, i]`` has bit ``j`` set when ``table[c, j]`` is a neighbour of ``table[c, i]``."""
    n, k = table.shape
    near = np.zeros((n, k), dtype=np.int32)
    for c in range(n):
        for i in range(k):
            x = table[c, i]
            if x < 0:
                break
            for j in range(k):
                u = table[c, j]
                if u < 0:
                    break
                for t in range(k):
                    if table[x, t] == u:
                        near[c, i] |= 1 << j
                        break
    return near


@numba.njit(cache=True, nogil=True)
def _setup(table, visited, degree, prefix, end_ok, fixed_end):
    """Mark ``prefix`` visited and find the forced last square, if any.

    Returns the forced square, -1 when none, or -2 when no tour can extend
    ``prefix`` (a square cannot be reached, or two squares must both be last).
    """
    n = table.shape[0]
    for i in range(prefix.shape[0]):
        _visit(table, visited, degree, prefix[i])
    cur = prefix[prefix.shape[0] - 1]
    forced = -1
    if fixed_end >= 0:
        forced = fixed_end
    remaining = 0
    for u in range(n):
        if visited[u] == 0 and degree[u] >= 0:
            remaining += 1
    near = np.zeros(n, dtype=np.uint8)
    for j in range(table.shape[1]):
        u = table[cur, j]
        if u >= 0:
            near[u] = 1
    for u in range(n):
        if visited[u] or degree[u] < 0:
            continue
        links = degree[u] + near[u]
        if links == 0:
            return -2
        if links == 1:
            if near[u] and remaining > 1:
                return -2
            if near[u]:
                continue
            if u != forced and (forced >= 0 or end_ok[u] == 0):
                return -2
            forced = u
    return forced


@numba.njit(cache=True, nogil=True)
def _probe(table, near, visited0, degree0, prefix, forced0, end_ok, fixed_end, n_free, probes, seed):
    """Knuth's estimate of the search tree's size: the mean, over random root-to-leaf
    descents, of 1 + d1 + d1*d2 + ..., where d_i is the number of children that
    survive pruning at depth i (D. E. Knuth, "Estimating the efficiency of
    backtrack programs", Math. Comp. 29, 1975). Returns the mean estimate.
    """
    np.random.seed(seed)
    k = table.shape[1]
    total = 0.0
    ok = np.empty(k, dtype=np.int64)
    oks = np.empty(k, dtype=np.int64)
    for _ in range(probes):
        visited = visited0.copy()
        degree = degree0.copy()
        c = prefix[prefix.shape[0] - 1]
        depth = prefix.shape[0] - 1
        forced = forced0
        product = 1.0
        estimate = 0.0
        while True:
            remaining = n_free - depth - 2
            m = 0
            for j in range(k):
                x = table[c, j]
                if x < 0:
                    break
                if visited[x] or (x == fixed_end and remaining > 0):
                    continue
                if remaining == 0:
                    if end_ok[x]:
                        ok[m] = j
                        oks[m] = forced
                        m += 1
                    continue
                stranded = _visit(table, visited, degree, x)
                f = -2 if stranded and remaining > 1 else _links(table, visited, degree, near, c, j, forced, end_ok)
                _unvisit(table, visited, degree, x)
                if f != -2:
                    ok[m] = j
                    oks[m] = f
                    m += 1
            if m == 0:
                break
            product *= m
            estimate += product
            if remaining == 0:
                break
            pick = np.random.randint(m)
            x = table[c, ok[pick]]
            forced = oks[pick]
            _visit(table, visited, degree, x)
            c = x
            depth += 1
        total += estimate
    return total / probes


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
    order : {"fixed", "warnsdorff"}
        Move order.
    holes : bool[N], optional
        Squares that are not part of the board (they must have no moves).

    Attributes
    ----------
    nodes : int
        Squares placed so far (the Go seed's iteration counter).
    count : int
        Tours found so far.
    """

    def __init__(self, table, prefix, end=None, end_squares=None, order="fixed", holes=None):
        self.table = np.ascontiguousarray(table, dtype=np.int32)
        n, k = self.table.shape
        prefix = np.asarray(prefix, dtype=np.int32)
        self.n = n
        self.visited = np.zeros(n, dtype=np.uint8)
        self.degree = (self.table >= 0).sum(axis=1).astype(np.int32)
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
        self.fixed_end = fixed_end
        self.order = ORDERS.index(order)
        self.stack_square = np.zeros(n, dtype=np.int32)
        self.stack_next = np.zeros(n, dtype=np.int32)
        self.stack_count = np.zeros(n, dtype=np.int32)
        self.stack_cand = np.zeros((n, k), dtype=np.int32)
        self.stack_forced = np.full(n, -1, dtype=np.int32)
        self.near = neighbour_bits(self.table)
        self.regs = np.zeros(6, dtype=np.int64)
        self.regs[_FREE] = n_free
        self.prefix = prefix
        self.done = False
        self._single = False
        depth = prefix.size - 1
        self.stack_square[: prefix.size] = prefix
        self.regs[_DEPTH] = depth
        self.regs[_BASE] = depth
        if prefix.size == n_free:
            # The prefix is already a whole tour (a 1-square board, say).
            self._single = bool(self.end_ok[prefix[-1]])
            self.done = True
            return
        forced = _setup(self.table, self.visited, self.degree, prefix, self.end_ok, fixed_end)
        if forced == -2:
            self.done = True
            return
        self.stack_forced[depth] = forced
        remaining = n_free - prefix.size
        self.stack_count[depth] = _candidates(
            self.table, self.visited, self.degree, int(prefix[-1]), fixed_end, remaining == 1, self.order,
            self.stack_cand[depth],
        )

    def estimate(self, probes: int = 2000, seed: int = 0) -> float:
        """Estimated number of nodes the whole search will visit (Knuth's random probes).

        Unbiased but heavy-tailed: good to an order of magnitude, which is what
        deciding whether a count is within reach needs.
        """
        if self.done:
            return 0.0
        depth = int(self.regs[_BASE])
        return float(_probe(self.table, self.near, self.visited, self.degree, self.prefix,
                            int(self.stack_forced[depth]), self.end_ok, self.fixed_end,
                            int(self.regs[_FREE]), probes, seed))

    @property
    def nodes(self) -> int:
        return int(self.regs[_NODES])

    @property
    def count(self) -> int:
        return int(self.regs[_COUNT]) + int(self._single)

    def path(self) -> np.ndarray:
        """The path on the stack (after ``run`` returned ``"found"``, a whole tour)."""
        return self.stack_square[: int(self.regs[_DEPTH]) + 1].copy()

    def untried(self, depth: int) -> list[int]:
        """The moves still to try at ``depth`` of the stack, in search order, as
        column indices into the move table's row of the square there."""
        c = int(self.stack_square[depth])
        nxt = int(self.stack_next[depth])
        if self.order != 0:
            return [int(j) for j in self.stack_cand[depth, nxt:self.stack_count[depth]]]
        last = int(self.regs[_FREE]) - depth - 2 == 0
        row = self.table[c]
        return [j for j in range(nxt, row.size)
                if row[j] >= 0 and not self.visited[row[j]] and (last or row[j] != self.fixed_end)]

    def run(self, budget: int = 1 << 62, stop_at_tour: bool = False) -> str:
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
        status = _advance(
            self.table, self.near, self.visited, self.degree, self.stack_square, self.stack_next,
            self.stack_count, self.stack_cand, self.stack_forced, self.end_ok, self.fixed_end, self.order,
            stop_at_tour, budget, self.regs,
        )
        if status == _EXHAUSTED:
            self.done = True
        return _STATUS[status]
