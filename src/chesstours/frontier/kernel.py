"""Compiled kernels of the frontier sweep (see :mod:`chesstours.frontier.sweep`).

A *state* is one ``uint64``. Each frontier slot has a code:

* ``FREE`` (0) -- the square has no tour edge yet;
* ``1 .. 8`` -- the square ends a path fragment; the fragment's other end is
  the other slot with the same label (labels are renumbered 1, 2, 3 ... in
  slot order, so equal frontiers give equal keys);
* ``ENDED`` -- the square ends a fragment whose other end is already one of
  the two ends of the finished tour;
* ``FULL`` -- the square has both its tour edges.

A label marks exactly two slots, so a frontier of at most 17 slots uses at
most 8 labels and a slot takes one of 11 values. The key is the mixed-radix
number ``ends + 3 * sum(code[i] * 11**i)``, where ``ends`` (0, 1 or 2) counts
the free path ends already used: ``3 * 11**17 < 2**61``, so 17 slots fit
where four bits a slot would hold 15. Decoding divides by the constants 11
and 3, which the compiler turns into multiplications.

While a square is being added the slots live in a work array of small ints,
with ``ENDED`` = 14 and ``FULL`` = 15 there (the packed codes are 9 and 10),
so a new fragment may take a label above 8 before the departures of the step
bring the count back down.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..runtime import kernel
from ..runtime.index_kernel import unsigned
from .layout import (  # noqa: F401  (the codes are read here as globals of the kernels)
    CAP,
    ENDED,
    FREE,
    FULL,
    MAX_LABEL,
    MAX_SLOTS,
    PACKED_ENDED,
    PACKED_FULL,
    PLACE,
    RADIX,
    UNPACKED,
)
from .shuffle_kernel import SHUFFLE, canonical_key
from .table_kernel import add_to

_OK, _INVALID, _DONE = 0, 1, 2


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def unpack(key, nslots, codes):
    """Write the work codes of the ``nslots`` slots of ``key`` into ``codes``; return the ends used."""
    ends = np.int64(key % np.uint64(3))
    rest = key // np.uint64(3)
    for j in range(nslots):
        q = rest // np.uint64(RADIX)
        codes[j] = UNPACKED[rest - q * np.uint64(RADIX)]  # an unsigned index (see table.unsigned)
        rest = q
    return ends


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def _popcount(x):
    """The bits set in ``x`` (few: one turn a bit)."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def _kind(c):
    """The kind of a slot at its work code (see :func:`fold`): free 0, a fragment's end 1, ``ENDED`` 2, ``FULL`` 3."""
    return np.int64(c != FREE) + np.int64(c >= ENDED) + np.int64(c == FULL)


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def _join(work, n, x, y, cycle, fresh):
    """Add the tour edge x-y to the slots ``work[:n]``; return _OK, _INVALID or _DONE.

    ``fresh`` is a label no slot uses (one more than the largest), given to a new fragment.
    """
    x = unsigned(x)
    y = unsigned(y)
    cx = work[x]
    cy = work[y]
    if cx == FULL or cy == FULL:
        return _INVALID
    if cx == FREE and cy == FREE:
        if fresh > MAX_LABEL:
            return _INVALID
        work[x] = fresh
        work[y] = fresh
        return _OK
    if cx == FREE:
        work[x] = cy
        work[y] = FULL
        return _OK
    if cy == FREE:
        work[y] = cx
        work[x] = FULL
        return _OK
    work[x] = FULL
    work[y] = FULL
    if cx == cy:
        # Two ends of one fragment (a cycle closes) or two fragments that both
        # already end the tour (the path is finished): the tour is complete.
        if (cx == ENDED) == cycle:
            return _INVALID
        return _DONE
    if cx == ENDED:
        for j in range(n):
            if work[j] == cy:
                work[j] = ENDED
    elif cy == ENDED:
        for j in range(n):
            if work[j] == cx:
                work[j] = ENDED
    else:
        for j in range(n):
            if work[j] == cy:
                work[j] = cx
    return _OK


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def _depart(work, n, x, one_end, ends, budget, cycle):
    """Square x leaves the frontier; return (status, ends)."""
    x = unsigned(x)
    c = work[x]
    work[x] = FULL
    if c == FULL:
        return _OK, ends
    if cycle or c == FREE:
        return _INVALID, ends
    if c == ENDED:
        return _DONE, ends
    if not one_end:
        if ends >= budget:
            return _INVALID, ends
        ends += 1
    for j in range(n):
        if work[j] == c:
            work[j] = ENDED
    return _OK, ends


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def _cap(work, n, x, fixed, ends, budget):
    """Square x ends the tour (the right half of a meet in the middle decides it); return (status, ends).

    The cap is a virtual edge: x counts it as one of its two, so the other
    half owes x one edge fewer. A fixed end square uses none of the free ends.
    """
    c = work[x]
    if c == FULL or c == ENDED:
        return _INVALID, ends  # a third edge, or a path finished inside one half
    if not fixed:
        if ends >= budget:
            return _INVALID, ends
        ends += 1
    if c == FREE:
        work[x] = ENDED
        return _OK, ends
    work[x] = FULL
    for j in range(n):
        if work[j] == c:
            work[j] = ENDED
    return _OK, ends


