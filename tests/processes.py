"""The processes of a command under test: found by their parent, and started as a terminal starts them."""

from __future__ import annotations

import signal
from pathlib import Path


def children_of(pid: int) -> list[int]:
    """The processes that ``pid`` started (or forked) and that still run (read from ``/proc``: Linux only)."""
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit() and _parent(entry) == pid]


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` that still run (neither ended nor ended and waiting to be reaped)."""
    return [pid for pid in pids if _state(Path("/proc", str(pid))) not in (None, "Z", "X")]


def _stat(entry: Path) -> list[str] | None:
    try:
        text = (entry / "stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # after the command's name, which may hold spaces


def _parent(entry: Path) -> int | None:
    fields = _stat(entry)
    return None if fields is None or _state(entry) in ("Z", "X") else int(fields[1])


def _state(entry: Path) -> str | None:
    fields = _stat(entry)
    return None if fields is None else fields[0]


def ctrl_c_as_on_a_terminal() -> None:
    """For ``preexec_fn``: SIGINT's default action in the command, which Python turns into KeyboardInterrupt. A
    job started in the background of a shell without job control, as a test runner may be, ignores SIGINT, and
    the command would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def command_line(pid: int) -> str:
    """The command line of ``pid``, its arguments apart by spaces ("" once it has ended)."""
    try:
        return Path("/proc", str(pid), "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def semaphores_of(pid: int) -> set[str]:
    """The named semaphores that ``pid`` has open: the files of ``/dev/shm`` it maps."""
    try:
        maps = Path("/proc", str(pid), "maps").read_text()
    except OSError:
        return set()
    return {line.split()[-1] for line in maps.splitlines() if "/dev/shm/sem." in line}


def all_gone(pids: list[int], files: set[str], seconds: float) -> tuple[list[int], list[str]]:
    """Wait up to ``seconds`` for ``pids`` to end and ``files`` to be removed; those that are still there."""
    import os
    import time

    deadline = time.monotonic() + seconds
    while True:
        alive, left = running(pids), [f for f in sorted(files) if os.path.exists(f)]
        if not (alive or left) or time.monotonic() > deadline:
            return alive, left
        time.sleep(0.05)


def catches(pid: int, sig: int) -> bool:
    """Whether ``pid`` has a handler of its own for ``sig`` (its ``SigCgt`` mask in ``/proc``)."""
    try:
        status = Path("/proc", str(pid), "status").read_text()
    except OSError:
        return False
    mask = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(mask, 16) >> (sig - 1) & 1)
