"""Why a tour cannot exist: arguments a student can check by hand.

Before any search, chesstours looks for a reason that rules a tour out:

colour
    An (a, b)-leaper with a + b odd (the knight) always lands on the other
    colour, so a tour alternates colours. A closed tour needs as many dark
    squares as light ones; an open tour allows one more of one colour, and
    then starts and ends on that colour. A leaper with a + b even never
    changes colour, so it cannot tour a board that has both colours.
connectivity
    A square with no move cannot be reached; a closed tour needs two moves
    at every square; an open tour can pass through a square with one move
    only at one of its two ends; and if the leaper's moves split the board
    into separate parts, no tour covers both.
theorem
    For the knight on a whole m x n board (m <= n): Schwenk (1991) for
    closed tours -- none when m and n are both odd, m is 1, 2 or 4, or m = 3
    and n is 4, 6 or 8 -- and Cull & De Curtins (1978) with Conrad, Hindrichs,
    Morsy & Wegener (1994) for open tours: one exists exactly on 1 x 1,
    3 x 4, 3 x n (n >= 7), 4 x n (n >= 5) and m, n >= 5.

These checks never search; :func:`obstruction` returns the first one that
applies, as a :class:`~chesstours.errors.NoTour` whose ``reason`` is the
sentence to show and whose ``proof`` names the kind of argument.

References
----------
.. [1] A. J. Schwenk, "Which rectangular chessboards have a knight's tour?",
   Mathematics Magazine 64(5):325-332, 1991.
.. [2] P. Cull and J. De Curtins, "Knight's tour revisited", Fibonacci
   Quarterly 16:276-285, 1978.
.. [3] A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, "Solution of the
   knight's Hamiltonian path problem on chessboards", Discrete Applied
   Mathematics 50:125-134, 1994.
.. [4] D. E. Knuth, "Leaper graphs", Mathematical Gazette 78:274-297, 1994.

Examples
--------
>>> from chesstours.board import Board
>>> print(obstruction(Board(5, 5), closed=True).reason)
No closed tour: 5x5 has 25 squares, an odd number. A knight alternates colours, so a closed tour needs as many light squares as dark ones.
>>> obstruction(Board(8, 8)) is None
True
"""

from __future__ import annotations

from math import gcd

import numpy as np

from .board import Board
from .errors import NoTour
from .pieces import KNIGHT, Leaper, move_table

__all__ = ["obstruction", "colour_counts", "components", "schwenk_closed", "open_theorem"]


def colour_counts(board: Board) -> tuple[int, int]:
    """``(dark, light)``: free squares of a1's colour and of the other colour."""
    if not board.holes:  # a whole board: a1's colour has the extra square of an odd board
        return (board.size + 1) // 2, board.size // 2
    r, c = np.divmod(board.free_squares.astype(np.int64), board.cols)
    light = int(np.count_nonzero((r + c) & 1))
    return board.free_count - light, light


def components(board: Board, piece: Leaper = KNIGHT) -> np.ndarray:
    """Label of the connected part of each square (-1 on holes), by union-find over the move table."""
    table = move_table(board, piece)
    parent = np.arange(board.size, dtype=np.int64)

    def find(v: np.ndarray) -> np.ndarray:
        while True:
            p = parent[v]
            if np.array_equal(p, v):
                return v
            parent[v] = parent[p]
            v = parent[v]

    src = np.repeat(np.arange(board.size), table.shape[1])
    dst = table.reshape(-1).astype(np.int64)
    keep = dst >= 0
    src, dst = src[keep], dst[keep]
    while src.size:
        a, b = find(src), find(dst)
        differ = a != b
        if not differ.any():
            break
        lo, hi = np.minimum(a, b)[differ], np.maximum(a, b)[differ]
        parent[hi] = lo
        src, dst = src[differ], dst[differ]
    labels = find(np.arange(board.size))
    labels[board.hole_mask] = -1
    return labels


