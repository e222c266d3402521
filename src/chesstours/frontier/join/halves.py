"""Meet in the middle: two half sweeps joined on the middle frontier.

A plain sweep of 8x8 would hold about half a billion states at its widest.
Cut the squares, in sweep order, into a first part ``A`` and the rest ``B``;
the middle frontier ``F`` is the squares of ``A`` with a neighbour in ``B``.

* The *left* half sweeps ``A`` and decides the edges inside ``A``; the
  squares of ``F`` stay on its frontier to the end.
* The *right* half sweeps ``B`` from the far end, then adds the squares of
  ``F`` and decides every edge with an end in ``B`` (the edges between ``A``
  and ``B`` included); its frontier ends on ``F`` too.

Every edge is decided in exactly one half, so a tour is one left state and
one right state that fit: on every square of ``F`` the edges of both halves
add up to two (one at an end of an open tour), and the path fragments of the
two halves, end to end, make one cycle (one path). The count is the sum,
over the pairs that fit, of the products of their counts.

The smaller half is *indexed*: its states are read onto ``F`` in a common
order, grouped by the degrees a partner must have (in buckets by their hash,
sorted in each), with the mates of each fragment end beside them. The
larger half is then swept and *streamed*: each of its final states looks up
the run of indexed states with the degrees it needs and walks the fragments
against each (:mod:`chesstours.frontier.join.kernel`), on every core. Only the
indexed half and one half's tables are ever in memory at once.

On an empty compile cache the join's kernels are compiled in another
process (:func:`chesstours.runtime.compile_in_background`) while the halves
are swept, and loaded from the cache for the join. A small count sweeps
both halves and joins them in plain Python (:mod:`chesstours.frontier.plain`),
with no kernel to compile.

The cut is chosen by :func:`chesstours.frontier.sweep.choose_halves`: after
about half the lines and the middle frontier, on lines of eight a pair of
squares before the end of a line. The right half adds the lines of ``B``
from the far end, then the squares of ``F`` line by line; a line the cut
divides may instead be added whole, its squares of ``F`` first, and the plan
keeps whichever order holds the narrower frontier (on 8x8, two squares
narrower).

A half of a cycle count may end on steps that only *hand over*
(:class:`~chesstours.frontier.plan.HandOver`): a square of the middle
frontier joined in this half to one square alone, which departs as it is
added, takes that square's code and nothing else happens. The right half of
8x8 closed ends on four, each 13.1 million states; a half held in memory
stops before them and its states are read as they would leave them, ``FULL``
turned ``FREE`` on the handed slots (:func:`_read_handed`): 8x8 closed
then extends a quarter fewer states.

References
----------
.. [1] B. D. McKay, "Knight's tours of an 8x8 chessboard", Technical report
   TR-CS-97-03, Australian National University (1997): 8x8 split into halves.
.. [2] D. E. Knuth, The Art of Computer Programming, pre-fascicle 8A (DYNAHAM).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ...board import Board
from ...errors import LimitReached
from ...pieces import Leaper
from ...runtime import await_compiled, cache_key, compiled_beside
from ...settings import FRONTIER_INDEX_BYTES as INDEX_BYTES
from .. import plain
from ..disk import Layers, Spilled, load
from ..plan import Fixed, Sweep, end_rule, greedy, line_orders, mirrored, neighbours, paired, plan
from ..run import FrontierProgress, FrontierResult, NarrowOverflow, SweepRun, run_sweep
from . import python as plain_join

if TYPE_CHECKING:
    from ..run import FrontierAllowance

def warm_join() -> None:
    """Compile the join's kernels (:func:`chesstours.frontier.join.kernel.warm`): a function this module names
    without loading numba, for a process that compiles them."""
    from .kernel import warm

    warm()


def join_kernel_key() -> tuple[str, str]:
    """The cache key (:func:`~chesstours.runtime.cache_key`) of the join's kernel, which tells whether the join
    is compiled. It imports the join's kernels, and numba, but loads none of them."""
    from .kernel import join_states

    return cache_key(join_states)

__all__ = ["Halves", "plan_halves", "count_by_halves"]

#: What a count stopped by its time limit in the join says.
JOIN_STOPPED = "Stopped at the time limit while joining the two halves."


