"""The backtracking kernels in plain Python: the same search, move for move, without numba.

:mod:`chesstours.backtrack.kernel` compiled is some fifty times faster, but
compiling it takes seconds on a first run (an empty compile cache), while a
small search is over in Python before numba could even load. Each function
here takes the same arrays as its compiled twin and leaves them exactly as
the twin would -- the same stack, the same registers, the same counts and
the same estimates -- so a search may start here and go on in the kernel
(:class:`chesstours.backtrack.search.Search` decides when), and the tests hold
the two to each other.

The arrays are read into Python lists at the start of a call and written
back at its end: list indexing is several times faster than numpy's
element access, and a call costs O(N K) more, nothing next to a budget of
thousands of positions.
"""

from __future__ import annotations

import functools

import numpy as np

from ..runtime.xorshift import xorshift
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

__all__ = ["advance", "advance_count", "neighbour_bits", "setup_prefix", "order_candidates", "probe"]


def _visit(rows, visited, degree, x) -> bool:
    """Mark ``x`` visited; return True if an unvisited neighbour of x is left with none."""
    visited[x] = 1
    stranded = False
    for u in rows[x]:
        d = degree[u] - 1
        degree[u] = d
        if d == 0 and not visited[u]:
            stranded = True
    return stranded


def _unvisit(rows, visited, degree, x) -> None:
    visited[x] = 0
    for u in rows[x]:
        degree[u] += 1


def _enter(real, apart, seen, deg, c, j, x, forced, ok, remaining) -> int:
    """The move ``c -> x`` (``x = real[c][j]``): the kernel's ``_visit`` of x (but for the extra square's
    degree, which the caller changes by x's pads) and its ``_links``. Returns the forced last square, -1, or -2
    for a dead end (x is left visited either way)."""
    if _visit(real, seen, deg, x) and remaining > 1:
        return -2
    for u in apart[c][j]:
        if seen[u]:
            continue
        d = deg[u]
        if d == 0:
            return -2
        if d == 1 and u != forced:
            if forced >= 0 or ok[u] == 0:
                return -2
            forced = u
    return forced


def order_candidates(table, visited, degree, x, fixed_end, last, order, out) -> int:
    """The moves from the first square ``x`` of a search to unvisited squares (as indices into ``table[x]``) in
    search order, written to the numpy row ``out`` (as the kernel's ``advance`` orders those of the squares
    after it); how many. Warnsdorff's order (``order`` 1) is an insertion by degree, stable, so that ties keep
    the move order. Once a search, for every search: it reads the row of ``x`` alone."""
    row = table[int(x)].tolist()
    n = 0
    for j, u in enumerate(row):
        if visited[u] or (u == fixed_end and not last):
            continue
        i = n
        if order == 1:
            while i > 0 and degree[row[out[i - 1]]] > degree[u]:
                out[i] = out[i - 1]
                i -= 1
        out[i] = j
        n += 1
    return n


def neighbour_bits(table) -> np.ndarray:
    """``near[c, i]`` has bit ``j`` set when ``table[c, j]`` is a neighbour of ``table[c, i]`` (as the kernel's)."""
    n, k = table.shape
    rows = [[u for u in row if u >= 0] for row in table.tolist()]
    moves = [set(row) for row in rows]
    near = np.zeros((n, k), dtype=np.int32)
    for c, row in enumerate(rows):
        near[c, : len(row)] = [sum(1 << j for j, u in enumerate(row) if u in moves[x]) for x in row]
    return near


def setup_prefix(table, visited, degree, prefix, end_ok, fixed_end) -> int:
    """The kernel's ``setup_prefix``: mark ``prefix`` visited; the forced last square, -1, or -2."""
    rows, seen, deg = table.tolist(), visited.tolist(), degree.tolist()
    n = len(rows)
    for v in prefix.tolist():
        _visit(rows, seen, deg, v)
    visited[:], degree[:] = seen, deg
    cur = int(prefix[-1])
    forced = int(fixed_end) if fixed_end >= 0 else -1
    remaining = sum(1 for u in range(n) if seen[u] == 0 and deg[u] >= 0)
    near = set(rows[cur])
    ok = end_ok.tolist()
    for u in range(n):
        if seen[u] or deg[u] < 0:
            continue
        links = deg[u] + (u in near)
        if links == 0:
            return -2
        if links == 1:
            if u in near and remaining > 1:
                return -2
            if u in near:
                continue
            if u != forced and (forced >= 0 or ok[u] == 0):
                return -2
            forced = u
    return forced


