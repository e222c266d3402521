"""Theorems that decide tours by arithmetic alone: no move table, no search.

Each rule here answers "is there a tour?" for a whole board, a start square or
a pair of end squares, from the board's size and the squares' coordinates --
so it answers as fast for 1000 x 1000 as for 8 x 8 -- and says why, in a
sentence a student can check, naming the theorem and its authors.

Knight's tours on a whole m x n board (m <= n)
    *Closed* -- Schwenk (1991): one exists unless m and n are both odd, m is
    1, 2 or 4, or m = 3 and n is 4, 6 or 8. *Open* -- Cull & De Curtins (1978)
    and Conrad, Hindrichs, Morsy & Wegener (1994): one exists exactly on 1 x 1,
    3 x 4, 3 x n (n >= 7), 4 x n (n >= 5) and every board with both sides >= 5.
Given ends
    *Colour*: a knight alternates colours, so on a board with an even number
    of squares a tour joins squares of opposite colours, and with an odd number
    it starts and ends on the corners' colour. *4 x n* (n >= 5): a tour starts
    and ends on the two outer lines -- Schwenk's outer/inner argument, proved
    in the reason :func:`knight_verdict` gives. *n x n, n >= 6* -- Conrad et
    al. (1994): a tour from s to t exists exactly when the colour rule allows
    it. *Cutting a closed tour*: where a closed tour exists, every square
    starts (and ends) an open one; and since a corner's only two moves lie on
    every closed tour, a corner and either of its two neighbours are the ends
    of a closed tour and, with that move removed, of an open one.
Leapers -- Knuth (1994)
    On an m x n board, 2 <= m <= n, the (a, b)-leaper's moves (0 < a < b)
    connect all squares exactly when gcd(a + b, b - a) = 1, n >= 2b and
    m >= a + b.

What is *not* here is a theorem for every start or pair on every board: start
squares on 3 x n and on odd x odd rectangles, start squares on the outer lines
of 4 x n, and end pairs on non-square boards are decided by search in
:func:`chesstours.tour_exists` (a tour found is the proof of "yes"; a complete
search that finds none is the proof of "no").

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
>>> closed_knight_tour_exists(8, 8), closed_knight_tour_exists(4, 1000)
(True, False)
>>> open_knight_tour_exists(3, 7), open_knight_tour_exists(3, 6)
(True, False)
>>> from chesstours.board import Board
>>> v = knight_verdict(Board(4, 7), start=Board(4, 7).square("b2"))
>>> v.answer, v.proof, v.theorem
(False, 'theorem', 'Schwenk 1991')
>>> leaper_connected(5, 6, 2, 3), leaper_connected(5, 5, 2, 3)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from ..board import Board
from ..colours import COLOUR_NAMES

__all__ = [
    "Verdict",
    "SCHWENK",
    "OPEN_TOURS",
    "CONRAD",
    "KNUTH",
    "closed_knight_tour_exists",
    "open_knight_tour_exists",
    "closed_tour_verdict",
    "open_tour_verdict",
    "knight_verdict",
    "colour_verdict",
    "leaper_connected",
    "knuth_verdict",
]

SCHWENK = "Schwenk 1991"
OPEN_TOURS = "Cull & De Curtins 1978; Conrad et al. 1994"
CONRAD = "Conrad et al. 1994"
KNUTH = "Knuth 1994"


@dataclass(frozen=True)
class Verdict:
    """An answer settled without search.

    ``answer`` is True (a tour exists) or False (none does); ``proof`` is
    ``"theorem"``, ``"colour"``, ``"connectivity"`` or ``"construction"`` (a
    tour so small it is written down); ``theorem`` names the theorem used.
    """

    answer: bool
    proof: str
    reason: str
    theorem: str | None = None


# -- whole boards ----------------------------------------------------------------


def closed_knight_tour_exists(m: int, n: int) -> bool:
    """Schwenk's theorem (1991): does the m x n board have a closed knight's tour?"""
    m, n = min(m, n), max(m, n)
    return not (m % 2 == 1 and n % 2 == 1 or m in (1, 2, 4) or m == 3 and n in (4, 6, 8))


def open_knight_tour_exists(m: int, n: int) -> bool:
    """Cull & De Curtins (1978), Conrad et al. (1994): does m x n have an open knight's tour?"""
    m, n = min(m, n), max(m, n)
    return m == n == 1 or m == 3 and (n == 4 or n >= 7) or m == 4 and n >= 5 or m >= 5


