"""The public api: find, list and count tours.

``find_tour`` answers "give me a tour" with the fastest method that works,
``iter_tours`` lists every tour lazily, and ``count_tours`` counts them
exactly. Every tour returned has passed :meth:`Tour.validate`.

Counting conventions (as in the literature): an open tour is a Hamiltonian
path, counted *directed* (as sequences of squares: each path twice, once per
direction) and *undirected*; from a fixed start square both numbers are the
sequences that start there. A closed tour is a Hamiltonian cycle, counted as
a cycle (undirected); directed closed tours are twice as many.

Examples
--------
>>> import chesstours as ct
>>> tour = ct.find_tour("8x8", start="a1")
>>> len(tour), tour.names()[:3]
(64, ['a1', 'b3', 'c1'])
>>> ct.count_tours("5x5", start="a1").directed
304
>>> c = ct.count_tours("5x5"); (c.directed, c.undirected)
(1728, 864)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .arguments import check_limits, prepare_query
from .board import Board
from .engines import warnsdorff as _wd
from .errors import InvalidArgument, LimitReached, NoTour
from .pieces import KNIGHT, Leaper, move_table
from .theory import obstruction
from .tour import Tour

__all__ = ["find_tour", "iter_tours", "count_tours", "estimate_count", "TourCount", "METHODS", "MAX_BACKTRACK_COUNT_SQUARES",
           "CONSTRUCT_ABOVE", "COUNT_METHODS"]

#: Methods of :func:`find_tour`.
METHODS = ("auto", "warnsdorff", "backtrack", "construct")
#: Methods of :func:`count_tours`.
COUNT_METHODS = ("auto", "frontier", "backtrack")
#: ``auto`` counts from a fixed square by the frontier sweep when backtracking
#: is estimated to take longer than this many seconds.
FRONTIER_ABOVE_SECONDS = 5.0
#: ``auto`` builds knight's tours of whole boards with more squares than this by
#: construction (:mod:`chesstours.engines.construct`) instead of Warnsdorff's rule.
CONSTRUCT_ABOVE = 10_000
#: Exhaustive counts by backtracking are refused outright above this many free squares.
MAX_BACKTRACK_COUNT_SQUARES = 400
#: Without a time or node limit, counts estimated to take longer than this are refused.
MAX_UNLIMITED_COUNT_SECONDS = 3600.0
#: Nodes per kernel call between checks of the clock.
_CHUNK = 1 << 20
#: Backtracking move orders (as :data:`chesstours.engines.backtrack.ORDERS`; the
#: compiled engines are imported only when a search needs them).
ORDERS = ("fixed", "warnsdorff")


@dataclass
class TourCount:
    """An exact count of tours (or, when ``complete`` is False, what was counted before a stop)."""

    board: Board
    piece: Leaper
    closed: bool
    start: int | None
    end: int | None
    directed: int
    undirected: int
    nodes: int
    seconds: float
    method: str = "backtrack"
    complete: bool = True
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict (the CLI's ``count --json``)."""
        b = self.board
        out = {
            "board": f"{b.rows}x{b.cols}",
            "holes": b.names(sorted(b.holes)),
            "piece": self.piece.spec(),
            "closed": self.closed,
            "start": None if self.start is None else b.name(self.start),
            "end": None if self.end is None else b.name(self.end),
            "directed": self.directed,
            "undirected": self.undirected,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "method": self.method,
            "complete": self.complete,
        }
        out.update(self.extra)
        return out


def _finish(tour: Tour) -> Tour:
    tour.validate()
    return tour


# -- find --------------------------------------------------------------------


