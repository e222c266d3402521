"""Warnsdorff's rule: always move to the square with the fewest onward moves.

H. C. von Warnsdorff (1823) proposed the rule for the knight; a 2011 student
research dossier (TIPE) on the knight's tour (its Algorithm 1) gives it as
weights ("poids") equal to the number of squares reachable from each square,
the knight moving to a free square of least weight. It runs in
linear time and needs no backtracking, but it is a heuristic: it can reach a
dead end, and with plain tie-breaking it fails more and more often as boards
grow (Squirrel & Cull 1996: under 5 % success beyond 200 x 200 with random
ties).

What decides the rule is how ties between squares of equal weight are broken:

``first``
    The first square in the fixed move order wins (that dossier's strict ``<``).
``pohl``
    Pohl (1967), CACM 10(7): among tied squares, the one whose onward squares
    have the smallest total weight (the rule applied one move further).
``roth``
    Roth: the tied square farthest from the centre of the board (Euclidean).
``random``
    A tied square chosen uniformly at random, from a seeded generator.

The kernel keeps the weights incrementally: visiting a square lowers the weight
of each of its free neighbours by one, so each step costs O(K) for a K-move
leaper. It works on a board padded with a frame of blocked squares as wide as
the longest leap, so a move needs no bounds test; holes are blocked squares.

References
----------
.. [1] H. C. von Warnsdorff, "Des Rösselsprunges einfachste und allgemeinste
   Lösung", Schmalkalden, 1823.
.. [2] I. Pohl, "A method for finding Hamilton paths and Knight's tours",
   Communications of the ACM 10(7):446-449, 1967.
.. [3] D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's
   tours on square chessboards", 1996.

Examples
--------
>>> from chesstours.board import Board
>>> result = warnsdorff(Board(8, 8), start=0, tiebreak="first")
>>> result.complete, len(result.path)
(True, 64)
"""

from __future__ import annotations

from .rule import TIEBREAKS, walk_python
from .walk import COMPILED_ABOVE, WarnsdorffResult, warnsdorff

__all__ = ["TIEBREAKS", "WarnsdorffResult", "warnsdorff", "walk_python", "COMPILED_ABOVE"]
