"""Does a tour exist? A yes or no you can trust, with the reason and how it is known.

:func:`tour_exists` first asks the theory (:func:`chesstours.existence.reasons.decide`):
colour and connectivity arguments for every leaper and board, and for the
knight on a whole board the theorems of :mod:`chesstours.existence.theorems` --
Schwenk (1991), Cull & De Curtins (1978), Conrad et al. (1994), the outer
ranks of 4 x n -- which answer by arithmetic, instantly, on boards of any
size. Where no argument applies, it searches: Warnsdorff's rule with several
tie-breaks, then a complete backtracking search (iterative broadening over
the first moves). A tour found is the proof of "yes" and comes back as the
certificate; a complete search that finds none is the proof of "no", with
the number of positions it examined. Only when a time limit runs out first
is the answer ``None`` ("unknown"), and the reason says so.

The ``proof`` of an :class:`Existence` says which of these it is:

============== ===========================================================
``theorem``    a theorem from the literature, named in ``theorem``
``colour``     the colour (parity) argument
``connectivity`` a square without enough moves, or a board in pieces
``construction`` a tour was found: ``certificate`` holds it, validated
``exhaustive`` a complete search found none (``nodes`` positions)
``limit``      the time limit ran out first: the answer is unknown
============== ===========================================================

Examples
--------
>>> print(tour_exists("5x5", closed=True).reason)
No closed tour: 5x5 has 25 squares, an odd number. A knight alternates colours, so a closed tour needs as many light squares as dark ones.
>>> e = tour_exists("1000x1000", start="a1", end="b1")
>>> e.answer, e.proof, e.theorem
(True, 'theorem', 'Conrad et al. 1994')
>>> e = tour_exists("3x7", start="d2")
>>> e.answer, e.proof
(False, 'exhaustive')
>>> e = tour_exists("3x7", start="b2")
>>> e.answer, e.proof, e.certificate.start == e.board.square("b2")
(True, 'construction', True)
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from . import policy
from .arguments import check_limits, prepare_query, query_json
from .board import Board, Holes
from .construct.build import can_construct, construct_tour
from .errors import ChessToursError
from .existence.reasons import decide
from .existence.search import as_tour, search_tour
from .pieces import KNIGHT, Leaper
from .status import Status
from .tour import Tour

__all__ = ["Existence", "tour_exists", "PROOFS"]

#: The ways an answer can be known (see the module docstring).
PROOFS = ("theorem", "colour", "connectivity", "construction", "exhaustive", "limit")



@dataclass
class Existence:
    """The answer of :func:`tour_exists`: whether a tour exists, why, and how it is known.

    Attributes
    ----------
    answer : bool or None
        True, False, or None when the time limit ran out before an answer.
    reason : str
        The argument, in sentences, naming any theorem with its authors and year.
    proof : str
        One of :data:`PROOFS`.
    certificate : Tour or None
        A validated tour: always for ``construction``, on request for a theorem's "yes".
    theorem : str or None
        The theorem used (``"Schwenk 1991"``), when one was.
    nodes : int
        Positions examined by backtracking (0 when no search ran).
    seconds : float
        Time taken.
    note : str or None
        Anything else worth saying (a certificate that could not be built in time).

    ``bool(existence)`` is the answer; it raises ValueError when the answer is
    unknown, so that "unknown" is never mistaken for "no".
    """

    answer: bool | None
    reason: str
    proof: str
    certificate: Tour | None = None
    theorem: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    board: Board | None = None
    piece: Leaper = KNIGHT
    start: int | None = None
    end: int | None = None
    closed: bool = False
    note: str | None = None
    extra: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        if self.answer is None:
            raise ValueError("The answer is unknown (the time limit ran out); test .answer instead.")
        return self.answer

    def __repr__(self) -> str:
        """``Existence(5x5 from b2, knight, open: yes by construction)``: the question in names, the answer.

        >>> tour_exists("4x4", closed=True)
        Existence(4x4, knight, closed: no by theorem)
        """
        if self.board is None:
            question = "?"
        else:
            question = str(self.board)
            if self.start is not None:
                question += f" from {self.board.name(self.start)}"
            if self.end is not None:
                question += f" to {self.board.name(self.end)}"
        kind = "closed" if self.closed else "open"
        return f"Existence({question}, {self.piece.name}, {kind}: {self.word} by {self.proof})"

    @property
    def word(self) -> str:
        """``"yes"``, ``"no"`` or ``"unknown"``."""
        return {True: "yes", False: "no", None: "unknown"}[self.answer]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the CLI's ``exists --json``)."""
        query = (query_json(self.board, self.piece, self.closed, self.start, self.end) if self.board is not None else
                 {"board": None, "holes": [], "piece": self.piece.spec(), "closed": self.closed,
                  "start": self.start, "end": self.end})
        return {
            "exists": self.answer,
            "proof": self.proof,
            "reason": self.reason,
            "theorem": self.theorem,
            "tour": None if self.certificate is None else self.certificate.names(),
            **query,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "note": self.note,
        }


