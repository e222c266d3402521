"""Benchmark of exact counting by the frontier method.

Prints one table: wall time (median of ``--runs``), how the count was made
(one sweep, or meet in the middle), the most live states of a step, the
states on the middle frontier of each half, the pairs the join tried, and
the peak memory of the state tables. Baselines measured in the same run:
the same count by one whole-board sweep (``one sweep s``, with the ratio to
it) where that finishes in reasonable time, and by backtracking (all cores)
on the small boards.

Yardstick (a throw-away single-threaded C++ frontier sweep on this machine,
hash map of packed states): 6x6 closed 0.23 s, 6x7 closed 2 s, 7x8 closed
158 s / 1.7 GiB, 6x6 open 15 s / 385 MiB, 6x8 open 190 s / 1.7 GiB; 8x8
closed by meet in the middle in 38 CPU-minutes and 8.3 GiB.

Usage::

    python benchmarks/bench_frontier.py --runs 3          # 6x6, 6x7, 6x8, 7x8 (about 2 minutes)
    python benchmarks/bench_frontier.py --quick --runs 5  # 6x6 and 6x7 only
    python benchmarks/bench_frontier.py --big             # also 7x7 open and 8x8 closed (about 8 minutes)
    python benchmarks/bench_frontier.py --sweep-baseline  # one whole sweep beside 6x8 and 7x8 too (minutes more)
    python benchmarks/bench_frontier.py --only 8x8 --runs 3   # some boards only
    python benchmarks/bench_frontier.py --forecast        # the forecast against the count, longer boards and
                                                          # other leapers (about 3 minutes)
    python benchmarks/bench_frontier.py --long            # boards growing longer: where the states stop growing
                                                          # and the join's pairs take over (about 3 minutes)
    python benchmarks/bench_frontier.py --kernels 6x8 --threads 1   # where one count's time goes, kernel by kernel
    python benchmarks/bench_frontier.py --steps 8x8 --closed        # ... and step by step (about 2 minutes)
    python benchmarks/bench_frontier.py --plain --runs 3  # the whole count in plain Python and numpy, against the
                                                          # kernels once loaded (about a minute)
"""

from __future__ import annotations

import argparse
import resource
import threading
import time

from _report import median_time, table

from chesstours import Board, count_tours
from chesstours.frontier.sweep import estimate, frontier_count, thread_count
from chesstours.pieces import KNIGHT, Leaper

#: (board, closed, one-sweep baseline?, backtracking baseline?) in order of cost.
QUICK = [("6x6", True, True, True), ("6x6", False, True, True), ("6x7", True, True, False)]
CASES = QUICK + [("6x8", False, False, False), ("7x8", True, False, False)]
BIG = [("7x7", False, False, False), ("8x8", True, False, False)]
#: (board, closed, leap) of the forecast table: knight counts growing longer, and sparser leapers.
FORECAST = [(f"6x{n}", False, (1, 2)) for n in range(6, 11)] + [(f"6x{n}", True, (1, 2)) for n in range(6, 13, 2)] \
    + [(f"7x{n}", True, (1, 2)) for n in range(7, 11)] + [("5x10", False, (1, 3)), ("6x10", False, (0, 2)),
                                                          ("7x10", True, (0, 2))]
#: (rows, lengths, closed) of the table of boards growing longer.
LONG = [(4, range(12, 31, 6), False), (5, range(11, 17), False), (5, range(12, 17, 2), True), (6, range(8, 11), False),
        (6, range(10, 13), True), (7, (8, 10), True)]
YARDSTICK = {("6x6", True): "0.23", ("6x6", False): "15", ("6x7", True): "2", ("7x8", True): "158",
             ("6x8", False): "190", ("8x8", True): "2280 CPU"}


def load_kernels() -> None:
    """Load the compiled kernels (compiling them first on an empty cache), so that every count of the table runs
    in them: a process that has loaded them counts even the small boards there, not in plain Python."""
    import chesstours.frontier.join.kernel  # noqa: F401
    import chesstours.frontier.kernel  # noqa: F401

    count_tours("5x5", method="frontier")
    count_tours("6x6", closed=True, method="frontier")


def _short(n: int) -> str:
    """``161467488`` -> ``"161.5 M"``; small numbers as they are."""
    return f"{n:,}" if n < 10**6 else f"{n / 1e6:,.1f} M"


