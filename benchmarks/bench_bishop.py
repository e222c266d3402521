"""Benchmark of the bishop puzzle: counting routes, the fewest slides, first routes of large boards, the CLI.

Prints tables; every figure is the median of several runs. The baseline is
the Delphi program's procedure ``chemin`` ported line for line to plain Python
(recursion, no pruning, counting every route instead of stopping at the
first), measured in the same run on the same boards (8x8 once: it takes
a while); the ratios are in time and in steps per second (the compiled
search also prunes, so it makes fewer steps).

First routes: ``solve_bishop`` on every n x n and n x (n + 2), n even up to
32, warm, and the construction alone; with ``--searched``, the search alone
(``method="backtrack"``, the only method before the construction) beside it,
cut at 10 s. Counts out of reach: Knuth's estimate of the 12x12 count,
against 10x10 counted to the end.

Usage::

    python benchmarks/bench_bishop.py              # a minute or so (8x8 in plain Python)
    python benchmarks/bench_bishop.py --quick      # fewer runs; Python only on smaller boards
    python benchmarks/bench_bishop.py --searched   # and the search alone on the large boards (minutes)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from _report import median_time, table

from chesstours import count_bishop_routes, solve_bishop
from chesstours.bishop.construct import construct_route
from chesstours.bishop.methods import ESTIMATE_PROBES, STEPS_PER_SECOND
from chesstours.bishop.search import BishopSearch
from chesstours.board import Board
from chesstours.errors import LimitReached, NoTour
from chesstours.units import format_duration


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


def bench_first_routes(runs: int, searched: bool) -> None:
    """A first route on every n x n and n x (n + 2), n even up to 32: auto, the construction alone, the search."""
    solve_bishop("2x2")
    rows = []
    for n in range(2, 33, 2):
        for r, c in ((n, n), (n, n + 2)):
            board = f"{r}x{c}"
            try:
                t, route = median_time(lambda: solve_bishop(board), runs)
                answer = f"{route.method}, {route.step_count:,} steps"
            except NoTour as exc:
                t, answer = median_time(lambda: _no_route(board), runs)[0], f"none ({exc.proof})"
            built = construct_route(Board(r, c), 0)
            tc = median_time(lambda: construct_route(Board(r, c), 0), runs)[0] if built else None
            row = [board, answer, f"{t:.3f}", "-" if tc is None else f"{tc:.4f}",
                   "-" if built is None else f"{built[1]['loops']}/{built[1]['switches']}"]
            if searched:
                row.append(_searched(board))
            rows.append(row)
    header = ["board", "auto: method, route", "auto s", "construct s", "loops/switches"]
    table(f"A first route a1 -> far corner, warm (median of {runs}); construct s: the construction alone"
          + ("; search s: method backtrack alone, one run, cut at 10 s" if searched else ""),
          header + (["search s"] if searched else []), rows, text_columns=2)


def _no_route(board: str) -> None:
    try:
        solve_bishop(board)
    except NoTour:
        pass


def _searched(board: str) -> str:
    t0 = time.perf_counter()
    try:
        solve_bishop(board, method="backtrack", time_limit=10)
    except NoTour:
        pass
    except LimitReached:
        return "> 10"
    return f"{time.perf_counter() - t0:.3f}"


def bench_count_estimate(runs: int) -> None:
    """Knuth's estimate of counts out of reach (12x12), against counts run to the end."""
    rows = []
    for board, count_it in (("8x12", True), ("10x10", True), ("12x12", False), ("14x14", False)):
        b = Board.parse(board)
        estimates = [BishopSearch(b, 0, b.size - 1).estimate(ESTIMATE_PROBES, seed) for seed in range(runs)]
        t, _ = median_time(lambda: BishopSearch(b, 0, b.size - 1).estimate(ESTIMATE_PROBES), runs)
        steps = statistics.median(e[0] for e in estimates)
        spread = f"{min(e[0] for e in estimates):.1e} .. {max(e[0] for e in estimates):.1e}"
        if count_it:
            counted = count_bishop_routes(board)
            actual = [f"{counted.nodes:.2e}", f"{counted.count:,}", f"{counted.seconds:.1f}"]
        else:
            actual = ["-", "-", format_duration(steps / STEPS_PER_SECOND) + " (estimated)"]
        rows.append([board, f"{steps:.2e}", spread, f"{t:.3f}", *actual])
    table(f"Counting every route: Knuth's estimate ({ESTIMATE_PROBES:,} random descents; median and range over "
          f"{runs} seeds) against the count run to the end; counts estimated past an hour are refused",
          ["board", "estimated steps", "range", "estimate s", "steps", "routes", "count s"], rows)


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
    parser.add_argument("--searched", action="store_true", help="the search alone on large boards too (minutes)")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 7)
    bench_count(runs, args.quick)
    bench_api(runs)
    bench_first_routes(3 if args.quick else 5, args.searched)
    bench_count_estimate(3 if args.quick else 5)
    bench_cli(max(3, runs // 2))


if __name__ == "__main__":
    main()
