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

import numpy as np
import typer

from . import api
from .board import Board
from .errors import ChessToursError, InvalidArgument, LimitReached, NoTour
from .output import open_atomic, write_atomic
from .pieces import parse_piece
from .render.text import render_tour, tour_chunks
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
    construct = "construct"


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
    npy = "npy"
    svg = "svg"
    png = "png"
    gif = "gif"


class StreamFormat(str, Enum):
    moves = "moves"
    json = "json"
    svg = "svg"
    png = "png"
    gif = "gif"


# -- shared options ------------------------------------------------------------

BoardArg = typer.Argument(..., metavar="BOARD", help="Board size: ROWSxCOLS such as 8x8 or 5x6, or one number (8 means 8x8).")
StartOpt = typer.Option(None, "--start", "-s", metavar="SQ", help="First square, such as a1.")
EndOpt = typer.Option(None, "--end", "-e", metavar="SQ", help="Last square.")
ClosedOpt = typer.Option(False, "--closed", "-c", help="Closed tours: the last square leaps back to the first.")
PieceOpt = typer.Option("knight", "--piece", "-p", metavar="PIECE", help="knight, camel, zebra, giraffe, or a leap A,B such as 2,3.")
HolesOpt = typer.Option("", "--holes", metavar="SQ,SQ...", help="Squares removed from the board.")
TimeOpt = typer.Option(None, "--time-limit", "-t", metavar="SECONDS", help="Stop after this many seconds.")
NumbersOpt = typer.Option(False, "--numbers", help="Pictures: step numbers on the squares (while they fit).")
SizeOpt = typer.Option(None, "--size", metavar="PIXELS", help="Pictures: the longer side in pixels (64-4096; default 64 a square, 320-1200; animations at most 640).")
FpsOpt = typer.Option(None, "--fps", metavar="N", help="Animations: moves a second (default 8; trace: events a second, default 2).")
AnimateOpt = typer.Option(False, "--animate", help="svg: an animated picture where the knight moves along its tour (gif always is).")


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


def _write_picture(data: bytes, output: Optional[Path]) -> None:
    """Write a picture to ``output`` (atomically), or an SVG to stdout when there is no file."""
    if output is None:
        sys.stdout.write(data.decode())
        sys.stdout.flush()
    else:
        write_atomic(output, data)


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
    method: Method = typer.Option(Method.auto, "--method", "-m", help="auto tries Warnsdorff's rule, then backtracking, and builds large boards by construction; it always finds a tour when one exists. construct: divide and conquer, any size, linear time."),
    tiebreak: Optional[Tiebreak] = typer.Option(None, "--tiebreak", help="Warnsdorff tie-break (default: roth; auto tries several)."),
    order: Order = typer.Option(Order.warnsdorff, "--order", help="Backtracking move order."),
    seed: int = typer.Option(0, "--seed", help="Seed for the random tie-break."),
    fmt: Optional[TourFormat] = typer.Option(None, "--format", "-f", help="grid (default): numbered board; moves: one line; json; npy: the path as a NumPy int32 array (needs -o); pictures: svg, png, gif (an animation). Without it, -o FILE's extension decides."),
    time_limit: Optional[float] = TimeOpt,
    node_limit: Optional[int] = typer.Option(None, "--node-limit", metavar="N", help="Most positions backtracking may visit."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
    numbers: bool = NumbersOpt,
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
    animate: bool = AnimateOpt,
) -> None:
    """Find one tour and print it, or draw it."""
    b = _board(board, holes)
    kind = _tour_format(fmt.value if fmt else None, output, animate)
    _check_picture(kind, b, size, fps)
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
    _show_tour(found, kind, output, numbers=numbers, size=size, fps=fps, animate=animate)


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
    fmt: Optional[StreamFormat] = typer.Option(None, "--format", "-f", help="moves (default): one tour per line; json: JSON lines; svg, png, gif: a picture of the first tour (-o FILE)."),
    time_limit: Optional[float] = TimeOpt,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The picture file (svg, png, gif: the first tour)."),
    numbers: bool = NumbersOpt,
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
    animate: bool = AnimateOpt,
) -> None:
    """List tours one per line, as they are found (open: every start unless --start; closed: each cycle once)."""
    b = _board(board, holes)
    if limit is not None and limit < 1:
        raise InvalidArgument(f"--limit must be at least 1, not {limit}.")
    picture = _stream_picture(fmt.value if fmt else None, output, animate)
    _check_picture(picture, b, size, fps)
    if picture:
        limit = 1
    elif fmt is None:
        fmt = StreamFormat.moves
    found = 0
    try:
        for t in api.iter_tours(b, start, end, closed, parse_piece(piece), order=order.value, time_limit=time_limit):
            if picture:
                _show_tour(t, picture, output, numbers=numbers, size=size, fps=fps, animate=animate)
                found += 1
                break
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