def closed_tour_verdict(m: int, n: int) -> Verdict:
    """Whether the whole m x n board has a closed knight's tour, and why (Schwenk 1991)."""
    size, rows = f"{m}x{n}", m
    m, n = min(m, n), max(m, n)
    if m == 1 and n == 1:
        return Verdict(False, "connectivity", "No closed tour: a 1x1 board has a single square and no move back to it.")
    if m % 2 == 1 and n % 2 == 1:
        return Verdict(False, "colour", (
            f"No closed tour: {size} has {m * n:,} squares, an odd number. A knight alternates colours, "
            "so a closed tour needs as many light squares as dark ones."))
    if m in (1, 2):
        return Verdict(False, "connectivity", (
            f"No closed tour on {size}: on a board {'one square' if m == 1 else 'two squares'} wide a corner "
            f"square has {'no knight move' if m == 1 or n < 3 else 'only one knight move'}, and a closed "
            "tour must enter and leave every square by two different moves."), SCHWENK)
    if m == 4:
        outer, inner = ("ranks 1 and 4", "ranks 2 and 3") if rows == 4 else ("files a and d", "files b and c")
        return Verdict(False, "theorem", (
            f"No closed tour on {size} (Schwenk 1991): every knight move from the outer {outer} lands on the "
            f"inner {inner}, and there are as many outer squares as inner ones, so a closed tour must "
            "alternate outer and inner squares. It also alternates colours, so all the outer squares it "
            f"enters would have one colour -- but the outer {outer} hold {n:,} squares of each colour."), SCHWENK)
    if m == 3 and n in (4, 6, 8):
        return Verdict(False, "theorem", (
            f"No closed tour on {size}: an exhaustive search of every path finds none (Schwenk 1991, "
            "the case m = 3 and n = 4, 6 or 8)."), SCHWENK)
    return Verdict(True, "theorem", (
        f"Yes: by Schwenk's theorem (1991) an m x n board (m <= n) has a closed knight's tour unless m and n "
        f"are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8; {size} is none of these."), SCHWENK)


