"""The ``bishop`` command: the bishop puzzle of a Delphi program, as text or as a picture.

Part of the command line (:mod:`chesstours.cli`), which imports this module
to register the command; the rest of the command line's helpers are shared.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .. import policy
from ..bishop import BishopCount
from ..bishop import solve as api_bishop
from ..bishop.route import BishopRoute, resolve_end
from ..errors import InvalidArgument, LimitReached, NoTour
from ..output import write_atomic
from .common import (
    EXIT_LIMIT,
    EXIT_NO_TOUR,
    BoardArg,
    HolesOpt,
    SizeOpt,
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
    picture_format,
    progress_display,
    say,
    write_picture,
)

__all__ = ["BishopFormat", "BishopMethod", "bishop", "check_route"]

BishopMethod = Enum("BishopMethod", {m: m for m in policy.BISHOP_METHODS}, type=str)  # type: ignore[misc]
_METHOD_HELP = policy.describe(policy.BISHOP_METHOD_HELP)


class BishopFormat(str, Enum):
    grid = "grid"
    moves = "moves"
    steps = "steps"
    json = "json"
    svg = "svg"
    png = "png"
    gif = "gif"


def _bishop_format(fmt: Optional[BishopFormat], as_json: bool, output: Optional[Path], animate: bool,
                   one_route: bool) -> BishopFormat:
    """The format ``bishop`` writes: ``--format``, else ``--json``, else the extension of ``-o``, else grid."""
    if as_json:
        if fmt not in (None, BishopFormat.json):
            raise InvalidArgument(f"--json and --format {fmt.value} ask for two formats: choose one.")
        fmt = BishopFormat.json
    kind = picture_format(fmt.value if fmt else None, output, animate, "grid")
    if kind not in BishopFormat.__members__:
        raise InvalidArgument(f"A bishop route is text (grid, moves, steps, json) or a picture (svg, png, gif), "
                              f"not {kind}.")
    if kind in ("svg", "png", "gif") and not one_route:
        raise InvalidArgument("A picture shows one route: drop --count, --all and --limit to draw one.")
    if animate and kind != "svg":
        raise InvalidArgument("--animate goes with --format svg (a gif is always animated).")
    return BishopFormat(kind)


def _show_route(route, fmt: BishopFormat, output: Optional[Path], **picture) -> None:
    """Print or write one route as text, or draw it (svg on stdout when no file)."""
    if fmt.value in ("svg", "png", "gif"):
        from ..render.picture import draw_tour

        write_picture(draw_tour(route, fmt.value, **picture), output)
        return
    emit(_render_route(route, fmt), output)


def _render_route(route, fmt: BishopFormat) -> str:
    if fmt is BishopFormat.grid:
        return route.grid() + "\n" + route.summary()
    if fmt is BishopFormat.moves:
        return route.slides_text()
    if fmt is BishopFormat.steps:
        return route.moves()
    return route.to_json()


@app.command()
def bishop(
    board: str = BoardArg,
    start: str = typer.Option("a1", "--start", "-s", metavar="SQ", help="First square."),
    end: str = typer.Option("opposite", "--end", "-e", metavar="opposite|any|SQ", help="opposite: the square opposite the start (the far corner); any: stop once every square of the colour is visited, as the puzzle's original Delphi program does; or a square."),
    count_only: bool = typer.Option(False, "--count", help="Count the routes exactly."),
    all_routes: bool = typer.Option(False, "--all", help="List every route, one per line, as they are found."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", metavar="K", help="List at most K routes (implies --all)."),
    shortest: bool = typer.Option(False, "--shortest", help="Fewest slides: one such route, proved the fewest (with --all or --count: all of them)."),
    method: BishopMethod = typer.Option("auto", "--method", "-m", help=_METHOD_HELP),
    holes: str = HolesOpt,
    fmt: Optional[BishopFormat] = typer.Option(None, "--format", "-f", help="grid (default): visit numbers per square and the slides; moves: the slides, a1-e5-...; steps: one square per step; json; pictures: svg, png, gif (the bishop moving along its route). Without it, -o FILE's extension decides."),
    as_json: bool = typer.Option(False, "--json", help="JSON (the same as --format json; with --count, one object)."),
    time_limit: Optional[float] = TimeOpt,
    output_name: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to this file instead of stdout (- is stdout; an existing file is replaced whole)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show progress of a count on a terminal."),
    numbers: bool = typer.Option(False, "--numbers", help="Pictures: visit numbers on the squares (two on a square passed twice)."),
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = typer.Option(None, "--fps", metavar="N", help="Animations: diagonal steps a second (default 8)."),
    animate: bool = typer.Option(False, "--animate", help="svg: an animated picture where the bishop moves along its route (gif always is)."),
) -> None:
    """The bishop puzzle: visit every square of the start's colour, entering a square
    at most once per diagonal direction."""
    output = output_target(output_name)
    b = parse_board(board, holes)
    if count_only and (all_routes or limit is not None):
        raise InvalidArgument("Choose --count or --all, not both.")
    if limit is not None and limit < 1:
        raise InvalidArgument(f"--limit must be at least 1, not {limit}.")
    if method.value != "auto" and (count_only or all_routes or limit is not None):
        raise InvalidArgument(f"--method chooses how one route is found; --count and --all search every route "
                              f"(drop --method {method.value}).")
    fmt = _bishop_format(fmt, as_json, output, animate, not (count_only or all_routes or limit is not None))
    picture = {}
    if fmt.value in ("svg", "png", "gif"):
        check_picture(fmt.value, b, size, fps)
        picture = {"numbers": numbers, "size": size, "fps": fps, "animate": animate}
    if count_only:
        _bishop_count(b, start, end, shortest, fmt is BishopFormat.json, time_limit, output, progress)
    elif all_routes or limit is not None:
        _bishop_all(b, start, end, shortest, fmt, limit, time_limit, output)
    else:
        try:
            route = api_bishop.solve_bishop(b, start, end, shortest, method=method.value, time_limit=time_limit)
        except NoTour as exc:
            raise fail(exc.reason, no_tour_status(exc)) from None
        except LimitReached as exc:
            if exc.partial is not None and hasattr(exc.partial, "steps"):
                _show_route(exc.partial, fmt, output, **picture)
                message = f"{exc} The route shown has the fewest slides found so far."
                raise fail(message, EXIT_LIMIT) from None
            raise fail(str(exc), EXIT_LIMIT) from None
        _show_route(route, fmt, output, **picture)


def _bishop_count(b, start, end, shortest, as_json, time_limit, output, progress) -> None:
    with progress_display("counting routes", progress) as update:
        def report(c) -> None:
            if update is not None:
                update(None, None, f"{c.count:,} routes, {c.nodes:,} steps")

        code = 0
        try:
            result = api_bishop.count_bishop_routes(b, start, end, shortest, time_limit=time_limit,
                                                    progress=report)
        except LimitReached as exc:
            result, code = exc.partial, EXIT_LIMIT
            say(str(exc))
        except KeyboardInterrupt as exc:
            partial: BishopCount | None = getattr(exc, "partial", None)
            say(f"{interrupted(exc)}; the count below is incomplete.")
            if partial is None:
                raise typer.Exit(interrupt_status(exc)) from None
            result, code = partial, interrupt_status(exc)
    if as_json:
        text = json.dumps(result.to_dict())
    else:
        rb = result.board
        to = "anywhere" if result.end_square < 0 else f"to {rb.name(result.end_square)}"
        to += f" ({result.end})" if result.end in ("opposite", "any") else ""
        note = "" if result.complete else "  (incomplete)"
        fewest = f" with {result.slides} slides, the fewest" if result.slides is not None else ""
        colour = "dark" if rb.colour(result.start) == 0 else "light"
        lines = [f"board:    {rb}, bishop from {rb.name(result.start)} {to}, every {colour} square",
                 f"routes:   {result.count:,}{fewest}{note}"]
        if "reason" in result.extra:
            lines.append(f"why:      {result.extra['reason']}")
        lines += [f"nodes:    {result.nodes:,}", f"seconds:  {result.seconds:.3f}"]
        text = "\n".join(lines)
    emit(text, output)
    if code:
        raise typer.Exit(code)


def _bishop_all(b, start, end, shortest, fmt, limit, time_limit, output) -> None:
    if output == Path("-"):
        output = None  # listed as they are found
    found: list[str] = []
    separator = "\n\n" if fmt is BishopFormat.grid else "\n"

    def show(text: str) -> None:
        found.append(text)
        if output is None:
            sys.stdout.write(("" if len(found) == 1 else separator[1:]) + text + "\n")
            sys.stdout.flush()

    def save() -> None:
        if output is not None and found:
            write_atomic(output, separator.join(found) + "\n")

    try:
        for route in api_bishop.iter_bishop_routes(b, start, end, shortest, time_limit=time_limit):
            show(_render_route(route, fmt))
            if limit is not None and len(found) >= limit:
                break
    except LimitReached as exc:
        save()
        raise fail(f"{exc} ({len(found)} listed)", EXIT_LIMIT) from None
    except KeyboardInterrupt as exc:
        save()
        raise fail(f"{interrupted(exc)} after {len(found)} routes.", interrupt_status(exc)) from None
    if not found:
        s = b.square(start)
        e = resolve_end(b, s, end)
        reason = api_bishop.bishop_obstruction(b, s, e)
        raise fail("no route: " + (reason.reason if reason else "an exhaustive search found none."), EXIT_NO_TOUR)
    save()


def check_route(text: str, board: Optional[str], holes: str, end: Optional[str]) -> None:
    route = BishopRoute.parse(text, board=board, holes=holes, end=end)
    problem = route.problem()
    if problem:
        raise fail(f"invalid: {problem}", 1)
    rb = route.board
    colour = "dark" if rb.colour(route.start) == 0 else "light"
    typer.echo(f"valid: bishop route of {rb} from {rb.name(route.start)} to {rb.name(route.last)} ({route.end}), "
               f"{route.slide_count} slides, {route.step_count} steps, every {colour} square visited")
