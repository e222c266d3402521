"""Indexes that numba reads without its test for a negative index, for the kernels of every family.

numba adds an array's length to a negative signed index: a test and an add
at each read, which LLVM drops only where it can prove the index is not
negative. For slots read from a plan's arrays, a loop from a variable start,
a table slot from a hash, a depth read from a stack or a square plus a leap
on a padded board, it cannot. An unsigned index has no test: the frontier's
``expand`` runs 10 per cent quicker on 6x8 open, backtracking's search and
Warnsdorff's walk 10 and 22 per cent on 6x6 and 5000x5000
(``python benchmarks/bench_vs_c.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from .kernels import kernel

__all__ = ["unsigned", "ONE"]

#: One, unsigned: an unsigned index less one stays unsigned (numba makes a float of ``uint64 - int``).
ONE = np.uint64(1)


@kernel("backtracking")
@numba.njit(cache=True, inline="always")
def unsigned(x):
    """``x``, never negative, as an index numba reads without its test for a negative index."""
    return np.uint64(x)
