"""The ``chesstours`` command line: a thin layer over the api.

Each command parses its arguments, calls one api function and renders the
result. Errors a user can make print one sentence on stderr and exit with
status 2; "no tour exists" is an answer and exits with status 1; a time
limit reached without an answer exits with 3, and Ctrl-C with 130.

The commands live one module a topic (``find``, ``count``, ``check``, ``exists``,
``bishop``, ``trace``); importing them here registers them on :data:`app` in
the order ``--help`` lists them.
"""

from __future__ import annotations

import sys

import typer

from ..errors import ChessToursError, InvalidArgument, LimitReached, NoTour
from .common import EXIT_INTERRUPT, EXIT_LIMIT, EXIT_NO_TOUR, EXIT_USAGE, STREAM_ABOVE, app

# isort: off
# The commands, in the order of --help (importing a module registers its commands).
from . import find  # noqa: F401  tour, tours
from . import count  # noqa: F401
from . import check  # noqa: F401
from . import exists  # noqa: F401
from . import bishop  # noqa: F401
from . import trace  # noqa: F401
# isort: on

__all__ = ["app", "main", "STREAM_ABOVE"]


# -- serve ---------------------------------------------------------------------


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
) -> None:
    """Serve the web page and its JSON api (http://HOST:PORT/, schema at /docs) until Ctrl-C."""
    import socket

    from ..web import serve as run_server

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