@dataclass
class Halves:
    """The two planned halves of a meet in the middle, cut after ``split`` squares."""

    split: int
    left: Sweep
    right: Sweep
    middle: list[int]
    #: The squares of the middle frontier a class may be taken on (see :func:`plan_halves`): their edges in
    #: each half are all decided as the half adds them. In the order both halves have, the soonest first.
    class_squares: list[int]

    @property
    def max_slots(self) -> int:
        return max(self.left.max_slots, self.right.max_slots)


def plan_halves(board: Board, piece: Leaper, closed: bool, split: int, start: int | None = None,
                end: int | None = None, fixed: Fixed | None = None,
                classes: Mapping[int, int] | None = None, mirror: bool = True) -> Halves:
    """Plan the halves of a meet in the middle cut after the first ``split`` squares of the greedy order.

    ``fixed``: edges ruled out (see :func:`~chesstours.frontier.plan.neighbours`).
    ``classes``: ``{square: edges}``, count only the tours that give each such
    square of the middle frontier that many edges in the left half (and the
    rest, a tour's end counting as one, in the right); the squares are among
    the halves' ``class_squares``. ``mirror``: each half keeps one state of
    each mirror pair where the count is symmetric (see
    :func:`~chesstours.frontier.plan.plan`); the indexed half is made whole
    again before the join.
    """
    nb = neighbours(board, piece, fixed)
    # the halves keep one state of each mirror pair where the count is symmetric (see plan()), folding after
    # each pair of squares of a line (see paired()); the order of the squares is the same with the mirror or
    # without it, with classes or without them (a split count chooses its class squares from the halves
    # without them), and a class breaks the symmetry (see symmetric())
    rule = end_rule(board, piece, closed, start, end)
    symmetry = mirrored(board, start, end, fixed, rule=rule)
    image = symmetry if mirror and not classes else None
    lines = line_orders(board, piece)["greedy"]
    if symmetry is not None:
        lines = paired(lines, symmetry)
    order = [v for line in lines for v in line]
    a, b = set(order[:split]), set(order[split:])
    middle = [v for v in order[:split] if any(u in b for u in nb[v])]
    if len(middle) == split or split >= len(order):
        # Every square of A on the middle frontier: a whole tour could then lie in the right
        # half's edges, which a half never finishes. Cut later.
        raise ValueError(f"a meet in the middle needs a square of the first part off the middle frontier "
                         f"(cut after {split} of {len(order)} squares)")
    mid = set(middle)
    classes = classes or {}
    left = plan({v: [u for u in nb[v] if u in a] for v in order[:split]}, order[:split], closed=closed,
                start=start, end=end, kept=mid, external={v: sum(u in b for u in nb[v]) for v in middle},
                degrees=classes, mirror=image, rule=rule)
    right_nbrs = {v: [u for u in nb[v] if u in b or (v in b and u in mid)] for v in order[split:] + middle}

    def plan_right(right_lines: list[list[int]]) -> Sweep:
        right_lines = greedy([line for line in right_lines if line], right_nbrs, mid)
        if symmetry is not None:
            right_lines = paired(right_lines, symmetry)
        return plan(right_nbrs, [v for line in right_lines for v in line], closed=closed, start=start, end=end,
                    kept=mid, external={v: sum(u in a for u in nb[v]) for v in middle}, caps=mid,
                    degrees={v: 2 - c for v, c in classes.items()}, mirror=image, rule=rule)

    # the right half adds the lines of B from the far end, then the squares of the middle frontier line by line
    own = [[v for v in line if v in b] for line in lines[::-1]]
    theirs = [[v for v in line if v in mid] for line in lines[::-1]]
    orders = [own + theirs]
    for k, line in enumerate(lines[::-1]):
        if own[k] and any(v in a for v in line):
            # A line the cut divides may also be added whole, its squares of the middle frontier first: on 8x8
            # cut a pair of squares before the end of a line, its frontier holds 16 squares at most, not 18.
            orders.append(own[:k] + own[k + 1:] + theirs[:k + 1] + [own[k]] + theirs[k + 1:])
    right = min((plan_right(candidate) for candidate in orders), key=lambda sweep: (sweep.max_slots, sweep.slot_sum))
    pos_left = {v: t for t, v in enumerate(order[:split])}
    pos_right = {v: t for t, v in enumerate(right.order)}
    decided = [v for v in middle if all(pos_left[u] < pos_left[v] for u in nb[v] if u in a)]
    decided.sort(key=lambda v: (max(pos_left[v], pos_right[v]), v))
    for sweep in (left, right):
        if not sweep.steps[-1].mirror.size:  # the join needs the half's own states, or one of each pair
            for step in sweep.steps:
                step.mirror = step.mirror[:0]
    return Halves(split, left, right, middle, decided)


