"""Exhaustive counting split into tasks, reduced by symmetry, run on all cores.

A count by backtracking is a sum over independent subtrees, so it is split
the way a Go knight's tour program splits its search -- one task per first
move -- and the tasks run on a pool of threads (the kernel releases the GIL).

Symmetry removes most of the work. A symmetry of the board that maps the
piece's moves to moves (all eight symmetries of a square board, four of a
rectangle, fewer when holes break them) maps tours to tours. So when every
start is counted, only one start per orbit is searched and its count is
multiplied by the orbit's size; and from a start, first moves that a
symmetry fixing the start (and end) exchanges have equal counts.

An open tour ends only where the colours allow
(:func:`chesstours.colours.end_rule`): a knight's tour from a dark square of
8x8 ends on a light one, and one of 5x5 ends on a dark one. A task from a
start holds those squares as its ends, so a square that could only be the
last but cannot end the tour ends the branch at once.

Closed tours are counted as cycles with no double counting: a cycle passes
through a chosen square ``s`` using two of its neighbours ``n_i``, ``n_j``
(``i < j``); it is counted once, as the path ``s, n_i, ..., n_j``. Choosing
``s`` with fewest moves makes fewest pairs (a knight's corner has one).

Finding one tour uses the same split: the tasks are searched in turn with
budgets that double each round (iterative broadening), so one unlucky first
move cannot hold the search in a dead subtree, and the search stays complete.

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> tasks = open_tasks(Board(5, 5), KNIGHT)
>>> sorted({Board(5, 5).name(t.prefix[0]) for t in tasks})  # 25 starts in 6 orbits
['a1', 'b1', 'b2', 'c1', 'c2', 'c3']
>>> run_tasks(Board(5, 5), KNIGHT, tasks).count
1728
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np

from ..board import Board
from ..colours import end_squares
from ..pieces import Leaper, move_table
from ..runtime import PlainAllowance, worker_count
from ..runtime.processes import interrupts_held
from ..settings import NODES_PER_SECOND, PLAIN_PROBE_SQUARES, WHILE_COMPILING
from ..status import Status
from .layout import Order
from .search import Search

__all__ = [
    "Task", "TaskResult", "open_tasks", "closed_tasks", "split_tasks", "run_tasks", "first_tour",
    "estimate_nodes", "NODES_PER_SECOND",
]

#: Nodes per kernel call between checks of the clock and the stop flag.
CHUNK = 1 << 21


@dataclass(frozen=True)
class Task:
    """Count the tours that begin with ``prefix``; the count is multiplied by ``weight``."""

    prefix: tuple[int, ...]
    weight: int = 1
    end: int | None = None
    end_squares: tuple[int, ...] | None = None
    #: Squares of ``end_squares`` a tour ending on counts twice (see :func:`open_tasks` with ``pairs``).
    doubled: tuple[int, ...] = ()

    def search(self, table: np.ndarray, holes: np.ndarray | None = None, order: Order = "fixed",
               plain: PlainAllowance | None = None) -> Search:
        """The search of this task's subtree (``table``: the board's move table)."""
        return Search(table, self.prefix, end=self.end, end_squares=self.end_squares, order=order, holes=holes,
                      plain=plain, doubled=self.doubled)

    def extended(self, square: int) -> Task:
        """The task one move deeper, to ``square``."""
        return replace(self, prefix=self.prefix + (square,))


@dataclass
class TaskResult:
    """Sum of weighted counts, nodes visited, and whether every task finished."""

    count: int = 0
    nodes: int = 0
    complete: bool = True
    tasks_done: int = 0
    tasks_total: int = 0
    seconds: float = 0.0
    stopped_by: str | None = None
    extra: dict = field(default_factory=dict)


def _orbits(perms: np.ndarray, items: list[int]) -> list[tuple[int, int]]:
    """``(representative, orbit size)`` of ``items`` under the permutations ``perms``."""
    seen: set[int] = set()
    out = []
    for v in items:
        if v in seen:
            continue
        orbit = {int(p[v]) for p in perms}
        seen |= orbit
        out.append((v, len(orbit)))
    return out


def _stabilizer(perms: np.ndarray, *fixed: int | None) -> np.ndarray:
    keep = np.ones(len(perms), dtype=bool)
    for v in fixed:
        if v is not None:
            keep &= perms[:, v] == v
    return perms[keep]


def open_tasks(board: Board, piece: Leaper, start: int | None = None, end: int | None = None,
               symmetry: bool = True, pairs: bool = False) -> list[Task]:
    """Tasks whose weighted counts add up to the directed open tours (from ``start``, to ``end``).

    With ``symmetry=False`` every first move is its own task (for finding tours,
    where the tour's actual squares matter). Without ``end``, a task's
    ``end_squares`` are those its colours allow (:func:`~chesstours.colours.end_squares`).

    ``pairs`` (a count from every start, neither end given): a tour and its
    reverse join the same two squares, so each tour is counted from one of
    its ends only. The starts' orbits are ranked in the order of their
    squares; from a start, the tours that end in a later orbit count twice
    (their reverses are not searched) and those that end in its own orbit
    once (each pair of its squares is searched from both), and none may end
    in an earlier orbit. Every start still counts its tours, so the weighted
    sum is the same; but a search that may end on fewer squares is cut
    sooner, where a square that could only be last may not be (on 6x6, some
    40% fewer positions).
    """
    table = move_table(board, piece)
    perms = board.symmetries() if symmetry else board.symmetries()[:1]
    if start is None and end is not None:
        # Tours ending at e are tours starting at e, walked backwards.
        start, end = end, None
    rank = None
    if start is None:
        starts = _orbits(perms, [int(v) for v in board.free_squares])
        if pairs:
            rank = np.zeros(board.size, np.int64)
            for k, (v, _) in enumerate(starts):
                rank[perms[:, v]] = k
    else:
        starts = [(start, 1)]
    tasks = []
    for k, (s, weight) in enumerate(starts):
        if board.free_count == 1:
            tasks.append(Task((s,), weight, end))
            continue
        stab = _stabilizer(perms, s, end)
        firsts = [int(u) for u in table[s] if u >= 0 and (u != end or board.free_count == 2)]
        ends = end_squares(board, piece, s) if end is None else None
        doubled: tuple[int, ...] = ()
        if rank is not None:
            allowed = np.asarray(ends if ends is not None else board.free_squares, np.int64)
            allowed = allowed[rank[allowed] >= k]
            if allowed.size == 0:
                continue  # every tour from here is counted from its other end
            ends = tuple(int(u) for u in allowed)
            doubled = tuple(int(u) for u in allowed[rank[allowed] > k])
        for x, size in _orbits(stab, firsts):
            tasks.append(Task((s, x), weight * size, end, ends, doubled))
    return tasks


def closed_tasks(board: Board, piece: Leaper, start: int | None = None, end: int | None = None) -> list[Task]:
    """Tasks whose counts add up to the cycles (through ``start``, and the edge to ``end`` if given)."""
    table = move_table(board, piece)
    if start is None and end is not None:
        start, end = end, None  # every cycle passes through ``end``: count the cycles through it
    if start is None:
        free = board.free_squares
        degree = (table[free] >= 0).sum(axis=1)
        start = int(free[int(np.argmin(degree))])
    nbrs = [int(u) for u in table[start] if u >= 0]
    if end is not None:
        if end not in nbrs:
            return []  # a cycle's last square is a move away from its first
        return [Task((start, u), 1, end) for u in nbrs if u != end]
    return [Task((start, nbrs[i]), 1, nbrs[j]) for i in range(len(nbrs)) for j in range(i + 1, len(nbrs))]






def estimate_nodes(board: Board, piece: Leaper, tasks: list[Task], probes: int = 4000, seed: int = 0,
                   plain: PlainAllowance | None = None) -> float:
    """Estimated positions an exhaustive search of ``tasks`` visits (Knuth's random probes; ``plain``: as
    :class:`Search`'s, except that probes of at most :data:`PLAIN_PROBE_SQUARES` squares in all run in
    plain Python on an allowance of their own)."""
    table = move_table(board, piece)
    holes = board.hole_mask if board.holes else None
    each = max(50, probes // max(1, len(tasks)))
    if plain is not None and plain.positions > 0 and each * len(tasks) * board.free_count <= PLAIN_PROBE_SQUARES:
        plain = PlainAllowance(PLAIN_PROBE_SQUARES)
    total = 0.0
    for i, task in enumerate(tasks):
        total += task.search(table, holes, plain=plain).estimate(each, seed + i)
    return total


def split_tasks(board: Board, piece: Leaper, tasks: list[Task], target: int = 64, max_depth: int = 6) -> list[Task]:
    """Extend prefixes by one move at a time until there are about ``target`` tasks."""
    table = move_table(board, piece)
    n = board.free_count
    while len(tasks) < target:
        longer = []
        grew = False
        for t in tasks:
            if len(t.prefix) >= min(max_depth, n - 1):
                longer.append(t)
                continue
            grew = True
            used = set(t.prefix)
            last = len(t.prefix) + 1 == n
            for u in table[t.prefix[-1]]:
                u = int(u)
                if u < 0:
                    break
                if u in used or (u == t.end and not last):
                    continue
                longer.append(t.extended(u))
        tasks = longer
        if not grew:
            break
    return tasks


def run_tasks(
    board: Board,
    piece: Leaper,
    tasks: list[Task],
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    workers: int | None = None,
    progress: Callable[[TaskResult], None] | None = None,
    plain: PlainAllowance | None = None,
) -> TaskResult:
    """Run the tasks on a thread pool; stop at the time or node limit, or on Ctrl-C.

    The result's ``complete`` is False when a limit or an interrupt stopped the
    work; ``count`` then holds what the finished part found (a lower bound).
    A KeyboardInterrupt is re-raised after the threads have stopped, with the
    partial result in its ``partial`` attribute. With ``plain``, the searches
    start in plain Python (see :class:`Search`).
    """
    table = move_table(board, piece)
    holes = board.hole_mask if board.holes else None
    workers = max(1, min(len(tasks), worker_count(workers)))
    stop = threading.Event()
    lock = threading.Lock()
    result = TaskResult(tasks_total=len(tasks))
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit

    def work(task: Task) -> None:
        if stop.is_set():
            return
        search = task.search(table, holes, plain=plain)
        counted_nodes = 0
        while not stop.is_set():
            # in plain Python a chunk takes some fifty times longer: the stop flag (a limit) is looked at as often
            status = search.run(WHILE_COMPILING if plain is not None and plain.lasts() else CHUNK)
            with lock:
                result.nodes += search.nodes - counted_nodes
                counted_nodes = search.nodes
                if node_limit is not None and result.nodes >= node_limit:
                    result.stopped_by = result.stopped_by or "node limit"
                    stop.set()
            if status == Status.EXHAUSTED:
                with lock:
                    result.count += task.weight * search.count
                    result.tasks_done += 1
                return

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chesstours-count")
    try:
        with interrupts_held():  # an interrupt inside the pool's locks would leave them taken
            pending = {pool.submit(work, t) for t in tasks}
        while pending:
            with interrupts_held():
                done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                for f in done:
                    f.result()
            if deadline is not None and time.perf_counter() > deadline and not stop.is_set():
                result.stopped_by = "time limit"
                stop.set()
            if progress is not None:
                result.seconds = time.perf_counter() - t0
                progress(result)
    except KeyboardInterrupt as exc:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        result.complete = False
        result.stopped_by = "interrupt"
        result.seconds = time.perf_counter() - t0
        exc.partial = result  # type: ignore[attr-defined]
        raise
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    result.seconds = time.perf_counter() - t0
    result.complete = result.tasks_done == result.tasks_total
    return result


def first_tour(
    board: Board,
    piece: Leaper,
    tasks: list[Task],
    *,
    extra: Sequence[Task] = (),
    order: Order = "warnsdorff",
    deadline: float | None = None,
    node_limit: int | None = None,
    first_budget: int = 1 << 12,
    progress: Callable[[int], None] | None = None,
    plain: PlainAllowance | None = None,
) -> tuple[Status, np.ndarray | None, int]:
    """Search the tasks round-robin, with budgets doubling each round, for one tour.

    Iterative broadening: one unlucky first move cannot hold the search in a
    dead subtree, and the search stays complete. ``extra`` tasks take their
    turns too but are not needed for completeness (the same tours entered
    from their other end, say): the search is exhausted as soon as every one
    of ``tasks`` is.

    Returns ``(status, path, nodes)`` with status ``FOUND``, ``EXHAUSTED``
    (no task has a tour: a proof of absence), ``TIME`` or ``NODES``.
    ``progress(nodes)`` is called between kernel calls. With ``plain``, the
    searches start in plain Python (see :class:`Search`).
    """
    table = move_table(board, piece)
    holes = board.hole_mask if board.holes else None
    searches = [(t.search(table, holes, order, plain), i < len(tasks)) for i, t in enumerate([*tasks, *extra])]
    pending = len(tasks)  # required searches not yet exhausted
    budget = first_budget
    nodes = 0
    while pending:
        alive = []
        for search, required in searches:
            if not pending:
                break
            quota = budget
            exhausted = False
            while quota > 0:
                step = min(quota, CHUNK)
                if node_limit is not None:
                    step = min(step, node_limit - nodes)
                    if step <= 0:
                        return Status.NODES, None, nodes
                before = search.nodes
                status = search.run(step, stop_at_tour=True)
                nodes += search.nodes - before
                quota -= search.nodes - before
                if status == Status.FOUND:
                    return Status.FOUND, search.path(), nodes
                if status == Status.EXHAUSTED:
                    exhausted = True
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    return Status.TIME, None, nodes
                if progress is not None:
                    progress(nodes)
            if exhausted:
                pending -= required
            else:
                alive.append((search, required))
        searches = alive
        budget *= 2
    return Status.EXHAUSTED, None, nodes
