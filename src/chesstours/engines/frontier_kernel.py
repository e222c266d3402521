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
def _hash(key, mask):
    # splitmix64's finaliser: every key bit moves every index bit (linear probing needs it)
    h = key ^ (key >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    h = h ^ (h >> np.uint64(31))
    return np.int64(h & mask)


@njit(cache=True)
def _insert(tab, thi, key, lo, hi, fill, err):
    """Add ``lo + 2**64 hi`` partial tours to state ``key``.

    ``tab`` interleaves keys and low limbs (one cache line a probe); the high
    limbs sit apart in ``thi`` and are touched only when non-zero or on a carry.
    """
    mask = np.uint64(thi.size - 1)
    h = _hash(key, mask)
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
        h = (h + 1) & np.int64(mask)


@njit(cache=True)
def rehash(tab, thi, ntab, nhi, fill, err):
    """Move every entry of one table into a larger empty one."""
    for i in range(thi.size):
        if tab[2 * i] != EMPTY_KEY:
            _insert(ntab, nhi, tab[2 * i], tab[2 * i + 1], thi[i], fill, err)


@njit(cache=True)
def compact(tab, thi, fill):
    """The occupied entries of a table as three dense arrays: keys, low and high limbs."""
    keys = np.empty(fill, np.uint64)
    lo = np.empty(fill, np.uint64)
    hi = np.empty(fill, np.uint64)
    j = 0
    for i in range(thi.size):
        if tab[2 * i] != EMPTY_KEY:
            keys[j] = tab[2 * i]
            lo[j] = tab[2 * i + 1]
            hi[j] = thi[i]
            j += 1
    return keys, lo, hi


@njit(cache=True, inline="always")
def _new_label(work, n):
    used = 0
    for j in range(n):
        c = work[j]
        if 0 < c <= MAX_LABEL:
            used |= 1 << c
    for lab in range(1, MAX_LABEL + 1):
        if not (used >> lab) & 1:
            return lab
    return -1


@njit(cache=True)
def _join(work, n, x, y, cycle):
    """Add the tour edge x-y to the slots ``work[:n]``; return _OK, _INVALID or _DONE."""
    cx = work[x]
    cy = work[y]
    if cx == FULL or cy == FULL:
        return _INVALID
    if cx == FREE and cy == FREE:
        lab = _new_label(work, n)
        if lab < 0:
            return _INVALID
        work[x] = lab
        work[y] = lab
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


@njit(cache=True)
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


@njit(cache=True)
def _pack(work, keep, ends, relabel):
    """The key of the kept slots, labels renumbered in slot order (the canonical form)."""
    for j in range(MAX_LABEL + 1):
        relabel[j] = 0
    nxt = 1
    key = np.uint64(ends) << np.uint64(60)
    for i in range(keep.size):
        c = work[keep[i]]
        if 0 < c <= MAX_LABEL:
            if relabel[c] == 0:
                relabel[c] = nxt
                nxt += 1
            c = relabel[c]
        key |= np.uint64(c) << np.uint64(4 * i)
    return key


@njit(cache=True)
def expand(keys, lo, hi, i0, i1, nprev, choice_a, choice_b, one_end, departs, keep, spare,
           budget, cycle, tab, thi, fill, max_fill, acc, err):
    """Extend states ``i0 .. i1`` by one square; return the index reached.

    The new square sits in slot ``nprev``; ``choice_a/b`` list the edge sets to
    try (slots of earlier neighbours, -1 for none); ``one_end[slot]`` marks
    squares that must end the tour; ``departs`` lists the slots leaving the
    frontier, ``keep`` the slots that stay, in order, and ``spare[i]`` how
    many neighbours kept slot ``i`` has still to come. Finished tours are
    added to ``acc`` (two limbs); new states go into the table ``tab``/``thi``.
    The call stops early when the table holds ``max_fill`` states.
    """
    n = nprev + 1
    codes = np.zeros(32, np.int64)
    work = np.zeros(32, np.int64)
    relabel = np.zeros(MAX_LABEL + 1, np.int64)
    i = i0
    while i < i1:
        if fill[0] >= max_fill:
            return i
        key = keys[i]
        clo = lo[i]
        chi = hi[i]
        ends0 = np.int64(key >> np.uint64(60))
        for j in range(nprev):
            codes[j] = np.int64((key >> np.uint64(4 * j)) & np.uint64(15))
        codes[nprev] = FREE
        for ch in range(choice_a.size):
            for j in range(n):
                work[j] = codes[j]
            status = _OK
            done = False
            ends = ends0
            for e in range(2):
                x = choice_a[ch] if e == 0 else choice_b[ch]
                if x >= 0 and status == _OK:
                    if one_end[x] and work[x] != FREE:
                        status = _INVALID
                    else:
                        status = _join(work, n, nprev, x, cycle)
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
            # prune: a kept square that cannot get the edges it still needs
            dead = False
            for k in range(keep.size):
                c = work[keep[k]]
                if c == FREE:
                    if spare[k] < (2 if cycle else 1):
                        dead = True
                elif c != FULL and cycle and spare[k] < 1:
                    dead = True
            if dead:
                continue
            newkey = _pack(work, keep, ends, relabel)
            _insert(tab, thi, newkey, clo, chi, fill, err)
        i += 1
    return i


@njit(cache=True)
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
            acc[1] = old + hi[i] + carry
            if acc[1] < old:
                err[0] = 1