def _images(sweep: Sweep) -> np.ndarray | None:
    """For each final slot of a half, the slot of its square's image, if the half keeps one state of each pair."""
    last = sweep.steps[-1]
    if not last.mirror.size:
        return None
    kept = {int(w): i for i, w in enumerate(last.keep)}  # work slot of the last step -> final slot
    return np.array([kept[int(w)] for w in last.mirror], np.int64)


def _unfold(keys: np.ndarray, counts: np.ndarray, nslots: int, image: np.ndarray | None) -> tuple:
    """The states of an indexed half, each mirror pair whole again (when the half kept one of each)."""
    if image is None:
        return keys, counts
    from . import kernel as jk

    keys, counts, odd = jk.unfold(keys, counts, nslots, image)
    if odd:
        raise AssertionError("a state kept for a mirror pair has an odd count: the count is not symmetric")
    return keys, counts


def _before_hand_over(sweep: Sweep) -> Sweep:
    """The sweep stopped before its last steps where they only hand codes over (see
    :class:`~chesstours.frontier.plan.HandOver`): its final squares are the heirs, read by
    :func:`_read_handed`."""
    hand = sweep.hand_over
    if hand is None:
        return sweep
    return replace(sweep, steps=sweep.steps[:hand.steps], final=hand.final, hand_over=None)


def _read_handed(parts: list, slots: np.ndarray, pool: ThreadPoolExecutor) -> None:
    """The states of a half stopped before its hand-overs (:func:`_before_hand_over`), in place, as those
    steps would leave them, on ``pool``'s threads."""
    from . import kernel as jk

    bad = sum(pool.map(lambda part: jk.hand_over(part[0], slots), parts))
    if bad:
        raise AssertionError("a state of a half has no edge on a square it hands over: the plan is wrong")


def _perm(sweep: Sweep, middle: list[int]) -> np.ndarray:
    place = {v: i for i, v in enumerate(sorted(middle))}
    return np.array([place[v] for v in sweep.final], np.int64)


