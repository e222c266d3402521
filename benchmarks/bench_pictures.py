"""Benchmarks of the pictures and of the traced search.

Prints tables; every figure is the median of several runs, set against a
baseline measured in the same run:

* tour animations (GIF) against the plain way of making the same frames:
  drawing each frame as a whole picture (``scene_image``) -- the renderer
  instead draws the tour onto one canvas and shrinks only what a move touched;
* still pictures (SVG, PNG) by board size, against the 8x8 picture;
* the traced search (one kernel call per position, events built in Python)
  against the kernel searching alone.

Usage::

    python benchmarks/bench_pictures.py            # everything (about a minute)
    python benchmarks/bench_pictures.py --quick    # fewer runs, smaller boards
"""

from __future__ import annotations

import argparse

from _report import median_time, table

import chesstours as ct
from chesstours.backtrack.search import Search
from chesstours.board import Board
from chesstours.pieces import KNIGHT, move_table
from chesstours.render import raster
from chesstours.render.picture import draw_tour
from chesstours.render.style import Scene, geometry


def naive_gif(tour, size: int) -> bytes:
    """The same frames drawn one whole picture at a time (the baseline)."""
    geom = geometry(tour.board, size)
    frames = []
    for k in range(len(tour)):
        frames.append(
            raster.scene_image(
                Scene(tour.board, tour.path[: k + 1], ends=False, knight=int(tour.path[k])), geom=geom
            )
        )
    frames.append(raster.scene_image(Scene(tour.board, tour.path), geom=geom))
    return raster._gif(frames, raster._durations(len(frames), 8.0, 2.0))


def bench_gif(specs: list[str], size: int, runs: int) -> None:
    rows = []
    for spec in specs:
        tour = ct.find_tour(spec, start="a1")
        fast, data = median_time(lambda: draw_tour(tour, "gif", size=size), runs)
        slow, _ = median_time(lambda: naive_gif(tour, size), max(1, runs // 2))
        rows.append(
            [
                spec,
                f"{len(tour)}",
                f"{slow:.2f}",
                f"{fast:.2f}",
                f"{slow / fast:.1f}x",
                f"{len(data) / 1024:.0f}",
            ]
        )
    table(
        f"Tour animation (GIF, {size} px): whole frames (baseline) vs one canvas, shrunk where a move drew",
        ["board", "frames", "whole frames s", "canvas s", "speed-up", "GIF KiB"],
        rows,
    )


def bench_still(specs: list[str], runs: int) -> None:
    rows = []
    base = {}
    for spec in specs:
        tour = ct.find_tour(spec, start="a1", method="warnsdorff")
        row = [spec]
        for fmt in ("svg", "png"):
            t, data = median_time(lambda: draw_tour(tour, fmt), runs)
            base.setdefault(fmt, t)
            row += [f"{t * 1000:.0f}", f"{t / base[fmt]:.1f}x", f"{len(data) / 1024:.0f}"]
        rows.append(row)
    table(
        f"Still pictures (default size), against {specs[0]}",
        ["board", "svg ms", "vs first", "svg KiB", "png ms", "vs first", "png KiB"],
        rows,
    )


def bench_trace(runs: int) -> None:
    rows = []
    for spec, start in (("5x5", "a1"), ("5x5", "c3"), ("6x6", "a1")):
        board = Board.parse(spec)
        limit = 200_000

        def traced():
            n = 0
            for e in ct.trace_search(board, start):
                n += 1
                if n >= limit or e.kind == "done":
                    break
            return n, e.nodes

        t_trace, (events, nodes) = median_time(traced, runs)
        table_ = move_table(board, KNIGHT)

        def kernel():
            s = Search(table_, [board.square(start)])
            s.run(budget=nodes)
            return s.nodes

        t_kernel, _ = median_time(kernel, runs)
        rows.append(
            [
                f"{spec} from {start}",
                f"{events:,}",
                f"{nodes:,}",
                f"{t_kernel * 1000:.1f}",
                f"{t_trace * 1000:.0f}",
                f"{t_trace / t_kernel:.0f}x",
                f"{events / t_trace:,.0f}",
            ]
        )
    table(
        "Traced search: the kernel alone (baseline) vs the kernel one position a call, with events",
        ["search", "events", "positions", "kernel ms", "trace ms", "slower", "events/s"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, smaller boards")
    args = parser.parse_args()
    runs = 3 if args.quick else 5
    draw_tour(ct.find_tour("5x5", start="a1"), "png")  # load fonts and libraries
    bench_gif(["8x8", "12x12"] if args.quick else ["8x8", "16x16", "24x24"], 320, runs)
    bench_still(["8x8", "30x30", "100x100"] if args.quick else ["8x8", "30x30", "100x100", "300x300"], runs)
    bench_trace(runs)


if __name__ == "__main__":
    main()