@functools.lru_cache(maxsize=8)
def _rows(table: bytes, near: bytes, k: int) -> tuple[list[list[int]], list[list[int]], list[int], list]:
    """The kernel's move table (``table``, ``uint32`` bytes, ``k`` a row, each row padded with the extra
    square ``n`` after its moves) as Python lists: the rows; each row's real moves; how many pads each
    has; and for each move ``c -> x`` (a row of ``near``, ``int32`` bytes), the moves of c that are not
    moves of x (those that lose their link to the current square).

    The kernel's loops run over the pads too, changing only ``degree[n]`` (by one a pad); the twins walk
    the real moves and change ``degree[n]`` by a row's pads at once, leaving the same array. Kept for the
    last few tables: every task of a count has its own copy of the same one. Read only.
    """
    rows = np.frombuffer(table, np.uint32).reshape(-1, k).tolist()
    near_rows = np.frombuffer(near, np.int32).reshape(-1, k).tolist()
    n = len(rows)
    real = [row[: row.index(n)] if n in row else row for row in rows]
    pads = [k - len(moves) for moves in real]
    apart = [[[u for j, u in enumerate(moves) if not (bits >> j) & 1] for bits in near_rows[c][: len(moves)]]
             for c, moves in enumerate(real)]
    return rows, real, pads, apart


def _moves_of(table: np.ndarray, near: np.ndarray) -> tuple[list[list[int]], list[list[int]], list[int], list]:
    return _rows(np.ascontiguousarray(table, np.uint32).tobytes(), np.ascontiguousarray(near, np.int32).tobytes(),
                 table.shape[1])


def advance(table, near, visited, degree, stack_square, stack_next, stack_count, stack_cand, stack_forced,
            end_ok, fixed_end, order, stop_at_tour, budget, regs) -> int:
    """The kernel's ``advance``, step for step: at most ``budget`` positions; 0 found, 1 exhausted, 2 budget.

    Its helpers are written out in the loop, or made one (:func:`_enter`): a call of a Python function
    costs as much as the work of a small one. They walk each row's real moves (:func:`_rows`).
    """
    rows, real, pads, apart = _moves_of(table, near)
    seen, deg = visited.tolist(), degree.tolist()
    square, nxt = stack_square.tolist(), stack_next.tolist()
    forced_at, ok = stack_forced.tolist(), end_ok.tolist()
    fixed_end, order = int(fixed_end), int(order)
    # the fixed order reads no candidates: their arrays are neither copied nor written back, and the rows of
    # candidates another order writes are written back alone (a listing calls once a tour: 22 microseconds a
    # call on 6x6 went to copies, 14 of them writing back, 8 the candidates)
    fixed = order == 0
    count_at: list[int] = [] if fixed else stack_count.tolist()
    cand: list[list[int]] = [] if fixed else stack_cand.tolist()
    low, high = len(square), -1  # the depths whose candidates this call writes
    depth, base, nodes, count = (int(regs[r]) for r in (REG_DEPTH, REG_BASE, REG_NODES, REG_COUNT))
    n_free = int(regs[REG_FREE])
    k = table.shape[1]
    pad_square = len(rows)  # the kernel's extra square past the board's, always visited
    limit = nodes + int(budget)
    if regs[REG_PENDING]:
        regs[REG_PENDING] = 0
        _unvisit(rows, seen, deg, square[depth])
        depth -= 1
    while True:
        if depth < base:
            depth, code = base, CODE_EXHAUSTED
            break
        i = nxt[depth]
        c = square[depth]
        row = rows[c]
        remaining = n_free - depth - 2
        if order == 0:
            while i < k:
                x = row[i]
                if seen[x] or (x == fixed_end and remaining > 0):
                    i += 1
                else:
                    break
            more = i < k
        else:
            more = i < count_at[depth]
        if not more:
            if depth != base:
                seen[c] = 0
                for u in real[c]:
                    deg[u] += 1
                deg[pad_square] += pads[c]
            depth -= 1
            continue
        if nodes >= limit:
            code = CODE_BUDGET
            break
        nxt[depth] = i + 1
        jx = i if order == 0 else cand[depth][i]
        x = row[jx]
        nodes += 1
        if remaining == 0:
            if ok[x]:
                count += ok[x]
                if stop_at_tour:
                    _visit(rows, seen, deg, x)
                    depth += 1
                    square[depth] = x
                    if fixed:
                        stack_count[depth] = 0
                    else:
                        count_at[depth] = 0
                    nxt[depth] = 0
                    regs[REG_PENDING] = 1
                    code = CODE_FOUND
                    break
            continue
        forced = _enter(real, apart, seen, deg, c, jx, x, forced_at[depth], ok, remaining)
        deg[pad_square] -= pads[x]
        moves = real[x]
        if forced == -2:
            seen[x] = 0
            for u in moves:
                deg[u] += 1
            deg[pad_square] += pads[x]
            continue
        depth += 1
        square[depth] = x
        forced_at[depth] = forced
        nxt[depth] = 0
        if order != 0:
            # the candidates from x in search order (as order_candidates)
            out = cand[depth]
            low, high = min(low, depth), max(high, depth)
            last = remaining == 1
            m = 0
            for j, u in enumerate(moves):
                if seen[u] or (u == fixed_end and not last):
                    continue
                t = m
                if order == 1:
                    du = deg[u]
                    while t > 0 and deg[moves[out[t - 1]]] > du:
                        out[t] = out[t - 1]
                        t -= 1
                out[t] = j
                m += 1
            count_at[depth] = m
    regs[REG_DEPTH], regs[REG_NODES], regs[REG_COUNT] = depth, nodes, count
    visited[:], degree[:] = seen, deg
    stack_square[:], stack_next[:], stack_forced[:] = square, nxt, forced_at
    if not fixed:
        stack_count[:] = count_at
        if low <= high:
            stack_cand[low:high + 1] = cand[low:high + 1]
    return code


