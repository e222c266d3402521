"""Compiled kernels of the meet in the middle (see :mod:`chesstours.frontier.join`).

Both halves end on the same middle frontier ``F``, each with its own slot
order; ``perm[i]`` is the place in a common order of a half's slot ``i``.
A state of a half then reads as

* a *degree key*: two bits a place, the square's tour edges in that half
  (0, 1 or 2), and above them the free path ends the half has used;
* its *mates*, packed four bits a place into one word: for each place with
  one edge, the place at the other end of its fragment, or the place itself
  when the other end is an end of the tour (the packed ``ENDED`` code).
  At most ``MAX_MIDDLE`` places fit.

Two states join into tours when on every place the degrees add up to two
(or to one, at an end of an open tour), and the fragments of both halves,
end to end, make one cycle (or one path). On a processor with byte
shuffles (:mod:`chesstours.frontier.shuffle_kernel`) every partner is tested in
them, sixteen places at a time (two partners at a time with AVX2). Elsewhere a partner that joins some place
to the same place as the state closes a cycle of two fragments (or, at a
tour end, the whole path) too soon: one word-parallel test of the two
words of mates drops it; the others are walked four at a time
(:func:`_cycles4`, :func:`_paths4`).
"""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np
from numba import njit

from ...runtime import kernel
from ..kernel import pack, unpack
from ..layout import (  # noqa: F401  (globals of the kernels)
    EMPTY,
    ENDED,
    FREE,
    FULL,
    MAX_LABEL,
    MAX_MIDDLE,
    OVERFLOW,
    PACKED_FULL,
    PLACE,
    RADIX,
)
from ..shuffle_kernel import (
    SHUFFLE,
    SHUFFLE_TWO,
    cycles2_of,
    cycles_of,
    cycles_two_of,
    paths2_of,
    paths_of,
    paths_two_of,
    spread,
)
from ..table_kernel import add_to, mix, space


@kernel("frontier join")
@njit(cache=True, inline="always")
def read_state(key, nslots, perm, codes):
    """The degree key of ``key`` (degrees on the common places, ends above them) and its packed mates.

    ``codes`` is scratch space. Without a branch on the codes, which are
    random (a branch on them mispredicts): the places of each label are
    XORed together in one register, four bits a label, so that a place's
    mate is its place XOR its label's nibble; the nibble of ``ENDED`` stays
    zero, so a place whose fragment runs to a tour end is its own mate.
    """
    ends = unpack(key, nslots, codes)
    pair = np.uint64(0)
    for i in range(nslots):
        c = codes[i]
        label = np.uint64(c != FREE and c <= MAX_LABEL)
        pair ^= (np.uint64(perm[i]) * label) << np.uint64(4 * c)
    dkey = np.uint64(0)
    mates = np.uint64(0)
    for i in range(nslots):
        c = codes[i]
        p = np.uint64(perm[i])
        one = np.uint64(c != FREE and c != FULL)
        dkey |= (one + (np.uint64(c == FULL) << np.uint64(1))) << (p << np.uint64(1))
        m = p ^ ((pair >> np.uint64(4 * c)) & np.uint64(15))
        mates |= (m * one) << (p << np.uint64(2))
    return dkey | (np.uint64(ends) << np.uint64(2 * nslots)), mates


@kernel("frontier join")
@njit(cache=True, inline="always")
def mate(mates, p):
    """The mate of place ``p`` in packed ``mates`` (``p`` itself: the fragment runs to an end of the tour)."""
    return np.int64((mates >> np.uint64(4 * p)) & np.uint64(15))


@kernel("frontier join")
@njit(cache=True)
def partner_key(dkey, nslots, total_ends):
    """The degree key a partner must have: ``2 - d`` on every place, and the path ends still free."""
    used = (np.uint64(1) << np.uint64(2 * nslots)) - np.uint64(1)
    low = dkey & np.uint64(0x5555555555555555) & used
    flip = ~(low << np.uint64(1)) & np.uint64(0xAAAAAAAAAAAAAAAA) & used
    ends = np.uint64(total_ends) - (dkey >> np.uint64(2 * nslots))
    return ((dkey & used) ^ flip) | (ends << np.uint64(2 * nslots))


@kernel("frontier join")
@njit(cache=True, inline="always")
def in_group(dkey, group, ngroups):
    """Whether the degree key ``dkey`` falls in ``group`` of ``ngroups`` (a join in several passes)."""
    return ngroups == 1 or np.int64(mix(dkey) >> np.uint64(40)) % ngroups == group


@kernel("frontier join")
@njit(cache=True, nogil=True)
def select_group(keys, cnt, nslots, perm, total_ends, group, ngroups):
    """The states of ``keys`` (and their counts) whose partners' degree keys fall in ``group``."""
    codes = np.zeros(32, np.int64)
    take = np.zeros(keys.size, np.bool_)
    n = 0
    for i in range(keys.size):
        d, _ = read_state(keys[i], nslots, perm, codes)
        if in_group(partner_key(d, nslots, total_ends), group, ngroups):
            take[i] = True
            n += 1
    out_keys = np.empty(n, np.uint64)
    out_cnt = np.empty(n, np.uint64)
    j = 0
    for i in range(keys.size):
        if take[i]:
            out_keys[j] = keys[i]
            out_cnt[j] = cnt[i]
            j += 1
    return out_keys, out_cnt


