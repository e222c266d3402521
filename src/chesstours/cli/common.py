"""What every command shares: the Typer app, the options, and how tours and pictures are written."""

from __future__ import annotations

import atexit
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterator, NoReturn, Optional

import typer
from typer.core import TyperGroup

from .. import policy
from ..board import Board
from ..errors import GaveUp, InvalidArgument, NoTour
from ..output import check_output, open_atomic, write_atomic
from ..pieces import piece_names
from ..render.text import render_tour, tour_chunks
from ..stops import words
from ..tour import Tour

# -- exit statuses -----------------------------------------------------------------

#: Every exit status of the command line, one meaning each; docs/guide/cli.md shows this table.
EXIT_OK = 0
EXIT_NO_TOUR = 1
EXIT_USAGE = 2
EXIT_LIMIT = 3
EXIT_GAVE_UP = 4
EXIT_ENVIRONMENT = 5
EXIT_INTERNAL = 70
EXIT_INTERRUPT = 128 + signal.SIGINT  # 130
EXIT_HANGUP = 128 + signal.SIGHUP  # 129
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143

EXIT_STATUSES = {
    EXIT_OK: "done; also every answer of `exists`, which is yes, no or unknown",
    EXIT_NO_TOUR: "no tour exists (the reason is on standard error); `check`: the tour is not valid",
    EXIT_USAGE: "bad input: one sentence on standard error, no traceback",
    EXIT_LIMIT: "a time or node limit ran out before an answer",
    EXIT_GAVE_UP: "a heuristic method (`--method warnsdorff`) got stuck; a tour may still exist",
    EXIT_ENVIRONMENT: "a problem of the machine, named on standard error: a full disk, a permission "
                      "refused, memory run out",
    EXIT_INTERNAL: "an internal error, a bug: the traceback is saved in a file whose name is shown",
    EXIT_HANGUP: "stopped by SIGHUP (the terminal closed)",
    EXIT_INTERRUPT: "interrupted (Ctrl-C)",
    EXIT_TERMINATED: "stopped by SIGTERM",
}