#: The kernel's ``advance_count``, called with the fixed order, no stop at a tour and none left on the stack:
#: :func:`advance` serves.
advance_count = advance


def probe(table, near, visited0, degree0, prefix, forced0, end_ok, fixed_end, n_free, probes, rng) -> float:
    """The kernel's ``probe``: Knuth's estimate of the search tree's size, from the same random descents
    (``rng``, the generator's state in a one-element uint64 array, is advanced in place). It walks each
    row's real moves, as :func:`advance` does (the arrays it changes are copies, so the extra square's
    degree is left as it is)."""
    rows, real, _, apart = _moves_of(table, near)
    ok = end_ok.tolist()
    seen0, deg0 = visited0.tolist(), degree0.tolist()
    fixed_end, n_free = int(fixed_end), int(n_free)
    state = [int(rng[0])]
    total = 0.0
    choice, forced_of = [0] * table.shape[1], [0] * table.shape[1]
    for _ in range(int(probes)):
        seen, deg = seen0[:], deg0[:]
        c = int(prefix[-1])
        depth = prefix.shape[0] - 1
        forced = int(forced0)
        product = 1.0
        estimate = 0.0
        while True:
            remaining = n_free - depth - 2
            m = 0
            for j, x in enumerate(real[c]):
                if seen[x] or (x == fixed_end and remaining > 0):
                    continue
                if remaining == 0:
                    if ok[x]:
                        choice[m], forced_of[m] = j, forced
                        m += 1
                    continue
                f = _enter(real, apart, seen, deg, c, j, x, forced, ok, remaining)
                moves = real[x]
                seen[x] = 0
                for u in moves:
                    deg[u] += 1
                if f != -2:
                    choice[m], forced_of[m] = j, f
                    m += 1
            if m == 0:
                break
            product *= m
            estimate += product
            if remaining == 0:
                break
            pick = xorshift(state) % m
            x = rows[c][choice[pick]]
            forced = forced_of[pick]
            _visit(real, seen, deg, x)
            c = x
            depth += 1
        total += estimate
    rng[0] = state[0]
    return total / int(probes)
