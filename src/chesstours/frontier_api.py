"""Counting by the frontier method: :func:`count_tours` with ``method="frontier"`` and strip families.

The sweep itself is :mod:`chesstours.engines.frontier`; this module turns its
undirected counts into the conventions of :mod:`chesstours.api` (directed and
undirected open tours, cycles) and its limits into :class:`LimitReached`.

>>> [n for k, n in count_strip(5, range(5, 9), closed=True).counts]
[0, 8, 0, 44202]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .board import Board
from .errors import InvalidArgument, LimitReached
from .pieces import KNIGHT, Leaper, parse_piece

__all__ = ["StripCount", "count_by_frontier", "count_strip", "memory_limit"]

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
    """A :class:`~chesstours.counting.TourCount` computed by the frontier sweep."""
    from .counting import TourCount
    from .engines.frontier import frontier_count, refusal

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
    (twice the paths), as :func:`~chesstours.counting.count_tours` counts them.
    ``spill_dir``: keep the sweep's layers in files there (see
    :mod:`chesstours.engines.frontier_disk`).

    Raises
    ------
    InvalidArgument
        No lengths, a length or row count below one, or a strip too wide for the sweep.
    LimitReached
        ``time_limit`` ran out; nothing is counted before the sweep ends.
    """
    from .engines.frontier import count_strip as sweep

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
