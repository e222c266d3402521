"""A bishop route built, not searched: the billiard path, with its closed loops switched in.

The rule is local. A step enters a square along a direction whose flag is
clear, and only the steps at a square set its flags. So the bishop either
passes a square once -- turning, or going straight on -- or passes it twice,
going straight on both times, once along each direction: a second entry
needs a clear flag, so the first pass used one direction only, and the
second pass then has only the two links of the other direction. A square on
the edge has one link per direction, so the bishop turns there: it bounces
off the edge like a billiard ball. Conversely, any walk that uses no link
twice and, at each square, either turns on a first and only visit or goes
straight on, obeys the rule.

**The billiard path.** With no turn inside the board, the bishop from a1 is
a billiard ball: straight on through every square, reflected at the edges.
Unfolded, it runs along the diagonal (t, t), its rank and its file bouncing
with periods 2(rows - 1) and 2(cols - 1), so it first reaches a corner at
t = lcm(rows - 1, cols - 1), and no link is used twice before (the path is
reversible and does not close on itself). Each 2 x 2 block of the board
holds one link of a1's colour, so the colour has (rows - 1)(cols - 1) links.
When both sides are even and rows - 1 and cols - 1 are coprime -- every
n x (n + 2) board with n even, as gcd(n - 1, n + 1) = 1 -- the path makes
(rows - 1)(cols - 1) steps: it uses every link, so it visits every square of
the colour, and it ends on the opposite corner, after an odd number of
bounces each way. That is a route, found in linear time.

**Loops switched in.** Otherwise the links the path leaves split into closed
billiard loops. On n x n the path runs straight from a1 to the far corner,
and the loop through each square (0, a) of the first rank, a = 2, 4, ...,
n - 2, is the rectangle (0, a), (n-1-a, n-1), (n-1, n-1-a), (a, 0): n/2 - 1
loops. A *cell switch* joins them. A cell is four squares around a square of
the other colour, all inside the board and each crossed twice; the switch
drops the cell's four links, so each of its squares keeps one link per
direction and becomes a turn, still visited. The strands through the cell
are reconnected in pairs around it: if they belong to four different trails
(the path, or loops), the switch leaves one -- with loose ends ``a`` .. ``h``
around the cell, the trails joined ``a-d``, ``b-g``, ``c-f``, ``e-h`` through
the cell and outside it; the switch joins ``a-b``, ``c-d``, ``e-f``,
``g-h``, and ``a-b ~ g-h ~ e-f ~ c-d ~ a`` is one cycle (with the path's two
ends, one path). On n x n the cell at c3 crosses the path and the loops 2,
4 and 6, so it joins three loops; so do the cells every sixth file along the
third rank (c3, i3, o3, ...) as far as they meet three new loops, and one or
two more switches join what is left.

The construction makes the switches in two passes, in the order of the
squares: first every cell whose four strands lie on four different trails
(each joins three trails, a theorem); then, while loops are left, the cells
on the smallest loop, each tried and kept only when it lowers the number of
trails. It succeeds on every board with both sides even up to 40 x 40
(from each corner) except 6 x 6 and the boards 4 x (6k + 4) and
(6k + 4) x 4, where no cell inside the board can join a loop -- and these
have no route at all (:mod:`chesstours.bishop.theory` proves it for four
ranks, the complete search for 6 x 6) -- and on every
n x n and n x (n + 2) up to 120. The route is read off by walking from the
start, and :func:`~chesstours.bishop.solve.solve_bishop` checks it with
:meth:`~chesstours.bishop.route.BishopRoute.validate` before it returns it.

References
----------
.. [1] L. Euler, "Solutio problematis ad geometriam situs pertinentis", 1736;
   C. Hierholzer, "Ueber die Moglichkeit, einen Linienzug ohne Wiederholung
   und ohne Unterbrechung zu umfahren", Math. Ann. 6, 1873 (trails that use
   each link once; closed trails joined where they meet).

Examples
--------
>>> from chesstours.board import Board
>>> b = Board(4, 6); b.names(construct_route(b, 0)[0])
['a1', 'b2', 'c3', 'd4', 'e3', 'f2', 'e1', 'd2', 'c3', 'b4', 'a3', 'b2', 'c1', 'd2', 'e3', 'f4']
>>> steps, stats = construct_route(Board(12, 12), 0); stats["loops"], stats["switches"]
(5, 3)
>>> construct_route(Board(4, 4), 0) is None
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..board import Board
from .construct_kernel import label_trails, walk_trail

__all__ = ["construct_route", "construction_refusal", "label_trails", "walk_trail", "load_kernels"]


def construction_refusal(board: Board, start: int, end: int) -> str | None:
    """Why the construction does not answer this query, as a sentence; None when it applies.

    It builds routes on whole boards whose two sides are even, from a corner
    to the opposite corner (an end of ``-1``, anywhere, is met there too).
    """
    rows, cols = board.rows, board.cols
    corners = {0, cols - 1, (rows - 1) * cols, rows * cols - 1}
    if board.holes or rows % 2 or cols % 2 or start not in corners or (
            end >= 0 and end != board.size - 1 - start):
        return ("The construction builds bishop routes on whole boards with an even number of ranks and of "
                "files, from a corner to the opposite corner.")
    return None


def construct_route(board: Board, start: int) -> tuple[np.ndarray, dict] | None:
    """A route from corner ``start`` to the opposite corner by the billiard construction, or None.

    ``board`` has both sides even; its holes, if any, are ignored (:func:`construction_refusal`
    says when the construction answers a query).

    Returns ``(steps, stats)``: the squares one per step, and ``loops`` (the
    billiard loops switched in) and ``switches`` (the cells switched). None
    when the loops cannot all be joined (4 x 4, 6 x 6, 4 x 10, ...). The route
    is not yet checked: :func:`chesstours.bishop.solve.solve_bishop` checks it.
    """
    from .search import direction_table

    rows, cols = board.rows, board.cols
    plain = Board(rows, cols)
    step_to = direction_table(plain)
    present = np.zeros(plain.size, dtype=np.uint8)  # bit d: the link in direction d is kept
    for d in range(4):
        present |= ((step_to[:, d] >= 0) << d).astype(np.uint8)
    r, c = np.divmod(np.arange(plain.size), cols)
    present[(r + c) % 2 == 1] = 0  # the other colour plays no part
    label = np.empty(2 * plain.size, dtype=np.int32)
    trails = label_trails(step_to, present, 0, label)
    loops = trails - 1
    switches = _join(step_to, present, label, trails)
    if switches is None:
        return None
    steps = np.empty(2 * plain.size, dtype=np.int32)
    length = walk_trail(step_to, present, 0, steps)
    steps = steps[:length]
    # Built from a1; another corner is a reflection of the board.
    sr, sc = divmod(start, cols)
    r, c = np.divmod(steps, cols)
    if sr:
        r = rows - 1 - r
    if sc:
        c = cols - 1 - c
    return (r * cols + c).astype(np.int32), {"loops": int(loops), "switches": len(switches)}


def _cells(step_to: np.ndarray, present: np.ndarray):
    """The cells that can still be switched, as arrays ``x, y, z, w`` (left, top, right, bottom square),
    in the order of ``x``, and the indices of their four links."""
    x = np.flatnonzero(present == 15)
    y = step_to[x, 0]
    w = step_to[x, 1]
    ok = (y >= 0) & (w >= 0)
    x, y, w = x[ok], y[ok], w[ok]
    z = step_to[y, 1]
    ok = (z >= 0) & (present[y] == 15) & (present[z] == 15) & (present[w] == 15)
    x, y, z, w = x[ok], y[ok], z[ok], w[ok]
    # x-y and w-z along A, w-x and z-y along B: each indexed by its lower square.
    links = np.stack([2 * x, 2 * w, 2 * w + 1, 2 * z + 1], axis=1)
    return x, y, z, w, links


def _switch(present: np.ndarray, x: int, y: int, z: int, w: int, on: bool) -> None:
    """Drop (or, with ``on``, restore) the four links of the cell ``x, y, z, w``."""
    for square, bits in ((x, 0b0011), (y, 0b0110), (z, 0b1100), (w, 0b1001)):
        if on:
            present[square] |= bits
        else:
            present[square] &= ~np.uint8(bits)


def _join(step_to: np.ndarray, present: np.ndarray, label: np.ndarray, trails: int) -> list[int] | None:
    """Switch cells until one trail is left; return the cells' left squares, or None when stuck."""
    made: list[int] = []
    # First pass: cells on four different trails, each of which joins them (union-find over the labels).
    parent = list(range(trails))

    def find(t: int) -> int:
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    x, y, z, w, links = _cells(step_to, present)
    for i in range(x.size):
        if trails == 1:
            break
        if not (present[x[i]] == present[y[i]] == present[z[i]] == present[w[i]] == 15):
            continue  # a square of an earlier switch
        roots = {find(int(t)) for t in label[links[i]]}
        if len(roots) == 4:
            _switch(present, int(x[i]), int(y[i]), int(z[i]), int(w[i]), False)
            first = roots.pop()
            for t in roots:
                parent[t] = first
            trails -= 3
            made.append(int(x[i]))
    # Second pass: cells on the smallest loop, kept only when they lower the number of trails.
    trails = label_trails(step_to, present, 0, label)
    while trails > 1:
        sizes = np.bincount(label[label >= 0], minlength=trails)
        loop = 1 + int(np.argmin(sizes[1:]))
        x, y, z, w, links = _cells(step_to, present)
        on_loop = (label[links] == loop).any(axis=1) & (label[links] != loop).any(axis=1)
        for i in np.flatnonzero(on_loop).tolist():
            cell = (int(x[i]), int(y[i]), int(z[i]), int(w[i]))
            _switch(present, *cell, False)
            fewer = label_trails(step_to, present, 0, label)
            if fewer < trails:
                trails = fewer
                made.append(cell[0])
                break
            _switch(present, *cell, True)
        else:
            return None
        label_trails(step_to, present, 0, label)
    return made


@cache
def load_kernels() -> None:
    """Compile the construction's kernels, or load them from numba's cache (once per process), so that the
    time a construction reports is its own."""
    construct_route(Board(2, 2), 0)
