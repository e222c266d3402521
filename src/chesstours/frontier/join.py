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
against each (:mod:`...frontier_join_kernel`), on every core. Only the
indexed half and one half's tables are ever in memory at once.

On an empty compile cache the join's kernels are compiled in another
process (:func:`chesstours.runtime.compile_in_background`) while the halves
are swept, and loaded from the cache for the join. A count that runs wholly
in plain Python (:mod:`chesstours.frontier.plain`) on two cores or more
sweeps its right half in a copy of the process instead
(:func:`chesstours.runtime.run_beside`), reads it as the index there where
it is the smaller half, and joins every other streamed state in a second
copy: the halves and the join on both cores, with no kernel to compile.
Whichever process is done first with its half takes a part of the other
half's remaining steps (:class:`_Share`: the states parted by what they can
no longer change, so that no state is made in both), and each process joins
its part with the index of the half it did not share
(:func:`_count_beside`).

The cut is chosen by :func:`chesstours.frontier.sweep.choose_halves`: after
about half the lines and the middle frontier, on lines of eight a pair of
squares before the end of a line. The right half adds the lines of ``B``
from the far end, then the squares of ``F`` line by line; a line the cut
divides may instead be added whole, its squares of ``F`` first, and the plan
keeps whichever order holds the narrower frontier (on 8x8, 16 squares
instead of 18).

A half of a cycle count may end on steps that only *hand over*
(:class:`~chesstours.frontier.plan.HandOver`): a square of the middle
frontier joined in this half to one square alone, which departs as it is
added, takes that square's code and nothing else happens. The right half of
8x8 closed ends on four, each 13.1 million states; a half held in memory
stops before them and its states are read as they would leave them, ``FULL``
turned ``FREE`` on the handed slots (:func:`_read_handed`): 8x8 closed
extends 158 million states instead of 211 (70 to 83 s instead of 80 to 91).

References
----------
.. [1] B. D. McKay, "Knight's tours of an 8x8 chessboard", Technical report
   TR-CS-97-03, Australian National University (1997): 8x8 split into halves.
.. [2] D. E. Knuth, The Art of Computer Programming, pre-fascicle 8A (DYNAHAM).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board
from ..errors import LimitReached
from ..pieces import Leaper
from ..runtime import Beside, Talk, await_compiled, compiled_beside, run_beside
from . import plain
from .disk import Layers, Spilled, load
from .plan import Fixed, Sweep, end_rule, greedy, line_orders, mirror_map, mirrored, neighbours, paired, plan
from .run import FrontierProgress, FrontierResult, NarrowOverflow, SweepRun, run_sweep

if TYPE_CHECKING:
    from .plain import FrontierAllowance

#: The module of the join's kernels, and its kernel numba's cache tells compiled (without numba:
#: :func:`chesstours.runtime.in_cache_folder`).
def warm_join() -> None:
    """Compile the join's kernels (:func:`chesstours.frontier.join_kernel.warm`): a function this module names
    without loading numba, for a process that compiles them."""
    from .join_kernel import warm

    warm()


JOIN_KERNEL = (str(Path(__file__).with_name("join_kernel.py")), "join_kernel.join_states")

__all__ = ["Halves", "plan_halves", "count_by_halves"]

#: What a count stopped by its time limit in the join says.
JOIN_STOPPED = "Stopped at the time limit while joining the two halves."
#: Bytes a state of the indexed half takes: its partners' degree key, mates, count, and the run table.
INDEX_BYTES = 40


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
    from . import join_kernel as jk

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
    from . import join_kernel as jk

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
    # a count wholly in plain Python on two cores or more (its allowance says so: plain.allowance) sweeps its right
    # half, and reads it as the index, in a copy of this process while this one sweeps the left
    if allowance is not None and allowance.beside:
        try:
            return _count_beside(_Beside(board, halves, sweeps, closed, budget, deadline, t0, period, memory_limit),
                                 allowance, progress)
        except LimitReached as exc:
            exc.partial.how = "meet in the middle"
            raise
    # an empty compile cache: the join's kernels compile in another process while the halves are swept (the
    # allowance's process, where there is one)
    with compiled_beside(warm_join, None if allowance is not None else JOIN_KERNEL) as warming:
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
    from . import join_kernel as jk  # numba loads with the first join, not with the plan of one
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