def tour_exists(
    board: Board | str,
    start: int | str | None = None,
    end: int | str | None = None,
    closed: bool = False,
    piece: Leaper | str = KNIGHT,
    *,
    holes: Holes = (),
    certificate: bool = False,
    time_limit: float | None = None,
) -> Existence:
    """Decide whether a tour exists, and say why.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start : int or str, optional
        First square (a name such as ``"a1"`` or an index); without it, any square.
    end : int or str, optional
        Last square; without it, any square.
    closed : bool, optional
        Ask about closed tours (the last square leaps back to the first).
    piece : Leaper or str, optional
        The leaper: a :class:`Leaper` or a name such as ``"zebra"``.
    holes : iterable of int or str, optional
        Squares no tour may use: names or indices, or one string such as ``"d4,e5"``.
    certificate : bool, optional
        Also build an example tour when a theorem says "yes" (a search's "yes"
        always comes with its tour).
    time_limit : float, optional
        Seconds for any search; without one a search runs to its end.

    Returns
    -------
    Existence
        ``answer`` True/False (None only when the time limit ran out),
        ``reason``, ``proof``, ``certificate`` ...

    Raises
    ------
    InvalidBoard
        ``board`` does not describe a board (``"0x5"``, ``"8x"``).
    InvalidSquare
        The start, the end or a hole is not on the board, or the start or end is a hole.
    InvalidPiece
        ``piece`` is not a leaper.
    InvalidArgument
        Any other argument out of range: a negative time limit, the same start and end.

    Notes
    -----
    The theorems answer instantly for the knight on whole boards. A requested
    certificate for a theorem's "yes" is built by the linear-time construction
    (Parberry 1997; Lin & Wei 2005; an end square by Pósa's rotations), which
    makes one in about a second on 1000x1000; only where it does not reach the
    query is one searched for. Where no argument applies (start squares on
    3 x n, on the outer ranks of 4 x n and on odd x odd rectangles; end pairs
    off n x n) the construction is tried first too, and its tour is the proof
    (``construction``); otherwise, and for other leapers and boards with holes,
    a search decides.

    Examples
    --------
    >>> tour_exists("4", start="a1").answer       # from the corner of 4x4?
    False
    >>> tour_exists("8x8", start="a1").theorem
    'Conrad et al. 1994'
    >>> tour_exists("10x10", closed=True, piece="zebra", certificate=True).certificate.closed
    True
    """
    t0 = time.perf_counter()
    check_limits(time_limit)
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    deadline = None if time_limit is None else t0 + time_limit
    def answer(yes: bool | None, reason: str, proof: str, **known: Any) -> Existence:
        return Existence(yes, reason, proof, board=board, piece=piece, start=s, end=e, closed=closed, **known)

    verdict = decide(board, piece, s, e, closed)
    if verdict is not None:
        found = answer(verdict.answer, verdict.reason, verdict.proof, theorem=verdict.theorem)
        if verdict.answer and board.free_count == 1:
            found.certificate = as_tour(board, piece, board.free_squares, False, "the one square", None, None)
        elif verdict.answer and certificate and (built := _constructed(board, piece, s, e, closed)) is not None:
            found.certificate = built
        elif verdict.answer and certificate:
            status, tour, nodes = _search(board, piece, s, e, closed, deadline)
            found.nodes = nodes
            if status == Status.FOUND:
                found.certificate = tour
            elif status == Status.EXHAUSTED:  # pragma: no cover - a theorem and a complete search disagree
                raise AssertionError(f"A complete search found no tour where the theory says yes: {found}")
            elif status == Status.TIME:
                found.note = "No example tour was built: the search for one ran out of time."
            else:
                found.note = "No example tour was built: the board is too large for the search to find one."
        found.seconds = time.perf_counter() - t0
        return found

    what = _what(board, piece, s, e, closed)
    built = _constructed(board, piece, s, e, closed)
    if built is not None:
        reason = f"Yes: {CONSTRUCTION} built {what}; it comes with this answer as its certificate."
        return answer(True, reason, "construction", certificate=built, seconds=time.perf_counter() - t0)
    status, tour, nodes = _search(board, piece, s, e, closed, deadline)
    seconds = time.perf_counter() - t0
    if status == Status.FOUND:
        how = tour.stats.get("how", "a search")
        reason = f"Yes: {how} found {what}; it comes with this answer as its certificate."
        return answer(True, reason, "construction", certificate=tour, nodes=nodes, seconds=seconds)
    if status == Status.EXHAUSTED:
        reason = (f"No {what[2:]}: no theorem settles this case, so a complete backtracking search followed "
                  f"every possible path ({nodes:,} positions), and none covers the board.")
        if piece == KNIGHT and not board.holes and board.rows == board.cols == 5 and s is not None and e is not None:
            reason += " (On 5x5 every tour has a corner at one of its two ends.)"
        return answer(False, reason, "exhaustive", nodes=nodes, seconds=seconds)
    if status == Status.INCOMPLETE:
        stop = (f"the board is too large to search completely: a search of {nodes:,} positions from a few "
                "first moves found none, which rules nothing out")
    else:
        stop = f"the search stopped at the time limit ({time_limit:g} s)"
        stop += f" after {nodes:,} positions" if nodes else " (Warnsdorff's walks only)"
    reason = (f"Unknown: no theorem settles whether there is {what}, and {stop}, without finding one or "
              "ruling it out.")
    return answer(None, reason, "limit", nodes=nodes, seconds=seconds)


