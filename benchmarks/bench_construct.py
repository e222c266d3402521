"""Benchmark of the construction (divide and conquer) against Warnsdorff's rule.

Each board is measured in a fresh subprocess, so that its peak memory (the
``ru_maxrss`` of that process, interpreter and compiled kernels included) is
its own. In the subprocess, after one small warm-up tour (kernels loaded):

* construction alone: ``construct_path`` -- cutting, the step field, the swaps
  and following the steps into a path;
* construction + validation: the same, then ``Tour.validate()``;
* the baseline: Warnsdorff's rule with Roth's tie-break (compiled kernel) on
  the same board, from the same start; it may fail (the table says where).

Times are medians of ``--runs`` runs (the largest boards: fewer). Output: one
table, and a second for the command line writing a big JSON file.

Usage::

    python benchmarks/bench_construct.py            # 1000^2, 3000^2, 10000^2 (a few minutes)
    python benchmarks/bench_construct.py --quick    # 1000^2 and 3000^2 only
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from _report import table


def child(rows: int, cols: int, closed: bool, runs: int, baseline: bool) -> dict:
    import numpy as np

    from chesstours.board import Board
    from chesstours.construct.build import construct_path
    from chesstours.pieces import KNIGHT
    from chesstours.tour import Tour
    from chesstours.warnsdorff.walk import warnsdorff

    construct_path(10, 10, 0, True)
    construct_path(5, 5, 0, False)
    warnsdorff(Board(40, 40), 0, compiled=True)
    board = Board(rows, cols)
    build, check = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        path, _ = construct_path(rows, cols, 0, closed)
        t1 = time.perf_counter()
        Tour(board, KNIGHT, path, closed).validate()
        t2 = time.perf_counter()
        build.append(t1 - t0)
        check.append(t2 - t0)
        del path
    out = {"build": statistics.median(build), "build_validate": statistics.median(check)}
    if baseline:
        result = warnsdorff(board, 0, KNIGHT, "roth", compiled=True)
        out["warnsdorff"] = result.kernel_seconds
        out["warnsdorff_total"] = result.seconds
        out["warnsdorff_covered"] = int(result.path.size)
        del result
    out["peak_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out["squares"] = rows * cols
    del np
    return out


def measure(rows: int, cols: int, closed: bool, runs: int, baseline: bool) -> dict:
    kind = "closed" if closed else "open"
    flag = "1" if baseline else "0"
    cmd = [sys.executable, __file__, "--child", str(rows), str(cols), kind, str(runs), flag]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cli_json(size: str) -> tuple[float, int, int]:
    """Run ``chesstours tour SIZE --format json -o FILE`` in a fresh process: (seconds, bytes, peak bytes)."""
    script = ("import resource, sys; from chesstours.cli import main; code = main(sys.argv[1:]); "
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)")
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "big.json")
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", script, "tour", size, "--format", "json", "-o", target],
                              check=True, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        return seconds, os.path.getsize(target), int(done.stdout.split()[-1]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmark the construction.")
    parser.add_argument("--quick", action="store_true", help="1000^2 and 3000^2 only")
    parser.add_argument("--runs", type=int, default=5, help="runs per board (10000^2: at most 3)")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        rows, cols, kind, runs, baseline = args.child
        print(json.dumps(child(int(rows), int(cols), kind == "closed", int(runs), baseline == "1")))
        return

    cases = [(1000, 1000, True), (1001, 1001, False), (1000, 1001, True), (3000, 3000, True),
             (3001, 3001, False), (3, 1_000_000, False), (4, 1_000_000, False)]
    if not args.quick:
        cases += [(10000, 10000, True), (10000, 10000, False), (9999, 10001, False), (10000, 9999, True)]
    rows = []
    for m, n, closed in cases:
        runs = min(args.runs, 3) if m * n > 20_000_000 else args.runs
        r = measure(m, n, closed, runs, baseline=True)
        wd = r["warnsdorff"]
        covered = r["warnsdorff_covered"]
        wd_text = f"{wd:.3f}"
        if covered < r["squares"]:
            wd_text += f" (dead end at {covered / r['squares']:.1%})"
        rows.append([
            f"{m}x{n}", "closed" if closed else "open",
            f"{r['build']:.3f}", f"{r['build_validate']:.3f}",
            f"{r['squares'] / r['build'] / 1e6:.0f}", f"{r['peak_bytes'] / 2**30:.2f}",
            wd_text, f"{wd / r['build']:.1f}x",
        ])
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    table(
        f"Construction (median of up to {args.runs} runs) vs Warnsdorff's rule "
        "(Roth tie-break, compiled kernel)",
        ["board", "tour", "build s", "build+validate s", "M squares/s", "peak GiB", "warnsdorff s",
         "warnsdorff/build"],
        rows, text_columns=2,
    )
    size = "3000x3000" if args.quick else "5000x5000"
    seconds, nbytes, peak = cli_json(size)
    table("Command line, whole run (start-up, build, validate, stream JSON to a file)",
          ["command", "", "seconds", "file MiB", "peak GiB"],
          [[f"chesstours tour {size} --format json -o big.json", "", f"{seconds:.2f}",
            f"{nbytes / 2**20:.0f}", f"{peak / 2**30:.2f}"]], text_columns=2)
    print(f"\nmachine: {os.cpu_count()} cores; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
