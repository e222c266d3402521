"""Build a tour from the stored pieces: plan the cut, write the step field, follow it from the start.

The method is explained in :mod:`chesstours.construct`.
"""

from __future__ import annotations

import time

import numpy as np

from ..board import Board
from ..errors import ChessToursError, InvalidArgument, NoTour
from ..existence.reasons import obstruction
from ..pieces import KNIGHT, Leaper
from ..runtime import compiled_below
from ..tour import Tour
from .blocks import block_steps, plan_blocks
from .data import base_tours
from .plain import COMPILED_ABOVE, KERNELS, follow_python
from .strips import plan_strip, strip_start_reason, strip_steps

__all__ = ["construct_tour", "construct_path", "follow_steps", "can_construct"]


def follow_steps(step: np.ndarray, start: int, closed: bool, compiled: bool | None = None) -> np.ndarray:
    """The path (``int32``) that the step field traces from ``start``.

    ``compiled``: force the compiled loop (True) or the plain-Python one
    (False); by default fields above
    :data:`~chesstours.construct.plain.COMPILED_ABOVE` squares are compiled.

    :raises ChessToursError: if the steps do not trace one tour of every square
        (an internal error: the construction is checked by the test suite).
    """
    path = np.empty(step.size, dtype=np.int32)
    if compiled is None:
        compiled = compiled_below(step.size, COMPILED_ABOVE, KERNELS)
    if compiled:
        from .kernel import follow
    else:
        follow = follow_python

    count, after = follow(step, int(start), path)
    if count != step.size or (closed and after != start):
        raise ChessToursError(
            f"Internal error: the construction traced {count} of {step.size} squares; please report it."
        )
    return path


def can_construct(board: Board, piece: Leaper = KNIGHT) -> bool:
    """True when the construction applies: the knight on a whole board (no holes)."""
    return piece == KNIGHT and not board.holes


def construct_path(rows: int, cols: int, start: int, closed: bool) -> tuple[np.ndarray, bool]:
    """The squares of a knight's tour of rows x cols from ``start``, and whether it is closed.

    The tour is closed whenever the board has a closed tour (so an open tour
    asked for on such a board is a closed one cut open). The caller checks
    first that a tour exists (:func:`chesstours.existence.reasons.obstruction`).

    :raises InvalidArgument: if no stored piece fits (a board or start without a tour).
    """
    data = base_tours()
    if rows * cols == 1:
        return np.zeros(1, dtype=np.int32), False
    if min(rows, cols) <= 4:
        if rows > cols:
            path, is_closed = construct_path(cols, rows, _transpose(np.array([start]), rows, cols)[0], closed)
            return _transpose(path, cols, rows), is_closed
        plan = plan_strip(data, rows, cols, start, closed)
        if plan is None:
            raise InvalidArgument(f"The construction has no tour of {rows}x{cols} from square {start}.")
        step = strip_steps(data, plan, rows, cols)
        return follow_steps(step, start, plan.closed), plan.closed
    blocks = plan_blocks(data, rows, cols, start)
    if blocks is None:
        raise InvalidArgument(f"The construction has no tour of {rows}x{cols} from square {start}.")
    step = block_steps(data, blocks, rows, cols)
    is_closed = blocks.path_block is None
    return follow_steps(step, start, is_closed), is_closed


