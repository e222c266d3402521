"""chesstours against hand-written C: the same two jobs, timed in one run.

The C programs are in ``benchmarks/c/``; this script builds them with the first
C compiler it finds (``cc``, ``gcc`` or ``clang``, at ``-O2``) into a temporary
folder, and prints one table, every figure the median of ``--runs`` runs:

* every open knight's tour of 6x6, one thread, no symmetry reduction, every
  start searched: chesstours's compiled kernel over every start with one
  worker, against ``open_tours.c`` (the same search and pruning, both
  ending a tour only where its colours allow; both count
  the squares they place as nodes, except that chesstours's tasks start from
  a first move made, which it does not count);
* Warnsdorff's rule with Roth's tie-break on 5000x5000 from a1: chesstours's
  walk (the kernel alone, and all of ``warnsdorff()``), against
  ``warnsdorff.c``, the same walk square for square (the script checks the
  two paths are equal on smaller boards first).

The ratio is chesstours's time over C's: below 1, chesstours is faster. Times
are of the work alone: neither the C processes' start nor numba's compilation
is counted.

Usage::

    python benchmarks/bench_vs_c.py                 # 6x6 and 5000x5000 (about 2 minutes)
    python benchmarks/bench_vs_c.py --quick         # 5x6 and 1000x1000
    python benchmarks/bench_vs_c.py --only tours    # or --only warnsdorff
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from _report import table

from chesstours import Board
from chesstours.backtrack.tasks import open_tasks, run_tasks
from chesstours.pieces import KNIGHT
from chesstours.warnsdorff import warnsdorff

HERE = Path(__file__).resolve().parent
SOURCES = {"open_tours": HERE / "c" / "open_tours.c", "warnsdorff": HERE / "c" / "warnsdorff.c"}
#: Directed open tours (every start), facts the C count must reproduce.
KNOWN_OPEN = {(3, 4): 16, (5, 5): 1728, (5, 6): 37_568, (6, 6): 6_637_920}


def find_compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


def build(compiler: str, folder: str) -> dict[str, str]:
    programs = {}
    for name, source in SOURCES.items():
        exe = os.path.join(folder, name)
        subprocess.run([compiler, "-O2", "-std=c99", "-o", exe, str(source)], check=True)
        programs[name] = exe
    return programs


def run_c(args: list[str]) -> dict[str, str]:
    """Run a C program; its ``key value`` lines as a dict."""
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return dict(line.split(None, 1) for line in out.splitlines() if line.strip())


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}"


def bench_tours(exe: str, rows_cols: tuple[int, int], runs: int) -> list[list[str]]:
    r, c = rows_cols
    for small, expected in KNOWN_OPEN.items():
        if small != rows_cols and small[0] * small[1] <= 30:
            got = int(run_c([exe, *map(str, small)])["count"])
            assert got == expected, (small, got, expected)
    board = Board(r, c)
    tasks = [t for s in range(board.size) for t in open_tasks(board, KNIGHT, start=s, symmetry=False)]
    run_tasks(Board(5, 5), KNIGHT, open_tasks(Board(5, 5), KNIGHT), workers=1)  # load the kernel
    ours_t, theirs_t = [], []
    ours = theirs = None
    for _ in range(runs):
        t0 = time.perf_counter()
        ours = run_tasks(board, KNIGHT, tasks, workers=1)
        ours_t.append(time.perf_counter() - t0)
        theirs = run_c([exe, str(r), str(c)])
        theirs_t.append(float(theirs["seconds"]))
    count_c = int(theirs["count"])
    assert ours.count == count_c, (ours.count, count_c)
    if rows_cols in KNOWN_OPEN:
        assert count_c == KNOWN_OPEN[rows_cols], count_c
    t_ours, t_c = statistics.median(ours_t), statistics.median(theirs_t)
    return [[f"{r}x{c} open tours, all starts, 1 thread, no symmetry", f"{t_ours:.3f}", f"{t_c:.3f}",
             ratio(t_ours, t_c), f"{ours.nodes:,}", f"{int(theirs['nodes']):,}",
             f"{ours.count:,}", f"{count_c:,}"]]


def check_same_walk(exe: str, folder: str) -> None:
    """The C walk and chesstours's must place the same squares in the same order."""
    for n in (11, 50, 97):  # 11x11: both stop at the same dead end
        out = os.path.join(folder, f"path{n}.txt")
        run_c([exe, str(n), out])
        theirs = np.loadtxt(out, dtype=np.int64, ndmin=1)
        ours = warnsdorff(Board(n, n), 0, tiebreak="roth", compiled=True).path
        assert np.array_equal(ours, theirs), f"the walks differ on {n}x{n}"


def bench_warnsdorff(exe: str, folder: str, n: int, runs: int) -> list[list[str]]:
    check_same_walk(exe, folder)
    board = Board(n, n)
    kernel, total, walk_c, total_c = [], [], [], []
    ours = theirs = None
    for _ in range(runs):
        ours = warnsdorff(board, 0, tiebreak="roth")
        kernel.append(ours.kernel_seconds)
        total.append(ours.seconds)
        theirs = run_c([exe, str(n)])
        walk_c.append(float(theirs["walk"]))
        total_c.append(float(theirs["walk"]) + float(theirs["setup"]))
    done_ours = "complete" if ours.complete else f"dead end, {len(ours.path):,}"
    done_c = "complete" if theirs["complete"] == "yes" else f"dead end, {int(theirs['squares']):,}"
    squares_c = f"{int(theirs['squares']):,}"
    rows = []
    for label, a, b in [("walk", kernel, walk_c), ("all (set-up + walk)", total, total_c)]:
        ta, tb = statistics.median(a), statistics.median(b)
        rows.append([f"Warnsdorff roth {n}x{n} from a1: {label}", f"{ta:.3f}", f"{tb:.3f}", ratio(ta, tb),
                     f"{len(ours.path):,}", squares_c, done_ours, done_c])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5x6 and 1000x1000")
    parser.add_argument("--only", choices=["tours", "warnsdorff"], default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compiler = find_compiler()
    if compiler is None:
        print("bench_vs_c: no C compiler (cc, gcc or clang) found; nothing to compare.")
        return
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()
    print(f"chesstours against C; {version[0] if version else compiler} -O2, numpy {np.__version__}, "
          f"{os.cpu_count()} cores")
    rows = []
    with tempfile.TemporaryDirectory(prefix="chesstours-c-") as folder:
        programs = build(compiler, folder)
        if args.only in (None, "tours"):
            rows += bench_tours(programs["open_tours"], (5, 6) if args.quick else (6, 6), args.runs)
        if args.only in (None, "warnsdorff"):
            warnsdorff(Board(100, 100), 0, compiled=True)  # load the kernel
            rows += bench_warnsdorff(programs["warnsdorff"], folder, 1000 if args.quick else 5000, args.runs)
    table(f"chesstours against C (median of {args.runs}; ratio = chesstours time / C time; "
          f"nodes: squares placed)",
          ["job", "chesstours s", "C s", "ratio", "chesstours nodes", "C nodes", "chesstours gives", "C gives"], rows)


if __name__ == "__main__":
    main()
