"""Warnsdorff's walk over a padded board: the Python wrapper, the plain-Python walk, and its result.

The rule and its tie-breaks are explained in :mod:`chesstours.warnsdorff`; the compiled walk is
:mod:`chesstours.warnsdorff.kernel`.
"""

from __future__ import annotations

import mmap
import time
from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..errors import InvalidArgument
from ..pieces import KNIGHT, Leaper
from ..runtime import compiled_below
from ..runtime.xorshift import seeded
from ..settings import WALK_COMPILED_ABOVE as COMPILED_ABOVE
from .rule import BLOCKED, TIEBREAKS, walk_python

__all__ = ["WarnsdorffResult", "warnsdorff", "COMPILED_ABOVE"]



#: A path of more bytes than this is kept on the system's ordinary pages (see :func:`_path_array`).
PLAIN_PAGES_FROM = 1 << 25


def _path_array(n: int) -> np.ndarray:
    """An empty int32 array for a path of ``n`` squares, written once, in order, by the walk.

    numpy asks Linux for huge pages for a large array; the walk then faults
    its path in 2 MiB at a time, and in a fresh process those faults make the
    first walks markedly slower than the later ones. A large path is therefore
    an anonymous map on ordinary pages, which numpy does not advise, and every
    walk takes the same time.
    """
    if 4 * n < PLAIN_PAGES_FROM:
        return np.empty(n, dtype=np.int32)
    return np.frombuffer(mmap.mmap(-1, 4 * n), dtype=np.int32, count=n)


def _weights(free: np.ndarray, offsets: np.ndarray, frame_cells: int) -> np.ndarray:
    """Each free square's count of free neighbours; BLOCKED elsewhere (padded board, vectorised)."""
    n = free.size
    count = np.zeros(n, dtype=np.int8)
    lo, hi = frame_cells, n - frame_cells  # every board square lies in [lo, hi)
    inner = count[lo:hi]
    for off in offsets:
        np.add(inner, free[lo + off : hi + off], out=inner, casting="unsafe")
    count[free == 0] = BLOCKED  # in place: a board of 25 million squares makes no other copy
    return count


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
        The board, holes included.
    start : int
        First square.
    piece : Leaper, optional
        The leaper.
    tiebreak : str, optional
        How ties between squares of fewest onward moves are broken: ``"first"``,
        ``"pohl"``, ``"roth"`` or ``"random"`` (:mod:`chesstours.warnsdorff`).
    seed : int, optional
        Seed of the ``random`` tie-break.
    end : int, optional
        Square kept for the last move.
    closed : bool, optional
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
    path = _path_array(board.free_count)
    rng = np.array([seeded(seed)], dtype=np.uint64)
    if compiled is None:
        compiled = compiled_below(board.free_count, COMPILED_ABOVE, "chesstours.warnsdorff.kernel")
    if compiled:
        from .kernel import walk
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
