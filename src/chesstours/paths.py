"""A path of squares, as a tour must be: the one reader of a path's squares, and its first problem as a tour.

:func:`path_array` reads the squares of a path from a caller or a file and refuses what is not a square;
:func:`first_problem` names the first thing that keeps a path from being a tour of its board (a square off
the board or on a hole, a step that is no leap, a square twice, one missed, no closing leap), in O(N).
:class:`chesstours.tour.Tour` is made of such a path.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .board import Board
from .errors import ChessToursError
from .pieces import Leaper, move_table
from .reading import shown

__all__ = ["InvalidTour", "path_array", "first_problem", "SHORT_PATH"]


class InvalidTour(ChessToursError):
    """A path that is not a tour; ``step`` is the number of the first bad step.

    Step ``i`` is the leap from ``path[i - 1]`` to ``path[i]`` (step 0 is the start).
    """

    def __init__(self, message: str, step: int | None = None):
        super().__init__(message)
        self.step = step


_CHUNK = 1 << 22


#: A path of at most this many squares on a board of at most as many is first checked in plain Python
#: (:func:`_a_short_tour`): numpy's checks cost more than plain Python on a short path, and each tour a
#: listing finds is checked. A path it does not pass is checked again by numpy, which names the problem.
SHORT_PATH = 1024


@functools.lru_cache(maxsize=64)
def _leaps(board: Board, piece: Leaper) -> tuple[frozenset[int], ...]:
    """The squares one leap from each square of ``board`` (none from a hole, none onto one)."""
    return tuple(frozenset(v for v in row if v >= 0) for row in move_table(board, piece).tolist())


def _a_short_tour(board: Board, piece: Leaper, squares: list[int], closed: bool) -> bool:
    """Whether ``squares`` is a tour (``closed``: a closed one), by the checks of :func:`first_problem`: every
    free square once, the first on the board and not a hole, each next one a leap from the one before (so on
    the board and not a hole), and the closing leap."""
    n = len(squares)
    if n != board.free_count or len(set(squares)) != n or not 0 <= squares[0] < board.size \
            or squares[0] in board.holes:
        return False
    leaps = _leaps(board, piece)
    if not all(v in leaps[u] for u, v in zip(squares, squares[1:])):
        return False
    return not closed or (n >= 2 and squares[0] in leaps[squares[-1]])


def path_array(squares: Any) -> np.ndarray:
    """The squares of a path as a contiguous ``int32`` array: the one reader of squares from a caller or a file.

    Squares are whole numbers (not floats, not booleans) that an ``int32`` holds; a value that does not fit is
    refused rather than cast, which would wrap it onto another square.

    :raises InvalidTour: for anything else.

    >>> path_array([0, 7, 2]).dtype
    dtype('int32')
    >>> path_array([0, 2**32])
    Traceback (most recent call last):
    ...
    chesstours.paths.InvalidTour: Square 2 of the path (4294967296) is not on any board.
    """
    if isinstance(squares, np.ndarray):
        array = squares
    else:
        items = list(squares)
        if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in items):
            raise InvalidTour("The squares of a path are whole numbers.")
        try:
            array = np.array(items, dtype=np.int64) if items else np.zeros(0, dtype=np.int32)
        except OverflowError:
            array = np.array(items, dtype=object)
    if array.dtype == object:
        big = next(i for i, v in enumerate(array.tolist()) if not _INT32_MIN <= v <= _INT32_MAX)
        raise InvalidTour(f"Square {big + 1} of the path ({shown(array[big])}) is not on any board.", big)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise InvalidTour("The squares of a path are whole numbers.")
    if array.ndim != 1:
        raise InvalidTour("A path is a one-dimensional list of squares.")
    if array.dtype.itemsize > 4 or array.dtype == np.uint32:
        outside = np.flatnonzero((array < _INT32_MIN) | (array > _INT32_MAX))
        if outside.size:
            i = int(outside[0])
            raise InvalidTour(f"Square {i + 1} of the path ({int(array[i])}) is not on any board.", i)
    return np.ascontiguousarray(array, dtype=np.int32)


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def first_problem(board: Board, piece: Leaper, path: np.ndarray, closed: bool) -> tuple[str, int | None] | None:
    """Return ``(sentence, step)`` for the first thing wrong with ``path``, or None.

    Checks: squares on the board and not holes; each step a leap of ``piece``;
    no square twice; every free square visited; the closing leap when
    ``closed``. Step ``i`` is the leap from ``path[i - 1]`` to ``path[i]``.
    O(N) time; the path is checked in chunks so that a 10^8-square tour needs
    only a bitmap of the board beside it.
    """
    path = np.asarray(path)
    if path.ndim != 1 or path.size == 0:
        return ("The path is empty.", None)
    if not np.issubdtype(path.dtype, np.integer):
        return ("The path must be a list of squares.", None)
    if path.size <= SHORT_PATH and board.size <= SHORT_PATH and _a_short_tour(board, piece, path.tolist(), closed):
        return None
    size, cols, n = board.size, board.cols, int(path.size)
    a, b = piece.a, piece.b
    visited = np.zeros(size, dtype=np.bool_)
    hole = board.hole_mask if board.holes else None
    bad_step = None
    for lo in range(0, n, _CHUNK):
        hi = min(n, lo + _CHUNK + 1)  # one square of overlap joins the chunks
        part = path[lo:hi].astype(np.int64)
        off = np.flatnonzero((part < 0) | (part >= size))
        if off.size:
            i = lo + int(off[0])
            return (f"Square {i + 1} of the path ({int(path[i])}) is not on the board.", i)
        if hole is not None:
            on_hole = np.flatnonzero(hole[part])
            if on_hole.size:
                i = lo + int(on_hole[0])
                return (f"Square {i + 1} of the path, {board.name(path[i])}, is a hole.", i)
        r, c = np.divmod(part, cols)
        dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
        illegal = np.flatnonzero(~(((dr == a) & (dc == b)) | ((dr == b) & (dc == a))))
        if illegal.size and bad_step is None:
            bad_step = lo + int(illegal[0]) + 1
        visited[part[: hi - lo if hi == n else -1]] = True
    distinct = int(np.count_nonzero(visited))
    first_rep = None
    if distinct != n:
        # Slow path, only for a broken tour: the first square seen twice.
        squares, first_index = np.unique(path, return_index=True)
        seen_at = np.full(size, -1, dtype=np.int64)
        seen_at[squares] = first_index
        repeat = np.flatnonzero(seen_at[path] != np.arange(n))
        first_rep = int(repeat[0])
    if first_rep is not None and (bad_step is None or first_rep <= bad_step):
        v = int(path[first_rep])
        return (
            f"Step {first_rep} returns to {board.name(v)}, already visited at step {int(seen_at[v])}.",
            first_rep,
        )
    if bad_step is not None:
        i = bad_step
        return (
            f"Step {i}, from {board.name(path[i - 1])} to {board.name(path[i])}, is not a {piece.name} move.",
            i,
        )
    n_free = board.free_count
    if n != n_free:
        missing = np.flatnonzero(~visited & ~board.hole_mask)
        names = ", ".join(board.names(missing[:5])) + (", ..." if missing.size > 5 else "")
        return (f"The path visits {n} of {n_free} squares; missing: {names}.", None)
    if closed:
        p0, p1 = int(path[0]), int(path[-1])
        if n < 2 or not piece.is_move(p1 // cols - p0 // cols, p1 % cols - p0 % cols):
            return (
                f"The tour is marked closed but {board.name(p1)} is not a {piece.name} move "
                f"from {board.name(p0)}.",
                n,
            )
    return None
