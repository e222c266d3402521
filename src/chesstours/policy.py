"""How chesstours chooses: which method answers a query, why, and what it will cost.

Every choice the package makes on a user's behalf is made here, once: the
names of the methods; the order in which ``auto`` tries them and the
Warnsdorff walks it takes first; the thresholds between methods; and the
threads, memory and time a job may take. The library
(:func:`~chesstours.find_tour`, :func:`~chesstours.count_tours`,
:func:`~chesstours.tour_exists`), the command line and the web api all ask
this module, and the choices they offer are generated from it. The names of
what a family implements -- the tie-breaks of Warnsdorff's rule, the move
orders of backtracking -- are defined beside the code that implements them
and published here; so are the bishop puzzle's methods and thresholds
(:mod:`chesstours.bishop.methods`), which its functions, below this module,
apply themselves.

Compiled or plain Python. The algorithms run as numba kernels, which are
compiled on first use and kept in a cache folder
(:func:`chesstours.machine.compile_cache_dir`); on a first run, with that
folder empty, compiling costs seconds, more than a small query's whole
answer. So small work runs in plain Python twins of the kernels, which give
the same answers move for move, and only large work pays for the compiler:

* Warnsdorff's walk and the construction's loops (following its step
  field, rotating its end to a chosen square) are plain Python on boards of
  at most :data:`WALK_COMPILED_ABOVE` and :data:`CONSTRUCT_COMPILED_ABOVE`
  free squares (linear time: a 64x64 walk takes a few hundredths of a
  second), compiled above;
* backtracking -- a tour's search, a listing, a trace, a count, the
  probes of an estimate, and the bishop's search -- starts in plain Python
  on boards of at most :data:`PLAIN_SEARCH_SQUARES` free squares and takes
  up to :data:`PLAIN_SEARCH_POSITIONS` positions there for the whole query
  (about a fifth of a second: a 5x5 count); a search still running then
  goes on in the compiled kernel from the same place
  (:func:`plain_allowance`; the bishop's api, which lives in its family,
  takes the same allowance from :func:`chesstours.machine.plain_allowance`);
* counts of boards of at most :data:`ESTIMATE_ABOVE_SQUARES` free squares
  backtrack without an estimate first (the estimate's probes would cost
  more than such a count).

A query becomes a :class:`Plan` by a pure function (:func:`plan_find`,
:func:`plan_count`): the method that will run, why, the steps ``auto`` falls
back on, and an estimate of the states, memory and seconds it needs -- or the
sentence that refuses it. The plan can be shown without running it::

    chesstours count 8x8 --closed --plan
    chesstours tour 1000x1000 --plan --json

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> plan_find(Board(1000, 1000), KNIGHT).method
'construct'
>>> plan = plan_count(Board(6, 6), KNIGHT, closed=True)
>>> plan.method in ("backtrack", "frontier"), plan.refusal
(True, None)
>>> plan_count(Board(5, 5), KNIGHT, closed=True).method
'theory'
>>> [rule for rule, seed in walk_schedule()][:4]
['roth', 'pohl', 'first', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any, Literal, get_args

from .arguments import query_json
from .backtrack import (
    NODES_PER_SECOND,
    ORDERS,
    Order,
    closed_tasks,
    estimate_nodes,
    open_tasks,
    split_tasks,
)
from .backtrack.search import SEARCH_KERNEL
from .backtrack.split import balanced_tasks, search_bytes
from .bishop.methods import BISHOP_METHOD_HELP, BISHOP_METHODS, BishopMethod
from .board import Board
from .construct import COMPILED_ABOVE as CONSTRUCT_COMPILED_ABOVE
from .construct import can_construct
from .errors import InvalidArgument
from .existence.reasons import obstruction
from .machine import (
    PLAIN_SEARCH_POSITIONS,
    PLAIN_SEARCH_SQUARES,
    PlainAllowance,
    in_cache_folder,
    memory_limit,
    worker_count,
)
from .machine import plain_allowance as _plain_allowance
from .pieces import KNIGHT, Leaper
from .warnsdorff import COMPILED_ABOVE as WALK_COMPILED_ABOVE
from .warnsdorff.rule import TIEBREAKS, Tiebreak
from .words import about_duration, format_bytes, format_duration, format_seconds

__all__ = [
    "FindMethod", "CountMethod", "Tiebreak", "Order", "BishopMethod",
    "FIND_METHODS", "COUNT_METHODS", "TIEBREAKS", "ORDERS", "BISHOP_METHODS", "BISHOP_METHOD_HELP",
    "DEFAULT_TIEBREAK", "FIND_ORDER", "LIST_ORDER",
    "CONSTRUCT_ABOVE", "FRONTIER_ABOVE_SECONDS", "FRONTIER_FORECAST_HIGH", "PROBES_RUN_LOW", "COLD_SEARCH_POSITIONS", "MAX_BACKTRACK_COUNT_SQUARES", "MAX_UNLIMITED_SECONDS",
    "ESTIMATE_ABOVE_SQUARES", "WALK_COMPILED_ABOVE", "CONSTRUCT_COMPILED_ABOVE", "PLAIN_SEARCH_SQUARES", "PLAIN_SEARCH_POSITIONS",
    "plain_allowance", "RANDOM_WALKS", "BACKWARD_WALKS", "HEURISTIC_STARTS",
    "FIND_METHOD_HELP", "COUNT_METHOD_HELP", "describe", "task_target", "walk_schedule", "estimate_backtracking", "searches_after_estimate", "check_find", "check_count", "worker_count", "memory_limit", "default_start", "starts_to_try",
    "Plan", "plan_find", "plan_count",
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

# -- thresholds ----------------------------------------------------------------------

#: ``auto`` builds knight's tours of whole boards with more squares than this by construction
#: (:mod:`chesstours.construct`) instead of walking Warnsdorff's rule first.
CONSTRUCT_ABOVE = 10_000
#: ``auto`` counts by the frontier method when backtracking is estimated to take longer than this
#: (measured on two cores: backtracking wins below a few tenths of a second, the frontier above) ...
FRONTIER_ABOVE_SECONDS = 0.25
#: ... and longer than the frontier method's own estimate divided by this. That estimate, from the width
#: of the frontier alone, runs high on small boards (6x6 open: 2.3 s forecast, 0.52 s run, where
#: backtracking takes 0.5 s; 6x7 closed: 0.22 s forecast, 0.07 s run), is about right on larger boards as
#: long as wide or a line or two longer (7x7 open: 37 s forecast, 35 s run; 6x8 open: 2.3 s, 3.9 s), and
#: high again for open tours since they end only where the colours allow (7x7: about half those 35 s), and
#: runs low on longer ones (6x10 open: 2.3 s forecast, 31 s run on a day 6x8 open took 6 s), where
#: backtracking is out of reach anyway (see chesstours.frontier).
FRONTIER_FORECAST_HIGH = 4.0
#: Knuth's probes estimate a count's positions low: its typical value lies below its mean, which a few long
#: subtrees hold. On eleven counts of 4x8 to 6x6 (knight, open and closed, from a start and from every
#: start, with a hole or not) the search visited 1.4 to 3.0 times the positions estimated, 1.9 times in the
#: median; the estimate of a count by backtracking is this many times the probes'.
PROBES_RUN_LOW = 2.0
#: On an empty compile cache ``auto`` counts by the frontier method in plain Python (its forecast at most
#: :data:`chesstours.frontier.plain.PLAIN_FORECAST` states) rather than backtrack past this many estimated
#: positions, which Python searches no sooner (some 600,000 a second) than that method counts, and past a few
#: million no sooner than the search kernel compiles (2 to 3 s): 5x7 open took 5.1 s on an empty cache by
#: backtracking (8.1 million positions), 2.3 s by the frontier method; 6x6 closed (700 thousand positions,
#: estimated at 790 thousand) 2.3 to 2.7 s, and 1.5 s.
COLD_SEARCH_POSITIONS = 500_000
#: Exhaustive counts by backtracking are refused outright above this many free squares.
MAX_BACKTRACK_COUNT_SQUARES = 400
#: Without a time limit, counts estimated to take longer than this are refused (a time limit lets them run).
MAX_UNLIMITED_SECONDS = 3600.0
#: Counts of boards with more free squares than this are estimated before they start.
ESTIMATE_ABOVE_SQUARES = 30
#: Seeded random walks that ``auto`` takes after the fixed tie-breaks.
RANDOM_WALKS = 8
#: Walks into a fixed square from the tour's other end (:func:`~chesstours.tour_exists`): the schedule's first.
BACKWARD_WALKS = 4
#: Without a start square, a heuristic method tries at most this many start squares.
HEURISTIC_STARTS = 16
#: A search run as tasks (``jobs``, ``cluster``) is cut into this many tasks a worker, and at least
#: :data:`MIN_TASKS`: enough for the pool to keep every worker busy to the end.
TASKS_PER_WORKER = 32
MIN_TASKS = 128
#: Workers a cluster is assumed to have when a plan is made for it (it may have more).
CLUSTER_WORKERS = 8
#: A frontier count split on edges is conditioned on at most this many squares (the parts grow as 36 to the
#: power), and one split on classes on at most :data:`MAX_CLASS_SPLIT_ON` (3 to the power).
MAX_SPLIT_ON = 3
MAX_CLASS_SPLIT_ON = 8
#: A count run in tasks by ``auto`` backtracks unless backtracking is refused, or forecast past this many
#: seconds where the frontier count in parts is forecast to be faster (a count with a time limit, which
#: backtracking is not refused for however long it would take).
BACKTRACK_IN_TASKS_SECONDS = 60.0


def task_target(jobs: int | None = None, cluster: str | None = None) -> int:
    """How many tasks a search run on ``jobs`` processes (or a cluster) is cut into."""
    workers = CLUSTER_WORKERS if cluster is not None else worker_count(jobs)
    return max(MIN_TASKS, TASKS_PER_WORKER * workers)

#: Rough speeds of this machine, for estimates only.
_CONSTRUCT_SQUARES_PER_SECOND = 3e7
_CONSTRUCT_BYTES_PER_SQUARE = 10.0
_WALK_SQUARES_PER_SECOND = 3e7
_WALK_BYTES_PER_SQUARE = 6.0


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


def plain_allowance(board: Board) -> PlainAllowance | None:
    """Where a query's backtracking runs: a :class:`~chesstours.backtrack.PlainAllowance` of
    :data:`PLAIN_SEARCH_POSITIONS` positions in plain Python on boards of at most
    :data:`PLAIN_SEARCH_SQUARES` free squares, then the kernel; None (the kernel from the start) above,
    and once this process has loaded the kernel.

    Small searches are over before numba could load; a large one pays a tenth
    of a second more, nothing next to compiling the kernel on a first run. On
    an empty compile cache the kernel then compiles in another process while
    the search goes on in Python (see :class:`~chesstours.machine.PlainAllowance`).
    """
    return _plain_allowance(board.free_count, kernels="chesstours.backtrack.kernel",
                            compiles="chesstours.backtrack.search", kernel=SEARCH_KERNEL)


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


# -- plans ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a query will do: the method, why, the fallbacks, and what it is estimated to cost.

    ``method`` is what runs first (``"theory"`` when the theory answers at
    once); ``steps`` what ``auto`` falls back on, in order. The estimates are
    rough (good to an order of magnitude) and None where nothing sensible can
    be said. ``refusal`` is the sentence that refuses the query, or None.
    """

    question: Literal["find", "count"]
    board: Board
    piece: Leaper
    closed: bool
    start: int | None
    end: int | None
    method: str
    why: str
    steps: tuple[str, ...] = ()
    states: float | None = None
    memory_bytes: float | None = None
    seconds: float | None = None
    threads: int = 1
    refusal: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``--plan --json``)."""
        return {
            "question": self.question,
            **query_json(self.board, self.piece, self.closed, self.start, self.end),
            "method": self.method,
            "why": self.why,
            "steps": list(self.steps),
            "states": None if self.states is None else float(self.states),
            "memory_bytes": None if self.memory_bytes is None else float(self.memory_bytes),
            "seconds": None if self.seconds is None else float(self.seconds),
            "threads": self.threads,
            "refused": self.refusal,
            **self.extra,
        }

    def lines(self) -> list[str]:
        """The plan as the command line prints it."""
        kind = ("closed " if self.closed else "") + ("tour" if self.question == "count" else "a tour")
        kind = kind.replace("closed a tour", "a closed tour") + ("s" if self.question == "count" else "")
        where = "".join(f" {role} {self.board.name(v)}" for role, v in (("from", self.start), ("to", self.end))
                        if v is not None)
        out = [f"question:  {self.question} {kind} of {self.board}, {self.piece.name}{where}",
               f"method:    {self.method}", f"why:       {self.why}"]
        if self.steps:
            out.append(f"then:      {'; '.join(self.steps)}")
        estimate = []
        if self.states is not None:
            estimate.append(f"about {self.states:.1e} {self.extra.get('units', 'positions')}")
        if self.memory_bytes is not None:
            estimate.append(format_bytes(self.memory_bytes))
        if self.seconds is not None:
            estimate.append(f"{format_duration(self.seconds)} on {self.threads} thread{'s' * (self.threads != 1)}")
        if estimate:
            out.append(f"estimate:  {', '.join(estimate)}")
        if "caveat" in self.extra:
            out.append(f"caveat:    {self.extra['caveat']}")
        tasks = self.extra.get("tasks")
        if tasks and "split_on" in self.extra:
            out.append(f"parts:     {len(tasks):,} (conditioned on {' '.join(self.extra['split_on'])}), "
                       f"{self.extra['cpu_hours']:.3g} CPU-hours in all; each about {tasks[0]['states']:.1e} states, "
                       f"{format_bytes(tasks[0]['memory_bytes'])}, {format_duration(tasks[0]['seconds'])} against "
                       f"{self.extra['whole_states']:.1e} states, {format_bytes(self.extra['whole_memory_bytes'])} "
                       "for the whole count (--json lists every part)")
        elif tasks:
            biggest = max(tasks, key=lambda task: task["states"])
            out.append(f"tasks:     {len(tasks):,}, {self.extra['cpu_hours']:.3g} CPU-hours in all; the largest, "
                       f"{' '.join(biggest['prefix'])} ..., about {biggest['states']:.1e} positions, "
                       f"{format_bytes(biggest['memory_bytes'])}, {format_duration(biggest['seconds'])} "
                       "(--json lists every task)")
        if self.refusal:
            out.append(f"refused:   {self.refusal}")
        return out


def plan_find(board: Board, piece: Leaper = KNIGHT, start: int | None = None, end: int | None = None,
              closed: bool = False, method: str = "auto", *, tiebreak: Tiebreak | None = None,
              order: Order = FIND_ORDER) -> Plan:
    """How :func:`~chesstours.find_tour` will look for this tour.

    ``auto`` is complete: the theory first (an instant "no" with its reason);
    a knight on a whole board of more than :data:`CONSTRUCT_ABOVE` squares
    is built by the construction; otherwise the walks of
    :func:`walk_schedule`, then the construction where it applies, then
    backtracking, which finds a tour whenever one exists. Without a start
    square, open tours are looked for from :func:`default_start`, then from
    one square of each symmetry class (:func:`starts_to_try`).
    """
    check_find(method, tiebreak, order)
    query = Plan("find", board, piece, closed, start, end, method="", why="")
    n = board.free_count
    walk = replace(query, seconds=n / _WALK_SQUARES_PER_SECOND, memory_bytes=n * _WALK_BYTES_PER_SQUARE)
    build = replace(query, seconds=n / _CONSTRUCT_SQUARES_PER_SECOND, memory_bytes=n * _CONSTRUCT_BYTES_PER_SQUARE)
    no_start = start is None and end is None and not closed
    starts = " (from a1 or the first free square, then from one square of each symmetry class)" if no_start else ""
    if method == "warnsdorff":
        rule = tiebreak or DEFAULT_TIEBREAK
        return replace(walk, method="warnsdorff",
                    why=f"one walk of Warnsdorff's rule with the {rule} tie-break{starts}: linear time, but it may "
                        "reach a dead end")
    if method == "construct":
        refusal = None if can_construct(board, piece) else \
            "The construction builds knight's tours of whole boards only (no holes, no other leaper)."
        return replace(build, method="construct", refusal=refusal,
                    why=f"the divide-and-conquer construction (Parberry 1997; Lin & Wei 2005){starts}: linear time")
    if method == "backtrack":
        return replace(query, method="backtrack",
                    why=f"exhaustive backtracking in {order} move order{starts}: complete, but its time can grow "
                        "exponentially with the board")
    reason = obstruction(board, piece, start, end, closed)
    if reason is not None:
        return replace(query, method="theory", why=reason.reason, seconds=0.0)
    fixed = [rule for rule, _ in walk_schedule(tiebreak) if rule != "random"]
    walks = f"{', '.join(fixed)}, then {RANDOM_WALKS} with random ties"
    if can_construct(board, piece) and n > CONSTRUCT_ABOVE:
        return replace(build, method="construct",
                    steps=(("rotations to the end square, then " if end is not None else "")
                           + "Warnsdorff's walks and backtracking if the construction cannot reach the query",),
                    why=f"a knight on a whole board of {n:,} squares (more than {CONSTRUCT_ABOVE:,}): the "
                        "divide-and-conquer construction builds a tour in linear time")
    steps = ["the construction"] if can_construct(board, piece) else []
    steps.append(f"backtracking in {order} move order, which finds a tour whenever one exists")
    return replace(walk, method="warnsdorff", steps=tuple(steps),
                why=f"Warnsdorff's rule first, fast where it works: walks with the tie-breaks {walks}{starts}")


def estimate_backtracking(board: Board, piece: Leaper, start: int | None = None, end: int | None = None,
                          closed: bool = False, workers: int | None = None,
                          plain: PlainAllowance | None = None) -> tuple[float, float, int]:
    """``(positions, seconds, threads)`` an exhaustive count by backtracking is estimated to take.

    Knuth's random probes of the search tree (see
    :meth:`chesstours.backtrack.Search.estimate`), times :data:`PROBES_RUN_LOW`:
    good to an order of magnitude, and quick -- a few hundredths of a second. A board above
    :data:`MAX_BACKTRACK_COUNT_SQUARES` squares is infinitely far. The probes
    start in plain Python with ``plain`` (by default the board's own
    :func:`plain_allowance`); the estimate is the same either way.
    """
    if board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
        return math.inf, math.inf, 0
    tasks = closed_tasks(board, piece, start, end) if closed else open_tasks(board, piece, start, end, pairs=True)
    tasks = split_tasks(board, piece, tasks)
    nodes = PROBES_RUN_LOW * estimate_nodes(board, piece, tasks,
                                            plain=plain if plain is not None else plain_allowance(board))
    threads = max(1, min(worker_count(workers), len(tasks)))
    return nodes, nodes / (NODES_PER_SECOND * threads), threads


def searches_after_estimate(board: Board, piece: Leaper, start: int | None, end: int | None, closed: bool,
                            method: str, spill_dir: object = None) -> bool:
    """Whether :func:`plan_count` may choose backtracking for this count after estimating its search.

    The counts asked ``auto`` or ``backtrack`` without a spill folder, on more
    than :data:`ESTIMATE_ABOVE_SQUARES` and at most
    :data:`MAX_BACKTRACK_COUNT_SQUARES` free squares, that no theorem answers
    with 0: their plan runs the estimate's probes first. A count asks it before
    its plan, to compile the search kernel in another process while the probes
    run (:func:`chesstours.machine.compiled_beside`); the tests hold the
    branches of the plan to it.
    """
    return (method in ("auto", "backtrack") and spill_dir is None
            and ESTIMATE_ABOVE_SQUARES < board.free_count <= MAX_BACKTRACK_COUNT_SQUARES
            and obstruction(board, piece, start, end, closed) is None)


def plan_count(board: Board, piece: Leaper = KNIGHT, start: int | None = None, end: int | None = None,
               closed: bool = False, method: str = "auto", *, time_limit: float | None = None,
               node_limit: int | None = None, workers: int | None = None, spill_dir: object = None,
               refuse_above: float | None = math.inf, jobs: int | None = None, cluster: str | None = None,
               split: bool = False, list_tasks: bool = True, split_on: int | None = None,
               plain: PlainAllowance | None = None) -> Plan:
    """How :func:`~chesstours.count_tours` will count, and what it will cost.

    ``auto``: the theory for an instant zero; backtracking at once on boards
    of at most :data:`ESTIMATE_ABOVE_SQUARES` free squares (without a spill
    folder); the frontier method where its frontier fits and backtracking is
    estimated to take longer than :data:`FRONTIER_ABOVE_SECONDS` and than the
    frontier method (its forecast divided by :data:`FRONTIER_FORECAST_HIGH`),
    or a spill folder is given; else backtracking. A node limit asks for backtracking.
    Counts estimated to take longer than ``refuse_above`` seconds are
    refused; by default that is
    :data:`MAX_UNLIMITED_SECONDS` unless a time or node limit is given (the
    web api passes its own limit). With ``split`` (a count run as tasks on
    ``jobs`` processes or a ``cluster``), ``auto`` means backtracking
    (tasks are cut from its search) unless exhaustive search is out of
    reach and the frontier applies; the frontier count then runs in parts
    conditioned on ``split_on`` squares of the middle line
    (:mod:`chesstours.frontier.split`; default: the fewest whose parts fit a
    worker's memory). The plan lists the tasks or parts (unless ``list_tasks``
    is False; :func:`chesstours.backtrack.split.balanced_tasks`), each with
    its estimated positions or states, memory and seconds, and the total CPU-hours.
    ``plain``: the query's allowance of positions in plain Python
    (:func:`plain_allowance`), which the estimate's probes take from and the
    count that follows the plan shares; by default the plan's own.
    """
    allowance = plain if plain is not None else plain_allowance(board)

    def planned(how: str) -> Plan:
        return _plan_count(board, piece, start, end, closed, how, time_limit=time_limit, node_limit=node_limit,
                           workers=jobs if split and jobs is not None else workers, spill_dir=spill_dir,
                           refuse_above=refuse_above, plain=allowance)

    plan = planned(method)
    if not split:
        return plan
    workers_there = CLUSTER_WORKERS if cluster is not None else worker_count(jobs)
    in_parts = partial(_with_parts, split_on=split_on, workers=workers_there, cluster=cluster is not None,
                       refuse_above=refuse_above, time_limit=time_limit)
    if method == "auto" and plan.method in ("frontier", "backtrack"):
        searched = plan if plan.method == "backtrack" else planned("backtrack")
        frontier = None
        slow = searched.seconds is not None and searched.seconds > BACKTRACK_IN_TASKS_SECONDS
        if searched.refusal is not None or slow:
            reason = "out of reach" if searched.refusal is not None else \
                f"slower ({about_duration(searched.seconds or 0.0)})"
            parts = in_parts(replace(plan if plan.method == "frontier" else planned("frontier"),
                                     why=f"in tasks: the frontier count in parts, since exhaustive search is {reason}"))
            # unless too wide to split at all, or (given a time limit) slower than the search
            if "split_on" in parts.extra and (searched.refusal is not None
                                              or (parts.refusal is None and parts.seconds is not None
                                                  and parts.seconds < (searched.seconds or 0.0))):
                frontier = parts
        if frontier is not None:
            plan = frontier
        elif searched.refusal is None:
            plan = replace(searched, why="in tasks: backtracking, whose search splits into tasks of equal size "
                           "(the frontier count is split only to bound its memory)")
        else:
            plan = searched
    if plan.method == "frontier":
        return plan if "split_on" in plan.extra else in_parts(plan)
    if not list_tasks or plan.method != "backtrack" or board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
        return plan
    return _with_tasks(plan, task_target(jobs, cluster), workers_there)


def _with_parts(plan: Plan, split_on: int | None, workers: int, cluster: bool, refuse_above: float | None,
                time_limit: float | None) -> Plan:
    """The plan of a frontier count in parts (:mod:`chesstours.frontier.split`): the squares, the parts, their cost.

    ``split_on`` squares are conditioned on; by default the fewest (one to
    :data:`MAX_SPLIT_ON` on edges, :data:`MAX_CLASS_SPLIT_ON` on classes) whose largest part fits a worker's share of this
    machine's memory (a cluster's workers are assumed to have as much).
    """
    from .frontier.split import frontier_parts, split_estimate, split_room, split_squares
    from .frontier.sweep import estimate as frontier_estimate
    from .frontier.sweep import refusal as frontier_refusal

    board, piece, s, e, closed = plan.board, plan.piece, plan.start, plan.end, plan.closed
    if closed and s is None and e is not None:
        s, e = e, None  # as the count does: every cycle passes through the end square
    wide = frontier_refusal(board, piece, s, e, closed)  # too wide for a state: no split helps
    if wide is not None:
        return replace(plan, refusal=wide)
    share = memory_limit() // (1 if cluster else workers)
    whole = frontier_estimate(board, piece, s, e, closed, workers=1)
    by_class, room = split_room(board, piece, closed, s, e)
    most = max(1, min(room, MAX_CLASS_SPLIT_ON if by_class else MAX_SPLIT_ON))
    k = split_on
    if k is None:
        k = next((k for k in range(1, most + 1)
                  if split_estimate(whole, 1, k, by_class)["memory_bytes"] <= share), most)
    try:
        squares = split_squares(board, piece, closed, s, e, k)
    except InvalidArgument as exc:
        return replace(plan, refusal=str(exc))
    parts = frontier_parts(board, piece, closed, s, e, squares)
    est = split_estimate(whole, len(parts), k, by_class)
    refusal = None
    if est["memory_bytes"] > share:
        refusal = (f"Even split on {k} square{'s' if k > 1 else ''}, a part of the count of {board} would hold about "
                   f"{est['states']:.1e} states ({format_bytes(est['memory_bytes'])}), more than the "
                   f"{format_bytes(share)} a worker has here.")
    elif refuse_above is not None and time_limit is None and est["cpu_hours"] * 3600 / workers > min(
            refuse_above, MAX_UNLIMITED_SECONDS):
        refusal = (f"Counting the tours of {board} in {len(parts)} parts would take "
                   f"{about_duration(est['cpu_hours'] * 3600 / workers)} on {workers} workers; give a time limit "
                   "to count as far as it gets (with --checkpoint, to go on later).")
    names = " ".join(board.names(squares))
    tasks = [{"id": i, "part": p.describe(board), "weight": p.weight, "states": est["states"],
              "memory_bytes": est["memory_bytes"], "seconds": est["seconds"]} for i, p in enumerate(parts)]
    return replace(plan, threads=workers, states=est["states"], memory_bytes=est["memory_bytes"],
                   seconds=est["cpu_hours"] * 3600 / workers, refusal=refusal,
                   why=f"{plan.why}; split on {'classes at' if by_class else 'the edges of'} {names} into "
                       f"{len(parts)} parts, run on {workers} workers",
                   extra={**plan.extra, "units": "states", "split_on": board.names(squares), "task_count": len(parts),
                          "cpu_hours": est["cpu_hours"], "whole_states": whole.states,
                          "whole_memory_bytes": whole.memory_bytes, "tasks": tasks})


def _with_tasks(plan: Plan, target: int, workers: int) -> Plan:
    """The plan with its split into tasks, each estimated, and the total CPU-hours."""
    board, piece, s, e = plan.board, plan.piece, plan.start, plan.end
    base = closed_tasks(board, piece, s, e) if plan.closed else open_tasks(board, piece, s, e, pairs=True)
    sized = balanced_tasks(board, piece, base, target)
    memory = search_bytes(board, piece)
    tasks: list[dict[str, Any]] = [
        {"id": i, "prefix": board.names(t.prefix), "weight": t.weight, "states": n, "memory_bytes": memory,
         "seconds": n / NODES_PER_SECOND} for i, (t, n) in enumerate(sized)]
    seconds = math.fsum(task["seconds"] for task in tasks)
    return replace(plan, threads=workers, seconds=seconds / max(1, workers),
                   why=f"{plan.why}; run as {len(tasks)} tasks on {workers} workers",
                   extra={**plan.extra, "units": "positions", "task_count": len(tasks),
                          "cpu_hours": seconds / 3600, "tasks": tasks})


def _plan_count(board: Board, piece: Leaper, start: int | None, end: int | None, closed: bool, method: str, *,
                time_limit: float | None, node_limit: int | None, workers: int | None, spill_dir: object,
                refuse_above: float | None, plain: PlainAllowance | None) -> Plan:
    """:func:`plan_count` without the split into tasks."""
    check_count(method)
    workers = worker_count(workers)
    if refuse_above == math.inf:
        refuse_above = MAX_UNLIMITED_SECONDS if time_limit is None and node_limit is None else None
    if spill_dir is not None and method == "backtrack":
        raise InvalidArgument("A spill folder is for the frontier method; backtracking keeps nothing to spill.")
    query = Plan("count", board, piece, closed, start, end, method="", why="")

    def frontier_refusal(*args: Any) -> str | None:
        from .frontier.sweep import refusal  # the frontier package loads numba: only when it is asked

        return refusal(*args)

    @cache
    def estimated() -> tuple[float, float, int]:
        """Backtracking's estimate, made once for the plan."""
        return estimate_backtracking(board, piece, start, end, closed, workers, plain)

    @cache
    def frontier_estimate() -> Any:
        """The frontier method's forecast, made once for the plan."""
        from .frontier.sweep import estimate

        return estimate(board, piece, start, end, closed, workers)

    def frontier(why: str, refusal: str | None) -> Plan:
        from .frontier.sweep import RUNS_LOW_CAVEAT

        est = frontier_estimate()
        caveat = {"caveat": RUNS_LOW_CAVEAT} if est.runs_low else {}
        return replace(query, method="frontier", why=why, states=est.states,
                    memory_bytes=est.disk_bytes if spill_dir is not None else est.memory_bytes,
                    seconds=est.seconds, threads=est.threads, refusal=refusal,
                    extra={"units": "states", "frontier_squares": est.slots,
                           "how": "meet in the middle" if est.halves else "one sweep", **caveat})

    def backtrack(why: str, frontier_why: str | None = None) -> Plan:
        if board.free_count > MAX_BACKTRACK_COUNT_SQUARES:
            refusal = (f"Counting every tour of {board} ({board.free_count:,} squares) by exhaustive search is out "
                       f"of reach: the number of paths grows exponentially; the limit is "
                       f"{MAX_BACKTRACK_COUNT_SQUARES} squares.")
            return replace(query, method="backtrack", why=why, refusal=refusal)
        reason = obstruction(board, piece, start, end, closed)
        if reason is not None:
            return replace(query, method="theory", why=f"no tour, so the count is 0: {reason.reason}", seconds=0.0)
        if board.free_count <= ESTIMATE_ABOVE_SQUARES:
            return replace(query, method="backtrack", why=why, threads=workers)
        nodes, seconds, threads = estimated()
        refused: str | None = None
        if refuse_above is not None and seconds > refuse_above:
            if frontier_why is not None:
                refused = (f"{frontier_why[:-1]}; and exhaustive search would visit about {nodes:.1e} positions, "
                           f"{about_duration(seconds)} here.")
            else:
                refused = (f"Counting every tour of {board} by exhaustive search would visit about {nodes:.1e} "
                           f"positions, {about_duration(seconds)} here; give a time limit to count as far "
                           "as it gets.")
        return replace(query, method="backtrack", why=why, states=nodes, seconds=seconds, threads=threads,
                       refusal=refused)

    frontier_max = refuse_above if refuse_above != math.inf else None
    if method == "frontier":
        refusal = None if time_limit is not None and refuse_above is None else \
            frontier_refusal(board, piece, start, end, closed, memory_limit(), spill_dir, frontier_max, workers)
        return frontier("asked for: a dynamic programme over the squares still open, whose cost grows with the "
                        "width of the board, not with the number of tours", refusal)
    if method == "backtrack" or node_limit is not None:
        why = "asked for" if method == "backtrack" else "a node limit counts by backtracking"
        return backtrack(f"{why}: exhaustive search visits every tour (symmetry reduction, every core)")
    reason = obstruction(board, piece, start, end, closed)
    if reason is not None:
        return replace(query, method="theory", why=f"no tour, so the count is 0: {reason.reason}", seconds=0.0)
    if spill_dir is None and board.free_count <= ESTIMATE_ABOVE_SQUARES:
        return backtrack(f"a board of {board.free_count} free squares (at most {ESTIMATE_ABOVE_SQUARES}): "
                         "backtracking counts it before the frontier method or an estimate could be set up")
    why_not = frontier_refusal(board, piece, start, end, closed, memory_limit(), spill_dir, frontier_max, workers)
    if why_not is not None and spill_dir is not None:
        return frontier("a spill folder asks for the frontier method", why_not)
    if why_not is None:
        if spill_dir is not None:
            return frontier("a spill folder asks for the frontier method", None)
        nodes, seconds, _ = estimated()
        if plain is not None and nodes > COLD_SEARCH_POSITIONS and not in_cache_folder(*SEARCH_KERNEL):
            from .frontier.plain import PLAIN_FORECAST

            if frontier_estimate().states <= PLAIN_FORECAST:
                return frontier(f"backtracking would visit about {nodes:.1e} positions, in a kernel not compiled "
                                "yet; the frontier method counts without visiting the tours, in plain Python "
                                "while its own kernels compile", None)
        if seconds <= FRONTIER_ABOVE_SECONDS:
            return backtrack(f"backtracking is estimated at {format_seconds(seconds)}, quicker than setting up "
                             "the frontier method")
        forecast = frontier_estimate().seconds
        # the forecast runs high where backtracking competes (see FRONTIER_FORECAST_HIGH)
        weighed = f"1/{FRONTIER_FORECAST_HIGH:g} of the frontier method's forecast of {format_seconds(forecast)}"
        if seconds > forecast / FRONTIER_FORECAST_HIGH:
            return frontier(f"backtracking would visit about {nodes:.1e} positions ({format_seconds(seconds)}, "
                            f"more than {FRONTIER_ABOVE_SECONDS:g} s and than {weighed}); the frontier method "
                            "counts without visiting the tours", None)
        return backtrack(f"backtracking is estimated at {format_seconds(seconds)}, quicker than {weighed}")
    return backtrack("the frontier method cannot count this board here: " + why_not, why_not)
