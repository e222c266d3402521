"""Seeded random numbers that a compiled kernel and its plain-Python twin draw alike: xorshift64*.

numba's ``np.random`` and Python's :mod:`random` do not draw the same
numbers, so the kernels that choose at random (Warnsdorff's random
tie-break, Knuth's probes of a backtracking tree) carry their own generator
in a one-element ``uint64`` array: :func:`seeded` fills it, each kernel
steps it with a compiled copy of :func:`xorshift`, and the plain-Python
twins step it with :func:`xorshift` itself, so both draw the same sequence.

>>> a, b = [seeded(7)], [seeded(7)]
>>> [xorshift(a) % 100 for _ in range(3)] == [xorshift(b) % 100 for _ in range(3)]
True
"""

from __future__ import annotations

__all__ = ["seeded", "xorshift"]

_MASK64 = (1 << 64) - 1


def seeded(seed: int) -> int:
    """The generator's first state for ``seed``: any integer (a numpy one too) gives an odd 64-bit number."""
    seed = int(seed)  # a numpy integer would overflow in the product below
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) % 2**64 | 1


def xorshift(state: list[int]) -> int:
    """One step of xorshift64* (Marsaglia 2003, Vigna 2016): advance ``state[0]``, return a 64-bit number."""
    x = state[0]
    x ^= x >> 12
    x ^= (x << 25) & _MASK64
    x ^= x >> 27
    state[0] = x
    return (x * 2685821657736338717) & _MASK64
