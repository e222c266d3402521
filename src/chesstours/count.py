"""Exact counts of tours: ``count_tours`` and ``estimate_count``.

Two methods answer the same question. Backtracking
(:mod:`chesstours.backtrack.search`, run on all cores by
:mod:`chesstours.backtrack.tasks`) visits every tour, so its cost grows
with the number of tours; the frontier sweep
(:mod:`chesstours.frontier.sweep`) counts without visiting them, so its
cost grows with the width of the board. ``method="auto"`` picks between them.

Counting conventions (as in the literature): an open tour is a Hamiltonian
path, counted *directed* (as sequences of squares: each path twice, once per
direction) and *undirected*; from a fixed start square both numbers are the
sequences that start there. A closed tour is a Hamiltonian cycle, counted as
a cycle (undirected); directed closed tours are twice as many.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .arguments import check_limits, prepare_query
from .board import Board
from .errors import InvalidArgument, LimitReached
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper, parse_piece

__all__ = ["count_tours", "estimate_count", "TourCount", "COUNT_METHODS", "MAX_BACKTRACK_COUNT_SQUARES",
           "FRONTIER_ABOVE_SECONDS", "StripCount", "count_by_frontier", "count_strip", "memory_limit"]

#: Methods of :func:`count_tours`.
COUNT_METHODS = ("auto", "frontier", "backtrack")
#: ``auto`` counts by the frontier method when backtracking
#: is estimated to take longer than this many seconds.
FRONTIER_ABOVE_SECONDS = 0.25
#: Exhaustive counts by backtracking are refused outright above this many free squares.
MAX_BACKTRACK_COUNT_SQUARES = 400
#: Without a time or node limit, counts estimated to take longer than this are refused.
MAX_UNLIMITED_COUNT_SECONDS = 3600.0


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
    spill_dir: str | os.PathLike | None = None,
) -> TourCount:
    """Count tours exactly.

    Parameters
    ----------
    board, start, end, closed, piece, holes
        As for :func:`find_tour`; without ``start`` every start is counted.
    method : {"auto", "frontier", "backtrack"}
        ``backtrack`` searches every tour (symmetry reduction, all cores);
        ``frontier`` sweeps the board with a dynamic programme over the
        frontier squares (:mod:`chesstours.frontier.sweep`), whose cost
        grows with the width of the board, not the number of tours;
        ``auto`` uses the theory for an instant zero, then the frontier sweep
        where its frontier fits and backtracking is estimated to take longer
        than :data:`FRONTIER_ABOVE_SECONDS`; else backtracking. The chosen method is in
        ``TourCount.method``; a frontier count adds ``max_states`` and
        ``peak_memory_mb`` to ``TourCount.extra``.
    time_limit, node_limit
        On reaching one, :class:`LimitReached` is raised with the partial
        :class:`TourCount` (``complete=False``) in its ``partial`` attribute.
        The frontier sweep counts nothing before its end and has no node limit.
    workers : int, optional
        Threads (default: all cores).
    spill_dir : path, optional
        The frontier sweep keeps its layers of states in files in this folder
        (:mod:`chesstours.frontier.disk`) instead of memory, so a
        count too large for memory is refused only when the disk is too small.
    progress : callable, optional
        Called about ten times a second with the running :class:`TaskResult`
        (backtracking) or :class:`~chesstours.frontier.sweep.FrontierProgress`.

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
    from .backtrack.tasks import (
        NODES_PER_SECOND,
        closed_tasks,
        estimate_nodes,
        open_tasks,
        run_tasks,
        split_tasks,
    )

    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if method not in COUNT_METHODS:
        raise InvalidArgument(f"Unknown counting method {method!r}; use one of {', '.join(COUNT_METHODS)}.")
    check_limits(time_limit, node_limit)
    if spill_dir is not None and method == "backtrack":
        raise InvalidArgument("A spill folder is for the frontier method; backtracking keeps nothing to spill.")
    if method == "frontier":
        return count_by_frontier(board, piece, closed, s, e, time_limit=time_limit, progress=progress,
                                 workers=workers, spill_dir=spill_dir)
    if method == "auto" and node_limit is None:
        if obstruction(board, piece, s, e, closed) is not None:
            return TourCount(board, piece, closed, s, e, 0, 0, 0, 0.0, "theory")
        why_not = _frontier_refusal(board, piece, s, e, closed, spill_dir, time_limit, workers)
        if why_not is not None and spill_dir is not None:  # a spill folder asks for the frontier method
            raise InvalidArgument(why_not)
        if why_not is None and (spill_dir is not None or _frontier_pays(board, piece, s, e, closed, workers)):
            return count_by_frontier(board, piece, closed, s, e, time_limit=time_limit, progress=progress,
                                     workers=workers, spill_dir=spill_dir)
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
    try:
        result = run_tasks(board, piece, tasks, time_limit=time_limit, node_limit=node_limit, workers=workers,
                           progress=progress)
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


