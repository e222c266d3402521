"""``chesstours tour`` and ``chesstours tours``: find one tour, or list them."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

import typer

from .. import find as api
from .. import policy
from ..arguments import prepare_query
from ..board import Board
from ..complete import complete_tour, parse_path
from ..errors import GaveUp, InvalidArgument, LimitReached, NoTour
from ..existence.reasons import obstruction
from ..pieces import parse_piece
from .common import (
    EXIT_LIMIT,
    EXIT_NO_TOUR,
    AnimateOpt,
    BoardArg,
    ClosedOpt,
    ClusterOpt,
    EndOpt,
    FpsOpt,
    HolesOpt,
    JobsOpt,
    Method,
    NumbersOpt,
    Order,
    PieceOpt,
    PlanOpt,
    SizeOpt,
    StartOpt,
    StreamFormat,
    StreamFormatOpt,
    StreamOutputOpt,
    Tiebreak,
    TimeOpt,
    TourFormat,
    WhereOpt,
    app,
    check_picture,
    fail,
    interrupt_status,
    interrupted,
    no_tour_status,
    output_target,
    parse_board,
    print_plan,
    progress_display,
    show_tour,
    stream_picture,
    tour_format,
)

_METHOD_HELP = policy.describe(policy.FIND_METHOD_HELP)


# -- tour ----------------------------------------------------------------------


@app.command()
def tour(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    method: Method = typer.Option("auto", "--method", "-m", help=_METHOD_HELP),
    tiebreak: Optional[Tiebreak] = typer.Option(None, "--tiebreak", help=f"Warnsdorff tie-break (default: {policy.DEFAULT_TIEBREAK}; auto tries several)."),
    order: Order = typer.Option(policy.FIND_ORDER, "--order", help="Backtracking move order."),
    seed: int = typer.Option(0, "--seed", help="Seed for the random tie-break."),
    fmt: Optional[TourFormat] = typer.Option(None, "--format", "-f", help="grid (default): numbered board; moves: one line; json; npz: NumPy arrays of the path, board, holes, piece and closedness, which check reads alone (needs -o); npy: the path alone as a NumPy int32 array (needs -o); pictures: svg, png, gif (an animation). Without it, -o FILE's extension decides."),
    time_limit: Optional[float] = TimeOpt,
    node_limit: Optional[int] = typer.Option(None, "--node-limit", metavar="N", help="Most positions backtracking may visit."),
    output_name: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to this file instead of stdout (- is stdout; an existing file is replaced whole)."),
    numbers: bool = NumbersOpt,
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
    animate: bool = AnimateOpt,
    plan: bool = PlanOpt,
    as_json: bool = typer.Option(False, "--json", help="The same as --format json."),
    prefix: Optional[str] = typer.Option(None, "--prefix", metavar="SQ,SQ...", help="Complete a started tour: the tour begins with these squares (moves played so far, first square first), found by complete backtracking."),
) -> None:
    """Find one tour and print it, or draw it. Without --start, a tour from any square (a1 first)."""
    output = output_target(output_name)
    b = parse_board(board, holes)
    if as_json:
        if fmt not in (None, TourFormat.json):
            raise InvalidArgument(f"--json and --format {fmt.value} ask for two formats; give one.")
        fmt = TourFormat.json
    if prefix is not None:
        _refuse_with_prefix(b, prefix, start, method.value, tiebreak, plan)
    if plan:
        query = prepare_query(b, start, end, parse_piece(piece))
        print_plan(policy.plan_find(*query, closed, method.value, tiebreak=tiebreak.value if tiebreak else None,
                                    order=order.value), fmt is TourFormat.json)
        return
    kind = tour_format(fmt.value if fmt else None, output, animate)
    check_picture(kind, b, size, fps)
    if tiebreak is not None and method.value in ("backtrack", "construct"):
        raise InvalidArgument(f"--tiebreak chooses among Warnsdorff's moves; --method {method.value} does not "
                              "use it (drop it, or use --method warnsdorff or auto).")
    unused = [name for name, given in (("--numbers", numbers), ("--size", size is not None),
                                       ("--fps", fps is not None)) if given]
    if kind not in ("svg", "png", "gif") and unused:
        typer.echo(f"chesstours: {' and '.join(unused)} shape{'s' * (len(unused) == 1)} pictures; the {kind} "
                   f"format does not use {'it' if len(unused) == 1 else 'them'}.", err=True)
    deadline = None if time_limit is None else time.perf_counter() + time_limit  # the search and the drawing
    with progress_display("searching") as update:
        try:
            if prefix is not None:
                found = complete_tour(b, prefix, end, closed, parse_piece(piece), order=order.value,
                                      time_limit=time_limit, node_limit=node_limit)
            else:
                found = api.find_tour(
                    b, start, end, closed, parse_piece(piece), method.value,
                    tiebreak=tiebreak.value if tiebreak else None, seed=seed, order=order.value,
                    time_limit=time_limit, node_limit=node_limit,
                    progress=None if update is None else (lambda n: update(info=f"{n:,} positions")),
                )
        except (NoTour, GaveUp) as exc:
            raise fail(exc.reason, no_tour_status(exc)) from None
        except LimitReached as exc:
            raise fail(str(exc), EXIT_LIMIT) from None
        except KeyboardInterrupt as exc:
            raise fail(f"{interrupted(exc)} before a tour was found.", interrupt_status(exc)) from None
    if start is None and prefix is None and found.stats.get("starts_tried"):
        typer.echo(f"chesstours: no tour starts on {b.name(policy.default_start(b))}; this one starts on "
                   f"{b.name(found.start)}.", err=True)
    try:
        show_tour(found, kind, output, numbers=numbers, size=size, fps=fps, animate=animate, deadline=deadline)
    except LimitReached as exc:
        raise fail(f"{exc} The tour was found; give more time (--time-limit) to draw it.", EXIT_LIMIT) from None


def _refuse_with_prefix(board: Board, prefix: str, start: str | None, method: str, tiebreak, plan: bool) -> None:
    """Refuse what does not go with --prefix, whose tour begins where the played squares do and is found by
    backtracking from them (:func:`~chesstours.complete.complete_tour`)."""
    if not prefix.strip():
        raise InvalidArgument("--prefix is empty; give the squares played so far, such as --prefix a1,b3.")
    if plan:
        raise InvalidArgument("--plan says how a search from one square would run; drop it with --prefix.")
    if method not in ("auto", "backtrack"):
        raise InvalidArgument(f"--prefix completes a started tour by backtracking; --method {method} cannot "
                              "(drop it, or use --method backtrack).")
    if tiebreak is not None:
        raise InvalidArgument("--tiebreak chooses among Warnsdorff's moves; --prefix completes a tour by "
                              "backtracking and does not use it.")
    if start is not None:
        first = parse_path(board, prefix)[0]
        if board.square(start) != first:
            raise InvalidArgument(f"--start {start} and --prefix, which begins on {board.name(first)}, name two "
                                  "first squares; give one.")


# -- tours ---------------------------------------------------------------------


@app.command()
def tours(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    limit: Optional[int] = typer.Option(None, "--limit", "-n", metavar="K", help="Stop after K tours."),
    order: Order = typer.Option(policy.LIST_ORDER, "--order", help="Move order of the search."),
    fmt: Optional[StreamFormat] = StreamFormatOpt,
    time_limit: Optional[float] = TimeOpt,
    output_name: Optional[str] = StreamOutputOpt,
    numbers: bool = NumbersOpt,
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
    animate: bool = AnimateOpt,
    where: Optional[str] = WhereOpt,
    jobs: Optional[int] = JobsOpt,
    cluster: Optional[str] = ClusterOpt,
) -> None:
    """List tours one per line, as they are found (open: every start unless --start; closed: each cycle once)."""
    output = output_target(output_name)
    if output == Path("-") and (fmt is None or fmt.value not in ("svg", "png", "gif")):
        output = None  # the list itself goes to standard output
    b = parse_board(board, holes)
    if limit is not None and limit < 1:
        raise InvalidArgument(f"--limit must be at least 1, not {limit}.")
    picture = stream_picture(fmt.value if fmt else None, output, animate)
    check_picture(picture, b, size, fps)
    if picture:
        limit = 1
    elif fmt is None:
        fmt = StreamFormat.moves
    found = 0
    try:
        for t in api.iter_tours(b, start, end, closed, parse_piece(piece), order=order.value, time_limit=time_limit,
                                 where=where, jobs=jobs, cluster=cluster):
            if picture:
                show_tour(t, picture, output, numbers=numbers, size=size, fps=fps, animate=animate)
                found += 1
                break
            sys.stdout.write((t.moves() if fmt is StreamFormat.moves else t.to_json()) + "\n")
            sys.stdout.flush()
            found += 1
            if limit is not None and found >= limit:
                break
    except LimitReached as exc:
        raise fail(f"{exc} ({found} listed)", EXIT_LIMIT) from None
    except KeyboardInterrupt as exc:
        raise fail(f"{interrupted(exc)} after {found} tours.", interrupt_status(exc)) from None
    if found == 0:
        raise fail(why_no_tour(b, start, end, closed, piece) or "No tour: an exhaustive search found none.",
                   EXIT_NO_TOUR)


def why_no_tour(board: Board, start, end, closed, piece) -> str | None:
    """The sentence that says why no tour exists, where an argument says it (:func:`obstruction`), else None."""
    s = None if start is None else board.square(start)
    e = None if end is None else board.square(end)
    reason = obstruction(board, parse_piece(piece), s, e, closed)
    return reason.reason if reason else None