def count_by_halves(board: Board, piece: Leaper, closed: bool, halves: Halves, *, budget: int = 2,
                    threads: int, deadline: float | None = None, progress=None,
                    t0: float | None = None, layers: Layers | None = None,
                    table_budget: int | None = None, index_budget: int | None = None,
                    memory_limit: int | None = None, allowance: FrontierAllowance | None = None) -> FrontierResult:
    """Count the cycles (``closed``) or paths of the board by sweeping two halves and joining them.

    ``budget``: the free ends of an open tour (2 less the fixed ends).
    ``layers``, ``table_budget``: keep the halves' steps on disk
    (:func:`~chesstours.frontier.run.run_sweep`); the larger half is
    then streamed from its files, and only the smaller one is read into memory.
    ``index_budget``: bytes the index of the smaller half may take; a larger
    index is built and joined in passes, one group of degree classes a pass.
    ``memory_limit``: stop (:class:`~chesstours.frontier.run.OverMemory`) as
    soon as the states and tables of a half, with the first half's states
    beside the second's, pass it. The join is not checked: its index (the
    smaller half's, in passes within ``index_budget``) and the streamed
    states held less than the halves in every count measured.
    ``allowance``: the halves' steps, and the join, run in plain Python while
    it lasts (:mod:`chesstours.frontier.plain`); its process compiles the
    join's kernels after the sweep's.

    Raises
    ------
    NarrowOverflow
        A state of a half counts more than 2**64 partial tours (the join
        multiplies one-limb counts), or the count passes 2**128; the caller
        sweeps the whole board instead (two limbs, then residues).
    LimitReached
        ``deadline`` passed; ``partial`` holds a :class:`FrontierResult`.
    """
    t0 = time.perf_counter() if t0 is None else t0
    nslots = len(halves.middle)
    period = max(1, min(board.rows, board.cols))
    runs: list = []

    def stats(joining: int = 0, complete: bool = True, count: int = 0, **kw) -> FrontierResult:
        return _from_runs(halves, runs, t0, count, threads, joining, complete=complete, **kw)

    # a half held in memory stops before its last steps where they only hand codes over (see HandOver), and
    # its states are read as they would leave them (those of the kernels once the join's kernels are loaded)
    stops = layers is None
    sweeps = tuple(_before_hand_over(sweep) if stops else sweep for sweep in (halves.left, halves.right))
    handing = [half.hand_over if stops else None for half in (halves.left, halves.right)]
    # an empty compile cache: the join's kernels compile in another process while the halves are swept (the
    # allowance's process, where there is one)
    with compiled_beside(warm_join, None if allowance is not None else join_kernel_key()) as warming:
        for sweep, phase in zip(sweeps, ("left half", "right half")):
            # the second half is swept beside the states of the first
            held = sum(a.nbytes for r in runs for x in r.states for a in x if not isinstance(a, Spilled))
            held += sum(len(r.plain) * plain.STATE_BYTES for r in runs if r.plain is not None)
            try:
                run = run_sweep(sweep.steps, sweep.max_slots, closed, budget, threads=threads,
                                deadline=deadline, progress=progress, t0=t0, finish=False, keep_states=True,
                                period=period, phase=phase, layers=layers, table_budget=table_budget,
                                memory_limit=memory_limit, held=held, allowance=allowance)
            except LimitReached as exc:
                exc.partial.how = "meet in the middle"
                raise
            run.result.peak_bytes += held
            runs.append(run)
        for i, r in enumerate(runs):
            hand = handing[i]
            if hand is not None and r.plain is not None:
                r.plain, handing[i] = plain.hand_over(r.plain, hand.slots), None
        in_python = sum(r.result.plain_states for r in runs)
        sizes = [len(r.plain) if r.plain is not None else sum(x[0].size for x in r.states) for r in runs]
        small, large = (0, 1) if sizes[0] <= sizes[1] else (1, 0)
        if allowance is not None and all(r.plain is not None for r in runs):
            try:
                count, pairs = _join_in_python(halves, runs[small].plain, runs[large].plain, sweeps[small],
                                               sweeps[large], closed, budget, allowance, deadline)
                if progress is not None:  # the join in one part, as the kernels report theirs part by part
                    progress(FrontierProgress(1, 1, halves.middle[0], sizes[large], sizes[large], "join"))
                return replace(stats(count=count, halves=(sizes[0], sizes[1]), pairs=pairs, plain_states=in_python),
                               threads=1)
            except plain.Switch:
                if deadline is not None and time.perf_counter() > deadline:
                    raise LimitReached(JOIN_STOPPED, partial=stats(complete=False)) from None
                # else the join's kernels are ready: they join
        for r in runs:
            if r.plain is not None:
                if not plain.fits_one_limb(r.plain):
                    raise NarrowOverflow()
                r.states, r.plain = [[*plain.to_arrays(r.plain), np.zeros(0, np.uint64)]], None
        # the join's kernels are in the cache when that process ends (or it failed, and they compile here)
        if allowance is not None:
            allowance.lasts()  # a count that leaves Python here has the join's kernels compiled now
            allowance.await_later(deadline)
        else:
            await_compiled(warming, deadline)
    from . import kernel as jk  # numba loads with the first join, not with the plan of one
    ends = 0 if closed else budget
    perm_small, perm = _perm(sweeps[small], halves.middle), _perm(sweeps[large], halves.middle)
    # the index takes about 40 bytes a state: join in as many passes as its budget asks
    image = _images(sweeps[small])
    indexed = sizes[small] * (1 if image is None else 2)  # whole again: each state of a pair its own entry
    groups = 1 if index_budget is None else max(1, -(-indexed * INDEX_BYTES // index_budget))
    parts = runs[large].states
    streamed = sum(x[0].size for x in parts)
    accs = [np.zeros(2, np.uint64) for _ in parts]
    errs = [np.zeros(1, np.int64) for _ in parts]
    work = [np.zeros(1, np.int64) for _ in parts]
    joining = 0
    with ThreadPoolExecutor(threads, thread_name_prefix="chesstours-join") as pool:
        for hand, r in zip(handing, runs):
            if hand is not None:
                _read_handed(r.states, hand.slots, pool)
        for group in range(groups):

            def read(k: int, group=group) -> tuple:
                """One part of the indexed half: whole again, in the group, read (and freed if read whole)."""
                state = runs[small].states[k]
                if groups == 1:
                    runs[small].states[k] = None
                keys, cnts = _unfold(load(state[0]), load(state[1]), nslots, image)
                del state
                if groups > 1:
                    keys, cnts = jk.select_group(keys, cnts, nslots, perm_small, ends, group, groups)
                return jk.read_half(keys, cnts, nslots, perm_small, ends)

            index = jk.index_parts(list(pool.map(read, range(len(runs[small].states)))), nslots, pool)
            if groups == 1:
                runs[small].states.clear()  # read whole into the index
            joining = max(joining, sum(a.nbytes for a in index)
                          + sum(a.nbytes for x in parts for a in x if not isinstance(a, Spilled)))

            def join(k: int, index=index, group=group) -> None:
                keys2, lo2 = load(parts[k][0]), load(parts[k][1])
                room = np.empty((6, keys2.size), np.uint64)  # numpy's, in huge pages (see table.space)
                jk.join_states(keys2, lo2, nslots, perm, closed, *index, group, groups, accs[k], errs[k], work[k],
                               room)

            futures = [pool.submit(join, k) for k in range(len(parts))]
            for done, f in enumerate(futures, 1):
                f.result()
                if progress is not None:
                    progress(FrontierProgress(group * len(parts) + done, groups * len(parts), halves.middle[0],
                                              streamed, streamed, "join"))
                if deadline is not None and time.perf_counter() > deadline:
                    for g in futures:
                        g.cancel()
                    raise LimitReached(JOIN_STOPPED, partial=stats(joining, complete=False))
            del index
    if any(e[0] for e in errs):
        raise NarrowOverflow()  # past 2**128: one whole sweep counts it
    count = sum(int(a[0]) + (int(a[1]) << 64) for a in accs)
    return stats(joining, count=count, halves=(sizes[0], sizes[1]), pairs=sum(int(w[0]) for w in work),
                 join_passes=groups, plain_states=in_python)


def _from_runs(cut: Halves, runs: list[SweepRun], t0: float, count: int, threads: int, joining: int = 0,
               **kw) -> FrontierResult:
    """The result of a meet in the middle cut so (``cut``) from the runs of its halves (``joining``: the bytes
    its join held)."""
    return FrontierResult(count, max(r.result.max_states for r in runs),
                          max([r.result.peak_bytes for r in runs] + [joining]), time.perf_counter() - t0,
                          cut.max_slots, states_total=sum(r.result.states_total for r in runs), threads=threads,
                          how="meet in the middle", **kw)


def _join_in_python(halves: Halves, indexed: plain.States, streamed: plain.States, indexed_sweep: Sweep,
                    streamed_sweep: Sweep, closed: bool, budget: int, allowance: FrontierAllowance,
                    deadline: float | None) -> tuple[int, int]:
    """The join of two halves swept in plain Python, in plain Python (the smaller half ``indexed``): the count
    and the pairs tried.

    Raises :class:`~chesstours.frontier.plain.Switch` at the deadline, or if the join's kernels compiled first,
    where they were compiling (the join starts again in them).
    """
    image = _images(indexed_sweep)
    index = plain_join.read_half(plain.unfold(indexed, None if image is None else image.tolist()), len(halves.middle),
                            _perm(indexed_sweep, halves.middle).tolist(), 0 if closed else budget)
    perm = _perm(streamed_sweep, halves.middle).tolist()

    def look(_: int) -> bool:
        late = deadline is not None and time.perf_counter() > deadline
        return late or any(process.poll() is not None for process in allowance.later)

    return plain_join.join(streamed, perm, closed, index, look=look)
