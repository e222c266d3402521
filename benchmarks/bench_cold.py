"""The command line on a first run: every command, cold (an empty compile cache) and warm.

A cold run points numba's cache (``NUMBA_CACHE_DIR``) at a fresh empty folder,
so that it compiles every kernel the command uses; a warm run shares a folder
that two earlier runs filled. Each figure is the median of several runs of
``python -m chesstours ...`` end to end (start-up, imports, compiling, the
work and the printing), on the boards of at most 36 squares that a first
user tries, with larger counts (a cold ``count 6x7 --closed``) and listings
of thousands of tours beside them. The package's
Python bytecode is compiled first, as installing it does: with
``PYTHONDONTWRITEBYTECODE`` set and none cached, every run would compile its
sources too (about 0.1 s). With ``--after-compile``, a third column: each
command's first run on a cache that ``chesstours compile`` filled (copied
afresh for every run), the compile itself timed once in the title.

Usage::

    python benchmarks/bench_cold.py                  # every command on 5x5, 6x6, 4x9, 5x7, 6x6 closed
    python benchmarks/bench_cold.py --quick          # a few commands on 5x5 and 6x6
    python benchmarks/bench_cold.py --boards 5x5 --only count --runs 5
    python benchmarks/bench_cold.py --only count --after-compile
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import table

#: The boards of the table: a size and the options that go with it (a closed board asks for closed tours).
BOARDS = ["5x5", "6x6", "4x9", "5x7", "6x6 --closed"]

#: The commands run on each board ({b}: the board and its options; {tour}: a file with one of its tours,
#: which ``check`` reads with its own closed flag). The bishop puzzle has no closed routes: not on closed boards.
COMMANDS = [
    "tour {b}",
    "tour {b} --start a1",
    "tour {b} --method warnsdorff",
    "tour {b} --method backtrack",
    "tour {b} --piece zebra",
    "tour {b} --holes c3",
    "tours {b} --limit 5",
    "count {b}",
    "count {b} --start a1",
    "count {b} --method frontier",
    "count {b} --method backtrack",
    "count {b} --holes c3",
    "count {b} --piece zebra",
    "exists {b}",
    "exists {b} --certificate",
    "check {tour}",
    "trace {b} --start a1 -n 50",
    "bishop {b}",
    "bishop {b} --count",
]

#: The commands of ``--quick``, on 5x5 and 6x6.
QUICK = ["tour {b}", "tour {b} --method backtrack", "count {b} --start a1", "count {b}", "exists {b}",
         "bishop {b} --count"]

#: Larger counts whose cold cost the table notes beside the small boards, and listings of thousands of tours
#: (the 9,862 closed tours of 6x6; ten thousand open ones of 4x9), which a warm cache prints in well under a second.
EXTRA = ["count 6x7 --closed", "count 5x10", "count 6x9 --closed", "tours 6x6 --closed", "tours 4x9 --limit 10000"]


def run(args: list[str], cache: str, timeout: float) -> tuple[float, int]:
    """Seconds and exit status of one run of the command line with its compile cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-m", "chesstours", *args], env=env, capture_output=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, -1
    return time.perf_counter() - t0, out.returncode


def cold(args: list[str], runs: int, timeout: float) -> float:
    """Median seconds of ``runs`` runs, each with a fresh empty compile cache."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="chesstours-cold-") as cache:
            times.append(run(args, cache, timeout)[0])
    return statistics.median(times)


def after_compile(args: list[str], compiled: str, runs: int, timeout: float) -> float:
    """Median seconds of ``runs`` runs, each the first on a fresh copy of the cache ``compiled``."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="chesstours-compiled-") as folder:
            cache = str(Path(folder) / "cache")
            shutil.copytree(compiled, cache)
            times.append(run(args, cache, timeout)[0])
    return statistics.median(times)


def compile_bytecode() -> None:
    """Write the bytecode of the chesstours package (whatever ``PYTHONDONTWRITEBYTECODE`` says), as an install
    does, so that no run measures Python compiling the sources."""
    import chesstours

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(chesstours.__file__).parent)], env=env,
                   check=True)


def tour_file(folder: Path, board: str) -> Path:
    """Where the tour of ``board`` (size and options) that ``check`` reads is written."""
    size, *options = board.split()
    return folder / f"tour-{size}{'-closed' if options else ''}.json"


def commands(boards: list[str], templates: list[str], only: str | None, folder: Path) -> list[list[str]]:
    """The command lines of the table, board by board."""
    out = []
    for board in boards:
        for template in templates:
            if "--closed" in board and template.startswith("bishop"):
                continue
            line = template.format(b=board, tour=tour_file(folder, board))
            if only is None or only in line:
                out.append(line.split())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs a figure is the median of (default 3)")
    parser.add_argument("--boards", default=",".join(BOARDS), help="boards, comma-separated (default: %(default)s)")
    parser.add_argument("--only", default=None, help="only the command lines that contain this text")
    parser.add_argument("--quick", action="store_true", help="a few commands on 5x5 and 6x6")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a run may take")
    parser.add_argument("--after-compile", action="store_true",
                        help="a column more: each command's first run after `chesstours compile`")
    args = parser.parse_args()
    boards = ["5x5", "6x6"] if args.quick else args.boards.split(",")
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="chesstours-bench-") as scratch:
        folder, warm_cache = Path(scratch), str(Path(scratch) / "cache")
        for board in boards:  # the tours that check reads, written by a warm run
            run(["tour", *board.split(), "-o", str(tour_file(folder, board))], warm_cache, args.timeout)
        lines = commands(boards, QUICK if args.quick else COMMANDS, args.only, folder)
        compiled, compiling = str(folder / "compiled"), ""
        if args.after_compile:
            seconds, status = run(["compile"], compiled, args.timeout)
            if status != 0:
                raise SystemExit(f"chesstours compile failed (exit status {status})")
            compiling = f"; `chesstours compile` took {seconds:.1f} s"
        if not args.quick:
            lines += [extra.split() for extra in EXTRA if args.only is None or args.only in extra]
        rows = []
        for line in lines:
            # fills the warm cache: twice, as a first run may leave a kernel for the next to compile (the
            # probes', where the process compiling the search kernel was stopped before it got there)
            status = run(line, warm_cache, args.timeout)[1]
            run(line, warm_cache, args.timeout)
            warm = statistics.median(run(line, warm_cache, args.timeout)[0] for _ in range(args.runs))
            shown = " ".join(Path(word).name if word.startswith(scratch) else word for word in line)
            ahead = [f"{after_compile(line, compiled, args.runs, args.timeout):.2f}"] if args.after_compile else []
            rows.append([f"chesstours {shown}", f"{cold(line, args.runs, args.timeout):.2f}", *ahead,
                         f"{warm:.2f}", str(status)])
    table(f"The command line, end to end: cold (an empty compile cache){', after compile' if args.after_compile else ''} and "
          f"warm, median of {args.runs} runs ({os.cpu_count()} cores){compiling}",
          ["command", "cold s", *(["after compile s"] if args.after_compile else []), "warm s", "exit"], rows)


if __name__ == "__main__":
    main()
