"""``chesstours exists``: does a tour exist, and why (not)."""

from __future__ import annotations

import json
from typing import Optional

import typer

from ..exists import tour_exists
from ..pieces import parse_piece
from ..render.text import render_tour
from .common import (
    BoardArg,
    ClosedOpt,
    EndOpt,
    HolesOpt,
    PieceOpt,
    StartOpt,
    app,
    fail,
    interrupt_status,
    interrupted,
    parse_board,
    progress_display,
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
    b = parse_board(board, holes)
    try:
        with progress_display("searching"):
            answer = tour_exists(b, start, end, closed, parse_piece(piece), certificate=certificate,
                                 time_limit=time_limit)
    except KeyboardInterrupt as exc:
        raise fail(f"{interrupted(exc)} before an answer.", interrupt_status(exc)) from None
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
