"""Why a tour cannot exist -- or must: arguments a student can check by hand.

Before any search, chesstours looks for an argument that settles the question:

colour
    An (a, b)-leaper with a + b odd (the knight) always lands on the other
    colour, so a tour alternates colours. A closed tour needs as many dark
    squares as light ones; an open tour allows one more of one colour, and
    then starts and ends on that colour. A leaper with a + b even never
    changes colour, so it cannot tour a board that has both colours.
connectivity
    A square with no move cannot be reached; a closed tour needs two moves
    at every square; an open tour can pass through a square with one move
    only at one of its two ends; and if the leaper's moves split the board
    into separate parts, no tour covers both (Knuth 1994 says exactly when
    that happens on a whole board).
theorem
    For the knight on a whole board, the theorems of
    :mod:`chesstours.existence.theorems` (Schwenk 1991; Cull & De Curtins 1978;
    Conrad, Hindrichs, Morsy & Wegener 1994; the outer ranks of 4 x n)
    decide every whole board and many start squares and end pairs, by
    arithmetic alone, on boards of any size; on a board four squares wide
    with holes, Schwenk's outer/inner argument counts the outer and inner
    squares the holes left.

:func:`decide` returns the first argument that applies, as a
:class:`~chesstours.existence.theorems.Verdict`; :func:`obstruction` turns a "no"
into a :class:`~chesstours.errors.NoTour` whose ``reason`` is the sentence
to show and whose ``proof`` names the kind of argument. Neither searches:
:func:`chesstours.tour_exists` searches where they are silent.

References
----------
.. [1] A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
   Mathematics Magazine 64(5):325-332, 1991.
.. [2] P. Cull and J. De Curtins, "Knight's tour revisited", Fibonacci
   Quarterly 16:276-285, 1978.
.. [3] A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, "Solution of the
   knight's Hamiltonian path problem on chessboards", Discrete Applied
   Mathematics 50:125-134, 1994.
.. [4] D. E. Knuth, "Leaper graphs", Mathematical Gazette 78:274-297, 1994.

Examples
--------
>>> from chesstours.board import Board
>>> print(obstruction(Board(5, 5), closed=True).reason)
No closed tour: 5x5 has 25 squares, an odd number. A knight alternates colours, so a closed tour needs as many light squares as dark ones.
>>> obstruction(Board(8, 8)) is None
True
>>> decide(Board(8, 8), start=Board(8, 8).square("a1"), end=Board(8, 8).square("h7")).theorem
'Conrad et al. 1994'
"""

from __future__ import annotations

from .reasons import colour_counts, components, decide, obstruction, open_theorem, schwenk_closed
from .search import as_tour, search_tour
from .theorems import (
    Verdict,
    closed_knight_tour_exists,
    knight_verdict,
    leaper_connected,
    open_knight_tour_exists,
)

__all__ = ["decide", "obstruction", "colour_counts", "components", "schwenk_closed", "open_theorem", "Verdict", "knight_verdict", "leaper_connected", "closed_knight_tour_exists", "open_knight_tour_exists", "search_tour", "as_tour"]
