"""Hash tables of frontier states, compiled (see :mod:`chesstours.frontier.run`).

A table is one flat ``uint64`` array of slots, each ``stride`` words: the
state's key, then its count in one limb (``stride == 2``) or two
(``stride == 3``: low and high words, ``lo + 2**64 hi``). Open addressing
with linear probing; ``EMPTY_KEY`` marks a free slot.

Counts never overflow silently. In a one-limb table a carry sets
``err[0] = NARROW_OVERFLOW`` (the caller runs the sweep again with two limbs);
in a two-limb table a carry out of the high word sets ``err[0] = OVERFLOW``
(more than 2**128 partial tours: the caller counts modulo primes instead).
With a ``modulus`` (a one-limb table, ``modulus < 2**63``) every count is kept
modulo it and nothing overflows: the residues of several primes give a count
of any size by the Chinese remainder theorem.

States are inserted in batches sorted by hash (:func:`sort_batch`), and the
home slot of a key grows with its hash (:func:`home`), so a batch walks the
table front to back instead of missing the cache on every state.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding as _llvm
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..runtime import kernel
from ..runtime.index_kernel import unsigned
from .layout import EMPTY_KEY, NARROW_OVERFLOW, OVERFLOW  # noqa: F401  (read by the kernels and their callers)

#: States ahead whose home slot :func:`insert_run` asks the processor to fetch (16 to 64 did as well; 8 less);
#: a power of two (the homes worked out ahead are kept in a ring of this size).
PREFETCH_AHEAD = 16
#: LLVM's name of its prefetch intrinsic: mangled on the type of the pointer before LLVM 15 (numba 0.59, 0.60).
_PREFETCH = "llvm.prefetch.p0" if _llvm.llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, index):
    """Ask the processor to fetch ``arr[index]`` into its caches, to write it soon (a hint: nothing else changes)."""
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], array, [args[1]], wraparound=False)
        byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
                                            _PREFETCH)
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(1), i32(3), i32(1)])  # write, keep, data
        return context.get_dummy_value()

    return sig, codegen


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def mix(key):
    """splitmix64's finaliser: every key bit moves every bit of the hash."""
    h = key ^ (key >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def home(key, pbits, size):
    """The home slot of ``key`` in a table of ``size`` slots: the hash bits below the part's, scaled.

    The top ``pbits`` bits of the hash choose the part (the table); scaling
    the next 32 bits (not masking them) keeps the home slot increasing with
    the hash and lets a table have any size, not only a power of two.
    """
    top = (mix(key) << np.uint64(pbits)) >> np.uint64(32)
    return np.int64((top * np.uint64(size)) >> np.uint64(32))


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def add_count(tab, at, stride, lo, hi, err, modulus):
    """Add ``lo + 2**64 hi`` to the count stored at ``tab[at:at + stride - 1]`` (modulo ``modulus`` if not 0)."""
    if modulus:
        r = tab[at] + lo  # both below modulus < 2**63: no carry
        tab[at] = r - modulus if r >= modulus else r
        return
    s = tab[at] + lo
    tab[at] = s
    carry = s < lo
    if stride == 2:
        if carry or hi:
            err[0] = NARROW_OVERFLOW
        return
    if carry or hi:
        old = tab[at + 1]
        t = old + hi + (np.uint64(1) if carry else np.uint64(0))
        if t < old or (t == old and carry):
            err[0] = OVERFLOW  # more than 2**128 partial tours: flag it rather than wrap
        tab[at + 1] = t


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def insert(tab, stride, size, h, key, lo, hi, fill, err, modulus):
    """Add ``lo + 2**64 hi`` partial tours to state ``key`` (modulo ``modulus`` if not 0).

    ``size`` is the table's number of slots, ``tab.size // stride``, worked
    out by the caller once for a run of inserts, and ``h`` the key's
    :func:`home` slot, which the caller has worked out too. The one-limb count
    without a modulus is added here rather than by :func:`add_count`:
    together, the two make an insert into a table in cache about twice as
    quick.
    """
    while True:
        at = h * stride
        k = tab[unsigned(at)]
        if k == EMPTY_KEY:
            tab[unsigned(at)] = key
            tab[unsigned(at + 1)] = lo
            if stride == 3:
                tab[unsigned(at + 2)] = hi
            elif hi:
                err[0] = NARROW_OVERFLOW
            fill[0] += 1
            return
        if k == key:
            if stride == 2 and not modulus:
                s = tab[unsigned(at + 1)] + lo
                tab[unsigned(at + 1)] = s
                if s < lo or hi:
                    err[0] = NARROW_OVERFLOW
            else:
                add_count(tab, at + 1, stride, lo, hi, err, modulus)
            return
        h += 1
        if h == size:
            h = 0


@kernel("frontier sweep")
@njit(cache=True, nogil=True)
def sort_batch(bk, bl, bh, nb, sk, sl, sh, obits, pbits, bounds):
    """Counting-sort the first ``nb`` new states by the top ``obits`` bits of their hash.

    ``bounds[p] .. bounds[p + 1]`` are then the states of part ``p`` (the top
    ``pbits`` bits of the hash); ``bounds`` has ``2**pbits + 1`` entries.
    ``bh`` and ``sh`` are empty where the high limbs are all zero (a sweep in
    one limb).
    """
    shift = np.uint64(64 - obits)
    start = np.zeros((1 << obits) + 1, np.int64)
    for i in range(nb):
        start[np.int64(mix(bk[i]) >> shift) + 1] += 1
    for p in range(1 << obits):
        start[p + 1] += start[p]
    per = 1 << (obits - pbits)
    for s in range(bounds.size):
        bounds[s] = start[min(s * per, 1 << obits)]
    for i in range(nb):
        p = np.int64(mix(bk[i]) >> shift)
        j = start[p]
        start[p] = j + 1
        u = unsigned(j)
        sk[u] = bk[i]
        sl[u] = bl[i]
        if bh.size:
            sh[u] = bh[i]


@kernel("frontier sweep")
@njit(cache=True, nogil=True, _nrt=False)
def insert_run(sk, sl, sh, i0, nb, tab, stride, pbits, fill, max_fill, err, modulus, homes):
    """Insert states ``i0 .. nb``; stop (returning the index) when the table holds ``max_fill``.

    ``sh`` may be empty: every high limb is then zero. The states come sorted
    by hash, a few table lines apart: the home slot of the state
    :data:`PREFETCH_AHEAD` places on is fetched while this one goes in (so
    that an insert seldom waits for its table line), and kept
    until it goes in, in ``homes`` (:data:`PREFETCH_AHEAD` slots, a power of
    two: the caller's scratch), so that each home is worked out once.
    """
    size = tab.size // stride
    ring = PREFETCH_AHEAD - 1
    for i in range(i0, min(nb, i0 + PREFETCH_AHEAD)):
        homes[i & ring] = home(sk[unsigned(i)], pbits, size)
    for i in range(i0, nb):
        if fill[0] >= max_fill:
            return i
        h = homes[i & ring]
        if i + PREFETCH_AHEAD < nb:
            ahead = home(sk[unsigned(i + PREFETCH_AHEAD)], pbits, size)
            homes[i & ring] = ahead
            prefetch(tab, ahead * stride)
        u = unsigned(i)
        insert(tab, stride, size, h, sk[u], sl[u], sh[u] if sh.size else np.uint64(0), fill, err, modulus)
    return nb


@kernel("frontier sweep")
@njit(cache=True, nogil=True, _nrt=False)
def rehash(tab, ntab, stride, pbits, fill, err):
    """Move every entry of one table into a larger empty one (in hash order: a stream)."""
    size = ntab.size // stride
    for i in range(0, tab.size, stride):
        if tab[i] != EMPTY_KEY:  # keys are distinct here: nothing is added
            insert(ntab, stride, size, home(tab[i], pbits, size), tab[i], tab[i + 1],
                   tab[i + 2] if stride == 3 else np.uint64(0), fill, err, np.uint64(0))


@kernel("frontier sweep")
@njit(cache=True, nogil=True)
def compact_into(tab, stride, keys, lo, hi):
    """Write the occupied entries of a table into dense arrays (:func:`compact`); return whether a high limb is
    not zero (``hi`` is written only then)."""
    wide = False
    if stride == 3:
        for i in range(0, tab.size, 3):
            if tab[i] != EMPTY_KEY and tab[i + 2] != 0:
                wide = True
                break
    j = 0
    for i in range(0, tab.size, stride):
        if tab[i] != EMPTY_KEY:
            u = unsigned(j)
            keys[u] = tab[i]
            lo[u] = tab[i + 1]
            if wide:
                hi[u] = tab[i + 2]
            j += 1
    return wide


def space(*sizes: int) -> list[np.ndarray]:
    """Arrays of 64-bit words (not set) for a kernel to write, made by numpy.

    numpy asks the system for huge pages for a large array, and numba does
    not: an array a kernel made would be written a 4 KiB page fault at a
    time, and the join's kernels and the sweep's compacting would spend much
    of their time in the system.
    """
    return [np.empty(n, np.uint64) for n in sizes]


_NO_LIMBS = np.zeros(0, np.uint64)


def compact(tab: np.ndarray, stride: int, fill: int) -> tuple:
    """The ``fill`` occupied entries of a table as three dense arrays: keys, low and high limbs.

    The high limbs are an empty array when all are zero (always in a one-limb
    table): eight bytes a state saved. The arrays are made by :func:`space`,
    not in the kernel.
    """
    # the high limbs are not touched, so take no memory, unless one is written
    keys, lo, hi = space(fill, fill, fill if stride == 3 else 0)
    wide = compact_into(tab, stride, keys, lo, hi)
    return keys, lo, hi if wide else _NO_LIMBS


@kernel("frontier sweep")
@njit(cache=True, inline="always")
def add_to(acc, lo, hi, err):
    """``acc[0] + 2**64 acc[1] += lo + 2**64 hi``; a carry out of ``acc[1]`` sets ``err[0] = OVERFLOW``."""
    s = acc[0] + lo
    carry = np.uint64(1) if s < lo else np.uint64(0)
    acc[0] = s
    old = acc[1]
    t = old + hi + carry
    if t < old or (t == old and carry):
        err[0] = OVERFLOW
    acc[1] = t