# -- count (chesstours.cli_count) ---------------------------------------------

from . import cli_count  # noqa: E402,F401  registers the count command here, in the help's order

# -- check ---------------------------------------------------------------------


@app.command()
def check(
    file: str = typer.Argument(..., metavar="FILE", help="A tour as moves (a1 c2 ...), as JSON, or as .npy (with --board); - reads stdin."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help="Board size for a moves file (default: the smallest board holding every square)."),
    closed: Optional[bool] = typer.Option(None, "--closed/--open", help="Whether the tour must be closed (JSON: its own flag)."),
    piece: Optional[str] = typer.Option(None, "--piece", "-p", metavar="PIECE", help="The leaper (default: knight, or the JSON's piece)."),
    holes: str = HolesOpt,
    bishop: bool = typer.Option(False, "--bishop", help="Check a bishop route (seed 001's rule) instead of a tour."),
    end: Optional[str] = typer.Option(None, "--end", metavar="opposite|any|SQ", help="With --bishop: the end rule (default: the JSON's own, else opposite)."),
) -> None:
    """Check a tour (or, with --bishop, a bishop route): exit 0 when valid, 1 naming the first illegal step."""
    if file.endswith(".npy"):
        text = None
    elif file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidArgument(f"Cannot read {file}: {exc.strerror}.") from None
    if bishop:
        if closed is not None or piece is not None:
            raise InvalidArgument("--closed and --piece are for tours; a bishop route has neither.")
        if text is None:
            raise InvalidArgument("A bishop route is text (steps, slides or JSON), not a .npy file.")
        cli_bishop.check_route(text, board, holes, end)
        return
    if end is not None:
        raise InvalidArgument("--end applies to bishop routes only (with --bishop).")
    if text is None:
        t = _npy_tour(file, board, holes, piece, closed)
    else:
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


# -- exists ----------------------------------------------------------------------


@app.command()
def exists(
    board: str = BoardArg,
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    certificate: bool = typer.Option(False, "--certificate", help="Also show an example tour (built if a theorem said yes)."),
    as_json: bool = typer.Option(False, "--json", help='Print one JSON object: {"exists": true|false|null, "proof": ..., "reason": ..., "tour": ...}.'),
    time_limit: Optional[float] = typer.Option(10.0, "--time-limit", "-t", metavar="SECONDS", help="Seconds a search may take before the answer is unknown."),
) -> None:
    """Does a tour exist? Print yes, no or unknown, the reason, and how it is known (exit status 0 for all three)."""
    from .existence import tour_exists

    b = _board(board, holes)
    try:
        with _progress("searching"):
            answer = tour_exists(b, start, end, closed, parse_piece(piece), certificate=certificate,
                                 time_limit=time_limit)
    except KeyboardInterrupt:
        raise _fail("interrupted before an answer.", EXIT_INTERRUPT) from None
    shown = answer.certificate if certificate else None
    if as_json:
        data = answer.to_dict()
        data["tour"] = None if shown is None else shown.names()
        typer.echo(json.dumps(data))
        return
    typer.echo(answer.word)
    typer.echo(answer.reason)
    how = f"proof: {answer.proof}"
    if answer.theorem:
        how += f" ({answer.theorem})"
    if answer.nodes and answer.proof != "theorem":
        how += f", {answer.nodes:,} positions searched"
    typer.echo(how)
    if answer.note:
        typer.echo(answer.note)
    if shown is not None:
        typer.echo(render_tour(shown, "grid"))
    elif answer.certificate is not None:
        typer.echo("(add --certificate to print the tour)")


