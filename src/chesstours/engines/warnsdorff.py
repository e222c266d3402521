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

import numba
import numpy as np

from ..board import Board
from ..errors import InvalidArgument
from ..pieces import KNIGHT, Leaper

__all__ = ["TIEBREAKS", "WarnsdorffResult", "warnsdorff"]

#: Tie-break rules, in the order the kernel numbers them.
TIEBREAKS = ("first", "pohl", "roth", "random")


@numba.njit(cache=True, nogil=True)
def _xorshift(state):
    """One step of xorshift64*; ``state`` is a one-element uint64 array."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


#: Weight of a blocked square (visited, hole or frame). Visiting lowers the
#: weight of all eight neighbours without testing them first, so a blocked
#: square can lose up to 8 and still reads as blocked (>= _FREE_BELOW).
_BLOCKED = 100
_FREE_BELOW = 64


@numba.njit(cache=True, nogil=True)
def _walk(weight, offsets, dr, dc, width, rows, cols, start_r, start_c, end, rule, rng, path):
    """Walk Warnsdorff's rule from (``start_r``, ``start_c``); return the squares placed.

    ``weight`` (int8, padded board) holds each free square's count of free
    neighbours and ``_BLOCKED`` on visited squares, holes and the frame.
    ``path`` receives unpadded square indices. ``end`` (a padded index, or -1)
    is kept for the last move. Returns how many squares were placed; fewer
    than ``len(path)`` means a dead end.

    For ``first`` and ``roth`` each candidate gets one integer key, weight
    first and tie-break second, and the smallest key wins. Roth's distance
    needs no square root: every leap has the same length, so among the
    squares one leap from (r, c) the farthest from the centre is the one
    whose offset (dr, dc) has the largest dot product with the vector from
    the centre to (r, c).
    """
    n = path.shape[0]
    k = offsets.shape[0]
    frame = (width - cols) // 2
    r, c = start_r, start_c
    cur = (r + frame) * width + c + frame
    weight[cur] = _BLOCKED
    for j in range(k):
        weight[cur + offsets[j]] -= 1
    path[0] = r * cols + c
    big = np.int64(1) << 40
    for step in range(1, n):
        last = step == n - 1
        best = -1
        if rule == 0 or rule == 2:
            # x, y: twice the vector from the centre to (r, c); zero for "first".
            x = (2 * r - rows + 1) if rule == 2 else 0
            y = (2 * c - cols + 1) if rule == 2 else 0
            best_key = big * _FREE_BELOW
            for j in range(k):
                u = cur + offsets[j]
                w = weight[u]
                if w >= _FREE_BELOW or (u == end and not last):
                    continue
                key = w * big - (x * dr[j] + y * dc[j])
                if key < best_key:
                    best, best_key = j, key
        else:
            best_weight = _FREE_BELOW
            best_score = 0
            ties = 0
            for j in range(k):
                u = cur + offsets[j]
                w = weight[u]
                if w > best_weight or w >= _FREE_BELOW or (u == end and not last):
                    continue
                score = 0
                if rule == 1:  # pohl: smallest total weight of the onward squares
                    for i in range(k):
                        t = weight[u + offsets[i]]
                        if t < _FREE_BELOW:
                            score += t
                if w < best_weight:
                    best, best_weight, best_score, ties = j, w, score, 1
                elif score < best_score:
                    best, best_score, ties = j, score, 1
                elif score == best_score:
                    ties += 1
                    if rule == 3 and _xorshift(rng) % np.uint64(ties) == 0:
                        best = j  # random: reservoir sampling over the ties
        if best < 0:
            return step
        cur += offsets[best]
        r += dr[best]
        c += dc[best]
        weight[cur] = _BLOCKED
        for j in range(k):
            weight[cur + offsets[j]] -= 1
        path[step] = r * cols + c
    return n


@numba.njit(cache=True, nogil=True)
def _weights(free, offsets):
    """Each free square's count of free neighbours; ``_BLOCKED`` elsewhere (padded board)."""
    weight = np.empty(free.shape[0], dtype=np.int8)
    k = offsets.shape[0]
    for v in range(free.shape[0]):
        if free[v]:
            w = 0
            for j in range(k):
                t = v + offsets[j]
                if 0 <= t < free.shape[0] and free[t]:
                    w += 1
            weight[v] = w
        else:
            weight[v] = _BLOCKED
    return weight


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

    Returns
    -------
    WarnsdorffResult
        ``complete`` is False when the rule reached a dead end.
    """
    if tiebreak not in TIEBREAKS:
        raise InvalidArgument(f"Unknown tie-break {tiebreak!r}; use one of {', '.join(TIEBREAKS)}.")
    t0 = time.perf_counter()
    free, offsets, width, frame = _padded(board, piece)
    weight = _weights(free, offsets)
    del free
    dr = np.array([o[0] for o in piece.offsets()], dtype=np.int64)
    dc = np.array([o[1] for o in piece.offsets()], dtype=np.int64)
    end_padded = -1 if end is None else (end // board.cols + frame) * width + end % board.cols + frame
    path = np.empty(board.free_count, dtype=np.int32)
    rng = np.array([(seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) % 2**64 | 1], dtype=np.uint64)
    t1 = time.perf_counter()
    placed = _walk(
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
