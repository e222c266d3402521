"""Compiled kernels of the frontier's sampling tables (see :mod:`chesstours.frontier.sampling`).

:func:`transitions` lists every move of one step of a sweep, one row a state
and edge choice, by running the sweep's own step
(:func:`chesstours.frontier.kernel.expand`) on one state and one choice at a
time: the tables hold exactly the states and moves that the count makes, and
no second copy of its rules exists. :func:`walk` follows the tables from the
empty frontier to a finished tour for each rank, and :func:`tour_paths` turns
the edge choices of each walk into the squares of its tour in order.

The walk is written so that its source also runs uncompiled on Python ints
(``walk.py_func``), for tables whose counts pass 64 bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime import kernel
from ..kernel import expand


@kernel("frontier sample")
@njit(cache=True, nogil=True)
def transitions(keys, nprev, choice_a, choice_b, one_end, departs, keep, single, choice_mask, free_need,
                label_need, signs, balance2, budget, cycle, finish, parent, choice, child, done_parent, done_choice):
    """Every move of one step from the states ``keys``: ``(moves, finished)``.

    A move is a state ``parent[k]`` (its index in ``keys``), the edge choice
    ``choice[k]`` of the step (an index into ``choice_a``) and the key
    ``child[k]`` of the state it makes; at the last step (``finish``), a
    choice that finishes a tour is written to ``done_parent`` and
    ``done_choice`` instead (before it, a fragment that closes on the
    frontier leaves squares out, and is dropped). The step's arrays
    are those of :class:`~chesstours.frontier.plan.Step` (unfolded: no
    mirror), as :func:`~chesstours.frontier.kernel.expand` takes them; the
    output arrays hold ``keys.size * choice_a.size`` rows.
    """
    work = np.zeros((3, 34), np.int64)
    one = np.ones(1, np.uint64)
    none = np.zeros(0, np.uint64)
    no_mirror = np.zeros(0, np.int64)
    ca = np.zeros(1, np.int64)
    cb = np.zeros(1, np.int64)
    cm = np.zeros(1, np.int64)
    bk = np.zeros(1, np.uint64)
    bl = np.zeros(1, np.uint64)
    nbuf = np.zeros(1, np.int64)
    acc = np.zeros(2, np.uint64)
    err = np.zeros(1, np.int64)
    state = np.zeros(1, np.uint64)
    moves = 0
    finished = 0
    for i in range(keys.size):
        state[0] = keys[i]
        for ch in range(choice_a.size):
            ca[0] = choice_a[ch]
            cb[0] = choice_b[ch]
            cm[0] = choice_mask[ch]
            nbuf[0] = 0
            acc[0] = 0
            expand(state, one, none, 0, 1, nprev, ca, cb, one_end, departs, keep, no_mirror, single, cm,
                   free_need, label_need, signs, balance2, budget, cycle, finish, bk, bl, none, nbuf, acc, err, work)
            if nbuf[0] == 1:
                parent[moves] = i
                choice[moves] = ch
                child[moves] = bk[0]
                moves += 1
            elif acc[0] == 1:
                done_parent[finished] = i
                done_choice[finished] = ch
                finished += 1
    return moves, finished


@kernel("frontier sample")
@njit(cache=True, nogil=True)
def walk(ranks, first, weight, choice, child, steps, out):
    """For each rank ``r`` of ``ranks``, the edge choices of the ``r``-th tour of the tables: ``out[k, t]`` for
    step ``t``.

    The moves of state ``g`` are the rows ``first[g]`` to ``first[g + 1]``;
    a move's ``weight`` is the number of tours it leads to and ``child`` the
    state it makes (-1: it finishes a tour). The ranks below a state's count
    are split among its moves in order, each move taking as many as its
    weight: the walk takes the move whose share holds the rank, less the
    shares before it, on to the next state. So each rank below the count of
    the empty frontier names one tour, and each tour one rank.
    """
    for k in range(ranks.size):
        r = ranks[k]
        g = 0
        for t in range(steps):
            e = first[g]
            while r >= weight[e]:
                r -= weight[e]
                e += 1
            out[k, t] = choice[e]
            g = child[e]
            if g < 0:
                break


@kernel("frontier sample")
@njit(cache=True, nogil=True)
def tour_paths(chosen, squares, edge_a, edge_b, size, closed, start, end, turns, out):
    """The squares in order of each walk's tour: ``out[k]`` from the edge choices ``chosen[k]``.

    Step ``t`` adds square ``squares[t]`` with the edges to ``edge_a[t, c]``
    and ``edge_b[t, c]`` (-1: none) for its choice ``c``. An open tour starts
    at ``start`` (-1: none given), else ends at ``end``, else starts at its
    lower end, or its higher where ``turns[k]`` is 1; a closed tour starts at
    ``start`` and goes first to its neighbour ``turns[k]``, or away from
    ``end`` where that is given too.
    """
    n = out.shape[1]
    adj = np.full((size, 2), -1, np.int64)
    for k in range(chosen.shape[0]):
        adj[:] = -1
        for t in range(squares.size):
            v = squares[t]
            c = chosen[k, t]
            for u in (edge_a[t, c], edge_b[t, c]):
                if u >= 0:
                    adj[v, 0 if adj[v, 0] < 0 else 1] = u
                    adj[u, 0 if adj[u, 0] < 0 else 1] = v
        if closed:
            first = start
            if end >= 0:
                nxt = adj[first, 0] if adj[first, 0] != end else adj[first, 1]
            else:
                nxt = adj[first, turns[k]]
        else:
            low = -1
            high = -1
            for t in range(squares.size):  # the two squares with one edge: the ends of the path
                v = squares[t]
                if adj[v, 1] < 0:
                    if low < 0:
                        low = v
                    else:
                        high = v
            if low > high:
                low, high = high, low
            if start >= 0:
                first = start
            elif end >= 0:
                first = low if high == end else high
            else:
                first = high if turns[k] else low
            nxt = adj[first, 0]
        prev = first
        out[k, 0] = first
        cur = nxt
        for i in range(1, n):
            out[k, i] = cur
            step = adj[cur, 0] if adj[cur, 0] != prev else adj[cur, 1]
            prev = cur
            cur = step


@kernel("frontier sample")
@njit(cache=True, nogil=True)
def add_at(out, index, values):
    """``out[index[k]] += values[k]`` for every ``k``, in 64 bits (``numpy.add.at`` without its overhead; the
    caller has bounded the sums below 2**64)."""
    for k in range(index.size):
        out[index[k]] += values[k]


@kernel("frontier sample")
@njit(cache=True, nogil=True)
def add_one_at(out, index):
    """``out[index[k]] += 1`` for every ``k``."""
    for k in range(index.size):
        out[index[k]] += 1
