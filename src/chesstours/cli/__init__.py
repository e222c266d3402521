"""The ``chesstours`` command line: a thin layer over the api.

Each command parses its arguments, calls one api function and renders the
result. Every way a run ends has an exit status of its own
(:data:`~chesstours.cli.common.EXIT_STATUSES`): errors a user can make print one
sentence on stderr and exit with status 2; "no tour exists" is an answer and
exits with status 1, a heuristic that gave up with 4; a time limit reached
without an answer exits with 3, a problem of the machine (a full disk) with 5,
a bug with 70 (its traceback saved in a file), and Ctrl-C with 130 (SIGTERM 143,
SIGHUP 129).

The commands live one module a topic (``find``, ``count``, ``check``, ``exists``,
``bishop``, ``trace``, ``kernels``: ``compile``); importing them here registers them on :data:`app` in
the order ``--help`` lists them.
"""

from __future__ import annotations

import _thread
import atexit
import functools
import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn, Optional

import typer
import typer.main
from typer.completion import Shells, completion_init, install_callback, show_callback

from .. import __version__
from ..errors import ChessToursError, GaveUp, InvalidArgument, LimitReached, NoTour, ResourceError, os_reason
from ..stops import STOPS, end_at_once, record_stops, words
from .common import (
    BOUND_COMPILING,
    EXIT_ENVIRONMENT,
    EXIT_INTERNAL,
    EXIT_INTERRUPT,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_STATUSES,
    EXIT_USAGE,
    STREAM_ABOVE,
    Interrupted,
    PipeClosed,
    Signalled,
    app,
    end_now,
    interrupt_status,
    interrupted,
    no_tour_status,
)

# isort: off
# The commands, in the order of --help (importing a module registers its commands).
from . import find  # noqa: F401  tour, tours
from . import count  # noqa: F401
from . import sample  # noqa: F401  sample, stats
from . import check  # noqa: F401
from . import exists  # noqa: F401
from . import bishop  # noqa: F401
from . import trace  # noqa: F401
from . import kernels  # noqa: F401  compile
# isort: on

__all__ = ["app", "main", "entry", "end_now", "STREAM_ABOVE", "EXIT_STATUSES"]


# -- the program itself ---------------------------------------------------------------


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"chesstours {__version__}")
        raise typer.Exit()


_SHELLS = ", ".join(shell.value for shell in Shells)


@app.callback()
def _program(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
    install_completion: Optional[Shells] = typer.Option(
        None, "--install-completion", metavar="SHELL", callback=install_callback, expose_value=False,
        is_eager=True, case_sensitive=False, help=f"Install completion for SHELL ({_SHELLS})."),
    show_completion: Optional[Shells] = typer.Option(
        None, "--show-completion", metavar="SHELL", callback=show_callback, expose_value=False,
        is_eager=True, case_sensitive=False,
        help=f"Show completion for SHELL ({_SHELLS}), to copy it or customize the installation."),
) -> None:
    pass


# -- serve ---------------------------------------------------------------------


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
) -> None:
    """Serve the web page and its JSON api (http://HOST:PORT/, schema at /docs) until Ctrl-C."""
    import socket

    from ..web import serve as run_server
    from ..web.server import check_host, url

    check_host(host)
    address = url(host, port).removeprefix("http://")
    try:  # a clear sentence, before uvicorn starts, when the address cannot be used
        with socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET):
            pass
    except OSError as exc:
        why = (exc.strerror or str(exc)).split(" (while")[0]
        raise InvalidArgument(f"Cannot listen on {address}: {why}.") from None
    typer.echo(f"chesstours: serving on {url(host, port)}/ (api schema at /docs); Ctrl-C stops.", err=True)
    run_server(host, port)