#: States from which a half of a count in plain Python on two processes shares its remaining steps, once the
#: other process has done its own half (:class:`_Share`): fewer, and the copy costs more than it saves.
SHARE_FROM = 20_000
#: The least share of the states the smaller part must take for a half to be shared at a step.
SHARE_AT_LEAST = 0.25
#: Buckets the kind patterns are dealt to the parts in (a prime): a pattern's states all fall in one.
SHARE_BUCKETS = 4093


class _Share:
    """When a half of a count in plain Python on two processes shares the rest of its steps (``until`` for
    :func:`~chesstours.frontier.run.run_sweep`): before a step, once ``idle()`` says the other process is done
    with its own half, where the states are at least :data:`SHARE_FROM` and part well.

    The states are parted by the kinds of their codes (:func:`~chesstours.frontier.plain.kinds_on`) on the
    squares that take no more edges in this half: two states with different kinds there never make a common
    state later, so the two parts together make exactly the states the whole would, and no work is done twice.
    Where the half keeps one state of each mirror pair (``image``: the board's reflection), a square and its
    image count as one, their two kinds unordered, so that a state and its image fall in the same part. The
    patterns fall in buckets by their value (:data:`SHARE_BUCKETS`), and the buckets are dealt to the parts,
    the largest first, each to the part with fewer states so far; a step whose parts are too uneven
    (:data:`SHARE_AT_LEAST`), or that has no such square, is not shared.
    """

    def __init__(self, sweep: Sweep, idle: Callable[[], bool], image: Mapping[int, int] | None) -> None:
        self.idle = idle
        self.parts: tuple[plain.States, plain.States] | None = None
        self.settled = _settled_slots(sweep, image)

    def until(self, step: int, states: plain.States) -> bool:
        """Whether the half shares its steps from ``step`` on, its ``states`` parted as :attr:`parts` says."""
        if len(states) >= SHARE_FROM and self.settled[step][0] and self.idle():
            self.parts = self._part(states, step)
        return self.parts is not None

    def _part(self, states: plain.States, step: int) -> tuple[plain.States, plain.States] | None:
        """The two parts of ``states`` before ``step``, or None where they would be too uneven."""
        slots, images = self.settled[step]
        kinds = plain.kinds_on(states, slots)
        pair = np.minimum(kinds, kinds[:, images]) * 3 + np.maximum(kinds, kinds[:, images])  # unordered
        pattern = np.zeros(len(states), np.int64)
        for column in pair.T:
            pattern = pattern * 9 + column
        bucket = (pattern % SHARE_BUCKETS).astype(np.intp)  # one bucket for every state of a pattern
        sizes = np.bincount(bucket, minlength=SHARE_BUCKETS)
        used = np.flatnonzero(sizes)
        side = np.zeros(SHARE_BUCKETS, np.bool_)
        load = [0, 0]
        for g in used[np.argsort(-sizes[used], kind="stable")].tolist():
            k = int(load[1] < load[0])
            side[g] = bool(k)
            load[k] += int(sizes[g])
        if min(load) < SHARE_AT_LEAST * len(states):
            return None
        theirs = side[bucket]
        return _subset(states, ~theirs), _subset(states, theirs)


def _subset(states: plain.States, mask: np.ndarray) -> plain.States:
    return plain.States(states.rows[mask], states.keys[mask], states.counts[mask])


def _settled_slots(sweep: Sweep, image: Mapping[int, int] | None) -> list[tuple[list[int], list[int]]]:
    """For each step of ``sweep`` (and its end), the slots of the frontier before it whose squares take no edge
    in that step or any later one, and for each the place (in that list) of its square's image under ``image``
    (its own place without one). With ``image``, a slot whose image is not among them is left out."""
    fronts: list[list[int]] = []  # the frontier before each step, and at the end
    front: list[int] = []
    for st in sweep.steps:
        fronts.append(front)
        combined = front + [st.square]
        front = [combined[int(i)] for i in st.keep]
    fronts.append(front)
    settled: list[tuple[list[int], list[int]]] = [([], []) for _ in fronts]
    touched: set[int] = set()
    for t in range(len(sweep.steps), -1, -1):
        squares = {u: i for i, u in enumerate(fronts[t]) if u not in touched}
        if image is not None:
            squares = {u: i for u, i in squares.items() if image[u] in squares}
        place = {u: k for k, u in enumerate(squares)}
        settled[t] = (list(squares.values()), [place[image[u] if image is not None else u] for u in squares])
        if t:
            st, before = sweep.steps[t - 1], fronts[t - 1]
            touched.update(before[int(a)] for a in (*st.choice_a, *st.choice_b) if 0 <= a < len(before))
    return settled


