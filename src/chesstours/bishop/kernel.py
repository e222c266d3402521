"""The compiled kernels of the bishop search (see :mod:`chesstours.bishop.search`).

The depth-first search of the Delphi program's procedure ``chemin`` with an explicit
stack, the pruning of squares that can no longer be passed through, and the
line-cover lower bound on the slides still needed. Flat numpy arrays in,
status codes out; :class:`chesstours.bishop.search.BishopSearch` holds the
arrays between calls.
"""

from __future__ import annotations

import numba
import numpy as np

from ..runtime import kernel
from .layout import (
    CODE_BUDGET,
    CODE_EXHAUSTED,
    CODE_FOUND,
    REG_BEST_LEN,
    REG_COUNT,
    REG_COVERED,
    REG_DEPTH,
    REG_FLOOR,
    REG_MAX_SLIDES,
    REG_MINIMIZE,
    REG_NODES,
    REG_PENDING,
    REG_TARGET,
)


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _step_back(step_to, flags, visits, stack_square, stack_dir, stack_set_source, depth):
    """Undo the step that led to depth ``depth``; return 1 if it had visited a new square."""
    y = stack_square[depth]
    x = stack_square[depth - 1]
    keep = np.uint8(2 - (stack_dir[depth] & 1))  # the other axis's bit
    flags[y] &= keep  # the step required this axis's bit clear
    if stack_set_source[depth]:
        flags[x] &= keep
    visits[y] -= 1
    return 1 if visits[y] == 0 else 0


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _enterable(step_to, flags, u, y):
    """True when unvisited ``u`` can still be entered: a neighbour is the current square ``y``
    or has a clear flag (so the bishop can stand on it again)."""
    for j in range(4):
        w = step_to[u, j]
        if w >= 0 and (w == y or flags[w] != 3):
            return True
    return False


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _passable(step_to, flags, u, y):
    """True when unvisited ``u`` can still be entered from one neighbour and left to another:
    the way in from a square the bishop can stand on, the way out to a square whose flag of
    that direction is clear."""
    for i in range(4):
        w_in = step_to[u, i]
        if w_in < 0 or not (w_in == y or flags[w_in] != 3):
            continue
        for j in range(4):
            w_out = step_to[u, j]
            if j != i and w_out >= 0 and (flags[w_out] >> (j & 1)) & 1 == 0:
                return True
    return False


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _stranded(step_to, flags, visits, x, y, end, last):
    """Check the unvisited squares the step ``x -> y`` may have stranded.

    Only the flags of ``x`` and ``y`` changed, and the current square moved from ``x`` to
    ``y``, so only the unvisited neighbours of ``x`` and ``y`` can be affected. Each must
    still be enterable. One that is not passable can only be the route's last square: with
    a fixed end that must be the end; otherwise there may be one such square, ``last``
    (-1 while none is known; a square once impassable stays so deeper in the search).
    Returns the last square (``last`` or a new one, -1 when none), or -2 for a dead end.
    """
    for side in range(2):
        c = x if side == 0 else y
        for k in range(4):
            u = step_to[c, k]
            if u < 0 or visits[u] != 0 or _passable(step_to, flags, u, y):
                continue
            if end >= 0 and u != end:
                return -2  # it cannot be passed, and the route may not stop on it
            if not _enterable(step_to, flags, u, y):
                return -2
            if end < 0:
                if last >= 0 and last != u:
                    return -2  # two squares that would both have to come last
                last = u
    return last


