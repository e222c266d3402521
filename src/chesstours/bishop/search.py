"""The bishop puzzle of a Delphi program: a resumable depth-first search over bishop routes.

A bishop starts on a square and steps one diagonal square at a time. Each
square carries two flags, one per diagonal axis (A: the a1-h8 direction, B:
the other). A step from ``x`` to ``y`` along axis ``a`` is allowed only when
``y``'s ``a``-flag is clear, and it sets the ``a``-flag on both squares; so a
square is entered at most once per axis and no diagonal link is used twice. A
route is complete when every free square of the start's colour has been
visited and the bishop stands on the end square (or anywhere, for ``end=-1``):
it stops there, as the Delphi program stops as soon as every
square is covered.

The kernel is the Delphi program's recursive procedure ``chemin`` turned into an
explicit stack -- ``stack_square`` (the square at each depth),
``stack_next`` (the next direction to try there), ``stack_dir`` (the
direction that led there), ``stack_set_source`` (whether that step set the
flag of the square it left, so that stepping back can restore it, as the
program's ``old_s12`` does) and ``stack_slides`` (slides so far). Directions are
tried in the program's order: ``(+1, +1)``, ``(+1, -1)``, ``(-1, -1)``, ``(-1, +1)``
as (file, rank) changes; the axis of direction ``d`` is ``d & 1``. Like
:class:`chesstours.backtrack.search.Search` it stops after a budget of steps
or at each route found and resumes from the same place, which gives lazy
iteration, time limits and Ctrl-C around compiled code.

Pruning never loses a route. An unvisited square has both flags clear, so
the bishop can enter it from any neighbour it can still stand on (the current
square, or one with a flag clear: a square with both flags set can never be
entered again), and leave it towards any other neighbour whose flag for that
direction is clear. A square with no such way in and out can only be the
route's last square: with a fixed end it must be the end, and otherwise there
can be only one such square (``stack_last`` keeps it; a square once
impassable stays so deeper in the search). A step changes only the flags of
the two squares it joins, so only their unvisited neighbours are checked
after it: O(1) work per step. Squares with fewer than two diagonal
neighbours (corners) are impassable from the start and are noted before the
search.

Fewest slides (``max_slides``, ``use_bound``): a slide is a maximal run of
steps in one direction, a bishop's move in chess. The search can be bounded
to routes of at most ``max_slides`` slides; with ``use_bound`` it also cuts a
branch when the slides so far plus a lower bound on the slides still needed
exceed the bound. Every new slide lies on one diagonal line, so the lines of
the new slides cover every unvisited square except those the current slide
may still reach by going straight on. The fewest lines that cover a set of
squares is, by Konig's theorem, the size of a maximum matching between the
A-lines and the B-lines, one edge per square: that is the bound, computed by
augmenting paths (Kuhn's method). With ``minimize`` the search is a branch
and bound: each route found is kept and the bound drops to one slide fewer,
so when the search is exhausted the route kept has the fewest slides -- the
exhausted search is the proof -- and it is the first such route in move
order. It stops early when a route meets the lower bound of the start.

References
----------
.. [1] H. E. Dudeney, "An Episcopal Visitation", Amusements in Mathematics, 1917
   (17 moves visit every square of one colour, corner to corner).
.. [2] D. Konig, "Graphs and matrices", 1931 (covers and matchings).
.. [3] A. H. Land and A. G. Doig, "An automatic method of solving discrete
   programming problems", Econometrica 28, 1960 (branch and bound).

Examples
--------
>>> from chesstours.board import Board
>>> search = BishopSearch(Board(8, 8), 0, 63)
>>> search.run(), search.count
('exhausted', 70)
>>> search = BishopSearch(Board(8, 8), 0, 63, minimize=True)
>>> search.run(), Board(8, 8).names(search.best_steps()[:6])
('exhausted', ['a1', 'b2', 'c3', 'd4', 'e5', 'f4'])
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from ..board import Board
from ..runtime import PlainAllowance, advance_in_turn
from ..status import Status
from . import plain as plain_kernels
from .layout import (
    BUDGET,
    CODE_BUDGET,
    CODE_EXHAUSTED,
    EXHAUSTED,
    FOUND,
    REG_BEST_LEN,
    REG_COUNT,
    REG_COVERED,
    REG_DEPTH,
    REG_FLOOR,
    REG_MAX_SLIDES,
    REG_MINIMIZE,
    REG_NODES,
    REG_TARGET,
    REGISTERS,
    STATUS_NAMES,
    UNBOUNDED,
)

__all__ = ["BishopSearch", "direction_table", "first_route", "load_kernels", "FOUND", "EXHAUSTED", "BUDGET", "DIRECTIONS"]

#: The four diagonal directions as (file change, rank change), in the Delphi program's order.
DIRECTIONS = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def direction_table(board: Board) -> np.ndarray:
    """``int32[N, 4]``: the square one diagonal step from ``v`` in each direction, -1 if none.

    Holes are neither entered nor left (their rows are all -1).

    >>> Board(2, 2).names(direction_table(Board(2, 2))[0, :1])
    ['b2']
    """
    rows, cols = board.rows, board.cols
    table = np.full((board.size, 4), -1, dtype=np.int32)
    r, c = np.divmod(np.arange(board.size), cols)
    hole = board.hole_mask
    for d, (dc, dr) in enumerate(DIRECTIONS):
        ok = (r + dr >= 0) & (r + dr < rows) & (c + dc >= 0) & (c + dc < cols)
        target = np.where(ok, (r + dr) * cols + c + dc, -1)
        ok &= ~hole[np.clip(target, 0, board.size - 1)] & ~hole
        table[ok, d] = target[ok]
    return table


class BishopSearch:
    """A resumable depth-first search for bishop routes.

    Parameters
    ----------
    board : Board
    start : int
        The first square.
    end : int
        The last square, or -1 for a route that stops wherever it first
        covers every square of the start's colour.
    max_slides : int, optional
        Only routes of at most this many slides.
    minimize : bool
        Branch and bound: keep each route found and search on only for routes
        with fewer slides; when the search is exhausted, :meth:`best_steps` is
        a route with the fewest slides (the first in move order among them),
        or empty when there is no route. ``count`` then counts improvements.
    use_bound : bool
        With ``max_slides`` or ``minimize``: cut branches by the line-cover
        lower bound.
    plain : PlainAllowance, optional
        Search in plain Python (:mod:`chesstours.bishop.plain`) while it has
        steps left, then in the compiled kernel, from the same place; without
        it, in the kernel from the start. Only the time differs.

    Attributes
    ----------
    nodes : int
        Steps made so far.
    count : int
        Routes found so far.
    """

    def __init__(self, board: Board, start: int, end: int = -1, max_slides: int | None = None,
                 minimize: bool = False, use_bound: bool = True, order: np.ndarray | None = None,
                 plain: PlainAllowance | None = None):
        self.board = board
        self.plain = plain
        n = board.size
        self.step_to = direction_table(board)
        if order is None:
            order = np.tile(np.arange(4, dtype=np.int8), (n, 1))
        self.order = np.ascontiguousarray(order, dtype=np.int8)
        colour = board.colour(start)
        r, c = np.divmod(np.arange(n), board.cols)
        on_colour = ((r + c) & 1) == colour
        on_colour &= ~board.hole_mask
        links = int(np.count_nonzero(self.step_to[on_colour] >= 0)) // 2
        depth = links + 2
        self.flags = np.zeros(n, dtype=np.uint8)
        self.visits = np.zeros(n, dtype=np.uint8)
        self.visits[start] = 1
        self.stack_square = np.zeros(depth, dtype=np.int32)
        self.stack_next = np.zeros(depth, dtype=np.int8)
        self.stack_dir = np.full(depth, -1, dtype=np.int8)
        self.stack_set_source = np.zeros(depth, dtype=np.bool_)
        self.stack_slides = np.zeros(depth, dtype=np.int32)
        self.stack_last = np.full(depth, -1, dtype=np.int32)
        self.stack_square[0] = start
        self.best = np.zeros(depth, dtype=np.int32)
        self.end = int(end)
        self.use_bound = bool(use_bound and (max_slides is not None or minimize))
        # Lines for the bound: A-line c - r + rows - 1, B-line r + c; squares of the colour only.
        n_lines = board.rows + board.cols - 1
        a_line = c - r + board.rows - 1
        self.b_line_of = (r + c).astype(np.int32)
        squares = np.flatnonzero(on_colour)
        width = max(1, int(np.bincount(a_line[squares], minlength=n_lines).max()) if squares.size else 1)
        self.line_squares = np.full((n_lines, width), -1, dtype=np.int32)
        fill = np.zeros(n_lines, dtype=np.int64)
        for v in squares:
            a = a_line[v]
            self.line_squares[a, fill[a]] = v
            fill[a] += 1
        self.scratch = np.zeros((5, n_lines + 1), dtype=np.int32)
        self.regs = np.zeros(REGISTERS, dtype=np.int64)
        self.regs[REG_COVERED] = 1
        self.regs[REG_TARGET] = int(np.count_nonzero(on_colour))
        self.regs[REG_MAX_SLIDES] = UNBOUNDED if max_slides is None else int(max_slides)
        self.regs[REG_MINIMIZE] = int(minimize)
        if minimize:
            self.regs[REG_FLOOR] = self.lines_needed()
        self.done = False
        self._trivial = False
        self._trivial_given = False
        # Squares with fewer than two diagonal neighbours can never be passed through: each must be
        # the last square (the search only notices them when it comes near, so note them now).
        degree = (self.step_to >= 0).sum(axis=1)
        dead_ends = [int(v) for v in squares if v != start and v != self.end and degree[v] < 2]
        if any(degree[v] == 0 for v in dead_ends):
            self.done = True  # no route: a square that cannot be entered
        elif self.end < 0 and len(dead_ends) == 1:
            self.stack_last[0] = dead_ends[0]
        elif dead_ends:
            self.done = True  # no route: two squares would both have to come last, or one not the end
        if self.regs[REG_TARGET] == 1 and (self.end < 0 or self.end == start):
            # The start alone covers the colour: one route of no steps, and the route stops there.
            self._trivial = True
            self.done = True
            self.best[0] = start
            self.regs[REG_BEST_LEN] = 1

    @property
    def nodes(self) -> int:
        """Steps made so far."""
        return int(self.regs[REG_NODES])

    @property
    def count(self) -> int:
        """Routes found so far."""
        return int(self.regs[REG_COUNT]) + int(self._trivial)

    def steps(self) -> np.ndarray:
        """The route on the stack (after :meth:`run` returned ``"found"``)."""
        if self._trivial:
            return self.stack_square[:1].copy()
        return self.stack_square[: int(self.regs[REG_DEPTH]) + 1].copy()

    def run(self, budget: int = 1 << 62, stop_at_route: bool = False) -> Status:
        """Search on for at most ``budget`` steps.

        Returns ``"found"`` (a route is on the stack, see :meth:`steps`; only
        with ``stop_at_route``), ``"exhausted"`` or ``"budget"`` (call again).
        """
        if self.done:
            if self._trivial and stop_at_route and not self._trivial_given:
                self._trivial_given = True
                return FOUND
            return EXHAUSTED

        def advance(engine, step: int) -> int:
            return engine.advance(
                self.step_to, self.order, self.flags, self.visits, self.stack_square, self.stack_next,
                self.stack_dir, self.stack_set_source, self.stack_slides, self.stack_last, self.end, self.use_bound,
                self.line_squares, self.b_line_of, self.scratch, self.best, stop_at_route, step, self.regs,
            )

        # in Python while the allowance lasts, then on in the kernel within the same budget
        status = advance_in_turn(self.plain, budget, plain_kernels, self._engine, advance, lambda: self.nodes,
                                 CODE_BUDGET)
        if status == CODE_EXHAUSTED:
            self.done = True
        return STATUS_NAMES[status]

    def best_steps(self) -> np.ndarray:
        """With ``minimize``: the route with fewest slides found so far (empty if none)."""
        return self.best[: int(self.regs[REG_BEST_LEN])].copy()

    def estimate(self, probes: int = 4000, seed: int = 0) -> tuple[float, float]:
        """Estimated ``(steps, routes)`` of counting every route from here (Knuth's random probes,
        :func:`chesstours.bishop.kernel.probe`): good to an order of magnitude, which is what
        deciding whether a count is within reach needs. The search itself is left as it was.

        >>> steps, routes = BishopSearch(Board(8, 8), 0, 63).estimate()
        >>> 10_000 < steps < 200_000, 20 < routes < 300
        (True, True)
        """
        from .kernel import probe  # compiled only: an estimate is for boards too large for plain Python

        if self.done:
            return 0.0, float(self.count)
        out = np.zeros(2, dtype=np.float64)
        probe(self.step_to, self.order, self.flags, self.visits, int(self.stack_square[0]), int(self.stack_last[0]),
              self.end, int(self.regs[REG_COVERED]), int(self.regs[REG_TARGET]), probes, seed, out)
        return float(out[0]), float(out[1])

    def lines_needed(self) -> int:
        """Lower bound on the slides of any route from the start (before any step)."""
        scratch = np.zeros_like(self.scratch)
        return int(self._engine().count_lines_needed(self.step_to, self.visits, self.line_squares, self.b_line_of,
                                                     int(self.stack_square[0]), -1, scratch))

    def _engine(self):
        """The kernels to run now: plain Python while the allowance lasts, else the compiled ones."""
        if self.plain is not None and self.plain.positions > 0:
            return plain_kernels
        from . import kernel  # numba loads here, on the first compiled step

        return kernel


#: Steps the search in the Delphi program's order makes before random restarts join in.
FIRST_ALONE = 1 << 20
#: Steps of one restart in a random order.
RESTART_STEPS = 100_000
#: Steps between looks at the clock.
_CLOCK_STEPS = 1 << 18


def first_route(board: Board, start: int, end: int, deadline: float | None = None,
                node_limit: int | None = None, main: BishopSearch | None = None,
                plain: PlainAllowance | None = None) -> tuple[BishopSearch, Status, int, int]:
    """The first route: the search in the Delphi program's order, then, on large boards, random restarts beside it.

    The complete search in the Delphi program's direction order runs alone for :data:`FIRST_ALONE`
    steps, which settles every board up to about 10x12. Past that, its time alternates
    with short searches (:data:`RESTART_STEPS` steps each) that try the directions of
    every square in a random order, seeded 0, 1, 2, ...: the time a depth-first search
    needs varies enormously with its order, and a route that one order reaches only
    after a huge detour another reaches at once (restarts: Gomes, Selman & Kautz 1998).
    A restart that finds a route answers; only the complete search can answer that there
    is none. Everything counts against ``node_limit``; the clock is read between chunks.
    ``main`` is a search in the Delphi program's order to go on with (one that has run
    alone already), instead of a new one.

    Returns ``(search, status, steps, restarts)``: the search holding the route (when
    ``status`` is ``"found"``), the status (``"found"``, ``"exhausted"``, ``"time"`` or
    ``"nodes"``), the steps made in all, and the restarts tried. The searches start in plain
    Python with ``plain`` (see :class:`BishopSearch`).
    """
    if main is None:
        main = BishopSearch(board, start, end, plain=plain)
    spent = 0  # steps of the restarts
    restarts = 0
    rng = np.random.default_rng(0)

    def budget(most: int) -> int:
        return most if node_limit is None else min(most, node_limit - main.nodes - spent)

    status = Status.BUDGET
    while status == Status.BUDGET:
        if deadline is not None and time.perf_counter() > deadline:
            return main, Status.TIME, main.nodes + spent, restarts
        if main.nodes >= FIRST_ALONE:
            order = np.argsort(rng.random((board.size, 4)), axis=1).astype(np.int8)
            trial = BishopSearch(board, start, end, order=order, plain=plain)
            steps = budget(RESTART_STEPS)
            if steps <= 0:
                return main, Status.NODES, main.nodes + spent, restarts
            restarts += 1
            if trial.run(steps, stop_at_route=True) == FOUND:
                return trial, FOUND, main.nodes + spent + trial.nodes, restarts
            spent += trial.nodes
        steps = budget(RESTART_STEPS if main.nodes >= FIRST_ALONE else min(_CLOCK_STEPS, FIRST_ALONE - main.nodes))
        if steps <= 0:
            return main, Status.NODES, main.nodes + spent, restarts
        status = main.run(steps, stop_at_route=True)
    return main, status, main.nodes + spent, restarts


@cache
def load_kernels() -> None:
    """Compile the kernels, or load them from numba's cache (a few tenths of a second, once
    per process, or seconds on a first run), so that the time a search or an estimate reports is its own."""
    BishopSearch(Board(2, 2), 0, 3, minimize=True).run()
    BishopSearch(Board(2, 2), 0, 3).estimate(1)
