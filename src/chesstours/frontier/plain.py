"""The frontier sweep in plain Python and numpy, for a count that would otherwise wait for the compiler.

On an empty compile cache numba compiles some ten kernels for the frontier
method before its first step, where the counts of small boards take a
fraction of a second. A small count runs here to its end, and a larger one
runs its first steps here while those kernels compile in another process
(:class:`~chesstours.frontier.run.FrontierAllowance`), with the same plan
(:class:`~chesstours.frontier.plan.Step`), the same codes and the same
choices as :func:`chesstours.frontier.kernel.expand`. A step takes the
states :data:`LOOK_EVERY` at a time as the rows of a byte array
(:class:`States`), makes a row for each state and each edge choice its masks
allow, and does the kernel's edges, departures and pruning on whole columns
of those rows at once; equal states are then added up by sorting their
kernel keys, so a step here makes exactly the states the kernel makes (the
tests hold every step to it; ``python benchmarks/bench_frontier.py --plain``
times the two). When the kernels are in the cache the sweep hands its keys
and counts to them between two steps
(:func:`chesstours.frontier.run.run_sweep`), or in the middle of a step,
which the kernels then do again from its start. The join of a meet in the
middle in numpy is :mod:`chesstours.frontier.join.python`.

Counts here are 64-bit, or Python ints where a step's could pass 62 bits:
no limb overflows. A count past 2**64 when the kernels take over makes the
caller count again in two limbs (:func:`fits_one_limb`).

>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> from chesstours.frontier.plan import best_plan
>>> sweep = best_plan(Board(3, 4), KNIGHT, closed=False)
>>> states = EMPTY
>>> for step in sweep.steps[:-1]:
...     states, _ = extend(states, step, budget=2, cycle=False, finish=False)
>>> extend(states, sweep.steps[-1], budget=2, cycle=False, finish=True)[1]  # the 8 open tours of 3x4
8
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..settings import FRONTIER_LOOK_EVERY as LOOK_EVERY
from ..settings import FRONTIER_PAIRS_AT_ONCE as PAIRS_AT_ONCE
from ..settings import FRONTIER_PLAIN_STATE_BYTES as STATE_BYTES
from .layout import CAP, ENDED, FREE, FULL, MAX_LABEL, PACKED_ENDED, PACKED_FULL, PLACE
from .plan import Step

__all__ = ["States", "EMPTY", "Switch", "extend", "finish_all", "fits_one_limb",
           "unfold", "to_arrays", "BY_LABEL", "PAIR_OF", "degree_codes", "labelled_codes",
           "rows_at", "widened", "STATE_BYTES",
           "LOOK_EVERY", "PAIRS_AT_ONCE"]

#: The kind of each work code (as :func:`chesstours.frontier.kernel.fold` reads it): free 0, a fragment's end
#: 1, ``ENDED`` 2, ``FULL`` 3.
_KIND_OF = np.array([0 if c == FREE else 2 if c == ENDED else 3 if c == FULL else 1 for c in range(16)], np.uint8)
#: Whether each work code is a label; and its weight in the colour sums of :func:`extend` (free 2, full 0, else 1).
_LABELLED = np.array([FREE < c <= MAX_LABEL for c in range(16)], np.uint8)
_WEIGHT = np.array([2 if c == FREE else 0 if c == FULL else 1 for c in range(16)], np.int64)
#: The edges a work code stands for on the middle frontier (free 0, full 2, else 1: two less its weight), for
#: :func:`_read`.
_DEGREE = (2 - _WEIGHT).astype(np.uint8)
#: A label's sort key in the high four bits, the unlabelled after every label; and a label's pair, ``L - 1``
#: (:func:`_read`).
BY_LABEL = np.array([c << 4 if FREE < c <= MAX_LABEL else 0xF0 for c in range(16)], np.uint8)
PAIR_OF = np.array([c - 1 if FREE < c <= MAX_LABEL else 0 for c in range(16)], np.uint8)
#: The packed code of each work code: a digit of the kernel's key.
_PACKED_OF = np.array([PACKED_ENDED if c == ENDED else PACKED_FULL if c == FULL else c for c in range(16)],
                      np.uint64)


# The tables above read in whole arrays: numpy's indexing of a table by an array of bytes takes ten to twenty
# times as long as a comparison of the bytes, so the hot steps compare (the codes' order, FREE < labels <
# ENDED < FULL, makes each a comparison or two; the tests hold them to the tables), and the others take.


def labelled_codes(codes: np.ndarray) -> np.ndarray:
    """``_LABELLED[codes]`` as booleans: the code less one, in bytes (``FREE`` wraps), below ``MAX_LABEL``."""
    return (codes - np.uint8(FREE + 1)) < np.uint8(MAX_LABEL - FREE)


def _kind(codes: np.ndarray) -> np.ndarray:
    """``_KIND_OF[codes]``: not free, plus ended or full, plus full."""
    return (codes != FREE).view(np.uint8) + (codes >= ENDED).view(np.uint8) + (codes == FULL).view(np.uint8)


def degree_codes(codes: np.ndarray) -> np.ndarray:
    """``_DEGREE[codes]``: not free, plus full."""
    return (codes != FREE).view(np.uint8) + (codes == FULL).view(np.uint8)


def rows_at(table: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``table[at]``, the rows at the indexes ``at``: numpy's ``take`` along the rows, some four times quicker
    than indexing a two-dimensional array by an array of indexes."""
    return np.take(table, at, axis=0)


