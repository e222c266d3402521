"""Counts and listings scaled out: many independent tasks on every core, or on a Dask cluster.

:func:`~chesstours.count_tours` and :func:`~chesstours.iter_tours` come here
when they are given ``jobs`` (a local process pool), ``cluster`` (a Dask
scheduler's address), a ``checkpoint`` file or a ``where`` property. The
search is cut into tasks of about equal size
(:func:`chesstours.backtrack.split.balanced_tasks`), each task runs the
compiled kernel in a worker (:func:`chesstours.jobs.run_tasks_on`), and the
results merge exactly: counts are Python ints multiplied by their task's
symmetry weight, listings stream tours in the order the workers find them.

A checkpoint records each finished task (atomically); started again with
the same file, a run skips them, so an interrupted count resumes where it
stopped and its total is exact. A worker that dies has its tasks run again.

Examples
--------
>>> from chesstours.backtrack.where import parse_where
>>> from chesstours.pieces import KNIGHT
>>> count_spread(Board(5, 5), KNIGHT, None, None, False, Spread(jobs=2)).count
1728
>>> board = Board(6, 6)
>>> count_spread(board, KNIGHT, None, None, True, Spread(jobs=1), where=parse_where("symmetric", board, True)).count
78
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arguments import check_spread, query_json
from .backtrack import closed_tasks, open_tasks
from .backtrack.split import TaskJob, balanced_tasks, count_task, list_task, random_tasks
from .backtrack.tasks import Task, TaskResult
from .backtrack.where import TourProperty
from .board import Board
from .errors import InvalidArgument, LimitReached
from .jobs import Checkpoint, Extrapolation, mean_estimate, run_tasks_on
from .pieces import Leaper
from .policy import task_target
from .reading import positive_count
from .runtime import memory_limit, worker_count
from .tour import Tour

__all__ = ["Spread", "spread_tasks", "count_spread", "count_parts_spread", "iter_spread", "SampledCount",
           "sample_count"]


@dataclass(frozen=True)
class Spread:
    """Where the tasks of a count or a listing run, and how a long run survives.

    ``jobs``: processes of the local pool (default: one a core); ``cluster``:
    a Dask scheduler's address (``tcp://HOST:PORT``), which replaces the
    pool; ``checkpoint``: the file that records finished tasks; ``tasks``:
    how many tasks to cut the search into (default: 32 a worker, at least 128).
    """

    jobs: int | None = None
    cluster: str | None = None
    checkpoint: str | os.PathLike[str] | None = None
    tasks: int | None = None

    def __post_init__(self) -> None:
        check_spread(jobs=self.jobs, cluster=self.cluster)
        positive_count(self.tasks, "tasks", "tasks to cut the search into")

    def target(self) -> int:
        return self.tasks or task_target(self.jobs, self.cluster)


def spread_tasks(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, target: int,
                 where: TourProperty | None = None, listing: bool = False,
                 deadline: float | None = None) -> list[tuple[Task, float]]:
    """The tasks of a count (symmetry-reduced) or a listing (every tour itself), cut to about equal sizes.

    Clues narrow the search first: one on move 1 fixes the start, one on the
    last move the end, and tasks whose first moves contradict a clue go. A
    clue breaks the board's symmetry, so with clues every start is searched. ``deadline``: a listing's, past
    which no task is cut further (:func:`~chesstours.backtrack.split.balanced_tasks`).
    """
    if where is not None:
        s = where.first_square() if s is None else s
        e = where.last_square() if e is None and not closed else e
    symmetric_ok = not listing and (where is None or not where.clues)
    if closed:
        base = closed_tasks(board, piece, s, e)
    elif s is None and e is not None and where is not None and where.clues:
        # open_tasks would walk the tours backwards from ``e``; clues count moves from the start.
        base = [t for v in board.free_squares if int(v) != e
                for t in open_tasks(board, piece, int(v), e, symmetry=False)]
    else:
        # a property is tested on each direction of a tour: a listing searches both
        base = open_tasks(board, piece, s, e, symmetry=symmetric_ok, pairs=where is None)
    if where is not None and where.clues:
        base = [t for t in base if not where.contradicted_by(t.prefix)]
    sized = balanced_tasks(board, piece, base, target, deadline=deadline)
    if where is not None and where.clues:
        sized = [(t, n) for t, n in sized if not where.contradicted_by(t.prefix)]
    return sized


def _fingerprint(question: str, board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool,
                 tasks: list[Task], where: TourProperty | None) -> dict[str, Any]:
    digest = hashlib.sha256(repr([(t.prefix, t.weight, t.end, t.end_squares, t.doubled) for t in tasks]).encode()).hexdigest()[:16]
    return {"question": question, **query_json(board, piece, closed, s, e), "where": None if where is None else
            where.text, "tasks": len(tasks), "split": digest}


def count_spread(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, spread: Spread, *,
                 where: TourProperty | None = None, time_limit: float | None = None,
                 progress: Callable[[TaskResult], None] | None = None) -> TaskResult:
    """Count by backtracking in tasks (see the module docstring): the weighted sum over the tasks.

    ``count`` is what a single search over the same tasks counts (the caller
    turns it into directed and undirected tours); with ``where``, the tours
    (open: sequences; closed: cycles, walked either way) that have the
    property, and for open tours ``extra["both_ways"]`` the sequences whose
    reverse has it too. At the time limit ``complete`` is False and the finished tasks
    are summed (``stopped_by`` says why); a KeyboardInterrupt carries the same
    in its ``partial``.
    """
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    sized = spread_tasks(board, piece, s, e, closed, spread.target(), where)
    tasks = [t for t, _ in sized]
    job = list_task if where is not None else count_task
    jobs = [TaskJob(board, piece, t, closed=closed, where=where, count_only=True) for t in tasks]
    fingerprint = _fingerprint("count", board, piece, s, e, closed, tasks, where)
    result = TaskResult(tasks_total=len(tasks), extra={
        "tasks": len(tasks), "jobs": "cluster" if spread.cluster else worker_count(spread.jobs),
        **({"where": where.text} if where is not None else {})})

    def add(i: int, r: dict[str, Any]) -> None:
        result.count += tasks[i].weight * int(r["count"])
        if "both" in r:
            result.extra["both_ways"] = result.extra.get("both_ways", 0) + tasks[i].weight * int(r["both"])
        result.nodes += int(r["nodes"])
        result.tasks_done += 1
        result.seconds = time.perf_counter() - t0

    fields = ("count", "both", "nodes") if where is not None else ("count", "nodes")
    return _tally_tasks(job, jobs, spread, fingerprint, result, add, t0, deadline, progress, fields)


def count_parts_spread(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, spread: Spread,
                       squares: list[int], *, time_limit: float | None = None,
                       progress: Callable[[TaskResult], None] | None = None) -> TaskResult:
    """Count by the frontier method in parts (:mod:`chesstours.frontier.split`), conditioned on ``squares``.

    ``count`` is the weighted sum of the parts' counts: undirected paths or
    cycles, as :func:`~chesstours.frontier.frontier_count` counts them.
    ``extra`` has the parts, the squares, and the largest part's widest step and
    peak memory. The checkpoint, the time limit and Ctrl-C behave as in
    :func:`count_spread`.
    """
    from .frontier.split import (  # the frontier's kernels load only when used
        PartJob,
        count_part,
        frontier_parts,
    )

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    parts = frontier_parts(board, piece, closed, s, e, squares)
    threads = 1 if spread.cluster is not None else max(1, worker_count(None) // worker_count(spread.jobs))
    # each local worker's share of this machine's memory; a cluster's workers know their own
    share = None if spread.cluster is not None else memory_limit() // worker_count(spread.jobs)
    jobs = [PartJob(board, piece, closed, s, e, part, threads, share) for part in parts]
    digest = hashlib.sha256(repr([(p.fixed, p.classes, p.weight) for p in parts]).encode()).hexdigest()[:16]
    fingerprint = {"question": "count by frontier parts", **query_json(board, piece, closed, s, e),
                   "squares": board.names(squares), "tasks": len(parts), "split": digest}
    result = TaskResult(tasks_total=len(parts), extra={
        "tasks": len(parts), "split_on": board.names(squares), "signed": any(p.weight < 0 for p in parts),
        "jobs": "cluster" if spread.cluster else worker_count(spread.jobs), "max_states": 0, "peak_memory_mb": 0.0})

    def add(i: int, r: dict[str, Any]) -> None:
        result.count += parts[i].weight * int(r["count"])
        result.nodes += int(r["states"])
        result.extra["max_states"] = max(result.extra["max_states"], int(r["max_states"]))
        result.extra["peak_memory_mb"] = max(result.extra["peak_memory_mb"], round(int(r["peak_bytes"]) / 2**20, 1))
        result.tasks_done += 1
        result.seconds = time.perf_counter() - t0

    return _tally_tasks(count_part, jobs, spread, fingerprint, result, add, t0, deadline, progress,
                        ("count", "states", "max_states", "peak_bytes"))


def _tally_tasks(fn: Callable[[Any], dict[str, Any]], jobs: list[Any], spread: Spread, fingerprint: dict[str, Any],
                 result: TaskResult, add: Callable[[int, dict[str, Any]], None], t0: float, deadline: float | None,
                 progress: Callable[[TaskResult], None] | None, fields: tuple[str, ...]) -> TaskResult:
    """Run ``fn`` over ``jobs`` where ``spread`` says, ``add`` each result into ``result``, and record it.

    Tasks the checkpoint holds are added from it and not run again; each
    finished task's ``fields`` are recorded. At the time limit ``complete`` is
    False (``stopped_by`` says why); a KeyboardInterrupt carries ``result`` in
    its ``partial``.
    """
    book = None if spread.checkpoint is None else Checkpoint(spread.checkpoint, fingerprint, tasks=len(jobs),
                                                                 fields=fields)
    with book if book is not None else nullcontext():
        for i, r in (book.done if book is not None else {}).items():
            add(i, r)
        try:
            for i, r in run_tasks_on(fn, jobs, jobs=spread.jobs, cluster=spread.cluster,
                                     skip=book.done if book is not None else (), deadline=deadline):
                add(i, r)
                if book is not None:
                    book.record(i, r)
                if progress is not None:
                    progress(result)
        except KeyboardInterrupt as exc:
            result.complete, result.stopped_by = False, "interrupt"
            exc.partial = result  # type: ignore[attr-defined]
            raise
    result.seconds = time.perf_counter() - t0
    result.complete = result.tasks_done == result.tasks_total
    if not result.complete:
        result.stopped_by = "time limit"
    return result


class _TourTest:
    """A predicate on a :class:`Tour`, as a test of a path that a worker process can run (if it pickles)."""

    def __init__(self, board: Board, piece: Leaper, closed: bool, test: Callable[[Tour], bool]):
        self.board, self.piece, self.closed, self.test = board, piece, closed, test

    def __call__(self, path: np.ndarray) -> bool:
        return bool(self.test(Tour(self.board, self.piece, path, self.closed)))


def iter_spread(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, spread: Spread, *,
                where: TourProperty | Callable[[Tour], bool] | None = None, time_limit: float | None = None,
                ) -> Iterator[Tour]:
    """Every tour (with the property ``where``), from tasks run on the pool or the cluster, as they finish.

    :raises LimitReached: at the time limit. :raises InvalidArgument: if ``where`` is a function that cannot
        be sent to a worker process (a lambda, a function defined inside another).
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    prop: TourProperty | None = None
    test: Any = None
    if isinstance(where, TourProperty):
        prop = test = where
    elif where is not None:
        test = _TourTest(board, piece, closed, where)
        if spread.cluster is None:
            try:
                pickle.dumps(test)
            except (pickle.PicklingError, AttributeError, TypeError):
                raise InvalidArgument("A property for worker processes must be a function defined at the top of a "
                                      "module (a lambda or a nested function cannot be sent to them).") from None
    tasks = [t for t, _ in spread_tasks(board, piece, s, e, closed, spread.target(), prop, listing=True,
                                              deadline=deadline)]
    jobs = [TaskJob(board, piece, t, closed=closed, where=test) for t in tasks]
    for _, r in run_tasks_on(list_task, jobs, jobs=spread.jobs, cluster=spread.cluster, deadline=deadline):
        for path in r["paths"]:
            yield Tour(board, piece, np.array(path, dtype=np.int32), closed, "backtrack").validated()
    if deadline is not None and time.perf_counter() > deadline:
        raise LimitReached("The time limit ran out while listing tours.")



