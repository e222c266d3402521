"""Exact counts of tours: :func:`count_tours`, :func:`estimate_count` and :func:`count_strip`.

Two methods answer the same question, and :func:`chesstours.policy.plan_count`
chooses between them. Backtracking (:mod:`chesstours.backtrack`, on every
core) visits every tour, so its cost grows with the number of tours; the
frontier method (:mod:`chesstours.frontier`) counts without visiting them,
so its cost grows with the width of the board.

Counting conventions (as in the literature): an open tour is a Hamiltonian
path, counted *directed* (as sequences of squares: each path twice, once per
direction) and *undirected*; from a fixed start square both numbers are the
sequences that start there. A closed tour is a Hamiltonian cycle, counted as
a cycle (undirected); directed closed tours are twice as many.

Examples
--------
>>> count_tours("5x5", start="a1").directed
304
>>> c = count_tours("5x5"); (c.directed, c.undirected)
(1728, 864)
>>> [n for k, n in count_strip(5, range(5, 9), closed=True).counts]
[0, 8, 0, 44202]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import policy
from .arguments import check_limits, check_spread, prepare_query, query_json
from .backtrack import TaskResult, closed_tasks, open_tasks, run_tasks, split_tasks
from .backtrack.where import TourProperty, parse_where
from .board import Board, Holes
from .errors import InvalidArgument, LimitReached
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper, parse_piece
from .policy import CountMethod
from .runtime import memory_limit
from .scale import Spread, count_parts_spread, count_spread

__all__ = ["count_tours", "estimate_count", "TourCount", "StripCount", "count_strip", "directed_undirected"]


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
        out = {
            **query_json(self.board, self.piece, self.closed, self.start, self.end),
            "directed": self.directed,
            "undirected": self.undirected,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "method": self.method,
            "complete": self.complete,
        }
        out.update(self.extra)
        return out


# -- count -------------------------------------------------------------------


def count_tours(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    method: CountMethod = "auto",
    *,
    holes: Holes = (),
    time_limit: float | None = None,
    node_limit: int | None = None,
    workers: int | None = None,
    progress: Callable[..., None] | None = None,
    spill_dir: str | os.PathLike | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    where: str | TourProperty | None = None,
    split_on: int | None = None,
) -> TourCount:
    """Count tours exactly.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start : int or str, optional
        First square (a name such as ``"a1"`` or an index); without it, the
        tours from every start are counted.
    end : int or str, optional
        Last square; without it, tours may end anywhere.
    closed : bool, optional
        Count closed tours (the last square leaps back to the first).
    piece : Leaper or str, optional
        The leaper: a :class:`Leaper` or a name such as ``"zebra"``.
    method : str, optional
        ``"auto"``, ``"frontier"`` or ``"backtrack"``. ``backtrack`` searches every tour
        (symmetry reduction, all cores); ``frontier`` sweeps the board with a dynamic programme
        over the frontier squares (:mod:`chesstours.frontier.sweep`), whose cost grows with the
        width of the board, not the number of tours; ``auto`` (planned by
        :func:`chesstours.policy.plan_count`) uses the theory for an instant zero, then the
        frontier sweep where its frontier fits and backtracking is estimated to take longer than
        :data:`~chesstours.policy.FRONTIER_ABOVE_SECONDS` and than the sweep; else backtracking.
        The chosen method is in ``TourCount.method``; a frontier count adds ``max_states`` and
        ``peak_memory_mb`` to ``TourCount.extra``.
    holes : iterable of int or str, optional
        Squares no tour may use: names or indices, or one string such as ``"d4,e5"``.
    time_limit : float, optional
        Seconds. When they run out, :class:`LimitReached` is raised with the
        partial :class:`TourCount` (``complete=False``) in its ``partial``
        attribute; the frontier sweep counts nothing before its end.
    node_limit : int, optional
        Most squares placed by backtracking; reaching it raises
        :class:`LimitReached` with the partial count, as ``time_limit`` does.
        The frontier sweep has no node limit.
    workers : int, optional
        Threads (default: all cores).
    spill_dir : path, optional
        The frontier sweep keeps its layers of states in files in this folder
        (:mod:`chesstours.frontier.disk`) instead of memory, so a
        count too large for memory is refused only when the disk is too small.
    progress : callable, optional
        Called about ten times a second with the running :class:`TaskResult`
        (backtracking) or :class:`~chesstours.frontier.sweep.FrontierProgress`.
    jobs : int, optional
        Count in independent tasks (:mod:`chesstours.scale`) on this many
        local processes. Backtracking is cut into tasks; where exhaustive
        search is out of reach (or with ``method="frontier"``), the frontier
        count is split into parts instead (:mod:`chesstours.frontier.split`).
    cluster : str, optional
        Count in independent tasks, as with ``jobs``, on the Dask scheduler at
        this address (``tcp://HOST:PORT``).
    checkpoint : path, optional
        Count in independent tasks, as with ``jobs``, recording each finished
        task in this file, so that a run started again with it resumes where
        it stopped.
    split_on : int, optional
        Split the frontier count into parts conditioned on this many squares
        of the middle line (:mod:`chesstours.frontier.split`): each part
        holds fewer states, so a worker needs less memory; on boards of five
        lines and more the parts together cost about the whole count's time
        for a few squares, on narrower boards many times more. Default (in
        tasks): the fewest squares whose parts fit a worker's memory.
    where : str or TourProperty, optional
        Count only the tours with a property (:mod:`chesstours.backtrack.where`):
        ``"symmetric"``, ``"symmetric90"``, clues such as ``"a1=1,h8=64"``.
        ``directed`` counts the sequences that have it (closed: twice the
        cycles that have it walked one way or the other); ``undirected`` the
        paths or cycles with a direction that has it.

    Returns
    -------
    TourCount
        ``directed`` and ``undirected`` counts. Open tours are counted as
        sequences of squares (``directed``: each path twice, once per direction)
        and as paths (``undirected``); from a fixed start both are the sequences
        that start there. Closed tours are counted as cycles (``undirected``);
        ``directed`` is twice as many.

    Raises
    ------
    InvalidArgument
        When the board is too large for an exhaustive count: above
        :data:`~chesstours.policy.MAX_BACKTRACK_COUNT_SQUARES` squares, or (without a limit) when Knuth's
        estimate of the search says it would take over an hour; for the
        frontier sweep, when its states would not fit in memory.

    Examples
    --------
    >>> c = count_tours("6x6", closed=True, method="frontier")
    >>> (c.undirected, c.method)
    (9862, 'frontier')
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    check_limits(time_limit, node_limit)
    check_spread(workers, jobs, split_on, cluster)
    if split_on is not None:
        if method == "backtrack" or where is not None:
            raise InvalidArgument("split_on (--split-on) splits the frontier count into parts; backtracking and "
                                  "properties split into tasks on their own.")
        method = "frontier"
    if jobs is not None or cluster is not None or checkpoint is not None or where is not None or split_on is not None:
        return _count_in_tasks(board, piece, s, e, closed, method, Spread(jobs, cluster, checkpoint), where,
                               time_limit, node_limit, progress, split_on)
    t0 = time.perf_counter()
    plain = policy.plain_allowance(board, counting=True)  # the plan's probes and the count share it
    plan = policy.plan_count(board, piece, s, e, closed, method, time_limit=time_limit, node_limit=node_limit,
                             workers=workers, spill_dir=spill_dir, plain=plain)
    if plan.refusal is not None:
        raise InvalidArgument(plan.refusal)
    if plan.method == "theory":
        return TourCount(board, piece, closed, s, e, 0, 0, 0, time.perf_counter() - t0, "theory")
    # the time limit is the whole count's: the plan (an estimate's probes) spent some of it
    left = None if time_limit is None else max(0.0, t0 + time_limit - time.perf_counter())
    if plan.method == "frontier":
        return count_by_frontier(board, piece, closed, s, e, time_limit=left, progress=progress,
                                 workers=workers, spill_dir=spill_dir)
    tasks = closed_tasks(board, piece, s, e) if closed else open_tasks(board, piece, s, e, pairs=True)
    tasks = split_tasks(board, piece, tasks)
    try:
        result = run_tasks(board, piece, tasks, time_limit=left, node_limit=node_limit, workers=workers,
                           progress=progress, plain=plain)
    except KeyboardInterrupt as exc:  # Ctrl-C: what was counted rides on the interrupt as a TourCount
        done = getattr(exc, "partial", None)
        if done is not None:
            exc.partial = _tour_count(board, piece, closed, s, e, done, done.seconds)  # type: ignore[attr-defined]
            exc.partial.complete = False  # type: ignore[attr-defined]
        raise
    count = _tour_count(board, piece, closed, s, e, result, time.perf_counter() - t0)
    if not result.complete:
        raise LimitReached(
            f"Stopped at the {result.stopped_by} after {result.nodes:,} positions; "
            f"{result.tasks_done} of {result.tasks_total} parts were counted ({count.directed:,} tours so far).",
            partial=count,
        )
    return count


def _count_in_tasks(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, method: str,
                    spread: Spread, where: str | TourProperty | None, time_limit: float | None,
                    node_limit: int | None, progress: Callable[..., None] | None,
                    split_on: int | None = None) -> TourCount:
    """:func:`count_tours` in independent tasks (:mod:`chesstours.scale`): backtracking split into tasks, or
    the frontier count into parts, and merged."""
    if node_limit is not None:
        raise InvalidArgument("A node limit bounds one search; counting in tasks takes a time limit instead.")
    prop = parse_where(where, board, closed) if isinstance(where, str) else where
    if prop is not None and method == "frontier":
        raise InvalidArgument("A property is tested on the tours that backtracking finds; the frontier method "
                              "counts without finding them. Use --method backtrack (or auto).")
    plan = policy.plan_count(board, piece, s, e, closed, "backtrack" if prop is not None else method,
                             time_limit=time_limit, jobs=spread.jobs, cluster=spread.cluster, split=True,
                             list_tasks=False, split_on=split_on)
    if plan.refusal is not None:
        raise InvalidArgument(plan.refusal)
    if plan.method == "theory":
        return TourCount(board, piece, closed, s, e, 0, 0, 0, 0.0, "theory")
    if plan.method == "frontier":
        return _count_in_parts(board, piece, s, e, closed, spread, [board.square(v) for v in plan.extra["split_on"]],
                               time_limit, progress)

    def tally(result: TaskResult) -> TourCount:
        n = result.count
        extra = dict(result.extra)
        both = extra.pop("both_ways", 0)
        if prop is None:
            directed, undirected = directed_undirected(board, closed, s, e, n)
        elif closed:
            directed, undirected = 2 * n, n
        else:  # a path counts once whichever of its two directions have the property
            directed, undirected = n, n - both // 2
        return TourCount(board, piece, closed, s, e, directed, undirected, result.nodes, result.seconds, "backtrack",
                         result.complete, extra)

    return _merged(lambda: count_spread(board, piece, s, e, closed, spread, where=prop, time_limit=time_limit,
                                        progress=progress),
                   tally, spread, lambda r, c: f"{r.tasks_done} of {r.tasks_total} tasks counted "
                                               f"({c.directed:,} tours so far)")


def _count_in_parts(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, spread: Spread,
                    squares: list[int], time_limit: float | None,
                    progress: Callable[..., None] | None) -> TourCount:
    """:func:`count_tours` by the frontier method in parts (:mod:`chesstours.frontier.split`), merged exactly."""
    swapped = closed and s is None and e is not None
    fs, fe = (e, None) if swapped else (s, e)

    def tally(result: TaskResult) -> TourCount:
        directed, undirected = _frontier_directed(board, closed, s, e, result.count)
        return TourCount(board, piece, closed, s, e, directed, undirected, result.nodes, result.seconds, "frontier",
                         result.complete, dict(result.extra))

    return _merged(lambda: count_parts_spread(board, piece, fs, fe, closed, spread, squares, time_limit=time_limit,
                                              progress=progress),
                   tally, spread, lambda r, c: f"{r.tasks_done} of {r.tasks_total} parts counted " + (
                       "(parts have signed weights: no count until all are in)" if r.extra["signed"]
                       else f"and {c.directed:,} directed tours in them"))


def _merged(run: Callable[[], TaskResult], tally: Callable[[TaskResult], TourCount], spread: Spread,
            so_far: Callable[[TaskResult, TourCount], str]) -> TourCount:
    """The :class:`TourCount` of a count run in tasks; at the time limit a :class:`LimitReached` that says
    ``so_far`` and carries it, and on Ctrl-C the same count on the interrupt. An interrupt that came before
    the tasks ran (while they were planned) carries nothing."""
    try:
        result = run()
    except KeyboardInterrupt as exc:
        done = getattr(exc, "partial", None)
        if done is not None:
            exc.partial = tally(done)  # type: ignore[attr-defined]
        raise
    count = tally(result)
    if not result.complete:
        kept = f"; {spread.checkpoint} keeps them" if spread.checkpoint is not None else ""
        raise LimitReached(f"Stopped at the time limit with {so_far(result, count)}{kept}.", partial=count)
    return count


def _frontier_directed(board: Board, closed: bool, s: int | None, e: int | None, n: int) -> tuple[int, int]:
    """Directed and undirected tours from a frontier count ``n`` (undirected paths, or cycles)."""
    if not closed and s is None and e is None and board.free_count > 1:
        n *= 2  # directed sequences: each path both ways
    return directed_undirected(board, closed, s, e, n)


def _tour_count(board, piece, closed, s, e, result, seconds: float) -> TourCount:
    directed, undirected = directed_undirected(board, closed, s, e, result.count)
    return TourCount(board, piece, closed, s, e, directed, undirected, result.nodes, seconds, "backtrack",
                     result.complete, {"tasks": result.tasks_total, **result.extra})



# -- estimate ----------------------------------------------------------------


def estimate_count(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes: Holes = (),
    workers: int | None = None,
) -> tuple[float, float]:
    """Estimate what :func:`count_tours` would cost: ``(positions, seconds)``.

    Knuth's random probes of the search tree (see
    :meth:`chesstours.backtrack.search.Search.estimate`): good to an order of
    magnitude, and quick -- a few hundredths of a second. Boards where the theory
    rules out every tour cost nothing. ``workers`` threads are assumed (default:
    all cores).

    >>> positions, seconds = estimate_count("5x5", start="a1")
    >>> 1e3 < positions < 1e6 and seconds < 1
    True
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if board.free_count <= policy.MAX_BACKTRACK_COUNT_SQUARES and obstruction(board, piece, s, e, closed) is not None:
        return 0.0, 0.0
    positions, seconds, _ = policy.estimate_backtracking(board, piece, s, e, closed, workers)
    return positions, seconds


# -- the frontier method and strip families -------------------------------------

def directed_undirected(board: Board, closed: bool, s, e, n: int) -> tuple[int, int]:
    """(directed, undirected) from ``n``: cycles, or directed sequences as backtracking counts them."""
    if closed:  # a cycle is two sequences from (or to) one square; one from s to e
        return (n, n) if s is not None and e is not None else (2 * n, n)
    if s is None and e is None and board.free_count > 1:
        return n, n // 2
    return n, n


def count_by_frontier(board: Board, piece: Leaper, closed: bool, s: int | None, e: int | None, *,
                      time_limit: float | None = None, progress: Callable | None = None,
                      workers: int | None = None, spill_dir=None):
    """A :class:`TourCount` computed by the frontier method (which :func:`count_tours` has planned and let through)."""
    from .frontier import frontier_count

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    if closed and s is None and e is not None:
        s, e = e, None  # as backtracking: every cycle passes through the end square
        swapped = True
    else:
        swapped = False
    try:
        result = frontier_count(board, piece, closed, s, e, deadline=deadline, progress=progress,
                                memory_limit=memory_limit(), workers=workers, spill_dir=spill_dir)
    except LimitReached as exc:
        r = exc.partial
        count = TourCount(board, piece, closed, s, e, 0, 0, r.states_total, r.seconds, "frontier", False,
                          _extra(r))
        raise LimitReached(f"{exc} No tour is counted before the sweep ends.", partial=count) from None
    if swapped:
        s, e = None, s
    directed, undirected = _frontier_directed(board, closed, s, e, result.count)
    return TourCount(board, piece, closed, s, e, directed, undirected, result.states_total,
                     time.perf_counter() - t0, "frontier", True, _extra(result))


def _extra(result) -> dict:
    extra = {"max_states": result.max_states, "peak_memory_mb": round(result.peak_memory_mb, 1),
             "frontier_squares": result.max_slots, "threads": result.threads, "how": result.how}
    if result.how == "meet in the middle" and result.complete:
        extra["middle_states"] = list(result.halves)
        extra["pairs_joined"] = result.pairs
    if result.peak_disk_bytes:
        extra["peak_disk_mb"] = round(result.peak_disk_bytes / 2**20, 1)
    if result.residues:
        extra["residues"] = result.residues  # sweeps modulo a prime that made a count past 2**128
    if result.plain_states:
        extra["plain_states"] = result.plain_states  # extended in plain Python (chesstours.frontier.plain)
    return extra


@dataclass
class StripCount:
    """Tours of ``rows x k`` for every ``k`` asked for, from one sweep."""

    rows: int
    piece: Leaper
    closed: bool
    counts: list[tuple[int, int]]
    seconds: float
    extra: dict = field(default_factory=dict)

    def lines(self) -> list[str]:
        """One ``ROWSxK COUNT`` line per length (OEIS style)."""
        return [f"{self.rows}x{k} {n}" for k, n in self.counts]

    def to_dict(self) -> dict:
        return {"rows": self.rows, "piece": self.piece.spec(), "closed": self.closed,
                "counts": {f"{self.rows}x{k}": n for k, n in self.counts}, "seconds": round(self.seconds, 6),
                "method": "frontier", **self.extra}


def count_strip(rows: int, lengths: Iterable[int], closed: bool = True, piece: Leaper | str = KNIGHT, *,
                time_limit: float | None = None, progress: Callable | None = None, spill_dir=None) -> StripCount:
    """Count the tours of ``rows x k`` for each ``k`` in ``lengths`` in one sweep along the strip.

    Closed tours are counted as cycles, open tours as directed sequences
    (twice the paths), as :func:`~chesstours.count.count_tours` counts them.
    ``spill_dir``: keep the sweep's layers in files there (see
    :mod:`chesstours.frontier.disk`).

    Raises
    ------
    InvalidArgument
        No lengths, a length or row count below one, or a strip too wide for the sweep.
    LimitReached
        ``time_limit`` ran out; nothing is counted before the sweep ends.
    """
    from .frontier import count_strip as sweep

    piece = parse_piece(piece)
    lengths = sorted({int(k) for k in lengths})
    if not lengths:
        raise InvalidArgument("Give at least one strip length.")
    if rows < 1 or lengths[0] < 1:
        raise InvalidArgument(f"Strips need at least one row and one column, not {rows}x{lengths[0]}.")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    result = sweep(rows, lengths[-1], piece, closed, deadline=deadline, progress=progress,
                   memory_limit=memory_limit(), spill_dir=spill_dir)
    counts = []
    for k in lengths:
        n = result.per_length[k - 1]
        if not closed and rows * k > 1:
            n *= 2
        counts.append((k, n))
    return StripCount(rows, piece, closed, counts, result.seconds, _extra(result))