class Signalled(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C's KeyboardInterrupt would be, so that the same clean-up runs."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    def __reduce__(self) -> tuple:
        """Pickled by its signal's number, so that it is rebuilt whole where it crosses to another process."""
        return (type(self), (self.signum,))


def interrupt_status(exc: BaseException | None = None) -> int:
    """The exit status of an interrupt: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + int(getattr(exc, "signum", signal.SIGINT))


def interrupted(exc: BaseException | None = None) -> str:
    """How an interrupt is told: "interrupted" for Ctrl-C, "stopped by SIGTERM" for a signal."""
    return words(int(getattr(exc, "signum", signal.SIGINT)))


def no_tour_status(exc: NoTour | GaveUp) -> int:
    """1 when no tour exists (as far as a complete method knows); 4 when only a heuristic gave up."""
    return EXIT_GAVE_UP if exc.proof == "heuristic" else EXIT_NO_TOUR


class Interrupted(Exception):
    """A KeyboardInterrupt (or :class:`Signalled`) that left a command, carried past Typer to ``main``."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class PipeClosed(Exception):
    """Standard output's reader went away (``| head``), carried past Typer to ``main``."""


class _Commands(TyperGroup):
    """The app's group: an interrupt or a closed pipe leaves a command as itself, not as Typer's exit 130 or 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise Interrupted(interrupt_status(exc)) from exc
        except BrokenPipeError as exc:
            raise PipeClosed() from exc
        except RuntimeError as exc:
            # Python wraps an exception raised while a class is made (a signal's interrupt in a module's
            # import, say) in a RuntimeError: the interrupt is still the interrupt.
            if isinstance(exc.__cause__, KeyboardInterrupt):
                raise Interrupted(interrupt_status(exc.__cause__)) from exc.__cause__
            raise
        finally:
            end_time_bound()


app = typer.Typer(
    name="chesstours",
    cls=_Commands,
    help="Knight's tours and other leaper tours: find, list, count and check them on any board.",
    add_completion=False,  # the program's own completion options take the shell (cli/__init__.py)
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["--help", "-h"]},  # --help first: the one a usage error's hint names
)

# The choices are :mod:`chesstours.policy`'s, so the command line offers what the library does.
Method = Enum("Method", {m: m for m in policy.FIND_METHODS}, type=str)  # type: ignore[misc]
CountMethod = Enum("CountMethod", {m: m for m in policy.COUNT_METHODS}, type=str)  # type: ignore[misc]
Tiebreak = Enum("Tiebreak", {t: t for t in policy.TIEBREAKS}, type=str)  # type: ignore[misc]
Order = Enum("Order", {o: o for o in policy.ORDERS}, type=str)  # type: ignore[misc]


class TourFormat(str, Enum):
    grid = "grid"
    moves = "moves"
    json = "json"
    npy = "npy"
    npz = "npz"
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


def complete_piece(incomplete: str) -> list[str]:
    """The names of pieces that begin with what is typed (shell completion of --piece)."""
    return [name for name in piece_names() if name.startswith(incomplete.lower())]


#: --piece's help: every piece known by name, from the one table of them (:data:`chesstours.pieces.NAMED_PIECES`).
PIECE_HELP = f"{', '.join(piece_names())}, or a leap A,B such as 2,3."
PieceOpt = typer.Option("knight", "--piece", "-p", metavar="PIECE", help=PIECE_HELP, autocompletion=complete_piece)
HolesOpt = typer.Option("", "--holes", metavar="SQ,SQ...", help="Squares removed from the board.")


# -- the time limit of the whole command ------------------------------------------


#: Whether a time limit ends the program itself when it runs out while a kernel compiles (:func:`time_bound`):
#: set for the ``chesstours`` program (:func:`chesstours.cli.entry`), not where :func:`chesstours.cli.main`
#: is called as a function in a longer-lived process.
BOUND_COMPILING = {"on": False}
#: The watch of the command running now (:func:`time_bound`), stopped when it ends (:func:`end_time_bound`).
_WATCHES: list[threading.Event] = []


def time_bound(ctx: Any, param: Any, value: Optional[float]) -> Optional[float]:
    """``--time-limit``'s callback: the limit bounds the whole command, compiling included.

    The searches stop themselves at their deadline, and wait for kernels compiling in other processes
    only until it; but numba compiles a kernel in this process in one piece, seconds long on an empty
    compile cache, and no deadline stops it. From the moment the option is read, a watch waits the
    limit out; past it, while a kernel compiles here (:func:`chesstours.runtime.compile_events.compiling_since`),
    the program says so and ends with status 3. A kernel compiled whole stays in the compile cache.
    """
    if (value is None or ctx.resilient_parsing or not BOUND_COMPILING["on"] or not isinstance(value, float)
            or not 0 <= value < float("inf")):
        return value
    stop = threading.Event()
    _WATCHES.append(stop)
    deadline = time.perf_counter() + value
    threading.Thread(target=_watch, args=(value, deadline, stop), name="chesstours-time-limit", daemon=True).start()
    return value


def end_time_bound() -> None:
    """Stop the watch of :func:`time_bound`: the command has ended."""
    while _WATCHES:
        _WATCHES.pop().set()


def _watch(limit: float, deadline: float, stop: threading.Event) -> None:
    from ..runtime.compile_events import compiling_since
    from ..settings import COMPILE_POLL

    if stop.wait(max(0.0, deadline - time.perf_counter())):
        return
    while not stop.is_set():
        if compiling_since() is not None:
            say(f"Stopped at the time limit ({limit:g} s) while compiling the kernels this first run needs, "
                "before an answer. Each kernel compiled whole stays in the compile cache; `chesstours compile` "
                "compiles them all once, ahead.")
            end_now(EXIT_LIMIT)
        stop.wait(COMPILE_POLL)


def end_now(status: int) -> NoReturn:
    """End the program at once with ``status``, from any thread, while the main thread still works (a
    kernel compiling past the time limit, :func:`time_bound`): the exit handlers run
    (compiling processes stopped, temporary folders removed), the standard streams are flushed, and the
    process ends."""
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is not None:
        run_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


TimeOpt = typer.Option(None, "--time-limit", "-t", metavar="SECONDS", callback=time_bound,
                       help="Stop after this many seconds (compiling kernels on a first run included).")
NumbersOpt = typer.Option(False, "--numbers", help="Pictures: step numbers on the squares (while they fit).")
StreamFormatOpt = typer.Option(None, "--format", "-f", help="moves (default): one tour per line; json: JSON lines; "
                               "svg, png, gif: a picture of the first tour (-o FILE).")
StreamOutputOpt = typer.Option(None, "--output", "-o", metavar="FILE",
                               help="The picture file (svg, png, gif: the first tour); - is stdout.")
SizeOpt = typer.Option(None, "--size", metavar="PIXELS", help="Pictures: the longer side in pixels (64-4096; default 64 a square, 320-1200; animations at most 640).")
FpsOpt = typer.Option(None, "--fps", metavar="N", help="Animations: moves a second (default 8; trace: events a second, default 2).")
JobsOpt = typer.Option(None, "--jobs", "-j", metavar="N", help="Run the search as tasks in N local processes (default without it: threads in this process).")
ClusterOpt = typer.Option(None, "--cluster", metavar="tcp://HOST:PORT", help="Run the tasks on the Dask scheduler at this address (pip install 'chesstours[cluster]').")
WhereOpt = typer.Option(None, "--where", metavar="PROPERTY", help="Only tours with a property: symmetric (a half turn), symmetric90 (a quarter turn), or clues such as a1=1,h8=64; several joined by ';'.")
ProgressOpt = typer.Option(True, "--progress/--no-progress", help="Show progress on a terminal.")
PlanOpt = typer.Option(False, "--plan", help="Print the plan -- the method, why, and its estimated states, memory and time -- and run nothing.")
AnimateOpt = typer.Option(False, "--animate", help="svg: an animated picture where the knight moves along its tour (gif always is).")


def parse_board(text: str, holes: str) -> Board:
    return Board.parse(text, holes)


def print_plan(plan: policy.Plan, as_json: bool) -> None:
    """Print a plan (``--plan``): its lines, or one JSON object."""
    if as_json:
        typer.echo(json.dumps(plan.to_dict()))
    else:
        typer.echo("\n".join(plan.lines()))


def output_target(text: Optional[str]) -> Optional[Path]:
    """The file of ``-o/--output``, refused before any work when it can never be written; None when not given.

    ``-`` (standard output) stays ``Path("-")``; a name with an extension that
    says no format chesstours writes (``x.pdf``) is refused.
    """
    if text is None:
        return None
    check_output(text)
    path = Path(text)
    suffix = path.suffix.lower()
    if text != "-" and suffix and not _written_in_place(path):
        from ..render.picture import OUTPUT_EXTENSIONS

        if suffix not in OUTPUT_EXTENSIONS:
            known = ", ".join(OUTPUT_EXTENSIONS[:-1]) + " or " + OUTPUT_EXTENSIONS[-1]
            raise InvalidArgument(f"Cannot write {text}: {path.suffix} is not an extension chesstours writes; "
                                  f"use {known} (or no extension, or - for standard output).")
    return path


def _written_in_place(path: Path) -> bool:
    """A FIFO or a device: written whatever its name."""
    try:
        return path.exists() and not path.is_file()
    except OSError:
        return False


def say(message: str) -> None:
    """Print ``message`` on stderr as one line of the program's ("chesstours: ..."), once any progress display
    has ended: a line of its own, never written over the bar."""
    end_progress()
    typer.echo(f"chesstours: {message}", err=True)


def echo_above(text: str) -> None:
    """Print a line of output on stdout; where the progress display and stdout share the terminal, above the
    bar, never over it (Rich prints it there)."""
    if _SHOWN and sys.stdout.isatty():
        _SHOWN[-1].console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        typer.echo(text)


def fail(message: str, code: int) -> typer.Exit:
    """Say ``message`` (:func:`say`) and give the exit that ends the command with status ``code``."""
    say(message)
    return typer.Exit(code)


#: The progress display on the terminal now, if any (:func:`progress_display`).
_SHOWN: list[Any] = []


def end_progress() -> None:
    """Take the progress display off the terminal, if one is there: what is printed next starts a clean line.
    Its updates after this show nothing."""
    while _SHOWN:
        _SHOWN.pop().stop()


def _may_colour(stream: Any) -> bool:
    """Whether Rich could call ``stream`` a terminal: it is one, or the environment says to treat it as one
    (``FORCE_COLOR``, ``TTY_COMPATIBLE``); else Rich is not asked (nor imported)."""
    isatty = getattr(stream, "isatty", None)
    return bool((isatty is not None and isatty()) or os.environ.get("FORCE_COLOR")
                or os.environ.get("TTY_COMPATIBLE"))


def progress_console() -> Any:
    """The Rich console the progress display draws on: standard error (its colours as Rich reads the
    environment: NO_COLOR, FORCE_COLOR)."""
    from rich.console import Console

    return Console(stderr=True)


@contextmanager
def progress_display(label: str, enabled: bool = True) -> Iterator[Callable[..., None] | None]:
    """A Rich progress display on stderr when it is a terminal; yields an update callback or None.

    It ends (and leaves nothing on the terminal) when the ``with`` block ends, or sooner when the program has
    something to say (:func:`say`, :func:`end_progress`).
    """
    # a bar is drawn on a terminal only: FORCE_COLOR colours output, it does not animate a log or a pipe
    console = progress_console() if enabled and sys.stderr.isatty() else None
    if console is None or not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(label, total=None, info="")

    def update(done: int | None = None, total: int | None = None, info: str = "") -> None:
        bar.update(task, completed=done, total=total, info=info)

    bar.start()
    _SHOWN.append(bar)
    try:
        yield update
    finally:
        if bar in _SHOWN:
            _SHOWN.remove(bar)
        bar.stop()


def write_picture(data: bytes, output: Optional[Path]) -> None:
    """Write a picture to ``output`` (atomically), or an SVG to stdout when there is no file."""
    if output is None:
        sys.stdout.write(data.decode())
        sys.stdout.flush()
    else:
        write_atomic(output, data)


def emit(text: str, output: Optional[Path]) -> None:
    if output is None:
        typer.echo(text)
    else:
        write_atomic(output, text if text.endswith("\n") else text + "\n")


# -- large tours: streamed text and NumPy output ------------------------------------

#: Tours with more squares than this are written in chunks, never as one string.
STREAM_ABOVE = 1 << 16


def emit_tour(found: Tour, fmt: str, output: Optional[Path]) -> None:
    """Write a tour in ``fmt``: small ones as one string, large ones streamed chunk by chunk."""
    if fmt in ("npy", "npz"):
        if output is None:
            raise InvalidArgument(f"--format {fmt} writes a binary file; give it with -o FILE.")
        from .arrays import save_tour_array

        open_atomic(output, lambda fh: save_tour_array(fh, found, fmt))
        return
    if len(found) <= STREAM_ABOVE:
        emit(render_tour(found, fmt), output)
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


# -- pictures and traces ---------------------------------------------------------

_BINARY = ("png", "gif")


def picture_format(fmt: str | None, output: Optional[Path], animate: bool, default: str) -> str:
    """The format to write: ``fmt``, else the extension of ``output``, else ``default``; checked against -o."""
    from ..render.picture import format_for

    kind = fmt or (format_for(output) if output is not None else None) or default
    if kind in _BINARY and output is None:
        raise InvalidArgument(f"{kind.upper()} is a binary format: give a file to write with -o FILE.")
    if animate and kind not in ("svg", "gif"):
        raise InvalidArgument("--animate goes with --format svg (a gif is always animated).")
    return kind


def tour_format(fmt: str | None, output: Optional[Path], animate: bool) -> str:
    return picture_format(fmt, output, animate, "grid")


def stream_picture(fmt: str | None, output: Optional[Path], animate: bool) -> str | None:
    """The picture format ``tours`` should draw its first tour in, or None to list tours."""
    if output is None and fmt not in ("svg", "png", "gif"):
        if animate:
            raise InvalidArgument("--animate goes with --format svg or gif.")
        return None
    kind = picture_format(fmt, output, animate, "moves")
    if kind not in ("svg", "png", "gif"):
        raise InvalidArgument("tours writes to a file only pictures of its first tour: use --format svg, png or gif.")
    return kind


def check_picture(kind: str | None, board: Board, size: Optional[int], fps: Optional[float]) -> None:
    """Refuse a picture that cannot be drawn before searching for the tour."""
    if kind in ("svg", "png", "gif"):
        from ..render.picture import check_request

        check_request(kind, board, size, fps)


def show_tour(found: Tour, kind: str, output: Optional[Path], deadline: float | None = None, **picture) -> None:
    """Print or write ``found`` as ``kind``: a text format, or a picture (svg on stdout when no file).

    A GIF stops being drawn past ``deadline`` (:class:`~chesstours.errors.LimitReached`).
    """
    if kind in ("svg", "png", "gif"):
        from ..render.picture import draw_tour

        write_picture(draw_tour(found, kind, deadline=deadline, **picture), output)
        return
    if kind == "grid" and output is None and len(found) <= 4096 and _may_colour(sys.stdout):
        from rich.console import Console

        console = Console(highlight=False)  # a terminal, or FORCE_COLOR set; NO_COLOR: without colour
        if console.is_terminal:
            from ..render.terminal import colour_grid

            console.print(colour_grid(found), no_wrap=True, overflow="ignore", crop=False)
            return
    emit_tour(found, kind, output)