@dataclass
class _Beside:
    """What a count in plain Python on two processes shares between them: the plan, and the limits."""

    board: Board
    halves: Halves
    sweeps: tuple[Sweep, ...]
    closed: bool
    budget: int
    deadline: float | None
    t0: float
    period: int
    memory_limit: int | None

    def image(self, side: int) -> Mapping[int, int] | None:
        """The reflection a half keeps one state of each pair by, if it does (0 the left half, 1 the right)."""
        return mirror_map(self.board) if (self.halves.left, self.halves.right)[side].steps[-1].mirror.size else None

    def sweep(self, side: int, allowance: FrontierAllowance, progress=None, until=None,
              resume: tuple[int, plain.States] | None = None) -> SweepRun:
        """Sweep a half in plain Python (or go on with it from ``resume``), to its end or until ``until``."""
        sweep = self.sweeps[side]
        return run_sweep(sweep.steps, sweep.max_slots, self.closed, self.budget, threads=1, deadline=self.deadline,
                         progress=progress, t0=self.t0, finish=False, keep_states=True, period=self.period,
                         phase=("left half", "right half")[side], memory_limit=self.memory_limit,
                         allowance=allowance, until=until, resume=resume)

    def handed(self, side: int, states: plain.States) -> plain.States:
        """A half's final states as its last steps, which only hand codes over, would leave them."""
        hand = (self.halves.left, self.halves.right)[side].hand_over
        return states if hand is None else plain.hand_over(states, hand.slots)

    def index(self, side: int, states: plain.States) -> plain.Half:
        """A half's final states (handed over) read as the join's index."""
        return _index_in_python(self.halves, states, self.sweeps[side], self.closed, self.budget)

    def finish(self, side: int, step: int, part: plain.States, index: plain.Half, allowance: FrontierAllowance,
               progress=None) -> _Part:
        """Sweep a ``part`` of a half's states from ``step`` to its end, and join what it makes with the other
        half's ``index``."""
        done = self.sweep(side, allowance, progress, resume=(step, part))
        assert done.plain is not None  # swept wholly in Python
        final = self.handed(side, done.plain)
        count, pairs = _join_in_python(self.halves, plain.EMPTY, final, self.sweeps[1 - side], self.sweeps[side],
                                       self.closed, self.budget, allowance, self.deadline, index)
        return _Part(count, pairs, done.result.states_total, len(final), done.result.max_states)


@dataclass
class _Part:
    """What a process made of its part of a shared half: the tours its states make with the other half, the
    pairs it tried, the states it extended, its states at the end of the half, and the most at a step."""

    count: int
    pairs: int
    extended: int
    made: int
    most: int


