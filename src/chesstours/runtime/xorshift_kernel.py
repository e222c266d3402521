"""The compiled step of :func:`chesstours.runtime.xorshift.xorshift`, for the kernels that draw at random.

Kept apart from :mod:`chesstours.runtime.xorshift` so that the plain-Python twins can draw
without loading numba; every kernel that chooses at random (Warnsdorff's
random tie-break, the construction's end rotation, Knuth's probes of a
backtracking tree) calls this one copy.
"""

from __future__ import annotations

import numba
import numpy as np

from .kernels import kernel

__all__ = ["xorshift"]


@kernel("backtracking")
@numba.njit(cache=True, nogil=True)
def xorshift(state):
    """One step of xorshift64* (:func:`chesstours.runtime.xorshift.xorshift`); ``state`` is a one-element uint64 array."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)
