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

Large boards are built rather than searched (:mod:`chesstours.bishop.construct`).
The bishop that goes straight on and bounces off the edges is a billiard ball;
on a board with both sides even whose sides less one are coprime -- every
n x (n + 2) -- its path from a1 uses every diagonal link once and ends on the
far corner: a route in linear time. On other boards, n x n among them, the
links it leaves form closed billiard loops, which switching the four links of
a small cell joins to the path. ``solve_bishop`` keeps the first route in the
Delphi program's order wherever the search meets one within its first million
steps, and builds one otherwise (:mod:`chesstours.bishop.methods`): every
n x n and n x (n + 2) board with n even up to 32 gets its route in a fraction
of a second, but 4 x 4 and 6 x 6, which have none (the theory proves it for
4 x 4, the search for 6 x 6). Counting stays exhaustive: a count that Knuth's
estimate of the search puts past an hour is refused up front, with the
estimate (12x12: about 3e12 steps, four or five days).

Before searching, two facts answer many boards at once. A square of the
start's colour with no diagonal neighbour can never be reached. A square with
one diagonal neighbour (a corner) is a dead end: the bishop enters it by its
only link and could leave only by that link again, which the rule forbids --
so a route that enters it ends there. Two such squares besides the start, or
one that is not the required end, leave no route: that is why no odd x odd
board has a route from a corner (its other three corners have the same
colour). On four ranks no square of the middle can turn, so the route would
be the billiard path, which leaves links unused on 4 x (6k + 4): no route
there either (:mod:`chesstours.bishop.theory`).

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
>>> route = ct.solve_bishop("20x22"); route.method, route.step_count
('construct', 399)
"""

from __future__ import annotations

from .route import BishopRoute, resolve_end, route_problem
from .solve import BishopCount, count_bishop_routes, iter_bishop_routes, solve_bishop
from .theory import bishop_obstruction

__all__ = ["solve_bishop", "iter_bishop_routes", "count_bishop_routes", "BishopRoute", "BishopCount",
           "bishop_obstruction", "resolve_end", "route_problem"]
