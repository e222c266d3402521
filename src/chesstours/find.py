"""Find a tour, or list them all: :func:`find_tour` and :func:`iter_tours`.

``find_tour`` answers "give me a tour" with the method :mod:`chesstours.policy`
plans (by default the fastest one that works, and complete: it finds a tour
whenever one exists), and ``iter_tours`` lists every tour lazily. Every tour
returned has passed :meth:`Tour.validate`.

Without a start square, "a tour" means a tour from any square, as it does for
:func:`~chesstours.tour_exists` and :func:`~chesstours.count_tours`: a1 (or the
first free square) if one starts there, else one from another square, which
the tour's ``start`` says. Without a start but with an end, a tour that ends
there.

Examples
--------
>>> import chesstours as ct
>>> tour = ct.find_tour("8x8", start="a1")
>>> len(tour), tour.names()[:3]
(64, ['a1', 'b3', 'c1'])
>>> tour = ct.find_tour("3x4", holes="a1")       # no tour starts on b1: it starts elsewhere
>>> tour.board.name(tour.start), len(tour)
('a2', 11)
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable, Iterator

from . import policy
from .arguments import check_limits, check_seed, prepare_query
from .backtrack import Search, closed_tasks, first_tour, open_tasks
from .backtrack.where import TourProperty, parse_where
from .board import Board, Holes
from .construct import construct_tour
from .errors import GaveUp, InvalidArgument, LimitReached, NoTour, ResourceError
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper, move_table
from .policy import FindMethod, Order, Tiebreak
from .scale import Spread, iter_spread
from .status import Status
from .tour import Tour
from .units import format_bytes
from .warnsdorff import warnsdorff

__all__ = ["find_tour", "iter_tours"]

#: Nodes per kernel call between checks of the clock.
_CHUNK = 1 << 20


def find_tour(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    method: FindMethod = "auto",
    *,
    holes: Holes = (),
    tiebreak: Tiebreak | None = None,
    seed: int = 0,
    order: Order = policy.FIND_ORDER,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tour:
    """Return one tour of ``piece`` over ``board``; raise :class:`NoTour` if there is none.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start : int or str, optional
        First square (a name such as ``"a1"`` or an index). Without it, a tour
        from any square: a1 (or the first free square) when one starts there,
        else from the first other square that has one (one square of each
        symmetry class is tried; a heuristic method tries at most
        :data:`~chesstours.policy.HEURISTIC_STARTS`).
    end : int or str, optional
        Last square. Without a start but with an end, a tour that ends there.
    closed : bool, optional
        Ask for a closed tour (the last square leaps back to the first).
    piece : Leaper or str, optional
        The leaper: a :class:`Leaper` or a name such as ``"zebra"``.
    method : str, optional
        ``"auto"``, ``"warnsdorff"``, ``"backtrack"`` or ``"construct"``.
        ``warnsdorff`` walks Warnsdorff's rule once with ``tiebreak`` and may
        fail; ``backtrack`` searches exhaustively; ``construct`` builds a
        knight's tour of a whole board of any size in linear time by divide
        and conquer (Parberry 1997, Lin & Wei 2005; no holes; an end square
        is reached by Pósa's rotations, which may give up on 3 x n and 4 x n);
        ``auto`` is complete and is planned by :func:`chesstours.policy.plan_find`:
        the theory first (instant "no" with a reason); for a knight on a whole
        board of more than :data:`~chesstours.policy.CONSTRUCT_ABOVE` squares
        the construction; otherwise Warnsdorff's rule with the tie-breaks of
        :func:`~chesstours.policy.walk_schedule`, then the construction where it
        applies, then backtracking -- so it returns a tour whenever one exists
        and otherwise raises :class:`NoTour`.
    holes : iterable of int or str, optional
        Squares no tour may use: names or indices, or one string such as ``"d4,e5"``.
    tiebreak : str, optional
        Warnsdorff's tie-break: ``"first"``, ``"pohl"``, ``"roth"`` or ``"random"``.
        Without one, ``warnsdorff`` breaks ties by ``"roth"``
        (:data:`~chesstours.policy.DEFAULT_TIEBREAK`) and ``auto`` tries
        several in turn (:func:`~chesstours.policy.walk_schedule`).
    seed : int, optional
        Seed of the ``random`` tie-break.
    order : str, default 'warnsdorff'
        Backtracking's move order: ``"warnsdorff"`` (fewest onward moves first,
        :data:`~chesstours.policy.FIND_ORDER`) or ``"fixed"`` (the leaper's own order).
    time_limit : float, optional
        Seconds; :class:`LimitReached` when they run out.
    node_limit : int, optional
        Most squares placed by backtracking.
    progress : callable, optional
        Called with the number of positions searched so far, while backtracking.

    Returns
    -------
    Tour
        Validated; ``tour.stats`` holds ``nodes``, ``seconds`` and what was
        tried (``starts_tried`` when squares before its start had no tour).

    Raises
    ------
    NoTour
        No tour exists (``proof`` says how it is known), or a heuristic failed.
    LimitReached
        The time or node limit ran out first.
    InvalidBoard
        ``board`` does not describe a board (``"0x5"``, ``"8x"``).
    InvalidSquare
        The start, the end or a hole is not on the board, or the start or end is a hole.
    InvalidPiece
        ``piece`` is not a leaper.
    InvalidArgument
        Any other argument out of range: an unknown method, a negative limit, the same start and end.
    ResourceError
        The search needs more memory than this machine has (refused before it starts where its plan says so).
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    policy.check_find(method, tiebreak, order)
    check_limits(time_limit, node_limit)
    seed = check_seed(seed)
    _check_memory(board, piece, s, e, closed, method, tiebreak, order)
    finder = _Finder(board, piece, closed, method, tiebreak, seed, order, time_limit, node_limit, progress)
    try:
        return _find(finder, board, s, e, closed)
    except MemoryError:
        raise ResourceError(f"Finding a tour of {board} ran out of memory: this machine cannot hold what the "
                            "search needs; try a smaller board.") from None


def _check_memory(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, method: FindMethod,
                  tiebreak: Tiebreak | None, order: Order) -> None:
    """Refuse, before anything is allocated, a search whose plan needs more memory than a job may use.

    :raises ResourceError: naming the board, the memory needed and the memory allowed.
    """
    from .runtime import memory_limit

    need = policy.plan_find(board, piece, s, e, closed, method, tiebreak=tiebreak, order=order).memory_bytes
    allowed = memory_limit()
    if need is not None and need > allowed:
        raise ResourceError(f"Finding a tour of {board} needs about {format_bytes(need)} of memory, more than "
                            f"the {format_bytes(allowed)} a job may use here; try a smaller board.")


def _find(finder: "_Finder", board: Board, s: int | None, e: int | None, closed: bool) -> Tour:
    """The tour :func:`find_tour` asks ``finder`` for: from ``s``, to ``e``, closed, or from any square."""
    if s is not None:
        return finder.tour_from(s, e).validated()
    if closed:
        # A closed tour passes through every square: find one from the end square (or the
        # default start) and turn it so that it ends there.
        if e is None:
            return finder.tour_from(policy.default_start(board), None).validated()
        tour = finder.tour_from(e, None)
        return tour.rotated(int(tour.path[1])).validated() if len(tour) > 1 else tour.validated()
    if e is not None:  # a tour that ends on e is a tour from e, walked backwards
        return finder.tour_from(e, None).reversed().validated()
    return finder.tour_from_any_square().validated()


class _Finder:
    """One query of :func:`find_tour`: its method, limits and clock, asked for tours from given squares."""

    def __init__(self, board: Board, piece: Leaper, closed: bool, method: str, tiebreak: Tiebreak | None, seed: int,
                 order: Order, time_limit: float | None, node_limit: int | None,
                 progress: Callable[[int], None] | None):
        self.board, self.piece, self.closed, self.method = board, piece, closed, method
        self.tiebreak, self.seed, self.order = tiebreak, seed, order
        self.node_limit, self.progress = node_limit, progress
        self.t0 = time.perf_counter()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.nodes = 0  # positions backtracking visited so far, over every start square tried
        self.plain = policy.plain_allowance(board)  # backtracking's start in plain Python, for the whole query

    def tour_from_any_square(self) -> Tour:
        """An open tour from the default start, else from the first other square that has one."""
        board = self.board
        if self.method in ("auto", "backtrack"):
            reason = obstruction(board, self.piece, None, None, self.closed)
            if reason is not None:
                raise reason
        failures: list[NoTour | GaveUp] = []
        for tried, v in enumerate(policy.starts_to_try(board, self.piece, self.method)):
            try:
                tour = self.tour_from(v, None)
            except (NoTour, GaveUp) as exc:
                failures.append(exc)
                continue
            if tried:
                tour.stats["starts_tried"] = tried + 1
            return tour
        if len(failures) == 1:
            raise failures[0]
        proven = all(exc.proof != "heuristic" for exc in failures)
        nodes = sum(exc.nodes for exc in failures)
        squares = "every square (one of each symmetry class)" if self.method in ("auto", "backtrack") else \
            f"{len(failures)} squares (one of each symmetry class)"
        how = f"an exhaustive search from {squares} found none ({nodes:,} positions)" if proven else \
            f"{self._method_name()} found none from {squares}, but it is a heuristic that can get stuck: this " \
            "does not mean that no tour exists"
        if not proven:
            raise GaveUp(f"No {self.piece.name}'s tour of {board}: {how}.", nodes=nodes)
        raise NoTour(f"No {self.piece.name}'s tour of {board}: {how}.", proof="exhaustive", nodes=nodes)

    def _method_name(self) -> str:
        return {"warnsdorff": "Warnsdorff's rule", "construct": "the construction"}.get(self.method, self.method)

    def tour_from(self, s: int, e: int | None) -> Tour:
        """A tour from ``s`` (to ``e``) by the query's method; :class:`NoTour`, :class:`GaveUp` (a heuristic's) or
        :class:`LimitReached` if none."""
        board, piece, closed = self.board, self.piece, self.closed
        if self.method == "warnsdorff":
            return self._walk(s, e, self.tiebreak or policy.DEFAULT_TIEBREAK, self.seed)
        if self.method == "construct":
            return construct_tour(board, s, e, closed, piece)
        if self.method == "auto":
            reason = obstruction(board, piece, s, e, closed)
            if reason is not None:
                raise reason
            plan = policy.plan_find(board, piece, s, e, closed, "auto", tiebreak=self.tiebreak, order=self.order)
            constructible = "the construction" in plan.steps or plan.method == "construct"
            if plan.method == "construct":
                try:  # an end square is reached by rotations, which may give up: then search
                    return self._constructed(s, e)
                except InvalidArgument:
                    if e is None:
                        raise
            tour = self._walks(s, e)
            if tour is not None:
                return tour
            if constructible:
                try:
                    return self._constructed(s, e)
                except InvalidArgument:
                    pass  # no stored piece fits, or the rotations gave up: exhaustive search decides
        return self._backtrack(s, e)

    def _constructed(self, s: int, e: int | None) -> Tour:
        return dataclasses.replace(construct_tour(self.board, s, e, self.closed, self.piece), method="auto/construct")

    def _walk(self, s: int, e: int | None, tiebreak: Tiebreak, seed: int) -> Tour:
        board, piece, closed = self.board, self.piece, self.closed
        result = warnsdorff(board, s, piece, tiebreak, seed, end=e, closed=closed)
        stats = {"nodes": len(result.path), "seconds": time.perf_counter() - self.t0, "tiebreak": tiebreak}
        rule = f"Warnsdorff's rule ({tiebreak} tie-break)"
        if not result.complete:
            raise GaveUp(f"{rule} reached a dead end after {len(result.path)} of {board.free_count} squares; "
                         "the heuristic got stuck, which does not mean that no tour exists.", nodes=len(result.path))
        if e is not None and result.path[-1] != e:
            raise GaveUp(f"{rule} covered the board but ended on {board.name(result.path[-1])}, not "
                         f"{board.name(e)}: the heuristic missed the end, which does not mean that no such tour "
                         "exists.")
        if closed and not result.closed:
            raise GaveUp(f"{rule} found an open tour ending on {board.name(result.path[-1])}, which is not a "
                         f"{piece.name} move from {board.name(s)}, so it is not closed; this does not mean that "
                         "no closed tour exists.")
        return Tour(board, piece, result.path, closed, "warnsdorff", stats)

    def _walks(self, s: int, e: int | None) -> Tour | None:
        """The first of the schedule's walks that makes the tour asked for, or None."""
        for n, (rule, seed) in enumerate(policy.walk_schedule(self.tiebreak, self.seed), 1):
            try:
                tour = self._walk(s, e, rule, seed)
            except (NoTour, GaveUp):
                continue
            tour.stats["tries"] = n
            return dataclasses.replace(tour, method="auto/warnsdorff")
        return None

    def _backtrack(self, s: int, e: int | None) -> Tour:
        board, piece, closed = self.board, self.piece, self.closed
        if closed:
            # Without a fixed end, a closed tour may start anywhere: search through the
            # square with fewest moves (fewest pairs of neighbours to try), then rotate.
            tasks = closed_tasks(board, piece, s if e is not None else None, e)
        else:
            tasks = open_tasks(board, piece, s, e, symmetry=False)
        left = None if self.node_limit is None else self.node_limit - self.nodes
        status, path, nodes = first_tour(board, piece, tasks, order=self.order, deadline=self.deadline,
                                         node_limit=left, progress=self.progress, plain=self.plain)
        self.nodes += nodes
        stats = {"nodes": nodes, "seconds": time.perf_counter() - self.t0, "order": self.order}
        label = "backtrack" if self.method == "backtrack" else "auto/backtrack"
        if status == Status.FOUND:
            assert path is not None
            tour = Tour(board, piece, path, closed, label, stats)
            return tour.rotated(s) if closed and tour.start != s else tour
        if status == Status.EXHAUSTED:
            what = "closed tour" if closed else "tour"
            where = "" if closed and e is None else f" from {board.name(s)}"
            if e is not None:
                where += f" to {board.name(e)}"
            raise NoTour(f"No {what}{where} on {board}: an exhaustive search of {nodes:,} positions found none.",
                         proof="exhaustive", nodes=nodes)
        raise LimitReached(f"Stopped at the {'time' if status == Status.TIME else 'node'} limit after {nodes:,} "
                           "positions without finding a tour.", partial=stats)

def _run_until(search, deadline: float | None, stop_at_tour: bool) -> Status:
    """Run ``search`` in chunks until it finds a tour, is exhausted, or the deadline passes.

    The clock is read before every chunk, so a search that finds tours in
    quick succession stops at the deadline too.
    """
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return Status.TIME
        status = search.run(_CHUNK, stop_at_tour=stop_at_tour)
        if status != Status.BUDGET:
            return status


# -- iterate -----------------------------------------------------------------


def iter_tours(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes: Holes = (),
    order: Order = policy.LIST_ORDER,
    time_limit: float | None = None,
    where: str | TourProperty | Callable[[Tour], bool] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
) -> Iterator[Tour]:
    """Yield every tour, lazily, each one validated.

    Open tours are yielded as directed sequences: from ``start`` if given,
    otherwise from every free square in turn (to ``end`` if given). Closed
    tours are yielded once per cycle, starting at ``start`` (or, with only an
    ``end``, ending there; else starting at the first free square), in the
    direction whose second square comes first in the move order.

    ``where`` keeps only the tours with a property: ``"symmetric"``,
    ``"symmetric90"``, clues such as ``"a1=1,h8=64"``
    (:mod:`chesstours.backtrack.where`, tested by compiled code), or any
    function of a :class:`Tour` that returns True for the tours to keep. A
    closed tour is kept if it has the property walked either way.

    With ``jobs`` (local processes) or ``cluster`` (a Dask scheduler's address)
    the search runs as independent tasks (:mod:`chesstours.scale`) and tours
    stream in as the workers find them, in no fixed order.

    Raises :class:`LimitReached` when ``time_limit`` runs out.

    >>> sum(1 for _ in iter_tours("3x4"))
    16
    >>> sum(1 for _ in iter_tours("5x6", closed=True))
    8
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    policy.check_find("backtrack", None, order)
    check_limits(time_limit, None)
    prop = parse_where(where, board, closed) if isinstance(where, str) else where
    if jobs is not None or cluster is not None:
        if obstruction(board, piece, s, e, closed) is None:
            yield from iter_spread(board, piece, s, e, closed, Spread(jobs, cluster), where=prop,
                                   time_limit=time_limit)
        return
    keep = _keeper(board, piece, closed, prop)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if obstruction(board, piece, s, e, closed) is not None:
        return
    table = move_table(board, piece)
    holes_mask = board.hole_mask if board.holes else None
    turn_to_end = closed and s is None and e is not None  # cycles through e, each turned to end there
    if closed:
        root = s if s is not None else e if e is not None else policy.default_start(board)
        searches = [(t.prefix, t.end) for t in closed_tasks(board, piece, root, None if turn_to_end else e)]
    elif s is None and e is not None:
        searches = [((v,), e) for v in board.free_squares.tolist() if v != e]
    else:
        starts = [s] if s is not None else board.free_squares.tolist()
        searches = [((v,), e) for v in starts]
    plain = policy.plain_allowance(board)
    for prefix, fixed_end in searches:
        search = Search(table, list(prefix), end=fixed_end, order=order, holes=holes_mask, plain=plain)
        while True:
            status = _run_until(search, deadline, stop_at_tour=True)
            if status == Status.FOUND:
                tour = Tour(board, piece, search.path(), closed, "backtrack", {"nodes": search.nodes})
                tour = tour.rotated(int(tour.path[1])) if turn_to_end else tour
                kept = keep(tour)
                if kept is not None:
                    yield kept.validated()
            elif status == Status.EXHAUSTED:
                break
            else:
                raise LimitReached("The time limit ran out while listing tours.")


def _keeper(board: Board, piece: Leaper, closed: bool,
            prop: TourProperty | Callable[[Tour], bool] | None) -> Callable[[Tour], Tour | None]:
    """What :func:`iter_tours` yields of a found tour: itself, itself walked the other way, or nothing."""
    if prop is None:
        return lambda tour: tour
    test: Callable[[Tour], bool] = (lambda tour: prop(tour.path)) if isinstance(prop, TourProperty) else prop

    def keep(tour: Tour) -> Tour | None:
        if test(tour):
            return tour
        if closed:  # the same cycle, walked the other way from the same square
            other = tour.reversed()
            if test(other):
                return other
        return None

    return keep
