"""The choices of :mod:`chesstours.policy`: the names of the methods, the order ``auto`` tries them in, the
thresholds between them, and the schedules of walks and start squares.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Literal, get_args

from ..backtrack import ORDERS, Order
from ..backtrack.search import kernel_key as search_kernel_key
from ..backtrack.search import warm as warm_search
from ..bishop.methods import BISHOP_METHOD_HELP, BISHOP_METHODS, BishopMethod
from ..board import Board
from ..construct import COMPILED_ABOVE as CONSTRUCT_COMPILED_ABOVE
from ..errors import InvalidArgument
from ..pieces import Leaper
from ..runtime import (
    PLAIN_SEARCH_POSITIONS,
    PLAIN_SEARCH_SQUARES,
    PlainAllowance,
    memory_limit,
    worker_count,
)
from ..runtime import plain_allowance as _plain_allowance
from ..settings import (
    BACKTRACK_IN_TASKS_SECONDS,
    BACKWARD_WALKS,
    CLUSTER_WORKERS,
    CONSTRUCT_ABOVE,
    ESTIMATE_ABOVE_SQUARES,
    FRONTIER_ABOVE_SECONDS,
    FRONTIER_FORECAST_HIGH,
    HEURISTIC_STARTS,
    MAX_BACKTRACK_COUNT_SQUARES,
    MAX_CLASS_SPLIT_ON,
    MAX_SPLIT_ON,
    MAX_UNLIMITED_SECONDS,
    MIN_TASKS,
    PROBES_RUN_LOW,
    RANDOM_WALKS,
    TASKS_PER_WORKER,
)
from ..warnsdorff import COMPILED_ABOVE as WALK_COMPILED_ABOVE
from ..warnsdorff.rule import TIEBREAKS, Tiebreak

__all__ = [
    "FindMethod", "CountMethod", "Tiebreak", "Order", "BishopMethod",
    "FIND_METHODS", "COUNT_METHODS", "TIEBREAKS", "ORDERS", "BISHOP_METHODS", "BISHOP_METHOD_HELP",
    "DEFAULT_TIEBREAK", "FIND_ORDER", "LIST_ORDER",
    "CONSTRUCT_ABOVE", "FRONTIER_ABOVE_SECONDS", "FRONTIER_FORECAST_HIGH", "PROBES_RUN_LOW", "MAX_BACKTRACK_COUNT_SQUARES", "MAX_UNLIMITED_SECONDS",
    "ESTIMATE_ABOVE_SQUARES", "TASKS_PER_WORKER", "MIN_TASKS", "CLUSTER_WORKERS", "MAX_SPLIT_ON", "MAX_CLASS_SPLIT_ON", "BACKTRACK_IN_TASKS_SECONDS", "WALK_COMPILED_ABOVE", "CONSTRUCT_COMPILED_ABOVE", "PLAIN_SEARCH_SQUARES", "PLAIN_SEARCH_POSITIONS",
    "plain_allowance", "RANDOM_WALKS", "BACKWARD_WALKS", "HEURISTIC_STARTS",
    "FIND_METHOD_HELP", "COUNT_METHOD_HELP", "describe", "task_target", "walk_schedule", "check_find", "check_count", "worker_count", "memory_limit", "default_start", "starts_to_try",
    ]

# -- names ---------------------------------------------------------------------------

#: How :func:`~chesstours.find_tour` may look for a tour.
FindMethod = Literal["auto", "warnsdorff", "backtrack", "construct"]
FIND_METHODS: tuple[FindMethod, ...] = get_args(FindMethod)
#: How :func:`~chesstours.count_tours` may count.
CountMethod = Literal["auto", "frontier", "backtrack"]
COUNT_METHODS: tuple[CountMethod, ...] = get_args(CountMethod)

#: Warnsdorff's tie-break when none is asked for (Roth: the square farthest from the centre).
DEFAULT_TIEBREAK: Tiebreak = "roth"
#: The move order of backtracking when it looks for one tour: fewest onward moves first.
FIND_ORDER: Order = "warnsdorff"
#: The move order of backtracking when it lists tours: the leaper's fixed order, as the classic programs list them.
LIST_ORDER: Order = "fixed"

def task_target(jobs: int | None = None, cluster: str | None = None) -> int:
    """How many tasks a search run on ``jobs`` processes (or a cluster) is cut into."""
    workers = CLUSTER_WORKERS if cluster is not None else worker_count(jobs)
    return max(MIN_TASKS, TASKS_PER_WORKER * workers)


#: What each method of :func:`~chesstours.find_tour` does, for the command line's and the web api's help.
FIND_METHOD_HELP: dict[str, str] = {
    "auto": "the theory first; a knight on a whole board of more than "
            f"{CONSTRUCT_ABOVE:,} squares by construction; else Warnsdorff's rule with several tie-breaks, the "
            "construction and backtracking: it finds a tour whenever one exists",
    "warnsdorff": "one walk of Warnsdorff's rule (--tiebreak): linear time, but it may reach a dead end",
    "backtrack": "exhaustive search: complete, but its time can grow exponentially",
    "construct": "divide and conquer, for a knight on a whole board: any size, linear time",
}
#: What each method of :func:`~chesstours.count_tours` does, for help texts.
COUNT_METHOD_HELP: dict[str, str] = {
    "auto": f"the theory for an instant zero; backtracking on boards of at most {ESTIMATE_ABOVE_SQUARES} squares; "
            f"the frontier method where it fits and backtracking would take more than {FRONTIER_ABOVE_SECONDS:g} s "
            "and longer than the frontier; else backtracking",
    "frontier": "a dynamic programme sweeping the board: its cost grows with the width of the board, not with "
                "the number of tours",
    "backtrack": "visit every tour (symmetry reduction, every core)",
}


def describe(helps: dict[str, str]) -> str:
    """The methods and what each does, as one paragraph (``"auto: ...; warnsdorff: ..."``)."""
    return "; ".join(f"{name}: {text}" for name, text in helps.items()) + "."


def walk_schedule(tiebreak: Tiebreak | None = None, seed: int = 0) -> list[tuple[Tiebreak, int]]:
    """The Warnsdorff walks ``auto`` takes before it backtracks: ``(tie-break, seed)`` pairs in order.

    The fixed tie-breaks first (Roth, Pohl, the first in move order; only
    ``tiebreak`` when one is asked for), then :data:`RANDOM_WALKS` walks with
    random ties, seeded ``seed``, ``seed + 1``, ...
    """
    rules: list[Tiebreak] = [tiebreak] if tiebreak else ["roth", "pohl", "first"]
    return [(rule, seed) for rule in rules] + [("random", seed + i) for i in range(RANDOM_WALKS)]


def _check(value: object, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise InvalidArgument(f"Unknown {what} {value!r}; use one of {', '.join(allowed)}.")


def check_find(method: str, tiebreak: str | None = None, order: str = FIND_ORDER) -> None:
    """:raises InvalidArgument: for a method, tie-break or move order that :func:`find_tour` does not know."""
    _check(method, FIND_METHODS, "method")
    if tiebreak is not None:
        _check(tiebreak, TIEBREAKS, "tie-break")
    _check(order, ORDERS, "move order")


def check_count(method: str) -> None:
    """:raises InvalidArgument: for a counting method :func:`count_tours` does not know."""
    _check(method, COUNT_METHODS, "counting method")


def plain_allowance(board: Board, counting: bool = False) -> PlainAllowance | None:
    """Where a query's backtracking runs: a :class:`~chesstours.backtrack.PlainAllowance` of
    :data:`PLAIN_SEARCH_POSITIONS` positions in plain Python on boards of at most
    :data:`PLAIN_SEARCH_SQUARES` free squares, then the kernel; None (the kernel from the start) above,
    and once this process has loaded the kernel.

    Small searches are over before numba could load; a large one pays a tenth
    of a second more, nothing next to compiling the kernel on a first run. On
    an empty compile cache the kernel then compiles in another process while
    the search goes on in Python (see :class:`~chesstours.runtime.PlainAllowance`): a count's kernel
    (``counting``) first where the query counts, the search kernel first where it lists tours or looks for one
    (:func:`~chesstours.backtrack.search.kernel_key`, asked only then).
    """
    first = "count" if counting else "search"
    return _plain_allowance(board.free_count, kernels="chesstours.backtrack.kernel", compiles=warm_search,
                            kernel=partial(search_kernel_key, first), args=(first,))


def default_start(board: Board) -> int:
    """The square a tour starts on when no start is given and it can: a1, or the first free square."""
    return int(board.free_squares[0])


def starts_to_try(board: Board, piece: Leaper, method: str) -> Iterator[int]:
    """Without a start square, the squares :func:`find_tour` tries in turn: the default, then one of each class.

    Squares that a symmetry of the board (one that keeps its holes and the
    leaper's moves) exchanges have tours alike, so one square of each class
    is enough for a complete method; a heuristic one tries at most
    :data:`HEURISTIC_STARTS`. The squares come one at a time: the classes
    are worked out only if the default square has no tour (on a board of
    millions of squares that is most of the work).
    """
    first = default_start(board)
    yield first
    limit = HEURISTIC_STARTS if method in ("warnsdorff", "construct") else board.free_count
    perms = board.symmetries()
    seen = {int(p[first]) for p in perms}
    tried = 1
    for v in board.free_squares.tolist():
        if tried >= limit:
            return
        if v not in seen:
            seen |= {int(p[v]) for p in perms}
            tried += 1
            yield v