class Switch(Exception):
    """The kernels are ready (or the deadline passed) in the middle of a step: the step starts again there."""


@dataclass
class States:
    """The states of a step here, in the order of their kernel keys.

    ``rows[i]``: state ``i``'s slots' work codes from the last slot to the
    first, then its free ends used (a byte each); ``keys[i]`` its 64-bit
    key as :func:`chesstours.frontier.kernel.pack` makes it; ``counts[i]``
    its partial tours, 64-bit where every number made from them fits, else
    Python ints (no limb overflows here).
    """

    rows: np.ndarray
    keys: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return int(self.keys.size)

    def codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The work codes of each state in slot order (a row each), and its free ends used."""
        nslots = self.rows.shape[1] - 1
        return self.rows[:, nslots - 1::-1] if nslots else self.rows[:, :0], self.rows[:, nslots]

    def as_dict(self) -> dict[int, int]:
        """``{key: count}``."""
        return dict(zip(self.keys.tolist(), self.counts.tolist()))


#: The empty frontier, no ends used: one partial tour.
EMPTY = States(np.zeros((1, 1), np.uint8), np.zeros(1, np.uint64), np.ones(1, np.uint64))


#: Counts here are Python ints from where a bound on what adding or multiplying them makes reaches this.
WIDE_FROM = 2.0**62


def widened(counts: np.ndarray, bound: float) -> np.ndarray:
    """``counts`` as Python ints where ``bound`` (a limit on any number made from them) reaches :data:`WIDE_FROM`."""
    return counts.astype(object) if bound >= WIDE_FROM and counts.dtype != object else counts


def _sum(counts: np.ndarray) -> float:
    """The sum of ``counts``, near enough to bound what adding them makes."""
    return float(counts.sum(dtype=np.float64)) if counts.dtype != object else float(sum(counts.tolist()))


def _gather(made: np.ndarray, counts: np.ndarray) -> States:
    """The states of the rows ``made`` (as :attr:`States.rows`), with the counts of equal rows added."""
    size = made.shape[1]
    # the kernel's key of each row: its digits, the last slot first, then its free ends used
    keys = made[:, size - 1].astype(np.uint64)
    for j in range(size - 1):
        keys += _PACKED_OF.take(made[:, j]) * PLACE[size - 2 - j]
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if keys.size else order
    return States(rows_at(made, order[starts]), keys[starts], np.add.reduceat(counts[order], starts) if keys.size else counts)


#: The renumbering before any label is met (:func:`_canon`): ``ENDED`` and ``FULL`` keep their codes.
_SPECIAL = np.uint64((ENDED << (4 * ENDED)) | (FULL << (4 * FULL)))


def _canon(kept: np.ndarray) -> np.ndarray:
    """Rows of work codes with their labels renumbered in slot order: the canonical form, in which equal
    frontiers are equal rows. As :func:`chesstours.frontier.kernel.pack_at`, each row's renumbering is one
    64-bit word, four bits a work code, so that a slot costs a few operations on whole columns (held
    contiguous: the rows are transposed in and out, and each operation writes into a column made once)."""
    rows, size = kept.shape
    relabel = np.full(rows, _SPECIAL, np.uint64)
    nxt = np.ones(rows, np.uint64)
    shifts = np.ascontiguousarray(kept.T).astype(np.uint64) << np.uint64(2)
    out = np.empty((size, rows), np.uint8)
    r, moved = np.empty(rows, np.uint64), np.empty(rows, np.uint64)
    first = np.empty(rows, bool)
    once = first.view(np.uint8)
    for i in range(size):
        shift = shifts[i]
        np.right_shift(relabel, shift, out=r)
        r &= np.uint64(15)
        np.equal(r, 0, out=first)
        first &= shift != 0
        np.multiply(nxt, once, out=moved)  # a label met for the first time (r is 0) takes the next number
        r |= moved
        np.left_shift(r, shift, out=moved)
        relabel |= moved
        nxt += once
        out[i] = r
    return out.T


def _first_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per row, whether row ``a`` comes before row ``b`` read from the last column (the kernel's keys weigh the
    last slot most)."""
    differ = a != b
    last = a.shape[1] - 1 - np.argmax(differ[:, ::-1], axis=1)
    at = np.arange(a.shape[0])
    return differ.any(axis=1) & (a[at, last] < b[at, last])


