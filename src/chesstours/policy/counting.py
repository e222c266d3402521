"""The count plans of :mod:`chesstours.policy`: which method counts, why, and the estimates it is chosen on."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache, partial
from typing import Any

from ..backtrack import (
    NODES_PER_SECOND,
    closed_tasks,
    estimate_nodes,
    open_tasks,
    split_tasks,
)
from ..backtrack.split import balanced_tasks, search_bytes
from ..board import Board
from ..errors import InvalidArgument
from ..existence.reasons import obstruction
from ..pieces import KNIGHT, Leaper
from ..runtime import PlainAllowance, memory_limit, worker_count
from ..settings import PLAIN_FRONTIER_EXTENDED, PLAIN_FRONTIER_STATES
from ..units import about_duration, format_bytes, format_seconds
from .choices import (
    BACKTRACK_IN_TASKS_SECONDS,
    CLUSTER_WORKERS,
    ESTIMATE_ABOVE_SQUARES,
    FRONTIER_ABOVE_SECONDS,
    FRONTIER_FORECAST_HIGH,
    MAX_BACKTRACK_COUNT_SQUARES,
    MAX_CLASS_SPLIT_ON,
    MAX_SPLIT_ON,
    MAX_UNLIMITED_SECONDS,
    PROBES_RUN_LOW,
    check_count,
    plain_allowance,
    task_target,
)
from .plans import Plan

__all__ = ["plan_count", "estimate_backtracking", "searches_after_estimate", "frontier_in_python"]


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
                                            plain=plain if plain is not None else plain_allowance(board, counting=True))
    threads = max(1, min(worker_count(workers), len(tasks)))
    return nodes, nodes / (NODES_PER_SECOND * threads), threads


def searches_after_estimate(board: Board, piece: Leaper, start: int | None, end: int | None, closed: bool,
                            method: str, spill_dir: object = None) -> bool:
    """Whether :func:`plan_count` estimates backtracking for this count before it chooses a method: the counts
    asked ``auto`` or ``backtrack`` without a spill folder, on more than :data:`ESTIMATE_ABOVE_SQUARES` and at
    most :data:`MAX_BACKTRACK_COUNT_SQUARES` free squares, that no theorem answers with 0, except the ``auto``
    counts small enough for the frontier method in plain Python (:func:`frontier_in_python`)."""
    return (method in ("auto", "backtrack") and spill_dir is None
            and ESTIMATE_ABOVE_SQUARES < board.free_count <= MAX_BACKTRACK_COUNT_SQUARES
            and obstruction(board, piece, start, end, closed) is None
            and not (method == "auto" and frontier_in_python(board, piece, start, end, closed)))


def frontier_in_python(board: Board, piece: Leaper, start: int | None, end: int | None, closed: bool) -> bool:
    """Whether ``auto`` counts this board by the frontier method in plain Python at once: its forecast is at most
    :data:`PLAIN_FRONTIER_STATES` states and :data:`PLAIN_FRONTIER_EXTENDED` extended in all, so small that the
    numpy steps answer before an estimate of backtracking, whose probes load numba, could."""
    from ..frontier.sweep import estimate, estimate_extended, refusal  # plans without loading numba

    if refusal(board, piece, start, end, closed) is not None:
        return False
    forecast = estimate(board, piece, start, end, closed, 1).states
    return forecast <= PLAIN_FRONTIER_STATES and estimate_extended(board, forecast, closed) <= PLAIN_FRONTIER_EXTENDED


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
    from ..arguments import check_spread

    check_spread(workers, jobs, split_on, cluster)
    allowance = plain if plain is not None else plain_allowance(board, counting=True)

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
    from ..frontier.split import frontier_parts, split_estimate, split_room, split_squares
    from ..frontier.sweep import estimate as frontier_estimate
    from ..frontier.sweep import refusal as frontier_refusal

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
        from ..frontier.sweep import refusal  # the frontier package loads numba: only when it is asked

        return refusal(*args)

    @cache
    def estimated() -> tuple[float, float, int]:
        """Backtracking's estimate, made once for the plan."""
        return estimate_backtracking(board, piece, start, end, closed, workers, plain)

    @cache
    def frontier_estimate() -> Any:
        """The frontier method's forecast, made once for the plan."""
        from ..frontier.sweep import estimate

        return estimate(board, piece, start, end, closed, workers)

    def frontier(why: str, refusal: str | None) -> Plan:
        from ..frontier.sweep import RUNS_LOW_CAVEAT

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
    if spill_dir is None and frontier_in_python(board, piece, start, end, closed):
        return frontier(f"a forecast of {frontier_estimate().states:,.0f} states: the frontier method counts this "
                        "board at once in plain Python, sooner than an estimate of backtracking could be made", None)
    why_not = frontier_refusal(board, piece, start, end, closed, memory_limit(), spill_dir, frontier_max, workers)
    if why_not is not None and spill_dir is not None:
        return frontier("a spill folder asks for the frontier method", why_not)
    if why_not is None:
        if spill_dir is not None:
            return frontier("a spill folder asks for the frontier method", None)
        nodes, seconds, _ = estimated()
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
