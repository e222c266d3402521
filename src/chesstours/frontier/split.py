"""A frontier count split into independent parts, each with fewer states: the tours conditioned on a few squares.

One frontier count holds, at its widest step, every state of the middle of
the board at once (7x7 open: 43 million; 8x8 open: some 8 billion, beyond
one machine). The parts below are frontier counts of their own; each holds
far fewer states, none needs another, and their weighted sum is the whole
count, exactly. They run anywhere :func:`chesstours.jobs.run_tasks_on` runs
tasks: a local process pool, or a Dask cluster.

The split
---------
Choose a square ``s`` of the middle line with neighbours ``N`` (``d`` of
them). Every closed tour takes exactly two of the edges at ``s``, so the
closed tours are partitioned by that pair: for each pair ``{a, b}`` of
``N``, count the tours of the graph in which ``s`` keeps only its edges to
``a`` and ``b`` (:func:`~chesstours.frontier.plan.neighbours` with
``fixed``). There are ``d (d - 1) / 2`` parts, all of weight one.

An open tour takes two edges at ``s``, or one when ``s`` ends it. The count
``P({a, b})`` of the graph that keeps only ``sa`` and ``sb`` holds the tours
through ``a, s, b`` and the tours that end at ``s`` by ``a`` or by ``b``;
summed over the pairs, each tour ending at ``s`` by ``a`` is counted
``d - 1`` times, once for each ``b``. The count ``P({a})`` of the graph that
keeps only ``sa`` is exactly the tours that end at ``s`` by ``a``. So

    open tours = sum over pairs P({a, b})  -  (d - 2) * sum over a P({a})

with ``d (d - 1) / 2`` parts of weight one and ``d`` parts of weight
``-(d - 2)``. The rule holds for any graph and any fixed ends, so it can be
applied again to a second square in every part: ``k`` squares, none a
neighbour of another, give the product of their choices, with the product
of their weights. The whole count never appears; each part is exact, and the
sum is exact (Python integers).

The cost model
--------------
Fixing the edges of ``s`` fixes its slot on the frontier for as long as it
stays there: its degree is known at every step, and a pair on one side of
the middle line takes ``s`` off the middle frontier altogether. But the
other squares' mates still vary as much as before, and a part whose pair
straddles the middle line keeps about half of the states. Measured on
knight's tours (states at the widest step of the largest part against the
whole count's; 7x7 from four and three parts drawn at random):

==========  =========  ================  ================================
board       squares    parts             largest part's states / whole
==========  =========  ================  ================================
5x6 open    c3         36                0.36
6x6 closed  c3         28                0.21
6x6 closed  c3 d3      784               0.054
6x6 open    c3         36                0.31
6x6 open    c3 d4      1296              about 0.05
6x8 open    d3         36                0.38
7x7 open    d4         36                0.49 (peak memory 0.57)
7x7 open    d4 d3      1296              0.31 (peak memory 0.41)
==========  =========  ================  ================================

So a part holds about half the states with one square, and each further
square divides them by two (7x7) to five (6x6), while the number of parts grows as
``(d (d + 1) / 2)^k`` for open tours (``(d (d - 1) / 2)^k`` closed): 36
parts a central square of an open knight's tour. The work of all the parts
together is about ``parts x share`` of the whole count's: 6 to 15 times
for one square, 60 or more for two. A split buys memory with time: it is
the way to a count whose states do not fit one machine, spread over many,
and never a way to make a count that fits go faster.
:func:`split_estimate` puts these figures on a board before anything runs.
Peak memory falls less than states on small counts, whose batch buffers
(48 MiB a thread at most) weigh more than their tables.

The squares are taken from the middle frontier of the count's meet in the
middle (or from the middle line of the board for a single sweep), nearest
the centre first, skipping the tour's fixed ends and any neighbour of a
square already taken.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Board
from ..errors import InvalidArgument
from ..pieces import Leaper
from .plan import best_plan, neighbours
from .sweep import FrontierEstimate, choose_halves, frontier_count

__all__ = ["Part", "PartJob", "split_squares", "frontier_parts", "count_part", "split_estimate", "part_fraction", "PART_FRACTION"]

#: The largest part's share of the whole count's states at one conditioned square, and the further share at
#: each square after the first (from the table above, rounded up).
PART_FRACTION = (0.5, 0.6)


def part_fraction(k: int) -> float:
    """The estimated share of the whole count's states that the largest part holds, ``k`` squares conditioned on."""
    first, further = PART_FRACTION
    return 1.0 if k == 0 else first * further ** (k - 1)