def _keep(work: np.ndarray, keep: np.ndarray, mirror: np.ndarray) -> np.ndarray:
    """The kept slots' codes of each row of ``work``, canonical; where ``mirror`` is given, of the row or of its
    mirror image, whichever :func:`chesstours.frontier.kernel.fold` keeps."""
    mine = work[:, keep]
    if not mirror.size:
        return _canon(mine)
    image = work[:, mirror]
    kinds, image_kinds = _kind(mine), _kind(image)
    tie = (kinds == image_kinds).all(axis=1)
    take = ~tie & _first_less(image_kinds, kinds)  # the kinds decide: one canonical form to make
    np.copyto(mine, image, where=take[:, None])
    out = _canon(mine)
    if tie.any():  # the same kinds: the smaller key of the two
        tied = np.flatnonzero(tie)
        theirs = _canon(rows_at(image, tied))
        smaller = _first_less(theirs, rows_at(out, tied))
        out[tied[smaller]] = theirs[smaller]
    return out


def _merge_rows(work: np.ndarray, rows: np.ndarray, old: np.ndarray, new: np.ndarray | int) -> None:
    """In each of ``rows``, every slot holding ``old`` (of that row) takes ``new``."""
    if rows.size:
        sub = work[rows]
        new = new[:, None] if isinstance(new, np.ndarray) else new
        work[rows] = np.where(sub == old[:, None], new, sub)


def _depart(work: np.ndarray, ok: np.ndarray, done: np.ndarray, ends: np.ndarray, slots, one_end: np.ndarray,
            budget: int, cycle: bool) -> None:
    """The squares of ``slots`` leave the frontier in turn, in every row (as the kernel's ``_depart``): a row
    whose square leaves with no edge, or a fragment end past the ``budget`` of free ends, or that finishes a
    second path, is no longer ``ok``; ``done`` marks a finished path."""
    for x in slots:
        c = work[:, x].copy()
        work[:, x] = FULL
        gone = c == FULL
        if cycle:
            ok &= gone
            continue
        ended = c == ENDED
        ok &= ~((c == FREE) | (ended & done))
        done |= ended
        open_end = ~gone & ~ended & (c != FREE) & ok
        if not one_end[x]:
            ok &= ~(open_end & (ends >= budget))
            ends += open_end
        at = np.flatnonzero(open_end & ok)
        _merge_rows(work, at, c[at], ENDED)


def _cap(work: np.ndarray, at: np.ndarray, v: int, fixed: bool, ends: np.ndarray, budget: int) -> np.ndarray:
    """Square ``v`` ends the tour in rows ``at`` (a cap: the other half of a meet in the middle decides it; as
    the kernel's ``_cap``); the rows where it cannot."""
    c = work[at, v]
    bad = (c == FULL) | (c == ENDED)
    if not fixed:
        bad |= ends[at] >= budget
        ends[at] += 1
    work[at, v] = np.where(c == FREE, ENDED, FULL)
    merge = ~bad & (c != FREE)
    _merge_rows(work, at[merge], c[merge], ENDED)
    return bad


