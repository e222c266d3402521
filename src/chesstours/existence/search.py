"""Find a tour, or prove that none exists, for :func:`chesstours.tour_exists`.

A question "is there a tour from s (to t)?" has two kinds of answer by search:
a tour (found by Warnsdorff's rule or by backtracking: the certificate), or a
complete backtracking search that finds none (the proof of "no").

Both heuristics and backtracking have heavy tails: from one square a search
may wander for minutes in a dead subtree while from another it finds a tour
at once. A tour from s is also a tour *into* s from its other end, so the
question is searched from both ends at once -- Warnsdorff walks from s and
walks that must end at s, then a round-robin backtracking search over the
first moves from s (which alone cover every tour, so their exhaustion is
the proof of "no") and over the first moves of the tours that end at s,
with budgets doubling each round (iterative broadening).

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> status, tour, nodes = search_tour(Board(3, 7), KNIGHT, 10, None, False, None)  # from d2
>>> status, tour, nodes > 0
('exhausted', None, True)
>>> status, tour, _ = search_tour(Board(3, 7), KNIGHT, 8, 0, False, None)          # from b2 to a1
>>> status, tour.start, tour.end
('found', 8, 0)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..backtrack import closed_tasks, first_tour, open_tasks
from ..board import Board
from ..pieces import Leaper, move_table
from ..runtime import PlainAllowance
from ..settings import ALL_STARTS_UP_TO, BACKWARD_WALKS_UP_TO, SEARCH_CELLS
from ..status import Status
from ..tour import Tour
from ..warnsdorff import warnsdorff

__all__ = ["search_tour", "as_tour"]



def search_tour(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool,
                deadline: float | None, schedule: Sequence[tuple[str, int]] = (("roth", 0),),
                backward_walks: int = 1, plain: PlainAllowance | None = None) -> tuple[Status, Tour | None, int]:
    """Find a tour or prove there is none: ``(status, tour, nodes)``.

    The status is ``found``, ``exhausted`` (a complete search found none),
    ``time`` or ``incomplete`` (the board is too large to search every branch).

    Warnsdorff's rule first (fast on large boards): the walks of ``schedule``
    (tie-break, seed) from the start, and the first ``backward_walks`` of them into a
    fixed square from the tour's other end; then the complete round-robin
    backtracking search (see the module docstring), which starts in plain Python
    with ``plain`` (see :class:`~chesstours.backtrack.Search`). A found tour is
    turned to match the query (start ``s``, end ``e``) and validated.
    """
    # An open tour that must end at e is an open tour from e, walked backwards; and a
    # tour from s is also a tour into s from its other end. Searching both ways at once
    # (walks, then backtracking round-robin) tames the heavy tails of either one.
    first, last = (e, None) if not closed and s is None and e is not None else (s, e)
    backward = [] if closed or first is None else \
        [last] if last is not None else [c for c in board.corners() if c != first and c not in board.holes]

    walks = [(root, last, rule, seed) for root in _walk_roots(board, piece, first, closed) for rule, seed in schedule]
    if board.free_count <= BACKWARD_WALKS_UP_TO:
        walks += [(root, first, rule, seed) for root in backward for rule, seed in schedule[:backward_walks]]
    for root, end, rule, seed in walks:
        if deadline is not None and time.perf_counter() > deadline:
            return Status.TIME, None, 0
        walk = warnsdorff(board, root, piece, rule, seed, end=end, closed=closed)
        if walk.complete and (not closed or walk.closed) and (end is None or walk.path[-1] == end):
            how = f"Warnsdorff's rule ({rule} tie-break)"
            return Status.FOUND, as_tour(board, piece, walk.path, closed, how, s, e), 0

    complete = True
    if closed:
        tasks = closed_tasks(board, piece, s, e) if s is not None and e is not None else \
            closed_tasks(board, piece, None, None)
    elif first is not None or board.free_count <= ALL_STARTS_UP_TO:
        tasks = open_tasks(board, piece, first, last)
    else:  # too many start squares to search them all: try the walk roots only
        tasks = [t for root in _walk_roots(board, piece, None, False)
                 for t in open_tasks(board, piece, root, last, symmetry=False)]
        complete = False
    most = max(1, SEARCH_CELLS // board.free_count)  # each task's search holds arrays of the board's size
    if len(tasks) > most:
        tasks, complete = tasks[:most], False
    # The same tours entered from the other end: redundant for completeness, often found sooner.
    extra = [t for root in backward for t in open_tasks(board, piece, root, first, symmetry=False)]
    extra = extra[: max(0, most - len(tasks))]
    status, path, nodes = first_tour(board, piece, tasks, extra=extra, deadline=deadline, plain=plain)
    nodes += len(tasks)  # each first move is a position examined, even when pruning closes it at once
    if status != Status.FOUND:
        if status == Status.EXHAUSTED:
            return (Status.EXHAUSTED if complete else Status.INCOMPLETE), None, nodes
        return Status.TIME, None, nodes
    how = f"a backtracking search ({nodes:,} positions)"
    return Status.FOUND, as_tour(board, piece, path, closed, how, s, e), nodes


def _walk_roots(board: Board, piece: Leaper, first: int | None, closed: bool) -> list[int]:
    """Where Warnsdorff walks start: the given square, else squares with fewest moves."""
    if first is not None:
        return [first]
    table = move_table(board, piece)
    free = board.free_squares
    degree = (table[free] >= 0).sum(axis=1)
    order = np.argsort(degree, kind="stable")
    return [int(v) for v in free[order[: 1 if closed else 3]]]


def as_tour(board, piece, path, closed, how, s, e) -> Tour:
    """The found path as a validated Tour that starts at ``s`` and ends at ``e`` (where given)."""
    path = np.asarray(path, dtype=np.int32)
    if not closed and (s is not None and path[0] != s or s is None and e is not None and path[-1] != e):
        path = path[::-1].copy()
    tour = Tour(board, piece, path, closed, "tour_exists", {"how": how})
    if closed and s is not None and tour.start != s:
        tour = tour.rotated(s)
    if closed and e is not None and tour.end != e:
        if s is not None:  # the cycle runs the other way round: s ... e must close with the move e-s
            tour = tour.reversed()
        else:
            after = int(np.flatnonzero(tour.path == e)[0]) + 1
            tour = tour.rotated(int(tour.path[after % len(tour)]))
    tour.validate()
    return tour
