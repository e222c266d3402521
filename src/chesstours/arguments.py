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

from collections.abc import Iterable
from typing import Any

import numpy as np

from .board import Board, Holes, Square
from .errors import InvalidArgument, InvalidBoard, InvalidSquare
from .pieces import Leaper, parse_piece
from .reading import positive_count, quoted

__all__ = ["as_board", "check_limits", "check_seed", "check_cluster", "check_spread", "prepare_query", "role_square", "query_json"]


def as_board(board: Board | str | tuple[int, int] | int, holes: Holes = ()) -> Board:
    """``board`` as a :class:`Board`: a size such as ``"8x8"`` is parsed, ``(rows, cols)`` and a number of rows
    and columns taken as they are, and ``holes`` (names, indices, one string ``"d4,e5"``, or an array of
    either) are added to a Board's own.

    :raises InvalidBoard, InvalidSquare: for a bad size or hole, or a board of another type.

    >>> as_board((5, 6)), as_board(4)
    (Board(5x6), Board(4x4))
    """
    holes = as_holes(holes)
    if isinstance(board, tuple):
        if len(board) != 2:
            raise InvalidBoard(f"A board given as a tuple is (rows, cols), not {quoted(repr(board))}.")
        return Board(board[0], board[1], holes)
    if isinstance(board, (int, np.integer)) and not isinstance(board, bool):
        return Board(board, board, holes)
    if not isinstance(board, (Board, str)):
        raise InvalidBoard(f"A board is a Board, a size such as '8x8', (rows, cols) or a number of rows, "
                           f"not {type(board).__name__} {quoted(repr(board))}.")
    if isinstance(board, Board):
        if not holes:
            return board
        extra = Board(board.rows, board.cols, holes).holes
        return Board(board.rows, board.cols, set(board.holes) | extra)
    return Board.parse(board, holes)


def as_holes(holes: Holes) -> Holes:
    """``holes`` as :class:`~chesstours.board.Board` takes them: an array of square numbers or names as a list.

    :raises InvalidSquare: for holes of another type (a number, a float).
    """
    if isinstance(holes, np.ndarray):
        return holes.ravel().tolist()
    if holes is None:
        return ()
    if not isinstance(holes, (str, Iterable)):
        raise InvalidSquare(f"Holes are square names or numbers, such as 'd4,e5' or [27, 36], not "
                            f"{type(holes).__name__} {quoted(repr(holes))}.")
    return holes


def check_seed(seed: object) -> int:
    """``seed`` as an int: a whole number, a numpy one too.

    :raises InvalidArgument: for anything else (a float, a string, True).
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidArgument(f"The seed is a whole number, not {type(seed).__name__} {quoted(repr(seed))}.")
    return int(seed)


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
    """:raises InvalidArgument: unless each limit given is a positive number."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))):
        raise InvalidArgument(f"The time limit is a number of seconds, not {type(time_limit).__name__} "
                              f"{quoted(repr(time_limit))}.")
    if node_limit is not None and (isinstance(node_limit, bool) or not isinstance(node_limit, int)):
        raise InvalidArgument(f"The node limit is a whole number, not {type(node_limit).__name__} "
                              f"{quoted(repr(node_limit))}.")
    if time_limit is not None and time_limit > 1e9:  # past any run; and a float could not hold 10**400
        raise InvalidArgument("The time limit is at most a billion seconds; leave it out for none.")
    if time_limit is not None and not time_limit > 0:
        raise InvalidArgument(f"The time limit must be a positive number of seconds, not {time_limit}.")
    if node_limit is not None and node_limit <= 0:
        raise InvalidArgument(f"The node limit must be a positive number, not {node_limit}.")


def check_cluster(address: str | None) -> None:
    """Refuse a cluster address that is not ``tcp://HOST:PORT`` with a port number, before connecting to it.

    >>> check_cluster("tcp://127.0.0.1:8786")
    >>> check_cluster("udp://x")
    Traceback (most recent call last):
    ...
    chesstours.errors.InvalidArgument: The cluster's address is the Dask scheduler's, tcp://HOST:PORT such as tcp://127.0.0.1:8786, not 'udp://x'.
    """
    if address is None:
        return
    if not isinstance(address, str):
        raise InvalidArgument(f"The cluster's address is a string such as tcp://127.0.0.1:8786, not {address!r}.")
    host, colon, port = address.removeprefix("tcp://").rpartition(":")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address: tcp://[::1]:8786
        host = host[1:-1]
    if not address.startswith("tcp://") or not colon or not host or any(c in host for c in "/@ ") \
            or not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536):
        raise InvalidArgument("The cluster's address is the Dask scheduler's, tcp://HOST:PORT such as "
                              f"tcp://127.0.0.1:8786, not {quoted(address)}.")


def check_spread(workers: int | None = None, jobs: int | None = None, split_on: int | None = None,
                 cluster: str | None = None) -> None:
    """Refuse how a search is spread before it starts: threads, processes and the squares a count is split on
    each a whole number of at least one, and a cluster's address (:func:`check_cluster`).

    :raises InvalidArgument: naming the argument (and its option on the command line).
    """
    from .runtime.resources import WORKERS

    positive_count(workers, *WORKERS)
    positive_count(jobs, "--jobs", "processes (jobs=)")
    positive_count(split_on, "--split-on", "squares of the middle line to split the count on (split_on=)")
    check_cluster(cluster)


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
