"""What the board's shape says before any search: boards without a bishop route, and why.

A square of the start's colour with no diagonal neighbour can never be
reached. A square with one diagonal neighbour (a corner) is a dead end: a
bishop that enters it cannot leave it, so a route visits it last. Two such
squares besides the start, or one that is not the required end, leave no
route -- every odd x odd board from a corner.

On a board of four ranks (or four files) with both sides even, more is
known. Every square of the two edge ranks must be passed through by both of
its links (it has only two). So a square of the second rank uses its two
links to the first rank, one per direction: visited once, it turns there
(a V) and leaves its two links to the third rank unused; the square of the
third rank beside it then cannot be crossed twice, so it turns too (a
Lambda), and so on along the two middle ranks to the edge file, where a
square of the edge loses a link it must use. So no square turns in the
middle: the bishop goes straight on everywhere but at the edges, a billiard
ball (:mod:`chesstours.bishop.construct`). From a corner of 4 x n it reaches
the far corner after lcm(3, n - 1) steps, and when 3 divides n - 1 that is
n - 1 of the 3(n - 1) diagonal links: 4 x 4, 4 x 10, 4 x 16, ... have no
route.

Examples
--------
>>> print(bishop_obstruction(Board(4, 10), 0, 39).reason)  # doctest: +NORMALIZE_WHITESPACE
No bishop route: on 4x10 a square of the two middle ranks cannot turn (a turn there forces
turns along both middle ranks up to an edge square that then loses a link it must use), so the bishop goes
straight on but at the edges, as a billiard ball: from a1 it reaches j4 after 9 steps, with
18 of the 27 diagonal links of its colour unused.
"""

from __future__ import annotations

from ..board import Board
from ..errors import NoTour
from .route import COLOUR_NAMES

__all__ = ["bishop_obstruction"]


def bishop_obstruction(board: Board, start: int, end: int) -> NoTour | None:
    """Why no route from ``start`` to ``end`` (-1: anywhere) exists, from the board's shape; or None.

    >>> b = Board(5, 5); print(bishop_obstruction(b, 0, 24).reason)  # doctest: +NORMALIZE_WHITESPACE
    No bishop route: e1, a5 and e5 each have one diagonal neighbour: a bishop that enters one
    cannot leave it (its only link is then used), so a route can visit only one of them, last.
    """
    from .search import direction_table

    table = direction_table(board)
    colour = board.colour(start)
    squares = [v for v in board.free_squares.tolist() if board.colour(v) == colour and v != start]
    degree = {v: int((table[v] >= 0).sum()) for v in squares}
    isolated = [v for v in squares if degree[v] == 0]
    if isolated:
        return NoTour(f"No bishop route: {board.name(isolated[0])} has no diagonal neighbour on {board}, so "
                      f"no route can visit it.", proof="theory")
    dead_ends = [v for v in squares if degree[v] == 1]
    if len(dead_ends) >= 2:
        names = board.names(dead_ends)
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        return NoTour(f"No bishop route: {listed} each have one diagonal neighbour: a bishop that enters one cannot "
                      f"leave it (its only link is then used), so a route can visit only one of them, "
                      f"last.", proof="theory")
    if len(dead_ends) == 1 and end >= 0 and dead_ends[0] != end:
        d = board.name(dead_ends[0])
        return NoTour(f"No bishop route: {d} has one diagonal neighbour: a bishop that enters it cannot leave it, so a "
                      f"route that visits every {COLOUR_NAMES[colour]} square ends on {d}, not on "
                      f"{board.name(end)}.",
                      proof="theory")
    return _four_lines(board, start)


def _four_lines(board: Board, start: int) -> NoTour | None:
    """The four-rank (or four-file) theorem of the module docstring, for a corner start; or None."""
    rows, cols = board.rows, board.cols
    if board.holes or rows % 2 or cols % 2 or 4 not in (rows, cols):
        return None
    if start not in (0, cols - 1, (rows - 1) * cols, rows * cols - 1):
        return None
    n = cols if rows == 4 else rows
    if (n - 1) % 3:
        return None
    lines = "ranks" if rows == 4 else "files"
    links = (rows - 1) * (cols - 1)
    far = board.size - 1 - start
    return NoTour(f"No bishop route: on {board} a square of the two middle {lines} cannot turn (a turn there forces turns along "
                  f"both middle {lines} up to an edge square that then loses a link it must use), so the bishop "
                  f"goes straight on but at the edges, as a billiard ball: from {board.name(start)} it reaches "
                  f"{board.name(far)} after {n - 1} steps, with {links - (n - 1)} of the {links} diagonal links "
                  f"of its colour unused.", proof="theory")
