"""Warnsdorff's rule: always move to the square with the fewest onward moves.

H. C. von Warnsdorff (1823) proposed the rule for the knight; the TIPE dossier
(seed 000, Algorithm 1) gives it as weights ("poids") equal to the number of
squares reachable from each square, the knight moving to a free square of least
weight. It runs in linear time and needs no backtracking, but it is a
heuristic: it can reach a dead end, and with plain tie-breaking it fails more
and more often as boards grow (Squirrel & Cull 1996: under 5 % success beyond
200 x 200 with random ties).

What decides the rule is how ties between squares of equal weight are broken:

``first``
    The first square in the fixed move order wins (the dossier's strict ``<``).
``pohl``
    Pohl (1967), CACM 10(7): among tied squares, the one whose onward squares
    have the smallest total weight (the rule applied one move further).
``roth``
    Roth: the tied square farthest from the centre of the board (Euclidean).
``random``
    A tied square chosen uniformly at random, from a seeded generator.

The kernel keeps the weights incrementally: visiting a square lowers the weight
of each of its free neighbours by one, so each step costs O(K) for a K-move
leaper. It works on a board padded with a frame of blocked squares as wide as
the longest leap, so a move needs no bounds test; holes are blocked squares.

References
----------
.. [1] H. C. von Warnsdorff, "Des Rösselsprunges einfachste und allgemeinste
   Lösung", Schmalkalden, 1823.
.. [2] I. Pohl, "A method for finding Hamilton paths and Knight's tours",
   Communications of the ACM 10(7):446-449, 1967.
.. [3] D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's
   tours on square chessboards", 1996.

Examples
--------
>>> from chesstours.board import Board
>>> result = warnsdorff(Board(8, 8), start=0, tiebreak="first")
>>> result.complete, len(result.path)
(True, 64)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..errors import InvalidArgument
from ..pieces import KNIGHT, Leaper

__all__ = ["TIEBREAKS", "WarnsdorffResult", "warnsdorff", "walk_python", "COMPILED_ABOVE"]

#: Tie-break rules, in the order the kernel numbers them.
TIEBREAKS = ("first", "pohl", "roth", "random")

#: Weight of a blocked square (visited, hole or frame). Visiting lowers the
#: weight of every neighbour without testing it first, so a blocked square can
#: lose up to 8 and still reads as blocked (>= FREE_BELOW).
BLOCKED = 100
FREE_BELOW = 64

#: Boards with more free squares than this use the compiled kernel; smaller
#: ones use :func:`walk_python`, which answers before numba could even load.
COMPILED_ABOVE = 4096

_MASK64 = (1 << 64) - 1


def _xorshift_python(state: list[int]) -> int:
    """xorshift64*, as the kernel's: ``state`` is a one-element list."""
    x = state[0]
    x ^= x >> 12
    x ^= (x << 25) & _MASK64
    x ^= x >> 27
    state[0] = x
    return (x * 2685821657736338717) & _MASK64


def walk_python(weight, offsets, dr, dc, width, rows, cols, start_r, start_c, end, rule, rng, path) -> int:
    """The same walk as the compiled kernel, in plain Python (for small boards and as its test oracle).

    Arguments as :func:`chesstours.engines.warnsdorff_kernel.walk`; ``weight``
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
                    if rule == 3 and _xorshift_python(state) % ties == 0:
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


def _weights(free: np.ndarray, offsets: np.ndarray, frame_cells: int) -> np.ndarray:
    """Each free square's count of free neighbours; BLOCKED elsewhere (padded board, vectorised)."""
    n = free.size
    count = np.zeros(n, dtype=np.int8)
    lo, hi = frame_cells, n - frame_cells  # every board square lies in [lo, hi)
    for off in offsets:
        count[lo:hi] += free[lo + off : hi + off]
    return np.where(free.astype(bool), count, np.int8(BLOCKED)).astype(np.int8)


@dataclass
class WarnsdorffResult:
    """What one walk of Warnsdorff's rule produced.

    ``path`` holds the squares placed (all of them when ``complete``); the
    walk stopped at a dead end after ``len(path)`` squares otherwise.
    """

    path: np.ndarray
    complete: bool
    closed: bool
    tiebreak: str
    seconds: float
    kernel_seconds: float


def _padded(board: Board, piece: Leaper) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The padded free-square array, linear move offsets, row width and frame.

    The frame is one leap wide on every side, plus one so that a blocked
    square's neighbours stay inside the array.
    """
    frame = piece.b + 1
    width = board.cols + 2 * frame
    free = np.zeros((board.rows + 2 * frame) * width, dtype=np.uint8)
    view = free.reshape(board.rows + 2 * frame, width)
    view[frame : frame + board.rows, frame : frame + board.cols] = ~board.hole_mask.reshape(board.shape)
    offsets = np.array([dr * width + dc for dr, dc in piece.offsets()], dtype=np.int64)
    return free, offsets, width, frame


def warnsdorff(
    board: Board,
    start: int,
    piece: Leaper = KNIGHT,
    tiebreak: str = "roth",
    seed: int = 0,
    end: int | None = None,
    closed: bool = False,
    compiled: bool | None = None,
) -> WarnsdorffResult:
    """Walk Warnsdorff's rule from ``start``; it may stop at a dead end.

    Parameters
    ----------
    board : Board
    start : int
        First square.
    piece : Leaper
    tiebreak : {"first", "pohl", "roth", "random"}
    seed : int
        Seed of the ``random`` tie-break.
    end : int, optional
        Square kept for the last move.
    closed : bool
        Whether a closed tour is wanted: the walk is the same, and the result
        says whether the last square leaps back to the first.
    compiled : bool, optional
        Force the compiled kernel (True) or the plain Python walk (False);
        by default boards above ``COMPILED_ABOVE`` squares are compiled.

    Returns
    -------
    WarnsdorffResult
        ``complete`` is False when the rule reached a dead end.
    """
    if tiebreak not in TIEBREAKS:
        raise InvalidArgument(f"Unknown tie-break {tiebreak!r}; use one of {', '.join(TIEBREAKS)}.")
    t0 = time.perf_counter()
    free, offsets, width, frame = _padded(board, piece)
    weight = _weights(free, offsets, frame * width)
    del free
    dr = np.array([o[0] for o in piece.offsets()], dtype=np.int64)
    dc = np.array([o[1] for o in piece.offsets()], dtype=np.int64)
    end_padded = -1 if end is None else (end // board.cols + frame) * width + end % board.cols + frame
    path = np.empty(board.free_count, dtype=np.int32)
    rng = np.array([(seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) % 2**64 | 1], dtype=np.uint64)
    if compiled is None:
        compiled = board.free_count > COMPILED_ABOVE
    if compiled:
        from .warnsdorff_kernel import walk
    else:
        walk = walk_python
    t1 = time.perf_counter()
    placed = walk(
        weight, offsets, dr, dc, width, board.rows, board.cols, start // board.cols, start % board.cols,
        end_padded, TIEBREAKS.index(tiebreak), rng, path,
    )
    t2 = time.perf_counter()
    complete = placed == path.size
    is_closed = False
    if complete and closed and path.size > 1:
        p0, p1 = int(path[0]), int(path[-1])
        is_closed = piece.is_move(p1 // board.cols - p0 // board.cols, p1 % board.cols - p0 % board.cols)
    return WarnsdorffResult(path[:placed], complete, is_closed, tiebreak, time.perf_counter() - t0, t2 - t1)
