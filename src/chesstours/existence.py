"""Does a tour exist? A yes or no you can trust, with the reason and how it is known.

:func:`tour_exists` first asks the theory (:func:`chesstours.theory.decide`):
colour and connectivity arguments for every leaper and board, and for the
knight on a whole board the theorems of :mod:`chesstours.theorems` --
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

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .board import Board
from .engines import warnsdorff as _wd
from .errors import InvalidArgument, InvalidSquare
from .pieces import KNIGHT, Leaper, move_table, parse_piece
from .theory import decide
from .tour import Tour

__all__ = ["Existence", "tour_exists", "PROOFS"]

#: The ways an answer can be known (see the module docstring).
PROOFS = ("theorem", "colour", "connectivity", "construction", "exhaustive", "limit")

#: Open tours with no start given are searched from every start up to this many squares.
_ALL_STARTS_UP_TO = 4096
#: Backtracking keeps about 100 bytes per square per task: at most this many squares x tasks.
_SEARCH_CELLS = 4_000_000
#: Walks into the target square from the other end are tried on boards up to this size.
_BACKWARD_WALKS_UP_TO = 250_000
#: Warnsdorff walks tried before backtracking: fixed tie-breaks, then seeded random ones.
_WALKS = [("roth", 0), ("pohl", 0), ("first", 0)] + [("random", seed) for seed in range(6)]


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

    @property
    def word(self) -> str:
        """``"yes"``, ``"no"`` or ``"unknown"``."""
        return {True: "yes", False: "no", None: "unknown"}[self.answer]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the CLI's ``exists --json``)."""
        b = self.board
        name = (lambda v: None if v is None else b.name(v)) if b is not None else (lambda v: v)
        return {
            "exists": self.answer,
            "proof": self.proof,
            "reason": self.reason,
            "theorem": self.theorem,
            "tour": None if self.certificate is None else self.certificate.names(),
            "board": None if b is None else f"{b.rows}x{b.cols}",
            "holes": [] if b is None else b.names(sorted(b.holes)),
            "piece": self.piece.spec(),
            "start": name(self.start),
            "end": name(self.end),
            "closed": self.closed,
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
    holes=(),
    certificate: bool = False,
    time_limit: float | None = None,
) -> Existence:
    """Decide whether a tour exists, and say why.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start, end : int or str, optional
        First and last squares; either or both may be left free.
    closed : bool
        Ask about closed tours (the last square leaps back to the first).
    piece : Leaper or str
        The leaper, the knight by default.
    holes : squares removed from the board.
    certificate : bool
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
    InvalidBoard, InvalidSquare, InvalidPiece, InvalidArgument
        Bad input.

    Notes
    -----
    The theorems answer instantly for the knight on whole boards; a search
    runs only where no argument applies (start squares on 3 x n, on the outer
    ranks of 4 x n and on odd x odd rectangles; end pairs off n x n; other
    leapers; boards with holes), or to build a requested certificate.

    Examples
    --------
    >>> tour_exists("4", start="a1").answer       # seed 004: from a1 on 4x4?
    False
    >>> tour_exists("8x8", start="a1").theorem
    'Conrad et al. 1994'
    >>> tour_exists("10x10", closed=True, piece="zebra", certificate=True).certificate.closed
    True
    """
    t0 = time.perf_counter()
    if time_limit is not None and not time_limit > 0:
        raise InvalidArgument(f"The time limit must be a positive number of seconds, not {time_limit}.")
    board = _board(board, holes)
    piece = parse_piece(piece)
    s = _square(board, start, "start")
    e = _square(board, end, "end")
    if s is not None and s == e and board.free_count > 1:
        raise InvalidArgument(f"The start and end squares are both {board.name(s)}; a tour ends elsewhere.")
    deadline = None if time_limit is None else t0 + time_limit
    query = {"board": board, "piece": piece, "start": s, "end": e, "closed": closed}

    verdict = decide(board, piece, s, e, closed)
    if verdict is not None:
        found = Existence(verdict.answer, verdict.reason, verdict.proof, theorem=verdict.theorem, **query)
        if verdict.answer and board.free_count == 1:
            found.certificate = _finish(board, piece, board.free_squares, False, "the one square", None, None)
        elif verdict.answer and certificate:
            status, tour, nodes = _search(board, piece, s, e, closed, deadline)
            found.nodes = nodes
            if status == "found":
                found.certificate = tour
            elif status == "exhausted":  # pragma: no cover - a theorem and a complete search disagree
                raise AssertionError(f"A complete search found no tour where the theory says yes: {query}")
            elif status == "time":
                found.note = "No example tour was built: the search for one ran out of time."
            else:
                found.note = "No example tour was built: the board is too large for the search to find one."
        found.seconds = time.perf_counter() - t0
        return found

    status, tour, nodes = _search(board, piece, s, e, closed, deadline)
    what = _what(board, piece, s, e, closed)
    seconds = time.perf_counter() - t0
    if status == "found":
        how = tour.stats.get("how", "a search")
        reason = f"Yes: {how} found {what}; it comes with this answer as its certificate."
        return Existence(True, reason, "construction", tour, nodes=nodes, seconds=seconds, **query)
    if status == "exhausted":
        reason = (f"No {what[2:]}: no theorem settles this case, so a complete backtracking search followed "
                  f"every possible path ({nodes:,} positions), and none covers the board.")
        if piece == KNIGHT and not board.holes and board.rows == board.cols == 5 and s is not None and e is not None:
            reason += " (On 5x5 every tour has a corner at one of its two ends.)"
        return Existence(False, reason, "exhaustive", nodes=nodes, seconds=seconds, **query)
    if status == "incomplete":
        stop = (f"the board is too large to search completely: a search of {nodes:,} positions from a few "
                "first moves found none, which rules nothing out")
    else:
        stop = f"the search stopped at the time limit ({time_limit:g} s)"
        stop += f" after {nodes:,} positions" if nodes else " (Warnsdorff's walks only)"
    reason = (f"Unknown: no theorem settles whether there is {what}, and {stop}, without finding one or "
              "ruling it out.")
    return Existence(None, reason, "limit", nodes=nodes, seconds=seconds, **query)