@kernel("frontier join")
@njit(cache=True, nogil=True)
def _radix_pass(src_k, src_a, src_b, dst_k, dst_a, dst_b, shift):
    """One pass of :func:`radix_sort`: the arrays ``src_*`` into ``dst_*``, stably, by 11 bits from ``shift``."""
    mask = np.uint64(2047)
    counts = np.zeros(2049, np.int64)
    for i in range(src_k.size):
        counts[np.int64((src_k[i] >> np.uint64(shift)) & mask) + 1] += 1
    for d in range(2048):
        counts[d + 1] += counts[d]
    for i in range(src_k.size):
        x = src_k[i]
        d = np.int64((x >> np.uint64(shift)) & mask)
        j = counts[d]
        counts[d] = j + 1
        dst_k[j] = x
        dst_a[j] = src_a[i]
        dst_b[j] = src_b[i]


def radix_sort(keys, a, b, bits, k2, a2, b2):
    """Sort ``keys`` (whose values fit in ``bits`` bits) in place, and ``a`` and ``b`` with them: an LSD radix sort.

    Each pass reads the three arrays in order and writes each into 2,048
    runs: no state is fetched from a random place (sorting an order of
    indices and gathering after it misses the cache on every state).
    ``k2``, ``a2``, ``b2``: space for the passes, as long as ``keys``, made by
    the caller with numpy (see :func:`~chesstours.frontier.table_kernel.space`).
    """
    n = keys.size
    k2 = k2[:n]
    a2 = a2[:n]
    b2 = b2[:n]
    passes = (bits + 10) // 11
    for p in range(passes):
        if p % 2 == 0:
            _radix_pass(keys, a, b, k2, a2, b2, 11 * p)
        else:
            _radix_pass(k2, a2, b2, keys, a, b, 11 * p)
    if passes % 2:
        for i in range(n):  # a loop: a slice assignment takes seconds to compile
            keys[i] = k2[i]
            a[i] = a2[i]
            b[i] = b2[i]


radix_sort = kernel("frontier join")(njit(cache=True, nogil=True)(radix_sort))


def unfold(keys: np.ndarray, cnt: np.ndarray, nslots: int, image: np.ndarray) -> tuple:
    """The states of a half kept one of each mirror pair (see ``Step.mirror``), each pair whole again.

    ``image[i]``: the slot of the image of slot ``i``'s square. A state that is its
    own image keeps its count; any other stands for itself and its image,
    which share its count (even: the two were reached equally often).
    Returns keys, counts, and whether a count was odd (a broken symmetry).
    """
    out_keys, out_cnt = space(2 * keys.size, 2 * keys.size)
    j, odd = unfold_into(keys, cnt, nslots, image, out_keys, out_cnt)
    return out_keys[:j], out_cnt[:j], odd


@kernel("frontier join")
@njit(cache=True, nogil=True)
def unfold_into(keys, cnt, nslots, image, out_keys, out_cnt):
    """:func:`unfold` into ``out_keys`` and ``out_cnt`` (twice as long as ``keys``): the states written, and
    whether a count was odd."""
    n = keys.size
    codes = np.zeros(32, np.int64)
    odd = False
    j = 0
    for i in range(n):
        ends = unpack(keys[i], nslots, codes)
        other = pack(codes, image, ends)
        c = cnt[i]
        out_keys[j] = keys[i]
        if other == keys[i]:
            out_cnt[j] = c
            j += 1
            continue
        odd |= (c & np.uint64(1)) != np.uint64(0)
        out_cnt[j] = c >> np.uint64(1)
        out_keys[j + 1] = other
        out_cnt[j + 1] = c >> np.uint64(1)
        j += 2
    return j, odd


@kernel("frontier join")
@njit(cache=True, nogil=True)
def hand_over(keys, slots):
    """Read the final states of a half that stopped before its hand-overs as those steps would leave them.

    ``slots``: the slots handed over (:class:`chesstours.frontier.plan.HandOver`): ``FULL`` there turns
    ``FREE``, in place; labels stay as they are, and so does their numbering. Returns how many states had a
    handed slot ``FREE``, which the hand-over would have dropped (none: the plan rules them out earlier).
    """
    bad = 0
    handed = 0
    top = 0
    for s in slots:
        handed |= 1 << s
        top = max(top, s + 1)
    for i in range(keys.size):
        key = keys[i]
        rest = key // np.uint64(3)
        for s in range(top):  # the digits in turn: a division by the constant 11 is a multiplication
            q = rest // np.uint64(RADIX)
            code = rest - q * np.uint64(RADIX)
            rest = q
            if (handed >> s) & 1:
                if code == np.uint64(PACKED_FULL):
                    key -= np.uint64(PACKED_FULL) * PLACE[s]
                elif code == np.uint64(FREE):
                    bad += 1
        keys[i] = key
    return bad