def run(cases, workers: int | None, runs: int, sweep_baseline: bool) -> None:
    load_kernels()
    rows = []
    for board, closed, sweep, backtrack in cases:
        kind = "closed" if closed else "open"
        seconds, c = median_time(lambda: count_tours(board, closed=closed, method="frontier", workers=workers),
                                 runs)
        x = c.extra
        one = "-"
        if sweep or sweep_baseline:
            r = Board(*map(int, board.split("x")))
            one_s, plain = median_time(lambda: frontier_count(r, KNIGHT, closed, halves=False, workers=workers),
                                       runs)
            assert plain.count == c.undirected
            one = f"{one_s:.2f} ({one_s / seconds:.1f}x)"
        back = "-"
        if backtrack:
            back_s, b = median_time(lambda: count_tours(board, closed=closed, method="backtrack"), runs)
            assert (b.directed, b.undirected) == (c.directed, c.undirected)
            back = f"{back_s:.2f}"
        middle = " / ".join(_short(n) for n in x.get("middle_states", [])) or "-"
        pairs = _short(x["pairs_joined"]) if "pairs_joined" in x else "-"
        rows.append([board, kind, f"{c.undirected:,}", f"{seconds:.2f}",
                     "halves" if x["how"] == "meet in the middle" else "sweep", str(x["threads"]),
                     f"{x['max_states']:,}", middle, pairs, f"{x['peak_memory_mb']:,.0f}", one, back,
                     YARDSTICK.get((board, closed), "-")])
        print(" ".join(rows[-1]), flush=True)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    table(f"Frontier counts of knight's tours (undirected: paths or cycles); wall seconds, median of {runs}; "
          "one sweep: the same count by one whole-board sweep (and its ratio to the count); backtrack: all "
          f"cores; all in the same run. Largest resident memory of the run: {rss:.1f} GiB",
          ["board", "tours", "count", "seconds", "how", "threads", "max states", "middle states", "pairs",
           "peak MiB", "one sweep s", "backtrack s", "C++ s"], rows, 2)


def forecast(workers: int | None, runs: int) -> None:
    """The frontier method's forecast (:func:`chesstours.frontier.sweep.estimate`) against the count itself."""
    load_kernels()
    rows = []
    for board, closed, leap in FORECAST:
        r, piece = Board(*map(int, board.split("x"))), Leaper(*leap)
        e = estimate(r, piece, closed=closed, workers=workers)
        seconds, c = median_time(lambda: frontier_count(r, piece, closed, workers=workers), runs)
        peak = c.peak_bytes / 2**20
        rows.append([board, "closed" if closed else "open", f"{leap[0]},{leap[1]}", str(e.slots),
                     f"{e.seconds:.2f}", f"{seconds:.2f}", f"{seconds / e.seconds:.2f}",
                     f"{e.memory_bytes / 2**20:,.0f}", f"{peak:,.0f}", f"{peak * 2**20 / max(1.0, e.memory_bytes):.2f}",
                     f"{c.max_states:,}"])
        print(" ".join(rows[-1]), flush=True)
    table(f"The frontier method's forecast against the count (wall seconds, median of {runs}; memory of the "
          "state tables): the forecast reads the frontier's width alone",
          ["board", "tours", "leap", "slots", "forecast s", "count s", "ratio", "forecast MiB", "peak MiB", "ratio",
           "max states"], rows, 3)


def long_boards(workers: int | None, runs: int) -> None:
    """Knight counts on boards growing longer: the widest step, the join's pairs, the time."""
    load_kernels()
    rows = []
    for width, lengths, closed in LONG:
        for n in lengths:
            seconds, c = median_time(lambda: frontier_count(Board(width, n), KNIGHT, closed, workers=workers), runs)
            rows.append([f"{width}x{n}", "closed" if closed else "open", c.how, f"{c.max_states:,}",
                         _short(c.pairs) if c.pairs else "-", f"{seconds:.2f}", f"{c.peak_bytes / 2**20:,.0f}"])
            print(" ".join(rows[-1]), flush=True)
    table(f"Frontier counts on boards growing longer (wall seconds, median of {runs}): the states of the widest "
          "step, and the pairs of middle states the join tried",
          ["board", "tours", "how", "max states", "pairs", "seconds", "peak MiB"], rows, 2)


