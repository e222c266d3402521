"""The rule in plain Python: its constants and the walk that the compiled kernel repeats bit for bit.

Small boards walk here, answering before numba could even load, and the tests hold
:func:`chesstours.warnsdorff.kernel.walk` to :func:`walk_python`.
"""

from __future__ import annotations

from typing import Literal, get_args

from ..runtime.xorshift import xorshift

__all__ = ["Tiebreak", "TIEBREAKS", "BLOCKED", "FREE_BELOW", "walk_python"]

#: Tie-break rules, in the order the kernel numbers them.
Tiebreak = Literal["first", "pohl", "roth", "random"]
TIEBREAKS: tuple[Tiebreak, ...] = get_args(Tiebreak)

#: Weight of a blocked square (visited, hole or frame). Visiting lowers the
#: weight of every neighbour without testing it first, so a blocked square can
#: lose up to 8 and still reads as blocked (>= FREE_BELOW).
BLOCKED = 100
FREE_BELOW = 64


def walk_python(weight, offsets, dr, dc, width, rows, cols, start_r, start_c, end, rule, rng, path) -> int:
    """The same walk as the compiled kernel, in plain Python (for small boards and as its test oracle).

    Arguments as :func:`chesstours.warnsdorff.kernel.walk`; ``weight``
    and ``path`` are numpy arrays updated in place, ``rng`` a uint64 array.
    """
    w8 = weight.tolist()
    offs, drs, dcs = [int(o) for o in offsets], [int(d) for d in dr], [int(d) for d in dc]
    k, n = len(offs), path.shape[0]
    state = [int(rng[0])]
    frame = (width - cols) // 2
    r, c = start_r, start_c
    cur = (r + frame) * width + c + frame
    out = [0] * n
    w8[cur] = BLOCKED
    for o in offs:
        w8[cur + o] -= 1
    out[0] = r * cols + c
    big = 1 << 40
    placed = n
    for step in range(1, n):
        last = step == n - 1
        best = -1
        if rule == 0 or rule == 2:
            x = (2 * r - rows + 1) if rule == 2 else 0
            y = (2 * c - cols + 1) if rule == 2 else 0
            best_key = big * FREE_BELOW
            for j in range(k):
                u = cur + offs[j]
                w = w8[u]
                if w >= FREE_BELOW or (u == end and not last):
                    continue
                key = w * big - (x * drs[j] + y * dcs[j])
                if key < best_key:
                    best, best_key = j, key
        else:
            best_weight, best_score, ties = FREE_BELOW, 0, 0
            for j in range(k):
                u = cur + offs[j]
                w = w8[u]
                if w > best_weight or w >= FREE_BELOW or (u == end and not last):
                    continue
                score = 0
                if rule == 1:
                    for o in offs:
                        t = w8[u + o]
                        if t < FREE_BELOW:
                            score += t
                if w < best_weight:
                    best, best_weight, best_score, ties = j, w, score, 1
                elif score < best_score:
                    best, best_score, ties = j, score, 1
                elif score == best_score:
                    ties += 1
                    if rule == 3 and xorshift(state) % ties == 0:
                        best = j
        if best < 0:
            placed = step
            break
        cur += offs[best]
        r += drs[best]
        c += dcs[best]
        w8[cur] = BLOCKED
        for o in offs:
            w8[cur + o] -= 1
        out[step] = r * cols + c
    path[:placed] = out[:placed]
    weight[:] = w8
    rng[0] = state[0]
    return placed
