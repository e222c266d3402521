"""The construction's loops in plain Python: following a step field, and Pósa's rotations.

Twins of :mod:`chesstours.construct.kernel` with the same results: a board
of at most :data:`COMPILED_ABOVE` squares is done here before numba could
load (a millisecond for 4096 squares), larger ones by the compiled loops;
the tests hold the two to each other.
"""

from __future__ import annotations

import numpy as np

from ..runtime.xorshift import xorshift
from ..settings import CONSTRUCT_COMPILED_ABOVE as COMPILED_ABOVE

__all__ = ["COMPILED_ABOVE", "KERNELS", "follow_python", "knight_distance", "rotate_python"]

#: The module of the compiled loops: once a process has loaded it, the loops run compiled on every board.
KERNELS = "chesstours.construct.kernel"


def follow_python(step: np.ndarray, start: int, path: np.ndarray) -> tuple[int, int]:
    """:func:`chesstours.construct.kernel.follow`: follow ``step`` from ``start`` into ``path``; return
    (squares written, square after the last), -1 squares if the start is off the board or a step leaves it."""
    steps, size = step.tolist(), step.size
    out: list[int] = []
    v = int(start)
    if v < 0 or v >= size:
        return -1, v
    while len(out) < path.size:
        out.append(v)
        d = steps[v]
        if d == 0:
            break
        v += d
        if v < 0 or v >= size:
            path[: len(out)] = out
            return -1, v
    path[: len(out)] = out
    return len(out), v


def knight_distance(a: int, b: int, cols: int) -> int:
    """A lower bound on the knight moves from ``a`` to ``b`` (exact far from the edges)."""
    dr = abs(a // cols - b // cols)
    dc = abs(a % cols - b % cols)
    d = max((dr + 1) // 2, (dc + 1) // 2)
    return max(d, (dr + dc + 2) // 3)


def rotate_python(path: np.ndarray, rows: int, cols: int, end: int, work_limit: int, rng: np.ndarray,
                  dr: np.ndarray, dc: np.ndarray) -> int:
    """:func:`chesstours.construct.kernel.rotate`, step for step: rotate ``path`` (in place) until it ends at
    ``end``; return the squares moved, or -1 when ``work_limit`` ran out or no rotation was left."""
    way = path.tolist()
    n = len(way)
    drs, dcs = dr.tolist(), dc.tolist()
    pos = [0] * n
    for i, v in enumerate(way):
        pos[v] = i
    last_end = [-1] * n
    state = [int(rng[0])]
    work = rotation = 0
    result = 0
    while way[n - 1] != end:
        if work > work_limit:
            result = -1
            break
        x = way[n - 1]
        last_end[x] = rotation
        xr, xc = x // cols, x % cols
        best_i, best_score = -1, 1 << 62
        for k in range(8):
            r, c = xr + drs[k], xc + dcs[k]
            if r < 0 or r >= rows or c < 0 or c >= cols:
                continue
            i = pos[r * cols + c]
            if i >= n - 2:
                continue
            y = way[i + 1]
            if y == end:
                best_i = i
                break
            score = 16 * knight_distance(y, end, cols) + xorshift(state) % 24
            if last_end[y] >= 0:
                score += 1 << 20
            if score < best_score:
                best_i, best_score = i, score
        if best_i < 0:
            result = -1
            break
        lo, hi = best_i + 1, n - 1
        work += hi - lo + 1
        way[lo:] = way[lo:][::-1]
        for i in range(lo, n):
            pos[way[i]] = i
        rotation += 1
    else:
        result = work
    path[:] = way
    rng[0] = state[0]
    return result