#: (module, kernel) timed by ``--kernels``: the sweep's and the join's, called from Python once a batch or a part.
KERNELS = [("kernel", "expand"), ("table_kernel", "sort_batch"), ("table_kernel", "insert_run"), ("table_kernel", "rehash"),
           ("table_kernel", "compact"), ("join.kernel", "unfold"), ("join.kernel", "read_half"),
           ("join.kernel", "bucket_sizes"), ("join.kernel", "scatter"), ("join.kernel", "radix_sort"),
           ("join.kernel", "run_table"), ("join.kernel", "hand_over"),
           ("join.kernel", "join_states")]


def kernels(board: str, closed: bool, workers: int | None, runs: int) -> None:
    """Where one count's time goes: the seconds inside each compiled kernel (summed over threads), the median of runs."""
    import importlib

    r = Board(*map(int, board.split("x")))
    load_kernels()
    spent: dict[str, float] = {}
    lock = threading.Lock()
    for module, name in KERNELS:
        mod = importlib.import_module(f"chesstours.frontier.{module}")
        kernel = getattr(mod, name)

        def timed(*args, kernel=kernel, name=name):
            t0 = time.perf_counter()
            try:
                return kernel(*args)
            finally:
                with lock:
                    spent[name] = spent.get(name, 0.0) + time.perf_counter() - t0

        setattr(mod, name, timed)
    per_run = []
    for _ in range(runs):
        spent.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        result = frontier_count(r, KNIGHT, closed, workers=workers)
        per_run.append((time.perf_counter() - t0, time.process_time() - c0, dict(spent)))
    per_run.sort(key=lambda x: x[0])
    wall, cpu, spent_then = per_run[len(per_run) // 2]
    rows = [[name, f"{spent_then.get(name, 0.0):.2f}", f"{spent_then.get(name, 0.0) / cpu:.0%}"] for _, name in KERNELS]
    rows.append(["(the rest: Python, waiting)", f"{cpu - sum(spent_then.values()):.2f}",
                 f"{(cpu - sum(spent_then.values())) / cpu:.0%}"])
    table(f"Where the time of the count of {board} {'closed' if closed else 'open'} goes ({result.count:,} undirected, "
          f"{result.states_total:,} states extended, {result.pairs:,} pairs joined): wall {wall:.2f} s, CPU "
          f"{cpu:.2f} s on {result.threads} thread(s); seconds inside each kernel, summed over threads (the run of "
          f"median wall time of {runs})", ["kernel", "seconds", "of CPU"], rows)


def steps(board: str, closed: bool, workers: int | None, least: float = 0.01) -> None:
    """Where one count's time goes, step by step: the states each step leaves, its seconds and the cores it kept
    busy (CPU-seconds over seconds; one run, from the count's progress reports); the steps under ``least`` of the
    time are summed in one row a phase."""
    r = Board(*map(int, board.split("x")))
    load_kernels()
    # (phase, step) -> (square, states, time and CPU time of the last report)
    ends: dict[tuple[str, int], tuple[int, int, float, float]] = {}
    t0, c0 = time.perf_counter(), time.process_time()

    def seen(p) -> None:
        ends[(p.phase, p.step)] = (p.square, p.states, time.perf_counter() - t0, time.process_time() - c0)

    result = frontier_count(r, KNIGHT, closed, workers=workers, progress=seen)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rows, before, cpu_before = [], 0.0, 0.0
    phases: dict[str, list[float]] = {}
    small: dict[str, list[float]] = {}

    def row(phase: str, step: str, square: str, states: str, seconds: float, used: float) -> list[str]:
        return [phase, step, square, states, f"{seconds:.2f}", f"{used / max(seconds, 1e-9):.2f}",
                f"{seconds / wall:.0%}"]

    for (phase, step), (square, states, at, cpu_at) in ends.items():
        if phase == "join":
            continue  # its reports are the parts of the streamed half, not steps
        seconds, used, before, cpu_before = at - before, cpu_at - cpu_before, at, cpu_at
        phases.setdefault(phase, [0.0, 0.0])
        phases[phase][0] += seconds
        phases[phase][1] += used
        if seconds < least * wall:
            small.setdefault(phase, [0, 0.0, 0.0])
            small[phase][0] += 1
            small[phase][1] += seconds
            small[phase][2] += used
            continue
        rows.append(row(phase, str(step), str(square), f"{states:,}", seconds, used))
    for phase, (n, seconds, used) in small.items():
        rows.append(row(phase, f"{n} other steps", "", "", seconds, used))
    rows.append(row("join", "index, then every part", "", "", wall - before, cpu - cpu_before))
    for phase, (seconds, used) in phases.items():
        rows.append(row(phase, "all its steps", "", "", seconds, used))
    table(f"Where the time of the count of {board} {'closed' if closed else 'open'} goes, step by step "
          f"({result.count:,} undirected, {result.states_total:,} states extended, {result.pairs:,} pairs joined; "
          f"wall {wall:.2f} s, {cpu:.1f} CPU-s on {result.threads} thread(s), one run); states: those the step "
          f"leaves; cores busy: CPU-seconds over seconds",
          ["phase", "step", "square", "states", "seconds", "cores busy", "of the count"], rows, text_columns=3)


#: The counts of ``--plain``: (board, closed); those the first run of a command may take in Python.
PLAIN_CASES = [("6x6", True), ("5x7", False), ("4x9", False), ("6x7", True), ("4x16", False), ("6x8", True),
               ("5x9", False), ("6x6", False)]


def plain_against_kernels(runs: int) -> None:
    """The whole count in plain Python and numpy (:mod:`chesstours.frontier.plain`), timed before this process
    loads a kernel, against the same count in the kernels once they are loaded; all in this process, each figure
    the median of ``runs``."""
    from chesstours.frontier import run

    run.PLAIN_FORECAST = run.PLAIN_ONLY_EXTENDED = float("inf")  # every count here wholly in Python
    rows = []
    for board, closed in PLAIN_CASES:
        b = Board(*map(int, board.split("x")))
        seconds, r = median_time(lambda: frontier_count(b, KNIGHT, closed, workers=1), runs)
        assert r.plain_states == r.states_total, "the kernels were loaded before the count in Python"
        rows.append([board, "closed" if closed else "open", f"{r.count:,}", f"{r.states_total:,}", seconds])
    start = time.perf_counter()
    load_kernels()
    loading = time.perf_counter() - start
    table_rows = []
    for board, kind, count, states, seconds in rows:
        b = Board(*map(int, board.split("x")))
        in_kernels, k = median_time(lambda: frontier_count(b, KNIGHT, kind == "closed"), runs)
        assert f"{k.count:,}" == count and k.plain_states == 0
        table_rows.append([board, kind, count, states, f"{seconds:.2f}", f"{in_kernels:.2f}",
                           f"{seconds / in_kernels:.1f}x"])
    table(f"The frontier count wholly in plain Python and numpy, and in the kernels once loaded on {thread_count()} "
          f"threads (median of {runs}; loading the kernels, once: {loading:.2f} s)",
          ["board", "tours", "count", "states extended", "Python s", "kernels s", "Python / kernels"], table_rows,
          text_columns=2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the small boards")
    parser.add_argument("--big", action="store_true", help="also 7x7 open and 8x8 closed")
    parser.add_argument("--sweep-baseline", action="store_true", help="one whole sweep beside every board")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each count (the median is shown)")
    parser.add_argument("--only", default=None, metavar="BOARDS", help="only these boards: 7x7,8x8")
    parser.add_argument("--forecast", action="store_true",
                        help="the forecast against the count instead, on longer boards and other leapers")
    parser.add_argument("--kernels", default=None, metavar="BOARD",
                        help="where one count's time goes instead, kernel by kernel (with --closed for closed tours)")
    parser.add_argument("--steps", default=None, metavar="BOARD",
                        help="where one count's time goes instead, step by step (with --closed for closed tours)")
    parser.add_argument("--closed", action="store_true", help="closed tours (with --kernels or --steps)")
    parser.add_argument("--long", action="store_true",
                        help="boards growing longer instead: the widest step, the pairs of the join, the time")
    parser.add_argument("--plain", action="store_true",
                        help="the whole count in plain Python and numpy instead, against the kernels once loaded")
    args = parser.parse_args()
    if args.plain:
        plain_against_kernels(args.runs)
        return
    if args.steps:
        steps(args.steps, args.closed, args.threads)
        return
    if args.kernels:
        kernels(args.kernels, args.closed, args.threads, args.runs)
        return
    if args.long:
        long_boards(args.threads, args.runs)
        return
    if args.forecast:
        forecast(args.threads, args.runs)
        return
    cases = QUICK if args.quick else CASES + (BIG if args.big else [])
    if args.only:
        cases = [c for c in CASES + BIG if c[0] in args.only.split(",")]
    run(cases, args.threads, args.runs, args.sweep_baseline)


if __name__ == "__main__":
    main()
