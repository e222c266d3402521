"""A frontier count split into independent parts, each with fewer states: the tours conditioned on a few squares.

One frontier count holds, at its widest step, every state of the middle of
the board at once (7x7 open: 43 million; 8x8 open: some 8 billion, beyond
one machine). The parts below are frontier counts of their own; each holds
far fewer states, none needs another, and their weighted sum is the whole
count, exactly. They run anywhere :func:`chesstours.jobs.run_tasks_on` runs
tasks: a local process pool, or a Dask cluster.

A count by meet in the middle (:mod:`chesstours.frontier.join`: boards of
five lines and more) is split on *classes*; a count of one sweep, on *edges*.

The split on classes
--------------------
A meet in the middle decides every edge of a tour in exactly one of its two
halves. Take a square ``s`` of the middle frontier: the tour gives it two
edges (an end of an open tour counts as one), ``c`` of them in the left half
and ``2 - c`` in the right, so the tours fall into three classes,
``c = 0, 1, 2``. The part of class ``c`` is the meet in the middle whose left
half keeps only the states that give ``s`` exactly ``c`` edges, and whose
right half keeps only those that give it ``2 - c``; the join pairs what is
left as before. ``k`` squares give ``3 ** k`` parts (less the classes no
tour can be in), all of weight one: every tour is in exactly one.

The squares are those of the middle frontier whose edges in each half are
all decided at the step that adds them: for a knight, the last line of the
left part (:attr:`~chesstours.frontier.join.halves.Halves.class_squares`). A class is
then a filter on the edge choices of one step of each half
(:func:`~chesstours.frontier.plan.plan` with ``degrees``); nothing else in
the count changes. They are taken in the order the halves add them, the
soonest first.

The cost model: up to the step that adds the first square, a part sweeps
what the whole count sweeps; from there on, only its class. On the knight's
boards both halves grow to the middle frontier and peak there (7x7 open:
19.7 and 42.7 million states at their last steps, 2 million where the first
class square is added, before the rule of where open tours end cut them to
8.7 and 21.6 million), so a part's peak falls with each square, while its
steps before the first square are repeated by every part. Measured (before
that rule) with
``python benchmarks/bench_scale.py --only parts --parts-board 7x7
--parts-open --split-on 1,2,3,4`` (and ``6x8``): the largest part's widest
step and peak memory against the whole count's on two threads, and the work
of all the parts, each on one core, against the whole count's on one thread:

==========  ==============  =====  ======  ===========  ======
board       squares         parts  states  peak memory  work
==========  ==============  =====  ======  ===========  ======
7x7 open    d2              3      0.60    0.59         0.78
7x7 open    d2 d4           9      0.32    0.33         0.77
7x7 open    d2 d4 d6        27     0.20    0.21         0.93
7x7 open    d2 d4 d6 d1     81     0.11    0.13         1.61
6x8 open    e5              3      0.59    0.55         1.12
6x8 open    e5 e3           9      0.33    0.42         1.41
6x8 open    e5 e3 e1        27     0.19    0.32         2.69
6x8 open    e5 e3 e1 e2     81     0.18    0.32         6.84
==========  ==============  =====  ======  ===========  ======

So the first square leaves the largest part about 0.6 of the whole count's
peak, and each further square 0.6 of that (:data:`CLASS_FRACTION`), until
the steps before the first square are the widest (6x8 open at four squares).
The work of all the parts is about the whole count's for a few squares on a
board whose middle is wide (7x7: less, it seems because smaller tables and
indexes run faster), and grows with the squares where the steps before them
weigh more (6x8). :data:`CLASS_WORK` is 7x7's, rounded up: the boards that need a split are
the wide ones. Small counts' memory falls less, where the batch buffers
(48 MiB a thread at most) weigh more than the tables.

The split on edges
------------------
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

Its cost model. Fixing the edges of ``s`` fixes its slot on the frontier
for as long as it stays there: its degree is known at every step, and a pair on one side of
the middle line takes ``s`` off the middle frontier altogether. But the
other squares' mates still vary as much as before, and a part whose pair
straddles the middle line keeps about half of the states. Measured on
knight's tours (states at the widest step of the largest part against the
whole count's; 7x7 from four and three parts drawn at random; the boards of
five lines and more were measured before they were split on classes):

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
and never a way to make a count that fits go faster. The split on classes
does the same for far less: where both can be had, it is the one taken.

The squares are taken from the middle line of the board's sweep, nearest
the centre first, skipping the tour's fixed ends and any neighbour of a
square already taken.

:func:`split_estimate` puts the figures of either cost model on a board
before anything runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Board
from ..errors import InvalidArgument
from ..pieces import Leaper
from .plan import best_plan, edges_given, neighbours
from .sweep import (
    MIRRORED_MEMORY,
    MIRRORED_WORK,
    FrontierEstimate,
    choose_halves,
    frontier_count,
    given_squares,
)

__all__ = ["Part", "PartJob", "split_squares", "split_room", "frontier_parts", "count_part", "worker_memory", "split_estimate",
           "part_fraction", "PART_FRACTION", "CLASS_FRACTION", "CLASS_WORK"]

#: A split on edges: the largest part's share of the whole count's peak memory at one conditioned square, and
#: the further share at each square after the first (from the table above, rounded up).
PART_FRACTION = (0.5, 0.6)
#: The same for a split on classes (from its table above, rounded up).
CLASS_FRACTION = (0.65, 0.6)
#: A split on classes: the work of all its parts together, against the whole count's, at 1, 2, 3, 4 squares
#: (7x7 open, from the table above, rounded up); past four, each square multiplies it as the fourth did.
CLASS_WORK = (0.8, 0.8, 1.0, 1.7)


def part_fraction(k: int, classes: bool = False) -> float:
    """The estimated share of the whole count's peak memory that the largest part takes, ``k`` squares
    conditioned on (``classes``: a split on classes, else on edges)."""
    first, further = CLASS_FRACTION if classes else PART_FRACTION
    return 1.0 if k == 0 else first * further ** (k - 1)


@dataclass(frozen=True)
class Part:
    """One part of a split count, its weight in the sum, and what it is conditioned on.

    ``fixed``: the edges kept at each conditioned square (a split on edges);
    ``classes``: the edges each conditioned square takes in the left half of
    the meet in the middle (a split on classes).
    """

    fixed: tuple[tuple[int, tuple[int, ...]], ...]
    weight: int
    classes: tuple[tuple[int, int], ...] = ()

    def describe(self, board: Board) -> str:
        """``d4:c2-e2`` for a square that keeps its edges to c2 and e2 (``d4:c2`` for one that ends the tour);
        ``d4:1+1`` for a square that takes one edge in each half (an end of the tour counts as an edge)."""
        return " ".join([f"{board.name(s)}:{'-'.join(board.names(list(kept)))}" for s, kept in self.fixed]
                        + [f"{board.name(s)}:{c}+{2 - c}" for s, c in self.classes])


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
    #: Bytes the part may hold while it counts (its share of the machine's memory); None: the worker's own
    #: limit (a Dask worker's memory limit, else its machine's, :func:`worker_memory`).
    memory_limit: int | None = None


def worker_memory() -> int:
    """Bytes a part may hold in this worker: :data:`~chesstours.runtime.MEMORY_SHARE` of a Dask worker's memory
    limit when it runs in one that has a limit, else of this machine's memory."""
    from ..runtime import MEMORY_SHARE, memory_limit

    try:
        from distributed import get_worker

        limit = get_worker().memory_manager.memory_limit
    except (ImportError, ValueError, AttributeError):  # not Dask, or not in a worker
        limit = None
    return int(MEMORY_SHARE * limit) if limit else memory_limit()


