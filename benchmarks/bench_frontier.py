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
"""

from __future__ import annotations

import argparse
import time

from _report import table

from chesstours import count_tours

#: (board, closed, backtracking baseline?) in order of cost.
CASES = [("6x6", True, True), ("6x6", False, True), ("6x7", True, False), ("6x8", False, False),
         ("7x8", True, False)]
QUICK = CASES[:3]
BIG = [("7x7", False, False), ("8x8", True, False)]


def run(cases) -> None:
    count_tours("5x5", method="frontier")  # load the compiled kernels
    rows = []
    for board, closed, baseline in cases:
        kind = "closed" if closed else "open"
        try:
            t0 = time.perf_counter()
            c = count_tours(board, closed=closed, method="frontier")
            seconds = time.perf_counter() - t0
        except Exception as exc:  # noqa: BLE001 - a refusal is a result of the benchmark
            rows.append([board, kind, "refused", "-", "-", "-", "-", str(exc)[:60]])
            continue
        base = "-"
        if baseline:
            t0 = time.perf_counter()
            b = count_tours(board, closed=closed, method="backtrack")
            base = f"{time.perf_counter() - t0:.2f}"
            assert (b.directed, b.undirected) == (c.directed, c.undirected)
        rows.append([board, kind, f"{c.undirected:,}", f"{seconds:.2f}", f"{c.extra['max_states']:,}",
                     f"{c.extra['peak_memory_mb']:,.0f}", base, ""])
        print(" ".join(rows[-1]), flush=True)
    table("Frontier counts of knight's tours (undirected: paths or cycles); wall seconds, one run each; "
          "baseline: backtracking, all cores, same run",
          ["board", "tours", "count", "seconds", "max states", "peak MiB", "backtrack s", "note"], rows, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the small boards")
    parser.add_argument("--big", action="store_true", help="also 7x7 open and 8x8 closed")
    args = parser.parse_args()
    run(QUICK if args.quick else CASES + (BIG if args.big else []))


if __name__ == "__main__":
    main()