# -- entry point -----------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (also used by ``python -m chesstours``).

    Every way a run can end has its own status (:data:`~chesstours.cli.common.EXIT_STATUSES`),
    and every one but success says why in one line on standard error; a traceback
    never reaches the terminal.
    """
    came: list[int] = []
    try:
        with _signals_raise_interrupts(came):
            try:
                status = _run(argv)
            except KeyboardInterrupt as exc:  # between commands: while parsing, or in main itself
                typer.echo(f"chesstours: {interrupted(exc)}.", err=True)
                status = interrupt_status(exc)
    except KeyboardInterrupt as exc:  # as the command ended, before the handlers were put back
        typer.echo(f"chesstours: {interrupted(exc)}.", err=True)
        status = interrupt_status(exc)
    # a signal that came once the handlers no longer raised did not end the command
    return _stopped(status, came)


def entry(stops: list[int] | None = None) -> NoReturn:
    """The ``chesstours`` program (and ``python -m chesstours``): :func:`main`, then the process ends with its
    status at once (see :func:`leave`).

    ``stops`` records the stop signals since the program started (:func:`chesstours.__main__.run` takes them
    before this module is imported): one that came before :func:`main`, or that comes after it, ends the
    program with its status, as one during a command does."""
    if stops is None:
        stops = record_stops()
    BOUND_COMPILING["on"] = True  # the program itself: a time limit may end it while a kernel compiles
    leave(_stopped(EXIT_OK, stops) if stops else main(), stops)


def _stopped(status: int, came: list[int]) -> int:
    """``status``, or the exit status of the first stop signal that ``came`` (said on standard error) where
    the run did not end by it."""
    if not came or status == 128 + came[0]:
        return status
    typer.echo(f"chesstours: {words(came[0])}.", err=True)
    return 128 + came[0]


def leave(status: int, stops: list[int] | None = None) -> NoReturn:
    """End this process with ``status`` once its exit handlers have run, without the interpreter's teardown.

    Once numba has loaded compiled kernels, the teardown (freeing every
    object of the compiler one by one) takes about half a second after the
    answer is printed, a third of a warm ``chesstours count 6x6 --closed``.
    Nothing of the program's own waits for it: the exit handlers still run
    (compiling processes stopped, temporary folders removed, logs flushed)
    and the standard streams are flushed, then the process ends (the exit
    handlers include multiprocessing's, which tell its resource tracker of
    every semaphore a pool made). Where a thread that is not a daemon still
    runs, a profiler or a tracer watches (it reports once the program is
    over), or this Python has no way to run the exit handlers first, the
    process ends the usual way.

    With ``stops`` (:func:`entry`'s), a stop signal that came meanwhile gives the process its status, and
    one in the interpreter's teardown ends it at once with its status.
    """
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    main_thread = threading.main_thread()
    running = [t for t in threading.enumerate() if t is not main_thread and not t.daemon and t.is_alive()]
    watched = sys.getprofile() is not None or sys.gettrace() is not None  # a profiler, a debugger, coverage
    if run_handlers is None or running or watched:
        if stops is not None:
            end_at_once()
            status = _stopped(status, stops)
        sys.exit(status)
    run_handlers()
    if stops is not None:
        end_at_once()
        status = _stopped(status, stops)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: a process started without the stream
                stream.flush()
        except (OSError, ValueError):  # a reader gone, or a stream closed: nothing more can reach it
            pass
    os._exit(status)


@functools.cache
def _command() -> Any:
    """The app as the argument parser's command, built once (Typer would build it again on every call)."""
    completion_init()  # Typer's completion of each shell, which its own completion options would set up
    return typer.main.get_command(app)


def _run(argv: list[str] | None) -> int:
    try:
        result = _command().main(args=argv, prog_name="chesstours", standalone_mode=False)
        return result if isinstance(result, int) else EXIT_OK
    except (NoTour, GaveUp) as exc:
        typer.echo(f"chesstours: {exc.reason}", err=True)
        return no_tour_status(exc)
    except LimitReached as exc:
        typer.echo(f"chesstours: {exc}", err=True)
        return EXIT_LIMIT
    except ResourceError as exc:
        typer.echo(f"chesstours: {exc}", err=True)
        return EXIT_ENVIRONMENT
    except ChessToursError as exc:
        typer.echo(f"chesstours: {exc}", err=True)
        return EXIT_USAGE
    except typer.Exit as exc:
        return exc.exit_code
    except Interrupted as exc:
        typer.echo(f"chesstours: {interrupted(exc.__cause__)}.", err=True)
        return exc.status
    except typer.Abort:  # end of input at a prompt
        typer.echo("chesstours: interrupted.", err=True)
        return EXIT_INTERRUPT
    except (PipeClosed, BrokenPipeError):
        _quiet_stdout()
        return EXIT_OK
    except MemoryError:
        typer.echo("chesstours: out of memory: this machine cannot hold what the request needs; "
                   "try a smaller board or a method that needs less.", err=True)
        return EXIT_ENVIRONMENT
    except OSError as exc:
        typer.echo(f"chesstours: {_os_sentence(exc)}", err=True)
        return EXIT_ENVIRONMENT
    except Exception as exc:
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # the argument parser's own errors
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help(), err=True)
            else:
                typer.echo(f"chesstours: {_one_line(exc.format_message())}", err=True)
                hint = _help_hint(ctx)
                if hint is not None:
                    typer.echo(hint, err=True)
            return EXIT_USAGE
        return _internal_error(exc)


