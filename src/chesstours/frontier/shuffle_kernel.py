"""The join's test for one cycle in byte shuffles: sixteen places at a time, without a walk.

The join (:mod:`chesstours.frontier.join.kernel`) asks of each pair of
states whether their fragments, end to end, make one cycle (or one path).
The walk that answers it goes from place to place, each step waiting for
the last; here both halves' mates are laid out one byte a place in a
16-byte register, and one byte shuffle (``pshufb``, SSSE3) looks up all
sixteen at once.

Let ``A`` and ``B`` be the two halves' mates, each a perfect matching of
the fragment ends (the other places map to themselves). Their union is a
set of cycles, alternately an ``A`` pair and a ``B`` pair; ``P = B o A``
steps two places along such a cycle, so each cycle of ``2j`` ends is two
cycles of ``P`` of ``j`` ends each. The fragments make one cycle exactly
when ``P`` has two cycles among the fragment ends. Each end learns the
least place of its cycle by doubling (``L = min(L, L o Q)``, then
``Q = Q o Q``, from ``L`` the identity and ``Q = P``): three rounds cover
cycles of up to eight ends, all a half can have on sixteen places. The
ends that are their own least are one a cycle.

Open tours: a fragment that runs to an end of the tour has its place as
its own mate in that half, and there ``P`` turns back. A path of the
fragments through ``L`` places is then one cycle of ``P`` through all of
them, and the fragments make one path exactly when ``P`` has one cycle:
four rounds, for up to sixteen places.

Fifteen vector instructions a pair, none waiting on a branch, against a
walk of up to eight dependent steps: several times quicker than one walk at
a time.
The shuffle is an x86 instruction: elsewhere, or where numba compiles for
another processor than this one, :data:`SHUFFLE` is False and the join
walks. Where the processor has AVX2 (:data:`SHUFFLE_TWO`), whose 32-byte
shuffle works on each 16-byte half alone, two partners of a state are tested
in one go (:data:`cycles2_of`), ``A`` in both halves and one partner's ``B``
in each; or two states of one degree key against one partner
(:data:`cycles_two_of`), each state's ``A`` in a half and ``B`` in both, which
lays out each partner's mates once for two states (the join tests four
states a partner so, two shuffles sharing the layout).

The sweep's kernel makes each new state's key in byte shuffles too
(:func:`canonical_key`): the labels of up to sixteen slots renumbered in
slot order all at once, instead of one slot after the other.
"""

from __future__ import annotations

import platform

import numpy as np
from llvmlite import binding as _llvm
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic

from ..runtime import kernel
from .layout import ENDED, MAX_LABEL, PACKED_ENDED, PACKED_FULL, RADIX

__all__ = ["SHUFFLE", "SHUFFLE_TWO", "spread", "cycles_of", "paths_of", "cycles2_of", "paths2_of", "cycles_shuffled",
           "paths_shuffled", "cycles2_shuffled", "paths2_shuffled", "cycles_walked", "cycles2_walked", "cycles_two_of",
           "paths_two_of", "cycles_two_shuffled", "paths_two_shuffled", "cycles_two_walked", "canonical_key"]


def _can_shuffle() -> bool:
    """Whether numba compiles for this machine's processor and it has SSSE3's byte shuffle."""
    if platform.machine().lower() not in ("x86_64", "amd64") or config.CPU_NAME:
        return False  # another architecture, or code compiled for another processor (NUMBA_CPU_NAME)
    try:
        return bool(_llvm.get_host_cpu_features().get("ssse3"))
    except Exception:  # pragma: no cover - an llvmlite that cannot tell
        return False


#: Whether the join tests for one cycle in byte shuffles (:func:`cycles_of`) rather than walks.
SHUFFLE = _can_shuffle()


def _can_shuffle_two() -> bool:
    """Whether :data:`SHUFFLE` holds and the processor has AVX2's 32-byte shuffle, two partners at once."""
    try:
        return SHUFFLE and bool(_llvm.get_host_cpu_features().get("avx2"))
    except Exception:  # pragma: no cover - an llvmlite that cannot tell
        return False


#: Whether the join tests two partners a shuffle (:func:`cycles2_of`): AVX2 shuffles each 16-byte half of a
#: 32-byte register on its own, one partner a half.
SHUFFLE_TWO = _can_shuffle_two()


