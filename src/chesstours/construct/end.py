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
before and breaking ties at random (seeded, :mod:`chesstours.runtime.xorshift`), until the end is ``e``. It
needs about as many rotations as ``e`` is knight moves away, each costing
the length of the tail it reverses (on average a fraction of the board), so
it gives up after a budget of work that grows with the distance to ``e``
(:func:`work_budget`): about a second for opposite corners of 1000x1000. A
rotation keeps the colour of the end square, which is all the colour rules
need: on a board with an even number of squares the end keeps the colour
opposite the start's.

On a board with a closed tour, a tour from ``s`` that ends on a knight move
from ``s`` is a closed tour: that is how a closed tour with both ends fixed
is found. The rotations are a compiled loop
(:func:`chesstours.construct.kernel.rotate`), or its plain-Python twin on
boards of at most :data:`~chesstours.construct.plain.COMPILED_ABOVE` squares.

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

import numpy as np

from ..runtime import compiled_below
from ..runtime.xorshift import seeded
from .plain import COMPILED_ABOVE, KERNELS, knight_distance, rotate_python

__all__ = ["MAX_WORK", "rotate_to_end", "work_budget"]

#: Squares the reversals may move, per square of the board and knight move from the end to ``e``
#: (measured: 0.1 to 1 is used), plus a fixed allowance per square for the last moves.
WORK_PER_DISTANCE, WORK_SLACK = 2, 64
#: Most squares the reversals may move in all (a few seconds).
MAX_WORK = 4_000_000_000

_DR = np.array([1, 2, 2, 1, -1, -2, -2, -1], dtype=np.int64)
_DC = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)


def work_budget(squares: int, cols: int, last: int, end: int) -> int:
    """Squares the reversals may move to bring the end of a tour of ``squares``
    squares from ``last`` to ``end``."""
    distance = knight_distance(int(last), int(end), int(cols))
    return min(MAX_WORK, squares * (WORK_PER_DISTANCE * distance + WORK_SLACK))


def rotate_to_end(path: np.ndarray, rows: int, cols: int, end: int, seed: int = 0,
                  compiled: bool | None = None) -> np.ndarray | None:
    """``path`` (a knight's tour of the whole rows x cols board, changed in place)
    made to end at ``end`` by rotations, keeping its first square; None when the
    budget of work (:func:`work_budget`) runs out first.

    ``compiled``: force the compiled loop (True) or the plain-Python one (False);
    by default tours above :data:`~chesstours.construct.plain.COMPILED_ABOVE` squares are compiled.
    """
    path = np.ascontiguousarray(path, dtype=np.int32)
    if path[0] == end:
        return None
    limit = work_budget(path.size, cols, int(path[-1]), end)
    if compiled is None:
        compiled = compiled_below(path.size, COMPILED_ABOVE, KERNELS)
    if compiled:
        from .kernel import rotate
    else:
        rotate = rotate_python
    rng = np.array([seeded(seed)], dtype=np.uint64)
    if rotate(path, int(rows), int(cols), int(end), limit, rng, _DR, _DC) >= 0:
        return path
    return None