def _count_beside(job: _Beside, allowance: FrontierAllowance, progress) -> FrontierResult:
    """A count by the meet in the middle wholly in plain Python on two processes.

    A copy of the process (:func:`chesstours.runtime.run_beside`) sweeps the right half and reads it as the
    join's index while the process sweeps the left. Whichever is done first with its own half helps the
    other with the rest of its steps (:class:`_Share`): the left half's process forks a second copy that
    sweeps a part of its states and joins it with the right half's index; the copy sweeping the right half,
    told that the process is idle, hands it a part of its states through the pipe and takes the left half's
    index in return, each joining its part. Where neither half is shared, the smaller is indexed and the
    streamed one joined half here and half in a second copy, every other state each.

    Raises :class:`LimitReached` at the deadline, in either process (the copies are stopped).
    """
    with run_beside(lambda talk: _right_half_beside(job, talk), talk=True) as beside:
        copy = _Copy(beside)
        share = _Share(job.sweeps[0], copy.answered, job.image(0))
        left = job.sweep(0, allowance, progress, until=share.until)
        try:
            if share.parts is not None and not left.result.complete:
                assert copy.answer is not None  # shared once it answered
                right, right_index = copy.answer
                allowance.take(right.result.plain_states)
                mine, theirs = share.parts
                return _shared(job, 0, left.step, left, mine, theirs, right, right_index, allowance, progress)
            assert left.plain is not None  # swept wholly in Python
            left.plain = job.handed(0, left.plain)
            left_index = None
            copy.hear()
            if copy.answer is None and copy.swept is None and len(left.plain) >= SHARE_FROM:
                # the copy still sweeps the right half: offer it help, the left half's index at hand
                left_index = job.index(0, left.plain)
                beside.send(("idle", len(left.plain)))
            while True:
                copy.hear()
                if copy.answer is not None or copy.part is not None:
                    break
                if left_index is None and copy.swept is not None and len(left.plain) <= copy.swept:
                    left_index = job.index(0, left.plain)  # the join takes the smaller half as the index
                copy.hear(wait=True)
            if copy.part is not None:  # the copy hands over a part of the rest of the right half
                step, part, right = copy.part
                assert left_index is not None
                beside.send(left_index)
                return _shared(job, 1, step, right, part, beside, left, left_index, allowance, progress)
            assert copy.answer is not None
            right, right_index = copy.answer
            allowance.take(right.result.plain_states)
            assert right.plain is not None
            if progress is not None:
                steps = job.sweeps[1].steps
                progress(FrontierProgress(len(steps) - 1, len(steps), steps[-1].square, len(right.plain),
                                          right.result.max_states, "right half"))
            sizes = [len(left.plain), len(right.plain)]
            small = 0 if sizes[0] <= sizes[1] else 1
            if small == 1 and right_index is not None:
                index = right_index
            else:  # the left half (the copy read no index where the process said the left was the smaller)
                index = left_index if left_index is not None else job.index(0, left.plain)
            count, pairs = _join_in_python(job.halves, plain.EMPTY, (left.plain, right.plain)[1 - small],
                                           job.sweeps[small], job.sweeps[1 - small], job.closed, job.budget,
                                           allowance, job.deadline, index, two=True)
        except plain.Switch:  # the deadline, in a join
            raise LimitReached(JOIN_STOPPED, partial=_result(job, [left], 0, complete=False)) from None
    if progress is not None:  # the join in one part, as the kernels report theirs part by part
        progress(FrontierProgress(1, 1, job.halves.middle[0], max(sizes), max(sizes), "join"))
    return _result(job, [left, right], count, halves=(sizes[0], sizes[1]), pairs=pairs)


class _Copy:
    """What the copy sweeping the right half (:func:`_right_half_beside`) has said to the process so far: the
    states its half ends on (``swept``), a part of its states it hands over (``part``), or its answer."""

    def __init__(self, beside: Beside) -> None:
        self.beside = beside
        self.swept: int | None = None
        self.part: tuple | None = None
        self.answer: tuple | None = None

    def hear(self, wait: bool = False) -> None:
        """Read what the copy has said (with ``wait``, wait for one thing more), until its answer or a part."""
        while self.answer is None and self.part is None and (wait or self.beside.ready()):
            wait = False
            done, said = self.beside.next()
            if done:
                self.answer = said
            elif said[0] == "swept":
                self.swept = said[1]
            else:
                self.part = said[1:]

    def answered(self) -> bool:
        """Whether the copy has answered: its half swept and read as the index."""
        self.hear()
        return self.answer is not None


def _from_runs(cut: Halves, runs: list[SweepRun], t0: float, count: int, threads: int, joining: int = 0,
               **kw) -> FrontierResult:
    """The result of a meet in the middle cut so (``cut``) from the runs of its halves (``joining``: the bytes
    its join held)."""
    return FrontierResult(count, max(r.result.max_states for r in runs),
                          max([r.result.peak_bytes for r in runs] + [joining]), time.perf_counter() - t0,
                          cut.max_slots, states_total=sum(r.result.states_total for r in runs), threads=threads,
                          how="meet in the middle", **kw)


def _result(job: _Beside, runs: list[SweepRun], count: int, **kw) -> FrontierResult:
    """The result of a count in plain Python on two processes, from the runs of its halves."""
    return _from_runs(job.halves, runs, job.t0, count, 1, plain_states=sum(r.result.states_total for r in runs),
                      **kw)


def _shared(job: _Beside, side: int, step: int, run: SweepRun, mine: plain.States, theirs: plain.States | Beside,
            other: SweepRun, index: plain.Half, allowance: FrontierAllowance, progress) -> FrontierResult:
    """The rest of a half (``side``: 0 the left, 1 the right) from ``step`` on, shared between two processes:
    this one sweeps its part ``mine`` and joins it with ``index``, the other half's (``other``, whose final
    states it read); ``theirs``, the other part, is swept and joined in a new copy of the process, or is the
    copy that handed ``mine`` over and answers with what it made of its own part. ``run``: the half so far."""
    with run_beside(lambda: job.finish(side, step, theirs, index, allowance)) \
            if isinstance(theirs, plain.States) else theirs as copy:
        made = job.finish(side, step, mine, index, allowance, progress)
        helped = copy.result()
    # this process took its own states as it swept them: the copy's, and the right half's before a part of it
    # was handed over here, were swept elsewhere
    allowance.take(helped.extended + (run.result.plain_states if side == 1 else 0))
    assert other.plain is not None
    total = made.made + helped.made
    result = _result(job, [run, other], made.count + helped.count, pairs=made.pairs + helped.pairs,
                     halves=(total, len(other.plain)) if side == 0 else (len(other.plain), total))
    result.max_states = max(result.max_states, made.most + helped.most)
    result.states_total = result.plain_states = result.states_total + made.extended + helped.extended
    return result


