"""Benchmarks of the core methods: Warnsdorff's rule, backtracking counts, the CLI.

Prints tables; every figure is the median of several runs, and each is set
against a baseline measured in the same run:

* Warnsdorff (compiled kernel) against the same walk in plain Python;
* backtracking counts (symmetry + all cores) against the same kernel on one
  thread searching every start;
* the command line, warm (numba cache filled) and cold (empty cache);
  ``bench_cold.py`` times every command that way on the small boards.

Usage::

    python benchmarks/bench_core.py            # everything (a few minutes)
    python benchmarks/bench_core.py --quick    # smaller sizes
    python benchmarks/bench_core.py --scan 2000   # tie-break scan up to 2000x2000
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from _report import median_time, table

from chesstours import Board, count_tours
from chesstours.backtrack.tasks import open_tasks, run_tasks
from chesstours.pieces import KNIGHT
from chesstours.warnsdorff import TIEBREAKS, warnsdorff


def bench_warnsdorff(sizes: list[int], runs: int) -> None:
    warnsdorff(Board(100, 100), 0, compiled=True)  # load the kernel
    rows = []
    base_board = Board(300, 300)
    py_t = statistics.median(
        warnsdorff(base_board, 0, tiebreak="roth", compiled=False).kernel_seconds for _ in range(3)
    )
    py_rate = base_board.size / py_t
    for n in sizes:
        board = Board(n, n)
        kernel, total, ok = [], [], True
        for _ in range(runs):
            r = warnsdorff(board, 0, tiebreak="roth", compiled=True)
            kernel.append(r.kernel_seconds)
            total.append(r.seconds)
            ok &= r.complete
        rate = board.size / statistics.median(kernel)
        rows.append([f"{n}x{n}", f"{statistics.median(kernel):.3f}", f"{statistics.median(total):.3f}",
                     f"{rate / 1e6:.1f}", f"{rate / py_rate:.0f}x", "yes" if ok else "no"])
    table(
        f"Warnsdorff, roth tie-break, from a1 (median of {runs}); baseline: the same walk in plain Python, "
        f"{py_rate / 1e6:.2f} M squares/s on 300x300",
        ["board", "kernel s", "total s", "M squares/s", "vs Python", "complete"],
        rows,
    )


def bench_tiebreak_scan(limit: int) -> None:
    rows = []
    for rule in TIEBREAKS:
        first_fail, last_ok = None, None
        t0 = time.perf_counter()
        for n in range(5, limit + 1):
            ok = warnsdorff(Board(n, n), 0, tiebreak=rule, compiled=True).complete
            if ok:
                last_ok = n
            elif first_fail is None:
                first_fail = n
        rows.append([rule, str(first_fail or f"none <= {limit}"), str(last_ok),
                     f"{time.perf_counter() - t0:.1f}"])
    table(f"Warnsdorff from a1 on n x n, every n from 5 to {limit}",
          ["tie-break", "first n that fails", "largest n that succeeds", "scan s"], rows)


def bench_counts(runs: int) -> None:
    rows = []
    for label, kwargs, expected in [
        ("6x6 closed (cycles)", dict(board="6x6", closed=True), 9862),
        ("6x6 open from a1", dict(board="6x6", start="a1"), 524_486),
        ("6x6 open, all starts", dict(board="6x6"), 6_637_920),
        ("5x6 closed", dict(board="5x6", closed=True), 8),
    ]:
        count_tours(**kwargs)  # warm-up
        t, c = median_time(lambda: count_tours(**kwargs), runs)
        got = c.undirected if kwargs.get("closed") else c.directed
        assert got == expected, (label, got)
        rows.append([label, f"{got:,}", f"{c.nodes:,}", f"{t:.3f}"])
    # Baseline: the same kernel, one thread, every start searched (no symmetry).
    board = Board(6, 6)
    t0 = time.perf_counter()
    every_start = [t for s in range(board.size) for t in open_tasks(board, KNIGHT, start=s, symmetry=False)]
    plain = run_tasks(board, KNIGHT, every_start, workers=1)
    base = time.perf_counter() - t0
    assert plain.count == 6_637_920
    rows.append(["6x6 open, all starts: baseline (1 thread, no symmetry)", f"{plain.count:,}",
                 f"{plain.nodes:,}", f"{base:.3f}"])
    table(f"Backtracking counts (median of {runs}; {os.cpu_count()} cores)", ["count", "tours", "nodes", "seconds"], rows)


def bench_cli(runs: int) -> None:
    exe = [sys.executable, "-m", "chesstours"]
    rows = []
    for args in (["tour", "8x8"], ["tour", "8x8", "--closed"], ["count", "5x5"]):
        subprocess.run(exe + args, capture_output=True, check=True)  # warm the cache
        warm, _ = median_time(lambda: subprocess.run(exe + args, capture_output=True, check=True), runs)
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            t0 = time.perf_counter()
            subprocess.run(exe + args, capture_output=True, check=True, env=env)
            cold = time.perf_counter() - t0
        rows.append(["chesstours " + " ".join(args), f"{warm:.2f}", f"{cold:.2f}"])
    table(f"Command line, end to end (warm: median of {runs}; cold: empty numba cache, compiles)",
          ["command", "warm s", "cold s"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs")
    parser.add_argument("--scan", type=int, default=None, help="largest n of the tie-break scan")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 5)
    sizes = [1000, 2000] if args.quick else [1000, 3000, 5000]
    print(f"chesstours core benchmarks; numpy {np.__version__}, {os.cpu_count()} cores")
    bench_warnsdorff(sizes, runs)
    bench_counts(runs)
    bench_cli(runs)
    bench_tiebreak_scan(args.scan or (300 if args.quick else 1000))


if __name__ == "__main__":
    main()
