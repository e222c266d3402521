"""The public api: find, list and count tours.

``find_tour`` answers "give me a tour" with the fastest method that works,
``iter_tours`` lists every tour lazily, and ``count_tours`` (from
:mod:`chesstours.count`) counts them exactly. Every tour returned has
passed :meth:`Tour.validate`.

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

import time
from typing import Callable, Iterator

from .arguments import check_limits, prepare_query
from .board import Board
from .errors import InvalidArgument, LimitReached, NoTour
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper, move_table
from .tour import Tour
from .warnsdorff import walk as _wd

__all__ = ["find_tour", "iter_tours", "METHODS", "CONSTRUCT_ABOVE"]

#: Methods of :func:`find_tour`.
METHODS = ("auto", "warnsdorff", "backtrack", "construct")
#: ``auto`` builds knight's tours of whole boards with more squares than this by
#: construction (:mod:`chesstours.construct.build`) instead of Warnsdorff's rule.
CONSTRUCT_ABOVE = 10_000
#: Nodes per kernel call between checks of the clock.
_CHUNK = 1 << 20
#: Backtracking move orders (as :data:`chesstours.backtrack.search.ORDERS`; the
#: compiled engines are imported only when a search needs them).
ORDERS = ("fixed", "warnsdorff")


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
        return _warnsdorff_once(board, piece, s, e, closed, tiebreak or "roth", seed, t0).validated()

    if method == "construct":
        from .construct.build import construct_tour

        return construct_tour(board, s, e, closed, piece).validated()

    if method == "auto":
        reason = obstruction(board, piece, s, e, closed)
        if reason is not None:
            raise reason
        constructible = piece == KNIGHT and not board.holes
        if constructible and board.free_count > CONSTRUCT_ABOVE:
            if e is None:
                return _constructed(board, s, None, closed, piece).validated()
            try:  # the end square is reached by rotations, which may give up: then search
                return _constructed(board, s, e, closed, piece).validated()
            except InvalidArgument:
                pass
        tour = _warnsdorff_tries(board, piece, s, e, closed, tiebreak, seed, t0)
        if tour is not None:
            return tour.validated()
        if constructible:
            try:
                return _constructed(board, s, e, closed, piece).validated()
            except InvalidArgument:
                pass  # no stored piece fits, or the rotations gave up: exhaustive search decides
    return _backtrack(board, piece, s, e, closed, order, deadline, node_limit, t0, method, progress).validated()


def _constructed(board, s, e, closed, piece) -> Tour:
    from .construct.build import construct_tour

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
    from .backtrack.tasks import closed_tasks, first_tour, open_tasks

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
    from .backtrack.search import Search
    from .backtrack.tasks import closed_tasks

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
                yield Tour(board, piece, search.path(), closed, "backtrack", {"nodes": search.nodes}).validated()
            elif status == "exhausted":
                break
            else:
                raise LimitReached("The time limit ran out while listing tours.")
