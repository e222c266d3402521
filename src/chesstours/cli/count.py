"""``chesstours count``: exact counts of tours, of one board or of a strip family.

Registered on the Typer app of :mod:`chesstours.cli` (which imports this
module); kept apart so that the command line stays a set of thin modules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

import typer

from .. import count as counting
from .. import policy
from ..arguments import check_spread, prepare_query
from ..board import Board
from ..count import count_strip
from ..errors import InvalidArgument, LimitReached
from ..output import check_output
from ..pieces import parse_piece
from ..reading import whole_number
from ..units import about_duration
from .common import (
    EXIT_LIMIT,
    BoardArg,
    ClosedOpt,
    ClusterOpt,
    CountMethod,
    EndOpt,
    HolesOpt,
    JobsOpt,
    PieceOpt,
    PlanOpt,
    StartOpt,
    TimeOpt,
    WhereOpt,
    app,
    interrupt_status,
    interrupted,
    parse_board,
    print_plan,
    progress_display,
    say,
)
from .find import why_no_tour

_METHOD_HELP = policy.describe(policy.COUNT_METHOD_HELP)


def parse_lengths(text: str) -> list[int]:
    """``"5..40"`` -> 5, 6, ..., 40; ``"6,8,10"`` -> those; ``"7"`` -> 7."""
    out: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?", part)
        if not m:
            raise InvalidArgument(f"--cols takes lengths such as 5..40 or 6,8,10, not {text!r}.")
        lo, hi = (whole_number(m.group(g) or m.group(1), InvalidArgument, "A strip length") for g in (1, 2))
        if lo < 1 or hi < lo:
            raise InvalidArgument(f"--cols needs lengths of at least 1, low to high, not {part.strip()!r}.")
        out.extend(range(lo, hi + 1))
    return out


def _frontier_report(update, board: Board):
    def report(p) -> None:
        if update is None:
            return
        if hasattr(p, "states"):  # the frontier sweep
            if p.phase == "join":
                update(p.step, p.steps, f"join: {p.step} of {p.steps} parts of {p.states:,} states")
            else:
                where = "" if p.phase == "sweep" else f"{p.phase}: "
                update(p.step + 1, p.steps, f"{where}square {board.name(p.square)}, {p.states:,} states")
        elif "jobs" in p.extra:  # tasks (or frontier parts) on a pool or a cluster
            rate = p.tasks_done / p.seconds if p.seconds > 0 else 0.0
            left = (p.tasks_total - p.tasks_done) / rate if rate > 0 else None
            eta = f", {about_duration(left)} left" if left is not None else ""
            if "split_on" in p.extra:  # parts of either sign (a split on edges): no running count until all are in
                so_far = "" if p.extra.get("signed", True) else f"{p.count:,} undirected tours, "
                update(p.tasks_done, p.tasks_total, f"{p.tasks_done:,}/{p.tasks_total:,} parts, {so_far}"
                       f"{p.extra['max_states']:,} states at most, {rate:.2g} parts/s{eta}")
            else:
                update(p.tasks_done, p.tasks_total,
                       f"{p.tasks_done:,}/{p.tasks_total:,} tasks, {p.count:,} tours, {rate:.2g} tasks/s{eta}")
        else:  # backtracking
            update(p.tasks_done, p.tasks_total, f"{p.nodes:,} positions")

    return report


@app.command()
def count(
    board: Optional[str] = typer.Argument(None, metavar="BOARD", help=BoardArg.help),
    start: Optional[str] = StartOpt,
    end: Optional[str] = EndOpt,
    closed: bool = ClosedOpt,
    piece: str = PieceOpt,
    holes: str = HolesOpt,
    method: CountMethod = typer.Option("auto", "--method", "-m", help=_METHOD_HELP),
    strip: Optional[int] = typer.Option(None, "--strip", metavar="ROWS",
                                        help="Count the strips ROWS x K for every K in --cols, in one sweep."),
    cols: Optional[str] = typer.Option(None, "--cols", metavar="A..B", help="Strip lengths: 5..40 or 6,8,10."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    time_limit: Optional[float] = TimeOpt,
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads (default: all cores)."),
    spill_dir: Optional[str] = typer.Option(
        None, "--spill-dir", metavar="DIR",
        help="Frontier: keep each step's states in files in DIR, not in memory (counts too large for memory)."),
    progress: bool = typer.Option(True, "--progress/--no-progress",
                                  help="Show progress on a terminal (frontier: the square and the live states)."),
    plan: bool = PlanOpt,
    jobs: Optional[int] = JobsOpt,
    cluster: Optional[str] = ClusterOpt,
    checkpoint: Optional[Path] = typer.Option(
        None, "--checkpoint", metavar="FILE",
        help="Record finished tasks in FILE; started again with it, the count resumes where it stopped."),
    where: Optional[str] = WhereOpt,
    split_on: Optional[int] = typer.Option(
        None, "--split-on", metavar="K",
        help="Frontier: count in parts conditioned on K squares of the middle line; each part needs less memory, "
             "all of them more time (default with --jobs, --cluster or --checkpoint: the fewest that fit)."),
) -> None:
    """Count tours exactly: directed (sequences) and undirected (paths; closed: cycles)."""
    check_spread(workers, jobs, split_on, cluster)
    if checkpoint is not None:
        check_output(checkpoint)
    if strip is not None:
        if board is not None or start or end or holes:
            raise InvalidArgument("--strip counts whole strips: give no BOARD, --start, --end or --holes with it.")
        if cols is None:
            raise InvalidArgument("--strip needs --cols, such as --cols 5..40.")
        _refuse_unused("--strip counts every length in one frontier sweep", {
            "--method": method.value not in ("auto", "frontier"), "--plan": plan, "-w/--workers": workers,
            "--jobs": jobs, "--cluster": cluster, "--checkpoint": checkpoint, "--where": where,
            "--split-on": split_on})
        _strip(strip, parse_lengths(cols), closed, piece, as_json, time_limit, progress, spill_dir)
        return
    if board is None:
        raise InvalidArgument("Give a BOARD such as 6x6, or --strip ROWS --cols A..B.")
    if cols is not None:
        raise InvalidArgument("--cols goes with --strip.")
    b = parse_board(board, holes)
    if plan:
        _refuse_unused("--plan says how a count would run", {"--where": where})
        query = prepare_query(b, start, end, parse_piece(piece))
        split = jobs is not None or cluster is not None or checkpoint is not None or split_on is not None
        print_plan(policy.plan_count(*query, closed, "frontier" if split_on is not None else method.value,
                                     time_limit=time_limit, workers=workers, spill_dir=spill_dir, jobs=jobs,
                                     cluster=cluster, split=split, split_on=split_on),
                   as_json)
        return
    with progress_display("counting", progress) as update:
        try:
            result = counting.count_tours(b, start, end, closed, parse_piece(piece), method.value, time_limit=time_limit,
                                     workers=workers, progress=_frontier_report(update, b), spill_dir=spill_dir,
                                              jobs=jobs, cluster=cluster, checkpoint=checkpoint, where=where,
                                              split_on=split_on)
            code = 0
        except LimitReached as exc:
            result, code = exc.partial, EXIT_LIMIT
            say(str(exc))
        except KeyboardInterrupt as exc:
            partial = getattr(exc, "partial", None)
            if partial is None:  # the frontier method counts all at its last square; tasks still planned
                say(f"{interrupted(exc)} before the count was complete; nothing was counted.")
                raise typer.Exit(interrupt_status(exc)) from None
            say(f"{interrupted(exc)}; the counts below are incomplete.")
            result, code = partial, interrupt_status(exc)
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
        if result.method == "frontier" and "split_on" in result.extra:
            x = result.extra
            typer.echo(f"method:     frontier in {x['tasks']:,} parts, conditioned on {' '.join(x['split_on'])}; "
                       f"{x['max_states']:,} states at most in a part, {x['peak_memory_mb']:,.1f} MiB")
        elif result.method == "frontier":
            x = result.extra
            how = " (meet in the middle)" if x.get("how") == "meet in the middle" else ""
            disk = f", {x['peak_disk_mb']:,.1f} MiB on disk" if "peak_disk_mb" in x else ""
            plain = (f"; {x['plain_states']:,} states extended in plain Python"
                     if "plain_states" in x else "")
            typer.echo(f"method:     frontier{how}, {x['max_states']:,} states at most, "
                       f"{x['peak_memory_mb']:,.1f} MiB{disk}{plain}")
        else:
            typer.echo(f"method:     {result.method}")
            if result.method == "theory":
                reason = why_no_tour(result.board, result.start, result.end, closed, result.piece)
                if reason:
                    typer.echo(f"reason:     {reason}")
            typer.echo(f"nodes:      {result.nodes:,}")
        typer.echo(f"seconds:    {result.seconds:.3f}")
    if code:
        raise typer.Exit(code)


def _refuse_unused(what: str, given: dict[str, object]) -> None:
    """Refuse the options in ``given`` that were given (a true value): ``what`` says why they do not apply."""
    unused = [name for name, value in given.items() if value is not None and value is not False]
    if unused:
        names = unused[0] if len(unused) == 1 else ", ".join(unused[:-1]) + " and " + unused[-1]
        raise InvalidArgument(f"{what}, which does not use {names}.")


def _strip(rows: int, lengths: list[int], closed: bool, piece: str, as_json: bool, time_limit, progress,
           spill_dir: str | None) -> None:
    naming = Board(rows, max(rows, max(lengths)))
    with progress_display(f"{rows}-row strips", progress) as update:
        result = count_strip(rows, lengths, closed, parse_piece(piece), time_limit=time_limit,
                             progress=_frontier_report(update, naming), spill_dir=spill_dir)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        typer.echo("\n".join(result.lines()))