@kernel("bishop")
@numba.njit(cache=True, nogil=True)
def count_lines_needed(step_to, visits, line_squares, b_line_of, y, d, scratch):
    """Fewest diagonal lines covering the unvisited squares, except those straight ahead of ``y``.

    A maximum matching between A-lines and B-lines (one edge per unvisited
    square), found by augmenting paths; by Konig's theorem its size is the
    size of a smallest cover by lines. ``line_squares[a]`` lists the squares
    of A-line ``a`` (of the route's colour); ``scratch`` is int32 work space
    ``[5, max(lines, N)]``: B-line matches, seen stamps, and the DFS stack.
    """
    n_lines = line_squares.shape[0]
    width = line_squares.shape[1]
    match_b = scratch[0]
    seen_b = scratch[1]
    stack_a = scratch[2]
    stack_k = scratch[3]
    stack_b = scratch[4]
    # Squares the current slide may still cover by going straight on are left out.
    ahead = -1
    if d >= 0:
        ahead = step_to[y, d]
    for b in range(n_lines):
        match_b[b] = -1
        seen_b[b] = -1
    size = 0
    for a in range(n_lines):
        sp = 0
        stack_a[0] = a
        stack_k[0] = 0
        found = False
        while sp >= 0 and not found:
            cur = stack_a[sp]
            k = stack_k[sp]
            descended = False
            while k < width:
                v = line_squares[cur, k]
                k += 1
                if v < 0:
                    break
                if visits[v] != 0 or _is_ahead(step_to, y, d, ahead, v):
                    continue
                b = b_line_of[v]
                if seen_b[b] == a:
                    continue
                seen_b[b] = a
                stack_b[sp] = b
                stack_k[sp] = k
                if match_b[b] < 0:
                    for level in range(sp + 1):
                        match_b[stack_b[level]] = stack_a[level]
                    found = True
                else:
                    sp += 1
                    stack_a[sp] = match_b[b]
                    stack_k[sp] = 0
                    descended = True
                break
            if not found and not descended:
                sp -= 1
        if found:
            size += 1
    return size


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _is_ahead(step_to, y, d, ahead, v):
    """True when ``v`` lies straight ahead of ``y`` in direction ``d``."""
    u = ahead
    while u >= 0:
        if u == v:
            return True
        u = step_to[u, d]
    return False


@kernel("bishop")
@numba.njit(cache=True, nogil=True)
def advance(step_to, order, flags, visits, stack_square, stack_next, stack_dir, stack_set_source, stack_slides,
             stack_last, end, use_bound, line_squares, b_line_of, scratch, best_steps, stop_at_route, budget,
             regs):
    """Run the depth-first search for at most ``budget`` steps.

    ``regs`` holds depth, steps made (nodes), routes counted, a flag for a
    route left on the stack by the last call, squares visited, squares to
    visit, the most slides allowed, the branch-and-bound flag, a lower bound
    on any route's slides, and the length of the best route kept in
    ``best_steps``. When minimizing, each route found is kept and the bound
    drops below its slides, so the search ends with a route of fewest slides
    (the first in move order among them). Returns 0 (a route is on the
    stack), 1 (exhausted) or 2 (budget spent).
    """
    depth = regs[REG_DEPTH]
    nodes = regs[REG_NODES]
    count = regs[REG_COUNT]
    covered = regs[REG_COVERED]
    target = regs[REG_TARGET]
    max_slides = regs[REG_MAX_SLIDES]
    minimize = regs[REG_MINIMIZE] != 0
    limit = nodes + budget
    if regs[REG_PENDING]:
        # The last call stopped on a complete route: step back from it.
        regs[REG_PENDING] = 0
        covered -= _step_back(step_to, flags, visits, stack_square, stack_dir, stack_set_source, depth)
        depth -= 1
    while True:
        if depth < 0 or max_slides < regs[REG_FLOOR]:
            # Done; or, minimizing, a route as short as the lower bound is kept.
            regs[REG_DEPTH] = 0
            regs[REG_NODES] = nodes
            regs[REG_COUNT] = count
            regs[REG_COVERED] = covered
            regs[REG_MAX_SLIDES] = max_slides
            return CODE_EXHAUSTED
        k = stack_next[depth]
        if k >= 4:
            # Every direction tried here: step back.
            if depth > 0:
                covered -= _step_back(step_to, flags, visits, stack_square, stack_dir, stack_set_source,
                                      depth)
            depth -= 1
            continue
        stack_next[depth] = k + 1
        x = stack_square[depth]
        d = order[x, k]  # the k-th direction to try from x
        y = step_to[x, d]
        if y < 0:
            continue
        bit = np.uint8(1 << (d & 1))
        if flags[y] & bit:
            continue  # y was already entered along this axis
        slides = stack_slides[depth] + (1 if d != stack_dir[depth] else 0)
        if slides > max_slides:
            continue
        if nodes >= limit:
            stack_next[depth] = k  # try this direction again on the next call
            regs[REG_DEPTH] = depth
            regs[REG_NODES] = nodes
            regs[REG_COUNT] = count
            regs[REG_COVERED] = covered
            regs[REG_MAX_SLIDES] = max_slides
            return CODE_BUDGET
        nodes += 1
        # The step x -> y: set the axis flag on both squares (the Delphi program's sensA / sensB).
        set_source = (flags[x] & bit) == 0
        flags[x] |= bit
        flags[y] |= bit
        visits[y] += 1
        if visits[y] == 1:
            covered += 1
        depth += 1
        stack_square[depth] = y
        stack_dir[depth] = d
        stack_set_source[depth] = set_source
        stack_slides[depth] = slides
        stack_next[depth] = 0
        if covered == target and (end < 0 or y == end):
            count += 1
            if minimize:
                for i in range(depth + 1):
                    best_steps[i] = stack_square[i]
                regs[REG_BEST_LEN] = depth + 1
                max_slides = slides - 1
            elif stop_at_route:
                regs[REG_DEPTH] = depth
                regs[REG_NODES] = nodes
                regs[REG_COUNT] = count
                regs[REG_COVERED] = covered
                regs[REG_PENDING] = 1
                return CODE_FOUND
            stack_next[depth] = 4  # the route stops here
            continue
        last = _stranded(step_to, flags, visits, x, y, end, stack_last[depth - 1])
        stack_last[depth] = last
        dead = last == -2
        if not dead and x == end and flags[x] == 3:
            dead = True  # the end square can never be entered again
        if not dead and use_bound and slides + (target - covered) > max_slides:
            needed = count_lines_needed(step_to, visits, line_squares, b_line_of, y, d, scratch)
            dead = slides + needed > max_slides
        if dead:
            stack_next[depth] = 4