def read_half(keys: np.ndarray, cnt: np.ndarray, nslots: int, perm: np.ndarray, total_ends: int) -> tuple:
    """Read states of the indexed half: the degree key a partner must have, the packed mates, the count.

    ``total_ends``: the free ends of an open tour (0 for a cycle), shared by
    the halves. The parts of a half are read on every core, then
    :func:`index_parts` sorts them together.
    """
    want, mates, counts = space(keys.size, keys.size, keys.size)
    read_into(keys, cnt, nslots, perm, total_ends, want, mates, counts)
    return want, mates, counts


@kernel("frontier join")
@njit(cache=True, nogil=True)
def read_into(keys, cnt, nslots, perm, total_ends, want, mates, counts):
    """:func:`read_half` into ``want``, ``mates`` and ``counts``."""
    codes = np.zeros(32, np.int64)
    for i in range(keys.size):
        d, mates[i] = read_state(keys[i], nslots, perm, codes)
        want[i] = partner_key(d, nslots, total_ends)
        counts[i] = cnt[i]


#: The buckets of :func:`index_parts`, by the top bits of a degree key's hash: eight. Few, because numpy maps a
#: large array in huge pages (2 MiB), and writing into a bucket brings in the whole page around it: with a
#: thousand buckets, the first part scattered made the whole index resident at once. And so few bits that a degree
#: key (at most 34 bits) and its bucket still sort in the passes of :func:`radix_sort` the key took alone.
BUCKET_BITS = 3


@kernel("frontier join")
@njit(cache=True, inline="always")
def _bucket(dkey):
    """The bucket of a degree key in :func:`index_parts`: the top bits of its hash."""
    return np.int64(mix(dkey) >> np.uint64(64 - BUCKET_BITS))


@kernel("frontier join")
@njit(cache=True, nogil=True)
def bucket_sizes(want, sizes):
    """Add to ``sizes[b + 1]`` the degree keys of ``want`` in bucket ``b`` (see :func:`scatter`)."""
    for i in range(want.size):
        sizes[_bucket(want[i]) + 1] += 1


@kernel("frontier join")
@njit(cache=True, nogil=True)
def scatter(want, mates, counts, to_want, to_mates, to_counts, at):
    """Write the read states into their buckets (by the hash of their degree keys), bucket ``b`` from ``at[b]`` on.

    ``at`` moves past what is written: each part of a half has its own share of each bucket, and the parts are
    written side by side, each freed once written.
    """
    for i in range(want.size):
        b = _bucket(want[i])
        j = at[b]
        to_want[j] = want[i]
        to_mates[j] = mates[i]
        to_counts[j] = counts[i]
        at[b] = j + 1


@kernel("frontier join")
@njit(cache=True, nogil=True)
def run_table(want):
    """A hash table from each degree key of ``want`` (sorted in runs, :func:`index_parts`) to the first index of
    its run."""
    n = want.size
    runs = 0
    for i in range(n):
        if i == 0 or want[i] != want[i - 1]:
            runs += 1
    size = 1
    while size < 2 * runs + 2:
        size *= 2
    table = np.full(2 * size, EMPTY, np.uint64)
    for i in range(n):
        if i == 0 or want[i] != want[i - 1]:
            h = np.int64(mix(want[i]) & np.uint64(size - 1))
            while table[2 * h] != EMPTY:
                h = (h + 1) & (size - 1)
            table[2 * h] = want[i]
            table[2 * h + 1] = np.uint64(i)
    return table


def index_parts(read: list, nslots: int, pool: Executor | None = None) -> tuple:
    """The index of a half from its states read part by part (:func:`read_half`), each part freed (its place in
    ``read`` set to None) as it is written into the index's arrays.

    Returns ``want``, packed ``mates`` and ``counts``, sorted by degree key
    (``2 * nslots + 2`` bits) so that the states of one degree key make one
    run, and a hash table from a degree key to the first index of its run
    (:func:`run_table`). Its arrays take 24 bytes a state. Gathering the parts
    and sorting them whole would take as much again, twice: the parts beside
    their concatenation, then a sort's buffers beside it. Here the parts go straight into
    buckets by the hash of their degree keys, each part into its own share of
    each bucket, and each bucket is sorted alone: the arrays are written as
    the parts are freed, and the buffers are a bucket's. On ``pool``'s
    threads, the parts are written and the buckets sorted side by side.
    """
    buckets = 1 << BUCKET_BITS
    sizes = np.zeros((len(read), buckets + 1), np.int64)
    for k, (want, _, _) in enumerate(read):
        bucket_sizes(want, sizes[k])
    sizes = sizes[:, 1:]
    bounds = np.concatenate((np.zeros(1, np.int64), np.cumsum(sizes.sum(axis=0))))
    at = bounds[:-1] + np.cumsum(sizes, axis=0) - sizes  # where part k writes into bucket b
    into = space(*[int(bounds[-1])] * 3)
    each = map if pool is None else pool.map

    def write(k: int) -> None:
        scatter(*read[k], *into, at[k].copy())
        read[k] = None

    def sort(b: int) -> None:
        lo, hi = bounds[b], bounds[b + 1]
        if hi - lo > 1:
            radix_sort(into[0][lo:hi], into[1][lo:hi], into[2][lo:hi], 2 * nslots + 2, *space(*[hi - lo] * 3))

    list(each(write, range(len(read))))
    list(each(sort, range(buckets)))
    return (*into, run_table(into[0]))