def _help_hint(ctx: Any) -> str | None:
    """The argument parser's hint after a usage error, "Try 'chesstours tour --help' for help.", as click
    writes it below its usage: the command's help, or the program's where the error names no command."""
    from gettext import gettext as _  # the sentence as click words it (and translates it)

    if ctx is not None and ctx.command.get_help_option(ctx) is None:
        return None
    command = "chesstours" if ctx is None else ctx.command_path
    option = "--help" if ctx is None else ctx.help_option_names[0]
    return _("Try '{command} {option}' for help.").format(command=command, option=option)


def _one_line(message: str) -> str:
    text = " ".join(message.split())
    return text if text.endswith((".", "?", "!")) else text + "."


def _os_sentence(exc: OSError) -> str:
    """One sentence for an error of the system: what it is, and the file it concerns."""
    why = os_reason(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{why[:1].upper()}{why[1:]}{where}; this is a problem of the machine, not of the request."


def _internal_error(exc: BaseException) -> int:
    """A bug: one line on the terminal, the traceback in a file."""
    import tempfile
    import traceback

    what = _one_line(f"{type(exc).__name__}: {exc}").rstrip(".")
    if len(what) > 200:
        what = what[:197] + "..."
    try:
        fd, path = tempfile.mkstemp(prefix="chesstours-traceback-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"chesstours {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n")
            fh.write(f"arguments: {sys.argv[1:]!r}\n\n")
            fh.write("".join(traceback.format_exception(exc)))
        saved = f"with the traceback saved in {path}"
    except OSError as why:
        saved = f"(the traceback could not be saved: {why.strerror or why})"
    typer.echo(f"chesstours: internal error: {what}; this is a bug; please report it {saved}.", err=True)
    return EXIT_INTERNAL


def _quiet_stdout() -> None:
    """After a closed pipe, send what is left of standard output to /dev/null (as the Python docs advise)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing will be flushed to a closed pipe


@contextmanager
def _signals_raise_interrupts(came: list[int]) -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Signalled`, a KeyboardInterrupt, so that they clean up as Ctrl-C does,
    and Ctrl-C raises KeyboardInterrupt; every such signal is recorded in ``came``.

    A second SIGTERM or SIGHUP while cleaning up ends the program at once (the
    default action). While the handlers are put in place and back, a signal is
    only recorded. An interrupt raised in an object's finalizer (a generator
    closed as it is freed), which Python reports with a traceback and drops, is
    not reported but sent again. Only the main thread can install handlers;
    elsewhere nothing changes, and a signal ignored on entry (``nohup``) stays
    ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raising = False

    def stop(signum: int, frame: object) -> None:
        came.append(signum)
        if not raising:
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        signal.signal(signum, signal.SIG_DFL)
        raise Signalled(signum)

    def dropped(unraisable: Any) -> None:
        exc = unraisable.exc_value
        if not (raising and isinstance(exc, KeyboardInterrupt)):
            hook(unraisable)
            return
        # sent from another thread, not raised here (the hook's own error is dropped too): the handler runs
        # once this thread is back in the command's code
        signum = int(getattr(exc, "signum", signal.SIGINT))
        signal.signal(signum, stop)  # stop put the default action back
        _thread.start_new_thread(os.kill, (os.getpid(), signum))

    previous = {}
    hook = sys.unraisablehook
    try:
        sys.unraisablehook = dropped
        for sig in STOPS:
            try:
                if signal.getsignal(sig) is signal.SIG_IGN:
                    continue
                previous[sig] = signal.signal(sig, stop)
            except (ValueError, OSError):
                continue
        raising = True
        if came:  # one came while the handlers were put in place
            stop(came.pop(0), None)
        yield
    finally:
        raising = False
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.unraisablehook = hook


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
