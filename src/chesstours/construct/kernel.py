"""The compiled loop of the construction: follow a step field from the start square.

Apart from :mod:`chesstours.construct.build` so that planning a construction
(and asking whether one applies) does not load numba.
"""

from __future__ import annotations

import numba

__all__ = ["follow"]


@numba.njit(cache=True, nogil=True)
def follow(step, start, path):
    """Follow ``step`` from ``start`` into ``path``; return (squares written, square after the last).

    Stops at a square whose step is 0 (the end of an open tour) or when the
    path is full; returns -1 squares if a step leaves the board (a bug).
    """
    size = step.size
    v = start
    for i in range(path.size):
        path[i] = v
        d = step[v]
        if d == 0:
            return i + 1, v
        v += d
        if v < 0 or v >= size:
            return -1, v
    return path.size, v