# -- bishop (chesstours.cli_bishop) --------------------------------------------

from . import cli_bishop  # noqa: E402, F401  (registers the bishop command here, in the help's order)

# -- large tours: streamed text and NumPy output ------------------------------------

#: Tours with more squares than this are written in chunks, never as one string.
STREAM_ABOVE = 1 << 16


def _emit_tour(found: Tour, fmt: str, output: Optional[Path]) -> None:
    """Write a tour in ``fmt``: small ones as one string, large ones streamed chunk by chunk."""
    if fmt == "npy":
        if output is None:
            raise InvalidArgument("--format npy writes a binary file; give it with -o FILE.")
        open_atomic(output, lambda fh: np.save(fh, found.path))
        return
    if len(found) <= STREAM_ABOVE:
        _emit(render_tour(found, fmt), output)
        return

    def write(fh) -> None:
        for part in tour_chunks(found, fmt):
            fh.write(part)
        fh.write(b"\n")

    if output is None:
        write(sys.stdout.buffer)
        sys.stdout.buffer.flush()
    else:
        open_atomic(output, write)


def _npy_tour(file: str, board: Optional[str], holes: str, piece: Optional[str], closed: Optional[bool]) -> Tour:
    """A tour saved with ``--format npy``: the path alone, so the board must be given."""
    if board is None:
        raise InvalidArgument(f"{file} holds only the squares of a path; give the board with --board ROWSxCOLS.")
    try:
        path = np.load(file, allow_pickle=False)
    except OSError as exc:
        raise InvalidArgument(f"Cannot read {file}: {exc.strerror or exc}.") from None
    except ValueError:
        raise InvalidArgument(f"{file} is not a NumPy array file (.npy) of square numbers.") from None
    if path.ndim != 1 or not np.issubdtype(path.dtype, np.integer):
        raise InvalidArgument(f"{file} is not a path: a one-dimensional array of square numbers.")
    return Tour(Board.parse(board, holes), parse_piece(piece or "knight"), path, bool(closed))


# -- pictures and traces ---------------------------------------------------------

_BINARY = ("png", "gif")


def _picture_format(fmt: str | None, output: Optional[Path], animate: bool, default: str) -> str:
    """The format to write: ``fmt``, else the extension of ``output``, else ``default``; checked against -o."""
    from .render.picture import format_for

    kind = fmt or (format_for(output) if output is not None else None) or default
    if kind in _BINARY and output is None:
        raise InvalidArgument(f"{kind.upper()} is a binary format: give a file to write with -o FILE.")
    if animate and kind not in ("svg", "gif"):
        raise InvalidArgument("--animate goes with --format svg (a gif is always animated).")
    return kind


def _tour_format(fmt: str | None, output: Optional[Path], animate: bool) -> str:
    return _picture_format(fmt, output, animate, "grid")


def _stream_picture(fmt: str | None, output: Optional[Path], animate: bool) -> str | None:
    """The picture format ``tours`` should draw its first tour in, or None to list tours."""
    if output is None and fmt not in ("svg", "png", "gif"):
        if animate:
            raise InvalidArgument("--animate goes with --format svg or gif.")
        return None
    kind = _picture_format(fmt, output, animate, "moves")
    if kind not in ("svg", "png", "gif"):
        raise InvalidArgument("tours writes to a file only pictures of its first tour: use --format svg, png or gif.")
    return kind