def _frontier_refusal(board, piece, s, e, closed, spill_dir=None, time_limit=None, workers=None) -> str | None:
    from .frontier.sweep import refusal

    return refusal(board, piece, s, e, closed, memory_limit(), spill_dir,
                   MAX_UNLIMITED_SECONDS if time_limit is None else None, workers)


def _frontier_pays(board, piece, s, e, closed, workers) -> bool:
    """``auto``: count by the frontier method when backtracking is estimated to be slower.

    Measured here (two cores), frontier against backtracking: 6x6 open 1.0 s
    and 1.5 s, from a1 0.33 s and 0.36 s, from c3 0.12 s and 0.06 s; 5x7 open
    0.12 s and 0.8 s; 6x6 closed 0.04 s and 0.03 s. Backtracking wins below a
    few tenths of a second, the frontier above: the switch is at
    :data:`FRONTIER_ABOVE_SECONDS` of estimated backtracking.
    """
    if board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
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
    :meth:`chesstours.backtrack.search.Search.estimate`): good to an order of
    magnitude, and quick -- a few hundredths of a second. Boards where the theory
    rules out every tour cost nothing. ``workers`` threads are assumed (default:
    all cores).

    >>> positions, seconds = estimate_count("5x5", start="a1")
    >>> 1e3 < positions < 1e6 and seconds < 1
    True
    """
    from .backtrack.tasks import NODES_PER_SECOND, closed_tasks, estimate_nodes, open_tasks, split_tasks

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


# -- the frontier method and strip families -------------------------------------

#: Without a time limit, frontier counts estimated to take longer than this are refused (as backtracking's are).
MAX_UNLIMITED_SECONDS = 3600.0


def memory_limit() -> int:
    """Bytes a count may plan to use: three quarters of this machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        total = 8 << 30
    return int(0.75 * total)


def directed_undirected(board: Board, closed: bool, s, e, n: int) -> tuple[int, int]:
    """(directed, undirected) from ``n``: cycles, or directed sequences as backtracking counts them."""
    if closed:
        return (n, n) if e is not None else (2 * n, n)
    if s is None and e is None and board.free_count > 1:
        return n, n // 2
    return n, n


def count_by_frontier(board: Board, piece: Leaper, closed: bool, s: int | None, e: int | None, *,
                      time_limit: float | None = None, progress: Callable | None = None,
                      workers: int | None = None, spill_dir=None):
    """A :class:`~chesstours.count.TourCount` computed by the frontier sweep."""
    from .frontier.sweep import frontier_count, refusal

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    if time_limit is None:
        why = refusal(board, piece, s, e, closed, memory_limit(), spill_dir, MAX_UNLIMITED_SECONDS, workers)
        if why is not None:
            raise InvalidArgument(why)
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
    n = result.count
    if not closed and s is None and e is None and board.free_count > 1:
        n *= 2  # directed sequences: each path both ways
    if swapped:
        s, e = None, s
    directed, undirected = directed_undirected(board, closed, s, e, n)
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
    from .frontier.sweep import count_strip as sweep

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
