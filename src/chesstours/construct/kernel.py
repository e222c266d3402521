"""The compiled loops of the construction: follow a step field from the start square, and Pósa's rotations.

Apart from :mod:`chesstours.construct.build` and :mod:`chesstours.construct.end`
so that planning a construction (and asking whether one applies) does not load
numba; :mod:`chesstours.construct.plain` holds their plain-Python twins, which
small boards use.
"""

from __future__ import annotations

import numba
import numpy as np

from ..runtime import kernel
from ..runtime.index_kernel import unsigned
from ..runtime.xorshift_kernel import xorshift as _xorshift

__all__ = ["follow", "rotate"]


@kernel("construction")
@numba.njit(cache=True, nogil=True)
def follow(step, start, path):
    """Follow ``step`` from ``start`` into ``path``; return (squares written, square after the last).

    Stops at a square whose step is 0 (the end of an open tour) or when the
    path is full; returns -1 squares if the start is off the board or a step
    leaves it (a bug). The steps are read as unsigned indexes, so that numba
    adds no test for negative indices to each read.
    """
    size = step.size
    v = start
    if v < 0 or v >= size:
        return -1, v
    for i in range(path.size):
        path[i] = v
        d = step[unsigned(v)]  # on the board (tested above and below)
        if d == 0:
            return i + 1, v
        v += d
        if v < 0 or v >= size:
            return -1, v
    return path.size, v


@kernel("construction")
@numba.njit(cache=True, nogil=True)
def _knight_distance(a, b, cols):
    """A lower bound on the knight moves from ``a`` to ``b`` (exact far from the edges)."""
    dr = abs(a // cols - b // cols)
    dc = abs(a % cols - b % cols)
    d = max((dr + 1) // 2, (dc + 1) // 2)
    return max(d, (dr + dc + 2) // 3)


@kernel("construction")
@numba.njit(cache=True, nogil=True)
def rotate(path, rows, cols, end, work_limit, rng, dr, dc):
    """Rotate ``path`` (in place) until it ends at ``end``; return the squares moved
    (the work done), or -1 when ``work_limit`` ran out or no rotation was left.

    ``pos[v]`` is the index of square ``v`` in the path; ``last_end[v]`` the
    rotation at which ``v`` was last the end (-1: never), so the search
    prefers new ends and does not circle. Ties are broken by
    :mod:`chesstours.runtime.xorshift`'s generator, whose state ``rng`` is advanced in place.
    """
    n = path.size
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        pos[path[i]] = i
    last_end = np.full(n, -1, dtype=np.int64)
    work = 0
    rotation = 0
    while path[n - 1] != end:
        if work > work_limit:
            return -1
        x = path[n - 1]
        last_end[x] = rotation
        xr, xc = x // cols, x % cols
        best_i, best_score = -1, 1 << 62
        for k in range(8):
            r, c = xr + dr[k], xc + dc[k]
            if r < 0 or r >= rows or c < 0 or c >= cols:
                continue
            i = pos[r * cols + c]
            if i >= n - 2:  # x's own predecessor: rotating there changes nothing
                continue
            y = path[i + 1]
            if y == end:
                best_i = i
                break
            score = 16 * _knight_distance(y, end, cols) + np.int64(_xorshift(rng) % np.uint64(24))
            if last_end[y] >= 0:  # been the end before: go there only to escape
                score += 1 << 20
            if score < best_score:
                best_i, best_score = i, score
        if best_i < 0:
            return -1
        lo, hi = best_i + 1, n - 1
        work += hi - lo + 1
        while lo < hi:
            a, b = path[lo], path[hi]
            path[lo], path[hi] = b, a
            pos[b], pos[a] = lo, hi
            lo += 1
            hi -= 1
        rotation += 1
    return work
