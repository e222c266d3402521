"""The arguments that settle a query before any search: colour, connectivity, then the theorems.

They are explained in :mod:`chesstours.existence`; the theorems themselves are
:mod:`chesstours.existence.theorems`.

>>> from chesstours.board import Board
>>> obstruction(Board(8, 8)) is None
True
"""

from __future__ import annotations

from math import gcd

import numpy as np

from ..board import Board
from ..colours import COLOUR_NAMES
from ..errors import NoTour
from ..pieces import KNIGHT, Leaper, move_table
from .theorems import (
    SCHWENK,
    Verdict,
    closed_tour_verdict,
    colour_verdict,
    knight_verdict,
    knuth_verdict,
    open_tour_verdict,
)

__all__ = ["decide", "obstruction", "colour_counts", "components", "schwenk_closed", "open_theorem"]


def colour_counts(board: Board) -> tuple[int, int]:
    """``(dark, light)``: free squares of a1's colour and of the other colour (:attr:`Board.colour_counts`)."""
    return board.colour_counts


def components(board: Board, piece: Leaper = KNIGHT) -> np.ndarray:
    """Label of the connected part of each square (-1 on holes): the least square of its part.

    Rounds of hooking and pointer jumping over the move table, each a few array operations: the root of
    each square takes the least root among its neighbours', then every square jumps to its root; the
    labels only fall, and they stop where every move joins two squares of one label (the moves go both
    ways), a number of rounds that grows as the logarithm of the board's size.
    """
    table = move_table(board, piece)
    src = np.repeat(np.arange(board.size, dtype=np.int64), table.shape[1])
    dst = table.reshape(-1).astype(np.int64)
    keep = dst >= 0
    src, dst = src[keep], dst[keep]
    labels = np.arange(board.size, dtype=np.int64)
    while True:
        before = labels.copy()
        np.minimum.at(labels, labels[src], labels[dst])
        while not np.array_equal(jumped := labels[labels], labels):
            labels = jumped
        if np.array_equal(labels, before):
            break
    labels[board.hole_mask] = -1
    return labels


def schwenk_closed(m: int, n: int) -> str | None:
    """Why the whole m x n board has no closed knight's tour (Schwenk 1991), or None if it has one."""
    verdict = closed_tour_verdict(m, n)
    return None if verdict.answer else verdict.reason


def open_theorem(m: int, n: int) -> str | None:
    """Why the whole m x n board has no open knight's tour (Conrad et al. 1994), or None if it has one."""
    verdict = open_tour_verdict(m, n)
    return None if verdict.answer else verdict.reason