def find_tour(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    method: str = "auto",
    *,
    holes=(),
    tiebreak: str | None = None,
    seed: int = 0,
    order: str = "warnsdorff",
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tour:
    """Return one tour of ``piece`` over ``board``; raise :class:`NoTour` if there is none.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start, end : int or str, optional
        First and last squares (names such as ``"a1"`` or indices). Without a
        start, a1 (or the first free square) is used.
    closed : bool
        Ask for a closed tour (the last square leaps back to the first).
    piece : Leaper or str
        The leaper, ``"knight"`` by default.
    method : {"auto", "warnsdorff", "backtrack", "construct"}
        ``warnsdorff`` walks Warnsdorff's rule once with ``tiebreak`` and may
        fail; ``backtrack`` searches exhaustively; ``construct`` builds a
        knight's tour of a whole board of any size in linear time by divide
        and conquer (Parberry 1997, Lin & Wei 2005; no holes; an end square
        is reached by Pósa's rotations, which may give up on 3 x n and 4 x n);
        ``auto`` is complete: the theory first (instant "no" with a reason);
        for a knight on a whole board of more than :data:`CONSTRUCT_ABOVE`
        squares the construction; otherwise Warnsdorff's rule with several
        tie-breaks, then the construction where it applies, then backtracking
        -- so it returns a tour from every square where one exists and
        otherwise raises :class:`NoTour`.
    holes : squares removed from the board.
    tiebreak : {"first", "pohl", "roth", "random"}
        Warnsdorff's tie-break (``auto`` tries several; default ``roth``).
    seed : int
        Seed of the ``random`` tie-break.
    order : {"warnsdorff", "fixed"}
        Backtracking move order.
    time_limit : float, optional
        Seconds; :class:`LimitReached` when they run out.
    node_limit : int, optional
        Most squares placed by backtracking.
    progress : callable, optional
        Called with the number of positions searched so far, while backtracking.

    Returns
    -------
    Tour
        Validated; ``tour.stats`` holds ``nodes``, ``seconds`` and what was tried.

    Raises
    ------
    NoTour
        No tour exists (``proof`` says how it is known), or a heuristic failed.
    LimitReached
        The time or node limit ran out first.
    InvalidBoard, InvalidSquare, InvalidPiece, InvalidArgument
        Bad input.
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if method not in METHODS:
        raise InvalidArgument(f"Unknown method {method!r}; use one of {', '.join(METHODS)}.")
    if tiebreak is not None and tiebreak not in _wd.TIEBREAKS:
        raise InvalidArgument(f"Unknown tie-break {tiebreak!r}; use one of {', '.join(_wd.TIEBREAKS)}.")
    if order not in ORDERS:
        raise InvalidArgument(f"Unknown move order {order!r}; use one of {', '.join(ORDERS)}.")
    check_limits(time_limit, node_limit)
    if s is None:
        s = int(board.free_squares[0]) if board.holes else 0
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit

    if method == "warnsdorff":
        return _finish(_warnsdorff_once(board, piece, s, e, closed, tiebreak or "roth", seed, t0))

    if method == "construct":
        from .engines.construct import construct_tour

        return _finish(construct_tour(board, s, e, closed, piece))

    if method == "auto":
        reason = obstruction(board, piece, s, e, closed)
        if reason is not None:
            raise reason
        constructible = piece == KNIGHT and not board.holes
        if constructible and board.free_count > CONSTRUCT_ABOVE:
            if e is None:
                return _finish(_constructed(board, s, None, closed, piece))
            try:  # the end square is reached by rotations, which may give up: then search
                return _finish(_constructed(board, s, e, closed, piece))
            except InvalidArgument:
                pass
        tour = _warnsdorff_tries(board, piece, s, e, closed, tiebreak, seed, t0)
        if tour is not None:
            return _finish(tour)
        if constructible:
            try:
                return _finish(_constructed(board, s, e, closed, piece))
            except InvalidArgument:
                pass  # no stored piece fits, or the rotations gave up: exhaustive search decides
    return _finish(_backtrack(board, piece, s, e, closed, order, deadline, node_limit, t0, method, progress))


def _constructed(board, s, e, closed, piece) -> Tour:
    from .engines.construct import construct_tour

    tour = construct_tour(board, s, e, closed, piece)
    tour.method = "auto/construct"
    return tour


def _warnsdorff_once(board, piece, s, e, closed, tiebreak, seed, t0) -> Tour:
    result = _wd.warnsdorff(board, s, piece, tiebreak, seed, end=e, closed=closed)
    stats = {"nodes": len(result.path), "seconds": time.perf_counter() - t0, "tiebreak": tiebreak}
    if not result.complete:
        raise NoTour(
            f"Warnsdorff's rule ({tiebreak} tie-break) reached a dead end after {len(result.path)} of "
            f"{board.free_count} squares; another method may still find a tour.",
            proof="heuristic",
            nodes=len(result.path),
        )
    if e is not None and result.path[-1] != e:
        raise NoTour(
            f"Warnsdorff's rule ({tiebreak} tie-break) covered the board but ended on "
            f"{board.name(result.path[-1])}, not {board.name(e)}.",
            proof="heuristic",
        )
    if closed and not result.closed:
        raise NoTour(
            f"Warnsdorff's rule ({tiebreak} tie-break) found an open tour ending on "
            f"{board.name(result.path[-1])}, which is not a {piece.name} move from {board.name(s)}, "
            "so it is not closed.",
            proof="heuristic",
        )
    return Tour(board, piece, result.path, closed, "warnsdorff", stats)


#: Random tie-break walks tried by ``auto`` after the fixed rules.
_RANDOM_TRIES = 8


def _warnsdorff_tries(board, piece, s, e, closed, tiebreak, seed, t0) -> Tour | None:
    rules = [tiebreak] if tiebreak else ["roth", "pohl", "first"]
    tries = [(rule, seed) for rule in rules] + [("random", seed + i) for i in range(_RANDOM_TRIES)]
    for n, (rule, sd) in enumerate(tries, 1):
        try:
            tour = _warnsdorff_once(board, piece, s, e, closed, rule, sd, t0)
        except NoTour:
            continue
        tour.stats["tries"] = n
        tour.method = "auto/warnsdorff"
        return tour
    return None


def _backtrack(board, piece, s, e, closed, order, deadline, node_limit, t0, method, progress=None) -> Tour:
    from .engines.parallel import closed_tasks, first_tour, open_tasks

    if closed:
        # Without a fixed end, a closed tour may start anywhere: search through the
        # square with fewest moves (fewest pairs of neighbours to try), then rotate.
        root = s if e is not None else None
        tasks = closed_tasks(board, piece, root, e)
    else:
        tasks = open_tasks(board, piece, s, e, symmetry=False)
    status, path, nodes = first_tour(board, piece, tasks, order=order, deadline=deadline, node_limit=node_limit,
                                     progress=progress)
    stats = {"nodes": nodes, "seconds": time.perf_counter() - t0, "order": order}
    label = "backtrack" if method == "backtrack" else "auto/backtrack"
    if status == "found":
        tour = Tour(board, piece, path, closed, label, stats)
        return tour.rotated(s) if closed and tour.start != s else tour
    if status == "exhausted":
        what = "closed tour" if closed else "tour"
        where = "" if closed and e is None else f" from {board.name(s)}"
        if e is not None:
            where += f" to {board.name(e)}"
        raise NoTour(
            f"No {what}{where} on {board}: an exhaustive search of {nodes:,} positions found none.",
            proof="exhaustive",
            nodes=nodes,
        )
    raise LimitReached(
        f"Stopped at the {'time' if status == 'time' else 'node'} limit after {nodes:,} positions "
        "without finding a tour.",
        partial=stats,
    )


def _run_until(search, deadline, node_limit, stop_at_tour: bool) -> str:
    """Run ``search`` in chunks; return "found", "exhausted", "time" or "nodes"."""
    while True:
        budget = _CHUNK
        if node_limit is not None:
            budget = min(budget, node_limit - search.nodes)
            if budget <= 0:
                return "nodes"
        status = search.run(budget, stop_at_tour=stop_at_tour)
        if status != "budget":
            return status
        if deadline is not None and time.perf_counter() > deadline:
            return "time"


# -- iterate -----------------------------------------------------------------


def iter_tours(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes=(),
    order: str = "fixed",
    time_limit: float | None = None,
) -> Iterator[Tour]:
    """Yield every tour, lazily, each one validated.

    Open tours are yielded as directed sequences: from ``start`` if given,
    otherwise from every free square in turn. Closed tours are yielded once
    per cycle, starting at ``start`` (or the first free square), in the
    direction whose second square comes first in the move order.

    Raises :class:`LimitReached` when ``time_limit`` runs out.

    >>> sum(1 for _ in iter_tours("3x4"))
    16
    >>> sum(1 for _ in iter_tours("5x6", closed=True))
    8
    """
    from .engines.backtrack import Search
    from .engines.parallel import closed_tasks

    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if order not in ORDERS:
        raise InvalidArgument(f"Unknown move order {order!r}; use one of {', '.join(ORDERS)}.")
    check_limits(time_limit, None)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if obstruction(board, piece, s, e, closed) is not None:
        return
    table = move_table(board, piece)
    holes_mask = board.hole_mask if board.holes else None
    if closed:
        root = s if s is not None else int(board.free_squares[0])
        searches = [
            (t.prefix, t.end) for t in closed_tasks(board, piece, root, e)
        ]
    elif s is None and e is not None:
        searches = [((v,), e) for v in board.free_squares.tolist() if v != e]
    else:
        starts = [s] if s is not None else board.free_squares.tolist()
        searches = [((v,), e) for v in starts]
    for prefix, fixed_end in searches:
        search = Search(table, list(prefix), end=fixed_end, order=order, holes=holes_mask)
        while True:
            status = _run_until(search, deadline, None, stop_at_tour=True)
            if status == "found":
                yield _finish(Tour(board, piece, search.path(), closed, "backtrack", {"nodes": search.nodes}))
            elif status == "exhausted":
                break
            else:
                raise LimitReached("The time limit ran out while listing tours.")


# -- count -------------------------------------------------------------------


def count_tours(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    method: str = "auto",
    *,
    holes=(),
    time_limit: float | None = None,
    node_limit: int | None = None,
    workers: int | None = None,
    progress: Callable[..., None] | None = None,
) -> TourCount:
    """Count tours exactly.

    Parameters
    ----------
    board, start, end, closed, piece, holes
        As for :func:`find_tour`; without ``start`` every start is counted.
    method : {"auto", "frontier", "backtrack"}
        ``backtrack`` searches every tour (symmetry reduction, all cores);
        ``frontier`` sweeps the board with a dynamic programme over the
        frontier squares (:mod:`chesstours.engines.frontier`), whose cost
        grows with the width of the board, not the number of tours;
        ``auto`` uses the theory for an instant zero, then the frontier sweep
        for closed tours of whole boards, and for other counts when
        backtracking is estimated to take over :data:`FRONTIER_ABOVE_SECONDS`,
        where its frontier fits; else backtracking. The chosen method is in
        ``TourCount.method``; a frontier count adds ``max_states`` and
        ``peak_memory_mb`` to ``TourCount.extra``.
    time_limit, node_limit
        On reaching one, :class:`LimitReached` is raised with the partial
        :class:`TourCount` (``complete=False``) in its ``partial`` attribute.
        The frontier sweep counts nothing before its end and has no node limit.
    workers : int, optional
        Threads (default: all cores).
    progress : callable, optional
        Called about ten times a second with the running :class:`TaskResult`
        (backtracking) or :class:`~chesstours.engines.frontier.FrontierProgress`.

    Returns
    -------
    TourCount
        ``directed`` and ``undirected`` counts (see the module docstring).

    Raises
    ------
    InvalidArgument
        When the board is too large for an exhaustive count: above
        ``MAX_BACKTRACK_COUNT_SQUARES`` squares, or (without a limit) when Knuth's
        estimate of the search says it would take over an hour; for the
        frontier sweep, when its states would not fit in memory.

    Examples
    --------
    >>> c = count_tours("6x6", closed=True, method="frontier")
    >>> (c.undirected, c.method)
    (9862, 'frontier')
    """
    from .engines.parallel import (
        NODES_PER_SECOND,
        closed_tasks,
        estimate_nodes,
        open_tasks,
        run_tasks,
        split_tasks,
    )
    from .frontier_api import count_by_frontier

    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if method not in COUNT_METHODS:
        raise InvalidArgument(f"Unknown counting method {method!r}; use one of {', '.join(COUNT_METHODS)}.")
    check_limits(time_limit, node_limit)
    if method == "frontier":
        return count_by_frontier(board, piece, closed, s, e, time_limit=time_limit, progress=progress)
    if method == "auto" and node_limit is None:
        if obstruction(board, piece, s, e, closed) is not None:
            return TourCount(board, piece, closed, s, e, 0, 0, 0, 0.0, "theory")
        why_not = _frontier_refusal(board, piece, s, e, closed)
        if why_not is None and _frontier_pays(board, piece, s, e, closed, workers):
            return count_by_frontier(board, piece, closed, s, e, time_limit=time_limit, progress=progress)
    else:
        why_not = None
    if board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
        raise InvalidArgument(
            f"Counting every tour of {board} ({board.free_count:,} squares) by exhaustive search is out of "
            f"reach: the number of paths grows exponentially; the limit is {MAX_BACKTRACK_COUNT_SQUARES} squares."
        )
    t0 = time.perf_counter()
    if obstruction(board, piece, s, e, closed) is not None:
        return TourCount(board, piece, closed, s, e, 0, 0, 0, time.perf_counter() - t0, "theory")
    if closed:
        tasks = closed_tasks(board, piece, s, e)
    else:
        tasks = open_tasks(board, piece, s, e)
    tasks = split_tasks(board, piece, tasks)
    if time_limit is None and node_limit is None and board.free_count > 30:
        nodes = estimate_nodes(board, piece, tasks)
        cores = workers or os.cpu_count() or 1
        seconds = nodes / (NODES_PER_SECOND * min(cores, len(tasks)))
        if seconds > MAX_UNLIMITED_COUNT_SECONDS:
            if why_not is not None:  # auto: neither method can do it
                raise InvalidArgument(
                    f"{why_not[:-1]}; and exhaustive search would visit about {nodes:.1e} positions, "
                    f"about {_duration(seconds)} here."
                )
            raise InvalidArgument(
                f"Counting every tour of {board} by exhaustive search would visit about {nodes:.1e} positions, "
                f"about {_duration(seconds)} here; give a time limit to count as far as it gets."
            )
    result = run_tasks(board, piece, tasks, time_limit=time_limit, node_limit=node_limit, workers=workers,
                       progress=progress)
    count = _tour_count(board, piece, closed, s, e, result, time.perf_counter() - t0)
    if not result.complete:
        raise LimitReached(
            f"Stopped at the {result.stopped_by} after {result.nodes:,} positions; "
            f"{result.tasks_done} of {result.tasks_total} parts were counted ({count.directed:,} tours so far).",
            partial=count,
        )
    return count


def _frontier_refusal(board, piece, s, e, closed) -> str | None:
    from .engines.frontier import refusal
    from .frontier_api import memory_limit

    return refusal(board, piece, s, e, closed, memory_limit())


def _frontier_pays(board, piece, s, e, closed, workers) -> bool:
    """``auto``: sweep for whole-board cycles; otherwise only when backtracking would be slow.

    Measured here: 6x7 closed, 1.3 s by the sweep; 6x6 open, 29 s by the sweep and 2 s by
    backtracking (symmetry, two cores), so open counts sweep only past the threshold.
    """
    if (closed and s is None and e is None) or board.free_count <= 12:
        return True
    return estimate_count(board, s, e, closed, piece, workers=workers)[1] > FRONTIER_ABOVE_SECONDS


def _duration(seconds: float) -> str:
    """``3.2e7`` -> ``"1 year"``: a rough human duration."""
    for unit, size in (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds / size
            return f"{n:,.0f} {unit}{'s' if round(n) != 1 else ''}"
    return f"{seconds:.0f} seconds"


def _tour_count(board, piece, closed, s, e, result, seconds: float) -> TourCount:
    n = result.count
    if closed:
        directed, undirected = (n, n) if e is not None else (2 * n, n)
    elif s is None and e is None and board.free_count > 1:
        directed, undirected = n, n // 2
    else:
        directed = undirected = n
    return TourCount(board, piece, closed, s, e, directed, undirected, result.nodes, seconds, "backtrack",
                     result.complete, {"tasks": result.tasks_total})



# -- estimate ----------------------------------------------------------------


def estimate_count(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes=(),
    workers: int | None = None,
) -> tuple[float, float]:
    """Estimate what :func:`count_tours` would cost: ``(positions, seconds)``.

    Knuth's random probes of the search tree (see
    :meth:`chesstours.engines.backtrack.Search.estimate`): good to an order of
    magnitude, and quick -- a few hundredths of a second. Boards where the theory
    rules out every tour cost nothing. ``workers`` threads are assumed (default:
    all cores).

    >>> positions, seconds = estimate_count("5x5", start="a1")
    >>> 1e3 < positions < 1e6 and seconds < 1
    True
    """
    from .engines.parallel import NODES_PER_SECOND, closed_tasks, estimate_nodes, open_tasks, split_tasks

    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
        return float("inf"), float("inf")
    if obstruction(board, piece, s, e, closed) is not None:
        return 0.0, 0.0
    tasks = closed_tasks(board, piece, s, e) if closed else open_tasks(board, piece, s, e)
    tasks = split_tasks(board, piece, tasks)
    nodes = estimate_nodes(board, piece, tasks)
    cores = workers or os.cpu_count() or 1
    return nodes, nodes / (NODES_PER_SECOND * min(cores, len(tasks)))