def open_tour_verdict(m: int, n: int) -> Verdict:
    """Whether the whole m x n board has an open knight's tour, and why."""
    size = f"{m}x{n}"
    across_files = m == 2  # the two-square side runs up the board: chains go across the files
    m, n = min(m, n), max(m, n)
    if m == 1 and n == 1:
        return Verdict(True, "construction", "Yes: on a 1x1 board the knight tours the board by standing on a1.")
    if m == 1:
        return Verdict(False, "connectivity", f"No tour: on a {size} board a knight has no move at all.")
    if m == 2:
        if n <= 2:
            return Verdict(False, "connectivity", f"No tour: on a {size} board a knight has no move at all.")
        steps = [(k, k // 2 % 2) for k in range(2, min(n, 7), 2)]  # (along the long side, across)
        chain = ", ".join(f"{chr(97 + k)}{1 + j}" if across_files else f"{chr(97 + j)}{1 + k}" for k, j in steps)
        return Verdict(False, "connectivity", (
            f"No tour: on a board two squares wide the knight's moves split the squares into separate "
            f"chains (from a1 it can reach only {chain}{', ...' if n > 6 else ''}, never b1 or a2), so no "
            f"single path covers {size}."))
    if m == 3 and n == 3:
        return Verdict(False, "connectivity",
                       "No tour: on 3x3 the centre square b2 has no knight move, so it can never be reached.")
    if not open_knight_tour_exists(m, n):
        return Verdict(False, "theorem", (
            f"No tour on {size}: an exhaustive search of every path finds none "
            "(Cull & De Curtins 1978; Conrad et al. 1994)."), OPEN_TOURS)
    return Verdict(True, "theorem", (
        "Yes: an open knight's tour exists on 1x1, 3x4, 3xn for n >= 7, 4xn for n >= 5 and every board "
        "with both sides at least 5, and on no other board (Cull & De Curtins 1978; Conrad, Hindrichs, "
        f"Morsy & Wegener 1994); {size} is one of them."), OPEN_TOURS)


# -- colour ----------------------------------------------------------------------


def colour_verdict(board: Board, piece_name: str, start: int | None, end: int | None, closed: bool,
                   dark: int, light: int) -> Verdict | None:
    """The colour argument for a leaper that always changes colour (a + b odd), or None if it allows a tour.

    ``dark`` and ``light`` count the free squares of a1's colour and of the other one.
    """
    where = _where(board, start, end)
    counts = f"{board} has {dark:,} dark square{'s' * (dark != 1)} and {light:,} light one{'s' * (light != 1)}"
    if dark == light and not board.holes:
        counts = f"{board} has {dark:,} dark and {light:,} light squares"
    if closed and dark != light:
        if not board.holes and board.size % 2:
            counts = f"{board} has {board.size:,} squares, an odd number"
        return Verdict(False, "colour", (
            f"No closed tour: {counts}. A {piece_name} alternates colours, so a closed tour needs as many "
            "light squares as dark ones."))
    if abs(dark - light) > 1:
        return Verdict(False, "colour", (
            f"No tour: {counts}. A {piece_name} alternates colours, so along a tour the two colours differ "
            "by at most one square."))
    if closed:
        return None
    if dark != light:
        major = 0 if dark > light else 1
        for square in (start, end):
            if square is not None and board.colour(square) != major:
                return Verdict(False, "colour", (
                    f"No tour{where}: {counts}. A {piece_name} alternates colours, so a tour must start and "
                    f"end on a {COLOUR_NAMES[major]} square; {board.name(square)} is {COLOUR_NAMES[1 - major]}."))
    elif start is not None and end is not None and board.colour(start) == board.colour(end):
        return Verdict(False, "colour", (
            f"No tour{where}: {counts}, an even number in all, so a tour alternating colours ends on the "
            f"colour it did not start on; {board.name(start)} and {board.name(end)} are both "
            f"{COLOUR_NAMES[board.colour(start)]}."))
    return None


def _given(start: int | None, end: int | None) -> int:
    """The one square given: ``start`` if it is, else ``end`` (the caller has made sure one is)."""
    square = start if start is not None else end
    assert square is not None
    return square


def _where(board: Board, start: int | None, end: int | None) -> str:
    text = f" from {board.name(start)}" if start is not None else ""
    return text + (f" to {board.name(end)}" if end is not None else "")


# -- the knight, square by square --------------------------------------------------


def knight_verdict(board: Board, start: int | None = None, end: int | None = None,
                   closed: bool = False) -> Verdict | None:
    """Decide a knight's tour of a whole board (no holes) by the theorems alone, or return None.

    ``start`` and ``end`` are square indices (either may be None). None means
    that no theorem here settles the question: only a search can.
    """
    m, n = board.rows, board.cols
    if m * n == 1:
        return closed_tour_verdict(1, 1) if closed else open_tour_verdict(1, 1)
    if closed:
        return _closed_knight(board, start, end)
    whole = open_tour_verdict(m, n)
    if not whole.answer or (start is None and end is None):
        return whole
    dark = (m * n + 1) // 2
    verdict = colour_verdict(board, "knight", start, end, False, dark, m * n - dark)
    if verdict is not None:
        return verdict
    if min(m, n) == 4:
        return _four_by_n(board, start, end)
    if m == n >= 6:
        return _conrad(board, start, end)
    if not closed_knight_tour_exists(m, n):
        return None
    if start is None or end is None:
        square = board.name(_given(start, end))
        role = "starts" if start is not None else "ends"
        return Verdict(True, "theorem", (
            f"Yes: {board} has a closed knight's tour (Schwenk 1991), and a closed tour passes through "
            f"every square: cut it open next to {square} and it becomes a tour that {role} at {square}."),
            SCHWENK)
    for corner, other in ((start, end), (end, start)):
        if corner in board.corners() and _knight_move(board, corner, other):
            return Verdict(True, "theorem", (
                f"Yes: {board} has a closed knight's tour (Schwenk 1991). The corner {board.name(corner)} has "
                "only two knight moves, and a closed tour enters and leaves every square, so every closed "
                f"tour uses the move {board.name(corner)}-{board.name(other)}: remove that move and what is "
                f"left is a tour from {board.name(start)} to {board.name(end)}."), SCHWENK)
    return None


def _closed_knight(board: Board, start: int | None, end: int | None) -> Verdict | None:
    if start is not None and end is not None and not _knight_move(board, start, end):
        return Verdict(False, "connectivity", (
            f"No closed tour{_where(board, start, end)}: a closed tour ends one knight move from its start, "
            f"and {board.name(end)} is not a knight move from {board.name(start)}."))
    whole = closed_tour_verdict(board.rows, board.cols)
    if not whole.answer or (start is None and end is None):
        return whole
    if start is None or end is None:
        square = board.name(_given(start, end))
        how = "it can be started at" if start is not None else "it can be made to end at"
        return Verdict(True, "theorem", (
            f"Yes: {board} has a closed knight's tour (Schwenk 1991), and a closed tour passes through every "
            f"square, so {how} {square}."), SCHWENK)
    for corner, other in ((start, end), (end, start)):
        if corner in board.corners():
            moves = board.names(_knight_moves(board, corner))
            return Verdict(True, "theorem", (
                f"Yes: {board} has a closed knight's tour (Schwenk 1991). The corner {board.name(corner)} has "
                f"only two knight moves, {moves[0]} and {moves[1]}, and a closed tour enters and leaves every "
                f"square, so every closed tour uses the move {board.name(corner)}-{board.name(other)}: walk it "
                f"from {board.name(start)} away from {board.name(end)}, and it ends at {board.name(end)}."),
                SCHWENK)
    return None


def _four_by_n(board: Board, start: int | None, end: int | None) -> Verdict | None:
    """Schwenk's outer/inner argument on 4 x n (n >= 5): tours start and end on the outer lines."""
    across_ranks = board.rows == 4
    long_side = board.cols if across_ranks else board.rows
    outer = "ranks 1 and 4" if across_ranks else "files a and d"
    inner = "ranks 2 and 3" if across_ranks else "files b and c"
    for square in (start, end):
        if square is None:
            continue
        line = board.row(square) if across_ranks else board.col(square)
        if line in (0, 3):
            continue
        half = 2 * long_side
        return Verdict(False, "theorem", (
            f"No tour{_where(board, start, end)} on {board}: every tour starts and ends on the outer {outer} "
            f"(Schwenk's argument, 1991). A knight move from an outer square always lands on an inner one "
            f"({inner}), so no two outer squares come one after the other. There are {half:,} outer and {half:,} "
            f"inner squares, so {half - 1:,} inner squares are needed just to separate the outer ones, and only "
            "one inner square is left over. If a tour started or ended on an inner square, that spare square "
            "would be used there and the rest would alternate outer, inner, outer, ...: all outer squares "
            "would be an even number of moves apart and so, as the knight alternates colours, all of one "
            f"colour. But the outer {outer} hold {long_side:,} dark and {long_side:,} light squares. "
            f"{board.name(square)} is on an inner {'rank' if across_ranks else 'file'}."), SCHWENK)
    return None


def _conrad(board: Board, start: int | None, end: int | None) -> Verdict:
    """n x n, n >= 6, after the colour rule has passed: a tour exists (Conrad et al. 1994)."""
    n = board.rows
    rule = ("on an n x n board with n >= 6 a knight's tour from s to t exists exactly when n is even and s "
            "and t have opposite colours, or n is odd and both have the corners' colour (Conrad, Hindrichs, "
            "Morsy & Wegener 1994)")
    if start is not None and end is not None:
        detail = (f"{board.name(start)} is {COLOUR_NAMES[board.colour(start)]} and {board.name(end)} is "
                  f"{COLOUR_NAMES[board.colour(end)]}")
    else:
        square = _given(start, end)
        detail = (f"so every square of {board} is the {'start' if start is not None else 'end'} of a tour"
                  if n % 2 == 0 else
                  f"so every square of the corners' colour is an end of a tour, and {board.name(square)} is "
                  "of that colour")
    return Verdict(True, "theorem", f"Yes: {rule}; {detail}.", CONRAD)


def _knight_move(board: Board, u: int, v: int) -> bool:
    dr, dc = abs(board.row(u) - board.row(v)), abs(board.col(u) - board.col(v))
    return (dr, dc) in ((1, 2), (2, 1))


def _knight_moves(board: Board, v: int) -> list[int]:
    r, c = board.row(v), board.col(v)
    out = []
    for dr, dc in ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)):
        if 0 <= r + dr < board.rows and 0 <= c + dc < board.cols:
            out.append(board.index(r + dr, c + dc))
    return out


