"""``chesstours compile``: every compiled kernel into the compile cache now, so that no later command waits."""

from __future__ import annotations

from typing import Optional

import typer

from ..runtime import compile_cache_dir, worker_count
from ..runtime.families import FAMILIES, Compiled, compile_kernels, missing
from .common import EXIT_ENVIRONMENT, app, echo_above, fail, interrupt_status, interrupted, progress_display


def _line(name: str, state: str, seconds: str, serves: str) -> str:
    return f"{name:<16} {state:<13} {seconds:>7}  {serves}"


@app.command("compile")
def compile_command(
    status: bool = typer.Option(False, "--status", help="Only say which families of kernels the cache holds."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N",
                                       help="Families compiled at once, each in a process (default: the cores)."),
) -> None:
    """Compile every kernel now, once, so that no later command waits for the compiler.

    A first run compiles the kernels it needs: up to about a second more for a count by backtracking, longer
    for the frontier method's kernels (the figures are in the documentation's benchmarks); run this once after installing, or when building an image, and none does. The kernels go to the compile cache (NUMBA_CACHE_DIR, else the user's cache folder); a new
    version of chesstours or numba compiles them again. Exit status 5 when a family fails to compile.
    """
    folder = compile_cache_dir()
    if status:
        typer.echo(f"compile cache: {folder or 'none (no folder can be written: every run compiles)'}")
        for f in FAMILIES:
            gone = len(missing(f))
            state = "compiled" if not gone else "to compile" if gone == len(f.kernels) else "in part"
            typer.echo(_line(f.name, state, "", f.serves))
        return
    at_once = min(worker_count(jobs), len(FAMILIES))
    typer.echo(f"Compiling the kernels into {folder}, {at_once} famil{'y' if at_once == 1 else 'ies'} at once:")

    ended: list[Compiled] = []
    try:
        with progress_display("compiling") as update:

            def report(done: Compiled) -> None:
                ended.append(done)
                seconds = "" if done.state == "cached" else f"{done.seconds:.1f} s"
                state = "in the cache" if done.state == "cached" else done.state
                echo_above(_line(done.family.name, state, seconds, done.family.serves))
                if update is not None:
                    update(len(ended), len(FAMILIES), f"{len(ended)} of {len(FAMILIES)} families")

            if update is not None:
                update(0, len(FAMILIES), f"0 of {len(FAMILIES)} families")
            results = compile_kernels(jobs, report)
    except RuntimeError as exc:
        raise fail(f"{exc}.", EXIT_ENVIRONMENT) from None
    except KeyboardInterrupt as exc:
        raise fail(f"{interrupted(exc)}; the families compiled so far stay in the cache, and a run of "
                   "`chesstours compile` again compiles the rest.", interrupt_status(exc)) from None
    failed = [r.family.name for r in results if r.state == "failed"]
    if failed:
        raise fail(f"the kernels of {', '.join(failed)} failed to compile; a command that needs them compiles "
                   "them itself (and says why it cannot).", EXIT_ENVIRONMENT)
    typer.echo("Every kernel is in the compile cache: no command compiles any more.")
