"""The compiled kernels of backtracking (see :mod:`chesstours.backtrack.search`).

The explicit-stack depth-first search with its pruning (``advance``, and ``advance_count``,
the same search in the fixed order without a stop at each tour, which a count runs), the
set-up of a starting path (``setup_prefix``) and Knuth's random probes of the search
tree (``probe``). Flat numpy arrays in, status codes out;
:class:`chesstours.backtrack.search.Search` holds the arrays between calls.

The kernels take the move table with its -1 entries replaced by ``n``, an extra square
past the board's ``n`` squares that ``visited`` always marks visited: every row then
has K entries and the loops over a square's moves run K times, with no test for the
end of the row (a loop that stops at a varying place is a branch the processor
mispredicts). That table is unsigned (``uint32``), so its entries index arrays
without numba's test for negative indices; so are the depth that indexes the stack
and the places in a row of candidates (:func:`chesstours.runtime.index_kernel.unsigned`), which is some
5% quicker. ``visited`` and ``degree`` have
``n + 1`` entries; ``neighbour_bits`` alone takes the table as it is.
"""

from __future__ import annotations

import numba
import numpy as np

from ..runtime import kernel
from ..runtime.index_kernel import ONE, unsigned
from ..runtime.xorshift_kernel import xorshift as _xorshift
from .layout import (
    CODE_BUDGET,
    CODE_EXHAUSTED,
    CODE_FOUND,
    REG_BASE,
    REG_COUNT,
    REG_DEPTH,
    REG_FREE,
    REG_NODES,
    REG_PENDING,
)


@kernel("backtracking")
@numba.njit(cache=True, nogil=True, inline="always")
def _visit(table, visited, degree, x):
    """Mark ``x`` visited; return True if an unvisited neighbour of x is left with none."""
    visited[x] = 1
    stranded = False
    for j in range(table.shape[1]):
        u = table[x, j]
        d = degree[u] - 1
        degree[u] = d
        stranded |= (d == 0) & (visited[u] == 0)
    return stranded


@kernel("backtracking")
@numba.njit(cache=True, nogil=True, inline="always")
def _unvisit(table, visited, degree, x):
    visited[x] = 0
    for j in range(table.shape[1]):
        degree[table[x, j]] += 1


@kernel("backtracking")
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


