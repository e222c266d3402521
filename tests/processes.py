"""The processes of a command under test: found by their command line, and started as a terminal starts them."""

from __future__ import annotations

import signal
from pathlib import Path


def processes_with(text: str) -> list[int]:
    """The processes whose command line holds ``text`` (read from ``/proc``: Linux only)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in line:
            found.append(int(entry.name))
    return found


def ctrl_c_as_on_a_terminal() -> None:
    """For ``preexec_fn``: SIGINT's default action in the command, which Python turns into KeyboardInterrupt. A
    job started in the background of a shell without job control, as a test runner may be, ignores SIGINT, and
    the command would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