@kernel("bishop")
@numba.njit(cache=True, nogil=True)
def probe(step_to, order, flags0, visits0, start, last0, end, covered0, target, probes, seed, out):
    """Knuth's estimate of the search's size: the steps :func:`advance` would make to count every
    route (no bound on slides), and the routes it would count.

    Each probe walks from the root to a leaf, choosing at random among the
    steps that survive pruning; at each node it adds the steps made there
    (those that the pruning then cuts, and those that complete a route,
    included) and the routes completed there, weighted by the product of the
    numbers of surviving steps above it (D. E. Knuth, "Estimating the
    efficiency of backtrack programs", Math. Comp. 29, 1975). Unbiased, but
    heavy-tailed: good to an order of magnitude. Writes the means over
    ``probes`` descents to ``out[0]`` (steps) and ``out[1]`` (routes).
    """
    np.random.seed(seed)
    live_dir = np.empty(4, dtype=np.int64)
    live_last = np.empty(4, dtype=np.int64)
    total_steps = 0.0
    total_routes = 0.0
    for _ in range(probes):
        flags = flags0.copy()
        visits = visits0.copy()
        x = start
        last = last0
        covered = covered0
        weight = 1.0
        while True:
            made = 0
            found = 0
            live = 0
            for k in range(4):
                d = order[x, k]
                y = step_to[x, d]
                if y < 0:
                    continue
                bit = np.uint8(1 << (d & 1))
                if flags[y] & bit:
                    continue
                made += 1
                set_source = (flags[x] & bit) == 0
                flags[x] |= bit
                flags[y] |= bit
                visits[y] += 1
                if covered + (1 if visits[y] == 1 else 0) == target and (end < 0 or y == end):
                    found += 1
                else:
                    after = _stranded(step_to, flags, visits, x, y, end, last)
                    if after != -2 and not (x == end and flags[x] == 3):
                        live_dir[live] = d
                        live_last[live] = after
                        live += 1
                keep = np.uint8(3) - bit  # the other direction's flag
                visits[y] -= 1
                flags[y] &= keep
                if set_source:
                    flags[x] &= keep
            total_steps += weight * made
            total_routes += weight * found
            if live == 0:
                break
            pick = np.random.randint(live)
            d = live_dir[pick]
            y = step_to[x, d]
            bit = np.uint8(1 << (d & 1))
            flags[x] |= bit
            flags[y] |= bit
            visits[y] += 1
            if visits[y] == 1:
                covered += 1
            last = live_last[pick]
            weight *= live
            x = y
    out[0] = total_steps / probes
    out[1] = total_routes / probes
