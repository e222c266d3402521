"""Reading the arguments every api function shares: the board, its squares, the piece, the limits.

One place for what :func:`~chesstours.find_tour`, :func:`~chesstours.iter_tours`,
:func:`~chesstours.count_tours`, :func:`~chesstours.tour_exists`,
:func:`~chesstours.complete_tour`, the bishop's functions and the web api
accept, so they accept the same things and refuse them with the same
sentences.

Examples
--------
>>> board, piece, s, e = prepare_query("8x8", "a1", None, "knight", holes="d4,e5")
>>> board, piece.name, s, e
(Board(8x8 without d4,e5), 'knight', 0, None)
>>> as_board(board, holes="h8").holes == {27, 36, 63}
True
>>> role_square(board, "d4", "start")
Traceback (most recent call last):
...
chesstours.errors.InvalidSquare: The start square: d4 is a hole on this board; a tour cannot use it.
"""

from __future__ import annotations

from typing import Any

from .board import Board, Holes, Square
from .errors import InvalidArgument, InvalidSquare
from .pieces import Leaper, parse_piece

__all__ = ["as_board", "check_limits", "prepare_query", "role_square", "query_json"]


def as_board(board: Board | str, holes: Holes = ()) -> Board:
    """``board`` as a :class:`Board`: a size such as ``"8x8"`` is parsed, and ``holes``
    (names, indices, or one string ``"d4,e5"``) are added to a Board's own.

    :raises InvalidBoard, InvalidSquare: for a bad size or hole.
    """
    if isinstance(board, Board):
        if not holes:
            return board
        extra = Board(board.rows, board.cols, holes).holes
        return Board(board.rows, board.cols, set(board.holes) | extra)
    return Board.parse(board, holes)


def role_square(board: Board, square: Square | None, role: str) -> int | None:
    """The index of ``square`` (None stays None); the error names its ``role`` ("start", "end").

    :raises InvalidSquare: if it is not on the board or is a hole.
    """
    if square is None:
        return None
    try:
        return board.square(square)
    except InvalidSquare as exc:
        raise InvalidSquare(f"The {role} square: {exc}") from None


def check_limits(time_limit: float | None, node_limit: int | None = None) -> None:
    """:raises InvalidArgument: unless each limit given is positive."""
    if time_limit is not None and not time_limit > 0:
        raise InvalidArgument(f"The time limit must be a positive number of seconds, not {time_limit}.")
    if node_limit is not None and node_limit <= 0:
        raise InvalidArgument(f"The node limit must be a positive number, not {node_limit}.")


def prepare_query(board: Board | str, start: Square | None, end: Square | None, piece: Leaper | str,
                  holes: Holes = ()) -> tuple[Board, Leaper, int | None, int | None]:
    """``(board, piece, start, end)`` read from a tour query, start and end as indices or None.

    :raises InvalidArgument: if the start and end are the same square (on a board of more than one).
    """
    board = as_board(board, holes)
    piece = parse_piece(piece)
    s = role_square(board, start, "start")
    e = role_square(board, end, "end")
    if s is not None and e is not None and s == e and board.free_count > 1:
        raise InvalidArgument(f"The start and end squares are both {board.name(s)}; a tour ends elsewhere.")
    return board, piece, s, e


def query_json(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None) -> dict[str, Any]:
    """A query as every answer's JSON states it: ``board``, ``holes``, ``piece``, ``closed``, ``start``, ``end``.

    >>> query_json(Board(8, 8, holes="d4"), parse_piece("knight"), False, 0, None)["holes"]
    ['d4']
    """
    return {
        "board": f"{board.rows}x{board.cols}",
        "holes": board.names(sorted(board.holes)),
        "piece": piece.spec(),
        "closed": closed,
        "start": None if start is None else board.name(start),
        "end": None if end is None else board.name(end),
    }