def schwenk_closed(m: int, n: int) -> str | None:
    """Why the whole m x n board has no closed knight's tour (Schwenk 1991), or None if it has one."""
    m, n = min(m, n), max(m, n)
    size = f"{m}x{n}"
    if m == 1 and n == 1:
        return "No closed tour: a 1x1 board has a single square and no move back to it."
    if m % 2 == 1 and n % 2 == 1:
        return (
            f"No closed tour: {size} has {m * n} squares, an odd number. A knight alternates colours, "
            "so a closed tour needs as many light squares as dark ones."
        )
    if m in (1, 2):
        return (
            f"No closed tour: on a board {m} square{'s' if m > 1 else ''} wide, the corner squares have at "
            "most one knight move, and a closed tour must enter and leave every square (Schwenk 1991)."
        )
    if m == 4:
        return (
            f"No closed tour on {size} (Schwenk 1991): every knight move from an outer rank (1 or 4) lands "
            "on an inner rank (2 or 3), and there are as many outer squares as inner ones, so a closed "
            "tour must alternate outer and inner squares. It also alternates colours, so all outer "
            "squares it enters would have one colour -- but the outer ranks hold both colours."
        )
    if m == 3 and n in (4, 6, 8):
        return (
            f"No closed tour on {size}: an exhaustive search of every path finds none (Schwenk 1991, "
            "the case m = 3 and n = 4, 6 or 8)."
        )
    return None


def open_theorem(m: int, n: int) -> str | None:
    """Why the whole m x n board has no open knight's tour (Conrad et al. 1994), or None if it has one."""
    m, n = min(m, n), max(m, n)
    size = f"{m}x{n}"
    if m == 1 and n == 1:
        return None
    if m == 1:
        return f"No tour: on a {size} board a knight has no move at all."
    if m == 2:
        return (
            f"No tour: on a board 2 squares wide the knight's moves split into separate chains "
            f"(from a1 it can only reach c2, e1, g2 ...), so no single path covers {size}."
        )
    if m == 3 and n == 3:
        return "No tour: on 3x3 the centre square b2 has no knight move, so it can never be reached."
    if (m, n) in ((3, 5), (3, 6), (4, 4)):
        return (
            f"No tour on {size}: an exhaustive search of every path finds none "
            "(Cull & De Curtins 1978; Conrad et al. 1994)."
        )
    return None


def _listing(board: Board, squares: list[int], limit: int = 4) -> str:
    names = board.names(squares[:limit])
    if len(squares) > limit:
        return ", ".join(names) + f" and {len(squares) - limit} more"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def obstruction(
    board: Board,
    piece: Leaper = KNIGHT,
    start: int | None = None,
    end: int | None = None,
    closed: bool = False,
) -> NoTour | None:
    """Return a :class:`NoTour` with the first reason a tour is impossible, or None.

    ``None`` does not promise a tour: only that no argument here rules it out.
    The reasons are checked from the simplest to the most specialised.
    """
    kind = "closed tour" if closed else "tour"
    name = piece.name
    article = "an" if name[0] in "aeiou" else "a"
    called = name if name.startswith("(") else f"{name} ({piece.a},{piece.b})"
    n = board.free_count
    where = f" from {board.name(start)}" if start is not None else ""
    if end is not None:
        where += f" to {board.name(end)}"

    if n == 1:
        if closed:
            return NoTour("No closed tour: a single square has no move back to itself.", "connectivity")
        return None
    if end is not None and start is not None and end == start:
        return NoTour(f"No {kind}: a tour cannot start and end on the same square {board.name(start)}.",
                      "connectivity")
    if closed and end is not None and start is not None and not _adjacent(board, piece, start, end):
        return NoTour(
            f"No closed tour{where}: a closed tour ends one {name} move from its start, and "
            f"{board.name(end)} is not a {name} move from {board.name(start)}.",
            "connectivity",
        )

    dark, light = colour_counts(board)
    if (piece.a + piece.b) % 2 == 0:
        if dark and light:
            return NoTour(
                f"No {kind}: {article} {called} always lands on a square of the colour "
                "it left, so it can never reach the squares of the other colour.",
                "colour",
            )
    else:
        reason = _colour_reason(board, piece, start, end, closed, dark, light, where)
        if reason:
            return NoTour(reason, "colour")

    g = gcd(piece.a, piece.b)
    if g > 1 and (board.rows > 1 or board.cols > 1):
        return NoTour(
            f"No {kind}: every {called} leap moves a multiple of {g} squares along "
            f"each side, so from a1 it can never reach b1 or a2.",
            "connectivity",
        )

    if piece == KNIGHT and not board.holes:
        # The theorems settle every whole board; no move table is needed, even for huge boards.
        reason = schwenk_closed(board.rows, board.cols) if closed else open_theorem(board.rows, board.cols)
        return NoTour(reason, "theorem") if reason else None

    reason = _degree_reason(board, piece, start, end, closed, where)
    if reason:
        return NoTour(reason, "connectivity")

    labels = components(board, piece)
    parts = np.unique(labels[labels >= 0])
    if parts.size > 1:
        first = int(board.free_squares[0])
        other = int(np.flatnonzero(labels == parts[parts != labels[first]][0])[0])
        return NoTour(
            f"No {kind}: the {name}'s moves split the board into {parts.size} separate parts; "
            f"from {board.name(first)} it can never reach {board.name(other)}.",
            "connectivity",
        )
    return None


