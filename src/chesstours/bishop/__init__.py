"""The bishop puzzle of a Delphi program: visit every square of one colour, corner to corner.

A bishop starts on a square (a1 in the puzzle) and steps one diagonal square at
a time. Each square has two flags, one per diagonal direction; a step along a
direction needs the destination's flag for that direction clear, and sets it
on both squares. So no diagonal link is used twice and a square is entered
at most twice. A route is solved when it has visited every square of the
start's colour and stands on its end square (the opposite corner in the
puzzle). The rule and its checker are :mod:`chesstours.bishop.route`; the
search, a resumable depth-first search with pruning and a branch and bound on
the number of slides, is :mod:`chesstours.bishop.search` over the compiled
kernel :mod:`chesstours.bishop.kernel` (on a small board, its first steps in
the plain-Python twin :mod:`chesstours.bishop.plain`, which moves alike).

``solve_bishop`` returns one route (the first in the Delphi program's move order, or
one with the fewest slides), ``iter_bishop_routes`` lists routes lazily and
``count_bishop_routes`` counts them exactly. Every route returned has passed
:meth:`BishopRoute.validate`. The rule is in :mod:`chesstours.bishop.route`, the
search in :mod:`chesstours.bishop.search`.

Before searching, two facts answer many boards at once. A square of the
start's colour with no diagonal neighbour can never be reached. A square with
one diagonal neighbour (a corner) is a dead end: the bishop enters it by its
only link and could leave only by that link again, which the rule forbids --
so a route that enters it ends there. Two such squares besides the start, or
one that is not the required end, leave no route: that is why no odd x odd
board has a route from a corner (its other three corners have the same
colour).

Examples
--------
>>> import chesstours as ct
>>> route = ct.solve_bishop("8x8", shortest=True)
>>> route.slide_count, route.board.name(route.last)
(17, 'h8')
>>> ct.count_bishop_routes("8x8").count
70
>>> ct.count_bishop_routes("8x8", shortest=True).count
8
"""

from __future__ import annotations

from .route import BishopRoute, resolve_end, route_problem
from .solve import BishopCount, bishop_obstruction, count_bishop_routes, iter_bishop_routes, solve_bishop

__all__ = ["solve_bishop", "iter_bishop_routes", "count_bishop_routes", "BishopRoute", "BishopCount",
           "bishop_obstruction", "resolve_end", "route_problem"]
