"""Completing a partial path: "solve from here".

A player who has made some moves asks whether the moves so far can still be
finished into a tour, and how. :func:`complete_tour` answers with the same
complete backtracking search that :func:`~chesstours.find_tour` falls back
on, started from the whole played path instead of a single square: every
tour it can return begins with exactly those moves, and when it finds none
the search was exhaustive, so none exists.

The played path is checked first -- squares on the board and not holes, no
square twice, each step one leap of the piece -- and each problem is one
sentence naming the move at fault. Then the theory's reasons for the whole
board (colour, connectivity, Schwenk's theorem) are tried, as for
:func:`~chesstours.find_tour`, before any search.

Examples
--------
>>> import chesstours as ct
>>> tour = complete_tour("5x5", ["a1", "b3", "c1"])
>>> tour.names()[:3], len(tour)
(['a1', 'b3', 'c1'], 25)
>>> complete_tour("5x5", ["a1", "b3", "b4"])
Traceback (most recent call last):
...
chesstours.errors.InvalidArgument: Move 2 of the played path, from b3 to b4, is not a knight move.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from . import policy
from .arguments import check_limits, prepare_query
from .backtrack.tasks import Task, first_tour, split_tasks
from .board import Board, Holes
from .errors import InvalidArgument, InvalidSquare, LimitReached, NoTour
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper, move_table
from .status import Status
from .tour import Tour

__all__ = ["complete_tour", "parse_path"]


def parse_path(board: Board, squares: Iterable[int | str] | str) -> list[int]:
    """Square indices of a played path given as names (``"a1,b3"`` or a list) or indices.

    :raises InvalidSquare: for a square off the board or on a hole.
    :raises InvalidArgument: for an empty path.
    """
    if isinstance(squares, str):
        squares = [s for s in squares.replace(",", " ").split() if s]
    if not isinstance(squares, Iterable):
        raise InvalidArgument(f"A played path is a list of squares or a text of their names, not "
                              f"{type(squares).__name__}.")
    path = []
    for i, s in enumerate(squares, 1):
        try:
            path.append(board.square(s))
        except InvalidSquare as exc:
            raise InvalidSquare(f"Square {i} of the played path: {exc}") from None
    if not path:
        raise InvalidArgument("The played path is empty; it needs at least its first square.")
    return path


def _check_path(board: Board, piece: Leaper, path: list[int]) -> None:
    """Raise InvalidArgument naming the first repeated square or illegal leap of ``path``."""
    seen: dict[int, int] = {}
    for i, v in enumerate(path):
        if v in seen:
            raise InvalidArgument(
                f"The played path returns to {board.name(v)} at square {i + 1}; "
                f"it was already visited at square {seen[v] + 1}."
            )
        seen[v] = i
        if i and not piece.is_move(board.row(v) - board.row(path[i - 1]), board.col(v) - board.col(path[i - 1])):
            raise InvalidArgument(
                f"Move {i} of the played path, from {board.name(path[i - 1])} to {board.name(v)}, "
                f"is not a {piece.name} move."
            )


def complete_tour(
    board: Board | str,
    played: Iterable[int | str] | str,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes: Holes = (),
    order: policy.Order = policy.FIND_ORDER,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Tour:
    """Return a tour that begins with the squares ``played``; raise :class:`NoTour` if none does.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    played : sequence of int or str, or str
        The moves made so far, first square first: names (``["a1", "b3"]`` or
        ``"a1,b3"``) or indices.
    end : int or str, optional
        The square the tour must end on.
    closed : bool, optional
        Ask for a closed tour (the last square leaps back to ``played[0]``).
    piece : Leaper or str, optional
        The leaper: a :class:`Leaper` or a name such as ``"zebra"``.
    holes : iterable of int or str, optional
        Squares no tour may use: names or indices, or one string such as ``"d4,e5"``.
    order : str, default 'warnsdorff'
        Backtracking's move order: ``"warnsdorff"`` (fewest onward moves first,
        :data:`~chesstours.policy.FIND_ORDER`) or ``"fixed"`` (the leaper's own order).
    time_limit : float, optional
        Seconds; :class:`LimitReached` when they run out.
    node_limit : int, optional
        Most squares placed by backtracking.

    Returns
    -------
    Tour
        Validated; its path starts with ``played``. ``tour.stats`` holds
        ``nodes``, ``seconds`` and ``played`` (how many squares were given).

    Raises
    ------
    NoTour
        No tour extends ``played`` (``proof`` is ``"exhaustive"``, or the kind
        of theorem when no tour of the board from ``played[0]`` exists at all).
    LimitReached
        The time or node limit ran out first.
    InvalidSquare
        A square of ``played``, the end or a hole is not on the board, or a
        played square or the end is a hole.
    InvalidArgument
        ``played`` repeats a square or makes a step that is not a leap, the end
        square is already played, or another argument is out of range.
    InvalidBoard
        ``board`` does not describe a board.
    InvalidPiece
        ``piece`` is not a leaper.

    Examples
    --------
    >>> t = complete_tour("6x6", "a1,b3,a5", closed=True)
    >>> t.closed, t.names()[:3], len(t)
    (True, ['a1', 'b3', 'a5'], 36)
    """
    board, piece, _, e = prepare_query(board, None, end, piece, holes)
    policy.check_find("backtrack", None, order)
    check_limits(time_limit, node_limit)
    path = parse_path(board, played)
    _check_path(board, piece, path)
    s, n = path[0], board.free_count
    if e is not None and e in path and not (e == path[-1] and len(path) == n):
        raise InvalidArgument(f"The end square {board.name(e)} is already on the played path.")
    t0 = time.perf_counter()
    reason = obstruction(board, piece, s, e, closed)
    if reason is not None:
        raise reason
    if closed:
        end_squares = tuple(int(u) for u in move_table(board, piece)[s] if u >= 0)
        task = Task(tuple(path), 1, e, None if e is not None else end_squares)
    else:
        task = Task(tuple(path), 1, e)
    # Several subtrees searched in turn with growing budgets, so that one hopeless
    # branch near the root cannot hold the search (see first_tour).
    tasks = split_tasks(board, piece, [task], target=16, max_depth=len(path) + 3)
    deadline = None if time_limit is None else t0 + time_limit
    status, found, nodes = first_tour(board, piece, tasks, order=order, deadline=deadline, node_limit=node_limit,
                                      plain=policy.plain_allowance(board))
    stats = {"nodes": nodes, "seconds": time.perf_counter() - t0, "order": order, "played": len(path)}
    ends = board.name(s) if len(path) == 1 else f"{board.name(s)} ... {board.name(path[-1])}"
    moves = f"the played path {ends} ({len(path)} square{'s' if len(path) != 1 else ''})"
    if status == Status.FOUND:
        assert found is not None
        return Tour(board, piece, found, closed, "backtrack", stats).validated()
    if status == Status.EXHAUSTED:
        kind = "closed tour" if closed else "tour"
        to = "" if e is None else f" to {board.name(e)}"
        searched = f"an exhaustive search of {nodes:,} positions" if nodes else "an exhaustive search finds no way on from it"
        raise NoTour(
            f"No {kind}{to} begins with {moves}: {searched}{' found none' if nodes else ''}.",
            proof="exhaustive",
            nodes=nodes,
        )
    raise LimitReached(
        f"Stopped at the {'time' if status == 'time' else 'node'} limit after {nodes:,} positions "
        f"without finding a tour that begins with {moves}.",
        partial=stats,
    )