@kernel("frontier join")
@njit(cache=True, inline="always")
def find_run(table, dkey):
    """The first index of the run of ``dkey`` in the indexed half, or -1."""
    size = table.size // 2
    h = np.int64(mix(dkey) & np.uint64(size - 1))
    while True:
        k = table[2 * h]
        if k == dkey:
            return np.int64(table[2 * h + 1])
        if k == EMPTY:
            return np.int64(-1)
        h = (h + 1) & (size - 1)


@kernel("frontier join")
@njit(cache=True, inline="always")
def one_cycle(ma, mb, start, k):
    """Whether the fragments of two halves (packed mates ``ma``, ``mb``), end to end, make one cycle.

    The walk from the fragment end ``start`` crosses one fragment of each
    half a step; the fragments make one cycle when it is back after ``k``
    steps, ``k`` the fragments of a half. The walk takes at most ``k`` steps,
    so that mates that are not pairs (a fault elsewhere) end it too.
    """
    p = start
    for steps in range(1, k + 1):
        p = mate(mb, mate(ma, p))
        if p == start:
            return steps == k
    return False


@kernel("frontier join")
@njit(cache=True, inline="always")
def one_path(ma, mb, start, on_b, nends):
    """Whether the fragments of two halves make a single path through all ``nends`` fragment ends.

    The walk starts at ``start``, a place whose fragment in one half runs to
    an end of the tour, along the other half's fragment (``on_b``: the
    indexed half's), and must reach the other end of the tour having met
    every place.
    """
    p = start
    seen = 1
    while True:
        m = mate(mb, p) if on_b else mate(ma, p)
        if m == p:
            return seen == nends
        p = m
        seen += 1
        on_b = not on_b
        if seen > nends:
            return False


@kernel("frontier join")
@njit(cache=True, inline="always")
def _nib(word, p):
    """Nibble ``p`` of ``word`` (both ``uint64``): :func:`mate` without the conversions."""
    return (word >> (p << np.uint64(2))) & np.uint64(15)


@kernel("frontier join")
@njit(cache=True, inline="always")
def _cycles4(ma, b0, b1, b2, b3, start, k):
    """:func:`one_cycle` for four partners at once (``start`` a ``uint64``).

    The four walks are interleaved and run their whole length without a
    branch: one walk is a chain of dependent shifts, so four run in the time
    of one, and a walk that closes early is marked instead of left (the exit
    of a walk mispredicts where it falls at random).
    """
    p0 = p1 = p2 = p3 = start
    bad0 = bad1 = bad2 = bad3 = False
    for _ in range(k - 1):
        p0 = _nib(b0, _nib(ma, p0))
        p1 = _nib(b1, _nib(ma, p1))
        p2 = _nib(b2, _nib(ma, p2))
        p3 = _nib(b3, _nib(ma, p3))
        bad0 |= p0 == start
        bad1 |= p1 == start
        bad2 |= p2 == start
        bad3 |= p3 == start
        if bad0 & bad1 & bad2 & bad3:
            return False, False, False, False
    p0 = _nib(b0, _nib(ma, p0))
    p1 = _nib(b1, _nib(ma, p1))
    p2 = _nib(b2, _nib(ma, p2))
    p3 = _nib(b3, _nib(ma, p3))
    return (p0 == start) & ~bad0, (p1 == start) & ~bad1, (p2 == start) & ~bad2, (p3 == start) & ~bad3


@kernel("frontier join")
@njit(cache=True, inline="always")
def _paths4(ma, b0, b1, b2, b3, s0, s1, s2, s3, first_b, nends):
    """:func:`one_path` for four partners at once, from the places ``s0 .. s3`` (``uint64``).

    ``first_b``: the first step is along the indexed half's fragment. As in
    :func:`_cycles4`, the walks are interleaved and branch-free: each takes
    ``nends`` steps and is a path when the first place its fragment does not
    leave is met at the last step.
    """
    p0, p1, p2, p3 = s0, s1, s2, s3
    bad0 = bad1 = bad2 = bad3 = False
    on_b = first_b
    for _ in range(nends - 1):
        m0 = _nib(b0 if on_b else ma, p0)
        m1 = _nib(b1 if on_b else ma, p1)
        m2 = _nib(b2 if on_b else ma, p2)
        m3 = _nib(b3 if on_b else ma, p3)
        bad0 |= m0 == p0
        bad1 |= m1 == p1
        bad2 |= m2 == p2
        bad3 |= m3 == p3
        p0, p1, p2, p3 = m0, m1, m2, m3
        on_b = not on_b
    return ((_nib(b0 if on_b else ma, p0) == p0) & ~bad0, (_nib(b1 if on_b else ma, p1) == p1) & ~bad1,
            (_nib(b2 if on_b else ma, p2) == p2) & ~bad2, (_nib(b3 if on_b else ma, p3) == p3) & ~bad3)