def _board(board: Board | str, holes) -> Board:
    if isinstance(board, Board):
        if not holes:
            return board
        extra = Board(board.rows, board.cols, holes).holes
        return Board(board.rows, board.cols, set(board.holes) | extra)
    return Board.parse(board, holes)


def _square(board: Board, square: int | str | None, role: str) -> int | None:
    if square is None:
        return None
    try:
        return board.square(square)
    except InvalidSquare as exc:
        raise InvalidSquare(f"The {role} square: {exc}") from None


def _what(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool) -> str:
    """``"a closed knight's tour of 6x6 from a1"``: the object searched for."""
    kind = f"a closed {piece.name}'s tour" if closed else f"a {piece.name}'s tour"
    text = f"{kind} of {board}"
    if s is not None:
        text += f" from {board.name(s)}"
    if e is not None:
        text += f" to {board.name(e)}"
    return text


# -- search ------------------------------------------------------------------------


def _search(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool,
            deadline: float | None) -> tuple[str, Tour | None, int]:
    """Find a tour or prove there is none: ``(status, tour, nodes)``.

    The status is ``found``, ``exhausted`` (a complete search found none),
    ``time`` or ``incomplete`` (the board is too large to search every branch).

    Warnsdorff's rule first (fast on large boards), then the complete
    backtracking search of :func:`chesstours.engines.parallel.first_tour`.
    A found tour is turned to match the query and validated.
    """
    # An open tour that must end at e is an open tour from e, walked backwards; and a
    # tour from s is also a tour into s from its other end. Searching both ways at once
    # (walks, then backtracking round-robin) tames the heavy tails of either one.
    first, last = (e, None) if not closed and s is None and e is not None else (s, e)
    backward = [] if closed or first is None else \
        [last] if last is not None else [c for c in board.corners() if c != first and c not in board.holes]

    walks = [(root, last, rule, seed) for root in _walk_roots(board, piece, first, closed) for rule, seed in _WALKS]
    if board.free_count <= _BACKWARD_WALKS_UP_TO:
        walks += [(root, first, rule, seed) for root in backward for rule, seed in _WALKS[:4]]
    for root, end, rule, seed in walks:
        if deadline is not None and time.perf_counter() > deadline:
            return "time", None, 0
        walk = _wd.warnsdorff(board, root, piece, rule, seed, end=end, closed=closed)
        if walk.complete and (not closed or walk.closed) and (end is None or walk.path[-1] == end):
            how = f"Warnsdorff's rule ({rule} tie-break)"
            return "found", _finish(board, piece, walk.path, closed, how, s, e), 0

    from .engines.parallel import closed_tasks, open_tasks

    complete = True
    if closed:
        tasks = closed_tasks(board, piece, s, e) if s is not None and e is not None else \
            closed_tasks(board, piece, None, None)
    elif first is not None or board.free_count <= _ALL_STARTS_UP_TO:
        tasks = open_tasks(board, piece, first, last)
    else:  # too many start squares to search them all: try the walk roots only
        tasks = [t for root in _walk_roots(board, piece, None, False)
                 for t in open_tasks(board, piece, root, last, symmetry=False)]
        complete = False
    most = max(1, _SEARCH_CELLS // board.free_count)  # each task's search holds arrays of the board's size
    if len(tasks) > most:
        tasks, complete = tasks[:most], False
    # The same tours entered from the other end: redundant for completeness, often found sooner.
    extra = [t for root in backward for t in open_tasks(board, piece, root, first, symmetry=False)]
    extra = extra[: max(0, most - len(tasks))]
    status, path, nodes = _round_robin(board, piece, tasks, extra, deadline)
    nodes += len(tasks)  # each first move is a position examined, even when pruning closes it at once
    if status != "found":
        if status == "exhausted":
            return ("exhausted" if complete else "incomplete"), None, nodes
        return "time", None, nodes
    how = f"a backtracking search ({nodes:,} positions)"
    return "found", _finish(board, piece, path, closed, how, s, e), nodes


def _round_robin(board: Board, piece: Leaper, tasks: list, extra: list, deadline: float | None,
                 budget: int = 1 << 12) -> tuple[str, np.ndarray | None, int]:
    """Backtrack over ``tasks`` and ``extra`` in turn, budgets doubling each round (iterative broadening).

    As :func:`chesstours.engines.parallel.first_tour`, except that the search is
    over ("exhausted") as soon as every one of ``tasks`` is: they alone cover
    every tour, and the ``extra`` searches only look for the same tours from
    their other end.
    """
    from .engines.backtrack import Search

    table = move_table(board, piece)
    holes = board.hole_mask if board.holes else None
    searches = [(Search(table, t.prefix, end=t.end, end_squares=t.end_squares, order="warnsdorff", holes=holes),
                 i < len(tasks)) for i, t in enumerate(tasks + extra)]
    nodes = 0
    pending = len(tasks)  # required searches not yet exhausted
    while pending:
        alive = []
        for search, required in searches:
            if not pending:
                break
            before = search.nodes
            status = "budget"
            while status == "budget" and search.nodes - before < budget:
                status = search.run(min(budget, 1 << 21), stop_at_tour=True)
                if deadline is not None and time.perf_counter() > deadline:
                    return "time", None, nodes + search.nodes - before
            nodes += search.nodes - before
            if status == "found":
                return "found", search.path(), nodes
            if status == "budget":
                alive.append((search, required))
            elif required:
                pending -= 1
        searches = alive
        budget *= 2
    return "exhausted", None, nodes


def _walk_roots(board: Board, piece: Leaper, first: int | None, closed: bool) -> list[int]:
    """Where Warnsdorff walks start: the given square, else squares with fewest moves."""
    if first is not None:
        return [first]
    table = move_table(board, piece)
    free = board.free_squares
    degree = (table[free] >= 0).sum(axis=1)
    order = np.argsort(degree, kind="stable")
    return [int(v) for v in free[order[: 1 if closed else 3]]]


def _finish(board, piece, path, closed, how, s, e) -> Tour:
    """The found path as a validated Tour that starts at ``s`` and ends at ``e`` (where given)."""
    path = np.asarray(path, dtype=np.int32)
    if not closed and (s is not None and path[0] != s or s is None and e is not None and path[-1] != e):
        path = path[::-1].copy()
    tour = Tour(board, piece, path, closed, "tour_exists", {"how": how})
    if closed and s is not None and tour.start != s:
        tour = tour.rotated(s)
    if closed and e is not None and tour.end != e:
        if s is not None:  # the cycle runs the other way round: s ... e must close with the move e-s
            tour = tour.reversed()
        else:
            after = int(np.flatnonzero(tour.path == e)[0]) + 1
            tour = tour.rotated(int(tour.path[after % len(tour)]))
    tour.validate()
    return tour