def _join(work: np.ndarray, at: np.ndarray, v: int, x: np.ndarray, fresh: np.ndarray, one_end: np.ndarray,
          cycle: bool, done: np.ndarray) -> np.ndarray:
    """Add the tour edge ``v``-``x[i]`` in rows ``at`` (as the kernel's ``_join``; ``fresh``: a label no slot of
    the row uses); mark the rows where it closes the tour ``done``, return those where it cannot be."""
    a, b = work[at, v], work[at, x]
    a_free, b_free = a == FREE, b == FREE
    both_free = a_free & b_free
    bad = (one_end[x] & ~b_free) | (a == FULL) | (b == FULL) | (both_free & (fresh > MAX_LABEL))
    work[at, v] = np.where(both_free, fresh, np.where(a_free, b, FULL))
    work[at, x] = np.where(both_free, fresh, np.where(b_free & ~a_free, a, FULL))
    linked = ~a_free & ~b_free & ~bad
    closing = linked & (a == b)
    bad |= closing & ((a == ENDED) == cycle)
    done[at[closing & ~bad]] = True
    merge = linked & (a != b)
    a, b = a[merge], b[merge]
    ended = (a == ENDED) | (b == ENDED)
    # an ended fragment's mark goes to the other fragment's ends, else b's label gives way to a's (a != b here)
    _merge_rows(work, at[merge], np.where(b == ENDED, a, b), np.where(ended, np.uint8(ENDED), a))
    return bad


def extend(states: States, st: Step, budget: int, cycle: bool, finish: bool,
           look: Callable[[int], bool] | None = None) -> tuple[States, int]:
    """Add the square of step ``st`` to every state: the new states with their counts, and the tours finished.

    What :func:`chesstours.frontier.kernel.expand` does, in numpy, for
    :data:`LOOK_EVERY` states at a time: each state's rows for the edge
    choices its masks allow, then the edges, departures and pruning of the
    kernel on all the rows at once, and the same keys. ``look(states)``,
    asked after each part with the states extended so far, stops the step
    (:class:`Switch`) when it says so.
    """
    v = nprev = st.nprev
    n = len(states)
    if not n or not st.choice_a.size:
        return States(np.zeros((0, st.keep.size + 1), np.uint8), np.zeros(0, np.uint64), states.counts[:0]), 0
    counts = widened(states.counts, _sum(states.counts) * st.choice_a.size)
    all_codes, all_ends = states.codes()
    one_end = st.one_end.astype(bool)
    fixed_end = bool(one_end[v])
    bits = np.int64(1) << np.arange(nprev, dtype=np.int64)
    free_need, label_need = int(st.free_need), int(st.label_need)
    made_rows, made_counts = [], []
    finished = 0
    for s0 in range(0, n, LOOK_EVERY):
        codes = np.zeros((min(n - s0, LOOK_EVERY), nprev + 1), np.uint8)  # v, in the last slot, has no edge yet
        codes[:, :nprev] = all_codes[s0:s0 + LOOK_EVERY]
        ends0 = all_ends[s0:s0 + LOOK_EVERY].astype(np.int64)
        fresh = labelled_codes(codes).sum(axis=1, dtype=np.uint8) // 2 + 1  # each of the labels 1 .. k marks two slots
        full = (codes[:, :nprev] == FULL).astype(np.int64) @ bits
        free = (codes[:, :nprev] == FREE).astype(np.int64) @ bits
        label = ((1 << nprev) - 1) & ~(full | free)
        free |= 1 << nprev
        required = (free & free_need) | (label & label_need)
        picks, firsts, seconds, stranded = [], [], [], []
        for ch in range(st.choice_a.size):
            mask = int(st.choice_mask[ch])
            # a third edge, or a square left without the edges it needs
            fits = ((full & mask) == 0) & ((required & ~mask) == 0)
            lone = np.zeros(codes.shape[0], np.int64)
            if not cycle:  # squares that can only end the tour, left with no edge: more than the ends left
                left = [int(s) for s in st.single if not mask >> int(s) & 1]
                lone = (codes[:, left] == FREE).sum(axis=1) if left else lone
                fits &= ends0 + lone <= budget
            at = np.flatnonzero(fits)
            picks.append(at)
            firsts.append(np.full(at.size, st.choice_a[ch]))
            seconds.append(np.full(at.size, st.choice_b[ch]))
            stranded.append(lone[at])
        pick = np.concatenate(picks)
        work = rows_at(codes, pick)
        ends = ends0[pick]
        fresh = fresh[pick]
        ok = np.ones(pick.size, bool)
        done = np.zeros(pick.size, bool)
        capped = np.zeros(pick.size, bool)
        for edge in (np.concatenate(firsts), np.concatenate(seconds)):
            at = np.flatnonzero(ok & (edge == CAP))
            if at.size:
                ok[at[_cap(work, at, v, fixed_end, ends, budget)]] = False
                capped[at] = True
            at = np.flatnonzero(ok & (edge >= 0))
            if at.size:
                ok[at[_join(work, at, v, edge[at], fresh[at], one_end, cycle, done)]] = False
        if fixed_end:
            ok &= (work[:, v] != FULL) | capped
        _depart(work, ok, done, ends, st.departs, one_end, budget, cycle)
        if finish:
            complete = ok & done & (work == FULL).all(axis=1)
            finished += int(counts[s0 + pick[complete]].sum())
        ok &= ~done
        if st.signs.size:  # the second end of the tour on the first one's colour (see kernel.expand)
            second = np.flatnonzero(ok & (ends == 2) & (ends0[pick] < 2))
            ok[second[_WEIGHT.take(work[second]) @ st.signs != st.balance2]] = False
        if not cycle:
            ok &= ends + np.concatenate(stranded) <= budget
        at = np.flatnonzero(ok)
        made = np.empty((at.size, st.keep.size + 1), np.uint8)
        made[:, :st.keep.size] = _keep(rows_at(work, at), st.keep, st.mirror)[:, ::-1]
        made[:, st.keep.size] = ends[at]
        made_rows.append(made)
        made_counts.append(counts[s0 + pick[at]])
        if look is not None and s0 + LOOK_EVERY < n and look(s0 + LOOK_EVERY):
            raise Switch()
    return _gather(np.concatenate(made_rows), np.concatenate(made_counts)), finished


