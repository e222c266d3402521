"""Compiled tests of a found tour against a property (see :mod:`chesstours.backtrack.where`).

Each takes the tour as an ``int32`` array of squares in visiting order and
answers in one pass over it.
"""

from __future__ import annotations

import numba
import numpy as np

from ..runtime import kernel

__all__ = ["maps_onto_itself", "meets_clues"]


@kernel("tour properties")
@numba.njit(cache=True, nogil=True)
def maps_onto_itself(path, image, closed):
    """True when the squares ``image[v]`` of the tour's edges are again its edges (closed: with the closing leap).

    ``image`` is a permutation of the board's squares (a rotation, say); an
    edge ``u-v`` of the tour maps to ``image[u]-image[v]``, which must join
    two squares next to each other on the tour.
    """
    n = path.size
    at = np.full(image.size, -1, np.int64)  # at[v]: where square v comes on the tour
    for i in range(n):
        at[path[i]] = i
    edges = n if closed else n - 1
    for i in range(edges):
        a = at[image[path[i]]]
        b = at[image[path[(i + 1) % n]]]
        if a < 0 or b < 0:
            return False
        gap = abs(a - b)
        if gap != 1 and not (closed and gap == n - 1):
            return False
    return True


@kernel("tour properties")
@numba.njit(cache=True, nogil=True)
def meets_clues(path, squares, steps):
    """True when square ``squares[j]`` is the tour's move number ``steps[j]`` (1-based), for every ``j``."""
    for j in range(squares.size):
        k = steps[j] - 1
        if k >= path.size or path[k] != squares[j]:
            return False
    return True