#: Each place's own number in its nibble: a word of mates XOR it has a zero nibble where a fragment runs to a tour end.
_SELF = np.uint64(0xFEDCBA9876543210)
_ONES = np.uint64(0x1111111111111111)
_HIGHS = np.uint64(0x8888888888888888)


#: The high bit of the nibbles of the places with bit ``b`` set, ``b`` = 0 .. 3: a flag's place, bit by bit.
_PLACE_BITS = (np.uint64(0x8080808080808080), np.uint64(0x8800880088008800), np.uint64(0x8888000088880000),
               np.uint64(0x8888888800000000))


@kernel("frontier join")
@njit(cache=True, inline="always")
def _zero_nibbles(x, places):
    """The high bits of the zero nibbles of ``x`` among ``places`` (their nibbles' high bits), the lowest exact.

    The other nibbles are made nonzero first; the borrow of the subtraction
    can then flag a nibble above a zero one, never below it: the word is 0
    exactly where no place's nibble is, and its lowest flag is a zero nibble.
    """
    x |= ~places & _HIGHS
    return (x - _ONES) & ~x & _HIGHS


@kernel("frontier join")
@njit(cache=True, inline="always")
def _first_end(mb, ends_mask):
    """The first place of ``ends_mask`` (its nibbles' high bits) whose fragment in ``mb`` runs to a tour end.

    Returns the place and whether there is one: the lowest zero nibble of
    ``mb ^ _SELF`` (:func:`_zero_nibbles`).
    """
    t = _zero_nibbles(mb ^ _SELF, ends_mask)
    low = t & (~t + np.uint64(1))
    p = np.uint64(0)
    for b in range(4):
        p |= np.uint64((low & _PLACE_BITS[b]) != np.uint64(0)) << np.uint64(b)
    return p, t != np.uint64(0)


@kernel("frontier join")
@njit(cache=True, inline="always")
def _add_if(total, ok, c):
    """``total += c`` where ``ok`` (two limbs, the carry into the second)."""
    c = c if ok else np.uint64(0)
    s = total[0] + c
    total[1] += np.uint64(1) if s < c else np.uint64(0)
    total[0] = s


@kernel("frontier join")
@njit(cache=True, inline="always")
def _add_masked(lo, hi, c):
    """``lo + 2**64 hi + c``, two limbs held in registers (:func:`_add_if` adds into an array), ``c`` already
    masked to zero where the pair makes no tour (a select on the answer would be a branch, which mispredicts)."""
    s = lo + c
    return s, hi + (np.uint64(1) if s < c else np.uint64(0))


#: Partners of a run filtered at a time before their walks (:func:`join_states`).
CHUNK = 256


