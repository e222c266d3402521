"""Compiled kernel of Warnsdorff's rule (see :mod:`chesstours.warnsdorff`).

Kept apart so that importing chesstours, and touring small boards, does not
pay numba's start-up; :func:`walk` is bit-for-bit the same walk as
:func:`chesstours.warnsdorff.rule.walk_python`.

A square plus a leap is never negative on the padded board, and the leap chosen
is never -1 once it is used: both index the arrays unsigned
(:func:`chesstours.runtime.index_kernel.unsigned`), so that numba adds no test for
negative indices, a shift and a mask on every access of the walk.
"""

from __future__ import annotations

import numba
import numpy as np

from ..runtime import kernel
from ..runtime.index_kernel import unsigned
from ..runtime.xorshift_kernel import xorshift as _xorshift
from .rule import BLOCKED as _BLOCKED
from .rule import FREE_BELOW as _FREE_BELOW

__all__ = ["walk"]


@kernel("warnsdorff")
@numba.njit(cache=True, nogil=True, inline="always")
def _place(weight, offsets, k, cur, square, path, step):
    """Put the walk on padded square ``cur`` (``square`` unpadded) at ``step``: block it, and take one from
    the weight of each of its ``k`` neighbours."""
    weight[unsigned(cur)] = _BLOCKED
    for j in range(k):
        weight[unsigned(cur + offsets[j])] -= 1
    path[step] = square


@kernel("warnsdorff")
@numba.njit(cache=True, nogil=True)
def walk(weight, offsets, dr, dc, width, rows, cols, start_r, start_c, end, rule, rng, path):
    """Walk Warnsdorff's rule from (``start_r``, ``start_c``); return the squares placed.

    ``weight`` (int8, padded board) holds each free square's count of free
    neighbours and ``_BLOCKED`` on visited squares, holes and the frame.
    ``path`` receives unpadded square indices. ``end`` (a padded index, or -1)
    is kept for the last move. Returns how many squares were placed; fewer
    than ``len(path)`` means a dead end.

    For ``first`` and ``roth`` each candidate gets one integer key, weight
    first and tie-break second, and the smallest key wins. Roth's distance
    needs no square root: every leap has the same length, so among the
    squares one leap from (r, c) the farthest from the centre is the one
    whose offset (dr, dc) has the largest dot product with the vector from
    the centre to (r, c).
    """
    n = path.shape[0]
    k = offsets.shape[0]
    frame = (width - cols) // 2
    r, c = start_r, start_c
    cur = (r + frame) * width + c + frame
    _place(weight, offsets, k, cur, r * cols + c, path, 0)
    if k == 8 and end < 0 and (rule == 0 or rule == 2):
        return _keyed8(weight, offsets, dr, dc, rows, cols, cur, r, c, rule == 2, path)
    big = np.int64(1) << 40
    for step in range(1, n):
        last = step == n - 1
        best = -1
        if rule == 0 or rule == 2:
            # x, y: twice the vector from the centre to (r, c); zero for "first".
            x = (2 * r - rows + 1) if rule == 2 else 0
            y = (2 * c - cols + 1) if rule == 2 else 0
            best_key = big * _FREE_BELOW
            for j in range(k):
                u = cur + offsets[j]
                w = weight[unsigned(u)]
                if w >= _FREE_BELOW or (u == end and not last):
                    continue
                key = w * big - (x * dr[j] + y * dc[j])
                if key < best_key:
                    best, best_key = j, key
        else:
            best_weight = _FREE_BELOW
            best_score = 0
            ties = 0
            for j in range(k):
                u = cur + offsets[j]
                w = weight[unsigned(u)]
                if w > best_weight or w >= _FREE_BELOW or (u == end and not last):
                    continue
                score = 0
                if rule == 1:  # pohl: smallest total weight of the onward squares
                    for i in range(k):
                        t = weight[unsigned(u + offsets[i])]
                        if t < _FREE_BELOW:
                            score += t
                if w < best_weight:
                    best, best_weight, best_score, ties = j, w, score, 1
                elif score < best_score:
                    best, best_score, ties = j, score, 1
                elif score == best_score:
                    ties += 1
                    if rule == 3 and _xorshift(rng) % np.uint64(ties) == 0:
                        best = j  # random: reservoir sampling over the ties
        if best < 0:
            return step
        at = unsigned(best)
        cur += offsets[at]
        r += dr[at]
        c += dc[at]
        _place(weight, offsets, k, cur, r * cols + c, path, step)
    return n


@kernel("warnsdorff")
@numba.njit(cache=True, nogil=True)
def _keyed8(weight, offsets, dr, dc, rows, cols, cur, r, c, roth, path):
    """:func:`walk` for the commonest case, step for step the same: eight leaps, ``first`` or ``roth``, no
    square kept for the end. The loops over a fixed eight leaps, with no end to test, compile to straight
    code, quicker on large boards than the general loop."""
    n = path.shape[0]
    big = np.int64(1) << 40
    for step in range(1, n):
        x = (2 * r - rows + 1) if roth else 0
        y = (2 * c - cols + 1) if roth else 0
        best_key = big * _FREE_BELOW
        best = -1
        for j in range(8):
            w = np.int64(weight[unsigned(cur + offsets[j])])
            if w >= _FREE_BELOW:
                continue
            key = w * big - (x * dr[j] + y * dc[j])
            if key < best_key:
                best, best_key = j, key
        if best < 0:
            return step
        at = unsigned(best)
        cur += offsets[at]
        r += dr[at]
        c += dc[at]
        _place(weight, offsets, 8, cur, r * cols + c, path, step)
    return n