# -- leapers ---------------------------------------------------------------------


def leaper_connected(m: int, n: int, a: int, b: int) -> bool:
    """Knuth (1994): do the (a, b)-leaper's moves, 0 < a < b, connect every square of m x n (mn > 1)?"""
    m, n = min(m, n), max(m, n)
    if m == 1:
        return False
    return gcd(a + b, b - a) == 1 and n >= 2 * b and m >= a + b


def knuth_verdict(board: Board, piece_name: str, a: int, b: int, closed: bool) -> Verdict | None:
    """No tour when Knuth's theorem says the (a, b)-leaper graph of the whole board is disconnected."""
    if board.holes or not 0 < a < b or board.size == 1 or leaper_connected(board.rows, board.cols, a, b):
        return None
    kind = "closed tour" if closed else "tour"
    m, n = min(board.rows, board.cols), max(board.rows, board.cols)
    if m == 1:
        return Verdict(False, "connectivity", f"No {kind}: on a {board} board a {piece_name} has no move at all.")
    if gcd(a + b, b - a) != 1:
        return None  # the colour and gcd arguments say it more simply
    failed = f"the long side is {n} < 2b = {2 * b}" if n < 2 * b else f"the short side is {m} < a + b = {a + b}"
    return Verdict(False, "connectivity", (
        f"No {kind}: by Knuth's leaper theorem (1994), the moves of the ({a},{b})-leaper join all the squares "
        f"of an m x n board (m <= n) only when gcd(a+b, b-a) = 1, n >= 2b and m >= a+b. On {board} "
        f"{failed}, so the board falls apart into pieces the {piece_name} cannot cross, and no single path "
        "covers them all."), KNUTH)
