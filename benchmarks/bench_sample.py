"""Benchmark of uniform sampling and exact statistics from the frontier's tables.

Prints one table: for each question, the time to build the tables and draw N
tours (median of ``--runs``, the tables built each run), the same N tours
drawn from the tables kept in the cache (read from disk each run), the walks
a second once the tables are in memory (the tours' squares and checks left
out), the time of ``tour_statistics``, and beside them
the frontier count of the same question (the count's own sweep, which folds
mirror pairs) for the ratio the issue asks about. The kernels are compiled
(or loaded from the cache) before the first timed run.

Usage::

    python benchmarks/bench_sample.py --runs 3            # 5x5, 6x6 closed, 5x8 open, 6x7 closed
    python benchmarks/bench_sample.py --runs 3 --big      # also 6x6 open and 6x8 closed (a minute more)
    python benchmarks/bench_sample.py -n 100000 --only 6x6c
    python benchmarks/bench_sample.py --against-warnsdorff  # 5x5 from a1: how often each of the 304 tours comes,
                                                            # drawn uniformly and by Warnsdorff's random walk
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np
from _report import median_time, table

import chesstours as ct
from chesstours.board import Board
from chesstours.frontier import frontier_count
from chesstours.frontier.sampling import build_layers, draw, ranks, tables
from chesstours.pieces import KNIGHT

#: (name, board, closed, start)
QUESTIONS = [
    ("5x5 a1", "5x5", False, "a1"),
    ("5x5", "5x5", False, None),
    ("6x6c", "6x6", True, None),
    ("5x8", "5x8", False, None),
    ("6x7c", "6x7", True, None),
]
BIG = [
    ("6x8c", "6x8", True, None),
    ("6x6", "6x6", False, None),
]


def chi_square(counts: list[int]) -> tuple[float, float]:
    """The chi-square statistic of ``counts`` against equal shares, and its Wilson-Hilferty z-score (a z past
    3.09 rejects equal shares at the 0.1% level)."""
    draws, k = sum(counts), len(counts) - 1
    expected = draws / len(counts)
    x = sum((c - expected) ** 2 / expected for c in counts)
    return x, ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / (2 / (9 * k)) ** 0.5


def against_warnsdorff(draws: int) -> None:
    """How often each open tour of 5x5 from a1 comes up: uniform draws, and Warnsdorff's rule with random ties
    (walks that reach a dead end are walked again with the next seed)."""
    from chesstours.warnsdorff import warnsdorff

    board = Board(5, 5)
    listed = {tuple(t.path.tolist()): 0 for t in ct.iter_tours(board, start="a1")}
    uniform = dict(listed)
    for t in ct.sample_tours(board, draws, start="a1", seed=1):
        uniform[tuple(t.path.tolist())] += 1
    walked = dict(listed)
    seed = failed = 0
    while sum(walked.values()) < draws:
        result = warnsdorff(board, 0, KNIGHT, "random", seed)
        seed += 1
        if not result.complete:
            failed += 1
            continue
        walked[tuple(result.path.tolist())] += 1
    rows = []
    for name, counts in (("uniform (sample_tours)", uniform), ("Warnsdorff, random ties", walked)):
        values = sorted(counts.values())
        x, z = chi_square(values)
        rows.append([name, f"{draws:,}", f"{sum(1 for v in values if v):,} of {len(values)}", f"{values[0]}",
                     f"{values[len(values) // 2]}", f"{values[-1]}", f"{x:,.0f}", f"{z:.1f}",
                     "rejected" if z > 3.09 else "passes"])
    table(f"5x5 open tours from a1 ({len(listed)}): draws of each tour (expected {draws / len(listed):.1f}); "
          f"Warnsdorff's walk reached a dead end {failed:,} times", ["method", "draws", "tours drawn", "fewest",
                                                                     "median", "most", "chi-square", "z",
                                                                     "uniform?"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-n", type=int, default=100_000, help="tours drawn a run")
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--only", nargs="*", help="names of the questions to run")
    ap.add_argument("--against-warnsdorff", action="store_true")
    args = ap.parse_args()
    if args.against_warnsdorff:
        against_warnsdorff(30 * 304)
        return
    questions = QUESTIONS + (BIG if args.big else [])
    if args.only:
        questions = [q for q in questions if q[0] in args.only]
    ct.sample_tours("5x5", 2, start="a1")  # compile or load the kernels
    ct.sample_tours("5x6", 2, closed=True)
    rows = []
    for name, size, closed, start in questions:
        board = Board.parse(size)
        s = None if start is None else board.square(start)
        whole, sample = median_time(lambda: ct.sample_tours(size, args.n, closed=closed, start=start, seed=1,
                                                            cache=False), args.runs)
        ct.sample_tours(size, 1, closed=closed, start=start)  # the tables, kept in the cache
        cached, _ = median_time(lambda: ct.sample_tours(size, args.n, closed=closed, start=start, seed=2), args.runs)
        layers = build_layers(board, KNIGHT, closed, s)
        tabs = tables(layers)
        picks = ranks(np.random.default_rng(1), tabs.count, args.n)
        walk, _ = median_time(lambda: draw(tabs, picks), args.runs)
        stats, _ = median_time(lambda: ct.tour_statistics(size, closed=closed, start=start), args.runs)
        count, result = median_time(lambda: frontier_count(board, KNIGHT, closed, s), args.runs)
        rows.append([name, f"{sample[0].stats['tours']:,}", f"{layers.states:,}", f"{tabs.nbytes / 2**20:.0f}",
                     f"{whole:.2f}", f"{cached:.2f}", f"{args.n / walk:,.0f}", f"{stats:.2f}", f"{count:.2f}",
                     f"{whole / count:.1f}"])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    table(f"Uniform sampling from the frontier's tables: {args.n:,} tours a run, median of {args.runs} "
          f"(peak memory of the process {peak:,.0f} MiB)",
          ["question", "tours", "states kept", "tables MiB", f"build + {args.n:,} s", "cached s", "walks/s", "stats s",
           "count s", "x count"], rows)
    print(f"\n{time.strftime('%Y-%m-%d %H:%M')}")


if __name__ == "__main__":
    main()