@dataclass(frozen=True)
class SampledCount:
    """A count and its cost sized from random tasks (:func:`sample_count`): estimates with standard errors.

    ``count`` estimates the directed open tours; ``cpu_seconds`` the time all the
    tasks at ``depth`` would take on one core; ``tasks`` how many tasks
    (prefixes of ``depth`` squares) the split has; ``nonzero`` how many of the
    ``draws`` had a tour; ``seconds`` the wall time of the sample.
    """

    count: Extrapolation
    cpu_seconds: Extrapolation
    tasks: Extrapolation
    depth: int
    draws: int
    nonzero: int
    seconds: float


def sample_count(board: Board, piece: Leaper, depth: int, draws: int, spread: Spread, seed: int = 0) -> SampledCount:
    """Estimate a count of directed open tours too large to run from ``draws`` random tasks of ``depth`` squares.

    Each task is drawn by random descent and weighted by its inverse
    probability (:func:`chesstours.backtrack.split.random_tasks`), counted
    exactly on the pool or the cluster, and the weighted counts, times and
    task numbers are averaged. The estimates are unbiased; their errors come
    from the draws' spread, and with a heavy tail (a few tasks hold most of
    the tours) they can be under-estimated by a small sample.
    """
    t0 = time.perf_counter()
    drawn = random_tasks(board, piece, open_tasks(board, piece, pairs=True), depth, draws, seed)
    jobs = [TaskJob(board, piece, t) for t in drawn]
    counts, cpu, sizes = [0.0] * draws, [0.0] * draws, [0.0] * draws
    nonzero = 0
    for i, r in run_tasks_on(count_task, jobs, jobs=spread.jobs, cluster=spread.cluster):
        w = drawn[i].weight
        counts[i], cpu[i] = float(w * int(r["count"])), w * float(r["seconds"])
        sizes[i] = float(w) if len(drawn[i].prefix) == depth else 0.0
        nonzero += int(r["count"]) > 0
    return SampledCount(mean_estimate(counts), mean_estimate(cpu), mean_estimate(sizes), depth, draws, nonzero,
                        time.perf_counter() - t0)
