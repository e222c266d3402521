"""Benchmarks of counting in tasks: one worker against two, Dask against the local pool, 8x8 open sized.

Prints three tables; every time is the median of several runs:

* a backtracking count on one worker process and on two (``jobs=1``,
  ``jobs=2``), the speed-up of two over one, and two baselines: the
  single-process count (threads in one process), and the machine's ceiling,
  the same tasks' search time in one process against two processes side by
  side, each running every other task in a loop (no pool, no pickling);
* the same tasks (cut to about a second each) on the local pool of two
  processes and on a Dask LocalCluster of two worker processes started
  once before the runs, and the Dask path's overhead;
* the frontier count in parts (:mod:`chesstours.frontier.split`): the
  whole count against its parts conditioned on one, two and three squares
  (``--split-on``), on two worker processes: the count, the largest part's
  states and peak memory against the whole count's, the time, and the work
  of all the parts against the whole count's on one thread (a second row
  gives the whole count that keeps every state, as the parts do, where the
  default keeps one state of each mirror pair); with
  ``--sample-parts N``, only N parts drawn at random are run, and the time
  of all of them is extrapolated (7x7 open: ``--parts-board 7x7 --parts-open
  --sample-parts 4``);
* the 19,591,828,170,979,904 directed open tours of 8x8 sized from random
  tasks (prefixes of ``--depth`` squares, drawn by random descent and
  counted exactly): the plan (tasks, memory and time a task, CPU-hours)
  and the count they extrapolate to, with its 95% interval.

Usage::

    python benchmarks/bench_scale.py                 # 6x7 closed, 3 runs, 20,000 draws
    python benchmarks/bench_scale.py --board 5x8 --open --runs 1   # a longer job (about 90 s on one worker)
    python benchmarks/bench_scale.py --only sample --draws 100000
    python benchmarks/bench_scale.py --only parts --parts-board 7x7 --parts-open --split-on 3 --runs 1
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time

from _report import median_time, table

import chesstours as ct
from chesstours import KNIGHT, Board
from chesstours.backtrack.split import TaskJob, count_task, search_bytes
from chesstours.frontier import frontier_count
from chesstours.frontier.split import PartJob, count_part, frontier_parts, split_squares
from chesstours.jobs import run_tasks_on
from chesstours.policy import task_target
from chesstours.scale import Spread, count_spread, sample_count, spread_tasks
from chesstours.units import format_bytes, format_duration

EIGHT_OPEN = 19_591_828_170_979_904


def _half(arg: tuple[str, bool, int]) -> float:
    """Every other task of the split, run in a loop in this process: the task seconds (no pool, no pickling)."""
    spec, closed, k = arg
    board = Board.parse(spec)
    sized = spread_tasks(board, KNIGHT, None, None, closed, task_target(2))
    return sum(count_task(TaskJob(board, KNIGHT, t, closed=closed))["seconds"] for t, _ in sized[k::2])


def bench_workers(spec: str, closed: bool, runs: int) -> None:
    rows = []
    alone = statistics.median(_half((spec, closed, 0)) + _half((spec, closed, 1)) for _ in range(runs))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_half, [(spec, closed, 0), (spec, closed, 1)])  # load the kernels
        side_by_side = statistics.median(max(pool.map(_half, [(spec, closed, 0), (spec, closed, 1)]))
                                         for _ in range(runs))
    base_t, base = median_time(lambda: ct.count_tours(spec, closed=closed, method="backtrack"), runs)
    times = {}
    for jobs in (1, 2):
        times[jobs], c = median_time(lambda: ct.count_tours(spec, closed=closed, method="backtrack", jobs=jobs), runs)
        assert c.directed == base.directed, (c.directed, base.directed)
        rows.append([f"jobs={jobs}", f"{c.extra['tasks']}", f"{c.directed:,}", f"{times[jobs]:.2f}",
                     f"{times[1] / times[jobs]:.2f}x", f"{base_t / times[jobs]:.2f}x"])
    rows.append(["one process, threads", "-", f"{base.directed:,}", f"{base_t:.2f}", "-", "1.00x"])
    rows.append(["tasks, 1 process, no pool", "-", "-", f"{alone:.2f}", "-", "-"])
    rows.append(["tasks, 2 processes, no pool", "-", "-", f"{side_by_side:.2f}", f"{alone / side_by_side:.2f}x", "-"])
    table(f"{spec} {'closed' if closed else 'open'} by backtracking in tasks (median of {runs}; "
          "each run starts its pool and cuts its tasks)",
          ["workers", "tasks", "directed", "s", "vs jobs=1", "vs threads"], rows)


def bench_dask(spec: str, closed: bool, runs: int, tasks: int) -> None:
    try:
        from distributed import LocalCluster
    except ImportError:
        print("\nDask against the local pool: skipped (pip install 'chesstours[cluster]')")
        return
    board = Board.parse(spec)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      host="127.0.0.1") as cluster:
        where = {"pool of 2": Spread(jobs=2, tasks=tasks), "Dask, 2 workers": Spread(cluster=cluster.scheduler_address,
                                                                                     tasks=tasks)}
        count_spread(board, KNIGHT, None, None, closed, where["Dask, 2 workers"])  # workers load the kernels
        rows, times = [], {}
        for name, spread in where.items():
            times[name], r = median_time(lambda: count_spread(board, KNIGHT, None, None, closed, spread), runs)
            per_task = times[name] * 2 / r.tasks_total
            rows.append([name, f"{r.tasks_total}", f"{per_task:.2f}", f"{r.count:,}", f"{times[name]:.2f}",
                         f"{times[name] / times['pool of 2'] - 1:+.1%}"])
    table(f"The same tasks of {spec} {'closed' if closed else 'open'} on the local pool and on Dask "
          f"(median of {runs}; the cluster started once, the pool each run)",
          ["where", "tasks", "s a task", "count", "s", "overhead"], rows)


def bench_parts(spec: str, closed: bool, ks: list[int], runs: int, sample: int | None, seed: int) -> None:
    board = Board.parse(spec)
    whole_t, whole = median_time(lambda: frontier_count(board, KNIGHT, closed), runs)
    one_t, _ = median_time(lambda: frontier_count(board, KNIGHT, closed, workers=1), runs)
    kind = "closed" if closed else "open"
    # the parts keep every state (their classes are not symmetric): so does this whole count
    every_t, every = median_time(lambda: frontier_count(board, KNIGHT, closed, mirror=False), runs)
    every_one_t, _ = median_time(lambda: frontier_count(board, KNIGHT, closed, workers=1, mirror=False), runs)
    rows = [["whole (2 threads)", "1", "-", f"{whole.count:,}", f"{whole.max_states:,}", "1.00",
             f"{whole.peak_bytes / 2**20:,.0f}", "1.00", f"{whole_t:.2f}", "1.00x", "1.00x"],
            ["whole, every state (2 threads)", "1", "-", f"{every.count:,}", f"{every.max_states:,}",
             f"{every.max_states / whole.max_states:.2f}", f"{every.peak_bytes / 2**20:,.0f}",
             f"{every.peak_bytes / whole.peak_bytes:.2f}", f"{every_t:.2f}", f"{every_t / whole_t:.2f}x",
             f"{every_one_t / one_t:.2f}x"]]
    for k in ks:
        squares = split_squares(board, KNIGHT, closed, None, None, k)
        parts = frontier_parts(board, KNIGHT, closed, None, None, squares)
        chosen = list(range(len(parts))) if sample is None else sorted(
            random.Random(seed).sample(range(len(parts)), min(sample, len(parts))))
        jobs = [PartJob(board, KNIGHT, closed, None, None, parts[i], 1) for i in chosen]

        def run(jobs=jobs) -> dict[int, dict]:
            return dict(run_tasks_on(count_part, jobs, jobs=2))

        parts_t, got = median_time(run, runs)
        total = sum(parts[chosen[i]].weight * int(r["count"]) for i, r in got.items())
        states = max(int(r["max_states"]) for r in got.values())
        peak = max(int(r["peak_bytes"]) for r in got.values())
        work = sum(float(r["seconds"]) for r in got.values()) * len(parts) / len(chosen)
        whole_part = sample is None or len(chosen) == len(parts)
        label = f"{len(chosen)} of {len(parts)} parts" if not whole_part else f"{len(parts)} parts"
        rows.append([f"{label}, 2 processes", f"{len(chosen)}", " ".join(board.names(squares)),
                     f"{total:,}" + (" (equal)" if whole_part and total == whole.count else ""),
                     f"{states:,}", f"{states / whole.max_states:.2f}", f"{peak / 2**20:,.0f}",
                     f"{peak / whole.peak_bytes:.2f}",
                     f"{parts_t:.2f}" if whole_part else f"{work / 2:.0f} (extrapolated)",
                     f"{parts_t / whole_t:.2f}x" if whole_part else f"{work / 2 / whole_t:.1f}x",
                     f"{work / one_t:.2f}x"])
    table(f"{spec} {kind} by the frontier whole and in parts (median of {runs}; count: undirected; "
          "work: the parts' seconds on one core each against the whole count's on one thread)",
          ["run", "parts", "on", "count", "widest", "share", "MiB", "share", "s", "vs whole", "work"], rows)


def bench_sample(depth: int, draws: int, seed: int) -> None:
    board = Board(8, 8)
    s = sample_count(board, KNIGHT, depth, draws, Spread(jobs=2), seed=seed)
    inside = s.count.low <= EIGHT_OPEN <= s.count.high
    per_task = s.cpu_seconds.estimate / s.tasks.estimate
    table(f"8x8 open, split at {depth} squares: the plan from {draws:,} random tasks run here "
          f"({s.nonzero:,} had tours; {s.seconds:.1f} s on 2 workers)",
          ["figure", "estimate", "95% interval"],
          [["tasks", f"{s.tasks.estimate:.3g}", f"{s.tasks.low:.3g} .. {s.tasks.high:.3g}"],
           ["memory a task", format_bytes(search_bytes(board, KNIGHT)), "-"],
           ["time a task", f"{per_task * 1e6:.3g} µs", "-"],
           ["CPU-hours", f"{s.cpu_seconds.estimate / 3600:.3g}",
            f"{max(0.0, s.cpu_seconds.low) / 3600:.3g} .. {s.cpu_seconds.high / 3600:.3g}"],
           ["on 2 cores", format_duration(s.cpu_seconds.estimate / 2), "-"],
           ["directed tours", f"{s.count.estimate:.3g}", f"{max(0.0, s.count.low):.3g} .. {s.count.high:.3g}"],
           ["published (Stertenbrink, Chernov)", f"{EIGHT_OPEN:.3g}", "inside" if inside else "OUTSIDE"]])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--board", default="6x7")
    p.add_argument("--open", action="store_true", help="open tours (default: closed)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--tasks", type=int, default=16, help="tasks for the Dask comparison")
    p.add_argument("--depth", type=int, default=30)
    p.add_argument("--draws", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--parts-board", default="6x6")
    p.add_argument("--parts-open", action="store_true", help="parts of open tours (default: closed)")
    p.add_argument("--split-on", default="1,2,3", help="squares to condition on, a row each (comma-separated)")
    p.add_argument("--sample-parts", type=int, default=None, help="run only this many parts, drawn at random")
    p.add_argument("--only", choices=["workers", "dask", "parts", "sample"])
    a = p.parse_args()
    t0 = time.perf_counter()
    if a.only in (None, "workers"):
        bench_workers(a.board, not a.open, a.runs)
    if a.only in (None, "dask"):
        bench_dask(a.board, not a.open, a.runs, a.tasks)
    if a.only in (None, "parts"):
        bench_parts(a.parts_board, not a.parts_open, [int(k) for k in a.split_on.split(",")], a.runs,
                    a.sample_parts, a.seed)
    if a.only in (None, "sample"):
        bench_sample(a.depth, a.draws, a.seed)
    print(f"\n({time.perf_counter() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