#: The packed codes of ``ENDED`` and ``FULL`` at their work codes, four bits each (see :func:`pack`).
_PACKED_SPECIAL = np.uint64((PACKED_ENDED << (4 * ENDED)) | (PACKED_FULL << (4 * FULL)))


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def pack(work, keep, ends):
    """The key of the kept slots, labels renumbered in slot order (the canonical form)."""
    return pack_at(work, keep, 0, keep.size, ends)


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def pack_at(work, slots, first, size, ends):
    """:func:`pack` of the slots ``slots[first:first + size]`` (no array view made).

    The renumbering is held in one register, four bits a work code (the code
    of a label not met yet is 0; ``ENDED`` and ``FULL`` hold their packed
    codes from the start): no table in memory to store to and load back
    from on every slot, and no branch on the labels, which are random in
    real frontiers (a branch on them mispredicts).

    Even so, each slot waits on the renumbering of the one before: some six
    instructions in a chain, a slot at a time, the largest part of
    :func:`expand`'s time. Where the processor has SSSE3's byte shuffle
    (:data:`~chesstours.frontier.shuffle_kernel.SHUFFLE`) and the slots are at most
    sixteen, they are gathered into two words, a byte a slot, and renumbered
    all at once (:func:`~chesstours.frontier.shuffle_kernel.canonical_key`), which
    breaks that chain and makes :func:`expand` quicker on the widest steps.
    """
    if SHUFFLE:  # numba drops the branch before typing where SHUFFLE is False: no x86 instruction is named
        if size <= 16:  # all the slots at once
            lo = np.uint64(0)
            hi = np.uint64(0)
            for i in range(min(size, 8)):
                lo |= np.uint64(work[unsigned(slots[unsigned(first + i)])]) << np.uint64(8 * i)
            for i in range(8, size):
                hi |= np.uint64(work[unsigned(slots[unsigned(first + i)])]) << np.uint64(8 * (i - 8))
            return canonical_key(lo, hi, np.uint64(ends))
    relabel = _PACKED_SPECIAL
    nxt = np.uint64(1)
    key = np.uint64(ends)
    for i in range(size):
        c = work[unsigned(slots[unsigned(first + i)])]
        shift = np.uint64(4 * c)
        r = (relabel >> shift) & np.uint64(15)
        first_seen = (r == np.uint64(0)) & (c != FREE)
        r = nxt if first_seen else r
        relabel |= r << shift
        nxt += np.uint64(first_seen)
        key += r * PLACE[i]
    return key


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def fold(work, sides, size, ends):
    """The key a step keeps of a state and its mirror image: the one whose kinds of slots make the smaller
    word, of two with the same kinds the smaller key.

    A slot's kind is two bits: free 0, a fragment's end 1, ``ENDED`` 2,
    ``FULL`` 3; the word holds them the first slot lowest. The slots are read
    from the last, and the first pair of kinds that differ decides, which
    costs :func:`expand` less than making both words whole.

    ``sides`` holds the ``size`` kept slots, then the slots of their images.
    The kinds weigh the last slots most, the squares the frontier keeps
    longest, so states that will agree there are kept on the same side of the
    mirror and meet in the same states at the steps that follow, where
    nothing folds, and a few per cent fewer states are extended than with the
    smaller key of the two (6x8 open, 6x6 closed). And where the kinds differ, which they do for 95 to
    99.5 per cent of the states of 6x6 and 5x6, one key is made, not two.
    """
    first = 0
    tie = True
    for i in range(size - 1, -1, -1):  # from the slot that weighs most: the first that differs decides
        kc = _kind(work[unsigned(sides[unsigned(i)])])
        kd = _kind(work[unsigned(sides[unsigned(size + i)])])
        if kc != kd:
            first = size * np.int64(kd < kc)
            tie = False
            break
    key = pack_at(work, sides, first, size, ends)
    if tie:
        key = min(key, pack_at(work, sides, size, size, ends))
    return key