def count_part(job: PartJob) -> dict[str, int | float]:
    """Count one part in a worker: its (unweighted, undirected) count, its states, its widest step, its peak memory.

    The part is watched as it counts: past its memory limit it stops with a
    :class:`~chesstours.errors.ResourceError` rather than crowd the workers beside it.
    """
    limit = job.memory_limit if job.memory_limit is not None else worker_memory()
    result = frontier_count(job.board, job.piece, job.closed, job.start, job.end, workers=job.threads,
                            fixed=dict(job.part.fixed) or None, classes=dict(job.part.classes) or None,
                            memory_limit=limit)
    return {"count": result.count, "states": result.states_total, "max_states": result.max_states,
            "peak_bytes": result.peak_bytes, "seconds": result.seconds}


def _class_choices(board: Board, piece: Leaper, closed: bool, start: int | None,
                   end: int | None) -> dict[int, list[int]] | None:
    """The squares a split on classes may take, in the order to take them, each with its possible classes
    (the edges it can take in the left half with the rest in the right); None without a meet in the middle.

    The halves are planned as the parts will plan theirs, for the squares given as the sweep takes them
    (:func:`~chesstours.frontier.sweep.given_squares`: none for a closed count through one square)."""
    start, end = given_squares(closed, start, end)
    halves = choose_halves(board, piece, closed, start, end, in_classes=True)
    if halves is None:
        return None

    def arities(sweep, v: int) -> set[int]:
        step = sweep.steps[sweep.order.index(v)]
        return {edges_given(a, b) for a, b in zip(step.choice_a.tolist(), step.choice_b.tolist())}

    out: dict[int, list[int]] = {}
    for v in halves.class_squares:
        if v not in (start, end):
            left, right = arities(halves.left, v), arities(halves.right, v)
            out[v] = [c for c in (0, 1, 2) if c in left and 2 - c in right]
    return out