def decide(
    board: Board,
    piece: Leaper = KNIGHT,
    start: int | None = None,
    end: int | None = None,
    closed: bool = False,
) -> Verdict | None:
    """Settle the existence of a tour without searching, or return None.

    The knight on a whole board goes to the theorems
    (:func:`chesstours.existence.theorems.knight_verdict`, arithmetic only, any size);
    other leapers and boards with holes get the colour, gcd, Knuth, degree and
    connectivity arguments, simplest first. A ``True`` answer comes only from
    a theorem; ``None`` means only a search can tell.
    """
    kind = "closed tour" if closed else "tour"
    name = piece.name
    where = f" from {board.name(start)}" if start is not None else ""
    if end is not None:
        where += f" to {board.name(end)}"

    if board.free_count == 1:
        if closed:
            return Verdict(False, "connectivity", "No closed tour: a single square has no move back to itself.")
        square = board.name(int(board.free_squares[0]))
        return Verdict(True, "construction", f"Yes: with a single square the {name} tours the board by standing on {square}.")
    if closed and end is not None and start is not None and not _adjacent(board, piece, start, end):
        return Verdict(False, "connectivity", (
            f"No closed tour{where}: a closed tour ends one {name} move from its start, and "
            f"{board.name(end)} is not a {name} move from {board.name(start)}."))
    if piece == KNIGHT and not board.holes:
        return knight_verdict(board, start, end, closed)

    article = "an" if name[0] in "aeiou" else "a"
    called = name if name.startswith("(") else f"{name} ({piece.a},{piece.b})"
    dark, light = colour_counts(board)
    if (piece.a + piece.b) % 2 == 0:
        if dark and light:
            return Verdict(False, "colour", (
                f"No {kind}: {article} {called} always lands on a square of the colour it left, so it can "
                "never reach the squares of the other colour."))
    else:
        verdict = colour_verdict(board, name, start, end, closed, dark, light)
        if verdict is None and piece == KNIGHT:
            verdict = outer_verdict(board, closed)
        if verdict is not None:
            return verdict

    g = gcd(piece.a, piece.b)
    if g > 1:
        # Squares whose rank and file differ by a multiple of g form one class; a leap stays in its class.
        free = board.free_squares.astype(np.int64)
        classes = (free // board.cols % g) * g + free % board.cols % g
        other = np.flatnonzero(classes != classes[0])
        if other.size:
            u, v = board.name(int(free[0])), board.name(int(free[other[0]]))
            return Verdict(False, "connectivity", (
                f"No {kind}: every {called} leap moves a multiple of {g} squares along each side, so from "
                f"{u} it can never reach {v}."))
    verdict = knuth_verdict(board, name, piece.a, piece.b, closed)
    if verdict is not None:
        return verdict

    reason = _degree_reason(board, piece, start, end, closed, where)
    if reason:
        return Verdict(False, "connectivity", reason)

    if not board.holes and 0 < piece.a < piece.b:
        return None  # Knuth's theorem has already said the whole board is connected
    labels = components(board, piece)
    parts = np.unique(labels[labels >= 0])
    if parts.size > 1:
        here = int(board.free_squares[0])
        there = int(np.flatnonzero(labels == parts[parts != labels[here]][0])[0])
        return Verdict(False, "connectivity", (
            f"No {kind}: the {name}'s moves split the board into {parts.size} separate parts; "
            f"from {board.name(here)} it can never reach {board.name(there)}."))
    return None


def obstruction(
    board: Board,
    piece: Leaper = KNIGHT,
    start: int | None = None,
    end: int | None = None,
    closed: bool = False,
) -> NoTour | None:
    """Return a :class:`NoTour` with the first reason a tour is impossible, or None.

    ``None`` does not promise a tour: only that no argument here rules it out.
    The reasons are those of :func:`decide`, checked from the simplest to the
    most specialised; none of them searches.
    """
    if start is not None and end is not None and end == start and board.free_count > 1:
        kind = "closed tour" if closed else "tour"
        return NoTour(f"No {kind}: a tour cannot start and end on the same square {board.name(start)}.",
                      "connectivity")
    verdict = decide(board, piece, start, end, closed)
    if verdict is None or verdict.answer:
        return None
    return NoTour(verdict.reason, verdict.proof)


def _listing(board: Board, squares: list[int], limit: int = 4) -> str:
    names = board.names(squares[:limit])
    if len(squares) > limit:
        return ", ".join(names) + f" and {len(squares) - limit} more"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


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


def outer_verdict(board: Board, closed: bool) -> Verdict | None:
    """Schwenk's outer/inner argument on a board four squares wide with holes (the knight), or None.

    A knight on the outer lines of such a board always lands on the inner
    ones, so a tour never visits two outer squares in a row: it needs
    ``outer - 1`` inner squares between them (``outer`` around a closed
    tour). With exactly that many, it alternates outer and inner squares
    and, as it alternates colours too, its outer squares all have one
    colour. (Where they do, the colour rule, asked first, has already said
    all the rest: the inner squares then have the other colour, fewer of
    them, and an open tour starts and ends on the outer squares' colour.)
    """
    kind = "closed tour" if closed else "tour"
    free = board.free_squares
    for across_ranks in (True, False):
        if (board.rows if across_ranks else board.cols) != 4:
            continue
        lines = free // board.cols if across_ranks else free % board.cols
        outer_squares = free[(lines == 0) | (lines == 3)].tolist()
        outer_lines = "ranks 1 and 4" if across_ranks else "files a and d"
        inner_lines = "ranks 2 and 3" if across_ranks else "files b and c"
        n_outer, n_inner = len(outer_squares), free.size - len(outer_squares)
        needed = n_outer if closed else n_outer - 1
        lands = (f"every knight move from the outer {outer_lines} lands on the inner {inner_lines}, so a {kind} "
                 f"never visits two outer squares in a row{' (nor its last and first)' if closed else ''}. {board} "
                 f"has {n_outer:,} outer square{'s' * (n_outer != 1)} and {n_inner:,} inner one{'s' * (n_inner != 1)}")
        if n_inner < needed:
            return Verdict(False, "theorem", (
                f"No {kind}: {lands}, and it takes {needed:,} inner squares to separate the outer ones."), SCHWENK)
        if n_inner > needed:
            continue
        by_colour = [next((q for q in outer_squares if board.colour(q) == c), None) for c in (0, 1)]
        if by_colour[0] is not None and by_colour[1] is not None:
            return Verdict(False, "theorem", (
                f"No {kind}: {lands}, so a {kind} must alternate outer and inner squares"
                f"{'' if closed else ', starting and ending on outer ones'}. It also alternates colours, so all its "
                f"outer squares would have one colour -- but {board.name(by_colour[0])} is {COLOUR_NAMES[0]} and "
                f"{board.name(by_colour[1])} {COLOUR_NAMES[1]}."), SCHWENK)
    return None


def _adjacent(board: Board, piece: Leaper, u: int, v: int) -> bool:
    return piece.is_move(board.row(u) - board.row(v), board.col(u) - board.col(v))
