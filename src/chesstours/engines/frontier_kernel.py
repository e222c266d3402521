"""Compiled kernels of the frontier sweep (see :mod:`chesstours.engines.frontier`).

A *state* is one ``uint64``: four bits per frontier slot, slot ``i`` in bits
``4i .. 4i+3``, and in bits 60-61 the number of free path ends already used.
A slot's code is

* ``0`` -- the square has no tour edge yet;
* ``1 .. 13`` -- the square ends a path fragment; the fragment's other end is
  the other slot with the same label (labels are renumbered 1, 2, 3 ... in
  slot order, so equal frontiers give equal keys);
* ``ENDED`` (14) -- the square ends a fragment whose other end is already one
  of the two ends of the finished tour;
* ``FULL`` (15) -- the square has both its tour edges.

The states of one step live in an open-addressing hash table (linear
probing, ``EMPTY_KEY`` marks a free slot) whose counts are two 64-bit limbs
(``lo`` + 2**64 ``hi``), so no count can overflow silently: a carry out of
``hi`` sets an error flag.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FREE, ENDED, FULL = 0, 14, 15
MAX_LABEL = 13
#: Most frontier slots a 64-bit state holds (60 bits; two more count the path ends).
MAX_SLOTS = 15
EMPTY_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)

_OK, _INVALID, _DONE = 0, 1, 2


@njit(cache=True, inline="always")
def _mix(key):
    # splitmix64's finaliser: every key bit moves every bit of the hash
    h = key ^ (key >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@njit(cache=True, inline="always")
def _home(key, sbits, size):
    """The home slot of ``key`` in a table of ``size`` slots: the hash bits below the shard's, scaled.

    Scaling (not masking) keeps the home slot increasing with the hash, so
    keys sorted by hash fill the table front to back, and lets a table have
    any size, not only a power of two.
    """
    top = (_mix(key) << np.uint64(sbits)) >> np.uint64(32)
    return np.int64((top * np.uint64(size)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _insert(tab, thi, sbits, key, lo, hi, fill, err):
    """Add ``lo + 2**64 hi`` partial tours to state ``key``.

    The top ``sbits`` bits of the hash choose the shard (the table), the next
    ones the home slot (:func:`_home`); collisions probe linearly. ``tab``
    interleaves keys and low limbs (one cache line a probe); the high limbs
    sit apart in ``thi``, touched only when non-zero.
    """
    size = thi.size
    h = _home(key, sbits, size)
    while True:
        k = tab[2 * h]
        if k == EMPTY_KEY:
            tab[2 * h] = key
            tab[2 * h + 1] = lo
            if hi:
                thi[h] = hi
            fill[0] += 1
            return
        if k == key:
            s = tab[2 * h + 1] + lo
            tab[2 * h + 1] = s
            if s < lo or hi:
                old = thi[h]
                t = old + hi + (np.uint64(1) if s < lo else np.uint64(0))
                if t < old:
                    err[0] = 1  # more than 2**128 partial tours: refuse rather than wrap
                thi[h] = t
            return
        h += 1
        if h == size:
            h = 0


@njit(cache=True, nogil=True)
def sort_batch(bk, bl, bh, nb, sk, sl, sh, pbits, sbits, bounds):
    """Counting-sort the first ``nb`` new states by the top ``pbits`` of their hash.

    Inserting them in this order walks the tables front to back, so the
    memory traffic streams instead of missing the cache on every state.
    ``bounds[s] .. bounds[s + 1]`` are then the states of shard ``s`` (the top
    ``sbits`` bits of the hash).
    """
    shift = np.uint64(64 - pbits)
    start = np.zeros((1 << pbits) + 1, np.int64)
    for i in range(nb):
        start[np.int64(_mix(bk[i]) >> shift) + 1] += 1
    for p in range(1 << pbits):
        start[p + 1] += start[p]
    per = 1 << (pbits - sbits)
    for s in range(bounds.size):
        bounds[s] = start[s * per]
    for i in range(nb):
        p = np.int64(_mix(bk[i]) >> shift)
        j = start[p]
        start[p] = j + 1
        sk[j] = bk[i]
        sl[j] = bl[i]
        sh[j] = bh[i]


@njit(cache=True, nogil=True)
def insert_run(sk, sl, sh, i0, nb, tab, thi, sbits, fill, max_fill, err):
    """Insert states ``i0 .. nb``; stop (returning the index) when the table holds ``max_fill``."""
    for i in range(i0, nb):
        if fill[0] >= max_fill:
            return i
        _insert(tab, thi, sbits, sk[i], sl[i], sh[i], fill, err)
    return nb


@njit(cache=True, nogil=True)
def rehash(tab, thi, ntab, nhi, sbits, fill, err):
    """Move every entry of one table into a larger empty one (in hash order: a stream)."""
    for i in range(thi.size):
        if tab[2 * i] != EMPTY_KEY:
            _insert(ntab, nhi, sbits, tab[2 * i], tab[2 * i + 1], thi[i], fill, err)


@njit(cache=True, nogil=True)
def compact(tab, thi, fill):
    """The occupied entries of a table as three dense arrays: keys, low and high limbs.

    The high limbs are an empty array when all are zero, as they are until
    some count passes 2**64: eight bytes a state saved.
    """
    wide = False
    for i in range(thi.size):
        if thi[i] != 0:
            wide = True
            break
    keys = np.empty(fill, np.uint64)
    lo = np.empty(fill, np.uint64)
    hi = np.zeros(fill if wide else 0, np.uint64)
    j = 0
    for i in range(thi.size):
        if tab[2 * i] != EMPTY_KEY:
            keys[j] = tab[2 * i]
            lo[j] = tab[2 * i + 1]
            if wide:
                hi[j] = thi[i]
            j += 1
    return keys, lo, hi


@njit(cache=True, inline="always")
def _join(work, n, x, y, cycle, fresh):
    """Add the tour edge x-y to the slots ``work[:n]``; return _OK, _INVALID or _DONE.

    ``fresh`` is a label no slot uses (one more than the largest), given to a new fragment.
    """
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


@njit(cache=True, inline="always")
def _depart(work, n, x, one_end, ends, budget, cycle):
    """Square x leaves the frontier; return (status, ends)."""
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


@njit(cache=True, inline="always")
def _pack(work, keep, ends, relabel):
    """The key of the kept slots, labels renumbered in slot order (the canonical form).

    ``relabel`` maps a code to its new code: the identity for ``FREE``,
    ``ENDED`` and ``FULL``, 0 for a label not met yet. Branch-free: the labels
    of real frontiers are random, so a branch on them mispredicts.
    """
    for j in range(1, MAX_LABEL + 1):
        relabel[j] = 0
    nxt = np.int64(1)
    key = np.uint64(ends) << np.uint64(60)
    shift = np.uint64(0)
    for i in range(keep.size):
        c = work[keep[i]]
        r = relabel[c]
        first = r == 0 and c != FREE
        r = nxt if first else r
        relabel[c] = r
        nxt += first
        key |= np.uint64(r) << shift
        shift += np.uint64(4)
    return key


@njit(cache=True, nogil=True)
def expand(keys, lo, hi, i0, i1, nprev, choice_a, choice_b, one_end, departs, keep, check, check_spare,
           single, choice_mask, free_need, label_need, budget, cycle, bk, bl, bh, nbuf, acc, err):
    """Extend states ``i0 .. i1`` by one square; return the index reached.

    The new square sits in slot ``nprev``; ``choice_a/b`` list the edge sets to
    try (slots of earlier neighbours, -1 for none); ``one_end[slot]`` marks
    squares that must end the tour; ``departs`` lists the slots leaving the
    frontier, ``keep`` the slots that stay, in order; ``check`` are the kept
    slots of v and its earlier neighbours and ``check_spare`` how many
    neighbours each has still to come; ``single`` are the kept slots with one
    neighbour to come, which can only end an open tour if they have no edge yet. Finished tours are
    added to ``acc`` (two limbs); new states are appended to the buffer
    ``bk/bl/bh`` (``nbuf[0]`` used); the call stops early when it is full.
    """
    n = nprev + 1
    codes = np.zeros(32, np.int64)
    work = np.zeros(32, np.int64)
    relabel = np.zeros(16, np.int64)
    relabel[ENDED] = ENDED
    relabel[FULL] = FULL
    i = i0
    while i < i1:
        if nbuf[0] + choice_a.size > bk.size:
            return i
        key = keys[i]
        clo = lo[i]
        chi = hi[i] if hi.size else np.uint64(0)
        ends0 = np.int64(key >> np.uint64(60))
        fresh = 1
        full = 0
        free = 1 << nprev
        label = 0
        for j in range(nprev):
            c = np.int64((key >> np.uint64(4 * j)) & np.uint64(15))
            codes[j] = c
            if c == FULL:
                full |= 1 << j
            elif c == FREE:
                free |= 1 << j
            else:
                label |= 1 << j
                if c <= MAX_LABEL and c >= fresh:
                    fresh = c + 1
        codes[nprev] = FREE
        # squares that must take an edge from v, whatever else happens
        required = (free & free_need) | (label & label_need)
        for ch in range(choice_a.size):
            m = choice_mask[ch]
            if (m & full) or (required & ~m):
                continue  # reject before any work: a third edge, or a square left without its edges
            a = choice_a[ch]
            b = choice_b[ch]
            for j in range(n):
                work[j] = codes[j]
            status = _OK
            done = False
            ends = ends0
            for e in range(2):
                x = a if e == 0 else b
                if x >= 0 and status == _OK:
                    if one_end[x] and work[x] != FREE:
                        status = _INVALID
                    else:
                        status = _join(work, n, nprev, x, cycle, fresh)
                    if status == _DONE:
                        done = True
                        status = _OK
            if status != _OK:
                continue
            if one_end[nprev] and work[nprev] == FULL:
                continue
            for d in range(departs.size):
                x = departs[d]
                status, ends = _depart(work, n, x, one_end[x], ends, budget, cycle)
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
                complete = True
                for j in range(n):
                    if work[j] != FULL:
                        complete = False
                if complete:
                    s = acc[0] + clo
                    carry = np.uint64(1) if s < clo else np.uint64(0)
                    acc[0] = s
                    old = acc[1]
                    acc[1] = old + chi + carry
                    if acc[1] < old:
                        err[0] = 1
                continue
            # prune: a square next to v that can no longer get the edges it needs
            # (only v and its earlier neighbours lost a future neighbour this step)
            dead = False
            for k in range(check.size):
                c = work[check[k]]
                if c == FREE and check_spare[k] < (2 if cycle else 1):
                    dead = True
            if dead:
                continue
            if not cycle:
                # a square with no edge and one neighbour to come can only end the tour
                forced = ends
                for k in range(single.size):
                    if work[single[k]] == FREE:
                        forced += 1
                if forced > budget:
                    continue
            newkey = _pack(work, keep, ends, relabel)
            j = nbuf[0]
            bk[j] = newkey
            bl[j] = clo
            bh[j] = chi
            nbuf[0] = j + 1
        i += 1
    return i


@njit(cache=True, nogil=True)
def finish_all(keys, lo, hi, nslots, budget, cycle, acc, err):
    """Add to ``acc`` the states that are finished tours if every frontier square left now."""
    work = np.zeros(32, np.int64)
    no = np.zeros(32, np.bool_)
    for i in range(keys.size):
        key = keys[i]
        ends = np.int64(key >> np.uint64(60))
        for j in range(nslots):
            work[j] = np.int64((key >> np.uint64(4 * j)) & np.uint64(15))
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
            s = acc[0] + lo[i]
            carry = np.uint64(1) if s < lo[i] else np.uint64(0)
            acc[0] = s
            old = acc[1]
            acc[1] = old + (hi[i] if hi.size else np.uint64(0)) + carry
            if acc[1] < old:
                err[0] = 1