def _advance_kernel(name, listing):
    """The kernel ``advance`` (``listing``: every move order, and a stop at each tour) or ``advance_count``
    (the fixed order, no stop: what a count runs). The two are compiled from this one source: numba drops the
    branches on ``listing``, a constant of each, before it types them, so the count's kernel is smaller and
    compiles a third sooner."""

    def advance(table, near, visited, degree, stack_square, stack_next, stack_count, stack_cand,
                 stack_forced, end_ok, fixed_end, order, stop_at_tour, budget, regs):
        """Run the depth-first search for at most ``budget`` nodes.

        The stack holds, per depth ``d``: the square ``stack_square[d]``, its
        candidate squares ``stack_cand[d, :stack_count[d]]``, the index of the next
        one to try ``stack_next[d]``, and the forced last square ``stack_forced[d]``.
        ``regs`` holds depth, base depth, nodes, tours counted, a flag for a tour
        left on the stack by the last call, and the number of free squares.

        Returns 0 (a tour is on the stack), 1 (search exhausted) or 2 (budget spent). ``advance_count``
        takes the same arguments and searches in the fixed order, never stopping at a tour (``order`` and
        ``stop_at_tour`` are not read); it is not called with a tour left on the stack (its flag in ``regs``
        is not read either: :meth:`chesstours.backtrack.search.Search.run` calls ``advance`` then).

        The helpers the other kernels call (``_visit``, ``_unvisit``, ``_links``) are written out here, and
        the candidates' order too (as :func:`chesstours.backtrack.plain.order_candidates` makes it for the
        first square): numba inlines a function into each place that calls it, in its own front end, so the
        kernel compiles some 15% sooner written out, and searches as fast.
        """
        depth = regs[REG_DEPTH]
        base = regs[REG_BASE]
        nodes = regs[REG_NODES]
        count = regs[REG_COUNT]
        n_free = regs[REG_FREE]
        k = table.shape[1]
        limit = nodes + budget
        if listing and regs[REG_PENDING]:
            # The last call stopped on a complete tour: step back from it (unvisit its last square).
            regs[REG_PENDING] = 0
            y = stack_square[unsigned(depth)]
            visited[y] = 0
            for j in range(k):
                degree[table[y, j]] += 1
            depth -= 1
        while True:
            if depth < base:
                regs[REG_DEPTH] = base
                regs[REG_NODES] = nodes
                regs[REG_COUNT] = count
                return CODE_EXHAUSTED
            at = unsigned(depth)  # depth >= base >= 0 from here on
            i = stack_next[at]
            c = np.uint32(stack_square[at])
            remaining = n_free - depth - 2
            if listing and order != 0:
                more = i < stack_count[at]
            else:
                # Fixed order: walk the row of the move table, skipping squares already used.
                while i < k:
                    x = table[c, unsigned(i)]
                    if visited[x] or (x == fixed_end and remaining > 0):
                        i += 1
                    else:
                        break
                more = i < k
            if not more:
                # No square left here: step back (unvisit c).
                if depth == base:
                    depth -= 1
                    continue
                visited[c] = 0
                for j in range(k):
                    degree[table[c, j]] += 1
                depth -= 1
                continue
            if nodes >= limit:
                regs[REG_DEPTH] = depth
                regs[REG_NODES] = nodes
                regs[REG_COUNT] = count
                return CODE_BUDGET
            stack_next[at] = i + 1
            jx = np.uint32(stack_cand[at, unsigned(i)] if listing and order != 0 else i)
            x = table[c, jx]
            nodes += 1
            if remaining == 0:
                if end_ok[x]:
                    count += end_ok[x]  # a tour's weight: its last square's (see Search's ``doubled``)
                    if listing and stop_at_tour:  # visit x, and leave the tour on the stack
                        visited[x] = 1
                        for j in range(k):
                            degree[table[x, j]] -= 1
                        depth += 1
                        at += ONE
                        stack_square[at] = x
                        stack_count[at] = 0
                        stack_next[at] = 0
                        regs[REG_DEPTH] = depth
                        regs[REG_NODES] = nodes
                        regs[REG_COUNT] = count
                        regs[REG_PENDING] = 1
                        return CODE_FOUND
                continue
            # Visit x: an unvisited neighbour of x left with no link ends the branch, unless it comes last.
            visited[x] = 1
            stranded = False
            for j in range(k):
                u = table[x, j]
                d = degree[u] - 1
                degree[u] = d
                stranded |= (d == 0) & (visited[u] == 0)
            # The old square's neighbours not next to x (_links): none may be left with no link, and one left with
            # one link must come last (the forced square), or the branch ends (-2).
            if stranded and remaining > 1:
                forced = -2
            else:
                forced = stack_forced[at]
                bits = near[c, jx]
                for j in range(k):
                    u = table[c, j]
                    if visited[u] or (bits >> j) & 1:
                        continue
                    d = degree[u]
                    if d == 0:
                        forced = -2
                        break
                    if d == 1 and u != forced:
                        if forced >= 0 or end_ok[u] == 0:
                            forced = -2
                            break
                        forced = u
            if forced == -2:  # unvisit x
                visited[x] = 0
                for j in range(k):
                    degree[table[x, j]] += 1
                continue
            depth += 1
            at += ONE
            stack_square[at] = x
            stack_forced[at] = forced
            stack_next[at] = 0
            if listing and order != 0:  # the candidates from x in search order
                out = stack_cand[at]
                last = remaining == 1
                m = 0
                for j in range(k):
                    u = table[x, j]
                    if visited[u] or (u == fixed_end and not last):
                        continue
                    i2 = unsigned(m)
                    if order == 1:
                        while i2 > 0 and degree[table[x, np.uint32(out[i2 - ONE])]] > degree[u]:
                            out[i2] = out[i2 - ONE]
                            i2 -= ONE
                    out[i2] = j
                    m += 1
                stack_count[at] = m

    advance.__name__ = advance.__qualname__ = name  # numba names its cache files after it
    return kernel("backtracking")(numba.njit(cache=True, nogil=True)(advance))


advance = _advance_kernel("advance", True)
advance_count = _advance_kernel("advance_count", False)


@kernel("backtracking")
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


@kernel("backtracking")
@numba.njit(cache=True, nogil=True)
def setup_prefix(table, visited, degree, prefix, end_ok, fixed_end):
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
    near = np.zeros(n + 1, dtype=np.uint8)
    for j in range(table.shape[1]):
        near[table[cur, j]] = 1
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


@kernel("backtracking")
@numba.njit(cache=True, nogil=True)
def probe(table, near, visited0, degree0, prefix, forced0, end_ok, fixed_end, n_free, probes, rng):
    """Knuth's estimate of the search tree's size: the mean, over random root-to-leaf
    descents, of 1 + d1 + d1*d2 + ..., where d_i is the number of children that
    survive pruning at depth i (D. E. Knuth, "Estimating the efficiency of
    backtrack programs", Math. Comp. 29, 1975). Returns the mean estimate.
    ``rng`` is the state of :mod:`chesstours.runtime.xorshift`'s generator, advanced in place.
    """
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
            pick = _xorshift(rng) % np.uint64(m)
            x = table[c, ok[pick]]
            forced = oks[pick]
            _visit(table, visited, degree, x)
            c = x
            depth += 1
        total += estimate
    return total / probes