#: Each place's own number in its byte, places 0 to 7 and 8 to 15.
_OWN = (np.uint64(0x0706050403020100), np.uint64(0x0F0E0D0C0B0A0908))


@kernel("frontier join")
@njit(cache=True, inline="always")
def _bytes_of_nibbles(x):
    """The eight nibbles of the low half of ``x``, one a byte."""
    x &= np.uint64(0xFFFFFFFF)
    x = (x | (x << np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    x = (x | (x << np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    return (x | (x << np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)


@kernel("frontier join")
@njit(cache=True, inline="always")
def _bytes_of_bits(x):
    """The eight low bits of ``x``, each a byte of ones or of zeros."""
    x &= np.uint64(0xFF)
    x = (x | (x << np.uint64(28))) & np.uint64(0x0000000F0000000F)
    x = (x | (x << np.uint64(14))) & np.uint64(0x0003000300030003)
    x = (x | (x << np.uint64(7))) & np.uint64(0x0101010101010101)
    return x * np.uint64(0xFF)


@kernel("frontier join")
@njit(cache=True, inline="always")
def spread(mates, active):
    """A state's mates laid out for :func:`cycles_of`: one byte a place, in two words.

    ``mates``: four bits a place (:func:`~chesstours.frontier.join.kernel.read_state`);
    ``active``: bit ``p`` set for each place ``p`` that is a fragment end.
    Returns the mates' bytes (a place that is no end maps to itself) and
    the bytes of the places that are no ends (zero at the ends), each as a
    low and a high word. Without a branch: a branch on the ends, which
    are random, mispredicts.
    """
    ends_lo = _bytes_of_bits(active)
    ends_hi = _bytes_of_bits(active >> np.uint64(8))
    fixed_lo = _OWN[0] & ~ends_lo
    fixed_hi = _OWN[1] & ~ends_hi
    lo = (_bytes_of_nibbles(mates) & ends_lo) | fixed_lo
    hi = (_bytes_of_nibbles(mates >> np.uint64(32)) & ends_hi) | fixed_hi
    return lo, hi, fixed_lo, fixed_hi


def _bytes(builder, lo, hi):
    """The 16-byte vector of two words."""
    v = ir.Constant(ir.VectorType(ir.IntType(64), 2), None)
    v = builder.insert_element(v, lo, ir.Constant(ir.IntType(32), 0))
    v = builder.insert_element(v, hi, ir.Constant(ir.IntType(32), 1))
    return builder.bitcast(v, ir.VectorType(ir.IntType(8), 16))


def _shuffle(builder, table, index, lanes=1):
    """``table[index[i]]`` for each of sixteen bytes (``pshufb``); ``lanes=2``: each 16-byte half of 32 bytes
    on its own (``vpshufb``, AVX2)."""
    v = ir.VectorType(ir.IntType(8), 16 * lanes)
    name = "llvm.x86.ssse3.pshuf.b.128" if lanes == 1 else "llvm.x86.avx2.pshuf.b"
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(v, [v, v]), name)
    return builder.call(fn, [table, index])


def _twice(builder, v):
    """The 16 bytes of ``v`` in both halves of 32."""
    return builder.shuffle_vector(v, v, ir.Constant(ir.VectorType(ir.IntType(32), 32), list(range(16)) * 2))


def _count_cycles(builder, a, b, active, rounds, lanes):
    """The cycles of ``B o A`` among the places of ``active``, by ``rounds`` doublings, in each of ``lanes``
    16-byte halves (bytes of ``a`` and ``b``: each place's mate in that half): a word of their counts, eight
    bits a lane."""
    i8, i64 = ir.IntType(8), ir.IntType(64)
    step = _shuffle(builder, b, a, lanes)  # P = B o A
    identity = ir.Constant(ir.VectorType(i8, 16 * lanes), list(range(16)) * lanes)
    least = identity
    for r in range(rounds):
        seen = _shuffle(builder, least, step, lanes)
        least = builder.select(builder.icmp_unsigned("<", seen, least), seen, least)
        if r < rounds - 1:
            step = _shuffle(builder, step, step, lanes)
    own = builder.zext(builder.bitcast(builder.icmp_unsigned("==", least, identity), ir.IntType(16 * lanes)), i64)
    ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
    total = builder.call(ctpop, [builder.and_(own, active)])
    for lane in range(1, lanes):
        mine = builder.and_(builder.lshr(own, ir.Constant(i64, 16 * lane)), active)
        total = builder.or_(total, builder.shl(builder.call(ctpop, [mine]), ir.Constant(i64, 8 * lane)))
    return total


def _mates_b(builder, words, fixed):
    """The bytes of the partners' mates (``words``, four bits a place, one partner a 16-byte half), each place
    that is no fragment end set to itself (``fixed``, the bytes of those places, zero at the ends)."""
    i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
    n = len(words)
    v = ir.Constant(ir.VectorType(i64, n), None)
    for k, w in enumerate(words):
        v = builder.insert_element(v, w, ir.Constant(i32, k))
    packed = builder.bitcast(v, ir.VectorType(i8, 8 * n))
    low = builder.and_(packed, ir.Constant(ir.VectorType(i8, 8 * n), [15] * (8 * n)))
    high = builder.lshr(packed, ir.Constant(ir.VectorType(i8, 8 * n), [4] * (8 * n)))
    order = ir.Constant(ir.VectorType(i32, 16 * n),
                        [8 * lane + k + 8 * n * h for lane in range(n) for k in range(8) for h in (0, 1)])
    return builder.or_(builder.shuffle_vector(low, high, order), fixed)


@kernel("frontier join")
@njit(cache=True, inline="always")
def cycles_walked(a_lo, a_hi, mates_b, fixed_lo, fixed_hi, active):
    """:data:`cycles_of` and :data:`paths_of` by walks, one cycle after the other: what the shuffles compute, on
    any processor."""
    seen = ~active & np.uint64(0xFFFF)
    cycles = np.uint64(0)
    for first in range(16):
        if (seen >> np.uint64(first)) & np.uint64(1):
            continue
        cycles += np.uint64(1)
        p = np.uint64(first)
        while not (seen >> p) & np.uint64(1):
            seen |= np.uint64(1) << p
            a = ((a_lo >> (p << np.uint64(3))) if p < 8 else (a_hi >> ((p - np.uint64(8)) << np.uint64(3))))
            p = (mates_b >> ((a & np.uint64(15)) << np.uint64(2))) & np.uint64(15)
    return cycles


def _cycles_in(rounds: int):
    """The intrinsic that counts the cycles of ``B o A`` by ``rounds`` doublings: cycles of up to ``2**rounds``
    places."""

    @intrinsic
    def cycles(typingctx, a_lo, a_hi, mates_b, fixed_lo, fixed_hi, active):
        sig = types.uint64(types.uint64, types.uint64, types.uint64, types.uint64, types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            a_lo, a_hi, mates_b, fixed_lo, fixed_hi, active = args
            b = _mates_b(builder, [mates_b], _bytes(builder, fixed_lo, fixed_hi))
            return _count_cycles(builder, _bytes(builder, a_lo, a_hi), b, active, rounds, 1)

        return sig, codegen

    return cycles


def _cycles2_in(rounds: int):
    """:func:`_cycles_in` for two partners at once, one a 16-byte half (AVX2): their counts, eight bits each."""

    @intrinsic
    def cycles2(typingctx, a_lo, a_hi, mates_b0, mates_b1, fixed_lo, fixed_hi, active):
        sig = types.uint64(*[types.uint64] * 7)

        def codegen(context, builder, signature, args):
            a_lo, a_hi, mates_b0, mates_b1, fixed_lo, fixed_hi, active = args
            b = _mates_b(builder, [mates_b0, mates_b1], _twice(builder, _bytes(builder, fixed_lo, fixed_hi)))
            return _count_cycles(builder, _twice(builder, _bytes(builder, a_lo, a_hi)), b, active, rounds, 2)

        return sig, codegen

    return cycles2


def _cycles_two_in(rounds: int):
    """:func:`_cycles_in` for two states against one partner (AVX2): one state a 16-byte half, the partner in
    both; their counts, eight bits each."""

    @intrinsic
    def cycles_two(typingctx, a_lo, a_hi, a2_lo, a2_hi, mates_b, fixed_lo, fixed_hi, active):
        sig = types.uint64(*[types.uint64] * 8)

        def codegen(context, builder, signature, args):
            a_lo, a_hi, a2_lo, a2_hi, mates_b, fixed_lo, fixed_hi, active = args
            b = _twice(builder, _mates_b(builder, [mates_b], _bytes(builder, fixed_lo, fixed_hi)))
            both = ir.Constant(ir.VectorType(ir.IntType(32), 32), list(range(32)))
            a = builder.shuffle_vector(_bytes(builder, a_lo, a_hi), _bytes(builder, a2_lo, a2_hi), both)
            return _count_cycles(builder, a, b, active, rounds, 2)

        return sig, codegen

    return cycles_two


@kernel("frontier join")
@njit(cache=True, inline="always")
def cycles2_walked(a_lo, a_hi, mates_b0, mates_b1, fixed_lo, fixed_hi, active):
    """:func:`cycles_walked` of two partners, their counts eight bits each (as :data:`cycles2_of`)."""
    return (cycles_walked(a_lo, a_hi, mates_b0, fixed_lo, fixed_hi, active)
            | (cycles_walked(a_lo, a_hi, mates_b1, fixed_lo, fixed_hi, active) << np.uint64(8)))


#: The cycles of ``B o A`` among the fragment ends ``active`` (a bit a place), where :data:`SHUFFLE` is True
#: (else call :func:`cycles_of`). ``A``: one state's mates, spread (``a_lo``, ``a_hi``, and the places that are
#: no ends, ``fixed_lo``, ``fixed_hi``: :func:`spread`); ``B``: its partner's, four bits a place (``mates_b``),
#: spread in the shuffle: its nibbles made bytes, the places that are no ends set to themselves. Three doublings
#: for closed counts, whose cycles of ``B o A`` have at most eight ends (two cycles a cycle of the fragments, when
#: they make one); four for open ones, where one path of the fragments through all sixteen places is one
#: cycle of ``B o A`` through all of them (it turns back at each end of the path).
cycles_shuffled = _cycles_in(3)
paths_shuffled = _cycles_in(4)


@kernel("frontier join")
@njit(cache=True, inline="always")
def cycles_two_walked(a_lo, a_hi, a2_lo, a2_hi, mates_b, fixed_lo, fixed_hi, active):
    """:func:`cycles_walked` of two states against one partner, their counts eight bits each (as
    :data:`cycles_two_of`)."""
    return (cycles_walked(a_lo, a_hi, mates_b, fixed_lo, fixed_hi, active)
            | (cycles_walked(a2_lo, a2_hi, mates_b, fixed_lo, fixed_hi, active) << np.uint64(8)))


#: The cycles of ``B o A`` among the fragment ends (:func:`cycles_shuffled`), in byte shuffles where this
#: processor has them, else by walks (:func:`cycles_walked`), so that no kernel ever names an instruction it lacks.
cycles_of = cycles_shuffled if SHUFFLE else cycles_walked
#: :func:`cycles_of` for open counts, through sixteen places (:data:`paths_shuffled`).
paths_of = paths_shuffled if SHUFFLE else cycles_walked

#: :func:`cycles_shuffled` and :func:`paths_shuffled` of two partners (``mates_b0``, ``mates_b1``) in one 32-byte
#: shuffle, where :data:`SHUFFLE_TWO` is True (else by walks): the first's count in the low eight bits, the
#: second's in the next eight.
cycles2_shuffled = _cycles2_in(3)
paths2_shuffled = _cycles2_in(4)
cycles2_of = cycles2_shuffled if SHUFFLE_TWO else cycles2_walked
paths2_of = paths2_shuffled if SHUFFLE_TWO else cycles2_walked

#: The cycles of ``B o A0`` and ``B o A1`` (:func:`cycles_shuffled`) in one 32-byte shuffle, where
#: :data:`SHUFFLE_TWO` is True (else by walks): two states (``a_lo, a_hi`` and ``a2_lo, a2_hi``, spread, with the
#: same fragment ends) against one partner, whose mates are laid out once for both. The join tests a run of
#: partners against several states of one degree key this way (see
#: :func:`chesstours.frontier.join.kernel.join_states`).
cycles_two_shuffled = _cycles_two_in(3)
paths_two_shuffled = _cycles_two_in(4)
cycles_two_of = cycles_two_shuffled if SHUFFLE_TWO else cycles_two_walked
paths_two_of = paths_two_shuffled if SHUFFLE_TWO else cycles_two_walked


def _v16(values) -> ir.Constant:
    """A constant of sixteen bytes."""
    return ir.Constant(ir.VectorType(ir.IntType(8), 16), [x & 0xFF for x in values])


def _later(builder, v, k):
    """Lane ``i`` of the sixteen bytes ``v`` moved to lane ``i + k``; 0 in the first ``k`` lanes."""
    order = ir.Constant(ir.VectorType(ir.IntType(32), 16), [i - k if i >= k else 16 for i in range(16)])
    return builder.shuffle_vector(v, _v16([0] * 16), order)


def _canonical(builder, codes, ends):
    """The key of sixteen slots' work codes (``codes``, a byte each) with ``ends`` ends used (see
    :func:`canonical_key`)."""
    i32, i64 = ir.IntType(32), ir.IntType(64)
    none, one = _v16([0x80] * 16), _v16([1] * 16)
    label = builder.icmp_unsigned("<", builder.sub(codes, one), _v16([MAX_LABEL] * 16))
    # each slot's nearest earlier slot of the same code (0x80: none); only the labels' are read
    mate = none
    for k in range(15, 0, -1):
        same = builder.icmp_unsigned("==", codes, _later(builder, codes, k))
        mate = builder.select(same, _v16([i - k for i in range(16)]), mate)
    first = builder.and_(label, builder.icmp_unsigned("==", mate, none))
    rank = builder.select(first, one, _v16([0] * 16))
    for k in (1, 2, 4, 8):  # how many labels begin at or before each slot
        rank = builder.add(rank, _later(builder, rank, k))
    begins = builder.select(first, _v16(range(16)), mate)  # the slot where each slot's label begins
    special = _v16([0] * ENDED + [PACKED_ENDED, PACKED_FULL])
    packed = builder.select(label, _shuffle(builder, rank, begins), _shuffle(builder, special, codes))
    v8, v4 = ir.VectorType(ir.IntType(16), 8), ir.VectorType(i32, 4)
    madd_bytes = cgutils.get_or_insert_function(builder.module, ir.FunctionType(v8, [packed.type, packed.type]),
                                                "llvm.x86.ssse3.pmadd.ub.sw.128")
    madd_words = cgutils.get_or_insert_function(builder.module, ir.FunctionType(v4, [v8, v8]),
                                                "llvm.x86.sse2.pmadd.wd")
    pairs = builder.call(madd_bytes, [packed, _v16([1, RADIX] * 8)])  # two slots a word
    fours = builder.call(madd_words, [pairs, ir.Constant(v8, [1, RADIX**2] * 4)])  # four slots a double word
    words = builder.bitcast(fours, ir.VectorType(i64, 2))
    key = ends
    for w in range(2):
        word = builder.extract_element(words, ir.Constant(i32, w))
        for half in range(2):
            part = builder.and_(word, ir.Constant(i64, 0xFFFFFFFF)) if half == 0 else \
                builder.lshr(word, ir.Constant(i64, 32))
            key = builder.add(key, builder.mul(part, ir.Constant(i64, 3 * RADIX ** (4 * (2 * w + half)))))
    return key


@intrinsic
def canonical_key(typingctx, lo, hi, ends):
    """The key of sixteen slots' work codes (one a byte, slot 0 the lowest byte of ``lo``, slots 8 to 15 in
    ``hi``; slots past a state's own hold ``FREE``) with ``ends`` ends used, labels renumbered in slot order, as
    :func:`chesstours.frontier.kernel.pack` makes it, where :data:`SHUFFLE` is True: each label's earlier slot
    found by fifteen byte compares, the labels that begin at or before each slot counted in four adds, the new
    codes looked up in two byte shuffles and the mixed-radix key summed in two multiply-adds, all sixteen slots
    at once and without a chain from slot to slot (the loop of :func:`~chesstours.frontier.kernel.pack_at` waits
    on the renumbering of each slot before the next)."""
    sig = types.uint64(types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        lo, hi, ends = args
        return _canonical(builder, _bytes(builder, lo, hi), ends)

    return sig, codegen
