"""Exact counts of tours by a frontier dynamic programme.

Backtracking visits every tour, so it cannot count the 13,267,364,410,532
closed knight's tours of 8x8. A *frontier* (transfer-matrix) dynamic
programme counts without listing: it adds the squares one at a time in a
fixed order and keeps, for every distinct *state* of the squares that still
have neighbours to come (the frontier), the number of partial tours that
reach it. Partial tours that agree on the frontier have the same futures, so
they are counted together.

The state of a frontier square is its number of tour edges so far (0, 1 or
2) and, for a square with one edge, its *mate*: the other end of its path
fragment. Adding square ``v`` tries every set of at most two edges from ``v``
to its earlier neighbours (all on the frontier): an edge joins two fragments
into one, or closes a cycle -- allowed only when that cycle covers every
square. A square leaves the frontier when its last neighbour has been added;
it must then have two edges (closed tours) or, for open tours, one or two,
with at most two squares ending the tour (a fragment whose other end left
with one edge is marked *ended*). A fixed start or end square must end the
tour; a closed tour through a fixed edge must use it. The answer is the
number of partial tours that are complete when the last square is added.

States that cannot be finished are dropped as soon as that shows: a square
with no edge that leaves, or with fewer neighbours to come than edges it
still needs; and, for open tours, a state whose squares with no edge and a
single neighbour to come (each can only end the tour) would make more than
two ends. The last rule halves the states of open sweeps (6x6: 3.2 million
at most, 7.1 million without it). Edge sets that would give a square a third
edge, or leave a square without the edge it must take now, are rejected from
bit masks before any state is built.

Encoding and memory (see :mod:`chesstours.engines.frontier_kernel`): a state
is one 64-bit integer, four bits a frontier square, with the fragment labels
renumbered in slot order so that equal frontiers give equal keys; the states
of one step live in an open-addressing hash table in numba, and counts are
carried in two 64-bit limbs (never a silent overflow), converted to an exact
Python int at the end. The sweep runs on every core: the table of a step is
split into shards by the top bits of the key's hash, each thread extends its
share of the states into a batch, the batches are sorted by hash, and each
thread inserts into its own shard the new states of every batch that fall
there, so no two threads write the same table. The squares are added line by line across the
*narrow* side of the board, so the frontier holds about two lines of squares
for a knight (``2w + 1`` squares for width ``w``); within a line the even
places come before the odd ones when that keeps the frontier smaller. Width
7 (15 frontier squares) is the most a 64-bit state holds.

One sweep along a strip answers every length at once: after the last square
of column ``k`` the states that would be finished tours if the board ended
there are the tours of the ``rows x k`` board (:func:`count_strip`).

Not done here: *meet in the middle* for 8x8 closed tours -- sweep from both
ends to the middle line (about 159 and 94 million states in a C++ trial),
sort both halves and join pairs of states whose degrees add to two on every
middle square and whose two pairings of loose ends form one cycle. It needs
128-bit keys (the middle frontier of 8x8 has 17 squares) and a join over
both cores; this module refuses 8-wide boards instead.

References
----------
.. [1] D. E. Knuth, The Art of Computer Programming, pre-fascicle 8A,
   "Hamiltonian paths and cycles" (program DYNAHAM), 2023.
.. [2] H. Iwashita, J. Kawahara, S. Minato, "ZDD-based computation of the
   number of paths in a graph", TCS technical report TCS-TR-A-12-60 (2012):
   frontier-based search with mate arrays (Knuth's SIMPATH).
.. [3] B. D. McKay, "Knight's tours of an 8x8 chessboard", Technical report
   TR-CS-97-03, Australian National University (1997).

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> frontier_count(Board(6, 6), KNIGHT, closed=True).count
9862
>>> count_strip(3, 12, KNIGHT, closed=True).per_length[9:]
[16, 0, 176]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..errors import InvalidArgument, LimitReached
from ..pieces import Leaper, move_table
from . import frontier_kernel as fk

__all__ = ["FrontierProgress", "FrontierResult", "count_strip", "estimate_states", "frontier_count", "plan_sweep"]

#: States extended per kernel call between checks of the clock.
_CHUNK = 1 << 18
#: New states sorted and inserted together (three 64-bit words each, twice).
_BATCH = 1 << 22
#: The hash table is grown (by half) when it is this full.
_LOAD = 0.75
#: A step's table starts this many times its input states (states of one step grow by about a third at most).
_HEADROOM = 1.4
#: Bytes of table memory a state takes: key and two count limbs.
_STATE_BYTES = 24


@dataclass
class FrontierProgress:
    """What the sweep is doing: passed to ``progress`` callbacks."""

    step: int
    steps: int
    square: int
    states: int
    max_states: int


@dataclass
class FrontierResult:
    """The count of a sweep and what it cost."""

    count: int
    max_states: int
    peak_bytes: int
    seconds: float
    max_slots: int
    complete: bool = True
    per_length: list[int] = field(default_factory=list)
    #: States extended, over all steps (the work done).
    states_total: int = 0
    #: Threads (and table shards) the sweep ran on.
    threads: int = 1

    @property
    def peak_memory_mb(self) -> float:
        return self.peak_bytes / 2**20


@dataclass
class _Step:
    square: int
    nprev: int
    choice_a: np.ndarray
    choice_b: np.ndarray
    one_end: np.ndarray
    departs: np.ndarray
    keep: np.ndarray
    check: np.ndarray
    check_spare: np.ndarray
    single: np.ndarray
    choice_mask: np.ndarray
    free_need: int
    label_need: int


@dataclass
class _Sweep:
    order: list[int]
    steps: list[_Step]
    max_slots: int
    line_ends: list[int]


def _lines(board: Board, evens_first: bool) -> list[list[int]]:
    """Lines across the narrow side, in sweep order; each line's free squares in order."""
    along_cols = board.rows <= board.cols
    n_lines, width = (board.cols, board.rows) if along_cols else (board.rows, board.cols)
    places = list(range(width))
    if evens_first:
        places = places[0::2] + places[1::2]
    out = []
    for i in range(n_lines):
        line = [board.index(p, i) if along_cols else board.index(i, p) for p in places]
        out.append([v for v in line if v not in board.holes])
    return out


