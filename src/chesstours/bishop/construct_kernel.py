"""The construction's kernels: the kept links of a route split into trails, and a trail walked end to end.

A link is a step of the bishop between two squares; :func:`label_trails` gives each kept link the trail it
belongs to, and :func:`walk_trail` follows the trail from a corner to its other end
(:mod:`chesstours.bishop.construct`).
"""

from __future__ import annotations

import numba

from ..runtime import kernel

__all__ = ["label_trails", "walk_trail"]


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _link(step_to, v, d):
    """Index of the link leaving ``v`` in direction ``d``: twice its lower square, plus its axis."""
    if d == 0 or d == 3:
        return 2 * v + (d & 1)
    return 2 * step_to[v, d] + (d & 1)


@kernel("bishop")
@numba.njit(cache=True, nogil=True, inline="always")
def _leave(present, v, d):
    """The direction the bishop leaves ``v`` by, having entered it moving in direction ``d``:
    straight on through a crossing (all four links kept), else the kept link it did not come by;
    -1 at a dead end (a corner)."""
    links = present[v]
    if links == 15:
        return d
    back = (d + 2) & 3
    for e in range(4):
        if (links >> e) & 1 and e != back:
            return e
    return -1


@kernel("bishop")
@numba.njit(cache=True, nogil=True)
def label_trails(step_to, present, start, label):
    """Split the kept links into trails; ``label[link]`` is its trail (-1: no link). Returns the
    number of trails; trail 0 is the one from ``start``, which has one link (a corner)."""
    label[:] = -1
    trails = 0
    n = present.shape[0]
    for i in range(n + 1):
        v = start if i == 0 else i - 1
        for d in range(4):
            if not (present[v] >> d) & 1 or label[_link(step_to, v, d)] >= 0:
                continue
            x, e = v, d
            while e >= 0:
                k = _link(step_to, x, e)
                if label[k] >= 0:
                    break  # a loop, back where it began
                label[k] = trails
                x = step_to[x, e]
                e = _leave(present, x, e)
            trails += 1
    return trails


@kernel("bishop")
@numba.njit(cache=True, nogil=True)
def walk_trail(step_to, present, start, out):
    """Walk the trail from ``start`` (a corner) to its other end; write its squares to ``out`` and
    return how many."""
    out[0] = start
    length = 1
    e = -1
    for d in range(4):
        if (present[start] >> d) & 1:
            e = d
    x = start
    while e >= 0 and length < out.shape[0]:
        x = step_to[x, e]
        out[length] = x
        length += 1
        e = _leave(present, x, e)
    return length