def _adjacent(board: Board, piece: Leaper, u: int, v: int) -> bool:
    return piece.is_move(board.row(u) - board.row(v), board.col(u) - board.col(v))


def _colour_reason(board, piece, start, end, closed, dark, light, where) -> str | None:
    name = piece.name
    counts = f"{board} has {dark} dark square{'s' * (dark != 1)} and {light} light one{'s' * (light != 1)}"
    if dark == light and board.holes == frozenset() and board.size % 2 == 0:
        counts = f"{board} has {dark} dark and {light} light squares"
    if closed and dark != light:
        if not board.holes and board.size % 2:
            counts = f"{board} has {board.size} squares, an odd number"
        return (
            f"No closed tour: {counts}. A {name} alternates colours, so a closed tour needs as many "
            "light squares as dark ones."
        )
    if abs(dark - light) > 1:
        return (
            f"No tour: {counts}. A {name} alternates colours, so along a tour the two colours "
            "differ by at most one square."
        )
    if closed:
        return None
    colour = ("dark", "light")
    if dark != light:
        major = 0 if dark > light else 1
        for square, role in ((start, "start"), (end, "end")):
            if square is not None and board.colour(square) != major:
                return (
                    f"No tour{where}: {counts}. A {name} alternates colours, so a tour must start and end "
                    f"on a {colour[major]} square; {board.name(square)} is {colour[1 - major]}."
                )
    elif start is not None and end is not None and board.colour(start) == board.colour(end):
        return (
            f"No tour{where}: {counts}, an even number in all, so a tour alternating colours ends on "
            f"the colour it did not start on; {board.name(start)} and {board.name(end)} are both "
            f"{colour[board.colour(start)]}."
        )
    return None


def _degree_reason(board, piece, start, end, closed, where) -> str | None:
    table = move_table(board, piece)
    degree = (table >= 0).sum(axis=1)
    free = board.free_squares
    deg = degree[free]
    name = piece.name
    isolated = free[deg == 0].tolist()
    if isolated:
        return (
            f"No tour: {board.name(isolated[0])} has no {name} move on {board}, so it can never be reached."
        )
    single = free[deg == 1].tolist()
    if closed and single:
        s = single[0]
        return (
            f"No closed tour: {board.name(s)} has only one {name} move, and a closed tour must enter "
            "and leave every square by two different moves."
        )
    if len(single) > 2:
        return (
            f"No tour: {_listing(board, single)} each have only one {name} move, so a tour can pass "
            "them only at its ends -- and a tour has just two ends."
        )
    ends = [s for s in (start, end) if s is not None]
    free_ends = 2 - len(ends)
    stuck = [s for s in single if s not in ends]
    if len(stuck) > free_ends:
        return (
            f"No tour{where}: {_listing(board, stuck)} {'has' if len(stuck) == 1 else 'each have'} only "
            f"one {name} move, so a tour must {'start or ' if start is None else ''}end there."
        )
    return None