def plan_sweep(board: Board, piece: Leaper, evens_first: bool = False, start: int | None = None,
               end: int | None = None, closed: bool = False) -> _Sweep:
    """The steps of the sweep: frontier slots, edge choices and departures for every square."""
    table = move_table(board, piece)
    lines = _lines(board, evens_first)
    order = [v for line in lines for v in line]
    line_ends, t = [], -1
    for line in lines:
        t += len(line)
        line_ends.append(t)
    pos = np.full(board.size, -1, np.int64)
    pos[order] = np.arange(len(order))
    nbrs = {v: [int(u) for u in table[v] if u >= 0] for v in order}
    last = {v: max([pos[v]] + [pos[u] for u in nbrs[v]]) for v in order}
    ends = set() if closed else {x for x in (start, end) if x is not None}
    forced = (start, end) if closed and start is not None and end is not None else None
    frontier: list[int] = []
    steps, widest = [], 0
    for t, v in enumerate(order):
        combined = frontier + [v]
        slot = {u: i for i, u in enumerate(combined)}
        back = [slot[u] for u in nbrs[v] if pos[u] < t]
        choices = [(-1, -1)] + [(a, -1) for a in back]
        if v not in ends:
            choices += [(a, b) for i, a in enumerate(back) for b in back[i + 1:]]
        if forced is not None and v in forced and max(pos[forced[0]], pos[forced[1]]) == t:
            other = slot.get(forced[1] if v == forced[0] else forced[0], -2)
            choices = [c for c in choices if other in c]
        departs = [i for i, u in enumerate(combined) if last[u] == t]
        kept = [u for u in combined if last[u] != t]
        spare = {u: sum(pos[w] > t for w in nbrs[u]) for u in combined}
        # Slots that must take an edge from v now: a square with no edge that
        # leaves, or that has too few neighbours to come; in a cycle, also a
        # square with one edge that leaves.
        need = 2 if closed else 1
        free_need = sum(1 << i for i, u in enumerate(combined)
                        if i in departs or ((u == v or i in back) and spare[u] < need))
        label_need = sum(1 << i for i in departs) if closed else 0
        steps.append(_Step(
            square=v,
            nprev=len(frontier),
            choice_a=np.array([c[0] for c in choices], np.int64),
            choice_b=np.array([c[1] for c in choices], np.int64),
            one_end=np.array([u in ends for u in combined], np.bool_),
            departs=np.array(departs, np.int64),
            keep=np.array([slot[u] for u in kept], np.int64),
            check=np.array([slot[u] for u in kept if u == v or slot[u] in back], np.int64),
            check_spare=np.array([sum(pos[w] > t for w in nbrs[u]) for u in kept if u == v or slot[u] in back],
                                 np.int64),
            choice_mask=np.array([0 if a < 0 else (1 << a) | (1 << len(frontier)) | (0 if b < 0 else 1 << b)
                                  for a, b in choices], np.int64),
            free_need=free_need,
            label_need=label_need,
            single=np.array([slot[u] for u in kept if u not in ends and sum(pos[w] > t for w in nbrs[u]) == 1],
                            np.int64),
        ))
        frontier = kept
        widest = max(widest, len(kept))
    return _Sweep(order, steps, widest, line_ends)


