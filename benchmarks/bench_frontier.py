"""Benchmark of exact counting by the frontier sweep.

Prints one table: wall time, the most live states and the peak memory of the
state tables, for knight's tours of whole boards, each set against a baseline
measured in the same run where one finishes in reasonable time (the
backtracking count of the same question, all cores).

Yardstick (a throw-away single-threaded C++ frontier sweep on this machine,
hash map of packed states): 6x6 closed 0.23 s, 6x7 closed 2 s, 7x8 closed
158 s / 1.7 GiB, 6x6 open 15 s / 385 MiB, 6x8 open 190 s / 1.7 GiB.

Usage::

    python benchmarks/bench_frontier.py            # 6x6, 6x7, 6x8, 7x8 (several minutes)
    python benchmarks/bench_frontier.py --quick    # 6x6 and 6x7 only
    python benchmarks/bench_frontier.py --big      # also 7x7 open (8x8 is refused: frontier too wide)
    python benchmarks/bench_frontier.py --quick --runs 3 --one-thread   # medians, and one core beside all
"""

from __future__ import annotations

import argparse
import statistics
import time

from _report import table

from chesstours import count_tours

#: (board, closed, backtracking baseline?) in order of cost.
CASES = [("6x6", True, True), ("6x6", False, True), ("6x7", True, False), ("6x8", False, False),
         ("7x8", True, False)]
QUICK = CASES[:3]
BIG = [("7x7", False, False), ("8x8", True, False)]


def _timed(fn, runs: int):
    """(median seconds, last result) of ``runs`` calls."""
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def run(cases, workers: int | None, runs: int, one_thread: bool) -> None:
    count_tours("5x5", method="frontier")  # load the compiled kernels
    rows = []
    for board, closed, baseline in cases:
        kind = "closed" if closed else "open"
        try:
            seconds, c = _timed(lambda: count_tours(board, closed=closed, method="frontier", workers=workers), runs)
        except Exception as exc:  # noqa: BLE001 - a refusal is a result of the benchmark
            rows.append([board, kind, "refused", "-", "-", "-", "-", "-", "-", str(exc)[:60]])
            continue
        single = "-"
        if one_thread:
            one, c1 = _timed(lambda: count_tours(board, closed=closed, method="frontier", workers=1), runs)
            assert c1.undirected == c.undirected
            single = f"{one:.2f} ({one / seconds:.1f}x)"
        base = "-"
        if baseline:
            base_s, b = _timed(lambda: count_tours(board, closed=closed, method="backtrack"), runs)
            base = f"{base_s:.2f}"
            assert (b.directed, b.undirected) == (c.directed, c.undirected)
        rows.append([board, kind, f"{c.undirected:,}", f"{seconds:.2f}", str(c.extra["threads"]), single,
                     f"{c.extra['max_states']:,}", f"{c.extra['peak_memory_mb']:,.0f}", base, ""])
        print(" ".join(rows[-1]), flush=True)
    table(f"Frontier counts of knight's tours (undirected: paths or cycles); wall seconds, median of {runs}; "
          "one thread: the same sweep on one core (and the speed-up of all); "
          "baseline: backtracking, all cores; all in the same run",
          ["board", "tours", "count", "seconds", "threads", "one thread s", "max states", "peak MiB",
           "backtrack s", "note"], rows, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the small boards")
    parser.add_argument("--big", action="store_true", help="also 7x7 open and 8x8 closed")
    parser.add_argument("--threads", type=int, default=None, help="threads of the sweep (default: every core)")
    parser.add_argument("--one-thread", action="store_true", help="also time the sweep on one thread")
    parser.add_argument("--runs", type=int, default=1, help="runs of each count (the median is shown)")
    args = parser.parse_args()
    run(QUICK if args.quick else CASES + (BIG if args.big else []), args.threads, args.runs, args.one_thread)


if __name__ == "__main__":
    main()
