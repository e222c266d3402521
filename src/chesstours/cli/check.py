"""``chesstours check``: check a tour, or with ``--bishop`` a bishop route."""

from __future__ import annotations

from typing import Optional

import typer

from ..errors import InvalidArgument
from ..reading import read_input
from ..tour import Tour
from . import bishop as bishop_cli
from .arrays import is_npy, is_npz, npy_tour, npz_tour
from .common import PIECE_HELP, HolesOpt, app, complete_piece, fail

# -- check ---------------------------------------------------------------------


@app.command()
def check(
    file: str = typer.Argument(..., metavar="FILE", help="A tour as moves (a1 c2 ...), as a numbered grid, as JSON (or JSON lines: many tours), as .npz (--format npz: the path with its board), or as .npy (the path alone: with --board); - reads stdin."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help="Board size for a moves file (default: the smallest board holding every square)."),
    closed: Optional[bool] = typer.Option(None, "--closed/--open", help="Whether the tour must be closed (JSON: its own flag)."),
    piece: Optional[str] = typer.Option(None, "--piece", "-p", metavar="PIECE", help="The leaper (default: knight, or the JSON's piece): " + PIECE_HELP,
                                         autocompletion=complete_piece),
    holes: str = HolesOpt,
    bishop: bool = typer.Option(False, "--bishop", help="Check a bishop route (the bishop puzzle's rule) instead of a tour."),
    end: Optional[str] = typer.Option(None, "--end", metavar="opposite|any|SQ", help="With --bishop: the end rule (default: the JSON's own, else opposite)."),
) -> None:
    """Check a tour (or, with --bishop, a bishop route): exit 0 when valid, 1 naming the first illegal step."""
    data = read_input(file)  # at most reading.MAX_INPUT_BYTES, whatever the file is
    npz = file.lower().endswith(".npz") or is_npz(data)
    if npz or file.lower().endswith(".npy") or is_npy(data):
        text = None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if file == "-":
                raise InvalidArgument("Standard input is not text (UTF-8): give a tour as moves or JSON.") from None
            raise InvalidArgument(f"{file} is not text (UTF-8): give a tour as moves or JSON, or a .npz or .npy "
                                  "file.") from None
    if bishop:
        if closed is not None or piece is not None:
            raise InvalidArgument("--closed and --piece are for tours; a bishop route has neither.")
        if text is None:
            raise InvalidArgument("A bishop route is text (steps, slides or JSON), not a NumPy file.")
        bishop_cli.check_route(text, board, holes, end)
        return
    if end is not None:
        raise InvalidArgument("--end applies to bishop routes only (with --bishop).")
    if npz:
        if board is not None or holes:
            raise InvalidArgument(f"{file} holds its own board; drop --board and --holes.")
        tours = [npz_tour(file, data, piece, closed)]
    elif text is None:
        tours = [npy_tour(file, board, holes, piece, closed, data)]
    else:
        tours = Tour.parse_all(text, board=board, holes=holes, piece=piece, closed=closed)
    for i, t in enumerate(tours, 1):
        problem = t.problem()
        if problem:
            raise fail(f"invalid: {problem}" if len(tours) == 1 else f"invalid: tour {i} of {len(tours)}: {problem}", 1)
    if len(tours) > 1:
        kinds = sorted({f"{'closed' if t.closed else 'open'} {t.piece.name}'s tours of {t.board}" for t in tours})
        typer.echo(f"valid: {len(tours)} tours, {' and '.join(kinds)}")
        return
    t = tours[0]
    kind = "closed" if t.closed else "open"
    reentrant = "" if t.closed or not t.is_reentrant() else " (its ends are one move apart: it can be closed)"
    typer.echo(
        f"valid: {kind} {t.piece.name}'s tour of {t.board}, {len(t)} squares, "
        f"from {t.board.name(t.start)} to {t.board.name(t.end)}{reentrant}"
    )