def _best_sweep(board, piece, start, end, closed) -> _Sweep:
    plans = [plan_sweep(board, piece, ev, start, end, closed) for ev in (True, False)]
    return min(plans, key=lambda p: (p.max_slots, sum(len(s.keep) for s in p.steps)))


def _quick_slots(board: Board, piece: Leaper) -> int:
    """The frontier of a short piece of the board without holes: a bound found without planning the whole sweep."""
    w, n = sorted((board.rows, board.cols))
    short = Board(w, min(n, 3 * w + 4 * piece.b + 4))
    return _best_sweep(short, piece, None, None, True).max_slots if w <= 64 else w


def estimate_states(slots: int) -> float:
    """A rough upper estimate of the live states for a frontier of ``slots`` squares.

    Fitted to knight sweeps (6x6 open: 13 slots, about 3 million states); the
    number grows about threefold a slot.
    """
    return 3e6 * 3.0 ** (min(slots, 400) - 13)


def refusal(board: Board, piece: Leaper, start: int | None = None, end: int | None = None,
            closed: bool = False, memory_limit: int | None = None) -> str | None:
    """Why :func:`frontier_count` would refuse this count (frontier too wide, too much memory), or None."""
    if board.free_count == 1:
        return None
    try:
        _check_size(board, _quick_slots(board, piece), memory_limit)
        _check_size(board, _best_sweep(board, piece, start, end, closed).max_slots, memory_limit)
    except InvalidArgument as exc:
        return str(exc)
    return None


def frontier_count(
    board: Board,
    piece: Leaper,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
    *,
    deadline: float | None = None,
    progress: Callable[[FrontierProgress], None] | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
) -> FrontierResult:
    """Count the Hamiltonian cycles (``closed``) or paths of the leaper graph.

    Open tours are counted undirected: paths, with ``start`` and ``end`` as
    their ends when given (either may be given alone). Closed tours are
    cycles; with both ``start`` and ``end``, the cycles using the edge between
    them.

    Raises
    ------
    InvalidArgument
        The frontier is too wide for 64-bit states, or the estimated states
        would not fit in ``memory_limit`` bytes.
    LimitReached
        ``deadline`` (a :func:`time.perf_counter` value) passed; ``partial``
        holds a :class:`FrontierResult` with ``complete=False``.
    """
    t0 = time.perf_counter()
    n = board.free_count
    if n == 1:
        return FrontierResult(0 if closed else 1, 1, 0, time.perf_counter() - t0, 0, states_total=1)
    _check_size(board, _quick_slots(board, piece), memory_limit)
    sweep = _best_sweep(board, piece, start, end, closed)
    _check_size(board, sweep.max_slots, memory_limit)
    budget = 2 - len({x for x in (start, end) if x is not None})
    return _run(sweep, closed, budget, deadline, progress, t0, strip=False, workers=workers)


def count_strip(
    rows: int,
    length: int,
    piece: Leaper,
    closed: bool = True,
    *,
    deadline: float | None = None,
    progress: Callable[[FrontierProgress], None] | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
) -> FrontierResult:
    """Count the tours of every ``rows x k`` board, ``k = 1 .. length``, in one sweep.

    ``per_length[k - 1]`` is the count for ``rows x k`` (cycles, or
    undirected paths when ``closed`` is False).
    """
    t0 = time.perf_counter()
    board = Board(rows, max(length, rows))
    sweep = _best_sweep(board, piece, None, None, closed)
    _check_size(board, sweep.max_slots, memory_limit)
    result = _run(sweep, closed, 2, deadline, progress, t0, strip=True, workers=workers)
    result.per_length = result.per_length[:length]
    if rows == 1:
        result.per_length[0] = 0 if closed else 1
    return result


