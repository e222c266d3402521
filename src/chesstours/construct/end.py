"""Moving the last square of a constructed knight's tour: Pósa's rotations.

The construction (:mod:`chesstours.construct.build`) decides where its tour
ends: next to the start for a closed tour. To end on a chosen square ``e``,
the path is changed by *rotations* (Pósa 1976), keeping its first square:
if the path ``c0 c1 ... c(N-1)`` ends at ``x = c(N-1)`` and ``c(i)`` is a
knight move from ``x``, then ``c0 ... c(i) c(N-1) c(N-2) ... c(i+1)`` is
again a tour, one that ends at ``c(i+1)``. A rotation replaces one move by
another and reverses the tail after it.

Each rotation moves the end by at most two knight moves, so the search here
is greedy: of the ends one rotation can reach, take the one nearest ``e``
(in knight moves, estimated), preferring squares that have not been the end
before and breaking ties at random (seeded), until the end is ``e``. It
needs about as many rotations as ``e`` is knight moves away, each costing
the length of the tail it reverses (on average a fraction of the board), so
it gives up after a budget of work that grows with the distance to ``e``
(:func:`work_budget`): about a second for opposite corners of 1000x1000. A
rotation keeps the colour of the end square, which is all the colour rules
need: on a board with an even number of squares the end keeps the colour
opposite the start's.

On a board with a closed tour, a tour from ``s`` that ends on a knight move
from ``s`` is a closed tour: that is how a closed tour with both ends fixed
is found.

References
----------
.. [1] L. Pósa, "Hamiltonian circuits in random graphs", Discrete
   Mathematics 14(4):359-364, 1976.
.. [2] A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, "Solution of the
   knight's Hamiltonian path problem on chessboards", Discrete Applied
   Mathematics 50:125-134, 1994 (which pairs of ends have a tour).

Examples
--------
>>> import numpy as np
>>> from chesstours.construct.build import construct_path
>>> path, closed = construct_path(8, 8, 0, True)
>>> moved = rotate_to_end(path.copy(), 8, 8, 62)   # from a1 to g8
>>> int(moved[0]), int(moved[-1]), sorted(moved.tolist()) == list(range(64))
(0, 62, True)
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["MAX_WORK", "rotate_to_end", "work_budget"]

#: Squares the reversals may move, per square of the board and knight move from the end to ``e``
#: (measured: 0.1 to 1 is used), plus a fixed allowance per square for the last moves.
WORK_PER_DISTANCE, WORK_SLACK = 2, 64
#: Most squares the reversals may move in all (a few seconds).
MAX_WORK = 4_000_000_000

_DR = np.array([1, 2, 2, 1, -1, -2, -2, -1], dtype=np.int64)
_DC = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def _knight_distance(a, b, cols):
    """A lower bound on the knight moves from ``a`` to ``b`` (exact far from the edges)."""
    dr = abs(a // cols - b // cols)
    dc = abs(a % cols - b % cols)
    d = max((dr + 1) // 2, (dc + 1) // 2)
    return max(d, (dr + dc + 2) // 3)


@numba.njit(cache=True, nogil=True)
def _rotate(path, rows, cols, end, work_limit, seed, dr, dc):
    """Rotate ``path`` (in place) until it ends at ``end``; return the squares moved
    (the work done), or -1 when ``work_limit`` ran out or no rotation was left.

    ``pos[v]`` is the index of square ``v`` in the path; ``last_end[v]`` the
    rotation at which ``v`` was last the end (-1: never), so the search
    prefers new ends and does not circle.
    """
    n = path.size
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        pos[path[i]] = i
    last_end = np.full(n, -1, dtype=np.int64)
    np.random.seed(seed)
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
            score = 16 * _knight_distance(y, end, cols) + np.random.randint(0, 24)
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


def work_budget(squares: int, cols: int, last: int, end: int) -> int:
    """Squares the reversals may move to bring the end of a tour of ``squares``
    squares from ``last`` to ``end``."""
    distance = int(_knight_distance(int(last), int(end), int(cols)))
    return min(MAX_WORK, squares * (WORK_PER_DISTANCE * distance + WORK_SLACK))


def rotate_to_end(path: np.ndarray, rows: int, cols: int, end: int, seed: int = 0) -> np.ndarray | None:
    """``path`` (a knight's tour of the whole rows x cols board, changed in place)
    made to end at ``end`` by rotations, keeping its first square; None when the
    budget of work (:func:`work_budget`) runs out first.
    """
    path = np.ascontiguousarray(path, dtype=np.int32)
    if path[0] == end:
        return None
    limit = work_budget(path.size, cols, int(path[-1]), end)
    if _rotate(path, int(rows), int(cols), int(end), limit, int(seed), _DR, _DC) >= 0:
        return path
    return None
