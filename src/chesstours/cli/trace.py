"""``chesstours trace``: a search shown move by move."""

from __future__ import annotations

import sys
from enum import Enum
from itertools import islice
from pathlib import Path
from typing import Optional

import typer

from .. import policy
from ..errors import InvalidArgument
from ..output import write_atomic
from ..trace import trace_search
from .common import (
    BoardArg,
    ClosedOpt,
    EndOpt,
    FpsOpt,
    HolesOpt,
    Order,
    PieceOpt,
    SizeOpt,
    Tiebreak,
    app,
    check_picture,
    output_target,
    parse_board,
    picture_format,
    write_picture,
)


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
    order: Order = typer.Option(policy.LIST_ORDER, "--order", help="Backtracking move order (fixed: the same order at every square, as classic programs take it; or warnsdorff)."),
    tiebreak: Tiebreak = typer.Option(policy.DEFAULT_TIEBREAK, "--tiebreak", help="Warnsdorff tie-break."),
    seed: int = typer.Option(0, "--seed", help="Seed for the random tie-break."),
    steps: int = typer.Option(200, "--steps", "-n", metavar="N", help="Show the first N events (moves, skipped moves, steps back)."),
    fmt: Optional[TraceFormat] = typer.Option(None, "--format", "-f", help="text (default): each event and the board after it; gif or svg: one frame an event; png: the last frame. Without it, -o FILE's extension decides."),
    output_name: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to this file instead of stdout (- is stdout; an existing file is replaced whole)."),
    boards: bool = typer.Option(True, "--boards/--no-boards", help="text: print the board after each move and step back."),
    size: Optional[int] = SizeOpt,
    fps: Optional[float] = FpsOpt,
) -> None:
    """Show a search move by move: each move, each move given up, each step back."""
    output = output_target(output_name)
    b = parse_board(board, holes)
    kind = picture_format(fmt.value if fmt else None, output, False, "text")
    if kind not in ("text", "svg", "png", "gif"):
        raise InvalidArgument(f"A trace is text or a picture (svg, png, gif), not {kind}.")
    if steps < 1:
        raise InvalidArgument(f"--steps must be at least 1, not {steps}.")
    if kind != "text" and steps > MAX_TRACE_FRAMES:
        raise InvalidArgument(f"A trace picture has at most {MAX_TRACE_FRAMES} frames; ask for fewer --steps.")
    check_picture(kind, b, size, fps)
    events = trace_search(b, start, end, closed, piece, method.value, order=order.value, tiebreak=tiebreak.value,
                          seed=seed)
    shown = islice(events, min(steps, sys.maxsize))
    if kind == "text":
        from ..render.trace_text import trace_lines

        lines = trace_lines(shown, b, boards)
        if output is None or output == Path("-"):
            for line in lines:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
        else:
            write_atomic(output, "".join(line + "\n" for line in lines))
        return
    from ..render.picture import draw_trace

    write_picture(draw_trace(list(shown), b, kind, size=size, fps=fps), output)