def _check_size(board: Board, slots: int, memory_limit: int | None) -> None:
    states = estimate_states(slots)
    need = states * _STATE_BYTES * 4
    if slots > fk.MAX_SLOTS:
        raise InvalidArgument(
            f"Counting tours of {board} by the frontier method needs a frontier of {slots} squares "
            f"(about {states:.0e} states, {_gib(need)}); at most {fk.MAX_SLOTS} fit in a state."
        )
    if memory_limit is not None and need > memory_limit:
        raise InvalidArgument(
            f"Counting tours of {board} by the frontier method would need about {states:.0e} states "
            f"({_gib(need)}), more than the {_gib(memory_limit)} allowed."
        )


def _gib(nbytes: float) -> str:
    gib = nbytes / 2**30
    return f"{gib:,.1f} GiB" if gib < 1e6 else f"{gib:.0e} GiB"


def _table(capacity: int):
    try:
        tab = np.zeros(2 * capacity, np.uint64)
        high = np.zeros(capacity, np.uint64)
    except MemoryError:
        raise InvalidArgument(
            f"The frontier sweep ran out of memory growing its table to {capacity:,} states; "
            "the count is too large for this machine."
        ) from None
    tab[0::2] = fk.EMPTY_KEY
    return tab, high


def shard_count(workers: int | None = None) -> int:
    """Threads (and hash-table shards) of a sweep: ``workers`` or every core, a power of two, at most 8."""
    n = max(1, min(8, workers or os.cpu_count() or 1))
    return 1 << (n.bit_length() - 1)


