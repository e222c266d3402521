"""The ``chesstours`` command line: a thin layer over the api.

Each command parses its arguments, calls one api function and renders the
result. Errors a user can make print one sentence on stderr and exit with
status 2; "no tour exists" is an answer and exits with status 1; a time
limit reached without an answer exits with 3, and Ctrl-C with 130.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Iterator, Optional

import typer

from . import api
from .board import Board
from .errors import ChessToursError, InvalidArgument, LimitReached, NoTour
from .output import write_atomic
from .pieces import parse_piece
from .render.text import render_tour
from .tour import Tour

app = typer.Typer(
    name="chesstours",
    help="Knight's tours and other leaper tours: find, list, count and check them on any board.",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_NO_TOUR, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPT = 1, 2, 3, 130


class Method(str, Enum):
    auto = "auto"
    warnsdorff = "warnsdorff"
    backtrack = "backtrack"


class Tiebreak(str, Enum):
    first = "first"
    pohl = "pohl"
    roth = "roth"
    random = "random"


class Order(str, Enum):
    warnsdorff = "warnsdorff"
    fixed = "fixed"


class TourFormat(str, Enum):
    grid = "grid"
    moves = "moves"
    json = "json"


class StreamFormat(str, Enum):
    moves = "moves"
    json = "json"


# -- shared options ------------------------------------------------------------

BoardArg = typer.Argument(..., metavar="BOARD", help="Board size: ROWSxCOLS such as 8x8 or 5x6, or one number (8 means 8x8).")
StartOpt = typer.Option(None, "--start", "-s", metavar="SQ", help="First square, such as a1.")
EndOpt = typer.Option(None, "--end", "-e", metavar="SQ", help="Last square.")
ClosedOpt = typer.Option(False, "--closed", "-c", help="Closed tours: the last square leaps back to the first.")
PieceOpt = typer.Option("knight", "--piece", "-p", metavar="PIECE", help="knight, camel, zebra, giraffe, or a leap A,B such as 2,3.")
HolesOpt = typer.Option("", "--holes", metavar="SQ,SQ...", help="Squares removed from the board.")
TimeOpt = typer.Option(None, "--time-limit", "-t", metavar="SECONDS", help="Stop after this many seconds.")


def _board(text: str, holes: str) -> Board:
    return Board.parse(text, holes)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"chesstours: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def _progress(label: str, enabled: bool = True) -> Iterator[object]:
    """A Rich progress display on stderr when it is a terminal; yields an update callback or None."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None, info="")

        def update(done: int | None = None, total: int | None = None, info: str = "") -> None:
            bar.update(task, completed=done, total=total, info=info)

        yield update


def _emit(text: str, output: Optional[Path]) -> None:
    if output is None:
        typer.echo(text)
    else:
        write_atomic(output, text if text.endswith("\n") else text + "\n")


# -- tour ----------------------------------------------------------------------


