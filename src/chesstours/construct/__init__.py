"""Knight's tours of any size in linear time, by divide and conquer.

Warnsdorff's rule fails more and more often as boards grow, and backtracking
cannot finish a board of a million squares. The construction of Parberry
(1997) and Lin & Wei (2005) can: cut the board into small pieces, put a tour
found once by search (kept as package data) on each piece, and join the
pieces' tours into one with local changes. Every whole m x n board that has a
knight's tour gets one, in O(mn) time and memory:

* closed tours wherever Schwenk's theorem allows one; an open tour from any
  square is then the closed tour started there;
* open tours on odd x odd boards from any square of the corners' colour (the
  only squares a tour can start from), and on 3 x n and 4 x n boards from any
  square a tour can start from.

Boards with both sides at least 5 are cut into blocks
(:mod:`~chesstours.construct.blocks`); boards 3 or 4 squares wide
into pieces along their length (:mod:`~chesstours.construct.strips`).
A board too small to cut is itself a stored tour. Either way the tour is built
as a *step field* -- for each square, the difference to the next square --
written by numpy for whole runs of identical pieces at once, and then read off
from the start square by one compiled loop (:func:`follow_steps`; plain Python
on boards of at most :data:`COMPILED_ABOVE` squares, which it has done before
numba could load).

The construction ends its tour where its pieces end it (next to the start,
for a closed tour). An end square asked for is then reached by Pósa's
rotations (:mod:`~chesstours.construct.end`): a tour from ``s`` to
any ``e`` the theory allows on boards with both sides at least 5, and a
closed tour from ``s`` whose last square is any knight move from ``s``; on
3 x n and 4 x n boards the rotations often succeed but are not promised.

References
----------
.. [1] I. Parberry, "An efficient algorithm for the Knight's tour problem",
   Discrete Applied Mathematics 73(3):251-260, 1997.
.. [2] S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's
   tours on arbitrary n x m chessboards", Discrete Applied Mathematics
   146(3):219-232, 2005.
.. [3] A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
   Mathematics Magazine 64(5):325-332, 1991.
.. [4] A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, "Solution of the
   knight's Hamiltonian path problem on chessboards", Discrete Applied
   Mathematics 50:125-134, 1994.

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.errors import NoTour
>>> tour = construct_tour(Board(1000, 1000), start=0, closed=True)
>>> tour.validate(); len(tour), tour.closed
(1000000, True)
>>> construct_tour(Board(3, 11), start=Board(3, 11).square("e3")).board
Board(3x11)
>>> try:
...     construct_tour(Board(3, 11), start=Board(3, 11).square("c2"))
... except NoTour as exc:
...     print(exc.proof, "--", exc.reason[-27:])
colour -- a dark square; c2 is light.
"""

from __future__ import annotations

from .build import can_construct, construct_path, construct_tour, follow_steps
from .plain import COMPILED_ABOVE

__all__ = ["construct_tour", "construct_path", "follow_steps", "can_construct", "COMPILED_ABOVE"]