def _transpose(path: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Squares of a rows x cols board -> the same squares of its cols x rows transpose."""
    r, c = np.divmod(path.astype(np.int64), cols)
    return (c * rows + r).astype(np.int32)


def construct_tour(board: Board, start: int | None = None, end: int | None = None, closed: bool = False,
                   piece: Leaper = KNIGHT) -> Tour:
    """A knight's tour of a whole board built by divide and conquer (not yet validated).

    Parameters
    ----------
    board : Board
        Any size; no holes.
    start : int, optional
        First square (a1 by default).
    end : int, optional
        Last square: the constructed tour is rotated until it ends there
        (:func:`~chesstours.construct.end.rotate_to_end`). With
        ``closed``, it must be a knight move from the start.
    closed : bool, optional
        Ask for a closed tour.
    piece : Leaper, optional
        The knight: any other piece is refused (``InvalidArgument``).

    Raises
    ------
    NoTour
        The theory rules the tour out (with its reason).
    InvalidArgument
        Holes, another piece than the knight, or an end square the rotations
        did not reach (on 3 x n and 4 x n boards, or past their budget of work).
    """
    if piece != KNIGHT:
        raise InvalidArgument(f"The construction makes knight's tours only, not tours of the {piece.name}; "
                              "search for one (--method auto or backtrack).")
    if board.holes:
        raise InvalidArgument(f"The construction makes tours of whole boards only, and {board} has holes; search "
                              "for one (--method auto or backtrack).")
    s = 0 if start is None else int(start)
    e = None if end is None else int(end)
    reason = obstruction(board, piece, s, e, closed)
    if reason is not None:
        raise reason
    if min(board.rows, board.cols) <= 4 and board.size > 1:
        for v, role in ((s, None), (e, "end")):
            why = None if v is None else _strip_reason(board, v)
            if why is not None and role is None:
                raise NoTour(f"No tour from {board.name(s)} on {board}: {why}.",
                             "exhaustive" if "search" in why else "theorem")
            if why is not None and v is not None:
                raise NoTour(f"No tour ends on {board.name(v)} on {board} (walked backwards, it would be a tour "
                             f"from there): {why}.", "exhaustive" if "search" in why else "theorem")
    t0 = time.perf_counter()
    path, is_closed = construct_path(board.rows, board.cols, s, closed)
    if e is not None:
        path = _ending_at(board, path, is_closed, e, closed)
    seconds = time.perf_counter() - t0
    stats = {"seconds": seconds, "squares_per_second": round(path.size / max(1e-9, seconds))}
    return Tour(board, piece, path, closed, "construct", stats)


def _strip_reason(board: Board, v: int) -> str | None:
    """Why no tour of a board 3 or 4 wide can start on ``v``, or None."""
    narrow = min(board.rows, board.cols)
    along = v if board.rows <= board.cols else int(_transpose(np.array([v]), board.rows, board.cols)[0])
    return strip_start_reason(narrow, board.size // narrow, along)


#: Seeds tried for each way round before the rotations give up (more on small boards, where a try
#: costs little; one on boards over a million squares).
_ROTATION_TRIES = 6


def _ending_at(board: Board, path: np.ndarray, is_closed: bool, e: int, closed: bool) -> np.ndarray:
    """The constructed ``path`` changed to end at ``e`` (same first square ``s``).

    First the tour from ``s`` is rotated until it ends at ``e``; if that gives
    up, a tour built from ``e`` is rotated until it ends at ``s``, and walked
    backwards.

    :raises InvalidArgument: if the rotations gave up both ways.
    """
    s = int(path[0])
    found = _rotated(board, path, is_closed, e)
    if found is None:
        try:
            back, back_closed = construct_path(board.rows, board.cols, e, closed)
        except InvalidArgument:
            back = None
        found = None if back is None else _rotated(board, back, back_closed, s)
        if found is not None:
            found = np.ascontiguousarray(found[::-1])
    if found is None:
        raise InvalidArgument(
            f"The construction could not end its tour of {board} on {board.name(e)}: it moves the end of "
            "its tour by rotations, and they gave up; method auto searches instead."
        )
    return found


def _rotated(board: Board, path: np.ndarray, is_closed: bool, e: int) -> np.ndarray | None:
    """``path`` rotated to end at ``e``, or None.

    A closed tour can be walked either way round from its start: the way
    whose last square is nearer ``e`` is rotated first, then the other, each
    with a few seeds of the rotations' random tie-breaks (the greedy search
    can circle on small boards; another seed goes another way).
    """
    from .end import rotate_to_end

    ways = [path]
    if is_closed:
        ways.append(np.concatenate((path[:1], path[:0:-1])))
        if path[1] == e or _nearer(board, int(path[1]), int(path[-1]), e):
            ways.reverse()
    for way in ways:
        if way[-1] == e:
            return way
    if board.size > 1_000_000:
        tries = 1
    elif compiled_below(board.size, COMPILED_ABOVE, KERNELS):
        tries = max(_ROTATION_TRIES, 4096 // board.size)
    else:  # in plain Python a try costs fifty times more: where the rotations fail, the search decides
        tries = _ROTATION_TRIES
    for seed in range(tries):
        for way in ways:
            moved = rotate_to_end(way.copy(), board.rows, board.cols, e, seed)
            if moved is not None:
                return moved
    return None


def _nearer(board: Board, a: int, b: int, e: int) -> bool:
    """True when square ``a`` is nearer ``e`` than ``b`` is (in rows plus columns)."""
    def far(v: int) -> int:
        return abs(v // board.cols - e // board.cols) + abs(v % board.cols - e % board.cols)
    return far(a) < far(b)