class _Shard:
    """One thread's share of the sweep: its input states, its batch buffers and its part of the new table.

    The new states of a step are split among the shards by the top bits of
    their hash, so each thread inserts into its own table without locks.
    """

    def __init__(self, keys, lo, hi, sbits):
        self.keys, self.lo, self.hi = keys, lo, hi
        self.sbits = sbits
        self.buf = [np.empty(0, np.uint64)] * 6
        self.nbuf = np.zeros(1, np.int64)
        self.bounds = np.zeros((1 << sbits) + 1, np.int64)
        self.err = np.zeros(1, np.int64)
        self.fill = np.zeros(1, np.int64)
        self.acc = np.zeros(2, np.uint64)
        self.pos = 0
        self.tab = self.thi = None

    def begin(self, capacity: int, want: int) -> None:
        if self.buf[0].size < want:
            self.buf = [np.empty(want, np.uint64) for _ in range(6)]
        self.tab, self.thi = _table(capacity)
        self.fill[0] = 0
        self.acc[:] = 0
        self.pos = 0

    def grow(self, st: _Step, budget: int, closed: bool) -> None:
        """Extend the next chunk of this shard's input and sort the new states by hash."""
        self.nbuf[0] = 0
        j = min(self.keys.size, self.pos + _CHUNK)
        self.pos = fk.expand(self.keys, self.lo, self.hi, self.pos, j, st.nprev, st.choice_a, st.choice_b,
                             st.one_end, st.departs, st.keep, st.check, st.check_spare, st.single,
                             st.choice_mask, st.free_need, st.label_need, budget,
                             closed, *self.buf[:3], self.nbuf, self.acc, self.err)
        bits = max(1, self.thi.size.bit_length() - 2)
        fk.sort_batch(*self.buf[:3], int(self.nbuf[0]), *self.buf[3:], min(12, bits) + self.sbits, self.sbits,
                      self.bounds)
        self.bounds[-1] = self.nbuf[0]

    def put(self, shards: list[_Shard], s: int) -> None:
        """Insert the new states of every shard's batch that belong to this table (shard ``s``)."""
        for other in shards:
            i, nb = int(other.bounds[s]), int(other.bounds[s + 1])
            while True:
                i = fk.insert_run(*other.buf[3:], i, nb, self.tab, self.thi, self.sbits, self.fill,
                                  int(_LOAD * self.thi.size), self.err)
                if i == nb:
                    break
                bigger = _table(self.thi.size * 3 // 2)
                self.fill[0] = 0
                fk.rehash(self.tab, self.thi, *bigger, self.sbits, self.fill, self.err)
                self.tab, self.thi = bigger

    def finish(self) -> None:
        self.keys = self.lo = self.hi = None  # the step's input is spent: free it before the output is made
        self.keys, self.lo, self.hi = fk.compact(self.tab, self.thi, int(self.fill[0]))
        self.tab = self.thi = None

    def memory(self) -> int:
        table = 0 if self.thi is None else self.thi.size * _STATE_BYTES
        return self.keys.nbytes + self.lo.nbytes + self.hi.nbytes + table + self.buf[0].size * 48


def _value(acc: np.ndarray) -> int:
    return int(acc[0]) + (int(acc[1]) << 64)


def _run(sweep: _Sweep, closed: bool, budget: int, deadline, progress, t0, strip: bool,
         workers: int | None = None) -> FrontierResult:
    nshards = shard_count(workers)
    sbits = nshards.bit_length() - 1
    empty = np.zeros(0, np.uint64)
    # the empty frontier, no ends used: one partial tour
    shards = [_Shard(np.zeros(1, np.uint64), np.ones(1, np.uint64), np.zeros(1, np.uint64), sbits)]
    shards += [_Shard(empty, empty, empty, sbits) for _ in range(nshards - 1)]
    pool = ThreadPoolExecutor(nshards, thread_name_prefix="chesstours-frontier") if nshards > 1 else None

    def each(fn):
        if pool is None:
            fn(0)
        else:
            list(pool.map(fn, range(nshards)))

    max_states, peak, count, total = 1, 0, 0, 0
    per_length: list[int] = []
    line_ends = set(sweep.line_ends)
    nsteps = len(sweep.steps)
    last_report = 0.0
    try:
        for t, st in enumerate(sweep.steps):
            size = sum(sh.keys.size for sh in shards)
            total += size
            want = min(_BATCH, max(1 << 14, -(-size // nshards) * st.choice_a.size))
            capacity = max(1024, int(_HEADROOM * size / nshards / _LOAD))
            for sh in shards:
                sh.begin(capacity, want)
            while any(sh.pos < sh.keys.size for sh in shards):
                each(lambda k, st=st: shards[k].grow(st, budget, closed))
                each(lambda k: shards[k].put(shards, k))
                live = sum(int(sh.fill[0]) for sh in shards)
                peak = max(peak, sum(sh.memory() for sh in shards))
                now = time.perf_counter()
                if progress is not None and (now - last_report > 0.1):
                    last_report = now
                    progress(FrontierProgress(t, nsteps, st.square, live, max(max_states, live)))
                if deadline is not None and now > deadline:
                    partial = FrontierResult(0, max(max_states, live), peak, now - t0, sweep.max_slots,
                                             complete=False, per_length=per_length, states_total=total)
                    raise LimitReached(
                        f"Stopped at the time limit at square {t + 1} of {nsteps} with {live:,} live states.",
                        partial=partial,
                    )
            if any(sh.err[0] for sh in shards):
                raise InvalidArgument(
                    f"The count passed 2**128 at square {t + 1} of {nsteps}; the frontier sweep carries counts in "
                    "two 64-bit limbs and cannot hold more, so it stops rather than give a wrong answer."
                )
            each(lambda k: shards[k].finish())
            live = sum(sh.keys.size for sh in shards)
            max_states = max(max_states, live)
            if progress is not None:
                progress(FrontierProgress(t, nsteps, st.square, live, max_states))
            if strip and t in line_ends:
                nslots = len(st.keep)
                each(lambda k, n=nslots: fk.finish_all(shards[k].keys, shards[k].lo, shards[k].hi, n, 2, closed,
                                                       shards[k].acc, shards[k].err))
                per_length.append(sum(_value(sh.acc) for sh in shards))
            if t == nsteps - 1:
                count = sum(_value(sh.acc) for sh in shards)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return FrontierResult(count, max_states, peak, time.perf_counter() - t0, sweep.max_slots,
                          per_length=per_length, states_total=total, threads=nshards)
