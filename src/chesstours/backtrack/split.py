"""Backtracking cut into tasks of about equal size, to run in many processes or on a cluster.

A count (or a listing) by backtracking is a sum over the subtrees below a set
of prefixes: the tasks of :func:`~chesstours.backtrack.tasks.open_tasks` and
:func:`~chesstours.backtrack.tasks.closed_tasks`, one per first move (and one
start per symmetry class). Their subtrees differ in size by orders of
magnitude, so a pool that takes them as they come waits for the largest at
the end. :func:`balanced_tasks` cuts deeper where the tree is larger: it
keeps the tasks in a heap by their estimated size -- Knuth's estimator, the
mean over random root-to-leaf probes of the product of the branching
factors met (D. E. Knuth, "Estimating the efficiency of backtrack
programs", Math. Comp. 29, 1975) -- and replaces the largest by its children
(the prefix extended by each move) until there are ``target`` tasks or the
largest is a small share of the whole.

Cost model: estimating a task costs ``probes`` walks of at most the board's
length, microseconds each in the compiled kernel, so a split into ``T`` tasks
costs about ``T * probes * N`` steps -- milliseconds for hundreds of tasks on
a small board. Running the tasks costs what the single search costs, plus,
per task, a search's arrays (about ``N * (K + 6) * 4`` bytes for ``N``
squares and ``K`` moves a square) and the pickling of its prefix and result.

The result of a task is merged exactly: counts are Python ints, multiplied by
the task's weight (its symmetry class's size), and nodes add up.

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> from chesstours.backtrack.tasks import open_tasks
>>> board = Board(5, 5)
>>> sized = balanced_tasks(board, KNIGHT, open_tasks(board, KNIGHT), target=40)
>>> len(sized) >= 40
True
>>> sum(task.weight * count_task(TaskJob(board, KNIGHT, task))["count"] for task, _ in sized)
1728
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..board import Board
from ..pieces import Leaper, move_table
from ..status import Status
from .layout import Order
from .search import Search
from .tasks import Task

__all__ = ["TaskJob", "balanced_tasks", "children", "count_task", "list_task", "random_tasks", "search_bytes"]

#: Probes of Knuth's estimator for each task's size.
PROBES = 200


@dataclass(frozen=True)
class TaskJob:
    """One task with what a worker needs to run it: the board, the piece and (for listings) a property.

    ``where`` is a picklable predicate on a path (an ``int32`` array of squares)
    that a listed tour must satisfy, or None; a closed tour is tested walked
    either way. ``count_only``: a listing returns how many, not the tours.
    """

    board: Board
    piece: Leaper
    task: Task
    order: Order = "fixed"
    closed: bool = False
    where: Any = None
    count_only: bool = False


def _search(board: Board, piece: Leaper, task: Task, order: Order = "fixed") -> Search:
    holes = board.hole_mask if board.holes else None
    return task.search(move_table(board, piece), holes, order)


def children(board: Board, piece: Leaper, task: Task) -> list[Task]:
    """The tasks one move deeper whose subtrees together make ``task``'s (with its weight)."""
    table = move_table(board, piece)
    n = board.free_count
    used = set(task.prefix)
    last = len(task.prefix) + 1 == n
    out = []
    for u in table[task.prefix[-1]].tolist():
        if u < 0:
            break
        if u in used or (u == task.end and not last):
            continue
        out.append(task.extended(u))
    return out


