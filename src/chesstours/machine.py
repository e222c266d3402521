"""What this machine offers a job: its cores, its memory, and a folder for compiled code.

The one place where a thread count left unsaid becomes a number and where the
memory a job may plan to use is measured; :mod:`chesstours.policy` builds its
plans on it, and the algorithm families fall back on it when a caller gives
no count.

>>> worker_count(3), worker_count() >= 1
(3, True)
>>> memory_limit() > 0
True
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from .errors import InvalidArgument

__all__ = ["cores", "worker_count", "memory_limit", "MEMORY_SHARE", "compile_cache_dir"]

#: The share of this machine's memory that one job may plan to use.
MEMORY_SHARE = 0.75


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(workers: int | None = None) -> int:
    """Threads (or processes) for a job: ``workers`` when given, else one a core.

    :raises InvalidArgument: if ``workers`` is below one.
    """
    if workers is None:
        return cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgument(f"The number of workers must be a whole number of at least 1, not {workers!r}.")
    return workers


def memory_limit() -> int:
    """Bytes a job may plan to use: :data:`MEMORY_SHARE` of this machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        total = 8 << 30
    return int(MEMORY_SHARE * total)


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-")
        probe.close()
        return True
    except OSError:
        return False


def compile_cache_dir() -> str | None:
    """Where numba keeps the compiled kernels: a per-user cache folder, never the installed package.

    ``NUMBA_CACHE_DIR`` when it is set; else ``chesstours/numba`` in the
    user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``~/Library/Caches``
    on macOS, ``%LOCALAPPDATA%`` on Windows), or in the temporary folder when
    that cannot be written. The first import of chesstours sets it for numba,
    so a read-only install or home compiles in memory at worst (None: no
    folder could be written), and uninstalling leaves nothing in site-packages.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    user = getattr(os, "getuid", lambda: "user")()
    for folder in (base / "chesstours" / "numba", Path(tempfile.gettempdir()) / f"chesstours-{user}" / "numba"):
        if _writable(folder):
            return str(folder)
    return None


def _use_compile_cache() -> None:
    folder = compile_cache_dir()
    if folder is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: tell it too
        numba_config.CACHE_DIR = folder  # type: ignore[attr-defined]


_use_compile_cache()
