"""Benchmark of the theory: how fast does ``tour_exists`` answer from theorems alone?

Every query below is answered by arithmetic (Schwenk 1991; Cull & De Curtins
1978; Conrad et al. 1994; the outer ranks of 4 x n; the colour argument) --
no move table, no search. The table gives the median time per query over
boards m x n sampled uniformly from 1 <= m, n <= MAX (median of several runs
over the whole sample), against a baseline measured in the same run:
building the knight's move table of the same boards, which is the least any
search must pay before its first move.

Usage::

    python benchmarks/bench_theory.py              # 20,000 sampled boards up to 1000x1000
    python benchmarks/bench_theory.py --all        # every m x n with m, n <= 1000 (about a minute)
    python benchmarks/bench_theory.py --max 2000 --boards 5000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _report import table

from chesstours import Board, tour_exists
from chesstours.existence.reasons import obstruction
from chesstours.existence.theorems import closed_knight_tour_exists, knight_verdict, open_knight_tour_exists
from chesstours.pieces import KNIGHT, move_table


def per_query_us(queries, fn, runs: int) -> float:
    """Median over ``runs`` of the mean time per query, in microseconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for q in queries:
            fn(q)
        times.append((time.perf_counter() - t0) / len(queries))
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=1000, help="largest side (default 1000)")
    parser.add_argument("--boards", type=int, default=20_000, help="boards sampled (default 20,000)")
    parser.add_argument("--all", action="store_true", help="every m x n board with 1 <= m <= n <= MAX")
    parser.add_argument("--runs", type=int, default=5, help="runs per row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.all:
        sizes = [(m, n) for m in range(1, args.max + 1) for n in range(m, args.max + 1)]
        args.runs = min(args.runs, 1)
    else:
        sizes = [(rng.randint(1, args.max), rng.randint(1, args.max)) for _ in range(args.boards)]
    boards = [Board(m, n) for m, n in sizes]

    def any_square(b: Board) -> int:
        return rng.randrange(b.size)

    # Per-square and per-pair questions that a theorem settles (undecided ones go to search).
    starts = [(b, v) for b in boards for v in [any_square(b)] if knight_verdict(b, v) is not None]
    pairs = []
    for b in boards:
        s, t = any_square(b), any_square(b)
        if s != t and knight_verdict(b, s, t) is not None:
            pairs.append((b, s, t))
    closed_pairs = [(b, s, t) for b, s, t in pairs if knight_verdict(b, s, t, closed=True) is not None]

    rows = []
    measured = [
        ("whole board, open", boards, lambda b: tour_exists(b)),
        ("whole board, closed", boards, lambda b: tour_exists(b, closed=True)),
        ("start square, open", starts, lambda q: tour_exists(q[0], start=q[1])),
        ("start square, closed", starts, lambda q: tour_exists(q[0], start=q[1], closed=True)),
        ("start and end, open", pairs, lambda q: tour_exists(q[0], start=q[1], end=q[2])),
        ("start and end, closed", closed_pairs, lambda q: tour_exists(q[0], start=q[1], end=q[2], closed=True)),
        ("obstruction() (used by find_tour)", starts, lambda q: obstruction(q[0], KNIGHT, q[1])),
        ("the bare theorems on two ints", sizes,
         lambda q: (closed_knight_tour_exists(*q), open_knight_tour_exists(*q))),
    ]
    for label, queries, fn in measured:
        if not queries:
            continue
        rows.append([label, f"{len(queries):,}", f"{per_query_us(queries, fn, args.runs):.1f}"])

    # Baseline: the knight's move table of a sample of the same boards.
    sample = rng.sample(boards, min(40, len(boards)))

    def build(b: Board) -> None:
        move_table.__wrapped__(b, KNIGHT)  # uncached: the work itself

    base_us = per_query_us(sample, build, max(1, args.runs // 2))
    whole_us = float(rows[0][2])
    rows.append(["baseline: build the move table", f"{len(sample):,}", f"{base_us:,.0f}"])

    span = f"all {len(sizes):,} boards m <= n <= {args.max}" if args.all else \
        f"{len(sizes):,} boards sampled with sides 1..{args.max}"
    table(f"tour_exists from theory alone: median microseconds per query ({span}; median of {args.runs} runs)",
          ["query", "queries", "us/query"], rows)
    print(f"\nA whole-board answer is {base_us / whole_us:,.0f} times faster than building the move table "
          "a search would start from (same boards, same run).")


if __name__ == "__main__":
    main()