def balanced_tasks(board: Board, piece: Leaper, tasks: list[Task], target: int = 256, *, share: float = 0.002,
                   probes: int = PROBES, seed: int = 0, deadline: float | None = None) -> list[tuple[Task, float]]:
    """``(task, estimated positions)`` pairs that cover the same tours as ``tasks``, cut to about equal sizes.

    The largest task (by Knuth's estimate) is replaced by its children until
    there are at least ``target`` tasks, or the largest is under ``share`` of
    the whole, or no task can be cut further. The result is the same on
    every run (the probes are seeded). The estimate is of the task's own
    subtree, not multiplied by its weight. A task whose prefix no tour can
    extend (a square it must end on that the colours rule out, say) is left
    out. Past ``deadline`` (a :func:`time.perf_counter` time) no task is cut further: sizing a task of a
    board of many thousand squares takes a good part of a second, and a listing that must stop soon is
    better served by the tasks it has (a count's tasks must be the same on every run, so it gives none).
    """
    counter = 0

    def sized(task: Task) -> tuple[float, int, Task] | None:
        """The task and its estimate, or None where its prefix already leads to no tour (it counts nothing)."""
        nonlocal counter
        counter += 1
        search = _search(board, piece, task)
        if search.done and search.count == 0:
            return None
        return (-search.estimate(probes, seed + counter), counter, task)

    heap = [h for h in map(sized, tasks) if h is not None]
    heapq.heapify(heap)
    whole = -sum(h[0] for h in heap) or 1.0
    leaves: list[tuple[float, int, Task]] = []
    while heap and len(heap) + len(leaves) < target:
        if deadline is not None and time.perf_counter() > deadline:
            break
        size, order, task = heapq.heappop(heap)
        if -size < share * whole or len(task.prefix) >= board.free_count - 1:
            leaves.append((size, order, task))
            if -size < share * whole:
                break
            continue
        kids = children(board, piece, task)
        if not kids:
            leaves.append((size, order, task))
            continue
        for kid in map(sized, kids):
            if kid is not None:
                heapq.heappush(heap, kid)
    out = sorted(heap + leaves, key=lambda h: h[1])
    return [(task, -size) for size, _, task in out]


def random_tasks(board: Board, piece: Leaper, tasks: list[Task], depth: int, k: int, seed: int = 0) -> list[Task]:
    """``k`` tasks at prefix length ``depth``, drawn by random descent, each weighted by its inverse probability.

    Each draw picks one of ``tasks`` uniformly, then a uniformly random child
    at each level down to ``depth`` squares (a prefix that can go no deeper
    stops there: its subtree is then counted whole, or is empty). The weight
    of a drawn task is its root's weight times the number of roots and the
    branching factors met, so ``weight * count`` is an unbiased estimate of
    the whole count (Knuth's estimator with its leaves replaced by exact
    subtree counts) and the mean over the draws estimates it with a standard
    error of their spread over ``sqrt(k)`` (:func:`chesstours.jobs.sample.mean_estimate`).
    A count too large to finish is sized this way from a few of its tasks.
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(k):
        task = tasks[int(rng.integers(len(tasks)))]
        weight = task.weight * len(tasks)
        while len(task.prefix) < depth:
            kids = children(board, piece, task)
            if not kids:
                break
            weight *= len(kids)
            task = kids[int(rng.integers(len(kids)))]
        out.append(replace(task, weight=weight))
    return out


def search_bytes(board: Board, piece: Leaper) -> int:
    """The memory one task's search holds: its stacks, candidate lists and marks, in bytes."""
    n, k = move_table(board, piece).shape
    return n * (k + 6) * 4 + n * 8


def count_task(job: TaskJob) -> dict[str, Any]:
    """Run one task to its end: ``{"count", "nodes", "seconds"}`` (the count not yet multiplied by its weight).

    A module-level function, so that a worker process or a Dask worker can import it.
    """
    t0 = time.perf_counter()
    search = _search(job.board, job.piece, job.task, job.order)
    while search.run(1 << 24) != Status.EXHAUSTED:
        pass
    return {"count": search.count, "nodes": search.nodes, "seconds": time.perf_counter() - t0}


def list_task(job: TaskJob) -> dict[str, Any]:
    """Every tour of one task that satisfies ``job.where``: ``{"paths", "count", "both", "nodes", "seconds", "seen"}``.

    ``paths`` are lists of squares in the order the search found them (none
    with ``count_only``); ``seen`` is how many tours the task had before the
    property was applied; ``both`` how many of the open ones also satisfy it
    walked backwards (so that undirected paths can be counted). A closed tour
    that fails the test as found is tested walked the other way from the same
    square, and kept that way if it passes.
    """
    t0 = time.perf_counter()
    search = _search(job.board, job.piece, job.task, job.order)
    paths: list[list[int]] = []
    count = seen = both = 0
    while (status := search.run(1 << 24, stop_at_tour=True)) != Status.EXHAUSTED:
        if status != Status.FOUND:
            continue
        seen += 1
        path = search.path()
        if job.where is not None and not job.where(path):
            if not job.closed:
                continue
            path = np.roll(path[::-1], 1)
            if not job.where(path):
                continue
        count += 1
        if not job.closed and (job.where is None or job.where(path[::-1])):
            both += 1
        if not job.count_only:
            paths.append(path.tolist())
    return {"paths": paths, "count": count, "both": both, "nodes": search.nodes, "seconds": time.perf_counter() - t0,
            "seen": seen}