def scratch() -> np.ndarray:
    """The work arrays of one thread's :func:`expand`: a state's codes, and its codes after the step.

    The caller makes them once: a kernel compiled without numba's reference
    counting cannot allocate, and with it every call of an inlined helper on
    an array costs an atomic increment and decrement (half the time of a
    hash table insert).
    """
    return np.zeros((3, 2 * MAX_SLOTS), np.int64)


@kernel("frontier sweep")
@njit(cache=True, nogil=True, _nrt=False)
def expand(keys, lo, hi, i0, i1, nprev, choice_a, choice_b, one_end, departs, keep, mirror, single, choice_mask,
           free_need, label_need, signs, balance2, budget, cycle, finish, bk, bl, bh, nbuf, acc, err, scratch):
    """Extend states ``i0 .. i1`` by one square; return the index reached.

    The new square sits in slot ``nprev``; ``choice_a/b`` list the edge sets to
    try (slots of earlier neighbours, -1 for none, ``CAP`` for a cap); ``one_end[slot]`` marks
    squares that must end the tour; ``departs`` lists the slots leaving the
    frontier, ``keep`` the slots that stay, in order; ``mirror`` (or empty)
    the work slots of their images, to keep the smaller key of a state and
    its image (see :func:`chesstours.frontier.plan.plan`); ``single`` are
    the kept slots with one neighbour to come, which can only end an open
    tour if they have no edge yet. ``choice_mask`` holds the slots each edge
    choice gives an edge; ``free_need`` the slots that must take an edge now
    if they have none (a square that leaves, or that has fewer neighbours to
    come than edges it needs), ``label_need`` those that must if they have
    one: a choice that leaves one of them without is dropped before any
    work. ``signs`` (or empty): each slot's colour, +1 or -1, where the two
    ends of an open tour must differ in colour; ``balance2``: twice the sum
    of the colours of the squares added so far (see
    :attr:`chesstours.frontier.plan.Step.signs`). Finished tours are added to ``acc`` (two limbs) when ``finish`` is
    set (a whole sweep; in a half of a meet in the middle a finished tour
    cannot be, since the other half is still to come); new states are
    appended to the buffer ``bk/bl/bh`` (``nbuf[0]`` used; ``bh`` empty where
    the sweep counts in one limb, and the high limbs are all zero); the call
    stops early when it is full.
    """
    n = nprev + 1
    codes = scratch[0]
    work = scratch[1]
    sides = scratch[2]  # the kept slots, then their images (see fold)
    for k in range(mirror.size):
        sides[k] = keep[k]
        sides[mirror.size + k] = mirror[k]
    single_mask = 0
    for k in range(single.size):
        single_mask |= 1 << single[k]
    i = i0
    while i < i1:
        if nbuf[0] + choice_a.size > bk.size:
            return i
        key = keys[i]
        clo = lo[i]
        chi = hi[i] if hi.size else np.uint64(0)
        ends0 = unpack(key, nprev, codes)
        fresh = 1
        full = 0
        free = 1 << nprev
        label = 0
        for j in range(nprev):  # branch-free: the codes are random, a branch on them mispredicts
            c = codes[j]
            is_full = c == FULL
            is_free = c == FREE
            full |= np.int64(is_full) << j
            free |= np.int64(is_free) << j
            label |= np.int64(not (is_full or is_free)) << j
            fresh = max(fresh, c + 1 if c <= MAX_LABEL else 1)
        codes[nprev] = FREE
        # squares that must take an edge from v, whatever else happens
        required = (free & free_need) | (label & label_need)
        # squares with no edge and one neighbour to come, which can only end an open tour: those that take no
        # edge from v stay so (an edge from v is the only way a square with no edge gets one this step)
        lone = free & single_mask
        for ch in range(choice_a.size):
            m = choice_mask[ch]
            if (m & full) or (required & ~m):
                continue  # reject before any work: a third edge, or a square left without its edges
            stranded = 0  # of the squares that can only end an open tour, those this choice leaves with no edge
            if not cycle:
                stranded = _popcount(lone & ~m)
                if ends0 + stranded > budget:
                    continue  # more squares that can only end the tour than ends left, whatever the edges make
            a = choice_a[ch]
            b = choice_b[ch]
            for j in range(n):
                work[j] = codes[j]
            status = _OK
            done = False
            capped = False
            ends = ends0
            for e in range(2):
                x = a if e == 0 else b
                if x == CAP and status == _OK:
                    status, ends = _cap(work, n, nprev, one_end[nprev], ends, budget)
                    capped = True
                elif x >= 0 and status == _OK:
                    if one_end[unsigned(x)] and work[unsigned(x)] != FREE:
                        status = _INVALID
                    else:
                        status = _join(work, n, nprev, x, cycle, fresh)
                    if status == _DONE:
                        done = True
                        status = _OK
            if status != _OK:
                continue
            if one_end[nprev] and work[nprev] == FULL and not capped:
                continue
            for d in range(departs.size):
                x = departs[d]
                status, ends = _depart(work, n, x, one_end[unsigned(x)], ends, budget, cycle)
                if status == _DONE:
                    if done:
                        status = _INVALID
                        break
                    done = True
                    status = _OK
                elif status != _OK:
                    break
            if status != _OK:
                continue
            if done:
                if not finish:
                    continue
                complete = True
                for j in range(n):
                    if work[j] != FULL:
                        complete = False
                if complete:
                    add_to(acc, clo, chi, err)
                continue
            if signs.size and ends == 2 and ends0 < 2:
                # The second end is made. Each path of the partial tour has as many dark squares as light ones
                # where its ends differ in colour, one more of its ends' colour where they agree; so the free
                # slots twice, the slots ending a path once and the two ends of the tour once add up to the
                # colours of the squares added: the ends differ where the slots alone add up to them.
                total = 0
                for j in range(n):
                    c = work[j]
                    total += signs[j] * (2 if c == FREE else (0 if c == FULL else 1))
                if total != balance2:
                    continue
            if not cycle:
                # the same, with the ends this step used
                if ends + stranded > budget:
                    continue
            if mirror.size:
                newkey = fold(work, sides, keep.size, ends)
            else:
                newkey = pack(work, keep, ends)
            j = nbuf[0]
            bk[j] = newkey
            bl[j] = clo
            if bh.size:
                bh[j] = chi
            nbuf[0] = j + 1
        i += 1
    return i


@kernel("frontier sweep")
@njit(cache=True, nogil=True)
def finish_all(keys, lo, hi, nslots, budget, cycle, acc, err):
    """Add to ``acc`` the states that are finished tours if every frontier square left now."""
    work = np.zeros(32, np.int64)
    no = np.zeros(32, np.bool_)
    for i in range(keys.size):
        ends = unpack(keys[i], nslots, work)
        done = False
        ok = True
        for x in range(nslots):
            status, ends = _depart(work, nslots, x, no[x], ends, budget, cycle)
            if status == _DONE:
                if done:
                    ok = False
                    break
                done = True
            elif status != _OK:
                ok = False
                break
        if ok and done:
            add_to(acc, lo[i], hi[i] if hi.size else np.uint64(0), err)