@dataclass(frozen=True)
class Part:
    """One part of a split count: the edges kept at each conditioned square, and the part's weight in the sum."""

    fixed: tuple[tuple[int, tuple[int, ...]], ...]
    weight: int

    def describe(self, board: Board) -> str:
        """``d4:c2-e2`` for a square that keeps its edges to c2 and e2 (``d4:c2`` for one that ends the tour)."""
        return " ".join(f"{board.name(s)}:{'-'.join(board.names(list(kept)))}" for s, kept in self.fixed)


@dataclass(frozen=True)
class PartJob:
    """What a worker needs to count one part (picklable)."""

    board: Board
    piece: Leaper
    closed: bool
    start: int | None
    end: int | None
    part: Part
    threads: int = 1


def count_part(job: PartJob) -> dict[str, int | float]:
    """Count one part in a worker: its (unweighted, undirected) count, its states, its widest step, its peak memory."""
    result = frontier_count(job.board, job.piece, job.closed, job.start, job.end, workers=job.threads,
                            fixed=dict(job.part.fixed))
    return {"count": result.count, "states": result.states_total, "max_states": result.max_states,
            "peak_bytes": result.peak_bytes, "seconds": result.seconds}


def split_squares(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None,
                  k: int) -> list[int]:
    """The ``k`` squares to condition on: on the middle frontier, nearest the centre, none adjacent to another.

    Raises
    ------
    InvalidArgument
        The board has fewer than ``k`` such squares.
    """
    nbrs = neighbours(board, piece)
    halves = choose_halves(board, piece, closed, start, end)
    if halves is not None:
        middle = list(halves.middle)
    else:  # one sweep: the squares on the frontier when half the board is added
        sweep = best_plan(board, piece, start, end, closed)
        half = sweep.order[: len(sweep.order) // 2]
        later = set(sweep.order[len(sweep.order) // 2:])
        middle = [v for v in half if any(u in later for u in nbrs[v])]
    cr, cc = (board.rows - 1) / 2, (board.cols - 1) / 2

    def off_centre(v: int) -> tuple[float, int]:
        return (board.row(v) - cr) ** 2 + (board.col(v) - cc) ** 2, v

    chosen: list[int] = []
    for v in sorted(middle, key=off_centre):
        if len(chosen) == k:
            break
        if v in (start, end) or len(nbrs[v]) < 3 or any(v in nbrs[u] for u in chosen):
            continue
        chosen.append(v)
    if len(chosen) < k:
        raise InvalidArgument(f"{board} has {len(chosen)} square{'s' if len(chosen) != 1 else ''} of its middle "
                              f"line to split a count on, not {k}.")
    return chosen


def _choices(v: int, nbrs: Sequence[int], closed: bool, ends_free: bool) -> list[tuple[tuple[int, ...], int]]:
    """The edges a tour may keep at ``v`` and their weights (see the module docstring)."""
    out: list[tuple[tuple[int, ...], int]] = [(pair, 1) for pair in itertools.combinations(sorted(nbrs), 2)]
    d = len(nbrs)
    if not closed and ends_free and d != 2:
        out += [((a,), -(d - 2)) for a in sorted(nbrs)]
    return out


def frontier_parts(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None,
                   squares: Sequence[int]) -> list[Part]:
    """The parts of a count conditioned on ``squares`` (none a neighbour of another, none a fixed end).

    Their weighted counts add up to the whole count. With both ends fixed, no
    other square ends a tour, so the parts where a square would are left out.
    """
    nbrs = neighbours(board, piece)
    for i, v in enumerate(squares):
        if v in (start, end):
            raise InvalidArgument(f"{board.name(v)} is a fixed end of the tour; split on another square.")
        if any(v in nbrs[u] for u in squares[:i]):
            raise InvalidArgument(f"{board.name(v)} is a neighbour of another square the count is split on.")
    ends_free = start is None or end is None
    per_square = [_choices(v, nbrs[v], closed, ends_free) for v in squares]
    parts = []
    for combo in itertools.product(*per_square):
        weight = math.prod(w for _, w in combo)
        parts.append(Part(tuple((v, kept) for v, (kept, _) in zip(squares, combo)), weight))
    return parts


def split_estimate(whole: FrontierEstimate, parts: int, k: int) -> dict[str, float]:
    """A rough forecast of one part (states, memory, seconds) and of all of them (CPU-hours), from the cost
    model and the whole count's forecast (:func:`chesstours.frontier.sweep.estimate`, on one thread)."""
    share = part_fraction(k)
    return {"states": whole.states * share, "memory_bytes": whole.memory_bytes * share,
            "seconds": whole.seconds * share, "cpu_hours": whole.seconds * share * parts / 3600}
