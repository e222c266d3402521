"""Counts past 2**128: one sweep a prime, joined by the Chinese remainder theorem.

A frontier sweep only ever adds counts (a state's count is copied to each
state it extends to, and counts meeting in one state are summed), so it can
count modulo any number ``p`` with one-limb tables and nothing can overflow:
the result is the count modulo ``p``. The counts modulo primes ``p1 .. pk``
give the count modulo their product (Chinese remainder theorem), which is the
count itself once that product exceeds a bound on it.

The bound is Bregman's bound on the permanent: a 0-1 matrix whose rows have
``d_1 .. d_n`` ones has permanent at most ``prod (d_i!)**(1/d_i)``. Every
directed Hamiltonian cycle of a graph is a cycle cover of its adjacency
matrix, so the cycles are at most the permanent; every directed Hamiltonian
path ``v_1 .. v_n`` closes into a cycle through one more vertex joined to
all, so the paths are at most the permanent of that matrix. Undirected tours,
tours from a fixed square, and the tours of a shorter board of a strip (whose
squares have no more neighbours) are fewer still. For a knight this is about
``3.8**n`` on a large board, near the true growth.

Examples
--------
>>> residues = [(9862 % p, p) for p in primes_below(2**62, 2)]
>>> from_residues(residues)
9862
"""

from __future__ import annotations

import math

__all__ = ["is_prime", "primes_below", "count_bound", "moduli_for", "from_residues"]

#: Moduli stay below this, so the sum of two residues fits in 64 bits.
MODULUS_BELOW = 2**62

#: Bases that make Miller-Rabin exact for every n below 3.3 * 10**24.
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_prime(n: int) -> bool:
    """Whether ``n`` (below 3.3 * 10**24) is prime: Miller-Rabin with a set of bases exact in that range."""
    if n < 2:
        return False
    for p in _BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_below(limit: int, count: int) -> list[int]:
    """The ``count`` largest primes below ``limit``, largest first."""
    primes: list[int] = []
    n = limit - 1
    while len(primes) < count:
        if is_prime(n):
            primes.append(n)
        n -= 1
    return primes


def count_bound(degrees: list[int], closed: bool) -> int:
    """A number above the tours of any graph whose vertices have at most these ``degrees`` (Bregman's bound).

    ``closed``: Hamiltonian cycles; else Hamiltonian paths (one more vertex,
    joined to every other, closes a path into a cycle).
    """
    if not closed:
        degrees = [d + 1 for d in degrees] + [len(degrees)]
    # log2 of prod (d!)**(1/d), rounded up, with a bit to spare for the rounding of lgamma
    bits = sum(math.lgamma(d + 1) / d for d in degrees if d > 0) / math.log(2)
    return 2 ** (math.ceil(bits) + 1)


def moduli_for(bound: int) -> list[int]:
    """Primes below :data:`MODULUS_BELOW` whose product passes ``bound``."""
    count = max(1, -(-bound.bit_length() // (MODULUS_BELOW.bit_length() - 2)))
    return primes_below(MODULUS_BELOW, count)


def from_residues(residues: list[tuple[int, int]]) -> int:
    """The least ``x >= 0`` with ``x % p == r`` for every ``(r, p)`` (the ``p`` pairwise coprime)."""
    x, m = 0, 1
    for r, p in residues:
        # x + m * t == r (mod p)
        t = (r - x) * pow(m, -1, p) % p
        x, m = x + m * t, m * p
    return x