def _search(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, deadline: float | None):
    """The existence search, with the walks that :mod:`chesstours.policy` schedules."""
    return search_tour(board, piece, s, e, closed, deadline, policy.walk_schedule(), policy.BACKWARD_WALKS,
                       plain=policy.plain_allowance(board))


#: How a constructed certificate was made, as the reasons say it.
CONSTRUCTION = "the divide-and-conquer construction (Parberry 1997; Lin & Wei 2005)"


def _constructed(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool) -> Tour | None:
    """A tour built by the linear-time construction that answers the query, validated; None where
    the construction does not apply (holes, another leaper) or does not reach it.

    With only the end given, the tour is built from the end and walked backwards
    (a closed one is turned to end there). The construction is an answer only
    when it succeeds; where it cannot, the search decides.
    """
    if not can_construct(board, piece) or board.free_count < 2:
        return None
    first, last = (s, e) if s is not None or e is None else (e, None)
    try:
        tour = construct_tour(board, first, last, closed, piece)
        tour = as_tour(board, piece, tour.path, closed, CONSTRUCTION, s, e)
    except ChessToursError:
        return None
    if (s is not None and tour.start != s) or (e is not None and tour.end != e):
        return None
    return dataclasses.replace(tour, method="construct")


def _what(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool) -> str:
    """``"a closed knight's tour of 6x6 from a1"``: the object searched for."""
    kind = f"a closed {piece.name}'s tour" if closed else f"a {piece.name}'s tour"
    text = f"{kind} of {board}"
    if s is not None:
        text += f" from {board.name(s)}"
    if e is not None:
        text += f" to {board.name(e)}"
    return text