def _split_candidates(board: Board, piece: Leaper, closed: bool, start: int | None,
                      end: int | None) -> tuple[bool, list[int]]:
    """Whether a split of this count is on classes (else on edges), and every square it may take, in order.

    With a meet in the middle, the squares of the middle frontier a class may
    be taken on, the soonest decided first; otherwise the squares of the middle
    line with at least three neighbours, nearest the centre first, each one
    not a neighbour of an earlier one.
    """
    by_class = _class_choices(board, piece, closed, start, end)
    if by_class is not None:
        return True, list(by_class)
    # one sweep: the squares on the frontier when half the board is added
    nbrs = neighbours(board, piece)
    sweep = best_plan(board, piece, start, end, closed)
    half = sweep.order[: len(sweep.order) // 2]
    later = set(sweep.order[len(sweep.order) // 2:])
    middle = [v for v in half if any(u in later for u in nbrs[v])]
    cr, cc = (board.rows - 1) / 2, (board.cols - 1) / 2

    def off_centre(v: int) -> tuple[float, int]:
        return (board.row(v) - cr) ** 2 + (board.col(v) - cc) ** 2, v

    chosen: list[int] = []
    for v in sorted(middle, key=off_centre):
        if v not in (start, end) and len(nbrs[v]) >= 3 and not any(v in nbrs[u] for u in chosen):
            chosen.append(v)
    return False, chosen


def split_squares(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None,
                  k: int) -> list[int]:
    """The ``k`` squares to condition on.

    With a meet in the middle, the first ``k`` squares of the middle frontier a
    class may be taken on (a split on classes); otherwise squares of the middle
    line, nearest the centre, none adjacent to another (a split on edges).

    Raises
    ------
    InvalidArgument
        The board has fewer than ``k`` such squares.
    """
    chosen = _split_candidates(board, piece, closed, start, end)[1][:k]
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
    """The parts of a count conditioned on ``squares`` (as :func:`split_squares` gives them).

    Their weighted counts add up to the whole count. A split on classes leaves
    out the classes no tour can be in; a split on edges with both ends fixed
    leaves out the parts where a square would end the tour.
    """
    by_class = _class_choices(board, piece, closed, start, end)
    if by_class is not None and all(v in by_class for v in squares):
        return [Part((), 1, tuple(zip(squares, combo)))
                for combo in itertools.product(*(by_class[v] for v in squares))]
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


def split_room(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None) -> tuple[bool, int]:
    """Whether a split of this count is on classes (else on edges), and on at most how many squares
    (classes: every square that can take one; edges: the squares of the middle line, none a neighbour of
    another, with at least three neighbours)."""
    by_class, squares = _split_candidates(board, piece, closed, start, end)
    return by_class, len(squares)


def split_estimate(whole: FrontierEstimate, parts: int, k: int, classes: bool = False) -> dict[str, float]:
    """A rough forecast of one part (the largest's states and memory, the seconds of a part) and of all of
    them (CPU-hours), from the cost model and the whole count's forecast (:func:`chesstours.frontier.sweep.estimate`, on one thread).

    ``classes``: a split on classes, whose parts share the work of the whole
    count (:data:`CLASS_WORK`); the parts of a split on edges each redo most
    of it (``parts x share``)."""
    share = part_fraction(k, classes)
    # the parts keep every state (their classes are not symmetric): scaled from the whole count that does
    memory, whole_seconds = whole.memory_bytes, whole.seconds
    if whole.mirrored:
        memory, whole_seconds = memory / MIRRORED_MEMORY, whole_seconds / MIRRORED_WORK
    if classes:
        work = CLASS_WORK[k - 1] if k <= len(CLASS_WORK) else CLASS_WORK[-1] * (
            CLASS_WORK[-1] / CLASS_WORK[-2]) ** (k - len(CLASS_WORK))
    else:
        work = share * parts
    # a part of a split on classes: the mean (the parts share the whole count's work); on edges: the largest
    seconds = whole_seconds * work / max(1, parts) if classes else whole_seconds * share
    return {"states": whole.states * share, "memory_bytes": memory * share,
            "seconds": seconds, "cpu_hours": whole_seconds * work / 3600}
