"""What the colours of the squares say about tours.

A leaper whose leap ``(a, b)`` has ``a + b`` odd (the knight, the zebra, the
wazir) changes colour at every move, so a tour alternates colours: a closed
one needs as many dark squares as light, and an open one ends where the
colours allow (:func:`end_rule`). The frontier sweep and backtracking both
drop what cannot end a tour there (:mod:`chesstours.frontier.plan`,
:func:`chesstours.backtrack.tasks.open_tasks`); the words for a student are
in :mod:`chesstours.existence`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from .board import Board
from .pieces import Leaper

__all__ = ["COLOUR_NAMES", "alternates", "EndRule", "end_colours", "end_rule", "end_squares", "ANYWHERE"]

#: The words for a square's colour (:meth:`Board.colour`): a1's colour is dark.
COLOUR_NAMES = ("dark", "light")


def alternates(piece: Leaper) -> bool:
    """Whether every move of ``piece`` changes the colour of its square (``a + b`` odd)."""
    return (piece.a + piece.b) % 2 == 1


@dataclass(frozen=True)
class EndRule:
    """Where an open tour may end, by the colours of the board (:func:`end_rule`).

    ``through``: the squares no tour can end on, which a sweep gives two
    edges as a closed tour does. ``colours``: each square's colour (0 dark,
    1 light) where the two ends must differ in colour, which no square alone
    decides; None where they need not.
    """

    through: frozenset[int] = frozenset()
    colours: Mapping[int, int] | None = None


#: No rule: an open tour may end on any square.
ANYWHERE = EndRule()


def end_colours(board: Board, piece: Leaper, given: Collection[int] = ()) -> set[int] | None:
    """The colours an open tour's ends other than ``given`` can have, or None where colour rules out neither.

    See :func:`end_rule`: an empty set where no tour exists (the colours
    differ by two or more, or a given end has a colour no end can have).
    """
    if not alternates(piece):
        return None
    dark, light = board.colour_counts
    if abs(dark - light) > 1:
        return set()
    if dark != light:
        allowed = {0 if dark > light else 1}
        return allowed if all(board.colour(x) in allowed for x in given) else set()
    if given:
        return {1 - board.colour(next(iter(given)))}
    return None


def end_rule(board: Board, piece: Leaper, closed: bool, start: int | None = None,
             end: int | None = None) -> EndRule:
    """Where an open tour can end, given its ends if any: by those ends, and by colour.

    With both ends given, on no other square. And by colour, for a leaper
    that alternates colours: on ``d`` dark and ``l`` light squares a tour
    ends twice on the colour with the extra square where ``d != l`` (7x7,
    5x5: both ends on a1's colour), once on each colour where ``d == l`` (a
    given end leaves the other colour to the other end), and there is no
    tour where they differ by two or more, or where a given end has a colour
    no end can have. A search may drop at once whatever would end a tour
    where it cannot end, or leave a square it must pass through short of two
    edges: nothing dropped completes to a tour, so no count changes. Closed
    tours need two edges everywhere already.

    >>> from chesstours.pieces import KNIGHT
    >>> sorted(end_rule(Board(3, 3), KNIGHT, closed=False).through)  # 5 dark squares, 4 light: both ends dark
    [1, 3, 5, 7]
    >>> len(end_rule(Board(4, 4), KNIGHT, closed=False, start=0).through)  # from a dark square to a light one
    7
    >>> len(end_rule(Board(3, 3), KNIGHT, closed=False, start=1).through)  # from a light square: no tour at all
    8
    >>> rule = end_rule(Board(4, 4), KNIGHT, closed=False)
    >>> rule.through, rule.colours[0], rule.colours[1]  # one end on each colour
    (frozenset(), 0, 1)
    """
    if closed:
        return ANYWHERE
    given = {x for x in (start, end) if x is not None}
    free = [int(v) for v in board.free_squares]
    if len(given) == 2:
        return EndRule(frozenset(v for v in free if v not in given))
    allowed = end_colours(board, piece, given)
    if allowed is not None:
        return EndRule(frozenset(v for v in free if v not in given and board.colour(v) not in allowed))
    if alternates(piece):  # as many dark squares as light, no end given: one end on each colour
        return EndRule(colours={v: board.colour(v) for v in free})
    return ANYWHERE


def end_squares(board: Board, piece: Leaper, start: int) -> tuple[int, ...] | None:
    """The squares an open tour from ``start`` can end on, where the colours rule some out (None: any square).

    A symmetry of the board that fixes ``start`` keeps every colour, so a
    search split by symmetry gives each of its parts these squares.

    >>> from chesstours.pieces import KNIGHT
    >>> [Board(3, 4).name(v) for v in end_squares(Board(3, 4), KNIGHT, 0)]  # from a1, dark: a light square
    ['b1', 'd1', 'a2', 'c2', 'b3', 'd3']
    """
    allowed = end_colours(board, piece, (start,))
    if allowed is None:
        return None
    # a count from every start asks once a start: read the colours of the whole board at once
    free = board.free_squares.astype(np.int64)
    r, c = np.divmod(free, board.cols)
    ends = free[np.isin((r + c) & 1, list(allowed)) & (free != start)]
    return None if ends.size == free.size - 1 else tuple(ends.tolist())