@kernel("frontier join")
@njit(cache=True, inline="always")
def _walk(ma, mates_b, counts_b, cand, m, cycle, start, mark, nends, emask, total):
    """Add to ``total`` the counts of the partners ``cand[:m]`` whose fragments and ``ma``'s make one cycle (path).

    ``start``: a place of a fragment end; ``mark``: a place whose fragment in
    ``ma`` runs to a tour end, or -1 (the indexed half holds both tour ends);
    ``emask``: the high bits of the nibbles of the ``nends`` fragment ends.
    Four partners a step (:func:`_cycles4`, :func:`_paths4`), the rest one by one.
    """
    c = 0
    sp = np.uint64(start)
    sm = np.uint64(max(mark, 0))
    first_b = mark >= 0
    while c + 4 <= m:
        j0, j1, j2, j3 = cand[c], cand[c + 1], cand[c + 2], cand[c + 3]
        b0, b1, b2, b3 = mates_b[j0], mates_b[j1], mates_b[j2], mates_b[j3]
        if cycle:
            ok0, ok1, ok2, ok3 = _cycles4(ma, b0, b1, b2, b3, sp, nends // 2)
        else:
            s0 = s1 = s2 = s3 = sm
            f0 = f1 = f2 = f3 = True
            if not first_b:
                s0, f0 = _first_end(b0, emask)
                s1, f1 = _first_end(b1, emask)
                s2, f2 = _first_end(b2, emask)
                s3, f3 = _first_end(b3, emask)
            ok0, ok1, ok2, ok3 = _paths4(ma, b0, b1, b2, b3, s0, s1, s2, s3, first_b, nends)
            ok0 &= f0
            ok1 &= f1
            ok2 &= f2
            ok3 &= f3
        _add_if(total, ok0, counts_b[j0])
        _add_if(total, ok1, counts_b[j1])
        _add_if(total, ok2, counts_b[j2])
        _add_if(total, ok3, counts_b[j3])
        c += 4
    while c < m:
        j = cand[c]
        mb = mates_b[j]
        if cycle:
            ok = one_cycle(ma, mb, start, nends // 2)
        elif first_b:
            ok = one_path(ma, mb, mark, True, nends)
        else:
            s0, f0 = _first_end(mb, emask)
            ok = f0 and one_path(ma, mb, np.int64(s0), False, nends)
        _add_if(total, ok, counts_b[j])
        c += 1


@kernel("frontier join")
@njit(cache=True, inline="always")
def mul_add(acc, a, b, err):
    """``acc += a * b`` for 64-bit ``a`` and ``b``, into two limbs; a carry out sets ``err``."""
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a0, a1 = a & mask, a >> s32
    b0, b1 = b & mask, b >> s32
    p00 = a0 * b0
    p01 = a0 * b1
    p10 = a1 * b0
    p11 = a1 * b1
    mid = (p00 >> s32) + (p01 & mask) + (p10 & mask)
    lo = (p00 & mask) | (mid << s32)
    hi = p11 + (p01 >> s32) + (p10 >> s32) + (mid >> s32)
    add_to(acc, lo, hi, err)


@kernel("frontier join")
@njit(cache=True, inline="always")
def mul_add_wide(acc, t, c, err):
    """``acc += (t[0] + 2**64 t[1]) * c``, into two limbs; a carry out sets ``err``."""
    mul_add(acc, t[0], c, err)
    if t[1]:
        high = np.zeros(2, np.uint64)
        mul_add(high, t[1], c, err)
        old = acc[1]
        acc[1] = old + high[0]
        if high[1] or acc[1] < old:
            err[0] = OVERFLOW


#: States of one degree key laid out together for the join's tiles (:func:`join_group`).
TILE_STATES = 256
#: Partners of a run tested against every tile of states before the next (:func:`join_group`): 16 KiB of mates
#: and counts, which stay in the first-level cache while the tiles go by.
BLOCK = 1024


@kernel("frontier join")
@njit(cache=True, nogil=True)
def join_states(keys, counts, nslots, perm, cycle, want, mates_b, counts_b, table, group, ngroups, acc, err, work,
                room):
    """Add to ``acc`` the tours made by each state of ``keys`` with its partners in the indexed half.

    Only states whose degree key falls in ``group`` of ``ngroups`` are joined
    (the indexed half holds that group alone). ``work[0]`` counts the pairs
    tried (the work done). ``room``: six rows as long as ``keys``, made with
    numpy (:func:`~chesstours.frontier.table_kernel.space`), for the states read and their sort.

    The states are read, then sorted as the index is (by the bucket of
    their degree keys, then by degree key: :func:`index_parts`), so that they
    meet their runs of partners in the order of the index: each run is found
    once and read front to back, rather than with four misses of the cache a
    state, which would take most of the join's time. The states of one degree key then
    go against their run together (:func:`join_group`).
    """
    codes = np.zeros(32, np.int64)
    total = np.zeros(2, np.uint64)
    cand = np.empty(CHUNK, np.int64)
    # a mask by the cycles of B o A (:func:`cycles_of`): all ones at one cycle of the fragments, two cycles of B o A
    # (closed), or at one path, one cycle of B o A; a table, as a select would be made a branch, which mispredicts
    ones = np.zeros(MAX_MIDDLE + 1, np.uint64)
    ones[2 if cycle else 1] = ~np.uint64(0)
    tile = np.zeros((4, TILE_STATES), np.uint64)
    bits = 2 * nslots + 2
    low = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    n = 0
    dks = room[0]
    mas = room[1]
    cnt = room[2]
    for i in range(keys.size):
        d, ma = read_state(keys[i], nslots, perm, codes)
        if in_group(d, group, ngroups):
            dks[n] = (np.uint64(_bucket(d)) << np.uint64(bits)) | d
            mas[n] = ma
            cnt[n] = counts[i]
            n += 1
    dks, mas, cnt = dks[:n], mas[:n], cnt[:n]
    radix_sort(dks, mas, cnt, bits + BUCKET_BITS, room[3], room[4], room[5])
    tried = 0
    i = 0
    while i < n:
        g1 = i + 1
        while g1 < n and dks[g1] == dks[i]:
            g1 += 1
        d = dks[i] & low
        j = find_run(table, d)
        nends = 0
        start = -1
        emask = np.uint64(0)
        active = np.uint64(0)
        for p in range(nslots):
            if (d >> np.uint64(2 * p)) & np.uint64(3) == np.uint64(1):
                nends += 1
                emask |= np.uint64(8) << np.uint64(4 * p)
                active |= np.uint64(1) << np.uint64(p)
                start = p
        if j < 0 or nends == 0:
            i = g1
            continue
        j1 = j
        while j1 < want.size and want[j1] == d:
            j1 += 1
        tried += (j1 - j) * (g1 - i)
        if SHUFFLE_TWO:  # states of the key two a shuffle, against blocks of the run
            join_group(mas, cnt, i, g1, mates_b, counts_b, j, j1, active, cycle, ones, tile, total, acc, err)
        else:
            for a in range(i, g1):
                ma = mas[a]
                if SHUFFLE:  # every partner, sixteen places at a time (:mod:`chesstours.frontier.shuffle_kernel`)
                    a_lo, a_hi, fixed_lo, fixed_hi = spread(ma, active)
                    s_lo, s_hi = _against_run(a_lo, a_hi, mates_b[j:j1], counts_b[j:j1], fixed_lo, fixed_hi, active,
                                              cycle, ones, False)
                    total[0] = s_lo
                    total[1] = s_hi
                else:
                    mark = -1
                    for p in range(nslots):
                        if (active >> np.uint64(p)) & np.uint64(1) and mate(ma, p) == p:
                            mark = p
                    total[0] = 0
                    total[1] = 0
                    _walk_run(ma, mates_b, counts_b, cand, j, j1, cycle, start, mark, nends, emask, total)
                if total[0] or total[1]:
                    mul_add_wide(acc, total, cnt[a], err)
        i = g1
    work[0] += tried


@kernel("frontier join")
@njit(cache=True, inline="always")
def _against_run(a_lo, a_hi, mb, cb, fixed_lo, fixed_hi, active, cycle, ones, two):
    """The counts (two limbs) of the partners of ``mb`` (their mates; ``cb`` their counts) whose fragments and one
    state's (spread: ``a_lo``, ``a_hi``) make one cycle (path), sixteen places a shuffle; ``two``: two partners a
    shuffle (AVX2).

    The partners are views of the run, indexed from 0: an index that cannot be negative is read without numba's
    wraparound test (a run indexed from ``j`` would keep its size and the test in the loop, and push the
    loop's values out of the registers).
    """
    s_lo = np.uint64(0)
    s_hi = np.uint64(0)
    x = 0
    if two:
        while x + 2 <= mb.size:
            k2 = (cycles2_of(a_lo, a_hi, mb[x], mb[x + 1], fixed_lo, fixed_hi, active) if cycle
                  else paths2_of(a_lo, a_hi, mb[x], mb[x + 1], fixed_lo, fixed_hi, active))
            s_lo, s_hi = _add_masked(s_lo, s_hi, cb[x] & ones[k2 & np.uint64(255)])
            s_lo, s_hi = _add_masked(s_lo, s_hi, cb[x + 1] & ones[k2 >> np.uint64(8)])
            x += 2
    for y in range(x, mb.size):
        k = (cycles_of(a_lo, a_hi, mb[y], fixed_lo, fixed_hi, active) if cycle
             else paths_of(a_lo, a_hi, mb[y], fixed_lo, fixed_hi, active))
        s_lo, s_hi = _add_masked(s_lo, s_hi, cb[y] & ones[k])
    return s_lo, s_hi


@kernel("frontier join")
@njit(cache=True, inline="always")
def _two_against_run(x_lo, x_hi, y_lo, y_hi, mb, cb, fixed_lo, fixed_hi, active, cycle, ones):
    """:func:`_against_run` for two states of one degree key at once (AVX2): the partners' mates are laid out
    once for both. Their counts, each in two limbs."""
    s0l = np.uint64(0)
    s0h = np.uint64(0)
    s1l = np.uint64(0)
    s1h = np.uint64(0)
    for x in range(mb.size):
        b = mb[x]
        k2 = (cycles_two_of(x_lo, x_hi, y_lo, y_hi, b, fixed_lo, fixed_hi, active) if cycle
              else paths_two_of(x_lo, x_hi, y_lo, y_hi, b, fixed_lo, fixed_hi, active))
        c = cb[x]
        s0l, s0h = _add_masked(s0l, s0h, c & ones[k2 & np.uint64(255)])
        s1l, s1h = _add_masked(s1l, s1h, c & ones[k2 >> np.uint64(8)])
    return s0l, s0h, s1l, s1h


@kernel("frontier join")
@njit(cache=True, inline="always")
def _four_against_run(tile, a, mb, cb, fixed_lo, fixed_hi, active, cycle, ones):
    """:func:`_two_against_run` for the four states ``a .. a + 3`` of ``tile``, added to their sums there: each
    partner's mates laid out once for four."""
    x_lo, x_hi, y_lo, y_hi = tile[0, a], tile[1, a], tile[0, a + 1], tile[1, a + 1]
    u_lo, u_hi, v_lo, v_hi = tile[0, a + 2], tile[1, a + 2], tile[0, a + 3], tile[1, a + 3]
    s0l = s0h = s1l = s1h = s2l = s2h = s3l = s3h = np.uint64(0)
    for x in range(mb.size):
        b = mb[x]
        if cycle:
            k2 = cycles_two_of(x_lo, x_hi, y_lo, y_hi, b, fixed_lo, fixed_hi, active)
            k3 = cycles_two_of(u_lo, u_hi, v_lo, v_hi, b, fixed_lo, fixed_hi, active)
        else:
            k2 = paths_two_of(x_lo, x_hi, y_lo, y_hi, b, fixed_lo, fixed_hi, active)
            k3 = paths_two_of(u_lo, u_hi, v_lo, v_hi, b, fixed_lo, fixed_hi, active)
        c = cb[x]
        s0l, s0h = _add_masked(s0l, s0h, c & ones[k2 & np.uint64(255)])
        s1l, s1h = _add_masked(s1l, s1h, c & ones[k2 >> np.uint64(8)])
        s2l, s2h = _add_masked(s2l, s2h, c & ones[k3 & np.uint64(255)])
        s3l, s3h = _add_masked(s3l, s3h, c & ones[k3 >> np.uint64(8)])
    _add_to_tile(tile, a, s0l, s0h)
    _add_to_tile(tile, a + 1, s1l, s1h)
    _add_to_tile(tile, a + 2, s2l, s2h)
    _add_to_tile(tile, a + 3, s3l, s3h)


@kernel("frontier join")
@njit(cache=True, inline="always")
def _add_to_tile(tile, a, lo, hi):
    """Add ``lo + 2**64 hi`` to the sum of state ``a`` of ``tile`` (rows 2 and 3)."""
    s = tile[2, a] + lo
    tile[3, a] += hi + (np.uint64(1) if s < lo else np.uint64(0))
    tile[2, a] = s


@kernel("frontier join")
@njit(cache=True, inline="always")
def join_group(mas, cnt, i, g1, mates_b, counts_b, j, j1, active, cycle, ones, tile, total, acc, err):
    """Add to ``acc`` the tours of the states ``i .. g1`` (mates ``mas``, counts ``cnt``), all of one degree key,
    with its run of partners ``j .. j1`` (fragment ends ``active``), where the processor has AVX2.

    The states are laid out in tiles of :data:`TILE_STATES` (``tile``: their spread mates, then their sums), and
    each block of :data:`BLOCK` partners goes against the whole tile, four states at a time and two a shuffle
    (:data:`~chesstours.frontier.shuffle_kernel.cycles_two_of`): a partner's mates are read and laid out once for four
    states, not once for each, and the block is read from the first-level cache, not from memory for each
    state: on 8x8 closed, whose 14.2 billion pairs are most of its join, about 0.7 of the time of one state at a
    time (``python benchmarks/bench_frontier.py --kernels 8x8 --closed``).
    """
    for t0 in range(i, g1, TILE_STATES):
        m = min(g1, t0 + TILE_STATES) - t0
        fixed_lo = np.uint64(0)
        fixed_hi = np.uint64(0)
        for a in range(m):
            a_lo, a_hi, fixed_lo, fixed_hi = spread(mas[t0 + a], active)  # the same places fixed for the key
            tile[0, a] = a_lo
            tile[1, a] = a_hi
            tile[2, a] = 0
            tile[3, a] = 0
        for b0 in range(j, j1, BLOCK):
            mb = mates_b[b0:min(j1, b0 + BLOCK)]  # views, indexed from 0 (see _against_run)
            cb = counts_b[b0:min(j1, b0 + BLOCK)]
            a = 0
            while a + 4 <= m:
                _four_against_run(tile, a, mb, cb, fixed_lo, fixed_hi, active, cycle, ones)
                a += 4
            if a + 2 <= m:
                s0l, s0h, s1l, s1h = _two_against_run(tile[0, a], tile[1, a], tile[0, a + 1], tile[1, a + 1], mb, cb,
                                                      fixed_lo, fixed_hi, active, cycle, ones)
                _add_to_tile(tile, a, s0l, s0h)
                _add_to_tile(tile, a + 1, s1l, s1h)
                a += 2
            if a < m:
                lo, hi = _against_run(tile[0, a], tile[1, a], mb, cb, fixed_lo, fixed_hi, active, cycle, ones, True)
                _add_to_tile(tile, a, lo, hi)
        for a in range(m):
            if tile[2, a] or tile[3, a]:
                total[0] = tile[2, a]
                total[1] = tile[3, a]
                mul_add_wide(acc, total, cnt[t0 + a], err)


@kernel("frontier join")
@njit(cache=True, inline="always")
def _walk_run(ma, mates_b, counts_b, cand, j, j1, cycle, start, mark, nends, emask, total):
    """Add to ``total`` the counts of the partners ``j .. j1`` of the run whose fragments and ``ma``'s make one
    cycle (path), walked: where the processor has no byte shuffles."""
    # Partners whose fragments join some place to the same place as this state's close a cycle of two fragments
    # (or at a tour end a whole path) before the rest: they are dropped word-parallel, a chunk of the run at a
    # time, and the others walked.
    tested = np.uint64(0) if nends <= 2 else emask
    while j < j1:
        jn = min(j1, j + CHUNK)
        m = 0
        for jj in range(j, jn):
            cand[m] = jj
            m += _zero_nibbles(ma ^ mates_b[jj], tested) == np.uint64(0)
        _walk(ma, mates_b, counts_b, cand, m, cycle, start, mark, nends, emask, total)
        j = jn


def warm() -> None:
    """Compile the join's kernels (or load them from the cache) for the types a count calls them with.

    :func:`chesstours.runtime.compile_in_background` runs it while a count on an empty compile cache
    sweeps its halves. The states are made up (one slot, one state): only their types matter.
    """
    keys, counts, perm = np.zeros(1, np.uint64), np.ones(1, np.uint64), np.zeros(1, np.int64)
    whole, whole_counts, _ = unfold(keys, counts, 1, perm)
    hand_over(whole, perm)
    # index_parts sorts only a bucket of two states or more
    radix_sort(whole.copy(), whole.copy(), whole_counts.copy(), 2, *space(1, 1, 1))
    index = index_parts([read_half(whole, whole_counts, 1, perm, 0)], 1)
    join_states(keys, counts, 1, perm, True, *index, 0, 1, np.zeros(2, np.uint64), np.zeros(1, np.int64),
                np.zeros(1, np.int64), np.empty((6, 1), np.uint64))
    # after the kernel a count waits for: a join in several passes, under a memory limit
    select_group(whole, whole_counts, 1, perm, 0, 0, 2)
