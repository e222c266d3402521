"""Timing and table printing shared by the benchmark scripts (run from this folder's parent:
``python benchmarks/bench_core.py``; Python puts this folder on the path)."""

from __future__ import annotations

import statistics
import time


def median_time(fn, runs: int) -> tuple[float, object]:
    """Median wall time of ``runs`` calls of ``fn`` and the last call's result."""
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def table(title: str, header: list[str], rows: list[list[str]], text_columns: int = 1) -> None:
    """Print an aligned table: the first ``text_columns`` columns left-aligned, numbers right."""
    print(f"\n{title}")
    if not rows:
        print("(no rows: nothing matched)")
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) if i < text_columns else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))))
