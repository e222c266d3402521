"""Backtracking: find, list and count tours by exhaustive depth-first search.

The method of a 2011 student research dossier (TIPE) on the knight's tour
(Algorithms 2-4), of a Prolog knight's tour, of a Go knight's tour with one
thread per first move, and of a classic page on the decision problem "can the
knight visit every square of an n x n board from its corner?": extend the
path by one free square at a time; when no square is left, step back to
the last choice that still has an untried square (D. H. Lehmer's
"backtrack"). The search is complete: it finds every tour that extends the
starting path, so it proves that none exists when it finds none.

The kernel uses an explicit stack -- ``stack_square``, ``stack_next`` and a
candidate list per depth -- instead of recursion, and is resumable: it stops
after a budget of nodes, or at each tour found, and carries on from the same
place when called again. That is what makes lazy iteration, time limits,
progress reports and Ctrl-C possible around a compiled loop. On a small
board the first positions of a search are searched by a plain-Python twin
of the kernel (:mod:`chesstours.backtrack.plain`) on the same arrays: a
small search is over before numba could load, and a large one goes on in
the kernel where Python left it (:class:`Search`).

Pruning keeps the search complete while cutting dead branches early. Write
``a(u)`` for the number of ways an unvisited square ``u`` can still be joined
to the path: its unvisited neighbours, plus one if it is next to the current
square. The rest of the tour is a path that starts at the current square, so
every square on it needs two such links except its last square, which needs
one. Hence, after each move:

* a square with ``a(u) = 0`` can never be reached: dead end;
* a square with ``a(u) = 1`` must be the last square of the tour: there can be
  only one such square, it must be an allowed end, and if it is next to the
  current square it must be the very next and last move.

Only the neighbours of the old and the new current square change ``a``, so the
test costs O(K) per move. ``a`` never grows as the path grows, so the forced
last square, once found, is kept for the whole subtree.

Move order is ``fixed`` (the leaper's move order, as in those programs) or
``warnsdorff`` (unvisited squares with fewest onward moves first, ties in move
order) -- the order decides how soon the first tour comes, not how many
nodes an exhaustive count visits.

Closed tours are found with the end restricted to the start's neighbours, and
counted without double counting by fixing both neighbours of the start that a
cycle uses (see :func:`closed_tasks`).

References
----------
.. [1] D. H. Lehmer, "Combinatorial problems with digital computers", 1958.
.. [2] R. J. Walker, "An enumerative technique for a class of combinatorial
   problems", 1960 (the name "backtrack").

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import move_table, KNIGHT
>>> table = move_table(Board(5, 5), KNIGHT)
>>> search = Search(table, [0])
>>> search.run(), search.count
('exhausted', 304)
"""

from __future__ import annotations

from .layout import ORDERS, Order
from .search import BUDGET, EXHAUSTED, FOUND, Search
from .tasks import (
    NODES_PER_SECOND,
    Task,
    TaskResult,
    closed_tasks,
    estimate_nodes,
    first_tour,
    open_tasks,
    run_tasks,
    split_tasks,
)

__all__ = ["Search", "Order", "ORDERS", "FOUND", "EXHAUSTED", "BUDGET", "Task", "TaskResult", "open_tasks", "closed_tasks", "split_tasks", "run_tasks", "first_tour", "estimate_nodes", "NODES_PER_SECOND"]
