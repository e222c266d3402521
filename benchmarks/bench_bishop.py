"""Benchmark of the bishop puzzle: counting routes, the fewest slides, the CLI.

Prints tables; every figure is the median of several runs. The baseline is
the Delphi program's procedure ``chemin`` ported line for line to plain Python
(recursion, no pruning, counting every route instead of stopping at the
first), measured in the same run on the same boards (8x8 once: it takes
a while); the ratios are in time and in steps per second (the compiled
search also prunes, so it makes fewer steps).

Usage::

    python benchmarks/bench_bishop.py            # a minute or so (8x8 in plain Python)
    python benchmarks/bench_bishop.py --quick    # fewer runs; Python only on smaller boards
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

from _report import median_time, table

from chesstours import count_bishop_routes, solve_bishop
from chesstours.bishop.search import BishopSearch
from chesstours.board import Board


def seed_procedure_count(rows: int, cols: int) -> tuple[int, int]:
    """The Delphi program's ``chemin`` in plain Python, run to the end: (routes a1 -> far corner, steps)."""
    sys.setrecursionlimit(10_000)
    dx, dy = (1, 1, -1, -1), (1, -1, -1, 1)
    sens_a = [[False] * cols for _ in range(rows)]
    sens_b = [[False] * cols for _ in range(rows)]
    visits = [[0] * cols for _ in range(rows)]
    target = sum(1 for r in range(rows) for c in range(cols) if (r + c) % 2 == 0)
    state = {"covered": 1, "routes": 0, "steps": 0}
    visits[0][0] = 1

    def chemin(x1: int, y1: int) -> None:
        if state["covered"] == target:
            if (x1, y1) == (rows - 1, cols - 1):
                state["routes"] += 1
            return
        for i in range(4):
            x, y = x1 + dx[i], y1 + dy[i]
            if not (0 <= x < rows and 0 <= y < cols):
                continue
            flags = sens_a if i % 2 == 0 else sens_b
            if flags[x][y]:
                continue
            old = flags[x1][y1]
            flags[x][y] = flags[x1][y1] = True
            visits[x][y] += 1
            state["covered"] += visits[x][y] == 1
            state["steps"] += 1
            chemin(x, y)
            state["covered"] -= visits[x][y] == 1
            visits[x][y] -= 1
            flags[x1][y1] = old
            flags[x][y] = False

    chemin(0, 0)
    return state["routes"], state["steps"]


def ratio(x: float) -> str:
    return f"{x:.1f}x" if x < 10 else f"{x:.0f}x"


def kernel_count(board: Board) -> tuple[int, int]:
    search = BishopSearch(board, 0, board.size - 1)
    search.run()
    return search.count, search.nodes


def bench_count(runs: int, quick: bool) -> None:
    kernel_count(Board(2, 2))  # load the compiled kernel
    rows, python_rate = [], []
    python_boards = [(4, 8), (6, 6), (6, 8)] + ([] if quick else [(8, 8)])
    for r, c in python_boards:
        py_runs = 1 if (r, c) == (8, 8) else max(1, runs // 2)
        py_t, (py_routes, py_steps) = median_time(lambda: seed_procedure_count(r, c), py_runs)
        k_t, (k_routes, k_steps) = median_time(lambda: kernel_count(Board(r, c)), runs)
        assert py_routes == k_routes, (r, c, py_routes, k_routes)
        python_rate.append(py_steps / py_t)
        rows.append([f"{r}x{c}", f"{k_routes:,}", f"{py_steps:,}", f"{py_t:.3f}", f"{k_steps:,}",
                     f"{k_t:.4f}", ratio(py_t / k_t), ratio((k_steps / k_t) / (py_steps / py_t))])
    rate = statistics.median(python_rate)
    kernel_only = [(8, 8)] if quick else [(8, 10)]  # boards the baseline would take too long on
    for r, c in kernel_only:
        k_runs = 1 if (r, c) == (8, 10) else runs
        k_t, (k_routes, k_steps) = median_time(lambda: kernel_count(Board(r, c)), k_runs)
        rows.append([f"{r}x{c}", f"{k_routes:,}", "-", "-", f"{k_steps:,}", f"{k_t:.4f}", "-",
                     ratio((k_steps / k_t) / rate)])
    table(
        f"Counting routes a1 -> far corner (kernel: median of {runs}; Python: median of {max(1, runs // 2)}, "
        f"one run on 8x8); baseline: the Delphi program's procedure in plain Python, {rate / 1e6:.2f} M steps/s",
        ["board", "routes", "Python steps", "Python s", "kernel steps", "kernel s", "time ratio",
         "steps/s ratio"],
        rows,
    )


def bench_api(runs: int) -> None:
    rows = []
    for label, fn in [
        ("count_bishop_routes('8x8')", lambda: count_bishop_routes("8x8").count),
        ("count_bishop_routes('8x8', shortest=True)",
         lambda: count_bishop_routes("8x8", shortest=True).count),
        ("solve_bishop('8x8')", lambda: solve_bishop("8x8").slide_count),
        ("solve_bishop('8x8', shortest=True)", lambda: solve_bishop("8x8", shortest=True).slide_count),
        ("count_bishop_routes('8x7', end='any')", lambda: count_bishop_routes("8x7", end="any").count),
    ]:
        fn()
        t, out = median_time(fn, runs)
        rows.append([label, str(out), f"{t:.3f}"])
    table(f"The api on 8x8, warm (median of {runs})", ["call", "answer", "seconds"], rows)


def bench_cli(runs: int) -> None:
    rows = []
    for args in (["8x8", "--count", "--json"], ["8x8", "--shortest", "-f", "moves"]):
        cmd = [sys.executable, "-m", "chesstours", "bishop", *args]
        t, _ = median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), runs)
        rows.append(["chesstours bishop " + " ".join(args), f"{t:.2f}"])
    table(f"The command line, a new process each time, numba cache warm (median of {runs})",
          ["command", "seconds"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 7)
    bench_count(runs, args.quick)
    bench_api(runs)
    bench_cli(max(3, runs // 2))


if __name__ == "__main__":
    main()
