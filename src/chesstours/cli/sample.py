"""``chesstours sample`` and ``chesstours stats``: uniformly random tours, and exact statistics of all tours.

Both build the tables of a frontier sweep (:mod:`chesstours.sample`); the
commands parse, call the api and write what it returns.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from .. import sample as api
from ..board import Board
from ..errors import InvalidArgument, LimitReached, NoTour
from ..pieces import parse_piece
from .common import (
    EXIT_LIMIT,
    AnimateOpt,
    BoardArg,
    ClosedOpt,
    EndOpt,
    FpsOpt,
    HolesOpt,
    NumbersOpt,
    PieceOpt,
    PlanOpt,
    ProgressOpt,
    SizeOpt,
    StartOpt,
    StreamFormat,
    StreamFormatOpt,
    StreamOutputOpt,
    TimeOpt,
    app,
    check_picture,
    emit,
    fail,
    interrupt_status,
    interrupted,
    no_tour_status,
    output_target,
    parse_board,
    progress_display,
    show_tour,
    stream_picture,
    write_picture,
)


def _report(update, board: Board):
    """The progress bar's update from the tables' steps."""
    if update is None:
        return None

    def report(p) -> None:
        update(p.step + 1, p.steps, f"tables: square {board.name(p.square)}, {p.states:,} states")

    return report


def _print_forecast(board: Board, start, end, closed: bool, piece: str, as_json: bool) -> None:
    forecast = api.forecast_tables(board, start, end, closed, parse_piece(piece))
    if as_json:
        typer.echo(json.dumps(forecast.to_dict()))
    else:
        typer.echo("\n".join(forecast.lines()))


@app.command()
def sample(
    board: str = BoardArg,
    n: int = typer.Option(1, "-n", "--number", metavar="N", help="Tours to draw (independent draws, with replacement)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the draws: the same seed draws the same tours."),
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    fmt: Optional[StreamFormat] = StreamFormatOpt,
    time_limit: Optional[float] = TimeOpt,
    output_name: Optional[str] = StreamOutputOpt,
    numbers: bool = NumbersOpt,
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
    animate: bool = AnimateOpt,
    plan: bool = PlanOpt,
    progress: bool = ProgressOpt,
    cache: bool = typer.Option(True, "--cache/--no-cache",
                               help="Keep the tables in the user's cache folder, and start from them the next time "
                                    "(chesstours cache lists them)."),
) -> None:
    """Draw uniformly random tours: every tour of the board equally likely (from the frontier count's tables)."""
    output = output_target(output_name)
    if output == Path("-") and (fmt is None or fmt.value not in ("svg", "png", "gif")):
        output = None
    b = parse_board(board, holes)
    if n < 0:
        raise InvalidArgument(f"-n is the number of tours to draw, 0 or more, not {n}.")
    if plan:
        _print_forecast(b, start, end, closed, piece, fmt is StreamFormat.json)
        return
    picture = stream_picture(fmt.value if fmt else None, output, animate)
    check_picture(picture, b, size, fps)
    if picture:
        n = min(n, 1)
    with _building("sampling", progress, "no tour was drawn") as update:
        tours = api.sample_tours(b, n, seed=seed, closed=closed, start=start, end=end, piece=parse_piece(piece),
                                 time_limit=time_limit, progress=_report(update, b), cache=cache)
    if picture:
        if tours:
            show_tour(tours[0], picture, output, numbers=numbers, size=size, fps=fps, animate=animate)
        return
    out = sys.stdout
    for t in tours:
        out.write((t.to_json() if fmt is StreamFormat.json else t.moves()) + "\n")
    out.flush()


@contextmanager
def _building(label: str, progress: bool, lost: str) -> Iterator[Callable[..., None] | None]:
    """The progress display while the tables are built, and what ends their building in one sentence: no tour,
    the time limit, or an interrupt (``lost``: what that leaves undone)."""
    with progress_display(label, progress) as update:
        try:
            yield update
        except NoTour as exc:
            raise fail(exc.reason, no_tour_status(exc)) from None
        except LimitReached as exc:
            raise fail(str(exc), EXIT_LIMIT) from None
        except KeyboardInterrupt as exc:
            raise fail(f"{interrupted(exc)} before the tables were built; {lost}.", interrupt_status(exc)) from None


@app.command()
def stats(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: every number an exact integer."),
    output_name: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                              help="Draw the heat map: every move by the tours that take it, the "
                                                   "squares by the tours that start there (svg or png)."),
    size: Optional[int] = SizeOpt,
    time_limit: Optional[float] = TimeOpt,
    plan: bool = PlanOpt,
    progress: bool = ProgressOpt,
) -> None:
    """Exact statistics of all tours: the tours through each move and (open tours) from each square."""
    output = output_target(output_name)
    b = parse_board(board, holes)
    if output is not None and output != Path("-") and output.suffix.lower() not in (".svg", ".png"):
        raise InvalidArgument(f"stats draws its heat map as svg or png, not {output.name}.")
    if plan:
        _print_forecast(b, start, end, closed, piece, as_json)
        return
    with _building("counting", progress, "nothing was counted") as update:
        result = api.tour_statistics(b, closed=closed, start=start, end=end, piece=parse_piece(piece),
                                     time_limit=time_limit, progress=_report(update, b))
    if output is not None:
        from ..render.heat import heat_map

        kind = "png" if output.suffix.lower() == ".png" else "svg"
        write_picture(heat_map(result, kind, size=size), None if output == Path("-") else output)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
        return
    if output is not None:
        return
    name = result.board.name
    lines = [f"board:      {result.board}  {result.piece.name}, {'closed tours (cycles)' if closed else 'tours'}",
             f"directed:   {result.directed:,}", f"undirected: {result.undirected:,}", "moves (tours through each):"]
    for (u, v), k in sorted(result.edges.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {name(u)}-{name(v)}  {k:,}")
    if not closed:
        lines.append("starts (directed tours from each square):")
        lines += [f"  {name(v)}  {k:,}" for v, k in sorted(result.starts.items()) if k]
        if start is not None or end is not None:  # else as many end on each square as start there
            lines.append("ends (directed tours to each square):")
            lines += [f"  {name(v)}  {k:,}" for v, k in sorted(result.ends.items()) if k]
    emit("\n".join(lines), None)


@app.command("cache")
def cache_command(
    clear: bool = typer.Option(False, "--clear", help="Remove every table kept."),
) -> None:
    """List the sampling tables kept in the user's cache folder (chesstours sample builds them), or clear them."""
    from ..units import format_bytes

    if clear:
        freed = api.clear_saved_tables()
        typer.echo(f"removed the tables kept: {format_bytes(freed)} freed")
        return
    kept = api.saved_tables()
    if not kept:
        typer.echo("no tables kept")
        return
    for path, question, size in kept:
        typer.echo(f"{format_bytes(size):>10}  {question}  ({path})")