@app.command()
def tour(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    method: Method = typer.Option(Method.auto, "--method", "-m", help="auto tries Warnsdorff's rule, then backtracking; it always finds a tour when one exists."),
    tiebreak: Optional[Tiebreak] = typer.Option(None, "--tiebreak", help="Warnsdorff tie-break (default: roth; auto tries several)."),
    order: Order = typer.Option(Order.warnsdorff, "--order", help="Backtracking move order."),
    seed: int = typer.Option(0, "--seed", help="Seed for the random tie-break."),
    fmt: TourFormat = typer.Option(TourFormat.grid, "--format", "-f", help="grid: numbered board; moves: one line; json."),
    time_limit: Optional[float] = TimeOpt,
    node_limit: Optional[int] = typer.Option(None, "--node-limit", metavar="N", help="Most positions backtracking may visit."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Find one tour and print it."""
    b = _board(board, holes)
    with _progress("searching") as update:
        try:
            found = api.find_tour(
                b, start, end, closed, parse_piece(piece), method.value,
                tiebreak=tiebreak.value if tiebreak else None, seed=seed, order=order.value,
                time_limit=time_limit, node_limit=node_limit,
                progress=None if update is None else (lambda n: update(info=f"{n:,} positions")),
            )
        except NoTour as exc:
            raise _fail(exc.reason, EXIT_NO_TOUR) from None
        except LimitReached as exc:
            raise _fail(str(exc), EXIT_LIMIT) from None
        except KeyboardInterrupt:
            raise _fail("interrupted before a tour was found.", EXIT_INTERRUPT) from None
    _emit(render_tour(found, fmt.value), output)


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
    order: Order = typer.Option(Order.fixed, "--order", help="Move order of the search."),
    fmt: StreamFormat = typer.Option(StreamFormat.moves, "--format", "-f", help="moves: one tour per line; json: JSON lines."),
    time_limit: Optional[float] = TimeOpt,
) -> None:
    """List tours one per line, as they are found (open: every start unless --start; closed: each cycle once)."""
    b = _board(board, holes)
    if limit is not None and limit < 1:
        raise InvalidArgument(f"--limit must be at least 1, not {limit}.")
    found = 0
    try:
        for t in api.iter_tours(b, start, end, closed, parse_piece(piece), order=order.value, time_limit=time_limit):
            sys.stdout.write((t.moves() if fmt is StreamFormat.moves else t.to_json()) + "\n")
            sys.stdout.flush()
            found += 1
            if limit is not None and found >= limit:
                break
    except LimitReached as exc:
        raise _fail(f"{exc} ({found} listed)", EXIT_LIMIT) from None
    except KeyboardInterrupt:
        raise _fail(f"interrupted after {found} tours.", EXIT_INTERRUPT) from None
    if found == 0:
        raise _fail("no tour: " + _why_none(b, start, end, closed, piece), EXIT_NO_TOUR)


def _why_none(board: Board, start, end, closed, piece) -> str:
    from .theory import obstruction

    p = parse_piece(piece)
    s = None if start is None else board.square(start)
    e = None if end is None else board.square(end)
    reason = obstruction(board, p, s, e, closed)
    return reason.reason if reason else "an exhaustive search found none."


# -- count ---------------------------------------------------------------------


@app.command()
def count(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    time_limit: Optional[float] = TimeOpt,
    workers: Optional[int] = typer.Option(None, "--workers", "-j", help="Threads (default: all cores)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show progress on a terminal."),
) -> None:
    """Count tours exactly: directed (sequences) and undirected (paths; closed: cycles)."""
    b = _board(board, holes)
    if workers is not None and workers < 1:
        raise InvalidArgument(f"--workers must be at least 1, not {workers}.")
    with _progress("counting", progress) as update:
        def report(r) -> None:
            if update is not None:
                update(r.tasks_done, r.tasks_total, f"{r.nodes:,} positions")

        try:
            result = api.count_tours(b, start, end, closed, parse_piece(piece), time_limit=time_limit,
                                     workers=workers, progress=report)
            code = 0
        except LimitReached as exc:
            result, code = exc.partial, EXIT_LIMIT
            typer.echo(f"chesstours: {exc}", err=True)
        except KeyboardInterrupt as exc:
            partial = getattr(exc, "partial", None)
            typer.echo("chesstours: interrupted; the counts below are incomplete.", err=True)
            if partial is None:
                raise typer.Exit(EXIT_INTERRUPT) from None
            result = api._tour_count(b, parse_piece(piece), closed, None if start is None else b.square(start),
                                     None if end is None else b.square(end), partial, partial.seconds)
            result.complete, code = False, EXIT_INTERRUPT
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        kind = "closed tours (cycles)" if closed else "tours"
        note = "" if result.complete else "  (incomplete)"
        typer.echo(f"board:      {result.board}  {result.piece.name}, {kind}"
                   + (f" from {b.name(result.start)}" if result.start is not None else "")
                   + (f" to {b.name(result.end)}" if result.end is not None else ""))
        typer.echo(f"directed:   {result.directed:,}{note}")
        typer.echo(f"undirected: {result.undirected:,}{note}")
        typer.echo(f"nodes:      {result.nodes:,}")
        typer.echo(f"seconds:    {result.seconds:.3f}")
    if code:
        raise typer.Exit(code)


# -- check ---------------------------------------------------------------------


@app.command()
def check(
    file: str = typer.Argument(..., metavar="FILE", help="A tour as moves (a1 c2 ...) or as JSON; - reads stdin."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help="Board size for a moves file (default: the smallest board holding every square)."),
    closed: Optional[bool] = typer.Option(None, "--closed/--open", help="Whether the tour must be closed (JSON: its own flag)."),
    piece: Optional[str] = typer.Option(None, "--piece", "-p", metavar="PIECE", help="The leaper (default: knight, or the JSON's piece)."),
    holes: str = HolesOpt,
) -> None:
    """Check a tour: exit 0 when valid, 1 naming the first illegal step."""
    if file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidArgument(f"Cannot read {file}: {exc.strerror}.") from None
    t = Tour.parse(text, board=board, holes=holes, piece=piece, closed=closed)
    problem = t.problem()
    if problem:
        raise _fail(f"invalid: {problem}", 1)
    kind = "closed" if t.closed else "open"
    reentrant = "" if t.closed or not t.is_reentrant() else " (its ends are one move apart: it can be closed)"
    typer.echo(
        f"valid: {kind} {t.piece.name}'s tour of {t.board}, {len(t)} squares, "
        f"from {t.board.name(t.start)} to {t.board.name(t.end)}{reentrant}"
    )


# -- serve ---------------------------------------------------------------------


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
) -> None:
    """Serve the web page and its JSON api (http://HOST:PORT/, schema at /docs) until Ctrl-C."""
    import socket

    from .web import serve as run_server

    try:  # a clear sentence, before uvicorn starts, when the address cannot be used
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        why = (exc.strerror or str(exc)).split(" (while")[0]
        raise InvalidArgument(f"Cannot listen on {host}:{port}: {why}.") from None
    typer.echo(f"chesstours: serving on http://{host}:{port}/ (api schema at /docs); Ctrl-C stops.", err=True)
    run_server(host, port)


# -- entry point -----------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (also used by ``python -m chesstours``)."""
    try:
        result = app(args=argv, prog_name="chesstours", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except NoTour as exc:
        typer.echo(f"chesstours: {exc.reason}", err=True)
        return EXIT_NO_TOUR
    except LimitReached as exc:
        typer.echo(f"chesstours: {exc}", err=True)
        return EXIT_LIMIT
    except ChessToursError as exc:
        typer.echo(f"chesstours: {exc}", err=True)
        return EXIT_USAGE
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("chesstours: interrupted.", err=True)
        return EXIT_INTERRUPT
    except Exception as exc:
        # The argument parser's own errors (unknown option, missing argument ...).
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help(), err=True)
        else:
            typer.echo(f"chesstours: {_one_line(exc.format_message())}", err=True)
        return int(exc.exit_code) or EXIT_USAGE
    except KeyboardInterrupt:
        typer.echo("chesstours: interrupted.", err=True)
        return EXIT_INTERRUPT
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        try:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115
        except OSError:
            pass
        return 0


def _one_line(message: str) -> str:
    text = " ".join(message.split())
    return text if text.endswith((".", "?", "!")) else text + "."


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