def _index_in_python(halves: Halves, states: plain.States, sweep: Sweep, closed: bool, budget: int) -> plain.Half:
    """The indexed half of a join in plain Python: ``states``, the final states of the half ``sweep``, whole
    again (unfolded), by the degrees a partner must have (:func:`~chesstours.frontier.plain.read_half`)."""
    image = _images(sweep)
    return plain.read_half(plain.unfold(states, None if image is None else image.tolist()), len(halves.middle),
                           _perm(sweep, halves.middle).tolist(), 0 if closed else budget)


def _right_half_beside(job: _Beside, talk: Talk):
    """The right half of a count wholly in plain Python, swept in a copy of the process while the process
    sweeps the left (:func:`_count_beside`): its run, its states as they leave it (handed over), and their
    index (None where the process, idle, said its half is the smaller: it indexes that one; else, the process
    not idle yet, it first tells how many states the half ends on, ``("swept", states)``, so that the process
    may read its own half as the index meanwhile where that is the smaller). Where the process says it is
    idle before a step (it sends ``("idle", its states)``), the copy hands it (``("part", ...)``) a part of its
    states (the step, the part, and its run so far), takes the left half's index in return, and answers
    with what it made of its own part (:class:`_Part`). The time limit and the memory watch hold here as in
    the process."""
    from .plain import FrontierAllowance

    allowance = FrontierAllowance(None)
    share = _Share(job.sweeps[1], talk.asked, job.image(1))
    run = job.sweep(1, allowance, until=share.until)
    if share.parts is None or run.result.complete:
        assert run.plain is not None  # a sweep wholly in Python keeps its states here
        run.plain = job.handed(1, run.plain)
        if talk.asked():  # the process, idle, has read the left half as the index where it is the smaller
            if talk.read()[1] <= len(run.plain):
                return run, None
        else:  # the process reads the left half as the index where it is the smaller, and else waits for this
            talk.tell(("swept", len(run.plain)))
        return run, job.index(1, run.plain)
    talk.read()  # ("idle", the left half's final states)
    mine, theirs = share.parts
    run.plain = None
    talk.tell(("part", run.step, theirs, run))
    return job.finish(1, run.step, mine, talk.read(), allowance)


def _join_in_python(halves: Halves, indexed: plain.States, streamed: plain.States, indexed_sweep: Sweep,
                    streamed_sweep: Sweep, closed: bool, budget: int, allowance: FrontierAllowance,
                    deadline: float | None, index: plain.Half | None = None, two: bool = False) -> tuple[int, int]:
    """The join of two halves swept in plain Python, in plain Python (the smaller half ``indexed``, or its
    ``index`` already read): the count and the pairs tried. ``two``: the streamed half's states are joined
    half here and half in a copy of the process (:func:`chesstours.runtime.run_beside`), alternately, so
    that each takes about as many pairs.

    Raises :class:`~chesstours.frontier.plain.Switch` at the deadline, or if the join's kernels compiled first,
    where they were compiling (the join starts again in them).
    """
    if index is None:
        index = _index_in_python(halves, indexed, indexed_sweep, closed, budget)
    perm = _perm(streamed_sweep, halves.middle).tolist()

    def look(_: int) -> bool:
        late = deadline is not None and time.perf_counter() > deadline
        return late or any(process.poll() is not None for process in allowance.later)

    def join(part: slice) -> tuple[int, int]:
        states = plain.States(streamed.rows[part], streamed.keys[part], streamed.counts[part])
        return plain.join(states, perm, closed, index, look=look)

    if not two or len(streamed) < 2:
        return join(slice(None))
    with run_beside(lambda: join(slice(1, None, 2))) as beside:
        here = join(slice(0, None, 2))
        there = beside.result()
    return here[0] + there[0], here[1] + there[1]