def finish_all(states: States, cycle: bool) -> int:
    """The tours finished if every frontier square left now (as the kernel's ``finish_all``)."""
    if not len(states):
        return 0
    codes, ends = states.codes()
    work = codes.copy()
    ok, done = np.ones(len(states), bool), np.zeros(len(states), bool)
    _depart(work, ok, done, ends.astype(np.int64), range(work.shape[1]), np.zeros(work.shape[1], bool), 2, cycle)
    return int(states.counts[ok & done].astype(object).sum())


def fits_one_limb(states: States) -> bool:
    """Whether every count fits the 64 bits of the kernels' first limb."""
    return states.counts.dtype != object or max(states.counts.tolist(), default=0) < 1 << 64


# -- the join (see chesstours.frontier.join) -----------------------------------------------------------------------


def unfold(states: States, image: list[int] | None) -> States:
    """A half kept one state of each mirror pair, each pair whole again (as ``join.kernel.unfold``)."""
    if image is None or not len(states):
        return states
    codes, ends = states.codes()
    other = np.empty_like(states.rows)
    other[:, :-1] = _canon(codes[:, image])[:, ::-1]
    other[:, -1] = ends
    pair = (other != states.rows).any(axis=1)
    if (states.counts[pair] % 2).any():
        raise AssertionError("a state kept for a mirror pair has an odd count: the count is not symmetric")
    half = states.counts[pair] // 2
    return _gather(np.concatenate([states.rows[~pair], states.rows[pair], other[pair]]),
                   np.concatenate([states.counts[~pair], half, half]))


def hand_over(states: States, slots: np.ndarray) -> States:
    """The final states of a half stopped before its hand-overs, read as those steps would leave them (as
    ``join.kernel.hand_over``: ``FULL`` turns ``FREE`` on the ``slots`` handed over)."""
    rows = states.rows.copy()
    columns = rows.shape[1] - 2 - np.asarray(slots, np.int64)  # the last slot first
    handed = rows[:, columns]
    if (handed == FREE).any():
        raise AssertionError("a state of a half has no edge on a square it hands over: the plan is wrong")
    rows[:, columns] = np.where(handed == FULL, FREE, handed)
    return _gather(rows, states.counts)


# -- the steps of a sweep -----------------------------------------------------------------------------------------

def to_arrays(states: States) -> tuple:
    """The kernels' input of these states: their keys and their counts (one limb: :func:`fits_one_limb`)."""
    return states.keys, states.counts.astype(np.uint64)
