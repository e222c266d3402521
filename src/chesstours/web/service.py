"""The calls the web api makes into the library, one function per question.

Each function takes parsed arguments, calls the public api and returns the
JSON the command line prints for the same question; it runs in a worker
thread (see :mod:`chesstours.web.limits`) and raises the library's errors,
which the app turns into HTTP answers. Nothing here searches: the searching
is the library's.
"""

from __future__ import annotations

import time

import numpy as np

from ..api import count_tours, estimate_count, find_tour
from ..arguments import check_limits, prepare_query
from ..board import Board
from ..complete import complete_tour, parse_path
from ..errors import InvalidArgument, LimitReached, NoTour
from ..pieces import Leaper, move_table
from ..theory import obstruction
from .limits import OverLimit

__all__ = ["board_moves", "count", "existence", "tour"]


def tour(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    method: str,
    tiebreak: str | None,
    seed: int,
    order: str,
    played: str | None,
    time_limit: float,
) -> dict:
    """One tour, as ``chesstours tour ... --format json`` prints it.

    With ``played`` (comma-separated squares), a tour that begins with those
    moves (:func:`~chesstours.complete_tour`).
    """
    if played is None:
        found = find_tour(board, start, end, closed, piece, method, tiebreak=tiebreak, seed=seed, order=order,
                          time_limit=time_limit)
        return found.to_dict()
    path = parse_path(board, played)
    if start is not None and board.square(start) != path[0]:
        raise InvalidArgument(
            f"The played path starts on {board.name(path[0])}, not on the start square {start.strip()}."
        )
    if method == "warnsdorff":
        raise InvalidArgument("A played path is finished by backtracking; use the method auto or backtrack.")
    return complete_tour(board, path, end, closed, piece, order=order, time_limit=time_limit).to_dict()


def count(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    time_limit: float,
    workers: int,
) -> dict:
    """Exact counts, as ``chesstours count ... --json`` prints them.

    A count whose estimated search would outlast ``time_limit`` is refused
    before it starts (:class:`OverLimit`).
    """
    check_limits(time_limit, None)
    _, seconds = estimate_count(board, start, end, closed, piece, workers=workers)
    if seconds > time_limit:
        raise OverLimit(
            f"Counting the tours of {board} would take about {_duration(seconds)} here, more than this server's "
            f"{time_limit:g}-second limit; the command line has none (chesstours count {board.rows}x{board.cols})."
        )
    return count_tours(board, start, end, closed, piece, time_limit=time_limit, workers=workers).to_dict()


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 2 * 365.25 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365.25 * 86400):.2g} years"


def existence(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    time_limit: float,
) -> dict:
    """Does a tour exist, and how is it known?

    Returns ``{"exists": True | False, "proof": ..., "reason": ..., "tour": [...] | None}``.
    ``proof`` is ``"tour"`` (one was found: ``tour`` lists its squares), the
    kind of theorem that rules tours out (``"colour"``, ``"connectivity"``,
    ``"theorem"``), or ``"exhaustive"`` (a complete search found none).

    This is the one seam between the ``/api/exists`` endpoint and the library:
    today the theory's :func:`~chesstours.theory.obstruction` answers "no" when
    it can, and a time-limited :func:`~chesstours.find_tour` (complete:
    Warnsdorff's rule, then backtracking) answers the rest with a tour as
    certificate or an exhaustive search. A dedicated decision procedure in the
    library replaces this body without touching the endpoint.

    :raises LimitReached: when ``time_limit`` runs out before an answer.
    """
    board, piece, s, e = prepare_query(board, start, end, piece)
    check_limits(time_limit, None)
    reason = obstruction(board, piece, s, e, closed)
    if reason is not None:
        return {"exists": False, "proof": reason.proof, "reason": reason.reason, "tour": None}
    deadline = time.perf_counter() + time_limit
    if closed or s is not None:
        tries = [(s, e, False)]
    elif e is not None:
        tries = [(e, None, True)]  # a tour that ends on e, walked backwards, starts on e
    else:
        tries = [(v, None, False) for v in _one_square_per_orbit(board)]
    for first, last, backwards in tries:
        left = deadline - time.perf_counter()
        if not left > 0:
            raise LimitReached(f"The {time_limit:g}-second time limit ran out before a tour was found.")
        try:
            found = find_tour(board, first, last, closed, piece, "auto", time_limit=left)
        except NoTour as exc:
            if len(tries) == 1:
                return {"exists": False, "proof": exc.proof, "reason": exc.reason, "tour": None}
            continue
        if backwards:
            found = found.reversed()
        kind = "closed tour" if closed else "tour"
        return {
            "exists": True,
            "proof": "tour",
            "reason": f"Here is a {kind} of {board} from {board.name(found.start)} to "
                      f"{board.name(found.end)}, found by {found.method}.",
            "tour": found.names(),
        }
    return {
        "exists": False,
        "proof": "exhaustive",
        "reason": f"No tour on {board}: an exhaustive search from every square (one per symmetry class) found none.",
        "tour": None,
    }


def _one_square_per_orbit(board: Board) -> list[int]:
    """One free square from each class of squares that the board's symmetries exchange."""
    perms = board.symmetries()
    free = board.free_squares.astype(np.int64)
    return sorted({int(v) for v in perms[:, free].min(axis=0)})


def unknown(exc: LimitReached) -> dict:
    """The answer of :func:`existence` when the time ran out first."""
    return {"exists": None, "proof": None, "reason": f"Unknown: {exc}", "tour": None}


def board_moves(board: Board, piece: Leaper) -> dict:
    """The board and its move table: what the page needs to let a player move.

    ``moves[v]`` lists the squares one leap from square ``v`` (``v = row * cols
    + col``, row 0 is rank 1), holes excluded; ``names[v]`` is the name of ``v``.
    """
    table = move_table(board, piece)
    return {
        "board": board.spec(),
        "piece": piece.spec(),
        "names": board.names(range(board.size)),
        "moves": [[int(u) for u in row if u >= 0] for row in table],
    }