def _check_picture(kind: str | None, board: Board, size: Optional[int], fps: Optional[float]) -> None:
    """Refuse a picture that cannot be drawn before searching for the tour."""
    if kind in ("svg", "png", "gif"):
        from .render.picture import check_request

        check_request(kind, board, size, fps)


def _show_tour(found: Tour, kind: str, output: Optional[Path], **picture) -> None:
    """Print or write ``found`` as ``kind``: a text format, or a picture (svg on stdout when no file)."""
    if kind in ("svg", "png", "gif"):
        from .render.picture import draw_tour

        _write_picture(draw_tour(found, kind, **picture), output)
        return
    if kind == "grid" and output is None and len(found) <= 4096 and sys.stdout.isatty():
        from rich.console import Console

        from .render.terminal import colour_grid

        Console(highlight=False).print(colour_grid(found), no_wrap=True, overflow="ignore", crop=False)
        return
    _emit_tour(found, kind, output)


class TraceMethod(str, Enum):
    backtrack = "backtrack"
    warnsdorff = "warnsdorff"


class TraceFormat(str, Enum):
    text = "text"
    svg = "svg"
    png = "png"
    gif = "gif"


#: Most frames a trace picture may have.
MAX_TRACE_FRAMES = 2000


@app.command()
def trace(
    board: str = BoardArg,
    start: str = typer.Option(..., "--start", "-s", metavar="SQ", help="First square, such as a1."),
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    method: TraceMethod = typer.Option(TraceMethod.backtrack, "--method", "-m", help="backtrack: the exhaustive search, step by step; warnsdorff: Warnsdorff's rule, with each open square's onward moves."),
    order: Order = typer.Option(Order.fixed, "--order", help="Backtracking move order (fixed, as in the seeds, or warnsdorff)."),
    tiebreak: Tiebreak = typer.Option(Tiebreak.roth, "--tiebreak", help="Warnsdorff tie-break."),
    seed: int = typer.Option(0, "--seed", help="Seed for the random tie-break."),
    steps: int = typer.Option(200, "--steps", "-n", metavar="N", help="Show the first N events (moves, skipped moves, steps back)."),
    fmt: Optional[TraceFormat] = typer.Option(None, "--format", "-f", help="text (default): each event and the board after it; gif or svg: one frame an event; png: the last frame. Without it, -o FILE's extension decides."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
    boards: bool = typer.Option(True, "--boards/--no-boards", help="text: print the board after each move and step back."),
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
) -> None:
    """Show a search move by move: each move, each move given up, each step back (seed 004)."""
    from itertools import islice

    from .engines.trace import trace_search

    b = _board(board, holes)
    kind = _picture_format(fmt.value if fmt else None, output, False, "text")
    if kind not in ("text", "svg", "png", "gif"):
        raise InvalidArgument(f"A trace is text or a picture (svg, png, gif), not {kind}.")
    if steps < 1:
        raise InvalidArgument(f"--steps must be at least 1, not {steps}.")
    if kind != "text" and steps > MAX_TRACE_FRAMES:
        raise InvalidArgument(f"A trace picture has at most {MAX_TRACE_FRAMES} frames; ask for fewer --steps.")
    _check_picture(kind, b, size, fps)
    events = trace_search(b, start, end, closed, piece, method.value, order=order.value, tiebreak=tiebreak.value,
                          seed=seed)
    shown = islice(events, steps)
    if kind == "text":
        from .render.trace_text import trace_lines

        lines = trace_lines(shown, b, boards)
        if output is None:
            for line in lines:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
        else:
            write_atomic(output, "".join(line + "\n" for line in lines))
        return
    from .render.picture import draw_trace

    _write_picture(draw_trace(list(shown), b, kind, size=size, fps=fps), output)


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
